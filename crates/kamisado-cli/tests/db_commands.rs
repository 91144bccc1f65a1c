//! The database commands end to end, through the `kamisado` binary: `solve --db`,
//! `db info`, `db check`, `query`, `play`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

mod common;
use common::kamisado;

use kamisado_core::Position;
use kamisado_db::{encode, Record};
use kamisado_solver::Score;
use kamisado_solver::Value;
use serde_json::Value as Json;

/// Solves in well under a second: Black wins in 15.
const MID_GAME: &str = "h1-h7 c8-c4";
/// Twelve moves further along a perfect line: Black (to move) wins in 4.
const END_GAME: &str = "h1-h7 c8-c4 b1-b2 h8-d4 a1-a6 g8-g4 f1-d3 c4-c2 d1-f3 a8-a7 c1-f4 b8-b5";
/// A position whose whole game tree (27,232 positions) is searched exhaustively here.
const SMALL_TREE: &str = "8/Bu6/2Upy2R/5r2/2Y1P3/o6O/gb3n2/NG6 b g";

fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kamisado-cli-db-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// The database of a solve of `MID_GAME`, made once for all tests. One thread, so that
/// which positions end up stored with exact remoteness is the same on every run.
fn mid_game_db() -> &'static Path {
    static DB: OnceLock<PathBuf> = OnceLock::new();
    DB.get_or_init(|| {
        let path = temp_dir().join("mid-game.kdb");
        let run = kamisado(
            &[
                "solve",
                "--moves",
                MID_GAME,
                "--db",
                text(&path),
                "--hash-mb",
                "16",
                "--threads",
                "1",
                "--json",
            ],
            "",
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        let report = run.json();
        assert!(report["db"]["records"].as_u64().unwrap() > 1000);
        path
    })
}

#[test]
fn solve_writes_a_database_that_info_reads() {
    let db = mid_game_db();
    let info = kamisado(&["db", "info", text(db), "--json"], "").json();
    let records = info["records"].as_u64().unwrap();
    assert_eq!(
        info["wins"].as_u64().unwrap() + info["losses"].as_u64().unwrap(),
        records
    );
    assert_eq!(info["variant"], "single-round");
    assert_eq!(info["format_version"], 2);
    let bytes = info["file_bytes"].as_u64().unwrap();
    assert_eq!(bytes, std::fs::metadata(db).unwrap().len());
    assert!((16.0..16.1).contains(&info["bytes_per_position"].as_f64().unwrap()));
    let human = kamisado(&["db", "info", text(db)], "");
    assert_eq!(human.code, 0);
    assert!(human.stdout.contains("bytes per position"));
}

#[test]
fn query_from_the_database_equals_live_search() {
    let db = mid_game_db();
    // The root and the next two positions of its perfect line.
    for moves in [MID_GAME, "h1-h7 c8-c4 b1-b2", "h1-h7 c8-c4 b1-b2 h8-c3"] {
        let stored = kamisado(
            &[
                "query",
                "--moves",
                moves,
                "--db",
                text(db),
                "--json",
                "--hash-mb",
                "16",
                "--all-remoteness",
            ],
            "",
        );
        // Every move's remoteness on both sides (by default only the best moves' are
        // searched exactly; a record may hold a value without its remoteness).
        let live = kamisado(
            &[
                "query",
                "--moves",
                moves,
                "--json",
                "--hash-mb",
                "16",
                "--all-remoteness",
            ],
            "",
        );
        assert_eq!(stored.code, 0, "{}", stored.stderr);
        assert_eq!(live.code, 0, "{}", live.stderr);
        let (stored, live) = (stored.json(), live.json());
        assert_eq!(stored["source"], "db", "{moves}");
        assert_eq!(live["source"], "search", "{moves}");
        for field in ["to_move", "active", "value", "remoteness", "best"] {
            assert_eq!(stored[field], live[field], "{field} after {moves}");
        }
        let summary = |report: &Json| -> Vec<(String, String, u64)> {
            report["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| {
                    (
                        m["move"].as_str().unwrap().to_owned(),
                        m["value"].as_str().unwrap().to_owned(),
                        m["remoteness"].as_u64().unwrap(),
                    )
                })
                .collect()
        };
        assert_eq!(summary(&stored), summary(&live), "{moves}");
        assert!(stored["moves"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["source"] == "db"));
    }
    let start = kamisado(&["query", "--moves", MID_GAME, "--db", text(db)], "");
    assert!(start.stdout.contains("win for black"), "{}", start.stdout);
    assert!(start.stdout.contains("[db]"));
}

