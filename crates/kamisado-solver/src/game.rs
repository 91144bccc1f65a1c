//! The small trait a game implements to be solved.

use std::fmt::{Debug, Display};

/// The game-theoretic value of a position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    Loss,
    Win,
}

impl Value {
    pub const fn name(self) -> &'static str {
        match self {
            Value::Win => "win",
            Value::Loss => "loss",
        }
    }

    /// The value for the other side.
    pub const fn flip(self) -> Value {
        match self {
            Value::Win => Value::Loss,
            Value::Loss => Value::Win,
        }
    }
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One of the two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    First,
    Second,
}

/// A finite two-player game without draws and without cycles, as the search sees it.
///
/// Every move counts one towards remoteness: a game whose rules contain automatic moves
/// (Kamisado's zero-length moves) plays them inside [`Game::play`]. Turns need not
/// alternate: after such automatic moves the player who just moved may move again, so the
/// search asks [`Game::player`] rather than assuming the turn passed. A game with draws
/// (Kamon) would add a third terminal value; proof-number search then answers "win or
/// not" and a second search from the other side separates draws from losses.
pub trait Game: Sync {
    type Position: Copy + Send + Sync + Debug;
    type Move: Copy + Send + Sync + Eq + Debug + Display;

    /// `Some(value)` for a finished game, from the side to move's point of view.
    fn outcome(&self, pos: &Self::Position) -> Option<Value>;

    /// The player to move (in a finished game: the player who would be next).
    fn player(&self, pos: &Self::Position) -> Player;

    /// The legal moves of an unfinished position; never empty.
    fn moves(&self, pos: &Self::Position, out: &mut Vec<Self::Move>);

    /// The position after a legal move.
    fn play(&self, pos: &Self::Position, m: Self::Move) -> Self::Position;

    /// A key shared exactly by positions with the same value and remoteness (it may fold
    /// symmetric positions together). Never 0.
    fn key(&self, pos: &Self::Position) -> u128;

    /// A move that wins at once, if the side to move has one. Lets the search prove a win
    /// without generating children; the default knows nothing.
    fn winning_move(&self, _pos: &Self::Position) -> Option<Self::Move> {
        None
    }

    /// A first guess of how many leaves a proof (`.0`) and a disproof (`.1`) of a win for
    /// the side to move need, before any search. Both at least 1.
    fn estimate(&self, _pos: &Self::Position) -> (u32, u32) {
        (1, 1)
    }
}
