//! The two players.

use std::fmt;
use std::ops::Not;

/// A player. Black moves first and starts on rank 1; White (Gold in some texts) starts on rank 8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    Black = 0,
    White = 1,
}

impl Side {
    pub const ALL: [Side; 2] = [Side::Black, Side::White];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The rank index (0 = rank 1) of this side's home row.
    #[inline]
    pub const fn home_rank(self) -> u8 {
        match self {
            Side::Black => 0,
            Side::White => 7,
        }
    }

    /// The rank index this side must reach to win: the opponent's home row.
    #[inline]
    pub const fn goal_rank(self) -> u8 {
        match self {
            Side::Black => 7,
            Side::White => 0,
        }
    }

    /// `b` or `w`, as in the position text.
    pub const fn char(self) -> char {
        match self {
            Side::Black => 'b',
            Side::White => 'w',
        }
    }

    pub fn from_char(c: char) -> Option<Side> {
        match c {
            'b' => Some(Side::Black),
            'w' => Some(Side::White),
            _ => None,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Side::Black => "black",
            Side::White => "white",
        }
    }
}

impl Not for Side {
    type Output = Side;
    #[inline]
    fn not(self) -> Side {
        match self {
            Side::Black => Side::White,
            Side::White => Side::Black,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
