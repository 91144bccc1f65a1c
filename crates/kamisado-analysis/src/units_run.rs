//! Solving a split's units: one unit ([`solve_unit`]), or every unit a goal needs,
//! several side by side ([`UnitsRun`]).
//!
//! Why side by side, and not one search on more threads: Kamon's proof-number search
//! shares one table badly between threads (two threads searched 1.5 to 23 times the nodes
//! of one on won positions, see the README's *Where the nodes go*), while two units, each
//! one thread with a table of its own, keep one core each busy and lose nothing to each
//! other but memory bandwidth (measured on seed 4's unit `a3 c1` with a 256 MiB table:
//! 453,000 nodes a second alone, 442,000 each with a second unit beside it). Which unit a
//! free job takes is [`Split::next_beside`]: the split's order, except that a first cell
//! with no unit solved yet runs one unit at a time (its first, the likeliest refuter),
//! the other job going on to the next first cell; once one of its units is solved (for a
//! cell not refuted, a reply beaten or drawn), the cell's units run side by side. When a result makes a running unit unnecessary (a reply refutes the first
//! cell it belongs to, or another first cell proves the root won), that unit is stopped at
//! once and recorded as abandoned, with its nodes and seconds so far. So is a unit whose
//! question ([`Ask`]) no longer matters though another might: one searched for "a win?"
//! after its first cell was shown not to win, but that may still be needed for "a draw?"
//! later (with checkpoints its table is kept, and the later search starts from it).
//!
//! The scheduling is here, generic over how one unit is solved, so that the command line
//! only parses and prints, and the tests can drive the scheduler with made-up values.

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::mpsc::channel;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use kamisado_solver::{with_time_limit_under, Cancel, Game, Options, SolveError, Solver};
use kamon_core::KamonGame;

use crate::kamon::cells_text;
use crate::table_file::{self, Saved, TableFileError};
use crate::units_file::{Ask, Bounds, Goal, Split, UnitResult, UnitsFile};

/// The units running now and their solvers, for a progress display on another thread.
#[derive(Default)]
pub struct Running {
    solvers: Mutex<Vec<RunningUnit>>,
}

/// A running unit (0-based), its solver, and the nodes searched before this run (those of
/// the saved table it resumed from).
type RunningUnit = (usize, Arc<Solver<KamonGame>>, u64);

impl Running {
    /// Each running unit (0-based) with the nodes its search has expanded so far (those
    /// of the runs before, for a unit resumed from its saved table, included).
    pub fn units(&self) -> Vec<(usize, u64)> {
        let solvers = self.solvers.lock().unwrap_or_else(|e| e.into_inner());
        solvers
            .iter()
            .map(|(i, s, before)| (*i, before + s.nodes()))
            .collect()
    }

    /// Lists `unit` with its solver (and the nodes searched before it) until the returned
    /// guard is dropped (a panic of the search included).
    fn listed(&self, unit: usize, solver: Arc<Solver<KamonGame>>, before: u64) -> Listed<'_> {
        let mut solvers = self.solvers.lock().unwrap_or_else(|e| e.into_inner());
        solvers.push((unit, solver, before));
        Listed {
            running: self,
            unit,
        }
    }
}

/// A unit listed in [`Running`]; dropped, it is not.
struct Listed<'a> {
    running: &'a Running,
    unit: usize,
}

impl Drop for Listed<'_> {
    fn drop(&mut self) {
        let mut solvers = self
            .running
            .solvers
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        solvers.retain(|(i, _, _)| *i != self.unit);
    }
}

/// Where the units' tables are saved, so that a unit stopped unfinished (an interrupt,
/// its time limit, the end of a session) goes on where it stopped in a later run instead
/// of starting again (see [`crate::table_file`] for why a whole table).
#[derive(Clone, Debug)]
pub struct Checkpoints {
    /// The directory of the saved tables, one file per unit.
    pub dir: PathBuf,
    /// How often a running unit's table is saved, besides when it stops unfinished: what a
    /// run killed without warning loses at most.
    pub every: Duration,
}

impl Checkpoints {
    /// The file of unit `i`'s table: the unit's placements for a person, and a hash of
    /// its whole position text so that the units of every layout can share a directory
    /// (the text itself is in the file, and checked).
    pub fn path(&self, split: &Split, i: usize) -> PathBuf {
        let text = split.unit_record(i).to_string();
        let moves = cells_text(split.unit_moves(i)).join("-");
        self.dir.join(format!(
            "unit-{:08x}-{moves}.table",
            crc32fast::hash(text.as_bytes())
        ))
    }

