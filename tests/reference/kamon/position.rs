//! The Kamon position (a layout and the cells played so far) and every rule of a turn:
//! legal cells, connection, loop, full board, no legal cell.
//!
//! A position stores only what a game record is: the layout and the placements in order.
//! Who holds which cell (even placements are Black's, odd ones White's), whose turn it is,
//! the chip on top of the stack and whether the game is over are recomputed from that
//! record every time they are asked for. Connections and loops are found by a plain
//! breadth-first search per cell. All of this is slow and leaves no state to get wrong.

use std::collections::VecDeque;
use std::rc::Rc;

use super::geometry::{BoardSide, Cell, CELL_COUNT};
use super::layout::{Chip, KamonLayout};
use crate::board::Side;

/// The number of cells a game can fill: every cell but the forbidden one.
pub const FREE_CELLS_AT_START: usize = 36;

/// How a game was won.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum WinReason {
    /// The winner's pieces joined two opposite sides.
    Connection,
    /// The winner's pieces enclosed a cell that is not theirs.
    Loop,
    /// The loser, to move, had no legal cell.
    NoLegalCell,
}

/// How a finished game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum KamonEnd {
    /// `winner` won by `reason`.
    Win {
        /// The player who won.
        winner: Side,
        /// How.
        reason: WinReason,
    },
    /// The board filled up (every player placed 18 pieces) with no winner.
    Draw,
}

/// A Kamon position: a layout and the cells played on it, Black's first.
#[derive(Clone, PartialEq, Eq, Debug, Hash)]
pub struct KamonPosition {
    /// Shared by a position and those played from it (a checker walks hundreds of
    /// millions of positions; a copy of the layout each would be most of their cost).
    layout: Rc<KamonLayout>,
    played: Vec<Cell>,
}

/// The player who makes placement number `placement` (0 = the first, Black's).
fn player_of_placement(placement: usize) -> Side {
    match placement % 2 {
        0 => Side::Black,
        _ => Side::White,
    }
}

/// The lowercase name of a player, as in results and error messages.
pub(crate) fn player_name(side: Side) -> &'static str {
    match side {
        Side::Black => "black",
        Side::White => "white",
    }
}

impl KamonPosition {
    /// The start of a game on `layout`: nothing played, Black to move.
    pub fn new(layout: KamonLayout) -> KamonPosition {
        KamonPosition {
            layout: Rc::new(layout),
            played: Vec::new(),
        }
    }

    /// The position after playing the game record `moves_text` (cells separated by
    /// whitespace, e.g. `b1 e4 c2`; empty for the start) on the layout `layout_text`.
    /// Every move is checked; the first wrong one is named with its number. Never panics.
    pub fn parse(layout_text: &str, moves_text: &str) -> Result<KamonPosition, String> {
        let layout = KamonLayout::parse(layout_text)?;
        let mut position = KamonPosition::new(layout);
        for (number, move_text) in moves_text.split_whitespace().enumerate() {
            position = position
                .play_text(move_text)
                .map_err(|error| format!("move {} ({move_text}): {error}", number + 1))?;
        }
        Ok(position)
    }

    /// The layout.
    pub fn layout(&self) -> &KamonLayout {
        &self.layout
    }

    /// The cells played so far, in order.
    pub fn played(&self) -> &[Cell] {
        &self.played
    }

    /// The game record: the played cells separated by single spaces.
    pub fn moves_text(&self) -> String {
        let names: Vec<String> = self.played.iter().map(|cell| cell.name()).collect();
        names.join(" ")
    }

    /// The player whose piece is on `cell`, if any.
    pub fn owner(&self, cell: Cell) -> Option<Side> {
        self.played
            .iter()
            .position(|&played| played == cell)
            .map(player_of_placement)
    }

    /// The player to move (also in a finished game: the one who would move next).
    pub fn side_to_move(&self) -> Side {
        player_of_placement(self.played.len())
    }

    /// The number of cells still free (the forbidden cell never counts).
    pub fn free_cell_count(&self) -> usize {
        FREE_CELLS_AT_START - self.played.len()
    }

    /// The chip on top of the stack: the chip of the last played cell, or the first-player
    /// chip before the first move.
    pub fn top_of_stack(&self) -> Chip {
        match self.played.last() {
            Some(&cell) => self.layout.chip_at(cell),
            None => Chip::FirstPlayer,
        }
    }

    /// The holder of every cell, indexed by [`Cell::ordinal`].
    fn holders(&self) -> Vec<Option<Side>> {
        let mut holders = vec![None; CELL_COUNT];
        for (placement, cell) in self.played.iter().enumerate() {
            holders[cell.ordinal()] = Some(player_of_placement(placement));
        }
        holders
    }

    /// The cells the placement rule allows, whether or not the game is already over: on the
    /// first move the non-corner edge cells except the forbidden one; later the free cells
    /// whose chip matches the top of the stack. In board order. (The legal cells of a game
    /// known to go on, without asking again whether it ended.)
    pub(crate) fn cells_allowed_by_the_stack(&self) -> Vec<Cell> {
        let holders = self.holders();
        let forbidden = self.layout.forbidden_cell();
        Cell::all()
            .into_iter()
            .filter(|&cell| cell != forbidden && holders[cell.ordinal()].is_none())
            .filter(|&cell| {
                if self.played.is_empty() {
                    cell.is_edge() && !cell.is_corner()
                } else {
                    self.layout.chip_at(cell).matches(self.top_of_stack())
                }
            })
            .collect()
    }

