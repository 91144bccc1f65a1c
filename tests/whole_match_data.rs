//! The shipped whole-match results (`data/match-standard.json`, written by `kamisado
//! whole-match survey`) checked by a second method.
//!
//! At a round start where every round win of either side reaches the target (a Standard
//! match at 2-2), the match is the round: its value must be the round's value by the round
//! solver ([`MatchRound`], a different game from the match search's clinch questions, and
//! checked against the reference in `match_vs_reference.rs`). Every entry's fields must
//! agree with each other, and a recorded line must lead to its position.
//!
//! The shipped two-round proofs (`data/match-proofs/urgnob.kmp` and `uobygnrp.kmp`, written
//! by `whole-match solve --speculate`) are checked the same way: its final rounds (a sample) against the
//! round solver, and each root's value against a match search that may use the file's
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

/// The shipped two-round proofs: each round start (one round win short of a final round,
/// the trailing side to move), its proof file, and its value for the side to move.
const TWO_ROUND_PROOFS: [(&str, &str, Value); 8] = [
    // 1-2, Black to move: White wins the match.
    (
        "urgnob+yp+/8/8/8/8/8/8/OPRY+UGBN b - 3",
        "data/match-proofs/urgnob.kmp",
        Value::Loss,
    ),
    // 2-1, White to move: Black wins the match.
    (
        "uobygnrp+/8/8/8/8/8/8/N+GRPBYOU+ w - 3",
        "data/match-proofs/uobygnrp.kmp",
        Value::Loss,
    ),
    // 2-1, White to move: Black wins the match.
    (
        "gobyrupn+/8/8/8/8/8/8/R+BYN+GUOP w - 3",
        "data/match-proofs/gobyrupn.kmp",
        Value::Loss,
    ),
    // 1-2, Black to move: White wins the match.
    (
        "g+n+ouyprb/8/8/8/8/8/8/BPOR+NYUG b - 3",
        "data/match-proofs/gnouyprb.kmp",
        Value::Loss,
    ),
    // 2-1, White to move: Black wins the match.
    (
        "ypo+ngrbu/8/8/8/8/8/8/OU+NBPYGR+ w - 3",
        "data/match-proofs/ypongrbu.kmp",
        Value::Loss,
    ),
    // 1-2, Black to move: White wins the match.
    (
        "bnpyou+gr+/8/8/8/8/8/8/YNGOU+BPR b - 3",
        "data/match-proofs/bnpyougr.kmp",
        Value::Loss,
    ),
    // 1-2, Black to move: White wins the match.
    (
        "g+yn+bupro/8/8/8/8/8/8/PGNYUBOR+ b - 3",
        "data/match-proofs/gynbupro.kmp",
        Value::Loss,
    ),
    // 1-2, Black to move: White wins the match.
    (
        "g+orn+ybpu/8/8/8/8/8/8/GRNUYPO+B b - 3",
        "data/match-proofs/gornybpu.kmp",
        Value::Loss,
    ),
];

fn two_round_proof(file_name: &str) -> Vec<([u64; 3], Fact)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file_name);
    file::read(&path).unwrap_or_else(|e| panic!("{file_name} is shipped and reads: {e}"))
}

#[test]
fn the_shipped_two_round_proofs_follow_from_their_final_rounds() {
    for (start, file_name, expected) in TWO_ROUND_PROOFS {
        follows_from_its_final_rounds(start, file_name, expected);
    }
}

fn follows_from_its_final_rounds(start_text: &str, file_name: &str, expected: Value) {
    let facts = two_round_proof(file_name);
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
    let start: MatchPosition = start_text.parse().unwrap();
    let root_key = checker.solver().game().key(&WholeMatch::root(&start));
    let root_fact = facts
        .iter()
        .find(|(key, _)| *key == root_key)
        .map(|(_, fact)| *fact)
        .expect("the file holds its root's value");
    // Every other fact is a final round's (a 2-2 round start: the trailing side won this
    // round) or the refill choice before one; the check gets the final rounds only.
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
    assert!(finals > 100, "{file_name}: only {finals} final rounds");
    let proof = checker.value(&start, &Run::default()).unwrap();
    assert_eq!(Some(proof.value), root_fact.value(), "{start_text}");
    assert_eq!(proof.value, expected, "{start_text}");
    assert_eq!(proof.rounds_asked, 0);
    assert!(
        proof.nodes > 0,
        "the root's value was searched, not looked up"
    );
    eprintln!(
        "{start_text}: {} match nodes, {:.1} s",
        proof.nodes, proof.seconds
    );
}

#[test]
fn the_shipped_two_round_proofs_final_rounds_have_the_round_solvers_value() {
    let round = round_solver();
    for (_, file_name, _) in TWO_ROUND_PROOFS {
        proofs_final_rounds_have_the_round_solvers_value(&round, file_name);
    }
}

fn proofs_final_rounds_have_the_round_solvers_value(round: &Solver<MatchRound>, file_name: &str) {
    let finals: Vec<(MatchPosition, Value)> = two_round_proof(file_name)
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
    assert!(
        finals.len() > 100,
        "{file_name}: only {} final rounds",
        finals.len()
    );
    // An even sample of 24: each a whole round solved again by the plain round game
    // (about a tenth of a second each), so a wrong fact anywhere in the file has a
    // chance to be met, and every run meets the same ones.
    let step = finals.len() / 24;
    for (pos, value) in finals.iter().step_by(step).take(24) {
        let round_value = round.value(pos, &Cancel::new()).unwrap();
        assert_eq!(round_value, *value, "{file_name}: {pos}");
    }
}
