//! The words of a certificate: an entry (a statement about one position, and for some
//! statements the placement that shows it) and a claim (a position and its value, or
//! one bound of it).

use std::fmt;

use kamon_core::{Cell, Layout, Outcome, Player, Position};

/// Bits of a word below the position's key: 6 for a cell, 2 for the kind, 2 reserved.
const KEY_SHIFT: u32 = 10;
const KIND_SHIFT: u32 = 6;
const CELL_MASK: u128 = 0x3f;
/// The cell field of an entry that names no placement.
const NO_CELL: u128 = 0x3f;

/// What an entry states about the side to move of its position. Kamon has draws, so a
/// value is two questions ("does the side to move win?", "does it at least draw?"), and
/// each answer, yes or no, is a statement of its own with its own local rule:
///
/// | kind | rule | shown by |
/// |---|---|---|
/// | [`Kind::Wins`] | some placement wins at once, or leads to a position whose side to move [`Kind::Loses`] | one placement |
/// | [`Kind::Loses`] | every placement leads to a position whose side to move [`Kind::Wins`] | every placement |
/// | [`Kind::DrawsOrWins`] | some placement wins or draws at once, or leads to one whose side to move [`Kind::CannotWin`] | one placement |
/// | [`Kind::CannotWin`] | every placement draws at once or leads to one whose side to move [`Kind::DrawsOrWins`] | every placement |
///
/// (A placement never loses at once: a game ends after a placement only in a win for the
/// player who placed or a draw.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Wins,
    Loses,
    DrawsOrWins,
    CannotWin,
}

impl Kind {
    pub(crate) const ALL: [Kind; 4] = [Kind::Wins, Kind::Loses, Kind::DrawsOrWins, Kind::CannotWin];

    /// Whether the entry names the one placement that shows it (else it is about all).
    pub const fn names_a_move(self) -> bool {
        matches!(self, Kind::Wins | Kind::DrawsOrWins)
    }

    /// What the side to move of a position after a placement must show for this one.
    pub const fn after_placement(self) -> Kind {
        match self {
            Kind::Wins => Kind::Loses,
            Kind::Loses => Kind::Wins,
            Kind::DrawsOrWins => Kind::CannotWin,
            Kind::CannotWin => Kind::DrawsOrWins,
        }
    }

    /// Whether a statement of kind `self` implies one of kind `wanted` about the same
    /// position: itself, and a side that loses cannot win, a side that wins draws or wins.
    pub const fn implies(self, wanted: Kind) -> bool {
        matches!(
            (self, wanted),
            (Kind::Wins, Kind::Wins)
                | (Kind::Loses, Kind::Loses)
                | (Kind::DrawsOrWins, Kind::DrawsOrWins)
                | (Kind::CannotWin, Kind::CannotWin)
                | (Kind::Loses, Kind::CannotWin)
                | (Kind::Wins, Kind::DrawsOrWins)
        )
    }

    /// The statement in words, for `player` to move.
    pub fn describe(self, player: Player) -> String {
        match self {
            Kind::Wins => format!("{player} to move wins"),
            Kind::Loses => format!("{player} to move loses"),
            Kind::DrawsOrWins => format!("{player} to move draws or wins"),
            Kind::CannotWin => format!("{player} to move cannot win"),
        }
    }

    fn bits(self) -> u128 {
        self as u128
    }

    fn from_bits(bits: u128) -> Kind {
        Kind::ALL[(bits & 3) as usize]
    }
}

/// One statement of a proof: a 128-bit word, the position's [`Position::key`] in bits
/// 10..128, two zero bits, the [`Kind`] in bits 6..8 (0 wins, 1 loses, 2 draws or wins, 3
/// cannot win) and the bit number of the placement's cell in bits 0..6 (63 when the
/// kind names none). Words sort by key first, so a position's entries are adjacent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Entry(u128);

