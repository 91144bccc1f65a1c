//! An unvalidated match position, and why one may not be a position of a match.
//!
//! The single-round [`Setup`] (towers, side to move, active colour) plus what match play
//! adds: a rank per tower and the target. [`MatchPosition::from_setup`] checks it with
//! everything the single round checks (reported as the core's own [`PositionError`]) and
//! the ranks against the target.
//!
//! [`MatchPosition::from_setup`]: crate::MatchPosition::from_setup

use kamisado_core::{PositionError, Setup, Side, Tower};

use crate::{rank, Target};

/// Towers, ranks, side to move, active colour and target, as given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MatchSetup {
    /// Where the towers stand, whose turn it is and which tower must move.
    pub round: Setup,
    /// The rank of every tower, indexed `[side][colour]`, as on the board while the round is
    /// played: a finished round's gain is not included (the rules add it).
    pub ranks: [[u8; 8]; 2],
    pub target: Target,
}

impl MatchSetup {
    /// A setup of a single round: every rank 0, target 1.
    pub fn single_round(round: Setup) -> MatchSetup {
        MatchSetup {
            round,
            ranks: [[0; 8]; 2],
            target: Target::Single,
        }
    }

    pub fn rank(&self, tower: Tower) -> u8 {
        self.ranks[tower.side.index()][tower.colour.index()]
    }

    pub fn set_rank(&mut self, tower: Tower, rank: u8) -> &mut MatchSetup {
        self.ranks[tower.side.index()][tower.colour.index()] = rank;
        self
    }
}

/// A tower ranked past what a round of `target` allows: a single round has no Sumos at
/// all (it is not part of a match), a match's round none worth the target.
fn rank_beyond_target_text(tower: Tower, rank: u8, target: Target) -> String {
    if target == Target::Single {
        format!(
            "the {tower} tower has rank {rank} ({}), but a single round has no Sumos: they come from the rounds of a match (a match position ends with its target, like `w - 3`)",
            rank::name(rank)
        )
    } else {
        format!(
            "the {tower} tower has rank {rank} ({}), but in a {target} no tower is more than a {} while a round is played: a {} would already have ended the match",
            rank::name(rank),
            rank::name(target.max_rank()),
            rank::name(target.max_rank() + 1)
        )
    }
}

impl MatchPositionError {
    /// Whether the error is about the match (its ranks, score or key) rather than the
    /// board of a round: a single round's position is not said to be a match's.
    pub fn is_about_a_match(&self) -> bool {
        match self {
            MatchPositionError::Round(_) => false,
            MatchPositionError::RankBeyondTarget { target, .. }
            | MatchPositionError::ScoreReached { target, .. } => *target != Target::Single,
            MatchPositionError::BadKey(_) => true,
        }
    }
}

/// Why a [`MatchSetup`] is not a position of a match.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MatchPositionError {
    /// Not even a position of a single round (or of one with these Sumos).
    #[error(transparent)]
    Round(#[from] PositionError),
    #[error("{}", rank_beyond_target_text(*tower, *rank, *target))]
    RankBeyondTarget {
        tower: Tower,
        rank: u8,
        target: Target,
    },
    #[error("{side}'s towers are worth {score} points, which reaches the target of the {target}: the match would already be over")]
    ScoreReached {
        side: Side,
        score: u32,
        target: Target,
    },
    #[error("{0:x?} is not a match position key")]
    BadKey([u64; 3]),
}
