//! `kamisado kamon units`: a position (the empty board of a layout) split at its first
//! placements into units, each solved apart with its own table, and their values merged
//! by the game's AND/OR rule (see [`super::units_file`]).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::ValueEnum;
use kamisado_analysis::units_run::{self, Running, Spent, UnitsRun};
use kamisado_solver::{Cancel, Value};
use serde::Serialize;

use super::units_file::{self, bounds_name, Ask, Goal, Split, Summary, UnitResult, UnitsFile};
use super::{
    input, ClaimArg, SplitArgs, UnitsListArgs, UnitsMergeArgs, UnitsProofArgs, UnitsSolveArgs,
};
use crate::args::SearchArgs;
use crate::failure::{Failure, Result};
use crate::output::thousands;
use crate::report::{self, Report};

fn split_of(args: &SplitArgs) -> Result<Split> {
    Split::new(input::record(&args.position)?, args.depth).map_err(Failure::input)
}

#[derive(Serialize)]
struct ListedUnit {
    /// 1-based: `units solve --index` takes it.
    index: usize,
    /// The position text (layout, then the placements from the start).
    position: String,
    /// The placements from the split's root.
    moves: Vec<String>,
    to_move: &'static str,
    /// For `units proof`: what the unit's certificate must show for its side to move, as
    /// `kamon prove --claim` takes it (`value`, `at-least-draw`, `at-most-draw`).
    #[serde(skip_serializing_if = "Option::is_none")]
    claim: Option<String>,
}

#[derive(Serialize)]
struct ListReport {
    root: String,
    depth: u32,
    units: Vec<ListedUnit>,
}

impl Report for ListReport {
    fn text(&self, _colour: bool) -> String {
        self.units
            .iter()
            .map(|u| match &u.claim {
                Some(claim) => format!("{claim} {}\n", u.position),
                None => format!("{}\n", u.position),
            })
            .collect()
    }
}

/// The units `units` (indices, each with the claim its proof must show, if any) of
/// `split`, listed.
fn list_report(
    split: &Split,
    units: impl IntoIterator<Item = (usize, Option<String>)>,
) -> ListReport {
    let units = units
        .into_iter()
        .map(|(i, claim)| {
            let record = split.unit_record(i);
            ListedUnit {
                index: i + 1,
                position: record.to_string(),
                moves: input::cells_text(split.unit_moves(i)),
                to_move: record.position().turn().name(),
                claim,
            }
        })
        .collect();
    ListReport {
        root: split.root.to_string(),
        depth: split.depth,
        units,
    }
}

pub fn list(args: UnitsListArgs) -> Result<()> {
    let split = split_of(&args.split)?;
    report::print(
        &list_report(&split, (0..split.len()).map(|i| (i, None))),
        args.json,
        false,
    );
    Ok(())
}

/// The results files' units joined into one file (each checked; two that disagree on a
/// unit refused), and their split.
fn load_all(files: &[PathBuf]) -> Result<(UnitsFile, Split)> {
    let (first, rest) = files
        .split_first()
        .ok_or_else(|| Failure::input("give the results files"))?;
    let (mut file, split) = units_file::load(first)?;
    for path in rest {
        let shown = path.display().to_string();
        let (other, _) = units_file::load(path)?;
        file.merge(&split, other, &shown).map_err(Failure::input)?;
    }
    Ok((file, split))
}

pub fn proof(args: UnitsProofArgs) -> Result<()> {
    let (file, split) = load_all(&args.files)?;
    let (_, mut units) = split
        .proof_units(0, &file.unit_bounds(&split), &file.unit_nodes(&split))
        .ok_or_else(|| {
            let summary = file.summary(&split);
            Failure::internal(format!(
                "the results do not prove the root's value yet (at least a {}, at most a {} for {}): no proof to list",
                summary.at_least,
                summary.at_most,
                split.root.position().turn().name()
            ))
        })?;
    units.sort_unstable_by_key(|&(i, _)| i);
    // In `kamon prove --claim`'s own words, so the line feeds it as it is.
    let claims = units.into_iter().map(|(i, needed)| {
        let claim = match needed {
            (lo, hi) if lo == hi => ClaimArg::Value,
            (Value::Draw, _) => ClaimArg::AtLeastDraw,
            _ => ClaimArg::AtMostDraw,
        };
        let word = claim.to_possible_value().map(|v| v.get_name().to_owned());
        (i, word)
    });
    report::print(&list_report(&split, claims), args.json, false);
    Ok(())
}

