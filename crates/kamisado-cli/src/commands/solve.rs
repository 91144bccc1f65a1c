use std::time::Instant;

use kamisado_core::Kamisado;
use kamisado_core::Move;
use kamisado_solver::{Cancel, Solver};
use serde::Serialize;

use crate::args::SolveArgs;
use crate::failure::{Failure, Result};
use crate::output::{json, peak_memory_bytes, thousands, with_spinner};
use crate::{input, render};

/// What the search cost, in every report that searched.
#[derive(Serialize)]
pub struct SearchStats {
    pub nodes: u64,
    pub seconds: f64,
    pub nodes_per_second: u64,
    pub threads: usize,
    pub hash_mb: u64,
    pub table_fill: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub peak_memory_bytes: Option<u64>,
}

impl SearchStats {
    pub fn collect(solver: &Solver<Kamisado>, started: Instant) -> SearchStats {
        let seconds = started.elapsed().as_secs_f64();
        let nodes = solver.nodes();
        SearchStats {
            nodes,
            seconds,
            nodes_per_second: (nodes as f64 / seconds.max(1e-9)) as u64,
            threads: solver.threads(),
            hash_mb: (solver.table().bytes() >> 20) as u64,
            table_fill: (solver.table().fill() * 1000.0).round() / 1000.0,
            peak_memory_bytes: peak_memory_bytes(),
        }
    }

    pub fn line(&self) -> String {
        format!(
            "{} nodes in {:.2} s ({} nodes/s), {} thread(s), {} MiB table {:.0}% full{}",
            thousands(self.nodes),
            self.seconds,
            thousands(self.nodes_per_second),
            self.threads,
            self.hash_mb,
            self.table_fill * 100.0,
            self.peak_memory_bytes
                .map(|b| format!(", peak memory {} MiB", b >> 20))
                .unwrap_or_default()
        )
    }
}

#[derive(Serialize)]
struct Report {
    position: String,
    to_move: &'static str,
    active: Option<&'static str>,
    value: &'static str,
    remoteness: u32,
    best: Vec<String>,
    pv: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    winner: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'static str>,
    stats: SearchStats,
    #[serde(skip_serializing_if = "Option::is_none")]
    db: Option<super::db::Written>,
}

pub fn moves_text(moves: &[Move]) -> Vec<String> {
    moves.iter().map(|m| m.to_string()).collect()
}

pub fn run(args: SolveArgs) -> Result<()> {
    let pos = Kamisado::root(&input::position(&args.position)?);
    super::db::check_target(args.db.db.as_deref())?;
    let solver = input::solver(&args.search)?;
    let started = Instant::now();
    let quiet = args.output.quiet || args.output.json;
    let solution = with_spinner(
        quiet,
        "solving",
        "nodes",
        || solver.nodes(),
        || solver.solve(&pos, &Cancel::new()),
    )
    .map_err(Failure::internal)?;
    let mut stats = SearchStats::collect(&solver, started);
    let written = super::db::write_if_asked(
        args.db.db.as_deref(),
        &solver,
        || kamisado_db::Solved::along_line(&pos, solution.outcome, &solution.pv),
        &format!("solve {pos}"),
        args.output.quiet || args.output.json,
        &mut stats,
    )?;
    if args.output.json {
        let report = Report {
            position: pos.to_string(),
            to_move: pos.turn().name(),
            active: pos.active().map(|c| c.name()),
            value: solution.outcome.value.name(),
            remoteness: solution.outcome.remoteness,
            best: moves_text(&solution.best),
            pv: moves_text(&solution.pv),
            winner: pos.end().map(|e| e.winner.name()),
            reason: pos.end().map(|e| e.reason.name()),
            stats,
            db: written,
        };
        println!("{}", json(&report));
    } else {
        print!(
            "{}",
            render::board(&pos, render::use_colour(args.output.no_color))
        );
        println!("position    {pos}");
        println!("            {}", render::status(&pos));
        println!(
            "value       {}",
            render::outcome_for(pos.turn(), solution.outcome)
        );
        if !solution.best.is_empty() {
            println!("best        {}", moves_text(&solution.best).join(" "));
            println!("pv          {}", moves_text(&solution.pv).join(" "));
        }
        println!("searched    {}", stats.line());
        if let Some(written) = &written {
            println!("database    {}", written.line());
        }
    }
    Ok(())
}
