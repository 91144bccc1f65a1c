//! The shipped whole-match results (`data/match-standard.json`, written by `kamisado
//! whole-match survey`) checked by a second method.
//!
//! At a round start where every round win of either side reaches the target (a Standard
//! match at 2-2), the match is the round: its value must be the round's value by the round
//! solver ([`MatchRound`], a different game from the match search's clinch questions, and
//! checked against the reference in `match_vs_reference.rs`). Every entry's fields must
//! agree with each other, and a recorded line must lead to its position.
//!
//! The shipped proofs of round starts (`data/match-proofs/*.kmp`, written by `whole-match
//! solve --speculate`) are checked the same way: the round solver's answers in them whose
//! value is their round's (a sample) against the plain round game, and each root's value
//! against a match search that may use the round solver's answers in the file but none of
//! the facts the match searches proved, nor ask the round solver anything.

use std::path::Path;

use kamisado_match::{
    ClinchRound, KeyStage, MatchPosition, MatchRecord, MatchRound, Side, Target, WholeMatch,
};
use kamisado_match_solver::{file, Fact, MatchOptions, MatchSolver, Run, Source};
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

/// The shipped proofs of round starts: each round start, its proof file, and its value for
/// the side to move. Two-round proofs (2-1 and 1-2, the trailing side to move: one round
/// win short of a final round), then three-round proofs (2-0 and 0-2, the trailing side to
/// move, by speculation in tiers: their rounds lead to round starts at 2-1 and 1-2).
const PROOFS: [(&str, &str, Value); 12] = [
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
    // 2-0, White to move: Black wins the match.
    (
        "unogbrpy/8/8/8/8/8/8/GPURBY+NO+ w - 3",
        "data/match-proofs/unogbrpy.kmp",
        Value::Loss,
    ),
    // 2-0, White to move: Black wins the match.
    (
        "pgnyrobu/8/8/8/8/8/8/BRUPYOG+N+ w - 3",
        "data/match-proofs/pgnyrobu.kmp",
        Value::Loss,
    ),
    // 0-2, Black to move: White wins the match.
    (
        "p+nobuygr+/8/8/8/8/8/8/OUYBPNRG b - 3",
        "data/match-proofs/pnobuygr.kmp",
        Value::Loss,
    ),
    // 0-2, Black to move: White wins the match.
    (
        "n+rupyg+ob/8/8/8/8/8/8/YONRPGUB b - 3",
        "data/match-proofs/nrupygob.kmp",
        Value::Loss,
    ),
];

fn proof_file(file_name: &str) -> Vec<([u64; 3], Fact)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file_name);
    file::read(&path).unwrap_or_else(|e| panic!("{file_name} is shipped and reads: {e}"))
}

/// Whether the round start `pos` is one whose value is its round's: the side `winner`
/// reaches the target with any round win, so a clinch by it is a round won, and the plain
/// round game ([`MatchRound`]) must give the same value.
fn every_win_of_the_winner_clinches(pos: &MatchPosition, value: Value) -> bool {
    let winner = if value == Value::Win {
        pos.turn()
    } else {
        !pos.turn()
    };
    ClinchRound::every_win_clinches(pos, winner)
}

#[test]
fn the_shipped_proofs_follow_from_the_round_solvers_answers() {
    for (start, file_name, expected) in PROOFS {
        follows_from_the_round_solvers_answers(start, file_name, expected);
    }
}

/// A match search given only the file's round starts that the round solver settled (its
/// clinch questions: the final rounds, and in a three-round proof the round starts of the
/// next tier that one side clinches), never the facts the match searches proved (the root,
/// refill choices, round starts proved apart), and asking the round solver nothing, must
/// prove the root's value again.
fn follows_from_the_round_solvers_answers(start_text: &str, file_name: &str, expected: Value) {
    let facts = proof_file(file_name);
    let start: MatchPosition = start_text.parse().unwrap();
    let (value, answers) = searched_from(&start, &facts, |_, fact| {
        matches!(
            fact,
            Fact::Proven {
                source: Source::Clinch,
                ..
            }
        )
    });
    assert!(
        answers > 100,
        "{file_name}: only {answers} round solver answers"
    );
    assert_eq!(value, expected, "{start_text}");
}