/// The text of a summary, shared by `units solve` and `units merge`.
pub(super) fn summary_text(summary: &Summary, to_move: &str) -> String {
    let mut out = String::new();
    match summary.value {
        Some(value) => out.push_str(&format!(
            "root        {value} for {to_move} ({}): proven by the units' results\n",
            match summary.winner {
                Some("draw") | None => "a draw".to_string(),
                Some(w) => format!("{w} wins"),
            }
        )),
        None => out.push_str(&format!(
            "root        not proven: the results show at least a {} and at most a {} for {to_move}\n",
            summary.at_least, summary.at_most
        )),
    }
    out.push_str(&format!(
        "units       {} of {} solved",
        summary.units_solved, summary.units
    ));
    if summary.units_bounded > 0 {
        out.push_str(&format!(
            ", {} bounded (the one question asked of them answered)",
            summary.units_bounded
        ));
    }
    if summary.units_unsolved > 0 {
        out.push_str(&format!(
            ", {} tried and not solved (out of time, interrupted or abandoned)",
            summary.units_unsolved
        ));
    }
    if summary.value.is_none() {
        out.push_str(&format!(
            "; missing: {} unsolved units could still change the answer",
            summary.units_needed
        ));
        if let Some(next) = summary.next_unit {
            out.push_str(&format!(", the next to solve is unit {next}"));
        }
    }
    out.push('\n');
    out.push_str(&format!(
        "searched    {} nodes, {} s in all (each unit's own seconds, summed)\n",
        thousands(summary.nodes),
        summary.seconds
    ));
    if let Some(proof) = summary.proof_nodes {
        out.push_str(&format!(
            "proof       {} nodes in the units the value rests on ({:.0}% of the nodes searched)\n",
            thousands(proof),
            100.0 * proof as f64 / summary.nodes.max(1) as f64
        ));
    }
    let cells: Vec<String> = summary
        .first_cells
        .iter()
        .map(|c| {
            let what = match c.value {
                Some(v) => v.to_string(),
                None if c.at_least == c.at_most => c.at_least.to_string(),
                None => format!("{}..{}", c.at_least, c.at_most),
            };
            format!("{} {what} ({}/{})", c.cell, c.units_solved, c.units)
        })
        .collect();
    out.push_str(&format!(
        "first cells {}\n            (value for the player placing there, units solved/units)\n",
        cells.join(", ")
    ));
    match (summary.first_cells_needed, summary.first_cells_next_unit) {
        (0, _) => out.push_str("openings    every first cell's value is proven\n"),
        (needed, next) => {
            out.push_str(&format!(
                "openings    {needed} unsolved units could still change a first cell's value (`--every-first-cell` solves them)"
            ));
            if let Some(next) = next {
                out.push_str(&format!(", the next is unit {next}"));
            }
            out.push('\n');
        }
    }
    out
}

#[derive(Serialize)]
struct SolvedUnit {
    index: usize,
    /// The placements from the split's root.
    moves: Vec<String>,
    to_move: &'static str,
    /// The position text.
    position: String,
    /// For the unit's side to move; `null` if only bounded, or if its time limit ran out,
    /// it was interrupted or abandoned.
    value: Option<&'static str>,
    /// What is known of it for its side to move (`(value, value)` when solved).
    at_least: &'static str,
    at_most: &'static str,
    /// This run's nodes (`nodes` counts every run's).
    #[serde(skip)]
    searched_now: u64,
    /// Whether this run's search answered its question (knows more than before).
    #[serde(skip)]
    answered: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    interrupted: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    abandoned: bool,
    nodes: u64,
    seconds: f64,
}

