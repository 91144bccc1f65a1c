//! Cells `a1`..`g4`.
//!
//! A cell is stored as its bit in a [`Bitboard`](crate::Bitboard): row `r` (0 = `a`) and
//! column `q` give bit `8 * r + q`, where the rows are slid so that every neighbour is one
//! fixed shift away (see [`geometry`](crate::geometry)). People and files see the name
//! (`d4`) and the dense index 0..37 in reading order, which is also the order of the layout
//! text.

use std::fmt;
use std::str::FromStr;

/// Cells per row, `a` to `g`.
pub(crate) const ROW_LENGTHS: [u8; 7] = [4, 5, 6, 7, 6, 5, 4];

/// The column of each row's first cell in the slid grid: the upper rows start further
/// right, so that a cell's lower-left neighbour is always 7 bits on and its lower-right 8.
const ROW_START_COLUMN: [u8; 7] = [3, 2, 1, 0, 0, 0, 0];

/// The dense index of each row's first cell.
const ROW_FIRST_INDEX: [u8; 7] = [0, 4, 9, 15, 22, 28, 33];

/// The number of cells.
pub const CELL_COUNT: usize = 37;

/// One of the 37 cells of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

/// The dense index of each bit, or `NOT_A_CELL`.
const NOT_A_CELL: u8 = u8::MAX;
const INDEX_OF_BIT: [u8; 64] = {
    let mut table = [NOT_A_CELL; 64];
    let mut row = 0;
    while row < 7 {
        let mut i = 0;
        while i < ROW_LENGTHS[row] {
            table[row * 8 + (ROW_START_COLUMN[row] + i) as usize] = ROW_FIRST_INDEX[row] + i;
            i += 1;
        }
        row += 1;
    }
    table
};

impl Cell {
    /// Every cell in reading order: `a1 a2 a3 a4 b1 .. g4` (dense index order).
    pub const ALL: [Cell; CELL_COUNT] = {
        let mut cells = [Cell(0); CELL_COUNT];
        let mut row = 0;
        while row < 7 {
            let mut n = 1;
            while n <= ROW_LENGTHS[row] {
                let cell = Cell::at(row as u8, n);
                cells[cell.index()] = cell;
                n += 1;
            }
            row += 1;
        }
        cells
    };

    /// The cell numbered `number` (from 1 at the left) in row `row` (0 = `a`).
    ///
    /// # Panics
    /// If there is no such cell.
    #[inline]
    pub const fn at(row: u8, number: u8) -> Cell {
        match Cell::try_at(row, number) {
            Some(cell) => cell,
            None => panic!("no such cell"),
        }
    }

    /// The cell numbered `number` (from 1) in row `row` (0 = `a`), if there is one.
    #[inline]
    pub const fn try_at(row: u8, number: u8) -> Option<Cell> {
        if row >= 7 || number == 0 || number > ROW_LENGTHS[row as usize] {
            return None;
        }
        Some(Cell(row * 8 + ROW_START_COLUMN[row as usize] + number - 1))
    }

    /// The cell of dense index `index` (reading order, `a1` = 0 .. `g4` = 36).
    ///
    /// # Panics
    /// If `index >= 37`.
    #[inline]
    pub const fn from_index(index: usize) -> Cell {
        Cell::ALL[index]
    }

    /// The cell whose bitboard bit is `bit`, if that bit is a cell.
    #[inline]
    pub const fn from_bit(bit: u32) -> Option<Cell> {
        if bit < 64 && INDEX_OF_BIT[bit as usize] != NOT_A_CELL {
            Some(Cell(bit as u8))
        } else {
            None
        }
    }

    /// The dense index: reading order, `a1` = 0 .. `g4` = 36.
    #[inline]
    pub const fn index(self) -> usize {
        INDEX_OF_BIT[self.0 as usize] as usize
    }

    /// The cell's bit in a [`Bitboard`](crate::Bitboard).
    #[inline]
    pub const fn bit(self) -> u32 {
        self.0 as u32
    }

