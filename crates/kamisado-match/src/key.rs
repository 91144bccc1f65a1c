//! The board's two symmetries on match positions, and exact keys for the solver.
//!
//! The half turn (sides swap, ranks travel with their towers) and the file mirror (colours
//! renamed Orange<->Brown, Blue<->Green, Purple<->Red, Pink<->Yellow, as in the core's
//! [`Symmetry`]) keep every rule of match play: forward lines, goal rows, the colour that
//! names the next tower, Sumo reach and pushes straight ahead, and the refill (the half turn
//! keeps `left` and `right`, seen from each seat; the mirror swaps them, and since the
//! round's winner may choose either, the value of a match position is kept too).
//!
//! A key is wider than 128 bits (96 bits of squares, 32 of ranks, and more), so it is
//! `[u64; 3]`:
//! - word 0: Black's eight squares (48 bits), the side to move (bit 48), the active colour
//!   (bits 49..53, 8 = free move), the colour of a finished round's promoted tower (bits
//!   53..57, 8 = round not over);
//! - word 1: White's eight squares (48 bits), the target (bits 48..50, match keys only);
//! - word 2: the board's ranks, two bits per tower, Black's colours then White's (32 bits).
//!
//! Whether and how the round ended is not in the key: it follows from the rest. Which tower
//! it promoted does too, except after a deadlock right after a push, hence its four bits.

use kamisado_core::packing::{square_bytes, squeeze, unsqueeze};
use kamisado_core::{Board, Colour, EndReason, Side, Square, Symmetry, Tower};

use crate::position::{tower_index, RANKS_MASK};
use crate::{MatchPosition, MatchPositionError, MatchSetup, Target};

/// Where in a round a key's position stands (see [`MatchPosition::key_stage`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KeyStage {
    /// The first move of a round, free of any colour.
    RoundStart,
    /// A round being played, after its first move.
    InRound,
    /// A finished round.
    RoundOver,
}

/// Reverses the order of the eight 2-bit groups of a 16-bit word: the ranks of one side
/// with colour `c` moved to colour `7 - c`.
#[inline]
fn reverse_groups(ranks: u64) -> u64 {
    let x = (ranks & 0x00ff) << 8 | (ranks & 0xff00) >> 8;
    let x = (x & 0x0f0f) << 4 | (x & 0xf0f0) >> 4;
    (x & 0x3333) << 2 | (x & 0xcccc) >> 2
}

/// Byte-wise forms of the symmetries: a half turn maps square s to 63 - s = s ^ 63, a file
/// mirror maps s to s ^ 7 and colour c to 7 - c (the byte order reversed).
const HALF_TURN_BYTES: u64 = 0x3f3f_3f3f_3f3f_3f3f;
const MIRROR_BYTES: u64 = 0x0707_0707_0707_0707;

/// The parts of a key before packing.
#[derive(Clone, Copy)]
struct Parts {
    black: u64,
    white: u64,
    black_ranks: u64,
    white_ranks: u64,
    active: Option<Colour>,
    promoted: Option<Colour>,
}

impl Parts {
    #[inline]
    fn pack(self, turn: Side, target: Option<Target>) -> [u64; 3] {
        [
            squeeze(self.black)
                | (turn.index() as u64) << 48
                | self.active.map_or(8, |c| c.index() as u64) << 49
                | self.promoted.map_or(8, |c| c.index() as u64) << 53,
            squeeze(self.white) | target.map_or(0, |t| t.code() as u64) << 48,
            self.black_ranks | self.white_ranks << 16,
        ]
    }

    #[inline]
    fn half_turned(self) -> Parts {
        Parts {
            black: self.white ^ HALF_TURN_BYTES,
            white: self.black ^ HALF_TURN_BYTES,
            black_ranks: self.white_ranks,
            white_ranks: self.black_ranks,
            active: self.active,
            promoted: self.promoted,
        }
    }

    #[inline]
    fn mirrored(self) -> Parts {
        Parts {
            black: self.black.swap_bytes() ^ MIRROR_BYTES,
            white: self.white.swap_bytes() ^ MIRROR_BYTES,
            black_ranks: reverse_groups(self.black_ranks),
            white_ranks: reverse_groups(self.white_ranks),
            active: self.active.map(Colour::mirrored),
            promoted: self.promoted.map(Colour::mirrored),
        }
    }
}

impl MatchPosition {
    #[inline]
    fn parts(&self) -> Parts {
        let ranks = self.rank_bits();
        Parts {
            black: square_bytes(self.board.squares(Side::Black)),
            white: square_bytes(self.board.squares(Side::White)),
            black_ranks: ranks & 0xffff,
            white_ranks: ranks >> 16,
            active: self.active(),
            promoted: self.round_end().map(|end| end.promoted.colour),
        }
    }

    /// The position seen through a symmetry: the same match, with the same value for the
    /// side to move (a refill choice maps by [`Refill::transformed`](crate::Refill::transformed)).
    pub fn transformed(&self, sym: Symmetry) -> MatchPosition {
        let mut squares = [[Square::new(0); 8]; 2];
        let mut ranks = 0u64;
        for tower in Tower::all() {
            let image = Tower::new(sym.side(tower.side), sym.colour(tower.colour));
            squares[image.side.index()][image.colour.index()] =
                sym.square(self.board.square_of(tower));
            ranks |= (self.board_rank(tower) as u64) << (2 * tower_index(image));
        }
        let mut image = MatchPosition::new(
            Board::from_squares(squares),
            ranks,
            sym.side(self.turn()),
            self.active().map(|c| sym.colour(c)),
            self.target(),
        );
        if let Some(end) = self.round_end() {
            image.end_round(
                sym.side(end.winner),
                end.reason,
                sym.colour(end.promoted.colour),
            );
        }
        image
    }

