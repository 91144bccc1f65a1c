//! Solving one round of match play by plain minimax cut off at a depth: who wins the
//! round, and in how many positive moves (the winner hurrying, the loser holding out).
//! Sides are compared at every move, never assumed to alternate: a push gives the pusher
//! the next move, and a zero-length chain can give the turn back.
//!
//! A round can last long, so the search answers only for positions decided within
//! `depth` moves: a win is known once one move wins within the depth (no unknown line can
//! win sooner), a loss only once every move is known to lose within it.

use std::collections::HashMap;

use super::position::MatchPosition;

/// Memo of [`MatchPosition::solve_round_within`]: (position text, depth) -> answer.
pub type RoundMemo = HashMap<(String, u32), Option<(bool, u32)>>;

impl MatchPosition {
    /// (does the side to move win the round?, remoteness) for the player who moves after
    /// any pending chain, if the round is decided within `depth` moves of perfect play;
    /// `None` if it is not, if the round is over, or in a hand-made position without moves.
    pub fn solve_round_within(&self, depth: u32, memo: &mut RoundMemo) -> Option<(bool, u32)> {
        let ready = self.resolved()?;
        if depth == 0 {
            return None;
        }
        let key = (ready.to_text(), depth);
        if let Some(&known) = memo.get(&key) {
            return known;
        }
        let me = ready.side_to_move();
        let children = ready.children();
        let mut fastest_win: Option<u32> = None;
        let mut slowest_loss: Option<u32> = Some(0);
        for (_, child, end) in children.iter() {
            // The mover's (wins, remoteness) through this move, if known within the depth.
            let result = match end {
                Some(end) => Some((end.winner == me, 1)),
                None => child
                    .solve_round_within(depth - 1, memo)
                    .map(|(child_wins, r)| {
                        let same_player = child.resolved().map(|c| c.side_to_move()) == Some(me);
                        (child_wins == same_player, r + 1)
                    }),
            };
            match result {
                Some((true, r)) => fastest_win = Some(fastest_win.map_or(r, |f| f.min(r))),
                Some((false, r)) => slowest_loss = slowest_loss.map(|s| s.max(r)),
                None => slowest_loss = None,
            }
        }
        let answer = match (fastest_win, slowest_loss) {
            _ if children.is_empty() => None,
            (Some(r), _) => Some((true, r)),
            (None, Some(r)) => Some((false, r)),
            (None, None) => None,
        };
        memo.insert(key, answer);
        answer
    }
}
