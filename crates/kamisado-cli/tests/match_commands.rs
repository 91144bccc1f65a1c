//! Match play through the `kamisado` binary: `--target`, match positions and records in
//! `show`, `perft`, `solve`, `play` and `match`. The figures are checked against the
//! match-play library (a layer below the command) or against the rules worked by hand.

mod common;
use common::kamisado;

use kamisado_core::Side;
use kamisado_match::{perft, MatchPosition, MatchRecord, MatchRound, Target};
use kamisado_solver::{Cancel, Options, Solver};

const KAMISADO: &str = env!("CARGO_BIN_EXE_kamisado");

/// Round 1 of a Standard match: g1-g7 (brown) names White's Brown, h8-h6 (blue) names
/// Black's Blue on g7, which can win on h8.
const ROUND_ONE: &str = "g1-g7 h8-h6";

fn parsed(text: &str) -> MatchPosition {
    text.parse().unwrap()
}

fn solver() -> Solver<MatchRound> {
    Solver::new(
        MatchRound,
        Options {
            threads: 1,
            table_bytes: 16 << 20,
        },
    )
    .unwrap()
}

#[test]
fn show_prints_the_next_rounds_start_the_score_and_the_round() {
    // Worked by hand from the refill rule (RULES.md, match play): Black's Blue wins on h8
    // and becomes a Sumo. From the left Black reads a1..f1, h1 (g1 is empty) and then h8:
    // Brown Green Red Yellow Pink Purple Orange Blue, set from a1. White reads row 8 from
    // h (its left) without h8, then h6: Orange..Green and Brown, set from h8 leftwards.
    // From the right both read and set from the other end.
    for (word, expected) in [
        ("left", "nobupyrg/8/8/8/8/8/8/NGRYPUOB+ w - 3"),
        ("right", "obupyrgn/8/8/8/8/8/8/B+NGRYPUO w - 3"),
    ] {
        let record = format!("{ROUND_ONE} g7-h8 {word}");
        let run = kamisado(&["show", "--target", "3", "--moves", &record, "--json"], "");
        assert_eq!(run.code, 0, "{}", run.stderr);
        let json = run.json();
        assert_eq!(json["position"], expected, "{word}");
        assert_eq!(json["round"], 2);
        assert_eq!(json["target"], 3);
        assert_eq!(json["score"]["black"], 1);
        assert_eq!(json["score"]["white"], 0);
        // The loser starts with a free move.
        assert_eq!(json["to_move"], "white");
        assert!(json["active"].is_null());
    }
    // Just after the round-ending move: the winner's choice is due.
    let run = kamisado(
        &[
            "show",
            "--target",
            "3",
            "--moves",
            &format!("{ROUND_ONE} g7-h8"),
            "--json",
        ],
        "",
    );
    let json = run.json();
    assert_eq!(json["refill_by"], "black");
    assert_eq!(json["refill_choices"], serde_json::json!(["left", "right"]));
    assert_eq!(json["score"]["black"], 1);
}

#[test]
fn bad_match_input_names_what_is_wrong() {
    let cases = [
        // An own tower straight ahead of the Sumo.
        (
            "obupyrgn/8/8/8/2Y5/2R+5/8/NG2PUBO b r 3",
            "c3-c4",
            "own tower",
        ),
        // A Sumo against a Sumo.
        (
            "ob1pyrgn/8/8/8/2u+5/2R+5/8/NG1YPUBO b r 7",
            "c3-c4",
            "lower rank",
        ),
        // Two towers ahead of a Sumo, which pushes one.
        (
            "o2pyrgn/8/8/2b5/2u5/2R+5/8/NG1YPUBO b r 3",
            "c3-c4",
            "at most 1",
        ),
        // The run reaches the edge.
        ("ob1pyrgn/8/8/8/8/G7/2u+5/N1RYPUBO w u 3", "c2-c1", "edge"),
        // A refill word in the middle of a round.
        (
            "obupyrgn/8/8/8/8/8/8/NGRYPUBO b - 3",
            "g1-g7 left",
            "not over",
        ),
        // A move where the refill word is due.
        (
            "obupyrgn/8/8/8/8/8/8/NGRYPUBO b - 3",
            "g1-g7 h8-h6 g7-h8 h1-h2",
            "`left` or `right`",
        ),
        // A move after a winning Sumo ended a Standard match.
        (
            "ob1pyrgn/2U+5/4u3/8/8/8/8/NGRYP1BO b u 3",
            "c7-c8 e6-e1",
            "match is over",
        ),
    ];
    for (position, moves, says) in cases {
        kamisado(&["show", "--position", position, "--moves", moves], "")
            .assert_one_line_error(2, says);
    }
    kamisado(&["show", "--target", "5"], "").assert_one_line_error(2, "1, 3, 7 or 15");
    kamisado(
        &["show", "--position", "obupyrgn/8/8/8/8/8/8/NGRYPUBO b - 4"],
        "",
    )
    .assert_one_line_error(2, "--position");
}

