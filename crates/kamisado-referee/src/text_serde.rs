//! Serialising rules types (moves, sides, positions) as the text people and
//! programs read everywhere else in the project: `a1-a5`, `black`, `win`, position text.

use std::fmt::Display;

use serde::Serializer;

pub fn display<T: Display, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(value)
}

pub fn display_option<T: Display, S: Serializer>(
    value: &Option<T>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match value {
        Some(v) => s.collect_str(v),
        None => s.serialize_none(),
    }
}

pub fn display_all<T: Display, S: Serializer>(values: &[T], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(values.iter().map(ToString::to_string))
}
