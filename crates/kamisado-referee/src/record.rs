//! Game records: the text `kamisado verify` reads and `kamisado match` writes.
//!
//! One game per line. A line is either a move list played from the start (`a1-a5 d8-d3
//! ...`; the single round's start unless the caller names another) or a KEI `position`
//! argument (`position startpos moves ...`, `position <board> <side> <active> [<target>]
//! moves ...`), so a referee's log can be checked as it is. A game of a match is a match
//! record: the moves of every round, with the round winner's `left` or `right` after each
//! round that does not end the match. Moves are written `a1-a5` and separated by spaces;
//! zero-length moves may be left out or written (`d7-d7`), and written ones must be the
//! forced ones. `#` starts a comment, on a line of its own or after the moves; blank
//! lines are skipped.

use std::fmt;

use kamisado_core::Move;
use kamisado_match::{MatchPosition, MatchRecord, RecordErrorReason, Target};
use serde::Serialize;

use crate::protocol::{split_position_args, SpecError};
use crate::text_serde;

/// One game's line of a record file, comment removed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordLine {
    /// 1-based line number in the file.
    pub line: usize,
    pub text: String,
}

/// The games of a record file: every line that is not blank once its comment is removed.
pub fn record_lines(text: &str) -> Vec<RecordLine> {
    text.lines()
        .enumerate()
        .filter_map(|(i, line)| {
            let game = line.split('#').next().unwrap_or("").trim();
            (!game.is_empty()).then(|| RecordLine {
                line: i + 1,
                text: game.to_owned(),
            })
        })
        .collect()
}

/// Why a game record stops before its last word.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RecordError {
    /// The `position ...` head of the line is not a position.
    #[error("{reason}")]
    Start {
        #[serde(serialize_with = "text_serde::display")]
        reason: SpecError,
    },
    /// A word that is not a move or a refill choice, or one the rules forbid where it
    /// stands.
    #[error("{}", kamisado_match::record_error_text(*.number, .token, *.round, .reason))]
    Move {
        /// 1-based number, within its round, of the move (moves of positive length) that
        /// could not be played: everything before it was played.
        number: usize,
        /// 1-based position of the word among the line's moves, counting written
        /// zero-length moves and refill words.
        word: usize,
        token: String,
        /// The round the word belongs to, in a match (a target above one point).
        #[serde(skip_serializing_if = "Option::is_none")]
        round: Option<u32>,
        #[serde(serialize_with = "text_serde::display")]
        reason: RecordErrorReason,
    },
}

impl RecordError {
    /// The error of a match record read from `start`, numbered as game records number
    /// them (the round is named only in a match).
    pub fn of_record(e: kamisado_match::RecordError, start: &MatchPosition) -> RecordError {
        RecordError::Move {
            number: e.move_number,
            word: e.token_number,
            token: e.token,
            round: (start.target() != Target::Single).then_some(e.round),
            reason: e.reason,
        }
    }
}

/// A game replayed as far as the rules allow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    /// The start as written (it may have zero-length moves pending).
    pub given: MatchPosition,
    /// Whether the start was the single-round start, written `startpos` or left out.
    pub startpos: bool,
    /// Everything legal that was played: every round, its moves, result and refill choice.
    pub record: MatchRecord,
    /// The moves of positive length that were legal, in order, over all rounds.
    pub moves: Vec<Move>,
    /// `positions[i]` is the position `moves[i]` was played from (zero-length moves
    /// played), and the last one is where the record got to (after a refill choice, the
    /// next round's start): one more than there are moves.
    pub positions: Vec<MatchPosition>,
    /// Why the line stops early, if it does: the words after it are not played.
    pub error: Option<RecordError>,
}

impl PlayedGame {
    /// Replays a record from `start`, stopping at the first word that is not a legal move
    /// or refill choice.
    pub fn play(start: &MatchPosition, startpos: bool, text: &str) -> PlayedGame {
        let (record, error) = match MatchRecord::parse(*start, text) {
            Ok(record) => (record, None),
            Err(e) => {
                // Everything before the bad word plays, so its record is the legal prefix.
                let before: Vec<&str> = text.split_whitespace().take(e.token_number - 1).collect();
                let record = MatchRecord::parse(*start, &before.join(" "))
                    .unwrap_or_else(|_| MatchRecord::new(*start));
                (record, Some(RecordError::of_record(e, start)))
            }
        };
        let mut moves = Vec::new();
        let mut positions = Vec::new();
        for round in record.rounds() {
            let mut pos = round.start;
            for &m in &round.moves {
                positions.push(pos);
                moves.push(m);
                pos = pos.play_unchecked(m);
            }
        }
        positions.push(record.current());
        PlayedGame {
            given: *start,
            startpos,
            record,
            moves,
            positions,
            error,
        }
    }

    /// Reads one record line: a bare move list from the single-round start, or
    /// `position ...`.
    pub fn parse(line: &str) -> PlayedGame {
        PlayedGame::parse_from(line, &MatchPosition::start(Target::Single))
    }

    /// Reads one record line: a bare move list from `start`, or `position ...`.
    pub fn parse_from(line: &str, start: &MatchPosition) -> PlayedGame {
        let line = line.trim();
        let head = line.split_whitespace().next();
        if head != Some("position") {
            return PlayedGame::play(start, is_startpos(start), line);
        }
        match split_position_args(&line["position".len()..]) {
            Ok((start, startpos, moves)) => PlayedGame::play(&start, startpos, moves),
            Err(reason) => PlayedGame {
                given: *start,
                startpos: is_startpos(start),
                record: MatchRecord::new(*start),
                moves: Vec::new(),
                positions: vec![start.resolve()],
                error: Some(RecordError::Start { reason }),
            },
        }
    }

