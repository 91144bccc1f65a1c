//! Whole matches, and clinching the match within a round, by plain minimax cut off at a
//! depth.
//!
//! A whole match goes on past the end of a round: the round's winner chooses `left` or
//! `right`, the next round starts from the refilled home rows with the loser to move, and
//! only a score at the target ends it. Remoteness counts moves and refill choices (each
//! is one step of the game; MATCH-RULES.md counts moves within a round only, so this is
//! the convention of whole-match solving, stated in the README's "Who wins a match"). The
//! winner hurries, the loser holds out, and an answer is given only when the match is
//! decided within `depth` steps of perfect play.
//!
//! Clinching: the round played as a game won by one side (the clincher) only if the round
//! ends the match in its favour, and by the other side otherwise.
//!
//! Results name the winner (a side), never "the side to move": turns do not alternate
//! (pushes, zero-length chains, the refill choice of a round's winner).

use std::collections::HashMap;

use crate::board::Side;

use super::position::MatchPosition;
use super::refill::RefillFrom;
use super::round_end::RoundEnd;

/// Memo of the searches: (what was asked, depth) -> (winner, remoteness) if decided.
pub type WholeMemo = HashMap<(String, u32), Option<(Side, u32)>>;

/// The best for `me` of the results of its options: a win as soon as possible, else, if
/// every option is known to lose, the slowest loss; undecided otherwise (or with no
/// options).
fn best_for(me: Side, results: &[Option<(Side, u32)>]) -> Option<(Side, u32)> {
    let fastest_win = results
        .iter()
        .flatten()
        .filter(|(winner, _)| *winner == me)
        .map(|&(_, r)| r)
        .min();
    if let Some(r) = fastest_win {
        return Some((me, r));
    }
    if results.is_empty() || results.iter().any(Option::is_none) {
        return None;
    }
    results
        .iter()
        .flatten()
        .map(|&(w, r)| (w, r))
        .max_by_key(|&(_, r)| r)
}

impl MatchPosition {
    /// Who wins the match from this position of a round in play (after any pending chain)
    /// and in how many moves and refill choices, if decided within `depth` of them.
    pub fn solve_match_within(&self, depth: u32, memo: &mut WholeMemo) -> Option<(Side, u32)> {
        let ready = self.resolved()?;
        if depth == 0 {
            return None;
        }
        let key = (format!("match {}", ready.to_text()), depth);
        if let Some(&known) = memo.get(&key) {
            return known;
        }
        let results: Vec<Option<(Side, u32)>> = ready
            .children()
            .into_iter()
            .map(|(_, child, end)| {
                let after = match end {
                    Some(end) if end.match_over => Some((end.winner, 0)),
                    Some(end) => child.refill_within(&end, depth - 1, memo),
                    None => child.solve_match_within(depth - 1, memo),
                };
                after.map(|(winner, r)| (winner, r + 1))
            })
            .collect();
        let answer = best_for(ready.side_to_move(), &results);
        memo.insert(key, answer);
        answer
    }

    /// The round winner's refill choice after this finished round (which ended as `end`,
    /// not ending the match): who wins the match and in how many steps, the choice
    /// counted, if decided within `depth`.
    pub fn refill_within(
        &self,
        end: &RoundEnd,
        depth: u32,
        memo: &mut WholeMemo,
    ) -> Option<(Side, u32)> {
        if depth == 0 {
            return None;
        }
        let key = (
            format!("refill {} {}", self.to_text(), end.to_text()),
            depth,
        );
        if let Some(&known) = memo.get(&key) {
            return known;
        }
        let results: Vec<Option<(Side, u32)>> = [RefillFrom::Left, RefillFrom::Right]
            .into_iter()
            .map(|from| {
                let next = self.refill(end, from).ok()?;
                next.solve_match_within(depth - 1, memo)
                    .map(|(winner, r)| (winner, r + 1))
            })
            .collect();
        let answer = best_for(end.winner, &results);
        memo.insert(key, answer);
        answer
    }

    /// The round as a game that `clincher` wins only if the round ends the match in its
    /// favour (the other side wins every other end): the winner of that game and its
    /// remoteness in moves, if decided within `depth`.
    pub fn solve_clinch_within(
        &self,
        clincher: Side,
        depth: u32,
        memo: &mut WholeMemo,
    ) -> Option<(Side, u32)> {
        let ready = self.resolved()?;
        if depth == 0 {
            return None;
        }
        let key = (
            format!("clinch {} {}", clincher.code(), ready.to_text()),
            depth,
        );
        if let Some(&known) = memo.get(&key) {
            return known;
        }
        let results: Vec<Option<(Side, u32)>> = ready
            .children()
            .into_iter()
            .map(|(_, child, end)| match end {
                Some(end) => {
                    let clinched = end.winner == clincher && end.match_over;
                    Some((
                        if clinched {
                            clincher
                        } else {
                            clincher.opponent()
                        },
                        1,
                    ))
                }
                None => child
                    .solve_clinch_within(clincher, depth - 1, memo)
                    .map(|(winner, r)| (winner, r + 1)),
            })
            .collect();
        let answer = best_for(ready.side_to_move(), &results);
        memo.insert(key, answer);
        answer
    }
}
