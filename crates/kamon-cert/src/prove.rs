//! The prover: from the solver's values to a certificate the checker accepts.
//!
//! It trusts the solver only to find the placements; the certificate is checked without
//! it. Starting from the claims, every statement a proof needs becomes an entry, whose
//! children's statements are needed in turn, until every need is met by the rules or by
//! an entry (a stronger entry meets a weaker need: "loses" shows "cannot win", "wins"
//! shows "draws or wins").
//!
//! "Loses" and "cannot win" need no search: the checker lists the placements. "Wins" and
//! "draws or wins" need one placement that leads where the opponent loses (or cannot
//! win): the children the solver's table already settles the right way are tried first
//! (a proof search leaves them there), then the unsettled ones, each asked of the solver
//! (which answers from its table when it can); children the table settles the wrong way
//! are never asked. So after a [`Solver::value`] of the claimed positions, most needs
//! cost a table look-up, and a proof costs one more search only where the table evicted
//! what it found.

use std::collections::HashMap;

use foldhash::fast::FixedState;
use kamisado_solver::{Cancel, Game, Question, SolveError, Solver, Value};
use kamon_core::{Cell, KamonGame, Node, Outcome, Position};

use crate::check::by_rules;
use crate::forced::forced_placements;
use crate::{Certificate, Claim, Entry, Kind, FORMAT_VERSION};

/// Why no certificate was made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProveError {
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// The solver's results contradict each other (a bug): no proof can be built on them.
    #[error("the solver's results are inconsistent at {position}: {problem}")]
    Inconsistent { position: String, problem: String },
}

/// How far a proof has got, for progress reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    pub entries: usize,
    /// Statements still to be shown (many are met by the rules or existing entries).
    pub pending: usize,
    /// Positions asked of the solver so far (most answered from its table).
    pub searches: usize,
}

/// The entries made about one position, packed into 28 bits: for kind number k, bit 7k
/// says there is an entry of that kind, bits 7k + 1 to 7k + 6 hold its placement's cell
/// bit (63 for an entry about every placement). A proof's positions are kept in a map of
/// these, a 32-byte slot a position (the u128 key aligns it), 37 to 73 bytes with the
/// map's slack (rejected: a list of (kind, placement) per position,
/// measured at 183 bytes an entry: seed 1's unit b1 b2, 37 M entries, needed 6.8 GB, and
/// the refutations of a lost layout are several times larger).
#[derive(Clone, Copy, Debug, Default)]
struct Made(u32);

impl Made {
    fn field(self, kind: Kind) -> Option<u32> {
        let field = self.0 >> (7 * kind as u32) & 0x7f;
        (field & 1 == 1).then_some(field >> 1)
    }

    /// Whether an entry made here shows `wanted`.
    fn shows(self, wanted: Kind) -> bool {
        Kind::ALL
            .into_iter()
            .any(|k| self.field(k).is_some() && k.implies(wanted))
    }

    /// Adds an entry of `kind`, which must not be here yet.
    fn add(&mut self, kind: Kind, placement: Option<Cell>) {
        debug_assert!(self.field(kind).is_none(), "one entry a kind");
        let bit = placement.map_or(63, Cell::bit);
        self.0 |= (1 | bit << 1) << (7 * kind as u32);
    }

    /// The entries made about the position of `key`.
    fn entries(self, key: u128) -> impl Iterator<Item = Entry> {
        Kind::ALL.into_iter().filter_map(move |k| {
            let bit = self.field(k)?;
            let placement = if bit == 63 { None } else { Cell::from_bit(bit) };
            Some(Entry::new(key, k, placement))
        })
    }
}

struct Builder<'a> {
    solver: &'a Solver<KamonGame>,
    cancel: &'a Cancel<'a>,
    /// The entries made so far, by position key.
    entries: HashMap<u128, Made, FixedState>,
    count: usize,
    searches: usize,
}

