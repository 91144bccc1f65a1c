//! Both players' connection distances of a position's children, from one look at the
//! position itself.
//!
//! Why: a proof-number search estimates every child of each position it expands, and the
//! connection distances behind an estimate ([`geometry::connection_distances`]) were 38% of
//! a search's time (`perf` of a unit of seed 1's empty board, 2026-12-05). The children of
//! one position differ from it by one piece each, and one piece changes a distance in a
//! way that shortest paths predict:
//!
//! - the mover's piece turns one open cell into an own cell, which shortens every path
//!   through it by one and no other path: the mover's distance falls by one exactly when
//!   the cell lies on a shortest path of a nearest pair of sides, else it stays;
//! - for the opponent the cell is no longer open, which lengthens only the paths through
//!   it: the distance stays unless every shortest path of every nearest pair goes through
//!   the cell. A shortest path adds exactly one open cell of each cost 1 to `d` (a cell's
//!   cost is the fewest open cells from the first side to it, itself included), so a cell
//!   is on every shortest path of a pair exactly when it is the only shortest-path cell
//!   of its cost. Only then is the child's distance worked out afresh.
//!
//! So the position's growing sets are kept round by round from both sides of each pair
//! (the same growth as [`geometry::connection_distance`]), and each child's two distances
//! are a few bit tests. [`geometry::connection_distances`] stays the definition; a test
//! compares the two on every child of thousands of random positions.

use crate::geometry::lanes::{self, FROM, TO};
use crate::geometry::{self, NO_CONNECTION};
use crate::{Bitboard, Cell};

/// Rounds grown: a distance of [`NO_CONNECTION`] in a child needs one of 8 in the position.
const ROUNDS: usize = NO_CONNECTION as usize;

/// What a position's growing sets say about its children's connection distances.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParentDistances {
    /// The position's pieces, by player index, and open cells: what this was worked out for.
    pub pieces: [Bitboard; 2],
    pub open: Bitboard,
    /// Each player's distance, exact up to [`NO_CONNECTION`]; `NO_CONNECTION + 1` for
    /// farther or never.
    nearest: [u32; 2],
    /// Each player's open cells on a shortest path of a nearest pair of sides.
    on_a_path: [Bitboard; 2],
    /// Each player's open cells on every shortest path of every nearest pair.
    on_every_path: [Bitboard; 2],
}

impl ParentDistances {
    /// Worked out for no position (its open cells lie off the board): a memo's empty slot.
    pub const NONE: ParentDistances = ParentDistances {
        pieces: [Bitboard::EMPTY; 2],
        open: Bitboard(!0),
        nearest: [0; 2],
        on_a_path: [Bitboard::EMPTY; 2],
        on_every_path: [Bitboard::EMPTY; 2],
    };

    /// The analysis of the position with these `pieces` (by player index) and `open`
    /// cells (free, not forbidden).
    pub fn new(pieces: [Bitboard; 2], open: Bitboard) -> ParentDistances {
        let open = Bitboard(open.0 & Bitboard::ALL.0);
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f") {
                // SAFETY: the processor has the feature this variant is compiled for.
                let layers = unsafe { Layers::grown_avx512(pieces, open) };
                return ParentDistances::from_layers(pieces, open, &layers);
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: as above.
                let layers = unsafe { Layers::grown_avx2(pieces, open) };
                return ParentDistances::from_layers(pieces, open, &layers);
            }
        }
        ParentDistances::from_layers(pieces, open, &Layers::grown(pieces, open))
    }

    fn from_layers(pieces: [Bitboard; 2], open: Bitboard, layers: &Layers) -> ParentDistances {
        let mut on_a_path = [Bitboard::EMPTY; 2];
        let mut on_every_path = [Bitboard::EMPTY; 2];
        for p in 0..2 {
            let d = layers.nearest[p] as usize;
            if d == 0 || d > ROUNDS {
                continue;
            }
            let mut every = !0u64;
            for (lane, to) in TO.iter().enumerate().skip(3 * p).take(3) {
                if layers.forward[d][lane] & to == 0 {
                    continue;
                }
                // A nearest pair: its shortest paths' open cells of cost k are those of cost
                // k from the first side and d + 1 - k from the second.
                let mut cut = 0u64;
                for k in 1..=d {
                    let first = layers.forward[k][lane] & !layers.forward[k - 1][lane];
                    let second = layers.backward[d + 1 - k][lane] & !layers.backward[d - k][lane];
                    let level = first & second & open.0;
                    on_a_path[p].0 |= level;
                    if level.count_ones() == 1 {
                        cut |= level;
                    }
                }
                every &= cut;
            }
            on_every_path[p] = Bitboard(every);
        }
        ParentDistances {
            pieces,
            open,
            nearest: layers.nearest,
            on_a_path,
            on_every_path,
        }
    }

    /// [`geometry::connection_distances`] of the child where player `mover` (an index)
    /// placed a piece on the open `cell`, or `None` when it must be worked out afresh (the
    /// cell lies on every shortest path of the opponent's nearest pairs).
    #[inline]
    pub fn child(&self, mover: usize, cell: Cell) -> Option<[u32; 2]> {
        let opponent = 1 - mover;
        let mine = self.nearest[mover] - self.on_a_path[mover].contains(cell) as u32;
        let theirs = self.nearest[opponent];
        if theirs < NO_CONNECTION && self.on_every_path[opponent].contains(cell) {
            return None;
        }
        let mut d = [0; 2];
        d[mover] = mine.min(NO_CONNECTION);
        d[opponent] = theirs.min(NO_CONNECTION);
        Some(d)
    }
}

