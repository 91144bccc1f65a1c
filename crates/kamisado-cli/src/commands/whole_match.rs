//! `kamisado whole-match`: who wins a whole match (rounds, refill choices, the target), not
//! a round. Its own subcommand, so that the single-round commands stay as they are.
//!
//! - `solve`: one match position, by the match search with the round solver behind it
//!   (`kamisado-match-solver`); `--db` keeps the proofs of round boundaries in a proof file
//!   that an interrupted or time-limited run resumes from.
//! - `query`: every move of a match position with its match value, each searched with
//!   the time limit; `openings`: the same for the first moves of a match.
//! - `survey`: the fixed list of positions whose results ship in
//!   `data/match-standard.json`, each solved with a time limit; entries already in the
//!   output are kept, so running it again resumes.
//!
//! Values are for the side to move of the position given (at a finished round that does
//! not end the match, the round's winner, who chooses the refill).
//!
//! An interrupt (Ctrl-C) stops a search the way its time limit would: what was proved is
//! saved to `--db` and the report says where the run got to; a second interrupt quits at
//! once.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Subcommand};
use kamisado_match::{MatchPosition, MatchRecord, MatchRound, Refill, Side, Target, WholeMatch};
use kamisado_match_solver::{
    Estimate, EstimateOptions, MatchOptions, MatchSolveError, MatchSolver, Measured, MoveSearch,
    Progress, Run, Share, ShareOutcome, Speculation,
};
use kamisado_solver::{Cancel, Game, Options, SolveError, Solver, Value};
use serde::{Deserialize, Serialize};

use crate::args::{parse_seconds, parse_shard, OutputArgs};
use crate::failure::{Failure, Result};
use crate::output::{peak_memory_bytes, progress, spinner, thousands};
use crate::report::{self, Report};

#[derive(Args, Debug)]
pub struct WholeMatchArgs {
    #[command(subcommand)]
    pub command: WholeMatchCommand,
}

#[derive(Subcommand, Debug)]
pub enum WholeMatchCommand {
    /// Who wins the whole match from a position (rounds, refill choices, the target)
    #[command(
        after_help = "Examples:\n  kamisado whole-match solve --position \"obupyrgn/8/8/8/8/8/8/N+GRYPUBO w - 3\" --time-limit 60 --db proofs.kmp\n  kamisado whole-match solve --target 3 --moves \"h1-h5 e8-e3\" --json\n  kamisado whole-match solve --position \"uobygnrp+/8/8/8/8/8/8/N+GRPBYOU+ w - 3\" --speculate --count-only --json"
    )]
    Solve(SolveArgs),
    /// Every move of a match position with its match value (--time-limit: each move's)
    #[command(
        after_help = "Examples:\n  kamisado whole-match query --target 3 --moves \"h1-h5 e8-e3\" --time-limit 10\n  kamisado whole-match query --position \"obupyrgn/8/8/8/8/8/8/N+GRYPUBO w - 3\" --time-limit 30 --db proofs.kmp --json"
    )]
    Query(SolveArgs),
    /// The first moves of a match (Standard: --target 3) with their match values (--time-limit: each move's)
    #[command(
        after_help = "Example:\n  kamisado whole-match openings --target 3 --time-limit 60 --db proofs.kmp --json > match-openings.json"
    )]
    Openings(OpeningsArgs),
    /// Solve the shipped list of match positions and write them as JSON (resumable)
    #[command(
        after_help = "Example:\n  kamisado whole-match survey --out data/match-standard.json --time-limit 60 --threads 1"
    )]
    Survey(SurveyArgs),
    /// List independent units of a match proof, one position a line, to solve in separate processes
    #[command(
        after_help = "A unit is one round start of the shipped list (data/match-standard.json, or --survey FILE), optionally only those of one score (a tier of the match) and only those not proven yet. Each unit is solved alone into a proof file of its own, and `whole-match merge` joins the proof files; a later run resumes from the merged file with --db. cluster/slurm/whole-match.sh runs the units as a Slurm job array.\n\nExample:\n  kamisado whole-match units --score 2-1 --unproven > units.txt\n  mkdir -p parts\n  kamisado whole-match solve --position \"$(sed -n 3p units.txt)\" --time-limit 600 --db parts/unit-3.kmp\n  kamisado whole-match merge parts/unit-*.kmp --out proofs.kmp"
    )]
    Units(UnitsArgs),
    /// What proving a position by speculation in tiers would cost, estimated from samples of its tiers
    #[command(
        after_help = "At the position and then at each round start sampled, the search and walk of a speculative proof run (as --count-only does) and list the next tier's round starts the proof rests on; --samples of them are measured the same way (a clinch question first, as a verification asks), down to round starts a clinch question settles. Each tier's cost is the count times the sample's mean (Knuth's estimator), so the estimate comes from finished counts only. Wrong guesses and facts shared between proofs are left out (README: \"Estimating what a proof costs\").\n\nExample:\n  kamisado whole-match estimate --position \"uobrgpny/8/8/8/8/8/8/BUNYPROG+ w - 3\" --assumed-price 0,16 --samples 4 --time-limit 120 --json"
    )]
    Estimate(EstimateArgs),
    /// Join proof files (of units solved apart) into one
    #[command(
        after_help = "Facts about one position from several files must agree: a win in one file and a loss in another is an error naming the position, and nothing is written. A damaged or foreign file is refused in one line.\n\nExample:\n  kamisado whole-match merge parts/unit-*.kmp --out proofs.kmp"
    )]
    Merge(MergeArgs),
}

