//! `kamisado certificate check FILE`: verify a certificate with the rules alone.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Args, Subcommand};
use kamisado_cert::{check, Certificate, CheckFailure, Claim, DECIDED_BY_RULES, FORMAT_VERSION};
use serde::Serialize;

use super::prove::ClaimJson;
use crate::failure::{Failure, Result};
use crate::output::thousands;
use crate::report::{self, Report};

pub const CHECK_HELP: &str = "\
Checks every entry of the certificate against the rules (the rules core only: no solver;
a Kamon certificate's rules search only for wins forced within three placements), then its claims, and prints what it proves. A claim that follows another by
one move (as the first moves follow the start) is shown with that move and the value for
the player making it.

Exit code: 0 if everything holds; 1 if an entry or a claim does not (the first one is
named); 2 if the file is not a readable certificate (damaged, truncated, another format).

Examples:
  kamisado certificate check data/certificates/start.kcert
  kamisado certificate check data/certificates/openings.kcert --json
  kamisado certificate check data/certificates/kamon-seed1-after8.kcert   (a Kamon certificate: the file says which)
  kamisado certificate check data/certificates/kamon-seed1-after8.kwalk   (a Kamon walk certificate, `kamon pack`)";

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
    /// No progress bar (a Kamon walk certificate's check shows the positions walked)
    #[arg(long, short)]
    pub quiet: bool,
    /// For a Kamon walk certificate: the most positions the walk may remember (20 to 40 bytes each)
    #[arg(long = "max-positions", value_name = "N", default_value_t = kamon_cert::WalkLimits::default().positions, value_parser = crate::args::whole::<usize>(1, u64::MAX))]
    pub max_positions: usize,
}

/// What checking a certificate file found: the part of the report every game's
/// checker shares (the Kamon one is in `kamon::certificate`).
#[derive(Serialize)]
pub(crate) struct Checked {
    file: String,
    format_version: u32,
    entries: usize,
    bytes: u64,
    verified: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    failure: Option<String>,
    seconds: f64,
}

impl Checked {
    /// The check of the file at `path`, begun at `started`, which found `failure` (the
    /// failure type both games' checkers share) or nothing wrong.
    pub(crate) fn new(
        path: &Path,
        format_version: u32,
        entries: usize,
        failure: Option<&CheckFailure>,
        started: Instant,
    ) -> Checked {
        Checked {
            file: path.display().to_string(),
            format_version,
            entries,
            bytes: std::fs::metadata(path).map_or(0, |m| m.len()),
            verified: failure.is_none(),
            failure: failure.map(|f| f.to_string()),
            seconds: started.elapsed().as_secs_f64(),
        }
    }

    /// The report's first lines (the file, `game` naming the format when it is not
    /// Kamisado's, then what the check found), and the word its claims are shown with.
    /// `entry` names what the file's entries are, one and many (a walk's are the
    /// placements it read: `("choice", "choices")`).
    pub(crate) fn header(&self, game: Option<&str>, entry: (&str, &str)) -> (String, &'static str) {
        let (one, entries) = entry;
        let game = game.map_or(String::new(), |g| format!("{g}, "));
        let mut out = format!(
            "certificate {} ({game}format {}, {} {entries}, {:.2} MiB)\n",
            self.file,
            self.format_version,
            thousands(self.entries as u64),
            self.bytes as f64 / (1u64 << 20) as f64
        );
        match &self.failure {
            None => out.push_str(&format!(
                "checked     every {one} and claim in {:.2} s: all hold\n",
                self.seconds
            )),
            Some(failure) => out.push_str(&format!("failed      {failure}\n")),
        }
        (out, if self.verified { "proves" } else { "claims" })
    }

    /// Prints `report` (this check and its claims) and ends the command: exit code 0 if
    /// everything held, 1 with the failure on standard error if not (the JSON report is
    /// printed either way).
    pub(crate) fn finish(&self, report: &impl Report, json: bool) -> Result<()> {
        match &self.failure {
            None => {
                report::print(report, json, false);
                Ok(())
            }
            Some(failure) => {
                if json {
                    report::print(report, true, false);
                }
                Err(Failure::internal(format!("{}: {failure}", self.file)))
            }
        }
    }
}

#[derive(Serialize)]
struct CheckReport {
    #[serde(flatten)]
    checked: Checked,
    /// Statements within this many moves are decided by playing every line.
    decided_by_rules: i64,
    claims: Vec<ClaimReport>,
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
        let (mut out, proved) = self.checked.header(None, ("entry", "entries"));
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
    let checked = Checked::new(
        &args.file,
        FORMAT_VERSION,
        cert.entries.len(),
        result.as_ref().err(),
        started,
    );
    let claims = (0..cert.claims.len())
        .map(|i| ClaimReport {
            claim: ClaimJson::of(&cert.claims[i]),
            after: after_move(&cert.claims, i),
        })
        .collect();
    let report = CheckReport {
        checked,
        decided_by_rules: DECIDED_BY_RULES,
        claims,
    };
    report.checked.finish(&report, args.json)
}
