//! `kamisado solve`: one position, exactly: who wins the round, in how many moves, every
//! best move and a perfect line.

use std::time::Instant;

use kamisado_analysis::{Rounds, SearchStats, SolveReport};
use kamisado_solver::Cancel;
use serde::Serialize;

use crate::args::SolveArgs;
use crate::failure::{Failure, Result};
use crate::output::with_spinner;
use crate::report::{self, Report};
use crate::{input, render};

/// The library's report, and what the command line adds: the database it wrote.
#[derive(Serialize)]
struct SolveOutput {
    #[serde(flatten)]
    report: SolveReport,
    #[serde(skip_serializing_if = "Option::is_none")]
    db: Option<super::db::Written>,
}

impl Report for SolveOutput {
    fn text(&self, colour: bool) -> String {
        let report = &self.report;
        let pos = &report.pos;
        let mut out = render::board(pos, colour);
        out.push_str(&format!("position    {}\n", report.position));
        out.push_str(&format!("            {}\n", render::status(pos)));
        out.push_str(&format!(
            "value       {}\n",
            render::outcome_for(pos.turn(), report.solution.outcome)
        ));
        if !report.best.is_empty() {
            out.push_str(&format!("best        {}\n", report.best.join(" ")));
            out.push_str(&format!("pv          {}\n", report.pv.join(" ")));
        }
        out.push_str(&format!("searched    {}\n", report.stats.line()));
        if let Some(written) = &self.db {
            out.push_str(&format!("database    {}\n", written.line()));
        }
        out
    }
}

pub fn run(args: SolveArgs) -> Result<()> {
    let pos = input::position(&args.position)?.resolve();
    let rounds = Rounds::of(&pos);
    if args.db.path().is_some() && rounds == Rounds::Sumo {
        return Err(Failure::input(
            "--db: databases hold rounds without Sumos (single rounds); this round has a Sumo on the board",
        ));
    }
    super::db::check_target(args.db.path())?;
    // A round keeps its kind to its end: one table, with the whole budget.
    let oracle = input::oracle(None, &args.search, rounds)?;
    let started = Instant::now();
    let quiet = args.output.quiet || args.output.json;
    let report = with_spinner(
        quiet,
        "solving",
        "nodes",
        || oracle.nodes(),
        || kamisado_analysis::solve(&oracle, &pos, &Cancel::new()),
    )
    .map_err(Failure::internal)?;
    let SolveReport { pos, solution, .. } = &report;
    // The database write's cost is part of what the command cost.
    let mut stats = SearchStats::of_oracle(&oracle, started);
    let written = match (oracle.single_round_solver(), pos.single_round()) {
        (Some(solver), Some(single)) => super::db::write_if_asked(
            args.db.path(),
            solver,
            || kamisado_db::Solved::along_line(&single, solution.outcome, &solution.pv),
            &format!("solve {single}"),
            quiet,
            &mut stats,
        )?,
        _ => None,
    };
    let report = SolveOutput {
        report: SolveReport { stats, ..report },
        db: written,
    };
    report::print(
        &report,
        args.output.json,
        render::use_colour(args.output.no_color),
    );
    Ok(())
}
