//! Searches with a deadline: the solver polls a [`Cancel`] flag, and a timer raises it.

use std::sync::mpsc::{channel, RecvTimeoutError};
use std::time::Duration;

use kamisado_solver::Cancel;

/// Runs `work` with a cancellation flag that a timer thread raises after `limit`, if any.
/// The timer ends as soon as `work` returns, so no thread outlives the call.
pub fn with_time_limit<T>(limit: Option<Duration>, work: impl FnOnce(&Cancel) -> T) -> T {
    let cancel = Cancel::new();
    let Some(limit) = limit else {
        return work(&cancel);
    };
    let (finished, wait_for_finish) = channel::<()>();
    std::thread::scope(|scope| {
        let cancel = &cancel;
        scope.spawn(move || {
            if let Err(RecvTimeoutError::Timeout) = wait_for_finish.recv_timeout(limit) {
                cancel.cancel();
            }
        });
        let result = work(cancel);
        drop(finished);
        result
    })
}
