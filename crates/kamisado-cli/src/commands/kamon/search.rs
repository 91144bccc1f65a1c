//! What the Kamon commands that search share: the cost of a search, how a perfect line
//! ends, and what a value means in terms of who wins.

use std::time::Instant;

use kamisado_solver::{Outcome, Solver, Value};
use kamon_core::{Cell, EndReason, KamonGame, Layout, Player, Position};
use serde::Serialize;

use crate::output::thousands;

/// What a search cost.
#[derive(Serialize, Clone, Debug)]
pub struct SearchStats {
    pub nodes: u64,
    pub seconds: f64,
    pub nodes_per_second: u64,
    pub threads: usize,
    pub hash_mb: u64,
    pub table_fill: f64,
}

impl SearchStats {
    /// The solver's count since it was made, and the time since `started`.
    pub fn collect(solver: &Solver<KamonGame>, started: Instant) -> SearchStats {
        let seconds = started.elapsed().as_secs_f64();
        let nodes = solver.nodes();
        SearchStats {
            nodes,
            seconds,
            nodes_per_second: (nodes as f64 / seconds.max(1e-9)) as u64,
            threads: solver.threads(),
            hash_mb: (solver.table().bytes() >> 20) as u64,
            table_fill: (solver.table().fill() * 1000.0).round() / 1000.0,
        }
    }

    pub fn line(&self) -> String {
        format!(
            "{} nodes in {:.2} s ({} nodes/s), {} thread(s), {} MiB table {:.0}% full",
            thousands(self.nodes),
            self.seconds,
            thousands(self.nodes_per_second),
            self.threads,
            self.hash_mb,
            self.table_fill * 100.0,
        )
    }
}

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
