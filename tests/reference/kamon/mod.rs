//! A deliberately naive reference implementation of Kamon, written straight from
//! `KAMON-RULES.md` to cross-check the fast Kamon crate. It shares no code with the crates:
//! cells are (row, index) pairs whose neighbours come from the page's drawing, a position
//! is a layout plus the list of played cells, and connections and loops are found by a
//! breadth-first search per cell. Nothing about a position is cached, so nothing can go
//! stale (only the fixed board geometry is tabled once).
//!
//! Conventions (those of the page): cells `a1`..`g4`; layout text: rows a..g separated by
//! `/`, chips `5a` (count then symbol) and `--` (first-player chip); a game record is the
//! played cells separated by whitespace. Lists of cells are in board order (`a1 a2 .. g4`).

mod api;
mod certificate;
mod geometry;
mod layout;
mod position;
mod random;
mod search;

#[cfg(test)]
mod checks;

pub use api::{
    kamon_divide, kamon_forces_win, kamon_legal_cells, kamon_perft, kamon_random_layout,
    kamon_random_moves, kamon_result, kamon_solve,
};
pub use certificate::{
    check_kamon_certificate, check_kamon_walk, kamon_key, kamon_position_of_key,
};
pub use geometry::{BoardSide, Cell, CELL_COUNT};
pub use layout::{Chip, KamonLayout};
pub use position::{KamonEnd, KamonPosition, WinReason, FREE_CELLS_AT_START};
pub use random::{random_game, random_layout};
pub use search::{
    kamon_divide_of, kamon_minimax, kamon_perft_of, kamon_solve_position, KamonValue,
};
