//! A bounded transposition table shared by all search threads.
//!
//! Fixed size, chosen by the user in bytes, allocated zeroed so that pages cost nothing
//! until the search touches them, and never grown: when a bucket is full the entry that
//! cost the least work to compute makes room. Each bucket is one pair of cache lines
//! holding four entries, guarded by a lock bit, so that a reader never sees half an entry:
//! an exact solver cannot afford the torn-read risk of lockless hashing.
//!
//! (`dashmap` was the other candidate; it grows without bound and has no replacement
//! policy, and a bounded table is what a solver on a 24 GiB machine needs.)

use std::sync::atomic::{AtomicU64, Ordering};

use kamisado_core::mix128;

/// What the table knows about one position. All fields are from the side to move's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    /// Proof number of "the side to move wins"; 0 = proven win.
    pub pn: u32,
    /// Disproof number; 0 = proven loss.
    pub dn: u32,
    /// Nodes spent on this position and below (saturating): the replacement priority.
    pub work: u32,
    /// Lower and upper bounds on the exact score (see `remoteness`), or the full range.
    pub low: i16,
    pub high: i16,
}

const WORDS_PER_ENTRY: usize = 4;
const ENTRIES_PER_BUCKET: usize = 4;
const WORDS_PER_BUCKET: usize = WORDS_PER_ENTRY * ENTRIES_PER_BUCKET;
/// The lock of a bucket is the top bit of its first entry's high key word: keys use at
/// most 127 bits.
const LOCK_BIT: u64 = 1 << 63;

/// Bytes per entry, for reporting memory per position.
pub const ENTRY_BYTES: usize = WORDS_PER_ENTRY * 8;

pub struct Table {
    words: Words,
    bucket_mask: usize,
}

impl Table {
    /// A table of at most `bytes` bytes (at least one bucket), rounded down to a power of
    /// two buckets.
    pub fn with_bytes(bytes: usize) -> std::io::Result<Table> {
        let buckets = (bytes / (WORDS_PER_BUCKET * 8)).max(1);
        let buckets = 1usize << (usize::BITS - 1 - buckets.leading_zeros());
        Ok(Table {
            words: Words::zeroed(buckets * WORDS_PER_BUCKET)?,
            bucket_mask: buckets - 1,
        })
    }

    pub fn bytes(&self) -> usize {
        self.words.len() * 8
    }

    pub fn capacity(&self) -> usize {
        (self.bucket_mask + 1) * ENTRIES_PER_BUCKET
    }

