//! Counting and solving: perft, divide, exhaustive minimax with remoteness (with and
//! without a table) and a win/loss alpha-beta.
//!
//! All searches walk the default convention (zero-length moves resolved inside a move)
//! except perft/divide with `zero_moves_as_plies`, which walk convention 2.
//!
//! Side bookkeeping: after a move (with its chain) the side to move may be the same player
//! who just moved, so values are never negated blindly; each child's value is turned into
//! the mover's point of view by comparing sides.

use std::collections::HashMap;

use crate::board::Side;
use crate::position::RefPosition;

/// The legal continuations of `pos` under the chosen convention, each as (text, position).
fn successors(pos: &RefPosition, zero_moves_as_plies: bool) -> Vec<(String, RefPosition)> {
    if zero_moves_as_plies {
        pos.plies_here()
            .into_iter()
            .map(|ply| (ply.text(), pos.after_ply(ply)))
            .collect()
    } else {
        pos.children()
            .into_iter()
            .map(|(mv, child)| (mv.text(), child))
            .collect()
    }
}

/// The number of legal sequences of exactly `depth` moves (or plies, with
/// `zero_moves_as_plies`) from `pos`. A finished game has no continuation, so a game-ending
/// move counts only as the last move of a sequence. `perft(pos, 0, _) == 1`.
pub fn perft(pos: &RefPosition, depth: u32, zero_moves_as_plies: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut total = 0;
    for (_, child) in successors(pos, zero_moves_as_plies) {
        total += perft(&child, depth - 1, zero_moves_as_plies);
    }
    total
}

/// For each first move (or ply) of `pos`, in the order of [`RefPosition::moves`] /
/// [`RefPosition::plies`] (sorted by text), the perft count of `depth - 1` below it.
/// Empty for `depth == 0`.
pub fn divide(pos: &RefPosition, depth: u32, zero_moves_as_plies: bool) -> Vec<(String, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    successors(pos, zero_moves_as_plies)
        .into_iter()
        .map(|(text, child)| {
            let count = perft(&child, depth - 1, zero_moves_as_plies);
            (text, count)
        })
        .collect()
}

/// Is (win, remoteness) `candidate` better than `best` for the player choosing?
/// A win beats a loss; the quicker win is better; the slower loss is better.
fn better(candidate: (bool, u32), best: (bool, u32)) -> bool {
    match (candidate.0, best.0) {
        (true, false) => true,
        (false, true) => false,
        (true, true) => candidate.1 < best.1,
        (false, false) => candidate.1 > best.1,
    }
}

/// Turns a value for `from_side` into the same value for `to_side`.
fn for_side(value: (bool, u32), from_side: Side, to_side: Side) -> (bool, u32) {
    if from_side == to_side {
        value
    } else {
        (!value.0, value.1)
    }
}

/// The value of a finished game, or of a position where nobody can move, for the side to
/// move. `None` if the game goes on. A side to move that has no move at all without the game
/// being over (only in hand-made positions: a missing active tower, or a free move with
/// every tower blocked; the rules do not cover them) is scored as a loss in 0 moves.
fn terminal_value(pos: &RefPosition) -> Option<(bool, u32)> {
    if let Some(end) = pos.game_end() {
        return Some((end.winner == pos.side_to_move(), 0));
    }
    match pos.resolved() {
        None => Some((false, 0)),
        Some(ready) if ready.moves_here().is_empty() => Some((false, 0)),
        Some(_) => None,
    }
}

/// Exhaustive minimax with no table and no pruning: (does the side to move win?,
/// remoteness). Remoteness counts positive-length moves only; the winner minimises it and
/// the loser maximises it; a finished game has remoteness 0. Only for positions that end
/// within a handful of moves.
pub fn minimax(pos: &RefPosition) -> (bool, u32) {
    if let Some(value) = terminal_value(pos) {
        return value;
    }
    let mover = match pos.resolved() {
        Some(ready) => ready.side_to_move(),
        None => return (false, 0), // unreachable: terminal_value handled it
    };
    let mut best: Option<(bool, u32)> = None;
    for (_, child) in pos.children() {
        let child_value = minimax(&child);
        let (wins, remoteness) = for_side(child_value, child.side_to_move(), mover);
        let candidate = (wins, remoteness + 1);
        if best.is_none_or(|b| better(candidate, b)) {
            best = Some(candidate);
        }
    }
    // The mover may differ from the stored side to move when a chain was pending.
    for_side(best.unwrap_or((false, 0)), mover, pos.side_to_move())
}

