//! Squares `a1`..`h8`.

use std::fmt;
use std::str::FromStr;

use crate::{Colour, Side};

/// A square of the board, `a1` = 0 .. `h8` = 63 (rank-major, file a first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    #[inline]
    pub const fn new(index: u8) -> Square {
        assert!(index < 64);
        Square(index)
    }

    /// The square at file index `file` (0 = a) and rank index `rank` (0 = rank 1).
    #[inline]
    pub const fn from_coords(file: u8, rank: u8) -> Square {
        assert!(file < 8 && rank < 8);
        Square(rank * 8 + file)
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    #[inline]
    pub const fn colour(self) -> Colour {
        Colour::of_square(self)
    }

    /// Whether this square is on the row `side` must reach to win.
    #[inline]
    pub const fn is_goal_for(self, side: Side) -> bool {
        self.rank() == side.goal_rank()
    }

    /// The square after a half turn of the board (x, y -> 9 - x, 9 - y).
    #[inline]
    pub const fn half_turned(self) -> Square {
        Square(63 - self.0)
    }

    /// The square after mirroring the files (a <-> h).
    #[inline]
    pub const fn mirrored(self) -> Square {
        Square(self.0 ^ 7)
    }

    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }
}

/// Why a square's text is not a square.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{}` is not a square: expected a file a-h then a rank 1-8, like `d4`", crate::quote(.text))]
pub struct ParseSquareError {
    pub text: String,
}

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let err = || ParseSquareError { text: s.to_owned() };
        match s.as_bytes() {
            &[f @ b'a'..=b'h', r @ b'1'..=b'8'] => Ok(Square::from_coords(f - b'a', r - b'1')),
            _ => Err(err()),
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}
