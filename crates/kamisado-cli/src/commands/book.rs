//! `kamisado book`: the complete opening book, built resumably.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Args, Subcommand};
use kamisado_core::Kamisado;
use kamisado_db::book::{
    derive, describe, merge_parts, solve_positions, BookPart, BookPlan, Journal, Shard,
};
use kamisado_solver::{Cancel, Options, Solver};
use serde::Serialize;

use crate::args::{parse_shard, OutputArgs, PositionArgs, SearchArgs};
use crate::failure::{Failure, Result};
use crate::output::{progress, thousands, write_file, OutputKind};
use crate::report::{self, Report};

/// Where the book lives, and where every command that answers positions looks for it.
pub const DEFAULT_BOOK: &str = kamisado_analysis::limits::BOOK;

pub const BOOK_HELP: &str = "\
Builds the opening book: every position reachable in the first PLIES moves from the start
(or from --position/--moves), counted once after zero-length moves and symmetry, with its exact value, remoteness and a best move,
and every position one move further with its exact value and remoteness, so that `query`
answers every move of every book position from the file. `query`, `play`, `engine`,
`verify` and `match` use data/book.kdb when it exists (run from the repository root);
`--db none` turns that off.

The searching (the positions one move past the book) is saved as it goes in
FILE.journal; an interrupted build started again with the same arguments resumes there.
The book itself is derived from those results and written under a temporary name and
renamed, so a reader that has the old book open keeps reading the old file.

In separate processes (array tasks on a cluster, see cluster/slurm/): `--shard i/n --out
PART` solves every n-th frontier position into a part file (resumable through
PART.journal like a whole build), and `book merge` derives the book from the parts of
every shard, exactly as a single build derives it from its journal.

Examples:
  kamisado book --plies 4 --threads 2 --hash-mb 2048
  kamisado book --plies 2 --moves \"h1-h7 c8-c4\" --out /tmp/mid-game-book.kdb
  mkdir -p parts && kamisado book --plies 5 --shard 3/100 --out parts/book-3.kbp
  kamisado book merge parts/book-*.kbp --out book-5.kdb";

/// `kamisado book`: a build, or `book merge`.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct BookArgs {
    #[command(subcommand)]
    pub merge: Option<BookCommand>,
    #[command(flatten)]
    pub build: BookBuildArgs,
}

#[derive(Subcommand, Debug)]
pub enum BookCommand {
    /// Derive the book from the part files of every shard of a `book --shard` build
    #[command(
        after_help = "The parts must be of one build (the same position, plies and shard count) and hold every shard once; a part that is not is named and nothing is written.\n\nExample:\n  kamisado book merge parts/book-*.kbp --out book-5.kdb"
    )]
    Merge(BookMergeArgs),
}

#[derive(Args, Debug)]
pub struct BookMergeArgs {
    /// The part files, one per shard, in any order
    #[arg(value_name = "PARTS", required = true)]
    pub parts: Vec<PathBuf>,
    /// Where to write the book
    #[arg(long, value_name = "FILE", default_value = DEFAULT_BOOK)]
    pub out: PathBuf,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// `kamisado book` without a subcommand: a build, whole or one shard of it.
#[derive(Args, Debug)]
pub struct BookBuildArgs {
    /// The book holds every position of the first PLIES moves
    #[arg(long, value_name = "PLIES", default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=6))]
    pub plies: u32,
    /// Where to write the book (with --shard: the part file)
    #[arg(long, value_name = "FILE", default_value = DEFAULT_BOOK)]
    pub out: PathBuf,
    /// Solve only every n-th frontier position, from the i-th (1 <= i <= n), into a part file
    #[arg(long, value_name = "i/n", value_parser = parse_shard)]
    pub shard: Option<(u64, u64)>,
    /// The book starts here (default: the start of a round)
    #[command(flatten)]
    pub position: PositionArgs,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Serialize)]
struct BookReport {
    file: String,
    root: String,
    plies: u32,
    /// Positions first reached after 0, 1, ... moves.
    positions_per_ply: Vec<usize>,
    book_positions: usize,
    /// Positions one move past the book that the rules do not decide.
    frontier: usize,
    /// Frontier positions found solved in the journal of an earlier run.
    resumed: usize,
    records: u64,
    bytes: u64,
    seconds: f64,
    nodes: u64,
}

impl Report for BookReport {
    fn text(&self, _colour: bool) -> String {
        let per_ply: Vec<String> = self
            .positions_per_ply
            .iter()
            .enumerate()
            .map(|(ply, n)| format!("ply {ply}: {}", thousands(*n as u64)))
            .collect();
        format!(
            "book        {} positions of the first {} moves ({})\nfrontier    {} positions one move further, solved exactly ({} from an earlier run's journal)\nwrote       {} ({} records, {:.1} MiB)\nin {:.1} s, {} nodes searched\n",
            thousands(self.book_positions as u64),
            self.plies,
            per_ply.join(", "),
            thousands(self.frontier as u64),
            thousands(self.resumed as u64),
            self.file,
            thousands(self.records),
            self.bytes as f64 / (1u64 << 20) as f64,
            self.seconds,
            thousands(self.nodes)
        )
    }
}

