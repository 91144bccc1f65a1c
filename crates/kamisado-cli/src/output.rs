//! Shared pieces of output: progress bars, numbers, memory, atomic file writes.

use std::io::{BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::failure::{Failure, Result};

/// A progress bar on standard error, hidden with `--quiet` or when stderr is not a terminal.
pub fn progress(len: u64, quiet: bool, message: &str) -> ProgressBar {
    let target = if quiet || !std::io::stderr().is_terminal() {
        ProgressDrawTarget::hidden()
    } else {
        ProgressDrawTarget::stderr()
    };
    let bar = ProgressBar::with_draw_target(Some(len), target);
    bar.set_style(
        ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} {elapsed_precise} eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    bar.set_message(message.to_owned());
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// A spinner on standard error showing `message` (which the caller may change) and the
/// time so far, hidden as [`progress`] says: for long work that cannot say how far along
/// it is.
pub fn spinner(quiet: bool, message: &str) -> ProgressBar {
    let target = if quiet || !std::io::stderr().is_terminal() {
        ProgressDrawTarget::hidden()
    } else {
        ProgressDrawTarget::stderr()
    };
    let spinner = ProgressBar::with_draw_target(None, target);
    spinner.set_style(
        ProgressStyle::with_template("{spinner} {msg} {elapsed_precise}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    spinner.set_message(message.to_owned());
    spinner.enable_steady_tick(Duration::from_millis(100));
    spinner
}

/// Runs `work` with a spinner on standard error (hidden as [`progress`] says) that shows
/// the time so far and `count()` of what is being counted (`unit`), refreshed a few
/// times a second: for long work that cannot say how far along it is.
pub fn with_spinner<T>(
    quiet: bool,
    message: &str,
    unit: &str,
    count: impl Fn() -> u64 + Sync,
    work: impl FnOnce() -> T,
) -> T {
    with_status(
        quiet,
        message,
        || format!("{message}: {} {unit}", thousands(count())),
        work,
    )
}

/// Runs `work` under a spinner (as [`with_spinner`]) whose line is `status()`, read four
/// times a second: for work whose progress is more than one count.
pub fn with_status<T>(
    quiet: bool,
    message: &str,
    status: impl Fn() -> String + Sync,
    work: impl FnOnce() -> T,
) -> T {
    if quiet || !std::io::stderr().is_terminal() {
        return work();
    }
    let spinner = spinner(quiet, message);
    let (done, wait_for_done) = std::sync::mpsc::channel::<()>();
    let result = std::thread::scope(|scope| {
        let spinner = &spinner;
        let status = &status;
        scope.spawn(move || {
            while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
                wait_for_done.recv_timeout(Duration::from_millis(250))
            {
                spinner.set_message(status());
            }
        });
        let result = work();
        drop(done);
        result
    });
    spinner.finish_and_clear();
    result
}

// The search reports' own numbers: one definition, in the analysis library.
pub use kamisado_analysis::{peak_memory_bytes, thousands};

/// What an output file holds, which decides what kind of file it may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputKind {
    /// Text (the opening table's JSON): a regular file, replaced whole; or a FIFO or a
    /// character device (`--out /dev/stdout`), written in place, as the user means.
    Text,
    /// A database: a regular file only, replaced whole; it is read by memory map, which
    /// a pipe or a device cannot give.
    Database,
    /// A file a later run reads back to resume (a survey): a regular file only, replaced
    /// whole; what a pipe or a device would give back is not what was written.
    Resumable,
}

/// Where an output goes, once checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A regular file, or a file to be created, at its real path (symbolic links
    /// followed, so that a link keeps pointing at the new contents): written under a
    /// temporary name beside it and renamed over it, so that an interrupted run leaves
    /// the old file or the new one, never half a file.
    Replace(PathBuf),
    /// A FIFO, a character device, or a file this process already has open (a path
    /// through `/proc`, like `/dev/stdout`): written in place, appending.
    InPlace(PathBuf),
}

/// Follows the symbolic links of `path` (see [`kamisado_files::follow_links`]).
fn follow_links(path: &Path) -> Result<(PathBuf, bool)> {
    kamisado_files::follow_links(path)
        .map_err(|e| Failure::input(format!("{}: cannot follow the link: {e}", path.display())))
}

/// Whether a FIFO or character device (which text is written into in place).
fn is_stream(file_type: std::fs::FileType) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        file_type.is_fifo() || file_type.is_char_device()
    }
    #[cfg(not(unix))]
    {
        let _ = file_type;
        false
    }
}

