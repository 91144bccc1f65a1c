//! The shipped opening table (`data/openings.json`) as a small database in memory.
//!
//! Solving the start with every move's remoteness is the whole opening table: about 20 s
//! on two cores, too long for the first page a visitor opens. The table is the project's
//! main result, checked by the tests against a fresh computation, so the server compiles
//! it in and, when no `--db` is given, answers from it: the start, every position after an
//! opening move, and every position on the table's perfect lines, each with its value,
//! remoteness and best move. Everything else is searched as usual.

use kamisado_analysis::OpeningTable;
use kamisado_db::{collect, encode, Database, Solved};
use kamisado_solver::Solver;

const OPENINGS_JSON: &str = include_str!("../../../../data/openings.json");

/// The positions the built-in table knows exactly (see [`OpeningTable::solved_positions`]).
fn solved_positions() -> Result<Vec<Solved>, String> {
    OpeningTable::parse(OPENINGS_JSON)
        .and_then(|table| table.solved_positions())
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
    use kamisado_core::Position;
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
        let table = OpeningTable::parse(OPENINGS_JSON).unwrap();
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
