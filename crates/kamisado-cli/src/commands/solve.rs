//! `kamisado solve`: one position, exactly: who wins the round, in how many moves, every
//! best move and a perfect line.

use std::time::Instant;

use kamisado_analysis::{Rounds, SearchStats, Standing};
use kamisado_match::{MatchPosition, Move};
use kamisado_solver::{Cancel, Solution};
use serde::Serialize;

use crate::args::SolveArgs;
use crate::failure::{Failure, Result};
use crate::output::with_spinner;
use crate::report::{self, Report};
use crate::{input, render};

#[derive(Serialize)]
struct SolveReport {
    position: String,
    to_move: &'static str,
    active: Option<&'static str>,
    /// For the side to move: who wins the round being played.
    value: &'static str,
    /// Moves to the end of the round under perfect play.
    remoteness: u32,
    best: Vec<String>,
    pv: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    winner: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'static str>,
    #[serde(flatten)]
    standing: Option<Standing>,
    stats: SearchStats,
    #[serde(skip_serializing_if = "Option::is_none")]
    db: Option<super::db::Written>,
    #[serde(skip)]
    pos: MatchPosition,
    #[serde(skip)]
    solution: Solution<Move>,
}

impl Report for SolveReport {
    fn text(&self, colour: bool) -> String {
        let pos = &self.pos;
        let mut out = render::board(pos, colour);
        out.push_str(&format!("position    {}\n", self.position));
        out.push_str(&format!("            {}\n", render::status(pos)));
        out.push_str(&format!(
            "value       {}\n",
            render::outcome_for(pos.turn(), self.solution.outcome)
        ));
        if !self.best.is_empty() {
            out.push_str(&format!("best        {}\n", self.best.join(" ")));
            out.push_str(&format!("pv          {}\n", self.pv.join(" ")));
        }
        out.push_str(&format!("searched    {}\n", self.stats.line()));
        if let Some(written) = &self.db {
            out.push_str(&format!("database    {}\n", written.line()));
        }
        out
    }
}

pub fn moves_text(moves: &[Move]) -> Vec<String> {
    moves.iter().map(|m| m.to_string()).collect()
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
    let solution = with_spinner(
        quiet,
        "solving",
        "nodes",
        || oracle.nodes(),
        || oracle.solve(&pos, &Cancel::new()),
    )
    .map_err(Failure::internal)?;
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
    let end = pos.round_end();
    let report = SolveReport {
        position: pos.to_string(),
        to_move: pos.turn().name(),
        active: pos.active().map(|c| c.name()),
        value: solution.outcome.value.name(),
        remoteness: solution.outcome.remoteness,
        best: moves_text(&solution.best),
        pv: moves_text(&solution.pv),
        winner: end.map(|e| e.winner.name()),
        reason: end.map(|e| e.reason.name()),
        standing: Standing::of(&pos),
        stats,
        db: written,
        pos,
        solution,
    };
    report::print(
        &report,
        args.output.json,
        render::use_colour(args.output.no_color),
    );
    Ok(())
}
