//! The hexagonal board as bit shifts: neighbours, sides, edges, and the two winning shapes.
//!
//! Why the bits sit where they do: the rows are slid sideways so that the board is a
//! rhombus-shaped patch of an 8-bit-wide grid (row `r` in bits `8r..8r+8`; rows `a`..`d`
//! start at columns 3, 2, 1, 0, rows `e`..`g` at column 0). In that grid the six neighbours
//! of every cell are the same six shifts, `±1` (same row), `-8` and `-7` (row above), `+7`
//! and `+8` (row below), and column 7 is never a cell. A shift that would wrap around a row
//! end lands in column 7 or outside the 56 used bits, so one AND with [`Bitboard::ALL`]
//! removes every wrap: no per-row edge masks, no per-cell loops. A flood fill is then a
//! handful of shifts per step, growing all its frontier cells at once.
//!
//! The two winning shapes ([`has_connection`], [`has_loop`]) are stated for a set of one
//! player's pieces alone, which is all they depend on.

use std::fmt;

use crate::cell::ROW_LENGTHS;
use crate::{Bitboard, Cell};

/// The cells that touch a cell of `cells` along a side (the set itself is not included
/// unless a cell of it touches another).
#[inline]
pub const fn neighbours(cells: Bitboard) -> Bitboard {
    let x = cells.0;
    Bitboard((x << 1 | x >> 1 | x << 8 | x >> 8 | x << 7 | x >> 7) & Bitboard::ALL.0)
}

/// `x` and its neighbours in the shifted grid, before the board's mask, in four shifts
/// instead of six: with `t = x | x << 1`, `t << 7` is `x << 7 | x << 8` and `t >> 8` is
/// `x >> 8 | x >> 7` (bit 63 is never a cell, so none is lost). Flood fills make most of
/// a Kamon search's shifts (criterion's `kamon-connection-distance`).
#[inline]
const fn with_neighbours_unmasked(x: u64) -> u64 {
    let t = x | x << 1;
    t | x >> 1 | t << 7 | t >> 8
}

/// The cells of `within` connected to `from` through cells of `within` (neighbour to
/// neighbour). Cells of `from` outside `within` start nothing.
#[inline]
pub fn flood(from: Bitboard, within: Bitboard) -> Bitboard {
    let w = within.0;
    let mut reached = from.0 & w;
    loop {
        let x = reached;
        // `within` is a subset of the board, so it also removes the wrapped shifts.
        let grown = with_neighbours_unmasked(x) & w;
        if grown == reached {
            return Bitboard(reached);
        }
        reached = grown;
    }
}

/// The neighbours of each cell, by bit.
const NEIGHBOURS: [Bitboard; 64] = {
    let mut table = [Bitboard::EMPTY; 64];
    let mut i = 0;
    while i < Cell::ALL.len() {
        let cell = Cell::ALL[i];
        table[cell.bit() as usize] = neighbours(Bitboard::from_cell(cell));
        i += 1;
    }
    table
};

/// The cells touching `cell`: 3 for a corner, 4 for another edge cell, else 6.
#[inline]
pub const fn neighbours_of(cell: Cell) -> Bitboard {
    NEIGHBOURS[cell.bit() as usize]
}

/// How many steps `cell` is from the centre `d4`: 0 for the centre, 1 for its six
/// neighbours, 2 for the twelve cells around those, 3 for the 18 on the rim.
///
/// A move-ordering signal, not a rule: central cells touch more cells, so a piece there
/// blocks more of the opponent's connections and starts more of one's own. (In the survey's
/// solved positions 8 to 12 placements in, a placement on the centre or next to it wins
/// 1.3 to 1.8 times as often as one on the rim; see the README's *The empty board in
/// units*.)
pub const fn centre_distance(cell: Cell) -> u32 {
    let mut reached = Bitboard::from_cell(Cell::at(3, 4));
    let mut steps = 0;
    while !reached.contains(cell) {
        reached = Bitboard(reached.0 | neighbours(reached).0);
        steps += 1;
    }
    steps
}

/// One of the six sides of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// `a1 a2 a3 a4`.
    Top,
    /// `a4 b5 c6 d7`.
    UpperRight,
    /// `d7 e6 f5 g4`.
    LowerRight,
    /// `g1 g2 g3 g4`.
    Bottom,
    /// `d1 e1 f1 g1`.
    LowerLeft,
    /// `a1 b1 c1 d1`.
    UpperLeft,
}

impl Side {
    /// Clockwise from the top.
    pub const ALL: [Side; 6] = [
        Side::Top,
        Side::UpperRight,
        Side::LowerRight,
        Side::Bottom,
        Side::LowerLeft,
        Side::UpperLeft,
    ];