#[derive(Args, Debug)]
pub struct UnitsArgs {
    /// The list of match positions, as `whole-match survey` writes it
    #[arg(long, value_name = "FILE", default_value = "data/match-standard.json")]
    pub survey: PathBuf,
    /// Only round starts with this score, Black's first, like 2-1
    #[arg(long, value_name = "B-W", value_parser = parse_score)]
    pub score: Option<(u32, u32)>,
    /// Only positions the list does not give as proven
    #[arg(long)]
    pub unproven: bool,
    /// Print one JSON object instead of text
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct EstimateArgs {
    #[command(flatten)]
    pub at: MatchPositionArgs,
    /// Round starts measured of those each proof rests on (at least 2)
    #[arg(long, default_value_t = 4, value_parser = crate::args::whole::<usize>(2, 1 << 16))]
    pub samples: usize,
    /// Seed of the samples (the same seed, the same estimate)
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Size of each search's table in MiB (the round solver's is a quarter of it)
    #[arg(long, default_value_t = 1024, value_parser = crate::args::whole::<usize>(1, 1 << 20))]
    pub hash_mb: usize,
    /// Give up when one count takes longer than this many seconds
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = parse_seconds)]
    pub time_limit: Option<f64>,
    /// The proof number an assumed round start costs each search [default: 16; 0: free]; a list like `0,16` runs one search a price and counts the proof that rests on the fewest (as `solve --speculate --assumed-price` does)
    #[arg(long, value_name = "N[,N...]", value_delimiter = ',', value_parser = crate::args::whole::<u32>(0, 1 << 20))]
    pub assumed_price: Vec<u32>,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// Proof files to join
    #[arg(value_name = "FILES", required = true)]
    pub files: Vec<PathBuf>,
    /// Where to write the joined proof file
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// A score `b-w`.
fn parse_score(text: &str) -> std::result::Result<(u32, u32), String> {
    let bad = || {
        format!("`{text}` is not a score: expected Black's points, a dash and White's, like 2-1")
    };
    let (b, w) = text.split_once('-').ok_or_else(bad)?;
    Ok((
        b.trim().parse().map_err(|_| bad())?,
        w.trim().parse().map_err(|_| bad())?,
    ))
}

#[derive(Args, Debug)]
pub struct MachineArgs {
    /// Threads of the match search
    #[arg(long, default_value_t = 1, value_parser = crate::args::whole::<usize>(1, 256))]
    pub threads: usize,
    /// Size of the match search's table in MiB (the round solver's is a quarter of it)
    #[arg(long, default_value_t = 1024, value_parser = crate::args::whole::<usize>(1, 1 << 20))]
    pub hash_mb: usize,
    /// Proof file of round boundaries: read first, written at checkpoints and at the end
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
    /// Give up after this many seconds (what was proved is saved to --db)
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = parse_seconds)]
    pub time_limit: Option<f64>,
    /// Assume every round start after this round is won as predicted (by the side with more points; with equal points, the side to move), then verify only those the proof rests on, one the round solver does not settle by a proof of its own (README: "Speculate, then verify")
    #[arg(long)]
    pub speculate: bool,
    /// With --speculate, the proof number an assumed round start costs the search [default: 16; 0: free, every one met assumed at once]; a price makes proofs that rest on fewer assumptions. A list like `0,16` runs one search a price and verifies the proof that rests on the fewest (README: "Speculate, then verify")
    #[arg(long, alias = "final-price", value_name = "N[,N...]", requires = "speculate", value_delimiter = ',', value_parser = crate::args::whole::<u32>(0, 1 << 20))]
    pub assumed_price: Vec<u32>,
}

/// The match position a subcommand works on.
#[derive(Args, Debug)]
pub struct MatchPositionArgs {
    /// Match position text: `<board> <side> <active> <target>`
    #[arg(long, value_name = "TEXT")]
    pub position: Option<String>,
    /// A match record played from --position (or from the start of a match to --target)
    #[arg(long, value_name = "RECORD")]
    pub moves: Option<String>,
    /// Match target when no --position is given: 1, 3, 7 or 15
    #[arg(long, default_value = "3")]
    pub target: Target,
}

/// `solve` and `query`: a match position searched with the machine's limits.
#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    pub at: MatchPositionArgs,
    // `query` searches each move with --time-limit; proofs are shared through --db.
    #[command(flatten)]
    pub machine: MachineArgs,
    /// With --speculate, verify only share i of n of the assumed round starts the proof rests on, into --db; merge the shares' files and run --speculate on the result (README: "Running on a cluster")
    #[arg(long, value_name = "i/n", value_parser = parse_shard, requires_all = ["speculate", "db"])]
    pub share: Option<(u64, u64)>,
    /// With --speculate, stop after the search and the walk of its proof, verifying nothing: the value as speculated and how many assumed round starts the proof rests on (what a verification would cost)
    #[arg(long, requires = "speculate", conflicts_with = "share")]
    pub count_only: bool,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Args, Debug)]
pub struct OpeningsArgs {
    /// Match target: 3 (Standard), 7 (Long), 15 (Marathon); 1 is a single round
    #[arg(long, default_value = "3")]
    pub target: Target,
    // Searches each first move with --time-limit; proofs shared through --db.
    #[command(flatten)]
    pub machine: MachineArgs,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Args, Debug)]
pub struct SurveyArgs {
    /// The JSON file of results (entries already in it are kept: a second run resumes)
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    #[command(flatten)]
    pub machine: MachineArgs,
    /// Only the first N positions of the list
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// --quiet: no log of the entries on standard error; --json: the summary as JSON
    #[command(flatten)]
    pub output: OutputArgs,
}

