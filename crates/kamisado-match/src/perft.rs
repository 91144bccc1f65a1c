//! perft on match positions: the number of legal move sequences of a given length.
//!
//! The convention of the match rules page: every move of positive length counts, so a push
//! and the extra move after it are two moves; zero-length moves are automatic and do not
//! count; a sequence ends at the end of the round and never continues into the next one.
//! On a single round (target 1, every rank 0) this is exactly the core's
//! [`Counting::PositiveMoves`](kamisado_core::perft::Counting::PositiveMoves).

use rayon::prelude::*;

use kamisado_core::Move;

use crate::MatchPosition;

/// Depth from which a count is spread over threads; below it, threads cost more than they save.
const PARALLEL_DEPTH: u32 = 5;

/// The number of legal sequences of exactly `depth` moves from `pos` (after the zero-length
/// moves pending in it). A move that ends the round counts only as the last of a sequence.
pub fn perft(pos: &MatchPosition, depth: u32) -> u64 {
    let pos = pos.resolve();
    if depth < PARALLEL_DEPTH {
        return perft_serial(&pos, depth);
    }
    // Two moves of frontier give enough independent pieces for any number of cores.
    let mut frontier = Vec::new();
    for m in pos.legal_moves() {
        let child = pos.play_unchecked(m);
        for m2 in child.legal_moves() {
            frontier.push(child.play_unchecked(m2));
        }
    }
    frontier
        .par_iter()
        .map(|p| perft_serial(p, depth - 2))
        .sum()
}

/// The count under each first move, in the order of [`MatchPosition::legal_moves`].
pub fn divide(pos: &MatchPosition, depth: u32) -> Vec<(Move, u64)> {
    divide_with(pos, depth, &|| {})
}

/// [`divide`], calling `done` as each first move's count is finished (for progress bars).
pub fn divide_with(pos: &MatchPosition, depth: u32, done: &(dyn Fn() + Sync)) -> Vec<(Move, u64)> {
    let pos = pos.resolve();
    if depth == 0 {
        return Vec::new();
    }
    let moves: Vec<Move> = pos.legal_moves().to_vec();
    moves
        .into_par_iter()
        .map(|m| {
            let count = perft(&pos.play_unchecked(m), depth - 1);
            done();
            (m, count)
        })
        .collect()
}

fn perft_serial(pos: &MatchPosition, depth: u32) -> u64 {
    match depth {
        0 => 1,
        // Bulk counting: every legal move is a sequence of length one, even one that ends the round.
        1 => pos.count_moves() as u64,
        _ => pos
            .legal_moves()
            .iter()
            .map(|&m| perft_serial(&pos.play_unchecked(m), depth - 1))
            .sum(),
    }
}
