//! The solver's front door: values, exact remoteness, perfect moves and whole-position
//! analyses, spread over a pool of threads that share one bounded table.

use std::sync::atomic::{AtomicI32, AtomicU64, Ordering};

use rayon::prelude::*;

use crate::cancel::Cancel;
use crate::dfpn::{child_question, Prover};
use crate::remoteness::{mtdf, range_of, Remoteness};
use crate::table::Question;
use crate::walker::Walker;
use crate::{Game, Outcome, Score, Table, Value};

/// Default table size: enough for the whole Kamisado opening table with remoteness, and
/// small enough that touching it (the table is written at random, so every page is
/// touched) costs a fraction of a second.
pub const DEFAULT_TABLE_BYTES: usize = 128 << 20;

/// How the solver may use the machine.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Worker threads; at least one.
    pub threads: usize,
    /// The table's size limit in bytes; the table never grows past it.
    pub table_bytes: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            table_bytes: DEFAULT_TABLE_BYTES,
        }
    }
}

/// Why a solve did not finish.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    #[error("the search was stopped before it finished")]
    Stopped,
    #[error("cannot start {0} worker threads")]
    Threads(usize),
    #[error("cannot reserve {0} MiB for the table")]
    Memory(usize),
}

/// A position's exact result for the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution<M> {
    /// Remoteness 0 for a finished game.
    pub outcome: Outcome,
    /// Every move that keeps the outcome (fastest win, slowest loss; every drawing move).
    pub best: Vec<M>,
    /// A perfect line: exactly `outcome.remoteness` moves, ending the game.
    pub pv: Vec<M>,
}

/// One legal move and where it leads, from the mover's point of view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveResult<M> {
    pub mv: M,
    /// For the player making the move; the remoteness counts this move.
    pub outcome: Outcome,
    /// This move followed by a perfect line from the position after it.
    pub pv: Vec<M>,
}

/// A position and every one of its moves, solved exactly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis<M> {
    pub solution: Solution<M>,
    /// In the order the game lists its moves.
    pub moves: Vec<MoveResult<M>>,
}

/// A move, the position after it, and whether the turn passed to the opponent.
pub(crate) type Children<G> = Vec<(<G as Game>::Move, <G as Game>::Position, bool)>;

pub struct Solver<G: Game> {
    game: G,
    table: Table<G::Key>,
    pool: rayon::ThreadPool,
    threads: usize,
    nodes: AtomicU64,
}

