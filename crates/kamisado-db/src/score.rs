//! Scores (value and remoteness in one integer, see [`kamisado_solver::remoteness`]) seen
//! across one move.
//!
//! After a move and its chain of zero-length moves the side to move may be the player who
//! just moved, so a child's score is never negated blindly: it is turned into the mover's
//! point of view by comparing sides.

use kamisado_core::{Position, Side};
use kamisado_solver::remoteness::{parent_score, score, WIN};
use kamisado_solver::Value;

/// The score for `mover` of moving to `child`, whose score for its own side to move is
/// `child_score`: one move longer, and from the mover's side.
#[inline]
pub(crate) fn through_move(mover: Side, child: &Position, child_score: i32) -> i32 {
    if child.turn() == mover {
        // Same player again: same value, one move further from the end.
        if child_score > 0 {
            child_score - 1
        } else {
            child_score + 1
        }
    } else {
        parent_score(child_score)
    }
}

/// A value for `child`'s side to move, seen by `mover`.
#[inline]
pub(crate) fn value_for(mover: Side, child: &Position, value: Value) -> Value {
    if child.turn() == mover {
        value
    } else {
        value.flip()
    }
}

/// The exact score the rules alone give a position: a finished game (remoteness 0) or a
/// win in one (remoteness 1). Searches and databases never hold these.
#[inline]
pub(crate) fn by_rules(pos: &Position) -> Option<i32> {
    if let Some(end) = pos.end() {
        let value = if end.winner == pos.turn() {
            Value::Win
        } else {
            Value::Loss
        };
        return Some(score(value, 0));
    }
    pos.winning_move().map(|_| WIN - 1)
}

/// "win in 7", "loss in 12".
pub(crate) fn describe(s: i32) -> String {
    let (value, remoteness) = kamisado_solver::remoteness::value_of(s);
    format!("{value} in {remoteness}")
}
