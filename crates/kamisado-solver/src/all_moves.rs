//! Every move of a position at once: each move's value, then the exact remoteness of the
//! best moves, then (if asked) the rest, with what each step learns kept as bounds.
//!
//! Solving every move exactly, one search each, repeats work the moves could share: a
//! losing move's exact remoteness says nothing about which move is best, and a sibling's
//! exact score already bounds the others. So the analysis works in three stages over the
//! one shared table:
//!
//! 1. **Values**: proof-number search of every move (side by side), no remoteness.
//! 2. **Best remoteness**: among the moves of the best value, MTD(f) from the fast end
//!    with per-move bounds: a probe "does some move score at least beta?" stops at the
//!    first move that does, and every move that answers "no" keeps the upper bound its
//!    fail-soft search proved. When the best score is known, each remaining move of that
//!    value is probed once at it: it is a best move, or its upper bound shows it is not.
//! 3. **Every remoteness** (only with [`Depth::Every`]): each move not yet exact is
//!    searched inside the bounds it already has, by proof-number search of "is its
//!    remoteness at most n?" for a few n (see `remoteness_by_proofs`): alpha-beta proofs
//!    of exact remoteness cost several times the nodes there.
//!
//! A stop (a time limit) ends the analysis where it is: every move keeps the bounds
//! proved so far, never a bound a cut-short search claimed.

use std::sync::Mutex;

use rayon::prelude::*;

use crate::cancel::Cancel;
use crate::dfpn::child_question;
use crate::remoteness::Remoteness;
use crate::solver::Solver;
use crate::table::Question;
use crate::walker::Walker;
use crate::{Game, Score, Value, MAX_REMOTENESS};

/// How far an all-moves analysis goes beyond every move's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Depth {
    /// Every move's value, and the exact remoteness of the best moves; the other moves
    /// get only the bounds the search for the best proved on the way.
    Best,
    /// Every move's exact remoteness.
    Every,
}

/// The stage an all-moves analysis is in, for a progress report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Proving every move's value.
    Values,
    /// The exact remoteness of the moves of the best value.
    BestRemoteness,
    /// The exact remoteness of the other moves ([`Depth::Every`]).
    Remoteness,
}

impl Stage {
    /// `values`, `best remoteness`, `remoteness`, as a progress bar prints it.
    pub const fn name(self) -> &'static str {
        match self {
            Stage::Values => "values",
            Stage::BestRemoteness => "best remoteness",
            Stage::Remoteness => "remoteness",
        }
    }
}

/// How far an all-moves analysis has got: `done` of `total` moves in `stage`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    pub stage: Stage,
    pub done: usize,
    pub total: usize,
}

/// What an all-moves analysis knows of one move, for the player making it: its score
/// (value and remoteness, see [`Score`]) lies in `low..=high`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveBounds<M> {
    pub mv: M,
    pub low: Score,
    pub high: Score,
}

impl<M> MoveBounds<M> {
    /// The move's value, once both bounds lie in one.
    pub fn value(&self) -> Option<Value> {
        (self.low.value() == self.high.value()).then(|| self.low.value())
    }

    /// The move's exact score, once the bounds meet.
    pub fn exact(&self) -> Option<Score> {
        (self.low == self.high).then_some(self.low)
    }
}

/// Every move of a position, as far as an all-moves analysis got.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MovesAnalysis<M> {
    /// In the order the game lists its moves.
    pub moves: Vec<MoveBounds<M>>,
    /// Whether the analysis did all its [`Depth`] asked: false if it was stopped.
    pub complete: bool,
}

impl<M: Copy> MovesAnalysis<M> {
    /// The best score among the moves, if the analysis found it: the best value known
    /// for every move and at least one move of it exact and not beaten by any other.
    pub fn best_score(&self) -> Option<Score> {
        let best_low = self.moves.iter().map(|m| m.low).max()?;
        let best_high = self.moves.iter().map(|m| m.high).max()?;
        (best_low == best_high).then_some(best_low)
    }

    /// The moves that keep the best score (empty if it is not known).
    pub fn best(&self) -> Vec<M> {
        let Some(best) = self.best_score() else {
            return Vec::new();
        };
        self.moves
            .iter()
            .filter(|m| m.exact() == Some(best))
            .map(|m| m.mv)
            .collect()
    }
}

/// One distinct position after a move (moves leading to one position under the table's
/// key are analysed once), with the bounds on the mover's score through it.
struct Child<G: Game> {
    pos: G::Position,
    passed: bool,
    low: Score,
    high: Score,
}

