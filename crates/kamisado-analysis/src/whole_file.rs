//! The whole-games file (`data/kamon-whole.json`): every Kamon layout whose empty board
//! has been split into units and solved, what the units prove of it, and the answer to
//! "who wins Kamon" over those layouts.
//!
//! Why a file built from the units files rather than one more search record: the units
//! files ([`crate::units_file`]) are the evidence, one result per unit with its nodes and
//! seconds, and they are checked against the rules when read. This file is what they
//! add up to, layout by layout, so it is recomputed from them (`kamon whole`), never
//! edited, and a test rebuilds the shipped one from the shipped units files and compares.
//! What was rejected: a second search of each empty board for this file (the units are
//! the only way the machine solves one), and storing the answer by hand in the README
//! (it would go stale as layouts are added).
//!
//! Reading the file back (the survey chart draws its K = 0 point from it) checks the
//! format, every layout text, every value and winner name and that each winner is what
//! its value says; the summary is recomputed, never read.

use serde::{Deserialize, Serialize};

use kamisado_solver::Value;
use kamon_core::{Layout, Player};

use crate::kamon::winner;
use crate::survey_file::FileError;
use crate::survey_stats::{Share, Spread};
use crate::units_file::{Split, UnitsFile};

type Result<T> = std::result::Result<T, FileError>;

/// What the file says it is.
pub const FORMAT: &str = "kamisado kamon whole 1";

/// The seeds searched for a layout's seed: the layouts of `kamon random --seed S` for S
/// up to this are recognised (a layout of any other origin is recorded without one).
pub const SEED_SEARCH: u64 = 10_000;

const DESCRIPTION: &str = "Whole Kamon games: for each layout whose empty board was split into units and solved (`kamisado kamon units solve`), what the units prove, built from the units files by `kamisado kamon whole`. value is for Black, who places first, with winner; at_least and at_most what is proven when the value is not; first_cells the same for each of Black's first cells; nodes and seconds are the sums over every unit searched (wall seconds, as each unit records them), proof_nodes the nodes of the solved units the value's proof rests on (the cheapest such set; two placements deep, a winning first cell's replies or one refuting reply per first cell; for a draw a drawing first cell's replies with one reply per first cell holding it to a draw) when it is proven, table_mb the largest table a unit used; certificate is the walk certificate of the empty board's value if one ships (`kamisado certificate check FILE` verifies it; `kamisado kamon whole --certificate FILE` names it). summary is recomputed from the layouts whenever the file is written and ignored when read: the shares of proven layouts won by the first player, drawn and won by the second, with 95% Wilson intervals, and the spread (min, median, mean, max) over them of nodes and of proof_nodes (the value's cost whatever else a layout's units answered).";

/// One layout's empty board.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct WholeLayout {
    /// The layout's text, as `kamon random` prints it.
    pub layout: String,
    /// The seed whose random layout this is, if it is one of the first [`SEED_SEARCH`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The units file it was built from, as given.
    pub units_file: String,
    /// The split's depth.
    pub depth: u32,
    /// For Black, who places first: `win`, `draw` or `loss`, if proven.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// `black`, `white` or `draw`, with the value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<String>,
    /// What the units prove at least and at most, for Black.
    pub at_least: String,
    pub at_most: String,
    pub first_cells: Vec<FirstCell>,
    pub units: usize,
    pub units_solved: usize,
    pub nodes: u64,
    /// The nodes of the units the value's proof rests on (the cheapest such set; two
    /// placements deep, the winning first cell's replies or each first cell's
    /// refutation; for a draw both, a drawing first cell's replies and one reply per first
    /// cell holding it to a draw), if the value is proven; `nodes` less these is what
    /// finding them cost besides.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proof_nodes: Option<u64>,
    pub seconds: f64,
    pub table_mb: u64,
    #[serde(default)]
    pub certificate: Option<String>,
}

/// One of Black's first cells, for Black.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct FirstCell {
    pub cell: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    pub at_least: String,
    pub at_most: String,
    pub units: usize,
    pub units_solved: usize,
}

/// The answer so far, over the proven layouts.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct WholeSummary {
    pub layouts: u64,
    pub proven: u64,
    pub first_player_wins: Share,
    pub draws: Share,
    pub second_player_wins: Share,
    /// Over the proven layouts: nodes of every unit searched (which grows with whatever
    /// else was asked of a layout, such as every first cell's value).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<Spread>,
    /// Over the proven layouts: the nodes of the units each value's proof rests on, as
    /// they were searched; what a layout's value costs whatever else its file holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proof_nodes: Option<Spread>,
}

