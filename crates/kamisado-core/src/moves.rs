//! Moves, written `a1-a5`.

use std::fmt;
use std::str::FromStr;

use arrayvec::ArrayVec;

use crate::{quote, ParseSquareError, Square};

/// A move of the tower on `from` to `to`. `from == to` is the zero-length move a blocked
/// tower makes; it is automatic and never has to be typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    from: Square,
    to: Square,
}

/// More than any position can have: at most 8 towers on a free move, each with at most 21
/// destinations, and in practice far fewer.
pub const MAX_MOVES: usize = 192;

/// The legal moves of a position, on the stack.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

impl Move {
    #[inline]
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }

    #[inline]
    pub const fn from(self) -> Square {
        self.from
    }

    #[inline]
    pub const fn to(self) -> Square {
        self.to
    }

    #[inline]
    pub fn is_zero_length(self) -> bool {
        self.from == self.to
    }

    /// The number of ranks the move advances (0 for a zero-length move).
    #[inline]
    pub fn distance(self) -> u8 {
        self.from.rank().abs_diff(self.to.rank())
    }

    #[inline]
    pub fn half_turned(self) -> Move {
        Move::new(self.from.half_turned(), self.to.half_turned())
    }

    #[inline]
    pub fn mirrored(self) -> Move {
        Move::new(self.from.mirrored(), self.to.mirrored())
    }

    /// 12 bits: from-square in the low six, to-square in the next six.
    #[inline]
    pub fn pack(self) -> u16 {
        self.from.index() as u16 | (self.to.index() as u16) << 6
    }

    /// The inverse of [`Move::pack`]; ignores bits above the twelfth.
    #[inline]
    pub fn unpack(bits: u16) -> Move {
        Move::new(
            Square::new((bits & 63) as u8),
            Square::new((bits >> 6 & 63) as u8),
        )
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

/// Why a move's text is not a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseMoveError {
    #[error("`{}` is not a move: expected from-square, dash, to-square, like `a1-a5`", quote(.text))]
    Shape { text: String },
    #[error("`{}` is not a move: {source}", quote(.text))]
    Square {
        text: String,
        source: ParseSquareError,
    },
}

impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let (from, to) = s
            .split_once('-')
            .ok_or_else(|| ParseMoveError::Shape { text: s.to_owned() })?;
        let square = |part: &str| {
            part.parse::<Square>()
                .map_err(|source| ParseMoveError::Square {
                    text: s.to_owned(),
                    source,
                })
        };
        Ok(Move::new(square(from)?, square(to)?))
    }
}
