//! `kamisado prove` (a certificate for one position) and `kamisado openings --certify`
//! (certificates for the start and every first move).

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use kamisado_cert::{prove, Certificate, Claim, Progress};
use kamisado_core::{Kamisado, Position};
use kamisado_solver::{Cancel, Options, Solver};
use serde::Serialize;

use crate::args::{OutputArgs, PositionArgs, SearchArgs};
use crate::failure::{Failure, Result};
use crate::output::{check_output, progress, thousands, write_atomically, OutputKind};
use crate::report::{self, Report};

pub const PROVE_HELP: &str = "\
Writes a certificate: a proof of the position's value and remoteness that
`kamisado certificate check FILE` verifies with the rules alone (no search). The proof
has two halves: the winner ends the game within r moves (one move at the winner's turns,
every move at the loser's) and cannot do it within r - 1 (every move at the winner's
turns, one at the loser's). Positions are stored once however often and in whatever
symmetric image they occur. The file is written under a temporary name and renamed.

Examples:
  kamisado prove --out start.kcert
  kamisado prove --moves \"h1-h7 c8-c4\" --out mid.kcert --threads 2";

/// `kamisado prove`.
#[derive(Args, Debug)]
pub struct ProveArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Where to write the certificate
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// One certificate written.
#[derive(Serialize)]
pub struct Written {
    pub file: String,
    pub claims: usize,
    pub entries: usize,
    pub bytes: u64,
}

impl Written {
    fn line(&self) -> String {
        format!(
            "wrote {} ({} claim(s), {} entries, {:.2} MiB)",
            self.file,
            self.claims,
            thousands(self.entries as u64),
            self.bytes as f64 / (1u64 << 20) as f64
        )
    }
}

/// A claim as reports show it.
#[derive(Serialize)]
pub struct ClaimJson {
    pub position: String,
    pub to_move: &'static str,
    pub winner: &'static str,
    /// For the side to move.
    pub value: &'static str,
    pub remoteness: u32,
}

impl ClaimJson {
    pub fn of(claim: &Claim) -> ClaimJson {
        ClaimJson {
            position: claim.position.to_string(),
            to_move: claim.position.turn().name(),
            winner: claim.winner.name(),
            value: if claim.mover_wins() { "win" } else { "loss" },
            remoteness: claim.remoteness,
        }
    }

    pub fn line(&self) -> String {
        format!(
            "{}: {} to move, {} wins in {}",
            self.position, self.to_move, self.winner, self.remoteness
        )
    }
}

#[derive(Serialize)]
struct ProveReport {
    claim: ClaimJson,
    certificate: Written,
    seconds: f64,
    nodes: u64,
}

impl Report for ProveReport {
    fn text(&self, _colour: bool) -> String {
        format!(
            "proved      {}\n{}\nin {:.2} s, {} nodes searched\n",
            self.claim.line(),
            self.certificate.line(),
            self.seconds,
            thousands(self.nodes)
        )
    }
}

/// Refuses an output path that cannot be written before any search starts.
fn check_out(path: &Path) -> Result<()> {
    check_output(path, OutputKind::Text).map(drop)
}

/// Proves the positions with a one-thread solver per search, the searches side by side
/// on `search.threads` threads, with a progress bar.
fn certificate_of(
    positions: &[Position],
    search: &SearchArgs,
    quiet: bool,
) -> Result<(Certificate, u64)> {
    let threads = search
        .threads
        .map_or_else(|| Options::default().threads, usize::from);
    let solver = Solver::new(
        Kamisado,
        Options {
            threads: 1,
            table_bytes: (search.hash_mb() as usize) << 20,
        },
    )
    .map_err(|e| Failure::input(format!("--hash-mb {}: {e}", search.hash_mb())))?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(Failure::internal)?;
    let bar = progress(0, quiet, "proving (entries)");
    let cert = pool
        .install(|| {
            prove(&solver, positions, &Cancel::new(), &mut |p: Progress| {
                bar.set_length((p.entries + p.pending) as u64);
                bar.set_position(p.entries as u64);
            })
        })
        .map_err(Failure::internal)?;
    bar.finish_and_clear();
    Ok((cert, solver.nodes()))
}

fn write(path: &Path, cert: &Certificate) -> Result<Written> {
    let bytes = cert.encode();
    write_atomically(path, &bytes)?;
    Ok(Written {
        file: path.display().to_string(),
        claims: cert.claims.len(),
        entries: cert.entries.len(),
        bytes: bytes.len() as u64,
    })
}

pub fn run(args: ProveArgs) -> Result<()> {
    let pos = Kamisado::root(&crate::input::single_round(&args.position, "prove")?);
    check_out(&args.out)?;
    let started = Instant::now();
    let quiet = args.output.quiet || args.output.json;
    let (cert, nodes) = certificate_of(&[pos], &args.search, quiet)?;
    let certificate = write(&args.out, &cert)?;
    let report = ProveReport {
        claim: ClaimJson::of(&cert.claims[0]),
        certificate,
        seconds: started.elapsed().as_secs_f64(),
        nodes,
    };
    report::print(&report, args.output.json, false);
    Ok(())
}

#[derive(Serialize)]
struct CertifyReport {
    start: ClaimJson,
    /// Black's first moves that win, with the remoteness counting the move.
    winning: Vec<OpeningClaim>,
    certificates: Vec<Written>,
    seconds: f64,
    nodes: u64,
}

#[derive(Serialize)]
struct OpeningClaim {
    #[serde(rename = "move")]
    mv: String,
    remoteness: u32,
}

impl Report for CertifyReport {
    fn text(&self, _colour: bool) -> String {
        let mut out = format!("proved      {}\n", self.start.line());
        let winning: Vec<String> = self
            .winning
            .iter()
            .map(|w| format!("{} ({})", w.mv, w.remoteness))
            .collect();
        out.push_str(&format!(
            "            {} winning first moves (remoteness with the move): {}\n",
            winning.len(),
            winning.join(" ")
        ));
        for written in &self.certificates {
            out.push_str(&written.line());
            out.push('\n');
        }
        out.push_str(&format!(
            "in {:.2} s, {} nodes searched\n",
            self.seconds,
            thousands(self.nodes)
        ));
        out
    }
}

/// The file names `openings --certify DIR` writes.
pub const START_CERTIFICATE: &str = "start.kcert";
pub const OPENINGS_CERTIFICATE: &str = "openings.kcert";

/// `kamisado openings --certify DIR`: `DIR/openings.kcert` proves the value and
/// remoteness of the start and of the position after each of Black's first moves (one
/// shared proof); `DIR/start.kcert` the start's alone, a small file for the headline.
pub fn certify_openings(dir: &Path, search: &SearchArgs, output: &OutputArgs) -> Result<()> {
    if dir.is_file() {
        return Err(Failure::input(format!(
            "{}: --certify needs a directory, and this is a file",
            dir.display()
        )));
    }
    // DIR is the output itself, and made if missing (its parent must exist).
    if !dir.is_dir() {
        check_out(dir)?;
        std::fs::create_dir(dir).map_err(|e| {
            Failure::input(format!(
                "{}: cannot create the directory: {e}",
                dir.display()
            ))
        })?;
    }
    for name in [START_CERTIFICATE, OPENINGS_CERTIFICATE] {
        check_out(&dir.join(name))?;
    }
    let started = Instant::now();
    let start = Position::start();
    let mut positions = vec![start];
    positions.extend(start.legal_moves().iter().map(|&m| start.play_unchecked(m)));
    let quiet = output.quiet || output.json;
    let (all, nodes_all) = certificate_of(&positions, search, quiet)?;
    let (alone, nodes_alone) = certificate_of(&[start], search, quiet)?;
    let certificates = vec![
        write(&dir.join(START_CERTIFICATE), &alone)?,
        write(&dir.join(OPENINGS_CERTIFICATE), &all)?,
    ];
    let winning = start
        .legal_moves()
        .iter()
        .zip(&all.claims[1..])
        .filter(|(_, claim)| claim.winner == start.turn())
        .map(|(m, claim)| OpeningClaim {
            mv: m.to_string(),
            remoteness: claim.remoteness + 1,
        })
        .collect();
    let report = CertifyReport {
        start: ClaimJson::of(&all.claims[0]),
        winning,
        certificates,
        seconds: started.elapsed().as_secs_f64(),
        nodes: nodes_all + nodes_alone,
    };
    report::print(&report, output.json, false);
    Ok(())
}
