//! Exact remoteness: how many moves the game lasts when the winner hurries and the loser
//! holds out.
//!
//! A position's *score* for the side to move packs value and remoteness into one integer:
//! `WIN - r` for a win in `r` moves, `r - WIN` for a loss in `r`. Higher is better for the
//! side to move, so perfect play is plain negamax over scores. Scores belong to positions,
//! not to paths (the graph is acyclic and remoteness is a property of the position), so
//! the shared table keeps a lower and an upper bound on each position's exact score, and
//! every search, whatever its window, tightens them: the work that shows "no win within
//! n" is reused when asking about n + 1. The driver narrows the root's bounds with
//! null-window probes (MTD(f)) until they meet.

use crate::cancel::Cancel;
use crate::dfpn::FULL_RANGE;
use crate::table::{Entry, Table};
use crate::{Game, Value};

/// Score of a finished game won by the side to move (remoteness 0).
pub const WIN: i32 = 1000;
/// Longer than any Kamisado game (at most 97 moves) and any game this solver will meet.
pub const MAX_REMOTENESS: u32 = 500;

/// The score of a value and remoteness.
#[inline]
pub fn score(value: Value, remoteness: u32) -> i32 {
    match value {
        Value::Win => WIN - remoteness as i32,
        Value::Loss => remoteness as i32 - WIN,
    }
}

/// The value and remoteness of a score.
#[inline]
pub fn value_of(score: i32) -> (Value, u32) {
    if score > 0 {
        (Value::Win, (WIN - score) as u32)
    } else {
        (Value::Loss, (WIN + score) as u32)
    }
}

/// The mover's score through a move to a child of score `child` when the turn passed to
/// the opponent: the sign flips and the game is one move longer.
#[inline]
pub fn parent_score(child: i32) -> i32 {
    if child > 0 {
        1 - child
    } else {
        -child - 1
    }
}

/// The inverse of [`parent_score`], also defined between scores: parent bound `p` becomes
/// the child bound with `parent_score(c) > p` exactly when `c < child_bound(p)`.
#[inline]
pub fn child_bound(p: i32) -> i32 {
    match p {
        p if p < 0 => 1 - p,
        p if p > 0 => -p - 1,
        _ => 0,
    }
}

/// The mover's score through a move to a child of score `child`, where `passed` says
/// whether the opponent moves next or (after zero-length moves) the mover again: then the
/// sign stays and the game is still one move longer.
#[inline]
pub fn through_move(child: i32, passed: bool) -> i32 {
    if passed {
        parent_score(child)
    } else if child > 0 {
        child - 1
    } else {
        child + 1
    }
}

/// The inverse of [`through_move`] at a parent bound `p`: the child's score that gives
/// exactly `p` (for `p != 0`), and 0, which no score equals, for `p == 0`.
#[inline]
pub fn child_score_for(p: i32, passed: bool) -> i32 {
    if passed {
        child_bound(p)
    } else {
        p + p.signum()
    }
}

/// The child's window for the parent's window (alpha, beta): a child result at or below
/// its alpha means a parent result at or below alpha, and so on.
#[inline]
pub fn child_window(alpha: i32, beta: i32, passed: bool) -> (i32, i32) {
    if passed {
        (child_bound(beta), child_bound(alpha))
    } else {
        (child_score_for(alpha, false), child_score_for(beta, false))
    }
}

struct Child<G: Game> {
    pos: G::Position,
    passed: bool,
    /// The child's score when the rules decide it (finished game, win in one).
    exact: Option<i32>,
    key: u128,
    entry: Option<Entry>,
    /// How promising the child is for the mover, lower first.
    order: i64,
}

/// Bounds on a non-terminal position's score without a win in one, from what the table
/// knows: a win takes at least two moves (two, not three: zero-length moves may hand the
/// mover the next turn), and any move is at least one.
#[inline]
fn bounds(entry: Option<Entry>) -> (i32, i32) {
    let (mut low, mut high) = (1 - WIN, WIN - 2);
    if let Some(e) = entry {
        if e.pn == 0 {
            low = low.max(1);
        }
        if e.dn == 0 {
            high = high.min(-1);
        }
        if (e.low, e.high) != FULL_RANGE {
            low = low.max(e.low as i32);
            high = high.min(e.high as i32);
        }
    }
    (low, high)
}

/// One thread's remoteness search over a shared table.
pub struct Remoteness<'a, G: Game> {
    game: &'a G,
    table: &'a Table,
    stop: &'a Cancel<'a>,
    nodes: u64,
    frames: Vec<Vec<Child<G>>>,
    moves: Vec<G::Move>,
}

