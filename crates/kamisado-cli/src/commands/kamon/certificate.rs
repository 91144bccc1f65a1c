//! `kamisado certificate check FILE` for a Kamon certificate (magic `KAMONCRT`) or a
//! Kamon walk certificate (`KAMONWLK`): verify it with kamon-core's rules alone. The
//! command is shared with Kamisado's certificates; the file's first bytes say which
//! game's checker reads it.

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use kamon_cert::{
    check, check_walk, Certificate, WalkCertificate, WalkCounts, WalkLimits, MAGIC, WALK_MAGIC,
};
use serde::Serialize;

use super::prove::KamonClaimJson;
use crate::commands::certificate::{CheckArgs, Checked};
use crate::failure::{Failure, Result};
use crate::output::{thousands, with_spinner};
use crate::report::Report;

/// Whether `path` is a regular file starting with the Kamon certificate's magic bytes
/// (anything else, special files included, goes to the Kamisado reader, which refuses
/// it in its own words).
pub fn is_kamon_certificate(path: &Path) -> bool {
    starts_with(path, MAGIC) || is_walk_certificate(path)
}

/// Whether `path` is a regular file starting with the Kamon walk certificate's magic bytes.
pub fn is_walk_certificate(path: &Path) -> bool {
    starts_with(path, WALK_MAGIC)
}

fn starts_with(path: &Path, magic: [u8; 8]) -> bool {
    kamisado_files::open(path)
        .and_then(|mut input| input.read_up_to(magic.len() as u64))
        .is_ok_and(|start| start == magic)
}

#[derive(Serialize)]
struct CheckReport {
    game: &'static str,
    #[serde(flatten)]
    checked: Checked,
    /// A walk certificate's walk: the placements it read (its "entries": one per
    /// position it remembers), their bits, and the positions it walked.
    #[serde(skip_serializing_if = "Option::is_none")]
    walk: Option<WalkJson>,
    claims: Vec<KamonClaimJson>,
}

#[derive(Serialize)]
struct WalkJson {
    choices: u64,
    bits: u64,
    walked: u64,
}

impl Report for CheckReport {
    fn text(&self, _colour: bool) -> String {
        let (game, entries) = if self.walk.is_some() {
            ("Kamon walk", ("choice", "choices"))
        } else {
            ("Kamon", ("entry", "entries"))
        };
        let (mut out, proved) = self.checked.header(Some(game), entries);
        if let Some(w) = &self.walk {
            out.push_str(&format!(
                "walked      {} positions, reading {} placements ({} bits)\n",
                thousands(w.walked),
                thousands(w.choices),
                thousands(w.bits)
            ));
        }
        for c in &self.claims {
            out.push_str(&format!("{proved:<11} {}\n", c.line()));
            out.push_str(&format!("{:<11} in {}\n", "", c.position));
            out.push_str(&format!("{:<11} of layout {}\n", "", c.layout));
        }
        out
    }
}

pub fn check_command(args: CheckArgs) -> Result<()> {
    if is_walk_certificate(&args.file) {
        return check_walk_command(args);
    }
    let shown = args.file.display().to_string();
    let cert =
        Certificate::read(&args.file).map_err(|e| Failure::input(format!("{shown}: {e}")))?;
    let started = Instant::now();
    let result = check(&cert);
    let report = CheckReport {
        game: "kamon",
        walk: None,
        checked: Checked::new(
            &args.file,
            cert.version,
            cert.entries.len(),
            result.as_ref().err(),
            started,
        ),
        claims: cert
            .claims
            .iter()
            .map(|c| KamonClaimJson::of(&cert.layout, c))
            .collect(),
    };
    report.checked.finish(&report, args.json)
}

fn check_walk_command(args: CheckArgs) -> Result<()> {
    let shown = args.file.display().to_string();
    let cert =
        WalkCertificate::read(&args.file).map_err(|e| Failure::input(format!("{shown}: {e}")))?;
    let started = Instant::now();
    let limits = WalkLimits {
        positions: args.max_positions,
    };
    let walked = AtomicU64::new(0);
    let result = with_spinner(
        args.json || args.quiet,
        "checking",
        "positions walked",
        || walked.load(Ordering::Relaxed),
        || {
            check_walk(&cert, limits, &mut |c: WalkCounts| {
                walked.store(c.walked, Ordering::Relaxed)
            })
        },
    );
    let report = CheckReport {
        game: "kamon",
        checked: Checked::new(
            &args.file,
            cert.version,
            result.as_ref().map_or(0, |v| v.verified.entries),
            result.as_ref().err(),
            started,
        ),
        walk: result.as_ref().ok().map(|v| WalkJson {
            choices: v.counts.choices,
            bits: v.bits,
            walked: v.counts.walked,
        }),
        claims: cert
            .claims
            .iter()
            .map(|c| KamonClaimJson::of(&cert.layout, c))
            .collect(),
    };
    report.checked.finish(&report, args.json)
}
