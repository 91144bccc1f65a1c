//! Re-deriving stored results from their children with the rules core.
//!
//! A record claims a value, perhaps an exact remoteness and a best move. Each claim is
//! re-derived from the position's moves: a child's result comes from the rules (finished
//! games, wins in one) or from the database itself. The position's score is the best of
//! its moves' scores, so every child gives an interval for the score through it, and the
//! position's score lies between the largest lower end and the largest upper end. A claim
//! outside that range is a disagreement; a claim the range pins down is verified; anything
//! else needs a child the database lacks and stays unverified, which is no failure (the
//! solver stores what a proof needed, not every position).
//!
//! [`check_by_search`] takes some of those unverified records and solves them afresh, so
//! that the claims the file alone cannot settle are still put to a test.

use kamisado_core::{Kamisado, Position};
use kamisado_solver::{Cancel, Score, SolveError, Solver, Value, MAX_REMOTENESS};
use rayon::prelude::*;

use crate::{Database, Record};

/// Which records to check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selection {
    All,
    /// About this many records, evenly spread over the key range (deterministic).
    Sample(u64),
}

/// How many disagreements a report lists (it counts them all).
pub const MAX_LISTED: usize = 100;

/// A record whose claims the rules and the rest of the database contradict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    /// The record's index in key order.
    pub index: u64,
    /// The position text of the stored (canonical) image, or the key in hex if the key
    /// does not describe a position.
    pub position: String,
    /// What is wrong, in one line.
    pub problem: String,
}

/// The result of [`check`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckReport {
    pub checked: u64,
    /// Records whose every claim was re-derived.
    pub verified: u64,
    /// Records with a claim that needs a child missing from the database (no failure).
    pub incomplete: u64,
    /// All disagreements found.
    pub disagreement_count: u64,
    /// The first [`MAX_LISTED`] disagreements, by index.
    pub disagreements: Vec<Disagreement>,
}

impl CheckReport {
    pub fn passed(&self) -> bool {
        self.disagreement_count == 0
    }
}

enum Outcome {
    Verified,
    Incomplete,
    Disagrees(String),
}

/// An interval of scores, for the mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Range {
    low: Score,
    high: Score,
}

impl Range {
    /// Every win (up to the longest game) and every loss: each maps to one value through
    /// a move.
    fn wins() -> Range {
        Range {
            low: Score::new(Value::Win, MAX_REMOTENESS),
            high: Score::WON,
        }
    }

    fn losses() -> Range {
        Range {
            low: Score::LOST,
            high: Score::new(Value::Loss, MAX_REMOTENESS),
        }
    }

    const ANY: Range = Range {
        low: Score::LOST,
        high: Score::WON,
    };

    fn exact(s: Score) -> Range {
        Range { low: s, high: s }
    }

    fn of_value(v: Value) -> Range {
        match v {
            Value::Win => Range::wins(),
            Value::Draw => Range::exact(Score::DRAW),
            Value::Loss => Range::losses(),
        }
    }

    fn of_record(r: Record) -> Range {
        match (r.value(), r.remoteness()) {
            (Value::Draw, _) | (_, None) => Range::of_value(r.value()),
            (value, Some(rem)) => Range::exact(Score::new(value, rem)),
        }
    }

    fn meets(self, other: Range) -> bool {
        self.low <= other.high && other.low <= self.high
    }

    fn within(self, other: Range) -> bool {
        other.low <= self.low && self.high <= other.high
    }

    fn text(self) -> String {
        let (wins, losses) = (Range::wins(), Range::losses());
        match (self.low, self.high) {
            (l, h) if l == h => l.to_string(),
            (l, _) if l <= wins.low && self.within(wins) => "a win".into(),
            (_, h) if h >= losses.high && self.within(losses) => "a loss".into(),
            (l, h) if l.value() == h.value() && l.value() != Value::Draw => format!(
                "a {} in {} to {}",
                l.value(),
                l.remoteness().min(h.remoteness()).unwrap_or(0),
                l.remoteness().max(h.remoteness()).unwrap_or(0)
            ),
            (l, h) => format!("anything from {l} to {h}"),
        }
    }
}

