//! Depth-first proof-number search (df-pn): does the side to move win (or, in a game with
//! draws, at least draw)?
//!
//! Nagai's df-pn in negamax form: a node's proof number is the smallest disproof number
//! of its children, its disproof number the sum of their proof numbers, and the search
//! descends into the child with the smallest disproof number until its numbers pass
//! thresholds derived from the parent's. Pawlewicz and Lew's 1+epsilon trick widens the
//! child's threshold so the search does not hop between siblings of similar promise.
//!
//! Each search answers one [`Question`] about the root: "score >= threshold?". Across a
//! move to the opponent the question turns into its complement ("I win" is "you do not
//! at least draw"), and across a move after which the same player moves again (automatic
//! moves) it stays, with its numbers in their roles. A game without draws has one
//! question only: "you do not at least draw" is "you do not win" there.
//!
//! The same search answers questions about remoteness: "do I win within n moves?" is
//! "score >= win in n?", and becomes "do you lose within n - 1?" one move down, so the
//! threshold carries the depth bound and a line that runs past it is settled by the
//! bounds alone (an unfinished position cannot win in 0). Nothing but the threshold is
//! stored: a position reached at two depths asks two questions, and the entry keeps the
//! numbers of the last one and the bounds every answer proved.
//!
//! Numbers live in the shared [`Table`](crate::Table), beside the score bounds that
//! answers turn into, so threads and both kinds of search reuse each other's results.
//! The game graph is acyclic, so no cycle handling is needed.

use crate::table::{Entry, Question};
use crate::walker::{Child, Judged, Walker};
use crate::{Game, Score};

/// Infinity for proof and disproof numbers.
pub const INF: u32 = u32::MAX;
/// Largest finite proof number; sums saturate here so that they never fake a proof.
const MAX_FINITE: u32 = INF - 1;

/// The question to ask of a child, given the parent's "score at least t?": when the
/// opponent moves next, the question whose "no" is the parent's "yes" (its numbers then
/// swap roles), else the question whose "yes" is. Across a move the threshold moves one
/// step away from the end: "win within n" becomes "lose within n - 1" or "win within
/// n - 1", and a win or draw question stays one. A game without draws asks "at least a
/// draw?" as "a win?": the two are the same question there.
#[inline]
pub(crate) fn child_question<G: Game>(question: Question, passed: bool) -> Question {
    match (G::DRAWS && passed, question) {
        (false, Question::Wins | Question::DrawsOrWins) => question,
        (true, Question::Wins) => Question::DrawsOrWins,
        (true, Question::DrawsOrWins) => Question::Wins,
        (_, Question::AtLeast(t)) => {
            // The parent scores at least t through a child scoring x exactly when
            // x.through_move(passed) > t - 1, that is x < c if passed and x > c if not,
            // for c = (t - 1).child_bound(passed) (see `Score::child_bound`).
            let c = t.below().child_bound(passed);
            Question::at_least(if passed { c } else { c.above() })
        }
    }
}

/// Whether `question` is one of the two value questions (not one about remoteness).
#[inline]
fn is_value(question: Question) -> bool {
    matches!(question, Question::Wins | Question::DrawsOrWins)
}

/// Whether the mover's answer to `question` through a child scoring `s` is yes.
#[inline]
fn answers_yes(question: Question, s: Score, passed: bool) -> bool {
    s.through_move(passed) >= question.threshold()
}

/// The bounds a settled question leaves on the score.
#[inline]
fn settled_bounds<G: Game>(question: Question, yes: bool) -> (Score, Score) {
    let threshold = question.threshold();
    if yes {
        (threshold, Score::WON)
    } else if !G::DRAWS && threshold.below() == Score::DRAW {
        // No win, in a game without draws: a loss.
        (Score::LOST, Score::BELOW_DRAW)
    } else {
        (Score::LOST, threshold.below())
    }
}

/// Proof numbers of a child seen from the parent: `.0` is its share of the parent's
/// proof number, `.1` of its disproof number.
type ParentView = (u32, u32);

