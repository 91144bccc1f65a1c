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
//!
//! # Random openings
//!
//! [`Record::random(seed, placements)`](Record::random) is the layout of `seed` followed
//! by `placements` random placements that do not end the game, for studying positions
//! part-way into a game:
//!
//! 1. The same SplitMix64 generator goes on after the 36 draws of the layout's shuffle.
//! 2. For each placement: list the legal cells, in reading order, whose placement does
//!    not end the game; draw `r`; play the cell at index `r % count`.
//! 3. If some placement has no such cell, the attempt fails: start again from the empty
//!    board with the generator going on. After 1000 failed attempts there is no record.

use crate::{Chip, Layout, Position, Record};

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
        Layout::random_with(&mut SplitMix64::new(seed))
    }

    fn random_with(rng: &mut SplitMix64) -> Layout {
        let mut chips = Chip::ALL;
        for i in (1..chips.len()).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            chips.swap(i, j);
        }
        Layout::from_valid(chips)
    }
}

/// Attempts at a random opening before giving up (see the [module](self) documentation).
const OPENING_ATTEMPTS: u32 = 1000;

impl Record {
    /// The layout of `seed` ([`Layout::random`]) and then `placements` random placements
    /// that do not end the game, by the algorithm of the [`random`](crate::random)
    /// module. `None` if 1000 attempts all reach a position where every placement ends
    /// the game.
    pub fn random(seed: u64, placements: u32) -> Option<Record> {
        let mut rng = SplitMix64::new(seed);
        let layout = Layout::random_with(&mut rng);
        'attempt: for _ in 0..OPENING_ATTEMPTS {
            let mut record = Record::new(layout.clone());
            for _ in 0..placements {
                let pos: Position = *record.position();
                let going_on: Vec<_> = pos
                    .legal_cells(&layout)
                    .filter(|&cell| !pos.play_unchecked(&layout, cell).is_over())
                    .collect();
                if going_on.is_empty() {
                    continue 'attempt;
                }
                let cell = going_on[(rng.next_u64() % going_on.len() as u64) as usize];
                record.play(cell).expect("a legal cell");
            }
            return Some(record);
        }
        None
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

    #[test]
    fn seed_openings_never_change() {
        // Computed by a separate Python program written from the module documentation
        // (its own board, chips and rules): an opening is named by its seed in results.
        let expected = [
            (1, 0, ""),
            (1, 6, "f1 a4 c5 g1 g4 g2"),
            (7, 12, "f5 g4 f3 c4 e6 d5 a1 f4 d2 g1 d7 f2"),
            (
                2026,
                20,
                "g3 a1 e4 d6 b3 a4 d7 c2 e1 d3 c6 a2 g4 f1 f2 e2 f5 d5 d2 d1",
            ),
        ];
        for (seed, placements, moves) in expected {
            let record = Record::random(seed, placements).unwrap();
            assert_eq!(record.layout(), &Layout::random(seed));
            assert_eq!(
                record.moves_text(),
                moves,
                "seed {seed}, {placements} placements"
            );
            assert!(!record.position().is_over());
        }
    }
}
