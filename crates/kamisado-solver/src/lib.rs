//! Exact solving of finite two-player games: who wins (or draws), in how many moves, and
//! how.
//!
//! The solver knows no game. A game implements the small [`Game`] trait (its contract,
//! what is required and what is optional, is written in the trait's docs) in its own
//! crate, and the same search solves it:
//!
//! - [`Solver::value`]: depth-first proof-number search ([`dfpn`]) answers "does the side
//!   to move win?" and, in a game with draws, "does it at least draw?";
//! - [`Solver::score`] / [`Solver::outcome`]: the exact remoteness by MTD(f) over
//!   alpha-beta ([`remoteness`]), inside the range the value names;
//! - [`Solver::solve`], [`Solver::analyse`]: best moves, perfect lines, every move;
//! - [`Solver::analyse_moves`]: every move's value, then the best moves' exact remoteness
//!   with bounds shared between the moves, then (if asked) every move's, by proof-number
//!   search of remoteness questions ([`Solver::at_least`]: "score at least a win in n?").
//!
//! Both searches walk the game the same way ([`walker`]) over one bounded table shared by
//! all threads ([`Table`]), keyed by each game's exact [`Key`] of any width. Results are
//! [`Outcome`]s (a [`Value`] and a remoteness); [`Score`] packs them into one integer and
//! holds the algebra of seeing a result across a move.
//!
//! ```
//! use kamisado_solver::{Cancel, Game, Options, Player, Solver, Value};
//!
//! /// Take 1 or 2 from a heap; whoever takes the last one wins.
//! struct Nim;
//! impl Game for Nim {
//!     type Position = (u8, bool); // (heap, second player to move)
//!     type Move = u8;
//!     type Key = u64;
//!     fn outcome(&self, p: &(u8, bool)) -> Option<Value> {
//!         (p.0 == 0).then_some(Value::Loss)
//!     }
//!     fn player(&self, p: &(u8, bool)) -> Player {
//!         if p.1 { Player::Second } else { Player::First }
//!     }
//!     fn moves(&self, p: &(u8, bool), out: &mut Vec<u8>) {
//!         out.clear();
//!         out.extend((1..=2).filter(|&t| t <= p.0));
//!     }
//!     fn play(&self, p: &(u8, bool), take: u8) -> (u8, bool) {
//!         (p.0 - take, !p.1)
//!     }
//!     fn key(&self, p: &(u8, bool)) -> u64 {
//!         p.0 as u64
//!     }
//! }
//!
//! let solver = Solver::new(Nim, Options { threads: 1, table_bytes: 1 << 16 }).unwrap();
//! let solution = solver.solve(&(7, false), &Cancel::new()).unwrap();
//! assert_eq!(solution.outcome.value, Value::Win); // 7 is not a multiple of 3
//! assert_eq!(solution.best, [1]);
//! ```

mod all_moves;
mod cancel;
pub mod dfpn;
mod game;
mod key;
pub mod remoteness;
mod score;
mod solver;
pub mod stopped;
pub mod table;
mod value;
mod walker;

pub use all_moves::{Depth, MoveBounds, MovesAnalysis, Progress, Stage};
pub use cancel::{with_time_limit, with_time_limit_under, Cancel};
pub use game::{Game, Known, Player, WinInOne};
pub use key::{mix, Key};
pub use score::{Score, MAX_REMOTENESS};
pub use solver::{
    Analysis, MoveResult, Options, Solution, SolveError, Solver, DEFAULT_TABLE_BYTES,
};
pub use stopped::StoppedPaths;
pub use table::{keep_dropped_tables, Entry, Question, Table};
pub use value::{Outcome, Value};
