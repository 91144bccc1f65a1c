//! The checker: each entry's rule, then the claims. It uses the rules core and nothing
//! else (no search, no table, no solver).

use kamisado_core::{Move, Position};
use rayon::prelude::*;

use crate::rules::by_rules;
use crate::{Certificate, Claim, Entry, Kind};

/// A certificate whose every entry and claim checked.
pub type Verified = kamisado_files::verdict::Verified<Claim>;

pub use kamisado_files::verdict::CheckFailure;

/// Checks every entry, then every claim. Entries are checked in parallel; the failure
/// reported is the one with the lowest index, so the answer is the same on every run.
pub fn check(cert: &Certificate) -> Result<Verified, CheckFailure> {
    let proof = Proof(&cert.entries);
    let failure = cert
        .entries
        .par_iter()
        .enumerate()
        .find_map_first(|(i, &e)| proof.check_entry(e).err().map(|reason| (i, e, reason)));
    if let Some((index, e, reason)) = failure {
        let position = Position::from_key(e.key()).ok();
        return Err(CheckFailure::Entry {
            index,
            position: position.map_or_else(|| format!("key {:#x}", e.key()), |p| p.to_string()),
            statement: match position {
                Some(p) => e.kind().describe(p.turn(), e.bound() as i64),
                None => e.kind().describe_for("the side to move", e.bound() as i64),
            },
            reason,
        });
    }
    for (i, claim) in cert.claims.iter().enumerate() {
        proof
            .check_claim(claim)
            .map_err(|reason| CheckFailure::Claim {
                index: i + 1,
                claim: claim.to_string(),
                reason,
            })?;
    }
    Ok(Verified {
        claims: cert.claims.clone(),
        entries: cert.entries.len(),
    })
}

/// The entries, sorted, searched by key.
struct Proof<'a>(&'a [Entry]);

impl Proof<'_> {
    fn with_key(&self, key: u128) -> &[Entry] {
        let (low, high) = Entry::range_of_key(key);
        let start = self.0.partition_point(|e| e.bits() < low);
        let end = self.0.partition_point(|e| e.bits() <= high);
        &self.0[start..end]
    }

    /// Whether `kind` holds within `bound` for the side to move of `pos`: by the rules
    /// where they decide ([`by_rules`]), else by an entry.
    fn holds(&self, pos: &Position, kind: Kind, bound: i64) -> Result<(), String> {
        match by_rules(pos, kind, bound) {
            Some(true) => Ok(()),
            Some(false) => Err(format!(
                "by the rules it is not true that {} in {pos}",
                kind.describe(pos.turn(), bound)
            )),
            None if self
                .with_key(pos.canonical_key().0)
                .iter()
                .any(|&e| shows(e, kind, bound)) =>
            {
                Ok(())
            }
            None => Err(format!(
                "no entry shows that {} in {pos}",
                kind.describe(pos.turn(), bound)
            )),
        }
    }

    /// An entry's rule: its move (or every move) leads to a position where the statement
    /// holds, from the point of view of whoever moves there, with one move fewer.
    fn check_entry(&self, e: Entry) -> Result<(), String> {
        let pos = Position::from_key(e.key())
            .map_err(|err| format!("its key is not a legal position: {err}"))?;
        if pos.is_over() {
            return Err("the game is over there; the rules decide finished games".into());
        }
        if pos.must_pass() {
            return Err("the position has a pending zero-length move; entries hold the positions after them".into());
        }
        if e.bound() == 0 {
            return Err("a bound of 0 states nothing about a game in play".into());
        }
        let child_bound = e.bound() as i64 - 1;
        let through = |m: Move| {
            let child = pos.play_unchecked(m);
            let passed = child.turn() != pos.turn();
            self.holds(&child, e.kind().through_move(passed), child_bound)
                .map_err(|why| format!("after {m}: {why}"))
        };
        match (e.kind().names_a_move(), e.chosen_move()) {
            (true, None) => Err("it names no move".into()),
            (true, Some(m)) => {
                pos.check_move(m)
                    .map_err(|err| format!("its move {m} is not legal: {err}"))?;
                through(m)
            }
            (false, Some(m)) => Err(format!(
                "it names a move ({m}) although it is about every move"
            )),
            (false, None) => pos.legal_moves().into_iter().try_for_each(through),
        }
    }

    /// A claim "wins (loses) in exactly r": the end comes within r moves, and the loser
    /// holds out for r - 1.
    fn check_claim(&self, claim: &Claim) -> Result<(), String> {
        if claim.position.must_pass() {
            return Err("the position has a pending zero-length move".into());
        }
        let r = claim.remoteness as i64;
        let (within, beyond) = if claim.mover_wins() {
            (Kind::Wins, Kind::CannotWin)
        } else {
            (Kind::Loses, Kind::Survives)
        };
        self.holds(&claim.position, within, r)?;
        self.holds(&claim.position, beyond, r - 1)
    }
}

/// Whether entry `e`, about the position in question, shows `kind` within `bound`.
fn shows(e: Entry, kind: Kind, bound: i64) -> bool {
    let b = e.bound() as i64;
    match (e.kind(), kind) {
        (k, wanted) if k == wanted => {
            if k.is_upper_bound() {
                b <= bound
            } else {
                b >= bound
            }
        }
        // The game has exactly one winner: a side that loses whatever it does cannot
        // force a win, and a side that forces a win does not lose, within any bound.
        (Kind::Loses, Kind::CannotWin) | (Kind::Wins, Kind::Survives) => true,
        _ => false,
    }
}
