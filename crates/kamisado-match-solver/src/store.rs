//! What is known for good about positions at the boundaries of rounds: the first position
//! of a round and the refill choice after one.
//!
//! These are the positions whose answers cost most (each stands for the rest of a match)
//! and that a search meets again and again, so they are kept apart from the search's
//! table, which forgets: every fact here is either proven (by the round solver or by the
//! match search) or the note that the round solver was asked and settled nothing, so that
//! it is not asked twice. A checkpoint writes the store to the proof file and a later run
//! starts from it.
//!
//! Keys are the canonical match keys of the solver's table (so symmetric positions share a
//! fact) and values are for the canonical image's side to move, as the table's are.

use std::collections::HashMap;
use std::sync::Mutex;

use kamisado_solver::{mix, Value};

/// How a fact was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// The round solver: a side can clinch the match in this round, whatever the other
    /// does (or could not be stopped from it).
    Clinch,
    /// The match search proved it.
    Search,
}

/// One position's fact.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fact {
    /// The match value for the side to move.
    Proven { value: Value, source: Source },
    /// The round solver was asked about this round's start and settled nothing.
    Unsettled,
}

impl Fact {
    pub fn value(self) -> Option<Value> {
        match self {
            Fact::Proven { value, .. } => Some(value),
            Fact::Unsettled => None,
        }
    }
}

const SHARDS: usize = 64;

/// A map from canonical match keys to facts, shared by the search's threads (sharded
/// locks: a fact is looked up once per table miss of a round boundary, rarely enough that
/// locks cost nothing measurable).
pub struct Store {
    shards: Vec<Mutex<HashMap<[u64; 3], Fact>>>,
}

impl Default for Store {
    fn default() -> Store {
        Store::new()
    }
}

impl Store {
    pub fn new() -> Store {
        Store {
            shards: (0..SHARDS).map(|_| Mutex::new(HashMap::new())).collect(),
        }
    }

    fn shard(&self, key: [u64; 3]) -> &Mutex<HashMap<[u64; 3], Fact>> {
        let h = mix(key[0] ^ mix(key[1] ^ mix(key[2])));
        &self.shards[h as usize % SHARDS]
    }

    pub fn get(&self, key: [u64; 3]) -> Option<Fact> {
        self.shard(key)
            .lock()
            .expect("a store lock is never poisoned")
            .get(&key)
            .copied()
    }

    /// Records a fact. A proof replaces a note that nothing was settled; a proof already
    /// recorded stays (two proofs of one position agree, or the search is wrong).
    pub fn insert(&self, key: [u64; 3], fact: Fact) {
        let mut shard = self
            .shard(key)
            .lock()
            .expect("a store lock is never poisoned");
        let entry = shard.entry(key).or_insert(fact);
        if *entry == Fact::Unsettled {
            *entry = fact;
        }
    }

    pub fn len(&self) -> usize {
        self.shards
            .iter()
            .map(|s| s.lock().expect("a store lock is never poisoned").len())
            .sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every fact, sorted by key (the order of the proof file).
    pub fn facts(&self) -> Vec<([u64; 3], Fact)> {
        let mut all: Vec<([u64; 3], Fact)> = self
            .shards
            .iter()
            .flat_map(|s| {
                s.lock()
                    .expect("a store lock is never poisoned")
                    .iter()
                    .map(|(&k, &f)| (k, f))
                    .collect::<Vec<_>>()
            })
            .collect();
        all.sort_unstable_by_key(|&(k, _)| k);
        all
    }

    /// How many facts are proofs, by source.
    pub fn counts(&self) -> StoreCounts {
        let mut counts = StoreCounts::default();
        for shard in &self.shards {
            for fact in shard
                .lock()
                .expect("a store lock is never poisoned")
                .values()
            {
                match fact {
                    Fact::Proven {
                        source: Source::Clinch,
                        ..
                    } => counts.by_round_solver += 1,
                    Fact::Proven {
                        source: Source::Search,
                        ..
                    } => counts.by_search += 1,
                    Fact::Unsettled => counts.unsettled += 1,
                }
            }
        }
        counts
    }
}

/// The store's size, by kind of fact.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StoreCounts {
    pub by_round_solver: u64,
    pub by_search: u64,
    pub unsettled: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_proof_replaces_a_note_and_stays() {
        let store = Store::new();
        let key = [1, 2, 3];
        let win = Fact::Proven {
            value: Value::Win,
            source: Source::Search,
        };
        store.insert(key, Fact::Unsettled);
        assert_eq!(store.get(key), Some(Fact::Unsettled));
        store.insert(key, win);
        assert_eq!(store.get(key), Some(win));
        store.insert(key, Fact::Unsettled);
        assert_eq!(store.get(key), Some(win));
        store.insert([0, 0, 0], Fact::Unsettled);
        assert_eq!(
            store.facts().iter().map(|f| f.0).collect::<Vec<_>>(),
            [[0, 0, 0], key]
        );
        assert_eq!(
            store.counts(),
            StoreCounts {
                by_round_solver: 0,
                by_search: 1,
                unsettled: 1
            }
        );
    }
}