#[derive(Serialize)]
struct SolveReport {
    results: String,
    solved_now: Vec<SolvedUnit>,
    /// Units solved side by side.
    jobs: usize,
    /// The run's wall-clock time (the units' own seconds overlap when `jobs` > 1).
    wall_seconds: f64,
    /// The nodes this run searched (each unit's `nodes` count every run's).
    nodes_now: u64,
    /// Why `--index` solved nothing, if it did not.
    #[serde(skip_serializing_if = "Option::is_none")]
    skipped: Option<String>,
    #[serde(skip)]
    to_move: &'static str,
    summary: Summary,
}

impl Report for SolveReport {
    fn text(&self, _colour: bool) -> String {
        let mut out = String::new();
        for unit in &self.solved_now {
            let what = match (unit.value, unit.answered, unit.interrupted, unit.abandoned) {
                (Some(value), _, _, _) => format!("{value} for {}", unit.to_move),
                (None, true, false, false) => format!(
                    "{} for {} (the question asked answered)",
                    bounds_name((
                        Value::from_name(unit.at_least).unwrap_or(Value::Loss),
                        Value::from_name(unit.at_most).unwrap_or(Value::Win)
                    )),
                    unit.to_move
                ),
                (None, _, true, _) => "interrupted".to_owned(),
                (None, _, _, true) => {
                    "abandoned (a unit beside it made it, or its question, unnecessary)".to_owned()
                }
                (None, _, _, _) => "not solved in time".to_owned(),
            };
            out.push_str(&format!(
                "unit {:<6}{}: {what}, {} nodes, {} s\n",
                unit.index,
                unit.moves.join(" "),
                thousands(unit.nodes),
                unit.seconds
            ));
        }
        if let Some(why) = &self.skipped {
            out.push_str(&format!("{why}\n"));
        }
        if self.jobs > 1 && !self.solved_now.is_empty() {
            let solved = self.solved_now.iter().filter(|u| u.value.is_some()).count();
            out.push_str(&format!(
                "this run    {} units started ({solved} solved), up to {} side by side, {:.1} s of wall time\n",
                self.solved_now.len(),
                self.jobs,
                self.wall_seconds
            ));
        }
        out.push_str(&summary_text(&self.summary, self.to_move));
        out.push_str(&format!("results in  {}\n", self.results));
        out
    }
}

/// The spinner's line: each running unit and its nodes so far.
fn running_status(split: &Split, running: &Running) -> String {
    let units: Vec<String> = running
        .units()
        .into_iter()
        .map(|(i, nodes)| {
            format!(
                "unit {}/{} ({}) {} nodes",
                i + 1,
                split.len(),
                input::cells_text(split.unit_moves(i)).join(" "),
                thousands(nodes)
            )
        })
        .collect();
    if units.is_empty() {
        "units".to_owned()
    } else {
        units.join(", ")
    }
}

pub fn solve(args: UnitsSolveArgs) -> Result<()> {
    let split = split_of(&args.split)?;
    let goal = if args.every_first_cell {
        Goal::EveryFirstCell
    } else {
        Goal::Root
    };
    // The first interrupt stops the units in progress; they are saved as interrupted
    // (their nodes and time so far) and the run ends; a rerun solves them again.
    crate::shutdown::stop_gracefully();
    let search = args.search.for_units();
    let run = run_split(
        &split,
        &SplitJob {
            results: Some(&args.results),
            known: &args.known,
            index: args.index,
            goal,
            jobs: args.jobs,
            max_units: args.max_units,
            time_limit: args.time_limit,
            deadline: None,
            checkpoints: args.checkpoints.as_deref(),
            checkpoint_every: args.checkpoint_every,
            search: &search,
            quiet: args.output.quiet || args.output.json,
        },
    )?;
    let report = SolveReport {
        results: args.results.display().to_string(),
        solved_now: run.solved_now,
        jobs: args.jobs,
        wall_seconds: run.wall_seconds,
        nodes_now: run.nodes_now,
        skipped: run.skipped,
        to_move: split.root.position().turn().name(),
        summary: run.summary,
    };
    report::print(&report, args.output.json, false);
    crate::shutdown::exit_if_stopped();
    Ok(())
}

