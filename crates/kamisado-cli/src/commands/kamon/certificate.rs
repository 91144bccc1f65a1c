//! `kamisado certificate check FILE` for a Kamon certificate (magic `KAMONCRT`): verify
//! it with kamon-core's rules alone. The command is shared with Kamisado's certificates;
//! the file's first bytes say which game's checker reads it.

use std::path::Path;
use std::time::Instant;

use kamon_cert::{check, Certificate, FORMAT_VERSION, MAGIC};
use serde::Serialize;

use super::prove::KamonClaimJson;
use crate::commands::certificate::{CheckArgs, Checked};
use crate::failure::{Failure, Result};
use crate::report::Report;

/// Whether `path` is a regular file starting with the Kamon certificate's magic bytes
/// (anything else, special files included, goes to the Kamisado reader, which refuses
/// it in its own words).
pub fn is_kamon_certificate(path: &Path) -> bool {
    kamisado_files::open(path)
        .and_then(|mut input| input.read_up_to(MAGIC.len() as u64))
        .is_ok_and(|magic| magic == MAGIC)
}

#[derive(Serialize)]
struct CheckReport {
    game: &'static str,
    #[serde(flatten)]
    checked: Checked,
    claims: Vec<KamonClaimJson>,
}

impl Report for CheckReport {
    fn text(&self, _colour: bool) -> String {
        let (mut out, proved) = self.checked.header(Some("Kamon"));
        for c in &self.claims {
            out.push_str(&format!("{proved:<11} {}\n", c.line()));
            out.push_str(&format!("{:<11} in {}\n", "", c.position));
            out.push_str(&format!("{:<11} of layout {}\n", "", c.layout));
        }
        out
    }
}

pub fn check_command(args: CheckArgs) -> Result<()> {
    let shown = args.file.display().to_string();
    let cert =
        Certificate::read(&args.file).map_err(|e| Failure::input(format!("{shown}: {e}")))?;
    let started = Instant::now();
    let result = check(&cert);
    let report = CheckReport {
        game: "kamon",
        checked: Checked::new(
            &args.file,
            FORMAT_VERSION,
            cert.entries.len(),
            result.as_ref().err(),
            started,
        ),
        claims: cert
            .claims
            .iter()
            .map(|c| KamonClaimJson::of(&cert, c))
            .collect(),
    };
    report.checked.finish(&report, args.json)
}
