//! Match records: the moves of every round, with the winner's refill choice after each
//! round that does not end the match.
//!
//! `a1-a5 d8-d3 ... a6-c8 left h1-h3 ...`. Zero-length moves and skipped turns are never
//! written. [`MatchRecord`] is also the state a program keeps while a match is played: the
//! start, moves and result of every round, and the refill choices.

use std::fmt;

use kamisado_core::{EndReason, Move, ParseMoveError};

use crate::{IllegalMatchMove, MatchPosition, Refill, RefillError, RoundEnd, Target};

/// One round of a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundRecord {
    /// The position the round started from (for the first round of a record, the record's
    /// start, which may be any position).
    pub start: MatchPosition,
    /// The moves of positive length, in order.
    pub moves: Vec<Move>,
    pub result: Option<RoundEnd>,
    /// The winner's choice for the next round, once made.
    pub refill: Option<Refill>,
}

/// A match played from a position: every round's moves, results and refill choices, and
/// where they lead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchRecord {
    rounds: Vec<RoundRecord>,
    current: MatchPosition,
}

impl MatchRecord {
    /// An empty record from `start` (its pending zero-length moves played).
    pub fn new(start: MatchPosition) -> MatchRecord {
        let start = start.resolve();
        let result = start.round_end();
        MatchRecord {
            rounds: vec![RoundRecord {
                start,
                moves: Vec::new(),
                result,
                refill: None,
            }],
            current: start,
        }
    }

    /// The rounds so far, the last one possibly unfinished (or finished and waiting for
    /// the refill choice).
    pub fn rounds(&self) -> &[RoundRecord] {
        &self.rounds
    }

    pub fn start(&self) -> MatchPosition {
        self.rounds[0].start
    }

    /// Where the record has got to.
    pub fn current(&self) -> MatchPosition {
        self.current
    }

    /// The number of the current round, counting from 1 as the ranks count them (see
    /// [`MatchPosition::round_number`]).
    pub fn round_number(&self) -> u32 {
        self.current.round_number()
    }

    fn last_round(&mut self) -> &mut RoundRecord {
        self.rounds.last_mut().expect("a record has a round")
    }

    /// Plays a move of positive length in the current round.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMatchMove> {
        let next = self.current.play(m)?;
        let round = self.last_round();
        round.moves.push(m);
        round.result = next.round_end();
        self.current = next;
        Ok(())
    }

    /// Makes the round winner's refill choice and starts the next round.
    pub fn refill(&mut self, choice: Refill) -> Result<(), RefillError> {
        let next = self.current.refill(choice)?;
        self.last_round().refill = Some(choice);
        self.rounds.push(RoundRecord {
            start: next,
            moves: Vec::new(),
            result: None,
            refill: None,
        });
        self.current = next;
        Ok(())
    }

    /// Reads a record played from `start`: moves like `a1-a5`, and after each round that
    /// does not end the match the word `left` or `right`.
    ///
    /// Zero-length moves are never needed. As in the single round's records, one may be
    /// written where it is the forced one (`d7-d7`, in the order the chain plays them),
    /// and after a deadlock the chain's zero-length moves may be written on round the
    /// circle; any other zero-length move is refused.
    pub fn parse(start: MatchPosition, text: &str) -> Result<MatchRecord, RecordError> {
        let mut record = MatchRecord::new(start);
        // The position as the last token left it, before the zero-length moves that
        // follow: where a written zero-length move is checked.
        let mut written = start;
        for (i, token) in text.split_whitespace().enumerate() {
            let (round, move_number) = (
                record.round_number(),
                record.rounds[record.rounds.len() - 1].moves.len() + 1,
            );
            let error = |reason: RecordErrorReason| RecordError {
                token_number: i + 1,
                token: token.to_owned(),
                round,
                move_number,
                reason,
            };
            let pos = record.current;
            let single_round = pos.target() == Target::Single;
            if let Ok(choice) = token.parse::<Refill>() {
                if let Some(winner) = pos.match_winner() {
                    return Err(error(RecordErrorReason::AfterMatchEnd {
                        winner,
                        single_round,
                    }));
                }
                record.refill(choice).map_err(|e| {
                    error(match e {
                        RefillError::RoundNotOver => RecordErrorReason::RefillNotDue,
                        RefillError::MatchOver { winner, .. } => RecordErrorReason::AfterMatchEnd {
                            winner,
                            single_round,
                        },
                    })
                })?;
                written = record.current;
                continue;
            }
            let m: Move = token.parse().map_err(|e: ParseMoveError| {
                error(if token.contains('-') {
                    RecordErrorReason::Parse(e)
                } else {
                    RecordErrorReason::NotAToken
                })
            })?;
            if m.is_zero_length() {
                if written.forced_zero_move() == Some(m) || around_deadlock(&written, m) {
                    written = written.step_zero_length(m);
                    continue;
                }
                return Err(error(RecordErrorReason::ZeroLength));
            }
            if let Some(winner) = pos.match_winner() {
                return Err(error(RecordErrorReason::AfterMatchEnd {
                    winner,
                    single_round,
                }));
            }
            if let Some(end) = pos.round_end() {
                return Err(error(RecordErrorReason::RefillMissing {
                    winner: end.winner,
                    reason: end.reason,
                }));
            }
            record
                .play(m)
                .map_err(|e| error(RecordErrorReason::Illegal(e)))?;
            written = pos.step_unchecked(m);
        }
        Ok(record)
    }
}

