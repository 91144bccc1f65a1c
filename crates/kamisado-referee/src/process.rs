//! An external engine as a child process, spoken to in KEI, never trusted.
//!
//! The command is run by the shell (`sh -c COMMAND` on Unix, `cmd /C COMMAND`
//! elsewhere), so it may carry arguments, quotes and redirections. A thread reads the
//! engine's standard output line by line into a channel, and the referee waits on the
//! channel with a deadline, so a silent engine costs exactly its time limit. Commands go
//! to the engine through a writing thread, so an engine that stops reading cannot block
//! the referee either. Another thread keeps the last lines of its standard error for
//! crash reports. Whatever the
//! engine does (exit, hang, print garbage or endless lines) becomes an [`EngineFault`];
//! nothing it does can panic or block the referee past a deadline.
//!
//! What the referee holds from an engine is bounded: a line is at most
//! [`MAX_LINE_BYTES`], and the lines read but not yet looked at are at most
//! [`MAX_QUEUED_LINES`] and [`MAX_QUEUED_BYTES`] (an engine that writes faster than the
//! referee reads forfeits as [`EngineFault::Flooded`]). The deadline is checked before
//! every line, so an engine that never stops writing still times out.
//!
//! Every engine runs in a process group of its own, and the groups of the engines alive
//! are kept in one list, so that a program being interrupted can end them all with
//! [`end_all_engines`] before it exits: no engine outlives its referee.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command as Process, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{
    channel, sync_channel, Receiver, RecvTimeoutError, Sender, SyncSender, TryRecvError,
    TrySendError,
};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use kamisado_core::quote;
use serde::Serialize;

use crate::protocol::{Action, Command, PositionSpec, Reply, MAX_LINE_BYTES};
use crate::text_serde;

/// How many lines of the engine's standard error a crash report quotes.
const STDERR_LINES: usize = 3;
/// How long a quitting or crashing engine gets to exit before it is killed.
const EXIT_GRACE: Duration = Duration::from_millis(500);
/// The most lines from an engine the referee holds unread. A chatty engine's `info`
/// lines while the perfect player thinks fit many times over; `yes` does not.
pub const MAX_QUEUED_LINES: usize = 10_000;
/// The most bytes of lines from an engine the referee holds unread.
pub const MAX_QUEUED_BYTES: usize = 4 << 20;

/// The process groups of the engines started and not yet reaped, and whether new ones
/// may start (not once the program is ending).
struct Running {
    groups: Vec<u32>,
    ending: bool,
}

static RUNNING: Mutex<Running> = Mutex::new(Running {
    groups: Vec::new(),
    ending: false,
});

/// The list of running engines, even if a thread panicked while holding it (the list
/// itself is always consistent: every change is one push or one removal).
fn running() -> MutexGuard<'static, Running> {
    RUNNING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Kills every engine this process started and has not yet reaped, with its whole
/// process group, and refuses to start new ones ([`EngineFault::Spawn`]). For a program
/// about to exit on an interrupt: it must not leave engines running. Safe to call from
/// any thread, any number of times.
pub fn end_all_engines() {
    let mut running = running();
    running.ending = true;
    for &pid in &running.groups {
        kill_group(pid);
    }
}

/// Something an engine did that ends its game: it loses that game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EngineFault {
    #[error("the engine could not be started: {error}")]
    Spawn { error: String },
    #[error("the engine {how}{}", quote_stderr(stderr))]
    Exited {
        /// "exited (exit status: 1)", "closed its standard output", ...
        how: String,
        /// Its last lines on standard error, if it wrote any.
        stderr: Option<String>,
    },
    #[error("no answer to `{command}` within the time limit of {limit_ms} ms")]
    TimeOut { command: String, limit_ms: u128 },
    #[error("garbage from the engine: {reason}")]
    Garbage { line: String, reason: String },
    #[error("the engine printed a line longer than 64 KiB")]
    LineTooLong,
    #[error("the engine wrote faster than the referee reads: more than {MAX_QUEUED_LINES} lines or {} MiB unread", MAX_QUEUED_BYTES >> 20)]
    Flooded,
    #[error("`{line}` arrived before the referee asked for a move (one `go`, one `bestmove`)")]
    Unasked { line: String },
    #[error("the engine answered `bestmove (none)`: it gave no move")]
    NoMove,
    #[error("illegal {} {mv}: {reason}", if matches!(.mv, Action::Refill(_)) { "refill choice" } else { "move" })]
    Illegal {
        /// The move, or the refill choice (`left`, `right`).
        #[serde(rename = "move", serialize_with = "text_serde::display")]
        mv: Action,
        reason: String,
    },
}

