//! The Sumo push: a run of opponent towers straight ahead moves one square back, the Sumo
//! one square forward.
//!
//! The run is every occupied square straight ahead, contiguous, up to the first empty
//! square: found with one ray of the core's tables and the nearest empty square on it. Only
//! its owners and ranks need looking up, one byte comparison per tower (at most three).

use kamisado_core::{attacks, Bitboard, Colour, Side, Square, Tower};

use crate::{rank, IllegalMatchMove, MatchPosition};

/// The square one step straight ahead of `sq` for `side`, if the board has one.
#[inline]
pub(crate) fn step_forward(side: Side, sq: Square) -> Option<Square> {
    match side {
        Side::Black => (sq.rank() < 7).then(|| Square::new(sq.index() as u8 + 8)),
        Side::White => (sq.rank() > 0).then(|| Square::new(sq.index() as u8 - 8)),
    }
}

/// The square of a set nearest to `side`'s home row: the lowest for Black, the highest for
/// White. Applied to squares ahead of a tower, the nearest to it.
#[inline]
fn nearest(side: Side, squares: Bitboard) -> Option<Square> {
    match side {
        Side::Black => squares.first(),
        Side::White => squares.last(),
    }
}

/// Eight squares, one byte each (byte `i` is colour `i`'s square), as one word.
#[inline]
fn square_word(squares: &[Square; 8]) -> u64 {
    u64::from_le_bytes(squares.map(|sq| sq.index() as u8))
}

/// The colour whose byte in `word` is `sq`, if any: the colour of that side's tower on `sq`.
#[inline]
fn colour_on(word: u64, sq: Square) -> Option<Colour> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let x = word ^ ONES.wrapping_mul(sq.index() as u64);
    // The lowest zero byte is found exactly (a borrow only marks bytes above a zero byte).
    let zero = x.wrapping_sub(ONES) & !x & (ONES << 7);
    (zero != 0).then(|| Colour::from_index(zero.trailing_zeros() as usize / 8))
}

impl MatchPosition {
    /// The squares a push by a tower of `side` on `from` would move, farthest first
    /// excluded: the run straight ahead up to (not including) the first empty square, and
    /// that empty square (where the farthest pushed tower lands). `None` if the run reaches
    /// the board's edge.
    #[inline]
    fn run_ahead(&self, side: Side, from: Square) -> Option<(Bitboard, Square)> {
        let ahead = attacks::straight_ahead(side, from);
        let landing = nearest(side, ahead & !self.board.occupied())?;
        let run = ahead & !attacks::straight_ahead(side, landing) & !Bitboard::from_square(landing);
        Some((run, landing))
    }

    /// If the tower of `side` and rank `rank` on `from` can push, the square on which the
    /// farthest pushed tower would land (its colour names the pusher's extra move).
    #[inline]
    pub(crate) fn push_landing(&self, side: Side, from: Square, rank: u8) -> Option<Square> {
        let (run, landing) = self.run_ahead(side, from)?;
        let len = run.count();
        if len == 0 || len > u32::from(rank::push_capacity(rank)) {
            return None;
        }
        let opponent = !side;
        let word = square_word(self.board.squares(opponent));
        for sq in run {
            // `None`: the pusher's own tower.
            let colour = colour_on(word, sq)?;
            if self.board_rank(Tower::new(opponent, colour)) >= rank {
                return None;
            }
        }
        Some(landing)
    }

    /// Plays a legal push by `side`'s tower on `from`: the run moves one square back, the
    /// pusher one square forward. Returns the square the farthest pushed tower landed on.
    #[inline]
    pub(crate) fn push(&mut self, side: Side, pusher: Colour, from: Square) -> Square {
        let (run, landing) = self
            .run_ahead(side, from)
            .expect("a legal push has an empty square behind its run");
        let opponent = !side;
        let word = square_word(self.board.squares(opponent));
        // Farthest first, so that every tower moves onto a square just emptied.
        let mut to = landing;
        let mut rest = run;
        while let Some(sq) = match side {
            Side::Black => rest.last(),
            Side::White => rest.first(),
        } {
            let colour = colour_on(word, sq).expect("a legal push moves only opponent towers");
            self.board.relocate(Tower::new(opponent, colour), to);
            to = sq;
            rest = rest.without(sq);
        }
        self.board.relocate(Tower::new(side, pusher), to);
        landing
    }

    /// Why the active side's tower on `from`, of rank `pusher_rank`, cannot push the tower
    /// straight ahead of it, or the square the farthest pushed tower would land on. The
    /// reason given is the first met walking the run from the pusher: an own tower, a tower
    /// of equal or higher rank, one tower more than the capacity, and last the board's edge.
    pub(crate) fn check_push(
        &self,
        side: Side,
        from: Square,
        pusher_rank: u8,
    ) -> Result<Square, IllegalMatchMove> {
        let to = step_forward(side, from).expect("a push target is on the board");
        if pusher_rank == 0 {
            return Err(IllegalMatchMove::NotASumo { from, to });
        }
        let capacity = rank::push_capacity(pusher_rank);
        let occupied = self.board.occupied();
        let mut count = 0u8;
        let mut sq = from;
        loop {
            let Some(next) = step_forward(side, sq) else {
                return Err(IllegalMatchMove::PushAtEdge { from, last: sq });
            };
            if !occupied.contains(next) {
                return Ok(next);
            }
            count += 1;
            let tower = self
                .board
                .tower_at(next)
                .expect("an occupied square holds a tower");
            if tower.side == side {
                return Err(IllegalMatchMove::PushOwnTower { from, at: next });
            }
            let r = self.board_rank(tower);
            if r >= pusher_rank {
                return Err(IllegalMatchMove::PushTooStrong {
                    from,
                    at: next,
                    rank: r,
                    pusher_rank,
                });
            }
            if count > capacity {
                let ahead = attacks::straight_ahead(side, from);
                let run = match self.run_ahead(side, from) {
                    Some((run, _)) => run,
                    None => ahead,
                };
                return Err(IllegalMatchMove::PushTooMany {
                    from,
                    count: run.count() as u8,
                    pusher_rank,
                });
            }
            sq = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_on_finds_exactly_the_byte() {
        let squares = [0u8, 9, 63, 8, 1, 17, 33, 40].map(Square::new);
        let word = square_word(&squares);
        for (i, &sq) in squares.iter().enumerate() {
            assert_eq!(colour_on(word, sq), Some(Colour::from_index(i)));
        }
        for free in [2u8, 10, 62, 16, 7] {
            assert_eq!(colour_on(word, Square::new(free)), None);
        }
    }
}
