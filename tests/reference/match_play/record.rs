//! Match records: the moves of all rounds, with the winner's `left` or `right` after every
//! round-ending move that does not end the match.

use crate::board::Side;

use super::position::MatchPosition;
use super::refill::RefillFrom;
use super::round_end::RoundEnd;

/// Where a match record leaves the match.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RecordOutcome {
    /// The position after the last token, as text. If the last token ended a round, this
    /// is the finished round (no rank gained yet; the scores below include it).
    pub position: String,
    /// Black's score, including a round the last token finished.
    pub black_score: u32,
    /// White's score, including a round the last token finished.
    pub white_score: u32,
    /// The winner of the match, if the record ends it.
    pub match_winner: Option<Side>,
    /// The end of the round the last token finished, if it finished one.
    pub round_end: Option<RoundEnd>,
}

/// Plays `record` (tokens separated by whitespace) from `start`. Err names the first bad
/// token by its number (from 1) and text: an illegal move, a refill word where a move is
/// due, a move where the refill word is due, or anything after the match has ended.
pub fn play_record(start: &MatchPosition, record: &str) -> Result<RecordOutcome, String> {
    let mut position = start.clone();
    let mut finished_round: Option<RoundEnd> = start.round_end();
    for (index, token) in record.split_whitespace().enumerate() {
        let number = index + 1;
        match finished_round {
            Some(end) if end.match_over => {
                return Err(format!(
                    "token {number} {token:?}: the match is already over ({}-{})",
                    end.black_score, end.white_score
                ));
            }
            Some(end) => {
                let from = RefillFrom::parse(token).map_err(|_| {
                    format!(
                        "token {number} {token:?}: the round has ended, so the winner's `left` or `right` is due"
                    )
                })?;
                position = position
                    .refill(&end, from)
                    .map_err(|e| format!("token {number} {token:?}: {e}"))?;
                finished_round = None;
            }
            None => {
                if RefillFrom::parse(token).is_ok() {
                    return Err(format!(
                        "token {number} {token:?}: no round has ended, so a move is due"
                    ));
                }
                let (next, end) = position.play(token).map_err(|_| {
                    format!(
                        "token {number} {token:?}: not a legal move in {}",
                        position.to_text()
                    )
                })?;
                position = next;
                finished_round = end;
            }
        }
    }
    let (black_score, white_score) = match finished_round {
        Some(end) => (end.black_score, end.white_score),
        None => (position.score(Side::Black), position.score(Side::White)),
    };
    Ok(RecordOutcome {
        position: position.to_text(),
        black_score,
        white_score,
        match_winner: finished_round
            .filter(|end| end.match_over)
            .map(|end| end.winner),
        round_end: finished_round,
    })
}
