//! A deliberately naive reference implementation of Kamisado (single round, and match play
//! with Sumos, pushes and refills: the `match_*` functions and [`MatchPosition`]), used by
//! the tests to cross-check the fast engine and solver. It follows `RULES.md` and
//! `MATCH-RULES.md` directly: an 8 x 8 array board, plain loops, strings for moves, no
//! tricks. It shares no code with the crates it checks.
//!
//! Conventions (shared with the fast implementation):
//! - squares `a1`..`h8`, rank 1 = Black's home row; moves `a1-a5`, zero-length `d7-d7`;
//! - position text `<board> <side> <active>`, e.g. the start
//!   `obupyrgn/8/8/8/8/8/8/NGRYPUBO b -` (uppercase = Black, lowercase = White,
//!   colour codes o b u p y r g n, active `-` = free move);
//! - after a positive move the opponent is to move with the landing square's colour; a
//!   goal or a deadlock leaves exactly that state; otherwise the zero-length chain is
//!   applied (default convention) or left to be played ply by ply (convention 2).
//!
//! The [`kamon`] module is the same kind of reference for the sister game Kamon, written
//! from `KAMON-RULES.md`; its text functions are re-exported here for the cross-checks.

#![warn(missing_docs)]

mod board;
mod certificate;
pub mod kamon;
mod match_play;
mod position;
mod random;
mod search;

#[cfg(test)]
mod checks;

pub use board::{Colour, Side, Square, Tower};
pub use certificate::{check_certificate, ProvedClaims, RefCertError};
pub use kamon::{
    check_kamon_certificate, check_kamon_walk, kamon_divide, kamon_forces_win, kamon_key,
    kamon_legal_cells, kamon_perft, kamon_position_of_key, kamon_random_layout, kamon_random_moves,
    kamon_result, kamon_solve,
};
pub use match_play::{
    has_legal_push, highest_rank_on_board, match_clinch_solve, match_divide, match_legal_moves,
    match_perft, match_play, match_play_record, match_play_with_end, match_refill, match_round_end,
    match_round_solve, match_score, match_start, match_whole_solve, play_record, random_match,
    random_match_position, random_match_push_position, random_push_position, MatchPosition,
    MatchTower, RecordOutcome, RefillFrom, RoundEnd, MATCH_TARGETS,
};
pub use position::{EndReason, GameEnd, RefPosition};
pub use random::random_position;
pub use search::{alphabeta_value, divide, minimax, minimax_with_table, minimax_within, perft};
