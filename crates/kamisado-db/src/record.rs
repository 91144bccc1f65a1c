//! One solved position in 16 bytes.
//!
//! A record is a `u128`, stored little-endian:
//!
//! | bits     | meaning                                                                 |
//! |----------|-------------------------------------------------------------------------|
//! | 127..27  | the 101-bit canonical key ([`Position::canonical_key`])                 |
//! | 26       | value for the side to move of the canonical image: 1 = win (see bit 5)  |
//! | 25..19   | remoteness, 0..=126; 127 = not known exactly                            |
//! | 18       | 1 if a best move is stored                                              |
//! | 17..6    | the best move ([`Move::pack`]) in the canonical image's coordinates     |
//! | 5        | 1 = draw (then bit 26 is 0); bits 26 and 5 both 0 = loss                |
//! | 4..0     | reserved, always 0                                                      |
//!
//! Single-round Kamisado has no draws, so its files never set bit 5; the bit is there so
//! that the format holds every [`Value`].
//!
//! The key sits in the top bits, so sorting records as integers sorts them by key and a
//! lookup is a binary search on the integers themselves.

use kamisado_core::{Move, Position};
use kamisado_solver::Value;

const KEY_SHIFT: u32 = 27;
const KEY_BITS: u32 = 101;
const WIN_BIT: u32 = 26;
const DRAW_BIT: u32 = 5;
const REMOTENESS_SHIFT: u32 = 19;
const REMOTENESS_MASK: u128 = 0x7f;
/// The remoteness field's "not known exactly".
const UNKNOWN_REMOTENESS: u128 = 127;
const HAS_BEST_BIT: u32 = 18;
const BEST_SHIFT: u32 = 6;
const BEST_MASK: u128 = 0xfff;
const RESERVED_MASK: u128 = 0x1f;

/// The largest remoteness a record can hold (a Kamisado game lasts at most 97 moves).
pub const MAX_STORED_REMOTENESS: u32 = 126;

/// Bytes per record on disk.
pub const RECORD_BYTES: usize = 16;

/// One solved position, as stored. All fields are for the canonical image of the
/// position (see [`Position::canonical_key`]); [`crate::Database::lookup`] maps them back
/// to the position asked about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Record(u128);

impl Record {
    /// A record for the canonical image whose key is `key`.
    ///
    /// Keys have 101 bits (higher bits are dropped); a remoteness above
    /// [`MAX_STORED_REMOTENESS`] is stored as unknown; `best` is in the image's coordinates.
    pub fn new(key: u128, value: Value, remoteness: Option<u32>, best: Option<Move>) -> Record {
        let key = key & ((1u128 << KEY_BITS) - 1);
        let remoteness = match remoteness {
            Some(r) if r <= MAX_STORED_REMOTENESS => r as u128,
            _ => UNKNOWN_REMOTENESS,
        };
        let best = best.map_or(0, |m| 1 << HAS_BEST_BIT | (m.pack() as u128) << BEST_SHIFT);
        Record(
            key << KEY_SHIFT
                | ((value == Value::Win) as u128) << WIN_BIT
                | ((value == Value::Draw) as u128) << DRAW_BIT
                | remoteness << REMOTENESS_SHIFT
                | best,
        )
    }

    /// A record for a position (any of its symmetric images), with `best` in the
    /// position's own coordinates.
    pub fn for_position(
        pos: &Position,
        value: Value,
        remoteness: Option<u32>,
        best: Option<Move>,
    ) -> Record {
        let (key, sym) = pos.canonical_key();
        // Every symmetry is its own inverse: the one that maps the position to its image
        // also maps its moves to the image's moves.
        Record::new(key, value, remoteness, best.map(|m| sym.apply_move(m)))
    }

    /// The record as stored.
    #[inline]
    pub const fn from_bits(bits: u128) -> Record {
        Record(bits)
    }

    #[inline]
    pub const fn bits(self) -> u128 {
        self.0
    }

    /// The canonical key of the position.
    #[inline]
    pub const fn key(self) -> u128 {
        self.0 >> KEY_SHIFT
    }

