//! Where a match stands, as reports give it: the target, the round, the score. Absent
//! for a single round, whose reports stay as they were.

use kamisado_core::Side;
use kamisado_match::{MatchPosition, Target};
use serde::Serialize;

/// Both players' points.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Score {
    pub black: u32,
    pub white: u32,
}

impl Score {
    pub fn of(pos: &MatchPosition) -> Score {
        Score {
            black: pos.score(Side::Black),
            white: pos.score(Side::White),
        }
    }
}

/// Where a match stands at a position.
#[derive(Clone, Debug, Serialize)]
pub struct Standing {
    /// The points that win the match: 3, 7 or 15.
    pub target: u32,
    /// The round being played, or just finished (counting from 1).
    pub round: u32,
    /// The points so far (after a finished round, with the winner's gain).
    pub score: Score,
    /// Once a round is over and the match is not: the round's winner, who chooses how
    /// the home rows are refilled, and the choices.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refill_by: Option<&'static str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub refill_choices: Vec<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub match_winner: Option<&'static str>,
}

impl Standing {
    /// `None` for a single round (target 1).
    pub fn of(pos: &MatchPosition) -> Option<Standing> {
        if pos.target() == Target::Single {
            return None;
        }
        let choices = pos.refill_choices();
        Some(Standing {
            target: pos.target().points(),
            round: pos.round_number(),
            score: Score::of(pos),
            refill_by: pos
                .round_end()
                .filter(|_| !choices.is_empty())
                .map(|end| end.winner.name()),
            refill_choices: choices.iter().map(|c| c.word()).collect(),
            match_winner: pos.match_winner().map(|w| w.name()),
        })
    }
}
