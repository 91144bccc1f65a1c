//! Where the sixteen towers stand.

use crate::{Bitboard, Colour, Side, Square, Tower};

/// The square of every tower plus the occupied squares: 24 bytes.
///
/// Indexing by tower rather than by square is what the rules want: the active colour names
/// a tower, and the mover's tower is found in one load.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    squares: [[Square; 8]; 2],
    occupied: Bitboard,
}

impl Board {
    /// Every tower on the square of its own colour in its own home row.
    pub fn start() -> Board {
        let mut squares = [[Square::new(0); 8]; 2];
        for side in Side::ALL {
            for file in 0..8 {
                let sq = Square::from_coords(file, side.home_rank());
                squares[side.index()][sq.colour().index()] = sq;
            }
        }
        Board::from_squares(squares)
    }

    /// A board from the square of each tower, indexed `[side][colour]`.
    /// The caller guarantees that no two towers share a square.
    ///
    /// # Panics
    ///
    /// In debug builds, if two towers share a square.
    pub fn from_squares(squares: [[Square; 8]; 2]) -> Board {
        let occupied = squares
            .iter()
            .flatten()
            .fold(Bitboard::EMPTY, |bb, &sq| bb.with(sq));
        debug_assert_eq!(occupied.count(), 16);
        Board { squares, occupied }
    }

    #[inline]
    pub fn square_of(&self, tower: Tower) -> Square {
        self.squares[tower.side.index()][tower.colour.index()]
    }

    /// The squares of one side's towers, indexed by colour.
    #[inline]
    pub fn squares(&self, side: Side) -> &[Square; 8] {
        &self.squares[side.index()]
    }

    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.occupied
    }

    pub fn tower_at(&self, sq: Square) -> Option<Tower> {
        if !self.occupied.contains(sq) {
            return None;
        }
        Tower::all().find(|&t| self.square_of(t) == sq)
    }

    /// The colour of `side`'s tower on `sq`, if it has one there.
    #[inline]
    pub fn colour_at(&self, side: Side, sq: Square) -> Option<Colour> {
        self.squares[side.index()]
            .iter()
            .position(|&s| s == sq)
            .map(Colour::from_index)
    }

    /// Moves a tower to an empty square.
    ///
    /// # Panics
    ///
    /// In debug builds, if `to` is occupied.
    #[inline]
    pub fn relocate(&mut self, tower: Tower, to: Square) {
        let from = self.square_of(tower);
        debug_assert!(!self.occupied.contains(to));
        self.occupied = self.occupied.without(from).with(to);
        self.squares[tower.side.index()][tower.colour.index()] = to;
    }
}