#[test]
fn query_reports_finished_games_pending_moves_and_time_outs() {
    // White's c8-c6 blocks Black's orange tower: Black's zero-length move comes first.
    let pending = kamisado(
        &[
            "query",
            "--position",
            "1b1pyrgn/7O/2u5/3o4/8/8/8/NGRYPUB1 b o",
            "--json",
            "--hash-mb",
            "16",
        ],
        "",
    );
    assert_eq!(pending.code, 0, "{}", pending.stderr);
    let report = pending.json();
    assert_eq!(report["zero_length_moves"][0], "h7-h7");
    assert_eq!(report["to_move"], "white");
    assert!(report["given_position"].is_string());

    // Black's tower reaches h8 ... a finished game: the rules answer.
    let finished = kamisado(
        &[
            "query",
            "--position",
            "1bupyrgO/n7/8/3o4/8/8/8/NGRYPUB1 w n",
            "--json",
        ],
        "",
    );
    assert_eq!(finished.code, 0, "{}", finished.stderr);
    let report = finished.json();
    assert_eq!(report["winner"], "black");
    assert_eq!(report["reason"], "goal");
    assert_eq!(report["value"], "loss");
    assert_eq!(report["remoteness"], 0);
    assert_eq!(report["source"], "rules");
    assert_eq!(report["moves"].as_array().unwrap().len(), 0);

    // The start cannot be solved in a tenth of a second.
    let slow = kamisado(
        &[
            "query",
            "--time-limit",
            "0.1",
            "--threads",
            "1",
            "--hash-mb",
            "16",
        ],
        "",
    );
    slow.assert_one_line_error(1, "time limit");
}

/// Exact scores of every position below `pos`, comparing sides at every move (a chain of
/// zero-length moves may give the turn back to the player who moved).
fn exhaustive(pos: &Position, scores: &mut HashMap<u128, Score>) -> Score {
    if let Some(end) = pos.end() {
        let won = end.winner == pos.turn();
        return Score::new(if won { Value::Win } else { Value::Loss }, 0);
    }
    let key = pos.canonical_key().0;
    if let Some(&s) = scores.get(&key) {
        return s;
    }
    let mut best = Score::BELOW_ALL;
    for m in pos.legal_moves() {
        let child = pos.play_unchecked(m);
        let c = exhaustive(&child, scores);
        best = best.max(c.through_move(child.turn() != pos.turn()));
    }
    scores.insert(key, best);
    best
}

/// A database known to be right, made without the solver.
fn exhaustive_db(path: &Path, damage: Option<usize>) -> Vec<Record> {
    let mut scores = HashMap::new();
    exhaustive(&SMALL_TREE.parse().unwrap(), &mut scores);
    let mut records: Vec<Record> = scores
        .iter()
        .map(|(&key, &s)| Record::new(key, s.value(), s.remoteness(), None))
        .collect();
    records.sort();
    if let Some(i) = damage {
        let r = records[i];
        records[i] = Record::new(r.key(), r.value().flip(), r.remoteness(), None);
    }
    std::fs::write(path, encode(&records, "exhaustive").unwrap()).unwrap();
    records
}