/// Every lane's growing sets round by round, from its first side (`forward`) and from its
/// second (`backward`), until each player's nearest pair arrives (or none grows), and
/// each player's distance (`NO_CONNECTION + 1` for farther or never). Rounds past the
/// last grown repeat nothing: they are not read.
struct Layers {
    forward: [[u64; 8]; ROUNDS + 1],
    backward: [[u64; 8]; ROUNDS + 1],
    nearest: [u32; 2],
}

impl Layers {
    /// Without vector registers, lane by lane: only the six lanes that are not repeats
    /// (lanes 6 and 7 are left empty: [`ParentDistances::from_layers`] reads lanes 0 to 5,
    /// and their arrivals and growth are those of lanes 0 and 3), and only a player's
    /// lanes while it is not done (rounds past a player's distance are not read).
    fn grown(pieces: [Bitboard; 2], open: Bitboard) -> Layers {
        const LANES: usize = 6;
        let own = lanes::own(pieces);
        let mut layers = Layers {
            forward: [[0; 8]; ROUNDS + 1],
            backward: [[0; 8]; ROUNDS + 1],
            nearest: [NO_CONNECTION + 1; 2],
        };
        for lane in 0..LANES {
            layers.forward[0][lane] = grow_from(own[lane] & FROM[lane], own[lane]);
            layers.backward[0][lane] = grow_from(own[lane] & TO[lane], own[lane]);
        }
        let arrived = |layer: &[u64; 8]| -> u8 {
            (0..LANES).fold(0, |m, lane| {
                m | ((layer[lane] & TO[lane] != 0) as u8) << lane
            })
        };
        let mut done = layers.settle(0, arrived(&layers.forward[0]), !0);
        for k in 1..=ROUNDS {
            if done == [true; 2] {
                break;
            }
            let mut growing = 0u8;
            for lane in (0..LANES).filter(|&lane| !done[lanes::player(lane)]) {
                let step = |reached: u64, side: u64| {
                    geometry::grown_round(
                        Bitboard(reached),
                        Bitboard(side),
                        Bitboard(own[lane]),
                        open,
                    )
                    .0
                };
                layers.forward[k][lane] = step(layers.forward[k - 1][lane], FROM[lane]);
                layers.backward[k][lane] = step(layers.backward[k - 1][lane], TO[lane]);
                growing |= ((layers.forward[k][lane] != layers.forward[k - 1][lane]) as u8) << lane;
            }
            done = layers.settle(k, arrived(&layers.forward[k]), growing);
        }
        layers
    }

    /// After round `k`, given the lanes that touch their second side (`arrived`, a bit a
    /// lane) and those that grew this round (`growing`; all of them at round 0): records
    /// the distance of each player one of whose lanes arrived now, and says which players
    /// are done (arrived, or none of their lanes grows).
    #[inline]
    fn settle(&mut self, k: usize, arrived: u8, growing: u8) -> [bool; 2] {
        std::array::from_fn(|p| {
            let mine = lanes::OF_PLAYER[p];
            if self.nearest[p] <= NO_CONNECTION {
                true
            } else if arrived & mine != 0 {
                self.nearest[p] = k as u32;
                true
            } else {
                growing & mine == 0
            }
        })
    }

