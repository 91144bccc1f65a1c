//! The all-moves analysis (`Solver::analyse_moves`) against the naive reference
//! (tests/reference, which shares no code with the crates) and against solving every move
//! on its own (`Solver::analyse`, one exact search per move, on a table of its own): every
//! move's value, the best moves and their remoteness, the bounds left on the others, and
//! with `Depth::Every` every move's exact remoteness. On single-round positions of the
//! middle game and on late match-round positions with Sumos; and every move's exact
//! remoteness (found by proof-number search of "remoteness at most n?" questions) against
//! the reference's minimax of the position after the move.

use std::collections::HashMap;
use std::fmt::Display;

use kamisado_core::{Kamisado, Position};
use kamisado_match::{MatchPosition, MatchRound};
use kamisado_solver::{
    with_time_limit, Cancel, Depth, Game, MovesAnalysis, Options, Score, Solver, Value,
};
use reference::{minimax_with_table, random_position, RefPosition};

fn solver<G: Game>(game: G, threads: usize) -> Solver<G> {
    Solver::new(
        game,
        Options {
            threads,
            table_bytes: 32 << 20,
        },
    )
    .unwrap()
}

fn all_moves<G: Game>(
    solver: &Solver<G>,
    pos: &G::Position,
    depth: Depth,
) -> MovesAnalysis<G::Move> {
    let a = solver.analyse_moves(pos, depth, &|_| None, &Cancel::new(), &|_| {});
    assert!(a.complete);
    a
}

/// Checks both depths of the all-moves analysis of `pos` against every move solved on
/// its own, and returns the best score they agree on and how many moves `Depth::Best`
/// left bounded.
fn check<G: Game>(
    best: &Solver<G>,
    every: &Solver<G>,
    one_by_one: &Solver<G>,
    pos: &G::Position,
    name: &dyn Display,
) -> (Score, usize)
where
    G::Move: std::fmt::Debug + PartialEq,
{
    let expected = one_by_one.analyse(pos, &Cancel::new(), &|| {}).unwrap();
    let exact: Vec<Score> = expected
        .moves
        .iter()
        .map(|m| Score::of(m.outcome))
        .collect();
    let best_score = *exact.iter().max().unwrap();
    let best_moves: Vec<G::Move> = expected.solution.best.clone();

    let a = all_moves(every, pos, Depth::Every);
    assert_eq!(a.moves.len(), exact.len(), "{name}");
    for (m, &s) in a.moves.iter().zip(&exact) {
        assert_eq!(m.exact(), Some(s), "{name}: every remoteness of {:?}", m.mv);
    }
    assert_eq!(a.best(), best_moves, "{name}");

    let a = all_moves(best, pos, Depth::Best);
    for (m, &s) in a.moves.iter().zip(&exact) {
        assert_eq!(m.value(), Some(s.value()), "{name}: value of {:?}", m.mv);
        assert!(
            m.low <= s && s <= m.high,
            "{name}: {:?} {s} outside its bounds",
            m.mv
        );
        if s == best_score {
            assert_eq!(m.exact(), Some(s), "{name}: best move {:?} not exact", m.mv);
        } else if s.value() == best_score.value() {
            // Of the best value but slower: its bound shows it is not a best move.
            assert!(
                m.high < best_score,
                "{name}: {:?} not bounded below the best",
                m.mv
            );
        }
    }
    assert_eq!(a.best_score(), Some(best_score), "{name}");
    assert_eq!(a.best(), best_moves, "{name}");
    let bounded = a.moves.iter().filter(|m| m.exact().is_none()).count();
    (best_score, bounded)
}

#[test]
fn single_round_moves_agree_with_minimax_and_with_each_move_solved_alone() {
    let (best, every, one_by_one) = (
        solver(Kamisado, 2),
        solver(Kamisado, 1),
        solver(Kamisado, 2),
    );
    let mut table = HashMap::new();
    let (mut checked, mut bounded) = (0, 0);
    for seed in 0..2_000u64 {
        if checked == 60 {
            break;
        }
        let pos: Position = random_position(seed, 17 + (seed % 6) as u32)
            .to_text()
            .parse()
            .unwrap();
        if pos.is_over() {
            continue;
        }
        let (score, left) = check(&best, &every, &one_by_one, &pos, &pos);
        // The position's own result, from the reference, is its best move's.
        let (wins, remoteness) =
            minimax_with_table(&RefPosition::parse(&pos.to_string()).unwrap(), &mut table);
        let value = if wins { Value::Win } else { Value::Loss };
        assert_eq!(score, Score::new(value, remoteness), "{pos}");
        bounded += left;
        checked += 1;
    }
    assert_eq!(checked, 60, "not enough positions");
    // The analysis must have left some moves bounded, or Depth::Best tested nothing.
    assert!(bounded >= 50, "only {bounded} moves left with bounds");
}

