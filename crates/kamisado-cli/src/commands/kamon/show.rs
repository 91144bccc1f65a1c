//! `kamisado kamon show`: a position drawn as the hexagonal board.

use kamon_core::Record;
use serde::Serialize;

use super::{board, input, ShowArgs};
use crate::failure::Result;
use crate::render::use_colour;
use crate::report::{self, Report};

#[derive(Serialize)]
struct ShowReport {
    layout: String,
    moves: Vec<String>,
    to_move: &'static str,
    /// The chip on top of the stack (`--` before the first placement).
    top: String,
    legal: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    winner: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'static str>,
    #[serde(skip)]
    record: Record,
}

impl Report for ShowReport {
    fn text(&self, colour: bool) -> String {
        let mut out = board::board(&self.record, colour);
        out.push_str(board::legend(colour));
        out.push('\n');
        out.push_str(&format!("{}\n", self.record));
        out.push_str(&board::status(&self.record));
        out.push('\n');
        out
    }
}

pub fn run(args: ShowArgs) -> Result<()> {
    let record = input::record(&args.position)?;
    let (layout, pos) = (record.layout(), *record.position());
    let end = pos.end();
    let report = ShowReport {
        layout: layout.to_string(),
        moves: input::cells_text(record.moves()),
        to_move: pos.turn().name(),
        top: pos.top_chip(layout).to_string(),
        legal: pos.legal_cells(layout).map(|c| c.to_string()).collect(),
        winner: end.map(|e| e.winner.map_or("draw", |w| w.name())),
        reason: end.map(|e| e.reason.name()),
        record,
    };
    report::print(&report, args.json, use_colour(args.no_color));
    Ok(())
}
