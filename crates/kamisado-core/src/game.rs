//! Single-round Kamisado as the solver sees it: the rules core implementing the solver's
//! generic [`Game`] trait.

use kamisado_solver::{Game, Player, Value, WinInOne};

use crate::{Move, Position, Side};

/// Single-round Kamisado. Zero-length moves are played inside [`Game::play`], so the
/// search sees only moves of positive length and, the game being finite, never a cycle.
#[derive(Clone, Copy, Debug, Default)]
pub struct Kamisado;

impl Kamisado {
    /// The position the search starts from: `pos` with its pending zero-length moves played.
    pub fn root(pos: &Position) -> Position {
        pos.resolve()
    }
}

impl Game for Kamisado {
    type Position = Position;
    type Move = Move;
    /// The 101-bit canonical key: the up to four symmetric images share one entry.
    type Key = u128;

    #[inline]
    fn outcome(&self, pos: &Position) -> Option<Value> {
        pos.end().map(|end| {
            if end.winner == pos.turn() {
                Value::Win
            } else {
                Value::Loss
            }
        })
    }

    #[inline]
    fn player(&self, pos: &Position) -> Player {
        match pos.turn() {
            Side::Black => Player::First,
            Side::White => Player::Second,
        }
    }

    #[inline]
    fn moves(&self, pos: &Position, out: &mut Vec<Move>) {
        out.clear();
        out.extend_from_slice(&pos.legal_moves());
    }

    #[inline]
    fn play(&self, pos: &Position, m: Move) -> Position {
        pos.play_unchecked(m)
    }

    #[inline]
    fn key(&self, pos: &Position) -> u128 {
        pos.canonical_key().0
    }

    /// Exact: a move wins at once only by reaching the goal row (a move whose zero-length
    /// chain deadlocks loses for its maker), which [`Position::winning_move`] finds.
    #[inline]
    fn win_in_one(&self, pos: &Position) -> WinInOne<Move> {
        match pos.winning_move() {
            Some(m) => WinInOne::Wins(m),
            None => WinInOne::No,
        }
    }

    #[inline]
    fn estimate(&self, pos: &Position) -> (u32, u32) {
        // To refute a win, every move of the active tower must be refuted.
        (1, pos.count_moves().max(1) as u32)
    }
}
