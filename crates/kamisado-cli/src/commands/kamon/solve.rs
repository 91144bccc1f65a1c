//! `kamisado kamon solve`: one position, exactly.

use std::time::Duration;

use std::time::Instant;

use kamisado_analysis::kamon::{self, ByUnits, SolveReport};
use kamisado_analysis::limits;
use kamisado_analysis::units_file::{Goal, Split};
use kamisado_analysis::SearchStats;
use kamisado_solver::{with_time_limit, Cancel, SolveError};

use super::search::outcome_for;
use super::units::{self, SplitJob};
use super::{board, input, SolveArgs};
use crate::args::SearchArgs;
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
            (None, _) if self.by_units.is_some() => out
                .push_str("value       not proven: the run stopped before its units settled it\n"),
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
        if let Some(by) = &self.by_units {
            out.push_str(&format!(
                "this run    {} nodes in {:.1} s of wall time, up to {} units side by side (the positions {} placement{} below), one thread each\n",
                crate::output::thousands(self.stats.nodes),
                self.stats.seconds,
                by.jobs,
                by.depth,
                if by.depth == 1 { "" } else { "s" },
            ));
            // What the units prove, as `kamon units solve` and `units merge` say it.
            out.push_str(&units::summary_text(&by.summary, self.to_move));
            return out;
        }
        out.push_str(&format!("searched    {}\n", self.stats.line()));
        out
    }
}

pub fn run(args: SolveArgs) -> Result<()> {
    let record = input::record(&args.position)?;
    let split = match args.split {
        Some(depth) => Some(depth),
        None if args.value_only => kamon::split_depth(record.position().placed()),
        None => None,
    };
    if let Some(depth) = split {
        return run_by_units(&args, record, depth);
    }
    for (flag, given) in [
        ("--results", args.results.is_some()),
        ("--checkpoints", args.checkpoints.is_some()),
    ] {
        if given {
            return Err(Failure::input(format!(
                "{flag}: only with a split (--split, or a position with fewer than two placements made)"
            )));
        }
    }
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

/// The value of `record` proven by its units `depth` placements below (`kamon units`),
/// `--threads` of them side by side.
fn run_by_units(args: &SolveArgs, record: kamon_core::Record, depth: u32) -> Result<()> {
    let split = Split::new(record.clone(), depth).map_err(Failure::input)?;
    let jobs = args.search.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        usize::from,
    );
    // Each unit on one thread (the value search's default) and a table of its own.
    let unit_search = SearchArgs {
        threads: None,
        ..args.search.for_units()
    };
    let unit_mb = unit_search.hash_mb();
    let tables_mb = jobs as u64 * unit_mb;
    if tables_mb > limits::HASH_MB.max {
        return Err(Failure::input(format!(
            "--threads {jobs} and --hash-mb {unit_mb}: the units' tables would take {tables_mb} MiB, more than {} MiB",
            limits::HASH_MB.max
        )));
    }
    crate::shutdown::stop_gracefully();
    let started = Instant::now();
    let run = units::run_split(
        &split,
        &SplitJob {
            results: args.results.as_deref(),
            known: &[],
            index: None,
            goal: Goal::Root,
            jobs,
            max_units: None,
            time_limit: None,
            deadline: args
                .time_limit
                .map(|limit| started + Duration::from_secs_f64(limit)),
            checkpoints: args.checkpoints.as_deref(),
            checkpoint_every: 600.0,
            search: &unit_search,
            quiet: args.output.quiet || args.output.json,
        },
    )?;
    let summary = run.summary;
    // This run's search; the summary holds every unit's, earlier runs' too.
    let seconds = started.elapsed().as_secs_f64();
    let stats = SearchStats {
        nodes: run.nodes_now,
        seconds,
        nodes_per_second: (run.nodes_now as f64 / seconds.max(1e-9)) as u64,
        threads: jobs,
        hash_mb: unit_mb,
        table_fill: f64::NAN,
        peak_memory_bytes: kamisado_analysis::peak_memory_bytes(),
    };
    let value = summary.value.and_then(kamisado_solver::Value::from_name);
    if value.is_none() && run.stopped && !crate::shutdown::stop_asked() {
        return Err(Failure::internal(format!(
            "{}; {}",
            limits::no_answer_in_time(args.time_limit.unwrap_or_default(), run.nodes_now),
            kept_where(args)
        )));
    }
    let mut report = SolveReport::new(&record, value, None, stats);
    report.by_units = Some(ByUnits {
        depth,
        jobs,
        summary,
    });
    report::print(&report, args.output.json, use_colour(args.output.no_color));
    if value.is_none() && !args.output.json {
        eprintln!("{}", kept_where(args));
    }
    crate::shutdown::exit_if_stopped();
    Ok(())
}

/// Where a split stopped part way keeps its work, for the line that says so.
fn kept_where(args: &SolveArgs) -> String {
    match &args.results {
        Some(path) => format!(
            "the units' results are in {} for a later run",
            path.display()
        ),
        None => "--results FILE would keep the units solved for a later run".to_owned(),
    }
}