/// The same answer as [`minimax`], memoised in `table` (keyed by the position as given,
/// value for its side to move). One shortcut, which cannot change the answer: a move that
/// wins at once has remoteness 1, the least any move can have, so it is taken without
/// looking at the others.
pub fn minimax_with_table(
    pos: &RefPosition,
    table: &mut HashMap<RefPosition, (bool, u32)>,
) -> (bool, u32) {
    if let Some(&known) = table.get(pos) {
        return known;
    }
    if let Some(value) = terminal_value(pos) {
        return value;
    }
    let mover = match pos.resolved() {
        Some(ready) => ready.side_to_move(),
        None => return (false, 0), // unreachable: terminal_value handled it
    };
    let children = pos.children();
    let wins_at_once = children
        .iter()
        .any(|(_, child)| matches!(child.game_end(), Some(end) if end.winner == mover));
    let best = if wins_at_once {
        (true, 1)
    } else {
        let mut best: Option<(bool, u32)> = None;
        for (_, child) in &children {
            let child_value = minimax_with_table(child, table);
            let (wins, remoteness) = for_side(child_value, child.side_to_move(), mover);
            let candidate = (wins, remoteness + 1);
            if best.is_none_or(|b| better(candidate, b)) {
                best = Some(candidate);
            }
        }
        best.unwrap_or((false, 0))
    };
    let value = for_side(best, mover, pos.side_to_move());
    table.insert(pos.clone(), value);
    value
}

/// Does the side to move win? Plain negamax alpha-beta with win = +1 and loss = -1 and a
/// table of solved values (keyed by the position as given, value for its side to move).
/// No remoteness. For cross-checking a proof-number solver.
pub fn alphabeta_value(pos: &RefPosition, table: &mut HashMap<RefPosition, bool>) -> bool {
    negamax(pos, -1, 1, table) > 0
}

/// Negamax value (+1 win / -1 loss for `pos`'s side to move) within the window
/// (`alpha`, `beta`).
///
/// Every call in this module uses the full window (-1, +1): a child is searched with
/// (-beta, -alpha) or, for a child with the same side to move, (alpha, beta), and alpha
/// only rises to +1 at the moment the loop stops. With only two possible values, a result
/// in the full window is exact (-1 = every move loses, +1 = a winning move was found), so
/// every result may go into the table.
fn negamax(
    pos: &RefPosition,
    alpha: i32,
    beta: i32,
    table: &mut HashMap<RefPosition, bool>,
) -> i32 {
    if let Some(&wins) = table.get(pos) {
        return if wins { 1 } else { -1 };
    }
    if let Some((wins, _)) = terminal_value(pos) {
        return if wins { 1 } else { -1 };
    }
    let mover = match pos.resolved() {
        Some(ready) => ready.side_to_move(),
        None => return -1, // unreachable: terminal_value handled it
    };
    // Search with the window seen by the player who actually moves.
    let (mut alpha, beta) = if mover == pos.side_to_move() {
        (alpha, beta)
    } else {
        (-beta, -alpha)
    };
    let children = pos.children();
    let mut best = -1;
    // Cheap move ordering: moves that win at once first.
    let mut ordered: Vec<&RefPosition> = Vec::new();
    for (_, child) in &children {
        if matches!(child.game_end(), Some(end) if end.winner == mover) {
            ordered.push(child);
        }
    }
    for (_, child) in &children {
        if !matches!(child.game_end(), Some(end) if end.winner == mover) {
            ordered.push(child);
        }
    }
    for child in ordered {
        let score = if child.side_to_move() == mover {
            negamax(child, alpha, beta, table)
        } else {
            -negamax(child, -beta, -alpha, table)
        };
        if score > best {
            best = score;
        }
        if best > alpha {
            alpha = best;
        }
        if alpha >= beta {
            break;
        }
    }
    let value = if mover == pos.side_to_move() {
        best
    } else {
        -best
    };
    table.insert(pos.clone(), value > 0);
    value
}