/// Whether `m` walks on round the chain of a round just ended by deadlock: the
/// zero-length move of the blocked tower whose turn it would be.
fn around_deadlock(pos: &MatchPosition, m: Move) -> bool {
    matches!(pos.round_end(), Some(end) if end.reason == EndReason::Deadlock)
        && pos
            .active_tower()
            .is_some_and(|t| pos.board().square_of(t) == m.from())
}

/// The record text: every move, and the refill words.
impl fmt::Display for MatchRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut separator = "";
        for round in &self.rounds {
            for m in &round.moves {
                write!(f, "{separator}{m}")?;
                separator = " ";
            }
            if let Some(choice) = round.refill {
                write!(f, "{separator}{choice}")?;
                separator = " ";
            }
        }
        Ok(())
    }
}

/// Why a match record cannot be read, and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("token {token_number} `{token}` (round {round}, move {move_number}): {reason}")]
pub struct RecordError {
    /// 1-based position of the token in the record.
    pub token_number: usize,
    pub token: String,
    /// The round the token would belong to.
    pub round: u32,
    /// 1-based number of the move within its round that the token would be.
    pub move_number: usize,
    pub reason: RecordErrorReason,
}

impl RecordError {
    /// Where and why, as the command line, the board and the referee say it: `move 3:
    /// `zz` is neither ...`, or in a match (`in_match`) `round 2, move 1 `a8-a7`:
    /// illegal: ...`.
    pub fn text(&self, in_match: bool) -> String {
        record_error_text(
            self.move_number,
            &self.token,
            in_match.then_some(self.round),
            &self.reason,
        )
    }
}

/// The words of a record error: the move's number (within its `round`, named in a
/// match), then the word and its reason, each word named once (a word that is no move at
/// all is quoted by the move parser's own message already).
pub fn record_error_text(
    number: usize,
    token: &str,
    round: Option<u32>,
    reason: &RecordErrorReason,
) -> String {
    let round = round.map_or(String::new(), |r| format!("round {r}, "));
    let naming = match reason {
        RecordErrorReason::Parse(_) => format!(": {reason}"),
        RecordErrorReason::NotAToken => format!(
            ": `{}` is neither a move (like `a1-a5`) nor a refill choice (`left` or `right`)",
            kamisado_core::quote(token)
        ),
        _ => format!(" `{}`: {reason}", kamisado_core::quote(token)),
    };
    format!("{round}move {number}{naming}")
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordErrorReason {
    #[error("neither a move (like `a1-a5`) nor a refill choice (`left` or `right`)")]
    NotAToken,
    #[error(transparent)]
    Parse(#[from] ParseMoveError),
    #[error("illegal: {0}")]
    Illegal(#[from] IllegalMatchMove),
    #[error("zero-length moves are played automatically and need not be written; this one is not the forced one here")]
    ZeroLength,
    #[error(
        "a refill choice comes only after the move that ends a round, and this round is not over"
    )]
    RefillNotDue,
    #[error("the round is over ({winner} won it by {}): the winner's refill choice, `left` or `right`, must come before the next round's moves", reason.name())]
    RefillMissing {
        winner: kamisado_core::Side,
        reason: EndReason,
    },
    #[error("the {} is over ({winner} won it): nothing may follow", crate::over_word(*single_round))]
    AfterMatchEnd {
        winner: kamisado_core::Side,
        /// A single round: the game (its only round) is over.
        single_round: bool,
    },
}
