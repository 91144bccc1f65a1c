//! Deterministic random match positions for cross-checks, biased towards pushes.
//!
//! Plain random play from the start almost never pushes: Sumos only appear after won rounds
//! and a push needs an opponent tower straight ahead of the active Sumo. So ranks are handed
//! out at random up front (as many as the target allows without ending the match), the home
//! rows are often shuffled, a push is taken whenever one is legal, seven times in eight, and
//! otherwise moves that make a push legal are preferred. Even so the position after a given
//! number of moves rarely has a legal push, so [`random_push_position`] picks one of the
//! positions on the way that has one.

use crate::board::{Side, Square};
use crate::random::XorShift64;

use super::position::{check_target, MatchPosition};
use super::refill::RefillFrom;

/// The highest rank a tower can have while a match to `target` is still going on.
fn highest_live_rank(target: u32) -> u32 {
    match target {
        1 => 0,
        3 => 1,
        7 => 2,
        _ => 3,
    }
}

/// A random index below `len` (`len` > 0).
fn below(rng: &mut XorShift64, len: usize) -> usize {
    (rng.next() % len as u64) as usize
}

/// True with probability 1/`n`.
fn one_in(rng: &mut XorShift64, n: usize) -> bool {
    below(rng, n) == 0
}

/// The first position of a random round: each tower becomes, with probability 3/4, a Sumo
/// of a random rank 1..=the highest the target allows, as long as its owner's score stays
/// below the target; with probability 1/2 each home row is shuffled (any arrangement a
/// refill can give); with probability 1/2 White starts.
fn random_setup(rng: &mut XorShift64, target: u32) -> Result<MatchPosition, String> {
    let mut position = MatchPosition::start(target)?;
    let highest = highest_live_rank(target);
    for side in [Side::Black, Side::White] {
        let home = if side == Side::Black { 0 } else { 7 };
        let mut files: Vec<usize> = (0..8).collect();
        // Shuffle the order in which towers are offered a rank, so early files are not
        // favoured when the score runs out.
        for i in (1..files.len()).rev() {
            files.swap(i, below(rng, i + 1));
        }
        for file in files {
            if highest == 0 || one_in(rng, 4) {
                continue;
            }
            let rank = 1 + (rng.next() % u64::from(highest)) as u32;
            let worth = (1 << rank) - 1;
            if position.score(side) + worth < target {
                if let Some(tower) = position.board[home][file].as_mut() {
                    tower.rank = rank;
                }
            }
        }
        if one_in(rng, 2) {
            for i in (1..8).rev() {
                let j = below(rng, i + 1);
                position.board[home].swap(i, j);
            }
        }
    }
    if one_in(rng, 2) {
        position.side = Side::White;
    }
    Ok(position)
}

/// Random play of up to `moves` positive moves from [`random_setup`], calling `visit` on
/// the first position and after every move. Play: a random push whenever one is legal (7
/// times in 8); otherwise, 3 times in 4, a random move after which a push is legal, if
/// there is one; otherwise a random legal move. A round that ends with moves still to play
/// is refilled from a random side and play goes on; play stops when the match ends.
/// Returns the last position.
fn random_walk(
    seed: u64,
    target: u32,
    moves: u32,
    mut visit: impl FnMut(&MatchPosition),
) -> Result<MatchPosition, String> {
    check_target(target)?;
    let mut rng = XorShift64::new(seed);
    let mut position = random_setup(&mut rng, target)?;
    visit(&position);
    for played in 0..moves {
        let children = position.children();
        if children.is_empty() {
            break; // only in positions the rules do not cover
        }
        let pushes: Vec<usize> = (0..children.len())
            .filter(|&i| children[i].0.push)
            .collect();
        let pick = if !pushes.is_empty() && !one_in(&mut rng, 8) {
            pushes[below(&mut rng, pushes.len())]
        } else {
            let setting_up: Vec<usize> = (0..children.len())
                .filter(|&i| children[i].2.is_none() && has_legal_push(&children[i].1))
                .collect();
            if !setting_up.is_empty() && !one_in(&mut rng, 4) {
                setting_up[below(&mut rng, setting_up.len())]
            } else {
                below(&mut rng, children.len())
            }
        };
        let (_, next, end) = children[pick].clone();
        position = next;
        visit(&position);
        if let Some(end) = end {
            if end.match_over || played + 1 == moves {
                break;
            }
            let from = if one_in(&mut rng, 2) {
                RefillFrom::Left
            } else {
                RefillFrom::Right
            };
            position = position.refill(&end, from)?;
            visit(&position);
        }
    }
    Ok(position)
}

/// A position of a match to `target` after `moves` positive moves of push-seeking random
/// play (see the module documentation), or earlier if the match ends. The same arguments
/// always give the same position.
pub fn random_match(seed: u64, target: u32, moves: u32) -> Result<MatchPosition, String> {
    random_walk(seed, target, moves, |_| {})
}

/// A position with a legal push for the side to move: one chosen at random among those the
/// walk of [`random_match`]`(seed, target, moves)` passes through, `None` if it passes
/// none (always `None` for target 1, which has no Sumos).
pub fn random_push_position(
    seed: u64,
    target: u32,
    moves: u32,
) -> Result<Option<MatchPosition>, String> {
    let mut with_push = Vec::new();
    random_walk(seed, target, moves, |position| {
        if has_legal_push(position) {
            with_push.push(position.clone());
        }
    })?;
    if with_push.is_empty() {
        return Ok(None);
    }
    let mut rng = XorShift64::new(seed ^ 0x5EED_9B5A);
    let index = below(&mut rng, with_push.len());
    Ok(with_push.into_iter().nth(index))
}

/// Does the side to move (after any pending chain) have a legal push? For tests that want
/// positions where pushing matters.
pub fn has_legal_push(position: &MatchPosition) -> bool {
    position.children().iter().any(|(mv, _, _)| mv.push)
}

/// The highest rank of any tower on the board.
pub fn highest_rank_on_board(position: &MatchPosition) -> u32 {
    Square::all()
        .into_iter()
        .filter_map(|square| position.tower_at(square))
        .map(|tower| tower.rank)
        .max()
        .unwrap_or(0)
}
