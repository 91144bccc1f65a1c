//! `kamisado kamon survey`: many random layouts solved, and what they add up to.
//!
//! Layout i (from 0) of a run with seed S is the random layout of seed S + i, and with
//! `--after K` the position after its K random placements (both as `kamisado kamon random`
//! makes them). Each layout gets a fresh solver, so one layout's table never helps
//! another and the times are comparable. Results go to the survey file after every layout
//! (see [`super::survey_file`]); a run resumes by skipping the layouts the file holds.

use std::time::Duration;

use kamisado_analysis::kamon::{self, SurveyError};
use kamisado_solver::with_time_limit;
use serde::Serialize;

use super::survey_file::{self, Entry, SurveyFile};
use super::{SurveyMergeArgs, SurveyRunArgs};
use crate::failure::{Failure, Result};
use crate::output::progress;
use crate::report::{self, Report};
use kamisado_analysis::survey_stats::Summary;

#[derive(Serialize)]
struct SurveyReport {
    #[serde(skip_serializing_if = "Option::is_none")]
    out: Option<String>,
    /// Layouts solved (or given up) by this invocation; the others were in the file.
    solved_now: u64,
    summary: Summary,
}

impl Report for SurveyReport {
    fn text(&self, _colour: bool) -> String {
        let mut out = self.summary.text();
        if let Some(path) = &self.out {
            out.push_str(&format!(
                "  {} layouts solved now; the survey is in {path}\n",
                self.solved_now
            ));
        }
        out
    }
}

#[derive(Serialize)]
struct MergeReport {
    out: String,
    runs: Vec<Summary>,
}

impl Report for MergeReport {
    fn text(&self, _colour: bool) -> String {
        let mut out = String::new();
        for run in &self.runs {
            out.push_str(&run.text());
        }
        out.push_str(&format!("written to {}\n", self.out));
        out
    }
}

/// Solves layout `index` of the run: the analysis library's, with this run's time limit.
fn solve_layout(index: u64, args: &SurveyRunArgs) -> Result<Entry> {
    let limit = args.time_limit.map(Duration::from_secs_f64);
    with_time_limit(limit, |cancel| {
        kamon::survey_entry(
            args.seed,
            args.after,
            index,
            super::input::solver_options(&args.search, args.value_only),
            args.value_only,
            args.time_limit,
            cancel,
        )
    })
    .map_err(|e| match e {
        SurveyError::Layout(e) => Failure::input(e),
        SurveyError::Solver(e) => crate::input::solve_error(&args.search, e),
        SurveyError::Search(e) => Failure::internal(e),
    })
}

pub fn run(args: SurveyRunArgs) -> Result<()> {
    let layouts = args.layouts.ok_or_else(|| {
        Failure::input("survey: give --layouts N (or join files with `survey merge`)")
    })?;
    kamon::survey_seeds(args.seed, layouts).map_err(Failure::input)?;
    let (shard, shards) = args.shard.unwrap_or((1, 1));
    let mut file = match &args.out {
        Some(path) => survey_file::load_or_new(path)?,
        None => SurveyFile::new(),
    };
    let done = file.done(args.seed, args.after);
    let todo: Vec<u64> = (0..layouts)
        .filter(|i| i % shards == shard - 1 && !done.contains(i))
        .collect();
    let quiet = args.output.quiet || args.output.json;
    let bar = progress(
        todo.len() as u64,
        quiet,
        &format!("seed {} after {}", args.seed, args.after),
    );
    for &index in &todo {
        let entry = solve_layout(index, &args)?;
        file.add(args.seed, args.after, entry);
        if let Some(path) = &args.out {
            survey_file::save(&mut file, path)?;
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let run = file.run_mut(args.seed, args.after).clone();
    let report = SurveyReport {
        out: args.out.as_ref().map(|p| p.display().to_string()),
        solved_now: todo.len() as u64,
        summary: Summary::of(&run),
    };
    report::print(&report, args.output.json, false);
    Ok(())
}

pub fn merge(args: SurveyMergeArgs) -> Result<()> {
    let mut file = SurveyFile::new();
    for part in &args.parts {
        let shown = part.display().to_string();
        file.merge(survey_file::load(part)?, &shown)
            .map_err(Failure::input)?;
    }
    survey_file::save(&mut file, &args.out)?;
    let report = MergeReport {
        out: args.out.display().to_string(),
        runs: file.runs.iter().map(Summary::of).collect(),
    };
    report::print(&report, args.output.json, false);
    Ok(())
}
