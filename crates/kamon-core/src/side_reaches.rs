//! Where a new piece of one player would join a chain touching each side: what a
//! connection threat is made of (a cell reaching both sides of an opposite pair).
//!
//! Why a type: a connection is a chain touching two opposite sides, so a free cell
//! completes one when it lies, for both sides of a pair, on the side or next to a chain
//! touching it ([`SideReaches::of`], one flood fill from the side's pieces). The threats
//! ([`Position::threats`](crate::Position::threats) and
//! [`Position::threats_after`](crate::Position::threats_after)) and the wins at once
//! ([`Position::winning_move`](crate::Position::winning_move)) all ask it, each for the
//! sides it needs; this is the one place it is worked out.
//!
//! Weighed and dropped (2026-12-07): working the reaches out once per position for all of
//! its children, which a placement that makes no connection leaves unchanged for every
//! side its chain does not touch. Every child's threats took 18% less time in a criterion
//! benchmark (positions of random games, 1.67 ms to 1.37 ms), but neither the certificate
//! checker (seed 1's walk, 44.4 s either way) nor the solver (a search of 10.2 M nodes,
//! three alternated runs each, 14.9 to 16.4 s of CPU either way) gained measurably: in
//! their positions a new piece's chain seldom touches a side, and the chain's own fill
//! and the loop candidates are most of the threats' cost.

use crate::geometry::{self, Side};
use crate::Bitboard;

/// One player's reach of each side, worked out when first asked and then kept.
#[derive(Debug)]
pub(crate) struct SideReaches {
    pieces: Bitboard,
    /// Bit `side as usize` set when `reach[side as usize]` is worked out.
    known: u8,
    reach: [Bitboard; 6],
}

impl SideReaches {
    /// The reaches of a player with these `pieces`, none worked out yet.
    #[inline]
    pub(crate) fn new(pieces: Bitboard) -> SideReaches {
        SideReaches {
            pieces,
            known: 0,
            reach: [Bitboard::EMPTY; 6],
        }
    }

    /// The cells on `side` or next to a chain of the pieces touching it: the cells where
    /// a new piece would be part of a chain touching `side`. A side without a piece is
    /// reached only by its own cells, and needs no fill.
    #[inline]
    pub(crate) fn of(&mut self, side: Side) -> Bitboard {
        let bit = 1 << side as u8;
        if self.known & bit == 0 {
            let start = self.pieces & side.cells();
            self.reach[side as usize] = if start.is_empty() {
                side.cells()
            } else {
                side.cells() | geometry::neighbours(geometry::flood(start, self.pieces))
            };
            self.known |= bit;
        }
        self.reach[side as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Cell, CELL_COUNT};

    #[test]
    fn a_reach_is_where_a_new_piece_joins_a_chain_touching_the_side() {
        // Against the definition, cell by cell: with a piece on `cell`, the chain through
        // it touches `side`.
        let mut rng = fastrand::Rng::with_seed(5);
        for _ in 0..2_000 {
            let pieces = Cell::ALL
                .iter()
                .filter(|_| rng.u32(..CELL_COUNT as u32) < 10)
                .fold(Bitboard::EMPTY, |b, &c| b.with(c));
            let mut reaches = SideReaches::new(pieces);
            for side in Side::ALL {
                let reach = reaches.of(side);
                assert_eq!(reaches.of(side), reach, "asked twice");
                for cell in Cell::ALL {
                    let with = pieces.with(cell);
                    let chain = geometry::flood(Bitboard::from_cell(cell), with);
                    assert_eq!(
                        reach.contains(cell),
                        (chain & side.cells()).any(),
                        "{cell} {side} {pieces:?}"
                    );
                }
            }
        }
    }
}
