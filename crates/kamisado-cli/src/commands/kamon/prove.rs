//! `kamisado kamon prove`: a certificate of one Kamon position's value.

use std::time::{Duration, Instant};

use kamisado_analysis::limits;
use kamisado_solver::{with_time_limit, Cancel, SolveError};
use kamon_cert::{claim_of, prove, Aim, Claim, Progress, ProveError};
use kamon_core::{Layout, Outcome};
use serde::Serialize;

use super::{input, ProveArgs};
use crate::failure::{Failure, Result};
use crate::output::{
    check_output, progress, thousands, with_spinner, write_atomically, OutputKind,
};
use crate::report::{self, Report};

pub const PROVE_HELP: &str = "\
Solves the position's value (win, draw or loss for the side to move) and writes a
certificate: a proof that `kamisado certificate check FILE` verifies with kamon-core's
rules alone (no solver). For a win the proof names one placement where the winner moves
and covers every placement of the loser, down to positions the rules decide; a draw is
two such proofs (the side to move draws or wins, and cannot win). With --claim
at-least-draw or at-most-draw it proves only that half (one question searched, not the
value): what a drawn root's proof needs of some of its units. Positions are stored once
however often they occur (16 bytes each). The file is written under a temporary name
and renamed.

Exit code: 0 with the certificate written; 1 if the value was not found within
--time-limit (nothing is written); 2 for bad input.

Examples:
  kamisado kamon prove --seed 1 --after 10 --out seed1-10.kcert
  kamisado kamon prove --layout \"$(kamisado kamon random --seed 3)\" --moves \"b1\" --out b1.kcert --hash-mb 4096
  kamisado kamon prove --layout \"$(kamisado kamon random --seed 2)\" --moves \"f1 a3\" --claim at-least-draw --out f1-a3.kcert
  kamisado certificate check seed1-10.kcert";

/// What a claim says, as reports show it.
#[derive(Serialize)]
pub struct KamonClaimJson {
    pub layout: String,
    /// The position's pieces, as `black CELLS / white CELLS / last CELL`.
    pub position: String,
    pub key: String,
    pub to_move: &'static str,
    /// For the side to move: `win`, `draw`, `loss`, or a bound, `at least a draw` or `at
    /// most a draw`.
    pub value: &'static str,
    /// `black`, `white` or `draw`; for a bound, `black or draw` or `white or draw`.
    pub winner: String,
}

impl KamonClaimJson {
    pub fn of(layout: &Layout, claim: &Claim) -> KamonClaimJson {
        let pos = &claim.position;
        let mover = pos.turn();
        KamonClaimJson {
            layout: layout.to_string(),
            position: pos.to_setup().to_string(),
            key: format!("{:#x}", pos.key()),
            to_move: mover.name(),
            value: claim.name(),
            winner: match (claim.low, claim.high) {
                (Outcome::Win, _) => mover.name().to_owned(),
                (_, Outcome::Loss) => (!mover).name().to_owned(),
                (Outcome::Draw, Outcome::Draw) => "draw".to_owned(),
                (Outcome::Draw, _) => format!("{} or draw", mover.name()),
                _ => format!("{} or draw", (!mover).name()),
            },
        }
    }

    pub fn line(&self) -> String {
        let result = match self.winner.split_once(" or ") {
            _ if self.winner == "draw" => "a draw".to_owned(),
            Some((w, _)) => format!("{w} wins or a draw"),
            None => format!("{} wins", self.winner),
        };
        format!("{} to move: {} ({result})", self.to_move, self.value)
    }
}

#[derive(Serialize)]
struct ProveReport {
    claim: KamonClaimJson,
    file: String,
    entries: usize,
    bytes: u64,
    nodes: u64,
    seconds: f64,
    /// The process's peak resident memory (Linux; `None` elsewhere): the table and the
    /// entries, what a proof of a whole layout's unit is sized by.
    peak_memory_bytes: Option<u64>,
}

impl Report for ProveReport {
    fn text(&self, _colour: bool) -> String {
        format!(
            "proved      {}\n            in {}\nwrote       {} ({} entries, {:.2} MiB)\nin {:.2} s, {} nodes searched{}\n",
            self.claim.line(),
            self.claim.position,
            self.file,
            thousands(self.entries as u64),
            self.bytes as f64 / (1u64 << 20) as f64,
            self.seconds,
            thousands(self.nodes),
            self.peak_memory_bytes
                .map(|b| format!(", {} MiB at most", thousands(b >> 20)))
                .unwrap_or_default()
        )
    }
}

pub fn run(args: ProveArgs) -> Result<()> {
    let record = input::record(&args.position)?;
    check_output(&args.out, OutputKind::Text)?;
    let solver = input::solver(record.layout(), &args.search, true)?;
    let pos = *record.position();
    let started = Instant::now();
    let quiet = args.output.quiet || args.output.json;
    let limit = args.time_limit.map(Duration::from_secs_f64);
    // The value (or the one question of a bound) first, under a spinner with the nodes
    // searched, then the proof, which finds its placements in the table the search filled.
    let aim = Aim::from(args.claim);
    let value = with_spinner(
        quiet,
        "solving",
        "nodes",
        || solver.nodes(),
        || {
            with_time_limit(limit, |cancel: &Cancel| {
                claim_of(&solver, &pos, aim, cancel)
            })
        },
    );
    match value {
        Ok(_) => {}
        Err(SolveError::Stopped) => {
            return Err(Failure::internal(format!(
                "{}; nothing written",
                limits::no_answer_in_time(args.time_limit.unwrap_or_default(), solver.nodes())
            )))
        }
        Err(e) => return Err(Failure::internal(e)),
    }
    let bar = progress(0, quiet, "proving (entries)");
    let cert = prove(&solver, &[pos], aim, &Cancel::new(), &mut |p: Progress| {
        bar.set_length((p.entries + p.pending) as u64);
        bar.set_position(p.entries as u64);
    })
    .map_err(|e: ProveError| Failure::internal(e))?;
    bar.finish_and_clear();
    let bytes = cert.encode();
    write_atomically(&args.out, &bytes)?;
    let report = ProveReport {
        claim: KamonClaimJson::of(&cert.layout, &cert.claims[0]),
        file: args.out.display().to_string(),
        entries: cert.entries.len(),
        bytes: bytes.len() as u64,
        nodes: solver.nodes(),
        seconds: started.elapsed().as_secs_f64(),
        peak_memory_bytes: kamisado_analysis::peak_memory_bytes(),
    };
    report::print(&report, args.output.json, false);
    Ok(())
}
