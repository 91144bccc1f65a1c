//! `kamisado`: the command line over the rules core and the solver.
//!
//! This crate parses arguments and prints; every rule lives in `kamisado-core` and every
//! search in `kamisado-solver`.

mod args;
mod commands;
mod failure;
mod input;
mod output;
mod render;
mod report;

use std::process::ExitCode;

use clap::Parser;

use crate::args::{Cli, Command};

fn main() -> ExitCode {
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
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => f.report(),
    }
}
