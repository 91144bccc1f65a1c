//! An unvalidated position: what a program or a file claims, before the rules have looked
//! at it. [`Position::from_setup`] turns it into a [`Position`] of a layout or says, with
//! a [`PositionError`], why it cannot be one. The packed key of a position
//! ([`Position::key`]) is a setup in 118 bits.

use crate::geometry::{self, OPENING_CELLS};
use crate::layout::NO_TOP;
use std::fmt;

use crate::{Bitboard, Cell, EndReason, Layout, Player, Position};

/// The pieces and the top of the stack, as given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    pub black: Bitboard,
    pub white: Bitboard,
    /// The cell played last, whose chip tops the stack; `None` before the first move.
    pub last: Option<Cell>,
}

impl Setup {
    /// The pieces of `player`.
    pub fn pieces(&self, player: Player) -> Bitboard {
        match player {
            Player::Black => self.black,
            Player::White => self.white,
        }
    }
}

/// Why a [`Setup`] is not a position of a layout.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("{player}'s pieces include bits that are not cells ({bits:#x})")]
    NotCells { player: Player, bits: u64 },
    #[error("{0} holds pieces of both players")]
    SharedCell(Cell),
    #[error("{player} has a piece on {cell}, the forbidden cell")]
    OnForbidden { player: Player, cell: Cell },
    #[error("black has {black} pieces and white {white}: black moves first and they alternate, so black has as many as white or one more")]
    Counts { black: u32, white: u32 },
    #[error("no black piece is on an edge cell that is not a corner, so black cannot have made the first move")]
    NoOpeningPiece,
    #[error(
        "pieces are on the board but no last move is given, so the top of the stack is unknown"
    )]
    LastMissing,
    #[error("the board is empty, so there is no last move, but {0} is given as one")]
    LastOnEmptyBoard(Cell),
    #[error("the last move must be a piece of {mover}, who moved last, and {cell} is not")]
    LastNotMover { cell: Cell, mover: Player },
    #[error(
        "{player} already had a {reason} before the last move: the game would have ended then"
    )]
    WonEarlier { player: Player, reason: EndReason },
    #[error("{0:#x} is not a position key")]
    BadKey(u128),
}

/// Bits of the key per field: two occupancies, then the top's slot.
const OCCUPANCY_BITS: u32 = 56;
const OCCUPANCY_MASK: u128 = (1 << OCCUPANCY_BITS) - 1;
const TOP_SHIFT: u32 = 2 * OCCUPANCY_BITS;

impl Position {
    /// Validates a setup on `layout`. Accepts every position play can reach, and the
    /// positions that differ from one only in the order the cells were played (the chip
    /// matching of earlier moves is not searched for). A finished game is accepted, and
    /// its end worked out.
    pub fn from_setup(layout: &Layout, setup: Setup) -> Result<Position, PositionError> {
        for player in Player::ALL {
            let pieces = setup.pieces(player);
            if !pieces.is_cells() {
                return Err(PositionError::NotCells {
                    player,
                    bits: pieces.0 & !Bitboard::ALL.0,
                });
            }
            if pieces.contains(layout.forbidden()) {
                return Err(PositionError::OnForbidden {
                    player,
                    cell: layout.forbidden(),
                });
            }
        }
        if let Some(cell) = (setup.black & setup.white).first() {
            return Err(PositionError::SharedCell(cell));
        }
        let (black, white) = (setup.black.count(), setup.white.count());
        if black != white && black != white + 1 {
            return Err(PositionError::Counts { black, white });
        }
        if black > 0 && (setup.black & OPENING_CELLS).is_empty() {
            return Err(PositionError::NoOpeningPiece);
        }
        let last = match (setup.last, black + white) {
            (None, 0) => None,
            (None, _) => return Err(PositionError::LastMissing),
            (Some(cell), 0) => return Err(PositionError::LastOnEmptyBoard(cell)),
            (Some(cell), placed) => {
                let mover = !Player::after(placed);
                if !setup.pieces(mover).contains(cell) {
                    return Err(PositionError::LastNotMover { cell, mover });
                }
                Some(cell)
            }
        };
        // Neither player may have won before the last move: the player to move as they
        // stand, the last mover without the last piece.
        let to_move = Player::after(black + white);
        let earlier = [
            (to_move, setup.pieces(to_move)),
            (
                !to_move,
                last.map_or(Bitboard::EMPTY, |cell| setup.pieces(!to_move).without(cell)),
            ),
        ];
        for (player, pieces) in earlier {
            let reason = if geometry::has_connection(pieces) {
                EndReason::Connection
            } else if geometry::has_loop(pieces) {
                EndReason::Loop
            } else {
                continue;
            };
            return Err(PositionError::WonEarlier { player, reason });
        }
        Ok(Position::from_parts(layout, setup.black, setup.white, last))
    }

    /// The setup of this position.
    pub fn to_setup(&self) -> Setup {
        Setup {
            black: self.pieces(Player::Black),
            white: self.pieces(Player::White),
            last: self.last_move(),
        }
    }

    /// An exact key of the position within its layout, never 0: Black's occupancy in bits
    /// 0..56, White's in 56..112, and the bit of the last move's cell (63 before the first
    /// move) in 112..118.
    ///
    /// Exact because everything else is fixed or follows: the layout (and with it the
    /// forbidden cell and every chip) is fixed for a whole solve; the stack matters only
    /// through its top, the chip of the last move's cell; the player to move follows from
    /// the number of pieces; and how the game ended follows from the pieces, the top and
    /// the layout. So two positions of one layout with the same key are the same position.
    /// Board symmetries are not folded in: they do not map a random layout to itself.
    #[inline]
    pub fn key(&self) -> u128 {
        let setup = self.to_setup();
        let top = setup.last.map_or(NO_TOP as u128, |cell| cell.bit() as u128);
        setup.black.0 as u128 | (setup.white.0 as u128) << OCCUPANCY_BITS | top << TOP_SHIFT
    }

    /// The position of `layout` with this [`Position::key`], validated as
    /// [`Position::from_setup`] does.
    pub fn from_key(layout: &Layout, key: u128) -> Result<Position, PositionError> {
        let top = key >> TOP_SHIFT;
        let last = match top {
            t if t == NO_TOP as u128 => None,
            t if t < 64 => Some(Cell::from_bit(t as u32).ok_or(PositionError::BadKey(key))?),
            _ => return Err(PositionError::BadKey(key)),
        };
        let setup = Setup {
            black: Bitboard((key & OCCUPANCY_MASK) as u64),
            white: Bitboard((key >> OCCUPANCY_BITS & OCCUPANCY_MASK) as u64),
            last,
        };
        Position::from_setup(layout, setup)
    }
}

/// `black a2 c4 / white d4 / last d4` (cells in reading order, `-` for none): the pieces
/// of a position without its layout, as certificates and their checks name positions.
impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cells = |f: &mut fmt::Formatter<'_>, cells: Bitboard| -> fmt::Result {
            if cells.is_empty() {
                return f.write_str("-");
            }
            for (i, cell) in cells.into_iter().enumerate() {
                if i > 0 {
                    f.write_str(" ")?;
                }
                write!(f, "{cell}")?;
            }
            Ok(())
        };
        f.write_str("black ")?;
        cells(f, self.black)?;
        f.write_str(" / white ")?;
        cells(f, self.white)?;
        match self.last {
            Some(last) => write!(f, " / last {last}"),
            None => f.write_str(" / last -"),
        }
    }
}