/// The range of the mover's score through a move to `child`; a damaged block of the
/// file is the error.
fn through(db: &Database, pos: &Position, child: &Position) -> Result<Range, String> {
    let child_range = match Score::by_rules(&Kamisado, child) {
        Some(s) => Range::exact(s),
        None => db
            .find(child.canonical_key().0)
            .map_err(|e| e.to_string())?
            .map_or(Range::ANY, Range::of_record),
    };
    // The map from the child's score to the mover's is monotone (increasing when the
    // same player moves again, decreasing otherwise), so the ends map to the ends.
    let passed = child.turn() != pos.turn();
    let (a, b) = (
        child_range.low.through_move(passed),
        child_range.high.through_move(passed),
    );
    Ok(Range {
        low: a.min(b),
        high: a.max(b),
    })
}

fn check_record(db: &Database, record: Record) -> Outcome {
    if !record.reserved_bits_clear() {
        return Outcome::Disagrees("reserved bits are set".into());
    }
    let pos = match Position::from_key(record.key()) {
        Ok(pos) => pos,
        Err(e) => return Outcome::Disagrees(format!("the key is not a position: {e}")),
    };
    let claim = Range::of_record(record);
    if let Some(s) = Score::by_rules(&Kamisado, &pos) {
        // The rules decide it (never stored by `collect`, but not wrong if consistent).
        let ruled = Range::exact(s);
        if !ruled.within(claim) {
            return Outcome::Disagrees(format!(
                "stored as {}, but the rules give {}",
                claim.text(),
                ruled.text()
            ));
        }
    }
    if pos.is_over() {
        return match record.best_move() {
            Some(m) => Outcome::Disagrees(format!("a finished game with a best move {m}")),
            None => Outcome::Verified,
        };
    }
    if pos.must_pass() {
        return Outcome::Disagrees(
            "the position has pending zero-length moves; databases hold positions after them"
                .into(),
        );
    }
    let moves = pos.legal_moves();
    let mut derived = Range {
        low: Score::BELOW_ALL,
        high: Score::BELOW_ALL,
    };
    for &m in &moves {
        let child = pos.play_unchecked(m);
        let r = match through(db, &pos, &child) {
            Ok(r) => r,
            Err(e) => return Outcome::Disagrees(e),
        };
        derived.low = derived.low.max(r.low);
        derived.high = derived.high.max(r.high);
    }
    if !derived.meets(claim) {
        return Outcome::Disagrees(format!(
            "stored as {}, but its moves give {}",
            claim.text(),
            derived.text()
        ));
    }
    let mut complete = derived.within(claim);
    if let Some(m) = record.best_move() {
        if m.is_zero_length() || !pos.is_legal(m) {
            return Outcome::Disagrees(format!("the stored best move {m} is not legal"));
        }
        let r = match through(db, &pos, &pos.play_unchecked(m)) {
            Ok(r) => r,
            Err(e) => return Outcome::Disagrees(e),
        };
        if !r.meets(claim) {
            return Outcome::Disagrees(format!(
                "stored as {} with best move {m}, but {m} gives {}",
                claim.text(),
                r.text()
            ));
        }
        complete &= r.within(claim);
    }
    if complete {
        Outcome::Verified
    } else {
        Outcome::Incomplete
    }
}

/// The record indices a selection names.
fn indices(len: u64, selection: Selection) -> Vec<u64> {
    match selection {
        Selection::Sample(n) if n < len => (0..n)
            .map(|i| (i as u128 * len as u128 / n as u128) as u64)
            .collect(),
        _ => (0..len).collect(),
    }
}

