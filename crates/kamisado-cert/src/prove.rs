//! The prover: from the solver's exact results to a certificate the checker accepts.
//!
//! It trusts the solver only to find the moves; the certificate is checked without it.
//! Starting from the claims, every statement a proof needs becomes an entry, whose
//! children's statements are needed in turn, until every need is met by the rules or by
//! an entry:
//!
//! - "wins within b" and "loses within b" get an entry with the position's exact
//!   remoteness (one exact search each), the tightest bound, so that every later need of
//!   the same position reuses it;
//! - "cannot win within b" and "survives b" get an entry with bound b itself, whose proof
//!   stops after b moves (a later need with a larger b raises the bound and expands the
//!   entry again), or a full "loses"/"wins" entry where one is known that ends sooner;
//! - needs the checker decides from the rules (bounds up to
//!   [`DECIDED_BY_RULES`](crate::DECIDED_BY_RULES), games that end that soon anyway)
//!   get no entry.
//!
//! Every statement is a bound on the position's score, so the move of a "wins" or
//! "survives" entry is found by null-window probes of its moves, cheapest-looking first,
//! until one reaches the bound; "loses" and "cannot win" need no search at all (the
//! checker lists the moves). Entries are expanded a layer at a time, with the layer's
//! searches side by side: searches are the prover's whole cost.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};

use kamisado_core::{Kamisado, Move, Position};
use kamisado_solver::{Cancel, Score, SolveError, Solver, Value};
use rayon::prelude::*;

use crate::rules::by_rules;
use crate::{Certificate, Claim, Entry, Kind, MAX_BOUND};

/// Why no certificate was made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProveError {
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// The solver's results contradict each other (a bug): no proof can be built on them.
    #[error("the solver's results are inconsistent at {position}: {problem}")]
    Inconsistent { position: String, problem: String },
    #[error(
        "{position}: remoteness {remoteness} is beyond what a certificate holds ({MAX_BOUND})"
    )]
    TooLong { position: String, remoteness: u32 },
}

/// How far a proof has got, for progress reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    pub entries: usize,
    /// Statements the next layer must show (many are met by the rules or existing
    /// entries).
    pub pending: usize,
    /// Exact searches and null-window probes run so far.
    pub searches: usize,
}

/// A planned entry: its bound, its move once expanded, and the bound it was expanded for.
#[derive(Clone, Copy, Debug)]
struct Planned {
    bound: u32,
    mv: Option<Move>,
    expanded: Option<u32>,
}

/// A statement some entry or the rules must show: `kind` within `bound` for the side to
/// move of `position`.
type Need = (Position, Kind, i64);

struct Builder<'a> {
    solver: &'a Solver<Kamisado>,
    cancel: &'a Cancel<'a>,
    /// Exact scores by canonical key, of the positions searched exactly.
    exact: HashMap<u128, Score>,
    entries: HashMap<(u128, Kind), Planned>,
    queue: Vec<(u128, Kind)>,
    searches: AtomicUsize,
}

