//! Text for people and programs: layouts, moves, and game records.
//!
//! - **Layout text**: the rows `a`..`g` separated by `/`, each row its chips from left to
//!   right with no separator (`5a`: five symbols `a`; `--`: the first-player chip), e.g.
//!   `1a2b3c4d/5e6f1b2c3d/...`. Rows have 4, 5, 6, 7, 6, 5, 4 chips.
//! - **Move text**: the cell, e.g. `b1`.
//! - **Record text** (the position text): the layout text, then the moves played from the
//!   start, all separated by spaces: `<layout> b1 e4 c2`. A record with no moves is the
//!   start of a game on that layout.

use std::fmt;
use std::str::FromStr;

use crate::cell::ROW_LENGTHS;
use crate::{
    Cell, Chip, IllegalMove, Layout, LayoutError, ParseCellError, ParseChipError, Position,
    CELL_COUNT,
};

/// Why a layout text is not a layout.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseLayoutError {
    #[error("a layout has 7 rows (a to g) separated by `/`, and `{text}` has {found}")]
    RowCount { text: String, found: usize },
    #[error("row {row} `{text}` has {found} chips, and row {row} has {expected} cells")]
    RowLength {
        row: char,
        text: String,
        found: usize,
        expected: usize,
    },
    #[error(
        "row {row} `{text}` has an odd number of characters: every chip is two (like `5a` or `--`)"
    )]
    OddRow { row: char, text: String },
    #[error("the chip for {cell}: {source}")]
    Chip {
        cell: Cell,
        #[source]
        source: ParseChipError,
    },
    #[error(transparent)]
    Layout(#[from] LayoutError),
}

impl FromStr for Layout {
    type Err = ParseLayoutError;

    fn from_str(text: &str) -> Result<Layout, ParseLayoutError> {
        let rows: Vec<&str> = text.split('/').collect();
        if rows.len() != ROW_LENGTHS.len() {
            return Err(ParseLayoutError::RowCount {
                text: text.to_owned(),
                found: rows.len(),
            });
        }
        let mut chips = [Chip::FIRST_PLAYER; CELL_COUNT];
        let mut cells = Cell::ALL.into_iter();
        for ((row, row_text), &length) in ('a'..).zip(&rows).zip(&ROW_LENGTHS) {
            let chars: Vec<char> = row_text.chars().collect();
            if !chars.len().is_multiple_of(2) {
                return Err(ParseLayoutError::OddRow {
                    row,
                    text: (*row_text).to_owned(),
                });
            }
            if chars.len() / 2 != length as usize {
                return Err(ParseLayoutError::RowLength {
                    row,
                    text: (*row_text).to_owned(),
                    found: chars.len() / 2,
                    expected: length as usize,
                });
            }
            for (token, cell) in chars.chunks(2).zip(&mut cells) {
                let token: String = token.iter().collect();
                chips[cell.index()] = token
                    .parse()
                    .map_err(|source| ParseLayoutError::Chip { cell, source })?;
            }
        }
        Ok(Layout::new(chips)?)
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for cell in Cell::ALL {
            if cell.number() == 1 && cell.row() > 0 {
                f.write_str("/")?;
            }
            write!(f, "{}", self.chip(cell))?;
        }
        Ok(())
    }
}

/// Why a move list cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {number} `{token}`: {reason}")]
pub struct MoveListError {
    /// The move's number in the game, 1 for the first move.
    pub number: usize,
    pub token: String,
    pub reason: MoveProblem,
}

/// What is wrong with one move of a list.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveProblem {
    #[error(transparent)]
    Cell(#[from] ParseCellError),
    #[error("illegal: {0}")]
    Illegal(#[from] IllegalMove),
}

/// Why a record text is not a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseRecordError {
    #[error("the record is empty: expected a layout, then the moves, separated by spaces")]
    Empty,
    #[error("layout: {0}")]
    Layout(#[from] ParseLayoutError),
    #[error(transparent)]
    Moves(#[from] MoveListError),
}

/// A game on one layout: the layout, the moves in order, and the position they lead to.
/// Its text is the position text of [`notation`](crate::notation): `<layout> <moves>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    layout: Layout,
    moves: Vec<Cell>,
    position: Position,
}

impl Record {
    /// The start of a game on `layout`.
    pub fn new(layout: Layout) -> Record {
        let position = Position::start(&layout);
        Record {
            layout,
            moves: Vec::new(),
            position,
        }
    }

    #[inline]
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The moves played, in order.
    #[inline]
    pub fn moves(&self) -> &[Cell] {
        &self.moves
    }

    /// The position after the moves.
    #[inline]
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Plays `cell` if it is legal.
    pub fn play(&mut self, cell: Cell) -> Result<(), IllegalMove> {
        self.position = self.position.play(&self.layout, cell)?;
        self.moves.push(cell);
        Ok(())
    }

    /// Plays a space-separated move list (`b1 e4 c2`), stopping at the first bad move.
    /// On an error the moves before it stay played.
    pub fn play_text(&mut self, text: &str) -> Result<(), MoveListError> {
        for token in text.split_whitespace() {
            let number = self.moves.len() + 1;
            let error = |reason: MoveProblem| MoveListError {
                number,
                token: token.to_owned(),
                reason,
            };
            let cell: Cell = token.parse().map_err(|e: ParseCellError| error(e.into()))?;
            self.play(cell).map_err(|e| error(e.into()))?;
        }
        Ok(())
    }

    /// The moves as text: cells separated by spaces.
    pub fn moves_text(&self) -> String {
        let names: Vec<String> = self.moves.iter().map(Cell::to_string).collect();
        names.join(" ")
    }
}

impl FromStr for Record {
    type Err = ParseRecordError;

    fn from_str(text: &str) -> Result<Record, ParseRecordError> {
        let text = text.trim();
        let (layout, moves) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
        if layout.is_empty() {
            return Err(ParseRecordError::Empty);
        }
        let mut record = Record::new(layout.parse()?);
        record.play_text(moves)?;
        Ok(record)
    }
}

impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.layout)?;
        for cell in &self.moves {
            write!(f, " {cell}")?;
        }
        Ok(())
    }
}
