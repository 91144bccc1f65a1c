//! Turning what the user typed into a Kamon game record and a solver.

use kamisado_solver::{Options, SolveError, Solver};
use kamon_core::{KamonGame, Layout, Record};

use super::KamonPositionArgs;
use crate::args::SearchArgs;
use crate::failure::{Failure, Result};

/// The game the arguments describe: the layout (given or of a seed, after its random
/// placements), then `--moves`.
pub fn record(args: &KamonPositionArgs) -> Result<Record> {
    if args.after.is_some() && args.seed.is_none() {
        return Err(Failure::input(
            "--after plays the random placements of a seed: give --seed N with it",
        ));
    }
    let mut record = match (&args.layout, args.seed) {
        (Some(text), _) => {
            let layout: Layout = text
                .trim()
                .parse()
                .map_err(|e| Failure::input(format!("--layout: {e}")))?;
            Record::new(layout)
        }
        (None, Some(seed)) => random_record(seed, args.after.unwrap_or(0))?,
        (None, None) => return Err(Failure::input("give --layout TEXT or --seed N")),
    };
    if let Some(moves) = &args.moves {
        record
            .play_text(moves)
            .map_err(|e| Failure::input(format!("--moves: {e}")))?;
    }
    Ok(record)
}

/// The layout of `seed` after its `after` random placements.
pub fn random_record(seed: u64, after: u32) -> Result<Record> {
    Record::random(seed, after).ok_or_else(|| {
        Failure::input(format!(
            "seed {seed}: no random game reaches {after} placements without ending (1000 attempts)"
        ))
    })
}

/// A solver of `layout` as the search arguments ask; a table too big for this machine is
/// the user's to change (exit code 2).
pub fn solver(layout: &Layout, args: &SearchArgs) -> Result<Solver<KamonGame>> {
    let mut options = Options {
        table_bytes: (args.hash_mb as usize) << 20,
        ..Options::default()
    };
    if let Some(threads) = args.threads {
        options.threads = threads as usize;
    }
    Solver::new(KamonGame::new(layout.clone()), options).map_err(|e| match e {
        SolveError::Memory(_) => Failure::input(format!("--hash-mb {}: {e}", args.hash_mb)),
        e => Failure::internal(e),
    })
}

/// Cells as text, as the reports give them.
pub use kamisado_analysis::kamon::cells_text;
