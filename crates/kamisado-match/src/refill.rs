//! Between rounds: the winner's refill choice sets up the next round.
//!
//! Each player gathers their towers row by row from their own home row outwards, each row
//! from the chosen side as seen from their seat, and sets them on their home row in that
//! order from the chosen end. For Black, "from the left" reads the board in square order
//! (a1, b1, ..., h1, a2, ...) and fills a1, b1, ...; every other case is that one seen
//! through a symmetry of the board: the half turn gives White's seat (its left is file h),
//! the file mirror gives "from the right".

use std::fmt;
use std::str::FromStr;

use kamisado_core::{Board, Side, Square, Symmetry};

use crate::position::tower_index;
use crate::{MatchPosition, Target};

/// The round winner's choice of how both players refill their home rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Refill {
    /// From the left as seen from each player's seat (Black: file a; White: file h).
    Left,
    /// From the right as seen from each player's seat (Black: file h; White: file a).
    Right,
}

impl Refill {
    pub const ALL: [Refill; 2] = [Refill::Left, Refill::Right];

    /// `left` or `right`, as in a match record.
    pub const fn word(self) -> &'static str {
        match self {
            Refill::Left => "left",
            Refill::Right => "right",
        }
    }

    /// The choice that does the same thing on the file-mirrored board: a mirror swaps left
    /// and right for both players.
    pub const fn mirrored(self) -> Refill {
        match self {
            Refill::Left => Refill::Right,
            Refill::Right => Refill::Left,
        }
    }

    /// The choice seen through a symmetry of the board. A half turn keeps it: it swaps the
    /// players' seats along with the board.
    pub const fn transformed(self, sym: Symmetry) -> Refill {
        if sym.mirrors() {
            self.mirrored()
        } else {
            self
        }
    }
}

impl fmt::Display for Refill {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// Why a word is not a refill choice.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{text}` is not a refill choice: expected `left` or `right`")]
pub struct ParseRefillError {
    pub text: String,
}

impl FromStr for Refill {
    type Err = ParseRefillError;

    fn from_str(s: &str) -> Result<Refill, ParseRefillError> {
        match s.to_ascii_lowercase().as_str() {
            "left" => Ok(Refill::Left),
            "right" => Ok(Refill::Right),
            _ => Err(ParseRefillError { text: s.to_owned() }),
        }
    }
}

/// Why a position cannot be refilled.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RefillError {
    #[error("the round is not over yet: the home rows are refilled only between rounds")]
    RoundNotOver,
    #[error("{}", match_over_text(*winner, *single_round))]
    MatchOver { winner: Side, single_round: bool },
}

fn match_over_text(winner: Side, single_round: bool) -> String {
    if single_round {
        format!(
            "the game is over ({winner} won it): a single round has no next round to refill for"
        )
    } else {
        format!("the match is over ({winner} won it): there is no next round to refill for")
    }
}

impl MatchPosition {
    /// The start of the next round: both home rows refilled as the round's winner chose,
    /// the loser to move with a free choice of tower, every rank kept.
    pub fn refill(&self, choice: Refill) -> Result<MatchPosition, RefillError> {
        let end = self.round_end().ok_or(RefillError::RoundNotOver)?;
        if let Some(winner) = self.match_winner() {
            return Err(RefillError::MatchOver {
                winner,
                single_round: self.target() == Target::Single,
            });
        }
        let mut squares = [[Square::new(0); 8]; 2];
        for side in Side::ALL {
            let seat = match (side, choice) {
                (Side::Black, Refill::Left) => Symmetry::Identity,
                (Side::Black, Refill::Right) => Symmetry::Mirror,
                (Side::White, Refill::Left) => Symmetry::HalfTurn,
                (Side::White, Refill::Right) => Symmetry::HalfTurnMirror,
            };
            let mut placed = 0u8;
            for index in 0..64 {
                let sq = seat.square(Square::new(index));
                if let Some(colour) = self.board.colour_at(side, sq) {
                    squares[side.index()][colour.index()] = seat.square(Square::new(placed));
                    placed += 1;
                }
            }
        }
        Ok(MatchPosition::new(
            Board::from_squares(squares),
            // The winner's gain joins the board's ranks.
            self.rank_bits() + (1 << (2 * tower_index(end.promoted))),
            !end.winner,
            None,
            self.target(),
        ))
    }

    /// The refill choices open to the round's winner: both once a round has ended and the
    /// match has not, none otherwise.
    pub fn refill_choices(&self) -> &'static [Refill] {
        if self.is_round_over() && !self.is_match_over() {
            &Refill::ALL
        } else {
            &[]
        }
    }
}
