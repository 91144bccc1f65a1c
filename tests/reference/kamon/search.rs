//! Counting and solving Kamon positions: perft, divide and exhaustive minimax with
//! remoteness, with and without a memo.
//!
//! Each placement passes the turn, so a child's value is simply turned round (win <-> loss,
//! draw stays) and its remoteness grows by one. The memo is keyed by who holds each cell
//! and the last played cell: with the layout fixed, that is everything the rules look at
//! (the number of pieces gives the player to move, the last cell gives the stack's top).

use std::collections::HashMap;

use super::geometry::Cell;
use super::position::{KamonEnd, KamonPosition};
use crate::board::Side;

/// The number of placement sequences of exactly `depth` placements from `position`. A
/// finished game (a win, a full board, or no legal cell) has no continuation, so a
/// game-ending placement counts only as the last of a sequence. `perft(_, 0) == 1`.
pub fn kamon_perft_of(position: &KamonPosition, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    position
        .children()
        .iter()
        .map(|(_, child)| kamon_perft_of(child, depth - 1))
        .sum()
}

/// For each legal cell of `position` in board order, the perft count of `depth - 1` after
/// it. Empty for `depth == 0`.
pub fn kamon_divide_of(position: &KamonPosition, depth: u32) -> Vec<(Cell, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    position
        .children()
        .iter()
        .map(|(cell, child)| (*cell, kamon_perft_of(child, depth - 1)))
        .collect()
}

/// The game-theoretic value of a position for the player to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum KamonValue {
    /// The player to move wins with perfect play.
    Win,
    /// Neither player can force a win.
    Draw,
    /// The player to move loses against perfect play.
    Loss,
}

impl KamonValue {
    /// The same outcome seen by the other player.
    pub fn turned(self) -> KamonValue {
        match self {
            KamonValue::Win => KamonValue::Loss,
            KamonValue::Draw => KamonValue::Draw,
            KamonValue::Loss => KamonValue::Win,
        }
    }

    /// `win`, `draw` or `loss`.
    pub fn text(self) -> &'static str {
        match self {
            KamonValue::Win => "win",
            KamonValue::Draw => "draw",
            KamonValue::Loss => "loss",
        }
    }
}

/// How much the player choosing likes (value, remoteness): any win beats any draw beats any
/// loss; among wins the fastest, among losses the slowest. (All draws have the same
/// remoteness, the number of free cells, so their order does not matter.)
fn preference(value: KamonValue, remoteness: u32) -> (u8, i64) {
    match value {
        KamonValue::Win => (2, -i64::from(remoteness)),
        KamonValue::Draw => (1, 0),
        KamonValue::Loss => (0, i64::from(remoteness)),
    }
}

/// The value of a finished game for the player to move, with remoteness 0; `None` if the
/// game goes on.
fn finished_value(position: &KamonPosition) -> Option<(KamonValue, u32)> {
    match position.end()? {
        KamonEnd::Draw => Some((KamonValue::Draw, 0)),
        KamonEnd::Win { winner, .. } if winner == position.side_to_move() => {
            Some((KamonValue::Win, 0)) // never happens: only the player who just moved wins
        }
        KamonEnd::Win { .. } => Some((KamonValue::Loss, 0)),
    }
}

/// The best of the children's values, each turned round and one placement further.
fn best_of(children: impl Iterator<Item = (KamonValue, u32)>) -> (KamonValue, u32) {
    children
        .map(|(value, remoteness)| (value.turned(), remoteness + 1))
        .max_by_key(|&(value, remoteness)| preference(value, remoteness))
        // A game that goes on always has a legal cell (otherwise it would be over).
        .unwrap_or((KamonValue::Loss, 0))
}

/// Exhaustive minimax with no memo and no pruning: (value for the player to move,
/// remoteness). Only for positions with a handful of free cells.
pub fn kamon_minimax(position: &KamonPosition) -> (KamonValue, u32) {
    if let Some(value) = finished_value(position) {
        return value;
    }
    best_of(
        position
            .children()
            .iter()
            .map(|(_, child)| kamon_minimax(child)),
    )
}

/// What the memo is keyed by: the holder of every cell and the last played cell.
pub(crate) type MemoKey = (Vec<Option<Side>>, Option<Cell>);

fn memo_key(position: &KamonPosition) -> MemoKey {
    let holders = Cell::all()
        .into_iter()
        .map(|cell| position.owner(cell))
        .collect();
    (holders, position.played().last().copied())
}

/// The same answer as [`kamon_minimax`], memoised in `memo` (which must only ever be used
/// with positions on one layout).
pub(crate) fn kamon_minimax_with_memo(
    position: &KamonPosition,
    memo: &mut HashMap<MemoKey, (KamonValue, u32)>,
) -> (KamonValue, u32) {
    if let Some(value) = finished_value(position) {
        return value;
    }
    let key = memo_key(position);
    if let Some(&known) = memo.get(&key) {
        return known;
    }
    let child_values: Vec<(KamonValue, u32)> = position
        .children()
        .iter()
        .map(|(_, child)| kamon_minimax_with_memo(child, memo))
        .collect();
    let value = best_of(child_values.into_iter());
    memo.insert(key, value);
    value
}

/// Solves `position` with a fresh memo: (value for the player to move, remoteness).
pub fn kamon_solve_position(position: &KamonPosition) -> (KamonValue, u32) {
    kamon_minimax_with_memo(position, &mut HashMap::new())
}