/// The range of a move's score (for the mover) of a given value: a move's remoteness
/// is at least one, and all draws score the same.
fn move_range(value: Value) -> (Score, Score) {
    match value {
        Value::Win => (Score::ABOVE_DRAW, Score::WIN_IN_ONE),
        Value::Draw => (Score::DRAW, Score::DRAW),
        Value::Loss => (Score::LOSS_IN_ONE, Score::BELOW_DRAW),
    }
}

impl<G: Game> Child<G> {
    fn exact(&self) -> bool {
        self.low == self.high
    }

    /// Sets the bounds from the child's own exact score.
    fn set_exact(&mut self, child_score: Score) {
        let s = child_score.through_move(self.passed);
        (self.low, self.high) = (s, s);
    }
}

impl<G: Game> Solver<G> {
    /// Every move of `pos`, analysed as deep as `depth` asks (see the module docs of
    /// `all_moves`), its moves side by side over the shared table. `known` gives the exact
    /// score of a position after a move if something outside the solver knows it (a
    /// database); the rules' own results need not be given. `progress` is called as moves
    /// finish each stage. A stop returns what was found so far, marked incomplete.
    pub fn analyse_moves(
        &self,
        pos: &G::Position,
        depth: Depth,
        known: &(dyn Fn(&G::Position) -> Option<Score> + Sync),
        cancel: &Cancel,
        progress: &(dyn Fn(Progress) + Sync),
    ) -> MovesAnalysis<G::Move> {
        let children = self.children(pos);
        let (unique, index_of) = self.unique_children(&children);
        let mut nodes: Vec<Child<G>> = unique
            .iter()
            .map(|&i| {
                let (_, child, passed) = children[i];
                let mut c = Child {
                    pos: child,
                    passed,
                    low: Score::LOSS_IN_ONE,
                    high: Score::WIN_IN_ONE,
                };
                if let Some(s) = Score::by_rules(self.game(), &child).or_else(|| known(&child)) {
                    c.set_exact(s);
                }
                c
            })
            .collect();
        let complete = self.stage_values(&mut nodes, cancel, progress)
            && self.stage_best(&mut nodes, cancel, progress)
            && (depth == Depth::Best || self.stage_rest(&mut nodes, cancel, progress));
        MovesAnalysis {
            moves: children
                .iter()
                .zip(index_of)
                .map(|((m, _, _), i)| MoveBounds {
                    mv: *m,
                    low: nodes[i].low,
                    high: nodes[i].high,
                })
                .collect(),
            complete,
        }
    }

    /// Stage 1: every move's value by proof-number search. False if stopped.
    fn stage_values(
        &self,
        nodes: &mut [Child<G>],
        cancel: &Cancel,
        progress: &(dyn Fn(Progress) + Sync),
    ) -> bool {
        let open: Vec<usize> = (0..nodes.len())
            .filter(|&i| nodes[i].low.value() != nodes[i].high.value())
            .collect();
        let done = Mutex::new(0);
        let report = || {
            let mut d = done.lock().unwrap();
            *d += 1;
            progress(Progress {
                stage: Stage::Values,
                done: *d,
                total: open.len(),
            });
        };
        let values: Vec<Option<Value>> = self.pool().install(|| {
            open.par_iter()
                .map(|&i| {
                    let v = self.value_on_this_thread(&nodes[i].pos, cancel).ok();
                    report();
                    v
                })
                .collect()
        });
        for (&i, v) in open.iter().zip(values) {
            if let Some(v) = v {
                let c = &mut nodes[i];
                (c.low, c.high) = move_range(if c.passed { v.flip() } else { v });
            }
        }
        !cancel.is_cancelled()
    }