/// What [`prove`] claims of each position: its value, or one side of it (a bound, what
/// a drawn root's proof needs of some positions below it: "at least a draw" of a drawing
/// placement's replies, "at most a draw" of the reply that holds a placement to a draw).
/// A bound that does not hold is claimed the other way, as the value it leaves: a
/// position not worth at least a draw is a loss, one not held to at most a draw a win.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Aim {
    #[default]
    Value,
    AtLeastDraw,
    AtMostDraw,
}

/// A certificate for the value (or with `aim`, one bound) of each position, with one
/// proof shared by all: common positions appear once. The solver should have solved them
/// already (its table is where the prover finds its placements); `progress` is called
/// every few thousand entries.
pub fn prove(
    solver: &Solver<KamonGame>,
    positions: &[Position],
    aim: Aim,
    cancel: &Cancel,
    progress: &mut dyn FnMut(Progress),
) -> Result<Certificate, ProveError> {
    let mut builder = Builder {
        solver,
        cancel,
        entries: HashMap::with_hasher(FixedState::default()),
        count: 0,
        searches: 0,
    };
    let game = solver.game();
    let mut claims = Vec::with_capacity(positions.len());
    let mut needs: Vec<(Node, Kind)> = Vec::new();
    for pos in positions {
        let node = game.node(pos);
        let claim = claim_of(solver, pos, aim, cancel)?;
        needs.extend(claim.statements().iter().map(|&kind| (node, kind)));
        claims.push(claim);
    }
    while let Some((node, kind)) = needs.pop() {
        builder.show(&node, kind, &mut needs)?;
        if builder.count.is_multiple_of(4096) {
            progress(Progress {
                entries: builder.count,
                pending: needs.len(),
                searches: builder.searches,
            });
        }
    }
    let mut entries: Vec<Entry> = Vec::with_capacity(builder.count);
    for (key, made) in builder.entries {
        entries.extend(made.entries(key));
    }
    entries.sort_unstable();
    progress(Progress {
        entries: entries.len(),
        pending: 0,
        searches: builder.searches,
    });
    Ok(Certificate {
        version: FORMAT_VERSION,
        layout: game.layout().clone(),
        claims,
        entries,
    })
}

/// What `prove` claims of `pos` with `aim`: its value, or the bound asked if it holds and
/// else the value it leaves, found by the solver (the one question of a bound, not the
/// value). A caller that wants the search done first (under a progress display, or a
/// time limit) calls this itself; `prove` then finds the answer in the table.
pub fn claim_of(
    solver: &Solver<KamonGame>,
    pos: &Position,
    aim: Aim,
    cancel: &Cancel,
) -> Result<Claim, SolveError> {
    let node = solver.game().node(pos);
    let (low, high) = match aim {
        Aim::Value => {
            let value = outcome_of(solver.value(&node, cancel)?);
            (value, value)
        }
        Aim::AtLeastDraw if solver.value_at_least(&node, Value::Draw, cancel)? => {
            (Outcome::Draw, Outcome::Win)
        }
        Aim::AtLeastDraw => (Outcome::Loss, Outcome::Loss),
        Aim::AtMostDraw if solver.value_at_least(&node, Value::Win, cancel)? => {
            (Outcome::Win, Outcome::Win)
        }
        Aim::AtMostDraw => (Outcome::Loss, Outcome::Draw),
    };
    Ok(Claim::bounds(*pos, low, high).expect("a value or a bound about a draw"))
}

fn outcome_of(value: Value) -> Outcome {
    match value {
        Value::Win => Outcome::Win,
        Value::Draw => Outcome::Draw,
        Value::Loss => Outcome::Loss,
    }
}