    grown_in_lanes!(grown_avx512, avx512, "avx512f");
    grown_in_lanes!(grown_avx2, avx2, "avx2");
}

/// [`Layers::grown`] in vector registers (the instruction set's module of
/// [`lanes`], `$isa`, compiled with `$feature`): the eight lanes of each direction grow
/// in lockstep. Written once, for each instruction set the machine may have.
macro_rules! grown_in_lanes {
    ($name:ident, $isa:ident, $feature:literal) => {
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $feature)]
        fn $name(pieces: [Bitboard; 2], open: Bitboard) -> Layers {
            use lanes::$isa as v;
            let (own, from, to) = (v::load(&lanes::own(pieces)), v::load(&FROM), v::load(&TO));
            let open = v::splat(open.0);
            let mut layers = Layers {
                forward: [[0; 8]; ROUNDS + 1],
                backward: [[0; 8]; ROUNDS + 1],
                nearest: [NO_CONNECTION + 1; 2],
            };
            let mut forward = v::flood(v::and(own, from), own);
            let mut backward = v::flood(v::and(own, to), own);
            v::store(forward, &mut layers.forward[0]);
            v::store(backward, &mut layers.backward[0]);
            let mut done = layers.settle(0, v::test_mask(forward, to), !0);
            for k in 1..=ROUNDS {
                if done == [true; 2] {
                    break;
                }
                let next_forward = v::step(forward, from, own, open);
                backward = v::step(backward, to, own, open);
                let growing = v::neq_mask(next_forward, forward);
                forward = next_forward;
                v::store(forward, &mut layers.forward[k]);
                v::store(backward, &mut layers.backward[k]);
                done = layers.settle(k, v::test_mask(forward, to), growing);
            }
            layers
        }
    };
}
use grown_in_lanes;

#[inline]
fn grow_from(from: u64, within: u64) -> u64 {
    geometry::flood(Bitboard(from), Bitboard(within)).0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::connection_distances;
    use crate::{Layout, Player, Position};

    #[test]
    fn every_child_has_the_distances_worked_out_afresh() {
        // Random games on random layouts; at every position each legal child's distances
        // from the analysis are compared with the definition's. Games avoid ending while
        // they can, to reach crowded boards where paths are cut.
        let mut rng = fastrand::Rng::with_seed(31);
        let (mut children, mut afresh, mut shorter, mut longer) = (0, 0, 0, 0);
        for seed in 0..600 {
            let layout = Layout::random(seed);
            let mut pos = Position::start(&layout);
            while !pos.is_over() {
                let pieces = Player::ALL.map(|p| pos.pieces(p));
                let open = pos.free_cells();
                let parent = ParentDistances::new(pieces, open);
                // The vector growth (where the processor has it) and the plain one agree.
                let plain =
                    ParentDistances::from_layers(pieces, open, &Layers::grown(pieces, open));
                assert_eq!(parent, plain, "seed {seed}");
                let before = connection_distances(pieces, open);
                let mover = pos.turn().index();
                for cell in open {
                    let mut after = pieces;
                    after[mover] = after[mover].with(cell);
                    let expected = connection_distances(after, open.without(cell));
                    match parent.child(mover, cell) {
                        Some(d) => assert_eq!(d, expected, "seed {seed} {cell}"),
                        None => afresh += 1,
                    }
                    children += 1;
                    shorter += (expected[mover] < before[mover]) as u32;
                    longer += (expected[1 - mover] > before[1 - mover]) as u32;
                }
                let legal: Vec<Cell> = pos.legal_cells(&layout).collect();
                let going_on: Vec<Cell> = legal
                    .iter()
                    .copied()
                    .filter(|&c| !pos.play_unchecked(&layout, c).is_over())
                    .collect();
                let pool = if going_on.is_empty() { legal } else { going_on };
                pos = pos.play_unchecked(&layout, pool[rng.usize(..pool.len())]);
            }
        }
        // Both kinds of change turn up, and few children need the distance afresh.
        assert!(children > 100_000, "{children}");
        assert!(shorter > 10_000 && longer > 1_000, "{shorter} {longer}");
        assert!(afresh * 10 < children, "{afresh} of {children}");
    }
}