/// One solved (or given-up) match position.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct Entry {
    /// What the position is, in words.
    pub kind: String,
    pub position: String,
    /// How it was reached from the start of a Standard match, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub record: Option<String>,
    pub to_move: String,
    /// `win` or `loss` for the side to move; absent if not proven.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// `black` or `white`; absent if not proven.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<String>,
    /// Remoteness is not computed by the match search (values only).
    pub remoteness: Option<u32>,
    pub proven: bool,
    pub nodes: u64,
    pub round_nodes: u64,
    pub rounds_asked: u64,
    pub rounds_settled: u64,
    /// Distinct round ends met that do not end the match (each a refill choice leading
    /// to two round starts); absent in entries measured before it was counted (absent
    /// is "not counted", never zero).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round_ends: Option<u64>,
    pub seconds: f64,
    /// Root proof and disproof numbers when the run stopped (for unproven entries).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub root_numbers: Option<(u32, u32)>,
    /// The run was interrupted (not stopped by its time limit).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub interrupted: bool,
    pub peak_memory_bytes: Option<u64>,
    /// With --speculate: what speculation and verification did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speculation: Option<Speculation>,
    /// With --share: the share of the verification this run finished (`i/n`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub share: Option<String>,
    /// With --count-only: the value the speculating search found, `win` or `loss` for the
    /// side to move (not verified, so not proven).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speculated_value: Option<String>,
}

impl Report for Entry {
    fn text(&self, _colour: bool) -> String {
        let mut out = format!("position    {}\n", self.position);
        match (&self.value, &self.winner) {
            (Some(v), Some(w)) => out.push_str(&format!(
                "value       {v} for {} ({w} wins the match)\n",
                self.to_move
            )),
            _ if self.speculated_value.is_some() => out.push_str(&format!(
                "value       not verified (--count-only): {} for {} as speculated\n",
                self.speculated_value.as_deref().unwrap_or_default(),
                self.to_move
            )),
            _ if self.share.is_some() => out.push_str(&format!(
                "value       not proven yet: share {} of the assumptions verified; merge the shares' proof files and run --speculate on the result\n",
                self.share.as_deref().unwrap_or_default()
            )),
            _ => out.push_str(&format!(
                "value       not proven: {} (root numbers {:?})\n",
                if self.interrupted {
                    "interrupted"
                } else {
                    "out of time"
                },
                self.root_numbers.unwrap_or((1, 1))
            )),
        }
        out.push_str(&format!(
            "searched    {} match nodes, {} round-solver nodes, {} round ends met, {} round starts asked ({} settled), {:.1} s, peak memory {} MiB\n",
            thousands(self.nodes),
            thousands(self.round_nodes),
            self.round_ends
                .map_or_else(|| "uncounted".to_owned(), thousands),
            self.rounds_asked,
            self.rounds_settled,
            self.seconds,
            self.peak_memory_bytes.unwrap_or(0) >> 20
        ));
        if let Some(s) = &self.speculation {
            out.push_str(&format!(
                "speculated  {} search(es), {} round starts assumed ({} by the walks' {} re-searches), {} verified ({} by proofs of their own, {} not as predicted); the proof rests on {} of them and has {} positions\n",
                s.searches, s.assumed, s.walk_assumed, s.walk_searches, s.verified, s.proved_apart, s.wrong, s.relied_on, s.proof_positions
            ));
        }
        out
    }
}

/// The shipped file.
#[derive(Serialize, Deserialize, Default)]
pub struct Survey {
    pub about: String,
    pub entries: Vec<Entry>,
}

pub fn run(args: WholeMatchArgs) -> Result<()> {
    let result = match args.command {
        WholeMatchCommand::Solve(a) => solve(a),
        WholeMatchCommand::Query(a) => query(a),
        WholeMatchCommand::Openings(a) => openings(a),
        WholeMatchCommand::Survey(a) => survey(a),
        WholeMatchCommand::Units(a) => units(a),
        WholeMatchCommand::Estimate(a) => estimate(a),
        WholeMatchCommand::Merge(a) => merge(a),
    };
    // An interrupted run ends as the signal says, whatever it had proved.
    crate::shutdown::exit_if_stopped();
    result
}

/// Exit code 1 for an answer the time limit left unproven, as for every command that
/// searches (the README's "Exit codes"): what was reached is printed first.
fn not_proven(what: &str, time_limit: Option<f64>) -> Failure {
    Failure::internal(match time_limit {
        Some(t) => {
            format!("{what} not proven within the time limit of {t} s; try a larger --time-limit")
        }
        None => format!("{what} not proven"),
    })
}

fn solver(machine: &MachineArgs) -> Result<MatchSolver> {
    if let Some(db) = &machine.db {
        // Written at checkpoints and at the end: a path that cannot be is refused now.
        crate::output::check_output(db, crate::output::OutputKind::Database)?;
    }
    let mut solver = MatchSolver::new(
        match_options(machine.threads, machine.hash_mb),
        machine.db.as_deref(),
    )
    .map_err(|e| match e {
        MatchSolveError::ProofFile(e) => Failure::input(e),
        e => Failure::internal(e),
    })?;
    solver.set_assumed_prices(&prices(&machine.assumed_price));
    // Every subcommand searches and keeps its proofs: from now on an interrupt stops the
    // search, which saves. Not before: a run still reading its inputs has nothing to
    // save, and one waiting on them would never see the flag; it ends at once.
    crate::shutdown::stop_gracefully();
    Ok(solver)
}

