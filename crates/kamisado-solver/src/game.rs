//! The small trait a game implements to be solved, and its contract.

use std::fmt::{Debug, Display};

use crate::{Key, Outcome, Value};

/// One of the two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    First,
    Second,
}

/// What a game knows about winning at once, and about the shortest forced results just
/// beyond (see [`Game::win_in_one`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WinInOne<M> {
    /// The game did not look. Always correct; the search then finds such wins itself.
    NotChecked,
    /// The side to move has no move that wins at once.
    No,
    /// This legal move wins at once.
    Wins(M),
    /// No move wins at once, and after every move the opponent moves and can win at
    /// once: a loss in two.
    LosesInTwo,
    /// No move wins in one or two moves, and this legal move wins in three: after it the
    /// opponent moves, cannot win or draw at once, and every reply lets the mover win at
    /// once.
    WinsInThree(M),
}

/// What a game knows about a position from outside the search (see [`Game::known`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Known {
    /// The exact outcome for the side to move: its value and remoteness.
    Outcome(Outcome),
    /// The value for the side to move; its remoteness is left to the search.
    Value(Value),
}

/// A finite two-player game, as the solver sees it.
///
/// # The contract
///
/// A game implements the REQUIRED items and may implement the OPTIONAL ones. The solver
/// is exact only if every item keeps its promise; the tests of each game check them
/// against a naive reference.
///
/// REQUIRED
///
/// - [`Game::Position`], [`Game::Move`]: small `Copy` types. A position must determine
///   everything the rest of the game depends on (no history outside it).
/// - [`Game::Key`]: see [`Game::key`]. Any width: `u64`, `u128`, `[u64; N]`.
/// - [`Game::outcome`]: `Some(value)` for the side to move exactly when the game is over.
/// - [`Game::player`]: whose turn it is. Turns need not alternate: a game whose rules
///   contain automatic moves (Kamisado's zero-length moves, a skipped turn) plays them
///   inside [`Game::play`], and the same player may then move again.
/// - [`Game::moves`]: every legal move of an unfinished position; never empty there. (A
///   rule like "a player without a legal move loses" is an [`Game::outcome`].)
/// - [`Game::play`]: the position after a legal move, automatic moves included. Every
///   move counts one towards remoteness.
/// - [`Game::key`]: equal keys only for positions with the same value and remoteness for
///   the side to move and the same moves up to a symmetry (a key may fold symmetric
///   positions together); the table compares keys whole, so keys must be exact.
///   The position graph must be acyclic: no position can recur in a game.
///
/// REQUIRED for games with draws
///
/// - [`Game::DRAWS`]: `true` if any position can end in a draw; the solver then asks a
///   second question to separate draws from losses. A game without draws keeps `false`
///   and pays nothing for them.
/// - [`Game::drawn_length`]: how many moves every drawn continuation lasts. The solver
///   requires this to be fixed by the position (as in games that draw only on a full
///   board): under perfect play neither player leaves a draw early, since every other
///   end is a win for one of them.
///
/// OPTIONAL (each only makes the search faster; the default is always correct)
///
/// - [`Game::win_in_one`]: a move that wins at once, found without generating children.
///   It may answer [`WinInOne::NotChecked`] for any position, but if it answers
///   [`WinInOne::No`] there must be no such move, and [`WinInOne::Wins`] must name a
///   legal one. The remoteness search narrows its bounds on `No` only. A game that
///   sees a little further may answer [`WinInOne::LosesInTwo`] or
///   [`WinInOne::WinsInThree`] instead of `No`, only when exactly true: the solver
///   takes them as exact results (remoteness 2 and 3) and searches no further.
/// - [`Game::estimate`]: first guesses of the proof and disproof numbers of "the side to
///   move wins", both at least 1. Any guess is correct; good ones (for example, the
///   number of replies that would all have to be refuted) save work.
/// - [`Game::known`]: a position's value, or its whole outcome, known from outside this
///   search: an endgame table, a solver of a simpler game that settles some positions
///   (a match's last round), proofs saved by an earlier run. The search asks only when
///   its table holds nothing about the position, and stores the answer there as if it
///   had proved it; it then never searches below a position whose value settles its
///   question. `None` is always correct; any other answer must be true, since every
///   result above it relies on it. An answer that costs real work should be remembered
///   by the game: the table may drop it to make room, and the search then asks again.
/// - [`Game::known_when_expanded`]: an answer like [`Game::known`]'s, given only when
///   the proof-number search is about to expand the position (list its moves), not when
///   it meets it as a child. For an answer that has a price (an assumption to be checked
///   later, one check each): the game gives that price as the position's
///   [`Game::estimate`], so the search comes to such positions only where nothing
///   cheaper settles its question, and learns from this call which answers a proof
///   relied on. Or for an answer that costs real time to find (a small search of its
///   own): the search asks once per position, when its table holds nothing about it
///   (an answer then settles it; a `None` would be the same the next time). The
///   remoteness search does not ask; it searches such positions.
/// - [`Game::EPSILON_DIVISOR`]: how long the proof-number search stays with a child before
///   it turns to a sibling (its 1+epsilon rule, epsilon = 1 / the divisor; 0 counts as 1).
///   Any value is correct; it only moves work around.
pub trait Game: Sync {
    type Position: Copy + Send + Sync + Debug;
    type Move: Copy + Send + Sync + Eq + Debug + Display;
    type Key: Key;

