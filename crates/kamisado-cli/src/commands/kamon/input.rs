//! Turning what the user typed into a Kamon game record and a solver.

use kamisado_analysis::kamon;
use kamisado_solver::{Options, Solver};
use kamon_core::{KamonGame, Layout, Record};

use super::KamonPositionArgs;
use crate::args::SearchArgs;
use crate::failure::{Failure, Result};

/// The game the arguments describe: the layout (given or of a seed, after its random
/// placements), then `--moves` (read by the analysis library, as the board reads them).
pub fn record(args: &KamonPositionArgs) -> Result<Record> {
    kamisado_analysis::request::kamon_record(
        args.layout.as_deref(),
        args.seed,
        args.after,
        args.moves.as_deref(),
    )
    .map_err(Failure::input)
}

/// The layout of `seed` after its `after` random placements.
pub fn random_record(seed: u64, after: u32) -> Result<Record> {
    kamisado_analysis::request::random_record(seed, after).map_err(Failure::input)
}

/// A solver of `layout` as the search arguments ask, for a search of the value alone
/// (`value_only`: one thread unless `--threads` says otherwise, see
/// [`kamon::VALUE_SEARCH_THREADS`]) or a full solve; a table too big for this machine is
/// the user's to change (exit code 2).
pub fn solver(layout: &Layout, args: &SearchArgs, value_only: bool) -> Result<Solver<KamonGame>> {
    Solver::new(
        KamonGame::new(layout.clone()),
        solver_options(args, value_only),
    )
    .map_err(|e| crate::input::solve_error(args, e))
}

/// The solver settings of a Kamon search (see [`solver`]).
pub fn solver_options(args: &SearchArgs, value_only: bool) -> Options {
    let mut options = crate::input::solver_options(args);
    if let Some(threads) = kamon::threads(args.threads.map(usize::from), value_only) {
        options.threads = threads;
    }
    options
}

/// Cells as text, as the reports give them.
pub use kamisado_analysis::kamon::cells_text;