impl Entry {
    /// The entry about the position with `key`.
    ///
    /// # Panics
    ///
    /// If the key does not fit in 118 bits.
    pub fn new(key: u128, kind: Kind, placement: Option<Cell>) -> Entry {
        assert!(key >> (128 - KEY_SHIFT) == 0, "a position key has 118 bits");
        let cell = placement.map_or(NO_CELL, |c| c.bit() as u128);
        Entry(key << KEY_SHIFT | kind.bits() << KIND_SHIFT | cell)
    }

    pub fn from_bits(bits: u128) -> Entry {
        Entry(bits)
    }

    pub fn bits(self) -> u128 {
        self.0
    }

    pub fn key(self) -> u128 {
        self.0 >> KEY_SHIFT
    }

    pub fn kind(self) -> Kind {
        Kind::from_bits(self.0 >> KIND_SHIFT)
    }

    /// The placement the entry names, `Err` with the field's value if it is no cell.
    pub fn placement(self) -> Result<Option<Cell>, u32> {
        match self.0 & CELL_MASK {
            NO_CELL => Ok(None),
            bit => Cell::from_bit(bit as u32).map(Some).ok_or(bit as u32),
        }
    }

    /// Whether the two reserved bits are clear.
    pub fn reserved_bits_clear(self) -> bool {
        self.0 >> 8 & 3 == 0
    }

    /// The lowest and highest word of any entry about the position with `key`.
    pub fn range_of_key(key: u128) -> (u128, u128) {
        let low = key << KEY_SHIFT;
        (low, low | ((1 << KEY_SHIFT) - 1))
    }
}

/// What a certificate claims about a position's side to move: that it scores at least
/// `low` and at most `high`. Equal ends claim a value (a win, a draw, a loss); a draw and
/// a win claim "at least a draw", a loss and a draw "at most a draw" (a bound: what a
/// drawn root's proof needs of the positions below it, where the value itself may be
/// dearer or unknown). A loss and a win would claim nothing, and are no claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Claim {
    pub position: Position,
    pub low: Outcome,
    pub high: Outcome,
}

/// The claims a word can state, `(low, high)` in the order of their codes (bits 0..10 of
/// a claim's word: 0 loss, 1 draw, 2 win, 3 at least a draw, 4 at most a draw).
const CLAIMED: [(Outcome, Outcome); 5] = [
    (Outcome::Loss, Outcome::Loss),
    (Outcome::Draw, Outcome::Draw),
    (Outcome::Win, Outcome::Win),
    (Outcome::Draw, Outcome::Win),
    (Outcome::Loss, Outcome::Draw),
];

impl Claim {
    /// The claim that `position`'s side to move scores `value`.
    pub fn value(position: Position, value: Outcome) -> Claim {
        Claim {
            position,
            low: value,
            high: value,
        }
    }

    /// The claim that `position`'s side to move scores between `low` and `high`, if that
    /// is one a certificate can state (see [`Claim`]).
    pub fn bounds(position: Position, low: Outcome, high: Outcome) -> Option<Claim> {
        CLAIMED.contains(&(low, high)).then_some(Claim {
            position,
            low,
            high,
        })
    }

    /// The value claimed, if the claim is one (not a bound).
    pub fn exact(self) -> Option<Outcome> {
        (self.low == self.high).then_some(self.low)
    }

    /// The claim's word: the position's key in bits 10..128 and the claim's code in bits
    /// 0..10 (0 loss, 1 draw, 2 win, 3 at least a draw, 4 at most a draw, for the side to
    /// move).
    ///
    /// # Panics
    ///
    /// If the claim's bounds are none a certificate can state (built without
    /// [`Claim::bounds`]).
    pub fn to_bits(self) -> u128 {
        let code = CLAIMED
            .iter()
            .position(|&b| b == (self.low, self.high))
            .expect("a claim a certificate can state");
        self.position.key() << KEY_SHIFT | code as u128
    }

