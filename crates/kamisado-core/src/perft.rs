//! perft: the number of legal move sequences of a given length, the standard test that two
//! move generators agree.

use rayon::prelude::*;

use crate::{Move, Position};

/// How zero-length moves count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Counting {
    /// Zero-length moves are automatic and are not plies (this project's convention).
    #[default]
    PositiveMoves,
    /// Each zero-length move is a ply of its own, and a deadlock ends the game right after
    /// the positive move that causes it (the convention of some other Kamisado programs).
    ZeroMovesAsPlies,
}

impl Counting {
    #[inline]
    fn next(self, pos: &Position, m: Move) -> Position {
        match self {
            Counting::PositiveMoves => pos.play_unchecked(m),
            Counting::ZeroMovesAsPlies => pos.step_unchecked(m),
        }
    }

    fn root(self, pos: &Position) -> Position {
        match self {
            Counting::PositiveMoves => pos.resolve(),
            Counting::ZeroMovesAsPlies => *pos,
        }
    }
}

/// Depth from which a count is spread over threads; below it, threads cost more than they save.
const PARALLEL_DEPTH: u32 = 5;

/// The number of legal sequences of exactly `depth` moves from `pos`. A move that ends
/// the game counts only as the last move of a sequence.
pub fn perft(pos: &Position, depth: u32, counting: Counting) -> u64 {
    let pos = counting.root(pos);
    if depth < PARALLEL_DEPTH {
        return perft_serial(&pos, depth, counting);
    }
    // Two plies of frontier give enough independent pieces for any number of cores.
    let mut frontier = Vec::new();
    for m in pos.legal_moves() {
        let child = counting.next(&pos, m);
        for m2 in child.legal_moves() {
            frontier.push(counting.next(&child, m2));
        }
    }
    frontier
        .par_iter()
        .map(|p| perft_serial(p, depth - 2, counting))
        .sum()
}

/// The count under each first move, in the order of [`Position::legal_moves`].
pub fn divide(pos: &Position, depth: u32, counting: Counting) -> Vec<(Move, u64)> {
    divide_with(pos, depth, counting, &|| {})
}

/// [`divide`], calling `counted` (from any thread) as each first move's count is done:
/// for progress displays.
pub fn divide_with(
    pos: &Position,
    depth: u32,
    counting: Counting,
    counted: &(dyn Fn() + Sync),
) -> Vec<(Move, u64)> {
    let pos = counting.root(pos);
    if depth == 0 {
        return Vec::new();
    }
    let moves: Vec<Move> = pos.legal_moves().to_vec();
    moves
        .into_par_iter()
        .map(|m| {
            let count = perft(&counting.next(&pos, m), depth - 1, counting);
            counted();
            (m, count)
        })
        .collect()
}

fn perft_serial(pos: &Position, depth: u32, counting: Counting) -> u64 {
    match depth {
        0 => 1,
        // Bulk counting: every legal move is a sequence of length one, even one that ends the game.
        1 => pos.count_moves() as u64,
        _ => pos
            .legal_moves()
            .iter()
            .map(|&m| perft_serial(&counting.next(pos, m), depth - 1, counting))
            .sum(),
    }
}