impl EngineFault {
    /// A short name for tallies: `spawn`, `exited`, `time_out`, `garbage`, ...
    pub const fn kind(&self) -> &'static str {
        match self {
            EngineFault::Spawn { .. } => "spawn",
            EngineFault::Exited { .. } => "exited",
            EngineFault::TimeOut { .. } => "time_out",
            EngineFault::Garbage { .. } => "garbage",
            EngineFault::LineTooLong => "line_too_long",
            EngineFault::Flooded => "flooded",
            EngineFault::Unasked { .. } => "unasked",
            EngineFault::NoMove => "no_move",
            EngineFault::Illegal { .. } => "illegal",
        }
    }
}

fn quote_stderr(stderr: &Option<String>) -> String {
    match stderr {
        Some(text) => format!("; its last words on stderr: {text}"),
        None => String::new(),
    }
}

/// `text` for a report: cut short, control characters escaped.
fn shorten(text: &str) -> String {
    quote(text).to_string()
}

/// What the reading thread saw on the engine's standard output.
enum Output {
    /// A line, and whether more of the output came with it, in the same read: the rest
    /// of one write of the engine's, which the referee judges with the line.
    Line {
        text: String,
        followed: bool,
    },
    TooLong,
    /// More unread lines than the referee holds; nothing more is read.
    Flooded,
    Closed,
}

/// The end of the engine's standard error, for crash reports.
#[derive(Default)]
struct StderrTail {
    lines: VecDeque<String>,
    closed: bool,
}

/// A running engine that has answered `kei` with `keiok`.
pub struct EngineProcess {
    child: Child,
    /// Lines for the writing thread; it ends when this is dropped or a write fails.
    input: Sender<String>,
    output: Receiver<Output>,
    /// The lines in `output` not yet received.
    unread: Arc<Unread>,
    /// Whether the last line received came with more output (see [`Output::Line`]).
    followed: bool,
    /// The fault found in what came with the last answer, for the next question: the
    /// answer itself stands.
    fault_after_answer: Option<EngineFault>,
    stderr: Arc<Mutex<StderrTail>>,
    name: Option<String>,
    author: Option<String>,
    /// Set once the process has been waited for, so that dropping does not kill again.
    reaped: bool,
}

impl EngineProcess {
    /// Starts `command` and shakes hands: `kei`, answered by `keiok` (after optional `id`
    /// and `info` lines) within `limit`.
    pub fn start(command: &str, limit: Duration) -> Result<EngineProcess, EngineFault> {
        let mut child = {
            // Spawned and listed under one lock, so that `end_all_engines` either sees
            // the engine or stops it from starting.
            let mut running = running();
            if running.ending {
                return Err(EngineFault::Spawn {
                    error: "the referee is stopping".into(),
                });
            }
            let child = shell(command)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .map_err(|e| EngineFault::Spawn {
                    error: format!("`{command}`: {e}"),
                })?;
            running.groups.push(child.id());
            child
        };
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            kill_group(child.id());
            let _ = child.kill();
            forget(&mut child);
            return Err(EngineFault::Spawn {
                error: "its standard streams could not be connected".into(),
            });
        };
        let (input, commands) = channel::<String>();
        std::thread::Builder::new()
            .name("engine-stdin".into())
            .spawn(move || write_lines(stdin, commands))
            .map_err(|e| EngineFault::Spawn {
                error: format!("cannot start a writing thread: {e}"),
            })?;
        // Room for the most lines held unread and the one event after them that ends the
        // reading (flooded, too long, closed): the reader never waits for the referee.
        let (lines, output) = sync_channel(MAX_QUEUED_LINES + 1);
        let unread = Arc::new(Unread::default());
        let counter = Arc::clone(&unread);
        std::thread::Builder::new()
            .name("engine-stdout".into())
            .spawn(move || read_lines(stdout, |event| queue(&lines, &counter, event)))
            .map_err(|e| EngineFault::Spawn {
                error: format!("cannot start a reading thread: {e}"),
            })?;
        let tail = Arc::new(Mutex::new(StderrTail::default()));
        let keeper = Arc::clone(&tail);
        // Without this thread the engine's stderr is not read; an engine that writes much
        // there would block. If the thread cannot start, crash reports lack stderr.
        let _ = std::thread::Builder::new()
            .name("engine-stderr".into())
            .spawn(move || keep_tail(stderr, &keeper));

