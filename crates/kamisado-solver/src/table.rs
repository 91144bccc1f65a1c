//! A bounded transposition table shared by all search threads.
//!
//! Fixed size, chosen by the user in bytes, allocated zeroed so that pages cost nothing
//! until the search touches them, and never grown: when a bucket is full the entry that
//! cost the least work to compute makes room. Each bucket holds four entries and is
//! guarded by a lock bit, so that a reader never sees half an entry: an exact solver
//! cannot afford the torn-read risk of lockless hashing.
//!
//! An entry is the position's whole key (any width, see [`Key`]) and two words: the
//! proof and disproof numbers, and a word of bounds, work and flags. Keys are compared
//! whole, so a lookup never confuses two positions. The lock bit lives in a flag word,
//! never in a key word: no key bit can be lost to it. With Kamisado's two-word keys an
//! entry is 32 bytes and a bucket two cache lines.
//!
//! (`dashmap` was the other candidate; it grows without bound and has no replacement
//! policy, and a bounded table is what a solver on a 24 GiB machine needs.)

use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::stopped::StoppedPaths;
use crate::{Key, Known, Score, Value};

/// Which question an entry's proof and disproof numbers are about: "does the side to move
/// score at least this?".
///
/// The value searches ask [`Question::Wins`] and, in games with draws,
/// [`Question::DrawsOrWins`]; the remoteness searches ask [`Question::AtLeast`] any other
/// threshold ("wins within 12 moves", "loses in no fewer than 9"). Build one with
/// [`Question::at_least`], which names the two value questions by their variants, so that
/// one question has one representation and entries compare equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Question {
    /// "Does the side to move win?"
    Wins,
    /// "Does the side to move at least draw?" (only asked in games with draws).
    DrawsOrWins,
    /// "Does the side to move score at least this?", for any threshold but the two above.
    AtLeast(Score),
}

impl Question {
    /// The question "score at least `threshold`?".
    #[inline]
    pub fn at_least(threshold: Score) -> Question {
        match threshold {
            Score::ABOVE_DRAW => Question::Wins,
            Score::DRAW => Question::DrawsOrWins,
            t => Question::AtLeast(t),
        }
    }

    /// The lowest score that answers yes.
    #[inline]
    pub fn threshold(self) -> Score {
        match self {
            Question::Wins => Score::ABOVE_DRAW,
            Question::DrawsOrWins => Score::DRAW,
            Question::AtLeast(t) => t,
        }
    }
}

/// What the table knows about one position. All fields are from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Proof number of [`Entry::question`]; 0 = answered yes.
    pub pn: u32,
    /// Disproof number; 0 = answered no.
    pub dn: u32,
    pub question: Question,
    /// Lower and upper bounds on the exact score, whatever search found them.
    pub low: Score,
    pub high: Score,
    /// Nodes spent on this position and below (saturating at [`MAX_WORK`]): the
    /// replacement priority.
    pub work: u32,
}

impl Entry {
    /// An entry that knows nothing yet.
    pub const fn unknown() -> Entry {
        Entry {
            pn: 1,
            dn: 1,
            question: Question::Wins,
            low: Score::LOST,
            high: Score::WON,
            work: 1,
        }
    }

    /// What a game reports it knows ([`Game::known`](crate::Game::known)), as the
    /// entry a search would have left: bounds that settle every question its value
    /// answers (and meet, for a whole outcome).
    pub fn known(known: Known) -> Entry {
        let (low, high) = match known {
            Known::Outcome(outcome) => (Score::of(outcome), Score::of(outcome)),
            Known::Value(Value::Win) => (Score::ABOVE_DRAW, Score::WON),
            Known::Value(Value::Draw) => (Score::DRAW, Score::DRAW),
            Known::Value(Value::Loss) => (Score::LOST, Score::BELOW_DRAW),
        };
        let wins = low >= Question::Wins.threshold();
        Entry {
            pn: if wins { 0 } else { crate::dfpn::INF },
            dn: if wins { crate::dfpn::INF } else { 0 },
            low,
            high,
            ..Entry::unknown()
        }
    }

    /// `self` with both entries' bounds: the tighter of each.
    #[inline]
    pub(crate) fn merged(self, other: Entry) -> Entry {
        Entry {
            low: self.low.max(other.low),
            high: self.high.min(other.high),
            ..self
        }
    }

    /// The value the bounds prove, if they pin it down.
    pub fn proven_value(&self) -> Option<crate::Value> {
        let (low, high) = (self.low.value(), self.high.value());
        (low == high).then_some(low)
    }

