//! The two players.

use std::fmt;
use std::ops::Not;

/// A player. Black moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    Black = 0,
    White = 1,
}

impl Player {
    pub const ALL: [Player; 2] = [Player::Black, Player::White];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The player who makes placement number `placed + 1` (Black makes the odd ones).
    #[inline]
    pub const fn after(placed: u32) -> Player {
        if placed.is_multiple_of(2) {
            Player::Black
        } else {
            Player::White
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Player::Black => "black",
            Player::White => "white",
        }
    }
}

impl Not for Player {
    type Output = Player;
    #[inline]
    fn not(self) -> Player {
        match self {
            Player::Black => Player::White,
            Player::White => Player::Black,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
