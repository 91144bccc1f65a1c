//! The two kinds of 16-byte words a certificate holds: claims (what is proved) and
//! entries (the proof's nodes).

use std::fmt;

use kamisado_core::{Move, Position, Side};

/// What an entry states about the side to move of its position, within `bound` moves
/// (moves of positive length by either player, from this position to the end of the game).
///
/// Two kinds name a move (the one that keeps the statement); the other two hold for every
/// move, which the checker lists itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// The side to move wins within `bound` moves: by the entry's move.
    Wins = 0,
    /// The side to move loses within `bound` moves, whatever it plays.
    Loses = 1,
    /// The side to move cannot force a win within `bound` moves: no move does.
    CannotWin = 2,
    /// The side to move avoids losing within `bound` moves: by the entry's move.
    Survives = 3,
}

impl Kind {
    pub const ALL: [Kind; 4] = [Kind::Wins, Kind::Loses, Kind::CannotWin, Kind::Survives];

    fn from_bits(bits: u8) -> Kind {
        Kind::ALL[(bits & 3) as usize]
    }

    /// Whether the entry names one move (else every move is checked).
    pub const fn names_a_move(self) -> bool {
        matches!(self, Kind::Wins | Kind::Survives)
    }

    /// Whether a larger bound is the weaker statement ("within b moves"), as for `Wins`
    /// and `Loses`; for `CannotWin` and `Survives` a smaller bound is the weaker one.
    pub const fn is_upper_bound(self) -> bool {
        matches!(self, Kind::Wins | Kind::Loses)
    }

    /// What the position after a move must satisfy for this statement to hold through the
    /// move: the same statement if the mover is to move again (zero-length moves gave the
    /// turn back), the opposite one for the opponent otherwise.
    pub const fn through_move(self, passed: bool) -> Kind {
        match (self, passed) {
            (k, false) => k,
            (Kind::Wins, true) => Kind::Loses,
            (Kind::Loses, true) => Kind::Wins,
            (Kind::CannotWin, true) => Kind::Survives,
            (Kind::Survives, true) => Kind::CannotWin,
        }
    }

    /// The statement, for the side to move `side`, in words.
    pub fn describe(self, side: Side, bound: i64) -> String {
        self.describe_for(&format!("{side} (to move)"), bound)
    }

    /// The statement about `who` ("the side to move"), in words.
    pub fn describe_for(self, who: &str, bound: i64) -> String {
        let moves = if bound == 1 { "move" } else { "moves" };
        match self {
            Kind::Wins => format!("{who} wins within {bound} {moves}"),
            Kind::Loses => format!("{who} loses within {bound} {moves} whatever it plays"),
            Kind::CannotWin => format!("{who} cannot force a win within {bound} {moves}"),
            Kind::Survives => format!("{who} avoids losing for {bound} {moves}"),
        }
    }
}

/// The largest bound and remoteness a word holds (a Kamisado game lasts at most 97 moves).
pub const MAX_BOUND: u32 = 127;

const KEY_SHIFT: u32 = 27;
const KEY_MASK: u128 = (1 << 101) - 1;
const KIND_SHIFT: u32 = 25;
const BOUND_SHIFT: u32 = 18;
const MOVE_SHIFT: u32 = 6;
const LOW_BITS: u128 = (1 << MOVE_SHIFT) - 1;

/// One node of a proof: a position (by its canonical key, so that its up to four
/// symmetric images share it), a statement about its side to move, and for the kinds
/// that name one, a move in the coordinates of the position the key describes.
///
/// Stored as a little-endian `u128`: bits 127..27 the canonical key, 26..25 the kind,
/// 24..18 the bound, 17..6 the move (from-square in the low six bits, to-square in the
/// high six; zero when the kind names no move), 5..0 zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Entry(u128);

impl Entry {
    /// # Panics
    ///
    /// If `bound` exceeds [`MAX_BOUND`], or `key` has more than 101 bits.
    pub fn new(key: u128, kind: Kind, bound: u32, mv: Option<Move>) -> Entry {
        assert!(bound <= MAX_BOUND, "bound {bound} out of range");
        assert!(key <= KEY_MASK, "keys have 101 bits");
        let mv = mv.map_or(0, |m| m.pack() as u128);
        Entry(
            key << KEY_SHIFT
                | (kind as u128) << KIND_SHIFT
                | (bound as u128) << BOUND_SHIFT
                | mv << MOVE_SHIFT,
        )
    }

    pub const fn from_bits(bits: u128) -> Entry {
        Entry(bits)
    }

    pub const fn bits(self) -> u128 {
        self.0
    }

    /// The canonical key of the position.
    pub const fn key(self) -> u128 {
        self.0 >> KEY_SHIFT
    }

    pub fn kind(self) -> Kind {
        Kind::from_bits((self.0 >> KIND_SHIFT) as u8)
    }

    pub const fn bound(self) -> u32 {
        (self.0 >> BOUND_SHIFT & 0x7f) as u32
    }