/// The whole file.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct WholeFile {
    pub format: String,
    pub description: String,
    #[serde(default, skip_deserializing)]
    pub summary: Option<WholeSummary>,
    pub layouts: Vec<WholeLayout>,
}

impl WholeLayout {
    /// What the results of `file` (read and checked with `split`, named `shown`) prove of
    /// an empty board. A split of any other position is refused: this file is about whole
    /// games.
    pub fn from_units(file: &UnitsFile, split: &Split, shown: &str) -> Result<WholeLayout> {
        if !split.root.moves().is_empty() {
            return Err(FileError::Invalid(format!(
                "{shown}: its root is {} placements in, not an empty board",
                split.root.moves().len()
            )));
        }
        let layout = split.root.layout();
        let summary = file.summary(split);
        let name = |s: &str| s.to_owned();
        Ok(WholeLayout {
            layout: layout.to_string(),
            seed: (1..=SEED_SEARCH).find(|&s| Layout::random(s) == *layout),
            units_file: shown.to_owned(),
            depth: split.depth,
            value: summary.value.map(name),
            winner: summary.winner.map(name),
            at_least: name(summary.at_least),
            at_most: name(summary.at_most),
            first_cells: summary
                .first_cells
                .iter()
                .map(|c| FirstCell {
                    cell: c.cell.clone(),
                    value: c.value.map(name),
                    at_least: name(c.at_least),
                    at_most: name(c.at_most),
                    units: c.units,
                    units_solved: c.units_solved,
                })
                .collect(),
            units: summary.units,
            units_solved: summary.units_solved,
            nodes: summary.nodes,
            proof_nodes: summary.proof_nodes,
            seconds: summary.seconds,
            table_mb: file.units.iter().map(|u| u.hash_mb).max().unwrap_or(0),
            certificate: None,
        })
    }

    /// The proven value for Black, if any.
    pub fn value(&self) -> Option<Value> {
        self.value.as_deref().and_then(Value::from_name)
    }

    /// What is wrong with this entry, in words, if anything.
    fn check(&self) -> std::result::Result<(), String> {
        self.layout
            .parse::<Layout>()
            .map_err(|e| format!("its layout: {e}"))?;
        let value = |what: &str, v: &str| {
            Value::from_name(v).ok_or_else(|| format!("{what} {v:?} is not win, draw or loss"))
        };
        let (lo, hi) = (
            value("at_least", &self.at_least)?,
            value("at_most", &self.at_most)?,
        );
        if lo > hi {
            return Err(format!("at least {lo:?} but at most {hi:?}"));
        }
        match (&self.value, &self.winner) {
            (None, None) if lo != hi => {}
            (Some(v), Some(w)) => {
                let v = value("value", v)?;
                if (v, v) != (lo, hi) {
                    return Err(format!("value {v:?} outside its bounds"));
                }
                if w != winner(Player::Black, v) {
                    return Err(format!("winner {w:?} is not what value {v:?} says"));
                }
            }
            _ => return Err("value, winner and bounds disagree".into()),
        }
        for c in &self.first_cells {
            let (lo, hi) = (
                value("at_least", &c.at_least)?,
                value("at_most", &c.at_most)?,
            );
            let proven = c.value.as_deref().map(|v| value("value", v)).transpose()?;
            if lo > hi || proven.is_some_and(|v| (v, v) != (lo, hi)) || c.units_solved > c.units {
                return Err(format!("first cell {}: its bounds disagree", c.cell));
            }
        }
        if self.units_solved > self.units {
            return Err("more units solved than it has".into());
        }
        if let Some(proof) = self.proof_nodes {
            if proof > self.nodes {
                return Err("more nodes in the proof's units than in all the units".into());
            }
            if self.value().is_none() {
                return Err("proof_nodes without a proven value".into());
            }
        }
        Ok(())
    }
}

impl Default for WholeFile {
    fn default() -> WholeFile {
        WholeFile::new()
    }
}

impl WholeFile {
    pub fn new() -> WholeFile {
        WholeFile {
            format: FORMAT.into(),
            description: DESCRIPTION.into(),
            summary: None,
            layouts: Vec::new(),
        }
    }