/// The value of `start` by a match search given the facts of `facts` at round starts that
/// `keep` keeps (never the root's own), asking the round solver nothing; checked against
/// the file's fact for the root. Returns the value and how many facts were given.
fn searched_from(
    start: &MatchPosition,
    facts: &[([u64; 3], Fact)],
    keep: impl Fn(&MatchPosition, Fact) -> bool,
) -> (Value, usize) {
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
    let root_key = checker.solver().game().key(&WholeMatch::root(start));
    let root_fact = facts
        .iter()
        .find(|(key, _)| *key == root_key)
        .map(|(_, fact)| *fact)
        .expect("the file holds its root's value");
    let mut given = 0;
    for &(key, fact) in facts {
        if key == root_key || MatchPosition::key_stage(key) != KeyStage::RoundStart {
            continue;
        }
        if keep(&MatchPosition::from_match_key(key).unwrap(), fact) {
            checker.store().insert(key, fact);
            given += 1;
        }
    }
    let proof = checker.value(start, &Run::default()).unwrap();
    assert_eq!(Some(proof.value), root_fact.value(), "{start}");
    assert_eq!(proof.rounds_asked, 0);
    assert!(
        proof.nodes > 0,
        "the root's value was searched, not looked up"
    );
    eprintln!(
        "{start}: {} match nodes, {:.1} s",
        proof.nodes, proof.seconds
    );
    (proof.value, given)
}

/// The shipped proof at 1-1 (`bouyrpgn.kmp`, by speculation in tiers): it rests on round
/// starts at 2-1 and 1-2 with the trailing side to move that the round solver does not
/// settle, each proved apart. A match search given the file's proven round starts of later
/// rounds (the next tier's and the final rounds), none of the root's round, proves the
/// root's value; and two of the next tier's round starts that were proved apart (the first
/// and the last by key) follow from the round solver's answers alone, as the two-round
/// proofs do. (Every one of them would take about 20 minutes of the test; two take 1.)
#[test]
fn the_shipped_proof_at_one_one_follows_from_its_next_tier() {
    let (start_text, file_name) = (
        "b+ouyrpgn/8/8/8/8/8/8/RUOGBY+PN b - 3",
        "data/match-proofs/bouyrpgn.kmp",
    );
    let facts = proof_file(file_name);
    let start: MatchPosition = start_text.parse().unwrap();
    let round = WholeMatch::root(&start).round_number();
    let (value, given) = searched_from(&start, &facts, |pos, fact| {
        pos.round_number() > round && fact.value().is_some()
    });
    assert_eq!(value, Value::Win, "Black wins the match");
    assert!(given > 100, "only {given} facts of later rounds");
    let apart: Vec<MatchPosition> = facts
        .iter()
        .filter(|&&(key, fact)| {
            MatchPosition::key_stage(key) == KeyStage::RoundStart
                && matches!(
                    fact,
                    Fact::Proven {
                        source: Source::Search,
                        ..
                    }
                )
        })
        .map(|&(key, _)| MatchPosition::from_match_key(key).unwrap())
        .filter(|pos| pos.round_number() == round + 1)
        .collect();
    assert!(apart.len() >= 10, "only {} proved apart", apart.len());
    for pos in [apart[0], apart[apart.len() - 1]] {
        let (_, answers) = searched_from(&pos, &facts, |_, fact| {
            matches!(
                fact,
                Fact::Proven {
                    source: Source::Clinch,
                    ..
                }
            )
        });
        assert!(answers > 100, "{pos}: only {answers} round solver answers");
    }
}

#[test]
fn the_shipped_proofs_round_solver_answers_have_the_round_games_value() {
    let round = round_solver();
    for (_, file_name, _) in PROOFS {
        round_solver_answers_have_the_round_games_value(&round, file_name);
    }
}

/// The round solver's answers in a proof file at round starts whose value is their
/// round's (every final round's; at 2-1 and 1-2, a clinch by the leader), a sample
/// solved again by the plain round game.
fn round_solver_answers_have_the_round_games_value(round: &Solver<MatchRound>, file_name: &str) {
    let answers: Vec<(MatchPosition, Value)> = proof_file(file_name)
        .into_iter()
        .filter(|&(key, _)| MatchPosition::key_stage(key) == KeyStage::RoundStart)
        .filter_map(|(key, fact)| match fact {
            Fact::Proven {
                value,
                source: Source::Clinch,
            } => Some((MatchPosition::from_match_key(key).unwrap(), value)),
            _ => None,
        })
        .filter(|(pos, value)| every_win_of_the_winner_clinches(pos, *value))
        .collect();
    assert!(
        answers.len() > 100,
        "{file_name}: only {} round solver answers",
        answers.len()
    );
    // An even sample of 24: each a whole round solved again by the plain round game
    // (about a tenth of a second each), so a wrong fact anywhere in the file has a
    // chance to be met, and every run meets the same ones.
    let step = answers.len() / 24;
    for (pos, value) in answers.iter().step_by(step).take(24) {
        let round_value = round.value(pos, &Cancel::new()).unwrap();
        assert_eq!(round_value, *value, "{file_name}: {pos}");
    }
}
