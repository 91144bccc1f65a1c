//! The rules of single-round Kamisado, exactly, in a compact `Copy` position.
//!
//! Everything this project claims (the value of an opening, a perfect move, a verdict on
//! another engine) is only as true as this crate. The rules it implements are written out
//! in the project's rules page, `RULES.md` at the repository root. It holds the board and its colours
//! ([`Square`], [`Colour`], [`Bitboard`]), the sixteen towers ([`Tower`], [`Board`]), an
//! unvalidated [`Setup`] that becomes a legal [`Position`] through a typed
//! [`PositionError`], move generation and play including the chain of zero-length moves
//! and the deadlock rule, the two board symmetries with exact and canonical keys, the
//! position text and move notation ([`notation`]), [`perft`], and (feature `solver`)
//! `Kamisado`, the game as the solver (`kamisado-solver`) sees it.
//!
//! ```
//! use kamisado_core::{Position, notation::play_line};
//!
//! let start = Position::start();
//! assert_eq!(start.legal_moves().len(), 102);
//! let line = play_line(&start, "a1-a5 d8-d3").unwrap();
//! assert_eq!(line.end.to_string(), "obu1yrgn/8/8/N7/8/3p4/8/1GRYPUBO b u");
//! ```

pub mod attacks;
mod bitboard;
mod board;
mod colour;
#[cfg(feature = "solver")]
mod game;
mod moves;
pub mod notation;
pub mod packing;
pub mod perft;
mod position;
mod quote;
mod setup;
mod side;
mod square;
mod symmetry;
mod tower;

pub use bitboard::Bitboard;
pub use board::Board;
pub use colour::Colour;
#[cfg(feature = "solver")]
pub use game::Kamisado;
pub use moves::{Move, MoveList, ParseMoveError, MAX_MOVES};
pub use position::{EndReason, GameEnd, IllegalMove, Position};
pub use quote::{printable, quote, Quoted, QUOTED_CHARS};
pub use setup::{PositionError, Setup};
pub use side::Side;
pub use square::{ParseSquareError, Square};
pub use symmetry::Symmetry;
pub use tower::Tower;
