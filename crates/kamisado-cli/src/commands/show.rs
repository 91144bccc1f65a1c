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
    /// The zero-length moves pending in the position (its active tower is blocked),
    /// which every command plays first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    zero_length_moves: Vec<String>,
    /// The position after them.
    #[serde(skip_serializing_if = "Option::is_none")]
    then: Option<String>,
}

pub fn run(args: ShowArgs) -> Result<()> {
    let pos = input::position(&args.position)?;
    let pending = pos.pending_zero_moves();
    if args.output.json {
        let report = Report {
            position: pos.to_string(),
            to_move: pos.turn().name(),
            active: pos.active().map(|c| c.name()),
            legal_moves: pos.legal_moves().iter().map(|m| m.to_string()).collect(),
            winner: pos.end().map(|e| e.winner.name()),
            reason: pos.end().map(|e| e.reason.name()),
            zero_length_moves: pending.iter().map(|m| m.to_string()).collect(),
            then: (!pending.is_empty()).then(|| pos.resolve().to_string()),
        };
        println!("{}", json(&report));
    } else {
        print!(
            "{}",
            render::board(&pos, render::use_colour(args.output.no_color))
        );
        println!("{}", pos);
        println!("{}", render::status(&pos));
        // The position's active tower is blocked: say what happens before anything else.
        let mut p = pos;
        for m in &pending {
            println!(
                "pending zero-length move {m}: the {} tower on {} is blocked",
                p.active().map_or("active", |c| c.name()),
                m.from()
            );
            p = p.step_unchecked(*m);
        }
        if !pending.is_empty() {
            let then = pos.resolve();
            println!("then {}: {}", then, render::status(&then));
        }
    }
    Ok(())
}
