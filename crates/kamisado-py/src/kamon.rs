//! Kamon from Python: layouts, and (from the analysis library) a layout solved.

use kamon_core::Record;
use pyo3::prelude::*;

use crate::errors::input_error;

/// The layout of `seed` (`kamisado kamon random --seed SEED`) and its `after` random
/// placements (`--after`): the layout's text and the cells placed, in order.
#[pyfunction]
#[pyo3(signature = (seed, after = 0))]
pub fn kamon_random(seed: u64, after: u32) -> PyResult<(String, Vec<String>)> {
    let record = Record::random(seed, after).ok_or_else(|| {
        input_error(format!(
            "seed {seed}: no random game reaches {after} placements without ending (1000 attempts)"
        ))
    })?;
    let cells = record.moves().iter().map(|c| c.to_string()).collect();
    Ok((record.layout().to_string(), cells))
}
