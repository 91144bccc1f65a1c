//! The survey file: every solved layout of one or more runs, in JSON.
//!
//! Why one JSON document rewritten after every layout (under a temporary name, then
//! renamed): a survey must survive an interruption at any moment and be resumable, and
//! the shipped file must be readable by anyone. A document of a few thousand entries is
//! rewritten in milliseconds, and a rename is atomic, so the file on disk is always a
//! whole survey. Each run is named by its first seed and its K (`after`); its entries by
//! their layout index, so shards of one run, written to different files, join without
//! conflict. The summary written beside each run is recomputed from the entries every
//! time and ignored when reading.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::survey_stats::Summary;

/// Why a data file (a survey, a units results file) cannot be read or joined: one line
/// naming the file, with its cause kept.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    #[error("{shown}: not {what}: {source}")]
    NotJson {
        shown: String,
        what: &'static str,
        #[source]
        source: serde_json::Error,
    },
    /// Read, but not what the format promises, or at odds with another file.
    #[error("{0}")]
    Invalid(String),
}

/// What the file says it is.
pub const FORMAT: &str = "kamisado kamon survey 1";

/// One layout's result.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Entry {
    /// Layout index within the run, from 0.
    pub index: u64,
    /// The layout's seed: the run's seed plus the index.
    pub seed: u64,
    pub layout: String,
    /// The K random placements before the surveyed position.
    pub moves: Vec<String>,
    /// The player to move at the surveyed position.
    pub to_move: String,
    /// For the side to move: `win`, `draw` or `loss`; absent if not solved in time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// `black`, `white` or `draw`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remoteness: Option<u32>,
    /// A perfect line from the surveyed position (the first best placement at each step).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pv: Option<Vec<String>>,
    /// How that line ends: `connection`, `loop`, `no legal cell` or `full board`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ends_by: Option<String>,
    /// Every legal placement with its value for the player making it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_moves: Option<Vec<MoveValue>>,
    pub nodes: u64,
    pub seconds: f64,
    pub threads: usize,
    pub hash_mb: u64,
    /// The time limit the layout was given, if any (an unsolved layout ran out of it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_limit: Option<f64>,
    /// The machine's load average (one minute) when the layout finished, where known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load: Option<f64>,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct MoveValue {
    pub cell: String,
    pub value: String,
}

/// The layouts of one seed and K.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Run {
    /// Layout i is the random layout of seed `seed + i`.
    pub seed: u64,
    /// Random placements before the surveyed position.
    pub after: u32,
    /// Written for readers, recomputed from the entries; ignored when reading.
    #[serde(default, skip_deserializing)]
    pub summary: Option<Summary>,
    /// By index.
    pub entries: Vec<Entry>,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct SurveyFile {
    pub format: String,
    pub description: String,
    /// By seed, then K.
    pub runs: Vec<Run>,
}

const DESCRIPTION: &str = "Kamon layouts solved by `kamisado kamon survey`. Layout i of a run is the random layout of seed (seed + i) (`kamisado kamon random --seed N`); with after = K, the position after its K random placements (`kamisado kamon random --seed N --after K`). value is for the side to move at that position, winner names who wins with perfect play (black is the first player), remoteness counts placements from that position to the end, pv is a perfect line and ends_by how it ends, first_moves the value of every legal placement for the player making it. seconds and nodes are per layout; load is the one-minute load average of the machine when the layout finished.";

impl Default for SurveyFile {
    fn default() -> SurveyFile {
        SurveyFile::new()
    }
}

impl SurveyFile {
    /// An empty survey.
    pub fn new() -> SurveyFile {
        SurveyFile {
            format: FORMAT.to_string(),
            description: DESCRIPTION.to_string(),
            runs: Vec::new(),
        }
    }