    /// The file of unit `i`'s kept table ([`table_file::save_kept`]), saved beside the
    /// whole one: 4 MiB instead of the table's size, small enough to keep with the results
    /// (the whole table dies with the machine); a unit without its whole table starts
    /// from it.
    pub fn kept_path(&self, split: &Split, i: usize) -> PathBuf {
        self.path(split, i).with_extension("kept")
    }

    /// Removes the saved table of every unit that is solved or no longer needed for
    /// `goal` by what `known` (every result so far) proves: a result can make units other
    /// than its own unnecessary. (A unit stopped unfinished, or that answered one question
    /// and may be asked the other, keeps its table.) Each file's error names it.
    pub fn tidy(&self, split: &Split, known: &UnitsFile, goal: Goal) -> Result<(), String> {
        let units = known.unit_bounds(split);
        for i in 0..split.len() {
            if split.needed(i, &units, goal) {
                continue;
            }
            for path in [self.path(split, i), self.kept_path(split, i)] {
                match std::fs::remove_file(&path) {
                    Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                        return Err(format!("{}: cannot remove it: {e}", path.display()));
                    }
                    _ => {}
                }
            }
        }
        Ok(())
    }
}

/// Why a unit could not be solved or stopped (as opposed to a search stopped early,
/// which is a result without a value). One line each.
#[derive(Debug, thiserror::Error)]
pub enum UnitError {
    #[error(transparent)]
    Solve(#[from] SolveError),
    #[error("{}: {error} (delete the file to search the unit from the start)", path.display())]
    Load {
        path: PathBuf,
        error: TableFileError,
    },
    #[error("{}: cannot save the unit's table: {error}", path.display())]
    Save {
        path: PathBuf,
        error: std::io::Error,
    },
}

/// Answers `ask` about unit `i` of `split` by the proof-number search of that one question
/// (or, unless `one_question`, finds the unit's value, as `kamon solve --value-only`
/// would: see [`UnitsRun::one_question`]) with a solver and table of its own (`options`),
/// giving up when its seconds reach
/// `time_limit` or when `cancel` is raised. The result holds what is known after it: the
/// value if the answer (with `ask.known`, or the bounds the search's table holds at the
/// unit, as for a loss found while disproving a win) pins it down, else the bounds; only
/// `ask.known` if the search was stopped. It is marked neither interrupted nor abandoned
/// (the caller knows why it stopped: see [`UnitsRun::run`]). `running` lists the unit
/// while it runs.
///
/// The result's nodes and seconds are the unit's over every run: `spent` (its record's so
/// far) and this search's. With `checkpoints`, a unit whose table was saved starts from it
/// (the table's nodes and seconds so far counted, if more than `spent`, and in
/// `time_limit`); its table is saved every [`Checkpoints::every`] and whenever the search
/// ends without the unit's value (the caller removes the file when the unit no longer
/// needs it: [`Checkpoints::tidy`]).
#[allow(clippy::too_many_arguments)]
pub fn solve_unit(
    split: &Split,
    i: usize,
    ask: Ask,
    one_question: bool,
    spent: Spent,
    options: Options,
    time_limit: Option<f64>,
    cancel: &Cancel,
    running: &Running,
    checkpoints: Option<&Checkpoints>,
) -> Result<UnitResult, UnitError> {
    let record = split.unit_record(i);
    let solver = Arc::new(Solver::new(
        KamonGame::new(record.layout().clone()),
        options,
    )?);
    let text = record.to_string();
    let path = checkpoints.map(|c| c.path(split, i));
    let kept_path = checkpoints.map(|c| c.kept_path(split, i));
    // The whole table if this machine saved it, else the kept one.
    let saved_path = [&path, &kept_path]
        .into_iter()
        .flatten()
        .find(|p| p.exists());
    let mut before = match saved_path {
        Some(path) => {
            table_file::load(path, solver.table(), &text).map_err(|error| UnitError::Load {
                path: path.clone(),
                error,
            })?
        }
        _ => Saved {
            text: text.clone(),
            nodes: 0,
            seconds: 0.0,
        },
    };
    before.nodes = before.nodes.max(spent.nodes);
    before.seconds = before.seconds.max(spent.seconds);
    let node = solver.game().node(record.position());
    let started = Instant::now();
    let so_far = |solver: &Solver<KamonGame>| Saved {
        text: text.clone(),
        nodes: before.nodes + solver.nodes(),
        seconds: before.seconds + started.elapsed().as_secs_f64(),
    };
    // `path` and `kept_path` are set exactly when there are checkpoints: saving is a
    // no-op without them.
    let save = |solver: &Solver<KamonGame>| -> Result<(), UnitError> {
        let (Some(path), Some(kept_path)) = (&path, &kept_path) else {
            return Ok(());
        };
        let saved = so_far(solver);
        table_file::save(path, solver.table(), &saved).map_err(|error| UnitError::Save {
            path: path.clone(),
            error,
        })?;
        table_file::save_kept(kept_path, solver.table(), &saved, table_file::KEPT_ENTRIES).map_err(
            |error| UnitError::Save {
                path: kept_path.clone(),
                error,
            },
        )
    };
    let value = {
        let _listed = running.listed(i, Arc::clone(&solver), before.nodes);
        loop {
            let left = time_limit.map(|limit| limit - so_far(&solver).seconds);
            if left.is_some_and(|left| left <= 0.0) {
                break None;
            }
            // The search runs in slices between saves; a slice ends at the next save or at
            // the time limit, whichever comes first, and a search started again from the
            // root over the same table goes on down the path where it stopped (the
            // table's stopped paths).
            let every = checkpoints.map(|c| c.every.as_secs_f64());
            let slice = match (left, every) {
                (Some(l), Some(e)) => Some(l.min(e)),
                (l, e) => l.or(e),
            };
            let result = with_time_limit_under(cancel, slice.map(Duration::from_secs_f64), |c| {
                if one_question {
                    solver
                        .value_at_least(&node, ask.at_least, c)
                        .map(|yes| ask.answered(yes))
                } else {
                    solver.value(&node, c).map(|v| (v, v))
                }
            });
            match result {
                Ok(v) => break Some(v),
                Err(SolveError::Stopped) => {
                    let out_of_time = left.is_some_and(|l| slice.is_some_and(|s| s >= l));
                    if cancel.is_cancelled() || out_of_time || every.is_none() {
                        break None;
                    }
                    save(&solver)?;
                }
                Err(e) => return Err(e.into()),
            }
        }
    };
    let mut bounds = match value {
        Some((lo, hi)) => (lo.max(ask.known.0), hi.min(ask.known.1)),
        None => ask.known,
    };
    if let Some(v) = solver
        .table()
        .get(solver.game().key(&node))
        .and_then(|entry| entry.proven_value())
    {
        // The search's own bounds at the unit: what it proved on the way (the table only
        // holds what its searches proved).
        if (bounds.0..=bounds.1).contains(&v) {
            bounds = (v, v);
        }
    }
    if bounds.0 != bounds.1 {
        // Unfinished, or one question answered: the unit may be asked again.
        save(&solver)?;
    }
    let Saved { nodes, seconds, .. } = so_far(&solver);
    let to_move = record.position().turn();
    let mut result = UnitResult {
        moves: cells_text(split.unit_moves(i)),
        to_move: to_move.name().to_string(),
        value: None,
        winner: None,
        at_least: None,
        at_most: None,
        nodes,
        seconds: (seconds * 1000.0).round() / 1000.0,
        threads: solver.threads(),
        hash_mb: (solver.table().bytes() >> 20) as u64,
        time_limit,
        interrupted: false,
        abandoned: false,
        load: crate::load_average(),
    };
    result.set_bounds(to_move, bounds);
    Ok(result)
}

/// What a unit's searches have cost so far, over every run: its record's nodes and
/// seconds (see [`solve_unit`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Spent {
    pub nodes: u64,
    pub seconds: f64,
}

