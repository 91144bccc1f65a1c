//! The core commands end to end through the `kamisado` binary: perft, solve, openings,
//! show, and what every command does with bad input.

use std::path::PathBuf;

use kamisado_core::perft::{perft, Counting};
use kamisado_core::Kamisado;
use kamisado_core::Position;
use kamisado_solver::{Cancel, Options, Solver};

mod common;
use common::kamisado;

#[test]
fn perft_counts_in_both_conventions() {
    let run = kamisado(&["perft", "4"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout.trim(), "perft(4) = 107068");
    let run = kamisado(&["perft", "4", "--zero-moves-as-plies", "--json"], "");
    let json = run.json();
    assert_eq!(
        (json["depth"].as_u64(), json["nodes"].as_u64()),
        (Some(4), Some(105_020))
    );
}

#[test]
fn divide_prints_one_line_per_move_that_add_up() {
    let run = kamisado(&["perft", "3", "--divide", "--moves", "a1-a5 d8-d3"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let pos = kamisado_core::notation::play_line(&Position::start(), "a1-a5 d8-d3")
        .unwrap()
        .end;
    let lines: Vec<&str> = run.stdout.lines().filter(|l| l.contains(": ")).collect();
    assert_eq!(lines.len(), pos.legal_moves().len());
    let mut total = 0;
    for line in lines {
        let (mv, n) = line.split_once(": ").unwrap();
        let child = pos.play(mv.parse().unwrap()).unwrap();
        let n: u64 = n.parse().unwrap();
        assert_eq!(n, perft(&child, 2, Counting::PositiveMoves), "{line}");
        total += n;
    }
    assert!(run.stdout.contains(&format!("perft(3) = {total}")));
}

#[test]
fn solve_reports_what_the_library_finds() {
    let moves = "h1-h7 c8-c4 b1-b2";
    let run = kamisado(
        &[
            "solve",
            "--moves",
            moves,
            "--threads",
            "2",
            "--hash-mb",
            "16",
            "--json",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json = run.json();
    let pos = kamisado_core::notation::play_line(&Position::start(), moves)
        .unwrap()
        .end;
    let solver = Solver::new(
        Kamisado,
        Options {
            threads: 1,
            table_bytes: 16 << 20,
        },
    )
    .unwrap();
    let solution = solver.solve(&pos, &Cancel::new()).unwrap();
    assert_eq!(json["to_move"], "white");
    assert_eq!(json["value"], solution.outcome.value.name());
    assert_eq!(
        json["remoteness"].as_u64(),
        Some(solution.outcome.remoteness as u64)
    );
    let best: Vec<String> = solution.best.iter().map(|m| m.to_string()).collect();
    assert_eq!(json["best"], serde_json::json!(best));
    assert_eq!(
        json["pv"].as_array().unwrap().len() as u32,
        solution.outcome.remoteness
    );
    assert!(json["stats"]["nodes"].as_u64().unwrap() > 0);
}

#[test]
fn the_shipped_opening_table_equals_a_fresh_computation() {
    let shipped = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/openings.json");
    let fresh = std::env::temp_dir().join(format!("kamisado-openings-{}.json", std::process::id()));
    let run = kamisado(
        &["openings", "--quiet", "--out", fresh.to_str().unwrap()],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let fresh_text = std::fs::read_to_string(&fresh).unwrap();
    let _ = std::fs::remove_file(&fresh);
    assert_eq!(fresh_text, std::fs::read_to_string(shipped).unwrap());
    let table: serde_json::Value = serde_json::from_str(&fresh_text).unwrap();
    assert_eq!(table["moves"].as_array().unwrap().len(), 102);
}

#[test]
fn values_only_agrees_with_the_shipped_opening_table_and_writes_nothing() {
    let shipped: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/openings.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let run = kamisado(&["openings", "--values-only", "--json"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let values = run.json();
    assert_eq!(values["value"], shipped["value"]);
    let value_of = |table: &serde_json::Value| -> Vec<(String, String)> {
        let mut moves: Vec<(String, String)> = table["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| (m["move"].to_string(), m["value"].to_string()))
            .collect();
        moves.sort();
        moves
    };
    assert_eq!(value_of(&values), value_of(&shipped));
    let winning = values["winning"].as_array().unwrap();
    assert_eq!(
        winning.len(),
        value_of(&shipped)
            .iter()
            .filter(|(_, v)| v == "\"win\"")
            .count()
    );
    let refused = kamisado(&["openings", "--values-only", "--out", "x.json"], "");
    assert_eq!(refused.code, 2);
}

#[test]
fn show_prints_the_board_and_the_position_text() {
    let run = kamisado(&["show", "--moves", "a1-a5 d8-d3"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("obu1yrgn/8/8/N7/8/3p4/8/1GRYPUBO b u"));
    assert!(
        run.stdout.contains("[U]"),
        "the active tower is marked:\n{}",
        run.stdout
    );
    assert!(!run.stdout.contains('\x1b'), "no colour off a terminal");
}

#[test]
fn bad_input_is_one_line_naming_the_token_with_exit_code_2() {
    let cases: &[(&[&str], &str)] = &[
        (&["perft", "3", "--moves", "a1-a9"], "`a1-a9`"),
        (&["perft", "3", "--moves", "a1a5"], "`a1a5`"),
        (
            &["perft", "3", "--moves", "a1-a5 d8-d9x"],
            "move 2: `d8-d9x` is not a move",
        ),
        (
            &["perft", "3", "--moves", "a1-a5 a8-a7"],
            "move 2 `a8-a7`: illegal",
        ),
        (
            &["perft", "3", "--moves", "a1-b1"],
            "move 1 `a1-b1`: illegal",
        ),
        (&["solve", "--position", "obupyrgn/8/8 b -"], "3 rank(s)"),
        (
            &["solve", "--position", "obupyrgn/8/8/8/8/8/8/NGRYPUBO x -"],
            "side to move `x`",
        ),
        (
            &["solve", "--position", "obupyrgn/8/8/8/8/8/8/NGRYPUBZ b -"],
            "`Z`",
        ),
        (
            &["solve", "--position", "obupyrgn/8/8/8/8/8/8/NGRYPUB b -"],
            "rank 1 `NGRYPUB`",
        ),
        (
            &["solve", "--position", "obupyrgn/8/8/8/8/8/8/NGRYPUBO b q"],
            "active colour `q`",
        ),
        (
            &["solve", "--position", "obupyrgn/8/8/8/8/8/8/NGRYPUBN b -"],
            "twice",
        ),
        (
            &["solve", "--position", "obupyrgn/8/8/8/8/8/8/NGRYPUB1 b -"],
            "missing",
        ),
        (&["solve", "--position", "obupyrgn"], "1 field(s)"),
        (&["perft", "x"], "'x'"),
        (&["perft", "99"], "99"),
        (&["solve", "--threads", "0"], "0"),
        (&["solve", "--hash-mb", "0"], "0"),
        (&["solve", "--bogus"], "--bogus"),
        (&["nonsense"], "nonsense"),
        (
            &[
                "openings",
                "--out",
                "/proc/kamisado/forbidden.json",
                "--hash-mb",
                "1",
                "--threads",
                "1",
            ],
            "forbidden.json",
        ),
    ];
    for (args, naming) in cases {
        let run = kamisado(args, "");
        run.assert_one_line_error(2, naming);
    }
}

/// The commands a `--help` lists (the lines under `Commands:`), without `help`.
fn listed_commands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_owned)
        .collect()
}

#[test]
fn every_command_has_help_with_an_example() {
    let top = kamisado(&["--help"], "");
    assert_eq!(top.code, 0);
    // The top-level examples' comments start in one column.
    let columns: Vec<usize> = top
        .stdout
        .lines()
        .skip_while(|l| !l.starts_with("Examples:"))
        .skip(1)
        .filter_map(|l| l.find(" # "))
        .collect();
    assert!(columns.len() >= 3, "{}", top.stdout);
    assert!(columns.iter().all(|&c| c == columns[0]), "{}", top.stdout);
    let mut commands: Vec<Vec<String>> = listed_commands(&top.stdout)
        .into_iter()
        .map(|c| vec![c])
        .collect();
    let mut i = 0;
    while i < commands.len() {
        let mut args: Vec<&str> = commands[i].iter().map(String::as_str).collect();
        args.push("--help");
        let run = kamisado(&args, "");
        assert_eq!(run.code, 0, "{args:?}");
        assert!(run.stdout.contains("Example"), "{args:?}: {}", run.stdout);
        let below: Vec<Vec<String>> = listed_commands(&run.stdout)
            .into_iter()
            .map(|c| [commands[i].clone(), vec![c]].concat())
            .collect();
        commands.extend(below);
        i += 1;
    }
    assert!(commands.len() > 20, "{commands:?}");
}

/// A single round that ends draws the winning tower as the position text has it: no
/// Sumo's `+`, which only a match's next round would have.
#[test]
fn a_finished_single_round_shows_no_sumo() {
    let run = kamisado(
        &["show", "--moves", "h1-h5 e8-e3 c1-c2 e3-c1", "--no-color"],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("NGyYPUB1"), "{}", run.stdout);
    let board: Vec<&str> = run.stdout.lines().take(9).collect();
    assert!(board.iter().all(|l| !l.contains('+')), "{}", run.stdout);
    assert!(board[7].starts_with("1  N  G  y  Y"), "{}", run.stdout);
}