    /// Adds a layout; a layout given twice is refused (join its units files first, with
    /// `kamon units merge`). The layouts are kept in the order of their seeds, those of no
    /// known seed last in the order of their text, whatever order they came in (a shell's
    /// `*.json` reads `seed10.json` before `seed2.json`).
    pub fn add(&mut self, entry: WholeLayout) -> Result<()> {
        if let Some(other) = self.layouts.iter().find(|l| l.layout == entry.layout) {
            return Err(FileError::Invalid(format!(
                "{}: the same layout as {} (join them with `kamon units merge` first)",
                entry.units_file, other.units_file
            )));
        }
        fn order(l: &WholeLayout) -> (bool, Option<u64>, &str) {
            (l.seed.is_none(), l.seed, &l.layout)
        }
        let at = self.layouts.partition_point(|l| order(l) < order(&entry));
        self.layouts.insert(at, entry);
        Ok(())
    }

    /// Reads and checks a whole-games file named `shown`.
    pub fn parse(text: &str, shown: &str) -> Result<WholeFile> {
        let file: WholeFile = serde_json::from_str(text).map_err(|source| FileError::NotJson {
            shown: shown.into(),
            what: "a whole-games file",
            source,
        })?;
        if file.format != FORMAT {
            return Err(FileError::Invalid(format!(
                "{shown}: format {:?}, expected {FORMAT:?}",
                file.format
            )));
        }
        for (i, layout) in file.layouts.iter().enumerate() {
            layout
                .check()
                .map_err(|e| FileError::Invalid(format!("{shown}: layout {}: {e}", i + 1)))?;
        }
        Ok(file)
    }

    /// What the layouts add up to.
    pub fn summary(&self) -> WholeSummary {
        let proven: Vec<&WholeLayout> = self.layouts.iter().filter(|l| l.value.is_some()).collect();
        let n = proven.len() as u64;
        let count = |v: Value| proven.iter().filter(|l| l.value() == Some(v)).count() as u64;
        WholeSummary {
            layouts: self.layouts.len() as u64,
            proven: n,
            first_player_wins: Share::of(count(Value::Win), n),
            draws: Share::of(count(Value::Draw), n),
            second_player_wins: Share::of(count(Value::Loss), n),
            nodes: Spread::of(proven.iter().map(|l| l.nodes as f64).collect()),
            proof_nodes: Spread::of(
                proven
                    .iter()
                    .filter_map(|l| l.proof_nodes.map(|n| n as f64))
                    .collect(),
            ),
        }
    }