    /// REQUIRED for games with draws: whether any position can end in a draw.
    const DRAWS: bool = false;

    /// How many nodes a search thread expands between adding its count to the solver's
    /// ([`crate::Solver::nodes`], what progress reports read). Counting each node on a
    /// shared counter would cost a fast game much; a game whose nodes each cost real work
    /// (another search behind every node) sets it low, or its reports say 0 for long.
    const NODES_COUNTED_EVERY: u64 = 1 << 10;

    /// OPTIONAL. The 1+epsilon rule's divisor ([`crate::dfpn`]): the proof-number search
    /// stays in a child until the child's proof number passes the best sibling's `p` by
    /// `p / EPSILON_DIVISOR + 1`. The default, 4 (a quarter), is Pawlewicz and Lew's; a
    /// game with many transpositions may do better staying less (Kamon: 16).
    const EPSILON_DIVISOR: u32 = 4;

    /// REQUIRED. `Some(value)` for a finished game, from the side to move's point of view;
    /// `None` while the game goes on.
    fn outcome(&self, pos: &Self::Position) -> Option<Value>;

    /// REQUIRED. The player to move (in a finished game: the player who would be next).
    fn player(&self, pos: &Self::Position) -> Player;

    /// REQUIRED. The legal moves of an unfinished position into `out` (cleared first);
    /// never empty.
    fn moves(&self, pos: &Self::Position, out: &mut Vec<Self::Move>);

    /// REQUIRED. The position after the legal move `m`, automatic moves included.
    fn play(&self, pos: &Self::Position, m: Self::Move) -> Self::Position;

    /// REQUIRED. The position's exact key (see the contract above).
    fn key(&self, pos: &Self::Position) -> Self::Key;

    /// REQUIRED for games with draws. The number of moves every drawn continuation of
    /// `pos` lasts (0 for a game drawn already).
    ///
    /// # Panics
    ///
    /// The default panics: a game with [`Game::DRAWS`] must implement it, and a game
    /// without draws never has it called.
    fn drawn_length(&self, _pos: &Self::Position) -> u32 {
        panic!("a game with draws must implement Game::drawn_length")
    }

    /// OPTIONAL. Whether the side to move can win at once, and how.
    #[inline]
    fn win_in_one(&self, _pos: &Self::Position) -> WinInOne<Self::Move> {
        WinInOne::NotChecked
    }

    /// OPTIONAL. First guesses of the proof (`.0`) and disproof (`.1`) numbers of "the
    /// side to move wins", before any search. Both at least 1.
    #[inline]
    fn estimate(&self, _pos: &Self::Position) -> (u32, u32) {
        (1, 1)
    }

    /// OPTIONAL. What is known about `pos` (unfinished) without searching it here, for
    /// its side to move; `None` if nothing is.
    #[inline]
    fn known(&self, _pos: &Self::Position) -> Option<Known> {
        None
    }

    /// OPTIONAL. What is known about `pos` (unfinished, not settled by [`Game::known`])
    /// that the proof-number search takes only on coming to expand it; `None` if nothing
    /// is.
    #[inline]
    fn known_when_expanded(&self, _pos: &Self::Position) -> Option<Known> {
        None
    }
}
