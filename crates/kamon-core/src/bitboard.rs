//! Sets of cells as 64-bit words.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Sub};

use crate::Cell;

/// A set of cells, bit [`Cell::bit`] standing for each cell. Bits that are not cells are
/// never set by this crate; `!set` keeps them out by masking with [`Bitboard::ALL`].
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u64);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);

    /// All 37 cells.
    pub const ALL: Bitboard = {
        let mut bits = 0u64;
        let mut i = 0;
        while i < Cell::ALL.len() {
            bits |= 1 << Cell::ALL[i].bit();
            i += 1;
        }
        Bitboard(bits)
    };

    #[inline]
    pub const fn from_cell(cell: Cell) -> Bitboard {
        Bitboard(1 << cell.bit())
    }

    /// The set of the given cells.
    pub const fn from_cells(cells: &[Cell]) -> Bitboard {
        let mut bits = 0u64;
        let mut i = 0;
        while i < cells.len() {
            bits |= 1 << cells[i].bit();
            i += 1;
        }
        Bitboard(bits)
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    #[inline]
    pub const fn contains(self, cell: Cell) -> bool {
        self.0 & (1 << cell.bit()) != 0
    }

    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    #[inline]
    pub const fn with(self, cell: Cell) -> Bitboard {
        Bitboard(self.0 | 1 << cell.bit())
    }

    #[inline]
    pub const fn without(self, cell: Cell) -> Bitboard {
        Bitboard(self.0 & !(1 << cell.bit()))
    }

    /// Whether every set bit is a cell.
    #[inline]
    pub const fn is_cells(self) -> bool {
        self.0 & !Bitboard::ALL.0 == 0
    }

    /// The first cell in bit order (which is reading order), if any.
    #[inline]
    pub const fn first(self) -> Option<Cell> {
        if self.0 == 0 {
            None
        } else {
            Some(Cell::from_bit_unchecked(self.0.trailing_zeros()))
        }
    }
}

/// Iterates the cells in reading order (bit order is reading order).
impl Iterator for Bitboard {
    type Item = Cell;

    #[inline]
    fn next(&mut self) -> Option<Cell> {
        let cell = self.first()?;
        self.0 &= self.0 - 1;
        Some(cell)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

impl FromIterator<Cell> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> Bitboard {
        iter.into_iter()
            .fold(Bitboard::EMPTY, |set, cell| set.with(cell))
    }
}

/// The cells by name, `{a1 b2}`.
impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("{")?;
        for (i, cell) in self.enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{cell}")?;
        }
        if !self.is_cells() {
            write!(f, " +{:#x}", self.0 & !Bitboard::ALL.0)?;
        }
        f.write_str("}")
    }
}

macro_rules! bit_op {
    ($trait:ident, $method:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $method(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
    };
}
bit_op!(BitAnd, bitand, &);
bit_op!(BitOr, bitor, |);
bit_op!(BitXor, bitxor, ^);

/// Set difference: the cells of `self` not in `rhs`.
impl Sub for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn sub(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & !rhs.0)
    }
}

impl BitAndAssign for Bitboard {
    #[inline]
    fn bitand_assign(&mut self, rhs: Bitboard) {
        self.0 &= rhs.0;
    }
}

impl BitOrAssign for Bitboard {
    #[inline]
    fn bitor_assign(&mut self, rhs: Bitboard) {
        self.0 |= rhs.0;
    }
}

/// The complement within the board: the cells not in the set.
impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::ALL.0)
    }
}