    /// The three pairs of opposite sides a connection joins.
    pub const OPPOSITE_PAIRS: [(Side, Side); 3] = [
        (Side::Top, Side::Bottom),
        (Side::UpperLeft, Side::LowerRight),
        (Side::UpperRight, Side::LowerLeft),
    ];

    /// The side across the board.
    pub const fn opposite(self) -> Side {
        match self {
            Side::Top => Side::Bottom,
            Side::UpperRight => Side::LowerLeft,
            Side::LowerRight => Side::UpperLeft,
            Side::Bottom => Side::Top,
            Side::LowerLeft => Side::UpperRight,
            Side::UpperLeft => Side::LowerRight,
        }
    }

    /// The four cells of the side, corners included.
    #[inline]
    pub const fn cells(self) -> Bitboard {
        SIDE_CELLS[self as usize]
    }

    pub const fn name(self) -> &'static str {
        match self {
            Side::Top => "top",
            Side::UpperRight => "upper right",
            Side::LowerRight => "lower right",
            Side::Bottom => "bottom",
            Side::LowerLeft => "lower left",
            Side::UpperLeft => "upper left",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

const fn row_end(row: u8, last: bool) -> Cell {
    Cell::at(row, if last { ROW_LENGTHS[row as usize] } else { 1 })
}

const SIDE_CELLS: [Bitboard; 6] = [
    Bitboard::from_cells(&[
        Cell::at(0, 1),
        Cell::at(0, 2),
        Cell::at(0, 3),
        Cell::at(0, 4),
    ]),
    Bitboard::from_cells(&[
        row_end(0, true),
        row_end(1, true),
        row_end(2, true),
        row_end(3, true),
    ]),
    Bitboard::from_cells(&[
        row_end(3, true),
        row_end(4, true),
        row_end(5, true),
        row_end(6, true),
    ]),
    Bitboard::from_cells(&[
        Cell::at(6, 1),
        Cell::at(6, 2),
        Cell::at(6, 3),
        Cell::at(6, 4),
    ]),
    Bitboard::from_cells(&[
        row_end(3, false),
        row_end(4, false),
        row_end(5, false),
        row_end(6, false),
    ]),
    Bitboard::from_cells(&[
        row_end(0, false),
        row_end(1, false),
        row_end(2, false),
        row_end(3, false),
    ]),
];

/// The 18 cells on the rim of the board: every cell with fewer than six neighbours.
pub const EDGE: Bitboard = Bitboard(
    SIDE_CELLS[0].0
        | SIDE_CELLS[1].0
        | SIDE_CELLS[2].0
        | SIDE_CELLS[3].0
        | SIDE_CELLS[4].0
        | SIDE_CELLS[5].0,
);

/// The six corners `a1 a4 d1 d7 g1 g4`, each on two sides.
pub const CORNERS: Bitboard = Bitboard(
    (SIDE_CELLS[0].0 | SIDE_CELLS[3].0) & (SIDE_CELLS[1].0 | SIDE_CELLS[2].0)
        | (SIDE_CELLS[0].0 | SIDE_CELLS[3].0) & (SIDE_CELLS[4].0 | SIDE_CELLS[5].0)
        | SIDE_CELLS[1].0 & SIDE_CELLS[2].0
        | SIDE_CELLS[4].0 & SIDE_CELLS[5].0,
);

/// The 12 edge cells that are not corners: where the first move may go
/// (`a2 a3 b1 c1 e1 f1 b5 c6 e6 f5 g2 g3`).
pub const OPENING_CELLS: Bitboard = Bitboard(EDGE.0 & !CORNERS.0);

/// Whether one chain of `pieces` touches two opposite sides (a corner counts for both of
/// its sides).
pub fn has_connection(pieces: Bitboard) -> bool {
    Side::OPPOSITE_PAIRS.iter().any(|&(one, other)| {
        (pieces & one.cells()).any()
            && (pieces & other.cells()).any()
            && (flood(pieces & one.cells(), pieces) & other.cells()).any()
    })
}

/// What [`connection_distance`] answers when no connection can be made (more than the
/// seven cells a connection across the empty board takes).
pub const NO_CONNECTION: u32 = 8;

/// The fewest cells of `open` that `pieces` must add to make a connection (one chain
/// touching two opposite sides): 0 when they have one, 1 when a threat completes one,
/// [`NO_CONNECTION`] when no set of `open` cells can. A search uses it to guess how near a
/// player is to winning while neither side has a threat yet.
///
/// Shortest paths by growing sets: cells reachable from a side with `k` open cells added
/// are the flood of own pieces from those reachable with `k - 1`, their open neighbours
/// and the side's open cells. The three pairs of sides grow in lockstep, one added cell a
/// round, and the first to reach its other side gives the answer, so no pair grows past
/// the nearest one's distance (grown one pair after another, a far pair ran up to seven
/// rounds before a nearer one bounded the rest: measured, this function was a third of a
/// Kamon search's time).
pub fn connection_distance(pieces: Bitboard, open: Bitboard) -> u32 {
    let pairs = Side::OPPOSITE_PAIRS;
    let mut reached = [Bitboard::EMPTY; 3];
    for (reached, (one, other)) in reached.iter_mut().zip(pairs) {
        *reached = flood(pieces & one.cells(), pieces);
        if (*reached & other.cells()).any() {
            return 0;
        }
    }
    // A pair stops growing once nothing new is reachable: it cannot connect.
    let mut growing = [true; 3];
    for added in 1..NO_CONNECTION {
        for i in 0..pairs.len() {
            if !growing[i] {
                continue;
            }
            let (one, other) = pairs[i];
            let next = grown_round(reached[i], one.cells(), pieces, open);
            if (next & other.cells()).any() {
                return added;
            }
            growing[i] = next != reached[i];
            reached[i] = next;
        }
        if !growing.contains(&true) {
            break;
        }
    }
    NO_CONNECTION
}

/// One round of [`connection_distance`]'s growth: the `reached` cells with their `open`
/// neighbours and their `side`'s open cells, flooded through `own` pieces. (The vector
/// variants do the same round in eight lanes at once: [`lanes::step`].)
#[inline]
pub(crate) fn grown_round(
    reached: Bitboard,
    side: Bitboard,
    own: Bitboard,
    open: Bitboard,
) -> Bitboard {
    let entered = (neighbours(reached) | side) & open;
    flood(reached | entered, own | reached | entered)
}

/// Both players' [`connection_distance`]s over the same open cells: `[d(pieces[0]),
/// d(pieces[1])]`, what a search's estimate asks for at every child.
///
/// Why a second function for the same answer: the distance was half a Kamon search's time
/// (`perf` of a unit, 2026-12-04), and its six growing sets (three pairs of sides for each
/// player) are independent. With AVX-512 (detected at run time) one vector register holds
/// all six as 64-bit lanes and they grow in lockstep, a round of all six costing the
/// instructions of one; with AVX2 only, two registers of four lanes; without either, the
/// two players one after the other. Tested against [`connection_distance`], which stays
/// the definition.
#[inline]
pub fn connection_distances(pieces: [Bitboard; 2], open: Bitboard) -> [u32; 2] {
    // Bits off the board are never cells: the lanes below grow without the board's mask,
    // which `connection_distance` applies to every growth, so `open` takes it once here.
    let open = Bitboard(open.0 & Bitboard::ALL.0);
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f") {
            // SAFETY: the processor has the feature this variant is compiled for.
            return unsafe { distances_avx512(pieces, open) };
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: as above.
            return unsafe { distances_avx2(pieces, open) };
        }
    }
    pieces.map(|p| connection_distance(p, open))
}

