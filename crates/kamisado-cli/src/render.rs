//! The board for people: in colour on a terminal, in plain letters elsewhere.

use std::io::IsTerminal;

use kamisado_core::{Colour, Position, Side, Square};
use kamisado_solver::{Outcome, Value};

/// Whether to paint: only on a terminal, never with `--no-color` or `NO_COLOR` set.
pub fn use_colour(no_color: bool) -> bool {
    !no_color && std::env::var_os("NO_COLOR").is_none() && std::io::stdout().is_terminal()
}

fn rgb(colour: Colour) -> (u8, u8, u8) {
    match colour {
        Colour::Orange => (242, 133, 0),
        Colour::Blue => (40, 96, 208),
        Colour::Purple => (120, 40, 160),
        Colour::Pink => (240, 110, 170),
        Colour::Yellow => (230, 200, 20),
        Colour::Red => (200, 30, 40),
        Colour::Green => (40, 150, 60),
        Colour::Brown => (110, 65, 25),
    }
}

/// The board, rank 8 at the top, with the active tower marked.
pub fn board(pos: &Position, colour: bool) -> String {
    let active = pos
        .active_tower()
        .map(|t| pos.board().square_of(t))
        .filter(|_| !pos.is_over());
    let mut out = String::new();
    for rank in (0..8).rev() {
        out.push_str(&format!("{} ", rank + 1));
        for file in 0..8 {
            let sq = Square::from_coords(file, rank);
            let tower = pos.board().tower_at(sq);
            let marked = active == Some(sq);
            let (left, right) = if marked { ('[', ']') } else { (' ', ' ') };
            let body = match tower {
                Some(t) => t.char(),
                None => {
                    if colour {
                        ' '
                    } else {
                        '.'
                    }
                }
            };
            if colour {
                let (r, g, b) = rgb(sq.colour());
                let fg = match tower.map(|t| t.side) {
                    Some(Side::Black) => "\x1b[1;38;2;0;0;0m",
                    Some(Side::White) => "\x1b[1;38;2;255;255;255m",
                    None => "",
                };
                out.push_str(&format!(
                    "\x1b[48;2;{r};{g};{b}m{fg}{left}{body}{right}\x1b[0m"
                ));
            } else {
                out.push(left);
                out.push(body);
                out.push(right);
            }
        }
        out.push('\n');
    }
    out.push_str("   a  b  c  d  e  f  g  h\n");
    out
}

/// A sentence on whose turn it is, or how the game ended.
pub fn status(pos: &Position) -> String {
    match pos.end() {
        Some(end) => format!("game over: {} won by {}", end.winner, end.reason.name()),
        None => match pos.active_tower() {
            None => format!("{} to move, any tower (free move)", pos.turn()),
            Some(t) => format!(
                "{} to move the {} tower on {}",
                pos.turn(),
                t.colour,
                pos.board().square_of(t)
            ),
        },
    }
}

/// "black wins in 17", "drawn in 9": an outcome for `side`, said as who wins.
pub fn who_wins(side: Side, outcome: Outcome) -> String {
    let r = outcome.remoteness;
    match outcome.value {
        Value::Win => format!("{side} wins in {r}"),
        Value::Loss => format!("{} wins in {r}", !side),
        Value::Draw => format!("drawn in {r}"),
    }
}

/// "win for black (black wins in 17 moves)": an outcome for `side`, with who wins.
pub fn outcome_for(side: Side, outcome: Outcome) -> String {
    let r = outcome.remoteness;
    format!(
        "{} for {side} ({} move{})",
        outcome.value,
        who_wins(side, outcome),
        if r == 1 { "" } else { "s" }
    )
}