impl<'a, G: Game> Remoteness<'a, G> {
    pub fn new(game: &'a G, table: &'a Table, stop: &'a Cancel<'a>) -> Remoteness<'a, G> {
        Remoteness {
            game,
            table,
            stop,
            nodes: 0,
            frames: Vec::new(),
            moves: Vec::new(),
        }
    }

    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The exact score of `pos`, or `None` if stopped first. `value`, if known (from a
    /// proof-number search), halves the range to search.
    pub fn exact(&mut self, pos: &G::Position, value: Option<Value>) -> Option<i32> {
        let (mut low, mut high) = match value {
            Some(Value::Win) => (1, WIN),
            Some(Value::Loss) => (-WIN, -1),
            None => (-WIN, WIN),
        };
        // Start from the fast end: short wins and long losses are proven with small trees.
        let mut guess = high;
        while low < high {
            if self.stop.is_cancelled() {
                return None;
            }
            let beta = if guess == low { guess + 1 } else { guess };
            guess = self.search(pos, beta - 1, beta, 0, None);
            if guess < beta {
                high = guess;
            } else {
                low = guess;
            }
        }
        Some(low)
    }

    /// A fail-soft search of `pos` in the window (alpha, beta): a result at or below
    /// alpha is an upper bound, at or above beta a lower bound, between them exact.
    pub fn probe(&mut self, pos: &G::Position, alpha: i32, beta: i32) -> i32 {
        self.search(pos, alpha, beta, 0, None)
    }

    /// Fail-soft negamax over scores inside the window (alpha, beta). `known` is the
    /// position's key and table entry if the caller already looked them up.
    fn search(
        &mut self,
        pos: &G::Position,
        alpha: i32,
        beta: i32,
        depth: usize,
        known: Option<(u128, Option<Entry>)>,
    ) -> i32 {
        if let Some(v) = self.game.outcome(pos) {
            return score(v, 0);
        }
        if self.game.winning_move(pos).is_some() {
            return WIN - 1;
        }
        self.nodes += 1;
        let (key, entry) = known.unwrap_or_else(|| {
            let key = self.game.key(pos);
            (key, self.table.get(key))
        });
        let (low, high) = bounds(entry);
        if low >= beta || low == high {
            return low;
        }
        if high <= alpha {
            return high;
        }
        let (alpha, beta) = (alpha.max(low), beta.min(high));
        if self.stop.is_cancelled() {
            return low;
        }
        let start_nodes = self.nodes;

        if self.frames.len() <= depth {
            self.frames.resize_with(depth + 1, Vec::new);
        }
        let mut children = std::mem::take(&mut self.frames[depth]);
        children.clear();
        self.game.moves(pos, &mut self.moves);
        let player = self.game.player(pos);
        for &m in &self.moves {
            let child = self.game.play(pos, m);
            let passed = self.game.player(&child) != player;
            // Decided by the rules alone, or to be looked up: then start loading its bucket.
            let exact = if let Some(v) = self.game.outcome(&child) {
                Some(score(v, 0))
            } else if self.game.winning_move(&child).is_some() {
                Some(WIN - 1)
            } else {
                None
            };
            let key = if exact.is_none() {
                let key = self.game.key(&child);
                self.table.prefetch(key);
                key
            } else {
                0
            };
            children.push(Child {
                pos: child,
                passed,
                exact,
                key,
                entry: None,
                order: 0,
            });
        }
        for c in children.iter_mut() {
            if c.exact.is_none() {
                c.entry = self.table.get(c.key);
            }
            c.order = self.order(c);
        }
        children.sort_by_key(|c| c.order);

        let mut best = -WIN - 1;
        let mut a = alpha;
        for c in &children {
            let (child_alpha, child_beta) = child_window(a, beta, c.passed);
            let child_score = match c.exact {
                Some(exact) => exact,
                None => self.search(
                    &c.pos,
                    child_alpha,
                    child_beta,
                    depth + 1,
                    Some((c.key, c.entry)),
                ),
            };
            let s = through_move(child_score, c.passed);
            if s > best {
                best = s;
                if best >= beta {
                    break;
                }
                a = a.max(best);
            }
        }
        self.frames[depth] = children;

        let (new_low, new_high) = if best >= beta {
            (best, high)
        } else if best <= alpha {
            (low, best)
        } else {
            (best, best)
        };
        if !self.stop.is_cancelled() {
            let work = (self.nodes - start_nodes).min(u32::MAX as u64) as u32;
            self.table.update(key, |e| {
                let mut entry = e.unwrap_or(Entry {
                    pn: 1,
                    dn: 1,
                    work: 0,
                    low: FULL_RANGE.0,
                    high: FULL_RANGE.1,
                });
                let (old_low, old_high) = if (entry.low, entry.high) == FULL_RANGE {
                    (-WIN, WIN)
                } else {
                    (entry.low as i32, entry.high as i32)
                };
                entry.low = old_low.max(new_low) as i16;
                entry.high = old_high.min(new_high) as i16;
                if entry.low > 0 {
                    (entry.pn, entry.dn) = (0, crate::dfpn::INF);
                } else if entry.high < 0 {
                    (entry.pn, entry.dn) = (crate::dfpn::INF, 0);
                }
                entry.work = entry.work.saturating_add(work);
                *e = Some(entry);
            });
        }
        best
    }

    /// Move ordering, best first for the mover: finished games and wins in one are exact;
    /// otherwise the table's bounds give an optimistic estimate, and the opponent's
    /// mobility breaks ties.
    fn order(&self, c: &Child<G>) -> i64 {
        let estimate = match c.exact {
            Some(exact) => through_move(exact, c.passed),
            None => {
                let (low, high) = bounds(c.entry);
                match (c.entry.is_some(), c.passed) {
                    (false, _) => 0,
                    // The child's score that is best for the mover.
                    (true, true) => through_move(low, true),
                    (true, false) => through_move(high, false),
                }
            }
        };
        let mobility = if c.exact.is_some() {
            0
        } else {
            self.game.estimate(&c.pos).1 as i64
        };
        -(estimate as i64) * 1000 + if c.passed { mobility } else { -mobility }
    }
}