/// `--assumed-price`'s list as the solver takes it (0: free); empty, the default.
fn prices(given: &[u32]) -> Vec<Option<u32>> {
    given
        .iter()
        .map(|&price| (price > 0).then_some(price))
        .collect()
}

/// The tables of a match search of `hash_mb` MiB (the round solver's a quarter of it).
fn match_options(threads: usize, hash_mb: usize) -> MatchOptions {
    let bytes = hash_mb << 20;
    MatchOptions {
        threads,
        table_bytes: bytes,
        round_table_bytes: (bytes / 4).max(1 << 20),
        ask_rounds: true,
    }
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::Black => "black",
        Side::White => "white",
    }
}

/// How a match value is searched.
#[derive(Clone, Copy)]
enum Method {
    /// Every round start met asked of the round solver.
    Search,
    /// Speculate, then verify (`--speculate`).
    Speculate,
    /// One share of a speculative proof's verification (`--share`).
    Share(Share),
    /// Speculation's search and walk only (`--count-only`).
    Count,
}

impl Method {
    fn new(speculate: bool) -> Method {
        match speculate {
            true => Method::Speculate,
            false => Method::Search,
        }
    }
}

/// Solves `pos` as an entry: proven, or what the run reached by the time limit.
fn entry(
    solver: &mut MatchSolver,
    method: Method,
    kind: &str,
    pos: &MatchPosition,
    record: Option<String>,
    time_limit: Option<f64>,
    show: &(dyn Fn(&str) + Sync),
) -> Result<Entry> {
    let pos = WholeMatch::root(pos);
    let to_move = WholeMatch::side_to_move(&pos);
    let last = std::sync::Mutex::new(None::<Progress>);
    let progress = |p: &Progress| {
        show(&progress_line(p));
        *last.lock().unwrap_or_else(|e| e.into_inner()) = Some(*p);
    };
    let run = Run {
        time_limit: time_limit.map(Duration::from_secs_f64),
        report_every: Duration::from_secs(2),
        checkpoint_every: Duration::from_secs(300),
        progress: &progress,
        stop_asked: &crate::shutdown::stop_asked,
    };
    let started = std::time::Instant::now();
    let base_nodes = solver.solver().nodes();
    // The work done, and whether its value is proven.
    let result = match method {
        Method::Search => solver.value(&pos, &run).map(|p| (p, true)),
        Method::Speculate => solver
            .value_by_speculation(&pos, &run)
            .map(|p| (p.proof, true)),
        Method::Count => solver
            .count_by_speculation(&pos, &run)
            .map(|count| (count.proof.proof, false)),
        Method::Share(share) => {
            solver
                .verify_share_by_speculation(&pos, &run, share)
                .map(|outcome| match outcome {
                    ShareOutcome::Proven(p) => (p.proof, true),
                    ShareOutcome::Verified(p) => (p.proof, false),
                })
        }
    };
    let mut entry = Entry {
        kind: kind.to_owned(),
        position: pos.to_string(),
        record,
        to_move: side_name(to_move).to_owned(),
        value: None,
        winner: None,
        remoteness: None,
        proven: false,
        nodes: 0,
        round_nodes: 0,
        rounds_asked: 0,
        rounds_settled: 0,
        round_ends: None,
        seconds: 0.0,
        root_numbers: None,
        interrupted: false,
        peak_memory_bytes: peak_memory_bytes(),
        speculation: None,
        share: None,
        speculated_value: None,
    };
    if !matches!(method, Method::Search) {
        entry.speculation = solver.last_speculation();
    }
    match result {
        Ok((proof, proven)) => {
            entry.nodes = proof.nodes;
            entry.round_nodes = proof.round_nodes;
            entry.rounds_asked = proof.rounds_asked;
            entry.rounds_settled = proof.rounds_settled;
            entry.round_ends = Some(proof.round_ends);
            entry.seconds = proof.seconds;
            match method {
                Method::Share(share) => entry.share = Some(share.to_string()),
                Method::Count => entry.speculated_value = Some(proof.value.name().to_owned()),
                Method::Search | Method::Speculate => {}
            }
            if !proven {
                return Ok(entry);
            }
            entry.value = Some(proof.value.name().to_owned());
            entry.winner = Some(
                side_name(if proof.value == Value::Win {
                    to_move
                } else {
                    !to_move
                })
                .to_owned(),
            );
            entry.proven = true;
        }
        Err(MatchSolveError::Solve(SolveError::Stopped)) => {
            let p = last.lock().unwrap_or_else(|e| e.into_inner()).take();
            // A speculating run searches with solvers of its own, made afresh for each
            // search: the one left is its last search's, whose count starts at zero (a
            // stopped run's earlier searches, if any, are not in it).
            entry.nodes = match method {
                Method::Search => solver.solver().nodes() - base_nodes,
                _ => solver.solver().nodes(),
            };
            entry.seconds = started.elapsed().as_secs_f64();
            entry.interrupted = crate::shutdown::stop_asked();
            if let Some(p) = p {
                entry.round_nodes = p.round_nodes;
                entry.rounds_asked = p.rounds_asked;
                entry.rounds_settled = p.rounds_settled;
                entry.round_ends = Some(p.round_ends);
                entry.root_numbers = Some(p.root);
            }
        }
        Err(MatchSolveError::ProofFile(e)) => return Err(Failure::input(e)),
        Err(e) => return Err(Failure::internal(e)),
    }
    Ok(entry)
}

