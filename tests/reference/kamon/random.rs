//! Deterministic pseudo-random Kamon layouts and games for tests.
//!
//! Random placements end most games long before the board fills, which would leave few
//! late positions to solve; so a random game avoids placements that end it whenever it
//! can, and only plays an ending one when nothing else is left.

use super::layout::KamonLayout;
use super::position::KamonPosition;
use crate::random::XorShift64;

/// A random layout (see [`KamonLayout::random`]).
pub fn random_layout(seed: u64) -> KamonLayout {
    KamonLayout::random(seed)
}

/// Plays up to `placements` placements from `start`, each chosen with xorshift64 (seeded
/// by `seed`) among the legal cells after which the game goes on, or among all legal cells
/// if every one of them ends it. Stops early when the game ends. The same arguments always
/// give the same position.
pub fn random_game(start: &KamonPosition, seed: u64, placements: usize) -> KamonPosition {
    let mut rng = XorShift64::new(seed);
    let mut position = start.clone();
    for _ in 0..placements {
        let children = position.children();
        if children.is_empty() {
            break; // the game is over
        }
        let going_on: Vec<&KamonPosition> = children
            .iter()
            .map(|(_, child)| child)
            .filter(|child| child.end().is_none())
            .collect();
        let pool: Vec<&KamonPosition> = if going_on.is_empty() {
            children.iter().map(|(_, child)| child).collect()
        } else {
            going_on
        };
        let index = (rng.next() % pool.len() as u64) as usize;
        position = pool[index].clone();
    }
    position
}