/// [`connection_distances`] in vector registers (the instruction set's module of
/// [`lanes`], `$isa`, compiled with `$feature`): lane `3p + i` grows player `p`'s pair `i`
/// of [`Side::OPPOSITE_PAIRS`] as [`connection_distance`] does; lanes 6 and 7 repeat lanes
/// 0 and 3. Written once, for each instruction set the machine may have.
macro_rules! vector_distances {
    ($name:ident, $isa:ident, $feature:literal) => {
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $feature)]
        fn $name(pieces: [Bitboard; 2], open: Bitboard) -> [u32; 2] {
            use lanes::$isa as v;
            let (from, to) = (v::load(&lanes::FROM), v::load(&lanes::TO));
            let own = v::load(&lanes::own(pieces));
            let open = v::splat(open.0);
            let mut reached = v::flood(v::and(own, from), own);
            let mut answer = [None; 2];
            let arrived = v::test_mask(reached, to);
            for (mine, answer) in lanes::OF_PLAYER.iter().zip(&mut answer) {
                if arrived & mine != 0 {
                    *answer = Some(0);
                }
            }
            for added in 1..NO_CONNECTION {
                if answer.iter().all(Option::is_some) {
                    break;
                }
                let next = v::step(reached, from, own, open);
                let arrived = v::test_mask(next, to);
                let growing = v::neq_mask(next, reached);
                for (mine, answer) in lanes::OF_PLAYER.iter().zip(&mut answer) {
                    if answer.is_none() {
                        if arrived & mine != 0 {
                            *answer = Some(added);
                        } else if growing & mine == 0 {
                            // None of its sets grows any more: it cannot connect.
                            *answer = Some(NO_CONNECTION);
                        }
                    }
                }
                reached = next;
            }
            answer.map(|a| a.unwrap_or(NO_CONNECTION))
        }
    };
}
vector_distances!(distances_avx512, avx512, "avx512f");
vector_distances!(distances_avx2, avx2, "avx2");

