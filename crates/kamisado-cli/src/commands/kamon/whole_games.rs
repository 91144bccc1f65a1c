//! `kamisado kamon whole`: the whole games the units files prove, layout by layout, and
//! who wins over them. The file and its arithmetic are the analysis library's
//! ([`kamisado_analysis::whole_file`]); here are only reading, writing and printing.

use std::path::Path;

use serde::Serialize;

use super::units_file;
use super::WholeArgs;
use crate::failure::{Failure, Result};
use crate::output::thousands;
use crate::output::{check_output, write_atomically, OutputKind};
use crate::report::{self, Report};
use kamisado_analysis::whole_file::{WholeFile, WholeLayout, WholeSummary};
use kamon_cert::WalkCertificate;

#[derive(Serialize)]
struct WholeReport {
    #[serde(skip_serializing_if = "Option::is_none")]
    out: Option<String>,
    summary: WholeSummary,
    layouts: Vec<WholeLayout>,
}

impl Report for WholeReport {
    fn text(&self, _colour: bool) -> String {
        let s = &self.summary;
        let mut out = format!(
            "layouts                     {} ({} proven)\nfirst player (black) wins  {}\ndrawn                      {}\nsecond player (white) wins {}\n",
            s.layouts,
            s.proven,
            s.first_player_wins.text(),
            s.draws.text(),
            s.second_player_wins.text()
        );
        for l in &self.layouts {
            let name = l
                .seed
                .map_or_else(|| l.layout.clone(), |seed| format!("seed {seed}"));
            let value = match (&l.value, &l.winner) {
                (Some(v), Some(w)) if w == "draw" => format!("{v} for black (drawn)"),
                (Some(v), Some(w)) => format!("{v} for black ({w} wins)"),
                _ => format!(
                    "not proven: at least a {}, at most a {} for black",
                    l.at_least, l.at_most
                ),
            };
            let cells: Vec<String> = l
                .first_cells
                .iter()
                .filter_map(|c| c.value.as_ref().map(|v| format!("{} {v}", c.cell)))
                .collect();
            let proof = l.proof_nodes.map_or(String::new(), |p| {
                format!(" (the proof's units {})", thousands(p))
            });
            let certificate = l
                .certificate
                .as_ref()
                .map_or(String::new(), |c| format!("; certified by {c}"));
            out.push_str(&format!(
                "  {name}: {value}; {} of {} units, {} nodes{proof}, {} s; first cells proven: {}{certificate}\n",
                l.units_solved,
                l.units,
                thousands(l.nodes),
                l.seconds,
                if cells.is_empty() {
                    "none".to_owned()
                } else {
                    cells.join(", ")
                }
            ));
        }
        if let Some(path) = &self.out {
            out.push_str(&format!("written to  {path}\n"));
        }
        out
    }
}

pub fn run(args: WholeArgs) -> Result<()> {
    if let Some(out) = &args.out {
        check_output(out, OutputKind::Text)?;
    }
    let mut whole = WholeFile::new();
    for path in &args.files {
        let shown = path.display().to_string();
        let (file, split) = units_file::load(path)?;
        let entry = WholeLayout::from_units(&file, &split, &shown).map_err(Failure::input)?;
        whole.add(entry).map_err(Failure::input)?;
    }
    for path in &args.certificates {
        name_certificate(&mut whole, path)?;
    }
    if let Some(out) = &args.out {
        write_atomically(out, whole.to_text().as_bytes())?;
    }
    let report = WholeReport {
        out: args.out.as_ref().map(|p| p.display().to_string()),
        summary: whole.summary(),
        layouts: whole.layouts,
    };
    report::print(&report, args.output.json, false);
    Ok(())
}

/// Names the walk certificate at `path` in the entry of its layout, if it claims the value
/// the units prove for that layout's empty board (its proof is `certificate check`'s to
/// verify).
fn name_certificate(whole: &mut WholeFile, path: &Path) -> Result<()> {
    let shown = path.display().to_string();
    let cert = WalkCertificate::read(path).map_err(|e| Failure::input(format!("{shown}: {e}")))?;
    let layout = cert.layout.to_string();
    let entry = whole
        .layouts
        .iter_mut()
        .find(|l| l.layout == layout)
        .ok_or_else(|| Failure::input(format!("{shown}: no units file is of its layout")))?;
    let claim = match cert.claims.as_slice() {
        [claim] if claim.position.placed() == 0 => claim,
        _ => {
            return Err(Failure::input(format!(
                "{shown}: it does not claim the empty board's value alone"
            )))
        }
    };
    // The claim is for Black, who places first at the empty board.
    if entry.value.as_deref() != claim.exact().map(|v| v.name()) {
        return Err(Failure::input(format!(
            "{shown}: it claims {} for Black, but the units prove {}",
            match claim.exact() {
                Some(value) => format!("a {}", value.name()),
                None => claim.name().to_owned(),
            },
            entry
                .value
                .as_deref()
                .map_or("no value".to_owned(), |v| format!("a {v}"))
        )));
    }
    entry.certificate = Some(shown);
    Ok(())
}

/// Reads a whole-games file, checked.
pub fn load(path: &Path) -> Result<WholeFile> {
    let text = crate::input::read_text(path, "a whole-games file")?;
    WholeFile::parse(&text, &path.display().to_string()).map_err(Failure::input)
}
