//! The analysis crate's answers against the solver asked directly (`kamisado-solver`'s own
//! answers are checked against the naive reference by the root package's tests).

use kamisado_analysis::{analyse, perfect_line, Oracle, PerfectPlayer, Source};
use kamisado_core::notation::play_line;
use kamisado_core::{Kamisado, Position};
use kamisado_db::{collect, encode, Database, Solved};
use kamisado_match::{MatchPosition, MatchRound, Target};
use kamisado_solver::{Cancel, Depth, Options, Score, Solver, Value};

/// Six moves into a perfect game: every move of it solves in a fraction of a second.
const LATE: &str = "h1-h7 c8-c4 b1-b2 h8-d4 a1-a6 g8-g4";
/// A late position (a win in 4 for Black) in which some moves give the turn back to the
/// player who made them.
const SMALL_TREE: &str = "8/Bu6/2Upy2R/5r2/2Y1P3/o6O/gb3n2/NG6 b g";

fn options() -> Options {
    Options {
        threads: 2,
        table_bytes: 16 << 20,
    }
}

fn oracle(db: Option<Database>) -> Oracle {
    Oracle::new(db, Solver::new(Kamisado, options()).unwrap())
}

/// The solver of match rounds, asked directly: the answers to compare with.
fn direct() -> Solver<MatchRound> {
    Solver::new(MatchRound, options()).unwrap()
}

fn late_single() -> Position {
    play_line(&Position::start(), LATE).unwrap().end
}

fn single(pos: &Position) -> MatchPosition {
    MatchPosition::from_single_round(pos, Target::Single)
}

/// A database of what a solve of `pos` proved on its way.
fn database_of(pos: &Position) -> Database {
    let solver = Solver::new(Kamisado, options()).unwrap();
    let solution = solver.solve(pos, &Cancel::new()).unwrap();
    let line = Solved::along_line(pos, solution.outcome, &solution.pv);
    Database::from_bytes(encode(&collect(&solver, &line), "test").unwrap()).unwrap()
}

#[test]
fn every_move_is_answered_as_the_solver_answers_it_best_first() {
    let direct = direct();
    let cancel = Cancel::new();
    let small: Position = SMALL_TREE.parse().unwrap();
    for (pos, db) in [
        (single(&late_single()), None),
        (single(&small), None),
        (single(&late_single()), Some(database_of(&late_single()))),
    ] {
        let with_db = db.is_some();
        let a = analyse(&oracle(db), &pos, Depth::Every, &cancel, &|_| {}).unwrap();
        assert!(!a.timed_out, "{pos}");
        let expected = direct.outcome(&a.position, &cancel).unwrap();
        assert_eq!(a.verdict.unwrap().outcome, expected, "{pos}");
        assert_eq!(a.moves.len(), a.position.legal_moves().len(), "{pos}");
        assert_eq!(a.exact_moves(), a.moves.len(), "{pos}");
        if with_db {
            assert!(a.moves.iter().any(|m| m.source == Source::Database));
        }
        for (i, m) in a.moves.iter().enumerate() {
            let child = direct.outcome(&m.next, &cancel).unwrap();
            let passed = m.next.turn() != a.position.turn();
            let verdict = m.verdict(&a.position).unwrap();
            assert_eq!(
                verdict.outcome,
                child.through_move(passed),
                "{pos}: {}",
                m.mv
            );
            if i > 0 {
                assert!(a.moves[i - 1].low >= m.low, "{pos}: best first");
            }
        }
        let best = direct
            .best_moves(&a.position, Score::of(expected), &cancel)
            .unwrap();
        assert_eq!(a.best.len(), best.len(), "{pos}");
        assert!(a.best.iter().all(|m| best.contains(m)), "{pos}");
    }
}

