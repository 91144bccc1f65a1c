//! perft: the number of placement sequences of a given length, the standard test that two
//! move generators agree.
//!
//! A placement that ends the game ends its sequence, and a position whose player to move
//! has no legal cell has no continuation; so a finished position counts 1 at depth 0 and
//! 0 deeper.

use rayon::prelude::*;

use crate::{Cell, Layout, Position};

/// Depth from which a count is spread over threads; below it, threads cost more than they save.
const PARALLEL_DEPTH: u32 = 5;

/// The number of legal sequences of exactly `depth` placements from `pos` on `layout`.
pub fn perft(layout: &Layout, pos: &Position, depth: u32) -> u64 {
    if depth < PARALLEL_DEPTH {
        return perft_serial(layout, pos, depth);
    }
    // Two plies of frontier give enough independent pieces for any number of cores.
    let mut frontier = Vec::new();
    for cell in pos.legal_cells(layout) {
        let child = pos.play_unchecked(layout, cell);
        for cell2 in child.legal_cells(layout) {
            frontier.push(child.play_unchecked(layout, cell2));
        }
    }
    frontier
        .par_iter()
        .map(|p| perft_serial(layout, p, depth - 2))
        .sum()
}

/// The count under each legal first placement, in reading order of the cells.
pub fn divide(layout: &Layout, pos: &Position, depth: u32) -> Vec<(Cell, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let cells: Vec<Cell> = pos.legal_cells(layout).collect();
    cells
        .into_par_iter()
        .map(|cell| {
            let child = pos.play_unchecked(layout, cell);
            (cell, perft(layout, &child, depth - 1))
        })
        .collect()
}

fn perft_serial(layout: &Layout, pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        // Bulk counting: every legal placement is a sequence of length one, even one that
        // ends the game.
        1 => pos.count_moves(layout) as u64,
        _ => pos
            .legal_cells(layout)
            .map(|cell| perft_serial(layout, &pos.play_unchecked(layout, cell), depth - 1))
            .sum(),
    }
}
