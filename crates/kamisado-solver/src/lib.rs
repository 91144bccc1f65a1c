//! Exact solving of finite two-player games without draws.
//!
//! The search is generic over a small [`Game`] trait; [`Kamisado`] implements it through
//! the rules core, and later games (match-play rounds, Kamon) plug in as further
//! implementations without touching the search. [`dfpn`] proves who wins with a
//! depth-first proof-number search over a bounded, shared [`Table`].

pub mod dfpn;
mod game;
mod kamisado;
pub mod table;

pub use game::{Game, Value};
pub use kamisado::Kamisado;
pub use table::Table;
