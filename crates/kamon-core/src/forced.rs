//! Forced wins a few placements deep: whether the side to move wins, whatever the
//! opponent does, within a given number of its own placements, by a small exhaustive
//! search on the rules that carries both players' threats.
//!
//! What asks it: the certificates (kamon-cert) decide a forced win within three placements
//! by the rules from format version 2, so that a proof stops a few placements before the
//! game does; the search (`KamonGame`, feature `solver`) settles such positions on
//! coming to expand them, instead of searching below them.
//!
//! # How it is searched
//!
//! Most of the search's positions are at its bottom (a reply, then a win at once or not),
//! and played out with [`Position::winning_move`] at each, the search was four fifths of
//! a check's time (seed 1's whole walk: 103 s, 58% in `winning_move` and 25% in
//! placements). So the search carries both players' threats ([`Position::threats`]: the
//! cells where a placement makes a shape) as it plays, and asks them instead: a placement
//! makes a shape exactly on one of its player's threats, so the other placements are
//! played without looking for one; a placement takes away the other player's threats only
//! by taking a cell (it adds no piece of theirs, and a loop is a loop whoever holds what
//! it encloses) and changes its own player's only around the chain it joins
//! ([`Position::threats_after`]); and at the bottom the replies are not played at all:
//! each is judged from the cells it leaves the other player. The same walk then checks in
//! 43 s (2.4 times as fast; in the tests' build, with its debug checks, 124 s to 67 s),
//! and the prover and the packer, which ask the same rules, gain alike. Weighed and
//! rejected: trying first the placements that leave the fewest replies, or the wins
//! within two placements before those within three (both 10% slower on that walk).
//!
//! Tested against a plain minimax of its definition (below); the reference checker in
//! `tests/` finds the same forced wins from its own rules.

use crate::{Bitboard, Layout, Position, FREE_CELLS};

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
    forced_win_later(layout, pos, placements)
}

/// [`forced_win`] for a position whose side to move has no win at once: by a placement
/// after which the game goes on, no reply wins at once, and every reply leaves a position
/// where it wins at once or forces the win with one placement fewer.
pub fn forced_win_later(layout: &Layout, pos: &Position, placements: u32) -> bool {
    let me = pos.turn();
    placements > 1
        && forced_win_later_with(layout, pos, placements, pos.threats(me), pos.threats(!me))
}

/// [`forced_win_later`] given the threats ([`Position::threats`]) of the side to move,
/// `mine`, and of the other player, `theirs` (a caller that carries them, as the search's
/// nodes do, saves working them out), which it carries down as it plays (the module's
/// *How it is searched*). `placements` at least 2.
pub fn forced_win_later_with(
    layout: &Layout,
    pos: &Position,
    placements: u32,
    mine: Bitboard,
    theirs: Bitboard,
) -> bool {
    Iterator::any(&mut pos.legal_cells(layout).into_iter(), |cell| {
        // Not a win (there is none at once, so `cell` is not one of `mine`): an end here
        // is a full board's draw.
        let replying = pos.play_knowing_threat(layout, cell, false);
        if replying.is_over() {
            return false;
        }
        // A reply that wins at once by a shape escapes.
        let replies = replying.legal_cells(layout);
        let theirs = theirs.without(cell);
        if (replies & theirs).any() {
            return false;
        }
        let mine = replying.threats_after(cell, mine);
        if placements == 2 {
            return every_reply_loses_at_once(layout, &replying, replies, mine);
        }
        // So does one that leaves the side to move no legal cell.
        if replying.winning_move_by_no_legal_cell(layout).is_some() {
            return false;
        }
        Iterator::all(&mut replies.into_iter(), |reply| {
            // The reply is not on a threat and did not leave the side to move without a
            // cell, so an end here is a full board's draw.
            let next = replying.play_knowing_threat(layout, reply, false);
            if next.is_over() {
                return false;
            }
            let mine = mine.without(reply);
            (next.legal_cells(layout) & mine).any()
                || next.winning_move_by_no_legal_cell(layout).is_some()
                || forced_win_later_with(
                    layout,
                    &next,
                    placements - 1,
                    mine,
                    next.threats_after(reply, theirs),
                )
        })
    })
}

/// Whether every reply (`replies`, not empty) of the side to move of `replying` (a game
/// that goes on, where no reply wins by a shape) leaves the game going on and the other
/// player, whose threats are `mine`, a win at once: the bottom of the search, answered
/// without playing the replies. A reply that makes no shape ends the game when it leaves
/// the other player no legal cell (a win for the replier on a board that is not full,
/// else a draw); after one that does not, the other player wins at once exactly when one
/// of their legal cells is one of their threats (the reply took only its own cell from
/// them) or leaves the replier no legal cell on a board that is not full
/// ([`Position::winning_move`]'s two ways).
fn every_reply_loses_at_once(
    layout: &Layout,
    replying: &Position,
    replies: Bitboard,
    mine: Bitboard,
) -> bool {
    let occupied = replying.occupied();
    // After the reply and a placement of the other player, the board must not be full
    // for the replier's lack of a cell to be a win.
    let blocking_wins = replying.placed() + 2 < FREE_CELLS;
    Iterator::all(&mut replies.into_iter(), |reply| {
        let taken = occupied.with(reply);
        let my_cells = layout.matching(reply) - taken;
        (my_cells & mine).any()
            || (blocking_wins
                && Iterator::any(&mut my_cells.into_iter(), |cell| {
                    (layout.matching(cell) - taken.with(cell)).is_empty()
                }))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Outcome, Record};

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
        let mut deeper = [0usize; 2];
        let mut positions = 0;
        for seed in 1..=1000u64 {
            // Late ones too, where five placements reach a full board (a draw, never a win).
            // Early ones too: the start (no top chip), and boards of fewer than five
            // pieces a player (where `threats` looks for no loop).
            for after in [0, 1, 3, 5, 8, 11, 14, 18, 22, 26, 31, 33] {
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
                    // Four placements (the search one level deeper than a certificate's)
                    // where the minimax is cheap enough.
                    let deepest = if after >= 18 && seed % 4 == 0 { 4 } else { 3 };
                    for n in 0..=deepest {
                        let fast = forced_win(layout, p, n);
                        assert_eq!(fast, minimax(layout, p, n), "{n} in {}", p.to_setup());
                        if n == 4 {
                            deeper[fast as usize] += 1;
                            continue;
                        }
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
        assert!(deeper[0] > 0 && deeper[1] > found[3] / 8, "{deeper:?}");
    }
}