/// Re-derives the selected records from their children. `progress` is told how many
/// records have been checked so far (called from several threads).
///
/// This checks meaning, not bytes: run [`Database::verify_checksum`] and
/// [`Database::verify_layout`] first.
pub fn check(db: &Database, selection: Selection, progress: &(dyn Fn(u64) + Sync)) -> CheckReport {
    let chosen = indices(db.len() as u64, selection);
    let done = std::sync::atomic::AtomicU64::new(0);
    let mut report = chosen
        .par_chunks(1024)
        .map(|chunk| {
            let mut part = CheckReport::default();
            for &index in chunk {
                let Some(record) = db.get(index as usize) else {
                    continue;
                };
                part.checked += 1;
                match check_record(db, record) {
                    Outcome::Verified => part.verified += 1,
                    Outcome::Incomplete => part.incomplete += 1,
                    Outcome::Disagrees(problem) => {
                        part.disagreement_count += 1;
                        if part.disagreements.len() < MAX_LISTED {
                            let position = Position::from_key(record.key())
                                .map(|p| p.to_string())
                                .unwrap_or_else(|_| format!("key {:#x}", record.key()));
                            part.disagreements.push(Disagreement {
                                index,
                                position,
                                problem,
                            });
                        }
                    }
                }
            }
            let n = chunk.len() as u64;
            progress(done.fetch_add(n, std::sync::atomic::Ordering::Relaxed) + n);
            part
        })
        .reduce(CheckReport::default, |mut a, b| {
            a.checked += b.checked;
            a.verified += b.verified;
            a.incomplete += b.incomplete;
            a.disagreement_count += b.disagreement_count;
            a.disagreements.extend(b.disagreements);
            a
        });
    report.disagreements.sort_by_key(|d| d.index);
    report.disagreements.truncate(MAX_LISTED);
    report
}

/// Solves afresh up to `limit` of the selected records that [`check`] cannot settle from
/// the file (a child it needs is missing), evenly spread over them, and compares every
/// claim: the value, the exact remoteness where one is stored, and that the stored best
/// move keeps that result. `solver` should not have been fed from this database; its
/// table is its own. `progress` is told how many records have been solved so far.
pub fn check_by_search(
    db: &Database,
    selection: Selection,
    limit: u64,
    solver: &Solver<Kamisado>,
    cancel: &Cancel,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<CheckReport, SolveError> {
    let unsettled: Vec<(u64, Record)> = indices(db.len() as u64, selection)
        .into_par_iter()
        .filter_map(|index| {
            let record = db.get(index as usize)?;
            matches!(check_record(db, record), Outcome::Incomplete).then_some((index, record))
        })
        .collect();
    let mut report = CheckReport::default();
    let n = unsettled.len() as u64;
    let take = limit.min(n);
    for i in 0..take {
        let (index, record) = unsettled[(i as u128 * n as u128 / take as u128) as usize];
        report.checked += 1;
        match solve_record(record, solver, cancel)? {
            None => report.verified += 1,
            Some(problem) => {
                report.disagreement_count += 1;
                if report.disagreements.len() < MAX_LISTED {
                    report.disagreements.push(Disagreement {
                        index,
                        position: Position::from_key(record.key())
                            .map(|p| p.to_string())
                            .unwrap_or_else(|_| format!("key {:#x}", record.key())),
                        problem,
                    });
                }
            }
        }
        progress(i + 1);
    }
    Ok(report)
}

/// What is wrong with a record by a fresh solve, if anything. Only for records whose key
/// is a position in play (the ones [`check_record`] calls incomplete).
pub(crate) fn solve_record(
    record: Record,
    solver: &Solver<Kamisado>,
    cancel: &Cancel,
) -> Result<Option<String>, SolveError> {
    let Ok(pos) = Position::from_key(record.key()) else {
        return Ok(Some("the key is not a position".into()));
    };
    let claim = Range::of_record(record);
    let found = match record.remoteness() {
        Some(_) => Range::exact(solver.score(&pos, cancel)?),
        None => Range::of_value(solver.value(&pos, cancel)?),
    };
    if found != claim {
        return Ok(Some(format!(
            "stored as {}, but a fresh solve gives {}",
            claim.text(),
            found.text()
        )));
    }
    let Some(m) = record.best_move() else {
        return Ok(None);
    };
    if m.is_zero_length() || !pos.is_legal(m) {
        return Ok(Some(format!("the stored best move {m} is not legal")));
    }
    let child = pos.play_unchecked(m);
    let passed = child.turn() != pos.turn();
    let through_best = match (Score::by_rules(&Kamisado, &child), record.remoteness()) {
        (Some(s), _) => Range::exact(s.through_move(passed)),
        (None, Some(_)) => Range::exact(solver.score(&child, cancel)?.through_move(passed)),
        (None, None) => {
            let v = solver.value(&child, cancel)?;
            Range::of_value(if passed { v.flip() } else { v })
        }
    };
    Ok((!through_best.within(claim)).then(|| {
        format!(
            "stored as {} with best move {m}, but {m} gives {}",
            claim.text(),
            through_best.text()
        )
    }))
}
