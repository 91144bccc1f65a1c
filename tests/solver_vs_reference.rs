//! The solver against the naive reference (tests/reference), which shares no code with
//! it: values against plain alpha-beta, remoteness against exhaustive minimax (with and
//! without a table), perfect lines, hand-built deadlock positions, and one against two
//! threads.

use std::collections::HashMap;

use kamisado_core::Kamisado;
use kamisado_core::{EndReason, Move, Position, Side};
use kamisado_solver::Score;
use kamisado_solver::{Cancel, Options, Solver, Value};
use reference::{alphabeta_value, minimax, minimax_with_table, random_position, RefPosition};

fn solver(threads: usize) -> Solver<Kamisado> {
    Solver::new(
        Kamisado,
        Options {
            threads,
            table_bytes: 32 << 20,
        },
    )
    .unwrap()
}

fn core(p: &RefPosition) -> Position {
    p.to_text().parse().unwrap()
}

fn naive(p: &Position) -> RefPosition {
    RefPosition::parse(&p.to_string()).unwrap()
}

/// (side to move wins?, remoteness) from the solver, for the position as given.
fn exact(solver: &Solver<Kamisado>, pos: &Position) -> (bool, u32) {
    let outcome = solver.outcome(pos, &Cancel::new()).unwrap();
    (outcome.value == Value::Win, outcome.remoteness)
}

/// Reachable positions from the reference's random games, of the middle and late game.
fn positions(count: u64, plies: impl Fn(u64) -> u32) -> Vec<Position> {
    (0..count)
        .map(|seed| core(&random_position(seed, plies(seed))))
        .filter(|p| !p.is_over())
        .collect()
}

#[test]
fn values_agree_with_plain_alpha_beta_on_hundreds_of_positions() {
    let (one, two) = (solver(1), solver(2));
    let mut table = HashMap::new();
    let mut checked = 0;
    for (i, pos) in positions(1600, |seed| 11 + (seed % 10) as u32)
        .iter()
        .enumerate()
    {
        let expected = alphabeta_value(&naive(pos), &mut table);
        let solver = if i % 2 == 0 { &one } else { &two };
        let value = solver.value(pos, &Cancel::new()).unwrap();
        assert_eq!(value == Value::Win, expected, "{pos}");
        checked += 1;
    }
    assert!(checked >= 300, "only {checked} positions");
}

#[test]
fn remoteness_agrees_with_memoised_minimax_in_the_middle_game() {
    let solver = solver(2);
    let mut table = HashMap::new();
    let mut by_value = [0, 0];
    for pos in positions(160, |seed| 17 + (seed % 6) as u32) {
        let expected = minimax_with_table(&naive(&pos), &mut table);
        assert_eq!(exact(&solver, &pos), expected, "{pos}");
        by_value[expected.0 as usize] += 1;
    }
    assert!(by_value[0] >= 5 && by_value[1] >= 20, "{by_value:?}");
}

/// The number of move sequences to the end of the game, if every game from `pos` ends
/// within `depth` moves and there are at most `budget` sequences; `None` otherwise.
fn small_game_tree(pos: &Position, depth: u32, budget: &mut u64) -> Option<u64> {
    if pos.is_over() {
        *budget = budget.checked_sub(1)?;
        return Some(1);
    }
    if depth == 0 {
        return None;
    }
    let mut lines = 0;
    for m in pos.legal_moves() {
        lines += small_game_tree(&pos.play_unchecked(m), depth - 1, budget)?;
    }
    Some(lines)
}

#[test]
fn remoteness_agrees_with_exhaustive_minimax_near_the_end() {
    let solver = solver(1);
    let mut checked = 0;
    let mut biggest = 0;
    for seed in 0..400u64 {
        // Walk a random game to its end, then look back from the end.
        let mut line = vec![core(&RefPosition::start())];
        let mut state = seed.wrapping_mul(0x2545_f491_4f6c_dd1d) | 1;
        while !line.last().unwrap().is_over() {
            let pos = *line.last().unwrap();
            let moves = pos.legal_moves();
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            line.push(pos.play_unchecked(moves[(state % moves.len() as u64) as usize]));
        }
        for pos in line.iter().rev().take(20) {
            let Some(lines) = small_game_tree(pos, 40, &mut 50_000) else {
                continue;
            };
            if pos.is_over() {
                continue;
            }
            assert_eq!(exact(&solver, pos), minimax(&naive(pos)), "{pos}");
            checked += 1;
            biggest = biggest.max(lines);
        }
    }
    eprintln!("{checked} positions, biggest tree {biggest} lines");
    assert!(
        checked >= 200 && biggest >= 10_000,
        "{checked} positions, biggest tree {biggest} lines"
    );
}

/// Plays a line and returns the positions, checking every move is legal.
fn play_out(pos: &Position, line: &[Move]) -> Vec<Position> {
    let mut seen = vec![*pos];
    for &m in line {
        let next = seen
            .last()
            .unwrap()
            .play(m)
            .unwrap_or_else(|e| panic!("{pos}: {m}: {e}"));
        seen.push(next);
    }
    seen
}

