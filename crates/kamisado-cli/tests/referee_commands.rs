//! `verify`, `engine` and `match` end to end, through the `kamisado` binary.

use std::path::PathBuf;

mod common;
use common::kamisado;

const KAMISADO: &str = env!("CARGO_BIN_EXE_kamisado");

/// A whole game whose first move, h1-g2, gives Black's win away (the start is a win in 17
/// for Black; after h1-g2 White wins in 12), then perfect play to White's goal. After
/// f8-f6 Black's tower on a3 is blocked: its zero-length move is written out.
const BLUNDER_GAME: &str =
    "h1-g2 a8-a4 d1-b3 e8-e2 b1-d3 c8-c2 b3-b6 d8-d4 a1-a3 b8-g3 e1-b4 f8-f6 a3-a3 g3-e1";

fn write_temp(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kamisado-cli-referee-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn records_file() -> String {
    format!(
        "# games for kamisado verify\n\
         {BLUNDER_GAME}   # Black throws the game away at once\n\
         \n\
         h1-h7 c8-c4 a1-h8\n\
         position ob1pyrgn/7O/8/8/2u5/8/8/NGRYPUB1 b g moves b1-b2 h8-d4\n\
         h1-h7 c8-c4 b1-b2 nonsense b1-b3\n"
    )
}

#[test]
fn verify_finds_the_losing_first_move() {
    let path = write_temp("verify.txt", &records_file());
    let run = kamisado(
        &[
            "verify",
            path.to_str().unwrap(),
            "--json",
            "--hash-mb",
            "32",
        ],
        "",
    );
    // Two games stop early: bad input, reported after the whole report.
    run.assert_one_line_error(
        2,
        "2 of 4 games stop early; the first at line 4: move 3 `a1-h8`",
    );
    let report = run.json();
    let games = report["games"].as_array().unwrap();
    assert_eq!(games.len(), 4);

    let blunder = &games[0];
    assert_eq!(blunder["line"], 2);
    assert_eq!(blunder["start_outcome"]["value"], "win");
    assert_eq!(blunder["start_outcome"]["remoteness"], 17);
    let first = &blunder["moves"][0];
    assert_eq!(first["move"], "h1-g2");
    assert_eq!(first["mover"], "black");
    assert_eq!(first["mark"], "blunder");
    assert_eq!(first["before"]["value"], "win");
    assert_eq!(first["before"]["remoteness"], 17);
    assert_eq!(first["after"]["value"], "loss");
    assert_eq!(first["after"]["remoteness"], 13);
    assert_eq!(blunder["first_blunder"], 1);
    assert_eq!(blunder["black"]["blunders"], 1);
    assert_eq!(blunder["white"]["blunders"], 0);
    assert_eq!(blunder["white"]["inaccuracies"], 0);
    assert_eq!(blunder["result"]["state"], "finished");
    assert_eq!(blunder["result"]["winner"], "white");
    assert_eq!(blunder["result"]["reason"], "goal");
    // The written zero-length move is not a move of its own; it follows move 12, and
    // the same player (White) moves again.
    let moves = blunder["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 13);
    assert_eq!(moves[11]["zero_length_after"][0], "a3-a3");
    assert_eq!(moves[12]["mover"], "white");
    assert_eq!(moves[12]["after"]["remoteness"], 1);
    assert!(blunder["error"].is_null());

    let illegal = &games[1];
    assert_eq!(illegal["line"], 4);
    assert_eq!(illegal["error"]["kind"], "move");
    assert_eq!(illegal["error"]["number"], 3);
    assert_eq!(illegal["error"]["token"], "a1-h8");
    assert!(illegal["error"]["reason"]
        .as_str()
        .unwrap()
        .contains("must move the green tower"));
    assert_eq!(illegal["moves"].as_array().unwrap().len(), 2);
    assert_eq!(illegal["result"]["state"], "unfinished");

    let from_text = &games[2];
    assert_eq!(from_text["moves"][1]["mark"], "inaccuracy");
    assert_eq!(from_text["moves"][1]["before"]["remoteness"], 14);
    assert_eq!(from_text["moves"][1]["after"]["remoteness"], 11);

    let bad_word = &games[3];
    assert_eq!(bad_word["error"]["number"], 4);
    assert_eq!(bad_word["error"]["token"], "nonsense");

    let summary = &report["summary"];
    assert_eq!(summary["games"], 4);
    assert_eq!(summary["games_with_errors"], 2);
    assert_eq!(summary["finished_games"], 1);
    assert!(summary["total"]["blunders"].as_u64().unwrap() >= 1);
}

#[test]
fn verify_prints_for_people_and_reads_standard_input() {
    let run = kamisado(&["verify", "-", "--hash-mb", "32"], &records_file());
    assert_eq!(run.code, 2, "{}", run.stderr);
    let out = &run.stdout;
    assert!(
        out.contains("game at line 2: 13 moves from the start; with perfect play black wins in 17"),
        "{out}"
    );
    assert!(
        out.contains("h1-g2     win in 17 -> loss in 13   BLUNDER"),
        "{out}"
    );
    assert!(out.contains("(then a3-a3)"), "{out}");
    assert!(
        out.contains("first blunder: move 1 h1-g2 by black"),
        "{out}"
    );
    assert!(out.contains("stopped: move 3 `a1-h8`: illegal"), "{out}");
    assert!(out.contains("inaccuracy (best: loss in 14)"), "{out}");
    assert!(out.contains("result: white won by goal"), "{out}");
    assert!(out.contains("summary: 4 games"), "{out}");

    let brief = kamisado(&["verify", "-", "--brief", "--hash-mb", "32"], BLUNDER_GAME);
    assert_eq!(brief.code, 0, "{}", brief.stderr);
    assert!(brief.stdout.contains("BLUNDER"));
    assert!(!brief.stdout.contains("a8-a4"), "{}", brief.stdout);
}

#[test]
fn verify_refuses_what_it_cannot_read() {
    kamisado(&["verify", "/nonexistent/games.txt"], "").assert_one_line_error(2, "cannot read");
    let empty = write_temp("empty.txt", "# nothing\n\n   # still nothing\n");
    kamisado(&["verify", empty.to_str().unwrap()], "").assert_one_line_error(2, "no games");
    kamisado(&["verify", "-", "--time-limit", "0"], "").assert_one_line_error(2, "time limit");
    let not_utf8 = std::env::temp_dir().join(format!("kamisado-not-utf8-{}", std::process::id()));
    std::fs::write(&not_utf8, [0xff, 0xfe, 0x00]).unwrap();
    kamisado(&["verify", not_utf8.to_str().unwrap()], "")
        .assert_one_line_error(2, "line 1 is not UTF-8 text");
    let garbage = kamisado(&["verify", "-", "--json"], "position\n%%%\n");
    assert_eq!(garbage.code, 2);
    let report = garbage.json();
    assert_eq!(report["games"][0]["error"]["kind"], "start");
    assert_eq!(report["games"][1]["error"]["token"], "%%%");
}

#[test]
fn the_engine_speaks_kei_on_standard_input() {
    let run = kamisado(
        &["engine", "--hash-mb", "32", "--threads", "1"],
        "kei\nposition startpos moves h1-h7 c8-c4\ngo\nsetoption name Hash value 1\nquit\ngo\n",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(lines[0].starts_with("id name kamisado"));
    assert_eq!(lines[2], "keiok");
    assert_eq!(lines[3], "info value win remoteness 15 source search");
    // Black's perfect moves here (fastest win in 15).
    assert!(
        ["bestmove b1-b2", "bestmove b1-b5"].contains(&lines[4]),
        "{}",
        run.stdout
    );
    assert_eq!(lines.len(), 6, "nothing after quit: {}", run.stdout);
}

fn engine_command() -> String {
    format!("{KAMISADO} engine --hash-mb 32 --threads 1")
}

#[test]
fn the_perfect_engine_against_itself_never_blunders() {
    let command = engine_command();
    let run = kamisado(
        &[
            "match",
            "--engine",
            &command,
            "--moves",
            "h1-h7 c8-c4",
            "--games",
            "2",
            "--as",
            "both",
            "--json",
            "--hash-mb",
            "32",
            "--threads",
            "1",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report = run.json();
    assert_eq!(report["engine_started"], true);
    let summary = &report["summary"];
    assert_eq!(summary["games"], 2);
    assert_eq!(summary["forfeits"], 0);
    assert_eq!(summary["engine_blunders"], 0);
    assert_eq!(summary["engine_inaccuracies"], 0);
    assert_eq!(summary["perfect_blunders"], 0);
    assert_eq!(summary["perfect_inaccuracies"], 0);
    let mut records = String::new();
    for (game, engine_side) in report["games"]
        .as_array()
        .unwrap()
        .iter()
        .zip(["black", "white"])
    {
        assert_eq!(game["engine_side"], engine_side);
        // Black is to move and wins in 15 at the start: with perfect play on both
        // sides Black wins, in exactly 15 moves.
        let start = &game["judgement"]["start_outcome"];
        assert_eq!(
            (start["value"].as_str(), start["remoteness"].as_u64()),
            (Some("win"), Some(15))
        );
        assert!(game["judgement"]["start"]
            .as_str()
            .unwrap()
            .ends_with(" b g"));
        assert_eq!(game["winner"], "black");
        assert_eq!(game["moves"], 15);
        assert!(game["engine_first_blunder"].is_null());
        records.push_str(game["record"].as_str().unwrap());
        records.push('\n');
    }
    // The records read back into verify, which agrees.
    let verified = kamisado(&["verify", "-", "--json", "--hash-mb", "32"], &records);
    assert_eq!(verified.code, 0, "{}", verified.stderr);
    let total = &verified.json()["summary"]["total"];
    assert_eq!(
        (total["blunders"].as_u64(), total["inaccuracies"].as_u64()),
        (Some(0), Some(0))
    );
}

#[test]
fn from_the_start_the_first_player_wins() {
    let command = engine_command();
    let run = kamisado(
        &[
            "match",
            "--engine",
            &command,
            "--games",
            "1",
            "--as",
            "black",
            "--time-limit",
            "120",
            "--hash-mb",
            "32",
            "--threads",
            "1",
            "--quiet",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("game 1: engine (black) won: black won by goal after 17 moves"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("engine's first blunder: none"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("perfect player: 0 blunders, 0 inaccuracies"),
        "{}",
        run.stdout
    );
}

#[test]
fn misbehaving_engines_lose_their_games_with_a_reason() {
    let late = "h1-h7 c8-c4 b1-b2 h8-d4";
    let play = |engine: &str, limit: &str| {
        kamisado(
            &[
                "match",
                "--engine",
                engine,
                "--moves",
                late,
                "--games",
                "1",
                "--as",
                "black",
                "--time-limit",
                limit,
                "--json",
                "--hash-mb",
                "32",
            ],
            "",
        )
    };
    // A shell engine that shakes hands properly but answers an illegal move.
    let illegal = play(
        "while read line; do case \"$line\" in kei) echo keiok;; go*) echo bestmove a1-a1;; esac; done",
        "5",
    );
    assert_eq!(illegal.code, 0, "{}", illegal.stderr);
    let game = &illegal.json()["games"][0];
    assert_eq!(game["fault"]["kind"], "illegal");
    assert_eq!(game["fault"]["move"], "a1-a1");
    assert_eq!(game["winner"], "white");
    assert_eq!(game["ending"], "forfeit");

    for (engine, kind, containing) in [
        ("echo hello", "garbage", "`hello` is not a KEI reply"),
        ("exit 3", "exited", "exit status: 3"),
        ("sleep 30", "time_out", "within the time limit of 300 ms"),
    ] {
        let run = play(engine, "0.3");
        run.assert_one_line_error(2, "never completed the `kei` handshake");
        assert!(run.stderr.contains(containing), "{engine}: {}", run.stderr);
        let game = &run.json()["games"][0];
        assert_eq!(game["fault"]["kind"], kind, "{engine}");
        assert_eq!(game["engine_won"], false);
    }
    // People get the same in words.
    let human = kamisado(
        &[
            "match",
            "--engine",
            "echo hello",
            "--moves",
            late,
            "--games",
            "1",
            "--hash-mb",
            "32",
        ],
        "",
    );
    assert!(
        human.stdout.contains(
            "game 1: engine (black) lost: forfeit after 0 moves: garbage from the engine"
        ),
        "{}",
        human.stdout
    );
}

#[test]
fn match_arguments_are_checked() {
    kamisado(&["match"], "").assert_one_line_error(2, "required arguments");
    kamisado(&["match", "--engine", "x", "--as", "nobody"], "").assert_one_line_error(2, "nobody");
    kamisado(&["match", "--engine", "x", "--games", "0"], "").assert_one_line_error(2, "0");
    kamisado(&["match", "--engine", "  "], "").assert_one_line_error(2, "empty");
    // Black has just reached rank 8.
    let finished = "h1-h7 c8-c4 b1-b2 h8-c3 a1-a6 g8-g4 f1-f5 g4-g3 e1-e4 a8-a7 c1-g5 f8-h6 g1-c5 b8-b3 d1-f3 a7-b6 e4-a8";
    kamisado(&["match", "--engine", "x", "--moves", finished], "")
        .assert_one_line_error(2, "finished game");
    for command in ["verify", "engine", "match"] {
        let help = kamisado(&[command, "--help"], "");
        assert_eq!(help.code, 0);
        assert!(
            help.stdout.contains("Example"),
            "{command}: {}",
            help.stdout
        );
    }
    let help = kamisado(&["match", "--help"], "").stdout;
    assert!(help.contains("The side the ENGINE plays"), "{help}");
    assert!(help.contains("sh -c"), "{help}");
}
