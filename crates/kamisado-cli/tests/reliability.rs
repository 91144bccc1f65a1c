//! What the `kamisado` binary guarantees whatever happens around it: an output that
//! closes, an interrupt, an output path that is not an ordinary file, input that is not
//! text, and arguments that are wrong in odd ways.

#![cfg(unix)]

use std::io::Write;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::kamisado;

const KAMISADO: &str = env!("CARGO_BIN_EXE_kamisado");
/// Black (to move) wins in 10: solved in milliseconds.
const LATE: &str = "h1-h7 c8-c4 b1-b2 h8-d4";

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "kamisado-cli-reliability-{}-{test}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Waits for `child` at most `limit`; kills it and fails the test after that.
fn wait_within(child: &mut Child, limit: Duration, what: &str) -> ExitStatus {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn signal(child: &Child, signal: libc::c_int) {
    // SAFETY: kill(2) on the child's process id; it touches no memory.
    let result = unsafe { libc::kill(child.id() as libc::pid_t, signal) };
    assert_eq!(result, 0, "kill({}, {signal})", child.id());
}

/// Whether process `pid` is gone (or a zombie nobody has reaped yet).
fn is_gone(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with(['Z', 'X'])),
    }
}

fn wait_for_file(path: &Path, limit: Duration) -> String {
    let deadline = Instant::now() + limit;
    loop {
        if let Ok(text) = std::fs::read_to_string(path) {
            if text.ends_with('\n') {
                return text;
            }
        }
        assert!(
            Instant::now() < deadline,
            "{} never appeared",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The database of a short solve, for the commands that read one.
fn small_database(dir: &Path) -> PathBuf {
    let path = dir.join("late.kdb");
    let run = kamisado(
        &[
            "solve",
            "--moves",
            LATE,
            "--hash-mb",
            "16",
            "--db",
            text(&path),
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    path
}

/// Runs `kamisado args` with standard output a pipe whose reading end is already closed,
/// as after `| head -1` has read its line; returns the exit status and standard error.
fn with_closed_output(args: &[&str], stdin: &str) -> (ExitStatus, String) {
    let mut fds = [0; 2];
    // SAFETY: pipe(2) fills the two descriptors; the reading one is closed at once and
    // the writing one handed to the child as its standard output, then closed here.
    let writer = unsafe {
        assert_eq!(libc::pipe(fds.as_mut_ptr()), 0);
        libc::close(fds[0]);
        <std::os::fd::OwnedFd as std::os::fd::FromRawFd>::from_raw_fd(fds[1])
    };
    let mut child = Command::new(KAMISADO)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::from(writer))
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    let stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || std::io::read_to_string(stderr).unwrap());
    let status = wait_within(&mut child, Duration::from_secs(120), &args.join(" "));
    (status, reader.join().unwrap())
}

#[test]
fn a_closed_output_ends_every_successful_command_quietly_with_exit_code_0() {
    let dir = scratch("pipe");
    let db = small_database(&dir);
    let games = dir.join("games.txt");
    std::fs::write(&games, format!("{LATE} a1-a6\n")).unwrap();
    let engine = format!("{KAMISADO} engine --hash-mb 16");
    let commands: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--help"], ""),
        (vec!["show"], ""),
        (vec!["show", "--json"], ""),
        (vec!["perft", "3", "--divide"], ""),
        (vec!["solve", "--moves", LATE, "--hash-mb", "16"], ""),
        (vec!["openings", "--values-only", "--hash-mb", "16"], ""),
        (vec!["query", "--moves", LATE, "--hash-mb", "16"], ""),
        (vec!["db", "info", text(&db)], ""),
        (vec!["db", "check", text(&db)], ""),
        (vec!["verify", text(&games), "--hash-mb", "16"], ""),
        (
            vec!["play", "--moves", LATE, "--hash-mb", "16"],
            "a1-a6\nquit\n",
        ),
        (vec!["engine", "--hash-mb", "16"], "kei\n"),
        (
            vec![
                "match", "--engine", &engine, "--moves", LATE, "--games", "1",
            ],
            "",
        ),
        (
            vec![
                "match", "--engine", &engine, "--moves", LATE, "--games", "1", "--json",
            ],
            "",
        ),
    ];
    for (args, stdin) in commands {
        let (status, stderr) = with_closed_output(&args, stdin);
        let what = args.join(" ");
        assert_eq!(status.code(), Some(0), "{what}: {status}, stderr: {stderr}");
        // The run goes on to its end: what it reports on standard error (perft's
        // speed) is still there, but no error.
        assert!(!stderr.contains("error"), "{what}: {stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_interrupted_match_leaves_no_engine_running() {
    let dir = scratch("match");
    let pid_file = dir.join("engine.pid");
    // The engine starts a process of its own, which must go too: the whole group.
    let engine = format!("sleep 78 & echo $! > {}; wait", pid_file.display());
    for sig in [libc::SIGINT, libc::SIGTERM] {
        let _ = std::fs::remove_file(&pid_file);
        let mut child = Command::new(KAMISADO)
            .args(["match", "--engine", &engine, "--time-limit", "30"])
            .args(["--hash-mb", "16", "--games", "1"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let sleeper: u32 = wait_for_file(&pid_file, Duration::from_secs(20))
            .trim()
            .parse()
            .unwrap();
        assert!(!is_gone(sleeper));
        signal(&child, sig);
        let status = wait_within(&mut child, Duration::from_secs(10), "match");
        // Ended the way the signal ends a program: a shell shows 130 for Ctrl-C.
        assert_eq!(status.signal(), Some(sig), "{status}");
        let deadline = Instant::now() + Duration::from_secs(5);
        while !is_gone(sleeper) {
            assert!(
                Instant::now() < deadline,
                "the engine's process {sleeper} outlived the referee (signal {sig})"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The temporary files (`*.tmp`) in `dir`, with their sizes.
fn temporary_files(dir: &Path) -> Vec<(PathBuf, u64)> {
    std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .map(|e| (e.path(), e.metadata().map_or(0, |m| m.len())))
        .collect()
}

#[test]
fn an_interrupt_while_a_database_is_written_leaves_no_temporary_file() {
    let dir = scratch("write");
    let db = dir.join("mid.kdb");
    // The moment to catch: the database's temporary file exists and has contents. The
    // writer is stopped (SIGSTOP) as soon as it is seen, interrupted, and let go on.
    let mut caught = 0;
    for _attempt in 0..5 {
        let mut child = Command::new(KAMISADO)
            .args([
                "solve",
                "--moves",
                "h1-h7",
                "--hash-mb",
                "256",
                "--threads",
                "2",
            ])
            .args(["--db", text(&db)])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(120);
        let mut seen = false;
        while child.try_wait().unwrap().is_none() && Instant::now() < deadline {
            if temporary_files(&dir).iter().any(|(_, size)| *size > 0) {
                signal(&child, libc::SIGSTOP);
                seen = !temporary_files(&dir).is_empty();
                signal(&child, libc::SIGINT);
                signal(&child, libc::SIGCONT);
                break;
            }
        }
        let status = wait_within(&mut child, Duration::from_secs(30), "solve --db");
        assert_eq!(temporary_files(&dir), vec![], "after {status}");
        if seen {
            assert_eq!(status.signal(), Some(libc::SIGINT), "{status}");
            caught += 1;
            break;
        }
    }
    assert!(caught > 0, "never caught the database being written");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `kamisado args`, which must fail within a few seconds: long before a solve would end.
fn fails_fast(args: &[&str]) -> common::Run {
    let started = Instant::now();
    let run = kamisado(args, "");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{}: failed only after {:?}",
        args.join(" "),
        started.elapsed()
    );
    run
}

#[test]
fn output_paths_are_checked_before_the_work() {
    let dir = scratch("paths");
    let file = dir.join("file.txt");
    std::fs::write(&file, "not a directory").unwrap();
    let read_only = dir.join("read-only.json");
    std::fs::write(&read_only, "{}").unwrap();
    let mut permissions = std::fs::metadata(&read_only).unwrap().permissions();
    permissions.set_readonly(true);
    std::fs::set_permissions(&read_only, permissions).unwrap();
    let under_file = file.join("o.json");
    let missing_dir = dir.join("no-such-dir");
    let in_missing = |name: &str| missing_dir.join(name).to_str().unwrap().to_owned();
    let (o, b, s, p) = (
        in_missing("o.json"),
        in_missing("b.kdb"),
        in_missing("s.json"),
        in_missing("p.kmp"),
    );
    // Where `--out` is fine, so that the check of `--db` is the one that speaks (the
    // default `--out` is relative to the working directory).
    let fine_out = dir.join("fine.json").to_str().unwrap().to_owned();
    let cases = [
        (vec!["openings", "--out", text(&dir)], "it is a directory"),
        (vec!["openings", "--out", text(&read_only)], "read-only"),
        (
            vec!["openings", "--out", text(&under_file)],
            "file.txt is a file, not a directory",
        ),
        (
            vec!["openings", "--out", &fine_out, "--db", text(&under_file)],
            "file.txt is a file, not a directory",
        ),
        (vec!["solve", "--db", text(&dir)], "it is a directory"),
        // A missing directory is refused (a mistyped path), never made.
        (vec!["openings", "--out", &o], "the directory"),
        (vec!["book", "--plies", "1", "--out", &b], "does not exist"),
        (
            vec!["whole-match", "survey", "--limit", "1", "--out", &s],
            "does not exist",
        ),
        (
            vec!["whole-match", "solve", "--hash-mb", "16", "--db", &p],
            "does not exist",
        ),
    ];
    for (args, says) in cases {
        fails_fast(&args).assert_one_line_error(2, says);
    }
    assert!(!missing_dir.exists());
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "not a directory");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_database_is_written_through_a_link_and_never_over_a_fifo_or_device() {
    let dir = scratch("special");
    let real = dir.join("real.kdb");
    let link = dir.join("link.kdb");
    std::os::unix::fs::symlink("real.kdb", &link).unwrap();
    let run = kamisado(
        &[
            "solve",
            "--moves",
            LATE,
            "--hash-mb",
            "16",
            "--db",
            text(&link),
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    let info = kamisado(&["db", "info", text(&real), "--json"], "");
    assert_eq!(info.code, 0, "{}", info.stderr);
    assert_eq!(temporary_files(&dir), vec![]);

    let fifo = dir.join("fifo");
    let name = std::ffi::CString::new(text(&fifo)).unwrap();
    // SAFETY: mkfifo(3) with a NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
    for target in [text(&fifo), "/dev/null"] {
        fails_fast(&["solve", "--moves", LATE, "--db", target])
            .assert_one_line_error(2, "a database must be a regular file");
    }
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    assert!(std::fs::metadata("/dev/null")
        .unwrap()
        .file_type()
        .is_char_device());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn lines_that_are_not_text_are_ignored_and_the_session_goes_on() {
    let mut input = b"kei\n\xff\xfe\xfd\n".to_vec();
    input.extend_from_slice(
        format!("position startpos moves {LATE}\ngo movetime nan\nquit\n").as_bytes(),
    );
    let mut child = Command::new(KAMISADO)
        .args(["engine", "--hash-mb", "16"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&input).unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("info string ignored a line that is not UTF-8"),
        "{stdout}"
    );
    assert!(stdout.contains("ignored `movetime nan`"), "{stdout}");
    assert!(stdout.contains("bestmove "), "{stdout}");

    let mut child = Command::new(KAMISADO)
        .args(["play", "--moves", LATE, "--hash-mb", "16"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"\xff\xfe\nmoves\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("not text"), "{stdout}");
    assert!(stdout.contains("Game abandoned."), "{stdout}");

    // Kamon's game reads its input the same way.
    let mut child = Command::new(KAMISADO)
        .args([
            "kamon",
            "play",
            "--seed",
            "1",
            "--after",
            "16",
            "--hash-mb",
            "16",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = b"\xff\xfe\n".to_vec();
    input.extend(std::iter::repeat_n(b'x', 1 << 20));
    input.extend(b"\nmoves\nquit\n");
    child.stdin.take().unwrap().write_all(&input).unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("not text"), "{stdout}");
    assert!(stdout.contains("too long"), "{stdout}");
    assert!(stdout.contains("Game abandoned."), "{stdout}");
}

#[test]
fn messages_name_what_is_wrong_once_and_short() {
    kamisado(&["solve", "--threads", "-1"], "").assert_one_line_error(
        2,
        "'-1' for '--threads <N>': expected a positive whole number",
    );
    kamisado(&["perft", "-3"], "").assert_one_line_error(2, "expected a whole number from 0 to 40");
    kamisado(&["match", "--engine", "x", "--time-limit", "-5"], "")
        .assert_one_line_error(2, "expected a number of seconds from 0.001 to 1e9");
    // Every command reads a negative time limit as a value, not as a flag.
    for args in [
        vec!["kamon", "solve", "--seed", "1", "--time-limit", "-1"],
        vec!["whole-match", "solve", "--time-limit", "-1"],
        vec!["query", "--time-limit", "-1"],
        vec!["query", "--time-limit", "1e-320"],
    ] {
        kamisado(&args, "").assert_one_line_error(2, "expected a number of seconds from 0.001");
    }
    kamisado(&["kamon", "perft", "-1", "--seed", "1"], "")
        .assert_one_line_error(2, "expected a whole number from 0 to 36");
    kamisado(&["play", "--as", "red"], "")
        .assert_one_line_error(2, "[possible values: black, white]");

    // A long word with a control character: quoted once, cut, escaped. (An argument
    // cannot hold a NUL; a file can.)
    let long = format!("a1-a5 zz\u{1}{}", "z".repeat(10_000));
    let run = kamisado(&["show", "--moves", &long], "");
    run.assert_one_line_error(2, "move 2: `zz\\u{1}zzz");
    assert!(run.stderr.len() < 300, "{}", run.stderr);
    assert_eq!(run.stderr.matches("`zz").count(), 1, "{}", run.stderr);
    assert!(!run.stderr.contains('\u{1}'));
    let dir = scratch("messages");
    let games = dir.join("games.txt");
    std::fs::write(&games, format!("a1-a5 zz\0{}\n", "z".repeat(10_000))).unwrap();
    let run = kamisado(&["verify", text(&games), "--hash-mb", "16"], "");
    run.assert_one_line_error(2, "move 2: `zz\\0zzz");
    assert!(run.stderr.len() < 300, "{}", run.stderr);
    assert!(
        !run.stdout.contains('\0') && run.stdout.len() < 2000,
        "{}",
        run.stdout
    );
    let _ = std::fs::remove_dir_all(&dir);

    let run = kamisado(
        &[
            "show",
            "--position",
            "obupyrgn/8/8/8/8/8/8/NGRYPUB\u{1b} b -",
        ],
        "",
    );
    run.assert_one_line_error(2, "`\\u{1b}` is neither");

    // An engine that never starts: one game, not one per game asked for, and exit code 2.
    let run = kamisado(
        &[
            "match",
            "--engine",
            "cat > /dev/null",
            "--time-limit",
            "0.3",
            "--games",
            "5",
            "--moves",
            LATE,
            "--json",
        ],
        "",
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("never completed the `kei` handshake"),
        "{}",
        run.stderr
    );
    assert_eq!(run.json()["games"].as_array().unwrap().len(), 1);
}

#[test]
fn a_flooding_engine_loses_in_time_and_memory_stays_bounded() {
    for engine in ["read l; echo keiok; exec yes 'info x'", "exec yes ''"] {
        let mut child = Command::new(KAMISADO)
            .args([
                "match",
                "--engine",
                engine,
                "--time-limit",
                "1",
                "--games",
                "1",
            ])
            .args([
                "--moves",
                LATE,
                "--hash-mb",
                "16",
                "--as",
                "black",
                "--json",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let reader = std::thread::spawn(move || std::io::read_to_string(stdout).unwrap());
        let mut peak_kib = 0;
        let deadline = Instant::now() + Duration::from_secs(30);
        while child.try_wait().unwrap().is_none() {
            if let Ok(status) = std::fs::read_to_string(format!("/proc/{}/status", child.id())) {
                if let Some(kib) = status
                    .lines()
                    .find_map(|l| l.strip_prefix("VmRSS:"))
                    .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
                {
                    peak_kib = peak_kib.max(kib);
                }
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                let _ = child.wait();
                panic!("{engine}: the match did not end (peak {peak_kib} KiB)");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let report: serde_json::Value = serde_json::from_str(&reader.join().unwrap()).unwrap();
        let kind = report["games"][0]["fault"]["kind"]
            .as_str()
            .unwrap_or("")
            .to_owned();
        assert!(kind == "flooded" || kind == "time_out", "{engine}: {kind}");
        // The table (16 MiB) and the program; the engine's output is held to 4 MiB.
        assert!(peak_kib < 200 << 10, "{engine}: peak {peak_kib} KiB");
    }
}

/// A 16 GiB table for a finished game: nothing is searched, so nothing may be touched.
/// (Counting the table's fill used to take each sampled bucket's lock, writing to pages
/// that, with huge pages, committed 2 MiB each: 8 GB and 8 s for this command.)
#[test]
fn a_big_table_for_a_tiny_job_costs_no_memory() {
    let started = Instant::now();
    let run = kamisado(
        &[
            "solve",
            "--hash-mb",
            "16384",
            "--moves",
            "h1-h7 c8-c6 c6-h1",
            "--json",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report = run.json();
    assert_eq!(report["stats"]["nodes"], 0);
    let peak = report["stats"]["peak_memory_bytes"].as_u64().unwrap();
    assert!(peak < 256 << 20, "peak memory {peak} bytes");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn an_interrupted_whole_match_search_saves_its_proofs_and_says_so() {
    let dir = scratch("whole-match");
    let db = dir.join("proofs.kmp");
    // Round 2 of a Standard match: not proved in minutes, so the interrupt stops it.
    let mut child = Command::new(KAMISADO)
        .args(["whole-match", "solve", "--json", "--threads", "1"])
        .args(["--hash-mb", "64", "--db", text(&db)])
        .args(["--position", "uobrgpny/8/8/8/8/8/8/BUNYPROG+ w - 3"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_secs(3));
    signal(&child, libc::SIGINT);
    wait_within(&mut child, Duration::from_secs(30), "whole-match solve");
    let out = child.wait_with_output().unwrap();
    // It ends as Ctrl-C ends a program, after reporting where it got to.
    assert_eq!(out.status.code(), Some(130), "{out:?}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["interrupted"], true, "{report}");
    assert_eq!(report["proven"], false, "{report}");
    assert!(report["nodes"].as_u64().unwrap() > 0, "{report}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("interrupted"));
    // The proof file is whole: a second run reads it (a damaged one is refused), and
    // nothing temporary is left beside it.
    assert!(db.exists());
    assert!(temporary_files(&dir).is_empty());
    let again = kamisado(
        &[
            "whole-match",
            "solve",
            "--json",
            "--threads",
            "1",
            "--hash-mb",
            "64",
            "--db",
            text(&db),
            "--time-limit",
            "0.5",
            "--position",
            "uobrgpny/8/8/8/8/8/8/BUNYPROG+ w - 3",
        ],
        "",
    );
    // Out of time, not interrupted: exit code 1 if not proven, as for every search.
    let proven = again.json()["proven"] == true;
    assert_eq!(again.code, if proven { 0 } else { 1 }, "{}", again.stderr);
    assert_eq!(again.json()["interrupted"], serde_json::Value::Null);
    std::fs::write(&db, b"not a proof file").unwrap();
    kamisado(
        &[
            "whole-match",
            "solve",
            "--db",
            text(&db),
            "--time-limit",
            "1",
        ],
        "",
    )
    .assert_one_line_error(2, "proofs.kmp");
}

/// A whole-match run saves its proofs at the first interrupt only once it searches; before
/// that (reading its inputs, building the survey's list of positions, a minute of round-1
/// solves) the first SIGTERM ends it, as it ends any program.
#[test]
fn a_whole_match_run_not_yet_searching_ends_at_the_first_signal() {
    let dir = scratch("whole-match-early");
    let out = dir.join("survey.json");
    let mut child = Command::new(KAMISADO)
        .args([
            "whole-match",
            "survey",
            "--limit",
            "30",
            "--time-limit",
            "1",
        ])
        .args(["--threads", "1", "--hash-mb", "16", "--out", text(&out)])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_secs(2));
    signal(&child, libc::SIGTERM);
    let status = wait_within(&mut child, Duration::from_secs(10), "whole-match survey");
    assert_eq!(status.signal(), Some(libc::SIGTERM), "{status}");
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert!(!stderr.contains("stopping and saving"), "{stderr}");
    assert!(!out.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs `kamisado args` with its address space limited to `limit_bytes` (so a reader that
/// loads a huge file whole dies of it instead of taking the machine), and no more than
/// `seconds` (a reader waiting on a FIFO fails the test instead of hanging it).
fn within_limits(args: &[&str], limit_bytes: u64, seconds: u64) -> common::Run {
    use std::os::unix::process::CommandExt;
    let mut command = Command::new(KAMISADO);
    command
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: setrlimit(2) only, between fork and exec; it allocates nothing.
    unsafe {
        command.pre_exec(move || {
            let limit = libc::rlimit {
                rlim_cur: limit_bytes as libc::rlim_t,
                rlim_max: limit_bytes as libc::rlim_t,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut child = command.spawn().unwrap();
    let stdout = child.stdout.take().unwrap();
    let stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || std::io::read_to_string(stdout).unwrap());
    let err = std::thread::spawn(move || std::io::read_to_string(stderr).unwrap());
    let status = wait_within(&mut child, Duration::from_secs(seconds), &args.join(" "));
    common::Run {
        code: status.code().unwrap_or(-1),
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success());
}

/// Every reader of a file refuses a FIFO (nobody writing), a device and a huge sparse file
/// at once, in one line naming the file, under a 3 GiB address-space limit: no reader
/// waits on a special file or loads a file before looking at its header and size.
#[test]
fn special_and_huge_input_files_are_refused_at_once_with_bounded_memory() {
    let dir = scratch("special");
    let fifo = dir.join("fifo");
    mkfifo(&fifo);
    // 20 GiB, nothing on disk: whatever reads it whole needs 20 GiB.
    let huge = dir.join("huge");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(20 << 30)
        .unwrap();
    // Headers that announce exactly the file's size, past the readers' bounds.
    let huge_cert = dir.join("huge.kcert");
    let mut header = b"KAMICERT".to_vec();
    header.extend_from_slice(&1u32.to_le_bytes());
    header.extend_from_slice(&[0; 4]);
    header.extend_from_slice(&1u32.to_le_bytes());
    header.extend_from_slice(&[0; 4]);
    header.extend_from_slice(&(((20u64 << 30) - 32) / 16 - 1).to_le_bytes());
    std::fs::write(&huge_cert, &header).unwrap();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&huge_cert)
        .unwrap()
        .set_len(20 << 30)
        .unwrap();
    let huge_proofs = dir.join("huge.kmp");
    let mut header = b"KMATCHPF".to_vec();
    header.extend_from_slice(&1u32.to_le_bytes());
    header.extend_from_slice(&[0; 4]);
    header.extend_from_slice(&(((20u64 << 30) - 32) / 32).to_le_bytes());
    header.extend_from_slice(&[0; 8]);
    std::fs::write(&huge_proofs, &header).unwrap();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&huge_proofs)
        .unwrap()
        .set_len(20 << 30)
        .unwrap();
    let games = dir.join("games.txt");
    std::fs::write(&games, format!("{LATE}\n")).unwrap();
    let merged = dir.join("merged.json");
    // Each reader's arguments, FILE standing for the file under test.
    let (games, merged) = (text(&games), text(&merged));
    let readers: Vec<Vec<&str>> = vec![
        vec!["db", "info", "FILE"],
        vec!["db", "check", "FILE"],
        vec!["query", "--hash-mb", "16", "--db", "FILE"],
        vec!["verify", games, "--hash-mb", "16", "--db", "FILE"],
        vec!["verify", "FILE", "--hash-mb", "16"],
        vec!["certificate", "check", "FILE"],
        vec!["kamon", "survey", "merge", "FILE", "--out", merged],
        vec!["whole-match", "solve", "--hash-mb", "16", "--db", "FILE"],
        vec!["serve", "--port", "0", "--hash-mb", "16", "--db", "FILE"],
    ];
    let dev_zero = PathBuf::from("/dev/zero");
    for file in [&fifo, &dev_zero, &huge, &huge_cert, &huge_proofs] {
        for reader in &readers {
            let args: Vec<&str> = reader
                .iter()
                .map(|&a| if a == "FILE" { text(file) } else { a })
                .collect();
            let run = within_limits(&args, 3 << 30, 20);
            let what = args.join(" ");
            assert_eq!(run.code, 2, "{what}: {}", run.stderr);
            let lines: Vec<&str> = run.stderr.lines().collect();
            assert_eq!(lines.len(), 1, "{what}: {}", run.stderr);
            assert!(lines[0].contains(text(file)), "{what}: {}", lines[0]);
        }
    }
    // Outputs that a later run reads back (surveys) must be regular files: refused
    // before any work, never read from (`/dev/full` reads as endless zeros).
    for out in [fifo.as_path(), Path::new("/dev/full")] {
        for args in [
            vec![
                "kamon",
                "survey",
                "--layouts",
                "1",
                "--after",
                "20",
                "--out",
                text(out),
            ],
            vec![
                "whole-match",
                "survey",
                "--limit",
                "1",
                "--hash-mb",
                "16",
                "--out",
                text(out),
            ],
        ] {
            let run = within_limits(&args, 3 << 30, 20);
            run.assert_one_line_error(2, "a later run resumes from must be a regular file");
        }
    }
    // An unwritable directory is found before the first entry is solved.
    let run = within_limits(
        &[
            "whole-match",
            "survey",
            "--limit",
            "1",
            "--hash-mb",
            "16",
            "--out",
            "/proc/no/such.json",
        ],
        3 << 30,
        20,
    );
    run.assert_one_line_error(2, "/proc/no/such.json");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A closed output stops the output, and the exit code stays the verdict's: the same as
/// with the output read (`set -o pipefail; kamisado db check forged.kdb | true`).
#[test]
fn a_closed_output_keeps_the_verdicts_exit_code() {
    let dir = scratch("pipe-verdict");
    let db = small_database(&dir);
    let mut bytes = std::fs::read(&db).unwrap();
    let n = bytes.len();
    bytes[n - 40] ^= 0x04;
    let flipped = dir.join("flipped.kdb");
    std::fs::write(&flipped, &bytes).unwrap();
    let illegal = dir.join("illegal.txt");
    std::fs::write(&illegal, "h1-h5 e8-e3 h5-h1\n").unwrap();
    let cases: Vec<Vec<&str>> = vec![
        vec!["db", "check", text(&flipped), "--all"],
        vec!["verify", text(&illegal), "--hash-mb", "16"],
        vec![
            "query",
            "--hash-mb",
            "16",
            "--db",
            "none",
            "--time-limit",
            "0.01",
        ],
        vec![
            "whole-match",
            "solve",
            "--hash-mb",
            "16",
            "--time-limit",
            "0.5",
        ],
    ];
    for args in cases {
        let what = args.join(" ");
        let read = kamisado(&args, "");
        assert_ne!(read.code, 0, "{what}: {}", read.stderr);
        let (status, _) = with_closed_output(&args, "");
        assert_eq!(status.code(), Some(read.code), "{what}");
    }
    // A full output is a write error like any other output's: exit code 2.
    let full = Command::new(KAMISADO)
        .args(["show"])
        .stdout(
            std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .unwrap(),
        )
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(full.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--db none` is no database for `solve` as for every reader: no file named `none`.
#[test]
fn solve_db_none_writes_nothing() {
    let dir = scratch("db-none");
    let run = Command::new(KAMISADO)
        .args(["solve", "--moves", LATE, "--hash-mb", "16", "--db", "none"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(!dir.join("none").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Rough edges of input: a games file with a byte-order mark reads as without one; a line
/// that is not UTF-8 is named by its number; a proof file cut inside its header is called
/// truncated; a `movetime` too long for any clock is no limit, not "not a whole number".
#[test]
fn rough_edges_of_input_are_read_as_meant() {
    let dir = scratch("edges");
    let plain = dir.join("plain.txt");
    std::fs::write(&plain, format!("{LATE}\n")).unwrap();
    let bom = dir.join("bom.txt");
    std::fs::write(&bom, format!("\u{feff}{LATE}\n")).unwrap();
    let judge = |path: &Path| {
        let run = kamisado(&["verify", text(path), "--json", "--hash-mb", "16"], "");
        assert_eq!(run.code, 0, "{}", run.stderr);
        run.json()["summary"].clone()
    };
    assert_eq!(judge(&bom), judge(&plain));
    let latin1 = dir.join("latin1.txt");
    std::fs::write(&latin1, b"h1-h5\n# caf\xe9\nh1-h6\n").unwrap();
    kamisado(&["verify", text(&latin1), "--hash-mb", "16"], "")
        .assert_one_line_error(2, "latin1.txt: line 2 is not UTF-8 text");
    let short = dir.join("short.kmp");
    std::fs::write(
        &short,
        b"KMATCHPF\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00",
    )
    .unwrap();
    kamisado(
        &[
            "whole-match",
            "solve",
            "--hash-mb",
            "16",
            "--db",
            text(&short),
        ],
        "",
    )
    .assert_one_line_error(2, "is truncated");
    let engine = kamisado(
        &["engine", "--hash-mb", "16", "--db", "none"],
        &format!("kei\nposition startpos moves {LATE}\ngo movetime 99999999999999999999\nquit\n"),
    );
    assert_eq!(engine.code, 0, "{}", engine.stderr);
    assert!(engine.stdout.contains("bestmove "), "{}", engine.stdout);
    assert!(!engine.stdout.contains("ignored"), "{}", engine.stdout);
    let _ = std::fs::remove_dir_all(&dir);
}
