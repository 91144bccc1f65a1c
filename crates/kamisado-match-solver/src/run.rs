//! Running a whole-match search: the solver and its round solver, the store and its proof
//! file, a time limit, progress reports and checkpoints.
//!
//! A run may take hours, so it reports as it goes (proof and disproof numbers at the
//! root, nodes, rounds the round solver looked at) and writes a checkpoint to the proof
//! file now and then and when it ends, stopped or not: the round boundaries proved so far
//! (by the round solver or the match search). A later run with the same file starts from
//! those facts: every round it had settled is settled at once, so the search above them
//! costs about what one round's search costs.

use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

use kamisado_match::{KeyStage, MatchMove, MatchPosition, WholeMatch};
use kamisado_solver::{Game, Options, SolveError, Solver, Value};

use crate::file::{self, ProofFileError};
use crate::game::OracleMatch;
use crate::store::{Fact, Source, Store, StoreCounts};

/// How a match solver may use the machine.
#[derive(Clone, Copy, Debug)]
pub struct MatchOptions {
    /// Threads of the match search (root-parallel, as the solver's); the round solver runs
    /// on whichever thread asks it.
    pub threads: usize,
    /// The match search's table.
    pub table_bytes: usize,
    /// The round solver's table.
    pub round_table_bytes: usize,
    /// Whether rounds are settled by the round solver (else only by search and the proof
    /// file: slower, for checking one against the other).
    pub ask_rounds: bool,
}

impl Default for MatchOptions {
    fn default() -> MatchOptions {
        MatchOptions {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            table_bytes: 1 << 30,
            round_table_bytes: 256 << 20,
            ask_rounds: true,
        }
    }
}

/// Why a match solver cannot start or finish.
#[derive(Debug, thiserror::Error)]
pub enum MatchSolveError {
    #[error(transparent)]
    Solve(#[from] SolveError),
    #[error(transparent)]
    ProofFile(#[from] ProofFileError),
}

/// How one run goes: its time limit, and how often it reports and saves.
pub struct Run<'a> {
    pub time_limit: Option<Duration>,
    /// Between progress reports.
    pub report_every: Duration,
    /// Between checkpoints of the proof file (if the solver has one); one is always
    /// written at the end of a run.
    pub checkpoint_every: Duration,
    pub progress: &'a (dyn Fn(&Progress) + Sync),
    /// Asked a few times a second: `true` stops the run as its time limit would (the
    /// proof file still gets what was proved). For a caller's interrupt.
    pub stop_asked: &'a (dyn Fn() -> bool + Sync),
}

impl<'a> Run<'a> {
    /// This run with another time limit (what is left of it, for a search inside it).
    pub fn with_time_limit(&self, time_limit: Option<Duration>) -> Run<'a> {
        Run {
            time_limit,
            ..*self
        }
    }
}

impl Default for Run<'_> {
    fn default() -> Self {
        Run {
            time_limit: None,
            report_every: Duration::from_secs(10),
            checkpoint_every: Duration::from_secs(600),
            progress: &|_| {},
            stop_asked: &|| false,
        }
    }
}

/// Where a run has got to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    pub seconds: f64,
    /// Proof and disproof numbers of "the side to move wins the match" at the root.
    pub root: (u32, u32),
    /// Nodes of the match search since the run began.
    pub nodes: u64,
    /// Nodes of the round solver since the run began.
    pub round_nodes: u64,
    /// Round starts the round solver looked at since the run began, and how many it
    /// settled.
    pub rounds_asked: u64,
    pub rounds_settled: u64,
    /// Distinct round ends met that do not end the match (see
    /// [`crate::RoundCounts::round_ends`]).
    pub round_ends: u64,
    /// The share of the match search's table in use.
    pub table_fill: f64,
    /// Facts in the store (from this and earlier runs).
    pub store: StoreCounts,
    /// While a speculating run verifies its assumptions (see [`crate::speculate`]): final
    /// rounds verified and to verify.
    pub verifying: Option<(u64, u64)>,
}

/// A proved match value and what it cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Proof {
    /// For the side to move of the position solved (at a refill choice, the round's
    /// winner).
    pub value: Value,
    pub nodes: u64,
    pub round_nodes: u64,
    pub rounds_asked: u64,
    pub rounds_settled: u64,
    pub round_ends: u64,
    pub seconds: f64,
}

