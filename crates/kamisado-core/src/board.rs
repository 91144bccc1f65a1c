//! Where the sixteen towers stand.

use crate::{Bitboard, Colour, PositionError, Side, Square, Tower};

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

    /// The tower that has already won on its goal row (the opponent's home row), if one
    /// has, checked for consistency with the side to move and active colour: only one
    /// such tower, its side not to move, and the active colour the one its square names
    /// (the move that put it there named it).
    pub fn goal_tower(
        &self,
        turn: Side,
        active: Option<Colour>,
    ) -> Result<Option<Tower>, PositionError> {
        let on_goal = |side: Side| {
            Colour::ALL
                .into_iter()
                .map(move |c| Tower::new(side, c))
                .filter(move |&t| self.square_of(t).is_goal_for(side))
        };
        let (black, white) = (on_goal(Side::Black).count(), on_goal(Side::White).count());
        let side = match (black, white) {
            (0, 0) => return Ok(None),
            (_, 0) => Side::Black,
            (0, _) => Side::White,
            _ => return Err(PositionError::BothSidesOnGoal),
        };
        if black + white > 1 {
            return Err(PositionError::SeveralOnGoal(side));
        }
        if side == turn {
            return Err(PositionError::WinnerToMove(turn));
        }
        let Some(tower) = on_goal(side).next() else {
            return Ok(None);
        };
        let square = self.square_of(tower);
        if active != Some(square.colour()) {
            return Err(PositionError::WinNotLast {
                tower,
                square,
                square_colour: square.colour(),
            });
        }
        Ok(Some(tower))
    }
}
