//! perft and divide for match play: sequences of positive moves within one round (a push
//! and the extra move after it are two moves; a round-ending move ends every sequence).

use super::position::MatchPosition;

impl MatchPosition {
    /// The number of legal sequences of exactly `depth` positive moves from this position
    /// within the current round. `perft(0) == 1`.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.children()
            .into_iter()
            .map(|(_, child, end)| {
                // A round-ending move has no continuation; its child has no children anyway,
                // but saying it here keeps the rule visible.
                if end.is_some() {
                    u64::from(depth == 1)
                } else {
                    child.perft(depth - 1)
                }
            })
            .sum()
    }

    /// For each first move (sorted by text), the perft count of `depth - 1` after it.
    /// Empty for `depth == 0`.
    pub fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        if depth == 0 {
            return Vec::new();
        }
        self.children()
            .into_iter()
            .map(|(mv, child, end)| {
                let count = if end.is_some() {
                    u64::from(depth == 1)
                } else {
                    child.perft(depth - 1)
                };
                (mv.text(), count)
            })
            .collect()
    }
}