/// The growth of [`connection_distance`] in eight 64-bit lanes of vector registers, for
/// the vector variants ([`connection_distances`], and the children's distances of
/// [`crate::parent_distances`]): the lanes' layout, lane `3p + i` growing player `p`'s pair
/// `i` of [`Side::OPPOSITE_PAIRS`] (lanes 6 and 7 repeat lanes 0 and 3: an AVX-512 register
/// holds eight, the two players need six), and the operations on them for each instruction
/// set, in modules of the same functions ([`lanes::avx512`], [`lanes::avx2`]), so that the
/// variants' code is written once (a macro) and compiled for each.
pub(crate) mod lanes {
    /// `flood` and the round of growth (`step`) in every lane, from an instruction
    /// set's module's `and`, `or`, `neq_mask` and `with_neighbours` (compiled with
    /// `$feature`): written once for every instruction set.
    macro_rules! growth {
        ($feature:literal) => {
            /// `flood` in every lane: each set grown through its `within` until none grows.
            #[inline]
            #[target_feature(enable = $feature)]
            pub(crate) fn flood(mut x: Lanes, within: Lanes) -> Lanes {
                loop {
                    let next = and(with_neighbours(x), within);
                    if neq_mask(next, x) == 0 {
                        return next;
                    }
                    x = next;
                }
            }

            /// One round of growth in every lane: the `reached` sets with their `open`
            /// neighbours and their `side`'s open cells, flooded through the lane's `own`
            /// pieces. `open` lies on the board, so it also removes the wrapped shifts.
            #[inline]
            #[target_feature(enable = $feature)]
            pub(crate) fn step(reached: Lanes, side: Lanes, own: Lanes, open: Lanes) -> Lanes {
                let entered = and(or(with_neighbours(reached), side), open);
                let next = or(reached, entered);
                flood(next, or(own, next))
            }
        };
    }
    use growth;

    use super::Side;
    use crate::Bitboard;

    /// Each lane's first side (`FROM`) and second side (`TO`).
    pub(crate) const FROM: [u64; 8] = sides(true);
    pub(crate) const TO: [u64; 8] = sides(false);

    const fn sides(first: bool) -> [u64; 8] {
        let mut out = [0; 8];
        let mut lane = 0;
        while lane < 8 {
            let (one, other) = Side::OPPOSITE_PAIRS[pair(lane)];
            out[lane] = if first {
                one.cells().0
            } else {
                other.cells().0
            };
            lane += 1;
        }
        out
    }

    /// The pair of sides lane `lane` grows.
    const fn pair(lane: usize) -> usize {
        if lane < 6 {
            lane % 3
        } else {
            0
        }
    }

    /// The player (an index) whose pieces lane `lane` grows through.
    pub(crate) const fn player(lane: usize) -> usize {
        if lane < 3 || lane == 6 {
            0
        } else {
            1
        }
    }

    /// Each player's lanes, a bit a lane: lanes 0, 1, 2, 6 and 3, 4, 5, 7.
    pub(crate) const OF_PLAYER: [u8; 2] = [0b0100_0111, 0b1011_1000];

    /// Each lane's own pieces: its player's.
    #[inline]
    pub(crate) fn own(pieces: [Bitboard; 2]) -> [u64; 8] {
        std::array::from_fn(|lane| pieces[player(lane)].0)
    }

    /// The lanes' operations with AVX-512: the eight lanes in one register.
    #[cfg(target_arch = "x86_64")]
    pub(crate) mod avx512 {
        use std::arch::x86_64::*;

        /// The eight lanes.
        pub(crate) type Lanes = __m512i;

        #[inline]
        #[target_feature(enable = "avx512f")]
        pub(crate) fn load(words: &[u64; 8]) -> Lanes {
            // SAFETY: eight u64 are 64 bytes; the unaligned load reads nothing else.
            unsafe { _mm512_loadu_si512(words.as_ptr().cast()) }
        }

        #[inline]
        #[target_feature(enable = "avx512f")]
        pub(crate) fn store(x: Lanes, words: &mut [u64; 8]) {
            // SAFETY: as the load.
            unsafe { _mm512_storeu_si512(words.as_mut_ptr().cast(), x) }
        }

        /// `word` in every lane.
        #[inline]
        #[target_feature(enable = "avx512f")]
        pub(crate) fn splat(word: u64) -> Lanes {
            _mm512_set1_epi64(word as i64)
        }

        #[inline]
        #[target_feature(enable = "avx512f")]
        pub(crate) fn and(a: Lanes, b: Lanes) -> Lanes {
            _mm512_and_si512(a, b)
        }

        /// The lanes (a bit a lane) where `a` and `b` share a bit.
        #[inline]
        #[target_feature(enable = "avx512f")]
        pub(crate) fn test_mask(a: Lanes, b: Lanes) -> u8 {
            _mm512_test_epi64_mask(a, b)
        }

