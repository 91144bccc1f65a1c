//! `kamisado kamon solve`: one position, exactly.

use std::time::Duration;

use kamisado_analysis::kamon::{self, SolveReport};
use kamisado_analysis::limits;
use kamisado_solver::{with_time_limit, Cancel, SolveError};

use super::search::outcome_for;
use super::{board, input, SolveArgs};
use crate::failure::{Failure, Result};
use crate::render::use_colour;
use crate::report::{self, Report};

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
    let solver = input::solver(record.layout(), &args.search, args.value_only)?;
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
                kamon::solve(&solver, &record, args.value_only, cancel)
            })
        },
    );
    let report = result.map_err(|e| match e {
        SolveError::Stopped => Failure::internal(limits::no_answer_in_time(
            args.time_limit.unwrap_or_default(),
            solver.nodes(),
        )),
        e => Failure::internal(e),
    })?;
    report::print(&report, args.output.json, use_colour(args.output.no_color));
    Ok(())
}
