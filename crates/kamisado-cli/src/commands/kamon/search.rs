//! What the Kamon commands that search share: the cost of a search, how a perfect line
//! ends, and what a value means in terms of who wins (the words of the text reports).

use kamisado_solver::{Outcome, Value};
use kamon_core::Player;

// Who wins: the analysis library's, beside its reports.
pub use kamisado_analysis::kamon::winner;

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
