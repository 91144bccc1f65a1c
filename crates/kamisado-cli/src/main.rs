//! `kamisado`: the command line over the rules core and the solver.
//!
//! This crate parses arguments and prints; every rule lives in `kamisado-core` and every
//! search in `kamisado-solver`.

// Every print of the crate goes through `output`: `println!` panics when standard output
// is closed (`kamisado ... | head -1`), and the release build aborts on a panic (exit 134
// and a backtrace). These definitions come before the modules, so they shadow the
// standard macros everywhere in the crate. SIGPIPE stays ignored (Rust's default) rather
// than reset to kill the process the way C programs die: the referee writes to engines'
// pipes, and an engine that exits must not kill the referee.
macro_rules! print {
    ($($arg:tt)*) => {
        $crate::output::print_out(format_args!($($arg)*))
    };
}
macro_rules! println {
    () => {
        $crate::output::print_out(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::output::print_out(format_args!("{}\n", format_args!($($arg)*)))
    };
}
macro_rules! eprintln {
    ($($arg:tt)*) => {
        $crate::output::print_err(format_args!("{}\n", format_args!($($arg)*)))
    };
}

mod analysis;
mod args;
mod commands;
mod failure;
mod input;
mod output;
mod render;
mod report;
mod serve;
mod shutdown;

use std::process::ExitCode;

use clap::Parser;

use crate::args::{Cli, Command};

fn main() -> ExitCode {
    shutdown::handle_interrupts();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return failure::clap_error(e),
    };
    let result = match cli.command {
        Command::Perft(a) => commands::perft::run(a),
        Command::Solve(a) => commands::solve::run(a),
        Command::Openings(a) => commands::openings::run(a),
        Command::Show(a) => commands::show::run(a),
        Command::Db(a) => commands::db::run(a),
        Command::Query(a) => commands::query::run(a),
        Command::Play(a) => commands::play::run(a),
        Command::Verify(a) => commands::verify::run(a),
        Command::Engine(a) => commands::engine::run(a),
        Command::Match(a) => commands::match_engine::run(a),
        Command::Prove(a) => commands::prove::run(a),
        Command::Certificate(a) => commands::certificate::run(a),
        Command::Book(a) => commands::book::run(a),
        Command::Serve(a) => commands::serve::run(a),
        Command::Kamon(a) => commands::kamon::run(a),
        Command::WholeMatch(a) => commands::whole_match::run(a),
    };
    let code = match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => f.report(),
    };
    shutdown::exit_if_interrupted();
    code
}
