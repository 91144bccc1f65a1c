//! The rules of Kamon (Bruno Cathala), exactly, in a compact `Copy` position.
//!
//! Kamon shares Kamisado's idea, "the space you take names where your opponent must play",
//! on a hexagon of 37 cells; the exact rules this crate implements are the project's
//! `KAMON-RULES.md`. A game is a [`Layout`] (which chip lies on each cell, fixed for the
//! whole game) and a [`Position`] (the pieces, the top of the stack, how the game ended):
//! the layout is built once into the tables the rules need, and positions, 24 bytes and
//! `Copy`, take it by reference. This is the shape a solver wants: its game object holds
//! the layout, its nodes hold positions.
//!
//! The parts: cells and bitboards ([`Cell`], [`Bitboard`]), the board's shape and the two
//! winning shapes as bit shifts ([`geometry`]), chips and layouts ([`Chip`], [`Layout`],
//! seeded random layouts in [`random`]), play and the end of the game ([`Position`],
//! [`GameEnd`], [`Outcome`]), an unvalidated [`Setup`] that becomes a position through a
//! typed [`PositionError`] and the exact [`Position::key`], the layout, move and record
//! text ([`notation`], [`Record`]), [`perft`], and the wins a side forces within a few
//! placements ([`forced`]), which the certificates' checker and the search both ask.
//!
//! ```
//! use kamon_core::{Layout, Outcome, Position, Record};
//!
//! let layout = Layout::random(7);
//! let start = Position::start(&layout);
//! // The first move: the 12 edge cells that are not corners, unless one is forbidden.
//! assert!(start.count_moves(&layout) >= 11);
//!
//! let record: Record = format!("{layout} b1").parse().unwrap();
//! assert_eq!(record.to_string(), format!("{layout} b1"));
//! assert_eq!(record.position().outcome(), None);
//! ```
//!
//! # Random layouts
//!
//! [`Layout::random(seed)`](Layout::random) is SplitMix64 seeded with `seed` driving a
//! Fisher-Yates shuffle of the 37 chips in the standard order `1a 1b .. 1f 2a .. 6f --`
//! (for `i` from 36 down to 1: `j = next() % (i + 1)`, swap chips `i` and `j`), the
//! shuffled chips then laid on the cells in reading order `a1 a2 .. g4`. The [`random`]
//! module states SplitMix64's constants; a test pins the layouts of fixed seeds.

mod bitboard;
mod cell;
mod chip;
pub mod forced;
#[cfg(feature = "solver")]
mod game;
pub mod geometry;
mod layout;
pub mod notation;
pub mod parent_distances;
pub mod perft;
mod player;
mod position;
pub mod random;
mod setup;
mod side_reaches;

pub use bitboard::Bitboard;
pub use cell::{Cell, CellNameProblem, ParseCellError, CELL_COUNT};
pub use chip::{Chip, ParseChipError, CHIP_COUNT};
#[cfg(feature = "solver")]
pub use game::{
    settled_forced_placements, KamonGame, Node, SETTLED_FORCED_PLACEMENTS,
    SETTLED_FORCED_PLACEMENTS_WITH_THREATS,
};
pub use geometry::Side;
pub use layout::{Layout, LayoutError};
pub use notation::{ParseLayoutError, ParseRecordError, Record};
pub use player::Player;
pub use position::{EndReason, GameEnd, IllegalMove, Outcome, Position, FREE_CELLS};
pub use setup::{PositionError, Setup};