    /// An exact key for solving a round: squares, ranks, side to move, active colour and a
    /// finished round's promoted tower (137 bits). Positions that differ only in the target
    /// share it, as they share the round's value.
    #[inline]
    pub fn round_key(&self) -> [u64; 3] {
        self.parts().pack(self.turn(), None)
    }

    /// An exact key for solving a whole match: the round key and the target (139 bits). Two
    /// positions are equal exactly when their match keys are.
    #[inline]
    pub fn match_key(&self) -> [u64; 3] {
        self.parts().pack(self.turn(), Some(self.target()))
    }

    /// One round key for all the (up to four) symmetric images of the position, and the
    /// symmetry that maps this position to the image the key describes (so that
    /// `self.transformed(sym).round_key() == key`).
    ///
    /// The half turn is used exactly when White is to move, so the image always has Black
    /// to move; of that image and its mirror, the smaller key wins.
    #[inline]
    pub fn canonical_round_key(&self) -> ([u64; 3], Symmetry) {
        self.canonical(None)
    }

    /// [`MatchPosition::canonical_round_key`] for whole-match solving: the images' match
    /// keys. A move or refill choice found for the image maps back through the same
    /// symmetry (which is its own inverse); a mirror swaps `left` and `right`.
    #[inline]
    pub fn canonical_match_key(&self) -> ([u64; 3], Symmetry) {
        self.canonical(Some(self.target()))
    }

    #[inline]
    fn canonical(&self, target: Option<Target>) -> ([u64; 3], Symmetry) {
        let mut parts = self.parts();
        let half = self.turn() == Side::White;
        if half {
            parts = parts.half_turned();
        }
        let plain = parts.pack(Side::Black, target);
        let mirrored = parts.mirrored().pack(Side::Black, target);
        match (half, mirrored < plain) {
            (false, false) => (plain, Symmetry::Identity),
            (false, true) => (mirrored, Symmetry::Mirror),
            (true, false) => (plain, Symmetry::HalfTurn),
            (true, true) => (mirrored, Symmetry::HalfTurnMirror),
        }
    }

    /// Where in a round the position of a match or round key stands, read from the key's
    /// bits alone (cheap enough for a scan of a whole table).
    #[inline]
    pub fn key_stage(key: [u64; 3]) -> KeyStage {
        match (key[0] >> 49 & 15, key[0] >> 53 & 15) {
            (_, 0..=7) => KeyStage::RoundOver,
            (8, _) => KeyStage::RoundStart,
            _ => KeyStage::InRound,
        }
    }

    /// The position a match key (from [`MatchPosition::match_key`] or
    /// [`MatchPosition::canonical_match_key`]) stands for, validated like any setup.
    pub fn from_match_key(key: [u64; 3]) -> Result<MatchPosition, MatchPositionError> {
        let target = Target::from_code((key[1] >> 48 & 3) as u8);
        MatchPosition::from_key_with_target(key, target)
    }

    /// The position a round key stands for, in a match to `target` (which the round key
    /// does not hold).
    pub fn from_round_key(
        key: [u64; 3],
        target: Target,
    ) -> Result<MatchPosition, MatchPositionError> {
        if key[1] >> 48 != 0 {
            return Err(MatchPositionError::BadKey(key));
        }
        MatchPosition::from_key_with_target(key, target)
    }

    fn from_key_with_target(
        key: [u64; 3],
        target: Target,
    ) -> Result<MatchPosition, MatchPositionError> {
        if key[0] >> 57 != 0 || key[1] >> 50 != 0 || key[2] >> 32 != 0 {
            return Err(MatchPositionError::BadKey(key));
        }
        let active = match key[0] >> 49 & 15 {
            c @ 0..=7 => Some(Colour::from_index(c as usize)),
            8 => None,
            _ => return Err(MatchPositionError::BadKey(key)),
        };
        let turn = if key[0] >> 48 & 1 == 0 {
            Side::Black
        } else {
            Side::White
        };
        let squares = |word: u64| u64::to_le_bytes(unsqueeze(word & ((1 << 48) - 1)));
        let mut setup = MatchSetup {
            round: kamisado_core::Setup::empty(turn, active),
            ranks: [[0; 8]; 2],
            target,
        };
        for (side, word) in [(Side::Black, key[0]), (Side::White, key[1])] {
            for (colour, sq) in Colour::ALL.into_iter().zip(squares(word)) {
                let tower = Tower::new(side, colour);
                setup.round.place(tower, Square::new(sq));
                setup.set_rank(tower, (key[2] >> (2 * tower_index(tower)) & 3) as u8);
            }
        }
        let mut pos = MatchPosition::from_setup(setup)?;
        // The text's reading names the promoted tower, except after a deadlock right after
        // a push; a key names it always.
        match (pos.round_end(), key[0] >> 53 & 15) {
            (None, 8) => {}
            (Some(end), c @ 0..=7) if end.reason == EndReason::Deadlock => {
                pos.end_round(end.winner, end.reason, Colour::from_index(c as usize));
            }
            (Some(end), c) if c == end.promoted.colour.index() as u64 => {}
            _ => return Err(MatchPositionError::BadKey(key)),
        }
        Ok(pos)
    }
}

const _: () = assert!(RANKS_MASK == (1 << 32) - 1);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squeeze_and_groups_keep_every_bit() {
        let x = u64::from_le_bytes([1, 2, 4, 8, 16, 32, 63, 0]);
        assert_eq!(unsqueeze(squeeze(x)), x);
        let ranks = 0b00_01_10_11_11_10_00_01;
        assert_eq!(reverse_groups(ranks), 0b01_00_10_11_11_10_01_00);
        assert_eq!(reverse_groups(reverse_groups(ranks)), ranks);
    }
}
