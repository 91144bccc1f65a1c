//! `kamisado openings`: every first move of the single round's start, solved.

use std::time::Instant;

use kamisado_analysis::{OpeningTable, SearchStats};
use kamisado_core::Position;
use kamisado_db::Solved;
use kamisado_solver::{Analysis, Cancel, Value};
use serde::Serialize;

use crate::args::OpeningsArgs;
use crate::failure::{Failure, Result};
use crate::input;
use crate::output::{check_output, progress, write_atomically, OutputKind};
use crate::report::{self, Report};

#[derive(Serialize)]
struct TableReport<'a> {
    #[serde(flatten)]
    table: &'a OpeningTable,
    written_to: String,
    stats: SearchStats,
    #[serde(skip_serializing_if = "Option::is_none")]
    db: Option<super::db::Written>,
}

impl Report for TableReport<'_> {
    fn text(&self, _colour: bool) -> String {
        let table = self.table;
        let mut out = format!(
            "{:<8} {:<6} {:>10}  perfect line\n",
            "move", "value", "remoteness"
        );
        for m in &table.moves {
            out.push_str(&format!(
                "{:<8} {:<6} {:>10}  {}\n",
                m.mv,
                m.value,
                m.remoteness,
                m.pv.join(" ")
            ));
        }
        out.push('\n');
        out.push_str(&format!(
            "start: {} for {} in {} moves; best: {}\n",
            table.value,
            table.to_move,
            table.remoteness,
            table.best.join(" ")
        ));
        out.push_str(&format!("wrote {}\n", self.written_to));
        out.push_str(&format!("searched {}\n", self.stats.line()));
        if let Some(written) = &self.db {
            out.push_str(&format!("{}\n", written.line()));
        }
        out
    }
}

/// The positions an analysis knows exactly: the start and every position along each
/// move's perfect line.
fn solved_positions(pos: &Position, analysis: &Analysis<kamisado_core::Move>) -> Vec<Solved> {
    let s = &analysis.solution;
    let mut solved = Solved::along_line(pos, s.outcome, &s.pv);
    for m in &analysis.moves {
        let mut line = Solved::along_line(pos, m.outcome, &m.pv);
        // The first entry is the start with this move as its best, which it is not
        // unless the move is best: keep only the positions after the move.
        if !line.is_empty() {
            line.remove(0);
        }
        solved.extend(line);
    }
    solved
}

/// `--values-only`: who wins after each move, nothing written.
#[derive(Serialize)]
struct ValueTable {
    position: String,
    to_move: &'static str,
    value: &'static str,
    /// The moves that win, for the player making them.
    winning: Vec<String>,
    moves: Vec<MoveValue>,
    stats: SearchStats,
}

impl Report for ValueTable {
    fn text(&self, _colour: bool) -> String {
        let mut out = String::new();
        for m in &self.moves {
            out.push_str(&format!("{:<8} {}\n", m.mv, m.value));
        }
        out.push('\n');
        out.push_str(&format!(
            "start: {} for {}; {} of {} moves win: {}\n",
            self.value,
            self.to_move,
            self.winning.len(),
            self.moves.len(),
            self.winning.join(" ")
        ));
        out.push_str(&format!("searched {}\n", self.stats.line()));
        out
    }
}

#[derive(Serialize)]
struct MoveValue {
    #[serde(rename = "move")]
    mv: String,
    /// For the player making the move.
    value: &'static str,
}

fn values_only(pos: &Position, args: &OpeningsArgs) -> Result<()> {
    let solver = input::solver(&args.search)?;
    let started = Instant::now();
    let values = solver
        .move_values(pos, &Cancel::new())
        .map_err(Failure::internal)?;
    let stats = SearchStats::collect(&solver, started);
    let moves: Vec<MoveValue> = values
        .iter()
        .map(|(m, v)| MoveValue {
            mv: m.to_string(),
            value: v.name(),
        })
        .collect();
    let winning: Vec<String> = values
        .iter()
        .filter(|(_, v)| *v == Value::Win)
        .map(|(m, _)| m.to_string())
        .collect();
    let report = ValueTable {
        position: pos.to_string(),
        to_move: pos.turn().name(),
        value: if winning.is_empty() {
            Value::Loss
        } else {
            Value::Win
        }
        .name(),
        winning,
        moves,
        stats,
    };
    report::print(&report, args.output.json, false);
    Ok(())
}

pub fn run(args: OpeningsArgs) -> Result<()> {
    let pos = Position::start();
    if args.values_only {
        return values_only(&pos, &args);
    }
    if let Some(dir) = &args.certify {
        return super::prove::certify_openings(dir, &args.search, &args.output);
    }
    check_output(&args.out, OutputKind::Text)?;
    super::db::check_target(args.db.path())?;
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
    let mut stats = SearchStats::collect(&solver, started);
    let table = OpeningTable::of(&pos, &analysis);
    write_atomically(&args.out, table.to_text().as_bytes())?;
    let written = super::db::write_if_asked(
        args.db.path(),
        &solver,
        || solved_positions(&pos, &analysis),
        "openings: every first move from the start",
        args.output.quiet || args.output.json,
        &mut stats,
    )?;
    let report = TableReport {
        table: &table,
        written_to: args.out.display().to_string(),
        stats,
        db: written,
    };
    report::print(&report, args.output.json, false);
    Ok(())
}