impl<G: Game> Solver<G> {
    pub fn new(game: G, options: Options) -> Result<Solver<G>, SolveError> {
        let threads = options.threads.max(1);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("solver-{i}"))
            .build()
            .map_err(|_| SolveError::Threads(threads))?;
        Ok(Solver {
            game,
            table: Table::with_bytes(options.table_bytes)
                .map_err(|_| SolveError::Memory(options.table_bytes >> 20))?,
            pool,
            threads,
            nodes: AtomicU64::new(0),
        })
    }

    pub fn game(&self) -> &G {
        &self.game
    }

    pub fn table(&self) -> &Table<G::Key> {
        &self.table
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Nodes searched since the solver was made, by all threads and both searches. Read
    /// during a search, it lags by at most a few ten thousand nodes per thread.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// The proof and disproof numbers of "the side to move wins" at `pos`, as the table
    /// knows them now: how far a running [`Solver::value`] of `pos` has got, for a
    /// progress report. `(0, u32::MAX)` once a win is proved, `(u32::MAX, 0)` once it is
    /// disproved. Computed from the entries of `pos`'s children, which every search's root
    /// keeps current.
    pub fn root_numbers(&self, pos: &G::Position) -> (u32, u32) {
        let stop = Cancel::new();
        let unseen = AtomicU64::new(0);
        let mut prover = Prover::new(Walker::new(&self.game, &self.table, &stop, &unseen));
        prover.numbers(pos, Question::Wins)
    }

    /// Who wins with perfect play, by proof-number search. With several threads, the
    /// moves of the position are proved side by side and the search stops at the first
    /// move that settles the question.
    pub fn value(&self, pos: &G::Position, cancel: &Cancel) -> Result<Value, SolveError> {
        if let Some(v) = self.game.outcome(pos) {
            return Ok(v);
        }
        if self.value_at_least(pos, Value::Win, cancel)? {
            Ok(Value::Win)
        } else if !G::DRAWS {
            Ok(Value::Loss)
        } else if self.value_at_least(pos, Value::Draw, cancel)? {
            Ok(Value::Draw)
        } else {
            Ok(Value::Loss)
        }
    }

    /// Whether `pos` is worth at least `v` for its side to move ("a win?", "at least a
    /// draw?"): one of the two questions [`Solver::value`] asks, for a caller that needs
    /// only one (a split's unit, see `kamisado_analysis::units_file::Ask`). With several
    /// threads, the moves are proved side by side, as `value` does. A loss is always
    /// reached: asking for it answers yes.
    pub fn value_at_least(
        &self,
        pos: &G::Position,
        v: Value,
        cancel: &Cancel,
    ) -> Result<bool, SolveError> {
        let question = match v {
            Value::Win => Question::Wins,
            Value::Draw if G::DRAWS => Question::DrawsOrWins,
            Value::Draw => Question::Wins,
            Value::Loss => return Ok(true),
        };
        if let Some(known) = self.game.outcome(pos) {
            return Ok(known >= v);
        }
        let children = self.children(pos);
        if self.threads == 1 || children.len() < 2 {
            return self.prove(pos, question, cancel);
        }
        self.some_move_answers_yes(&children, question, cancel)
    }

    /// Whether some move answers `question` with yes for the mover, the moves proved side
    /// by side until one does.
    fn some_move_answers_yes(
        &self,
        children: &Children<G>,
        question: Question,
        cancel: &Cancel,
    ) -> Result<bool, SolveError> {
        let found = cancel.child();
        let yes = self.pool.install(|| {
            children.par_iter().any(|(_, child, passed)| {
                let answer = self.prove(child, child_question::<G>(question, *passed), &found);
                // Through a move to the opponent, the child's "no" is the mover's "yes".
                let yes = answer == Ok(!*passed);
                if yes {
                    found.cancel();
                }
                yes
            })
        });
        if yes {
            Ok(true)
        } else if cancel.is_cancelled() {
            Err(SolveError::Stopped)
        } else {
            Ok(false)
        }
    }

    /// The value of every move for the player making it, by proof-number search alone
    /// (no remoteness): the cheap half of an opening table. Moves side by side.
    pub fn move_values(
        &self,
        pos: &G::Position,
        cancel: &Cancel,
    ) -> Result<Vec<(G::Move, Value)>, SolveError> {
        let children = self.children(pos);
        self.pool.install(|| {
            children
                .par_iter()
                .map(|(m, child, passed)| {
                    let v = self.value_on_this_thread(child, cancel)?;
                    Ok((*m, if *passed { v.flip() } else { v }))
                })
                .collect()
        })
    }

    /// Whether `pos` scores at least `beta` for its side to move ("wins within 12
    /// moves?" is `Score::new(Value::Win, 12)`), by proof-number search of that one
    /// question on the calling thread; any score or bound may be asked. The answer is
    /// kept in the table as a bound. What `analyse_moves` asks, move by move, to find
    /// every move's exact remoteness.
    pub fn at_least(
        &self,
        pos: &G::Position,
        beta: Score,
        cancel: &Cancel,
    ) -> Result<bool, SolveError> {
        self.prove(pos, Question::at_least(beta), cancel)
    }

    /// The exact score (value and remoteness, see [`Score`]) of a position.
    pub fn score(&self, pos: &G::Position, cancel: &Cancel) -> Result<Score, SolveError> {
        if let Some(v) = self.game.outcome(pos) {
            return Ok(Score::new(v, 0));
        }
        let value = self.value(pos, cancel)?;
        let children = self.children(pos);
        if value == Value::Draw {
            Ok(Score::DRAW)
        } else if self.threads == 1 || children.len() < 2 {
            self.exact_on_this_thread(pos, value, cancel)
        } else {
            // MTD(f) at the root with its moves searched side by side: with a null window
            // every move is an independent question, and the first that answers "at
            // least" ends the probe.
            mtdf(range_of(Some(value)), |beta| {
                self.root_probe(&children, beta, cancel)
            })
        }
    }

    /// The exact outcome of a position: its value and remoteness.
    pub fn outcome(&self, pos: &G::Position, cancel: &Cancel) -> Result<Outcome, SolveError> {
        Ok(self.score(pos, cancel)?.outcome(&self.game, pos))
    }

    /// The best score among the children that is at least `beta` (if any), else an upper
    /// bound below `beta`, searching the moves in parallel.
    fn root_probe(
        &self,
        children: &Children<G>,
        beta: Score,
        cancel: &Cancel,
    ) -> Result<Score, SolveError> {
        let cutoff = cancel.child();
        let to_bits = |s: Score| s.to_bits() as i32;
        let best = AtomicI32::new(to_bits(Score::BELOW_ALL));
        self.pool.install(|| {
            children.par_iter().for_each(|(_, child, passed)| {
                if cutoff.is_cancelled() {
                    return;
                }
                let mut search =
                    Remoteness::new(Walker::new(&self.game, &self.table, &cutoff, &self.nodes));
                let (alpha, beta_child) = Score::child_window(beta.below(), beta, *passed);
                let child_score = search.probe(child, alpha, beta_child);
                search.publish_nodes();
                if cutoff.is_cancelled() {
                    return;
                }
                let s = child_score.through_move(*passed);
                best.fetch_max(to_bits(s), Ordering::Relaxed);
                if s >= beta {
                    cutoff.cancel();
                }
            })
        });
        let best = Score::from_bits(best.load(Ordering::Relaxed) as i16);
        if best >= beta || !cancel.is_cancelled() {
            Ok(best)
        } else {
            Err(SolveError::Stopped)
        }
    }

    /// The exact result of a position: outcome, every best move, a perfect line.
    pub fn solve(
        &self,
        pos: &G::Position,
        cancel: &Cancel,
    ) -> Result<Solution<G::Move>, SolveError> {
        let score = self.score(pos, cancel)?;
        let best = self.best_moves(pos, score, cancel)?;
        let pv = self.principal_variation(pos, score, cancel)?;
        Ok(Solution {
            outcome: score.outcome(&self.game, pos),
            best,
            pv,
        })
    }

    /// Every move of `pos` (whose exact score is `score`) that keeps that score.
    pub fn best_moves(
        &self,
        pos: &G::Position,
        score: Score,
        cancel: &Cancel,
    ) -> Result<Vec<G::Move>, SolveError> {
        let children = self.children(pos);
        let keeps: Vec<bool> = self.pool.install(|| {
            children
                .par_iter()
                .map(|(_, child, passed)| self.reaches(child, *passed, score, cancel))
                .collect::<Result<_, _>>()
        })?;
        Ok(children
            .iter()
            .zip(keeps)
            .filter_map(|((m, _, _), keep)| keep.then_some(*m))
            .collect())
    }

    /// Whether moving to `child` scores at least `score` for the mover (`passed`: the
    /// opponent moves in `child`): one null-window probe, on the calling thread, through
    /// the shared table. `score` may be any bound, not only a position's exact score.
    /// Cheaper than [`Solver::score`] on the child, which needs several probes.
    pub fn reaches(
        &self,
        child: &G::Position,
        passed: bool,
        score: Score,
        cancel: &Cancel,
    ) -> Result<bool, SolveError> {
        let mut search = Remoteness::new(Walker::new(&self.game, &self.table, cancel, &self.nodes));
        let (alpha, beta) = Score::child_window(score.below(), score, passed);
        let c = search.probe(child, alpha, beta);
        search.publish_nodes();
        if cancel.is_cancelled() {
            return Err(SolveError::Stopped);
        }
        Ok(c.through_move(passed) >= score)
    }

    /// A perfect line from `pos`, whose exact score is `score`: the first best move at
    /// every step, down to the end of the game.
    ///
    /// # Panics
    ///
    /// If `score` is not the exact score of `pos` (no move would keep it).
    pub fn principal_variation(
        &self,
        pos: &G::Position,
        score: Score,
        cancel: &Cancel,
    ) -> Result<Vec<G::Move>, SolveError> {
        let mut line = Vec::new();
        let (mut pos, mut score) = (*pos, score);
        let mut moves = Vec::new();
        while self.game.outcome(&pos).is_none() {
            self.game.moves(&pos, &mut moves);
            let player = self.game.player(&pos);
            let mut next = None;
            for &m in &moves {
                let child = self.game.play(&pos, m);
                let passed = self.game.player(&child) != player;
                if self.reaches(&child, passed, score, cancel)? {
                    next = Some((m, child, passed));
                    break;
                }
            }
            let (m, child, passed) =
                next.expect("a position with an exact score has a move that keeps it");
            line.push(m);
            pos = child;
            // On exact scores the child bound is the inverse of the move.
            score = score.child_bound(passed);
        }
        Ok(line)
    }

    /// Every move of a position solved exactly, in parallel. `progress` is called once per
    /// move as it finishes.
    ///
    /// Why this stays beside [`Solver::analyse_moves`] (the staged analysis behind the
    /// oracle's, `query` and the board): it is all or nothing, each move searched on its
    /// own with a perfect line of its own, which is what the opening table writes (one
    /// line per move) and what the cross-check tests (`tests/all_moves_vs_reference.rs`)
    /// hold the staged analysis against, the two sharing nothing but the table's search.
    /// Building one on the other would make that check compare a function with itself.
    pub fn analyse(
        &self,
        pos: &G::Position,
        cancel: &Cancel,
        progress: &(dyn Fn() + Sync),
    ) -> Result<Analysis<G::Move>, SolveError> {
        let children = self.children(pos);
        let (unique, index_of) = self.unique_children(&children);
        let scores: Vec<Score> = self.pool.install(|| {
            unique
                .par_iter()
                .map(|&c| &children[c].1)
                .enumerate()
                .map(|(u, child)| {
                    let s = self.score_on_this_thread(child, cancel);
                    let duplicates = index_of.iter().filter(|&&i| i == u).count();
                    (0..duplicates).for_each(|_| progress());
                    s
                })
                .collect::<Result<_, _>>()
        })?;
        let results: Vec<MoveResult<G::Move>> = self.pool.install(|| {
            children
                .par_iter()
                .zip(index_of)
                .map(|((m, child, passed), i)| {
                    let child_score = scores[i];
                    let mut pv = vec![*m];
                    pv.extend(self.principal_variation(child, child_score, cancel)?);
                    Ok(MoveResult {
                        mv: *m,
                        outcome: child_score.outcome(&self.game, child).through_move(*passed),
                        pv,
                    })
                })
                .collect::<Result<_, SolveError>>()
        })?;
        let best_score = results.iter().map(|r| Score::of(r.outcome)).max();
        let solution = match best_score {
            None => Solution {
                outcome: Outcome::new(self.game.outcome(pos).unwrap_or(Value::Loss), 0),
                best: Vec::new(),
                pv: Vec::new(),
            },
            Some(best_score) => {
                let best: Vec<&MoveResult<G::Move>> = results
                    .iter()
                    .filter(|r| Score::of(r.outcome) == best_score)
                    .collect();
                Solution {
                    outcome: best[0].outcome,
                    best: best.iter().map(|r| r.mv).collect(),
                    pv: best[0].pv.clone(),
                }
            }
        };
        Ok(Analysis {
            solution,
            moves: results,
        })
    }

    /// The value of one position on the current thread: "does the side to move win?",
    /// and in a game with draws, if not, "does it at least draw?".
    pub(crate) fn value_on_this_thread(
        &self,
        pos: &G::Position,
        cancel: &Cancel,
    ) -> Result<Value, SolveError> {
        if self.prove(pos, Question::Wins, cancel)? {
            Ok(Value::Win)
        } else if !G::DRAWS {
            Ok(Value::Loss)
        } else if self.prove(pos, Question::DrawsOrWins, cancel)? {
            Ok(Value::Draw)
        } else {
            Ok(Value::Loss)
        }
    }

    /// The exact score of one position on the current thread: proof-number search for
    /// the value, then the remoteness search inside the range it names.
    fn score_on_this_thread(
        &self,
        pos: &G::Position,
        cancel: &Cancel,
    ) -> Result<Score, SolveError> {
        let value = self.value_on_this_thread(pos, cancel)?;
        self.exact_on_this_thread(pos, value, cancel)
    }

    fn exact_on_this_thread(
        &self,
        pos: &G::Position,
        value: Value,
        cancel: &Cancel,
    ) -> Result<Score, SolveError> {
        let mut search = Remoteness::new(Walker::new(&self.game, &self.table, cancel, &self.nodes));
        let score = search.exact(pos, Some(value));
        search.publish_nodes();
        score.ok_or(SolveError::Stopped)
    }

    fn prove(
        &self,
        pos: &G::Position,
        question: Question,
        cancel: &Cancel,
    ) -> Result<bool, SolveError> {
        let mut prover = Prover::new(Walker::new(&self.game, &self.table, cancel, &self.nodes));
        let answer = prover.prove(pos, question);
        prover.publish_nodes();
        answer.ok_or(SolveError::Stopped)
    }

    /// Symmetric moves lead to one position under the table's key, to be solved once:
    /// the index in `children` of each distinct position, and for each child the index of
    /// its position in that list.
    pub(crate) fn unique_children(&self, children: &Children<G>) -> (Vec<usize>, Vec<usize>) {
        let mut unique: Vec<(G::Key, usize)> = Vec::new();
        let mut index_of = Vec::with_capacity(children.len());
        for (c, (_, child, _)) in children.iter().enumerate() {
            let key = self.game.key(child);
            let i = unique
                .iter()
                .position(|(k, _)| *k == key)
                .unwrap_or_else(|| {
                    unique.push((key, c));
                    unique.len() - 1
                });
            index_of.push(i);
        }
        (unique.into_iter().map(|(_, c)| c).collect(), index_of)
    }

    pub(crate) fn pool(&self) -> &rayon::ThreadPool {
        &self.pool
    }

    pub(crate) fn node_count(&self) -> &AtomicU64 {
        &self.nodes
    }

    /// Each move, the position after it, and whether the turn passed to the opponent.
    pub(crate) fn children(&self, pos: &G::Position) -> Children<G> {
        if self.game.outcome(pos).is_some() {
            return Vec::new();
        }
        let mut moves = Vec::new();
        self.game.moves(pos, &mut moves);
        let player = self.game.player(pos);
        moves
            .into_iter()
            .map(|m| {
                let child = self.game.play(pos, m);
                (m, child, self.game.player(&child) != player)
            })
            .collect()
    }
}