    /// A survey file from its text; `shown` names it in the errors.
    pub fn parse(text: &str, shown: &str) -> Result<SurveyFile, FileError> {
        let file: SurveyFile = serde_json::from_str(text).map_err(|source| FileError::NotJson {
            shown: shown.to_owned(),
            what: "a survey file",
            source,
        })?;
        if file.format != FORMAT {
            return Err(FileError::Invalid(format!(
                "{shown}: not a survey file of this version (format `{}`, expected `{FORMAT}`)",
                file.format
            )));
        }
        for run in &file.runs {
            for (i, entry) in run.entries.iter().enumerate() {
                if run.seed.checked_add(entry.index) != Some(entry.seed)
                    || run.entries[..i].iter().any(|e| e.index == entry.index)
                {
                    return Err(FileError::Invalid(format!(
                        "{shown}: run seed {} after {}: entry {} is out of place (seed {})",
                        run.seed, run.after, entry.index, entry.seed
                    )));
                }
                entry.check(run.after).map_err(|problem| {
                    FileError::Invalid(format!(
                        "{shown}: run seed {} after {}, entry {}: {problem}",
                        run.seed, run.after, entry.index
                    ))
                })?;
            }
        }
        Ok(file)
    }

    /// The run of `seed` and `after`, made if missing.
    pub fn run_mut(&mut self, seed: u64, after: u32) -> &mut Run {
        let i = match self
            .runs
            .iter()
            .position(|r| r.seed == seed && r.after == after)
        {
            Some(i) => i,
            None => {
                self.runs.push(Run {
                    seed,
                    after,
                    summary: None,
                    entries: Vec::new(),
                });
                self.runs.sort_by_key(|r| (r.seed, r.after));
                self.runs
                    .iter()
                    .position(|r| r.seed == seed && r.after == after)
                    .expect("just added")
            }
        };
        &mut self.runs[i]
    }

    /// Adds `entry` to a run, in index order, replacing an entry of the same index.
    pub fn add(&mut self, seed: u64, after: u32, entry: Entry) {
        let run = self.run_mut(seed, after);
        run.entries.retain(|e| e.index != entry.index);
        let at = run.entries.partition_point(|e| e.index < entry.index);
        run.entries.insert(at, entry);
    }

    /// Adds every entry of `other`. An index in both must agree on its result where both
    /// solved it; the fuller entry (solved, then with remoteness) is kept. Entries of one
    /// run (seed and K) must have been solved the same way (the same time limit, all
    /// values only or none): a file that differs is a part of another run, refused.
    pub fn merge(&mut self, other: SurveyFile, name: &str) -> Result<(), FileError> {
        for run in other.runs {
            for entry in &run.entries {
                let earlier = self
                    .runs
                    .iter()
                    .filter(|r| r.seed == run.seed && r.after == run.after)
                    .flat_map(|r| &r.entries)
                    .find(|e| e.time_limit != entry.time_limit || conflicting_modes(e, entry));
                if let Some(e) = earlier {
                    return Err(FileError::Invalid(format!(
                        "{name}: run seed {} after {}: layout {} was solved {}, layout {} read before {} (a part of another run)",
                        run.seed,
                        run.after,
                        entry.index,
                        how_solved(entry),
                        e.index,
                        how_solved(e)
                    )));
                }
            }
            for entry in run.entries {
                let existing = self
                    .run_mut(run.seed, run.after)
                    .entries
                    .iter()
                    .find(|e| e.index == entry.index)
                    .cloned();
                let keep_new = match &existing {
                    None => true,
                    Some(old) => {
                        if old.value.is_some()
                            && entry.value.is_some()
                            && (old.value != entry.value
                                || old.remoteness.is_some()
                                    && entry.remoteness.is_some()
                                    && old.remoteness != entry.remoteness)
                        {
                            return Err(FileError::Invalid(format!(
                                "{name}: run seed {} after {}, layout {}: {} in {} disagrees with {} in {} read before",
                                run.seed,
                                run.after,
                                entry.index,
                                entry.value.as_deref().unwrap_or("?"),
                                entry.remoteness.map_or("?".to_string(), |r| r.to_string()),
                                old.value.as_deref().unwrap_or("?"),
                                old.remoteness.map_or("?".to_string(), |r| r.to_string()),
                            )));
                        }
                        fullness(&entry) > fullness(old)
                    }
                };
                if keep_new {
                    self.add(run.seed, run.after, entry);
                }
            }
        }
        Ok(())
    }

    /// The file's text with fresh summaries: pretty JSON, as it is written.
    pub fn to_text(&mut self) -> String {
        for run in &mut self.runs {
            run.summary = None;
            run.summary = Some(Summary::of(run));
        }
        serde_json::to_string_pretty(self).expect("a survey is JSON")
    }

