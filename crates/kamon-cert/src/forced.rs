//! Forced wins a few placements deep ([`kamon_core::forced`]): what the rules decide in a
//! certificate (of entries or a walk) of format version 2, so that its proof stops a few
//! placements before the game does.
//!
//! # Why
//!
//! A proof of "wins" ends where the rules decide, and in format version 1 of both formats
//! they decided only a win at once. So every position one,
//! two or three placements short of a forced win still carried a choice, and those are
//! most of a proof: a proof tree branches at the loser's placements, so its bottom
//! layers are its widest. Measured on the walk of seed 6's whole game (87,849,943
//! choices, version 1): 55% of its choices were at positions whose side to move forces
//! a win within two of its placements, 83% within three. Version 2 lets the rules decide
//! a forced win within three placements ([`FORCED_PLACEMENTS`]), so those choices, and
//! the positions below them, are no longer in the file: written again as version 2, that
//! walk holds 8.6 M choices in 2.6 MB instead of 87.8 M in 20.5 MB, and its check
//! remembers 0.43 GB instead of 3.4 GB. The certificates of entries take the same rule,
//! so that the prover makes no entry the packer will not read: what makes the proofs of
//! lost layouts (refutations, several times a win's entries) fit in memory.
//!
//! What it costs is the checker's time: a small exhaustive search at each position where
//! a choice would be read (most of them fail fast: the opponent's first reply that
//! escapes ends a candidate). Weighed and rejected: four placements (more choices go, but
//! each search is about five times dearer and every position pays it).
//!
//! Trusted, as everything the checker decides by: `kamon-core`'s legal cells, placement,
//! game ends, [`Position::winning_move`] and the threats ([`Position::threats`],
//! [`Position::threats_after`], tested in kamon-core against placements that make a
//! shape), and its search of forced wins ([`forced_win`], which kamon-core's tests check
//! against a plain minimax of its definition); the reference checker finds the same
//! forced wins from its own rules.

#[cfg(doc)]
use kamon_core::Position;

pub use kamon_core::forced::{forced_win, forced_win_later};

/// How many of its own placements the side to move may take to force a win for the rules
/// to decide it, in both certificate formats from version 2.
pub const FORCED_PLACEMENTS: u32 = 3;

/// The placements within which the rules decide a forced win in a certificate (of entries
/// or a walk) of format `version`: 1, a win at once, in version 1; [`FORCED_PLACEMENTS`]
/// from version 2.
pub(crate) fn forced_placements(version: u32) -> u32 {
    if version >= 2 {
        FORCED_PLACEMENTS
    } else {
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kamon_core::{Outcome, Record};

    /// What the checkers decide by the rules (`check::by_rules`) is what its definition
    /// says: a finished game's outcome; for "wins", a win within the format's placements
    /// (kamon-core's [`forced_win`], which its tests check against a plain minimax); for "draws or wins", that or a placement that draws at once; nothing
    /// for "loses" and "cannot win" while the game goes on. For both format versions.
    #[test]
    fn the_rules_decide_what_their_definition_says() {
        use crate::check::by_rules;
        use crate::Kind;
        let mut decided = [0usize; 4];
        for seed in 1..=300u64 {
            for after in [6, 16, 24, 30, 33, 34] {
                let Some(record) = Record::random(seed, after) else {
                    continue;
                };
                let layout = record.layout();
                let pos = record.position();
                let mut all = vec![*pos];
                all.extend(
                    pos.legal_cells(layout)
                        .map(|c| pos.play_unchecked(layout, c)),
                );
                for p in &all {
                    for version in [1, 2] {
                        let forced = forced_placements(version);
                        let draws_at_once = Iterator::any(&mut p.legal_cells(layout), |c| {
                            p.play_unchecked(layout, c).outcome() == Some(Outcome::Draw)
                        });
                        for kind in Kind::ALL {
                            let expected = match (p.outcome(), kind) {
                                (Some(o), Kind::Wins) => Some(o == Outcome::Win),
                                (Some(o), Kind::Loses) => Some(o == Outcome::Loss),
                                (Some(o), Kind::DrawsOrWins) => Some(o >= Outcome::Draw),
                                (Some(o), Kind::CannotWin) => Some(o <= Outcome::Draw),
                                (None, Kind::Wins) => forced_win(layout, p, forced).then_some(true),
                                (None, Kind::DrawsOrWins) => {
                                    (draws_at_once || forced_win(layout, p, forced)).then_some(true)
                                }
                                (None, _) => None,
                            };
                            let got = by_rules(layout, p, kind, forced);
                            assert_eq!(got, expected, "{kind:?} v{version} in {}", p.to_setup());
                            decided[kind as usize] += got.is_some() as usize;
                        }
                    }
                }
            }
        }
        assert!(decided.iter().all(|&d| d > 0), "{decided:?}");
    }
}
