//! `kamisado show`: a position, its board and text, and where a match stands.

use kamisado_match::MatchPosition;
use serde::Serialize;

use crate::args::ShowArgs;
use crate::failure::Result;
use crate::report::{self, Report};
use crate::{input, render};
use kamisado_analysis::Standing;

#[derive(Serialize)]
struct ShowReport {
    position: String,
    to_move: &'static str,
    active: Option<&'static str>,
    legal_moves: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    winner: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'static str>,
    /// The zero-length moves pending in the position (its active tower is blocked),
    /// which every command plays first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    zero_length_moves: Vec<String>,
    /// The position after them.
    #[serde(skip_serializing_if = "Option::is_none")]
    then: Option<String>,
    /// In a match (a target above one point): where it stands.
    #[serde(flatten)]
    standing: Option<Standing>,
    /// The position itself, for the board the text draws.
    #[serde(skip)]
    pos: MatchPosition,
}

impl Report for ShowReport {
    fn text(&self, colour: bool) -> String {
        let pos = &self.pos;
        let mut out = render::board(pos, colour);
        out.push_str(&format!("{}\n{}\n", self.position, render::status(pos)));
        // The position's active tower is blocked: say what happens before anything else.
        let mut walk = *pos;
        for m in pos.pending_zero_moves() {
            out.push_str(&format!(
                "pending zero-length move {m}: the {} tower on {} is blocked\n",
                walk.active().map_or("active", |c| c.name()),
                m.from()
            ));
            walk = walk.step_zero_length(m);
        }
        if let Some(then) = &self.then {
            out.push_str(&format!(
                "then {then}: {}\n",
                render::status(&pos.resolve())
            ));
        }
        out
    }
}

pub fn run(args: ShowArgs) -> Result<()> {
    let pos = input::position(&args.position)?;
    let pending_moves = pos.pending_zero_moves();
    let then = (!pending_moves.is_empty()).then(|| pos.resolve());
    let end = pos.round_end();
    let report = ShowReport {
        position: pos.to_string(),
        to_move: pos.turn().name(),
        active: pos.active().map(|c| c.name()),
        legal_moves: pos.legal_moves().iter().map(|m| m.to_string()).collect(),
        winner: end.map(|e| e.winner.name()),
        reason: end.map(|e| e.reason.name()),
        zero_length_moves: pending_moves.iter().map(|m| m.to_string()).collect(),
        then: then.map(|p| p.to_string()),
        standing: Standing::of(&pos),
        pos,
    };
    let colour = render::use_colour(args.output.no_color);
    report::print(&report, args.output.json, colour);
    Ok(())
}