/// A certificate for the exact value and remoteness of each position (pending
/// zero-length moves played first), with one proof shared by all: common positions
/// appear once. Searches run side by side on the current rayon pool; a solver with one
/// thread is the right one (the parallelism is over positions). `progress` is called
/// after each layer.
pub fn prove(
    solver: &Solver<Kamisado>,
    positions: &[Position],
    cancel: &Cancel,
    progress: &mut dyn FnMut(Progress),
) -> Result<Certificate, ProveError> {
    let mut builder = Builder {
        solver,
        cancel,
        exact: HashMap::new(),
        entries: HashMap::new(),
        queue: Vec::new(),
        searches: AtomicUsize::new(0),
    };
    let roots: Vec<Position> = positions.iter().map(Kamisado::root).collect();
    builder.search_exact(&roots)?;
    let mut claims = Vec::with_capacity(roots.len());
    let mut needs: Vec<Need> = Vec::new();
    for root in &roots {
        let score = builder.score(root).expect("the roots were searched");
        let remoteness = score.remoteness().unwrap_or(0);
        if remoteness > MAX_BOUND {
            return Err(ProveError::TooLong {
                position: root.to_string(),
                remoteness,
            });
        }
        let mover_wins = score.value() == Value::Win;
        claims.push(Claim {
            position: *root,
            winner: if mover_wins {
                root.turn()
            } else {
                !root.turn()
            },
            remoteness,
        });
        let (within, beyond) = if mover_wins {
            (Kind::Wins, Kind::CannotWin)
        } else {
            (Kind::Loses, Kind::Survives)
        };
        needs.push((*root, within, remoteness as i64));
        needs.push((*root, beyond, remoteness as i64 - 1));
    }
    loop {
        builder.meet(needs)?;
        if builder.queue.is_empty() {
            break;
        }
        let mut layer = std::mem::take(&mut builder.queue);
        layer.sort_unstable();
        layer.dedup();
        layer.retain(|k| {
            let p = builder.entries[k];
            p.expanded != Some(p.bound)
        });
        let chosen: Vec<Option<Move>> = layer
            .par_iter()
            .map(|&(key, kind)| {
                if kind.names_a_move() {
                    builder.choose(key, kind).map(Some)
                } else {
                    Ok(None)
                }
            })
            .collect::<Result<_, ProveError>>()?;
        needs = Vec::new();
        for (&(key, kind), mv) in layer.iter().zip(chosen) {
            let planned = builder.entries.get_mut(&(key, kind)).expect("planned");
            planned.mv = mv;
            planned.expanded = Some(planned.bound);
            let child_bound = planned.bound as i64 - 1;
            let pos = Position::from_key(key).expect("keys of planned entries are positions");
            let moves = match mv {
                Some(m) => vec![m],
                None => pos.legal_moves().to_vec(),
            };
            for m in moves {
                let child = pos.play_unchecked(m);
                let passed = child.turn() != pos.turn();
                needs.push((child, kind.through_move(passed), child_bound));
            }
        }
        progress(Progress {
            entries: builder.entries.len(),
            pending: needs.len(),
            searches: builder.searches.load(Ordering::Relaxed),
        });
    }
    let mut entries: Vec<Entry> = builder
        .entries
        .iter()
        .map(|(&(key, kind), p)| Entry::new(key, kind, p.bound, p.mv))
        .collect();
    entries.sort_unstable();
    Ok(Certificate { claims, entries })
}