/// [`minimax`] cut off after `depth` moves: the exact (does the side to move win?,
/// remoteness) if the game is decided within `depth` moves under perfect play, else
/// `None`. A position at the horizon counts as undecided (a draw), which both players
/// rank between a win and a loss; so a decided result at the root is one that neither
/// side could avoid within the horizon, and its remoteness is exact.
pub fn minimax_within(pos: &RefPosition, depth: u32) -> Option<(bool, u32)> {
    // Scores for the side to move: a win in r is HORIZON - r, a loss in r is r - HORIZON,
    // undecided is 0.
    const HORIZON: i32 = 1000;
    fn score(pos: &RefPosition, depth: u32) -> i32 {
        if let Some((wins, r)) = terminal_value(pos) {
            return if wins {
                HORIZON - r as i32
            } else {
                r as i32 - HORIZON
            };
        }
        if depth == 0 {
            return 0;
        }
        let mover = match pos.resolved() {
            Some(ready) => ready.side_to_move(),
            None => return -HORIZON, // unreachable: terminal_value handled it
        };
        let mut best = i32::MIN;
        for (_, child) in pos.children() {
            let s = score(&child, depth - 1);
            let s = if child.side_to_move() == mover { s } else { -s };
            // One more move to the end, whoever wins.
            let s = s - s.signum();
            best = best.max(s);
        }
        if mover == pos.side_to_move() {
            best
        } else {
            -best
        }
    }
    let s = score(pos, depth);
    (s != 0).then(|| (s > 0, (HORIZON - s.abs()) as u32))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Colour, Tower};
    use std::time::Instant;

    #[test]
    fn perft_from_start_small_depths() {
        let start = RefPosition::start();
        for zero in [false, true] {
            assert_eq!(perft(&start, 0, zero), 1);
            assert_eq!(perft(&start, 1, zero), 102);
            assert_eq!(perft(&start, 2, zero), 1150);
            let split = divide(&start, 2, zero);
            assert_eq!(split.len(), 102);
            assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), 1150);
        }
    }

    /// Prints perft(1..=4) from the start in both conventions (`--nocapture` to see them).
    /// The expected numbers for depths 3 and 4 were also obtained with a separate throw-away
    /// re-implementation in another language; they pin this code against regressions.
    #[test]
    fn perft_from_start_print_depth_3_and_4() {
        let start = RefPosition::start();
        for (zero, expected) in [
            (false, [102, 1150, 11332, 107068]),
            (true, [102, 1150, 11182, 105020]),
        ] {
            for depth in 1..=4 {
                let began = Instant::now();
                let n = perft(&start, depth, zero);
                println!(
                    "perft({depth}) zero_moves_as_plies={zero}: {n} ({:?})",
                    began.elapsed()
                );
                assert_eq!(n, expected[depth as usize - 1]);
            }
        }
    }

    /// perft(5) from the start, timed. Slow-ish: run with `--ignored --nocapture`.
    #[test]
    #[ignore]
    fn perft_from_start_depth_5_timed() {
        let start = RefPosition::start();
        for (zero, expected) in [(false, 928_716), (true, 900_982)] {
            let began = Instant::now();
            let n = perft(&start, 5, zero);
            println!(
                "perft(5) zero_moves_as_plies={zero}: {n} ({:?})",
                began.elapsed()
            );
            assert_eq!(n, expected);
        }
    }

    #[test]
    fn perft_counts_game_ending_moves_only_last() {
        // Black Orange on d4 has 7 moves, one of which (d4-h8) wins; White's reply tower
        // after a non-winning move is the one named by the landing square.
        let p = RefPosition::parse("8/8/8/3p4/3ON3/8/8/8 b o").unwrap();
        assert_eq!(perft(&p, 1, false), 7);
        let finished = p.play("d4-h8").unwrap();
        assert_eq!(perft(&finished, 0, false), 1);
        assert_eq!(perft(&finished, 1, false), 0);
        assert_eq!(perft(&finished, 1, true), 0);
    }

    #[test]
    fn conventions_differ_only_by_zero_plies() {
        // After c1-e3 the zero-length move a8-a8 is a ply of its own in convention 2.
        let p = RefPosition::parse("r7/PU6/8/8/8/8/8/2G4O b g").unwrap();
        let moves_after_e3 = p.play("c1-e3").unwrap().moves().len() as u64;
        let d2_default = divide(&p, 2, false);
        let d2_plies = divide(&p, 2, true);
        let e3_default = d2_default.iter().find(|(m, _)| m == "c1-e3").unwrap().1;
        let e3_plies = d2_plies.iter().find(|(m, _)| m == "c1-e3").unwrap().1;
        assert_eq!(e3_default, moves_after_e3);
        assert_eq!(e3_plies, 1);
        assert_eq!(
            divide(&p, 3, true)
                .iter()
                .find(|(m, _)| m == "c1-e3")
                .unwrap()
                .1,
            moves_after_e3
        );
        // A deadlocking move is one sequence in both conventions, with nothing after it.
        let q = RefPosition::parse("8/2y5/1NO5/ru6/PU6/3G4/8/8 b g").unwrap();
        for zero in [false, true] {
            let split = divide(&q, 1, zero);
            assert!(split.contains(&("d3-d6".to_string(), 1)));
            let split = divide(&q, 2, zero);
            assert!(split.contains(&("d3-d6".to_string(), 0)));
        }
    }

    #[test]
    fn minimax_on_small_positions() {
        // Black to move can win at once.
        let p = RefPosition::parse("8/8/8/3p4/3ON3/8/8/8 b o").unwrap();
        assert_eq!(minimax(&p), (true, 1));
        // A finished game: remoteness 0; the side to move (White) has lost.
        let won = p.play("d4-h8").unwrap();
        assert_eq!(minimax(&won), (false, 0));
        // Deadlocked position: the side to move (White) has won.
        let dead = RefPosition::parse("8/8/8/yu6/PU6/8/2G5/8 w y").unwrap();
        assert_eq!(minimax(&dead), (true, 0));
        // Black's Green tower on c1 has one move, c1-c2, and it deadlocks: Black loses in 1.
        let forced = RefPosition::parse("8/8/8/yu6/PU6/2o5/1R1Y4/2G5 b g").unwrap();
        assert_eq!(forced.moves(), vec!["c1-c2".to_string()]);
        assert_eq!(minimax(&forced), (false, 1));
        assert_eq!(minimax_with_table(&forced, &mut HashMap::new()), (false, 1));
        assert!(!alphabeta_value(&forced, &mut HashMap::new()));
        // The loser delays: c1-c2 deadlocks (lost in 1), c1-c3 lets White's Brown tower win
        // at once (lost in 2). Black picks the slower loss.
        let delay = RefPosition::parse("8/8/8/yu6/PUo5/8/1R1Y3n/2G5 b g").unwrap();
        assert_eq!(
            delay.moves(),
            vec!["c1-c2".to_string(), "c1-c3".to_string()]
        );
        assert_eq!(minimax(&delay), (false, 2));
        assert_eq!(minimax_with_table(&delay, &mut HashMap::new()), (false, 2));
        // A pending chain: White is to move as stored, but its Red tower is blocked and
        // Black's Orange tower then wins at once (h1-h8): White loses in 1.
        let pending = RefPosition::parse("r7/PU6/8/8/8/4G3/8/7O w r").unwrap();
        assert_eq!(minimax(&pending), (false, 1));
        assert_eq!(
            minimax_with_table(&pending, &mut HashMap::new()),
            (false, 1)
        );
        assert!(!alphabeta_value(&pending, &mut HashMap::new()));
    }

    /// Counts the nodes of the full game tree below `pos` (default convention), giving up
    /// (returning `None`) once more than `cap` nodes were seen.
    fn full_tree_nodes(pos: &RefPosition, cap: u64) -> Option<u64> {
        let mut count = 1;
        for (_, child) in pos.children() {
            count += full_tree_nodes(&child, cap.checked_sub(count)?)?;
            if count > cap {
                return None;
            }
        }
        Some(count)
    }

    /// Counts the distinct positions reachable from `pos` (default convention), giving up
    /// once more than `cap` were seen.
    fn reachable_positions(pos: &RefPosition, cap: usize) -> Option<usize> {
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![pos.clone()];
        while let Some(p) = stack.pop() {
            for (_, child) in p.children() {
                if seen.insert(child.clone()) {
                    if seen.len() > cap {
                        return None;
                    }
                    stack.push(child);
                }
            }
        }
        Some(seen.len())
    }

    /// A random (not necessarily reachable) position with all sixteen towers scattered over
    /// the middle of the board, Black's on ranks 3-7 and White's on ranks 2-6, so that games
    /// end within a few moves and the slow solvers can finish.
    fn scattered_position(rng: &mut u64) -> RefPosition {
        let mut next = || {
            *rng ^= *rng << 13;
            *rng ^= *rng >> 7;
            *rng ^= *rng << 17;
            *rng
        };
        let mut board = [[None; 8]; 8];
        for side in [Side::Black, Side::White] {
            for colour in Colour::ALL {
                loop {
                    let file = (next() % 8) as usize;
                    let rank = match side {
                        Side::Black => 2 + (next() % 5) as usize,
                        Side::White => 1 + (next() % 5) as usize,
                    };
                    if board[rank][file].is_none() {
                        board[rank][file] = Some(Tower { side, colour });
                        break;
                    }
                }
            }
        }
        let side = if next() % 2 == 0 {
            Side::Black
        } else {
            Side::White
        };
        let active = Colour::ALL[(next() % 8) as usize];
        RefPosition::from_parts(board, side, Some(active))
    }

    #[test]
    fn solvers_agree_on_small_positions() {
        let mut rng = 0x1234_5678_9ABC_DEF1u64;
        let mut plain_checked = 0;
        let mut table_checked = 0;
        let mut longest = 0;
        for _ in 0..400 {
            let pos = scattered_position(&mut rng);
            if reachable_positions(&pos, 5_000).is_none() {
                continue; // too big for these slow solvers in a unit test
            }
            let mut table = HashMap::new();
            let with_table = minimax_with_table(&pos, &mut table);
            longest = longest.max(with_table.1);
            let mut ab_table = HashMap::new();
            assert_eq!(
                alphabeta_value(&pos, &mut ab_table),
                with_table.0,
                "{}",
                pos.to_text()
            );
            table_checked += 1;
            // Positions met inside the search must agree with alpha-beta from scratch too.
            for (p, value) in table.iter().take(20) {
                assert_eq!(
                    alphabeta_value(p, &mut HashMap::new()),
                    value.0,
                    "{}",
                    p.to_text()
                );
            }
            if full_tree_nodes(&pos, 50_000).is_some() {
                assert_eq!(minimax(&pos), with_table, "{}", pos.to_text());
                plain_checked += 1;
                // Cut off at the remoteness, minimax still sees the whole result; one move
                // earlier it cannot.
                let r = with_table.1;
                assert_eq!(
                    minimax_within(&pos, r),
                    Some(with_table),
                    "{}",
                    pos.to_text()
                );
                if r > 0 {
                    assert_eq!(minimax_within(&pos, r - 1), None, "{}", pos.to_text());
                }
            }
        }
        println!(
            "table/alpha-beta checked {table_checked}, plain minimax checked {plain_checked}, \
             longest remoteness {longest}"
        );
        assert!(
            table_checked > 100,
            "only {table_checked} positions checked"
        );
        assert!(plain_checked > 50, "only {plain_checked} positions checked");
    }
}
