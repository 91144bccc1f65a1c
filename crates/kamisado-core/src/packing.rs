//! Eight tower squares packed into 48 bits: the building block of every exact key, the
//! single round's and match play's alike.

use crate::Square;

/// Eight squares, one byte each (each below 64), as one word: byte `i` is colour `i`'s square.
#[inline]
pub fn square_bytes(squares: &[Square; 8]) -> u64 {
    u64::from_le_bytes(squares.map(|sq| sq.index() as u8))
}

/// Squeezes eight 6-bit bytes into 48 bits.
#[inline]
pub fn squeeze(x: u64) -> u64 {
    let x = (x & 0x00ff_00ff_00ff_00ff) | (x & 0xff00_ff00_ff00_ff00) >> 2;
    let x = (x & 0x0000_ffff_0000_ffff) | (x & 0xffff_0000_ffff_0000) >> 4;
    (x & 0xffff_ffff) | (x >> 32) << 24
}

/// The inverse of [`squeeze`].
#[inline]
pub fn unsqueeze(x: u64) -> u64 {
    (0..8).fold(0, |acc, i| acc | ((x >> (6 * i)) & 63) << (8 * i))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squeeze_keeps_every_bit() {
        let x = u64::from_le_bytes([1, 2, 4, 8, 16, 32, 63, 0]);
        let y = squeeze(x);
        for i in 0..8 {
            assert_eq!((y >> (6 * i)) & 63, (x >> (8 * i)) & 0xff);
        }
        assert!(y < 1 << 48);
    }
}