    /// Where the record got to.
    pub fn end(&self) -> MatchPosition {
        // `positions` always holds the start.
        self.positions.last().copied().unwrap_or(self.given)
    }

    /// The position right after `moves[i]` and its zero-length moves: `positions[i + 1]`,
    /// unless the move ended a round that a refill choice then followed.
    pub fn after(&self, i: usize) -> MatchPosition {
        self.positions[i].play_unchecked(self.moves[i])
    }

    /// The zero-length moves that followed `moves[i]`, in order.
    pub fn zero_length_after(&self, i: usize) -> Vec<Move> {
        let Some((&m, &before)) = self.moves.get(i).zip(self.positions.get(i)) else {
            return Vec::new();
        };
        before.step_unchecked(m).pending_zero_moves()
    }

    /// The game as a record line that [`PlayedGame::parse`] reads back: the bare moves
    /// from the single-round start, else `position <text> moves ...`.
    pub fn record(&self) -> String {
        record_text(&self.given, self.startpos, &self.record)
    }
}

/// Whether `start` is the single round's start, which records leave out.
fn is_startpos(start: &MatchPosition) -> bool {
    *start == MatchPosition::start(Target::Single)
}

/// A record line for `record` played from `start`.
pub fn record_text(start: &MatchPosition, startpos: bool, record: &MatchRecord) -> String {
    let actions = record.to_string();
    if startpos {
        actions
    } else if actions.is_empty() {
        format!("position {start}")
    } else {
        format!("position {start} moves {actions}")
    }
}

impl fmt::Display for PlayedGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.record())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_blank_lines_are_not_games() {
        let text = "# a file\n\na1-a5 d8-d3 # Black opens\n   \n  # indented comment\nh1-h7\n";
        let lines = record_lines(text);
        assert_eq!(
            lines,
            vec![
                RecordLine {
                    line: 3,
                    text: "a1-a5 d8-d3".into()
                },
                RecordLine {
                    line: 6,
                    text: "h1-h7".into()
                }
            ]
        );
    }

    #[test]
    fn an_illegal_move_stops_the_game_with_its_number() {
        let game = PlayedGame::parse("a1-a5 d8-d3 a5-a4");
        assert_eq!(game.moves.len(), 2);
        assert_eq!(game.positions.len(), 3);
        match game.error {
            Some(RecordError::Move {
                number,
                word,
                ref token,
                ..
            }) => {
                assert_eq!((number, word, token.as_str()), (3, 3, "a5-a4"));
            }
            ref other => panic!("{other:?}"),
        }
        let text = game.error.unwrap().to_string();
        assert!(text.starts_with("move 3 `a5-a4`: illegal"), "{text}");

        let bad_word = PlayedGame::parse("a1-a5 hello");
        let text = bad_word.error.unwrap().to_string();
        assert!(text.contains("neither a move"), "{text}");
    }

    #[test]
    fn position_heads_are_read_and_written_back() {
        let line = "position 1b1pyrgn/7O/2u5/3o4/8/8/8/NGRYPUB1 b o moves h7-h7";
        let game = PlayedGame::parse(line);
        assert_eq!(game.error, None);
        assert!(game.moves.is_empty());
        assert_ne!(game.positions[0], game.given, "the pending move is played");
        assert_eq!(
            game.record(),
            "position 1b1pyrgn/7O/2u5/3o4/8/8/8/NGRYPUB1 b o"
        );

        let startpos = PlayedGame::parse("position startpos moves a1-a5");
        assert!(startpos.startpos);
        assert_eq!(startpos.record(), "a1-a5");
        assert_eq!(startpos, PlayedGame::parse("a1-a5"));

        let broken = PlayedGame::parse("position nonsense moves a1-a5");
        assert!(matches!(broken.error, Some(RecordError::Start { .. })));
    }

    #[test]
    fn match_records_play_every_round() {
        let line =
            "position obupyrgn/8/8/8/8/8/8/NGRYPUBO b - 3 moves g1-g7 h8-h6 g7-h8 left b8-b2";
        let game = PlayedGame::parse(line);
        assert_eq!(game.error, None);
        assert_eq!(game.moves.len(), 4);
        assert_eq!(game.positions.len(), 5);
        // The round-ending move leads to the finished round; the next position is the
        // second round's start, after the refill.
        assert!(game.after(2).is_round_over());
        assert_eq!(
            game.positions[3].to_string(),
            "nobupyrg/8/8/8/8/8/8/NGRYPUOB+ w - 3"
        );
        assert_eq!(game.record(), line);
        assert_eq!(PlayedGame::parse(&game.record()), game);

        // Bare moves from a match's start, and an error that names the round.
        let start = MatchPosition::start(Target::Standard);
        let stopped = PlayedGame::parse_from("g1-g7 h8-h6 g7-h8 b8-b2", &start);
        let error = stopped.error.clone().unwrap();
        assert!(
            error
                .to_string()
                .starts_with("round 1, move 4 `b8-b2`: the round is over"),
            "{error}"
        );
        assert_eq!(stopped.moves.len(), 3);
        assert!(stopped.end().is_round_over());
        assert!(stopped
            .record()
            .starts_with("position obupyrgn/8/8/8/8/8/8/NGRYPUBO b - 3 moves"));
    }
}