    /// Narrows the bounds to `[low, high]` and, where they now answer the entry's
    /// question, sets its numbers to say so: an entry's numbers never contradict its
    /// bounds, so a proof-number search can read them alone.
    pub fn settle(&mut self, low: Score, high: Score) {
        self.low = self.low.max(low);
        self.high = self.high.min(high);
        let threshold = self.question.threshold();
        if self.low >= threshold {
            (self.pn, self.dn) = (0, crate::dfpn::INF);
        } else if self.high < threshold {
            (self.pn, self.dn) = (crate::dfpn::INF, 0);
        }
    }

    /// The exact score, if the bounds have met.
    pub fn exact(&self) -> Option<Score> {
        (self.low == self.high).then_some(self.low)
    }
}

/// The largest work count an entry holds.
pub const MAX_WORK: u32 = (1 << 30) - 1;

const ENTRIES_PER_BUCKET: usize = 4;
// The flag word: work (bits 0 to 29), the lock (bit 30, entry 0 only), and three scores
// of `SCORE_BITS` each from bit 31 up: the question's threshold, the low and the high
// bound. Every
// score and bound a search uses lies within `MAX_REMOTENESS` (500) of a win or a loss,
// within +-1001, so eleven signed bits hold it.
const WORK_MASK: u64 = MAX_WORK as u64;
/// The lock of a bucket: a bit of its first entry's flag word that no field uses.
const LOCK_BIT: u64 = 1 << 30;
const SCORE_BITS: u32 = 11;
const THRESHOLD_SHIFT: u32 = 31;
const LOW_SHIFT: u32 = THRESHOLD_SHIFT + SCORE_BITS;
const HIGH_SHIFT: u32 = LOW_SHIFT + SCORE_BITS;
const _: () = assert!(HIGH_SHIFT + SCORE_BITS == 64);

/// A score as `SCORE_BITS` bits of the flag word (two's complement).
#[inline]
fn pack_score(s: Score) -> u64 {
    debug_assert!((s.to_bits() as i32).unsigned_abs() < 1 << (SCORE_BITS - 1));
    (s.to_bits() as u64) & ((1 << SCORE_BITS) - 1)
}

/// The score at `shift` of a flag word.
#[inline]
fn unpack_score(flags: u64, shift: u32) -> Score {
    // Sign-extend the field: move it to the top of the word, then shift back.
    let bits = ((flags << (64 - shift - SCORE_BITS)) as i64) >> (64 - SCORE_BITS);
    Score::from_bits(bits as i16)
}

pub struct Table<K: Key> {
    words: Words,
    bucket_mask: usize,
    key: PhantomData<K>,
    /// Where searches over this table stopped (see [`StoppedPaths`]): part of what a
    /// stopped search leaves behind, saved and loaded with the table.
    stopped: StoppedPaths<K>,
}

impl<K: Key> Table<K> {
    /// Words per entry: the key, then the numbers, then the flag word.
    const ENTRY_WORDS: usize = K::WORDS + 2;
    const BUCKET_WORDS: usize = Self::ENTRY_WORDS * ENTRIES_PER_BUCKET;

    /// Bytes per entry, for reporting memory per position.
    pub const ENTRY_BYTES: usize = Self::ENTRY_WORDS * 8;

    /// A table of at most `bytes` bytes (at least one bucket), rounded down to a power of
    /// two buckets.
    pub fn with_bytes(bytes: usize) -> std::io::Result<Table<K>> {
        let buckets = (bytes / (Self::BUCKET_WORDS * 8)).max(1);
        let buckets = 1usize << (usize::BITS - 1 - buckets.leading_zeros());
        Ok(Table {
            words: Words::zeroed(buckets * Self::BUCKET_WORDS)?,
            bucket_mask: buckets - 1,
            key: PhantomData,
            stopped: StoppedPaths::default(),
        })
    }

    /// Where stopped searches over this table were, for searches started again from
    /// their roots.
    pub fn stopped_paths(&self) -> &StoppedPaths<K> {
        &self.stopped
    }

    pub fn bytes(&self) -> usize {
        self.words.len() * 8
    }

    pub fn capacity(&self) -> usize {
        (self.bucket_mask + 1) * ENTRIES_PER_BUCKET
    }

