//! Kamon from Python: layouts, and a position solved as `kamisado kamon solve --json`
//! reports it.

use kamisado_analysis::{kamon, limits, request};
use kamisado_solver::{SolveError, Solver};
use kamon_core::{KamonGame, Record};
use pyo3::prelude::*;

use crate::errors::{input_error, search_error, TimeLimitError};
use crate::query::{options, solver_error, DEFAULT_HASH_MB};
use crate::{search, to_python};

/// The layout of `seed` (`kamisado kamon random --seed SEED`) and its `after` random
/// placements (`--after`): the layout's text and the cells placed, in order.
#[pyfunction]
#[pyo3(signature = (seed, after = 0))]
pub fn kamon_random(seed: u64, after: u32) -> PyResult<(String, Vec<String>)> {
    let record = request::random_record(seed, after).map_err(input_error)?;
    Ok((
        record.layout().to_string(),
        kamon::cells_text(record.moves()),
    ))
}

/// A Kamon question as `kamon_solve` and `kamon_query` take it: the game (a layout,
/// given or of a seed after its random placements, then placements played from there),
/// the solver of its layout and the time limit.
struct Asked {
    record: Record,
    solver: Solver<KamonGame>,
    limit: Option<std::time::Duration>,
}

impl Asked {
    /// The question the keyword arguments ask, read and checked as the command line reads
    /// `kamon solve`'s arguments (the library's checks and messages: a layout and a seed
    /// both, a seed's placements past 35, the numbers' bounds).
    #[allow(clippy::too_many_arguments)]
    fn read(
        seed: Option<u64>,
        layout: Option<&str>,
        after: Option<u32>,
        moves: Option<&str>,
        time_limit: Option<f64>,
        threads: Option<usize>,
        hash_mb: u64,
    ) -> PyResult<Asked> {
        let limit = search::time_limit(time_limit)?;
        // The numbers given as their text, as a text request gives them.
        let (seed, after) = (seed.map(|s| s.to_string()), after.map(|a| a.to_string()));
        let record = request::read_kamon(layout, seed.as_deref(), after.as_deref(), moves)
            .map_err(input_error)?;
        let solver = Solver::new(
            KamonGame::new(record.layout().clone()),
            options(threads, hash_mb)?,
        )
        .map_err(|e| solver_error(hash_mb, e))?;
        Ok(Asked {
            record,
            solver,
            limit,
        })
    }
}

/// A Kamon position solved: `kamisado kamon solve --json`.
#[pyfunction]
#[pyo3(signature = (seed = None, *, layout = None, after = None, moves = None, value_only = false, time_limit = None, threads = None, hash_mb = DEFAULT_HASH_MB))]
#[allow(clippy::too_many_arguments)]
pub fn kamon_solve<'py>(
    py: Python<'py>,
    seed: Option<u64>,
    layout: Option<&str>,
    after: Option<u32>,
    moves: Option<&str>,
    value_only: bool,
    time_limit: Option<f64>,
    threads: Option<usize>,
    hash_mb: u64,
) -> PyResult<Bound<'py, PyAny>> {
    let Asked {
        record,
        solver,
        limit,
    } = Asked::read(
        seed,
        layout,
        after,
        moves,
        time_limit,
        kamon::threads(threads, value_only),
        hash_mb,
    )?;
    let answer = search::run(py, limit, |cancel| {
        kamon::solve(&solver, &record, value_only, cancel)
    })?;
    match answer {
        Ok(report) => to_python(py, &report),
        Err(SolveError::Stopped) => Err(TimeLimitError::new_err(limits::no_answer_in_time(
            time_limit.unwrap_or_default(),
            solver.nodes(),
        ))),
        Err(e) => Err(search_error(e)),
    }
}

/// A Kamon position and every legal cell, as the board (`kamisado serve`) answers it: the
/// fields of `kamon solve --json`, then `complete`, `pv_complete`, `end`, `legal_cells`
/// and `cells`. A time limit leaves the cells answered so far (`complete: false`).
#[pyfunction]
#[pyo3(signature = (seed = None, *, layout = None, after = None, moves = None, time_limit = None, threads = None, hash_mb = DEFAULT_HASH_MB))]
#[allow(clippy::too_many_arguments)]
pub fn kamon_query<'py>(
    py: Python<'py>,
    seed: Option<u64>,
    layout: Option<&str>,
    after: Option<u32>,
    moves: Option<&str>,
    time_limit: Option<f64>,
    threads: Option<usize>,
    hash_mb: u64,
) -> PyResult<Bound<'py, PyAny>> {
    let Asked {
        record,
        solver,
        limit,
    } = Asked::read(seed, layout, after, moves, time_limit, threads, hash_mb)?;
    let report = search::run(py, limit, |cancel| {
        kamon::query(&solver, &record, cancel, &|_| {})
    })?
    .map_err(search_error)?;
    to_python(py, &report)
}

/// A small Kamon survey run here: `layouts` layouts from seed `seed` (layout i is the
/// random layout of seed `seed + i` after its `after` random placements), each solved
/// with a fresh solver as `kamisado kamon survey` solves them, each with its own
/// `time_limit` (a layout out of it is recorded unsolved, as on the command line); the
/// result is the survey file `kamon survey --out` writes, as plain Python objects.
#[pyfunction]
#[pyo3(signature = (seed, layouts, *, after = 0, value_only = false, time_limit = None, threads = None, hash_mb = DEFAULT_HASH_MB))]
#[allow(clippy::too_many_arguments)]
pub fn kamon_survey<'py>(
    py: Python<'py>,
    seed: u64,
    layouts: u64,
    after: u32,
    value_only: bool,
    time_limit: Option<f64>,
    threads: Option<usize>,
    hash_mb: u64,
) -> PyResult<Bound<'py, PyAny>> {
    let limit = search::time_limit(time_limit)?;
    let options = options(kamon::threads(threads, value_only), hash_mb)?;
    kamon::survey_seeds(seed, layouts).map_err(input_error)?;
    let mut file = kamisado_analysis::SurveyFile::new();
    for index in 0..layouts {
        let entry = search::run(py, limit, |cancel| {
            kamon::survey_entry(seed, after, index, options, value_only, time_limit, cancel)
        })?
        .map_err(|e| match e {
            kamon::SurveyError::Layout(e) => input_error(e),
            kamon::SurveyError::Solver(e) => solver_error(hash_mb, e),
            kamon::SurveyError::Search(e) => search_error(e),
        })?;
        file.add(seed, after, entry);
    }
    py.import("json")?.call_method1("loads", (file.to_text(),))
}

/// A Kamon survey file (`kamisado kamon survey --out`, `data/kamon-survey.json`), read
/// and checked by the analysis library's one definition of it (its format, every
/// entry in its place and consistent), as plain Python objects: `format`,
/// `description`, `runs` (each `seed`, `after`, `summary` and `entries`).
#[pyfunction]
pub fn kamon_survey_file(py: Python<'_>, path: std::path::PathBuf) -> PyResult<Bound<'_, PyAny>> {
    let shown = path.display().to_string();
    let bytes = kamisado_files::read(&path, limits::MAX_TEXT_BYTES, "a survey file")
        .map_err(|e| input_error(format!("{shown}: {e}")))?;
    let text =
        String::from_utf8(bytes).map_err(|_| input_error(format!("{shown}: not UTF-8 text")))?;
    let file = kamisado_analysis::SurveyFile::parse(&text, &shown).map_err(input_error)?;
    to_python(py, &file)
}
