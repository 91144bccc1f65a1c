//! A round of match play as the solver sees it: the round's value is who wins the round,
//! its remoteness the moves to the end of the round.

use kamisado_solver::{Game, Player, Value, WinInOne};

use crate::{MatchPosition, Move, Side};

/// One round of a match, solved on its own: a finished round is a win for its winner,
/// whatever it does to the score. Zero-length moves are played inside [`Game::play`]; a
/// push leaves the pusher to move again, which the solver sees as the same player moving
/// twice.
///
/// Single rounds (target 1, no Sumos) are the core's game move for move; solve those
/// with `kamisado_core::Kamisado`, whose smaller key makes its table denser.
#[derive(Clone, Copy, Debug, Default)]
pub struct MatchRound;

impl Game for MatchRound {
    type Position = MatchPosition;
    type Move = Move;
    /// The round's canonical key (squares, ranks, side, active colour): the up to four
    /// symmetric images share one entry; the target does not change a round's value.
    type Key = [u64; 3];

    #[inline]
    fn outcome(&self, pos: &MatchPosition) -> Option<Value> {
        pos.round_end().map(|end| {
            if end.winner == pos.turn() {
                Value::Win
            } else {
                Value::Loss
            }
        })
    }

    #[inline]
    fn player(&self, pos: &MatchPosition) -> Player {
        match pos.turn() {
            Side::Black => Player::First,
            Side::White => Player::Second,
        }
    }

    #[inline]
    fn moves(&self, pos: &MatchPosition, out: &mut Vec<Move>) {
        out.clear();
        out.extend_from_slice(&pos.legal_moves());
    }

    #[inline]
    fn play(&self, pos: &MatchPosition, m: Move) -> MatchPosition {
        pos.play_unchecked(m)
    }

    #[inline]
    fn key(&self, pos: &MatchPosition) -> [u64; 3] {
        pos.canonical_round_key().0
    }

    /// Exact: a round is won at once only on the goal row (a push never lands there, and a
    /// move whose zero-length chain deadlocks loses for its maker).
    #[inline]
    fn win_in_one(&self, pos: &MatchPosition) -> WinInOne<Move> {
        match pos.winning_move() {
            Some(m) => WinInOne::Wins(m),
            None => WinInOne::No,
        }
    }

    #[inline]
    fn estimate(&self, pos: &MatchPosition) -> (u32, u32) {
        (1, pos.count_moves().max(1) as u32)
    }
}
