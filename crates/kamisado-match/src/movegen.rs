//! The legal moves of a match position.
//!
//! A plain tower moves as in the single round (the core's ray tables). A Sumo's ordinary
//! moves are the same lines cut to its reach, one mask of whole ranks, and it adds at most
//! one push, straight ahead. Moves are the core's [`Move`]: a push is the one-square move
//! onto the occupied square ahead, as the notation writes it.

use kamisado_core::{attacks, Bitboard, Move, MoveList, Side, Square, Tower};

use crate::push::step_forward;
use crate::{rank, MatchPosition};

/// `[side][rank of the square][distance]`: the ranks at most `distance` ahead of a square
/// of that rank, for that side.
const fn build_bands() -> [[[u64; 8]; 8]; 2] {
    let mut bands = [[[0u64; 8]; 8]; 2];
    let mut from = 0;
    while from < 8 {
        let mut distance = 0;
        while distance < 8 {
            let mut to = 0;
            while to < 8 {
                let rank_bits = 0xffu64 << (8 * to);
                if to > from && to - from <= distance {
                    bands[0][from][distance] |= rank_bits;
                }
                if to < from && from - to <= distance {
                    bands[1][from][distance] |= rank_bits;
                }
                to += 1;
            }
            distance += 1;
        }
        from += 1;
    }
    bands
}

static BANDS: [[[u64; 8]; 8]; 2] = build_bands();

impl MatchPosition {
    /// The ordinary destinations of a tower of `side` and rank `r` on `from`: the three
    /// forward lines up to the first tower, cut to the rank's reach.
    #[inline]
    fn ordinary_reach(&self, side: Side, from: Square, r: u8) -> Bitboard {
        let reach = attacks::reach(side, from, self.board.occupied());
        if r == 0 {
            reach
        } else {
            reach
                & Bitboard(
                    BANDS[side.index()][from.rank() as usize][rank::max_distance(r) as usize],
                )
        }
    }

    /// The push square (one straight ahead) of `tower`, if it can push.
    #[inline]
    fn push_move(&self, tower: Tower, from: Square, r: u8) -> Option<Move> {
        if r == 0 {
            return None;
        }
        self.push_landing(tower.side, from, r)?;
        step_forward(tower.side, from).map(|to| Move::new(from, to))
    }

    #[inline]
    fn add_moves(&self, tower: Tower, moves: &mut MoveList) {
        let from = self.board.square_of(tower);
        let r = self.board_rank(tower);
        for to in self.ordinary_reach(tower.side, from, r) {
            moves.push(Move::new(from, to));
        }
        if let Some(m) = self.push_move(tower, from, r) {
            moves.push(m);
        }
    }

    #[inline]
    fn count_tower_moves(&self, tower: Tower) -> usize {
        let from = self.board.square_of(tower);
        let r = self.board_rank(tower);
        self.ordinary_reach(tower.side, from, r).count() as usize
            + usize::from(self.push_move(tower, from, r).is_some())
    }

    /// The legal moves, exactly as the rules state them: the ordinary moves and the push of
    /// the active tower (of every tower on a free move), or, if the active tower can do
    /// neither, its single zero-length move. Empty when the round is over.
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        if self.is_round_over() {
            return moves;
        }
        let turn = self.turn();
        match self.active() {
            Some(colour) => {
                let tower = Tower::new(turn, colour);
                self.add_moves(tower, &mut moves);
                if moves.is_empty() {
                    let from = self.board.square_of(tower);
                    moves.push(Move::new(from, from));
                }
            }
            None => {
                for colour in kamisado_core::Colour::ALL {
                    self.add_moves(Tower::new(turn, colour), &mut moves);
                }
            }
        }
        moves
    }

    /// The number of legal moves, without listing them.
    pub fn count_moves(&self) -> usize {
        if self.is_round_over() {
            return 0;
        }
        let turn = self.turn();
        match self.active() {
            Some(colour) => self.count_tower_moves(Tower::new(turn, colour)).max(1),
            None => kamisado_core::Colour::ALL
                .into_iter()
                .map(|c| self.count_tower_moves(Tower::new(turn, c)))
                .sum(),
        }
    }

    /// A move that wins the round at once by landing on the goal row, if the side to move
    /// has one. A push never does (it lands where an opponent tower stood).
    pub fn winning_move(&self) -> Option<Move> {
        if self.is_round_over() {
            return None;
        }
        let turn = self.turn();
        let goal = Bitboard::rank(turn.goal_rank());
        let try_tower = |tower: Tower| {
            let from = self.board.square_of(tower);
            (self.ordinary_reach(turn, from, self.board_rank(tower)) & goal)
                .first()
                .map(|to| Move::new(from, to))
        };
        match self.active_tower() {
            Some(tower) => try_tower(tower),
            None => kamisado_core::Colour::ALL
                .into_iter()
                .find_map(|c| try_tower(Tower::new(turn, c))),
        }
    }

    /// Whether the side to move's active tower can neither move nor push, so that its only
    /// move is the zero-length move. Only positions in the middle of a chain have this.
    #[inline]
    pub fn must_pass(&self) -> bool {
        match (self.is_round_over(), self.active_tower()) {
            (false, Some(tower)) => !self.can_move(tower),
            _ => false,
        }
    }

    /// The zero-length move the side to move must make, if its active tower is blocked.
    #[inline]
    pub fn forced_zero_move(&self) -> Option<Move> {
        let tower = self.active_tower().filter(|_| self.must_pass())?;
        let from = self.board.square_of(tower);
        Some(Move::new(from, from))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_are_whole_ranks_ahead() {
        // Black on rank 3 (index 2), distance 3: ranks 4, 5, 6.
        assert_eq!(BANDS[0][2][3], 0x0000_ffff_ff00_0000);
        // White on rank 2 (index 1), distance 5: rank 1 only.
        assert_eq!(BANDS[1][1][5], 0xff);
        assert_eq!(BANDS[0][7][7], 0);
    }
}
