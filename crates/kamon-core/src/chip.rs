//! Chips: the 36 kamon chips (a count 1-6 of a symbol a-f) and the first-player chip.

use std::fmt;
use std::str::FromStr;

/// The number of chips, one per cell.
pub const CHIP_COUNT: usize = 37;

/// One of the 37 chips: a kamon chip, `count` times the symbol `symbol`, written `5a`; or
/// the first-player chip, written `--`.
///
/// Stored as its index in the chips' standard order, `1a 1b .. 1f 2a .. 6f` then `--`
/// (index `6 * (count - 1) + symbol`, the first-player chip 36). Random layouts shuffle
/// the chips from this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Chip(u8);

impl Chip {
    /// The chip whose cell is forbidden and which starts the stack.
    pub const FIRST_PLAYER: Chip = Chip(36);

    /// Every chip in the standard order: `1a 1b .. 6f --`.
    pub const ALL: [Chip; CHIP_COUNT] = {
        let mut chips = [Chip(0); CHIP_COUNT];
        let mut i = 0;
        while i < CHIP_COUNT {
            chips[i] = Chip(i as u8);
            i += 1;
        }
        chips
    };

    /// The kamon chip with `count` (1-6) symbols `symbol` (0-5 for `a`-`f`).
    ///
    /// # Panics
    /// If `count` is not 1-6 or `symbol` not 0-5.
    #[inline]
    pub const fn kamon(count: u8, symbol: u8) -> Chip {
        assert!(count >= 1 && count <= 6 && symbol < 6);
        Chip(6 * (count - 1) + symbol)
    }

    /// The chip at `index` in the standard order.
    ///
    /// # Panics
    /// If `index >= 37`.
    #[inline]
    pub const fn from_index(index: usize) -> Chip {
        Chip::ALL[index]
    }

    /// The index in the standard order, 0 (`1a`) .. 35 (`6f`), 36 (`--`).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline]
    pub const fn is_first_player(self) -> bool {
        self.0 == Chip::FIRST_PLAYER.0
    }

    /// The number of symbols, 1-6; `None` for the first-player chip.
    #[inline]
    pub const fn count(self) -> Option<u8> {
        if self.is_first_player() {
            None
        } else {
            Some(self.0 / 6 + 1)
        }
    }

    /// The symbol, 0-5 for `a`-`f`; `None` for the first-player chip.
    #[inline]
    pub const fn symbol(self) -> Option<u8> {
        if self.is_first_player() {
            None
        } else {
            Some(self.0 % 6)
        }
    }

    /// Whether a cell holding `self` may be played after `top` was stacked: the same symbol
    /// or the same count. The first-player chip matches nothing (the first move follows
    /// its own rule) and nothing matches it.
    #[inline]
    pub const fn matches(self, top: Chip) -> bool {
        !self.is_first_player()
            && !top.is_first_player()
            && (self.0 / 6 == top.0 / 6 || self.0 % 6 == top.0 % 6)
    }
}

impl fmt::Display for Chip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.count(), self.symbol()) {
            (Some(count), Some(symbol)) => write!(f, "{count}{}", (b'a' + symbol) as char),
            _ => f.write_str("--"),
        }
    }
}

/// Why a text is not a chip.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{text}` is not a chip: a chip is a count 1-6 then a symbol a-f, like `5a`, or `--` for the first-player chip")]
pub struct ParseChipError {
    pub text: String,
}

impl FromStr for Chip {
    type Err = ParseChipError;

    fn from_str(text: &str) -> Result<Chip, ParseChipError> {
        match text.as_bytes() {
            b"--" => Ok(Chip::FIRST_PLAYER),
            &[count @ b'1'..=b'6', symbol @ b'a'..=b'f'] => {
                Ok(Chip::kamon(count - b'0', symbol - b'a'))
            }
            _ => Err(ParseChipError {
                text: text.to_owned(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips_in_standard_order() {
        let texts: Vec<String> = Chip::ALL.iter().map(|c| c.to_string()).collect();
        assert_eq!(texts[..7], ["1a", "1b", "1c", "1d", "1e", "1f", "2a"]);
        assert_eq!(texts[35], "6f");
        assert_eq!(texts[36], "--");
        for chip in Chip::ALL {
            assert_eq!(chip.to_string().parse::<Chip>(), Ok(chip));
        }
        for bad in ["", "7a", "0a", "1g", "a1", "1A", "-", "---", "5a "] {
            assert!(bad.parse::<Chip>().is_err(), "{bad}");
        }
    }

    #[test]
    fn symbol_or_count_matches() {
        let c = |t: &str| t.parse::<Chip>().unwrap();
        assert!(c("5a").matches(c("5c")));
        assert!(c("5a").matches(c("3a")));
        assert!(!c("5a").matches(c("3c")));
        assert!(!c("--").matches(c("5a")));
        assert!(!c("5a").matches(c("--")));
        // Each kamon chip matches 5 of the same symbol and 5 of the same count.
        for top in Chip::ALL.iter().take(36) {
            let n = Chip::ALL
                .iter()
                .filter(|c| c.matches(*top) && *c != top)
                .count();
            assert_eq!(n, 10, "{top}");
        }
    }
}
