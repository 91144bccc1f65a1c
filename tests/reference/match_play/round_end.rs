//! The end of a round: who won, how, which tower gains a rank, the points and whether the
//! match is over.

use crate::board::{Colour, Side, Square};
use crate::position::EndReason;

use super::position::MatchPosition;

/// A finished round, as MATCH-RULES.md scores it.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct RoundEnd {
    /// The player who won the round.
    pub winner: Side,
    /// Goal row reached, or the loser's deadlock.
    pub reason: EndReason,
    /// The colour of the winner's tower that gains a rank: for a goal the tower that reached
    /// the row, for a deadlock the colour of the square where the loser's last positive
    /// move ended (after a push, the pusher's new square).
    pub gaining_colour: Colour,
    /// Where that tower stands when the round ends. `None` only in hand-made positions
    /// that lack the tower.
    pub gaining_square: Option<Square>,
    /// The points the round scores: 2^rank of the gaining tower before it gains (0 if the
    /// tower is missing).
    pub points: u32,
    /// Black's score after the round (the board's score plus the round's points if Black won).
    pub black_score: u32,
    /// White's score after the round.
    pub white_score: u32,
    /// The winner's score has reached the match target: no refill, the match is over.
    pub match_over: bool,
}

impl RoundEnd {
    /// Scores the round won by `winner` for `reason`, whose gaining tower is `winner`'s of
    /// `gaining_colour`, on the board of `finished` (the position the round ended in, no rank
    /// gained yet).
    pub(crate) fn new(
        finished: &MatchPosition,
        winner: Side,
        reason: EndReason,
        gaining_colour: Colour,
    ) -> RoundEnd {
        let gaining_square = finished.find_tower(winner, gaining_colour);
        let points = gaining_square
            .and_then(|square| finished.tower_at(square))
            .map_or(0, |tower| 1 << tower.rank);
        let score_after =
            |side: Side| finished.score(side) + if side == winner { points } else { 0 };
        RoundEnd {
            winner,
            reason,
            gaining_colour,
            gaining_square,
            points,
            black_score: score_after(Side::Black),
            white_score: score_after(Side::White),
            match_over: score_after(winner) >= finished.target,
        }
    }

    /// `side`'s score after the round.
    pub fn score(&self, side: Side) -> u32 {
        match side {
            Side::Black => self.black_score,
            Side::White => self.white_score,
        }
    }

    /// One line for comparing round ends as text:
    /// `<winner b|w> <goal|deadlock> <gaining square or -> <gaining colour> +<points>
    /// <black score>-<white score>`, then ` over` if the match is over.
    /// Example: `b goal h8 y +1 1-0`.
    pub fn to_text(&self) -> String {
        let reason = match self.reason {
            EndReason::Goal => "goal",
            EndReason::Deadlock => "deadlock",
        };
        let square = self
            .gaining_square
            .map_or_else(|| "-".to_string(), Square::name);
        let over = if self.match_over { " over" } else { "" };
        format!(
            "{} {reason} {square} {} +{} {}-{}{over}",
            self.winner.code(),
            self.gaining_colour.code(),
            self.points,
            self.black_score,
            self.white_score
        )
    }
}
