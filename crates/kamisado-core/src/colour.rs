//! The eight colours: of the squares, and of the towers that stand on them.

use std::fmt;

use crate::Square;

/// One of the eight Kamisado colours.
///
/// The discriminants follow White's home row from a8 to h8, which makes the two board
/// symmetries cheap: mirroring the files maps colour `c` to `7 - c`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    Orange = 0,
    Blue = 1,
    Purple = 2,
    Pink = 3,
    Yellow = 4,
    Red = 5,
    Green = 6,
    Brown = 7,
}

use Colour::*;

/// Colour of every square, by rank index (0 = rank 1) then file index (0 = file a),
/// exactly the table of the rules page (`RULES.md` at the repository root).
const SQUARE_COLOURS: [[Colour; 8]; 8] = [
    [Brown, Green, Red, Yellow, Pink, Purple, Blue, Orange],
    [Purple, Brown, Yellow, Blue, Green, Pink, Orange, Red],
    [Blue, Yellow, Brown, Purple, Red, Orange, Pink, Green],
    [Yellow, Red, Green, Brown, Orange, Blue, Purple, Pink],
    [Pink, Purple, Blue, Orange, Brown, Green, Red, Yellow],
    [Green, Pink, Orange, Red, Purple, Brown, Yellow, Blue],
    [Red, Orange, Pink, Green, Blue, Yellow, Brown, Purple],
    [Orange, Blue, Purple, Pink, Yellow, Red, Green, Brown],
];

impl Colour {
    pub const ALL: [Colour; 8] = [Orange, Blue, Purple, Pink, Yellow, Red, Green, Brown];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub const fn from_index(i: usize) -> Colour {
        Colour::ALL[i & 7]
    }

    /// The colour of a square on the board.
    #[inline]
    pub const fn of_square(sq: Square) -> Colour {
        SQUARE_COLOURS[sq.rank() as usize][sq.file() as usize]
    }

    /// The colour that takes this one's place when the board's files are mirrored (a <-> h):
    /// Orange<->Brown, Blue<->Green, Purple<->Red, Pink<->Yellow.
    #[inline]
    pub const fn mirrored(self) -> Colour {
        Colour::from_index(7 - self.index())
    }

    /// One-letter code used by the position text: o b u p y r g n.
    pub const fn char(self) -> char {
        match self {
            Orange => 'o',
            Blue => 'b',
            Purple => 'u',
            Pink => 'p',
            Yellow => 'y',
            Red => 'r',
            Green => 'g',
            Brown => 'n',
        }
    }

    /// Reads a one-letter code, in either case.
    pub fn from_char(c: char) -> Option<Colour> {
        Colour::ALL
            .into_iter()
            .find(|colour| colour.char() == c.to_ascii_lowercase())
    }

    pub const fn name(self) -> &'static str {
        match self {
            Orange => "orange",
            Blue => "blue",
            Purple => "purple",
            Pink => "pink",
            Yellow => "yellow",
            Red => "red",
            Green => "green",
            Brown => "brown",
        }
    }

    /// Reads a colour name or its one-letter code, in any case.
    pub fn from_name(s: &str) -> Option<Colour> {
        let lower = s.to_ascii_lowercase();
        let mut chars = lower.chars();
        if let (Some(c), None) = (chars.next(), chars.next()) {
            return Colour::from_char(c);
        }
        Colour::ALL
            .into_iter()
            .find(|colour| colour.name() == lower)
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