impl Spent {
    /// What `result` says was spent on its unit.
    pub fn of(result: &UnitResult) -> Spent {
        Spent {
            nodes: result.nodes,
            seconds: result.seconds,
        }
    }
}

/// Marks why a unit's search stopped without an answer (its result knows no more than the
/// `known` it was asked with): out of its time limit, interrupted by `stop`, or abandoned
/// by the run (`abandon`, the unit's own flag, if the run has one).
/// [`UnitsRun::run`] reads it in the unit's own thread as soon as the search returns, so
/// that a flag raised later, while the result waits to be recorded, does not relabel it.
pub fn why_stopped(
    mut result: UnitResult,
    known: Bounds,
    stop: &Cancel,
    abandon: Option<&Cancel>,
) -> UnitResult {
    let out_of_time = result
        .time_limit
        .is_some_and(|limit| result.seconds >= limit);
    if result.bounds() == known && !out_of_time {
        result.interrupted = stop.is_cancelled();
        result.abandoned = !result.interrupted && abandon.is_some_and(|a| a.is_cancelled());
    }
    result
}

/// Raises every unit's abandon flag when dropped.
struct AbandonAllOnDrop<'a, 'b>(&'a [Cancel<'b>]);

impl Drop for AbandonAllOnDrop<'_, '_> {
    fn drop(&mut self) {
        for flag in self.0 {
            flag.cancel();
        }
    }
}

