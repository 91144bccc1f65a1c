//! Table keys of any width.
//!
//! A key names a position exactly (up to symmetries that keep its value and remoteness),
//! so the table stores it whole and compares it whole: there are no hash collisions to
//! fear, whatever the width. A game picks the narrowest type that holds its key
//! (`u64`, `u128`, `[u64; 3]`, ...) and pays for no more: a table entry is the key's
//! words plus two words of search data.
//!
//! (The alternative, a 64-bit hash with the full position kept elsewhere for
//! verification, was set aside: it needs the position stored anyway, so it saves nothing
//! for keys of two or three words, and it makes every lookup two memory accesses.)

use std::fmt::Debug;

/// A position's exact key, as a fixed number of 64-bit words.
///
/// Implemented for `u64`, `u128` and `[u64; N]`. Any bit pattern is a valid key,
/// including all zeros.
pub trait Key: Copy + Eq + Send + Sync + Debug + 'static {
    /// How many words the key takes.
    const WORDS: usize;

    /// The all-zero key (a key like any other; searches use it as a placeholder).
    const ZERO: Self;

    /// The key's words, `WORDS` of them, into `out[..WORDS]`.
    fn to_words(self, out: &mut [u64]);

    /// The key whose words are `words[..WORDS]`.
    fn from_words(words: &[u64]) -> Self;

    /// A well-mixed 64-bit hash of every word, to choose a table bucket.
    #[inline]
    fn hash(self) -> u64 {
        let mut words = [0u64; 8];
        debug_assert!(Self::WORDS <= words.len());
        self.to_words(&mut words[..Self::WORDS]);
        words[..Self::WORDS]
            .iter()
            .fold(0x9e37_79b9_7f4a_7c15, |h, &w| mix(h ^ w))
    }
}

/// A bijective mixer (the finaliser of SplitMix64): every input bit affects every output
/// bit, so keys that differ in one bit land in unrelated buckets.
#[inline]
pub fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

impl Key for u64 {
    const WORDS: usize = 1;
    const ZERO: u64 = 0;

    #[inline]
    fn to_words(self, out: &mut [u64]) {
        out[0] = self;
    }

    #[inline]
    fn from_words(words: &[u64]) -> u64 {
        words[0]
    }

    #[inline]
    fn hash(self) -> u64 {
        mix(self)
    }
}

impl Key for u128 {
    const WORDS: usize = 2;
    const ZERO: u128 = 0;

    #[inline]
    fn to_words(self, out: &mut [u64]) {
        out[0] = self as u64;
        out[1] = (self >> 64) as u64;
    }

    #[inline]
    fn from_words(words: &[u64]) -> u128 {
        (words[1] as u128) << 64 | words[0] as u128
    }

    #[inline]
    fn hash(self) -> u64 {
        mix(self as u64 ^ ((self >> 64) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
    }
}

impl<const N: usize> Key for [u64; N] {
    const WORDS: usize = N;
    const ZERO: [u64; N] = [0; N];

    #[inline]
    fn to_words(self, out: &mut [u64]) {
        out[..N].copy_from_slice(&self);
    }

    #[inline]
    fn from_words(words: &[u64]) -> [u64; N] {
        let mut key = [0; N];
        key.copy_from_slice(&words[..N]);
        key
    }

    #[inline]
    fn hash(self) -> u64 {
        self.iter().fold(0x9e37_79b9_7f4a_7c15, |h, &w| mix(h ^ w))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<K: Key>(k: K) {
        let mut words = vec![0; K::WORDS];
        k.to_words(&mut words);
        assert_eq!(K::from_words(&words), k);
    }

    #[test]
    fn keys_survive_their_words() {
        round_trip(0u64);
        round_trip(u64::MAX);
        round_trip(u128::MAX - 5);
        round_trip(1u128 << 127);
        round_trip([1u64, u64::MAX, 1 << 63]);
    }

    #[test]
    fn every_word_moves_the_hash() {
        let base = [3u64, 4, 5];
        for i in 0..3 {
            let mut other = base;
            other[i] ^= 1 << 63;
            assert_ne!(base.hash(), other.hash());
        }
        assert_ne!((1u128 << 127).hash(), 0u128.hash());
    }
}