/// Checks that `path` can take an output of `kind`, before any work is done for it, and
/// says where the output goes. A regular file must be writable and so must its directory
/// (a file is created there and removed to make sure; missing directories are created);
/// a directory, a path under a regular file, and a file of the wrong kind are refused,
/// each with what is wrong.
pub fn check_output(path: &Path, kind: OutputKind) -> Result<Target> {
    let shown = path.display();
    let (real, through_proc) = follow_links(path)?;
    match std::fs::metadata(&real) {
        Ok(m) if m.is_dir() => {
            return Err(Failure::input(format!(
                "{shown}: cannot write it: it is a directory"
            )))
        }
        Ok(m) if m.is_file() && through_proc => {
            return match kind {
                OutputKind::Text => Ok(Target::InPlace(path.to_owned())),
                OutputKind::Database | OutputKind::Resumable => Err(Failure::input(format!(
                    "{shown}: this file is written by its own name, not through an open file of this process"
                ))),
            }
        }
        Ok(m) if m.is_file() => {
            if m.permissions().readonly() {
                return Err(Failure::input(format!(
                    "{shown}: cannot replace it: the file is read-only"
                )));
            }
        }
        Ok(m) => {
            let what = kamisado_files::kind(m.file_type());
            return match kind {
                OutputKind::Text if is_stream(m.file_type()) => {
                    Ok(Target::InPlace(path.to_owned()))
                }
                OutputKind::Text => Err(Failure::input(format!(
                    "{shown}: cannot write it: it is {what}, not a regular file, a FIFO or a character device"
                ))),
                OutputKind::Database => Err(Failure::input(format!(
                    "{shown}: cannot write a database there: it is {what}; a database must be a regular file"
                ))),
                OutputKind::Resumable => Err(Failure::input(format!(
                    "{shown}: cannot keep results there: it is {what}; a file that a later run resumes from must be a regular file"
                ))),
            };
        }
        Err(_) => {
            // Missing, or something on the way is not a directory: say which.
            if let Some(file) = real
                .ancestors()
                .skip(1)
                .find(|a| !a.as_os_str().is_empty() && std::fs::metadata(a).is_ok())
                .filter(|a| !a.is_dir())
            {
                return Err(Failure::input(format!(
                    "{shown}: cannot create it: {} is a file, not a directory",
                    file.display()
                )));
            }
        }
    }
    // A missing directory is a mistyped path as often as not: refused, not made.
    if let Some(dir) = real.parent().filter(|d| !d.as_os_str().is_empty()) {
        if !dir.is_dir() {
            return Err(Failure::input(format!(
                "{shown}: cannot create it: the directory {} does not exist",
                dir.display()
            )));
        }
    }
    kamisado_files::check_writable(&real)
        .map_err(|e| Failure::input(format!("{shown}: cannot write there: {e}")))?;
    Ok(Target::Replace(real))
}

/// Writes an output of `kind` to `path` as [`check_output`] says: a regular file under a
/// temporary name beside it, flushed to disk and renamed into place (so an interrupted
/// run never leaves half a file: the temporary file is removed on an interrupt too); a
/// FIFO or device in place. `write` produces the contents.
pub fn write_file<T>(
    path: &Path,
    kind: OutputKind,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<T>,
) -> Result<T> {
    let shown = path.display();
    let cannot = |e: std::io::Error| Failure::input(format!("{shown}: cannot write: {e}"));
    match check_output(path, kind)? {
        Target::InPlace(path) => {
            let file = std::fs::OpenOptions::new()
                .append(true)
                .open(&path)
                .map_err(cannot)?;
            let mut out = BufWriter::new(file);
            let result = write(&mut out).map_err(cannot)?;
            out.flush().map_err(cannot)?;
            Ok(result)
        }
        Target::Replace(real) => kamisado_files::replace(&real, write).map_err(cannot),
    }
}

/// Writes text to `path` (see [`write_file`]).
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    write_file(path, OutputKind::Text, |out| out.write_all(bytes))
}

