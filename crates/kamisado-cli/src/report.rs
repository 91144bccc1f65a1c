//! Every command builds one report and prints it once: as JSON for scripts (`--json`), as
//! text for people. The text is rendered from the same value the JSON is, beside the
//! report's type, so the two can never disagree on a field.

use serde::Serialize;

/// What a command found, ready to print either way.
pub trait Report: Serialize {
    /// The report for people; `colour` says whether boards may be painted.
    fn text(&self, colour: bool) -> String;
}

/// Prints `report` to standard output: pretty JSON, or its text.
pub fn print(report: &impl Report, json: bool, colour: bool) {
    if json {
        println!("{}", crate::output::json(report));
    } else {
        print!("{}", report.text(colour));
    }
}
