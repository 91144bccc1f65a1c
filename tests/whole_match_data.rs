//! The shipped whole-match results (`data/match-standard.json`, written by `kamisado
//! whole-match survey`) checked by a second method.
//!
//! At a round start where every round win of either side reaches the target (a Standard
//! match at 2-2), the match is the round: its value must be the round's value by the round
//! solver ([`MatchRound`], a different game from the match search's clinch questions, and
//! checked against the reference in `match_vs_reference.rs`). Every entry's fields must
//! agree with each other, and a recorded line must lead to its position.

use kamisado_match::{ClinchRound, MatchPosition, MatchRecord, MatchRound, Side, Target};
use kamisado_solver::{Cancel, Options, Solver};

fn shipped() -> Vec<serde_json::Value> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/match-standard.json");
    let text = std::fs::read_to_string(path).expect("data/match-standard.json is shipped");
    let file: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    file["entries"].as_array().expect("an entries list").clone()
}

fn text<'a>(entry: &'a serde_json::Value, field: &str) -> &'a str {
    entry[field]
        .as_str()
        .unwrap_or_else(|| panic!("{entry}: no {field}"))
}

#[test]
fn every_entry_is_consistent() {
    let entries = shipped();
    assert!(entries.len() >= 20, "only {} entries", entries.len());
    for e in &entries {
        let pos: MatchPosition = text(e, "position").parse().expect("a match position");
        assert_eq!(pos.target(), Target::Standard, "{e}");
        let to_move = if pos.turn() == Side::Black {
            "black"
        } else {
            "white"
        };
        assert_eq!(text(e, "to_move"), to_move, "{e}");
        if e["proven"].as_bool() == Some(true) {
            let winner = match text(e, "value") {
                "win" => to_move,
                "loss" => {
                    if to_move == "black" {
                        "white"
                    } else {
                        "black"
                    }
                }
                other => panic!("{e}: value {other}"),
            };
            assert_eq!(text(e, "winner"), winner, "{e}");
        } else {
            assert!(e["value"].is_null() && e["winner"].is_null(), "{e}");
        }
        if let Some(record) = e["record"].as_str() {
            let replayed = MatchRecord::parse(MatchPosition::start(Target::Standard), record)
                .expect("a legal record")
                .current();
            assert_eq!(replayed.resolve(), pos, "{e}");
        }
    }
}

#[test]
fn final_rounds_have_the_round_solvers_value() {
    let round = Solver::new(
        MatchRound,
        Options {
            threads: 2,
            table_bytes: 128 << 20,
        },
    )
    .unwrap();
    let finals: Vec<_> = shipped()
        .into_iter()
        .filter(|e| e["proven"].as_bool() == Some(true))
        .filter(|e| {
            let pos: MatchPosition = text(e, "position").parse().unwrap();
            Side::ALL
                .into_iter()
                .all(|side| ClinchRound::every_win_clinches(&pos, side))
        })
        .collect();
    assert!(finals.len() >= 4, "only {} final rounds", finals.len());
    // A sample: each is a whole round solved again (about a second).
    for e in finals.iter().step_by(3) {
        let pos: MatchPosition = text(e, "position").parse().unwrap();
        let value = round.value(&pos, &Cancel::new()).unwrap();
        assert_eq!(value.name(), text(e, "value"), "{e}");
    }
}
