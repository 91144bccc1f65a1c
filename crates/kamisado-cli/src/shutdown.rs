//! Ending early without leaving anything behind: on an interrupt (SIGINT, SIGTERM,
//! SIGHUP) and when standard output closes.
//!
//! What a run can leave behind is short: the temporary file of a write in progress, and
//! the engines `match` started. Both are listed here, and whatever ends the run early
//! removes the files and kills the engines' process groups first.
//!
//! Signals are received by a thread (signal-hook's iterator), not in a signal handler,
//! so cleaning up may lock, allocate and call the file system. The thread then ends the
//! process the way the signal itself would have (so a shell sees "interrupted", exit
//! status 130 for Ctrl-C), without waiting for the work in progress: exiting is what
//! stops a search, at once and on every thread, where a cooperative stop through the
//! solver's `Cancel` would have to reach every search and every loop between them first.
//!
//! A run that has something worth keeping when it is interrupted (a whole-match search
//! saves its proofs) asks for [`stop_gracefully`]: its first interrupt only raises a flag
//! the run watches ([`stop_asked`]); the run saves, reports and ends itself; a second
//! interrupt ends the process as above.
//!
//! Temporary files are listed by the one writer of whole files, [`kamisado_files::replace`],
//! whoever calls it (the command line, the database and proof-file writers of the
//! libraries); the cleanup removes them and keeps the list's lock until the process is
//! gone: so a file is either removed by the cleanup or never created, and never renamed
//! into place after an interrupt.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};

/// Whether the first interrupt only asks the run to stop (see [`stop_gracefully`]).
static GRACEFUL: AtomicBool = AtomicBool::new(false);
/// The signal that asked a graceful run to stop, or 0.
static STOP_SIGNAL: AtomicI32 = AtomicI32::new(0);

/// From now on, the first interrupt only asks the run to stop: it must watch
/// [`stop_asked`] and end by [`exit_if_stopped`]. A second interrupt ends the process.
pub fn stop_gracefully() {
    GRACEFUL.store(true, Ordering::SeqCst);
}

/// Whether an interrupt asked this run to stop (after [`stop_gracefully`]).
pub fn stop_asked() -> bool {
    STOP_SIGNAL.load(Ordering::Relaxed) != 0
}

/// After a graceful run has saved and reported what it had: if an interrupt stopped it,
/// ends the process with the code a shell shows for that signal (130 for Ctrl-C).
pub fn exit_if_stopped() {
    let signal = STOP_SIGNAL.load(Ordering::SeqCst);
    if signal != 0 {
        exit(128 + signal);
    }
}

/// Starts the thread that cleans up and ends the process on SIGINT, SIGTERM and SIGHUP.
/// If the signals cannot be caught, the run goes on with their default handling.
pub fn handle_interrupts() {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
            return;
        };
        let _ = std::thread::Builder::new()
            .name("interrupts".into())
            .spawn(move || {
                for signal in signals.forever() {
                    if GRACEFUL.load(Ordering::SeqCst)
                        && STOP_SIGNAL
                            .compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst)
                            .is_ok()
                    {
                        eprintln!(
                            "interrupted: stopping and saving what was proved (interrupt again to quit at once)"
                        );
                        continue;
                    }
                    die_of(signal);
                }
            });
        // The same signals also noted at once, in the handler itself: the thread above may
        // not be scheduled before the run finishes on its own (see `exit_if_interrupted`).
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            let _ = signal_hook::flag::register_usize(signal, &RECEIVED, signal as usize);
        }
    }
}

/// The last signal received, noted by the signal handler itself, or 0.
static RECEIVED: AtomicUsize = AtomicUsize::new(0);

/// At the very end of a run: an interrupt that came as the run finished (its work done
/// before the signal thread got to run) still ends the process as the signal says, not
/// with the run's own exit code. Measured need: a `solve --db` interrupted while its file
/// was renamed into place exited 0 on a loaded machine.
pub fn exit_if_interrupted() {
    let signal = RECEIVED.load(Ordering::SeqCst) as i32;
    if signal != 0 {
        die_of(signal);
    }
}

/// Cleans up and dies of `signal`, as without a handler; if that fails, exits with the
/// code a shell would show for it.
fn die_of(signal: i32) -> ! {
    let _files_stay_locked = clean_up();
    #[cfg(unix)]
    let _ = signal_hook::low_level::emulate_default_handler(signal);
    std::process::exit(128 + signal)
}

/// Removes the temporary files of writes in progress and kills the engines. Returns the
/// lock on the list of temporary files: held until the process ends, no write can start
/// or finish.
fn clean_up() -> kamisado_files::TemporaryFilesRemoved {
    let files = kamisado_files::remove_temporary_files();
    kamisado_referee::process::end_all_engines();
    files
}

/// Cleans up and exits with `code`, for a run that cannot go on: its output is gone.
pub fn exit(code: i32) -> ! {
    let _files_stay_locked = clean_up();
    std::process::exit(code)
}