/// `Depth::Every` finds each move's exact remoteness by proof-number questions alone (no
/// alpha-beta): each must be the reference minimax's outcome of the position after the
/// move, seen from the mover, whichever side moves there (a blocked side's zero-length
/// move hands the mover the next turn).
#[test]
fn every_single_round_moves_remoteness_is_the_reference_minimax_of_its_position() {
    let every = solver(Kamisado, 2);
    let mut table = HashMap::new();
    let (mut positions, mut moves, mut wins, mut long) = (0, 0, 0, 0);
    for seed in 0..2_000u64 {
        if positions == 20 {
            break;
        }
        let pos: Position = random_position(seed + 10_000, 18 + (seed % 5) as u32)
            .to_text()
            .parse()
            .unwrap();
        if pos.is_over() {
            continue;
        }
        let mover = Kamisado.player(&pos);
        let a = all_moves(&every, &pos, Depth::Every);
        for m in &a.moves {
            let child = Kamisado.play(&pos, m.mv);
            let reference = RefPosition::parse(&child.to_string()).unwrap();
            let (child_wins, r) = minimax_with_table(&reference, &mut table);
            // The reference's result is for the side to move in the position text.
            let mover_wins = child_wins == (Kamisado.player(&child) == mover);
            let value = if mover_wins { Value::Win } else { Value::Loss };
            assert_eq!(m.exact(), Some(Score::new(value, r + 1)), "{pos}: {}", m.mv);
            moves += 1;
            wins += mover_wins as usize;
            long += (r + 1 >= 6) as usize;
        }
        positions += 1;
    }
    assert_eq!(positions, 20, "not enough positions");
    // Wins and losses, and remoteness long enough for several questions per move.
    assert!(
        moves >= 60 && wins >= 15 && moves - wins >= 15 && long >= 8,
        "{moves} moves, {wins} wins, {long} of remoteness 6 or more"
    );
}

#[test]
fn match_round_moves_agree_with_minimax_and_with_each_move_solved_alone() {
    let (best, every, one_by_one) = (
        solver(MatchRound, 2),
        solver(MatchRound, 2),
        solver(MatchRound, 1),
    );
    let (mut checked, mut with_sumo) = (0, 0);
    for seed in 0..2_000u64 {
        if checked == 40 {
            break;
        }
        let target = [3, 7, 15][seed as usize % 3];
        let text = reference::random_match_position(seed, target, 30 + (seed % 30) as u32).unwrap();
        if reference::match_round_end(&text).unwrap().is_some() {
            continue;
        }
        let pos: MatchPosition = text.parse().unwrap();
        if !pos.has_sumo() {
            continue;
        }
        // Late positions solve in milliseconds; skip the rare long round.
        let limit = Some(std::time::Duration::from_millis(200));
        let Ok(outcome) = with_time_limit(limit, |cancel| one_by_one.outcome(&pos, cancel)) else {
            continue;
        };
        let (score, _) = check(&best, &every, &one_by_one, &pos, &text);
        assert_eq!(score, Score::of(outcome), "{text}");
        // Brute force is only affordable near the end of a round.
        if outcome.remoteness <= 5 {
            let (value, remoteness) = reference::match_round_solve(&text, 5).unwrap();
            assert_eq!(
                (score.value().name(), score.remoteness()),
                (value.as_str(), Some(remoteness)),
                "{text}"
            );
            with_sumo += 1;
        }
        checked += 1;
    }
    assert_eq!(checked, 40, "not enough match positions with a Sumo");
    assert!(
        with_sumo >= 10,
        "only {with_sumo} checked against the reference"
    );
}
