use serde::Serialize;

use crate::args::ShowArgs;
use crate::failure::Result;
use crate::output::json;
use crate::{input, render};

#[derive(Serialize)]
struct Report {
    position: String,
    to_move: &'static str,
    active: Option<&'static str>,
    legal_moves: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    winner: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'static str>,
}

pub fn run(args: ShowArgs) -> Result<()> {
    let pos = input::position(&args.position)?;
    if args.output.json {
        let report = Report {
            position: pos.to_string(),
            to_move: pos.turn().name(),
            active: pos.active().map(|c| c.name()),
            legal_moves: pos.legal_moves().iter().map(|m| m.to_string()).collect(),
            winner: pos.end().map(|e| e.winner.name()),
            reason: pos.end().map(|e| e.reason.name()),
        };
        println!("{}", json(&report));
    } else {
        print!(
            "{}",
            render::board(&pos, render::use_colour(args.output.no_color))
        );
        println!("{}", pos);
        println!("{}", render::status(&pos));
    }
    Ok(())
}
