//! Shared by the probes that stop a search part way (`checkpoint_probe`, `resume_probe`).

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Duration;

use kamisado_solver::{Cancel, Game, Solver};

/// Runs `search` on `solver` and stops it once the solver has counted `nodes` nodes (the
/// count lags a little, so it stops a little later); panics if it finished first.
pub fn stopped_after<G: Game, T>(
    solver: &Solver<G>,
    nodes: u64,
    search: impl FnOnce(&Cancel) -> Result<T, kamisado_solver::SolveError>,
) {
    let cancel = Cancel::new();
    let finished = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            while !finished.load(Relaxed) {
                if solver.nodes() >= nodes {
                    cancel.cancel();
                    return;
                }
                std::thread::sleep(Duration::from_micros(200));
            }
        });
        let answer = search(&cancel);
        finished.store(true, Relaxed);
        assert!(answer.is_err(), "finished before {nodes} nodes");
    });
}