impl Builder<'_> {
    /// Makes sure `kind` is shown for `node` (by the rules or an entry), queueing what a
    /// new entry needs in turn.
    fn show(
        &mut self,
        node: &Node,
        kind: Kind,
        needs: &mut Vec<(Node, Kind)>,
    ) -> Result<(), ProveError> {
        let game = self.solver.game();
        let layout = game.layout();
        let pos = node.position();
        match by_rules(layout, pos, kind, forced_placements(FORMAT_VERSION)) {
            Some(true) => return Ok(()),
            Some(false) => return Err(self.inconsistent(pos, kind, "the rules say otherwise")),
            None => {}
        }
        let key = pos.key();
        if self.entries.get(&key).is_some_and(|made| made.shows(kind)) {
            return Ok(());
        }
        let after = kind.after_placement();
        let placement = if kind.names_a_move() {
            let cell = self.find_placement(node, kind)?;
            needs.push((game.play(node, cell), after));
            Some(cell)
        } else {
            for cell in pos.legal_cells(layout) {
                needs.push((game.play(node, cell), after));
            }
            None
        };
        self.entries.entry(key).or_default().add(kind, placement);
        self.count += 1;
        Ok(())
    }

    /// A placement after which the opponent loses (for "wins") or cannot win (for "draws
    /// or wins"): the table's settled children first, then the open ones, asked.
    fn find_placement(&mut self, node: &Node, kind: Kind) -> Result<Cell, ProveError> {
        let game = self.solver.game();
        let pos = node.position();
        // The opponent's question, and the answer it must get: no.
        let question = match kind {
            Kind::Wins => Question::DrawsOrWins,
            _ => Question::Wins,
        };
        let threshold = question.threshold();
        let mut open = Vec::new();
        for cell in pos.legal_cells(game.layout()) {
            let child = game.play(node, cell);
            if let Some(outcome) = child.position().outcome() {
                let good = match kind {
                    Kind::Wins => outcome == Outcome::Loss,
                    _ => outcome <= Outcome::Draw,
                };
                if good {
                    return Ok(cell);
                }
                continue;
            }
            match self.solver.table().get(child.position().key()) {
                Some(e) if e.high < threshold => return Ok(cell),
                Some(e) if e.low >= threshold => {}
                _ => open.push((cell, child)),
            }
        }
        // Only the opponent's one question is asked, not its value: "draws or wins?" for
        // "wins", "wins?" for "draws or wins".
        let at_least = match kind {
            Kind::Wins => Value::Draw,
            _ => Value::Win,
        };
        for (cell, child) in open {
            self.searches += 1;
            if !self.solver.value_at_least(&child, at_least, self.cancel)? {
                return Ok(cell);
            }
        }
        Err(self.inconsistent(pos, kind, "no placement shows it"))
    }

    fn inconsistent(&self, pos: &Position, kind: Kind, problem: &str) -> ProveError {
        ProveError::Inconsistent {
            position: format!("{:#x}", pos.key()),
            problem: format!("{}: {problem}", kind.describe(pos.turn())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind with every placement (or none) packs and unpacks as itself, beside the
    /// other kinds, and shows what its kind implies.
    #[test]
    fn made_entries_round_trip() {
        let cells: Vec<Option<Cell>> = std::iter::once(None)
            .chain((0..64).filter_map(Cell::from_bit).map(Some))
            .collect();
        for (i, &cell) in cells.iter().enumerate() {
            let mut made = Made::default();
            let mut expected = Vec::new();
            for (k, kind) in Kind::ALL.into_iter().enumerate() {
                if (i + k) % 3 == 0 {
                    continue;
                }
                let placement = cells[(i + 7 * k) % cells.len()].or(cell);
                made.add(kind, placement);
                expected.push(Entry::new(0xabc, kind, placement));
            }
            let got: Vec<Entry> = made.entries(0xabc).collect();
            assert_eq!(got, expected);
            for wanted in Kind::ALL {
                let shown = expected.iter().any(|e| e.kind().implies(wanted));
                assert_eq!(made.shows(wanted), shown, "{wanted:?}");
            }
        }
    }
}