    /// Stage 2: the exact score of the best moves; the others of their value keep the
    /// upper bounds that show they are worse. False if stopped.
    fn stage_best(
        &self,
        nodes: &mut [Child<G>],
        cancel: &Cancel,
        progress: &(dyn Fn(Progress) + Sync),
    ) -> bool {
        let Some(best_value) = nodes.iter().map(|c| c.low.value()).max() else {
            return true;
        };
        let class: Vec<usize> = (0..nodes.len())
            .filter(|&i| nodes[i].low.value() == best_value)
            .collect();
        let total = class.iter().filter(|&&i| !nodes[i].exact()).count();
        let report = |nodes: &[Child<G>]| {
            progress(Progress {
                stage: Stage::BestRemoteness,
                done: total - class.iter().filter(|&&i| !nodes[i].exact()).count(),
                total,
            })
        };
        // MTD(f) from the fast end over the moves of the best value.
        loop {
            let best_low = class.iter().map(|&i| nodes[i].low).max().unwrap();
            let best_high = class.iter().map(|&i| nodes[i].high).max().unwrap();
            if best_low == best_high {
                break;
            }
            if !self.probe_moves(nodes, &class, best_high, true, cancel) {
                return false;
            }
            report(nodes);
        }
        // Every move that may still reach the best score is probed at it: reaching it,
        // it is exact (nothing scores more); failing, it has an upper bound below it.
        let best = class.iter().map(|&i| nodes[i].low).max().unwrap();
        if !self.probe_moves(nodes, &class, best, false, cancel) {
            return false;
        }
        report(nodes);
        true
    }

    /// One null-window probe at `beta` (for the mover) of every move in `class` whose
    /// bounds leave it open, side by side, each move's bounds narrowed by its answer. With
    /// `first`, the probe stops at the first move that reaches `beta`. False if stopped.
    fn probe_moves(
        &self,
        nodes: &mut [Child<G>],
        class: &[usize],
        beta: Score,
        first: bool,
        cancel: &Cancel,
    ) -> bool {
        let cutoff = cancel.child();
        let open: Vec<usize> = class
            .iter()
            .copied()
            .filter(|&i| nodes[i].low < beta && nodes[i].high >= beta)
            .collect();
        let answers: Vec<Option<Score>> = self.pool().install(|| {
            open.par_iter()
                .map(|&i| {
                    let c = &nodes[i];
                    let s = self.probe_move(&c.pos, c.passed, beta, &cutoff)?;
                    if first && s >= beta {
                        cutoff.cancel();
                    }
                    Some(s)
                })
                .collect()
        });
        for (&i, s) in open.iter().zip(answers) {
            let c = &mut nodes[i];
            match s {
                Some(s) if s >= beta => c.low = c.low.max(s).min(c.high),
                Some(s) => c.high = c.high.min(s).max(c.low),
                None => {}
            }
            if !first && s.is_some_and(|s| s >= beta) {
                // Probed at the best score: nothing scores more.
                c.high = c.low;
            }
        }
        !cancel.is_cancelled()
    }

    /// One fail-soft null-window probe at `beta` of the move to `child`, on the calling
    /// thread: the mover's score through it if at least `beta` (a lower bound), else an
    /// upper bound below `beta`; `None` if stopped before it proved either.
    fn probe_move(
        &self,
        child: &G::Position,
        passed: bool,
        beta: Score,
        cancel: &Cancel,
    ) -> Option<Score> {
        let mut search = Remoteness::new(Walker::new(
            self.game(),
            self.table(),
            cancel,
            self.node_count(),
        ));
        let (alpha, beta_child) = Score::child_window(beta.below(), beta, passed);
        let s = search.probe(child, alpha, beta_child);
        search.publish_nodes();
        (!cancel.is_cancelled()).then(|| s.through_move(passed))
    }

    /// Stage 3: every move not yet exact, searched inside its bounds. False if stopped.
    fn stage_rest(
        &self,
        nodes: &mut [Child<G>],
        cancel: &Cancel,
        progress: &(dyn Fn(Progress) + Sync),
    ) -> bool {
        // The best moves first: their exact scores order the table for the rest.
        let mut open: Vec<usize> = (0..nodes.len()).filter(|&i| !nodes[i].exact()).collect();
        open.sort_by_key(|&i| std::cmp::Reverse(nodes[i].high));
        // The remoteness of the moves finished so far, wins and losses apart: the first
        // guess for the next move of that value (the moves of a position tend to last
        // alike). Only the order of the questions depends on it, never an answer.
        let finished = Mutex::new((0, Vec::new(), Vec::new()));
        let narrowed: Vec<(Score, Score)> = self.pool().install(|| {
            open.par_iter()
                .map(|&i| {
                    let c = &nodes[i];
                    let win = c.low.value() == Value::Win;
                    let guess = {
                        let f = finished.lock().unwrap();
                        median(if win { &f.1 } else { &f.2 })
                    };
                    let (low, high) = self.remoteness_by_proofs(c, guess, cancel);
                    let mut f = finished.lock().unwrap();
                    f.0 += 1;
                    if let Some(r) = (low == high).then(|| low.remoteness()).flatten() {
                        if win {
                            f.1.push(r)
                        } else {
                            f.2.push(r)
                        }
                    }
                    progress(Progress {
                        stage: Stage::Remoteness,
                        done: f.0,
                        total: open.len(),
                    });
                    (low, high)
                })
                .collect()
        });
        for (&i, (low, high)) in open.iter().zip(narrowed) {
            (nodes[i].low, nodes[i].high) = (low, high);
        }
        !cancel.is_cancelled()
    }

