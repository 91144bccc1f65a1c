//! Forced wins a few placements deep: what the rules decide in a certificate (of entries
//! or a walk) of format version 2, so that its proof stops a few placements before the
//! game does.
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
//! escapes ends a candidate); seed 1's whole walk checks in about the time of its
//! version 1 file (66 s), which walked ten times the positions. Weighed and rejected:
//! four placements (more choices go, but each search is about five times dearer and
//! every position pays it).
//!
//! Trusted, as everything the checker decides by: `kamon-core`'s legal cells, placement,
//! game ends and [`Position::winning_move`]; the reference checker in the tests finds
//! the same forced wins from its own rules.

use kamon_core::{Layout, Position};

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

/// Whether the side to move of `pos` wins, whatever the opponent does, with at most
/// `placements` placements of its own: at once (a connection or a loop, or leaving the
/// opponent no legal cell on a board that is not full), or by a placement after which
/// the game goes on and every reply leaves a position where it forces the win with one
/// placement fewer. `placements` 0 is never a win; 1 is a win at once.
///
/// Preconditions: `pos` is a position of `layout` whose game is not over.
pub fn forced_win(layout: &Layout, pos: &Position, placements: u32) -> bool {
    if placements == 0 {
        return false;
    }
    if pos.winning_move(layout).is_some() {
        return true;
    }
    if placements == 1 {
        return false;
    }
    Iterator::any(&mut pos.legal_cells(layout).into_iter(), |cell| {
        let replying = pos.play_unchecked(layout, cell);
        // Not a win (there is none at once), so an end here is a full board's draw; and a
        // reply that wins at once escapes.
        if replying.is_over() || replying.winning_move(layout).is_some() {
            return false;
        }
        Iterator::all(&mut replying.legal_cells(layout).into_iter(), |reply| {
            let next = replying.play_unchecked(layout, reply);
            // The reply did not win (no reply wins at once), so an end here is a draw or
            // the side to move left without a legal cell: no win either way.
            !next.is_over() && forced_win(layout, &next, placements - 1)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use kamon_core::{Outcome, Record};

    /// The plain minimax of the definition: the side to move wins within `placements` of
    /// its placements, every legal placement tried, each end read from the position.
    fn minimax(layout: &Layout, pos: &Position, placements: u32) -> bool {
        if placements == 0 {
            return false;
        }
        Iterator::any(&mut pos.legal_cells(layout).into_iter(), |cell| {
            let child = pos.play_unchecked(layout, cell);
            match child.outcome() {
                Some(outcome) => outcome == Outcome::Loss,
                None => Iterator::all(&mut child.legal_cells(layout).into_iter(), |reply| {
                    let next = child.play_unchecked(layout, reply);
                    next.outcome().is_none() && minimax(layout, &next, placements - 1)
                }),
            }
        })
    }

    #[test]
    fn forced_wins_are_the_minimax_of_their_definition() {
        let mut found = [0usize; 4];
        let mut positions = 0;
        for seed in 1..=12u64 {
            // Late ones too, where five placements reach a full board (a draw, never a win).
            for after in [14, 18, 22, 26, 31, 33] {
                let Some(record) = Record::random(seed, after) else {
                    continue;
                };
                let layout = record.layout();
                let pos = record.position();
                // The position and each of its children: some forced wins, most not.
                let mut all = vec![*pos];
                for cell in pos.legal_cells(layout) {
                    let child = pos.play_unchecked(layout, cell);
                    if !child.is_over() {
                        all.push(child);
                    }
                }
                for p in &all {
                    positions += 1;
                    for n in 0..=3 {
                        let fast = forced_win(layout, p, n);
                        assert_eq!(fast, minimax(layout, p, n), "{n} in {}", p.to_setup());
                        found[n as usize] += fast as usize;
                        // A win within n placements is a win within n + 1.
                        assert!(!fast || forced_win(layout, p, n + 1));
                    }
                }
            }
        }
        // The test reaches each kind of answer: wins at once, and wins that need the
        // deeper search, and positions that are none.
        assert_eq!(found[0], 0);
        assert!(
            found[1] > 0 && found[2] > found[1] && found[3] > found[2],
            "{found:?}"
        );
        assert!(found[3] < positions, "{found:?} of {positions}");
    }
}