/// One line of a run's progress: where the proof stands at the root, and what it cost.
fn progress_line(p: &Progress) -> String {
    if let Some((done, all)) = p.verifying {
        return format!(
            "verifying the round starts the proof assumed: {done}/{all}, {} round nodes",
            thousands(p.round_nodes)
        );
    }
    format!(
        "root pn/dn {}/{}, {} match nodes, {} round nodes, rounds {}/{} settled",
        p.root.0,
        p.root.1,
        thousands(p.nodes),
        thousands(p.round_nodes),
        p.rounds_settled,
        p.rounds_asked
    )
}

impl MatchPositionArgs {
    /// The match position `--position` and `--moves` name (by default the start of a
    /// match to `--target`), refused if the match is over.
    fn read(&self) -> Result<MatchPosition> {
        let start = match &self.position {
            Some(text) => text
                .parse::<MatchPosition>()
                .map_err(|e| Failure::input(format!("--position: {e}")))?,
            None => MatchPosition::start(self.target),
        };
        let pos = match &self.moves {
            Some(moves) => MatchRecord::parse(start, moves)
                .map_err(|e| Failure::input(format!("--moves: {e}")))?
                .current(),
            None => start,
        };
        if pos.is_match_over() {
            return Err(Failure::input(format!(
                "the match is over at {pos}: nothing to solve"
            )));
        }
        Ok(pos)
    }
}

fn solve(args: SolveArgs) -> Result<()> {
    let pos = args.at.read()?;
    let mut solver = solver(&args.machine)?;
    let bar = spinner(args.output.quiet || args.output.json, "whole-match search");
    let method = match args.share {
        Some((i, n)) => Method::Share(
            u32::try_from(n)
                .ok()
                .and_then(|n| Share::new(i as u32, n))
                .ok_or_else(|| Failure::input(format!("--share {i}/{n}: too many shares")))?,
        ),
        None if args.count_only => Method::Count,
        None => Method::new(args.machine.speculate),
    };
    let entry = entry(
        &mut solver,
        method,
        "given",
        &pos,
        args.at.moves.clone(),
        args.machine.time_limit,
        &|line| bar.set_message(format!("whole-match search: {line}")),
    )?;
    bar.finish_and_clear();
    report::print(&entry, args.output.json, false);
    // A share whose assumptions are all verified did what it was asked, as did a count.
    if !entry.proven && entry.share.is_none() && entry.speculated_value.is_none() {
        return Err(not_proven("the match value is", args.machine.time_limit));
    }
    Ok(())
}

/// One move of a match position with its match value for the player making it.
#[derive(Serialize)]
struct MoveValue {
    #[serde(rename = "move")]
    mv: String,
    /// `win` or `loss` for the player making the move; absent if not proven.
    #[serde(skip_serializing_if = "Option::is_none")]
    value: Option<&'static str>,
    /// `black` or `white`; absent if not proven.
    #[serde(skip_serializing_if = "Option::is_none")]
    winner: Option<&'static str>,
    proven: bool,
    nodes: u64,
    round_nodes: u64,
    seconds: f64,
}

/// `whole-match query` and `whole-match openings`: every move with its match value.
#[derive(Serialize)]
struct MovesReport {
    position: String,
    to_move: &'static str,
    /// The position's match value for the side to move, where the moves settle it (a
    /// winning move, or every move proven lost).
    #[serde(skip_serializing_if = "Option::is_none")]
    value: Option<&'static str>,
    moves: Vec<MoveValue>,
    /// The moves proven to win the match.
    winning: Vec<String>,
    proven: usize,
    /// Seconds each move's search was given (none: no limit).
    time_limit: Option<f64>,
    seconds: f64,
    interrupted: bool,
}

impl Report for MovesReport {
    fn text(&self, _colour: bool) -> String {
        let mut out = format!(
            "position    {}\nvalue       {}\n",
            self.position,
            match self.value {
                Some(v) => format!("{v} for {} (whole match)", self.to_move),
                None => "not proven".to_owned(),
            }
        );
        out.push_str(&format!(
            "moves       {} of {} proven{}, {:.1} s{}\n",
            self.proven,
            self.moves.len(),
            self.time_limit
                .map_or(String::new(), |t| format!(" within {t} s each")),
            self.seconds,
            if self.interrupted {
                ", interrupted"
            } else {
                ""
            }
        ));
        for m in &self.moves {
            out.push_str(&format!(
                "  {:<8} {}\n",
                m.mv,
                match (m.value, m.winner) {
                    (Some(v), Some(w)) => format!(
                        "{v:<5} ({w} wins the match; {} match nodes, {:.1} s)",
                        thousands(m.nodes),
                        m.seconds
                    ),
                    _ => format!(
                        "not proven ({} match nodes, {:.1} s)",
                        thousands(m.nodes),
                        m.seconds
                    ),
                }
            ));
        }
        out
    }
}