    /// The indices a run already holds.
    pub fn done(&self, seed: u64, after: u32) -> BTreeSet<u64> {
        self.runs
            .iter()
            .filter(|r| r.seed == seed && r.after == after)
            .flat_map(|r| r.entries.iter().map(|e| e.index))
            .collect()
    }
}

impl Entry {
    /// Whether the entry is what the survey writes for its seed and `after`: the seed's
    /// layout and random placements, the side to move, and claims that hold together
    /// (the winner as the value says, a value for every legal first move and the best of
    /// them the entry's, a perfect line of `remoteness` legal placements that ends as
    /// the value says); an unsolved entry (no value) ran out of its time limit and
    /// claims nothing. What is wrong, in words.
    pub fn check(&self, after: u32) -> std::result::Result<(), String> {
        let record = kamon_core::Record::random(self.seed, after).ok_or_else(|| {
            format!(
                "seed {} has no random game of {after} placements",
                self.seed
            )
        })?;
        if self.layout != record.layout().to_string() {
            return Err(format!(
                "the layout is not the random layout of seed {}",
                self.seed
            ));
        }
        if self.moves.join(" ") != record.moves_text() {
            return Err(format!(
                "the moves are not the {after} random placements of seed {}",
                self.seed
            ));
        }
        let (layout, pos) = (record.layout(), *record.position());
        if self.to_move != pos.turn().name() {
            return Err(format!("`to_move` is not {}", pos.turn().name()));
        }
        let Some(value) = self.value.as_deref() else {
            if self.time_limit.is_none() {
                return Err("no `value`, and no time limit it could have run out of".into());
            }
            if self.winner.is_some()
                || self.remoteness.is_some()
                || self.pv.is_some()
                || self.first_moves.is_some()
            {
                return Err("no `value`, but a winner, remoteness, line or first moves".into());
            }
            return Ok(());
        };
        let winner = match value {
            "win" => pos.turn().name(),
            "loss" => (!pos.turn()).name(),
            "draw" => "draw",
            _ => return Err("`value` is not win, draw or loss".into()),
        };
        if self.winner.as_deref() != Some(winner) {
            return Err(format!("the winner is not {winner}, as the value says"));
        }
        let rank = |v: &str| ["loss", "draw", "win"].iter().position(|&x| x == v);
        if let Some(moves) = &self.first_moves {
            let legal: Vec<String> = pos.legal_cells(layout).map(|c| c.to_string()).collect();
            let cells: Vec<String> = moves.iter().map(|m| m.cell.clone()).collect();
            if cells != legal {
                return Err("the first moves are not the legal placements".into());
            }
            if moves.iter().any(|m| rank(&m.value).is_none()) {
                return Err("a first move's value is not win, draw or loss".into());
            }
            if moves.iter().map(|m| rank(&m.value)).max() != Some(rank(value)) {
                return Err("the best first move's value is not the entry's".into());
            }
        }
        if let Some(r) = self.remoteness {
            let pv = self
                .pv
                .as_ref()
                .ok_or("a remoteness without a perfect line")?;
            if pv.len() as u64 != r as u64 {
                return Err(format!(
                    "the perfect line has {} placements, not {r}",
                    pv.len()
                ));
            }
            let mut line = record.clone();
            line.play_text(&pv.join(" "))
                .map_err(|e| format!("the perfect line: {e}"))?;
            let end = line
                .position()
                .end()
                .ok_or("the perfect line does not end the game")?;
            if end.winner.map_or("draw", |w| w.name()) != winner {
                return Err("the perfect line does not end as the value says".into());
            }
            if self.ends_by.as_deref() != Some(end.reason.name()) {
                return Err(format!("the perfect line ends by {}", end.reason.name()));
            }
        }
        Ok(())
    }
}

/// How much an entry says: unsolved, value only, with remoteness.
fn fullness(e: &Entry) -> u8 {
    match (e.value.is_some(), e.remoteness.is_some()) {
        (false, _) => 0,
        (true, false) => 1,
        (true, true) => 2,
    }
}

/// Values only (no remoteness) for a solved entry; unknown for an unsolved one.
fn values_only(e: &Entry) -> Option<bool> {
    e.value.as_ref().map(|_| e.remoteness.is_none())
}

