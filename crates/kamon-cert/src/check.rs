//! The checker: each entry's rule, then the claims. It uses kamon-core's rules and
//! nothing else (no table, no solver; the only search is the rules' own bounded one for a
//! forced win within three placements, from format version 2: [`crate::forced_win`]).
//!
//! Why local checks add up to a proof: every placement adds a piece, so no position
//! repeats and every game ends within 36 placements. By induction on the free cells, if
//! every entry's rule holds given the statements about the positions after its
//! placements, every entry is true; how the prover found them, their order and their
//! sharing (a transposition is one entry used by several parents) do not matter.

use kamon_core::{Cell, Layout, Outcome, Position};
use rayon::prelude::*;

use crate::forced::{forced_placements, forced_win_later};
use crate::{Certificate, Claim, Entry, Kind};

/// A certificate whose every entry and claim checked.
pub type Verified = kamisado_files::verdict::Verified<Claim>;

pub use kamisado_files::verdict::CheckFailure;

/// Checks every entry, then every claim. Entries are checked in parallel; the failure
/// reported is the one with the lowest index, so the answer is the same on every run.
pub fn check(cert: &Certificate) -> Result<Verified, CheckFailure> {
    let proof = Proof {
        layout: &cert.layout,
        entries: &cert.entries,
        forced: forced_placements(cert.version),
    };
    let failure = cert
        .entries
        .par_iter()
        .enumerate()
        .find_map_first(|(i, &e)| proof.check_entry(e).err().map(|reason| (i, e, reason)));
    if let Some((index, e, reason)) = failure {
        let position = Position::from_key(&cert.layout, e.key()).ok();
        return Err(CheckFailure::Entry {
            index,
            position: position
                .map_or_else(|| format!("key {:#x}", e.key()), |p| proof.describe(&p)),
            statement: match position {
                Some(p) => e.kind().describe(p.turn()),
                None => format!("{:?}", e.kind()),
            },
            reason,
        });
    }
    for (i, claim) in cert.claims.iter().enumerate() {
        claim
            .statements()
            .iter()
            .try_for_each(|&kind| proof.holds(&claim.position, kind))
            .map_err(|reason| CheckFailure::Claim {
                index: i + 1,
                claim: format!("{claim} in {}", proof.describe(&claim.position)),
                reason,
            })?;
    }
    Ok(Verified {
        claims: cert.claims.clone(),
        entries: cert.entries.len(),
    })
}

/// The layout and the entries, sorted, searched by key.
struct Proof<'a> {
    layout: &'a Layout,
    entries: &'a [Entry],
    /// [`forced_placements`] of the file's format version.
    forced: u32,
}

/// What the rules alone say about `kind` for the side to move of `pos`: decided in a
/// finished game, and where a placement wins at once (or, for "draws or wins", draws at
/// once), and where the side to move forces a win within `forced` placements (more than
/// one from format version 2: [`forced_placements`]); `None` where an entry (or a walk's
/// choice) must say it.
pub(crate) fn by_rules(layout: &Layout, pos: &Position, kind: Kind, forced: u32) -> Option<bool> {
    if let Some(outcome) = pos.outcome() {
        return Some(match kind {
            Kind::Wins => outcome == Outcome::Win,
            Kind::Loses => outcome == Outcome::Loss,
            Kind::DrawsOrWins => outcome >= Outcome::Draw,
            Kind::CannotWin => outcome <= Outcome::Draw,
        });
    }
    let ends_well = |draw_will_do: bool| {
        // (Bitboard's own `any` asks whether it is empty.)
        Iterator::any(&mut pos.legal_cells(layout).into_iter(), |cell| {
            let child = pos.play_unchecked(layout, cell);
            match child.outcome() {
                Some(Outcome::Loss) => true,
                Some(Outcome::Draw) => draw_will_do,
                _ => false,
            }
        })
    };
    match kind {
        Kind::Wins if ends_well(false) => Some(true),
        Kind::DrawsOrWins if ends_well(true) => Some(true),
        // (A win at once was found above; the search looks deeper.)
        Kind::Wins | Kind::DrawsOrWins if forced_win_later(layout, pos, forced) => Some(true),
        _ => None,
    }
}

impl Proof<'_> {
    fn describe(&self, pos: &Position) -> String {
        pos.to_setup().to_string()
    }

    fn with_key(&self, key: u128) -> &[Entry] {
        let (low, high) = Entry::range_of_key(key);
        let start = self.entries.partition_point(|e| e.bits() < low);
        let end = self.entries.partition_point(|e| e.bits() <= high);
        &self.entries[start..end]
    }

    /// Whether `kind` holds for the side to move of `pos`: by the rules where they decide,
    /// else by an entry whose statement implies it.
    fn holds(&self, pos: &Position, kind: Kind) -> Result<(), String> {
        match by_rules(self.layout, pos, kind, self.forced) {
            Some(true) => Ok(()),
            Some(false) => Err(format!(
                "by the rules it is not true that {} in {}",
                kind.describe(pos.turn()),
                self.describe(pos)
            )),
            None if self
                .with_key(pos.key())
                .iter()
                .any(|e| e.kind().implies(kind)) =>
            {
                Ok(())
            }
            None => Err(format!(
                "no entry shows that {} in {}",
                kind.describe(pos.turn()),
                self.describe(pos)
            )),
        }
    }

    /// An entry's rule: its placement (or every placement) leads to a position where the
    /// statement after a placement holds for the side to move there.
    fn check_entry(&self, e: Entry) -> Result<(), String> {
        let pos = Position::from_key(self.layout, e.key())
            .map_err(|err| format!("its key is not a position of the layout: {err}"))?;
        if pos.is_over() {
            return Err("the game is over there; the rules decide finished games".into());
        }
        let after = e.kind().after_placement();
        let through = |cell: Cell| {
            let child = pos.play_unchecked(self.layout, cell);
            self.holds(&child, after)
                .map_err(|why| format!("after {cell}: {why}"))
        };
        let placement = e
            .placement()
            .map_err(|bit| format!("its placement field ({bit}) is not a cell"))?;
        match (e.kind().names_a_move(), placement) {
            (true, None) => Err("it names no placement".into()),
            (true, Some(cell)) => {
                pos.check_move(self.layout, cell)
                    .map_err(|err| format!("its placement {cell} is not legal: {err}"))?;
                through(cell)
            }
            (false, Some(cell)) => Err(format!(
                "it names a placement ({cell}) although it is about every placement"
            )),
            (false, None) => pos
                .legal_cells(self.layout)
                .into_iter()
                .try_for_each(through),
        }
    }
}