/// A child's numbers seen from the parent, for the parent's `question`.
#[inline]
fn numbers_from_parent<G: Game>(
    game: &G,
    c: &Child<G, ParentView>,
    question: Question,
) -> ParentView {
    let q = child_question::<G>(question, c.passed);
    let threshold = q.threshold();
    let own = if c.exact {
        if c.low >= threshold {
            (0, INF)
        } else {
            (INF, 0)
        }
    } else if c.found && c.question == q {
        // An entry's numbers always agree with its bounds on its own question (see
        // `Entry::settle`), so they need no second look.
        (c.pn, c.dn)
    } else if c.low >= threshold {
        (0, INF)
    } else if c.high < threshold {
        (INF, 0)
    } else if c.found && q != c.question && is_value(q) && is_value(c.question) {
        // The entry settled the other value question ("wins?" when `q` is "at least
        // draws?", or the reverse) without settling this one: a value search asking its
        // second question over the table of its first. When draws are rare (in Kamon only
        // a full board draws), the answer is almost always the same, so the guess says
        // so: the search then walks the first question's proof tree again, which is a
        // fraction of what the first search expanded, instead of searching afresh.
        // (Measured with `kamon-core/examples/question_order_probe.rs`: without it, the
        // second question of a loss cost as much as the first.) Any guess is correct;
        // a wrong one only costs nodes.
        let (pn, dn) = game.estimate(&c.pos);
        if c.low >= c.question.threshold() {
            (1, dn.max(pn))
        } else {
            (pn.max(dn), 1)
        }
    } else if matches!(q, Question::AtLeast(_))
        && c.found
        && c.pn != 0
        && c.dn != 0
        && (c.pn, c.dn) != (1, 1)
    {
        // A remoteness question about a position whose entry holds the numbers of
        // another threshold (an earlier probe, or the same position reached at another
        // depth): the nearby question's numbers are a better first guess than the
        // game's, and any guess is correct. (Numbers that settled the other question say
        // nothing here, and a value search keeps to its own numbers.)
        (c.pn.min(MAX_FINITE), c.dn.min(MAX_FINITE))
    } else {
        game.estimate(&c.pos)
    };
    from_child(own, c.passed)
}

/// A child's own (pn, dn) in the parent's view: roles swap when the opponent moves next.
#[inline]
fn from_child((pn, dn): (u32, u32), passed: bool) -> ParentView {
    if passed {
        (dn, pn)
    } else {
        (pn, dn)
    }
}

/// One thread's df-pn.
pub(crate) struct Prover<'a, G: Game> {
    walker: Walker<'a, G, ParentView>,
    /// The path of an earlier search of this root that was stopped (see
    /// [`StoppedPaths`](crate::StoppedPaths)), followed down while `following`.
    path: Vec<G::Key>,
    following: bool,
    /// When stopped: the keys of the children being searched, deepest first.
    unwound: Vec<G::Key>,
}

