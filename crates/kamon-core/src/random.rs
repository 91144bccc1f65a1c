//! Random layouts from a `u64` seed, by a generator anyone can rebuild from this page.
//!
//! Why a hand-written generator and not a crate's: a seed names a layout in results, files
//! and papers, so the layout of a seed must never change with a dependency's version and
//! must be reproducible in any language. The whole algorithm is below; the test
//! `seed_layouts_never_change` pins it.
//!
//! # The algorithm
//!
//! 1. Start from the 37 chips in the standard order `1a 1b 1c 1d 1e 1f 2a .. 6f --`
//!    (count-major: chip `k` < 36 has count `k / 6 + 1` and symbol `a + k % 6`; chip 36 is
//!    the first-player chip).
//! 2. SplitMix64 with `state = seed`: each draw does, in wrapping 64-bit arithmetic,
//!    `state += 0x9E3779B97F4A7C15; z = state; z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
//!    z = (z ^ (z >> 27)) * 0x94D049BB133111EB; return z ^ (z >> 31)`.
//! 3. Fisher-Yates: for `i` from 36 down to 1, draw `r`, let `j = r % (i + 1)`, swap the
//!    chips at `i` and `j`.
//! 4. Lay the shuffled chips on the cells in reading order: chip 0 on `a1`, 1 on `a2`, ..,
//!    36 on `g4`.
//!
//! (`r % (i + 1)` is biased by less than 37 in 2^64, far below anything measurable.)

use crate::{Chip, Layout};

/// The SplitMix64 generator (Steele, Lea, Flood 2014), as used by [`Layout::random`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

impl Layout {
    /// The layout of `seed`, by the algorithm of the [`random`](crate::random) module:
    /// SplitMix64 from `seed` drives a Fisher-Yates shuffle (`i` = 36 down to 1,
    /// `j = draw % (i + 1)`) of the chips in the standard order `1a .. 6f --`, laid on the
    /// cells in reading order `a1 .. g4`.
    pub fn random(seed: u64) -> Layout {
        let mut chips = Chip::ALL;
        let mut rng = SplitMix64::new(seed);
        for i in (1..chips.len()).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            chips.swap(i, j);
        }
        Layout::from_valid(chips)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_matches_the_published_sequence() {
        // The reference outputs of SplitMix64 from seed 1234567 (Vigna's splitmix64.c).
        let mut rng = SplitMix64::new(1234567);
        let draws: Vec<u64> = (0..5).map(|_| rng.next_u64()).collect();
        assert_eq!(
            draws,
            [
                6457827717110365317,
                3203168211198807973,
                9817491932198370423,
                4593380528125082431,
                16408922859458223821
            ]
        );
    }

    #[test]
    fn seed_layouts_never_change() {
        // Computed by a separate Python program written from the module documentation
        // alone: a seed's layout is part of every result that names it.
        let expected = [
            (
                0,
                "4f5a3c1b/5d4e1e6e6c/3a5e3f4b6f1d/3b2f5f3e--5b1f/4d6a2c4a6b5c/2a4c3d2e2b/1c2d1a6d",
            ),
            (
                1,
                "2c2f5b3e/4c4e6d1c5a/4b1f6e6f5e--/3a6a6b3f1b5c4d/3b2e2d1e2a6c/3c1d4f1a4a/5f3d2b5d",
            ),
            (
                2026,
                "2f3a5e6b/3e5b6f4f5d/3c4b6a4e1a5a/2c6c4a4d6d6e1b/4c3b1c2e5f--/2d2b1f1d3d/5c1e3f2a",
            ),
            (
                u64::MAX,
                "4c5d3b1b/4a5b5f1d6b/3f1e2a--4f6f/6a4e1f3a5e2b1c/2c2e1a2f3e5a/6e5c3d4b2d/6c4d6d3c",
            ),
        ];
        for (seed, text) in expected {
            assert_eq!(Layout::random(seed).to_string(), text, "seed {seed}");
        }
    }
}
