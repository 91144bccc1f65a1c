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

    pub fn report(&self) -> ExitCode {
        eprintln!("error: {}", self.message);
        ExitCode::from(self.code)
    }
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
            let text = e.render().to_string();
            let first = text
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("invalid arguments")
                .trim_start_matches("error: ");
            eprintln!("error: {first} (see --help)");
            ExitCode::from(2)
        }
    }
}