    /// The file's text with a fresh summary: pretty JSON, as it is written.
    pub fn to_text(&mut self) -> String {
        self.summary = Some(self.summary());
        serde_json::to_string_pretty(self).expect("a whole-games file is JSON")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shipped(name: &str) -> (UnitsFile, Split) {
        let path = format!(
            "{}/../../data/kamon-units/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).unwrap();
        UnitsFile::parse(&text, &path).unwrap()
    }

    #[test]
    fn a_layout_from_its_units_says_what_they_prove() {
        let (file, split) = shipped("seed1.json");
        let entry = WholeLayout::from_units(&file, &split, "seed1.json").unwrap();
        assert_eq!(entry.seed, Some(1));
        assert_eq!(entry.layout, Layout::random(1).to_string());
        // Recomputed here by the AND/OR rule from the units alone: Black wins if some
        // first cell has every reply's unit won by Black.
        let mut won_cells = Vec::new();
        for c in &entry.first_cells {
            let mine: Vec<_> = file
                .units
                .iter()
                .filter(|u| u.moves[0] == c.cell && u.value.is_some())
                .collect();
            let all_won =
                mine.len() == c.units && mine.iter().all(|u| u.winner.as_deref() == Some("black"));
            let refuted = mine.iter().any(|u| u.winner.as_deref() == Some("white"));
            assert_eq!(c.value.as_deref() == Some("win"), all_won, "{}", c.cell);
            assert_eq!(c.value.as_deref() == Some("loss"), refuted, "{}", c.cell);
            if all_won {
                won_cells.push(c.cell.clone());
            }
        }
        assert_eq!(entry.value.as_deref() == Some("win"), !won_cells.is_empty());
        assert_eq!(entry.nodes, file.units.iter().map(|u| u.nodes).sum::<u64>());
    }

    #[test]
    fn the_summary_counts_proven_layouts_only() {
        let (file, split) = shipped("seed1.json");
        let won = WholeLayout::from_units(&file, &split, "a").unwrap();
        let open = WholeLayout {
            layout: Layout::random(2).to_string(),
            seed: Some(2),
            value: None,
            winner: None,
            at_least: "loss".into(),
            at_most: "win".into(),
            proof_nodes: None,
            ..won.clone()
        };
        // A proof's nodes belong only to a proven value.
        let claimed = WholeLayout {
            proof_nodes: won.proof_nodes,
            ..open.clone()
        };
        assert!(won.proof_nodes.is_some());
        let mut forged = WholeFile::new();
        forged.add(claimed).unwrap();
        let err = WholeFile::parse(&forged.to_text(), "f").unwrap_err();
        assert!(err.to_string().contains("proof_nodes"), "{err}");
        let mut whole = WholeFile::new();
        whole.add(won.clone()).unwrap();
        whole.add(open).unwrap();
        assert!(whole.add(won.clone()).is_err(), "a layout twice");
        // Seed order, whatever the order of adding: seed 2's layout (added last) before a
        // layout of no known seed, seed 1's first.
        let unseeded = WholeLayout {
            layout: Layout::random(100_000).to_string(),
            seed: None,
            ..won.clone()
        };
        let mut ordered = WholeFile::new();
        for entry in [unseeded, whole.layouts[1].clone(), won] {
            ordered.add(entry).unwrap();
        }
        let seeds: Vec<_> = ordered.layouts.iter().map(|l| l.seed).collect();
        assert_eq!(seeds, [Some(1), Some(2), None]);
        let s = whole.summary();
        assert_eq!((s.layouts, s.proven), (2, 1));
        assert_eq!(s.first_player_wins.count, 1);
        assert_eq!(s.first_player_wins.share, 1.0);
        // One win in one: the Wilson interval is wide, not a certainty.
        assert!(s.first_player_wins.low < 0.25 && s.first_player_wins.high == 1.0);
        // Nodes over the proven layout only: all it searched, and its proof's share.
        let proven = &whole.layouts[0];
        assert_eq!(s.nodes.as_ref().unwrap().median, proven.nodes as f64);
        let proof = s.proof_nodes.as_ref().unwrap().median;
        assert_eq!(proof, proven.proof_nodes.unwrap() as f64);
        assert!(
            proof < proven.nodes as f64,
            "seed 1's file holds more than its proof"
        );
        let text = whole.to_text();
        assert_eq!(WholeFile::parse(&text, "t").unwrap().layouts, whole.layouts);
    }

    #[test]
    fn damaged_files_are_refused_in_one_line() {
        let (file, split) = shipped("seed1.json");
        let mut whole = WholeFile::new();
        whole
            .add(WholeLayout::from_units(&file, &split, "a").unwrap())
            .unwrap();
        let text = whole.to_text();
        let damaged = [
            text.replace(FORMAT, "kamisado kamon whole 9"),
            text.replacen("\"winner\": \"black\"", "\"winner\": \"white\"", 1),
            text.replacen("\"at_least\": \"win\"", "\"at_least\": \"draw\"", 1),
            text.replacen("\"layout\": \"", "\"layout\": \"x", 1),
            text.replacen("\"value\": \"win\"", "\"value\": \"won\"", 1),
            text[..text.len() / 2].to_owned(),
            // A proof of more nodes than were searched.
            text.replacen("\"proof_nodes\": ", "\"proof_nodes\": 9", 1),
        ];
        assert!(
            text.contains("\"proof_nodes\": "),
            "the field the last case alters"
        );
        for (i, d) in damaged.iter().enumerate() {
            let err = WholeFile::parse(d, "w.json").unwrap_err().to_string();
            assert!(
                err.starts_with("w.json") && !err.contains('\n'),
                "{i}: {err}"
            );
        }
    }

    #[test]
    fn a_split_of_a_later_position_is_not_a_whole_game() {
        let record = kamon_core::Record::random(1, 10).unwrap();
        let split = Split::new(record, 1).unwrap();
        let file = UnitsFile::new(&split);
        let err = WholeLayout::from_units(&file, &split, "late.json").unwrap_err();
        assert!(err.to_string().contains("not an empty board"), "{err}");
    }
}
