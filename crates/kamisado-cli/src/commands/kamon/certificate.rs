//! `kamisado certificate check FILE` for a Kamon certificate (magic `KAMONCRT`): verify
//! it with kamon-core's rules alone. The command is shared with Kamisado's certificates;
//! the file's first bytes say which game's checker reads it.

use std::path::Path;
use std::time::Instant;

use kamon_cert::{check, Certificate, FORMAT_VERSION, MAGIC};
use serde::Serialize;

use super::prove::KamonClaimJson;
use crate::commands::certificate::CheckArgs;
use crate::failure::{Failure, Result};
use crate::output::thousands;
use crate::report::{self, Report};

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
    file: String,
    game: &'static str,
    format_version: u32,
    entries: usize,
    bytes: u64,
    verified: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    failure: Option<String>,
    claims: Vec<KamonClaimJson>,
    seconds: f64,
}

impl Report for CheckReport {
    fn text(&self, _colour: bool) -> String {
        let mut out = format!(
            "certificate {} (Kamon, format {}, {} entries, {:.2} MiB)\n",
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
        file: shown.clone(),
        game: "kamon",
        format_version: FORMAT_VERSION,
        entries: cert.entries.len(),
        bytes: std::fs::metadata(&args.file).map_or(0, |m| m.len()),
        verified: result.is_ok(),
        failure: result.as_ref().err().map(|f| f.to_string()),
        claims: cert
            .claims
            .iter()
            .map(|c| KamonClaimJson::of(&cert, c))
            .collect(),
        seconds: started.elapsed().as_secs_f64(),
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
