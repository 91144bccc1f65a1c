//! `kamisado kamon survey`: many random layouts solved, and what they add up to.
//!
//! Layout i (from 0) of a run with seed S is the random layout of seed S + i, and with
//! `--after K` the position after its K random placements (both as `kamisado kamon random`
//! makes them). Each layout gets a fresh solver, so one layout's table never helps
//! another and the times are comparable. Results go to the survey file after every layout
//! (see [`super::survey_file`]); a run resumes by skipping the layouts the file holds.

use std::time::{Duration, Instant};

use kamisado_solver::{with_time_limit, Solution, SolveError, Value};
use kamon_core::Cell;
use serde::Serialize;

use super::search::{line_end, winner};
use super::survey_file::{self, Entry, MoveValue, SurveyFile};
use super::{input, SurveyMergeArgs, SurveyRunArgs};
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

/// The machine's one-minute load average, where the system says (Linux).
pub(super) fn load_average() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// What solving one layout found.
struct Solved {
    value: Value,
    solution: Option<Solution<Cell>>,
    moves: Vec<(Cell, Value)>,
}

/// Solves layout `index` of the run.
fn solve_layout(index: u64, args: &SurveyRunArgs) -> Result<Entry> {
    let seed = args.seed.wrapping_add(index);
    let record = input::random_record(seed, args.after)?;
    let solver = input::solver(record.layout(), &args.search)?;
    let (layout, pos) = (record.layout(), *record.position());
    let node = solver.game().node(&pos);
    let started = Instant::now();
    let limit = args.time_limit.map(Duration::from_secs_f64);
    let result = with_time_limit(limit, |cancel| -> std::result::Result<Solved, SolveError> {
        if args.value_only {
            let moves = solver.move_values(&node, cancel)?;
            let value = moves.iter().map(|&(_, v)| v).max().unwrap_or(Value::Loss);
            Ok(Solved {
                value,
                solution: None,
                moves,
            })
        } else {
            let solution = solver.solve(&node, cancel)?;
            let moves = solver.move_values(&node, cancel)?;
            Ok(Solved {
                value: solution.outcome.value,
                solution: Some(solution),
                moves,
            })
        }
    });
    let seconds = started.elapsed().as_secs_f64();
    let solved = match result {
        Ok(solved) => Some(solved),
        Err(SolveError::Stopped) => None,
        Err(e) => return Err(Failure::internal(e)),
    };
    let solution = solved.as_ref().and_then(|s| s.solution.as_ref());
    Ok(Entry {
        index,
        seed,
        layout: layout.to_string(),
        moves: input::cells_text(record.moves()),
        to_move: pos.turn().name().to_string(),
        value: solved.as_ref().map(|s| s.value.name().to_string()),
        winner: solved
            .as_ref()
            .map(|s| winner(pos.turn(), s.value).to_string()),
        remoteness: solution.map(|s| s.outcome.remoteness),
        pv: solution.map(|s| input::cells_text(&s.pv)),
        ends_by: solution
            .and_then(|s| line_end(layout, &pos, &s.pv))
            .map(|reason| reason.name().to_string()),
        first_moves: solved.as_ref().map(|s| {
            s.moves
                .iter()
                .map(|(cell, value)| MoveValue {
                    cell: cell.to_string(),
                    value: value.name().to_string(),
                })
                .collect()
        }),
        nodes: solver.nodes(),
        seconds: (seconds * 1000.0).round() / 1000.0,
        threads: solver.threads(),
        hash_mb: (solver.table().bytes() >> 20) as u64,
        time_limit: args.time_limit,
        load: load_average(),
    })
}

pub fn run(args: SurveyRunArgs) -> Result<()> {
    let layouts = args.layouts.ok_or_else(|| {
        Failure::input("survey: give --layouts N (or join files with `survey merge`)")
    })?;
    if layouts > 0 && args.seed.checked_add(layouts - 1).is_none() {
        return Err(Failure::input(format!(
            "--seed {} --layouts {layouts}: the layouts' seeds would pass 2^64 - 1",
            args.seed
        )));
    }
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
