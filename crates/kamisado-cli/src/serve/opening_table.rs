//! The shipped opening table (`data/openings.json`) as a small database in memory.
//!
//! Solving the start with every move's remoteness is the whole opening table: about 20 s
//! on two cores, too long for the first page a visitor opens. The table is the project's
//! main result, checked by the tests against a fresh computation, so the server compiles
//! it in and, when no `--db` is given, answers from it: the start, every position after an
//! opening move, and every position on the table's perfect lines, each with its value,
//! remoteness and best move. Everything else is searched as usual.

use kamisado_core::notation::play_line;
use kamisado_core::Position;
use kamisado_db::{collect, encode, Database, Solved};
use kamisado_solver::{Outcome, Solver, Value};
use serde::Deserialize;

const OPENINGS_JSON: &str = include_str!("../../../../data/openings.json");

#[derive(Deserialize)]
struct Table {
    position: String,
    value: String,
    remoteness: u32,
    best: Vec<String>,
    moves: Vec<Opening>,
}

#[derive(Deserialize)]
struct Opening {
    #[serde(rename = "move")]
    mv: String,
    value: String,
    remoteness: u32,
    /// Starts with the move itself.
    pv: Vec<String>,
}

/// The positions the table knows exactly. The start comes with its first best move; each
/// opening contributes the positions after it along its perfect line.
fn solved_positions() -> Result<Vec<Solved>, String> {
    let table: Table = serde_json::from_str(OPENINGS_JSON)
        .map_err(|e| format!("the built-in opening table is not readable: {e}"))?;
    let start: Position = table
        .position
        .parse()
        .map_err(|e| format!("the built-in opening table's position: {e}"))?;
    let outcome = |value: &str, remoteness: u32| {
        Value::from_name(value)
            .map(|v| Outcome::new(v, remoteness))
            .ok_or_else(|| format!("the built-in opening table: `{value}` is not a value"))
    };
    let best = table
        .best
        .first()
        .ok_or("the built-in opening table lists no best move")?;
    let mut solved = Solved::along_line(
        &start,
        outcome(&table.value, table.remoteness)?,
        &line(&start, best)?,
    );
    solved.truncate(1);
    for opening in &table.moves {
        let pv = line(&start, &opening.pv.join(" "))?;
        if pv.first().map(ToString::to_string).as_deref() != Some(opening.mv.as_str()) {
            return Err(format!(
                "the built-in opening table: the line of {} does not start with it",
                opening.mv
            ));
        }
        let along = Solved::along_line(&start, outcome(&opening.value, opening.remoteness)?, &pv);
        // The first entry is the start with this move as its best, which it is not unless
        // the move is best: only the positions after the move.
        solved.extend(along.into_iter().skip(1));
    }
    Ok(solved)
}

fn line(start: &Position, moves: &str) -> Result<Vec<kamisado_core::Move>, String> {
    play_line(start, moves)
        .map(|l| l.moves)
        .map_err(|e| format!("the built-in opening table: {e}"))
}

/// The opening table as a database. `solver` is only read: a fresh solver's table is
/// empty and adds nothing.
pub fn database(solver: &Solver<kamisado_core::Kamisado>) -> Result<Database, String> {
    let records = collect(solver, &solved_positions()?);
    let bytes = encode(
        &records,
        "the opening table built into kamisado (data/openings.json)",
    )
    .map_err(|e| e.to_string())?;
    Database::from_bytes(bytes).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use kamisado_solver::Options;

    /// Every opening move's result, read back through the database, is the table's.
    #[test]
    fn the_database_answers_every_opening_as_the_table_says() {
        let solver = Solver::new(
            kamisado_core::Kamisado,
            Options {
                threads: 1,
                table_bytes: 1 << 20,
            },
        )
        .unwrap();
        let db = database(&solver).unwrap();
        let table: Table = serde_json::from_str(OPENINGS_JSON).unwrap();
        let start = Position::start();
        assert_eq!(table.moves.len(), start.legal_moves().len());
        for opening in &table.moves {
            let child = start.play(opening.mv.parse().unwrap()).unwrap();
            let stored = db.lookup(&child).unwrap().unwrap();
            // Black moved; the record is for the side to move after it.
            let for_mover = if child.turn() == start.turn() {
                stored.value
            } else {
                stored.value.flip()
            };
            assert_eq!(for_mover.name(), opening.value, "{}", opening.mv);
            assert_eq!(
                stored.remoteness,
                Some(opening.remoteness - 1),
                "{}",
                opening.mv
            );
        }
        let at_start = db.lookup(&start).unwrap().unwrap();
        assert_eq!(
            (at_start.value.name(), at_start.remoteness),
            (table.value.as_str(), Some(table.remoteness))
        );
    }
}
