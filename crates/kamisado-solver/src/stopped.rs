//! Where stopped searches were, so that a search started again from the same root goes on
//! where it stopped.
//!
//! Why: df-pn keeps its numbers in the table, but not which child it was searching at
//! each depth. The 1+epsilon rule keeps a search in a child until the child's proof
//! number passes the next sibling's by a share (see
//! [`Game::EPSILON_DIVISOR`](crate::Game::EPSILON_DIVISOR)); a search started again from
//! the root picks each node's smallest proof number instead, and so may leave the child
//! it was in for a sibling of similar promise, and search that sibling's subtree, which
//! an uninterrupted search would never have entered. Measured (`kamon-core`'s
//! `resume_probe`, eight positions eight placements in, stopped at a quarter, a half and
//! three quarters of their nodes, resumed over the same table in memory; 2026-12-07, with
//! Kamon's epsilon then a quarter): started again
//! from the root, resumes cost up to 2.7 times the uninterrupted search (seed 4 stopped
//! at a quarter: 935 k nodes in all, against 346 k), and 15% more on seed 1 at a quarter
//! and a half; following the stopped search's path, every resume needs within a few
//! dozen nodes of the uninterrupted search's count. It matters wherever a search is
//! started again: a units run's checkpoints restart each unit every `--checkpoint-every`
//! seconds, and a run stopped by hand resumes from its saved table.
//!
//! A path is the root's key, then the key of the child searched at each depth, down to
//! the node the search was expanding when it stopped. A restarted search follows it only
//! while it agrees with the numbers: at each node, the path's child is taken if its proof
//! number is within what the 1+epsilon rule allows beside the best child's; else the
//! search picks as usual from there on. A path is never needed for correctness: a wrong
//! or stale one costs nodes at most.
//!
//! Rejected: preferring, on a restart, the child with the most work among those of
//! similar promise (the table's own signal, no extra state). It mended the worst resume
//! (seed 4) but not seed 1's (1.35 times at a quarter), and applied to every node, not
//! only on a restart, it cost 33% more nodes on seed 1's uninterrupted search.

use std::sync::Mutex;

use crate::Key;

/// How many stopped searches' paths a table keeps (searches of different roots side by
/// side, each stopped); the oldest is forgotten first.
pub const MAX_PATHS: usize = 16;
/// How many keys a path may hold (deeper than any game this solver is used on).
pub const MAX_PATH_KEYS: usize = 1024;

/// The paths of the searches stopped over one table, each starting with its root's key.
#[derive(Debug)]
pub struct StoppedPaths<K: Key> {
    paths: Mutex<Vec<Vec<K>>>,
}

impl<K: Key> Default for StoppedPaths<K> {
    fn default() -> StoppedPaths<K> {
        StoppedPaths {
            paths: Mutex::new(Vec::new()),
        }
    }
}

impl<K: Key> StoppedPaths<K> {
    /// The path of the stopped search of `root`, if any.
    pub fn of(&self, root: K) -> Option<Vec<K>> {
        let paths = self.paths.lock().unwrap_or_else(|e| e.into_inner());
        paths.iter().find(|p| p.first() == Some(&root)).cloned()
    }

    /// Keeps `path` (root first, cut to [`MAX_PATH_KEYS`] keys, as a saved table's reader
    /// requires), in place of an older path of the same root.
    pub fn keep(&self, mut path: Vec<K>) {
        let Some(&root) = path.first() else { return };
        path.truncate(MAX_PATH_KEYS);
        let mut paths = self.paths.lock().unwrap_or_else(|e| e.into_inner());
        paths.retain(|p| p.first() != Some(&root));
        paths.push(path);
        if paths.len() > MAX_PATHS {
            paths.remove(0);
        }
    }

    /// Forgets the path of `root`'s search (answered: nothing to go on with).
    pub fn forget(&self, root: K) {
        let mut paths = self.paths.lock().unwrap_or_else(|e| e.into_inner());
        if !paths.is_empty() {
            paths.retain(|p| p.first() != Some(&root));
        }
    }

    /// Every path kept, oldest first, to save beside the table.
    pub fn all(&self) -> Vec<Vec<K>> {
        self.paths.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Replaces the paths with `paths` (read back from a saved table): the last
    /// [`MAX_PATHS`] non-empty ones, each cut to [`MAX_PATH_KEYS`] keys.
    pub fn restore(&self, paths: Vec<Vec<K>>) {
        let mut kept: Vec<Vec<K>> = paths
            .into_iter()
            .filter(|p| !p.is_empty())
            .map(|mut p| {
                p.truncate(MAX_PATH_KEYS);
                p
            })
            .collect();
        let extra = kept.len().saturating_sub(MAX_PATHS);
        kept.drain(..extra);
        *self.paths.lock().unwrap_or_else(|e| e.into_inner()) = kept;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_found_by_its_root_and_replaced_by_the_next_of_that_root() {
        let paths = StoppedPaths::<u64>::default();
        paths.keep(vec![1, 2, 3]);
        paths.keep(vec![7, 8]);
        assert_eq!(paths.of(1), Some(vec![1, 2, 3]));
        assert_eq!(paths.of(2), None);
        paths.keep(vec![1, 4]);
        assert_eq!(paths.of(1), Some(vec![1, 4]));
        assert_eq!(paths.all(), [vec![7, 8], vec![1, 4]]);
        paths.forget(7);
        assert_eq!(paths.of(7), None);
        paths.keep(vec![]);
        assert_eq!(paths.all(), [vec![1, 4]]);
        paths.keep((0..MAX_PATH_KEYS as u64 + 5).collect());
        assert_eq!(paths.of(0).map(|p| p.len()), Some(MAX_PATH_KEYS));
    }

    #[test]
    fn the_oldest_paths_go_first_and_restored_ones_are_bounded() {
        let paths = StoppedPaths::<u64>::default();
        for root in 0..(MAX_PATHS as u64 + 3) {
            paths.keep(vec![root, root + 100]);
        }
        let all = paths.all();
        assert_eq!(all.len(), MAX_PATHS);
        assert_eq!(all[0], vec![3, 103]);
        let long: Vec<u64> = (0..MAX_PATH_KEYS as u64 + 10).collect();
        let mut many: Vec<Vec<u64>> = (1000..1000 + MAX_PATHS as u64 + 5)
            .map(|r| vec![r])
            .collect();
        many.push(vec![]);
        many.push(long);
        paths.restore(many);
        let all = paths.all();
        assert_eq!(all.len(), MAX_PATHS);
        assert_eq!(all.last().map(Vec::len), Some(MAX_PATH_KEYS));
        assert_eq!(all[0], vec![1000 + 6]);
    }
}
