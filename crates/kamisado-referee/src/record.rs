//! Game records: the text `kamisado verify` reads and `kamisado match` writes.
//!
//! One game per line. A line is either a move list played from the single-round start
//! (`a1-a5 d8-d3 ...`) or a KEI `position` argument (`position startpos moves ...`,
//! `position <board> <side> <active> moves ...`), so a referee's log can be checked as
//! it is. Moves are written `a1-a5` and separated by spaces; zero-length moves may be left
//! out or written (`d7-d7`), and written ones must be the forced ones. `#` starts a
//! comment, on a line of its own or after the moves; blank lines are skipped.

use std::fmt;

use kamisado_core::notation::{play_line, LineErrorReason};
use kamisado_core::{Move, Position};
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
    /// A word that is not a move, or a move the rules forbid where it stands.
    #[error("move {number}{}: {reason}", .reason.naming(.token))]
    Move {
        /// 1-based number of the move (moves of positive length) that could not be
        /// played: the moves before it were played.
        number: usize,
        /// 1-based position of the word among the line's moves, counting written
        /// zero-length moves; differs from `number` only when some are written.
        word: usize,
        token: String,
        #[serde(serialize_with = "text_serde::display")]
        reason: LineErrorReason,
    },
}

/// A game replayed as far as the rules allow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    /// The start as written (it may have zero-length moves pending).
    pub given: Position,
    /// Whether the start was the single-round start.
    pub startpos: bool,
    /// The moves of positive length that were legal, in order.
    pub moves: Vec<Move>,
    /// `positions[0]` is the start with its pending zero-length moves played and
    /// `positions[i]` the position after `moves[i - 1]` and its zero-length moves: one
    /// more than there are moves, each with a side to move that can move (or a finished
    /// game).
    pub positions: Vec<Position>,
    /// Why the line stops early, if it does: the moves after it are not played.
    pub error: Option<RecordError>,
}

impl PlayedGame {
    /// Replays a move list from `start`, stopping at the first word that is not a legal
    /// move.
    pub fn play(start: &Position, startpos: bool, moves_text: &str) -> PlayedGame {
        let (moves, error) = match play_line(start, moves_text) {
            Ok(line) => (line.moves, None),
            Err(e) => {
                // Everything before the bad word plays, so its moves are the legal prefix.
                let before: Vec<&str> = moves_text.split_whitespace().take(e.number - 1).collect();
                let moves = play_line(start, &before.join(" "))
                    .map(|line| line.moves)
                    .unwrap_or_default();
                let error = RecordError::Move {
                    number: moves.len() + 1,
                    word: e.number,
                    token: e.token,
                    reason: e.reason,
                };
                (moves, Some(error))
            }
        };
        let mut positions = Vec::with_capacity(moves.len() + 1);
        let mut pos = start.resolve();
        positions.push(pos);
        for &m in &moves {
            pos = pos.play_unchecked(m);
            positions.push(pos);
        }
        PlayedGame {
            given: *start,
            startpos,
            moves,
            positions,
            error,
        }
    }

    /// Reads one record line: a bare move list from the start, or `position ...`.
    pub fn parse(line: &str) -> PlayedGame {
        let line = line.trim();
        let head = line.split_whitespace().next();
        if head != Some("position") {
            return PlayedGame::play(&Position::start(), true, line);
        }
        match split_position_args(&line["position".len()..]) {
            Ok((start, startpos, moves)) => PlayedGame::play(&start, startpos, moves),
            Err(reason) => PlayedGame {
                given: Position::start(),
                startpos: true,
                moves: Vec::new(),
                positions: vec![Position::start()],
                error: Some(RecordError::Start { reason }),
            },
        }
    }

    /// The position after the last legal move.
    pub fn end(&self) -> Position {
        // `positions` always holds the start.
        self.positions.last().copied().unwrap_or(self.given)
    }

    /// The zero-length moves that followed `moves[i]`, in order.
    pub fn zero_length_after(&self, i: usize) -> Vec<Move> {
        let Some((&m, &before)) = self.moves.get(i).zip(self.positions.get(i)) else {
            return Vec::new();
        };
        before
            .step_unchecked(m)
            .pending_zero_moves()
            .into_iter()
            .collect()
    }

    /// The game as a record line that [`PlayedGame::parse`] reads back: the bare moves
    /// from the single-round start, else `position <text> moves ...`.
    pub fn record(&self) -> String {
        record_text(&self.given, self.startpos, &self.moves)
    }
}

/// A record line for `moves` played from `start`.
pub fn record_text(start: &Position, startpos: bool, moves: &[Move]) -> String {
    let moves: Vec<String> = moves.iter().map(Move::to_string).collect();
    if startpos {
        moves.join(" ")
    } else if moves.is_empty() {
        format!("position {start}")
    } else {
        format!("position {start} moves {}", moves.join(" "))
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
        assert!(bad_word.error.unwrap().to_string().contains("not a move"));
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
        assert_eq!(startpos.record(), "a1-a5");
        assert_eq!(startpos, PlayedGame::parse("a1-a5"));

        let broken = PlayedGame::parse("position nonsense moves a1-a5");
        assert!(matches!(broken.error, Some(RecordError::Start { .. })));
    }
}