    /// The row, 0 (`a`, top) to 6 (`g`, bottom).
    #[inline]
    pub const fn row(self) -> u8 {
        self.0 >> 3
    }

    /// The number within the row, from 1 at the left.
    #[inline]
    pub const fn number(self) -> u8 {
        (self.0 & 7) - ROW_START_COLUMN[self.row() as usize] + 1
    }

    /// The row's letter, `a` to `g`.
    #[inline]
    pub const fn row_char(self) -> char {
        (b'a' + self.row()) as char
    }

    /// The cell before playing with bitboards: the bit's index in the slid grid.
    #[inline]
    pub(crate) const fn from_bit_unchecked(bit: u32) -> Cell {
        Cell(bit as u8)
    }
}

/// Why a text is not a cell name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{text}` is not a cell: {reason}")]
pub struct ParseCellError {
    pub text: String,
    pub reason: CellNameProblem,
}

/// What is wrong with a cell name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CellNameProblem {
    #[error("a cell is a row letter a-g then a number, like `d4`")]
    Shape,
    #[error("the rows are a (top) to g (bottom)")]
    Row,
    #[error("row {row} has {length} cells, {row}1 to {row}{length}")]
    Number { row: char, length: u8 },
}

impl FromStr for Cell {
    type Err = ParseCellError;

    fn from_str(text: &str) -> Result<Cell, ParseCellError> {
        let error = |reason| ParseCellError {
            text: text.to_owned(),
            reason,
        };
        let mut chars = text.chars();
        let row_char = chars.next().ok_or(error(CellNameProblem::Shape))?;
        let digits = chars.as_str();
        if !row_char.is_ascii_alphabetic()
            || digits.is_empty()
            || !digits.bytes().all(|b| b.is_ascii_digit())
        {
            return Err(error(CellNameProblem::Shape));
        }
        let row = match row_char {
            'a'..='g' => row_char as u8 - b'a',
            _ => return Err(error(CellNameProblem::Row)),
        };
        let number = digits.parse::<u8>().ok();
        number
            .and_then(|n| Cell::try_at(row, n))
            .ok_or(error(CellNameProblem::Number {
                row: row_char,
                length: ROW_LENGTHS[row as usize],
            }))
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.row_char(), self.number())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_in_reading_order() {
        let names: Vec<String> = Cell::ALL.iter().map(|c| c.to_string()).collect();
        assert_eq!(names[..5], ["a1", "a2", "a3", "a4", "b1"]);
        assert_eq!(names[18], "d4");
        assert_eq!(names[36], "g4");
        for (i, cell) in Cell::ALL.iter().enumerate() {
            assert_eq!(cell.index(), i);
            assert_eq!(Cell::from_index(i), *cell);
            assert_eq!(names[i].parse::<Cell>(), Ok(*cell));
            assert_eq!(Cell::from_bit(cell.bit()), Some(*cell));
        }
        let bits = (0..64).filter(|&b| Cell::from_bit(b).is_some()).count();
        assert_eq!(bits, CELL_COUNT);
    }

    #[test]
    fn bad_names_say_what_is_wrong() {
        let problem = |t: &str| t.parse::<Cell>().unwrap_err().reason;
        assert_eq!(problem(""), CellNameProblem::Shape);
        assert_eq!(problem("d"), CellNameProblem::Shape);
        assert_eq!(problem("4d"), CellNameProblem::Shape);
        assert_eq!(problem("d4 "), CellNameProblem::Shape);
        assert_eq!(problem("h1"), CellNameProblem::Row);
        assert_eq!(
            problem("a5"),
            CellNameProblem::Number {
                row: 'a',
                length: 4
            }
        );
        assert_eq!(
            problem("d0"),
            CellNameProblem::Number {
                row: 'd',
                length: 7
            }
        );
        assert_eq!(
            problem("d999"),
            CellNameProblem::Number {
                row: 'd',
                length: 7
            }
        );
        assert_eq!(
            "a5".parse::<Cell>().unwrap_err().to_string(),
            "`a5` is not a cell: row a has 4 cells, a1 to a4"
        );
    }
}
