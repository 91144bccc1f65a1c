//! A Kamisado position (a single round or any round of a match) and every move, as
//! `kamisado query --json` reports it.

use std::path::PathBuf;

use kamisado_analysis::limits;
use kamisado_analysis::request::Line;
use kamisado_analysis::{Oracle, OracleError, Rounds};
use kamisado_match::MatchPosition;
use kamisado_solver::{Depth, Options, SolveError};
use pyo3::prelude::*;

use crate::database::Database;
use crate::errors::{input_error, search_error, TimeLimitError};
use crate::{search, to_python};

/// The command line's default table size limit (`--hash-mb`), in MiB.
pub const DEFAULT_HASH_MB: u64 = limits::DEFAULT_HASH_MB;

/// Where answers come from before a search.
pub enum Db {
    /// The book (`data/book.kdb`) if there is one here, as the command line does.
    Default,
    /// None (`db="none"`, the command line's `--db none`).
    None,
    File(PathBuf),
}

impl Db {
    /// `db=` as Python gives it: `None`, `"none"`, a path or a [`Database`].
    pub fn of(db: Option<&Bound<'_, PyAny>>) -> PyResult<Db> {
        let Some(db) = db else {
            return Ok(Db::Default);
        };
        if let Ok(opened) = db.cast::<Database>() {
            return Ok(Db::File(opened.get().path.clone()));
        }
        let path: PathBuf = db
            .extract()
            .map_err(|_| input_error("db: expected a path, \"none\" or a kamisado.Database"))?;
        Ok(if path.as_os_str() == "none" {
            Db::None
        } else {
            Db::File(path)
        })
    }

    /// The database asked for, opened and checked as the command line opens `--db`.
    fn open(&self) -> PyResult<Option<kamisado_db::Database>> {
        let path = match self {
            Db::None => Some(std::path::Path::new("none")),
            Db::File(path) => Some(path.as_path()),
            Db::Default => None,
        };
        limits::database(path).map_err(input_error)
    }
}

/// What `kamisado query` takes, as Python gives it.
pub struct Request<'a> {
    pub moves: Option<&'a str>,
    pub position: Option<&'a str>,
    pub target: Option<u32>,
    pub db: Db,
    pub all_remoteness: bool,
    pub time_limit: Option<f64>,
    pub threads: Option<usize>,
    pub hash_mb: u64,
}

/// The solver settings `threads` and `hash_mb` ask for, checked as the command line
/// checks `--threads` and `--hash-mb`.
pub fn options(threads: Option<usize>, hash_mb: u64) -> PyResult<Options> {
    limits::search_options(threads.map(|t| t as u64), hash_mb).map_err(input_error)
}

/// A solver's failure to start: a table too big for this machine is the caller's to
/// change (bad input, as the command line's exit code 2).
pub fn solver_error(hash_mb: u64, e: SolveError) -> PyErr {
    match limits::table_too_big("hash_mb", hash_mb, e) {
        Ok(message) => input_error(message),
        Err(e) => search_error(e),
    }
}

/// The oracle's failure: a database that fails a check is the caller's file (bad
/// input), anything else a failed search.
fn oracle_error(e: OracleError) -> PyErr {
    match e {
        OracleError::Database(_) => input_error(e),
        e => search_error(e),
    }
}

/// The position asked about, read by the analysis library as the command line reads
/// `--position`, `--target` and `--moves` (with its messages).
fn read_position(
    position: Option<&str>,
    moves: Option<&str>,
    target: Option<u32>,
) -> PyResult<MatchPosition> {
    let target = limits::target_for(position, target).map_err(input_error)?;
    Line::read(position, moves, target)
        .map(|line| line.given)
        .map_err(input_error)
}

/// Answers `request` as `kamisado query --json` does, the search without the GIL.
pub fn run<'py>(py: Python<'py>, request: Request) -> PyResult<Bound<'py, PyAny>> {
    let limit = search::time_limit(request.time_limit)?;
    let options = options(request.threads, request.hash_mb)?;
    let given = read_position(request.position, request.moves, request.target)?;
    // A round keeps its kind to its end: one table, with the whole budget.
    let rounds = Rounds::of(&given.resolve());
    let oracle = Oracle::with_budget(request.db.open()?, options, rounds)
        .map_err(|e| solver_error(request.hash_mb, e))?;
    let depth = if request.all_remoteness {
        Depth::Every
    } else {
        Depth::Best
    };
    let report = search::run(py, limit, |cancel| {
        kamisado_analysis::query(&oracle, &given, depth, cancel, &|_| {})
    })?
    .map_err(oracle_error)?;
    to_python(py, &report)
}

/// A Kamisado position and every move: `kamisado query --json`.
#[pyfunction]
#[pyo3(signature = (moves = None, *, position = None, target = None, db = None, all_remoteness = false, time_limit = None, threads = None, hash_mb = DEFAULT_HASH_MB))]
#[allow(clippy::too_many_arguments)]
pub fn query<'py>(
    py: Python<'py>,
    moves: Option<&str>,
    position: Option<&str>,
    target: Option<u32>,
    db: Option<&Bound<'py, PyAny>>,
    all_remoteness: bool,
    time_limit: Option<f64>,
    threads: Option<usize>,
    hash_mb: u64,
) -> PyResult<Bound<'py, PyAny>> {
    let request = Request {
        moves,
        position,
        target,
        db: Db::of(db)?,
        all_remoteness,
        time_limit,
        threads,
        hash_mb,
    };
    run(py, request)
}

/// A Kamisado position solved exactly by search alone: `kamisado solve --json`.
#[pyfunction]
#[pyo3(signature = (moves = None, *, position = None, target = None, time_limit = None, threads = None, hash_mb = DEFAULT_HASH_MB))]
pub fn solve<'py>(
    py: Python<'py>,
    moves: Option<&str>,
    position: Option<&str>,
    target: Option<u32>,
    time_limit: Option<f64>,
    threads: Option<usize>,
    hash_mb: u64,
) -> PyResult<Bound<'py, PyAny>> {
    let limit = search::time_limit(time_limit)?;
    let options = options(threads, hash_mb)?;
    let pos = read_position(position, moves, target)?.resolve();
    // As the command line: a round keeps its kind to its end, one table with the whole
    // budget; no database (an exact solve does not ask one).
    let oracle = Oracle::with_budget(None, options, Rounds::of(&pos))
        .map_err(|e| solver_error(hash_mb, e))?;
    let answer = search::run(py, limit, |cancel| {
        kamisado_analysis::solve(&oracle, &pos, cancel)
    })?;
    match answer {
        Ok(report) => to_python(py, &report),
        Err(OracleError::Stopped) => Err(TimeLimitError::new_err(limits::no_answer_in_time(
            time_limit.unwrap_or_default(),
            oracle.nodes(),
        ))),
        Err(e) => Err(oracle_error(e)),
    }
}