    /// The cells the player to move may play, in board order; empty when the game is over.
    pub fn legal_cells(&self) -> Vec<Cell> {
        if self.end().is_some() {
            return Vec::new();
        }
        self.cells_allowed_by_the_stack()
    }

    /// Does `side` have a chain of pieces touching two opposite sides?
    pub fn has_connection(&self, side: Side) -> bool {
        let holders = self.holders();
        let held = |cell: Cell| holders[cell.ordinal()] == Some(side);
        // One breadth-first search per chain of `side`'s pieces (a piece already reached
        // belongs to a chain searched before), collecting the board sides it touches.
        let mut seen = [false; CELL_COUNT];
        for start in Cell::all() {
            if !held(start) || seen[start.ordinal()] {
                continue;
            }
            seen[start.ordinal()] = true;
            let mut queue = VecDeque::with_capacity(CELL_COUNT);
            queue.push_back(start);
            // The sides touched, each once (so at most six).
            let mut touched: Vec<BoardSide> = Vec::with_capacity(6);
            while let Some(cell) = queue.pop_front() {
                for side in cell.board_sides() {
                    if !touched.contains(side) {
                        touched.push(*side);
                    }
                }
                for &next in cell.neighbours() {
                    if held(next) && !seen[next.ordinal()] {
                        seen[next.ordinal()] = true;
                        queue.push_back(next);
                    }
                }
            }
            if touched
                .iter()
                .any(|board_side| touched.contains(&board_side.opposite()))
            {
                return true;
            }
        }
        false
    }

    /// Does `side` enclose a cell? Exactly the page's test: some cell not held by `side`
    /// cannot reach any edge cell through cells not held by `side`. A path read backwards
    /// is a path, so the cells that can reach an edge are those one breadth-first search
    /// from every edge cell not held by `side` reaches; a loop is a cell it misses.
    pub fn has_loop(&self, side: Side) -> bool {
        let holders = self.holders();
        let passable = |cell: Cell| holders[cell.ordinal()] != Some(side);
        let mut seen = [false; CELL_COUNT];
        let mut queue = VecDeque::with_capacity(CELL_COUNT);
        for cell in Cell::all() {
            if cell.is_edge() && passable(cell) {
                seen[cell.ordinal()] = true;
                queue.push_back(cell);
            }
        }
        while let Some(cell) = queue.pop_front() {
            for &next in cell.neighbours() {
                if passable(next) && !seen[next.ordinal()] {
                    seen[next.ordinal()] = true;
                    queue.push_back(next);
                }
            }
        }
        Cell::all()
            .into_iter()
            .any(|cell| passable(cell) && !seen[cell.ordinal()])
    }

    /// `None` while the game goes on; otherwise how it ended. Checked in the page's order
    /// after the last placement: a connection, then a loop, of the player who placed it;
    /// then a full board (draw); then no legal cell for the player to move (who loses).
    pub fn end(&self) -> Option<KamonEnd> {
        let &last = self.played.last()?;
        let mover = self.owner(last)?;
        if self.has_connection(mover) {
            return Some(KamonEnd::Win {
                winner: mover,
                reason: WinReason::Connection,
            });
        }
        if self.has_loop(mover) {
            return Some(KamonEnd::Win {
                winner: mover,
                reason: WinReason::Loop,
            });
        }
        if self.free_cell_count() == 0 {
            return Some(KamonEnd::Draw);
        }
        if self.cells_allowed_by_the_stack().is_empty() {
            return Some(KamonEnd::Win {
                winner: mover,
                reason: WinReason::NoLegalCell,
            });
        }
        None
    }

    /// The position after the player to move places a piece on `cell`; an error saying
    /// why if that is not a legal move here.
    pub fn play(&self, cell: Cell) -> Result<KamonPosition, String> {
        let name = cell.name();
        if self.end().is_some() {
            return Err("the game is already over".to_string());
        }
        if cell == self.layout.forbidden_cell() {
            return Err(format!(
                "cell {name} is forbidden (the first-player chip lies there)"
            ));
        }
        if let Some(owner) = self.owner(cell) {
            return Err(format!(
                "cell {name} is already taken by {}",
                player_name(owner)
            ));
        }
        if !self.cells_allowed_by_the_stack().contains(&cell) {
            return Err(if self.played.is_empty() {
                format!("the first move must be on an edge cell that is not a corner, not {name}")
            } else {
                format!(
                    "the chip {} on cell {name} matches neither the count nor the symbol of {} on top of the stack",
                    self.layout.chip_at(cell).text(),
                    self.top_of_stack().text()
                )
            });
        }
        Ok(self.with_placement(cell))
    }

    /// The position with a piece of the player to move on `cell`, unchecked (for
    /// building a position from its pieces: the certificate checker's keys).
    pub(crate) fn with_placement(&self, cell: Cell) -> KamonPosition {
        let mut played = Vec::with_capacity(self.played.len() + 1);
        played.extend_from_slice(&self.played);
        played.push(cell);
        KamonPosition {
            layout: Rc::clone(&self.layout),
            played,
        }
    }

    /// [`KamonPosition::play`] for a cell name.
    pub fn play_text(&self, cell_text: &str) -> Result<KamonPosition, String> {
        let cell = Cell::parse(cell_text)
            .ok_or_else(|| format!("{cell_text:?} is not a cell (a1 to g4)"))?;
        self.play(cell)
    }

    /// Every legal cell with the position after it, in board order.
    pub fn children(&self) -> Vec<(Cell, KamonPosition)> {
        self.legal_cells()
            .into_iter()
            .map(|cell| (cell, self.with_placement(cell)))
            .collect()
    }
}
