//! Text for people and programs: the one-line position text, and move lists.
//!
//! Position text, three fields separated by spaces: `<board> <side> <active>`.
//! - `<board>`: ranks 8 down to 1 separated by `/`, each from file a to h; a digit 1-8
//!   counts empty squares, a letter is a tower: its colour code (`o`range, `b`lue,
//!   p`u`rple, `p`ink, `y`ellow, `r`ed, `g`reen, brow`n`), upper case for Black, lower
//!   case for White.
//! - `<side>`: `b` or `w`, the side to move.
//! - `<active>`: `-` for a free move (the opening move of a round), else the colour code of
//!   the tower the side to move must move.
//!
//! The start is `obupyrgn/8/8/8/8/8/8/NGRYPUBO b -`.

use std::fmt;
use std::str::FromStr;

use crate::{
    quote, Colour, EndReason, IllegalMove, Move, ParseMoveError, Position, PositionError, Setup,
    Side, Square, Tower,
};

/// Why a position text is not a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParsePositionError {
    #[error("position text has {found} field(s), expected 3: `<board> <side> <active>` like `obupyrgn/8/8/8/8/8/8/NGRYPUBO b -`")]
    Fields { found: usize },
    #[error("board `{}` has {found} rank(s), expected 8 separated by `/`", quote(.board))]
    RankCount { board: String, found: usize },
    #[error("rank {rank} `{}` describes {squares} squares, expected 8", quote(.text))]
    RankLength {
        rank: u8,
        text: String,
        squares: u32,
    },
    #[error("rank {rank}: `{}` is neither a digit 1-8 nor a tower letter (o b u p y r g n; upper case for Black)", quote(&.ch.to_string()))]
    BadChar { rank: u8, ch: char },
    #[error("tower `{}` ({tower}) appears twice, on {first} and {second}", tower.char())]
    DuplicateTower {
        tower: Tower,
        first: Square,
        second: Square,
    },
    #[error("side to move `{}`: expected `b` or `w`", quote(.token))]
    Side { token: String },
    #[error("active colour `{}`: expected `-` or a colour letter o b u p y r g n", quote(.token))]
    Active { token: String },
    #[error("not a legal position: {0}")]
    Illegal(#[from] PositionError),
}

impl FromStr for Setup {
    type Err = ParsePositionError;

    fn from_str(text: &str) -> Result<Setup, ParsePositionError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let &[board, side, active] = fields.as_slice() else {
            return Err(ParsePositionError::Fields {
                found: fields.len(),
            });
        };
        let turn = match side {
            "b" | "B" => Side::Black,
            "w" | "W" => Side::White,
            _ => {
                return Err(ParsePositionError::Side {
                    token: side.to_owned(),
                })
            }
        };
        let active = match active {
            "-" => None,
            token => Some(
                Colour::from_name(token).ok_or_else(|| ParsePositionError::Active {
                    token: token.to_owned(),
                })?,
            ),
        };
        let mut setup = Setup::empty(turn, active);
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 8 {
            return Err(ParsePositionError::RankCount {
                board: board.to_owned(),
                found: ranks.len(),
            });
        }
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = 7 - i as u8;
            let mut file = 0u32;
            for ch in rank_text.chars() {
                if let Some(d @ 1..=8) = ch.to_digit(10) {
                    file += d;
                } else if let Some(tower) = Tower::from_char(ch) {
                    if file < 8 {
                        let sq = Square::from_coords(file as u8, rank);
                        if let Some(first) = setup.square_of(tower) {
                            return Err(ParsePositionError::DuplicateTower {
                                tower,
                                first,
                                second: sq,
                            });
                        }
                        setup.place(tower, sq);
                    }
                    file += 1;
                } else {
                    return Err(ParsePositionError::BadChar { rank: rank + 1, ch });
                }
            }
            if file != 8 {
                return Err(ParsePositionError::RankLength {
                    rank: rank + 1,
                    text: (*rank_text).to_owned(),
                    squares: file,
                });
            }
        }
        Ok(setup)
    }
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.tower_at(Square::from_coords(file, rank)) {
                    Some(tower) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{}", tower.char())?;
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        let active = self.active.map_or('-', Colour::char);
        write!(f, " {} {}", self.turn.char(), active)
    }
}

impl FromStr for Position {
    type Err = ParsePositionError;

    fn from_str(text: &str) -> Result<Position, ParsePositionError> {
        Ok(Position::from_setup(text.parse()?)?)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.to_setup().fmt(f)
    }
}

/// Why a move list cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {number}{}: {reason}", reason.naming(.token))]
pub struct LineError {
    /// 1-based position of the token in the list.
    pub number: usize,
    pub token: String,
    pub reason: LineErrorReason,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LineErrorReason {
    #[error(transparent)]
    Parse(#[from] ParseMoveError),
    #[error("illegal: {0}")]
    Illegal(#[from] IllegalMove),
}

impl LineErrorReason {
    /// ` `token`` to name the move's word before this reason, or nothing where the
    /// reason quotes it already (a word that is not a move): each word once.
    pub fn naming(&self, token: &str) -> String {
        match self {
            LineErrorReason::Parse(_) => String::new(),
            LineErrorReason::Illegal(_) => format!(" `{}`", quote(token)),
        }
    }
}

/// A game played from a position: the moves of positive length and where they lead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub start: Position,
    /// The moves of positive length, in order.
    pub moves: Vec<Move>,
    /// The position after the last move and the zero-length moves that follow it.
    pub end: Position,
}

/// Plays a space-separated move list (`a1-a5 d8-d3 ...`) from `start`.
///
/// Zero-length moves happen on their own and need not be written; where written (`d7-d7`)
/// they must be the forced one, and they may continue around a deadlocked chain.
pub fn play_line(start: &Position, text: &str) -> Result<Line, LineError> {
    let mut pos = *start;
    let mut moves = Vec::new();
    for (i, token) in text.split_whitespace().enumerate() {
        let error = |reason: LineErrorReason| LineError {
            number: i + 1,
            token: token.to_owned(),
            reason,
        };
        let m: Move = token.parse().map_err(|e: ParseMoveError| error(e.into()))?;
        if m.is_zero_length() {
            let deadlocked_chain = matches!(pos.end(), Some(end) if end.reason == EndReason::Deadlock)
                && pos.active_tower().map(|t| pos.board().square_of(t)) == Some(m.from());
            if pos.forced_zero_move() != Some(m) && !deadlocked_chain {
                pos.check_move(m).map_err(|e| error(e.into()))?;
            }
            pos = pos.step_unchecked(m);
        } else {
            pos = pos.resolve();
            pos.check_move(m).map_err(|e| error(e.into()))?;
            pos = pos.step_unchecked(m);
            moves.push(m);
        }
    }
    Ok(Line {
        start: *start,
        moves,
        end: pos.resolve(),
    })
}
