//! The shipped whole-match results (`data/match-standard.json`, written by `kamisado
//! whole-match survey`) checked by a second method.
//!
//! At a round start where every round win of either side reaches the target (a Standard
//! match at 2-2), the match is the round: its value must be the round's value by the round
//! solver ([`MatchRound`], a different game from the match search's clinch questions, and
//! checked against the reference in `match_vs_reference.rs`). Every entry's fields must
//! agree with each other, and a recorded line must lead to its position.
//!
//! The shipped two-round proof (`data/match-proofs/urgnob.kmp`, written by `whole-match
//! solve --speculate`) is checked the same way: its final rounds (a sample) against the
//! round solver, and its root's value against a match search that may use the file's
//! final rounds but not the root's own fact, nor ask the round solver anything.

use std::path::Path;

use kamisado_match::{
    ClinchRound, KeyStage, MatchPosition, MatchRecord, MatchRound, Side, Target, WholeMatch,
};
use kamisado_match_solver::{file, Fact, MatchOptions, MatchSolver, OracleMatch, Run, Source};
use kamisado_solver::{Cancel, Game, Options, Solver, Value};

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

/// The plain round game's solver, which checks final rounds: at 2-2 the match is the
/// round, so its value is the round's.
fn round_solver() -> Solver<MatchRound> {
    Solver::new(
        MatchRound,
        Options {
            threads: 2,
            table_bytes: 128 << 20,
        },
    )
    .unwrap()
}

#[test]
fn final_rounds_have_the_round_solvers_value() {
    let round = round_solver();
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

/// The round start the shipped two-round proof is about: 1-2 in a Standard match, Black
/// (one round win short of the target, so trailing) to move.
const TWO_ROUND_START: &str = "urgnob+yp+/8/8/8/8/8/8/OPRY+UGBN b - 3";

fn two_round_proof() -> Vec<([u64; 3], Fact)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/match-proofs/urgnob.kmp");
    file::read(Path::new(path)).expect("data/match-proofs/urgnob.kmp is shipped and reads")
}

#[test]
fn the_shipped_two_round_proof_follows_from_its_final_rounds() {
    let facts = two_round_proof();
    let checker = MatchSolver::new(
        MatchOptions {
            threads: 1,
            table_bytes: 256 << 20,
            round_table_bytes: 16 << 20,
            // Only the facts given answer round starts; nothing is asked of the round solver.
            ask_rounds: false,
        },
        None,
    )
    .unwrap();
    let start: MatchPosition = TWO_ROUND_START.parse().unwrap();
    let root_key = checker.solver().game().key(&WholeMatch::root(&start));
    let root_fact = facts
        .iter()
        .find(|(key, _)| *key == root_key)
        .map(|(_, fact)| *fact)
        .expect("the file holds its root's value");
    // Every other fact is a final round's (a 2-2 round start: Black won this round) or
    // the refill choice before one; the check gets the final rounds only.
    let mut finals = 0;
    for &(key, fact) in &facts {
        if key == root_key || MatchPosition::key_stage(key) != KeyStage::RoundStart {
            continue;
        }
        let pos = MatchPosition::from_match_key(key).unwrap();
        assert!(
            OracleMatch::is_final_round(&pos),
            "{pos}: not a final round"
        );
        checker.store().insert(key, fact);
        finals += 1;
    }
    assert!(finals > 1000, "only {finals} final rounds");
    let proof = checker.value(&start, &Run::default()).unwrap();
    assert_eq!(Some(proof.value), root_fact.value(), "{TWO_ROUND_START}");
    // White wins the match from here: the value for Black, to move, is a loss.
    assert_eq!(proof.value, Value::Loss);
    assert_eq!(proof.rounds_asked, 0);
    assert!(
        proof.nodes > 0,
        "the root's value was searched, not looked up"
    );
    eprintln!(
        "{TWO_ROUND_START}: {} match nodes, {:.1} s",
        proof.nodes, proof.seconds
    );
}

#[test]
fn the_shipped_two_round_proofs_final_rounds_have_the_round_solvers_value() {
    let round = round_solver();
    let finals: Vec<(MatchPosition, Value)> = two_round_proof()
        .into_iter()
        .filter(|&(key, _)| MatchPosition::key_stage(key) == KeyStage::RoundStart)
        .filter_map(|(key, fact)| match fact {
            Fact::Proven {
                value,
                source: Source::Clinch,
            } => Some((MatchPosition::from_match_key(key).unwrap(), value)),
            _ => None,
        })
        .filter(|(pos, _)| OracleMatch::is_final_round(pos))
        .collect();
    assert!(finals.len() > 1000, "only {} final rounds", finals.len());
    // An even sample of 24: each a whole round solved again by the plain round game
    // (about a tenth of a second each), so a wrong fact anywhere in the file has a
    // chance to be met, and every run meets the same ones.
    let step = finals.len() / 24;
    for (pos, value) in finals.iter().step_by(step).take(24) {
        let round_value = round.value(pos, &Cancel::new()).unwrap();
        assert_eq!(round_value, *value, "{pos}");
    }
}