        let mut engine = EngineProcess {
            child,
            input,
            output,
            unread,
            followed: false,
            fault_after_answer: None,
            stderr: tail,
            name: None,
            author: None,
            reaped: false,
        };
        engine.handshake(limit)?;
        Ok(engine)
    }

    /// The name the engine gave with `id name`.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The author the engine gave with `id author`.
    pub fn author(&self) -> Option<&str> {
        self.author.as_deref()
    }

    fn handshake(&mut self, limit: Duration) -> Result<(), EngineFault> {
        self.send(&Command::Kei)?;
        let deadline = Instant::now() + limit;
        loop {
            match self.next_reply(deadline, "kei", limit)? {
                Reply::KeiOk => return Ok(()),
                Reply::Id { field, value } => match field.as_str() {
                    "name" => self.name = Some(value),
                    "author" => self.author = Some(value),
                    _ => {}
                },
                Reply::Info(_) => {}
                Reply::BestMove(_) => {
                    return Err(EngineFault::Garbage {
                        line: "bestmove".into(),
                        reason: "`bestmove` in answer to `kei` (expected `keiok`)".into(),
                    })
                }
            }
        }
    }

    /// Tells the engine that a new game begins (`keinewgame`).
    pub fn new_game(&mut self) -> Result<(), EngineFault> {
        self.send(&Command::NewGame)
    }

    /// Sends `position` and `go movetime`, and waits up to `limit` for `bestmove`.
    /// Returns the move or refill choice (not yet checked against the rules) and the time
    /// it took.
    pub fn best_move(
        &mut self,
        spec: &PositionSpec,
        limit: Duration,
    ) -> Result<(Action, Duration), EngineFault> {
        self.reject_unasked()?;
        self.send(&Command::Position(spec.clone()))?;
        self.send(&Command::Go {
            movetime: Some(limit),
        })?;
        let started = Instant::now();
        let deadline = started + limit;
        loop {
            match self.next_reply(deadline, "go", limit)? {
                Reply::BestMove(Some(m)) => {
                    // What came with the answer is read now, not taken for the answer to
                    // the next `go`: a second `bestmove` written with the first always
                    // forfeits as unasked at the next question, however the threads are
                    // timed. The answer itself stands.
                    self.fault_after_answer = self.reject_rest_of_answer(deadline).err();
                    return Ok((m, started.elapsed()));
                }
                Reply::BestMove(None) => return Err(EngineFault::NoMove),
                Reply::Info(_) | Reply::Id { .. } => {}
                Reply::KeiOk => {
                    return Err(EngineFault::Garbage {
                        line: "keiok".into(),
                        reason: "`keiok` in answer to `go` (expected `bestmove`)".into(),
                    })
                }
            }
        }
    }

    /// Asks the engine to quit, gives it a moment, then makes sure it is gone.
    pub fn quit(mut self) {
        let _ = self.send(&Command::Quit);
        let deadline = Instant::now() + EXIT_GRACE;
        while Instant::now() < deadline && self.try_reap().is_none() {
            std::thread::sleep(Duration::from_millis(5));
        }
        // Drop kills what is left, including children the engine started.
    }

    /// Queues a command for the engine. A write that fails (the engine is gone) shows up
    /// as the end of its output, which is where the referee looks for answers.
    fn send(&mut self, command: &Command) -> Result<(), EngineFault> {
        match self.input.send(command.to_string()) {
            Ok(()) => Ok(()),
            Err(_) => Err(self.exit_fault()),
        }
    }

    /// The next non-empty reply, or the fault that stands in for it.
    fn next_reply(
        &mut self,
        deadline: Instant,
        command: &str,
        limit: Duration,
    ) -> Result<Reply, EngineFault> {
        let time_out = || EngineFault::TimeOut {
            command: command.to_owned(),
            limit_ms: limit.as_millis(),
        };
        loop {
            // Checked before every line: `recv_timeout` returns at once while lines keep
            // coming, so an engine that writes without end would otherwise never time out.
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(time_out());
            }
            let event = match self.output.recv_timeout(left) {
                Ok(event) => self.received(event),
                Err(RecvTimeoutError::Timeout) => return Err(time_out()),
                Err(RecvTimeoutError::Disconnected) => Output::Closed,
            };
            match event {
                Output::Line { text: line, .. } => match Reply::parse(&line) {
                    Ok(Some(reply)) => return Ok(reply),
                    Ok(None) => {}
                    Err(e) => {
                        return Err(EngineFault::Garbage {
                            line: shorten(&line),
                            reason: shorten(&e.to_string()),
                        })
                    }
                },
                Output::TooLong => return Err(EngineFault::LineTooLong),
                Output::Flooded => return Err(EngineFault::Flooded),
                Output::Closed => return Err(self.exit_fault()),
            }
        }
    }

    /// Takes a line off the count of unread lines.
    fn received(&mut self, event: Output) -> Output {
        if let Output::Line {
            text: line,
            followed,
        } = &event
        {
            self.followed = *followed;
            self.unread.lines.fetch_sub(1, Ordering::Relaxed);
            self.unread
                .bytes
                .fetch_sub(queued_size(line), Ordering::Relaxed);
        }
        event
    }

    /// The engine's exit status, if it has exited; it is then reaped and struck off the
    /// list of running engines in one step, so that its group is never signalled after
    /// its process id may have been reused.
    fn try_reap(&mut self) -> Option<std::process::ExitStatus> {
        let mut running = running();
        let status = self.child.try_wait().ok().flatten()?;
        self.reaped = true;
        running.groups.retain(|&pid| pid != self.child.id());
        Some(status)
    }

    /// Fails on a `bestmove` (or garbage) the engine printed while nobody asked: it would
    /// otherwise be taken as the answer to the next `go`.
    fn reject_unasked(&mut self) -> Result<(), EngineFault> {
        if let Some(fault) = self.fault_after_answer.take() {
            return Err(fault);
        }
        loop {
            match self.output.try_recv() {
                Ok(event) => {
                    let event = self.received(event);
                    self.reject_unasked_event(event)?;
                }
                Err(TryRecvError::Disconnected) => return Err(self.exit_fault()),
                Err(TryRecvError::Empty) => return Ok(()),
            }
        }
    }

    /// Reads the lines that came with the last one (in the same read, see
    /// [`Output::Line`]: the rest of the engine's write, already on its way) and fails on
    /// any that answers what was not asked, as [`EngineProcess::reject_unasked`] does.
    fn reject_rest_of_answer(&mut self, deadline: Instant) -> Result<(), EngineFault> {
        while self.followed {
            let left = deadline.saturating_duration_since(Instant::now());
            let event = match self.output.recv_timeout(left) {
                Ok(event) => self.received(event),
                // A partial line that never ends: the next `go` deals with it.
                Err(RecvTimeoutError::Timeout) => return Ok(()),
                Err(RecvTimeoutError::Disconnected) => Output::Closed,
            };
            self.reject_unasked_event(event)?;
        }
        Ok(())
    }

    /// The fault in `event` when nothing was asked: any reply but `info` and `id`.
    fn reject_unasked_event(&mut self, event: Output) -> Result<(), EngineFault> {
        match event {
            Output::Line { text: line, .. } => match Reply::parse(&line) {
                Ok(None | Some(Reply::Info(_) | Reply::Id { .. })) => Ok(()),
                Ok(Some(_)) => Err(EngineFault::Unasked {
                    line: shorten(&line),
                }),
                Err(e) => Err(EngineFault::Garbage {
                    line: shorten(&line),
                    reason: shorten(&e.to_string()),
                }),
            },
            Output::TooLong => Err(EngineFault::LineTooLong),
            Output::Flooded => Err(EngineFault::Flooded),
            Output::Closed => Err(self.exit_fault()),
        }
    }

    /// The fault of an engine whose output closed or whose input broke: how it ended
    /// and its last words on stderr.
    fn exit_fault(&mut self) -> EngineFault {
        let deadline = Instant::now() + EXIT_GRACE;
        let mut status = None;
        while Instant::now() < deadline {
            status = self.try_reap();
            if status.is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        // Its stderr ends when it exits; give the reading thread a moment to catch up.
        while Instant::now() < deadline {
            if self.stderr.lock().map_or(true, |t| t.closed) {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let stderr = self.stderr.lock().ok().and_then(|tail| {
            let lines: Vec<&str> = tail.lines.iter().map(String::as_str).collect();
            (!lines.is_empty()).then(|| lines.join(" | "))
        });
        let how = match status {
            Some(s) => format!("exited ({s})"),
            None => "closed its standard output".to_owned(),
        };
        EngineFault::Exited { how, stderr }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if self.reaped {
            // The group's leader is gone and its pid may be reused: signalling the group
            // now could hit a stranger. An engine that exited took its group with it.
            return;
        }
        kill_group(self.child.id());
        let _ = self.child.kill();
        forget(&mut self.child);
    }
}

/// Waits for a killed engine and strikes it off the list of running engines, in one step
/// (see [`EngineProcess::try_reap`]).
fn forget(child: &mut Child) {
    let mut running = running();
    let _ = child.wait();
    running.groups.retain(|&pid| pid != child.id());
}

/// The room a line takes in the count of unread bytes: an empty line counts too.
fn queued_size(line: &str) -> usize {
    line.len() + 1
}

/// The lines from an engine that the referee has not received yet.
#[derive(Default)]
struct Unread {
    lines: AtomicUsize,
    bytes: AtomicUsize,
}

/// Hands `event` to the referee if the unread lines stay within their bounds; otherwise
/// hands over [`Output::Flooded`] instead and tells the reader to stop. False when the
/// reader is to stop. Never waits: the channel has room for the most lines held unread
/// and one more event.
fn queue(lines: &SyncSender<Output>, unread: &Unread, event: Output) -> bool {
    let Output::Line {
        text: line,
        followed,
    } = event
    else {
        let _ = lines.try_send(event);
        return false;
    };
    let size = queued_size(&line);
    let too_many = unread.lines.fetch_add(1, Ordering::Relaxed) + 1 > MAX_QUEUED_LINES;
    let too_big = unread.bytes.fetch_add(size, Ordering::Relaxed) + size > MAX_QUEUED_BYTES;
    if too_many || too_big {
        let _ = lines.try_send(Output::Flooded);
        return false;
    }
    match lines.try_send(Output::Line {
        text: line,
        followed,
    }) {
        Ok(()) => true,
        Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => false,
    }
}

/// The shell command that runs `command`, in a process group of its own on Unix so that
/// killing the group also kills an engine the shell started as its child.
fn shell(command: &str) -> Process {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        let mut process = Process::new("sh");
        process.arg("-c").arg(command).process_group(0);
        process
    }
    #[cfg(not(unix))]
    {
        let mut process = Process::new("cmd");
        process.arg("/C").arg(command);
        process
    }
}

/// Kills the process group that the engine with process id `pid` leads.
fn kill_group(pid: u32) {
    #[cfg(unix)]
    {
        if let Ok(pid) = libc::pid_t::try_from(pid) {
            // SAFETY: kill(2) with a negative pid signals the process group the child
            // leads (it was started with `process_group(0)`); it touches no memory.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
    }
}

/// Writes each line to the engine and flushes, until the referee hangs up or the engine
/// stops accepting input.
fn write_lines(mut stdin: ChildStdin, lines: Receiver<String>) {
    for line in lines {
        if writeln!(stdin, "{line}")
            .and_then(|()| stdin.flush())
            .is_err()
        {
            return;
        }
    }
}

/// Reads `stream` line by line, at most [`MAX_LINE_BYTES`] a line, and hands each line
/// (lossily decoded, without its line ending) to `deliver` until the stream ends, a line
/// is too long, or `deliver` returns false (nobody listens any more).
fn read_lines(stream: impl Read, mut deliver: impl FnMut(Output) -> bool) {
    let mut reader = BufReader::new(stream);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let limit = MAX_LINE_BYTES as u64 + 1;
        match reader.by_ref().take(limit).read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => {
                deliver(Output::Closed);
                return;
            }
            Ok(_) => {
                if buf.last() != Some(&b'\n') && buf.len() > MAX_LINE_BYTES {
                    deliver(Output::TooLong);
                    return;
                }
                let text = String::from_utf8_lossy(&buf);
                let line = text.trim_end_matches(['\n', '\r']).to_owned();
                let followed = !reader.buffer().is_empty();
                if !deliver(Output::Line {
                    text: line,
                    followed,
                }) {
                    return;
                }
            }
        }
    }
}