    /// Asks the processor to start loading the bucket of `key`: a search that is about to
    /// look up every child of a node overlaps those cache misses instead of waiting for
    /// each in turn. Every cache line of the bucket: a key absent from the table (most
    /// children of a fresh node) is compared with all four entries, and a bucket of
    /// two-word keys spans two lines. Prefetching only the first left the lookup waiting
    /// on the second: `Table::get` was 35% of a Kamon unit's time, four fifths of it at the
    /// third entry's key; with both lines, a quarter less CPU time for the same nodes (see
    /// the README's *Where the nodes go*).
    #[inline]
    pub fn prefetch(&self, key: K) {
        #[cfg(target_arch = "x86_64")]
        {
            const LINE: usize = 64;
            let bucket = self.bucket(key);
            let first = bucket.as_ptr() as usize & !(LINE - 1);
            let last = bucket.as_ptr() as usize + std::mem::size_of_val(bucket) - 1;
            for line in (first..=last).step_by(LINE) {
                // SAFETY: a prefetch is only a hint: it reads nothing into the program,
                // cannot fault (even on an address outside the table), and SSE (its target
                // feature) is part of the x86_64 baseline.
                unsafe {
                    std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                        line as *const i8,
                    )
                };
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline]
    fn bucket_at(&self, b: usize) -> &[AtomicU64] {
        &self.words[b * Self::BUCKET_WORDS..(b + 1) * Self::BUCKET_WORDS]
    }

    #[inline]
    fn bucket(&self, key: K) -> &[AtomicU64] {
        self.bucket_at(key.hash() as usize & self.bucket_mask)
    }

    /// The entry for `key`, if the table holds one.
    #[inline]
    pub fn get(&self, key: K) -> Option<Entry> {
        let bucket = self.bucket(key);
        // Most lookups are of keys the table lacks (a fresh node's children), and "not
        // here" needs no lock: the keys are read as they are, without it. What that scan
        // sees while another thread writes the bucket may be stale or half written (a key
        // of two writes' words, a new key beside the evicted entry's work), so it only
        // decides whether to look: a key that seems to match is looked for again under
        // the lock, and only what the locked read finds is returned (never reuse the
        // unlocked scan's slot). A miss it reads wrongly is always safe for a search: it
        // costs a guess, never a wrong answer; a thread's own stores and those of threads
        // it has joined are always seen. Without the lock a miss is plain loads; with it,
        // an atomic read-modify-write per child, which `perf` of a Kamon unit showed as 7%
        // of its time.
        Bucket::<K>::new(bucket).find(key)?;
        let guard = Lock::<K>::acquire(bucket);
        guard.find(key).map(|i| guard.entry(i))
    }

    /// Reads the entry for `key` (or `None`), lets `f` change it, and stores the result,
    /// all under the bucket's lock. Returns what `f` returned.
    #[inline]
    pub fn update<R>(&self, key: K, f: impl FnOnce(&mut Option<Entry>) -> R) -> R {
        let guard = Lock::<K>::acquire(self.bucket(key));
        let slot = guard.find(key);
        let mut entry = slot.map(|i| guard.entry(i));
        let result = f(&mut entry);
        if let Some(entry) = entry {
            // Else an empty entry if there is one, else the one that cost least.
            let i = slot.unwrap_or_else(|| {
                (0..ENTRIES_PER_BUCKET)
                    .min_by_key(|&i| guard.work(i))
                    .unwrap_or(0)
            });
            guard.store(i, key, entry);
        }
        result
    }

    /// Stores `entry` for `key`, replacing what was there.
    #[inline]
    pub fn store(&self, key: K, entry: Entry) {
        self.update(key, |e| *e = Some(entry));
    }

    /// How many entries are in use. Reads every bucket without locking (a count, not a
    /// search result) and writes nothing: for reports, not for search.
    pub fn len(&self) -> usize {
        (0..=self.bucket_mask).map(|b| self.used_in(b)).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Entries in use in bucket `b`, read without the lock: a concurrent writer can make
    /// the count off by one, never unsafe.
    fn used_in(&self, b: usize) -> usize {
        let bucket = self.bucket_at(b);
        (0..ENTRIES_PER_BUCKET)
            .filter(|&i| {
                let flags = bucket[i * Self::ENTRY_WORDS + K::WORDS + 1].load(Ordering::Relaxed);
                flags & WORK_MASK != 0
            })
            .count()
    }

    /// The fraction of entries in use, estimated from up to 4096 evenly spread buckets.
    /// Reads only: a page never written is read as the kernel's shared zero page and
    /// costs no memory, so a huge table stays as small as its use.
    pub fn fill(&self) -> f64 {
        let buckets = self.bucket_mask + 1;
        let step = (buckets / 4096).max(1);
        let (mut used, mut seen) = (0usize, 0usize);
        for b in (0..buckets).step_by(step) {
            used += self.used_in(b);
            seen += ENTRIES_PER_BUCKET;
        }
        used as f64 / seen as f64
    }

    /// Every entry, for writing a database. Takes each bucket's lock in turn.
    pub fn for_each(&self, mut f: impl FnMut(K, Entry)) {
        for b in 0..=self.bucket_mask {
            // A bucket never written needs no lock (and locking it would touch its page).
            if self.used_in(b) == 0 {
                continue;
            }
            let guard = Lock::<K>::acquire(self.bucket_at(b));
            for i in 0..ENTRIES_PER_BUCKET {
                if guard.work(i) != 0 {
                    f(guard.key(i), guard.entry(i));
                }
            }
        }
    }

    /// The `count` entries that cost the most work (ties in no particular order), heaviest
    /// first: a small table that keeps them is a checkpoint of a search worth keeping
    /// where its whole table is not (a proof-number search steers by the numbers at the
    /// top of its tree, which are the costly entries: see the README's *Kept tables*).
    /// Takes each bucket's lock in turn; holds `count` entries at a time.
    pub fn heaviest(&self, count: usize) -> Vec<(K, Entry)> {
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        if count == 0 {
            return Vec::new();
        }
        // The heaviest so far, in `found`, and a min-heap of their works and places in it:
        // the lightest is on top, to give its place to a heavier one.
        let mut heap: BinaryHeap<Reverse<(u32, usize)>> = BinaryHeap::with_capacity(count);
        let mut found: Vec<(K, Entry)> = Vec::with_capacity(count);
        self.for_each(|key, entry| {
            let slot = if found.len() < count {
                found.push((key, entry));
                found.len() - 1
            } else {
                match heap.peek() {
                    Some(&Reverse((lightest, slot))) if lightest < entry.work => {
                        heap.pop();
                        found[slot] = (key, entry);
                        slot
                    }
                    _ => return,
                }
            };
            heap.push(Reverse((entry.work, slot)));
        });
        let mut order: Vec<usize> = heap.into_iter().map(|Reverse((_, slot))| slot).collect();
        order.sort_by_key(|&slot| Reverse(found[slot].1.work));
        order.into_iter().map(|slot| found[slot]).collect()
    }

    /// Writes the table's words to `out` (little-endian, [`Table::bytes`] bytes in all),
    /// to save a search and resume it later from [`Table::read_words`]: df-pn keeps
    /// nothing but its table and where it stopped ([`Table::stopped_paths`], which the
    /// caller saves beside the words: `kamisado_analysis::table_file` does), so a search
    /// started again from the root over them goes on where the saved one stopped. Call it between searches: an entry written
    /// meanwhile may be saved half old, half new. Words of pages never written are read as
    /// the kernel's zero page, so a part of the table never used costs no memory here
    /// (only file bytes).
    pub fn write_words(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        let mut bytes = Vec::with_capacity(WORDS_PER_CHUNK * 8);
        for chunk in self.words.chunks(WORDS_PER_CHUNK) {
            bytes.clear();
            for word in chunk {
                bytes.extend_from_slice(&word.load(Ordering::Relaxed).to_le_bytes());
            }
            out.write_all(&bytes)?;
        }
        Ok(())
    }

    /// Replaces the table's words with [`Table::bytes`] bytes from `input`, as
    /// [`Table::write_words`] wrote them from a table of the same size and key. Call it
    /// before any search. The bytes are taken as they are (a caller reading them from a
    /// file checks them first, or drops the table if they fail a check made after), with
    /// one exception: bucket locks set in them are cleared, so that no bytes can make a
    /// search wait for ever. Fails, with the table partly overwritten, if `input` ends
    /// first.
    pub fn read_words(&self, input: &mut dyn std::io::Read) -> std::io::Result<()> {
        let mut bytes = vec![0u8; WORDS_PER_CHUNK * 8];
        for (c, chunk) in self.words.chunks(WORDS_PER_CHUNK).enumerate() {
            let bytes = &mut bytes[..chunk.len() * 8];
            input.read_exact(bytes)?;
            let first = c * WORDS_PER_CHUNK;
            for (j, (word, le)) in chunk.iter().zip(bytes.chunks_exact(8)).enumerate() {
                let mut value = u64::from_le_bytes(le.try_into().expect("8 bytes"));
                if (first + j) % Self::BUCKET_WORDS == Lock::<K>::LOCK_WORD {
                    value &= !LOCK_BIT;
                }
                // A zero word of a page never written stays unwritten: the page stays free.
                if value != 0 || word.load(Ordering::Relaxed) != 0 {
                    word.store(value, Ordering::Relaxed);
                }
            }
        }
        Ok(())
    }
}

/// Words copied at a time by [`Table::write_words`] and [`Table::read_words`] (512 KiB).
const WORDS_PER_CHUNK: usize = 1 << 16;

/// A locked bucket; unlocks when dropped. Reads and writes its entries through the
/// [`Bucket`] it dereferences to.
struct Lock<'a, K: Key> {
    bucket: Bucket<'a, K>,
}

impl<'a, K: Key> Lock<'a, K> {
    /// The word holding the lock bit: entry 0's flag word.
    const LOCK_WORD: usize = K::WORDS + 1;

