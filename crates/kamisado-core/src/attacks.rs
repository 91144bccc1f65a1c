//! Where a tower can go: the three forward lines, as precomputed bitboards.
//!
//! A tower moves straight forward or diagonally forward, any distance over empty squares.
//! Only the squares on the line itself are looked at, so two towers touching corner to
//! corner leave the diagonal between them open.
//!
//! Public so that rule sets built on the single round (match play, whose Sumos move a
//! limited distance and push straight ahead) use the same tables.

use crate::{Bitboard, Side, Square};

/// File steps of the three forward lines; the rank step is +1 for Black, -1 for White.
const FILE_STEPS: [i8; 3] = [-1, 0, 1];

const fn build_rays() -> [[[u64; 64]; 3]; 2] {
    let mut rays = [[[0u64; 64]; 3]; 2];
    let mut side = 0;
    while side < 2 {
        let rank_step: i8 = if side == 0 { 1 } else { -1 };
        let mut dir = 0;
        while dir < 3 {
            let mut sq = 0;
            while sq < 64 {
                let mut file = (sq % 8) as i8 + FILE_STEPS[dir];
                let mut rank = (sq / 8) as i8 + rank_step;
                let mut ray = 0u64;
                while file >= 0 && file < 8 && rank >= 0 && rank < 8 {
                    ray |= 1 << (rank * 8 + file);
                    file += FILE_STEPS[dir];
                    rank += rank_step;
                }
                rays[side][dir][sq] = ray;
                sq += 1;
            }
            dir += 1;
        }
        side += 1;
    }
    rays
}

const fn build_steps(rays: &[[[u64; 64]; 3]; 2]) -> [[u64; 64]; 2] {
    let mut steps = [[0u64; 64]; 2];
    let mut side = 0;
    while side < 2 {
        let mut sq = 0;
        while sq < 64 {
            let mut dir = 0;
            while dir < 3 {
                let ray = rays[side][dir][sq];
                if ray != 0 {
                    // The nearest square of a Black ray is its lowest bit, of a White ray its highest.
                    steps[side][sq] |= if side == 0 {
                        ray & ray.wrapping_neg()
                    } else {
                        1 << (63 - ray.leading_zeros())
                    };
                }
                dir += 1;
            }
            sq += 1;
        }
        side += 1;
    }
    steps
}

static RAYS: [[[u64; 64]; 3]; 2] = build_rays();
static STEPS: [[u64; 64]; 2] = build_steps(&RAYS);

/// The squares a tower of `side` on `from` may move to, given the occupied squares.
#[inline]
pub fn reach(side: Side, from: Square, occupied: Bitboard) -> Bitboard {
    let rays = &RAYS[side.index()];
    let occ = occupied.0;
    let mut reach = 0;
    for ray_table in rays {
        let ray = ray_table[from.index()];
        let blockers = ray & occ;
        reach |= if blockers == 0 {
            ray
        } else {
            let nearest = match side {
                Side::Black => blockers.trailing_zeros(),
                Side::White => 63 - blockers.leading_zeros(),
            };
            // The ray beyond the nearest blocker, and the blocker itself, are out of reach.
            let beyond = ray_table[nearest as usize] | 1 << nearest;
            ray & !beyond
        };
    }
    Bitboard(reach)
}

/// The squares straight ahead of `from` for `side`, up to the board's edge, nearest first
/// in the order of the side's forward direction (the lowest bit for Black, the highest for White).
#[inline]
pub fn straight_ahead(side: Side, from: Square) -> Bitboard {
    Bitboard(RAYS[side.index()][1][from.index()])
}

/// The (up to three) squares next to `from` in the forward directions of `side`.
/// A tower is blocked exactly when all of them are occupied.
#[inline]
pub fn forward_neighbours(side: Side, from: Square) -> Bitboard {
    Bitboard(STEPS[side.index()][from.index()])
}

/// Whether a tower of `side` on `from` has no legal destination at all.
#[inline]
pub fn is_blocked(side: Side, from: Square, occupied: Bitboard) -> bool {
    (forward_neighbours(side, from) & !occupied).is_empty()
}

/// The squares strictly between two squares on one forward line of `side`,
/// or `None` if `to` is not on a forward line from `from`.
pub fn between(side: Side, from: Square, to: Square) -> Option<Bitboard> {
    let rays = &RAYS[side.index()];
    rays.iter().find_map(|ray_table| {
        let ray = ray_table[from.index()];
        (ray & 1 << to.index() != 0)
            .then(|| Bitboard(ray & !ray_table[to.index()] & !(1 << to.index())))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    fn squares(bb: Bitboard) -> Vec<String> {
        bb.map(|s| s.to_string()).collect()
    }

    #[test]
    fn empty_board_lines() {
        let r = reach(Side::Black, sq("d1"), Bitboard::EMPTY);
        assert_eq!(r.count(), 3 + 7 + 4);
        assert!(r.contains(sq("d8")) && r.contains(sq("a4")) && r.contains(sq("h5")));
        let r = reach(Side::White, sq("a8"), Bitboard::EMPTY);
        assert_eq!(
            squares(r),
            ["a1", "h1", "a2", "g2", "a3", "f3", "a4", "e4", "a5", "d5", "a6", "c6", "a7", "b7"]
        );
    }

    #[test]
    fn blockers_stop_each_line_separately() {
        // From d1: b3 stops the left diagonal after c2, d4 the straight line after d3, f2
        // is on no line, and the right diagonal runs to the edge.
        let occ = Bitboard::EMPTY.with(sq("d4")).with(sq("b3")).with(sq("f2"));
        let r = reach(Side::Black, sq("d1"), occ);
        assert_eq!(squares(r), ["c2", "d2", "e2", "d3", "f3", "g4", "h5"]);
        // d4 closes the straight line; b3 is behind c4; f2 is on no line of d5.
        let r = reach(Side::White, sq("d5"), occ);
        assert_eq!(squares(r), ["h1", "g2", "f3", "c4", "e4"]);
    }

    #[test]
    fn between_squares() {
        assert_eq!(
            squares(between(Side::Black, sq("a1"), sq("d4")).unwrap()),
            ["b2", "c3"]
        );
        assert_eq!(between(Side::Black, sq("a1"), sq("b3")), None);
        assert_eq!(between(Side::White, sq("a1"), sq("a2")), None);
        assert!(between(Side::White, sq("a2"), sq("a1")).unwrap().is_empty());
    }

    #[test]
    fn straight_ahead_runs_to_the_edge() {
        assert_eq!(
            squares(straight_ahead(Side::Black, sq("c5"))),
            ["c6", "c7", "c8"]
        );
        assert_eq!(squares(straight_ahead(Side::White, sq("c3"))), ["c1", "c2"]);
        assert!(straight_ahead(Side::White, sq("f1")).is_empty());
    }

    #[test]
    fn neighbours() {
        assert_eq!(
            squares(forward_neighbours(Side::Black, sq("a1"))),
            ["a2", "b2"]
        );
        assert_eq!(
            squares(forward_neighbours(Side::White, sq("e5"))),
            ["d4", "e4", "f4"]
        );
        assert!(forward_neighbours(Side::Black, sq("c8")).is_empty());
    }
}