pub fn run(args: BookArgs) -> Result<()> {
    match args.merge {
        Some(BookCommand::Merge(merge_args)) => merge(merge_args),
        None => build(args.build),
    }
}

/// A part file written by `book --shard`.
#[derive(Serialize)]
struct PartReport {
    file: String,
    root: String,
    plies: u32,
    shard: String,
    /// The frontier's positions, of every shard.
    frontier: usize,
    /// This shard's share of them, all solved and in the part.
    share: usize,
    /// Of the share, found solved in the journal of an earlier run.
    resumed: usize,
    seconds: f64,
    nodes: u64,
}

impl Report for PartReport {
    fn text(&self, _colour: bool) -> String {
        format!(
            "shard       {} of the frontier of the first {} moves: {} of its {} positions, solved exactly ({} from an earlier run's journal)\nwrote       {}\nin {:.1} s, {} nodes searched\n",
            self.shard,
            self.plies,
            thousands(self.share as u64),
            thousands(self.frontier as u64),
            thousands(self.resumed as u64),
            self.file,
            self.seconds,
            thousands(self.nodes)
        )
    }
}

fn build(args: BookBuildArgs) -> Result<()> {
    let shard = args
        .shard
        .map(
            |(index, count)| match (u32::try_from(index), u32::try_from(count)) {
                (Ok(index), Ok(count)) => Ok(Shard { index, count }),
                _ => Err(Failure::input(format!(
                    "--shard {index}/{count}: at most {} shards",
                    u32::MAX
                ))),
            },
        )
        .transpose()?;
    if shard.is_some() && args.out == Path::new(DEFAULT_BOOK) {
        return Err(Failure::input(
            "book --shard writes a part file, not the book: give it with --out PART",
        ));
    }
    super::db::check_target(Some(&args.out))?;
    let started = Instant::now();
    let quiet = args.output.quiet || args.output.json;
    let root = crate::input::single_round(&args.position, "book")?;
    if root.is_over() {
        return Err(Failure::input(
            "--position: the game is over there: a book holds positions with moves to play",
        ));
    }
    let plan = BookPlan::new(&root, args.plies);
    let journal_path = Journal::path_for(&args.out);
    let mut journal = Journal::open(&journal_path, &plan).map_err(Failure::input)?;
    let threads = args
        .search
        .threads
        .map_or_else(|| Options::default().threads, usize::from);
    let solver = Solver::new(
        Kamisado,
        Options {
            threads: 1,
            table_bytes: (args.search.hash_mb() as usize) << 20,
        },
    )
    .map_err(|e| Failure::input(format!("--hash-mb {}: {e}", args.search.hash_mb())))?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(Failure::internal)?;
    let positions = match shard {
        Some(shard) => plan.share(shard),
        None => plan.frontier.iter().collect(),
    };
    let resumed = positions
        .iter()
        .filter(|p| journal.solved().contains_key(&p.key()))
        .count();
    let bar = progress(positions.len() as u64, quiet, "book: solving the frontier");
    pool.install(|| {
        solve_positions(
            &positions,
            &mut journal,
            &solver,
            &Cancel::new(),
            &mut |n| bar.set_position(n as u64),
        )
    })
    .map_err(Failure::internal)?;
    bar.finish_and_clear();
    if let Some(shard) = shard {
        let part = BookPart::of(&plan, shard, journal.solved());
        write_file(&args.out, OutputKind::Database, |out| {
            out.write_all(&part.encode())
        })?;
        journal.remove();
        let report = PartReport {
            file: args.out.display().to_string(),
            root: plan.root.to_string(),
            plies: args.plies,
            shard: shard.to_string(),
            frontier: plan.frontier.len(),
            share: positions.len(),
            resumed,
            seconds: started.elapsed().as_secs_f64(),
            nodes: solver.nodes(),
        };
        report::print(&report, args.output.json, false);
        return Ok(());
    }
    let records = derive(&plan, journal.solved()).map_err(Failure::internal)?;
    let written = write_book(&args.out, &records, &plan, quiet)?;
    journal.remove();
    let report = BookReport {
        file: args.out.display().to_string(),
        root: plan.root.to_string(),
        plies: args.plies,
        positions_per_ply: plan.layers.iter().map(Vec::len).collect(),
        book_positions: plan.book_positions(),
        frontier: plan.frontier.len(),
        resumed,
        records: written.records,
        bytes: written.bytes,
        seconds: started.elapsed().as_secs_f64(),
        nodes: solver.nodes(),
    };
    report::print(&report, args.output.json, false);
    Ok(())
}