/// Every move of `pos` searched with the time limit, under a progress bar.
fn moves_report(pos: &MatchPosition, machine: &MachineArgs, output: &OutputArgs) -> Result<()> {
    let solver = solver(machine)?;
    let pos = WholeMatch::root(pos);
    let to_move = WholeMatch::side_to_move(&pos);
    let count = if pos.is_round_over() {
        Refill::ALL.len()
    } else {
        pos.legal_moves().len()
    } as u64;
    let bar = progress(
        count,
        output.quiet || output.json,
        "whole-match: searching each move",
    );
    let run = Run {
        time_limit: machine.time_limit.map(Duration::from_secs_f64),
        report_every: Duration::from_secs(2),
        checkpoint_every: Duration::from_secs(300),
        progress: &|p: &Progress| bar.set_message(progress_line(p)),
        stop_asked: &crate::shutdown::stop_asked,
    };
    let started = std::time::Instant::now();
    let values = solver
        .move_searches(&pos, &run, &mut |done| bar.set_position(done as u64))
        .map_err(|e| match e {
            MatchSolveError::ProofFile(e) => Failure::input(e),
            e => Failure::internal(e),
        })?;
    bar.finish_and_clear();
    let moves: Vec<MoveValue> = values
        .iter()
        .map(|&MoveSearch { mv: m, proof, work }| MoveValue {
            mv: m.to_string(),
            value: proof.map(|p| p.value.name()),
            winner: proof.map(|p| {
                side_name(if p.value == Value::Win {
                    to_move
                } else {
                    !to_move
                })
            }),
            proven: proof.is_some(),
            // The work done, proven or not (a win in one took none).
            nodes: proof.map_or(work.nodes, |p| p.nodes),
            round_nodes: proof.map_or(work.round_nodes, |p| p.round_nodes),
            seconds: proof.map_or(work.seconds, |p| p.seconds),
        })
        .collect();
    let winning: Vec<String> = moves
        .iter()
        .filter(|m| m.value == Some("win"))
        .map(|m| m.mv.clone())
        .collect();
    let proven = moves.iter().filter(|m| m.proven).count();
    let value = if !winning.is_empty() {
        Some("win")
    } else if proven == moves.len() && !moves.is_empty() {
        Some("loss")
    } else {
        None
    };
    let report = MovesReport {
        position: pos.to_string(),
        to_move: side_name(to_move),
        value,
        moves,
        winning,
        proven,
        time_limit: machine.time_limit,
        seconds: started.elapsed().as_secs_f64(),
        interrupted: crate::shutdown::stop_asked(),
    };
    report::print(&report, output.json, false);
    if report.proven < report.moves.len() {
        return Err(not_proven(
            &format!(
                "{} of {} moves are",
                report.moves.len() - report.proven,
                report.moves.len()
            ),
            machine.time_limit,
        ));
    }
    Ok(())
}

fn query(args: SolveArgs) -> Result<()> {
    let pos = args.at.read()?;
    moves_report(&pos, &args.machine, &args.output)
}

fn openings(args: OpeningsArgs) -> Result<()> {
    moves_report(
        &MatchPosition::start(args.target),
        &args.machine,
        &args.output,
    )
}

/// Plays random moves and refill choices from the start of a Standard match (seeded) and
/// returns the first round start with the given score, if the match reaches it.
fn random_round_start(seed: u64, score: (u32, u32)) -> Option<MatchPosition> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut pos = MatchPosition::start(Target::Standard);
    loop {
        if pos.is_match_over() {
            return None;
        }
        if pos.is_round_over() {
            pos = pos.refill(Refill::ALL[rng.usize(..2)]).ok()?;
            if (pos.score(Side::Black), pos.score(Side::White)) == score {
                return Some(pos);
            }
            continue;
        }
        let moves = pos.legal_moves();
        pos = pos.play_unchecked(moves[rng.usize(..moves.len())]);
    }
}

/// The list the survey solves, in order: round starts at 2-2, 2-1, 1-2, 1-1, 2-0 and 0-2
/// reached by seeded random play, the round-2 starts after each winning first move of Black followed
/// by perfect round-1 play (both refills), and the start of a Standard match. Only the
/// first `limit` of them: the round-2 starts cost a round-1 solve each, which a short
/// list does not pay.
fn survey_positions(limit: Option<usize>) -> Result<Vec<(String, MatchPosition, Option<String>)>> {
    let mut list = Vec::new();
    for (score, count, kind) in [
        ((2, 2), 8, "round start at 2-2"),
        ((2, 1), 6, "round start at 2-1"),
        ((1, 2), 6, "round start at 1-2"),
        // Three rounds from the end: the next tier down.
        ((1, 1), 2, "round start at 1-1"),
        ((2, 0), 2, "round start at 2-0"),
        ((0, 2), 2, "round start at 0-2"),
    ] {
        let mut found = 0;
        for seed in 0..10_000 {
            if found == count {
                break;
            }
            if let Some(pos) = random_round_start(seed, score) {
                list.push((format!("{kind} (random match, seed {seed})"), pos, None));
                found += 1;
            }
        }
    }
    if limit.is_some_and(|n| n <= list.len()) {
        list.truncate(limit.unwrap_or(0));
        return Ok(list);
    }
    let round = Solver::new(
        MatchRound,
        Options {
            threads: 1,
            table_bytes: 256 << 20,
        },
    )
    .map_err(Failure::internal)?;
    let start = MatchPosition::start(Target::Standard);
    let cancel = Cancel::new();
    let mut moves = Vec::new();
    MatchRound.moves(&start, &mut moves);
    for m in moves {
        let after = start.play_unchecked(m);
        // The first moves that win the round for Black.
        if round.value(&after, &cancel).map_err(Failure::internal)? != Value::Loss {
            continue;
        }
        let line = round.solve(&after, &cancel).map_err(Failure::internal)?;
        let mut pos = after;
        let mut text = vec![m.to_string()];
        for &mv in &line.pv {
            pos = MatchRound.play(&pos, mv);
            text.push(mv.to_string());
        }
        for refill in Refill::ALL {
            let next = pos.refill(refill).map_err(Failure::internal)?;
            list.push((
                format!("round 2 after {m} and perfect round-1 play, {refill}"),
                next,
                Some(format!("{} {refill}", text.join(" "))),
            ));
        }
    }
    list.push(("start of a Standard match".to_owned(), start, None));
    Ok(list)
}

