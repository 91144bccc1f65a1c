//! `kamisado db info|check`, and the database helpers the other commands share.

use std::path::Path;

use kamisado_core::Kamisado;
use kamisado_db::{
    check, check_by_search, collect, CheckReport, Database, Selection, Solved, RECORD_BYTES,
};
use kamisado_solver::Solver;
use serde::Serialize;

use super::db_args::{DbArgs, DbCheckArgs, DbCommand, DbInfoArgs};
use crate::failure::{Failure, Result};
use crate::output::{check_output, progress, thousands, write_file, OutputKind};
use crate::report::{self, Report};

/// Opens a database named on the command line; a bad file is bad input (exit code 2).
pub fn open(path: &Path) -> Result<Database> {
    Database::open(path).map_err(|e| Failure::input(format!("{}: {e}", path.display())))
}

/// Opens the database of an optional `--db` argument.
pub fn open_optional(path: Option<&Path>) -> Result<Option<Database>> {
    path.map(open).transpose()
}

/// Refuses a `--db` path that cannot take a database before any solving starts, so that
/// a typo does not cost a whole solve.
pub fn check_target(path: Option<&Path>) -> Result<()> {
    if let Some(path) = path {
        check_output(path, OutputKind::Database)?;
    }
    Ok(())
}

/// What writing a database produced, for reports.
#[derive(Serialize)]
pub struct Written {
    pub file: String,
    pub records: u64,
    pub bytes: u64,
}

impl Written {
    pub fn line(&self) -> String {
        format!(
            "wrote {} positions to {} ({:.1} MiB)",
            thousands(self.records),
            self.file,
            self.bytes as f64 / (1u64 << 20) as f64
        )
    }
}

/// Collects what `solver` proved (plus `solved`) and writes it to `path`, with a progress
/// bar when there are many records.
/// Writes what `solver` proved to `target`, if the user asked for a database (`--db`),
/// with the positions `solved` knows exactly; the search's `stats` then report the
/// run's peak memory, which gathering and sorting the records sets, not the search.
pub fn write_if_asked(
    target: Option<&Path>,
    solver: &Solver<Kamisado>,
    solved: impl FnOnce() -> Vec<Solved>,
    description: &str,
    quiet: bool,
    stats: &mut kamisado_analysis::SearchStats,
) -> Result<Option<Written>> {
    let Some(path) = target else {
        return Ok(None);
    };
    let written = write(path, solver, &solved(), description, quiet)?;
    stats.peak_memory_bytes = crate::output::peak_memory_bytes();
    Ok(Some(written))
}

fn write(
    path: &Path,
    solver: &Solver<Kamisado>,
    solved: &[Solved],
    description: &str,
    quiet: bool,
) -> Result<Written> {
    let records = collect(solver, solved);
    let bar = progress(records.len() as u64, quiet, "writing database");
    let header = write_file(path, OutputKind::Database, |out| {
        kamisado_db::write_records(out, &records, description, &mut |n| bar.set_position(n))
            .map_err(|e| match e {
                kamisado_db::DbError::Write(e) => e,
                other => std::io::Error::other(other.to_string()),
            })
    })?;
    bar.finish_and_clear();
    let bytes = std::fs::metadata(path).map_or(0, |m| m.len());
    Ok(Written {
        file: path.display().to_string(),
        records: header.records,
        bytes,
    })
}

pub fn run(args: DbArgs) -> Result<()> {
    match args.command {
        DbCommand::Info(a) => info(a),
        DbCommand::Check(a) => check_command(a),
    }
}

#[derive(Serialize)]
struct Info {
    file: String,
    format_version: u32,
    variant: String,
    description: String,
    records: u64,
    wins: u64,
    losses: u64,
    exact_remoteness: u64,
    best_moves: u64,
    file_bytes: u64,
    bytes_per_position: f64,
    /// As the header states it.
    checksum: String,
    /// What opening the file checked: every record, or (a large, mapped file) the header
    /// and block checksums, each block then being checked when first read.
    checked: &'static str,
    /// For an opening book: every position of this many moves from `book_root`.
    #[serde(skip_serializing_if = "Option::is_none")]
    book_plies: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    book_root: Option<String>,
}