/// `book merge`: the book derived from the parts of every shard, as [`build`] derives it
/// from its journal.
fn merge(args: BookMergeArgs) -> Result<()> {
    super::db::check_target(Some(&args.out))?;
    let started = Instant::now();
    let quiet = args.output.quiet || args.output.json;
    let mut parts = Vec::with_capacity(args.parts.len());
    for path in &args.parts {
        let shown = path.display().to_string();
        let bytes = std::fs::read(path)
            .map_err(|e| Failure::input(format!("{shown}: cannot read: {e}")))?;
        let part = BookPart::decode(&bytes).map_err(|e| Failure::input(format!("{shown}: {e}")))?;
        parts.push((shown, part));
    }
    let (plan, scores) = merge_parts(&parts).map_err(Failure::input)?;
    let records = derive(&plan, &scores).map_err(Failure::internal)?;
    let written = write_book(&args.out, &records, &plan, quiet)?;
    let report = BookReport {
        file: args.out.display().to_string(),
        root: plan.root.to_string(),
        plies: plan.plies,
        positions_per_ply: plan.layers.iter().map(Vec::len).collect(),
        book_positions: plan.book_positions(),
        frontier: plan.frontier.len(),
        resumed: 0,
        records: written.records,
        bytes: written.bytes,
        seconds: started.elapsed().as_secs_f64(),
        nodes: 0,
    };
    report::print(&report, args.output.json, false);
    Ok(())
}

fn write_book(
    path: &Path,
    records: &[kamisado_db::Record],
    plan: &BookPlan,
    quiet: bool,
) -> Result<super::db::Written> {
    let bar = progress(records.len() as u64, quiet, "writing the book");
    let book = Some((&plan.root, plan.plies));
    // Through the CLI's writer: an interrupt removes the temporary file.
    let header = write_file(path, OutputKind::Database, |out| {
        kamisado_db::write_book_records(out, records, &describe(plan), book, &mut |n| {
            bar.set_position(n)
        })
        .map_err(|e| match e {
            kamisado_db::DbError::Write(e) => e,
            other => std::io::Error::other(other.to_string()),
        })
    })?;
    bar.finish_and_clear();
    Ok(super::db::Written {
        file: path.display().to_string(),
        records: header.records,
        bytes: std::fs::metadata(path).map_or(0, |m| m.len()),
    })
}

/// Records a `db check` of a book solves afresh (of its deepest ply, and of the
/// positions one move further) unless `--solve N` says otherwise.
const BOOK_SOLVE_SAMPLE: u64 = 10;

/// How many records `db check` solves afresh: `--solve N`, or for a book a small sample.
pub fn solve_count(db: &kamisado_db::Database, solve: u64) -> u64 {
    match (solve, db.header().book_plies) {
        (0, 0) => 0,
        (0, _) => BOOK_SOLVE_SAMPLE,
        (n, _) => n,
    }
}

/// `db check` of a book: completeness, and a sample of its deepest ply solved afresh.
pub fn audit(
    db: &kamisado_db::Database,
    args: &super::db_args::DbCheckArgs,
) -> Result<Option<kamisado_db::book::BookAudit>> {
    if db.header().book_plies == 0 {
        return Ok(None);
    }
    let solver = crate::input::solver(&args.search)?;
    kamisado_db::book::audit(db, solve_count(db, args.solve), &solver, &Cancel::new()).map_err(
        |e| match e {
            kamisado_db::book::BookAuditError::Db(e) => {
                Failure::input(format!("{}: {e}", args.file.display()))
            }
            e => Failure::internal(e),
        },
    )
}

/// A book's audit as `db check --json` prints it.
#[derive(Serialize)]
pub struct AuditJson {
    plies: u32,
    positions_per_ply: Vec<usize>,
    frontier: usize,
    problems: u64,
    listed: Vec<String>,
    solved: u64,
    disagreements: Vec<String>,
}

impl AuditJson {
    pub fn of(a: &kamisado_db::book::BookAudit) -> AuditJson {
        AuditJson {
            plies: a.plies,
            positions_per_ply: a.positions_per_ply.clone(),
            frontier: a.frontier,
            problems: a.problems,
            listed: a.listed.clone(),
            solved: a.solved,
            disagreements: a.disagreements.clone(),
        }
    }
}

/// A book's audit as `db check` prints it.
pub fn audit_text(a: &kamisado_db::book::BookAudit) -> String {
    let positions: usize = a.positions_per_ply.iter().sum();
    let mut out = format!(
        "book         {} positions of {} plies and {} one move further: {}\n",
        thousands(positions as u64),
        a.plies,
        thousands(a.frontier as u64),
        if a.problems == 0 {
            "complete, every move of every book position answered by the file or the rules"
                .to_owned()
        } else {
            format!("{} problem(s)", a.problems)
        }
    );
    for line in &a.listed {
        out.push_str(&format!("incomplete   {line}\n"));
    }
    out.push_str(&format!(
        "book solve   {} positions of ply {} solved afresh: {} disagree\n",
        a.solved,
        a.plies,
        a.disagreements.len()
    ));
    for line in &a.disagreements {
        out.push_str(&format!("disagrees    {line}\n"));
    }
    out
}
