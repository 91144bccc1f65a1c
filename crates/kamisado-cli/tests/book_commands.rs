//! `book`, the default book of the answering commands, and databases that are damaged or
//! replaced under a running reader, through the binary.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::kamisado;

use kamisado_analysis::{Oracle, Source};
use kamisado_core::notation::play_line;
use kamisado_core::{Kamisado, Position};
use kamisado_db::book::{BookPlan, Journal};
use kamisado_db::Database;
use kamisado_match::{MatchPosition, Target};
use kamisado_solver::{Cancel, Options, Solver};
use serde_json::Value as Json;

/// Six moves into a perfect game: a book of two plies from here builds in a second.
const LATE: &str = "h1-h7 c8-c4 b1-b2 h8-d4 a1-a6 g8-g4";

fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kamisado-cli-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs the binary from the repository root, where `data/book.kdb` is.
fn from_root(args: &[&str]) -> common::Run {
    let out = Command::new(env!("CARGO_BIN_EXE_kamisado"))
        .args(args)
        .current_dir(repository())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    common::Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn sources(report: &Json) -> Vec<String> {
    report["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["source"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn a_book_is_built_resumed_and_checked() {
    let dir = temp_dir();
    let out = dir.join("late.kdb");
    let root = play_line(&Position::start(), LATE).unwrap().end;
    // An earlier run solved part of the frontier before it was stopped.
    let plan = BookPlan::new(&root, 2);
    let mut journal = Journal::open(&Journal::path_for(&out), &plan).unwrap();
    let solver = Solver::new(
        Kamisado,
        Options {
            threads: 1,
            table_bytes: 8 << 20,
        },
    )
    .unwrap();
    let done: Vec<_> = plan.frontier[..40]
        .iter()
        .map(|p| (p.key(), solver.score(p, &Cancel::new()).unwrap()))
        .collect();
    journal.append(&done).unwrap();
    drop(journal);

    let run = kamisado(
        &[
            "book",
            "--moves",
            LATE,
            "--plies",
            "2",
            "--out",
            text(&out),
            "--hash-mb",
            "16",
            "--json",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report = run.json();
    assert_eq!(report["resumed"], 40);
    assert_eq!(
        report["frontier"].as_u64().unwrap() as usize,
        plan.frontier.len()
    );
    let per_ply: Vec<usize> = plan.layers.iter().map(Vec::len).collect();
    assert_eq!(report["positions_per_ply"], serde_json::json!(per_ply));
    assert!(
        !Journal::path_for(&out).exists(),
        "the journal is removed once the book is written"
    );

    let info = kamisado(&["db", "info", text(&out), "--json"], "").json();
    assert_eq!(info["book_plies"], 2);
    assert_eq!(info["book_root"], root.to_string());
    assert_eq!(info["format_version"], 2);
    let check = kamisado(
        &[
            "db",
            "check",
            text(&out),
            "--all",
            "--hash-mb",
            "16",
            "--json",
        ],
        "",
    );
    assert_eq!(check.code, 0, "{}", check.stderr);
    let check = check.json();
    assert_eq!(check["disagreements"], 0);
    assert_eq!(check["book"]["problems"], 0);
    assert_eq!(check["book"]["solved"], 10);
    assert_eq!(check["book"]["disagreements"].as_array().unwrap().len(), 0);
    // Every record of the book's plies is re-derived from its children in the file.
    let book_positions: usize = per_ply.iter().sum();
    assert!(check["verified"].as_u64().unwrap() as usize >= book_positions);

    // Every move of every book position is answered from the file.
    for pos in plan.layers.iter().flatten() {
        let report = kamisado(
            &[
                "query",
                "--db",
                text(&out),
                "--position",
                &pos.to_string(),
                "--json",
            ],
            "",
        )
        .json();
        assert!(
            sources(&report).iter().all(|s| s == "db" || s == "rules"),
            "{pos}: {report}"
        );
    }
}

/// The shipped book: every move of every position of its plies answered from the file
/// (here through the library, all of them; through the binary, a sample).
#[test]
fn the_shipped_book_answers_every_move_of_every_book_position() {
    let path = repository().join("data/book.kdb");
    let db = Database::open(&path).expect("data/book.kdb is shipped");
    let plies = db.header().book_plies;
    assert!(plies >= 2, "the shipped book covers at least two moves");
    assert_eq!(db.header().book_root, Position::start().key());
    let plan = BookPlan::new(&Position::start(), plies);
    let oracle = Oracle::new(
        Some(db),
        Solver::new(
            Kamisado,
            Options {
                threads: 1,
                table_bytes: 1 << 16,
            },
        )
        .unwrap(),
    );
    // A search stopped at once: any move the file did not answer would fail.
    let stopped = Cancel::new();
    stopped.cancel();
    let mut moves = 0;
    for pos in plan.layers.iter().flatten() {
        let answers = oracle
            .moves(
                &MatchPosition::from_single_round(pos, Target::Single),
                &stopped,
            )
            .unwrap();
        assert!(answers.iter().all(|m| m.source != Source::Search));
        moves += answers.len();
    }
    assert!(moves > 100_000 || plies < 4, "{moves} moves");
    // The binary, from the repository root, uses the book without being told.
    let deepest = plan.layers.last().unwrap();
    for pos in deepest.iter().step_by(deepest.len() / 12 + 1) {
        let started = Instant::now();
        let run = from_root(&["query", "--position", &pos.to_string(), "--json"]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert!(
            sources(&run.json())
                .iter()
                .all(|s| s == "db" || s == "rules"),
            "{pos}"
        );
        assert!(started.elapsed() < Duration::from_secs(10));
    }
}

#[test]
fn db_none_turns_the_default_book_off() {
    // A position of ply 2 whose moves the book answers: without it, they are searched.
    let run = from_root(&["query", "--moves", "h1-h5 e8-e4", "--db", "none", "--json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(sources(&run.json()).iter().any(|s| s == "search"));
    let run = from_root(&["query", "--moves", "h1-h5 e8-e4", "--json"]);
    assert!(sources(&run.json())
        .iter()
        .all(|s| s == "db" || s == "rules"));
}

#[test]
fn a_damaged_database_is_refused_by_every_reader() {
    let dir = temp_dir();
    let book = std::fs::read(repository().join("data/book.kdb")).unwrap();
    // Swap two records: the file stays well formed, the block checksums catch it.
    let damaged = dir.join("swapped.kdb");
    let mut bytes = book.clone();
    let records = Database::open(&repository().join("data/book.kdb"))
        .unwrap()
        .len();
    let at = bytes.len() - 16 * records - 4 * records.div_ceil(256);
    for k in 0..16 {
        bytes.swap(at + 16 * 10 + k, at + 16 * 11 + k);
    }
    std::fs::write(&damaged, &bytes).unwrap();
    for args in [
        vec!["db", "info", text(&damaged)],
        vec!["db", "check", text(&damaged)],
        vec!["query", "--db", text(&damaged)],
        vec!["play", "--db", text(&damaged)],
        vec!["verify", "-", "--db", text(&damaged)],
        vec!["engine", "--db", text(&damaged)],
    ] {
        // `verify` reads its games first: give it one.
        let run = kamisado(&args, "h1-h5 e8-e4\n");
        run.assert_one_line_error(2, "do not match their block's checksum");
        assert!(!run.stderr.contains("corrupted header"), "{}", run.stderr);
    }
}

#[test]
fn an_engine_keeps_answering_when_its_database_is_truncated_under_it() {
    let dir = temp_dir();
    let db = dir.join("engine.kdb");
    std::fs::copy(repository().join("data/book.kdb"), &db).unwrap();
    let mut engine = Command::new(env!("CARGO_BIN_EXE_kamisado"))
        .args([
            "engine",
            "--db",
            text(&db),
            "--hash-mb",
            "16",
            "--threads",
            "1",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = engine.stdin.take().unwrap();
    let mut output = BufReader::new(engine.stdout.take().unwrap());
    let mut line = String::new();
    let mut ask = |input: &mut std::process::ChildStdin, command: &str, answer: &str| {
        writeln!(input, "{command}").unwrap();
        input.flush().unwrap();
        loop {
            line.clear();
            assert!(output.read_line(&mut line).unwrap() > 0, "the engine died");
            if line.starts_with(answer) {
                return line.clone();
            }
        }
    };
    ask(&mut input, "kei", "keiok");
    // What `cp new.kdb engine.kdb` does: truncate the file in place.
    std::fs::File::create(&db).unwrap();
    let reply = ask(
        &mut input,
        "position startpos moves h1-h5 e8-e4\ngo",
        "bestmove",
    );
    assert!(reply.trim().len() > "bestmove ".len(), "{reply}");
    writeln!(input, "quit").unwrap();
    drop(input);
    let status = engine.wait().unwrap();
    assert!(status.success(), "{status:?}");
}

#[test]
fn a_killed_build_resumes_and_writes_the_same_book() {
    let dir = temp_dir();
    // Four moves in, three plies: a frontier of a few thousand positions, some seconds.
    let moves = "h1-h7 c8-c4 b1-b2 h8-d4";
    let args = |out: &Path| -> Vec<String> {
        [
            "book",
            "--moves",
            moves,
            "--plies",
            "3",
            "--hash-mb",
            "32",
            "--threads",
            "1",
            "--json",
            "--out",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([text(out).to_owned()])
        .collect()
    };
    let whole = dir.join("whole.kdb");
    let run = kamisado(
        &args(&whole).iter().map(String::as_str).collect::<Vec<_>>(),
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.json()["resumed"], 0);

    let killed = dir.join("killed.kdb");
    let journal = Journal::path_for(&killed);
    let mut child = Command::new(env!("CARGO_BIN_EXE_kamisado"))
        .args(args(&killed))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Kill it once a chunk of results is safely in the journal.
    let started = Instant::now();
    while std::fs::metadata(&journal).map_or(0, |m| m.len()) < 1000 {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the build ended before it could be killed"
        );
        assert!(started.elapsed() < Duration::from_secs(120));
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(!killed.exists());
    let run = kamisado(
        &args(&killed).iter().map(String::as_str).collect::<Vec<_>>(),
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.json()["resumed"].as_u64().unwrap() >= 512);
    assert_eq!(
        std::fs::read(&killed).unwrap(),
        std::fs::read(&whole).unwrap()
    );
}

/// A database over [`kamisado_db::READ_LIMIT`] (so mapped, its blocks checked as lookups
/// read them) with one byte of every block flipped: the book's records and filler
/// records under them.
fn damaged_mapped_database(dir: &Path) -> PathBuf {
    use kamisado_db::{Record, BLOCK_RECORDS, READ_LIMIT};
    let book = Database::open(&repository().join("data/book.kdb")).unwrap();
    let mut records: Vec<Record> = book.records().collect();
    let lowest = records[0].key();
    let fillers = (READ_LIMIT as usize / 16 + 1000).saturating_sub(records.len()) as u128;
    assert!(
        lowest > fillers,
        "room for the fillers under the book's keys"
    );
    let mut all: Vec<Record> = (1..=fillers)
        .map(|k| Record::new(k, kamisado_solver::Value::Loss, None, None))
        .collect();
    all.append(&mut records);
    let path = dir.join("big_flip.kdb");
    kamisado_db::write(&path, &all, "a damaged copy", &mut |_| {}).unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    assert!(bytes.len() as u64 > READ_LIMIT);
    let blocks = all.len().div_ceil(BLOCK_RECORDS as usize);
    let start = bytes.len() - 16 * all.len() - 4 * blocks;
    for block in 0..blocks {
        bytes[start + 16 * BLOCK_RECORDS as usize * block + 9] ^= 0x01;
    }
    std::fs::write(&path, &bytes).unwrap();
    path
}

/// With a damaged large database, the engine moves as a search would (never an unproven
/// move), `query` and `match` refuse with exit code 2 naming the file, and `verify`
/// judges every move by search.
#[test]
fn a_damaged_mapped_database_is_set_aside_or_refused_never_trusted() {
    let dir = temp_dir();
    let db = damaged_mapped_database(&dir);
    let engine = |db: &str| {
        let run = kamisado(
            &["engine", "--db", db, "--hash-mb", "32"],
            &format!("kei\nposition startpos moves {LATE}\ngo\nquit\n"),
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        run.stdout
            .lines()
            .filter(|l| l.starts_with("info") || l.starts_with("bestmove"))
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    let searched = engine("none");
    let damaged = engine(text(&db));
    assert!(
        !damaged.iter().any(|l| l.contains("unproven")),
        "{damaged:?}"
    );
    let value = |lines: &[String]| {
        lines
            .iter()
            .find(|l| l.contains("remoteness"))
            .map(|l| l.split(" source").next().unwrap().to_owned())
    };
    assert_eq!(value(&damaged), value(&searched), "{damaged:?}");
    assert!(value(&searched).is_some(), "{searched:?}");
    // The commands that answer from the named database refuse it.
    let opponent = format!(
        "{} engine --hash-mb 16 --db none",
        env!("CARGO_BIN_EXE_kamisado")
    );
    for args in [
        vec![
            "query",
            "--moves",
            LATE,
            "--hash-mb",
            "32",
            "--db",
            text(&db),
        ],
        vec![
            "match",
            "--engine",
            &opponent,
            "--moves",
            LATE,
            "--games",
            "1",
            "--hash-mb",
            "32",
            "--db",
            text(&db),
        ],
    ] {
        let run = kamisado(&args, "");
        assert_eq!(run.code, 2, "{}: {}", args.join(" "), run.stderr);
        assert!(run.stderr.contains("big_flip.kdb"), "{}", run.stderr);
        assert!(run.stderr.contains("checksum"), "{}", run.stderr);
    }
    // `verify` judges by search: the same judgement as without a database.
    let games = repository().join("data/games.txt");
    let judge = |db: &str| {
        kamisado(
            &[
                "verify",
                text(&games),
                "--json",
                "--hash-mb",
                "64",
                "--db",
                db,
            ],
            "",
        )
    };
    let plain = judge("none");
    let with_damaged = judge(text(&db));
    assert_eq!(with_damaged.code, plain.code, "{}", with_damaged.stderr);
    assert_eq!(with_damaged.json()["summary"], plain.json()["summary"]);
    assert_eq!(with_damaged.json()["summary"]["total"]["unjudged"], 0);
    assert!(with_damaged.stderr.contains("big_flip.kdb"));
}

/// A book of a finished game would be empty: refused, and no file written.
#[test]
fn a_book_of_a_finished_game_is_refused() {
    let dir = temp_dir();
    let out = dir.join("finished-book.kdb");
    kamisado(
        &[
            "book",
            "--moves",
            "h1-h5 e8-e3 c1-c2 e3-c1",
            "--plies",
            "1",
            "--out",
            text(&out),
        ],
        "",
    )
    .assert_one_line_error(2, "the game is over");
    assert!(!out.exists());
}

/// `book --shard i/n` and `book merge`: the parts of every shard derive the same book,
/// byte for byte, as one build; parts of another build, damaged, repeated or missing are
/// refused in one line naming the part, and no part is touched by a failed merge.
#[test]
fn shards_merge_into_the_book_of_one_build() {
    let dir = temp_dir().join("shards");
    std::fs::create_dir_all(&dir).unwrap();
    let build = |extra: &[&str], out: &Path| {
        let mut args = vec!["book", "--moves", LATE, "--plies", "2", "--hash-mb", "16"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--out", text(out), "--json"]);
        let run = kamisado(&args, "");
        assert_eq!(run.code, 0, "{}", run.stderr);
        run.json()
    };
    let single = dir.join("single.kdb");
    let whole = build(&[], &single);
    let parts: Vec<PathBuf> = (1..=3).map(|i| dir.join(format!("part-{i}.kbp"))).collect();
    let mut share_total = 0;
    for (i, part) in parts.iter().enumerate() {
        let report = build(&["--shard", &format!("{}/3", i + 1)], part);
        assert_eq!(report["frontier"], whole["frontier"]);
        share_total += report["share"].as_u64().unwrap();
        assert!(!Journal::path_for(part).exists());
    }
    assert_eq!(share_total, whole["frontier"].as_u64().unwrap());

    let merged = dir.join("merged.kdb");
    let merge = |parts: &[&PathBuf]| {
        let mut args = vec!["book", "merge"];
        args.extend(parts.iter().map(|p| text(p)));
        args.extend_from_slice(&["--out", text(&merged), "--json"]);
        kamisado(&args, "")
    };
    let run = merge(&[&parts[2], &parts[0], &parts[1]]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.json()["records"], whole["records"]);
    assert_eq!(
        std::fs::read(&merged).unwrap(),
        std::fs::read(&single).unwrap(),
        "the merged book is the single build's, byte for byte"
    );
    std::fs::remove_file(&merged).unwrap();

    let before: Vec<Vec<u8>> = parts.iter().map(|p| std::fs::read(p).unwrap()).collect();
    merge(&[&parts[0], &parts[2]]).assert_one_line_error(2, "missing the part of shard 2/3");
    merge(&[&parts[0], &parts[1], &parts[1], &parts[2]])
        .assert_one_line_error(2, &format!("{}: shard 2/3 again", text(&parts[1])));
    let other = dir.join("other.kbp");
    build(&["--shard", "2/4"], &other);
    merge(&[&parts[0], &other, &parts[2]])
        .assert_one_line_error(2, &format!("{}: shard 2/4 of another split", text(&other)));
    let plies_one = dir.join("plies-one.kbp");
    let run = kamisado(
        &[
            "book",
            "--moves",
            LATE,
            "--plies",
            "1",
            "--shard",
            "2/3",
            "--out",
            text(&plies_one),
            "--quiet",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    merge(&[&parts[0], &plies_one, &parts[2]])
        .assert_one_line_error(2, &format!("{}: a part of another book", text(&plies_one)));
    let damaged = dir.join("damaged.kbp");
    std::fs::write(&damaged, &before[1][..before[1].len() - 3]).unwrap();
    merge(&[&parts[0], &damaged, &parts[2]])
        .assert_one_line_error(2, &format!("{}: damaged", text(&damaged)));
    merge(&[&parts[0], &single, &parts[2]])
        .assert_one_line_error(2, &format!("{}: not a book part", text(&single)));
    assert!(!merged.exists(), "a refused merge writes nothing");
    for (part, bytes) in parts.iter().zip(&before) {
        assert_eq!(&std::fs::read(part).unwrap(), bytes, "{}", part.display());
    }

    kamisado(&["book", "--plies", "2", "--shard", "1/2"], "")
        .assert_one_line_error(2, "give it with --out PART");
    kamisado(
        &["book", "--plies", "2", "--shard", "3/2", "--out", "x.kbp"],
        "",
    )
    .assert_one_line_error(2, "is not a shard");
    std::fs::remove_dir_all(&dir).unwrap();
}