impl Proof {
    /// `value` at no cost: what the rules decide, or the start of a count.
    pub fn free(value: Value) -> Proof {
        Proof {
            value,
            nodes: 0,
            round_nodes: 0,
            rounds_asked: 0,
            rounds_settled: 0,
            round_ends: 0,
            seconds: 0.0,
        }
    }
}

/// One move's search (see [`MatchSolver::move_searches`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveSearch {
    pub mv: MatchMove,
    /// Its value for the player making it, if settled in time.
    pub proof: Option<Proof>,
    /// What the search of this move took (counted from its start), settled or not.
    pub work: Progress,
}

/// The match search with its round solver, store and proof file.
pub struct MatchSolver {
    pub(crate) solver: Solver<OracleMatch>,
    pub(crate) options: MatchOptions,
    pub(crate) last_speculation: Option<crate::Speculation>,
    /// The prices of an assumed round start in speculation's searches, one search each
    /// (see [`MatchSolver::set_assumed_prices`]).
    pub(crate) assumed_prices: Vec<Option<u32>>,
    /// What the last [`MatchSolver::count_by_speculation`]'s proof rests on.
    pub(crate) last_relied_on: Vec<MatchPosition>,
    pub(crate) proof_file: Option<PathBuf>,
}

impl MatchSolver {
    /// A solver; with a `proof_file`, its facts are read first (a missing file is an
    /// empty one) and checkpoints are written to it.
    pub fn new(
        options: MatchOptions,
        proof_file: Option<&Path>,
    ) -> Result<MatchSolver, MatchSolveError> {
        let store = Arc::new(Store::new());
        if let Some(path) = proof_file {
            if path.exists() {
                for (key, fact) in file::read(path)? {
                    store.insert(key, fact);
                }
            }
        }
        MatchSolver::with_store(options, store, proof_file)
    }

    /// A solver that starts from the facts of the proof file at `path` and never writes
    /// it (a server answering from a proof another run made): what its searches prove
    /// stays in memory. Unlike [`MatchSolver::new`], a missing file is an error.
    pub fn reading(options: MatchOptions, path: &Path) -> Result<MatchSolver, MatchSolveError> {
        let store = Arc::new(Store::new());
        for (key, fact) in file::read(path)? {
            store.insert(key, fact);
        }
        MatchSolver::with_store(options, store, None)
    }

    /// Whether the store holds a proven fact about `pos` (a round's first position or a
    /// refill choice; never a position inside a round, which only the search's table
    /// holds).
    pub fn knows(&self, pos: &MatchPosition) -> bool {
        let pos = WholeMatch::root(pos);
        self.store()
            .get(self.solver.game().key(&pos))
            .and_then(Fact::value)
            .is_some()
    }

    pub(crate) fn with_store(
        options: MatchOptions,
        store: Arc<Store>,
        proof_file: Option<&Path>,
    ) -> Result<MatchSolver, MatchSolveError> {
        let game = OracleMatch::new(options.round_table_bytes, options.ask_rounds, store)?;
        Ok(MatchSolver {
            solver: Solver::new(
                game,
                Options {
                    threads: options.threads,
                    table_bytes: options.table_bytes,
                },
            )?,
            options,
            last_speculation: None,
            assumed_prices: vec![crate::speculate::ASSUMED_PRICE],
            last_relied_on: Vec::new(),
            proof_file: proof_file.map(Path::to_path_buf),
        })
    }

    /// The solver underneath, for exact outcomes, best moves and analyses of positions
    /// small enough for them (searches run with [`MatchSolver::stop`]).
    pub fn solver(&self) -> &Solver<OracleMatch> {
        &self.solver
    }