impl Report for Info {
    fn text(&self, _colour: bool) -> String {
        let r = self;
        [
            format!("file              {}", r.file),
            format!(
                "format            KAMISADB version {}, rules {}",
                r.format_version, r.variant
            ),
            format!("solved            {}", r.description),
            format!(
                "records           {} ({} wins, {} losses for the side to move)",
                thousands(r.records),
                thousands(r.wins),
                thousands(r.losses)
            ),
            format!("exact remoteness  {}", thousands(r.exact_remoteness)),
            format!("best move         {}", thousands(r.best_moves)),
            format!(
                "size              {} bytes ({:.2} bytes per position, {RECORD_BYTES} per record)",
                thousands(r.file_bytes),
                r.bytes_per_position
            ),
            format!(
                "checksum          {} (checked when opened: {})",
                r.checksum, r.checked
            ),
        ]
        .map(|line| line + "\n")
        .concat()
            + &match (r.book_plies, &r.book_root) {
                (Some(plies), Some(root)) => {
                    format!(
                        "book              every position of the first {plies} moves from {root}\n"
                    )
                }
                _ => String::new(),
            }
    }
}

fn per_position(bytes: u64, records: u64) -> f64 {
    if records == 0 {
        0.0
    } else {
        (bytes as f64 / records as f64 * 100.0).round() / 100.0
    }
}

fn info(args: DbInfoArgs) -> Result<()> {
    let db = open(&args.file)?;
    let h = db.header();
    let report = Info {
        file: args.file.display().to_string(),
        format_version: h.version,
        variant: h.variant.clone(),
        description: h.description.clone(),
        records: h.records,
        wins: h.wins,
        losses: h.records - h.wins,
        exact_remoteness: h.exact_remoteness,
        best_moves: h.best_moves,
        file_bytes: db.file_bytes(),
        bytes_per_position: per_position(db.file_bytes(), h.records),
        checksum: format!("{:#010x}", h.checksum),
        checked: if db.is_mapped() {
            "header and block checksums; each block when first read"
        } else {
            "every record"
        },
        book_plies: (h.book_plies > 0).then_some(h.book_plies),
        book_root: (h.book_plies > 0).then(|| {
            kamisado_core::Position::from_key(h.book_root)
                .map_or_else(|_| format!("key {:#x}", h.book_root), |p| p.to_string())
        }),
    };
    report::print(&report, args.json, false);
    Ok(())
}

#[derive(Serialize)]
struct CheckJson {
    file: String,
    checksum: &'static str,
    /// The checksum's value, for the text.
    #[serde(skip)]
    checksum_value: u32,
    layout: &'static str,
    records: u64,
    checked: u64,
    all: bool,
    verified: u64,
    /// Records with a claim that needs a child missing from the database.
    incomplete: u64,
    disagreements: u64,
    listed: Vec<DisagreementJson>,
    /// `--solve N`: records the file could not settle, solved afresh.
    #[serde(skip_serializing_if = "Option::is_none")]
    solved: Option<SolvedJson>,
    /// For an opening book: completeness, and positions of its deepest ply solved afresh.
    #[serde(skip_serializing_if = "Option::is_none")]
    book: Option<super::book::AuditJson>,
    /// The book's audit as text.
    #[serde(skip)]
    book_text: Option<String>,
}

#[derive(Serialize)]
struct SolvedJson {
    checked: u64,
    agree: u64,
    disagreements: u64,
    listed: Vec<DisagreementJson>,
}

fn listed(report: &CheckReport) -> Vec<DisagreementJson> {
    report
        .disagreements
        .iter()
        .map(|d| DisagreementJson {
            index: d.index,
            position: d.position.clone(),
            problem: d.problem.clone(),
        })
        .collect()
}

fn disagreement_lines(listed: &[DisagreementJson], count: u64) -> String {
    let mut out = String::new();
    for d in listed {
        out.push_str(&format!(
            "disagrees    record {} ({}): {}\n",
            d.index, d.position, d.problem
        ));
    }
    if count > listed.len() as u64 {
        out.push_str(&format!(
            "             ... and {} more\n",
            count - listed.len() as u64
        ));
    }
    out
}