/// How to solve a split's units: every unit the goal still needs, in the split's order.
#[derive(Clone, Copy, Debug)]
pub struct UnitsRun {
    pub goal: Goal,
    /// Units solved side by side (at least 1), each by its own search and table.
    pub jobs: usize,
    /// Start at most this many units (a unit asked a second question counts again).
    pub max_units: Option<usize>,
    /// Whether a unit's search answers only the one question the root needs of it
    /// ([`Ask`]), and a running unit whose question no longer matters, though the other
    /// might later, is stopped (abandoned) to be asked that one later. Right when each
    /// unit's table is saved (checkpoints), so that a second search starts from the first's
    /// table: then a lost unit's second question walks the first's proof, as it does inside
    /// one value search. Without saved tables, a unit's search finds its value (both
    /// questions in one table) and runs to the end: a second question from nothing would
    /// cost a lost unit's search twice, and a lost layout (every first cell refuted) needs
    /// every refutation's second question.
    pub one_question: bool,
}

impl UnitsRun {
    /// Solves what `known` (every result known so far) leaves needed for the goal:
    /// starts the next needed unit ([`Split::next_beside`]: the split's order, but one
    /// unit at a time for a first cell none of whose units is solved) whenever fewer
    /// than `jobs` run, until the goal is settled, `max_units` have been started, or
    /// `stop` is raised. `solve(i, ask, spent, cancel)` answers `ask` ([`Split::ask`])
    /// about unit `i`, whose searches so far cost `spent` (on a thread of its own), and
    /// must return soon after `cancel` is raised, with a result that knows no more than
    /// `ask.known`.
    ///
    /// Each result goes to `finished` on this thread, in the order the units finish,
    /// marked (unless it ran out of its time limit) `interrupted` if `stop` stopped it and
    /// `abandoned` if the run stopped it because the results finished beside it made it
    /// unnecessary, or its question no longer the one to ask of it. A unit is started at
    /// most twice: once for the root's "a win?" and once for its "a draw?", after an answer
    /// to the first that left the second open or after it was abandoned for it. An error
    /// from `solve` or `finished` stops the units still running (they are not reported:
    /// their work is lost) and is returned once they have returned; a panic of `solve` or
    /// `finished` is passed on the same way.
    pub fn run<E: Send>(
        &self,
        split: &Split,
        known: &UnitsFile,
        stop: &Cancel,
        solve: impl Fn(usize, Ask, Spent, &Cancel) -> Result<UnitResult, E> + Sync,
        mut finished: impl FnMut(usize, UnitResult) -> Result<(), E>,
    ) -> Result<(), E> {
        // Each unit's search makes a table of the same size: a finished unit's table
        // memory goes to the next (kamisado-solver's `keep_dropped_tables`), and back
        // to the system when the run ends.
        kamisado_solver::keep_dropped_tables(self.jobs.max(1));
        struct KeepNoTables;
        impl Drop for KeepNoTables {
            fn drop(&mut self) {
                kamisado_solver::keep_dropped_tables(0);
            }
        }
        let _keep_none_after = KeepNoTables;
        let mut units = known.unit_bounds(split);
        let mut spent = vec![Spent::default(); split.len()];
        for result in &known.units {
            if let Ok(i) = result.check(split) {
                spent[i] = Spent::of(result);
            }
        }
        // Two flags per unit below `stop`, one per start (`2 i` and `2 i + 1`): raised to
        // abandon that unit alone. (A raised flag stays raised: a second start needs its own.)
        let abandon: Vec<Cancel> = (0..2 * split.len()).map(|_| stop.child()).collect();
        // Each unit's result, or the panic that ended its thread (passed on to the caller
        // once the other units have stopped, so that no thread waits for one that died).
        type Report<E> = std::thread::Result<Result<UnitResult, E>>;
        let (report, reports) = channel::<(usize, Report<E>)>();
        std::thread::scope(|scope| {
            // However this thread leaves the scope (a panic of `finished` included), the
            // units still running are stopped first: the scope waits for them.
            let _stop_all = AbandonAllOnDrop(&abandon);
            let mut started = vec![false; split.len()];
            let mut starts = vec![0; split.len()];
            let flag = |i: usize, starts: &[usize]| 2 * i + starts[i] - 1;
            let mut count = 0;
            let mut running: Vec<usize> = Vec::new();
            // What each running unit was asked.
            let mut asked: Vec<Option<Ask>> = vec![None; split.len()];
            let mut failure = None;
            let mut panicked = None;
            loop {
                while failure.is_none()
                    && panicked.is_none()
                    && running.len() < self.jobs.max(1)
                    && self.max_units.is_none_or(|max| count < max)
                    && !stop.is_cancelled()
                {
                    let Some(i) = split.next_beside(&units, &started, &running, self.goal) else {
                        break;
                    };
                    let ask = split
                        .ask(i, &units, self.goal)
                        .expect("the next unit is needed");
                    asked[i] = Some(ask);
                    started[i] = true;
                    starts[i] += 1;
                    count += 1;
                    running.push(i);
                    let cancel = &abandon[flag(i, &starts)];
                    let (report, solve, so_far) = (report.clone(), &solve, spent[i]);
                    scope.spawn(move || {
                        let result = catch_unwind(AssertUnwindSafe(|| {
                            solve(i, ask, so_far, cancel)
                                .map(|result| why_stopped(result, ask.known, stop, Some(cancel)))
                        }));
                        let _ = report.send((i, result));
                    });
                }
                let Some((i, result)) = running.first().and_then(|_| reports.recv().ok()) else {
                    break;
                };
                running.retain(|&j| j != i);
                let result = match result {
                    Ok(result) => result,
                    Err(panic) => {
                        for &j in &running {
                            abandon[flag(j, &starts)].cancel();
                        }
                        panicked = Some(panic);
                        continue;
                    }
                };
                if failure.is_some() || panicked.is_some() {
                    continue;
                }
                let outcome = result.and_then(|result| {
                    let (a, b) = (units[i], result.bounds());
                    units[i] = (a.0.max(b.0), a.1.min(b.1));
                    spent[i] = Spent::of(&result);
                    // Answered, or abandoned for its question: it may be asked the other.
                    if (units[i] != a || result.abandoned) && starts[i] < 2 {
                        started[i] = false;
                    }
                    finished(i, result)
                });
                match outcome {
                    Ok(()) => {
                        for &j in &running {
                            let ask = split.ask(j, &units, self.goal);
                            let moot = ask.is_none() || self.one_question;
                            if ask != asked[j] && moot {
                                abandon[flag(j, &starts)].cancel();
                            }
                        }
                    }
                    Err(e) => {
                        for &j in &running {
                            abandon[flag(j, &starts)].cancel();
                        }
                        failure = Some(e);
                    }
                }
            }
            if let Some(panic) = panicked {
                resume_unwind(panic);
            }
            failure.map_or(Ok(()), Err)
        })
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use kamisado_solver::Value;
    use kamon_core::Record;

    use super::*;
    use crate::units_file::tests::{made_up, unit_result as result};

    /// A unit stopped unfinished with checkpoints goes on from its saved table: the same
    /// answer as one search from the start, and the stopped and resumed runs together
    /// within 2% of that search's nodes; saving and restarting the search every few
    /// hundredths of a second changes no answer either, and costs a descent per restart. The table is kept while the unit may be asked again. A damaged or
    /// mismatched saved table is refused.
    #[test]
    fn a_unit_resumed_from_its_saved_table_keeps_its_work_and_its_value() {
        // Unit 0 (White's b5) answers "at least a draw" and stays open: the other
        // question is asked below.
        let split = Split::new(Record::random(6, 10).unwrap(), 1).unwrap();
        let options = Options {
            threads: 1,
            table_bytes: 32 << 20,
        };
        let dir = std::env::temp_dir().join(format!("units-run-{}", std::process::id()));
        let checkpoints = Checkpoints {
            dir: dir.clone(),
            every: Duration::from_millis(40),
        };
        std::fs::create_dir_all(&dir).unwrap();
        let units = vec![crate::units_file::UNKNOWN; split.len()];
        let ask = split
            .ask(0, &units, Goal::Root)
            .expect("a first unit is needed");
        let solve_with = |ask: Ask,
                          spent: Spent,
                          options: Options,
                          cancel: &Cancel,
                          running: &Running,
                          c: Option<&Checkpoints>| {
            solve_unit(
                &split, 0, ask, true, spent, options, None, cancel, running, c,
            )
        };
        let solve = |cancel: &Cancel, running: &Running, c: Option<&Checkpoints>| {
            solve_with(ask, Spent::default(), options, cancel, running, c).unwrap()
        };
        let whole = solve(&Cancel::new(), &Running::default(), None);
        let answer = whole.bounds();
        assert_ne!(answer, ask.known, "answered");
        let path = checkpoints.path(&split, 0);

        // Saved and started again every 40 ms: the same answer.
        let sliced = solve(&Cancel::new(), &Running::default(), Some(&checkpoints));
        assert_eq!(sliced.bounds(), answer);
        // Each slice goes on down the path where the last stopped (the table's stopped
        // paths): about the nodes of the search in one piece, plus a descent (a few dozen
        // nodes) per restart. Slices are of wall time, so their number grows with the
        // machine's load: the bound is loose. (Started again from the root without the
        // path, a slice could wander into siblings the search never needed.)
        assert!(
            sliced.nodes <= whole.nodes + whole.nodes / 2,
            "{} nodes in slices, against {} in one piece",
            sliced.nodes,
            whole.nodes
        );
        assert!(path.exists(), "{} nodes and no table saved", sliced.nodes);
        let mut known = UnitsFile::new(&split);
        checkpoints.tidy(&split, &known, Goal::Root).unwrap();
        assert!(path.exists(), "a unit still needed keeps its table");
        known.add(&split, sliced.clone(), "sliced").unwrap();
        checkpoints.tidy(&split, &known, Goal::Root).unwrap();
        let needed = split.needed(0, &known.unit_bounds(&split), Goal::Root);
        assert_eq!(path.exists(), needed);
        let _ = std::fs::remove_file(&path);
        let _ = std::fs::remove_file(checkpoints.kept_path(&split, 0));

        // Stopped after a third of the nodes of the whole search, then resumed.
        let stop = Cancel::new();
        let running = Running::default();
        let stopped = std::thread::scope(|scope| {
            scope.spawn(|| {
                while running
                    .units()
                    .first()
                    .is_none_or(|&(_, n)| n < whole.nodes / 3)
                {
                    std::thread::sleep(Duration::from_millis(1));
                }
                stop.cancel();
            });
            let checkpoints = Checkpoints {
                every: Duration::from_secs(3600),
                ..checkpoints.clone()
            };
            solve(&stop, &running, Some(&checkpoints))
        });
        assert_eq!(stopped.bounds(), ask.known);
        assert!(path.exists());
        let mut known = UnitsFile::new(&split);
        known
            .add(
                &split,
                why_stopped(stopped.clone(), ask.known, &stop, None),
                "stopped",
            )
            .unwrap();
        checkpoints.tidy(&split, &known, Goal::Root).unwrap();
        assert!(path.exists(), "an unfinished unit keeps its table");
        let saved = std::fs::read(&path).unwrap();
        let kept_path = checkpoints.kept_path(&split, 0);
        let kept = std::fs::read(&kept_path).unwrap();
        assert!(kept.len() < saved.len(), "{} {}", kept.len(), saved.len());
        let resumed = solve(&Cancel::new(), &Running::default(), Some(&checkpoints));
        assert_eq!(resumed.bounds(), answer);
        assert!(resumed.nodes > stopped.nodes && resumed.seconds > stopped.seconds);
        let resumed_run = resumed.nodes - stopped.nodes;
        // The work before the stop is kept: the two runs together take about the nodes of
        // the search in one piece.
        assert!(
            resumed.nodes <= whole.nodes + whole.nodes / 50,
            "resumed after {} nodes, {resumed_run} more, against {} in one piece",
            stopped.nodes,
            whole.nodes
        );
        // On another machine (the whole table gone, the kept one brought along): the same
        // answer, the nodes and seconds counted on from the stopped run's.
        std::fs::remove_file(&path).unwrap();
        std::fs::write(&kept_path, &kept).unwrap();
        let elsewhere = solve(&Cancel::new(), &Running::default(), Some(&checkpoints));
        assert_eq!(elsewhere.bounds(), answer);
        assert!(elsewhere.nodes > stopped.nodes && elsewhere.seconds > stopped.seconds);
        // A damaged table, whole or kept, or one of another size, stops the unit with its
        // file named.
        let refused = |options: Options| {
            solve_with(
                ask,
                Spent::default(),
                options,
                &Cancel::new(),
                &Running::default(),
                Some(&checkpoints),
            )
            .unwrap_err()
            .to_string()
        };
        std::fs::remove_file(&path).unwrap();
        for (bytes, file, at, named) in [
            (&kept, &kept_path, kept.len() - 1, ".kept"),
            (&saved, &path, saved.len() / 2, ".table"),
        ] {
            let mut damaged = bytes.clone();
            damaged[at] ^= 1;
            std::fs::write(file, &damaged).unwrap();
            let message = refused(options);
            assert!(
                message.contains("checksum") && message.contains(named),
                "{message}"
            );
            std::fs::remove_file(file).unwrap();
        }
        std::fs::write(&path, &saved).unwrap();
        let message = refused(Options {
            table_bytes: 16 << 20,
            ..options
        });
        assert!(message.contains("--hash-mb 32"), "{message}");

        // Answered with checkpoints that never fire on their own: the table is saved
        // exactly when the unit is still open, and the other question, asked from it,
        // gives the plain value and counts both searches' nodes.
        std::fs::remove_file(&path).unwrap();
        let long = Checkpoints {
            every: Duration::from_secs(3600),
            ..checkpoints.clone()
        };
        let first = solve(&Cancel::new(), &Running::default(), Some(&long));
        assert_eq!(first.bounds(), answer);
        assert_eq!(path.exists(), answer.0 != answer.1);
        let game = KamonGame::new(split.root.layout().clone());
        let plain = Solver::new(game.clone(), options)
            .unwrap()
            .value(&game.node(&split.unit_position(0)), &Cancel::new())
            .unwrap();
        assert_eq!(answer, (Value::Draw, Value::Win), "the unit stays open");
        {
            let other = Ask {
                known: answer,
                at_least: if answer.0 == Value::Draw {
                    Value::Win
                } else {
                    Value::Draw
                },
            };
            let second = solve_with(
                other,
                Spent::of(&first),
                options,
                &Cancel::new(),
                &Running::default(),
                Some(&long),
            )
            .unwrap();
            assert_eq!(second.bounds(), (plain, plain));
            assert!(second.nodes > first.nodes && second.seconds >= first.seconds);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Several units side by side settle the goal as one at a time does: the same root
    /// (and first cells') bounds from made-up values, each unit answering only what it is
    /// asked, asked each question at most once, never more than `jobs` at a time, and
    /// every unit the run abandoned one whose question the results had made unnecessary.
    #[test]
    fn side_by_side_settles_what_one_at_a_time_settles() {
        for (seed, after, depth) in [(1, 0, 2), (3, 6, 2), (4, 10, 3)] {
            let split = Split::new(Record::random(seed, after).unwrap(), depth).unwrap();
            for salt in 0..6 {
                for goal in [Goal::Root, Goal::EveryFirstCell] {
                    let settled = |jobs: usize, pause: bool| {
                        let known = UnitsFile::new(&split);
                        let mut file = UnitsFile::new(&split);
                        let (now, most) = (AtomicUsize::new(0), AtomicUsize::new(0));
                        let run = UnitsRun {
                            goal,
                            jobs,
                            max_units: None,
                            one_question: pause,
                        };
                        let asks = Mutex::new(vec![Vec::new(); split.len()]);
                        let solve = |i: usize,
                                     ask: Ask,
                                     _: Spent,
                                     cancel: &Cancel|
                         -> Result<UnitResult, String> {
                            asks.lock().unwrap()[i].push(ask);
                            most.fetch_max(
                                now.fetch_add(1, Ordering::SeqCst) + 1,
                                Ordering::SeqCst,
                            );
                            // Every third unit takes a while, unless abandoned.
                            let slow = i.is_multiple_of(3);
                            let until =
                                Instant::now() + Duration::from_millis(if slow { 20 } else { 1 });
                            while Instant::now() < until && !cancel.is_cancelled() {
                                std::thread::sleep(Duration::from_micros(200));
                            }
                            now.fetch_sub(1, Ordering::SeqCst);
                            let mut r = result(&split, i, None);
                            let bounds = if cancel.is_cancelled() {
                                ask.known
                            } else {
                                let value = made_up(split.unit_moves(i), salt, 2 + salt);
                                ask.answered(value >= ask.at_least)
                            };
                            r.set_bounds(split.unit_position(i).turn(), bounds);
                            Ok(r)
                        };
                        run.run(&split, &known, &Cancel::new(), solve, |i, r| {
                            let asked = asks.lock().unwrap()[i].clone();
                            let ask = *asked.last().unwrap();
                            assert!(
                                asked.len() <= 2 && !asked[..asked.len() - 1].contains(&ask),
                                "unit {i} asked {asked:?}"
                            );
                            if r.abandoned {
                                let now = split.ask(i, &file.unit_bounds(&split), goal);
                                assert_ne!(now, Some(ask), "unit {i}");
                                assert!(pause || now.is_none(), "unit {i} paused: {now:?}");
                            }
                            assert!(r.bounds() != ask.known || r.abandoned, "unit {i}");
                            file.add(&split, r, "run").map_err(|e| e.to_string())
                        })
                        .unwrap();
                        assert!(most.load(Ordering::SeqCst) <= jobs);
                        file.summary(&split)
                    };
                    let one = settled(1, false);
                    let three = settled(3, salt % 2 == 0);
                    let what =
                        format!("seed {seed} after {after} depth {depth} salt {salt} {goal:?}");
                    assert!(one.value.is_some(), "{what}");
                    assert_eq!(
                        (three.at_least, three.at_most),
                        (one.at_least, one.at_most),
                        "{what}"
                    );
                    if goal == Goal::EveryFirstCell {
                        let cells = |s: &crate::units_file::Summary| {
                            s.first_cells.iter().map(|c| c.value).collect::<Vec<_>>()
                        };
                        assert_eq!(cells(&three), cells(&one), "{what}");
                    }
                }
            }
        }
    }

    /// A first cell with no reply solved yet runs one unit at a time: beside its first
    /// unit, a second job starts the next first cell's first unit, not a second reply;
    /// once a reply is beaten its units run side by side again, and so they do when no
    /// other first cell has a unit left to start. Alone, a job takes the split's order.
    #[test]
    fn an_untouched_first_cell_runs_one_unit_at_a_time() {
        let split = Split::new(Record::random(1, 0).unwrap(), 2).unwrap();
        let n = split.len();
        let cell = |i: usize| split.unit_moves(i)[0];
        let next_cell = (0..n).find(|&i| cell(i) != cell(0)).unwrap();
        assert!(
            next_cell >= 2,
            "the first cell has replies to run side by side"
        );
        let none = vec![crate::units_file::UNKNOWN; n];
        let mut started = vec![false; n];
        assert_eq!(
            split.next_beside(&none, &started, &[], Goal::Root),
            split.next(&none, &started, Goal::Root)
        );
        started[0] = true;
        for goal in [Goal::Root, Goal::EveryFirstCell] {
            assert_eq!(
                split.next_beside(&none, &started, &[0], goal),
                Some(next_cell)
            );
        }
        // Unit 0 beaten (a win for its side to move): unit 1 may run beside unit 2.
        let mut values = none.clone();
        values[0] = (Value::Win, Value::Win);
        started[2] = true;
        assert_eq!(
            split.next_beside(&values, &started, &[2], Goal::Root),
            Some(1)
        );
        // Every other first cell refuted (a loss for the side to move at one reply each):
        // nothing else to start, so the untouched cell's second reply runs beside its first.
        let values: Vec<_> = (0..n)
            .map(|i| {
                let refutes = cell(i) != cell(0) && cell(i - 1) != cell(i);
                if refutes {
                    (Value::Loss, Value::Loss)
                } else {
                    crate::units_file::UNKNOWN
                }
            })
            .collect();
        let mut started = vec![false; n];
        started[0] = true;
        assert_eq!(
            split.next_beside(&values, &started, &[0], Goal::Root),
            Some(1)
        );
    }

    /// A unit still running when a result beside it refutes its first cell is stopped and
    /// recorded as abandoned; a stop asked of the run is recorded as interrupted.
    #[test]
    fn a_unit_made_unnecessary_is_abandoned_and_a_stop_interrupts() {
        let split = Split::new(Record::random(1, 0).unwrap(), 2).unwrap();
        // Units 0, 1 and 2 are replies to the same first cell (the split's order lists a
        // first cell's replies together). Unit 0 is known won for the side to move, so
        // the cell's units run side by side (see `Split::next_beside`): 1 and 2 start
        // together, and a loss at unit 2 refutes the cell while 1 still runs.
        assert_eq!(split.unit_moves(0)[0], split.unit_moves(2)[0]);
        let mut known = UnitsFile::new(&split);
        known
            .add(&split, result(&split, 0, Some(Value::Win)), "known")
            .unwrap();
        let run = UnitsRun {
            goal: Goal::Root,
            jobs: 2,
            max_units: Some(2),
            one_question: true,
        };
        let wait_for_cancel = |cancel: &Cancel| {
            while !cancel.is_cancelled() {
                std::thread::sleep(Duration::from_millis(1));
            }
        };
        let mut results = Vec::new();
        run.run(
            &split,
            &known,
            &Cancel::new(),
            |i, _, _, cancel| -> Result<UnitResult, ()> {
                if i == 1 {
                    wait_for_cancel(cancel);
                    return Ok(result(&split, 1, None));
                }
                Ok(result(&split, i, Some(Value::Loss)))
            },
            |i, r| {
                results.push((i, r.value(), r.abandoned, r.interrupted));
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(
            results,
            [(2, Some(Value::Loss), false, false), (1, None, true, false)]
        );

        let stop = Cancel::new();
        let mut results = Vec::new();
        run.run(
            &split,
            &UnitsFile::new(&split),
            &stop,
            |i, _, _, cancel| -> Result<UnitResult, ()> {
                stop.cancel();
                wait_for_cancel(cancel);
                Ok(result(&split, i, None))
            },
            |i, r| {
                results.push((i, r.abandoned, r.interrupted));
                Ok(())
            },
        )
        .unwrap();
        // At least the first unit started before the stop was seen; none abandoned.
        assert!(!results.is_empty() && results.iter().all(|&(_, a, int)| !a && int));

        // A unit whose search panics stops the one beside it, and the run passes the
        // panic on instead of waiting for it.
        let panicked = std::panic::catch_unwind(AssertUnwindSafe(|| {
            run.run(
                &split,
                &known,
                &Cancel::new(),
                |i, _, _, cancel| -> Result<UnitResult, ()> {
                    if i == 2 {
                        panic!("unit 2 failed");
                    }
                    wait_for_cancel(cancel);
                    Ok(result(&split, i, None))
                },
                |_, _| Ok(()),
            )
        }));
        assert!(panicked.is_err());
    }
}
