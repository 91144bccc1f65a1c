//! Long searches from Python: run without the GIL, stopped by Ctrl-C or a time limit.
//!
//! The search runs on a thread of its own while the calling (Python) thread waits for it
//! without the GIL, waking every [`POLL`] to let Python run its signal handlers
//! ([`Python::check_signals`]): a Ctrl-C raises the search's cancel flag, the search
//! stops at its next node check, and the call raises `KeyboardInterrupt`. A time limit
//! raises the same flag; what the search had found is then the library's to report (an
//! incomplete analysis), as on the command line.

use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use kamisado_solver::Cancel;
use pyo3::prelude::*;

use crate::errors::input_error;

/// How often the waiting thread lets Python look for a signal: short enough that Ctrl-C
/// feels immediate, long enough to cost nothing.
const POLL: Duration = Duration::from_millis(20);

/// A time limit as Python gives it (seconds, `None` for none), checked as the command
/// line checks `--time-limit`.
pub fn time_limit(seconds: Option<f64>) -> PyResult<Option<Duration>> {
    kamisado_analysis::limits::time_limit(seconds).map_err(input_error)
}

/// Runs `work` on a thread of its own without the GIL, with a cancel flag raised when
/// `limit` passes or when Python's signal handlers raise (Ctrl-C: `KeyboardInterrupt`).
/// On an interrupt the search is stopped and waited for, and the handler's exception is
/// returned; on a time limit `work`'s own answer (what it reached) is returned.
pub fn run<T: Send>(
    py: Python<'_>,
    limit: Option<Duration>,
    work: impl FnOnce(&Cancel) -> T + Send,
) -> PyResult<T> {
    let cancel = Cancel::new();
    let deadline = limit.map(|l| Instant::now() + l);
    let (finished, answer) = channel::<T>();
    std::thread::scope(|scope| {
        let cancel = &cancel;
        let worker = scope.spawn(move || {
            // The receiver may be gone only if the waiting thread itself panicked.
            let _ = finished.send(work(cancel));
        });
        let mut answer = Some(answer);
        let outcome = loop {
            let receiver = answer
                .take()
                .expect("the receiver is put back on every turn");
            let (got, receiver) = py.detach(move || wait(receiver, deadline));
            match got {
                Ok(value) => break Ok(Some(value)),
                // The worker is gone without an answer: it panicked (joined below).
                Err(RecvTimeoutError::Disconnected) => break Ok(None),
                Err(RecvTimeoutError::Timeout) => {}
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                cancel.cancel();
            }
            if let Err(interrupt) = py.check_signals() {
                cancel.cancel();
                // Wait for the search to notice, so that no search outlives the call.
                py.detach(move || {
                    let _ = receiver.recv();
                });
                break Err(interrupt);
            }
            answer = Some(receiver);
        };
        match outcome {
            Ok(Some(value)) => Ok(value),
            Err(interrupt) => Err(interrupt),
            Ok(None) => match py.detach(move || worker.join()) {
                Err(panic) => std::panic::resume_unwind(panic),
                Ok(()) => unreachable!("a worker that returns sends its answer first"),
            },
        }
    })
}

/// Waits up to [`POLL`] (or to `deadline`, if sooner) for the answer, giving the receiver
/// back (a receiver may move between threads but not be shared by them).
fn wait<T>(
    receiver: Receiver<T>,
    deadline: Option<Instant>,
) -> (Result<T, RecvTimeoutError>, Receiver<T>) {
    let timeout = deadline.map_or(POLL, |d| {
        d.saturating_duration_since(Instant::now()).min(POLL)
    });
    (receiver.recv_timeout(timeout), receiver)
}
