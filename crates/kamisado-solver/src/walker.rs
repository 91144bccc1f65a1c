//! What both searches do at every node: list the children, let the rules decide those
//! they can, and look the others up in the table, with the lookups overlapped.
//!
//! Proof-number search and the remoteness search differ only in what they do with the
//! children; everything before that (the frames that keep allocation off the hot path,
//! the rules' verdicts, the keys, the prefetches, the table lookups) lives here once.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::game::WinInOne;
use crate::table::{Entry, Question, Table};
use crate::{Cancel, Game, Key, Known, Score};

/// What the rules alone say about a position, before any table or search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Judged {
    /// A finished game, or a short forced result the game reports: the exact score.
    Exact(Score),
    /// Undecided; its score is at most `ceiling` (a win in two when the game says there
    /// is no win in one, else a win in one).
    Open { ceiling: Score },
}

/// What the rules say about `pos`.
#[inline]
pub(crate) fn judge<G: Game>(game: &G, pos: &G::Position) -> Judged {
    if let Some(value) = game.outcome(pos) {
        return Judged::Exact(Score::new(value, 0));
    }
    match game.win_in_one(pos) {
        WinInOne::Wins(_) => Judged::Exact(Score::WIN_IN_ONE),
        WinInOne::LosesInTwo => Judged::Exact(Score::LOSS_IN_TWO),
        WinInOne::WinsInThree(_) => Judged::Exact(Score::WIN_IN_THREE),
        WinInOne::No => Judged::Open {
            ceiling: Score::WIN_IN_TWO,
        },
        WinInOne::NotChecked => Judged::Open {
            ceiling: Score::WIN_IN_ONE,
        },
    }
}

/// A child of the node being searched, with room for what one search keeps per child
/// (`X`: proof numbers, a move-ordering key). Kept small and flat: searches scan their
/// children's lists again and again.
pub(crate) struct Child<G: Game, X> {
    pub pos: G::Position,
    /// The child's key; meaningful only when it is not `exact`.
    pub key: G::Key,
    /// Bounds on the child's score for its own side to move, from the rules and the table;
    /// equal (the score itself) when the rules decide it.
    pub low: Score,
    pub high: Score,
    /// The table entry's numbers and their question, when `found`.
    pub pn: u32,
    pub dn: u32,
    pub question: Question,
    /// Whether the opponent moves next, or (after automatic moves) the mover again.
    pub passed: bool,
    /// Whether the rules decide the child (a finished game or a win in one); then it has
    /// no table entry.
    pub exact: bool,
    /// Whether the table holds an entry for it.
    pub found: bool,
    pub extra: X,
}

impl<G: Game, X> Child<G, X> {
    #[inline]
    pub fn bounds(&self) -> (Score, Score) {
        (self.low, self.high)
    }
}

/// Bounds on an undecided position's score: a loss takes at least one move, a win is at
/// most `ceiling`, narrowed by what the table knows.
#[inline]
pub(crate) fn bounds(entry: Option<Entry>, ceiling: Score) -> (Score, Score) {
    let (low, high) = (Score::LOSS_IN_ONE, ceiling);
    match entry {
        Some(e) => (low.max(e.low), high.min(e.high)),
        None => (low, high),
    }
}

/// One thread's view of the game, the table and the stop flag, with reusable frames.
pub(crate) struct Walker<'a, G: Game, X> {
    pub game: &'a G,
    pub table: &'a Table<G::Key>,
    pub stop: &'a Cancel<'a>,
    /// Nodes expanded by this walker.
    pub nodes: u64,
    /// The solver's count of nodes, which this walker's are added to as it goes.
    shared_nodes: &'a AtomicU64,
    published: u64,
    /// Children lists by depth, reused so that no node allocates.
    frames: Vec<Vec<Child<G, X>>>,
    moves: Vec<G::Move>,
}

