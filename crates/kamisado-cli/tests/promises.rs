//! What the README promises about the commands, checked through the binary: progress on a
//! terminal (and none with `--quiet`), `show` listing a pending zero-length move, and the
//! shipped example games.

use std::path::PathBuf;

mod common;
use common::kamisado;

const KAMISADO: &str = env!("CARGO_BIN_EXE_kamisado");

fn repository_file(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
}

/// What `kamisado args` draws on standard error when that is a terminal: a fresh
/// pseudo-terminal, read until the program exits.
#[cfg(unix)]
fn stderr_on_a_terminal(args: &[&str]) -> String {
    use std::io::Read;
    use std::os::fd::{FromRawFd, OwnedFd};
    use std::process::{Command, Stdio};

    // SAFETY: the standard sequence to open a pseudo-terminal pair; every descriptor is
    // checked and then owned by an `OwnedFd` (or a `File`), which closes it.
    let (master, slave) = unsafe {
        let master = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY);
        assert!(master >= 0);
        assert_eq!(libc::grantpt(master), 0);
        assert_eq!(libc::unlockpt(master), 0);
        let name = libc::ptsname(master);
        assert!(!name.is_null());
        let slave = libc::open(name, libc::O_RDWR | libc::O_NOCTTY);
        assert!(slave >= 0);
        (
            std::fs::File::from_raw_fd(master),
            OwnedFd::from_raw_fd(slave),
        )
    };
    let mut child = Command::new(KAMISADO)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::from(slave))
        .spawn()
        .unwrap();
    let reader = std::thread::spawn(move || {
        let mut master = master;
        let mut seen = Vec::new();
        let mut buf = [0u8; 4096];
        // Reading ends with an error (EIO) once the child has closed the terminal.
        while let Ok(n) = master.read(&mut buf) {
            if n == 0 {
                break;
            }
            seen.extend_from_slice(&buf[..n]);
        }
        String::from_utf8_lossy(&seen).into_owned()
    });
    let status = child.wait().unwrap();
    assert!(status.success(), "{args:?}: {status}");
    reader.join().unwrap()
}

#[cfg(unix)]
#[test]
fn long_work_shows_progress_on_a_terminal_unless_quiet() {
    let cases: [(&[&str], &str); 3] = [
        (&["solve", "--moves", "h1-h7", "--hash-mb", "64"], "solving"),
        (&["perft", "7"], "perft"),
        (
            &[
                "kamon",
                "solve",
                "--seed",
                "1",
                "--after",
                "14",
                "--value-only",
            ],
            // The spinner's label, drawn at once (its counts follow only after a tick,
            // which a fast solve may never reach).
            "solving",
        ),
    ];
    for (args, label) in cases {
        let drawn = stderr_on_a_terminal(args);
        assert!(drawn.contains(label), "{args:?} drew: {drawn:?}");
        let mut quiet = args.to_vec();
        quiet.push("--quiet");
        let drawn = stderr_on_a_terminal(&quiet);
        assert!(!drawn.contains(label), "{quiet:?} drew: {drawn:?}");
    }
}

#[test]
fn perft_counts_the_same_with_and_without_divide() {
    for depth in ["0", "1", "4"] {
        let plain = kamisado(&["perft", depth, "--json"], "").json();
        let divided = kamisado(&["perft", depth, "--divide", "--json"], "").json();
        assert_eq!(plain["nodes"], divided["nodes"], "depth {depth}");
    }
    let run = kamisado(&["perft", "4", "--quiet"], "");
    assert_eq!(run.stdout.trim(), "perft(4) = 107068");
}

#[test]
fn show_lists_the_pending_zero_length_move() {
    // Black's orange tower on h7 is blocked: h7-h7 names purple, White's tower on c6.
    let position = "1b1pyrgn/7O/2u5/3o4/8/8/8/NGRYPUB1 b o";
    let run = kamisado(&["show", "--position", position, "--no-color"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("pending zero-length move h7-h7: the orange tower on h7 is blocked"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains(
            "then 1b1pyrgn/7O/2u5/3o4/8/8/8/NGRYPUB1 w u: white to move the purple tower on c6"
        ),
        "{}",
        run.stdout
    );
    let json = kamisado(&["show", "--position", position, "--json"], "").json();
    assert_eq!(json["zero_length_moves"], serde_json::json!(["h7-h7"]));
    assert_eq!(json["then"], "1b1pyrgn/7O/2u5/3o4/8/8/8/NGRYPUB1 w u");
    // Nothing pending at the start.
    let json = kamisado(&["show", "--json"], "").json();
    assert!(json.get("zero_length_moves").is_none());
}

#[test]
fn the_shipped_example_games_are_judged() {
    let games = repository_file("data/games.txt");
    let run = kamisado(
        &[
            "verify",
            games.to_str().unwrap(),
            "--json",
            "--hash-mb",
            "64",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report = run.json();
    let games = report["games"].as_array().unwrap();
    assert_eq!(games.len(), 4);
    // `first_blunder` is the blunder's move number.
    let first_blunders: Vec<Option<&str>> = games
        .iter()
        .map(|g| {
            let number = g["first_blunder"].as_u64()?;
            g["moves"][number as usize - 1]["move"].as_str()
        })
        .collect();
    // The perfect game, the opening blunder, the random engine's blunder, the inaccuracy.
    assert_eq!(
        first_blunders,
        [None, Some("h1-g2"), Some("d1-g4"), None],
        "{report}"
    );
    assert_eq!(report["summary"]["games_with_errors"], 0);
    assert_eq!(games[3]["white"]["inaccuracies"], 1);
}
