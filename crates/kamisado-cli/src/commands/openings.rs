use std::time::Instant;

use kamisado_core::Position;
use kamisado_db::Solved;
use kamisado_solver::{Analysis, Cancel};
use serde::Serialize;

use super::solve::{moves_text, SearchStats};
use crate::args::OpeningsArgs;
use crate::failure::{Failure, Result};
use crate::input;
use crate::output::{json, progress, write_atomically};

/// The opening table as written to disk: deterministic, no timings.
#[derive(Serialize)]
pub struct OpeningTable {
    pub position: String,
    pub to_move: &'static str,
    pub value: &'static str,
    pub remoteness: u32,
    pub best: Vec<String>,
    pub moves: Vec<OpeningMove>,
}

#[derive(Serialize)]
pub struct OpeningMove {
    #[serde(rename = "move")]
    pub mv: String,
    /// For the player making the move.
    pub value: &'static str,
    /// Moves to the end of the game, counting this one.
    pub remoteness: u32,
    pub pv: Vec<String>,
}

#[derive(Serialize)]
struct Report<'a> {
    #[serde(flatten)]
    table: &'a OpeningTable,
    written_to: String,
    stats: SearchStats,
    #[serde(skip_serializing_if = "Option::is_none")]
    db: Option<super::db::Written>,
}

pub fn table(pos: &Position, analysis: &Analysis<kamisado_core::Move>) -> OpeningTable {
    OpeningTable {
        position: pos.to_string(),
        to_move: pos.turn().name(),
        value: analysis.solution.value.name(),
        remoteness: analysis.solution.remoteness,
        best: moves_text(&analysis.solution.best),
        moves: analysis
            .moves
            .iter()
            .map(|m| OpeningMove {
                mv: m.mv.to_string(),
                value: m.value.name(),
                remoteness: m.remoteness,
                pv: moves_text(&m.pv),
            })
            .collect(),
    }
}

/// The positions an analysis knows exactly: the start and every position along each
/// move's perfect line.
fn solved_positions(pos: &Position, analysis: &Analysis<kamisado_core::Move>) -> Vec<Solved> {
    let s = &analysis.solution;
    let mut solved = Solved::along_line(pos, s.value, s.remoteness, &s.pv);
    for m in &analysis.moves {
        let mut line = Solved::along_line(pos, m.value, m.remoteness, &m.pv);
        // The first entry is the start with this move as its best, which it is not
        // unless the move is best: keep only the positions after the move.
        if !line.is_empty() {
            line.remove(0);
        }
        solved.extend(line);
    }
    solved
}

pub fn run(args: OpeningsArgs) -> Result<()> {
    let pos = Position::start();
    super::db::check_target(args.db.db.as_deref())?;
    let solver = input::solver(&args.search)?;
    let bar = progress(
        pos.legal_moves().len() as u64,
        args.output.quiet,
        "openings",
    );
    let started = Instant::now();
    let analysis = solver
        .analyse(&pos, &Cancel::new(), &|| bar.inc(1))
        .map_err(Failure::internal)?;
    bar.finish_and_clear();
    let stats = SearchStats::collect(&solver, started);
    let table = table(&pos, &analysis);
    write_atomically(&args.out, format!("{}\n", json(&table)).as_bytes())?;
    let written = match &args.db.db {
        Some(path) => {
            let quiet = args.output.quiet || args.output.json;
            let solved = solved_positions(&pos, &analysis);
            Some(super::db::write(
                path,
                &solver,
                &solved,
                "openings: every first move from the start",
                quiet,
            )?)
        }
        None => None,
    };
    if args.output.json {
        let report = Report {
            table: &table,
            written_to: args.out.display().to_string(),
            stats,
            db: written,
        };
        println!("{}", json(&report));
    } else {
        println!(
            "{:<8} {:<6} {:>10}  perfect line",
            "move", "value", "remoteness"
        );
        for m in &table.moves {
            println!(
                "{:<8} {:<6} {:>10}  {}",
                m.mv,
                m.value,
                m.remoteness,
                m.pv.join(" ")
            );
        }
        println!();
        println!(
            "start: {} for {} in {} moves; best: {}",
            table.value,
            table.to_move,
            table.remoteness,
            table.best.join(" ")
        );
        println!("wrote {}", args.out.display());
        println!("searched {}", stats.line());
        if let Some(written) = &written {
            println!("{}", written.line());
        }
    }
    Ok(())
}
