//! The layout: which chip lies on each cell, fixed for a whole game.
//!
//! Why positions do not carry it: the layout is 37 chips that never change, while a search
//! copies millions of positions. A [`Layout`] is built once, validated, and turned into the
//! tables the rules need (the cells each top chip allows); positions stay small and `Copy`
//! and take the layout by reference where a rule needs it, as a solver's game object holds
//! it once for the whole search.

use crate::geometry::OPENING_CELLS;
use crate::{Bitboard, Cell, Chip, CELL_COUNT, CHIP_COUNT};

/// The slot of [`Layout::allowed`] used before any move, when the stack holds only the
/// first-player chip. No cell has this bit.
pub(crate) const NO_TOP: u8 = 63;

/// A validated layout: each of the 37 chips on exactly one cell, with the tables derived
/// from it.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Layout {
    /// The chip on each cell, by bit (bits that are not cells hold the first-player chip
    /// and are never read).
    chips: [Chip; 64],
    forbidden: Cell,
    /// By bit of the top chip's cell (or [`NO_TOP`]): the cells that may be played on, if
    /// free. Never contains the forbidden cell.
    allowed: [Bitboard; 64],
}

/// Why 37 chips are not a layout.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    #[error("no cell holds the first-player chip `--` ({twice} is on both {first} and {second} instead): one cell must hold it")]
    NoFirstPlayerChip {
        twice: Chip,
        first: Cell,
        second: Cell,
    },
    #[error("chip `{chip}` is on both {first} and {second}, and `{missing}` is on no cell: each chip lies on exactly one cell")]
    Duplicate {
        chip: Chip,
        first: Cell,
        second: Cell,
        missing: Chip,
    },
}

impl Layout {
    /// The layout with `chips[i]` on cell [`Cell::from_index(i)`](Cell::from_index) (reading
    /// order `a1 a2 .. g4`).
    pub fn new(chips: [Chip; CELL_COUNT]) -> Result<Layout, LayoutError> {
        let mut cell_of: [Option<Cell>; CHIP_COUNT] = [None; CHIP_COUNT];
        let mut duplicate = None;
        for (cell, &chip) in Cell::ALL.iter().zip(&chips) {
            match cell_of[chip.index()] {
                Some(first) => {
                    duplicate.get_or_insert((chip, first, *cell));
                }
                None => cell_of[chip.index()] = Some(*cell),
            }
        }
        if let Some((chip, first, second)) = duplicate {
            let missing = Chip::ALL
                .into_iter()
                .rev() // the first-player chip first: its absence is the worse problem
                .find(|c| cell_of[c.index()].is_none())
                .unwrap_or(Chip::FIRST_PLAYER);
            return Err(if missing.is_first_player() {
                LayoutError::NoFirstPlayerChip {
                    twice: chip,
                    first,
                    second,
                }
            } else {
                LayoutError::Duplicate {
                    chip,
                    first,
                    second,
                    missing,
                }
            });
        }
        Ok(Layout::from_valid(chips))
    }

    /// Builds the tables of a layout known to hold each chip once.
    pub(crate) fn from_valid(chips: [Chip; CELL_COUNT]) -> Layout {
        let mut by_bit = [Chip::FIRST_PLAYER; 64];
        let mut forbidden = Cell::ALL[0];
        for (cell, &chip) in Cell::ALL.iter().zip(&chips) {
            by_bit[cell.bit() as usize] = chip;
            if chip.is_first_player() {
                forbidden = *cell;
            }
        }
        let mut allowed = [Bitboard::EMPTY; 64];
        for top in Cell::ALL {
            let top_chip = by_bit[top.bit() as usize];
            allowed[top.bit() as usize] = Cell::ALL
                .into_iter()
                .filter(|c| by_bit[c.bit() as usize].matches(top_chip))
                .collect();
        }
        allowed[NO_TOP as usize] = OPENING_CELLS.without(forbidden);
        Layout {
            chips: by_bit,
            forbidden,
            allowed,
        }
    }

    /// The chip on `cell`.
    #[inline]
    pub fn chip(&self, cell: Cell) -> Chip {
        self.chips[cell.bit() as usize]
    }

    /// The chips in reading order (`a1 a2 .. g4`).
    pub fn chips(&self) -> [Chip; CELL_COUNT] {
        Cell::ALL.map(|cell| self.chip(cell))
    }

    /// The cell holding `chip`.
    pub fn cell_of(&self, chip: Chip) -> Cell {
        Cell::ALL
            .into_iter()
            .find(|&cell| self.chip(cell) == chip)
            .unwrap_or(self.forbidden)
    }

    /// The cell of the first-player chip, which nobody may play.
    #[inline]
    pub fn forbidden(&self) -> Cell {
        self.forbidden
    }

    /// The cells whose chip matches the chip on `cell` (same symbol or same count),
    /// `cell` itself included; empty for the forbidden cell.
    #[inline]
    pub fn matching(&self, cell: Cell) -> Bitboard {
        self.allowed[cell.bit() as usize]
    }

    /// The cells that may be played, when free, with the chip of `top` on top of the stack
    /// (`None`: only the first-player chip, before the first move).
    #[inline]
    pub fn allowed(&self, top: Option<Cell>) -> Bitboard {
        self.allowed[top.map_or(NO_TOP, |c| c.bit() as u8) as usize]
    }

    /// [`Layout::allowed`] by raw slot (a cell's bit or [`NO_TOP`]): the hot path.
    #[inline]
    pub(crate) fn allowed_by_slot(&self, slot: u8) -> Bitboard {
        self.allowed[slot as usize]
    }
}

/// The layout text, as in [`notation`](crate::notation).
impl std::fmt::Debug for Layout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Layout({self})")
    }
}