    /// The claim a word states about a position of `layout`.
    pub fn from_bits(layout: &Layout, bits: u128) -> Result<Claim, String> {
        let code = bits & ((1 << KEY_SHIFT) - 1);
        let &(low, high) = CLAIMED.get(code as usize).ok_or_else(|| {
            format!("{code} is not a claim (0 loss, 1 draw, 2 win, 3 at least a draw, 4 at most a draw)")
        })?;
        let position = Position::from_key(layout, bits >> KEY_SHIFT)
            .map_err(|e| format!("its key is not a position of the layout: {e}"))?;
        Ok(Claim {
            position,
            low,
            high,
        })
    }

    /// The statements that make up the claim: a win is "wins", a loss "loses", a draw
    /// "draws or wins" and "cannot win", at least a draw "draws or wins", at most a draw
    /// "cannot win".
    pub fn statements(self) -> &'static [Kind] {
        match (self.low, self.high) {
            (Outcome::Win, _) => &[Kind::Wins],
            (_, Outcome::Loss) => &[Kind::Loses],
            (Outcome::Draw, Outcome::Draw) => &[Kind::DrawsOrWins, Kind::CannotWin],
            (Outcome::Draw, _) => &[Kind::DrawsOrWins],
            _ => &[Kind::CannotWin],
        }
    }

    /// The claim in a word or three, for the side to move: "win", "draw", "loss", "at
    /// least a draw", "at most a draw".
    pub fn name(self) -> &'static str {
        match (self.low, self.high) {
            (low, high) if low == high => low.name(),
            (Outcome::Draw, _) => "at least a draw",
            _ => "at most a draw",
        }
    }
}

impl fmt::Display for Claim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mover = self.position.turn();
        match (self.low, self.high) {
            (Outcome::Win, _) => write!(f, "{mover} to move wins"),
            (_, Outcome::Loss) => write!(f, "{mover} to move loses"),
            (Outcome::Draw, Outcome::Draw) => write!(f, "{mover} to move draws"),
            (Outcome::Draw, _) => write!(f, "{mover} to move draws or wins"),
            _ => write!(f, "{mover} to move cannot win"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_keep_their_fields() {
        let layout = Layout::random(3);
        let pos = Position::start(&layout)
            .play(&layout, "b1".parse().unwrap())
            .unwrap();
        let cell: Cell = "d4".parse().unwrap();
        for kind in Kind::ALL {
            let placement = kind.names_a_move().then_some(cell);
            let e = Entry::new(pos.key(), kind, placement);
            assert_eq!(
                (e.key(), e.kind(), e.placement()),
                (pos.key(), kind, Ok(placement))
            );
            assert!(e.reserved_bits_clear());
            let (low, high) = Entry::range_of_key(pos.key());
            assert!(low <= e.bits() && e.bits() <= high);
        }
        let all = [Outcome::Loss, Outcome::Draw, Outcome::Win];
        let mut claims = 0;
        for low in all {
            for high in all {
                let Some(claim) = Claim::bounds(pos, low, high) else {
                    // Only the empty range and "anything" are no claim.
                    assert!(low > high || (low, high) == (Outcome::Loss, Outcome::Win));
                    continue;
                };
                claims += 1;
                assert_eq!(Claim::from_bits(&layout, claim.to_bits()), Ok(claim));
                assert_eq!(claim.exact(), (low == high).then_some(low));
                // Its statements say exactly its bounds: "wins" and "draws or wins" the
                // low end, "loses" and "cannot win" the high end.
                let kinds = claim.statements();
                let shown_low = if kinds.contains(&Kind::Wins) {
                    Outcome::Win
                } else if kinds.contains(&Kind::DrawsOrWins) {
                    Outcome::Draw
                } else {
                    Outcome::Loss
                };
                let shown_high = if kinds.contains(&Kind::Loses) {
                    Outcome::Loss
                } else if kinds.contains(&Kind::CannotWin) {
                    Outcome::Draw
                } else {
                    Outcome::Win
                };
                assert_eq!((shown_low, shown_high), (low, high), "{}", claim.name());
            }
        }
        assert_eq!(claims, 5);
        let key = pos.key() << KEY_SHIFT;
        for code in [5, 6, 1023] {
            assert!(Claim::from_bits(&layout, key | code).is_err(), "{code}");
        }
    }
}