#[test]
fn db_check_verifies_and_names_disagreements() {
    let dir = temp_dir();
    let good = dir.join("exhaustive.kdb");
    let records = exhaustive_db(&good, None);
    let run = kamisado(&["db", "check", text(&good), "--all", "--json"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report = run.json();
    assert_eq!(report["checked"].as_u64().unwrap(), records.len() as u64);
    assert_eq!(report["verified"].as_u64().unwrap(), records.len() as u64);
    assert_eq!(report["disagreements"], 0);
    let sample = kamisado(&["db", "check", text(&good), "--sample", "100"], "");
    assert_eq!(sample.code, 0, "{}", sample.stderr);
    assert!(sample.stdout.contains("100 of"), "{}", sample.stdout);

    let bad = dir.join("damaged.kdb");
    exhaustive_db(&bad, Some(1234));
    let run = kamisado(&["db", "check", text(&bad), "--all"], "");
    run.assert_one_line_error(1, "disagree");
    assert!(run.stdout.contains("record 1234 "), "{}", run.stdout);
}

#[test]
fn check_solves_afresh_what_the_file_cannot_settle() {
    let db = mid_game_db();
    let run = kamisado(
        &[
            "db",
            "check",
            text(db),
            "--solve",
            "100",
            "--hash-mb",
            "16",
            "--json",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report = run.json();
    assert_eq!(report["solved"]["checked"], 100);
    assert_eq!(report["solved"]["agree"], 100);
    assert_eq!(report["solved"]["disagreements"], 0);
    let human = kamisado(&["db", "check", text(db), "--solve", "10"], "");
    assert!(
        human.stdout.contains("solved       10 of those"),
        "{}",
        human.stdout
    );
}

#[test]
fn damaged_files_are_one_line_errors_with_exit_code_2() {
    let dir = temp_dir();
    let original = std::fs::read(mid_game_db()).unwrap();

    let flipped = dir.join("flipped.kdb");
    let mut bytes = original.clone();
    let i = bytes.len() - 100;
    bytes[i] ^= 0x04;
    std::fs::write(&flipped, &bytes).unwrap();
    kamisado(&["db", "check", text(&flipped)], "").assert_one_line_error(2, "checksum");

    let truncated = dir.join("truncated.kdb");
    std::fs::write(&truncated, &original[..original.len() - 7]).unwrap();
    for args in [
        vec!["db", "check", text(&truncated)],
        vec!["db", "info", text(&truncated)],
        vec!["query", "--db", text(&truncated)],
        vec!["play", "--db", text(&truncated)],
    ] {
        kamisado(&args, "").assert_one_line_error(2, "truncated");
    }

    let not_a_db = dir.join("not-a-db.kdb");
    std::fs::write(&not_a_db, "{\"moves\": []}\n").unwrap();
    kamisado(&["db", "info", text(&not_a_db)], "")
        .assert_one_line_error(2, "not a kamisado database");
    let empty = dir.join("empty.kdb");
    std::fs::write(&empty, "").unwrap();
    kamisado(&["db", "check", text(&empty)], "")
        .assert_one_line_error(2, "not a kamisado database");
    kamisado(&["db", "info", text(&dir.join("missing.kdb"))], "")
        .assert_one_line_error(2, "cannot read");
    kamisado(&["db", "info", text(&dir)], "").assert_one_line_error(2, "cannot read");
}

#[test]
fn bad_arguments_are_one_line_errors_with_exit_code_2() {
    let db = mid_game_db();
    let dir = temp_dir();
    for (args, mention) in [
        (vec!["query", "--time-limit", "0"], "time limit"),
        (vec!["query", "--time-limit", "soon"], "time limit"),
        (vec!["query", "--moves", "a1-a9"], "a9"),
        (vec!["query", "--moves", "a1-b3"], "--moves"),
        (vec!["query", "--position", "nonsense"], "--position"),
        (vec!["play", "--as", "gold"], "gold"),
        (
            vec!["db", "check", text(db), "--all", "--sample", "5"],
            "--all",
        ),
        (vec!["db", "check", text(db), "--sample", "0"], "0"),
        (vec!["db", "frobnicate"], "frobnicate"),
        (
            vec![
                "solve",
                "--moves",
                END_GAME,
                "--db",
                text(&dir),
                "--hash-mb",
                "16",
            ],
            "cannot write",
        ),
    ] {
        kamisado(&args, "").assert_one_line_error(2, mention);
    }
}

#[test]
fn every_new_command_has_an_example() {
    for command in [
        vec!["db", "--help"],
        vec!["db", "info", "--help"],
        vec!["db", "check", "--help"],
        vec!["query", "--help"],
        vec!["play", "--help"],
    ] {
        let run = kamisado(&command, "");
        assert_eq!(run.code, 0);
        assert!(
            run.stdout.contains("kamisado "),
            "{:?}: {}",
            command,
            run.stdout
        );
    }
    let solve = kamisado(&["solve", "--help"], "");
    assert!(solve.stdout.contains("--db <FILE>"));
}

#[test]
fn play_through_standard_input() {
    let db = mid_game_db();
    // A wrong tower, a square that does not exist, a list of moves, two moves, undo
    // twice (the second finds nothing), then quit.
    let input = "c1-c8\nz9-a1\nmoves\nb1-b2\nundo\nundo\nb1-b3\nquit\n";
    let run = kamisado(
        &[
            "play",
            "--moves",
            MID_GAME,
            "--db",
            text(db),
            "--hash-mb",
            "16",
        ],
        input,
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = &run.stdout;
    assert!(
        out.contains("Illegal: black must move the green tower (on b1), not the red tower on c1."),
        "{out}"
    );
    assert!(out.contains("`z9-a1` is not a move"), "{out}");
    assert!(out.contains("b1-a2 b1-b2"), "{out}");
    assert!(out.contains("white plays "), "{out}");
    assert!(out.contains("Took back b1-b2."), "{out}");
    assert!(out.contains("Nothing to undo."), "{out}");
    assert!(out.contains("Game abandoned."), "{out}");
    assert!(!out.contains('\u{1b}'), "no colour off a terminal");

    // The end of input ends the game cleanly too.
    let run = kamisado(&["play", "--moves", MID_GAME, "--db", text(db)], "b1-b2\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("End of input"), "{}", run.stdout);
}

#[test]
fn play_to_the_end_names_the_move_that_gave_up_the_win() {
    // Black wins in 4 with d3-c4; after it, e1-e2 throws the win away.
    let run = kamisado(
        &[
            "play",
            "--moves",
            END_GAME,
            "--hash-mb",
            "16",
            "--threads",
            "1",
        ],
        "d3-c4\ne1-e2\n",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = &run.stdout;
    assert!(out.contains("Game over: white won"), "{out}");
    assert!(out.contains("The perfect player won."), "{out}");
    assert!(
        out.contains("You gave up a win with e1-e2 (move 3 of this game)"),
        "{out}"
    );

    // Playing White: the perfect player (Black) moves first.
    let run = kamisado(
        &[
            "play",
            "--as",
            "white",
            "--moves",
            MID_GAME,
            "--hash-mb",
            "16",
        ],
        "quit\n",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("black plays "), "{}", run.stdout);
    assert!(run.stdout.contains("white>"), "{}", run.stdout);
}