/// Keeps the last [`STDERR_LINES`] non-empty lines of the engine's standard error.
fn keep_tail(stream: impl Read, tail: &Mutex<StderrTail>) {
    read_lines(stream, |event| {
        let Ok(mut tail) = tail.lock() else {
            return false;
        };
        match event {
            Output::Line { text: line, .. } if !line.trim().is_empty() => {
                if tail.lines.len() == STDERR_LINES {
                    tail.lines.pop_front();
                }
                tail.lines.push_back(shorten(line.trim()));
                true
            }
            Output::Line { .. } => true,
            // A line too long to keep is not worth quoting; keep reading nothing more.
            Output::TooLong | Output::Flooded | Output::Closed => {
                tail.closed = true;
                false
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use kamisado_core::QUOTED_CHARS;

    #[test]
    fn lines_are_split_and_bounded() {
        let mut seen = Vec::new();
        read_lines(&b"keiok\r\n\nbestmove a1-a5"[..], |e| {
            seen.push(match e {
                Output::Line { text, .. } => text,
                Output::TooLong => "<too long>".into(),
                Output::Flooded => "<flooded>".into(),
                Output::Closed => "<closed>".into(),
            });
            true
        });
        assert_eq!(seen, ["keiok", "", "bestmove a1-a5", "<closed>"]);

        let long = vec![b'x'; MAX_LINE_BYTES + 10];
        let mut events = 0;
        let mut too_long = false;
        read_lines(&long[..], |e| {
            events += 1;
            too_long |= matches!(e, Output::TooLong);
            true
        });
        assert!(too_long);
        assert_eq!(events, 1);
    }

    /// The events a reader delivers through [`queue`] from `bytes`, read by the referee
    /// only after the reader has stopped.
    fn queued_events(bytes: &[u8]) -> Vec<Output> {
        let (lines, output) = sync_channel(MAX_QUEUED_LINES + 1);
        let unread = Unread::default();
        read_lines(bytes, |event| queue(&lines, &unread, event));
        drop(lines);
        output.iter().collect()
    }

    #[test]
    fn unread_lines_are_bounded_in_number_and_bytes() {
        let events = queued_events(&vec![b'\n'; MAX_QUEUED_LINES + 5]);
        assert_eq!(events.len(), MAX_QUEUED_LINES + 1);
        assert!(matches!(events.last(), Some(Output::Flooded)));

        let mut long = vec![b'x'; MAX_LINE_BYTES - 1];
        long.push(b'\n');
        let many = long.repeat(MAX_QUEUED_BYTES / MAX_LINE_BYTES + 2);
        let events = queued_events(&many);
        assert_eq!(events.len(), MAX_QUEUED_BYTES / MAX_LINE_BYTES + 1);
        assert!(matches!(events.last(), Some(Output::Flooded)));

        // Within the bounds, everything arrives and the end is reported.
        let events = queued_events(b"keiok\ninfo x\n");
        assert_eq!(events.len(), 3);
        assert!(matches!(events.last(), Some(Output::Closed)));
    }

    #[test]
    fn shortening_respects_characters() {
        let text = "é".repeat(100);
        let short = shorten(&text);
        assert_eq!(short.chars().count(), QUOTED_CHARS + 3);
        assert_eq!(shorten("short"), "short");
    }
}