    /// The exact score of a move of known value (a win or a loss) by proof-number search
    /// of "is its remoteness at most n?" for one n after another. The first n is the
    /// `guess` if there is one, else the fast end (short wins and short losses have small
    /// proofs, and a bound n cuts every line longer than n); then n gallops away from the
    /// last answer's side (down from a yes, up from a no) until the answer turns, and
    /// bisects between the bounds. On the calling thread; every answer is kept in the
    /// shared table, as bounds and numbers the later questions reuse. Returns the bounds
    /// proved (exact unless stopped).
    ///
    /// Alpha-beta answers the same questions, but its proof of an exact remoteness is the
    /// costly part of a whole position: proof-number search goes where the proof is
    /// cheapest (the README's `query` section has the measures).
    fn remoteness_by_proofs(
        &self,
        c: &Child<G>,
        guess: Option<u32>,
        cancel: &Cancel,
    ) -> (Score, Score) {
        let (mut low, mut high) = (c.low, c.high);
        let value = low.value();
        if value == Value::Draw || high.value() != value {
            return (low, high);
        }
        let win = value == Value::Win;
        // Which way n gallops: `Some(true)` down from the slow end (while the answers are
        // yes), `Some(false)` up from the fast end (while they are no); `None` once they
        // have turned (then bisect). Without a guess, up from the fast end at once.
        let mut gallop = Some(false);
        let mut step = 1;
        let mut guess = guess;
        while low < high {
            // The remoteness lies in fast..=slow.
            let (fast, slow) = if win { (high, low) } else { (low, high) };
            let fast = fast.remoteness().unwrap_or(0);
            let slow = slow.remoteness().unwrap_or(0).min(MAX_REMOTENESS);
            if fast >= slow {
                // Only a remoteness past the game's longest is left: nothing to ask.
                break;
            }
            let first = guess.take();
            let n = match (first, gallop) {
                (Some(g), _) => g.clamp(fast, slow - 1),
                (None, Some(false)) => (fast + step - 1).min(slow - 1),
                (None, Some(true)) => slow.saturating_sub(step).max(fast),
                (None, None) => fast + (slow - fast) / 2,
            };
            // "At most n": a win scores at least a win in n; a loss does not score at
            // least a loss in n + 1.
            let beta = if win {
                Score::new(Value::Win, n)
            } else {
                Score::new(Value::Loss, n + 1)
            };
            let Some(reaches) = self.prove_move(&c.pos, c.passed, beta, cancel) else {
                break;
            };
            if reaches {
                low = beta;
            } else {
                high = beta.below();
            }
            let at_most = reaches == win;
            (gallop, step) = match gallop {
                // The answer at the guess sets the direction.
                _ if first.is_some() => (Some(at_most), 1),
                Some(down) if down == at_most => (gallop, step * 2),
                // The answer turned: the remoteness lies between the last two questions.
                _ => (None, step),
            };
            // Whatever else the table proved on the way (other moves' searches share it).
            if let Some(e) = self.table().get(self.game().key(&c.pos)) {
                let (a, b) = (e.low.through_move(c.passed), e.high.through_move(c.passed));
                let (a, b) = if c.passed { (b, a) } else { (a, b) };
                (low, high) = (low.max(a).min(high), high.min(b).max(low));
            }
        }
        (low, high)
    }

    /// Whether the move to `child` scores at least `beta` for the mover, by proof-number
    /// search of that one question on the calling thread; `None` if stopped first.
    fn prove_move(
        &self,
        child: &G::Position,
        passed: bool,
        beta: Score,
        cancel: &Cancel,
    ) -> Option<bool> {
        let question = child_question::<G>(Question::at_least(beta), passed);
        // Through a move to the opponent, the child's "no" is the mover's "yes".
        let yes = self.at_least(child, question.threshold(), cancel).ok()?;
        Some(yes != passed)
    }
}

/// The median of `values`, if any.
fn median(values: &[u32]) -> Option<u32> {
    let mut v = values.to_vec();
    v.sort_unstable();
    v.get(v.len() / 2).copied()
}