    #[inline]
    fn acquire(words: &'a [AtomicU64]) -> Lock<'a, K> {
        let lock_word = &words[Self::LOCK_WORD];
        loop {
            // Acquire pairs with the Release of the previous holder's unlock, so every
            // word it wrote is visible to the Relaxed reads below.
            if lock_word.fetch_or(LOCK_BIT, Ordering::Acquire) & LOCK_BIT == 0 {
                return Lock {
                    bucket: Bucket::new(words),
                };
            }
            while lock_word.load(Ordering::Relaxed) & LOCK_BIT != 0 {
                std::hint::spin_loop();
            }
        }
    }

    /// Writes entry `i` (only under the lock: a reader without it trusts no entry).
    #[inline]
    fn store(&self, i: usize, key: K, e: Entry) {
        let w = self.entry_words(i);
        let mut words = [0u64; 8];
        key.to_words(&mut words[..K::WORDS]);
        for (j, &word) in words[..K::WORDS].iter().enumerate() {
            w[j].store(word, Ordering::Relaxed);
        }
        w[K::WORDS].store(e.pn as u64 | (e.dn as u64) << 32, Ordering::Relaxed);
        let flags = e.work.clamp(1, MAX_WORK) as u64
            | pack_score(e.question.threshold()) << THRESHOLD_SHIFT
            | pack_score(e.low) << LOW_SHIFT
            | pack_score(e.high) << HIGH_SHIFT;
        // Entry 0's flag word carries the (held) lock bit.
        let lock = if i == 0 { LOCK_BIT } else { 0 };
        w[K::WORDS + 1].store(flags | lock, Ordering::Relaxed);
    }
}

impl<'a, K: Key> std::ops::Deref for Lock<'a, K> {
    type Target = Bucket<'a, K>;

