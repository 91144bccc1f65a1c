//! Ranks: what a tower's dragon teeth allow and are worth.
//!
//! A rank is a plain `u8` (0..=4) rather than a type of its own: it is stored in two bits of
//! a packed position (4, a Quadruple Sumo, exists only as the promoted tower of a finished
//! Marathon, and is a stored 3 plus the gain), compared with `<` for pushes, and summed
//! into scores.

/// The farthest an ordinary move of a tower of this rank goes: 7 (no limit) for a plain
/// tower, 5 for a Sumo, 3 for a Double Sumo, 1 for a Triple Sumo.
#[inline]
pub const fn max_distance(rank: u8) -> u8 {
    match rank {
        0 => 7,
        1 => 5,
        2 => 3,
        _ => 1,
    }
}

/// How many towers in a row a tower of this rank may push: its rank, up to 3.
#[inline]
pub const fn push_capacity(rank: u8) -> u8 {
    if rank > 3 {
        3
    } else {
        rank
    }
}

/// What a tower of this rank is worth: `2^rank - 1` points (0, 1, 3, 7, 15).
#[inline]
pub const fn points(rank: u8) -> u32 {
    (1 << rank) - 1
}

/// "plain tower", "Sumo", "Double Sumo", "Triple Sumo", "Quadruple Sumo".
pub const fn name(rank: u8) -> &'static str {
    match rank {
        0 => "plain tower",
        1 => "Sumo",
        2 => "Double Sumo",
        3 => "Triple Sumo",
        4 => "Quadruple Sumo",
        _ => "tower of an impossible rank",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_of_the_rules_page() {
        assert_eq!((0..=3).map(max_distance).collect::<Vec<_>>(), [7, 5, 3, 1]);
        assert_eq!((0..=3).map(push_capacity).collect::<Vec<_>>(), [0, 1, 2, 3]);
        assert_eq!((0..=4).map(points).collect::<Vec<_>>(), [0, 1, 3, 7, 15]);
    }
}