/// A single round is a game of its own: its errors speak of the game and of a position,
/// never of a match, which it is not part of.
#[test]
fn single_round_errors_speak_of_a_single_round() {
    let finished = "h1-h5 e8-e3 c1-c2 e3-c1";
    for (args, says) in [
        (vec!["show", "--moves", &format!("{finished} a1-a2") as &str], "the game is over (white won it)"),
        (vec!["show", "--moves", &format!("{finished} right")], "the game is over (white won it)"),
        (
            vec!["query", "--db", "none", "--moves", &format!("{finished} left")],
            "the game is over (white won it)",
        ),
        (
            vec!["show", "--position", "obupyrgn/8/8/8/8/8/8/N+GRYPUBO b -"],
            "not a legal position: the black brown tower has rank 1 (Sumo), but a single round has no Sumos",
        ),
    ] {
        let run = kamisado(&args, "");
        run.assert_one_line_error(2, says);
        for wrong in ["the match", "legal match position"] {
            assert!(!run.stderr.contains(wrong), "{args:?}: {}", run.stderr.trim());
        }
    }
    // A match's own errors still say so.
    kamisado(
        &[
            "show",
            "--position",
            "obupyrgn/8/8/8/8/8/8/N+++GRYPUBO b - 3",
        ],
        "",
    )
    .assert_one_line_error(2, "not a legal match position");
}