    #[inline]
    fn deref(&self) -> &Bucket<'a, K> {
        &self.bucket
    }
}

/// A bucket's words read as entries. Whole entries only under its [`Lock`]; without it,
/// only to find that a key is absent ([`Table::get`]).
struct Bucket<'a, K: Key> {
    words: &'a [AtomicU64],
    key: PhantomData<K>,
}

impl<'a, K: Key> Bucket<'a, K> {
    const ENTRY_WORDS: usize = K::WORDS + 2;

    #[inline]
    fn new(words: &'a [AtomicU64]) -> Bucket<'a, K> {
        Bucket {
            words,
            key: PhantomData,
        }
    }

    #[inline]
    fn entry_words(&self, i: usize) -> &[AtomicU64] {
        &self.words[i * Self::ENTRY_WORDS..(i + 1) * Self::ENTRY_WORDS]
    }

    #[inline]
    fn flags(&self, i: usize) -> u64 {
        self.entry_words(i)[K::WORDS + 1].load(Ordering::Relaxed) & !LOCK_BIT
    }

    /// The work of entry `i`; 0 for an empty entry (stored entries have at least 1).
    #[inline]
    fn work(&self, i: usize) -> u32 {
        (self.flags(i) & WORK_MASK) as u32
    }

    #[inline]
    fn key(&self, i: usize) -> K {
        let w = self.entry_words(i);
        let mut words = [0u64; 8];
        for (j, word) in words[..K::WORDS].iter_mut().enumerate() {
            *word = w[j].load(Ordering::Relaxed);
        }
        K::from_words(&words[..K::WORDS])
    }

    /// The slot holding `key`, if any.
    #[inline]
    fn find(&self, key: K) -> Option<usize> {
        // Keys first: a mismatch is the common, well-predicted case; an empty entry (work
        // 0) can only match the all-zero key.
        (0..ENTRIES_PER_BUCKET).find(|&i| self.key(i) == key && self.work(i) != 0)
    }

    #[inline]
    fn entry(&self, i: usize) -> Entry {
        let w = self.entry_words(i);
        let numbers = w[K::WORDS].load(Ordering::Relaxed);
        let flags = self.flags(i);
        Entry {
            pn: numbers as u32,
            dn: (numbers >> 32) as u32,
            question: Question::at_least(unpack_score(flags, THRESHOLD_SHIFT)),
            low: unpack_score(flags, LOW_SHIFT),
            high: unpack_score(flags, HIGH_SHIFT),
            work: (flags & WORK_MASK) as u32,
        }
    }
}

impl<K: Key> Drop for Lock<'_, K> {
    #[inline]
    fn drop(&mut self) {
        self.bucket.words[Self::LOCK_WORD].fetch_and(!LOCK_BIT, Ordering::Release);
    }
}

/// Zeroed memory for the table, mapped anonymously so that the operating system hands
/// out pages only when first written, and in 2 MiB pages where the kernel allows: a
/// transposition table is touched at random, and with 4 KiB pages page faults and TLB
/// misses cost more than the search itself.
struct Words {
    map: Option<memmap2::MmapRaw>,
    len: usize,
}

/// The memory of dropped tables, kept for the next table of the same size
/// ([`keep_dropped_tables`]), and how many may be kept.
static DROPPED: std::sync::Mutex<(Vec<memmap2::MmapRaw>, usize)> =
    std::sync::Mutex::new((Vec::new(), 0));

