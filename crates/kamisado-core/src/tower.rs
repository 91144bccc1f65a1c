//! Towers: a side and a colour.

use std::fmt;

use crate::{Colour, Side};

/// One of the sixteen towers. Each side owns exactly one tower of each colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tower {
    pub side: Side,
    pub colour: Colour,
}

impl Tower {
    #[inline]
    pub const fn new(side: Side, colour: Colour) -> Tower {
        Tower { side, colour }
    }

    /// The letter of the position text: the colour code, upper case for Black, lower case for White.
    pub const fn char(self) -> char {
        let c = self.colour.char();
        match self.side {
            Side::Black => c.to_ascii_uppercase(),
            Side::White => c,
        }
    }

    pub fn from_char(c: char) -> Option<Tower> {
        let colour = Colour::from_char(c)?;
        let side = if c.is_ascii_uppercase() {
            Side::Black
        } else {
            Side::White
        };
        Some(Tower { side, colour })
    }

    pub fn all() -> impl Iterator<Item = Tower> {
        Side::ALL.into_iter().flat_map(|side| {
            Colour::ALL
                .into_iter()
                .map(move |colour| Tower { side, colour })
        })
    }
}

impl fmt::Display for Tower {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.side, self.colour)
    }
}
