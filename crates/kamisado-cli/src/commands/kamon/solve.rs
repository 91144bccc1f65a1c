//! `kamisado kamon solve`: one position, exactly.

use std::time::{Duration, Instant};

use kamisado_solver::{with_time_limit, Cancel, Solution, SolveError, Value};
use kamon_core::{Cell, Record};
use serde::Serialize;

use super::search::{line_end, outcome_for, winner, SearchStats};
use super::{board, input, SolveArgs};
use crate::failure::{Failure, Result};
use crate::output::thousands;
use crate::render::use_colour;
use crate::report::{self, Report};

/// What `kamisado kamon solve --json` prints, and the core of `kamisado serve`'s Kamon
/// answers (which add every legal cell's result), so the two never disagree on a field.
#[derive(Serialize)]
pub struct SolveReport {
    layout: String,
    moves: Vec<String>,
    to_move: &'static str,
    /// For the side to move; `null` only in a server's answer cut short by its time limit.
    value: Option<Value>,
    /// `black`, `white` or `draw`; `null` with the value.
    winner: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    remoteness: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    best: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pv: Option<Vec<String>>,
    /// How the perfect line ends: connection, loop, no legal cell or full board.
    #[serde(skip_serializing_if = "Option::is_none")]
    ends_by: Option<&'static str>,
    #[serde(flatten)]
    stats: SearchStats,
    #[serde(skip)]
    record: Record,
}

impl SolveReport {
    /// The report on `record`'s position: its `value` if known, and the `solution` (best
    /// moves and a perfect line) if found.
    pub fn new(
        record: &Record,
        value: Option<Value>,
        solution: Option<&Solution<Cell>>,
        stats: SearchStats,
    ) -> SolveReport {
        let layout = record.layout();
        let pos = record.position();
        SolveReport {
            layout: layout.to_string(),
            moves: input::cells_text(record.moves()),
            to_move: pos.turn().name(),
            value,
            winner: value.map(|v| winner(pos.turn(), v)),
            remoteness: solution.map(|s| s.outcome.remoteness),
            best: solution.map(|s| input::cells_text(&s.best)),
            pv: solution.map(|s| input::cells_text(&s.pv)),
            ends_by: solution
                .and_then(|s| line_end(layout, pos, &s.pv))
                .map(|reason| reason.name()),
            stats,
            record: record.clone(),
        }
    }
}

impl Report for SolveReport {
    fn text(&self, colour: bool) -> String {
        let mut out = board::board(&self.record, colour);
        out.push_str(&format!("position    {}\n", self.record));
        out.push_str(&format!(
            "            {}\n",
            board::status(&self.record).replace('\n', "\n            ")
        ));
        let to_move = self.record.position().turn();
        match (self.value, self.remoteness) {
            (Some(value), Some(r)) => out.push_str(&format!(
                "value       {}\n",
                outcome_for(to_move, kamisado_solver::Outcome::new(value, r))
            )),
            (Some(value), None) => out.push_str(&format!(
                "value       {value} for {to_move} ({})\n",
                match self.winner {
                    Some("draw") | None => "a draw".to_string(),
                    Some(w) => format!("{w} wins"),
                }
            )),
            (None, _) => out.push_str("value       not solved within the time limit\n"),
        }
        if let (Some(best), Some(pv)) = (&self.best, &self.pv) {
            if !best.is_empty() {
                out.push_str(&format!("best        {}\n", best.join(" ")));
                out.push_str(&format!("pv          {}\n", pv.join(" ")));
            }
        }
        if let Some(how) = self.ends_by {
            out.push_str(&format!("ends by     {how}\n"));
        }
        out.push_str(&format!("searched    {}\n", self.stats.line()));
        out
    }
}

pub fn run(args: SolveArgs) -> Result<()> {
    let record = input::record(&args.position)?;
    let solver = input::solver(record.layout(), &args.search)?;
    let pos = *record.position();
    let node = solver.game().node(&pos);
    let started = Instant::now();
    let limit = args.time_limit.map(Duration::from_secs_f64);
    // A spinner with the nodes so far, on a terminal: a search may take minutes.
    let quiet = args.output.quiet || args.output.json;
    let result = crate::output::with_spinner(
        quiet,
        "solving",
        "nodes",
        || solver.nodes(),
        || {
            with_time_limit(limit, |cancel: &Cancel| {
                if args.value_only {
                    solver.value(&node, cancel).map(|v| (v, None))
                } else {
                    solver
                        .solve(&node, cancel)
                        .map(|s| (s.outcome.value, Some(s)))
                }
            })
        },
    );
    let stats = SearchStats::collect(&solver, started);
    let (value, solution) = result.map_err(|e| match e {
        SolveError::Stopped => Failure::internal(format!(
            "no answer within the time limit of {} s ({} nodes searched)",
            args.time_limit.unwrap_or_default(),
            thousands(stats.nodes)
        )),
        e => Failure::internal(e),
    })?;
    let report = SolveReport::new(&record, Some(value), solution.as_ref(), stats);
    report::print(&report, args.output.json, use_colour(args.output.no_color));
    Ok(())
}
