//! The solver's front door: values, exact remoteness, perfect moves and whole-position
//! analyses, spread over a pool of threads that share one bounded table.

use std::sync::atomic::{AtomicI32, AtomicU64, Ordering};

use rayon::prelude::*;

use crate::cancel::Cancel;
use crate::dfpn::Prover;
use crate::remoteness::{child_score_for, child_window, through_move, value_of, Remoteness};
use crate::{Game, Table, Value};

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
    pub value: Value,
    /// Moves to the end under perfect play (0 for a finished game).
    pub remoteness: u32,
    /// Every move that keeps the value with the best remoteness (fastest win, slowest loss).
    pub best: Vec<M>,
    /// A perfect line: exactly `remoteness` moves, ending the game.
    pub pv: Vec<M>,
}

/// One legal move and where it leads, from the mover's point of view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveResult<M> {
    pub mv: M,
    /// The value for the player making the move.
    pub value: Value,
    /// Moves to the end, counting this one, under perfect play after it.
    pub remoteness: u32,
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

pub struct Solver<G: Game> {
    game: G,
    table: Table,
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

    pub fn table(&self) -> &Table {
        &self.table
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Nodes searched since the solver was made, by all threads and both searches.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// Who wins with perfect play, by proof-number search. With several threads, the
    /// moves of the position are proved side by side and the search stops at the first
    /// winning one.
    pub fn value(&self, pos: &G::Position, cancel: &Cancel) -> Result<Value, SolveError> {
        if let Some(v) = self.game.outcome(pos) {
            return Ok(v);
        }
        let children = self.children(pos);
        if self.threads == 1 || children.len() < 2 {
            return self.prove(pos, cancel);
        }
        let found = cancel.child();
        let winning = self.pool.install(|| {
            children.par_iter().any(|(_, child, passed)| {
                // A move wins when the position after it is lost for the opponent, or won
                // for the mover if zero-length moves gave the mover the turn again.
                let wanted = if *passed { Value::Loss } else { Value::Win };
                let wins = self.prove(child, &found) == Ok(wanted);
                if wins {
                    found.cancel();
                }
                wins
            })
        });
        if winning {
            Ok(Value::Win)
        } else if cancel.is_cancelled() {
            Err(SolveError::Stopped)
        } else {
            Ok(Value::Loss)
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
                    let v = self.prove(child, cancel)?;
                    Ok((*m, if *passed { v.flip() } else { v }))
                })
                .collect()
        })
    }

    /// The exact score (value and remoteness, see [`crate::remoteness`]) of a position.
    pub fn score(&self, pos: &G::Position, cancel: &Cancel) -> Result<i32, SolveError> {
        if let Some(v) = self.game.outcome(pos) {
            return Ok(crate::remoteness::score(v, 0));
        }
        let value = self.value(pos, cancel)?;
        let children = self.children(pos);
        if self.threads == 1 || children.len() < 2 {
            let mut search = Remoteness::new(&self.game, &self.table, cancel);
            let score = search.exact(pos, Some(value));
            self.nodes.fetch_add(search.nodes(), Ordering::Relaxed);
            return score.ok_or(SolveError::Stopped);
        }
        // MTD(f) at the root with its moves searched side by side: with a null window
        // every move is an independent question, and the first that answers "at least"
        // ends the probe.
        let (mut low, mut high) = match value {
            Value::Win => (1, crate::remoteness::WIN),
            Value::Loss => (-crate::remoteness::WIN, -1),
        };
        let mut guess = high;
        while low < high {
            let beta = if guess == low { guess + 1 } else { guess };
            guess = self.root_probe(&children, beta, cancel)?;
            if guess < beta {
                high = guess;
            } else {
                low = guess;
            }
        }
        Ok(low)
    }

    /// The best score among the children that is at least `beta` (if any), else an upper
    /// bound below `beta`, searching the moves in parallel.
    fn root_probe(
        &self,
        children: &[(G::Move, G::Position, bool)],
        beta: i32,
        cancel: &Cancel,
    ) -> Result<i32, SolveError> {
        let cutoff = cancel.child();
        let best = AtomicI32::new(i32::MIN);
        self.pool.install(|| {
            children.par_iter().for_each(|(_, child, passed)| {
                if cutoff.is_cancelled() {
                    return;
                }
                let mut search = Remoteness::new(&self.game, &self.table, &cutoff);
                let (alpha, beta_child) = child_window(beta - 1, beta, *passed);
                let child_score = search.probe(child, alpha, beta_child);
                self.nodes.fetch_add(search.nodes(), Ordering::Relaxed);
                if cutoff.is_cancelled() {
                    return;
                }
                let s = through_move(child_score, *passed);
                best.fetch_max(s, Ordering::Relaxed);
                if s >= beta {
                    cutoff.cancel();
                }
            })
        });
        let best = best.load(Ordering::Relaxed);
        if best >= beta {
            Ok(best)
        } else if cancel.is_cancelled() {
            Err(SolveError::Stopped)
        } else {
            Ok(best)
        }
    }

    /// The exact result of a position: value, remoteness, every best move, a perfect line.
    pub fn solve(
        &self,
        pos: &G::Position,
        cancel: &Cancel,
    ) -> Result<Solution<G::Move>, SolveError> {
        let score = self.score(pos, cancel)?;
        let (value, remoteness) = value_of(score);
        let best = self.best_moves(pos, score, cancel)?;
        let pv = self.principal_variation(pos, score, cancel)?;
        Ok(Solution {
            value,
            remoteness,
            best,
            pv,
        })
    }

    /// Every move of `pos` (whose exact score is `score`) that keeps that score.
    pub fn best_moves(
        &self,
        pos: &G::Position,
        score: i32,
        cancel: &Cancel,
    ) -> Result<Vec<G::Move>, SolveError> {
        if self.game.outcome(pos).is_some() {
            return Ok(Vec::new());
        }
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

    /// Whether moving to `child` scores at least `score` for the mover.
    fn reaches(
        &self,
        child: &G::Position,
        passed: bool,
        score: i32,
        cancel: &Cancel,
    ) -> Result<bool, SolveError> {
        let mut search = Remoteness::new(&self.game, &self.table, cancel);
        let (alpha, beta) = child_window(score - 1, score, passed);
        let c = search.probe(child, alpha, beta);
        self.nodes.fetch_add(search.nodes(), Ordering::Relaxed);
        if cancel.is_cancelled() {
            return Err(SolveError::Stopped);
        }
        Ok(through_move(c, passed) >= score)
    }

    /// A perfect line from `pos`, whose exact score is `score`: the first best move at
    /// every step, down to the end of the game.
    pub fn principal_variation(
        &self,
        pos: &G::Position,
        score: i32,
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
            score = child_score_for(score, passed);
        }
        Ok(line)
    }

    /// Every move of a position solved exactly, in parallel. `progress` is called once per
    /// move as it finishes.
    pub fn analyse(
        &self,
        pos: &G::Position,
        cancel: &Cancel,
        progress: &(dyn Fn() + Sync),
    ) -> Result<Analysis<G::Move>, SolveError> {
        let children = self.children(pos);
        // Symmetric moves lead to one position under the table's key: solve each once.
        let mut unique: Vec<(u128, G::Position)> = Vec::new();
        let mut index_of = Vec::with_capacity(children.len());
        for (_, child, _) in &children {
            let key = self.game.key(child);
            let i = unique
                .iter()
                .position(|(k, _)| *k == key)
                .unwrap_or_else(|| {
                    unique.push((key, *child));
                    unique.len() - 1
                });
            index_of.push(i);
        }
        let scores: Vec<i32> = self.pool.install(|| {
            unique
                .par_iter()
                .map(|(_, child)| {
                    let s = self.child_score(child, cancel);
                    let duplicates = index_of
                        .iter()
                        .filter(|&&i| unique[i].0 == self.game.key(child))
                        .count();
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
                    let (value, remoteness) = value_of(through_move(child_score, *passed));
                    let mut pv = vec![*m];
                    pv.extend(self.principal_variation(child, child_score, cancel)?);
                    Ok(MoveResult {
                        mv: *m,
                        value,
                        remoteness,
                        pv,
                    })
                })
                .collect::<Result<_, SolveError>>()
        })?;
        let best_score = results
            .iter()
            .map(|r| crate::remoteness::score(r.value, r.remoteness))
            .max();
        let solution = match best_score {
            None => Solution {
                value: self.game.outcome(pos).unwrap_or(Value::Loss),
                remoteness: 0,
                best: Vec::new(),
                pv: Vec::new(),
            },
            Some(best_score) => {
                let (value, remoteness) = value_of(best_score);
                let best: Vec<G::Move> = results
                    .iter()
                    .filter(|r| crate::remoteness::score(r.value, r.remoteness) == best_score)
                    .map(|r| r.mv)
                    .collect();
                let pv = results
                    .iter()
                    .find(|r| r.mv == best[0])
                    .map(|r| r.pv.clone())
                    .unwrap_or_default();
                Solution {
                    value,
                    remoteness,
                    best,
                    pv,
                }
            }
        };
        Ok(Analysis {
            solution,
            moves: results,
        })
    }

    /// The exact score of one position on the current thread: proof-number search for
    /// the value, then the remoteness search inside the half it names.
    fn child_score(&self, pos: &G::Position, cancel: &Cancel) -> Result<i32, SolveError> {
        let value = self.prove(pos, cancel)?;
        let mut search = Remoteness::new(&self.game, &self.table, cancel);
        let score = search.exact(pos, Some(value));
        self.nodes.fetch_add(search.nodes(), Ordering::Relaxed);
        score.ok_or(SolveError::Stopped)
    }

    fn prove(&self, pos: &G::Position, cancel: &Cancel) -> Result<Value, SolveError> {
        let mut prover = Prover::new(&self.game, &self.table, cancel);
        let value = prover.prove(pos);
        self.nodes.fetch_add(prover.nodes(), Ordering::Relaxed);
        value.ok_or(SolveError::Stopped)
    }

    /// Each move, the position after it, and whether the turn passed to the opponent.
    fn children(&self, pos: &G::Position) -> Vec<(G::Move, G::Position, bool)> {
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
