//! Cooperative cancellation: a flag a search polls, chained so that one signal (a time
//! limit, a user's interrupt) stops every search below it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::time::Duration;

/// A cancellation flag with an optional parent: cancelled when it or any ancestor is.
#[derive(Debug, Default)]
pub struct Cancel<'a> {
    flag: AtomicBool,
    parent: Option<&'a Cancel<'a>>,
}

impl<'a> Cancel<'a> {
    pub fn new() -> Cancel<'static> {
        Cancel {
            flag: AtomicBool::new(false),
            parent: None,
        }
    }

    /// A flag that is also raised whenever `self` is.
    pub fn child(&'a self) -> Cancel<'a> {
        Cancel {
            flag: AtomicBool::new(false),
            parent: Some(self),
        }
    }

    pub fn cancel(&self) {
        self.flag.store(true, Ordering::Relaxed);
    }

    /// Lowers this flag again (not its ancestors'), for a flag that outlives one search:
    /// one that a game's own sub-searches also watch, say.
    pub fn reset(&self) {
        self.flag.store(false, Ordering::Relaxed);
    }

    #[inline]
    pub fn is_cancelled(&self) -> bool {
        self.flag.load(Ordering::Relaxed) || self.parent.is_some_and(|p| p.is_cancelled())
    }
}

/// Runs `work` with a cancellation flag that a timer thread raises after `limit`, if any.
/// The timer ends as soon as `work` returns, so no thread outlives the call.
pub fn with_time_limit<T>(limit: Option<Duration>, work: impl FnOnce(&Cancel) -> T) -> T {
    with_time_limit_under(&Cancel::new(), limit, work)
}

/// [`with_time_limit`] below `parent`: the flag `work` gets is raised by the timer or
/// whenever `parent` is (a run's interrupt above one unit's time limit, say).
pub fn with_time_limit_under<T>(
    parent: &Cancel,
    limit: Option<Duration>,
    work: impl FnOnce(&Cancel) -> T,
) -> T {
    let cancel = parent.child();
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
