//! The package's exceptions: `kamisado.Error` and its kinds, carrying the command line's
//! one-line messages (what `kamisado` prints after `error: `).

use std::fmt::Display;

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::PyErr;

create_exception!(
    kamisado,
    Error,
    PyException,
    "Every error this package raises; its message is the command line's one line."
);
create_exception!(
    kamisado,
    InputError,
    Error,
    "Bad input: a position, a move, a layout, a file or an argument (where the command line exits with code 2)."
);
create_exception!(
    kamisado,
    SearchError,
    Error,
    "A search that failed for a reason other than its input (where the command line exits with code 1)."
);

create_exception!(
    kamisado,
    TimeLimitError,
    SearchError,
    "A search with no answer within its time limit (a search that has a partial answer returns it instead)."
);

/// Bad input, said in one line.
pub fn input_error(message: impl Display) -> PyErr {
    InputError::new_err(message.to_string())
}

/// Any other failure, said in one line.
pub fn search_error(message: impl Display) -> PyErr {
    SearchError::new_err(message.to_string())
}
