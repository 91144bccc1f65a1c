//! Turning what the user typed into positions and solver settings.

use kamisado_core::notation::play_line;
use kamisado_core::Kamisado;
use kamisado_core::{Position, Setup};
use kamisado_solver::{Options, SolveError, Solver};

use crate::args::{PositionArgs, SearchArgs};
use crate::failure::{Failure, Result};

/// The position the arguments describe, and the moves played to reach it.
pub fn position(args: &PositionArgs) -> Result<Position> {
    let base = match &args.position {
        None => Position::start(),
        Some(text) => {
            let setup: Setup = text
                .parse()
                .map_err(|e| Failure::input(format!("--position: {e}")))?;
            Position::from_setup(setup)
                .map_err(|e| Failure::input(format!("--position: not a legal position: {e}")))?
        }
    };
    match &args.moves {
        None => Ok(base),
        Some(moves) => play_line(&base, moves)
            .map(|line| line.end)
            .map_err(|e| Failure::input(format!("--moves: {e}"))),
    }
}

/// A solver as the search arguments ask; a table too big for this machine is the user's
/// to change (exit code 2).
pub fn solver(args: &SearchArgs) -> Result<Solver<Kamisado>> {
    Solver::new(Kamisado, solver_options(args)).map_err(|e| match e {
        SolveError::Memory(_) => Failure::input(format!("--hash-mb {}: {e}", args.hash_mb)),
        e => Failure::internal(e),
    })
}

/// The perfect player's source of answers: the database at `db` (`--db`), or with no
/// `--db` the opening book `data/book.kdb` if there is one, or none with `--db none`;
/// then a solver as the search arguments ask.
pub fn oracle(db: Option<&std::path::Path>, search: &SearchArgs) -> Result<kamisado_db::Oracle> {
    let book = std::path::Path::new(crate::commands::book::DEFAULT_BOOK);
    let db = match db {
        Some(path) if path.as_os_str() == "none" => None,
        Some(path) => Some(crate::commands::db::open(path)?),
        None if book.is_file() => Some(crate::commands::db::open(book)?),
        None => None,
    };
    Ok(kamisado_db::Oracle::new(db, solver(search)?))
}

fn solver_options(args: &SearchArgs) -> Options {
    let mut options = Options {
        table_bytes: (args.hash_mb as usize) << 20,
        ..Options::default()
    };
    if let Some(threads) = args.threads {
        options.threads = threads as usize;
    }
    options
}