/// Keeps the memory of up to `count` dropped tables for the next tables of the same size,
/// which then start from it cleared instead of from fresh pages (0, the default: none).
///
/// Why: a program that makes one table after another (a split position's units, one
/// search each on a table of the same size) paid for every table's pages again: the
/// kernel's page faults, zeroing and, for 2 MiB pages, compaction, 0.1 to 2.2 s of system
/// time for each 512 MiB table on this machine (a unit's search of 35 s had 2.2 s), where
/// clearing a table already in memory writes it once. Memory stays bounded: a kept
/// table is one that was in use, and making a table of another size first gives back
/// every kept one.
pub fn keep_dropped_tables(count: usize) {
    let mut dropped = DROPPED.lock().unwrap_or_else(|e| e.into_inner());
    dropped.1 = count;
    let keep = count.min(dropped.0.len());
    dropped.0.truncate(keep);
}

impl Words {
    fn zeroed(n: usize) -> std::io::Result<Words> {
        let kept = {
            let mut dropped = DROPPED.lock().unwrap_or_else(|e| e.into_inner());
            match dropped.0.iter().position(|m| m.len() == n * 8) {
                Some(i) => Some(dropped.0.swap_remove(i)),
                None => {
                    // Another size: the kept memory is given back before more is taken.
                    dropped.0.clear();
                    None
                }
            }
        };
        if let Some(map) = kept {
            // Cleared outside the lock, which a table dropped meanwhile needs.
            // SAFETY: the mapping is `n * 8` writable bytes that no table uses any more
            // (it was taken back from a dropped one), and nothing else views it.
            unsafe { std::ptr::write_bytes(map.as_mut_ptr(), 0, n * 8) };
            return Ok(Words {
                map: Some(map),
                len: n,
            });
        }
        let map = memmap2::MmapMut::map_anon(n * 8)?;
        #[cfg(all(target_os = "linux", not(miri)))]
        let _ = map.advise(memmap2::Advice::HugePage);
        Ok(Words {
            map: Some(memmap2::MmapRaw::from(map)),
            len: n,
        })
    }
}

impl Drop for Words {
    fn drop(&mut self) {
        let mut dropped = DROPPED.lock().unwrap_or_else(|e| e.into_inner());
        if dropped.0.len() < dropped.1 {
            if let Some(map) = self.map.take() {
                dropped.0.push(map);
            }
        }
    }
}

impl std::ops::Deref for Words {
    type Target = [AtomicU64];

