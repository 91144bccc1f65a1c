//! The board for people: in colour on a terminal, in plain letters elsewhere.

use std::io::IsTerminal;

use kamisado_core::{Colour, Side, Square};
use kamisado_match::{rank, MatchPosition, Target};
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

/// The board, rank 8 at the top, with the active tower marked. A Sumo's rank follows its
/// letter, one `+` per rank as in the position text; the cells widen only when a tower on
/// the board has a rank, so that a single round's board is drawn as it always was.
pub fn board(pos: &MatchPosition, colour: bool) -> String {
    let active = pos
        .active_tower()
        .map(|t| pos.board().square_of(t))
        .filter(|_| !pos.is_round_over());
    // A single round has no Sumos: the tower that ends it gains no rank (the match rules'
    // promotion is of the next round, which a single round does not have).
    let single = pos.target() == Target::Single;
    let shown_rank = |t| if single { 0 } else { pos.rank(t) };
    let ranked =
        !single && (pos.has_sumo() || pos.round_end().is_some_and(|e| pos.rank(e.promoted) > 0));
    // Room for the letter and its `+` signs (at most three on the board while a round is
    // played, one more on a finished round's promoted tower).
    let width = if ranked {
        1 + Side::ALL
            .into_iter()
            .flat_map(|side| pos.ranks(side))
            .max()
            .unwrap_or(0) as usize
    } else {
        1
    };
    let mut out = String::new();
    for rank in (0..8).rev() {
        out.push_str(&format!("{} ", rank + 1));
        for file in 0..8 {
            let sq = Square::from_coords(file, rank);
            let tower = pos.board().tower_at(sq);
            let marked = active == Some(sq);
            let (left, right) = if marked { ('[', ']') } else { (' ', ' ') };
            let mut body = match tower {
                Some(t) => {
                    let mut text = t.char().to_string();
                    text.push_str(&"+".repeat(shown_rank(t) as usize));
                    text
                }
                None if colour => " ".to_owned(),
                None => ".".to_owned(),
            };
            while body.chars().count() < width {
                body.push(' ');
            }
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
                out.push_str(&body);
                out.push(right);
            }
        }
        out.push('\n');
    }
    out.push_str("  ");
    for file in 'a'..='h' {
        out.push(' ');
        out.push(file);
        out.push_str(&" ".repeat(width));
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}

/// A sentence on whose turn it is, or how the round ended; in a match, with the round
/// and the score.
pub fn status(pos: &MatchPosition) -> String {
    let turn = match pos.round_end() {
        Some(end) => {
            let over = if pos.target() == Target::Single {
                "game over".to_owned()
            } else {
                format!("round {} over", pos.round_number())
            };
            format!("{over}: {} won by {}", end.winner, end.reason.name())
        }
        None => match pos.active_tower() {
            None => format!("{} to move, any tower (free move)", pos.turn()),
            Some(t) => format!(
                "{} to move the {} {} on {}",
                pos.turn(),
                t.colour,
                match pos.rank(t) {
                    0 => "tower",
                    r => rank::name(r),
                },
                pos.board().square_of(t)
            ),
        },
    };
    match match_status(pos) {
        Some(standing) => format!("{turn}; {standing}"),
        None => turn,
    }
}

/// "round 2 of a Standard match (to 3 points): black 1, white 0"; after the round, who
/// gained a rank and what comes next. `None` for a single round.
pub fn match_status(pos: &MatchPosition) -> Option<String> {
    let target = pos.target();
    if target == Target::Single {
        return None;
    }
    let score = format!(
        "black {}, white {}",
        pos.score(Side::Black),
        pos.score(Side::White)
    );
    Some(match pos.round_end() {
        None => format!("round {} of a {target}: {score}", pos.round_number()),
        Some(end) => {
            let gained = format!(
                "{}'s {} tower is now a {}",
                end.winner,
                end.promoted.colour,
                rank::name(pos.rank(end.promoted))
            );
            match pos.match_winner() {
                Some(winner) => format!("{gained}; {winner} wins the {target}, {score}"),
                None => format!(
                    "{gained}; {score}; {} chooses the refill for round {}: left or right",
                    end.winner,
                    pos.round_number() + 1
                ),
            }
        }
    })
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