impl<'a, G: Game> Prover<'a, G> {
    pub fn new(walker: Walker<'a, G, ParentView>) -> Prover<'a, G> {
        Prover {
            walker,
            path: Vec::new(),
            following: false,
            unwound: Vec::new(),
        }
    }

    /// Adds the nodes searched to the solver's count (done as the search goes, in steps;
    /// this adds the rest).
    pub fn publish_nodes(&mut self) {
        self.walker.publish();
    }

    /// The proof and disproof numbers of `question` about `pos` as the table knows them
    /// now, computed from its children as the search would (`(0, INF)` once proved,
    /// `(INF, 0)` once disproved).
    pub fn numbers(&mut self, pos: &G::Position, question: Question) -> (u32, u32) {
        let threshold = question.threshold();
        if let Judged::Exact(s) = self.walker.judge(pos) {
            return if s >= threshold { (0, INF) } else { (INF, 0) };
        }
        let game = self.walker.game;
        let (children, settled) = self.walker.expand(
            pos,
            0,
            |s, passed| answers_yes(question, s, passed),
            |c| c.extra = numbers_from_parent(game, c, question),
        );
        let numbers = if settled {
            (0, INF)
        } else {
            children.iter().fold((INF, 0), |(pn, dn), c| {
                let (proof, disproof) = c.extra;
                (pn.min(proof), add(dn, disproof))
            })
        };
        self.walker.release(0, children);
        numbers
    }

    /// The answer to `question` about `pos`, or `None` if stopped first.
    pub fn prove(&mut self, pos: &G::Position, question: Question) -> Option<bool> {
        let threshold = question.threshold();
        let key = match self.walker.judge(pos) {
            Judged::Exact(s) => return Some(s >= threshold),
            Judged::Open { .. } => self.walker.game.key(pos),
        };
        let entry = self.walker.lookup(pos, key);
        if let Some(e) = entry {
            if e.low >= threshold {
                return Some(true);
            }
            if e.high < threshold {
                return Some(false);
            }
        }
        let stopped = self.walker.table.stopped_paths();
        self.path = stopped.of(key).unwrap_or_default();
        self.following = !self.path.is_empty();
        self.unwound.clear();
        let answer = match self.mid(pos, key, question, INF, INF, entry.is_none(), 0) {
            (0, ..) => Some(true),
            (_, 0, ..) => Some(false),
            _ => None,
        };
        if answer.is_some() {
            if !self.path.is_empty() {
                stopped.forget(key);
            }
        } else {
            let mut path = std::mem::take(&mut self.unwound);
            path.push(key);
            path.reverse();
            // A search stopped before it got as deep as the path it was following keeps
            // that path, which reaches further (kept again: another search may have
            // pushed it out meanwhile). One stopped at its root leaves nothing to follow.
            if self.path.starts_with(&path) {
                stopped.keep(std::mem::take(&mut self.path));
            } else if path.len() >= 2 {
                stopped.keep(path);
            }
        }
        answer
    }

    /// Stores the current numbers of a search's root for whoever reports progress (the
    /// root's entry is otherwise written only when its search ends).
    #[cold]
    #[inline(never)]
    fn show_root_numbers(&self, key: G::Key, question: Question, pn: u32, dn: u32) {
        self.walker.table.update(key, |e| {
            let mut entry = e.unwrap_or(Entry::unknown());
            (entry.pn, entry.dn, entry.question) = (pn, dn, question);
            *e = Some(entry);
        });
    }

    /// Multiple-iterative deepening at one node: search until its proof number reaches
    /// `th_pn` or its disproof number reaches `th_dn`, and return both numbers and the
    /// bounds on its score now known. `fresh`: the table held nothing about the position
    /// (so the game is asked [`Game::known_when_expanded`]; once expanded, the position
    /// has an entry, and asking again would get the same answer at the same price).
    #[allow(clippy::too_many_arguments)]
    fn mid(
        &mut self,
        pos: &G::Position,
        key: G::Key,
        question: Question,
        th_pn: u32,
        th_dn: u32,
        fresh: bool,
        depth: usize,
    ) -> (u32, u32, Score, Score) {
        if let Some(e) = fresh
            .then(|| self.walker.known_when_expanded(pos, key))
            .flatten()
        {
            let threshold = question.threshold();
            if e.low >= threshold {
                return (0, INF, e.low, e.high);
            }
            if e.high < threshold {
                return (INF, 0, e.low, e.high);
            }
            // A value that does not answer a question about remoteness: searched on.
        }
        self.walker.count_node();
        let start_nodes = self.walker.nodes;
        let game = self.walker.game;
        let (mut children, settled) = self.walker.expand(
            pos,
            depth,
            |s, passed| answers_yes(question, s, passed),
            |c| c.extra = numbers_from_parent(game, c, question),
        );

        let (mut pn, mut dn) = (0, INF);
        if !settled {
            loop {
                // pn = smallest child proof, dn = sum of child disproofs; find the best two.
                let (mut best, mut best_proof, mut second_proof) = (0, INF, INF);
                let mut sum: u32 = 0;
                for (i, c) in children.iter().enumerate() {
                    let (proof, disproof) = c.extra;
                    if proof < best_proof {
                        second_proof = best_proof;
                        best_proof = proof;
                        best = i;
                    } else if proof < second_proof {
                        second_proof = proof;
                    }
                    sum = add(sum, disproof);
                }
                pn = best_proof;
                dn = sum;
                if depth == 0 {
                    self.show_root_numbers(key, question, pn, dn);
                }
                if pn == 0
                    || dn == 0
                    || pn >= th_pn
                    || dn >= th_dn
                    || self.walker.stop.is_cancelled()
                {
                    break;
                }
                let mut chosen = best;
                if self.following {
                    // Where the stopped search went, if the 1+epsilon rule lets it go
                    // there (it stayed in a child until its proof number passed the
                    // best sibling's by the game's share, `widen`).
                    let next = self.path.get(depth + 1).copied();
                    let limit = widen::<G>(best_proof).min(th_pn);
                    match children
                        .iter()
                        .position(|c| !c.exact && Some(c.key) == next && c.extra.0 < limit)
                    {
                        Some(i) => chosen = i,
                        None => self.following = false,
                    }
                }
                let c = &children[chosen];
                // Thresholds in the parent's view, then in the child's own (beside the
                // best sibling's proof number when the path took another).
                let th_proof = th_pn.min(widen::<G>(if chosen == best {
                    second_proof
                } else {
                    best_proof
                }));
                let th_disproof = if th_dn == INF {
                    INF
                } else {
                    th_dn - dn + c.extra.1
                };
                let (child_th_pn, child_th_dn) = from_child((th_proof, th_disproof), c.passed);
                let (c_pos, c_passed, c_fresh) = (c.pos, c.passed, !c.found);
                let c_key = c.key;
                let q = child_question::<G>(question, c_passed);
                let (c_pn, c_dn, c_low, c_high) = self.mid(
                    &c_pos,
                    c_key,
                    q,
                    child_th_pn,
                    child_th_dn,
                    c_fresh,
                    depth + 1,
                );
                if self.walker.stop.is_cancelled() {
                    self.unwound.push(c_key);
                }
                let c = &mut children[chosen];
                // `mid` left an entry for it.
                c.found = true;
                c.extra = from_child((c_pn, c_dn), c_passed);
                (c.low, c.high) = (c.low.max(c_low), c.high.min(c_high));
            }
        }
        let (mut low, mut high) = if pn == 0 || dn == 0 {
            settled_bounds::<G>(question, pn == 0)
        } else {
            (Score::LOST, Score::WON)
        };
        if G::DRAWS && (pn == 0 || dn == 0) {
            // The answer's bound says only "at least the threshold" or "below it"; the
            // children's bounds may say more: above all, that a "no" to "do I win?" is a
            // loss (every reply wins for the opponent, no draw among the leaves). Kept, it
            // answers the value's second question ("at least a draw?") at once instead of
            // by a second search.
            let (l, h) = bounds_from_children(&children, !settled);
            (low, high) = (low.max(l), high.min(h));
        }
        self.walker.release(depth, children);
        // Below the stopped search's deepest node (or off its path) the search is its own.
        self.following = false;

        let work = (self.walker.nodes - start_nodes + 1).min(u32::MAX as u64) as u32;
        self.walker.table.update(key, |e| {
            let mut entry = e.unwrap_or(Entry {
                work: 0,
                ..Entry::unknown()
            });
            entry.pn = pn;
            entry.dn = dn;
            entry.question = question;
            // Bounds known from earlier searches may already answer this question.
            entry.settle(low, high);
            entry.work = entry.work.saturating_add(work);
            *e = Some(entry);
            (pn, dn, entry.low, entry.high)
        })
    }
}

/// Bounds on a position's score from its children's (negamax over bounds): at least what
/// the best child's lower bound guarantees, and, when `all` its children are listed, at
/// most the best any child's upper bound allows. Bounds are first made tight (see
/// [`Score::tight_low`]), so that "some win" a move down is a loss here, not "at most a
/// draw".
fn bounds_from_children<G: Game, X>(children: &[Child<G, X>], all: bool) -> (Score, Score) {
    let (mut low, mut high) = (Score::BELOW_ALL, Score::BELOW_ALL);
    for c in children {
        let a = c.low.tight_low().through_move(c.passed);
        let b = c.high.tight_high().through_move(c.passed);
        low = low.max(a.min(b));
        high = high.max(a.max(b));
    }
    if !all || children.is_empty() {
        high = Score::WON;
    }
    (low.max(Score::LOST), high)
}

/// Sum of proof numbers: infinity absorbs, finite sums saturate below infinity.
#[inline]
fn add(a: u32, b: u32) -> u32 {
    if a == INF || b == INF {
        INF
    } else {
        a.saturating_add(b).min(MAX_FINITE)
    }
}

/// The 1+epsilon threshold (epsilon = 1 / [`Game::EPSILON_DIVISOR`], a quarter unless the
/// game says otherwise): stay with a child until its proof number exceeds the second
/// best's by that share, not by one.
#[inline]
fn widen<G: Game>(second: u32) -> u32 {
    if second >= MAX_FINITE {
        INF
    } else {
        let divisor = G::EPSILON_DIVISOR.max(1);
        second.saturating_add(second / divisor + 1).min(MAX_FINITE)
    }
}