        /// The lanes (a bit a lane) where `a` and `b` differ.
        #[inline]
        #[target_feature(enable = "avx512f")]
        pub(crate) fn neq_mask(a: Lanes, b: Lanes) -> u8 {
            _mm512_cmpneq_epi64_mask(a, b)
        }

        /// `with_neighbours_unmasked` in every lane (four shifts: the 512-bit shifts all
        /// go to one execution port, and were what a round waited for).
        #[inline]
        #[target_feature(enable = "avx512f")]
        pub(crate) fn with_neighbours(x: Lanes) -> Lanes {
            let t = _mm512_or_si512(x, _mm512_slli_epi64::<1>(x));
            let a = _mm512_or_si512(t, _mm512_srli_epi64::<1>(x));
            let b = _mm512_or_si512(_mm512_slli_epi64::<7>(t), _mm512_srli_epi64::<8>(t));
            _mm512_or_si512(a, b)
        }

        #[inline]
        #[target_feature(enable = "avx512f")]
        fn or(a: Lanes, b: Lanes) -> Lanes {
            _mm512_or_si512(a, b)
        }

        super::growth!("avx512f");
    }

    /// The same operations with AVX2 only: lanes 0 to 3 in one register, 4 to 7 in a
    /// second (each operation twice; no 64-bit lane masks, so compare and move the sign
    /// bits).
    #[cfg(target_arch = "x86_64")]
    pub(crate) mod avx2 {
        use std::arch::x86_64::*;

        /// Lanes 0 to 3, and 4 to 7.
        pub(crate) type Lanes = [__m256i; 2];

        #[inline]
        #[target_feature(enable = "avx2")]
        pub(crate) fn load(words: &[u64; 8]) -> Lanes {
            // SAFETY: each load reads four of the eight u64.
            unsafe {
                [
                    _mm256_loadu_si256(words.as_ptr().cast()),
                    _mm256_loadu_si256(words.as_ptr().add(4).cast()),
                ]
            }
        }

        #[inline]
        #[target_feature(enable = "avx2")]
        pub(crate) fn store(x: Lanes, words: &mut [u64; 8]) {
            // SAFETY: as the loads.
            unsafe {
                _mm256_storeu_si256(words.as_mut_ptr().cast(), x[0]);
                _mm256_storeu_si256(words.as_mut_ptr().add(4).cast(), x[1]);
            }
        }

        /// `word` in every lane.
        #[inline]
        #[target_feature(enable = "avx2")]
        pub(crate) fn splat(word: u64) -> Lanes {
            let x = _mm256_set1_epi64x(word as i64);
            [x, x]
        }

        #[inline]
        #[target_feature(enable = "avx2")]
        pub(crate) fn and(a: Lanes, b: Lanes) -> Lanes {
            [_mm256_and_si256(a[0], b[0]), _mm256_and_si256(a[1], b[1])]
        }

        #[inline]
        #[target_feature(enable = "avx2")]
        fn or(a: Lanes, b: Lanes) -> Lanes {
            [_mm256_or_si256(a[0], b[0]), _mm256_or_si256(a[1], b[1])]
        }

        /// The lanes (a bit a lane) where `a` and `b` are equal.
        #[inline]
        #[target_feature(enable = "avx2")]
        fn eq_mask(a: Lanes, b: Lanes) -> u8 {
            eq_mask_of_four(a[0], b[0]) | eq_mask_of_four(a[1], b[1]) << 4
        }

        #[inline]
        #[target_feature(enable = "avx2")]
        fn eq_mask_of_four(a: __m256i, b: __m256i) -> u8 {
            _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(a, b))) as u8
        }

        /// The lanes (a bit a lane) where `a` and `b` share a bit.
        #[inline]
        #[target_feature(enable = "avx2")]
        pub(crate) fn test_mask(a: Lanes, b: Lanes) -> u8 {
            let zero = _mm256_setzero_si256();
            !eq_mask(and(a, b), [zero, zero])
        }

        /// The lanes (a bit a lane) where `a` and `b` differ.
        #[inline]
        #[target_feature(enable = "avx2")]
        pub(crate) fn neq_mask(a: Lanes, b: Lanes) -> u8 {
            !eq_mask(a, b)
        }

        /// `with_neighbours_unmasked` in every lane.
        #[inline]
        #[target_feature(enable = "avx2")]
        fn with_neighbours(x: Lanes) -> Lanes {
            [with_neighbours_of_four(x[0]), with_neighbours_of_four(x[1])]
        }

        #[inline]
        #[target_feature(enable = "avx2")]
        fn with_neighbours_of_four(x: __m256i) -> __m256i {
            let t = _mm256_or_si256(x, _mm256_slli_epi64::<1>(x));
            let a = _mm256_or_si256(t, _mm256_srli_epi64::<1>(x));
            let b = _mm256_or_si256(_mm256_slli_epi64::<7>(t), _mm256_srli_epi64::<8>(t));
            _mm256_or_si256(a, b)
        }

        super::growth!("avx2");
    }
}

