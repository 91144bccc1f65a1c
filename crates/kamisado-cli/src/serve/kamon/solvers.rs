//! The Kamon solver the server keeps between requests.
//!
//! A Kamon solver belongs to one layout (the layout is the game), so the server cannot
//! share one solver across all requests the way it does for Kamisado. People click
//! through one layout at a time, though: keeping the last layout's solver lets each click
//! reuse what the previous searches put in its table, and a new layout replaces it (a
//! search still running on the old one keeps it alive until it ends). One table at a time
//! keeps memory at `--hash-mb` for Kamon beside Kamisado's.

use std::sync::{Arc, Mutex};

use kamisado_solver::{Options, SolveError, Solver};
use kamon_core::{KamonGame, Layout};

pub struct KamonSolvers {
    options: Options,
    last: Mutex<Option<Arc<Solver<KamonGame>>>>,
}

impl KamonSolvers {
    /// Solvers made as `kamisado kamon solve` makes them with these options.
    pub fn new(options: Options) -> KamonSolvers {
        KamonSolvers {
            options,
            last: Mutex::new(None),
        }
    }

    /// The solver of `layout`: the one kept if it is this layout's, else a new one, which
    /// is then kept. Blocking: a new table is allocated and touched.
    pub fn for_layout(&self, layout: &Layout) -> Result<Arc<Solver<KamonGame>>, SolveError> {
        // A search that panicked while holding the lock cannot leave the slot half made:
        // it holds a whole solver or none.
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(solver) = last.as_ref().filter(|s| s.game().layout() == layout) {
            return Ok(Arc::clone(solver));
        }
        // Drop the old table first, unless a search still holds it.
        *last = None;
        let solver = Arc::new(Solver::new(KamonGame::new(layout.clone()), self.options)?);
        *last = Some(Arc::clone(&solver));
        Ok(solver)
    }
}
