//! Board geometry of Kamon: the 37 cells, their neighbours, the six sides and the corners.
//!
//! Why "doubled" columns: the board drawing in KAMON-RULES.md gives every cell a place
//! four characters wide and shifts each row by half a cell. Counting in half cells, a cell's
//! column is `|row - d| + 2 * (number - 1)`, and two cells touch exactly when they are in
//! the same row two half cells apart, or in neighbouring rows one half cell apart. That can
//! be checked against the drawing by eye; the self-checks compare it with cube coordinates.
//! The sides are copied from the page's lists, not derived, so the checks can compare them
//! with geometry. Each answer is computed once by those plain rules and kept in a table,
//! only because the searches ask the same questions millions of times.

use std::sync::OnceLock;

/// The number of cells in each row, top (`a`) to bottom (`g`).
const ROW_LENGTHS: [usize; 7] = [4, 5, 6, 7, 6, 5, 4];

/// The number of cells on the board.
pub const CELL_COUNT: usize = 37;

/// A cell of the Kamon board: `row` 0 = `a` (top) .. 6 = `g` (bottom), `index` 0 = the
/// leftmost cell of the row (written `1`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Hash)]
pub struct Cell {
    /// 0 = row `a` (top), ..., 6 = row `g` (bottom).
    pub row: usize,
    /// 0 = the leftmost cell of the row (cell number 1).
    pub index: usize,
}

impl Cell {
    /// All 37 cells in board order: `a1 a2 a3 a4 b1 ... g4` (row by row, left to right).
    pub fn all() -> Vec<Cell> {
        let mut cells = Vec::with_capacity(ROW_LENGTHS.iter().sum());
        for (row, &length) in ROW_LENGTHS.iter().enumerate() {
            for index in 0..length {
                cells.push(Cell { row, index });
            }
        }
        cells
    }

    /// The cell's position in [`Cell::all`], 0..37.
    pub fn ordinal(self) -> usize {
        ROW_LENGTHS[..self.row].iter().sum::<usize>() + self.index
    }

    /// The cell's name, e.g. `d4`.
    pub fn name(self) -> String {
        let row_letter = (b'a' + self.row as u8) as char;
        format!("{row_letter}{}", self.index + 1)
    }

    /// Reads a cell name such as `d4`; `None` for anything that is not one of the 37 cells.
    pub fn parse(text: &str) -> Option<Cell> {
        let chars: Vec<char> = text.chars().collect();
        if chars.len() != 2 {
            return None;
        }
        let row = match chars[0] {
            c @ 'a'..='g' => c as usize - 'a' as usize,
            _ => return None,
        };
        let number = match chars[1] {
            c @ '1'..='7' => c as usize - '0' as usize,
            _ => return None,
        };
        if number > ROW_LENGTHS[row] {
            return None;
        }
        Some(Cell {
            row,
            index: number - 1,
        })
    }

    /// The column of the cell counted in half cells, as in the page's drawing: `a1` is 3,
    /// `d1` is 0, `d4` is 6, `d7` is 12.
    pub fn half_column(self) -> i32 {
        (self.row as i32 - 3).abs() + 2 * self.index as i32
    }

    /// The cell in `row` at half column `half_column`, if there is one.
    fn at(row: i32, half_column: i32) -> Option<Cell> {
        if !(0..7).contains(&row) {
            return None;
        }
        Cell::all()
            .into_iter()
            .find(|cell| cell.row as i32 == row && cell.half_column() == half_column)
    }

    /// The cells touching this one along a side (3 to 6 of them), in board order.
    pub fn neighbours(self) -> &'static [Cell] {
        &tables().neighbours[self.ordinal()]
    }

    /// [`Cell::neighbours`], computed from the half columns.
    fn compute_neighbours(self) -> Vec<Cell> {
        let row = self.row as i32;
        let column = self.half_column();
        let candidates = [
            (row - 1, column - 1),
            (row - 1, column + 1),
            (row, column - 2),
            (row, column + 2),
            (row + 1, column - 1),
            (row + 1, column + 1),
        ];
        let mut result: Vec<Cell> = candidates
            .iter()
            .filter_map(|&(r, c)| Cell::at(r, c))
            .collect();
        result.sort();
        result
    }

    /// The board sides this cell lies on: none for an inner cell, one for an edge cell, two
    /// for a corner.
    pub fn board_sides(self) -> &'static [BoardSide] {
        &tables().board_sides[self.ordinal()]
    }

    /// [`Cell::board_sides`], computed from the page's lists.
    fn compute_board_sides(self) -> Vec<BoardSide> {
        BoardSide::ALL
            .into_iter()
            .filter(|side| side.cells().contains(&self))
            .collect()
    }

    /// Is the cell on the rim of the board (on at least one side)?
    pub fn is_edge(self) -> bool {
        !self.board_sides().is_empty()
    }

    /// Is the cell one of the six corners (on two sides)?
    pub fn is_corner(self) -> bool {
        self.board_sides().len() == 2
    }
}

