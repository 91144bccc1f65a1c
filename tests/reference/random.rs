//! Deterministic pseudo-random positions for tests.

use crate::position::RefPosition;

/// A tiny xorshift64 generator (Marsaglia's 13/7/17 variant), shared by the generators of
/// the reference (single round, match play, Kamon).
pub(crate) struct XorShift64 {
    state: u64,
}

impl XorShift64 {
    /// Starts from `seed`, mixed with a constant so that small seeds differ a lot and the
    /// state is never zero (xorshift would stay at zero forever).
    pub(crate) fn new(seed: u64) -> XorShift64 {
        let mixed = seed ^ 0x9E37_79B9_7F4A_7C15;
        XorShift64 {
            state: if mixed == 0 {
                0x9E37_79B9_7F4A_7C15
            } else {
                mixed
            },
        }
    }

    /// The next pseudo-random number.
    pub(crate) fn next(&mut self) -> u64 {
        let mut x = self.state;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.state = x;
        x
    }
}

/// A reachable position: from the start, plays up to `plies` moves (default convention),
/// each chosen as `moves()[next() % moves().len()]` with the xorshift64 generator seeded by
/// `seed`, stopping early when the game ends. The same arguments always give the same
/// position.
pub fn random_position(seed: u64, plies: u32) -> RefPosition {
    let mut rng = XorShift64::new(seed);
    let mut pos = RefPosition::start();
    for _ in 0..plies {
        let moves = pos.moves();
        if moves.is_empty() {
            break; // game over
        }
        let index = (rng.next() % moves.len() as u64) as usize;
        match pos.play(&moves[index]) {
            Ok(next) => pos = next,
            Err(_) => break, // cannot happen: the move came from moves()
        }
    }
    pos
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_varied() {
        assert_eq!(random_position(7, 10), random_position(7, 10));
        assert_eq!(random_position(7, 0), RefPosition::start());
        let distinct: std::collections::HashSet<String> =
            (0..50).map(|s| random_position(s, 6).to_text()).collect();
        assert!(distinct.len() > 40);
        // Long games end.
        let finished = (0..50)
            .filter(|&s| random_position(s, 200).game_end().is_some())
            .count();
        assert_eq!(finished, 50);
    }
}