impl<'a, G: Game, X: Default> Walker<'a, G, X> {
    pub fn new(
        game: &'a G,
        table: &'a Table<G::Key>,
        stop: &'a Cancel<'a>,
        shared_nodes: &'a AtomicU64,
    ) -> Walker<'a, G, X> {
        Walker {
            game,
            table,
            stop,
            nodes: 0,
            shared_nodes,
            published: 0,
            frames: Vec::new(),
            moves: Vec::new(),
        }
    }

    /// What the rules say about `pos`.
    #[inline]
    pub fn judge(&self, pos: &G::Position) -> Judged {
        judge(self.game, pos)
    }

    /// Counts one node expanded.
    #[inline]
    pub fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes.is_multiple_of(G::NODES_COUNTED_EVERY) {
            self.publish();
        }
    }

    /// Adds the nodes not yet counted to the solver's count.
    #[cold]
    #[inline(never)]
    pub fn publish(&mut self) {
        self.shared_nodes
            .fetch_add(self.nodes - self.published, Ordering::Relaxed);
        self.published = self.nodes;
    }

    /// What the table knows about the undecided position `pos` (whose key is `key`), or
    /// failing that, what the game knows from elsewhere (then stored in the table).
    #[inline]
    pub fn lookup(&self, pos: &G::Position, key: G::Key) -> Option<Entry> {
        self.table.get(key).or_else(|| self.known(pos, key))
    }

    /// What the game knows about `pos` from outside the search, stored in the table
    /// (merged with anything another thread stored meanwhile).
    #[inline]
    fn known(&self, pos: &G::Position, key: G::Key) -> Option<Entry> {
        Some(self.remember(key, self.game.known(pos)?))
    }

    /// Stores what the game knows about the position of `key`, merged with the table's
    /// entry (another thread's, or the search's own numbers so far), whose numbers are
    /// made to agree with the bounds they now have.
    #[inline]
    fn remember(&self, key: G::Key, known: Known) -> Entry {
        let known = Entry::known(known);
        self.table.update(key, |e| {
            let mut entry = e.map_or(known, |e| e.merged(known));
            entry.settle(entry.low, entry.high);
            *e = Some(entry);
            entry
        })
    }

    /// What the game knows about `pos` only once it is to be expanded
    /// ([`Game::known_when_expanded`]), stored in the table like [`Walker::lookup`]'s
    /// answers.
    #[inline]
    pub fn known_when_expanded(&self, pos: &G::Position, key: G::Key) -> Option<Entry> {
        Some(self.remember(key, self.game.known_when_expanded(pos)?))
    }

    /// The children of `pos` (at search depth `depth`), each judged by the rules and the
    /// open ones looked up in the table; `prepare` fills in each child's `extra` once it is
    /// judged or looked up (called where the compiler knows which, so that it branches no
    /// more than it must). Stops listing at the first rules-decided child for which
    /// `settles` holds (that child is last, and nothing is looked up: the caller needs no
    /// more). Give the list back with [`Walker::release`].
    #[inline]
    pub fn expand(
        &mut self,
        pos: &G::Position,
        depth: usize,
        settles: impl Fn(Score, bool) -> bool,
        prepare: impl Fn(&mut Child<G, X>),
    ) -> (Vec<Child<G, X>>, bool) {
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
            let (exact, key, (low, high)) = match self.judge(&child) {
                Judged::Exact(s) => (true, G::Key::ZERO, (s, s)),
                Judged::Open { ceiling } => {
                    let key = self.game.key(&child);
                    // Start loading its bucket now; the lookups follow once all are on their way.
                    self.table.prefetch(key);
                    (false, key, bounds(None, ceiling))
                }
            };
            children.push(Child {
                pos: child,
                key,
                low,
                high,
                pn: 0,
                dn: 0,
                question: Question::Wins,
                passed,
                exact,
                found: false,
                extra: X::default(),
            });
            if exact {
                if let Some(c) = children.last_mut() {
                    prepare(c);
                }
                if settles(low, passed) {
                    return (children, true);
                }
            }
        }
        for c in children.iter_mut().filter(|c| !c.exact) {
            if let Some(e) = self.lookup(&c.pos, c.key) {
                c.low = c.low.max(e.low);
                c.high = c.high.min(e.high);
                (c.pn, c.dn, c.question, c.found) = (e.pn, e.dn, e.question, true);
            }
            prepare(c);
        }
        (children, false)
    }

    /// Gives back the list [`Walker::expand`] made at `depth`, for reuse.
    #[inline]
    pub fn release(&mut self, depth: usize, children: Vec<Child<G, X>>) {
        self.frames[depth] = children;
    }
}