    #[inline]
    fn deref(&self) -> &[AtomicU64] {
        // SAFETY: the pointer comes from the raw mapping itself, not from a shared `&[u8]`
        // view of it, so the writes made through these atomics are allowed under Rust's
        // aliasing rules (nothing else ever views the memory as plain bytes). The mapping
        // is page-aligned (so aligned for u64), `len * 8` bytes long, zero-initialised, and
        // lives as long as `self`; `AtomicU64` has the size, alignment and bit validity of
        // `u64`, and every access to the memory goes through these atomics.
        let map = self.map.as_ref().expect("taken only when dropped");
        unsafe { std::slice::from_raw_parts(map.as_mut_ptr().cast::<AtomicU64>(), self.len) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(work: u32) -> Entry {
        Entry {
            pn: work,
            dn: 7,
            question: Question::DrawsOrWins,
            low: Score::LOSS_IN_ONE,
            high: Score::WIN_IN_TWO,
            work,
        }
    }

    #[test]
    fn a_table_made_from_a_dropped_ones_memory_starts_empty() {
        // Other tests make tables beside this one (and may take the kept memory first):
        // whichever memory a table gets, it starts empty.
        let bytes = 3 << 16;
        keep_dropped_tables(2);
        for round in 0..4u128 {
            let t = Table::<u128>::with_bytes(bytes).unwrap();
            assert_eq!(t.len(), 0, "round {round}");
            assert!((0..600).all(|key| t.get(key).is_none()), "round {round}");
            for key in 0..500 {
                t.store(key + round, entry(3));
            }
            assert!(t.len() > 400);
        }
        keep_dropped_tables(0);
        let t = Table::<u128>::with_bytes(bytes).unwrap();
        assert_eq!((t.len(), t.get(7)), (0, None));
    }

    #[test]
    fn stores_and_reads_back() {
        let t = Table::<u128>::with_bytes(1 << 16).unwrap();
        assert_eq!(t.get(42), None);
        t.store(42, entry(3));
        t.store((1u128 << 127) | 5, entry(9));
        assert_eq!(t.get(42), Some(entry(3)));
        assert_eq!(t.get((1u128 << 127) | 5), Some(entry(9)));
        // The top key bit is a key bit like any other: the lock cannot eat it.
        assert_eq!(t.get(5), None);
        t.update(42, |e| e.as_mut().unwrap().work = 11);
        assert_eq!(t.get(42).unwrap().work, 11);
        assert_eq!(t.len(), 2);
    }

    #[test]
    fn questions_and_bounds_of_every_score_survive_the_flag_word() {
        // Every score and bound a search uses, at the ends of the range and across zero,
        // as the question's threshold and as bounds, with work and the lock bit beside.
        let t = Table::<u128>::with_bytes(1).unwrap();
        let extremes = [
            Score::BELOW_ALL,
            Score::LOST,
            Score::LOSS_IN_ONE,
            Score::new(Value::Loss, 37),
            Score::BELOW_DRAW,
            Score::DRAW,
            Score::ABOVE_DRAW,
            Score::new(Value::Win, 500),
            Score::WIN_IN_TWO,
            Score::WON,
            Score::WON.above(),
        ];
        for (i, &s) in extremes.iter().enumerate() {
            let e = Entry {
                pn: 3,
                dn: 4,
                question: Question::at_least(s),
                low: s,
                high: extremes[extremes.len() - 1 - i],
                work: MAX_WORK - i as u32,
            };
            t.store(0, e);
            assert_eq!(t.get(0), Some(e), "{s:?}");
        }
        assert_eq!(Question::at_least(Score::ABOVE_DRAW), Question::Wins);
        assert_eq!(Question::at_least(Score::DRAW), Question::DrawsOrWins);
        assert_eq!(Question::at_least(Score::WON).threshold(), Score::WON);
    }

    #[test]
    fn the_zero_key_and_wide_keys_are_keys() {
        let t = Table::<[u64; 3]>::with_bytes(1 << 12).unwrap();
        t.store([0, 0, 0], entry(2));
        // Keys that differ only in their last word, or only in a top bit.
        t.store([0, 0, 1 << 63], entry(4));
        t.store([u64::MAX, u64::MAX, u64::MAX], entry(5));
        assert_eq!(t.get([0, 0, 0]), Some(entry(2)));
        assert_eq!(t.get([0, 0, 1 << 63]), Some(entry(4)));
        assert_eq!(t.get([u64::MAX; 3]), Some(entry(5)));
        assert_eq!(t.get([0, 1 << 63, 0]), None);
        assert_eq!(t.len(), 3);
    }

    #[test]
    fn never_grows_and_keeps_the_costly_entries() {
        // One bucket: four entries; a fifth key replaces the cheapest.
        let t = Table::<u128>::with_bytes(1).unwrap();
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
    fn the_heaviest_entries_are_those_of_most_work() {
        // Room for all 500 (no bucket overflows at this size with these keys).
        let t = Table::<u128>::with_bytes(1 << 20).unwrap();
        let works: Vec<u32> = (0..500u32).map(|i| (i * 7919) % 1000 + 1).collect();
        for (k, &w) in works.iter().enumerate() {
            t.store(k as u128, entry(w));
        }
        assert_eq!(t.len(), works.len());
        let mut sorted = works.clone();
        sorted.sort_unstable_by(|a, b| b.cmp(a));
        for count in [0, 1, 7, 100, 500, 900] {
            let top = t.heaviest(count);
            let got: Vec<u32> = top.iter().map(|(_, e)| e.work).collect();
            assert_eq!(got, sorted[..count.min(works.len())], "{count}");
            // Each is the entry the table holds for its key.
            for (k, e) in top {
                assert_eq!(t.get(k), Some(e));
            }
        }
    }

    #[test]
    fn words_written_and_read_back_are_the_same_table() {
        let t = Table::<[u64; 3]>::with_bytes(1 << 14).unwrap();
        for k in 0..200u64 {
            t.store([k, k * 7, u64::MAX - k], entry(k as u32 + 1));
        }
        let mut saved = Vec::new();
        t.write_words(&mut saved).unwrap();
        assert_eq!(saved.len(), t.bytes());
        let back = Table::<[u64; 3]>::with_bytes(1 << 14).unwrap();
        back.read_words(&mut saved.as_slice()).unwrap();
        let entries = |t: &Table<[u64; 3]>| {
            let mut all = Vec::new();
            t.for_each(|k, e| all.push((k, e)));
            all
        };
        assert_eq!(entries(&back), entries(&t));
        assert_eq!(back.len(), t.len());
        // A lock bit in the bytes (a table saved while a bucket was held) is cleared: the
        // bucket can be locked again.
        saved[(Lock::<[u64; 3]>::LOCK_WORD * 8) + 3] |= (LOCK_BIT >> 24) as u8;
        let locked = Table::<[u64; 3]>::with_bytes(1 << 14).unwrap();
        locked.read_words(&mut saved.as_slice()).unwrap();
        locked.store([9, 9, 9], entry(4));
        for b in 0..=locked.bucket_mask {
            assert_eq!(
                locked.bucket_at(b)[Lock::<[u64; 3]>::LOCK_WORD].load(Ordering::Relaxed) & LOCK_BIT,
                0
            );
        }
        // Too few bytes: an error, not a table.
        let short = Table::<[u64; 3]>::with_bytes(1 << 14).unwrap();
        assert!(short.read_words(&mut &saved[..saved.len() - 1]).is_err());
    }

    #[test]
    fn work_saturates_without_touching_the_flags() {
        let t = Table::<u64>::with_bytes(1).unwrap();
        let mut e = entry(u32::MAX);
        e.question = Question::Wins;
        t.store(0, e);
        let back = t.get(0).unwrap();
        assert_eq!(back.work, MAX_WORK);
        assert_eq!(back.question, Question::Wins);
        assert_eq!((back.low, back.high), (e.low, e.high));
    }

    #[test]
    #[cfg_attr(miri, ignore = "a 1 GiB mapping and /proc are out of Miri's reach")]
    fn statistics_do_not_write() {
        // A gigabyte table of which nothing is used: counting must not touch its pages.
        let t = Table::<u128>::with_bytes(1 << 30).unwrap();
        assert_eq!(t.fill(), 0.0);
        t.for_each(|_, _| panic!("an empty table has no entries"));
        #[cfg(target_os = "linux")]
        {
            let resident = resident_bytes();
            let _ = t.fill();
            assert!(resident_bytes() < resident + (4 << 20));
        }
    }

    #[cfg(target_os = "linux")]
    fn resident_bytes() -> u64 {
        let statm = std::fs::read_to_string("/proc/self/statm").unwrap();
        statm
            .split_whitespace()
            .nth(1)
            .unwrap()
            .parse::<u64>()
            .unwrap()
            * 4096
    }

    #[test]
    fn threads_see_whole_entries() {
        let t = Table::<u128>::with_bytes(1 << 12).unwrap();
        std::thread::scope(|s| {
            for thread in 0..2u32 {
                let t = &t;
                s.spawn(move || {
                    let rounds = if cfg!(miri) { 300 } else { 20_000 };
                    for i in 0..rounds {
                        let key = 1 + (i % 97) as u128;
                        t.update(key, |e| {
                            let mut x = e.unwrap_or(Entry::unknown());
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

    #[test]
    fn lookups_beside_writers_find_their_own_key_whole_or_nothing() {
        // One bucket, eight keys sharing it: every store evicts, so the lock-free "not
        // here" of `get` races slots changing hands all the time. The keys differ in both
        // words, and each entry names its key in its numbers and in its flag word (work
        // and bounds): a lookup must return that or nothing, never a neighbour's entry or
        // one torn between two writes. The writer goes on until the reader has done its
        // lookups (which start once the bucket is full), so the two always overlap.
        let t = Table::<u128>::with_bytes(1).unwrap();
        assert_eq!(t.capacity(), ENTRIES_PER_BUCKET);
        let key = |k: u64| 1 + (k % 8) as u128 * ((1 << 64) | 0x1_0000_0001);
        let tag = |key: u128| (key as u32) ^ 0x5a5a_0000;
        let entry = |key: u128| Entry {
            pn: tag(key),
            dn: tag(key),
            low: Score::from_bits(-((key % 7) as i16)),
            high: Score::from_bits((key % 5) as i16),
            work: 1 + (key % 11) as u32,
            ..Entry::unknown()
        };
        let rounds = if cfg!(miri) { 200 } else { 50_000 };
        let stores = std::sync::atomic::AtomicU64::new(0);
        let done = std::sync::atomic::AtomicBool::new(false);
        let found = std::sync::atomic::AtomicU64::new(0);
        std::thread::scope(|s| {
            let (t, stores, done, found) = (&t, &stores, &done, &found);
            s.spawn(move || {
                // Capped, so that a reader that failed cannot leave it running for ever.
                for i in 0..rounds * 100 {
                    if done.load(Ordering::Acquire) {
                        break;
                    }
                    t.store(key(i), entry(key(i)));
                    stores.fetch_add(1, Ordering::Release);
                }
            });
            s.spawn(move || {
                while stores.load(Ordering::Acquire) < ENTRIES_PER_BUCKET as u64 {
                    std::hint::spin_loop();
                }
                for i in 0..rounds {
                    let k = key(i);
                    if let Some(e) = t.get(k) {
                        assert_eq!(e, entry(k), "the entry of key {k:#x}");
                        found.fetch_add(1, Ordering::Relaxed);
                    }
                }
                done.store(true, Ordering::Release);
            });
        });
        // The bucket was full for every lookup: half the keys were there to be found.
        assert!(found.load(Ordering::Relaxed) > 0);
        let left = (0..8).filter_map(|k| t.get(key(k)).map(|e| (k, e))).count();
        assert_eq!(left, ENTRIES_PER_BUCKET);
        for k in 0..8 {
            if let Some(e) = t.get(key(k)) {
                assert_eq!(e, entry(key(k)));
            }
        }
    }
}