impl Builder<'_> {
    /// Searches the exact score of every position not decided by the rules or known yet,
    /// side by side.
    fn search_exact(&mut self, positions: &[Position]) -> Result<(), ProveError> {
        let mut todo: Vec<(u128, Position)> = positions
            .iter()
            .filter(|p| Score::by_rules(&Kamisado, p).is_none())
            .map(|p| (p.canonical_key().0, *p))
            .filter(|(key, _)| !self.exact.contains_key(key))
            .collect();
        todo.sort_unstable_by_key(|(key, _)| *key);
        todo.dedup_by_key(|(key, _)| *key);
        let (solver, cancel) = (self.solver, self.cancel);
        let scores: Vec<Score> = todo
            .par_iter()
            .map(|(_, p)| solver.score(p, cancel))
            .collect::<Result<_, _>>()?;
        self.searches.fetch_add(todo.len(), Ordering::Relaxed);
        self.exact
            .extend(todo.into_iter().map(|(key, _)| key).zip(scores));
        Ok(())
    }

    /// The exact score of a position, if the rules decide it or it was searched.
    fn score(&self, pos: &Position) -> Option<Score> {
        Score::by_rules(&Kamisado, pos).or_else(|| self.exact.get(&pos.canonical_key().0).copied())
    }

    /// Whether the planned entries already show `kind` within `bound` for `pos`.
    fn shown(&self, pos: &Position, kind: Kind, bound: i64) -> bool {
        let key = pos.canonical_key().0;
        let has = |k: Kind, ok: &dyn Fn(i64) -> bool| {
            self.entries
                .get(&(key, k))
                .is_some_and(|p| ok(p.bound as i64))
        };
        match kind {
            Kind::Wins | Kind::Loses => has(kind, &|b| b <= bound),
            Kind::CannotWin => has(Kind::Loses, &|_| true) || has(kind, &|b| b >= bound),
            Kind::Survives => has(Kind::Wins, &|_| true) || has(kind, &|b| b >= bound),
        }
    }

    fn inconsistent(pos: &Position, problem: String) -> ProveError {
        ProveError::Inconsistent {
            position: pos.to_string(),
            problem,
        }
    }

    /// Whether a need holds without any entry, as the checker decides it; a need the
    /// rules refute means the solver was wrong.
    fn by_rules(pos: &Position, kind: Kind, bound: i64) -> Result<bool, ProveError> {
        match by_rules(pos, kind, bound) {
            Some(true) => Ok(true),
            Some(false) => Err(Self::inconsistent(
                pos,
                format!(
                    "a proof needs that {}, which the rules refute",
                    kind.describe(pos.turn(), bound)
                ),
            )),
            None => Ok(false),
        }
    }

    /// Plans entries for the needs the rules and the planned entries do not meet.
    fn meet(&mut self, needs: Vec<Need>) -> Result<(), ProveError> {
        let mut open = Vec::with_capacity(needs.len());
        for need in needs {
            if !Self::by_rules(&need.0, need.1, need.2)? {
                open.push(need);
            }
        }
        // "Wins" and "loses" entries carry the exact remoteness.
        let exact_needed: Vec<Position> = open
            .iter()
            .filter(|(pos, kind, bound)| kind.is_upper_bound() && !self.shown(pos, *kind, *bound))
            .map(|(pos, _, _)| *pos)
            .collect();
        self.search_exact(&exact_needed)?;
        for (pos, kind, bound) in open {
            self.plan(&pos, kind, bound)?;
        }
        Ok(())
    }

    fn plan(&mut self, pos: &Position, kind: Kind, bound: i64) -> Result<(), ProveError> {
        if self.shown(pos, kind, bound) {
            return Ok(());
        }
        let known = self.score(pos);
        let (plan_kind, plan_bound) = match (kind, known) {
            (Kind::Wins | Kind::Loses, Some(score)) => {
                let r = score.remoteness().unwrap_or(0);
                let wins = score.value() == Value::Win;
                if wins != (kind == Kind::Wins) || r as i64 > bound {
                    return Err(Self::inconsistent(
                        pos,
                        format!(
                            "its score is {score}, but a proof needs that {}",
                            kind.describe(pos.turn(), bound)
                        ),
                    ));
                }
                (kind, r)
            }
            (Kind::Wins | Kind::Loses, None) => {
                unreachable!("wins and loses needs are searched first")
            }
            // A known end within the bound: the full proof is the shallower one.
            (Kind::CannotWin, Some(s))
                if s.value() == Value::Loss
                    && s.remoteness().is_some_and(|r| r as i64 <= bound) =>
            {
                (Kind::Loses, s.remoteness().unwrap_or(0))
            }
            (Kind::Survives, Some(s))
                if s.value() == Value::Win && s.remoteness().is_some_and(|r| r as i64 <= bound) =>
            {
                (Kind::Wins, s.remoteness().unwrap_or(0))
            }
            (Kind::CannotWin | Kind::Survives, _) => (kind, bound as u32),
        };
        let key = pos.canonical_key().0;
        let planned = self.entries.entry((key, plan_kind)).or_insert(Planned {
            bound: plan_bound,
            mv: None,
            expanded: None,
        });
        let tighter = if plan_kind.is_upper_bound() {
            plan_bound < planned.bound
        } else {
            plan_bound > planned.bound
        };
        if tighter {
            planned.bound = plan_bound;
        }
        if planned.expanded != Some(planned.bound) {
            self.queue.push((key, plan_kind));
        }
        Ok(())
    }

    /// The move of a "wins" or "survives" entry: of the moves whose score reaches the
    /// entry's bound, the first found in order of how cheap its child looks to prove (a
    /// need already met, then the fewest replies to refute).
    fn choose(&self, key: u128, kind: Kind) -> Result<Move, ProveError> {
        let bound = self.entries[&(key, kind)].bound;
        let pos = Position::from_key(key).expect("keys of planned entries are positions");
        // The lowest score for the side to move that makes the statement true.
        let threshold = match kind {
            Kind::Wins => Score::new(Value::Win, bound),
            _ => Score::new(Value::Loss, bound + 1),
        };
        let child_bound = bound as i64 - 1;
        let mut children: Vec<(usize, Move, Position, bool)> = pos
            .legal_moves()
            .into_iter()
            .map(|m| {
                let child = pos.play_unchecked(m);
                let passed = child.turn() != pos.turn();
                let need = kind.through_move(passed);
                let cost = if by_rules(&child, need, child_bound).is_some() {
                    0
                } else if self.shown(&child, need, child_bound) {
                    1
                } else if need.names_a_move() {
                    2
                } else {
                    2 + child.count_moves()
                };
                (cost, m, child, passed)
            })
            .collect();
        children.sort_by_key(|c| c.0);
        for (_, m, child, passed) in children {
            let reaches = match self.score(&child) {
                Some(s) => s.through_move(passed) >= threshold,
                None => {
                    self.searches.fetch_add(1, Ordering::Relaxed);
                    self.solver
                        .reaches(&child, passed, threshold, self.cancel)?
                }
            };
            if reaches {
                return Ok(m);
            }
        }
        Err(Self::inconsistent(
            &pos,
            format!(
                "no move shows that {}",
                kind.describe(pos.turn(), bound as i64)
            ),
        ))
    }
}