/// Whether standard output was found closed: what is printed after that is dropped.
static STDOUT_CLOSED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Prints to standard output. A closed output (a reader such as `head` that has seen
/// enough, or `| true`) stops the output quietly, and the run goes on to its verdict:
/// its exit code is the one it would have had with every line read (a damaged database
/// is 1, a bad input 2, under `set -o pipefail` as without the pipe). Any other failure
/// to write (`> /dev/full`) is reported on standard error and ends the run with exit
/// code 2, like a failure to write any other output the user named. The crate's
/// `print!` and `println!` come here (see `main.rs`).
pub fn print_out(text: std::fmt::Arguments) {
    if STDOUT_CLOSED.load(std::sync::atomic::Ordering::Relaxed) {
        return;
    }
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(text) {
        stdout_failed(e);
    }
}

/// Flushes standard output, with the same handling of failure as [`print_out`].
pub fn flush_out() {
    if STDOUT_CLOSED.load(std::sync::atomic::Ordering::Relaxed) {
        return;
    }
    if let Err(e) = std::io::stdout().lock().flush() {
        stdout_failed(e);
    }
}

fn stdout_failed(e: std::io::Error) {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        STDOUT_CLOSED.store(true, std::sync::atomic::Ordering::Relaxed);
        return;
    }
    print_err(format_args!(
        "error: cannot write to standard output: {e}\n"
    ));
    crate::shutdown::exit(2)
}

/// Prints to standard error; if that fails too, there is nobody left to tell.
pub fn print_err(text: std::fmt::Arguments) {
    let _ = std::io::stderr().lock().write_fmt(text);
}

/// JSON text of a value, for printing or writing.
pub fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string_pretty(value).expect("report types serialise")
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("kamisado-cli-output-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn text_goes_into_fifos_and_devices_in_place_and_a_database_only_into_files() {
        let dir = scratch("kinds");
        let fifo = dir.join("fifo");
        let status = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(status.success());
        for path in [
            fifo.as_path(),
            Path::new("/dev/null"),
            Path::new("/dev/stdout"),
        ] {
            assert_eq!(
                check_output(path, OutputKind::Text).unwrap(),
                Target::InPlace(path.to_owned()),
                "{}",
                path.display()
            );
        }
        for path in [fifo.as_path(), Path::new("/dev/null")] {
            assert!(check_output(path, OutputKind::Database).is_err());
        }
        // Text written into the FIFO arrives whole, and the FIFO stays one.
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
        };
        write_atomically(&fifo, b"{\"value\": \"win\"}\n").unwrap();
        assert_eq!(reader.join().unwrap(), "{\"value\": \"win\"}\n");
        use std::os::unix::fs::FileTypeExt;
        assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
        write_atomically(Path::new("/dev/null"), b"nothing").unwrap();
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_link_is_followed_and_stays_a_link() {
        let dir = scratch("links");
        std::fs::create_dir(dir.join("sub")).unwrap();
        std::os::unix::fs::symlink("sub/table.json", dir.join("link.json")).unwrap();
        // A chain of links, one relative to its own directory.
        std::os::unix::fs::symlink(dir.join("link.json"), dir.join("sub/outer.json")).unwrap();
        let link = dir.join("sub/outer.json");
        assert_eq!(
            check_output(&link, OutputKind::Text).unwrap(),
            Target::Replace(dir.join("sub/table.json"))
        );
        write_atomically(&link, b"one").unwrap();
        write_atomically(&link, b"two").unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.join("sub/table.json")).unwrap(),
            "two"
        );
        for name in ["link.json", "sub/outer.json"] {
            let meta = std::fs::symlink_metadata(dir.join(name)).unwrap();
            assert!(meta.file_type().is_symlink(), "{name}");
        }
        // A cycle is refused, not followed for ever.
        std::os::unix::fs::symlink("b", dir.join("a")).unwrap();
        std::os::unix::fs::symlink("a", dir.join("b")).unwrap();
        let error = check_output(&dir.join("a"), OutputKind::Text).unwrap_err();
        assert!(format!("{error:?}").contains("too many symbolic links"));
        let left: Vec<_> = std::fs::read_dir(dir.join("sub"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left.len(), 2, "no temporary file left: {left:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