/// Reads a whole-match survey file; `None` if there is none at `path`.
fn read_survey(path: &std::path::Path) -> Result<Option<Survey>> {
    if !path.exists() {
        return Ok(None);
    }
    let text = crate::input::read_text(path, "a whole-match survey")?;
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|e| Failure::input(format!("{}: not a whole-match survey: {e}", path.display())))
}

fn survey(args: SurveyArgs) -> Result<()> {
    crate::output::check_output(&args.out, crate::output::OutputKind::Resumable)?;
    let mut survey = read_survey(&args.out)?.unwrap_or_default();
    // A file's own description (the shipped one says where its proofs' cost lies) is
    // kept; a new file gets the standard one.
    if survey.about.is_empty() {
        survey.about = "Whole Kamisado matches (Standard, first to 3 points) solved by `kamisado whole-match survey`: values for the side to move; proven entries are exact (values only, remoteness not computed); unproven entries give what a run reached within its time limit (their seconds). nodes: match-search nodes; round_nodes: round-solver nodes (the round solver's table is shared across the entries of one run, in order); rounds_asked/settled: round starts the round solver was asked about and settled; root_numbers: proof and disproof numbers of 'the side to move wins' at the root when the run stopped.".to_owned();
    }
    // The list first (its round-2 starts cost round-1 solves, a minute): an interrupt
    // meanwhile ends the run at once, as nothing is searched yet that would be saved.
    let mut list = survey_positions(args.limit)?;
    if let Some(n) = args.limit {
        list.truncate(n);
    }
    let mut solver = solver(&args.machine)?;
    let log = |line: String| {
        if !args.output.quiet {
            eprintln!("{line}");
        }
    };
    for (kind, pos, record) in list {
        let text = WholeMatch::root(&pos).to_string();
        // Kept: proven entries, and unproven ones already given this much time.
        let limit = args.machine.time_limit.unwrap_or(f64::INFINITY);
        let earlier = survey.entries.iter().position(|e| e.position == text);
        if earlier
            .is_some_and(|i| survey.entries[i].proven || survey.entries[i].seconds >= 0.9 * limit)
        {
            continue;
        }
        log(format!("{kind}: {text}"));
        let e = entry(
            &mut solver,
            Method::new(args.machine.speculate),
            &kind,
            &pos,
            record,
            args.machine.time_limit,
            &|line| log(format!("  {line}")),
        )?;
        log(format!(
            "  -> {}",
            if e.proven {
                format!("{} for {}", e.value.clone().unwrap_or_default(), e.to_move)
            } else {
                "not proven".into()
            }
        ));
        match earlier {
            Some(i) => survey.entries[i] = e,
            None => survey.entries.push(e),
        }
        crate::output::write_atomically(&args.out, crate::output::json(&survey).as_bytes())?;
    }
    let report = SurveyReport {
        entries: survey.entries.len(),
        proven: survey.entries.iter().filter(|e| e.proven).count(),
        out: args.out.display().to_string(),
    };
    report::print(&report, args.output.json, false);
    Ok(())
}

/// What `whole-match survey` wrote.
#[derive(Serialize)]
struct SurveyReport {
    entries: usize,
    proven: usize,
    out: String,
}

impl Report for SurveyReport {
    fn text(&self, _colour: bool) -> String {
        format!(
            "{} entries, {} proven, in {}\n",
            self.entries, self.proven, self.out
        )
    }
}

/// `whole-match units`: the listed positions that are round starts (of a score), in the
/// list's order.
#[derive(Serialize)]
struct UnitsReport {
    survey: String,
    units: Vec<String>,
}

impl Report for UnitsReport {
    fn text(&self, _colour: bool) -> String {
        self.units.iter().map(|u| format!("{u}\n")).collect()
    }
}

fn units(args: UnitsArgs) -> Result<()> {
    let shown = args.survey.display().to_string();
    let survey = read_survey(&args.survey)?
        .ok_or_else(|| Failure::input(format!("{shown}: no such file")))?;
    let mut units = Vec::new();
    for entry in &survey.entries {
        let pos: MatchPosition = entry.position.parse().map_err(|e| {
            Failure::input(format!(
                "{shown}: `{}` is not a match position: {e}",
                entry.position
            ))
        })?;
        let score = (pos.score(Side::Black), pos.score(Side::White));
        let round_start = pos.active().is_none() && !pos.is_round_over() && !pos.is_match_over();
        if !round_start
            || args.score.is_some_and(|s| s != score)
            || args.unproven && entry.proven
            || units.contains(&entry.position)
        {
            continue;
        }
        units.push(entry.position.clone());
    }
    report::print(
        &UnitsReport {
            survey: shown,
            units,
        },
        args.json,
        false,
    );
    Ok(())
}

/// `whole-match estimate`: the library's estimate, printed.
#[derive(Serialize)]
struct EstimateReport {
    #[serde(flatten)]
    estimate: Estimate,
    prices: Vec<u32>,
}

