//! What the Kamon commands that search share: the cost of a search, how a perfect line
//! ends, and what a value means in terms of who wins.

use kamisado_solver::{Outcome, Value};
use kamon_core::{Cell, EndReason, Layout, Player, Position};

/// What a search cost: the same report as Kamisado's searches give.
pub use crate::commands::solve::SearchStats;

/// How a game played from `pos` along `line` ends; `None` if the line stops before the end.
pub fn line_end(layout: &Layout, pos: &Position, line: &[Cell]) -> Option<EndReason> {
    let end = line
        .iter()
        .fold(*pos, |p, &cell| p.play_unchecked(layout, cell));
    end.end().map(|e| e.reason)
}

/// Who wins when `to_move` has `value`: `black`, `white` or `draw`.
pub fn winner(to_move: Player, value: Value) -> &'static str {
    match value {
        Value::Win => to_move.name(),
        Value::Loss => (!to_move).name(),
        Value::Draw => "draw",
    }
}

/// "win for black (black wins in 17 placements)", "draw (the board fills in 12 placements)".
pub fn outcome_for(to_move: Player, outcome: Outcome) -> String {
    let r = outcome.remoteness;
    let s = if r == 1 { "" } else { "s" };
    match outcome.value {
        Value::Draw => format!("draw (the board fills in {r} placement{s})"),
        value => format!(
            "{value} for {to_move} ({} wins in {r} placement{s})",
            winner(to_move, value)
        ),
    }
}