impl Report for CheckJson {
    fn text(&self, _colour: bool) -> String {
        let mut out = format!("checksum     ok ({:#010x})\n", self.checksum_value);
        out.push_str(&format!(
            "layout       ok: {} records sorted by key, counts match the header\n",
            thousands(self.records)
        ));
        out.push_str(&format!(
            "re-derived   {} of {} records from their children: {} verified, {} need a child the database lacks, {} disagree\n",
            thousands(self.checked),
            thousands(self.records),
            thousands(self.verified),
            thousands(self.incomplete),
            thousands(self.disagreements)
        ));
        out.push_str(&disagreement_lines(&self.listed, self.disagreements));
        if let Some(s) = &self.solved {
            out.push_str(&format!(
                "solved       {} of those the file cannot settle, afresh: {} agree, {} disagree\n",
                thousands(s.checked),
                thousands(s.agree),
                thousands(s.disagreements)
            ));
            out.push_str(&disagreement_lines(&s.listed, s.disagreements));
        }
        if let Some(book) = &self.book_text {
            out.push_str(book);
        }
        out
    }
}

#[derive(Serialize)]
struct DisagreementJson {
    index: u64,
    position: String,
    problem: String,
}

fn check_command(args: DbCheckArgs) -> Result<()> {
    let db = open(&args.file)?;
    let shown = args.file.display();
    let records = db.len() as u64;
    let bar = progress(records, args.quiet || args.json, "checksum");
    db.verify_checksum(&mut |n| bar.set_position(n))
        .map_err(|e| Failure::input(format!("{shown}: {e}")))?;
    bar.finish_and_clear();
    db.verify_layout()
        .map_err(|e| Failure::input(format!("{shown}: {e}")))?;

    let selection = if args.all {
        Selection::All
    } else {
        Selection::Sample(args.sample)
    };
    let to_check = match selection {
        Selection::Sample(n) => n.min(records),
        Selection::All => records,
    };
    let bar = progress(to_check, args.quiet || args.json, "re-deriving");
    let report = check(&db, selection, &|n| bar.set_position(n));
    bar.finish_and_clear();
    let book = super::book::audit(&db, &args)?;
    let solved = if args.solve > 0 || book.is_some() {
        let solver = crate::input::solver(&args.search)?;
        let count = super::book::solve_count(&db, args.solve);
        let bar = progress(count, args.quiet || args.json, "solving");
        let solved = check_by_search(
            &db,
            selection,
            count,
            &solver,
            &kamisado_solver::Cancel::new(),
            &|n| bar.set_position(n),
        )
        .map_err(Failure::internal)?;
        bar.finish_and_clear();
        Some(solved)
    } else {
        None
    };

    let out = CheckJson {
        file: shown.to_string(),
        checksum: "ok",
        checksum_value: db.header().checksum,
        layout: "ok",
        records,
        checked: report.checked,
        all: report.checked == records,
        verified: report.verified,
        incomplete: report.incomplete,
        disagreements: report.disagreement_count,
        listed: listed(&report),
        solved: solved.as_ref().map(|s| SolvedJson {
            checked: s.checked,
            agree: s.verified,
            disagreements: s.disagreement_count,
            listed: listed(s),
        }),
        book: book.as_ref().map(super::book::AuditJson::of),
        book_text: book.as_ref().map(super::book::audit_text),
    };
    report::print(&out, args.json, false);
    if !report.passed() {
        return Err(Failure::internal(format!(
            "{shown}: {} record(s) disagree with their children",
            report.disagreement_count
        )));
    }
    match solved {
        Some(s) if !s.passed() => {
            return Err(Failure::internal(format!(
                "{shown}: {} record(s) disagree with a fresh solve",
                s.disagreement_count
            )))
        }
        _ => {}
    }
    match book {
        Some(b) if !b.passed() => Err(Failure::internal(format!(
            "{shown}: the book is incomplete or disagrees with a fresh solve ({} problem(s), {} disagreement(s))",
            b.problems,
            b.disagreements.len()
        ))),
        _ => Ok(()),
    }
}