#[test]
fn a_stopped_analysis_keeps_only_true_answers_and_says_what_is_missing() {
    let direct = direct();
    let pos = single(&late_single());
    let raised = Cancel::new();
    raised.cancel();
    let a = analyse(&oracle(None), &pos, Depth::Best, &raised, &|_| {}).unwrap();
    assert!(a.timed_out);
    assert!(
        a.verdict.is_none(),
        "nothing knows the position without a search"
    );
    assert!(
        a.time_out_fact(1.5)
            .starts_with("time limit of 1.5 s reached: "),
        "{}",
        a.time_out_fact(1.5)
    );
    // With a database the position's own value is known, and what is listed is true.
    let a = analyse(
        &oracle(Some(database_of(&late_single()))),
        &pos,
        Depth::Best,
        &raised,
        &|_| {},
    )
    .unwrap();
    let verdict = a.verdict.unwrap();
    assert_eq!(verdict.source, Source::Database);
    let cancel = Cancel::new();
    assert_eq!(
        verdict.outcome,
        direct.outcome(&a.position, &cancel).unwrap()
    );
    for m in &a.moves {
        let child = direct.outcome(&m.next, &cancel).unwrap();
        let passed = m.next.turn() != a.position.turn();
        assert_eq!(
            m.value(),
            Some(child.through_move(passed).value),
            "{}",
            m.mv
        );
    }
}

#[test]
fn the_perfect_line_is_as_long_as_the_remoteness_and_ends_as_the_value_says() {
    let direct = direct();
    let cancel = Cancel::new();
    let pos = single(&late_single());
    for db in [None, Some(database_of(&late_single()))] {
        let oracle = oracle(db);
        let verdict = oracle.position(&pos, &cancel).unwrap();
        let (line, complete) = perfect_line(&oracle, &pos, verdict.outcome, None, &cancel);
        assert!(complete);
        assert_eq!(line.len() as u32, verdict.outcome.remoteness);
        let mut p = verdict.position;
        for &m in &line {
            let before = direct.outcome(&p, &cancel).unwrap();
            let next = p.play_unchecked(m);
            let after = direct.outcome(&next, &cancel).unwrap();
            assert_eq!(
                after.through_move(next.turn() != p.turn()),
                before,
                "{p}: {m}"
            );
            p = next;
        }
        let mover = verdict.position.turn();
        let winner = if verdict.outcome.value == Value::Win {
            mover
        } else {
            !mover
        };
        assert_eq!(p.round_end().map(|e| e.winner), Some(winner));
    }
    // A raised cancel stops the line short, marked incomplete.
    let raised = Cancel::new();
    raised.cancel();
    let verdict = oracle(None).position(&pos, &cancel).unwrap();
    let (_, complete) = perfect_line(&oracle(None), &pos, verdict.outcome, None, &raised);
    assert!(!complete);
}

#[test]
fn the_perfect_player_wins_as_fast_and_loses_as_slowly_as_the_solver_says() {
    let direct = direct();
    let cancel = Cancel::new();
    let start = single(&late_single()).resolve();
    let expected = direct.outcome(&start, &cancel).unwrap();
    for db in [None, Some(database_of(&late_single()))] {
        let searches = db.is_none();
        let player = PerfectPlayer::new(oracle(db));
        let mut pos = start;
        let mut plies = 0;
        while let Some(chosen) = player.best_move(&pos, &cancel).unwrap() {
            let outcome = direct.outcome(&pos, &cancel).unwrap();
            assert_eq!(chosen.verdict.outcome, outcome, "{pos}");
            let best = direct
                .best_moves(&pos, Score::of(outcome), &cancel)
                .unwrap();
            assert!(
                best.contains(&chosen.mv),
                "{pos}: {} is not perfect",
                chosen.mv
            );
            pos = pos.play_unchecked(chosen.mv);
            plies += 1;
        }
        assert!(pos.is_round_over());
        assert_eq!(plies, expected.remoteness);
        if searches {
            assert!(player.nodes() > 0, "the progress counter moved");
        }
    }
}
