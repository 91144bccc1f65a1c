//! The Python package `kamisado`: the analysis library's answers as plain Python objects.
//!
//! A thin layer: every answer is the library's (`kamisado-analysis`), every report the
//! library's serde type serialized by `serde_json` and read back by Python's `json`
//! module, so a result has exactly the fields and values of the command line's `--json`
//! (one serializer for both), and every error the library's one-line message. Long
//! searches run without the GIL and stop on Ctrl-C or a time limit ([`search`]).
//!
//! Built by maturin (`pyproject.toml` beside this crate); `kamisado.pyi` holds the type
//! hints and the docstrings readers see in an editor.

use pyo3::prelude::*;
use pyo3::types::PyModule;
use serde::Serialize;

mod database;
mod errors;
mod kamon;
mod query;
mod search;

use errors::{Error, InputError, SearchError, TimeLimitError};

/// `value` as a plain Python object (dicts, lists, strings, numbers, `None`): its JSON,
/// the text the command line's `--json` prints, read by Python's `json` module. JSON and
/// not a direct conversion, so that Python sees exactly what a script reading the
/// command line's output sees (field names, `null`s, numbers), from one serializer.
fn to_python<'py>(py: Python<'py>, value: &impl Serialize) -> PyResult<Bound<'py, PyAny>> {
    let text = serde_json::to_string(value).map_err(errors::search_error)?;
    py.import("json")?.call_method1("loads", (text,))
}

/// The analysis library for Kamisado, its match play and Kamon, from Python.
#[pymodule]
#[pyo3(name = "kamisado")]
fn kamisado_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("Error", py.get_type::<Error>())?;
    m.add("InputError", py.get_type::<InputError>())?;
    m.add("SearchError", py.get_type::<SearchError>())?;
    m.add("TimeLimitError", py.get_type::<TimeLimitError>())?;
    m.add_function(wrap_pyfunction!(query::query, m)?)?;
    m.add_function(wrap_pyfunction!(query::solve, m)?)?;
    m.add_class::<database::Database>()?;
    m.add_function(wrap_pyfunction!(database::open_book, m)?)?;
    m.add_function(wrap_pyfunction!(kamon::kamon_random, m)?)?;
    m.add_function(wrap_pyfunction!(kamon::kamon_solve, m)?)?;
    m.add_function(wrap_pyfunction!(kamon::kamon_query, m)?)?;
    m.add_function(wrap_pyfunction!(kamon::kamon_survey, m)?)?;
    m.add_function(wrap_pyfunction!(kamon::kamon_survey_file, m)?)?;
    Ok(())
}
