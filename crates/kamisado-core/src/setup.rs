//! An unvalidated position: what a text, a file or a program claims, before the rules
//! have looked at it. [`Position::from_setup`](crate::Position::from_setup) turns it into a
//! [`Position`](crate::Position) or says, with a [`PositionError`], why it cannot be one.

use crate::{Board, Colour, Side, Square, Tower};

/// Towers, side to move and active colour, as given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Where each tower stands, indexed `[side][colour]`; `None` if it is missing.
    pub towers: [[Option<Square>; 8]; 2],
    pub turn: Side,
    /// The colour of the tower the side to move must move; `None` for a free move
    /// (the opening move of a round).
    pub active: Option<Colour>,
}

impl Setup {
    /// A setup with no towers at all.
    pub fn empty(turn: Side, active: Option<Colour>) -> Setup {
        Setup {
            towers: [[None; 8]; 2],
            turn,
            active,
        }
    }

    pub fn place(&mut self, tower: Tower, sq: Square) -> &mut Setup {
        self.towers[tower.side.index()][tower.colour.index()] = Some(sq);
        self
    }

    pub fn square_of(&self, tower: Tower) -> Option<Square> {
        self.towers[tower.side.index()][tower.colour.index()]
    }

    /// The board of the setup, if every tower is present and no two share a square.
    pub fn board(&self) -> Result<Board, PositionError> {
        let mut squares = [[Square::new(0); 8]; 2];
        let mut seen: [Option<Tower>; 64] = [None; 64];
        for tower in Tower::all() {
            let sq = self
                .square_of(tower)
                .ok_or(PositionError::MissingTower(tower))?;
            if let Some(first) = seen[sq.index()] {
                return Err(PositionError::SharedSquare {
                    square: sq,
                    first,
                    second: tower,
                });
            }
            seen[sq.index()] = Some(tower);
            squares[tower.side.index()][tower.colour.index()] = sq;
        }
        Ok(Board::from_squares(squares))
    }

    /// The tower on `sq`, if any (the first one found if several claim it).
    pub fn tower_at(&self, sq: Square) -> Option<Tower> {
        Tower::all().find(|&t| self.square_of(t) == Some(sq))
    }
}

/// Why a [`Setup`] is not a position of the game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("the {0} tower is missing: each side has exactly one tower of each colour")]
    MissingTower(Tower),
    #[error("the {first} and {second} towers both stand on {square}")]
    SharedSquare {
        square: Square,
        first: Tower,
        second: Tower,
    },
    #[error("towers of both sides stand on their goal rows: the game ends at the first")]
    BothSidesOnGoal,
    #[error("several {0} towers stand on the goal row: the game ends when the first arrives")]
    SeveralOnGoal(Side),
    #[error("{0} has already won (a tower on its goal row) and cannot be the side to move")]
    WinnerToMove(Side),
    #[error("the {tower} tower won by landing on {square}, so the active colour must be {square_colour}")]
    WinNotLast {
        tower: Tower,
        square: Square,
        square_colour: Colour,
    },
    #[error("no {opponent} tower stands on a {colour} square, so no last move can have named the {colour} tower")]
    ActiveNotNamed { colour: Colour, opponent: Side },
    #[error("{0} has a free move but no tower that can move")]
    NoTowerCanMove(Side),
    #[error("{0:#x} is not a position key")]
    BadKey(u128),
}