impl Report for EstimateReport {
    fn text(&self, _colour: bool) -> String {
        let e = &self.estimate;
        let mut out = format!(
            "position    {}\nvalue       {} for the side to move as speculated (not proven)\nestimate    {} s of one thread ({:.1} core-hours, {:.1} core-days), standard error {} s\n",
            e.position,
            e.speculated_value,
            thousands(e.seconds.round() as u64),
            e.seconds / 3600.0,
            e.seconds / 86400.0,
            thousands(e.standard_error.round() as u64),
        );
        out.push_str("tier  scores measured         settled (wrong)  counted  relied on (min/mean/max)  distinct / all  est. round starts  est. proofs  est. seconds  est. round starts by score\n");
        for t in &e.tiers {
            let scores: Vec<String> = t.scores.iter().map(|(s, n)| format!("{s}:{n}")).collect();
            let relied = match t.counted {
                0 => "-".to_owned(),
                _ => format!(
                    "{}/{:.0}/{}",
                    t.relied_on_min, t.relied_on_mean, t.relied_on_max
                ),
            };
            let shared = match t.counted {
                0 => "-".to_owned(),
                _ => format!(
                    "{} / {}",
                    thousands(t.relied_on_distinct),
                    thousands(t.relied_on_total)
                ),
            };
            out.push_str(&format!(
                "{:<5} {:<23} {:>15}  {:>7}  {:>24}  {:>15}  {:>17}  {:>11}  {:>12}  {}\n",
                t.tier,
                scores.join(" "),
                format!("{} ({})", t.settled, t.wrong),
                t.counted,
                relied,
                shared,
                thousands(t.estimated_starts.round() as u64),
                thousands(t.estimated_proofs.round() as u64),
                thousands(t.estimated_seconds.round() as u64),
                t.estimated_by_score
                    .iter()
                    .map(|(score, n)| format!("{score}: {}", thousands(n.round() as u64)))
                    .collect::<Vec<_>>()
                    .join(", "),
            ));
        }
        out.push_str(&format!(
            "measured    {} round starts with {} samples each (seed {}), in {:.1} s\n",
            e.measured, e.samples, e.seed, e.measuring_seconds
        ));
        out
    }
}

fn estimate(args: EstimateArgs) -> Result<()> {
    let pos = args.at.read()?;
    let bar = spinner(args.output.quiet || args.output.json, "estimate");
    let run = Run {
        time_limit: args.time_limit.map(Duration::from_secs_f64),
        report_every: Duration::from_secs(2),
        checkpoint_every: Duration::from_secs(300),
        progress: &|p: &Progress| bar.set_message(format!("estimate: {}", progress_line(p))),
        stop_asked: &crate::shutdown::stop_asked,
    };
    let options = EstimateOptions {
        samples: args.samples,
        seed: args.seed,
        prices: prices(&args.assumed_price),
    };
    crate::shutdown::stop_gracefully();
    let shown = |m: &Measured| {
        let what = match m.relied_on {
            None => "settled by its clinch question".to_owned(),
            Some(n) => format!("its proof rests on {} round starts", thousands(n)),
        };
        // A log on standard error, terminal or not, as `survey` keeps (an estimate of
        // the match start runs for an hour): --quiet drops it.
        if !args.output.quiet {
            bar.suspend(|| {
                eprintln!(
                    "tier {} {}: {what} ({:.1} s)",
                    m.tier, m.position, m.seconds
                )
            });
        }
    };
    let estimate = kamisado_match_solver::estimate(
        &pos,
        match_options(1, args.hash_mb),
        &options,
        &run,
        &shown,
    )
    .map_err(|e| match e {
        MatchSolveError::Solve(SolveError::Stopped) => Failure::internal(match args.time_limit {
            Some(t) => format!("a count did not finish within the time limit of {t} s: no estimate; try a larger --time-limit or --assumed-price 0"),
            None => "interrupted: no estimate".to_owned(),
        }),
        e => Failure::internal(e),
    })?;
    bar.finish_and_clear();
    report::print(
        &EstimateReport {
            estimate,
            prices: args.assumed_price.clone(),
        },
        args.output.json,
        false,
    );
    Ok(())
}

/// `whole-match merge`: the facts of every file, checked against each other.
#[derive(Serialize)]
struct MergeReport {
    out: String,
    files: usize,
    facts: usize,
    proven: usize,
}

impl Report for MergeReport {
    fn text(&self, _colour: bool) -> String {
        format!(
            "merged      {} proof files: {} facts about round boundaries, {} proven\nwrote       {}\n",
            self.files,
            thousands(self.facts as u64),
            thousands(self.proven as u64),
            self.out
        )
    }
}

fn merge(args: MergeArgs) -> Result<()> {
    use kamisado_match_solver::{file, Fact};
    crate::output::check_output(&args.out, crate::output::OutputKind::Database)?;
    // Every file is read and checked before anything is written.
    let mut facts: std::collections::BTreeMap<[u64; 3], (Fact, usize)> = Default::default();
    for (i, path) in args.files.iter().enumerate() {
        for (key, fact) in file::read(path).map_err(Failure::input)? {
            let known = facts.entry(key).or_insert((fact, i));
            match (known.0.value(), fact.value()) {
                (Some(a), Some(b)) if a != b => {
                    let pos = MatchPosition::from_match_key(key)
                        .map_or_else(|_| format!("key {key:?}"), |p| p.to_string());
                    // Both cannot be proofs: a bug, or a file edited by hand.
                    return Err(Failure::input(format!(
                        "{}: the position {pos} is a {} for the side to move, but a {} in {}",
                        path.display(),
                        b.name(),
                        a.name(),
                        args.files[known.1].display()
                    )));
                }
                // A proof beats "the round solver settled nothing".
                (None, Some(_)) => *known = (fact, i),
                _ => {}
            }
        }
    }
    let facts: Vec<([u64; 3], Fact)> = facts.into_iter().map(|(k, (f, _))| (k, f)).collect();
    crate::output::write_file(&args.out, crate::output::OutputKind::Database, |out| {
        out.write_all(&file::encode(&facts))
    })?;
    let report = MergeReport {
        out: args.out.display().to_string(),
        files: args.files.len(),
        facts: facts.len(),
        proven: facts.iter().filter(|(_, f)| f.value().is_some()).count(),
    };
    report::print(&report, args.output.json, false);
    Ok(())
}