    /// The flag every search of this solver must watch (see [`OracleMatch::stop`]).
    pub fn stop(&self) -> &kamisado_solver::Cancel<'static> {
        self.solver.game().stop()
    }

    pub fn store(&self) -> &Store {
        self.solver.game().store()
    }

    /// The match value of `pos` for its side to move (pending zero-length moves are
    /// played first), reporting progress and writing checkpoints as `run` asks.
    /// `Err(Stopped)` after the time limit or [`MatchSolver::stop`]; the proof file gets
    /// what was proved either way.
    pub fn value(&self, pos: &MatchPosition, run: &Run) -> Result<Proof, MatchSolveError> {
        let pos = WholeMatch::root(pos);
        let game = self.solver.game();
        let stop = game.stop();
        stop.reset();
        let start = Instant::now();
        let base = self.counters(start);
        let progress_since = |now: Progress| Progress {
            nodes: now.nodes - base.nodes,
            round_nodes: now.round_nodes - base.round_nodes,
            rounds_asked: now.rounds_asked - base.rounds_asked,
            rounds_settled: now.rounds_settled - base.rounds_settled,
            round_ends: now.round_ends - base.round_ends,
            ..now
        };
        let (finished, wait) = channel::<()>();
        // Fine enough that a short time limit (a query's per move) is kept to a tenth.
        let tick = run
            .report_every
            .min(Duration::from_millis(200))
            .min(run.time_limit.map_or(Duration::MAX, |limit| limit / 10))
            .max(Duration::from_millis(1));
        let value = std::thread::scope(|scope| {
            let progress_since = &progress_since;
            scope.spawn(move || {
                let (mut reported, mut saved) = (Instant::now(), Instant::now());
                while let Err(RecvTimeoutError::Timeout) = wait.recv_timeout(tick) {
                    if run.time_limit.is_some_and(|limit| start.elapsed() >= limit)
                        || (run.stop_asked)()
                    {
                        stop.cancel();
                    }
                    if reported.elapsed() >= run.report_every {
                        (run.progress)(&progress_since(self.snapshot(&pos, start)));
                        reported = Instant::now();
                    }
                    if saved.elapsed() >= run.checkpoint_every {
                        // A failed checkpoint is tried again at the next one and at the end.
                        let _ = self.checkpoint();
                        saved = Instant::now();
                    }
                }
            });
            let value = self.solver.value(&pos, stop);
            drop(finished);
            value
        });
        self.checkpoint()?;
        let value = value?;
        let now = progress_since(self.snapshot(&pos, start));
        Ok(Proof {
            value,
            nodes: now.nodes,
            round_nodes: now.round_nodes,
            rounds_asked: now.rounds_asked,
            rounds_settled: now.rounds_settled,
            round_ends: now.round_ends,
            seconds: now.seconds,
        })
    }

    /// The value of every move of `pos` for the player making it, each searched in turn
    /// with `run`'s time limit; `None` for a move not settled in time (or not searched
    /// because the run was asked to stop). Checkpoints as
    /// [`MatchSolver::value`] does.
    /// `searched` gets the number of moves done after each.
    pub fn move_values(
        &self,
        pos: &MatchPosition,
        run: &Run,
        searched: &mut dyn FnMut(usize),
    ) -> Result<Vec<(MatchMove, Option<Proof>)>, MatchSolveError> {
        Ok(self
            .move_searches(pos, run, searched)?
            .into_iter()
            .map(|s| (s.mv, s.proof))
            .collect())
    }

    /// [`MatchSolver::move_values`] with the work each move's search took, settled or
    /// not: a move left unproven by the time limit still cost its nodes and seconds.
    pub fn move_searches(
        &self,
        pos: &MatchPosition,
        run: &Run,
        searched: &mut dyn FnMut(usize),
    ) -> Result<Vec<MoveSearch>, MatchSolveError> {
        let pos = WholeMatch::root(pos);
        let game = self.solver.game();
        let mut moves = Vec::new();
        if game.outcome(&pos).is_none() {
            game.moves(&pos, &mut moves);
        }
        let mut results = Vec::with_capacity(moves.len());
        for m in moves {
            let start = Instant::now();
            let before = self.counters(start);
            let work = |now: Progress| Progress {
                nodes: now.nodes - before.nodes,
                round_nodes: now.round_nodes - before.round_nodes,
                rounds_asked: now.rounds_asked - before.rounds_asked,
                rounds_settled: now.rounds_settled - before.rounds_settled,
                round_ends: now.round_ends - before.round_ends,
                ..now
            };
            if (run.stop_asked)() {
                results.push(MoveSearch {
                    mv: m,
                    proof: None,
                    work: work(self.counters(start)),
                });
                continue;
            }
            let child = game.play(&pos, m);
            let passed = game.player(&child) != game.player(&pos);
            let result = match game.outcome(&child) {
                Some(v) => Some(Proof::free(v)),
                None => match self.value(&child, run) {
                    Ok(proof) => Some(proof),
                    Err(MatchSolveError::Solve(SolveError::Stopped)) => None,
                    Err(e) => return Err(e),
                },
            };
            results.push(MoveSearch {
                mv: m,
                proof: result.map(|p| Proof {
                    value: if passed { p.value.flip() } else { p.value },
                    ..p
                }),
                work: work(self.counters(start)),
            });
            searched(results.len());
        }
        Ok(results)
    }

    /// Writes the proof file (if there is one): every fact of the store, with the round
    /// boundaries the match search has proved so far added to it. Returns the number of
    /// facts written.
    pub fn checkpoint(&self) -> Result<usize, ProofFileError> {
        self.collect_proofs();
        let Some(path) = &self.proof_file else {
            return Ok(self.store().len());
        };
        let facts = self.store().facts();
        file::write(path, &facts)?;
        Ok(facts.len())
    }

    /// Adds the round boundaries (first positions of rounds, refill choices) that the
    /// match search's table holds proofs of to the store.
    pub fn collect_proofs(&self) {
        // A speculating search's table holds values under assumptions: none of them is
        // a fact until its proof is verified (see crate::speculate).
        if self.solver.game().assumed_count() > 0 {
            return;
        }
        let store = self.store();
        self.solver.table().for_each(|key, entry| {
            if MatchPosition::key_stage(key) == KeyStage::InRound {
                return;
            }
            if let Some(value) = entry.proven_value() {
                store.insert(
                    key,
                    Fact::Proven {
                        value,
                        source: Source::Search,
                    },
                );
            }
        });
    }

    fn snapshot(&self, pos: &MatchPosition, start: Instant) -> Progress {
        Progress {
            root: self.solver.root_numbers(pos),
            ..self.counters(start)
        }
    }

    /// Everything [`MatchSolver::snapshot`] reports but the root's numbers (which may ask
    /// the round solver about the root's children).
    pub(crate) fn counters(&self, start: Instant) -> Progress {
        let game = self.solver.game();
        Progress {
            seconds: start.elapsed().as_secs_f64(),
            root: (1, 1),
            nodes: self.solver.nodes(),
            round_nodes: game.round_nodes(),
            rounds_asked: game.counts().asked.load(Ordering::Relaxed),
            rounds_settled: game.counts().settled.load(Ordering::Relaxed),
            round_ends: game.counts().round_ends.load(Ordering::Relaxed),
            table_fill: self.solver.table().fill(),
            store: self.store().counts(),
            verifying: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options() -> MatchOptions {
        MatchOptions {
            threads: 1,
            table_bytes: 16 << 20,
            round_table_bytes: 4 << 20,
            ask_rounds: true,
        }
    }

    #[test]
    fn a_reading_solver_knows_the_files_round_starts_and_never_writes_it() {
        // A final round (2-2) the round solver settles in moments.
        let start: MatchPosition = "g+oybpn+ru/8/8/8/8/8/8/U+GNOBPR+Y w - 3".parse().unwrap();
        let inside = start
            .resolve()
            .step_unchecked(start.resolve().legal_moves()[0]);
        let dir = std::env::temp_dir().join(format!("kamisado-reading-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("proofs.kmp");
        let writer = MatchSolver::new(options(), Some(&path)).unwrap();
        assert!(!writer.knows(&start));
        let proved = writer.value(&start, &Run::default()).unwrap().value;
        assert!(writer.knows(&start));
        let written = std::fs::read(&path).unwrap();

        let reader = MatchSolver::reading(options(), &path).unwrap();
        assert!(reader.knows(&start));
        assert!(
            !reader.knows(&inside),
            "a position inside a round is never a fact"
        );
        assert_eq!(reader.value(&start, &Run::default()).unwrap().value, proved);
        reader.checkpoint().unwrap();
        assert_eq!(
            std::fs::read(&path).unwrap(),
            written,
            "the file is never written"
        );

        let missing = dir.join("missing.kmp");
        assert!(matches!(
            MatchSolver::reading(options(), &missing),
            Err(MatchSolveError::ProofFile(_))
        ));
        assert!(!missing.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
