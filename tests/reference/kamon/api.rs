//! The text interface of the Kamon reference, for cross-checks: everything in and out is
//! the page's text (layout text, game records, cell names), so a test can hand the same
//! strings to the fast crate and compare the answers as strings or numbers.
//!
//! Every function that reads text returns `Err` with a message naming what is wrong
//! instead of panicking.

use super::certificate::forces_win;
use super::geometry::Cell;
use super::position::{player_name, KamonEnd, KamonPosition, WinReason};
use super::random::{random_game, random_layout};
use super::search::{kamon_divide_of, kamon_perft_of, kamon_solve_position};

/// The legal cells after the game record `moves` on `layout`, in board order (`a1 a2 ..
/// g4`); empty when the game is over.
pub fn kamon_legal_cells(layout: &str, moves: &str) -> Result<Vec<String>, String> {
    let position = KamonPosition::parse(layout, moves)?;
    Ok(position.legal_cells().into_iter().map(Cell::name).collect())
}

/// `None` while the game goes on; otherwise (`black` | `white` | `draw`, `connection` |
/// `loop` | `no legal cell` | `full board`). When the last placement makes both a
/// connection and a loop, the reason is `connection` (the page lists it first).
pub fn kamon_result(layout: &str, moves: &str) -> Result<Option<(String, String)>, String> {
    let position = KamonPosition::parse(layout, moves)?;
    Ok(position.end().map(|end| match end {
        KamonEnd::Draw => ("draw".to_string(), "full board".to_string()),
        KamonEnd::Win { winner, reason } => {
            let reason = match reason {
                WinReason::Connection => "connection",
                WinReason::Loop => "loop",
                WinReason::NoLegalCell => "no legal cell",
            };
            (player_name(winner).to_string(), reason.to_string())
        }
    }))
}

/// perft(`depth`) after the game record `moves` on `layout`.
pub fn kamon_perft(layout: &str, moves: &str, depth: u32) -> Result<u64, String> {
    Ok(kamon_perft_of(&KamonPosition::parse(layout, moves)?, depth))
}

/// For each legal cell (board order), the perft count of `depth - 1` after it.
pub fn kamon_divide(layout: &str, moves: &str, depth: u32) -> Result<Vec<(String, u64)>, String> {
    let position = KamonPosition::parse(layout, moves)?;
    Ok(kamon_divide_of(&position, depth)
        .into_iter()
        .map(|(cell, count)| (cell.name(), count))
        .collect())
}

/// The solved value for the player to move (`win` | `draw` | `loss`) and the remoteness,
/// by exhaustive minimax. Practical up to about a dozen free cells.
pub fn kamon_solve(layout: &str, moves: &str) -> Result<(String, u32), String> {
    let position = KamonPosition::parse(layout, moves)?;
    let (value, remoteness) = kamon_solve_position(&position);
    Ok((value.text().to_string(), remoteness))
}

/// Whether the player to move after `moves` wins within `placements` of their own
/// placements whatever the opponent replies (`false` in a finished game): the forced wins
/// a walk certificate of format version 2 leaves to the rules.
pub fn kamon_forces_win(layout: &str, moves: &str, placements: u32) -> Result<bool, String> {
    let position = KamonPosition::parse(layout, moves)?;
    Ok(position.end().is_none() && forces_win(&position, placements))
}

/// A random layout text; the same seed always gives the same layout.
pub fn kamon_random_layout(seed: u64) -> String {
    random_layout(seed).to_text()
}

/// The game record `moves` followed by up to `placements` random placements on `layout`
/// (see [`random_game`]: placements that end the game are avoided while others are left;
/// it stops when the game ends). Deterministic in `seed`.
pub fn kamon_random_moves(
    layout: &str,
    moves: &str,
    seed: u64,
    placements: usize,
) -> Result<String, String> {
    let position = KamonPosition::parse(layout, moves)?;
    Ok(random_game(&position, seed, placements).moves_text())
}
