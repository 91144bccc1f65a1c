//! Exact solving of finite two-player games without draws.
//!
//! The search is generic over a small [`Game`] trait; [`Kamisado`] implements it through
//! the rules core, and later games (match-play rounds, Kamon) plug in as further
//! implementations without touching the search. [`dfpn`] proves who wins with a
//! depth-first proof-number search over a bounded, shared [`Table`].

mod cancel;
pub mod dfpn;
mod game;
mod kamisado;
pub mod remoteness;
mod solver;
pub mod table;

pub use cancel::{with_time_limit, Cancel};
pub use game::{Game, Player, Value};
pub use kamisado::Kamisado;
pub use solver::{
    Analysis, MoveResult, Options, Solution, SolveError, Solver, DEFAULT_TABLE_BYTES,
};
pub use table::Table;
