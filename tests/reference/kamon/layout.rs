//! Chips and layouts: which chip lies on which cell, in the text form of KAMON-RULES.md.
//!
//! A layout is kept as a plain list of 37 chips in board order (`a1`, `a2`, ..., `g4`), so
//! the text form and the stored form are the same thing read in the same order. Parsing
//! checks everything the page requires (seven rows of the right lengths, each of the 37
//! chips exactly once) and names the first thing that is wrong.

use super::geometry::{Cell, CELL_COUNT};
use crate::random::XorShift64;

/// The symbols of the kamon chips, in text order.
const SYMBOLS: [char; 6] = ['a', 'b', 'c', 'd', 'e', 'f'];

/// One of the 37 chips of a layout.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Chip {
    /// The first-player chip, `--`. Its cell is forbidden for the whole game.
    FirstPlayer,
    /// A kamon chip: `count` (1..=6) times the symbol `symbol` (`a`..=`f`), written `5a`.
    Kamon {
        /// How many symbols the chip shows, 1 to 6.
        count: u8,
        /// Which symbol, `a` to `f`.
        symbol: char,
    },
}

impl Chip {
    /// All 37 chips: the 36 kamon chips (counts 1..6, each with symbols a..f), then `--`.
    pub fn all() -> Vec<Chip> {
        let mut chips = Vec::new();
        for count in 1..=6 {
            for symbol in SYMBOLS {
                chips.push(Chip::Kamon { count, symbol });
            }
        }
        chips.push(Chip::FirstPlayer);
        chips
    }

    /// The chip's text: `--` or count then symbol, e.g. `5a`.
    pub fn text(self) -> String {
        match self {
            Chip::FirstPlayer => "--".to_string(),
            Chip::Kamon { count, symbol } => format!("{count}{symbol}"),
        }
    }

    /// Reads a two-character chip text; `None` if it is not one of the 37 chips.
    pub fn parse(text: &str) -> Option<Chip> {
        if text == "--" {
            return Some(Chip::FirstPlayer);
        }
        Chip::all().into_iter().find(|chip| chip.text() == text)
    }

    /// May a piece be placed on a cell with this chip when `top` is on top of the stack?
    /// Same count or same symbol; the first-player chip matches nothing, either way round.
    pub fn matches(self, top: Chip) -> bool {
        match (self, top) {
            (
                Chip::Kamon { count, symbol },
                Chip::Kamon {
                    count: top_count,
                    symbol: top_symbol,
                },
            ) => count == top_count || symbol == top_symbol,
            _ => false,
        }
    }
}

/// A layout: the chip on each of the 37 cells, each chip exactly once.
#[derive(Clone, PartialEq, Eq, Debug, Hash)]
pub struct KamonLayout {
    /// `chips[cell.ordinal()]` is the chip on `cell`.
    chips: Vec<Chip>,
}

impl KamonLayout {
    /// Reads a layout text: the rows `a`..`g` separated by `/`, each row its chips from left
    /// to right with no separator. Leading and trailing whitespace is ignored. Never panics.
    pub fn parse(text: &str) -> Result<KamonLayout, String> {
        let rows: Vec<&str> = text.trim().split('/').collect();
        if rows.len() != 7 {
            return Err(format!(
                "a layout needs 7 rows (a to g) separated by '/', got {}",
                rows.len()
            ));
        }
        let mut chips = Vec::new();
        let all_cells = Cell::all();
        for (row, row_text) in rows.iter().enumerate() {
            let row_letter = (b'a' + row as u8) as char;
            let row_cells: Vec<Cell> = all_cells.iter().copied().filter(|c| c.row == row).collect();
            let chars: Vec<char> = row_text.chars().collect();
            if chars.len() != 2 * row_cells.len() {
                return Err(format!(
                    "row {row_letter} needs {} chips (2 characters each), got {} characters: {row_text:?}",
                    row_cells.len(),
                    chars.len()
                ));
            }
            for (cell, pair) in row_cells.iter().zip(chars.chunks(2)) {
                let chip_text: String = pair.iter().collect();
                match Chip::parse(&chip_text) {
                    Some(chip) => chips.push(chip),
                    None => {
                        return Err(format!(
                            "cell {}: {chip_text:?} is not a chip (a count 1-6 then a symbol a-f, or --)",
                            cell.name()
                        ))
                    }
                }
            }
        }
        let cells_holding = |chip: Chip| -> Vec<String> {
            all_cells
                .iter()
                .filter(|cell| chips[cell.ordinal()] == chip)
                .map(|cell| cell.name())
                .collect()
        };
        let first_player_cells = cells_holding(Chip::FirstPlayer);
        match first_player_cells.len() {
            1 => {}
            0 => return Err("the first-player chip -- is missing".to_string()),
            _ => {
                return Err(format!(
                    "the first-player chip -- appears more than once (cells {})",
                    first_player_cells.join(", ")
                ))
            }
        }
        // With 37 cells, a kamon chip can only be missing if another one is doubled, so
        // the doubled chip is reported together with every missing one.
        let missing: Vec<String> = Chip::all()
            .into_iter()
            .filter(|&chip| cells_holding(chip).is_empty())
            .map(|chip| chip.text())
            .collect();
        for chip in Chip::all() {
            let cells = cells_holding(chip);
            if cells.len() > 1 {
                return Err(format!(
                    "chip {} appears more than once (cells {}); missing: {}",
                    chip.text(),
                    cells.join(", "),
                    missing.join(" ")
                ));
            }
        }
        Ok(KamonLayout { chips })
    }

