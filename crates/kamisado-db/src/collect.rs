//! Turning what a solver proved into records.

use kamisado_core::{Kamisado, Move, Position};
use kamisado_solver::{Entry, Outcome, Score, Solver};
use rayon::prelude::*;

use crate::Record;

/// A position whose exact result the caller knows, to be stored whether or not the
/// solver's table still holds it: the root of a solve (a multi-threaded solve proves the
/// root's moves, not the root's own table entry), the positions of a perfect line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solved {
    /// Any position of the game; pending zero-length moves are played first.
    pub position: Position,
    /// For the side to move (of the resolved position).
    pub outcome: Outcome,
    /// A move keeping that result (fastest win, slowest loss), if known.
    pub best: Option<Move>,
}

impl Solved {
    /// Every position along a perfect line from `start` (whose exact result is
    /// `outcome`), each with the line's next move as its best move. `line`
    /// is what [`Solver::principal_variation`] or [`kamisado_solver::Solution::pv`] gives.
    pub fn along_line(start: &Position, outcome: Outcome, line: &[Move]) -> Vec<Solved> {
        let mut out = Vec::with_capacity(line.len() + 1);
        let (
            mut pos,
            Outcome {
                mut value,
                mut remoteness,
            },
        ) = (Kamisado::root(start), outcome);
        for &m in line {
            if pos.is_over() || !pos.is_legal(m) || remoteness == 0 {
                break;
            }
            out.push(Solved {
                position: pos,
                outcome: Outcome::new(value, remoteness),
                best: Some(m),
            });
            let child = pos.play_unchecked(m);
            if child.turn() != pos.turn() {
                value = value.flip();
            }
            remoteness -= 1;
            pos = child;
        }
        out
    }
}

/// The exact score of a position as far as the rules and the table know.
fn known_score(solver: &Solver<Kamisado>, pos: &Position) -> Option<Score> {
    Score::by_rules(&Kamisado, pos).or_else(|| {
        solver
            .table()
            .get(pos.canonical_key().0)
            .and_then(|e| e.exact())
    })
}

/// A record for one table entry: the value if proven, the remoteness if exact, and a best
/// move if the table shows one (a move to a child whose exact score keeps the entry's).
fn entry_record(solver: &Solver<Kamisado>, key: u128, e: &Entry) -> Option<Record> {
    let value = e.proven_value()?;
    let exact = e.exact();
    let best = exact.and_then(|s| {
        // The key names the canonical image itself, so its moves are already in the
        // image's coordinates.
        let pos = Position::from_key(key).ok()?;
        pos.legal_moves().into_iter().find(|&m| {
            let child = pos.play_unchecked(m);
            known_score(solver, &child)
                .is_some_and(|c| c.through_move(child.turn() != pos.turn()) == s)
        })
    });
    Some(Record::new(
        key,
        value,
        exact.and_then(Score::remoteness),
        best,
    ))
}

/// Every position whose value the solver's table proves, plus the `solved` positions
/// the caller knows, as records sorted by key without duplicates: ready for
/// [`crate::write()`].
///
/// A record holds the remoteness where the table's bounds met, and a best move where the
/// table (or the rules, for finished games and wins in one) shows a child with the exact
/// score that keeps it. Where a `solved` position is also in the table, what the caller
/// knows comes first. Finished games are never stored: the rules decide them.
pub fn collect(solver: &Solver<Kamisado>, solved: &[Solved]) -> Vec<Record> {
    let mut entries: Vec<(u128, Entry)> = Vec::new();
    solver.table().for_each(|key, e| {
        if e.proven_value().is_some() {
            entries.push((key, e));
        }
    });
    let from_table: Vec<Record> = entries
        .par_iter()
        .filter_map(|(key, e)| entry_record(solver, *key, e))
        .collect();
    let mut from_caller: Vec<Record> = solved
        .iter()
        .filter_map(|s| {
            let pos = Kamisado::root(&s.position);
            (!pos.is_over()).then(|| {
                Record::for_position(&pos, s.outcome.value, Some(s.outcome.remoteness), s.best)
            })
        })
        .collect();
    // What the caller knows first, so that a stable sort keeps it ahead of the table and
    // the merge below prefers it.
    from_caller.extend(from_table);
    let mut records = from_caller;
    records.par_sort_by_key(|r| r.key());
    let mut merged: Vec<Record> = Vec::with_capacity(records.len());
    for r in records {
        match merged.last_mut() {
            Some(last) if last.key() == r.key() => *last = last.merge(r),
            _ => merged.push(r),
        }
    }
    merged
}