/// Whether the chain of `pieces` through `cell` touches two opposite sides. Cheaper than
/// [`has_connection`] when only that chain can be new.
#[inline]
pub(crate) fn chain_connects(pieces: Bitboard, cell: Cell) -> bool {
    // Most placements are nowhere near two opposite sides: skip the fill.
    let touches_pair = |set: Bitboard| {
        Side::OPPOSITE_PAIRS
            .iter()
            .any(|&(one, other)| (set & one.cells()).any() && (set & other.cells()).any())
    };
    touches_pair(pieces) && touches_pair(flood(Bitboard::from_cell(cell), pieces))
}

/// The cells not in `pieces` that cannot reach an edge cell through cells not in
/// `pieces`: what a ring of `pieces` encloses.
#[inline]
pub fn enclosed(pieces: Bitboard) -> Bitboard {
    let open = !pieces;
    open - flood(open & EDGE, open)
}

/// Whether `pieces` enclose a cell that is not theirs: some cell not in `pieces` cannot
/// reach any edge cell through cells not in `pieces`.
///
/// Weighed and dropped (2026-12-07, criterion's `kamon-threats-after`, where the loop
/// candidates are about a fifth of the time): for a placement on a cell, a fill from
/// each free neighbour of it that stops at the first edge cell, 22% slower; this fill
/// stopped as soon as it has reached every free neighbour of the cell, 4 to 6% slower
/// (three alternated runs). The whole fill is a few branch-free rounds on this board.
#[inline]
pub fn has_loop(pieces: Bitboard) -> bool {
    enclosed(pieces).any()
}

/// The neighbours of each cell one by one, clockwise from the right: east (`+1`),
/// south-east (`+8`), south-west (`+7`), west (`-1`), north-west (`-8`), north-east
/// (`-7`); an empty set where the board ends.
const RING: [[Bitboard; 6]; 64] = {
    let mut table = [[Bitboard::EMPTY; 6]; 64];
    let mut i = 0;
    while i < Cell::ALL.len() {
        let bit = Cell::ALL[i].bit() as i32;
        let steps = [1, 8, 7, -1, -8, -7];
        let mut k = 0;
        while k < 6 {
            let to = bit + steps[k];
            if to >= 0 && to < 64 && Bitboard::ALL.0 & (1 << to) != 0 {
                table[bit as usize][k] = Bitboard(1 << to);
            }
            k += 1;
        }
        i += 1;
    }
    table
};

/// For each pattern of own neighbours around a cell (bit k for the k-th of [`RING`]):
/// whether they form two or more separate runs around it.
const SPLIT_RING: [bool; 64] = {
    let mut table = [false; 64];
    let mut pattern = 0;
    while pattern < 64 {
        let mut runs = 0;
        let mut k = 0;
        while k < 6 {
            let here = pattern >> k & 1;
            let before = pattern >> ((k + 5) % 6) & 1;
            if here == 1 && before == 0 {
                runs += 1;
            }
            k += 1;
        }
        table[pattern] = runs >= 2;
        pattern += 1;
    }
    table
};

/// The cells around which the cells of `pieces` form two or more separate runs: where a
/// placement can close a loop (see [`may_close_loop`]). All cells at once: the pieces
/// seen one step in each of the six directions, clockwise, and a run starts wherever a
/// direction holds a piece and the one before it does not.
#[inline]
pub(crate) fn split_rings(pieces: Bitboard) -> Bitboard {
    let x = pieces.0;
    // Bit c of `seen[k]`: the neighbour of c in direction k (east, south-east, south-west,
    // west, north-west, north-east) is a piece. Off the board there are no pieces, and
    // every shift that leaves a row lands in column 7 or past the board, never on a cell.
    let seen = [x >> 1, x >> 8, x >> 7, x << 1, x << 8, x << 7];
    let (mut once, mut twice) = (0u64, 0u64);
    for k in 0..6 {
        let starts = seen[k] & !seen[(k + 5) % 6];
        twice |= once & starts;
        once |= starts;
    }
    Bitboard(twice & Bitboard::ALL.0)
}

