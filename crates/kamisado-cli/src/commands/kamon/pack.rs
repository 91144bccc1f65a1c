//! `kamisado kamon pack`: certificates of entries made into one walk certificate (a few
//! bits per placement chosen), of their own claims or of a position above them.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use kamon_cert::{
    pack, walk_entries, Certificate, PackError, Proofs, WalkCertificate, WalkCounts, WalkLimits,
};
use serde::Serialize;

use super::certificate::is_walk_certificate;
use super::prove::KamonClaimJson;
use super::PackArgs;
use crate::failure::{Failure, Result};
use crate::output::{check_output, thousands, with_spinner, write_atomically, OutputKind};
use crate::report::{self, Report};

pub const PACK_HELP: &str = "\
Reads certificates of entries (`kamon prove`'s files, of one layout) and writes one walk
certificate: the claims and, in the order a checker walking the proof from them needs
it, each placement the winner chooses, as an index among the legal cells (two or three
bits), where a certificate of entries spends 16 bytes on every position. The packer
walks the proof exactly as the checker will, so a missing entry is named here, and
`kamisado certificate check` verifies the file with kamon-core's rules alone.

Each certificate must prove its own claims with its own entries, as `kamon prove` writes
them: its entries are read when the walk reaches one of its claims and looked up only
below it, so the packer holds one unit's entries at a time.

With --root, the walk certificate claims the value of that position instead of the
certificates' claims: worked out from them by the game's AND/OR rule, so the units of
a whole game (`kamon units`), proved one by one, become one proof of its value.

A walk certificate given as input is checked and read as the entries of its choices
(held in memory, 16 bytes a choice): packing one alone writes it again in the newest
format (version 2, whose rules find wins forced within three placements, so most of a
version 1 file's choices are left out).

Exit code: 0 with the file written; 1 if the certificates do not carry the proof or do
not decide the root; 2 for bad input (a damaged certificate, another layout).

Examples:
  kamisado kamon pack seed1-10.kcert --out seed1-10.kwalk
  kamisado kamon pack b1-*.kcert --root start --out seed1.kwalk
  kamisado certificate check seed1.kwalk
  kamisado kamon pack tests/fuzz-corpus/kamon-walk/seed4-after20.kwalk --out new.kwalk   # a version 1 walk, written again";

#[derive(Serialize)]
struct PackReport {
    claims: Vec<KamonClaimJson>,
    file: String,
    /// The entries of the certificates read, in all.
    entries_read: u64,
    choices: u64,
    bits: u64,
    /// Positions the walk went through (the rules decide the others; a "loses" reached
    /// again is walked again).
    walked: u64,
    bytes: u64,
    seconds: f64,
}

impl Report for PackReport {
    fn text(&self, _colour: bool) -> String {
        let mut out = String::new();
        for c in &self.claims {
            out.push_str(&format!(
                "packed      {}\n            in {}\n",
                c.line(),
                c.position
            ));
        }
        out.push_str(&format!(
            "wrote       {} ({} bytes: {} choices in {} bits, {:.2} bits each)\n",
            self.file,
            thousands(self.bytes),
            thousands(self.choices),
            thousands(self.bits),
            self.bits as f64 / self.choices.max(1) as f64
        ));
        out.push_str(&format!(
            "from        {} entries; the walk goes through {} positions\nin {:.2} s\n",
            thousands(self.entries_read),
            thousands(self.walked),
            self.seconds
        ));
        out
    }
}

pub fn run(args: PackArgs) -> Result<()> {
    check_output(&args.out, OutputKind::Text)?;
    let started = Instant::now();
    // Each file is read whole here (so a damaged one is refused before the walk), and
    // again when the walk reaches its claims: one file's entries in memory at a time.
    let mut proofs = Proofs::default();
    for path in &args.certs {
        let shown = path.display();
        if is_walk_certificate(path) {
            let cert = walk_as_entries(path, &args)?;
            proofs
                .add(cert)
                .map_err(|e| Failure::input(format!("{shown}: {e}")))?;
            continue;
        }
        let cert = Certificate::read(path).map_err(|e| Failure::input(format!("{shown}: {e}")))?;
        let entries = cert.entries.len();
        let again = path.clone();
        let read = Box::new(move || Certificate::read(&again).map_err(|e| e.to_string()));
        proofs
            .add_later(cert.layout, cert.claims, entries, read)
            .map_err(|e| Failure::input(format!("{shown}: {e}")))?;
    }
    let entries_read = proofs.entries() as u64;
    let root = match args.root.as_deref() {
        None => None,
        Some(moves) => {
            let layout = proofs.layout().map(ToString::to_string).unwrap_or_default();
            let moves = Some(moves.trim()).filter(|m| !m.is_empty() && *m != "start");
            let record = kamisado_analysis::request::kamon_record(Some(&layout), None, None, moves)
                .map_err(|e| Failure::input(format!("--root: {e}")))?;
            Some(*record.position())
        }
    };
    let limits = WalkLimits {
        positions: args.max_positions,
    };
    let walked = AtomicU64::new(0);
    let quiet = args.output.quiet || args.output.json;
    let packed = with_spinner(
        quiet,
        "packing",
        "positions walked",
        || walked.load(Ordering::Relaxed),
        || {
            pack(proofs, root.as_ref(), limits, &mut |c: WalkCounts| {
                walked.store(c.walked, Ordering::Relaxed)
            })
        },
    )
    .map_err(|e| match e {
        // The root the user gave, or files that claim nothing: bad input.
        PackError::NotAbove(_) | PackError::NoClaim | PackError::Unreadable { .. } => {
            Failure::input(e)
        }
        e => Failure::internal(e),
    })?;
    let bytes = packed.certificate.encode();
    write_atomically(&args.out, &bytes)?;
    let layout = &packed.certificate.layout;
    let report = PackReport {
        claims: packed
            .certificate
            .claims
            .iter()
            .map(|c| KamonClaimJson::of(layout, c))
            .collect(),
        file: args.out.display().to_string(),
        entries_read,
        choices: packed.counts.choices,
        walked: packed.counts.walked,
        bits: packed.bits,
        bytes: bytes.len() as u64,
        seconds: started.elapsed().as_secs_f64(),
    };
    report::print(&report, args.output.json, false);
    Ok(())
}

/// A walk certificate's choices as entries ([`walk_entries`]): checked on the way, so a
/// walk that does not hold is refused as bad input.
fn walk_as_entries(path: &std::path::Path, args: &PackArgs) -> Result<Certificate> {
    let shown = path.display();
    let walk = WalkCertificate::read(path).map_err(|e| Failure::input(format!("{shown}: {e}")))?;
    let limits = WalkLimits {
        positions: args.max_positions,
    };
    let walked = AtomicU64::new(0);
    with_spinner(
        args.output.quiet || args.output.json,
        "reading",
        "positions walked",
        || walked.load(Ordering::Relaxed),
        || {
            walk_entries(&walk, limits, &mut |c: WalkCounts| {
                walked.store(c.walked, Ordering::Relaxed)
            })
        },
    )
    .map_err(|e| Failure::input(format!("{shown}: the walk does not hold: {e}")))
}
