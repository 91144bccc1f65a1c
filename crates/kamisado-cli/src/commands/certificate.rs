//! `kamisado certificate check FILE`: verify a certificate with the rules alone.

use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, Subcommand};
use kamisado_cert::{check, Certificate, Claim, DECIDED_BY_RULES, FORMAT_VERSION};
use serde::Serialize;

use super::prove::ClaimJson;
use crate::failure::{Failure, Result};
use crate::output::thousands;
use crate::report::{self, Report};

pub const CHECK_HELP: &str = "\
Checks every entry of the certificate against the rules (the rules core only: no search,
no solver), then its claims, and prints what it proves. A claim that follows another by
one move (as the first moves follow the start) is shown with that move and the value for
the player making it.

Exit code: 0 if everything holds; 1 if an entry or a claim does not (the first one is
named); 2 if the file is not a readable certificate (damaged, truncated, another format).

Examples:
  kamisado certificate check data/certificates/start.kcert
  kamisado certificate check data/certificates/openings.kcert --json
  kamisado certificate check data/certificates/kamon-seed1-after8.kcert   (a Kamon certificate: the file says which)";

#[derive(Args, Debug)]
pub struct CertificateArgs {
    #[command(subcommand)]
    pub command: CertificateCommand,
}

#[derive(Subcommand, Debug)]
pub enum CertificateCommand {
    /// Verify a certificate with the rules alone and print what it proves
    #[command(after_help = CHECK_HELP)]
    Check(CheckArgs),
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The certificate file
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Print one JSON object instead of text
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct CheckReport {
    file: String,
    format_version: u32,
    entries: usize,
    bytes: u64,
    /// Statements within this many moves are decided by playing every line.
    decided_by_rules: i64,
    verified: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    failure: Option<String>,
    claims: Vec<ClaimReport>,
    seconds: f64,
}

#[derive(Serialize)]
struct ClaimReport {
    #[serde(flatten)]
    claim: ClaimJson,
    /// The earlier claim this one follows by one move, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    after: Option<AfterMove>,
}

#[derive(Serialize)]
struct AfterMove {
    /// 1-based.
    claim: usize,
    #[serde(rename = "move")]
    mv: String,
    /// For the player making the move; the remoteness counts the move.
    value: &'static str,
    remoteness: u32,
}

impl Report for CheckReport {
    fn text(&self, _colour: bool) -> String {
        let mut out = format!(
            "certificate {} (format {}, {} entries, {:.2} MiB)\n",
            self.file,
            self.format_version,
            thousands(self.entries as u64),
            self.bytes as f64 / (1u64 << 20) as f64
        );
        match &self.failure {
            None => out.push_str(&format!(
                "checked     every entry and claim in {:.2} s: all hold\n",
                self.seconds
            )),
            Some(failure) => out.push_str(&format!("failed      {failure}\n")),
        }
        let proved = if self.verified { "proves" } else { "claims" };
        for (i, c) in self.claims.iter().enumerate() {
            match &c.after {
                None => out.push_str(&format!("{proved:<11} {}\n", c.claim.line())),
                Some(a) => out.push_str(&format!(
                    "{:<11} {:<8} {} for the mover in {} (claim {} after this move)\n",
                    "",
                    a.mv,
                    a.value,
                    a.remoteness,
                    i + 1
                )),
            }
        }
        out
    }
}

/// The first earlier claim whose position reaches this claim's by one legal move.
fn after_move(claims: &[Claim], index: usize) -> Option<AfterMove> {
    let claim = &claims[index];
    claims[..index].iter().enumerate().find_map(|(j, parent)| {
        let pos = parent.position;
        let mv = pos
            .legal_moves()
            .into_iter()
            .find(|&m| pos.play_unchecked(m) == claim.position)?;
        let mover_wins = claim.winner == pos.turn();
        Some(AfterMove {
            claim: j + 1,
            mv: mv.to_string(),
            value: if mover_wins { "win" } else { "loss" },
            remoteness: claim.remoteness + 1,
        })
    })
}

pub fn run(args: CertificateArgs) -> Result<()> {
    match args.command {
        CertificateCommand::Check(a) => check_command(a),
    }
}

fn check_command(args: CheckArgs) -> Result<()> {
    if super::kamon::certificate::is_kamon_certificate(&args.file) {
        return super::kamon::certificate::check_command(args);
    }
    let shown = args.file.display().to_string();
    let cert =
        Certificate::read(&args.file).map_err(|e| Failure::input(format!("{shown}: {e}")))?;
    let started = Instant::now();
    let result = check(&cert);
    let seconds = started.elapsed().as_secs_f64();
    let claims = (0..cert.claims.len())
        .map(|i| ClaimReport {
            claim: ClaimJson::of(&cert.claims[i]),
            after: after_move(&cert.claims, i),
        })
        .collect();
    let report = CheckReport {
        file: shown.clone(),
        format_version: FORMAT_VERSION,
        entries: cert.entries.len(),
        bytes: std::fs::metadata(&args.file).map_or(0, |m| m.len()),
        decided_by_rules: DECIDED_BY_RULES,
        verified: result.is_ok(),
        failure: result.as_ref().err().map(|f| f.to_string()),
        claims,
        seconds,
    };
    match result {
        Ok(_) => {
            report::print(&report, args.json, false);
            Ok(())
        }
        Err(failure) => {
            if args.json {
                report::print(&report, true, false);
            }
            Err(Failure::internal(format!("{shown}: {failure}")))
        }
    }
}