/// Whether placing on `cell` (already in `pieces`) can have closed a loop, given that
/// `pieces` without `cell` enclosed nothing. Only if the own pieces around `cell` form two
/// or more separate runs: with one run (or none), the other neighbours lie in one
/// unbroken arc around it (where the board ends, the arc runs along the rim, whose cells
/// are edge cells), so every cell that reached the edge through `cell` still reaches it
/// around `cell`.
#[inline]
pub(crate) fn may_close_loop(pieces: Bitboard, cell: Cell) -> bool {
    let ring = &RING[cell.bit() as usize];
    let mut pattern = 0;
    for (k, neighbour) in ring.iter().enumerate() {
        pattern |= ((pieces.0 & neighbour.0 != 0) as usize) << k;
    }
    SPLIT_RING[pattern]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(names: &str) -> Bitboard {
        names
            .split_whitespace()
            .map(|n| n.parse::<Cell>().unwrap())
            .collect()
    }

    #[test]
    fn centre_distance_rings_the_centre() {
        let at = |d| {
            Cell::ALL
                .iter()
                .filter(|&&c| centre_distance(c) == d)
                .count()
        };
        assert_eq!((at(0), at(1), at(2), at(3)), (1, 6, 12, 18));
        assert_eq!(centre_distance("d4".parse().unwrap()), 0);
        for c in cells("c3 c4 d3 d5 e3 e4") {
            assert_eq!(centre_distance(c), 1, "{c}");
        }
        for c in cells("b2 b4 c2 d2 f4 e5") {
            assert_eq!(centre_distance(c), 2, "{c}");
        }
        for c in EDGE {
            assert_eq!(centre_distance(c), 3, "{c}");
        }
    }

    /// [`connection_distance`] by trying every set of open cells of each size in turn.
    fn distance_by_trying(pieces: Bitboard, open: Bitboard) -> u32 {
        let open: Vec<Cell> = open.into_iter().collect();
        fn some_subset(pieces: Bitboard, open: &[Cell], k: u32) -> bool {
            if k == 0 {
                return has_connection(pieces);
            }
            (0..open.len()).any(|i| some_subset(pieces.with(open[i]), &open[i + 1..], k - 1))
        }
        (0..NO_CONNECTION)
            .find(|&k| some_subset(pieces, &open, k))
            .unwrap_or(NO_CONNECTION)
    }

    #[test]
    fn both_distances_at_once_are_each_distance() {
        // Random boards of every density (two players' pieces, open cells, blocked ones),
        // through the dispatcher and the AVX-512 variant where the processor has it; each
        // distance from 0 to 7 and "none" turns up for both players.
        let mut rng = fastrand::Rng::with_seed(29);
        let mut seen = [[0u32; NO_CONNECTION as usize + 1]; 2];
        for round in 0..40_000 {
            let (mut pieces, mut open) = ([Bitboard::EMPTY; 2], Bitboard::EMPTY);
            let density = 1 + round % 9;
            for cell in Cell::ALL {
                match rng.u32(..20) {
                    n if n < density => pieces[0] = pieces[0].with(cell),
                    n if n < 2 * density => pieces[1] = pieces[1].with(cell),
                    n if n < 19 => open = open.with(cell),
                    _ => {}
                }
            }
            let each = pieces.map(|p| connection_distance(p, open));
            // Bits off the board (column 7, past the last row) change nothing.
            let off_board = Bitboard(rng.u64(..) & !Bitboard::ALL.0);
            assert_eq!(connection_distances(pieces, open | off_board), each);
            assert_eq!(
                connection_distances(pieces, open),
                each,
                "{pieces:?} {open:?}"
            );
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx512f") {
                assert_eq!(unsafe { distances_avx512(pieces, open) }, each);
            }
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                assert_eq!(unsafe { distances_avx2(pieces, open) }, each);
            }
            for (player, d) in each.into_iter().enumerate() {
                seen[player][d as usize] += 1;
            }
        }
        assert!(seen.iter().all(|s| s.iter().all(|&n| n > 0)), "{seen:?}");
    }

    #[test]
    fn connection_distance_is_the_fewest_cells_to_add() {
        // Random boards: own pieces, blocked cells and few enough open cells that every
        // subset can be tried; each distance from 0 to 3 and "none" turns up.
        let mut rng = fastrand::Rng::with_seed(5);
        let mut seen = [0u32; NO_CONNECTION as usize + 1];
        for _ in 0..1500 {
            let (mut pieces, mut open) = (Bitboard::EMPTY, Bitboard::EMPTY);
            for cell in Cell::ALL {
                match rng.u32(..10) {
                    0..=2 => pieces = pieces.with(cell),
                    3..=5 => open = open.with(cell),
                    _ => {}
                }
            }
            let open = open.into_iter().take(12).collect::<Bitboard>();
            let d = connection_distance(pieces, open);
            assert_eq!(d, distance_by_trying(pieces, open), "{pieces:?} {open:?}");
            seen[d as usize] += 1;
        }
        assert!(
            seen[..4].iter().all(|&n| n > 0) && seen[NO_CONNECTION as usize] > 0,
            "{seen:?}"
        );
        // Across the empty board: seven cells, top to bottom.
        assert_eq!(connection_distance(Bitboard::EMPTY, Bitboard::ALL), 7);
    }

    #[test]
    fn neighbours_of_the_rules_page() {
        assert_eq!(
            neighbours_of(cells("d4").first().unwrap()),
            cells("c3 c4 d3 d5 e3 e4")
        );
        assert_eq!(
            neighbours_of(cells("a1").first().unwrap()),
            cells("a2 b1 b2")
        );
        assert_eq!(
            neighbours_of(cells("g4").first().unwrap()),
            cells("g3 f4 f5")
        );
        assert_eq!(
            neighbours_of(cells("d1").first().unwrap()),
            cells("c1 d2 e1")
        );
        assert_eq!(
            neighbours_of(cells("d7").first().unwrap()),
            cells("c6 d6 e6")
        );
        assert_eq!(
            neighbours_of(cells("e1").first().unwrap()),
            cells("d1 d2 e2 f1")
        );
        assert_eq!(
            neighbours_of(cells("c6").first().unwrap()),
            cells("b5 c5 d6 d7")
        );
    }

    #[test]
    fn the_ring_lists_the_neighbours_in_turn() {
        for cell in Cell::ALL {
            let ring = RING[cell.bit() as usize];
            let all: Bitboard = ring.iter().fold(Bitboard::EMPTY, |a, &b| a | b);
            assert_eq!(all, neighbours_of(cell), "{cell}");
            // Cells next to each other in the ring touch each other.
            for k in 0..6 {
                let (a, b) = (ring[k], ring[(k + 1) % 6]);
                if a.any() && b.any() {
                    assert!((neighbours(a) & b).any(), "{cell} {k}");
                }
            }
        }
        assert!(SPLIT_RING[0b001001] && SPLIT_RING[0b010101]);
        assert!(!SPLIT_RING[0b000011] && !SPLIT_RING[0b100001] && !SPLIT_RING[0b111111]);
        assert!(!SPLIT_RING[0]);
        // The all-cells-at-once form agrees with the one-cell form.
        let mut rng = fastrand::Rng::with_seed(5);
        for _ in 0..2000 {
            let pieces: Bitboard = Cell::ALL.into_iter().filter(|_| rng.bool()).collect();
            for cell in Cell::ALL {
                assert_eq!(
                    split_rings(pieces).contains(cell),
                    may_close_loop(pieces.with(cell), cell),
                    "{pieces:?} {cell}"
                );
            }
        }
    }

    #[test]
    fn every_new_loop_passes_the_ring_test() {
        // Random sets of pieces of every density that enclose nothing, and every cell
        // added to them: a loop closed by the cell passes the test.
        let mut rng = fastrand::Rng::with_seed(11);
        let (mut loops, mut skipped) = (0, 0);
        for _ in 0..20_000 {
            let density = rng.u32(10..70);
            let pieces: Bitboard = Cell::ALL
                .into_iter()
                .filter(|_| rng.u32(0..100) < density)
                .collect();
            if has_loop(pieces) {
                continue;
            }
            for cell in !pieces {
                let with = pieces.with(cell);
                if has_loop(with) {
                    loops += 1;
                    assert!(may_close_loop(with, cell), "{pieces:?} + {cell}");
                } else if !may_close_loop(with, cell) {
                    skipped += 1;
                }
            }
        }
        assert!(loops > 1000 && skipped > 10_000, "{loops} {skipped}");
    }

    #[test]
    fn sides_edges_corners_and_opening_cells() {
        assert_eq!(Side::Top.cells(), cells("a1 a2 a3 a4"));
        assert_eq!(Side::Bottom.cells(), cells("g1 g2 g3 g4"));
        assert_eq!(Side::UpperLeft.cells(), cells("a1 b1 c1 d1"));
        assert_eq!(Side::LowerLeft.cells(), cells("d1 e1 f1 g1"));
        assert_eq!(Side::UpperRight.cells(), cells("a4 b5 c6 d7"));
        assert_eq!(Side::LowerRight.cells(), cells("d7 e6 f5 g4"));
        assert_eq!(CORNERS, cells("a1 a4 d1 d7 g1 g4"));
        assert_eq!(OPENING_CELLS, cells("a2 a3 b1 c1 e1 f1 b5 c6 e6 f5 g2 g3"));
        assert_eq!(EDGE.count(), 18);
        for cell in Cell::ALL {
            assert_eq!(
                EDGE.contains(cell),
                neighbours_of(cell).count() < 6,
                "{cell}"
            );
        }
        for side in Side::ALL {
            assert_eq!(side.opposite().opposite(), side);
            assert!((side.cells() & side.opposite().cells()).is_empty());
        }
    }
}
