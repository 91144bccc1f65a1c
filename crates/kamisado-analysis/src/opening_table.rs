//! The opening table's file (`data/openings.json`, written by `kamisado openings`): every
//! first move of the single round's start, with its value, remoteness and a perfect line.
//!
//! One definition, read and written by this one type: the command that writes the file,
//! the board that answers from it and the tests that check it.

use kamisado_core::notation::play_line;
use kamisado_core::{Move, Position};
use kamisado_db::Solved;
use kamisado_solver::{Analysis, Outcome, Value};
use serde::{Deserialize, Serialize};

/// The opening table. Deterministic (no timings): a fresh run writes the same file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpeningTable {
    /// The start's position text.
    pub position: String,
    /// The side to move at the start: `black`.
    pub to_move: String,
    /// For the side to move: `win` or `loss`.
    pub value: String,
    /// Moves to the end of the game with perfect play.
    pub remoteness: u32,
    /// The moves that keep the value: fastest win, slowest loss.
    pub best: Vec<String>,
    /// Every first move, in the rules' order.
    pub moves: Vec<OpeningMove>,
}

/// One first move of the opening table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpeningMove {
    #[serde(rename = "move")]
    pub mv: String,
    /// For the player making the move.
    pub value: String,
    /// Moves to the end of the game, counting this one.
    pub remoteness: u32,
    /// A perfect line, starting with the move itself.
    pub pv: Vec<String>,
}

fn texts(moves: &[Move]) -> Vec<String> {
    moves.iter().map(Move::to_string).collect()
}

impl OpeningTable {
    /// The table of `pos` from the solver's analysis of its every move.
    pub fn of(pos: &Position, analysis: &Analysis<Move>) -> OpeningTable {
        OpeningTable {
            position: pos.to_string(),
            to_move: pos.turn().name().to_owned(),
            value: analysis.solution.outcome.value.name().to_owned(),
            remoteness: analysis.solution.outcome.remoteness,
            best: texts(&analysis.solution.best),
            moves: analysis
                .moves
                .iter()
                .map(|m| OpeningMove {
                    mv: m.mv.to_string(),
                    value: m.outcome.value.name().to_owned(),
                    remoteness: m.outcome.remoteness,
                    pv: texts(&m.pv),
                })
                .collect(),
        }
    }

    /// The table from its file's text; else one line saying what is wrong.
    pub fn parse(text: &str) -> Result<OpeningTable, String> {
        serde_json::from_str(text).map_err(|e| format!("not an opening table: {e}"))
    }

    /// The file's text: pretty JSON, ending with a newline.
    pub fn to_text(&self) -> String {
        let json = serde_json::to_string_pretty(self).expect("an opening table serialises");
        format!("{json}\n")
    }

    /// The positions the table knows exactly, checked against the rules as they are read:
    /// the start with its first best move, and every position after an opening move
    /// along its perfect line. Else one line saying what is wrong.
    pub fn solved_positions(&self) -> Result<Vec<Solved>, String> {
        let start: Position = self
            .position
            .parse()
            .map_err(|e| format!("its position: {e}"))?;
        let outcome = |value: &str, remoteness: u32| {
            Value::from_name(value)
                .map(|v| Outcome::new(v, remoteness))
                .ok_or_else(|| format!("`{value}` is not a value"))
        };
        let line = |moves: &str| {
            play_line(&start, moves)
                .map(|l| l.moves)
                .map_err(|e| e.to_string())
        };
        let best = self.best.first().ok_or("it lists no best move")?;
        let mut solved =
            Solved::along_line(&start, outcome(&self.value, self.remoteness)?, &line(best)?);
        solved.truncate(1);
        for opening in &self.moves {
            let pv = line(&opening.pv.join(" "))?;
            if pv.first().map(ToString::to_string).as_deref() != Some(opening.mv.as_str()) {
                return Err(format!("the line of {} does not start with it", opening.mv));
            }
            let along =
                Solved::along_line(&start, outcome(&opening.value, opening.remoteness)?, &pv);
            // The first entry is the start with this move as its best, which it is not
            // unless the move is best: only the positions after the move.
            solved.extend(along.into_iter().skip(1));
        }
        Ok(solved)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kamisado_core::Kamisado;
    use kamisado_solver::{Cancel, Options, Solver};

    /// A late position's table, from the solver, survives its file and knows exactly what
    /// the solver says of every position along its lines.
    #[test]
    fn a_table_reads_back_as_written_and_its_positions_are_the_solvers() {
        let pos = play_line(&Position::start(), "h1-h7 c8-c4 b1-b2 h8-d4 a1-a6 g8-g4")
            .unwrap()
            .end;
        let options = Options {
            threads: 1,
            table_bytes: 8 << 20,
        };
        let solver = Solver::new(Kamisado, options).unwrap();
        let analysis = solver.analyse(&pos, &Cancel::new(), &|| {}).unwrap();
        let table = OpeningTable::of(&pos, &analysis);
        assert_eq!(table.moves.len(), pos.legal_moves().len());
        let text = table.to_text();
        assert!(text.contains("\"move\": "), "{text}");
        assert_eq!(OpeningTable::parse(&text).unwrap(), table);
        let fresh = Solver::new(Kamisado, options).unwrap();
        let solved = table.solved_positions().unwrap();
        assert!(solved.len() > table.moves.len());
        for s in &solved {
            let score = fresh
                .score(&Kamisado::root(&s.position), &Cancel::new())
                .unwrap();
            assert_eq!(
                (score.value(), score.remoteness()),
                (s.outcome.value, Some(s.outcome.remoteness)),
                "{}",
                s.position
            );
        }
        // A damaged table is refused with what is wrong, not a panic.
        let mut damaged = table.clone();
        damaged.moves[0].pv.reverse();
        assert!(damaged.solved_positions().is_err());
        assert!(OpeningTable::parse("{\"position\": 3}")
            .unwrap_err()
            .starts_with("not an opening table: "));
    }
}