    /// Asks the processor to start loading the bucket of `key`: a search that is about to
    /// look up every child of a node overlaps those cache misses instead of waiting for
    /// each in turn.
    #[inline]
    pub fn prefetch(&self, key: u128) {
        #[cfg(target_arch = "x86_64")]
        {
            let ptr = self.bucket(key).as_ptr().cast::<i8>();
            // SAFETY: a prefetch is only a hint: it reads nothing into the program, cannot
            // fault, and SSE (its target feature) is part of the x86_64 baseline.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(ptr) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline]
    fn bucket(&self, key: u128) -> &[AtomicU64] {
        let b = (mix128(key) as usize) & self.bucket_mask;
        &self.words[b * WORDS_PER_BUCKET..(b + 1) * WORDS_PER_BUCKET]
    }

    /// The entry for `key`, if the table holds one.
    #[inline]
    pub fn get(&self, key: u128) -> Option<Entry> {
        let bucket = self.bucket(key);
        let guard = Lock::acquire(bucket);
        let found = (0..ENTRIES_PER_BUCKET)
            .find(|&i| guard.key(i) == key)
            .map(|i| guard.entry(i));
        drop(guard);
        found
    }

    /// Reads the entry for `key` (or `None`), lets `f` change it, and stores the result,
    /// all under the bucket's lock. Returns what `f` returned.
    #[inline]
    pub fn update<R>(&self, key: u128, f: impl FnOnce(&mut Option<Entry>) -> R) -> R {
        let bucket = self.bucket(key);
        let guard = Lock::acquire(bucket);
        let slot = (0..ENTRIES_PER_BUCKET).find(|&i| guard.key(i) == key);
        let mut entry = slot.map(|i| guard.entry(i));
        let result = f(&mut entry);
        if let Some(entry) = entry {
            let i = slot.unwrap_or_else(|| {
                // An empty entry if there is one, else the one that cost least.
                (0..ENTRIES_PER_BUCKET)
                    .min_by_key(|&i| {
                        if guard.key(i) == 0 {
                            0
                        } else {
                            1 + guard.entry(i).work as u64
                        }
                    })
                    .unwrap_or(0)
            });
            guard.store(i, key, entry);
        }
        drop(guard);
        result
    }

    /// Stores `entry` for `key`, replacing what was there.
    #[inline]
    pub fn store(&self, key: u128, entry: Entry) {
        self.update(key, |e| *e = Some(entry));
    }

    /// How many entries are in use (counts the whole table: for reports, not for search).
    pub fn len(&self) -> usize {
        (0..=self.bucket_mask)
            .map(|b| {
                let bucket = &self.words[b * WORDS_PER_BUCKET..(b + 1) * WORDS_PER_BUCKET];
                let guard = Lock::acquire(bucket);
                (0..ENTRIES_PER_BUCKET)
                    .filter(|&i| guard.key(i) != 0)
                    .count()
            })
            .sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The fraction of entries in use, estimated from up to 4096 evenly spread buckets
    /// (reading them all would touch every page of a large table).
    pub fn fill(&self) -> f64 {
        let buckets = self.bucket_mask + 1;
        let step = (buckets / 4096).max(1);
        let (mut used, mut seen) = (0usize, 0usize);
        for b in (0..buckets).step_by(step) {
            let bucket = &self.words[b * WORDS_PER_BUCKET..(b + 1) * WORDS_PER_BUCKET];
            let guard = Lock::acquire(bucket);
            used += (0..ENTRIES_PER_BUCKET)
                .filter(|&i| guard.key(i) != 0)
                .count();
            seen += ENTRIES_PER_BUCKET;
        }
        used as f64 / seen as f64
    }

    /// Every entry, for writing a database. Takes each bucket's lock in turn.
    pub fn for_each(&self, mut f: impl FnMut(u128, Entry)) {
        for b in 0..=self.bucket_mask {
            let bucket = &self.words[b * WORDS_PER_BUCKET..(b + 1) * WORDS_PER_BUCKET];
            let guard = Lock::acquire(bucket);
            for i in 0..ENTRIES_PER_BUCKET {
                let key = guard.key(i);
                if key != 0 {
                    f(key, guard.entry(i));
                }
            }
        }
    }
}

/// A locked bucket; unlocks when dropped.
struct Lock<'a> {
    words: &'a [AtomicU64],
}

impl<'a> Lock<'a> {
    #[inline]
    fn acquire(words: &'a [AtomicU64]) -> Lock<'a> {
        let lock_word = &words[1];
        loop {
            // Acquire pairs with the Release of the previous holder's unlock, so every
            // word it wrote is visible to the Relaxed reads below.
            if lock_word.fetch_or(LOCK_BIT, Ordering::Acquire) & LOCK_BIT == 0 {
                return Lock { words };
            }
            while lock_word.load(Ordering::Relaxed) & LOCK_BIT != 0 {
                std::hint::spin_loop();
            }
        }
    }

    #[inline]
    fn key(&self, i: usize) -> u128 {
        let w = &self.words[i * WORDS_PER_ENTRY..];
        let lo = w[0].load(Ordering::Relaxed);
        let hi = w[1].load(Ordering::Relaxed) & !LOCK_BIT;
        (hi as u128) << 64 | lo as u128
    }

    #[inline]
    fn entry(&self, i: usize) -> Entry {
        let w = &self.words[i * WORDS_PER_ENTRY..];
        let numbers = w[2].load(Ordering::Relaxed);
        let rest = w[3].load(Ordering::Relaxed);
        Entry {
            pn: numbers as u32,
            dn: (numbers >> 32) as u32,
            work: rest as u32,
            low: (rest >> 32) as u16 as i16,
            high: (rest >> 48) as u16 as i16,
        }
    }

    #[inline]
    fn store(&self, i: usize, key: u128, e: Entry) {
        debug_assert!(key >> 127 == 0, "keys use at most 127 bits");
        let w = &self.words[i * WORDS_PER_ENTRY..];
        w[0].store(key as u64, Ordering::Relaxed);
        let hi = (key >> 64) as u64;
        // Entry 0's high word carries the (held) lock bit.
        w[1].store(if i == 0 { hi | LOCK_BIT } else { hi }, Ordering::Relaxed);
        w[2].store(e.pn as u64 | (e.dn as u64) << 32, Ordering::Relaxed);
        w[3].store(
            e.work as u64 | (e.low as u16 as u64) << 32 | (e.high as u16 as u64) << 48,
            Ordering::Relaxed,
        );
    }
}

impl Drop for Lock<'_> {
    #[inline]
    fn drop(&mut self) {
        self.words[1].fetch_and(!LOCK_BIT, Ordering::Release);
    }
}

/// Zeroed memory for the table, mapped anonymously so that the operating system hands
/// out pages only when first written, and in 2 MiB pages where the kernel allows: a
/// transposition table is touched at random, and with 4 KiB pages page faults and TLB
/// misses cost more than the search itself.
struct Words {
    map: memmap2::MmapMut,
}

impl Words {
    fn zeroed(n: usize) -> std::io::Result<Words> {
        let map = memmap2::MmapMut::map_anon(n * 8)?;
        #[cfg(target_os = "linux")]
        let _ = map.advise(memmap2::Advice::HugePage);
        Ok(Words { map })
    }
}

impl std::ops::Deref for Words {
    type Target = [AtomicU64];

    #[inline]
    fn deref(&self) -> &[AtomicU64] {
        let bytes: &[u8] = &self.map;
        // SAFETY: the mapping is page-aligned (so aligned for u64), its length is a multiple
        // of 8, it is zero-initialised, it lives as long as `self`, and it is only ever
        // accessed through these atomics, which have the size, alignment and bit validity
        // of `u64`.
        unsafe { std::slice::from_raw_parts(bytes.as_ptr().cast::<AtomicU64>(), bytes.len() / 8) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(work: u32) -> Entry {
        Entry {
            pn: work,
            dn: 7,
            work,
            low: -5,
            high: 300,
        }
    }

    #[test]
    fn stores_and_reads_back() {
        let t = Table::with_bytes(1 << 16).unwrap();
        assert_eq!(t.get(42), None);
        t.store(42, entry(3));
        t.store((1u128 << 100) | 5, entry(9));
        assert_eq!(t.get(42), Some(entry(3)));
        assert_eq!(t.get((1u128 << 100) | 5), Some(entry(9)));
        t.update(42, |e| e.as_mut().unwrap().work = 11);
        assert_eq!(t.get(42).unwrap().work, 11);
        assert_eq!(t.len(), 2);
    }

    #[test]
    fn never_grows_and_keeps_the_costly_entries() {
        // One bucket: four entries; a fifth key replaces the cheapest.
        let t = Table::with_bytes(1).unwrap();
        assert_eq!(t.capacity(), 4);
        for k in 1..=4u128 {
            t.store(k, entry(10 * k as u32));
        }
        t.store(5, entry(15));
        assert_eq!(t.get(1), None);
        assert_eq!(t.get(5).unwrap().work, 15);
        // A newcomer always finds room, at the cost of the cheapest entry.
        t.store(6, entry(1));
        assert_eq!(t.get(5), None);
        assert_eq!(t.len(), 4);
        let mut seen = Vec::new();
        t.for_each(|k, _| seen.push(k));
        seen.sort();
        assert_eq!(seen, [2, 3, 4, 6]);
    }

    #[test]
    fn threads_see_whole_entries() {
        let t = Table::with_bytes(1 << 12).unwrap();
        std::thread::scope(|s| {
            for thread in 0..2u32 {
                let t = &t;
                s.spawn(move || {
                    for i in 0..20_000u32 {
                        let key = 1 + (i % 97) as u128;
                        t.update(key, |e| {
                            let mut x = e.unwrap_or(Entry {
                                pn: 0,
                                dn: 0,
                                work: 1,
                                low: 0,
                                high: 0,
                            });
                            // Both numbers always move together; a torn entry would break this.
                            x.pn = x.pn.wrapping_add(1 + thread);
                            x.dn = x.pn;
                            *e = Some(x);
                        });
                    }
                });
            }
        });
        t.for_each(|_, e| assert_eq!(e.pn, e.dn));
    }
}
