//! Database files and the opening book, opened from Python.

use std::path::{Path, PathBuf};

use kamisado_db::Database as File;
use pyo3::prelude::*;

use crate::errors::input_error;

/// The opening book the repository ships, where the command line looks for it by
/// default (from the repository's top).
pub use kamisado_analysis::limits::BOOK;

/// Opens the database file at `path`, checked (every record of a file up to 16 MiB, the
/// header and block checksums of a larger one); a bad file is bad input, named with its
/// path as the command line names it.
pub fn open(path: &Path) -> PyResult<File> {
    File::open(path).map_err(|e| input_error(format!("{}: {e}", path.display())))
}

/// A database file of solved positions, opened and checked: its header's counts, and
/// queries answered from it first.
#[pyclass(module = "kamisado", frozen)]
pub struct Database {
    pub path: PathBuf,
    #[pyo3(get)]
    description: String,
    #[pyo3(get)]
    records: u64,
    #[pyo3(get)]
    wins: u64,
    #[pyo3(get)]
    exact_remoteness: u64,
    #[pyo3(get)]
    best_moves: u64,
    #[pyo3(get)]
    book_plies: Option<u32>,
}

impl Database {
    pub fn of(path: PathBuf) -> PyResult<Database> {
        let file = open(&path)?;
        let h = file.header();
        Ok(Database {
            description: h.description.clone(),
            records: h.records,
            wins: h.wins,
            exact_remoteness: h.exact_remoteness,
            best_moves: h.best_moves,
            book_plies: (h.book_plies > 0).then_some(h.book_plies),
            path,
        })
    }
}

#[pymethods]
impl Database {
    #[new]
    fn new(path: PathBuf) -> PyResult<Database> {
        Database::of(path)
    }

    /// The file's path, as given.
    #[getter]
    fn path(&self) -> PathBuf {
        self.path.clone()
    }

    fn __len__(&self) -> usize {
        self.records as usize
    }

    fn __repr__(&self) -> String {
        format!(
            "kamisado.Database({:?}: {} positions)",
            self.path.display().to_string(),
            self.records
        )
    }

    /// A position and every move, answered from this database first (see
    /// `kamisado.query`).
    #[pyo3(signature = (moves = None, *, position = None, target = None, all_remoteness = false, time_limit = None, threads = None, hash_mb = crate::query::DEFAULT_HASH_MB))]
    #[allow(clippy::too_many_arguments)]
    fn query<'py>(
        &self,
        py: Python<'py>,
        moves: Option<&str>,
        position: Option<&str>,
        target: Option<u32>,
        all_remoteness: bool,
        time_limit: Option<f64>,
        threads: Option<usize>,
        hash_mb: u64,
    ) -> PyResult<Bound<'py, PyAny>> {
        let request = crate::query::Request {
            moves,
            position,
            target,
            db: crate::query::Db::File(self.path.clone()),
            all_remoteness,
            time_limit,
            threads,
            hash_mb,
        };
        crate::query::run(py, request)
    }
}

/// The opening book the repository ships (`data/book.kdb`, from the repository's top):
/// every position of the first moves with its value, remoteness and best move.
#[pyfunction]
pub fn open_book() -> PyResult<Database> {
    Database::of(PathBuf::from(BOOK))
}
