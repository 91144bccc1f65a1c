//! The hexagonal board for people: 37 hexagons in rows of 4 to 7, each showing its chip,
//! or the piece on it; in colour on a terminal (chips in their symbol's colour, pieces
//! black and white), in plain letters elsewhere.
//!
//! Why this drawing: pointy-topped hexagons four characters apart tile with single
//! slashes, so the board keeps the rules page's picture (row `a` on top, each row half a
//! cell in from the one below it in the upper half) while every cell stays one line
//! tall: `| 5a|`. In the plain drawing a cell shows its chip with a `+` in front if the
//! player to move may play it, ` X ` / ` O ` for Black's and White's pieces, `[X]` for
//! the last placement, and `##` for the forbidden cell. In colour the pieces keep their
//! letters (white on black for Black, black on white for White: two shapes, not one disc
//! inverted) and the last placement its brackets, so whose it is stays readable; the
//! cells the player to move may take are underlined instead of marked `+`.

use kamon_core::{Cell, Layout, Player, Position, Record};

const ROW_LENGTHS: [u8; 7] = [4, 5, 6, 7, 6, 5, 4];

/// ANSI colours of the six symbols `a`..`f`.
const SYMBOL_COLOURS: [&str; 6] = [
    "\x1b[1;31m", // a: red
    "\x1b[1;33m", // b: yellow
    "\x1b[1;32m", // c: green
    "\x1b[1;36m", // d: cyan
    "\x1b[1;34m", // e: blue
    "\x1b[1;35m", // f: magenta
];
/// The same, underlined: the cells the player to move may take.
const LEGAL_SYMBOL_COLOURS: [&str; 6] = [
    "\x1b[1;4;31m",
    "\x1b[1;4;33m",
    "\x1b[1;4;32m",
    "\x1b[1;4;36m",
    "\x1b[1;4;34m",
    "\x1b[1;4;35m",
];
const RESET: &str = "\x1b[0m";

/// The three characters inside one cell, and the ANSI prefix to paint them with (if any).
fn cell_body(layout: &Layout, pos: &Position, cell: Cell, colour: bool) -> (String, &'static str) {
    let last = pos.last_move() == Some(cell);
    let owner = Player::ALL
        .into_iter()
        .find(|&p| pos.pieces(p).contains(cell));
    let legal = pos.legal_cells(layout).contains(cell);
    let chip = layout.chip(cell);
    match (owner, colour) {
        (Some(player), colour) => {
            let letter = match player {
                Player::Black => 'X',
                Player::White => 'O',
            };
            let (l, r) = if last { ('[', ']') } else { (' ', ' ') };
            let paint = match (colour, player) {
                (false, _) => "",
                (true, Player::Black) => "\x1b[1;97;40m",
                (true, Player::White) => "\x1b[1;30;107m",
            };
            (format!("{l}{letter}{r}"), paint)
        }
        (None, _) if chip.is_first_player() => ("## ".to_string(), ""),
        (None, false) => (format!("{}{chip}", if legal { '+' } else { ' ' }), ""),
        (None, true) => {
            let symbol = chip.symbol().unwrap_or(0) as usize;
            let paint = if legal {
                LEGAL_SYMBOL_COLOURS[symbol]
            } else {
                SYMBOL_COLOURS[symbol]
            };
            (format!(" {chip}"), paint)
        }
    }
}

/// The board of `record`'s position, row `a` on top, with row letters on the left.
pub fn board(record: &Record, colour: bool) -> String {
    let (layout, pos) = (record.layout(), record.position());
    let mut lines: Vec<String> = Vec::new();
    let indent = |n: u8| 2 * (7 - n as usize);
    // The slashes above or below a row of `n` cells: tops `/ \`, bottoms `\ /`.
    let slashes = |n: u8, top: bool| {
        let mut line = " ".repeat(indent(n) + 2 + 1);
        for _ in 0..n {
            line.push_str(if top { "/ \\ " } else { "\\ / " });
        }
        line.trim_end().to_string()
    };
    for row in 0..7u8 {
        let n = ROW_LENGTHS[row as usize];
        // Above a row: its own tops in the upper half (they cover the row above's
        // bottoms), the row above's bottoms in the lower half.
        lines.push(if row <= 3 {
            slashes(n, true)
        } else {
            slashes(ROW_LENGTHS[row as usize - 1], false)
        });
        let mut line = format!("{} {}", (b'a' + row) as char, " ".repeat(indent(n)));
        for number in 1..=n {
            let cell = Cell::at(row, number);
            let (body, paint) = cell_body(layout, pos, cell, colour);
            line.push('|');
            if paint.is_empty() {
                line.push_str(&body);
            } else {
                line.push_str(&format!("{paint}{body}{RESET}"));
            }
        }
        line.push('|');
        lines.push(line);
    }
    lines.push(slashes(ROW_LENGTHS[6], false));
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// Who moves and what they may play, or how the game ended.
pub fn status(record: &Record) -> String {
    let (layout, pos) = (record.layout(), record.position());
    if let Some(end) = pos.end() {
        return format!("game over after {} placements: {end}", pos.placed());
    }
    let legal: Vec<String> = pos.legal_cells(layout).map(|c| c.to_string()).collect();
    let stack = match pos.last_move() {
        None => "first placement: an edge cell that is not a corner".to_string(),
        Some(cell) => format!(
            "top of the stack {} (from {cell}): a cell with the same symbol or count",
            layout.chip(cell)
        ),
    };
    format!(
        "{} to move, placement {}; {stack}\nlegal: {}",
        pos.turn(),
        pos.placed() + 1,
        legal.join(" ")
    )
}

/// The key to the drawing, plain or in colour.
pub fn legend(colour: bool) -> &'static str {
    if colour {
        "X black (white on black), O white (black on white), [ ] the last placement, ## the forbidden cell, underlined: a cell the player to move may take"
    } else {
        "X black, O white, [ ] the last placement, ## the forbidden cell, + a cell the player to move may take"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// In colour the two sides are told apart by their letters, not only by inverted
    /// colours, and the last placement's brackets hold its owner's letter.
    #[test]
    fn colour_draws_each_side_its_own_letter_and_marks_whose_placement_was_last() {
        let record = Record::random(1, 5).unwrap();
        let pos = record.position();
        let last = pos.last_move().unwrap();
        let plain_text = board(&record, false);
        let coloured = board(&record, true);
        let plain = |text: &str| {
            let mut out = String::new();
            let mut chars = text.chars();
            while let Some(c) = chars.next() {
                if c == '\x1b' {
                    chars.by_ref().find(|&c| c == 'm');
                } else {
                    out.push(c);
                }
            }
            out
        };
        let shown = plain(&coloured);
        for player in Player::ALL {
            let letter = if player == Player::Black { 'X' } else { 'O' };
            let pieces = pos.pieces(player).count() as usize;
            assert_eq!(shown.matches(letter).count(), pieces, "{player:?}\n{shown}");
        }
        let owner = Player::ALL
            .into_iter()
            .find(|&p| pos.pieces(p).contains(last))
            .unwrap();
        let mark = if owner == Player::Black { "[X]" } else { "[O]" };
        assert_eq!(shown.matches(mark).count(), 1, "{shown}");
        assert_eq!(plain_text.matches(mark).count(), 1, "{plain_text}");
        // The sides' paints differ in more than being each other's inverse: their letters.
        assert!(coloured.contains("\x1b[1;97;40m") && coloured.contains("\x1b[1;30;107m"));
        assert!(legend(true).contains("X black") && legend(true).contains("O white"));
    }
}