/// The answers of [`Cell::compute_neighbours`] and [`Cell::compute_board_sides`] for every
/// cell, indexed by [`Cell::ordinal`].
struct Tables {
    neighbours: Vec<Vec<Cell>>,
    board_sides: Vec<Vec<BoardSide>>,
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| Tables {
        neighbours: Cell::all()
            .into_iter()
            .map(Cell::compute_neighbours)
            .collect(),
        board_sides: Cell::all()
            .into_iter()
            .map(Cell::compute_board_sides)
            .collect(),
    })
}

/// One of the six sides of the board.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum BoardSide {
    /// `a1 a2 a3 a4`.
    Top,
    /// `a4 b5 c6 d7`.
    UpperRight,
    /// `d7 e6 f5 g4`.
    LowerRight,
    /// `g1 g2 g3 g4`.
    Bottom,
    /// `d1 e1 f1 g1`.
    LowerLeft,
    /// `a1 b1 c1 d1`.
    UpperLeft,
}

impl BoardSide {
    /// The six sides, clockwise from the top.
    pub const ALL: [BoardSide; 6] = [
        BoardSide::Top,
        BoardSide::UpperRight,
        BoardSide::LowerRight,
        BoardSide::Bottom,
        BoardSide::LowerLeft,
        BoardSide::UpperLeft,
    ];

    /// The names of the side's cells, copied from KAMON-RULES.md.
    fn cell_names(self) -> [&'static str; 4] {
        match self {
            BoardSide::Top => ["a1", "a2", "a3", "a4"],
            BoardSide::Bottom => ["g1", "g2", "g3", "g4"],
            BoardSide::UpperLeft => ["a1", "b1", "c1", "d1"],
            BoardSide::LowerLeft => ["d1", "e1", "f1", "g1"],
            BoardSide::UpperRight => ["a4", "b5", "c6", "d7"],
            BoardSide::LowerRight => ["d7", "e6", "f5", "g4"],
        }
    }

    /// The four cells of the side, corners included.
    pub fn cells(self) -> Vec<Cell> {
        self.cell_names()
            .iter()
            .filter_map(|name| Cell::parse(name))
            .collect()
    }

    /// The opposite side, as the page pairs them: top/bottom, upper left/lower right,
    /// upper right/lower left.
    pub fn opposite(self) -> BoardSide {
        match self {
            BoardSide::Top => BoardSide::Bottom,
            BoardSide::Bottom => BoardSide::Top,
            BoardSide::UpperLeft => BoardSide::LowerRight,
            BoardSide::LowerRight => BoardSide::UpperLeft,
            BoardSide::UpperRight => BoardSide::LowerLeft,
            BoardSide::LowerLeft => BoardSide::UpperRight,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(cells: &[Cell]) -> Vec<String> {
        cells.iter().map(|c| c.name()).collect()
    }

    #[test]
    fn cells_and_names() {
        let all = Cell::all();
        assert_eq!(all.len(), CELL_COUNT);
        assert_eq!(all[0].name(), "a1");
        assert_eq!(all[36].name(), "g4");
        for (i, cell) in all.iter().enumerate() {
            assert_eq!(cell.ordinal(), i);
            assert_eq!(Cell::parse(&cell.name()), Some(*cell));
        }
        for bad in [
            "", "a", "a0", "a5", "b6", "d8", "g5", "h1", "A1", "d44", "1a", "é1",
        ] {
            assert_eq!(Cell::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn neighbours_from_the_page() {
        let cell = |t: &str| Cell::parse(t).unwrap();
        assert_eq!(
            names(cell("d4").neighbours()),
            ["c3", "c4", "d3", "d5", "e3", "e4"]
        );
        assert_eq!(names(cell("a1").neighbours()), ["a2", "b1", "b2"]);
        // A few more read off the drawing.
        assert_eq!(names(cell("d1").neighbours()), ["c1", "d2", "e1"]);
        assert_eq!(names(cell("g4").neighbours()), ["f4", "f5", "g3"]);
        assert_eq!(
            names(cell("b3").neighbours()),
            ["a2", "a3", "b2", "b4", "c3", "c4"]
        );
        assert_eq!(
            names(cell("f2").neighbours()),
            ["e2", "e3", "f1", "f3", "g1", "g2"]
        );
    }

    #[test]
    fn corners_and_edges_from_the_page() {
        let corners: Vec<String> = Cell::all()
            .into_iter()
            .filter(|c| c.is_corner())
            .map(|c| c.name())
            .collect();
        assert_eq!(corners, ["a1", "a4", "d1", "d7", "g1", "g4"]);
        let mut edges_not_corners: Vec<String> = Cell::all()
            .into_iter()
            .filter(|c| c.is_edge() && !c.is_corner())
            .map(|c| c.name())
            .collect();
        edges_not_corners.sort();
        let mut page = [
            "a2", "a3", "b1", "c1", "e1", "f1", "b5", "c6", "e6", "f5", "g2", "g3",
        ];
        page.sort();
        assert_eq!(edges_not_corners, page);
        for side in BoardSide::ALL {
            assert_eq!(side.opposite().opposite(), side);
            assert_ne!(side.opposite(), side);
            assert_eq!(side.cells().len(), 4);
        }
    }
}
