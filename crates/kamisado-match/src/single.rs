//! A round without Sumos is a single round: the bridge to the core's position.
//!
//! Ranks change only when a round ends, so a round that starts with no ranked tower on the
//! board is played to its end by exactly the single round's rules (the property tests
//! check it move for move). Such a round can therefore be solved as the core's game, with
//! its smaller key and its database, and only rounds with a Sumo on the board need the
//! match round's own search. [`MatchPosition::single_round`] is that test and conversion.

use kamisado_core::Position;

use crate::{MatchPosition, MatchSetup, Target};

impl MatchPosition {
    /// Whether a tower on the board has a rank (a Sumo of any degree), counting the board
    /// as the round is played: a finished round's gain is not on the board yet.
    #[inline]
    pub fn has_sumo(&self) -> bool {
        self.rank_bits() != 0
    }

    /// The same round as a single-round position, if no tower on the board has a rank:
    /// the same towers, side, active colour and end (or pending zero-length moves). Its
    /// moves, their results and the round's winner are the core's. `None` with a Sumo on
    /// the board.
    pub fn single_round(&self) -> Option<Position> {
        if self.has_sumo() {
            return None;
        }
        // Without Sumos there are no pushes, so every state is one the core can hold (a
        // deadlock right after a push, which it cannot, needs a Sumo).
        Position::from_setup(self.to_setup().round).ok()
    }

    /// A single-round position as a position of a match to `target` with every tower
    /// plain (the start of a match's first round, or a position of it).
    ///
    /// # Panics
    ///
    /// Never for a position built by the core: every single-round position is a match
    /// position with no ranks (the tests check it on random positions).
    pub fn from_single_round(pos: &Position, target: Target) -> MatchPosition {
        let setup = MatchSetup {
            round: pos.to_setup(),
            ranks: [[0; 8]; 2],
            target,
        };
        MatchPosition::from_setup(setup)
            .expect("a single-round position is a match position without ranks")
    }
}