fn conflicting_modes(a: &Entry, b: &Entry) -> bool {
    matches!((values_only(a), values_only(b)), (Some(x), Some(y)) if x != y)
}

/// How an entry was solved, for errors.
fn how_solved(e: &Entry) -> String {
    let limit = e.time_limit.map_or("without a time limit".to_owned(), |t| {
        format!("with a time limit of {t} s")
    });
    match values_only(e) {
        Some(true) => format!("{limit}, values only"),
        _ => limit,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kamisado_solver::{Cancel, Options, Solver};
    use kamon_core::KamonGame;

    const AFTER: u32 = 26;

    /// The entry of layout `index` of a run from seed 1, solved (value only) by the
    /// solver when `solve`, else left unsolved by a time limit.
    fn entry(index: u64, solve: bool) -> Entry {
        let seed = 1 + index;
        let record = kamon_core::Record::random(seed, AFTER).unwrap();
        let value = solve.then(|| {
            let options = Options {
                threads: 1,
                table_bytes: 4 << 20,
            };
            let solver = Solver::new(KamonGame::new(record.layout().clone()), options).unwrap();
            let node = solver.game().node(record.position());
            solver.value(&node, &Cancel::new()).unwrap()
        });
        let turn = record.position().turn();
        Entry {
            index,
            seed,
            layout: record.layout().to_string(),
            moves: record
                .moves_text()
                .split_whitespace()
                .map(String::from)
                .collect(),
            to_move: turn.name().to_string(),
            value: value.map(|v| v.name().to_string()),
            winner: value.map(|v| crate::kamon::winner(turn, v).to_string()),
            remoteness: None,
            pv: None,
            ends_by: None,
            first_moves: None,
            nodes: 1,
            seconds: 0.0,
            threads: 1,
            hash_mb: 4,
            time_limit: (!solve).then_some(1.0),
            load: None,
        }
    }

    #[test]
    fn a_survey_reads_back_as_written_and_its_checks_bite() {
        let mut file = SurveyFile::new();
        file.add(1, AFTER, entry(1, true));
        file.add(1, AFTER, entry(0, true));
        let text = file.to_text();
        let read = SurveyFile::parse(&text, "s.json").unwrap();
        assert_eq!(read.runs.len(), 1);
        assert_eq!(read.runs[0].entries, file.runs[0].entries);
        assert_eq!(read.done(1, AFTER), [0, 1].into_iter().collect());
        assert!(file.runs[0].summary.is_some(), "written with its summary");

        // An entry out of its place, or claiming another winner, is refused.
        let moved = text.replacen("\"seed\": 2", "\"seed\": 7", 1);
        let e = SurveyFile::parse(&moved, "s.json").unwrap_err().to_string();
        assert!(e.starts_with("s.json: run seed 1 after 26: entry"), "{e}");
        let e = SurveyFile::parse("{", "s.json").unwrap_err();
        assert!(std::error::Error::source(&e).is_some());
        assert!(e.to_string().starts_with("s.json: not a survey file: "));
    }

    #[test]
    fn merging_keeps_the_fuller_entry_and_refuses_another_run() {
        let mut file = SurveyFile::new();
        file.add(1, AFTER, entry(0, true));
        let mut other = SurveyFile::new();
        other.add(1, AFTER, entry(1, true));
        file.merge(other, "b.json").unwrap();
        assert_eq!(file.done(1, AFTER), [0, 1].into_iter().collect());

        // Solved another way (a time limit where the first had none): a part of another run.
        let mut unsolved = SurveyFile::new();
        unsolved.add(1, AFTER, entry(2, false));
        let e = file.merge(unsolved, "c.json").unwrap_err().to_string();
        assert!(e.contains("(a part of another run)"), "{e}");

        // A result that disagrees with one read before.
        let mut wrong = entry(0, true);
        let flipped = if wrong.value.as_deref() == Some("win") {
            "loss"
        } else {
            "win"
        };
        wrong.value = Some(flipped.to_string());
        let mut bad = SurveyFile::new();
        bad.add(1, AFTER, wrong);
        let e = file.merge(bad, "d.json").unwrap_err().to_string();
        assert!(e.contains("disagrees with"), "{e}");
    }
}
