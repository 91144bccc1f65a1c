//! One line on standard error and an exit code: 2 for anything the user gave us that is
//! wrong (arguments, positions, moves, files), 1 for anything else.

use std::fmt::Display;
use std::process::ExitCode;

#[derive(Debug)]
pub struct Failure {
    code: u8,
    message: String,
}

pub type Result<T> = std::result::Result<T, Failure>;

impl Failure {
    /// Bad input: exit code 2.
    pub fn input(message: impl Display) -> Failure {
        Failure {
            code: 2,
            message: message.to_string(),
        }
    }

    /// Something went wrong that the input did not cause: exit code 1.
    pub fn internal(message: impl Display) -> Failure {
        Failure {
            code: 1,
            message: message.to_string(),
        }
    }

    /// The oracle's failure: a database that fails a check is the user's file, bad input
    /// (exit code 2, the message names it); anything else is exit code 1.
    pub fn oracle(e: kamisado_analysis::OracleError) -> Failure {
        match e {
            kamisado_analysis::OracleError::Database(_) => Failure::input(e),
            e => Failure::internal(e),
        }
    }

    pub fn report(&self) -> ExitCode {
        eprintln!("error: {}", printable(&self.message));
        ExitCode::from(self.code)
    }
}

pub use kamisado_core::printable;

/// clap's message with each value it quotes in single quotes cut short and escaped.
fn quote_values(message: &str) -> String {
    message
        .split('\'')
        .enumerate()
        .map(|(i, part)| {
            if i % 2 == 1 {
                kamisado_core::quote(part).to_string()
            } else {
                printable(part)
            }
        })
        .collect::<Vec<_>>()
        .join("'")
}

/// clap's errors, squeezed to one line, except help and version, which are the
/// output asked for.
pub fn clap_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = e.print();
            ExitCode::SUCCESS
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = e.print();
            ExitCode::from(2)
        }
        _ => {
            // clap's first line says what is wrong; when it ends in a colon, the lines after
            // it (up to the usage) name the arguments concerned.
            let text = e.render().to_string();
            let mut lines = text
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more"));
            let mut message = lines
                .next()
                .unwrap_or("invalid arguments")
                .trim_start_matches("error: ")
                .to_owned();
            let rest: Vec<&str> = lines.collect();
            if message.ends_with(':') {
                message.push(' ');
                message.push_str(&rest.join(", "));
            } else {
                // What clap adds that helps: the values an argument takes, and its tips
                // ("a similar argument exists").
                for line in rest {
                    if line.starts_with("[possible values") {
                        message.push(' ');
                        message.push_str(line);
                    } else if line.starts_with("tip:") {
                        message.push_str("; ");
                        message.push_str(line);
                    }
                }
            }
            eprintln!("error: {} (see --help)", quote_values(&message));
            ExitCode::from(2)
        }
    }
}
