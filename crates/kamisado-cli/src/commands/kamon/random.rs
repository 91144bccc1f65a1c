//! `kamisado kamon random`: the layout of a seed, and optionally its random opening.

use serde::Serialize;

use super::{input, RandomArgs};
use crate::failure::Result;
use crate::report::{self, Report};

#[derive(Serialize)]
struct RandomReport {
    seed: u64,
    layout: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    after: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<Vec<String>>,
}

impl Report for RandomReport {
    /// The layout text alone, so that `--layout "$(kamisado kamon random --seed 1)"`
    /// works; with `--after`, the moves on a second line.
    fn text(&self, _colour: bool) -> String {
        match &self.moves {
            None => format!("{}\n", self.layout),
            Some(moves) => format!("{}\n{}\n", self.layout, moves.join(" ")),
        }
    }
}

pub fn run(args: RandomArgs) -> Result<()> {
    let record = input::random_record(args.seed, args.after.unwrap_or(0))?;
    let report = RandomReport {
        seed: args.seed,
        layout: record.layout().to_string(),
        after: args.after,
        moves: args.after.map(|_| input::cells_text(record.moves())),
    };
    report::print(&report, args.json, false);
    Ok(())
}
