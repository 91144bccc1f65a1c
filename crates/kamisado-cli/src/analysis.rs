//! The text of a position and every one of its moves, as `query` prints it: the report
//! itself ([`QueryReport`], the fields of `query --json`, which `serve` sends too) is built
//! by the analysis library; the text needs the command line's colours, so it lives here.

use kamisado_analysis::{Analysis, QueryReport};

use crate::render;
use crate::report::Report;

/// Why `analysis` is incomplete, for a search stopped by a time limit of `seconds`, with
/// the command line's advice (its flags).
pub fn time_out_message(analysis: &Analysis, seconds: f64) -> String {
    let advice = if analysis.moves.len() < analysis.position.legal_moves().len() {
        "try a larger --time-limit or a --db"
    } else {
        "try a larger --time-limit"
    };
    format!("{}; {advice}", analysis.time_out_fact(seconds))
}

impl Report for QueryReport {
    fn text(&self, colour: bool) -> String {
        let (given, pos) = (&self.given, &self.pos);
        let mut out = render::board(pos, colour);
        if !self.zero_length_moves.is_empty() {
            out.push_str(&format!(
                "given       {given}\n            its pending zero-length move(s) {} played first{}\n",
                self.zero_length_moves.join(" "),
                if given.turn() != pos.turn() {
                    format!(": now {} to move", pos.turn())
                } else {
                    String::new()
                }
            ));
        }
        out.push_str(&format!("position    {pos}\n"));
        out.push_str(&format!("            {}\n", render::status(pos)));
        if let Some(v) = self.verdict.filter(|_| !pos.is_round_over()) {
            out.push_str(&format!(
                "value       {} [{}]\n",
                render::outcome_for(pos.turn(), v.outcome),
                v.source.name()
            ));
        }
        if !self.best.is_empty() {
            out.push_str(&format!("best        {}\n", self.best.join(" ")));
        }
        if !self.moves.is_empty() {
            out.push_str(&format!(
                "moves       {:<8} {:<5} {:>10}  source  (for {})\n",
                "move",
                "value",
                "remoteness",
                pos.turn()
            ));
            for m in &self.moves {
                out.push_str(&format!(
                    "            {:<8} {:<5} {:>10}  {}\n",
                    m.mv,
                    m.value,
                    m.remoteness_text(),
                    m.source
                ));
            }
        }
        out.push_str(&format!("time        {:.3} s\n", self.seconds));
        out
    }
}