#[test]
fn perft_counts_what_the_library_counts_on_match_positions() {
    // A round-2 start with a Sumo, and a position with a legal push.
    for (position, depth) in [
        ("obupyrgn/8/8/8/8/8/8/N+GRYPUBO w - 3", 4u32),
        ("ob1pyrgn/8/8/8/2u5/2R+5/8/NG1YPUBO b r 3", 4),
        ("o+b+u++pyrgn/8/8/8/8/8/8/N++G+RY+++PUBO b - 15", 3),
    ] {
        let run = kamisado(
            &[
                "perft",
                &depth.to_string(),
                "--position",
                position,
                "--json",
            ],
            "",
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        let json = run.json();
        assert_eq!(json["position"], position);
        assert_eq!(
            json["nodes"].as_u64(),
            Some(perft::perft(&parsed(position), depth)),
            "{position}"
        );
    }
    // --target and a record: the start of round 2.
    let run = kamisado(
        &[
            "perft",
            "2",
            "--target",
            "3",
            "--moves",
            &format!("{ROUND_ONE} g7-h8 left"),
            "--json",
        ],
        "",
    );
    let start = MatchRecord::parse(
        MatchPosition::start(Target::Standard),
        &format!("{ROUND_ONE} g7-h8 left"),
    )
    .unwrap()
    .current();
    assert_eq!(run.json()["nodes"].as_u64(), Some(perft::perft(&start, 2)));
}

#[test]
fn solve_answers_for_the_round_with_a_line_that_ends_it() {
    // The push case with a winning extra move, and a round-2 position a few moves in.
    for position in [
        "ob1pyrgn/8/4B3/8/2u5/2R+5/8/NG1YPU1O b r 3",
        "1bupyrgn/6NO/8/8/4o3/4Y+3/8/1GR1PUB1 b y 3",
    ] {
        let run = kamisado(
            &["solve", "--position", position, "--json", "--hash-mb", "16"],
            "",
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        let json = run.json();
        let pos = parsed(position);
        let outcome = solver().outcome(&pos, &Cancel::new()).unwrap();
        assert_eq!(json["value"], outcome.value.name(), "{position}");
        assert_eq!(
            json["remoteness"].as_u64(),
            Some(u64::from(outcome.remoteness)),
            "{position}"
        );
        // The line ends the round after exactly that many moves.
        let mut p = pos;
        let pv = json["pv"].as_array().unwrap();
        for m in pv {
            p = p.play(m.as_str().unwrap().parse().unwrap()).unwrap();
        }
        assert!(p.round_end().is_some(), "{position}");
        assert_eq!(pv.len() as u32, outcome.remoteness);
        assert_eq!(json["round"], pos.round_number());
    }
}

#[test]
fn play_a_standard_match_through_a_round_end_and_the_refill() {
    // The human (Black) wins round 1 on h8, mistypes the refill choice, chooses `left`;
    // White, the round's loser, is to start round 2. The test stops reading there: the
    // perfect player's first move of a round-2 start is a whole search, checked in the
    // referee's tests, and too slow for an unoptimized binary.
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    let mut child = Command::new(KAMISADO)
        .args([
            "play",
            "--target",
            "3",
            "--moves",
            ROUND_ONE,
            "--no-color",
            "--quiet",
            "--hash-mb",
            "16",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"g7-h8\nup\nleft\n")
        .unwrap();
    let mut out = String::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        out.push_str(&line);
        out.push('\n');
        if line.starts_with("Round 2:") {
            break;
        }
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        out.contains("Round 1 over: black won by reaching the home row."),
        "{out}"
    );
    assert!(
        out.contains("Score after round 1: black's blue tower is now a Sumo; black 1, white 0"),
        "{out}"
    );
    assert!(
        out.contains("choose how both home rows are refilled"),
        "{out}"
    );
    // The mistyped word is refused, and the choice asked for again.
    let after_up: Vec<&str> = out
        .split("black refill> up")
        .nth(1)
        .unwrap_or_else(|| panic!("no echo of the mistyped word: {out}"))
        .lines()
        .collect();
    assert!(
        after_up.iter().any(|l| l.contains("black refill> left")),
        "{out}"
    );
    assert!(
        out.contains("Round 2: refilled from the left; white (the round's loser) starts."),
        "{out}"
    );
}

#[test]
fn match_referees_a_standard_match_and_counts_rounds_and_points() {
    // Both sides have two Sumos (2 points each): whoever wins this round wins the match.
    // Black's Red Sumo pushes White's Purple tower and wins with Blue on c8 at once, so
    // Black wins the match however the engine plays White; as Black, the perfect engine
    // finds the same two moves. The push makes the engine move twice in a row.
    let position = "o+b+1pyrgn/8/4B3/8/2u5/2R+5/8/N+G1YPU1O b r 3";
    let start = parsed(position);
    assert_eq!((start.score(Side::Black), start.score(Side::White)), (2, 2));
    let engine = format!("{KAMISADO} engine --hash-mb 16 --threads 1");
    let run = kamisado(
        &[
            "match",
            "--engine",
            &engine,
            "--position",
            position,
            "--games",
            "2",
            "--json",
            "--hash-mb",
            "16",
            "--threads",
            "1",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report = run.json();
    assert_eq!(report["target"], 3);
    let summary = &report["summary"];
    assert_eq!(summary["games"], 2);
    assert_eq!(summary["rounds"], 2);
    assert_eq!(summary["forfeits"], 0);
    let mut records = String::new();
    for game in report["games"].as_array().unwrap() {
        assert_eq!(game["winner"], "black", "{game}");
        assert_eq!(game["rounds"], 1);
        assert_eq!(game["moves"], 2);
        // Black's Blue tower gains its first rank: 2 + 1 points.
        let black_points = if game["engine_side"] == "black" {
            &game["engine_points"]
        } else {
            &game["perfect_points"]
        };
        assert_eq!(black_points, 3, "{game}");
        records.push_str(game["record"].as_str().unwrap());
        records.push('\n');
    }
    assert_eq!(
        summary["engine_points"].as_u64().unwrap() + summary["perfect_points"].as_u64().unwrap(),
        3 + 2 + 3 + 2
    );
    // The records read back into verify, which finds no mistake.
    let verified = kamisado(&["verify", "-", "--json", "--hash-mb", "16"], &records);
    assert_eq!(verified.code, 0, "{}", verified.stderr);
    let total = &verified.json()["summary"]["total"];
    assert_eq!(total["blunders"], 0, "{}", verified.stdout);
}

#[test]
fn a_single_round_is_unchanged_by_target_one() {
    // `--target 1` is the single round: the same text and the same perft as without it,
    // and the single round's figure (the README's perft table: 11,332 sequences of 3 moves).
    let plain = kamisado(&["perft", "3", "--json"], "").json();
    let one = kamisado(&["perft", "3", "--target", "1", "--json"], "").json();
    assert_eq!(plain["nodes"], one["nodes"]);
    assert_eq!(plain["nodes"], 11_332);
    assert_eq!(plain["position"], one["position"]);
    assert_eq!(one["position"], "obupyrgn/8/8/8/8/8/8/NGRYPUBO b -");
}

/// A final round of a Standard match at 2-2 (any round win ends the match): the match
/// value of every move is its round value.
const FINAL_ROUND: &str = "rgnyb+p+uo/8/8/8/8/8/8/O+UY+NBPRG w - 3";

#[test]
fn whole_match_query_gives_every_move_its_match_value() {
    let run = kamisado(
        &[
            "whole-match",
            "query",
            "--position",
            FINAL_ROUND,
            "--time-limit",
            "20",
            "--threads",
            "1",
            "--hash-mb",
            "64",
            "--json",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report = run.json();
    // The round solver (the search behind `query --target 3`, a different game) on the
    // same moves.
    let round_values: std::collections::HashMap<String, String> = solver()
        .move_values(&parsed(FINAL_ROUND), &Cancel::new())
        .unwrap()
        .into_iter()
        .map(|(m, v)| (m.to_string(), v.name().to_owned()))
        .collect();
    let moves = report["moves"].as_array().unwrap();
    assert_eq!(moves.len(), round_values.len(), "{report}");
    for m in moves {
        let mv = m["move"].as_str().unwrap();
        assert_eq!(m["proven"], true, "{m}");
        assert_eq!(
            Some(m["value"].as_str().unwrap()),
            round_values.get(mv).map(String::as_str),
            "{mv}"
        );
    }
    let winning = report["winning"].as_array().unwrap();
    assert!(
        !winning.is_empty() && winning.len() < moves.len(),
        "{report}"
    );
    assert_eq!(report["value"], "win");
    assert_eq!(report["to_move"], "white");
}

#[test]
fn whole_match_openings_lists_the_first_moves_of_a_match() {
    let run = kamisado(
        &[
            "whole-match",
            "openings",
            "--target",
            "3",
            "--time-limit",
            "0.01",
            "--threads",
            "1",
            "--hash-mb",
            "16",
            "--json",
        ],
        "",
    );
    // Out of time with moves unproven: exit code 1, as every search (the report first).
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("not proven"), "{}", run.stderr);
    let report = run.json();
    let listed: Vec<String> = report["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap().to_owned())
        .collect();
    let start = MatchPosition::start(Target::Standard);
    let mut legal: Vec<String> = start.legal_moves().iter().map(|m| m.to_string()).collect();
    let mut sorted = listed.clone();
    sorted.sort();
    legal.sort();
    assert_eq!(sorted, legal);
    assert_eq!(listed.len(), 102);
    // Nothing is proved in a hundredth of a second a move, and the report says so.
    assert_eq!(report["proven"], 0);
    assert_eq!(report["value"], serde_json::Value::Null);
    assert!(report["moves"][0]["value"].is_null());
    // The work done on unproven moves is reported, not zero.
    let nodes: u64 = report["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["nodes"].as_u64().unwrap())
        .sum();
    assert!(nodes > 0, "{report}");
    assert!(report["moves"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m["seconds"].as_f64().unwrap() > 0.0));
}

/// `whole-match units` lists the shipped round starts (of a score, unproven ones);
/// `whole-match merge` joins the proof files of units solved apart, and refuses files that
/// disagree about a position (naming it), damaged files and other files, writing nothing.
#[test]
fn whole_match_units_are_solved_apart_and_merged() {
    use kamisado_match_solver::{file, Fact};
    let repository = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let shipped = repository.join("data/match-standard.json");
    let survey: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&shipped).unwrap()).unwrap();
    let units = |extra: &[&str]| -> Vec<String> {
        let mut args = vec![
            "whole-match",
            "units",
            "--survey",
            shipped.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        args.push("--json");
        let run = kamisado(&args, "");
        assert_eq!(run.code, 0, "{}", run.stderr);
        run.json()["units"]
            .as_array()
            .unwrap()
            .iter()
            .map(|u| u.as_str().unwrap().to_owned())
            .collect()
    };
    // The shipped list's entries, by the score in their position text.
    let listed = |score: &str, unproven: bool| -> Vec<String> {
        survey["entries"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| !(unproven && e["proven"] == true))
            .map(|e| e["position"].as_str().unwrap().to_owned())
            .filter(|p| {
                let pos: MatchPosition = p.parse().unwrap();
                format!("{}-{}", pos.score(Side::Black), pos.score(Side::White)) == score
            })
            .collect()
    };
    let finals = units(&["--score", "2-2"]);
    assert_eq!(finals, listed("2-2", false));
    assert!(finals.len() >= 2);
    assert_eq!(
        units(&["--score", "2-1", "--unproven"]),
        listed("2-1", true)
    );
    assert!(units(&[]).len() > finals.len());

    let dir = std::env::temp_dir().join(format!("kamisado-units-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let parts: Vec<std::path::PathBuf> =
        (0..2).map(|i| dir.join(format!("unit-{i}.kmp"))).collect();
    for (unit, part) in finals.iter().zip(&parts) {
        let run = kamisado(
            &[
                "whole-match",
                "solve",
                "--position",
                unit,
                "--time-limit",
                "60",
                "--threads",
                "1",
                "--hash-mb",
                "64",
                "--db",
                part.to_str().unwrap(),
                "--json",
            ],
            "",
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert_eq!(run.json()["proven"], true, "{unit}");
    }
    let facts: Vec<Vec<([u64; 3], Fact)>> = parts.iter().map(|p| file::read(p).unwrap()).collect();
    let out = dir.join("merged.kmp");
    let merge = |files: &[&std::path::Path]| {
        let mut args = vec!["whole-match", "merge"];
        args.extend(files.iter().map(|p| p.to_str().unwrap()));
        args.extend_from_slice(&["--out", out.to_str().unwrap(), "--json"]);
        kamisado(&args, "")
    };
    let run = merge(&[&parts[0], &parts[1]]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let mut union: Vec<([u64; 3], Fact)> = facts.concat();
    union.sort_by_key(|&(k, _)| k);
    union.dedup_by_key(|&mut (k, _)| k);
    assert_eq!(file::read(&out).unwrap(), union);
    assert_eq!(run.json()["facts"], union.len());
    std::fs::remove_file(&out).unwrap();

    // The same position proven won in one file and lost in the other.
    let (key, fact) = *facts[0]
        .iter()
        .find(|(_, f)| f.value().is_some())
        .expect("a proven fact");
    let Fact::Proven { value, source } = fact else {
        unreachable!()
    };
    let flipped = Fact::Proven {
        value: if value == kamisado_solver::Value::Win {
            kamisado_solver::Value::Loss
        } else {
            kamisado_solver::Value::Win
        },
        source,
    };
    let liar = dir.join("liar.kmp");
    file::write(&liar, &[(key, flipped)]).unwrap();
    let named = MatchPosition::from_match_key(key).unwrap().to_string();
    merge(&[&parts[0], &liar]).assert_one_line_error(2, &named);
    let damaged = dir.join("damaged.kmp");
    let bytes = std::fs::read(&parts[1]).unwrap();
    std::fs::write(&damaged, &bytes[..bytes.len() - 1]).unwrap();
    merge(&[&parts[0], &damaged]).assert_one_line_error(2, "damaged.kmp is damaged");
    merge(&[&parts[0], &shipped]).assert_one_line_error(2, "is not a proof file");
    assert!(!out.exists(), "a refused merge writes nothing");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The shipped `data/match-standard.json` with only its proven entries that `keep` keeps.
fn shipped_survey(keep: impl Fn(&serde_json::Value) -> bool) -> serde_json::Value {
    let repository = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut shipped: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(repository.join("data/match-standard.json")).unwrap(),
    )
    .unwrap();
    shipped["entries"]
        .as_array_mut()
        .unwrap()
        .retain(|e| e["proven"] == true && keep(e));
    shipped
}

/// A speculating survey stopped by its time limit records the nodes its own searches
/// made: each entry's speculation searches with a fresh solver, so the count is not
/// taken against the previous entry's (which once wrapped round to nearly 2^64).
#[test]
fn a_speculating_survey_records_each_entrys_own_nodes() {
    let dir = std::env::temp_dir().join(format!("kamisado-survey-spec-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("survey.json");
    // The shipped final rounds, proven by their own search, are skipped; the round starts
    // at 2-1 and 1-2 are searched, several trailing ones in a row (each stopped).
    let shipped = shipped_survey(|e| e["kind"].as_str().unwrap().contains("2-2"));
    std::fs::write(&out, shipped.to_string()).unwrap();
    let run = kamisado(
        &[
            "whole-match",
            "survey",
            "--limit",
            "20",
            "--time-limit",
            "2",
            "--speculate",
            "--threads",
            "1",
            "--hash-mb",
            "64",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let entries = written["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 20);
    let unproven: Vec<_> = entries.iter().filter(|e| e["proven"] == false).collect();
    assert!(unproven.len() >= 2, "{written}");
    for e in &unproven {
        // Two seconds of one thread: far under a billion match nodes. (A final round is
        // assumed at once, with no match node, and then verified.)
        assert!(e["nodes"].as_u64().unwrap() < 1_000_000_000, "{e}");
    }
    assert!(
        unproven
            .iter()
            .any(|e| e["kind"].as_str().unwrap().contains("2-1") && e["nodes"].as_u64() > Some(0)),
        "{written}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `whole-match survey` logs each entry's progress on standard error with the work done
/// so far (a match node may take a whole round's search, so a run of seconds has a few
/// hundred), the file records no less, and `--quiet` and `--json` work as elsewhere.
#[test]
fn whole_match_survey_logs_the_work_it_does() {
    // Only the entries proven by a search of their own: the run skips them and searches
    // the others among the first twelve of the list (the round starts at 2-1 with the
    // trailing side to move, proven only through their proof files, which it is not
    // given).
    let mut shipped = shipped_survey(|e| e["round_nodes"].as_u64() > Some(0));
    let dir = std::env::temp_dir().join(format!("kamisado-survey-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("survey.json");
    std::fs::write(&out, shipped.to_string()).unwrap();
    let survey = |limit: &str, extra: &[&str]| {
        let mut args = vec![
            "whole-match",
            "survey",
            "--limit",
            limit,
            "--time-limit",
            "5",
        ];
        args.extend_from_slice(&["--threads", "1", "--hash-mb", "64"]);
        args.extend_from_slice(&["--out", out.to_str().unwrap()]);
        args.extend_from_slice(extra);
        kamisado(&args, "")
    };
    let run = survey("12", &["--json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let entries = written["entries"].as_array().unwrap();
    assert_eq!(run.json()["entries"], entries.len(), "{}", run.stdout);
    assert_eq!(run.json()["out"], out.to_str().unwrap());
    // The file's own description is kept, and an entry measured before round ends were
    // counted stays without the count (absent is "not counted", not zero).
    assert_eq!(written["about"], shipped["about"]);
    let uncounted = shipped["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e.get("round_ends").is_none())
        .collect::<Vec<_>>();
    assert!(!uncounted.is_empty());
    for old in uncounted {
        let new = entries
            .iter()
            .find(|e| e["position"] == old["position"])
            .unwrap();
        assert!(new.get("round_ends").is_none(), "{new}");
    }
    // Each searched entry: a heading naming its position, then progress lines.
    let (mut searched, mut counted) = (0, 0);
    for block in run.stderr.split("round start at ").skip(1) {
        let position = block.lines().next().unwrap().split(": ").nth(1).unwrap();
        let entry = entries
            .iter()
            .find(|e| e["position"] == position)
            .unwrap_or_else(|| panic!("{position} is not in the file"));
        let nodes: Vec<u64> = block
            .lines()
            .filter_map(|l| l.split(", ").nth(1)?.strip_suffix(" match nodes"))
            .map(|n| n.replace(',', "").parse().unwrap())
            .collect();
        assert!(!nodes.is_empty(), "no progress line: {block}");
        let recorded = entry["nodes"].as_u64().unwrap();
        assert!(recorded > 0, "{entry}");
        // The count so far: never past what the file records, never going back. (The
        // first match node may wait seconds for its round solve on a loaded machine, so
        // an early line may truly say 0.)
        assert!(
            nodes.windows(2).all(|w| w[0] <= w[1]) && nodes.iter().all(|&n| n <= recorded),
            "progress {nodes:?}, file {recorded}: {block}"
        );
        counted = counted.max(*nodes.last().unwrap());
        searched += 1;
    }
    assert!(searched > 0, "{}", run.stderr);
    // Hundreds of nodes in all: they show in the progress, not only in the file.
    assert!(counted > 0, "every progress line says 0: {}", run.stderr);
    // --quiet: nothing on standard error, the summary on standard output. The entry it
    // adds back is searched again.
    shipped["entries"].as_array_mut().unwrap().truncate(10);
    std::fs::write(&out, shipped.to_string()).unwrap();
    let run = survey("11", &["--quiet"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stderr, "");
    assert!(run.stdout.starts_with("11 entries, "), "{}", run.stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Late in a round at 2-1 (Black to move): the round's end leads into final rounds.
const TWO_ONE_LATE: &str = "8/gU2R+1u1/5Grn+/8/N+Bb5/3y4/4p2o/2Y3OP b y 3";

/// `--count-only` stops a speculating run after its search and the walk of its proof:
/// the value as speculated, the final rounds the proof rests on, none verified, exit 0;
/// the full run from the same (empty) proof file finds the same proof and verifies
/// exactly those. Without `--speculate` the option is refused.
#[test]
fn whole_match_solve_count_only_counts_what_a_verification_would_need() {
    let db = std::env::temp_dir().join(format!("kamisado-count-only-{}.kmp", std::process::id()));
    let _ = std::fs::remove_file(&db);
    let solve = |extra: &[&str]| {
        let mut args = vec![
            "whole-match",
            "solve",
            "--position",
            TWO_ONE_LATE,
            "--speculate",
            "--threads",
            "1",
            "--hash-mb",
            "64",
            "--db",
            db.to_str().unwrap(),
            "--json",
            "--quiet",
        ];
        args.extend_from_slice(extra);
        let run = kamisado(&args, "");
        assert_eq!(run.code, 0, "{}", run.stderr);
        run.json()
    };
    let counted = solve(&["--count-only"]);
    assert_eq!(counted["proven"], false, "{counted}");
    assert!(counted.get("value").is_none(), "{counted}");
    let speculated = counted["speculated_value"].as_str().unwrap().to_owned();
    assert!(speculated == "win" || speculated == "loss", "{counted}");
    let count = &counted["speculation"];
    assert_eq!(count["verified"], 0, "{counted}");
    assert_eq!(count["searches"], 1, "{counted}");
    let relied_on = count["relied_on"].as_u64().unwrap();
    assert!(relied_on >= 1, "{counted}");
    assert!(count["assumed"].as_u64().unwrap() >= relied_on, "{counted}");

    let full = solve(&[]);
    assert_eq!(full["proven"], true, "{full}");
    let spec = &full["speculation"];
    if spec["wrong"] == 0 {
        assert_eq!(full["value"], speculated.as_str(), "{full}");
        assert_eq!(spec["relied_on"], relied_on, "{full}");
        assert_eq!(spec["verified"], relied_on, "{full}");
    }
    let _ = std::fs::remove_file(&db);

    for lone in [&["--count-only"][..], &["--assumed-price", "4"][..]] {
        let mut args = vec!["whole-match", "solve", "--position", TWO_ONE_LATE];
        args.extend_from_slice(lone);
        let run = kamisado(&args, "");
        assert_eq!(run.code, 2, "{lone:?}: {}", run.stderr);
        assert!(run.stderr.contains("--speculate"), "{}", run.stderr);
    }
}
