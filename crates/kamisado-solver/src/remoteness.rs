//! Exact remoteness: how many moves the game lasts when the winner hurries and the loser
//! holds out.
//!
//! Perfect play is negamax over [`Score`]s. Scores belong to positions, not to paths
//! (the graph is acyclic and remoteness is a property of the position), so the shared
//! table keeps a lower and an upper bound on each position's exact score, and every
//! search, whatever its window, tightens them: the work that shows "no win within n" is
//! reused when asking about n + 1. [`mtdf`] narrows a position's bounds with null-window
//! probes until they meet; it drives both the single-thread search here and the
//! solver's root-parallel one.

use crate::walker::{bounds, Child, Judged, Walker};
use crate::{Game, Score, Value};

/// The range a position's exact score lies in, given its proven value (if any). A draw
/// needs no search: all draws score the same.
pub(crate) fn range_of(value: Option<Value>) -> (Score, Score) {
    match value {
        Some(Value::Win) => (Score::ABOVE_DRAW, Score::WON),
        Some(Value::Draw) => (Score::DRAW, Score::DRAW),
        Some(Value::Loss) => (Score::LOST, Score::BELOW_DRAW),
        None => (Score::LOST, Score::WON),
    }
}

/// MTD(f): the exact score in `[low, high]`, found by null-window probes. `probe(beta)`
/// answers a fail-soft search with the window (beta - 1, beta): a result below `beta` is
/// an upper bound, at or above it a lower bound. Starts from the fast end (`high`): short
/// wins and long losses are proven with small trees.
pub(crate) fn mtdf<E>(
    (mut low, mut high): (Score, Score),
    mut probe: impl FnMut(Score) -> Result<Score, E>,
) -> Result<Score, E> {
    let mut guess = high;
    while low < high {
        let beta = if guess == low { guess.above() } else { guess };
        guess = probe(beta)?;
        if guess < beta {
            high = guess;
        } else {
            low = guess;
        }
    }
    Ok(low)
}

/// One thread's remoteness search: fail-soft alpha-beta over scores with bounds in the
/// shared table. Children carry their move-ordering key.
pub(crate) struct Remoteness<'a, G: Game> {
    walker: Walker<'a, G, i64>,
}

impl<'a, G: Game> Remoteness<'a, G> {
    pub fn new(walker: Walker<'a, G, i64>) -> Remoteness<'a, G> {
        Remoteness { walker }
    }

    /// Adds the nodes searched to the solver's count (done as the search goes, in steps;
    /// this adds the rest).
    pub fn publish_nodes(&mut self) {
        self.walker.publish();
    }

    /// The exact score of `pos`, or `None` if stopped first. `value`, if known (from a
    /// proof-number search), narrows the range to search.
    pub fn exact(&mut self, pos: &G::Position, value: Option<Value>) -> Option<Score> {
        mtdf(range_of(value), |beta| {
            if self.walker.stop.is_cancelled() {
                return Err(());
            }
            let s = self.probe(pos, beta.below(), beta);
            // A probe the stop cut short returns a bound it never proved: MTD(f) must not
            // narrow the range with it (it could close the range on a wrong score).
            if self.walker.stop.is_cancelled() {
                return Err(());
            }
            Ok(s)
        })
        .ok()
    }

    /// A fail-soft search of `pos` in the window (alpha, beta): a result at or below
    /// alpha is an upper bound, at or above beta a lower bound, between them exact.
    pub fn probe(&mut self, pos: &G::Position, alpha: Score, beta: Score) -> Score {
        match self.walker.judge(pos) {
            Judged::Exact(s) => s,
            Judged::Open { ceiling } => {
                let key = self.walker.game.key(pos);
                let entry = self.walker.lookup(pos, key);
                self.search(pos, key, bounds(entry, ceiling), alpha, beta, 0)
            }
        }
    }

    /// Fail-soft negamax over scores inside the window (alpha, beta) at an undecided
    /// position whose score lies in `(low, high)` by what the rules and table know.
    fn search(
        &mut self,
        pos: &G::Position,
        key: G::Key,
        (low, high): (Score, Score),
        alpha: Score,
        beta: Score,
        depth: usize,
    ) -> Score {
        self.walker.count_node();
        if low >= beta || low == high {
            return low;
        }
        if high <= alpha {
            return high;
        }
        let (alpha, beta) = (alpha.max(low), beta.min(high));
        if self.walker.stop.is_cancelled() {
            return low;
        }
        let start_nodes = self.walker.nodes;

        let game = self.walker.game;
        let (mut children, _) =
            self.walker
                .expand(pos, depth, |_, _| false, |c| c.extra = order(game, c));
        children.sort_by_key(|c| c.extra);

        let mut best = Score::BELOW_ALL;
        let mut a = alpha;
        for c in &children {
            let (child_alpha, child_beta) = Score::child_window(a, beta, c.passed);
            let child_score = if c.exact {
                c.low
            } else {
                self.search(
                    &c.pos,
                    c.key,
                    c.bounds(),
                    child_alpha,
                    child_beta,
                    depth + 1,
                )
            };
            let s = child_score.through_move(c.passed);
            if s > best {
                best = s;
                if best >= beta {
                    break;
                }
                a = a.max(best);
            }
        }
        self.walker.release(depth, children);

        let (new_low, new_high) = if best >= beta {
            (best, high)
        } else if best <= alpha {
            (low, best)
        } else {
            (best, best)
        };
        if !self.walker.stop.is_cancelled() {
            let work = (self.walker.nodes - start_nodes).min(u32::MAX as u64) as u32;
            self.walker.table.update(key, |e| {
                let mut entry = e.unwrap_or(crate::table::Entry {
                    work: 0,
                    ..crate::table::Entry::unknown()
                });
                entry.settle(new_low, new_high);
                entry.work = entry.work.saturating_add(work);
                *e = Some(entry);
            });
        }
        best
    }
}

/// Move ordering, best first for the mover: finished games and wins in one are exact;
/// otherwise the table's bounds give an optimistic estimate, and the opponent's mobility
/// breaks ties.
fn order<G: Game>(game: &G, c: &Child<G, i64>) -> i64 {
    let estimate = match (c.exact, c.found) {
        (true, _) => c.low.through_move(c.passed),
        (false, false) => Score::DRAW,
        (false, true) => {
            // The child's score that is best for the mover.
            let (low, high) = c.bounds();
            if c.passed {
                low.through_move(true)
            } else {
                high.through_move(false)
            }
        }
    };
    let mobility = if c.exact {
        0
    } else {
        game.estimate(&c.pos).1 as i64
    };
    -(estimate.to_i64()) * 1000 + if c.passed { mobility } else { -mobility }
}