    /// The move field: `None` when zero.
    pub fn chosen_move(self) -> Option<Move> {
        let bits = (self.0 >> MOVE_SHIFT & 0xfff) as u16;
        (bits != 0).then(|| Move::unpack(bits))
    }

    /// The bits that must be zero are.
    pub const fn low_bits_clear(self) -> bool {
        self.0 & LOW_BITS == 0
    }

    /// The entry with another move, for tests that damage a proof.
    pub fn with_move(self, mv: Option<Move>) -> Entry {
        let cleared = self.0 & !(0xfff << MOVE_SHIFT);
        Entry(cleared | (mv.map_or(0, |m| m.pack() as u128)) << MOVE_SHIFT)
    }

    /// The smallest and largest words with this key: the range a lookup searches.
    pub(crate) const fn range_of_key(key: u128) -> (u128, u128) {
        let low = key << KEY_SHIFT;
        (low, low | ((1 << KEY_SHIFT) - 1))
    }
}

/// What a certificate proves: the side to move in `position` wins (or loses) in exactly
/// `remoteness` moves with perfect play.
///
/// Stored as a little-endian `u128`: bits 127..27 the position's exact key (not the
/// canonical one, so that the claim names the position as it was asked about), bit 26
/// 1 if the side to move wins, bits 25..19 the remoteness, 18..0 zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Claim {
    /// A position in play or finished, never one with pending zero-length moves.
    pub position: Position,
    pub winner: Side,
    pub remoteness: u32,
}

const WINS_BIT: u32 = 26;
const REMOTENESS_SHIFT: u32 = 19;
const CLAIM_LOW_BITS: u128 = (1 << REMOTENESS_SHIFT) - 1;

impl Claim {
    /// Whether the side to move is the winner.
    pub fn mover_wins(&self) -> bool {
        self.winner == self.position.turn()
    }

    /// # Panics
    ///
    /// If the remoteness exceeds [`MAX_BOUND`].
    pub fn to_bits(&self) -> u128 {
        assert!(self.remoteness <= MAX_BOUND);
        self.position.key() << KEY_SHIFT
            | (self.mover_wins() as u128) << WINS_BIT
            | (self.remoteness as u128) << REMOTENESS_SHIFT
    }

    /// The claim a word states, or what is wrong with it.
    pub fn from_bits(bits: u128) -> Result<Claim, String> {
        if bits & CLAIM_LOW_BITS != 0 {
            return Err("reserved bits are set".into());
        }
        let position = Position::from_key(bits >> KEY_SHIFT)
            .map_err(|e| format!("its key is not a legal position: {e}"))?;
        let mover_wins = bits >> WINS_BIT & 1 == 1;
        Ok(Claim {
            position,
            winner: if mover_wins {
                position.turn()
            } else {
                !position.turn()
            },
            remoteness: (bits >> REMOTENESS_SHIFT & 0x7f) as u32,
        })
    }
}

impl fmt::Display for Claim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let moves = if self.remoteness == 1 {
            "move"
        } else {
            "moves"
        };
        write!(
            f,
            "{}: {} to move, {} wins in {} {moves}",
            self.position,
            self.position.turn(),
            self.winner,
            self.remoteness
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kamisado_core::Square;

    #[test]
    fn fields_survive_packing_and_order_by_key_then_kind() {
        let m = Move::new(Square::new(3), Square::new(59));
        let key = (1u128 << 100) | 0xabcdef;
        for kind in Kind::ALL {
            let e = Entry::new(key, kind, 97, Some(m));
            assert_eq!(
                (e.key(), e.kind(), e.bound(), e.chosen_move()),
                (key, kind, 97, Some(m))
            );
            assert!(e.low_bits_clear());
            let (low, high) = Entry::range_of_key(key);
            assert!(low <= e.bits() && e.bits() <= high);
        }
        let a = Entry::new(5, Kind::Survives, 1, None);
        let b = Entry::new(6, Kind::Wins, 1, None);
        assert!(a < b);
        assert!(Entry::new(5, Kind::Wins, 9, None) < a);
        assert_eq!(a.with_move(Some(m)).chosen_move(), Some(m));
    }

    #[test]
    fn a_statement_through_a_move_swaps_only_when_the_turn_passes() {
        for kind in Kind::ALL {
            assert_eq!(kind.through_move(false), kind);
            assert_eq!(kind.through_move(true).through_move(true), kind);
            assert_ne!(kind.through_move(true), kind);
            assert_eq!(kind.through_move(true).names_a_move(), !kind.names_a_move());
        }
    }

    #[test]
    fn claims_round_trip() {
        let claim = Claim {
            position: Position::start(),
            winner: Side::Black,
            remoteness: 17,
        };
        assert_eq!(Claim::from_bits(claim.to_bits()), Ok(claim));
        assert!(Claim::from_bits(claim.to_bits() | 1).is_err());
    }
}
