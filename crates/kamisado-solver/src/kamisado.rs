//! Kamisado through the rules core.

use kamisado_core::{Move, Position};

use crate::{Game, Player, Value};

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
            kamisado_core::Side::Black => Player::First,
            kamisado_core::Side::White => Player::Second,
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

    #[inline]
    fn winning_move(&self, pos: &Position) -> Option<Move> {
        pos.winning_move()
    }

    #[inline]
    fn estimate(&self, pos: &Position) -> (u32, u32) {
        // To refute a win, every move of the active tower must be refuted.
        (1, pos.count_moves().max(1) as u32)
    }
}