    /// The layout text, e.g. `1a2b3c4d/5e6f1b2c3d/...`.
    pub fn to_text(&self) -> String {
        let mut rows: Vec<String> = vec![String::new(); 7];
        for cell in Cell::all() {
            rows[cell.row].push_str(&self.chip_at(cell).text());
        }
        rows.join("/")
    }

    /// The chip on `cell`.
    pub fn chip_at(&self, cell: Cell) -> Chip {
        self.chips[cell.ordinal()]
    }

    /// The forbidden cell: the one the first-player chip lies on.
    pub fn forbidden_cell(&self) -> Cell {
        Cell::all()
            .into_iter()
            .find(|&cell| self.chip_at(cell) == Chip::FirstPlayer)
            .unwrap_or(Cell { row: 0, index: 0 }) // unreachable: parse checked the chip is there
    }

    /// A layout with the chips shuffled by a Fisher-Yates shuffle driven by xorshift64
    /// seeded with `seed`. The same seed always gives the same layout.
    pub fn random(seed: u64) -> KamonLayout {
        let mut rng = XorShift64::new(seed);
        let mut chips = Chip::all();
        for i in (1..chips.len()).rev() {
            let j = (rng.next() % (i as u64 + 1)) as usize;
            chips.swap(i, j);
        }
        debug_assert_eq!(chips.len(), CELL_COUNT);
        KamonLayout { chips }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The chips in order, one row after another: `1a1b1c1d/1e1f2a2b2c/...`, `--` last.
    fn ordered_layout_text() -> String {
        KamonLayout { chips: Chip::all() }.to_text()
    }

    #[test]
    fn text_round_trip() {
        let text = ordered_layout_text();
        assert!(text.starts_with("1a1b1c1d/1e1f2a2b2c/"), "{text}");
        assert!(text.ends_with("/6d6e6f--"), "{text}");
        let layout = KamonLayout::parse(&text).unwrap();
        assert_eq!(layout.to_text(), text);
        assert_eq!(layout.forbidden_cell().name(), "g4");
        assert_eq!(
            layout.chip_at(Cell::parse("b1").unwrap()),
            Chip::Kamon {
                count: 1,
                symbol: 'e'
            }
        );
        assert_eq!(KamonLayout::parse(&format!("  {text}\n")), Ok(layout));
        for seed in 0..50 {
            let random = KamonLayout::random(seed);
            assert_eq!(KamonLayout::parse(&random.to_text()), Ok(random));
        }
    }

    #[test]
    fn random_layouts_are_deterministic_and_varied() {
        assert_eq!(KamonLayout::random(3), KamonLayout::random(3));
        let forbidden: std::collections::HashSet<Cell> = (0..200)
            .map(|seed| KamonLayout::random(seed).forbidden_cell())
            .collect();
        // 200 shuffles put the first-player chip on most of the 37 cells.
        assert!(forbidden.len() > 30, "{}", forbidden.len());
    }

    #[test]
    fn bad_layouts_are_rejected_with_the_reason() {
        let good = ordered_layout_text();
        let expect_error = |text: &str, expected: &str| {
            let error = KamonLayout::parse(text).expect_err(text);
            assert!(error.contains(expected), "{text}: {error}");
        };
        expect_error("", "7 rows");
        expect_error(&good.replacen('/', "", 1), "7 rows");
        expect_error(&format!("{good}/"), "7 rows");
        // Row a with 3 chips, row b with 6.
        expect_error(&good.replacen("1d/", "/1d", 1), "row a needs 4 chips");
        // Row g one chip short.
        expect_error(&good.replacen("--", "", 1), "row g needs 4 chips");
        expect_error(
            &good.replacen("1b", "1a", 1),
            "chip 1a appears more than once (cells a1, a2); missing: 1b",
        );
        expect_error(
            &good.replacen("--", "6f", 1),
            "the first-player chip -- is missing",
        );
        expect_error(
            &good.replacen("1a", "--", 1),
            "the first-player chip -- appears more than once (cells a1, g4)",
        );
        expect_error(
            &good.replacen("1a", "7a", 1),
            "cell a1: \"7a\" is not a chip",
        );
        expect_error(&good.replacen("1a", "0a", 1), "cell a1");
        expect_error(&good.replacen("1a", "1g", 1), "not a chip");
        expect_error(&good.replacen("1a", "a1", 1), "not a chip");
        expect_error(&good.replacen("1a", "1A", 1), "not a chip");
        expect_error(&good.replacen("1a", "-1", 1), "not a chip");
        expect_error(&good.replacen("--", "-x", 1), "cell g4");
        // A two-byte character makes the row one character short.
        expect_error(&good.replacen("1a", "é", 1), "row a");
        expect_error(&good.replacen("1a", "éé", 1), "not a chip");
    }

    #[test]
    fn chips_match_by_count_or_symbol() {
        let chip = |t: &str| Chip::parse(t).unwrap();
        assert!(chip("5a").matches(chip("5c")));
        assert!(chip("5a").matches(chip("2a")));
        assert!(!chip("5a").matches(chip("2c")));
        assert!(!chip("5a").matches(Chip::FirstPlayer));
        assert!(!Chip::FirstPlayer.matches(chip("5a")));
        assert!(!Chip::FirstPlayer.matches(Chip::FirstPlayer));
    }
}