/// How to solve a split: what `units solve` and `kamon solve` (a position too early for
/// one search) share.
pub(super) struct SplitJob<'a> {
    /// The results file, read first and written after every unit; `None`: kept in memory.
    pub results: Option<&'a Path>,
    /// Other results files of the split, read only.
    pub known: &'a [PathBuf],
    /// Only this unit (1-based).
    pub index: Option<usize>,
    pub goal: Goal,
    pub jobs: usize,
    pub max_units: Option<usize>,
    /// Seconds for each unit.
    pub time_limit: Option<f64>,
    /// When the whole run stops, as an interrupt stops it.
    pub deadline: Option<Instant>,
    pub checkpoints: Option<&'a Path>,
    pub checkpoint_every: f64,
    pub search: &'a SearchArgs,
    pub quiet: bool,
}

/// What a split's run did and what all the results known prove.
pub(super) struct SplitRun {
    solved_now: Vec<SolvedUnit>,
    wall_seconds: f64,
    skipped: Option<String>,
    pub summary: Summary,
    /// The nodes this run searched (a unit's record counts every run's; a unit resumed
    /// from a saved table that no record counts, the table's too).
    pub nodes_now: u64,
    /// Whether an interrupt or the deadline stopped it.
    pub stopped: bool,
}

/// Solves the units `job` asks for (see [`SplitJob`]), each result recorded as it comes.
pub(super) fn run_split(split: &Split, job: &SplitJob) -> Result<SplitRun> {
    let goal = job.goal;
    let mut file = match job.results {
        Some(path) => units_file::load_or_new(path, split)?,
        None => UnitsFile::new(split),
    };
    // What is known: this file's results and those of the files beside it (the other
    // parts of a job array), to pass over the units that are no longer needed.
    let mut known = file.clone();
    for path in job.known {
        let shown = path.display().to_string();
        let (other, _) = units_file::load(path)?;
        known.merge(split, other, &shown).map_err(Failure::input)?;
    }
    let shown = job
        .results
        .map_or("the results".to_owned(), |p| p.display().to_string());
    let checkpoints = match job.checkpoints {
        Some(dir) => {
            std::fs::create_dir_all(dir).map_err(|e| {
                Failure::input(format!(
                    "--checkpoints {}: cannot create it: {e}",
                    dir.display()
                ))
            })?;
            Some(units_run::Checkpoints {
                dir: dir.to_path_buf(),
                every: Duration::from_secs_f64(job.checkpoint_every),
            })
        }
        None => None,
    };
    let options = input::solver_options(job.search, true);
    let running = Running::default();
    let started = Instant::now();
    let known_before = known.clone();
    let mut solved_now = Vec::new();
    let mut skipped = None;
    let mut finished = |i: usize, result: UnitResult| -> Result<()> {
        // What the unit's record said before: the result's nodes count every run's.
        let (before_nodes, before_bounds) = known
            .units
            .iter()
            .find(|r| r.moves == result.moves)
            .map_or((0, units_file::UNKNOWN), |r| (r.nodes, r.bounds()));
        solved_now.push(SolvedUnit {
            searched_now: result.nodes.saturating_sub(before_nodes),
            answered: result.bounds() != before_bounds,
            index: i + 1,
            moves: result.moves.clone(),
            to_move: split.unit_position(i).turn().name(),
            position: split.unit_record(i).to_string(),
            value: result.value().map(|v| v.name()),
            at_least: result.bounds().0.name(),
            at_most: result.bounds().1.name(),
            interrupted: result.interrupted,
            abandoned: result.abandoned,
            nodes: result.nodes,
            seconds: result.seconds,
        });
        known
            .add(split, result.clone(), &shown)
            .map_err(Failure::input)?;
        file.add(split, result.clone(), &shown)
            .map_err(Failure::input)?;
        if let Some(path) = job.results {
            units_file::save(&mut file, split, path)?;
        }
        if let Some(checkpoints) = &checkpoints {
            checkpoints
                .tidy(split, &known, goal)
                .map_err(Failure::input)?;
        }
        Ok(())
    };
    let solve = |i: usize, ask: Ask, spent: Spent, cancel: &Cancel| {
        units_run::solve_unit(
            split,
            i,
            ask,
            checkpoints.is_some(),
            spent,
            options,
            job.time_limit,
            cancel,
            &running,
            checkpoints.as_ref(),
        )
        .map_err(|e| match e {
            units_run::UnitError::Solve(e) => crate::input::solve_error(job.search, e),
            e => Failure::input(e),
        })
    };
    // An interrupt (or the deadline) raises `stop`, which stops every unit in progress
    // (recorded as such) rather than the process.
    let stop = Cancel::new();
    let (done, wait_for_done) = std::sync::mpsc::channel::<()>();
    let outcome = std::thread::scope(|scope| {
        let stop = &stop;
        scope.spawn(move || {
            while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
                wait_for_done.recv_timeout(Duration::from_millis(200))
            {
                let late = job.deadline.is_some_and(|d| Instant::now() >= d);
                if crate::shutdown::stop_asked() || late {
                    stop.cancel();
                    break;
                }
            }
        });
        let status = || running_status(split, &running);
        let outcome = crate::output::with_status(job.quiet, "units", status, || {
            if let Some(index) = job.index {
                if index == 0 || index > split.len() {
                    return Err(Failure::input(format!(
                        "--index {index}: the split has units 1 to {}",
                        split.len()
                    )));
                }
                let i = index - 1;
                let mut units = known_before.unit_bounds(split);
                if units[i].0 == units[i].1 {
                    skipped = Some(format!("unit {index} is solved already"));
                } else if split.needed(i, &units, goal) {
                    // A task of an array answers every question the parts known to it
                    // leave open, not only the first: no later pass of the array asks
                    // again.
                    let mut spent = known_before
                        .units
                        .iter()
                        .find(|r| r.check(split) == Ok(i))
                        .map_or(Spent::default(), Spent::of);
                    while let Some(ask) = split.ask(i, &units, goal) {
                        let result = solve(i, ask, spent, stop)?;
                        let result = units_run::why_stopped(result, ask.known, stop, None);
                        let answered = result.bounds();
                        spent = Spent::of(&result);
                        finished(i, result)?;
                        if answered == ask.known {
                            break;
                        }
                        units[i] = answered;
                    }
                } else {
                    skipped = Some(format!(
                        "unit {index} is not needed: the results so far settle every question it could answer"
                    ));
                }
                Ok(())
            } else {
                let run = UnitsRun {
                    goal,
                    jobs: job.jobs,
                    max_units: job.max_units,
                    one_question: checkpoints.is_some(),
                };
                run.run(split, &known_before, stop, solve, &mut finished)
            }
        });
        drop(done);
        outcome
    });
    outcome?;
    if let Some(path) = job.results {
        if solved_now.is_empty() && !path.exists() {
            // Nothing solved: the file still says which split it is for.
            units_file::save(&mut file, split, path)?;
        }
    }
    Ok(SplitRun {
        nodes_now: solved_now.iter().map(|u| u.searched_now).sum(),
        solved_now,
        wall_seconds: (started.elapsed().as_secs_f64() * 10.0).round() / 10.0,
        skipped,
        summary: known.summary(split),
        stopped: stop.is_cancelled(),
    })
}

#[derive(Serialize)]
struct MergeReport {
    root: String,
    depth: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    out: Option<String>,
    #[serde(skip)]
    to_move: &'static str,
    summary: Summary,
}

impl Report for MergeReport {
    fn text(&self, _colour: bool) -> String {
        let mut out = summary_text(&self.summary, self.to_move);
        if let Some(path) = &self.out {
            out.push_str(&format!("written to  {path}\n"));
        }
        out
    }
}

pub fn merge(args: UnitsMergeArgs) -> Result<()> {
    let (mut file, split) = load_all(&args.files)?;
    if let Some(out) = &args.out {
        units_file::save(&mut file, &split, out)?;
    }
    let report = MergeReport {
        root: split.root.to_string(),
        depth: split.depth,
        out: args.out.as_ref().map(|p| p.display().to_string()),
        to_move: split.root.position().turn().name(),
        summary: file.summary(&split),
    };
    report::print(&report, args.output.json, false);
    Ok(())
}
