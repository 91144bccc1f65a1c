//! Turning what the user typed into positions and solver settings.
//!
//! Every position is a match position: a single round is a match to one point, and its
//! text is the single round's. Moves are read as a match record, so that `left` and
//! `right` start the next round of a match.

use kamisado_analysis::{limits, Line, Oracle, Rounds};
use kamisado_core::Kamisado;
use kamisado_match::MatchPosition;
use kamisado_solver::{Options, SolveError, Solver};

use crate::args::{PositionArgs, SearchArgs};
use crate::failure::{Failure, Result};

pub use kamisado_analysis::limits::MAX_TEXT_BYTES;

/// The bytes of the input file at `path` (`what` names its kind: "a games file"): a
/// regular file only, and at most [`MAX_TEXT_BYTES`], both checked before anything is
/// read (see `kamisado_files`); every error names the file.
pub fn read_file(path: &std::path::Path, what: &'static str) -> Result<Vec<u8>> {
    kamisado_files::read(path, MAX_TEXT_BYTES, what)
        .map_err(|e| Failure::input(format!("{}: {e}", path.display())))
}

/// [`read_file`] as text (see [`text_of`]).
pub fn read_text(path: &std::path::Path, what: &'static str) -> Result<String> {
    text_of(read_file(path, what)?, &path.display().to_string())
}

/// Standard input as text, at most [`MAX_TEXT_BYTES`] (see [`text_of`]).
pub fn read_stdin_text() -> Result<String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::io::stdin()
        .take(MAX_TEXT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Failure::input(format!("standard input: cannot read: {e}")))?;
    if bytes.len() as u64 > MAX_TEXT_BYTES {
        return Err(Failure::input(format!(
            "standard input: more than the {MAX_TEXT_BYTES} bytes a text input may have here"
        )));
    }
    text_of(bytes, "standard input")
}

/// `bytes` as UTF-8 text, without the byte-order mark an editor may put first; text that
/// is not UTF-8 is refused with the line (1-based) where it stops being so. `shown`
/// names the input in the message.
pub fn text_of(mut bytes: Vec<u8>, shown: &str) -> Result<String> {
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        bytes.drain(..3);
    }
    String::from_utf8(bytes).map_err(|e| {
        let good = e.utf8_error().valid_up_to();
        let line = 1 + e.as_bytes()[..good].iter().filter(|&&b| b == b'\n').count();
        Failure::input(format!("{shown}: line {line} is not UTF-8 text"))
    })
}

/// The line the arguments describe (read by the analysis library, as the board reads
/// its requests): the position text, or the start of a match to `--target` points (a
/// single round by default), and the record `--moves` plays from it.
fn line(args: &PositionArgs) -> Result<Line> {
    Line::read(args.position.as_deref(), args.moves.as_deref(), args.target).map_err(Failure::input)
}

/// The position the arguments describe: the start, or where `--moves` lead from it (the
/// zero-length moves after the last move played). Without `--moves` the position is the
/// one given, pending zero-length moves and all.
pub fn position(args: &PositionArgs) -> Result<MatchPosition> {
    Ok(line(args)?.given)
}

/// The position `--position`/`--moves` give, for a command that knows single rounds
/// only (a round of a match without Sumos is one; with a Sumo on the board it is refused).
pub fn single_round(args: &PositionArgs, command: &str) -> Result<kamisado_core::Position> {
    position(args)?.single_round().ok_or_else(|| {
        Failure::input(format!(
            "--position: `{command}` works on single rounds (no Sumo on the board); this position has a Sumo"
        ))
    })
}

/// A single-round solver as the search arguments ask; a table too big for this machine
/// is the user's to change (exit code 2).
pub fn solver(args: &SearchArgs) -> Result<Solver<Kamisado>> {
    Solver::new(Kamisado, solver_options(args)).map_err(|e| solve_error(args, e))
}

/// The perfect player's source of answers: the database at `db` (`--db`), or with no
/// `--db` the opening book `data/book.kdb` if there is one, or none with `--db none`
/// (see [`limits::database`]); then solvers sharing the `--hash-mb` budget as `rounds`
/// needs (see [`Rounds`]).
pub fn oracle(db: Option<&std::path::Path>, search: &SearchArgs, rounds: Rounds) -> Result<Oracle> {
    let db = limits::database(db).map_err(Failure::input)?;
    Oracle::with_budget(db, solver_options(search), rounds).map_err(|e| solve_error(search, e))
}

/// A solver's failure to start: a table too big for this machine is the user's to
/// change (exit code 2).
pub fn solve_error(args: &SearchArgs, e: SolveError) -> Failure {
    match limits::table_too_big("--hash-mb", args.hash_mb(), e) {
        Ok(message) => Failure::input(message),
        Err(e) => Failure::internal(e),
    }
}

/// The solvers' options the search arguments ask for.
pub fn solver_options(args: &SearchArgs) -> Options {
    let mut options = Options {
        table_bytes: (args.hash_mb() as usize) << 20,
        ..Options::default()
    };
    if let Some(threads) = args.threads {
        options.threads = threads as usize;
    }
    options
}