#[test]
fn principal_variations_are_perfect_lines() {
    let solver = solver(2);
    let mut table = HashMap::new();
    let (mut same_player_again, mut checked) = (0, 0);
    for pos in positions(260, |seed| 17 + (seed % 6) as u32) {
        let solution = solver.solve(&pos, &Cancel::new()).unwrap();
        // Exactly `remoteness` moves, and the game is then over, won by the right side.
        assert_eq!(
            solution.pv.len() as u32,
            solution.outcome.remoteness,
            "{pos}"
        );
        let line = play_out(&pos, &solution.pv);
        let end = line
            .last()
            .unwrap()
            .end()
            .expect("a perfect line ends the game");
        let winner = if solution.outcome.value == Value::Win {
            pos.turn()
        } else {
            !pos.turn()
        };
        assert_eq!(end.winner, winner, "{pos}");
        // Every position on the line has the remoteness the line says, by the reference.
        for (i, p) in line.iter().enumerate() {
            let (wins, remoteness) = minimax_with_table(&naive(p), &mut table);
            assert_eq!(remoteness as usize, line.len() - 1 - i, "{pos} at {i}");
            assert_eq!(
                wins,
                p.turn() == winner || p.is_over() && end.winner == p.turn(),
                "{pos} at {i}"
            );
        }
        // The best moves are exactly the moves that keep the score.
        let best_score = Score::of(solution.outcome);
        let mut best: Vec<Move> = Vec::new();
        for m in pos.legal_moves() {
            let child = pos.play_unchecked(m);
            let (wins, r) = minimax_with_table(&naive(&child), &mut table);
            let child_score = Score::new(if wins { Value::Win } else { Value::Loss }, r);
            if child_score.through_move(child.turn() != pos.turn()) == best_score {
                best.push(m);
            }
        }
        assert_eq!(solution.best, best, "{pos}");
        // Turns need not alternate along a line: count where the mover moves again.
        same_player_again += line
            .windows(2)
            .filter(|w| !w[1].is_over() && w[1].turn() == w[0].turn())
            .count();
        checked += 1;
    }
    assert!(
        checked >= 40 && same_player_again > 0,
        "{checked} lines, {same_player_again} repeated turns"
    );
}

#[test]
fn the_winners_remoteness_is_odd_unless_zero_length_moves_give_it_consecutive_turns() {
    let solver = solver(2);
    let (mut odd, mut even_by_deadlock, mut even_by_repeated_turn) = (0, 0, 0);
    for pos in positions(300, |seed| 12 + (seed % 10) as u32) {
        let solution = solver.solve(&pos, &Cancel::new()).unwrap();
        if solution.outcome.value != Value::Win {
            continue;
        }
        let line = play_out(&pos, &solution.pv);
        let repeated_turns = line
            .windows(2)
            .filter(|w| !w[1].is_over() && w[1].turn() == w[0].turn())
            .count();
        let by_goal = line.last().unwrap().end().unwrap().reason == EndReason::Goal;
        match (repeated_turns, by_goal) {
            // Strict alternation: the winner moves 1st, 3rd, 5th, ... and lands on the goal
            // row with the last move...
            (0, true) => {
                assert_eq!(solution.outcome.remoteness % 2, 1, "{pos}");
                odd += 1;
            }
            // ...or the loser's last move causes a deadlock, after an even number.
            (0, false) => {
                assert_eq!(solution.outcome.remoteness % 2, 0, "{pos}");
                even_by_deadlock += 1;
            }
            // A chain of zero-length moves hands the winner two turns in a row.
            (_, true) if solution.outcome.remoteness.is_multiple_of(2) => {
                even_by_repeated_turn += 1
            }
            _ => {}
        }
    }
    assert!(odd >= 20 && even_by_repeated_turn >= 1, "odd {odd}, even by repeated turn {even_by_repeated_turn}, even by deadlock {even_by_deadlock}");
}

#[test]
fn the_only_winning_line_forces_the_opponent_into_a_deadlock() {
    // Black's Purple tower goes f1-c4 (a green square): White's Green tower on g8 then has
    // one move, and every reply deadlocks, which White, its maker, loses.
    let pos: Position = "2u3g1/5yr1/3p1PGn/obNY4/8/R7/7B/5U1O b u".parse().unwrap();
    let solver = solver(2);
    let solution = solver.solve(&pos, &Cancel::new()).unwrap();
    assert_eq!(
        (solution.outcome.value, solution.outcome.remoteness),
        (Value::Win, 2)
    );
    assert_eq!(
        exact(&solver, &pos),
        minimax_with_table(&naive(&pos), &mut HashMap::new())
    );
    let line = play_out(&pos, &solution.pv);
    let end = line.last().unwrap().end().unwrap();
    assert_eq!((end.winner, end.reason), (Side::Black, EndReason::Deadlock));
    assert!(solution.best.contains(&"f1-c4".parse().unwrap()));
}

#[test]
fn the_tempting_move_that_causes_a_deadlock_loses() {
    // White's Yellow tower has four moves; e8-a4 is the only one that causes a deadlock,
    // lost by White at once. The solver must score it as a loss in one and never play it.
    let pos: Position = "o1u1y3/1bR1prn1/8/8/1GgB4/NY5O/8/4PU2 w y".parse().unwrap();
    let solver = solver(1);
    let analysis = solver.analyse(&pos, &Cancel::new(), &|| {}).unwrap();
    let deadlock = analysis
        .moves
        .iter()
        .find(|m| m.mv == "e8-a4".parse().unwrap())
        .unwrap();
    assert_eq!(
        (deadlock.outcome.value, deadlock.outcome.remoteness),
        (Value::Loss, 1)
    );
    let mut table = HashMap::new();
    for m in &analysis.moves {
        let child = pos.play_unchecked(m.mv);
        let (wins, r) = minimax_with_table(&naive(&child), &mut table);
        let passed = child.is_over() || child.turn() != pos.turn();
        assert_eq!(m.outcome.value == Value::Win, wins != passed, "{}", m.mv);
        assert_eq!(m.outcome.remoteness, r + 1, "{}", m.mv);
    }
    assert!(
        !analysis.solution.best.contains(&deadlock.mv)
            || analysis.solution.outcome.value == Value::Loss
                && analysis.solution.outcome.remoteness == 1
    );
    assert_eq!(
        exact(&solver, &pos),
        minimax_with_table(&naive(&pos), &mut table)
    );
}