    /// The value for the side to move.
    #[inline]
    pub fn value(self) -> Value {
        match (self.0 >> WIN_BIT & 1, self.0 >> DRAW_BIT & 1) {
            (1, _) => Value::Win,
            (0, 1) => Value::Draw,
            _ => Value::Loss,
        }
    }

    /// The exact remoteness, if stored.
    #[inline]
    pub fn remoteness(self) -> Option<u32> {
        match self.0 >> REMOTENESS_SHIFT & REMOTENESS_MASK {
            UNKNOWN_REMOTENESS => None,
            r => Some(r as u32),
        }
    }

    /// A best move (fastest win, slowest loss) in the canonical image's coordinates.
    #[inline]
    pub fn best_move(self) -> Option<Move> {
        (self.0 >> HAS_BEST_BIT & 1 == 1)
            .then(|| Move::unpack((self.0 >> BEST_SHIFT & BEST_MASK) as u16))
    }

    /// Whether the bits that must be zero are (a well-formed record): the reserved bits,
    /// and the draw bit of a win.
    #[inline]
    pub const fn reserved_bits_clear(self) -> bool {
        self.0 & RESERVED_MASK == 0 && !(self.0 >> WIN_BIT & 1 == 1 && self.0 >> DRAW_BIT & 1 == 1)
    }

    /// The first and last record bits that a record with `key` can have: the range a
    /// binary search looks in.
    #[inline]
    pub(crate) const fn bounds_of_key(key: u128) -> (u128, u128) {
        let low = key << KEY_SHIFT;
        (low, low | ((1u128 << KEY_SHIFT) - 1))
    }

    /// Merges what two records know about the same position: `self`'s value, the exact
    /// remoteness either knows, and a best move that goes with it.
    pub(crate) fn merge(self, other: Record) -> Record {
        debug_assert_eq!(self.key(), other.key());
        let remoteness = self.remoteness().or(other.remoteness());
        // A best move is only as good as the remoteness it was chosen for.
        let best = [self, other]
            .into_iter()
            .filter(|r| remoteness.is_some() && r.remoteness() == remoteness)
            .find_map(Record::best_move);
        Record::new(self.key(), self.value(), remoteness, best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kamisado_core::Square;

    #[test]
    fn fields_survive_packing() {
        let key = (1u128 << 100) | 0x1234_5678_9abc;
        let m = Move::new(Square::new(3), Square::new(59));
        let r = Record::new(key, Value::Win, Some(126), Some(m));
        assert_eq!(r.key(), key);
        assert_eq!(r.value(), Value::Win);
        assert_eq!(r.remoteness(), Some(126));
        assert_eq!(r.best_move(), Some(m));
        assert!(r.reserved_bits_clear());

        let r = Record::new(key, Value::Loss, Some(127), None);
        assert_eq!(r.value(), Value::Loss);
        let d = Record::new(key, Value::Draw, Some(40), Some(m));
        assert_eq!(
            (d.value(), d.remoteness(), d.best_move()),
            (Value::Draw, Some(40), Some(m))
        );
        assert!(d.reserved_bits_clear());
        assert!(!Record::from_bits(d.bits() | 1 << WIN_BIT).reserved_bits_clear());
        assert_eq!(r.remoteness(), None);
        assert_eq!(r.best_move(), None);
        assert_eq!(Record::from_bits(r.bits()), r);
    }

    #[test]
    fn integer_order_is_key_order() {
        let a = Record::new(5, Value::Win, Some(3), None);
        let b = Record::new(6, Value::Loss, None, None);
        assert!(a < b);
        let (low, high) = Record::bounds_of_key(5);
        assert!(low <= a.bits() && a.bits() <= high && high < b.bits());
    }

    #[test]
    fn merge_keeps_what_either_knows() {
        let m = Move::new(Square::new(1), Square::new(9));
        let value_only = Record::new(9, Value::Win, None, None);
        let exact = Record::new(9, Value::Win, Some(7), Some(m));
        assert_eq!(value_only.merge(exact), exact);
        assert_eq!(exact.merge(value_only), exact);
        let exact_no_move = Record::new(9, Value::Win, Some(7), None);
        assert_eq!(exact_no_move.merge(exact), exact);
    }
}
