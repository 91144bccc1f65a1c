//! The match reference with text in and text out, for cross-check tests: every function
//! takes position text and move text and returns text (or counts), so a test can compare
//! it with any implementation without sharing a type. Bad input gives Err, never a panic.

use super::position::MatchPosition;
use super::random::{random_match, random_push_position};
use super::record::{play_record, RecordOutcome};
use super::refill::RefillFrom;
use super::round_end::RoundEnd;

/// The text of the first position of a match to `target` (1, 3, 7 or 15).
pub fn match_start(target: u32) -> Result<String, String> {
    Ok(MatchPosition::start(target)?.to_text())
}

/// The legal moves of a position text (after any pending zero-length chain), sorted.
/// Empty when the round is over.
pub fn match_legal_moves(text: &str) -> Result<Vec<String>, String> {
    Ok(MatchPosition::parse(text)?.legal_moves())
}

/// The position text after playing `mv`. For a move that ends the round, this is the
/// finished round (no rank gained yet); see [`match_play_with_end`] for how it ended.
pub fn match_play(text: &str, mv: &str) -> Result<String, String> {
    Ok(match_play_with_end(text, mv)?.0)
}

/// The position text after playing `mv`, and the end of the round if `mv` ended it. The
/// end is exact even where the text alone cannot tell it (a deadlock after a push).
pub fn match_play_with_end(text: &str, mv: &str) -> Result<(String, Option<RoundEnd>), String> {
    let (next, end) = MatchPosition::parse(text)?.play(mv)?;
    Ok((next.to_text(), end))
}

/// The end of the round as the position text tells it ([`MatchPosition::round_end`]),
/// `None` while the round goes on.
pub fn match_round_end(text: &str) -> Result<Option<RoundEnd>, String> {
    Ok(MatchPosition::parse(text)?.round_end())
}

/// The first position of the next round after the finished round `text`, refilled from
/// `from` (`left` or `right`), with the round's end read from the text.
pub fn match_refill(text: &str, from: &str) -> Result<String, String> {
    let from = RefillFrom::parse(from)?;
    Ok(MatchPosition::parse(text)?
        .refill_after_round(from)?
        .to_text())
}

/// Black's and White's scores as the board of `text` shows them (a round that has just
/// ended is not counted yet).
pub fn match_score(text: &str) -> Result<(u32, u32), String> {
    let position = MatchPosition::parse(text)?;
    Ok((
        position.score(crate::Side::Black),
        position.score(crate::Side::White),
    ))
}

/// perft of a position text: the number of sequences of `depth` positive moves within the
/// round.
pub fn match_perft(text: &str, depth: u32) -> Result<u64, String> {
    Ok(MatchPosition::parse(text)?.perft(depth))
}

/// divide of a position text: for each first move (sorted), perft of `depth - 1` below it.
pub fn match_divide(text: &str, depth: u32) -> Result<Vec<(String, u64)>, String> {
    Ok(MatchPosition::parse(text)?.divide(depth))
}

/// Plays a match record from the position text `start` (its fourth field is the target).
pub fn match_play_record(start: &str, record: &str) -> Result<RecordOutcome, String> {
    play_record(&MatchPosition::parse(start)?, record)
}

/// The text of [`random_match`]`(seed, target, moves)`.
pub fn random_match_position(seed: u64, target: u32, moves: u32) -> Result<String, String> {
    Ok(random_match(seed, target, moves)?.to_text())
}

/// The text of [`random_push_position`]`(seed, target, moves)`: a position with a legal
/// push, `None` if the walk met none.
pub fn random_match_push_position(
    seed: u64,
    target: u32,
    moves: u32,
) -> Result<Option<String>, String> {
    Ok(random_push_position(seed, target, moves)?.map(|p| p.to_text()))
}

/// Who wins the round from `text` (`"win"` or `"loss"` for the player to move after any
/// pending chain) and its remoteness, by plain minimax cut off at `depth` moves; Err if
/// the round is not decided within `depth`.
pub fn match_round_solve(text: &str, depth: u32) -> Result<(String, u32), String> {
    let pos = MatchPosition::parse(text)?;
    let mut memo = super::search::RoundMemo::new();
    let (wins, r) = pos
        .solve_round_within(depth, &mut memo)
        .ok_or_else(|| format!("{text}: the round is not decided within {depth} moves"))?;
    Ok((if wins { "win" } else { "loss" }.to_owned(), r))
}

/// "win" or "loss" for the player to move after any pending chain of `text`, given the
/// winner of a search.
fn for_mover(text: &str, pos: &MatchPosition, winner: crate::Side) -> Result<String, String> {
    let mover = pos
        .resolved()
        .ok_or_else(|| format!("{text}: the round is over or cannot go on"))?
        .side_to_move();
    Ok(if winner == mover { "win" } else { "loss" }.to_owned())
}

/// Who wins the whole match from `text` (a round in play): `"win"` or `"loss"` for the
/// player to move after any pending chain, and the remoteness in moves and refill choices,
/// by plain minimax over rounds and refill choices cut off at `depth`; Err if the match is
/// not decided within `depth` steps.
pub fn match_whole_solve(text: &str, depth: u32) -> Result<(String, u32), String> {
    let pos = MatchPosition::parse(text)?;
    let mut memo = super::whole::WholeMemo::new();
    let (winner, r) = pos
        .solve_match_within(depth, &mut memo)
        .ok_or_else(|| format!("{text}: the match is not decided within {depth} steps"))?;
    Ok((for_mover(text, &pos, winner)?, r))
}

/// Whether `clincher` (`"b"` or `"w"`) can win the match within the round of `text`: the
/// round as a game the clincher wins only by ending the match in its favour. `"win"` or
/// `"loss"` for the player to move after any pending chain, and the remoteness in moves;
/// Err if not decided within `depth` moves.
pub fn match_clinch_solve(text: &str, clincher: &str, depth: u32) -> Result<(String, u32), String> {
    let clincher = match clincher {
        "b" => crate::Side::Black,
        "w" => crate::Side::White,
        other => return Err(format!("clincher must be b or w, got {other:?}")),
    };
    let pos = MatchPosition::parse(text)?;
    let mut memo = super::whole::WholeMemo::new();
    let (winner, r) = pos
        .solve_clinch_within(clincher, depth, &mut memo)
        .ok_or_else(|| format!("{text}: the clinch is not decided within {depth} moves"))?;
    Ok((for_mover(text, &pos, winner)?, r))
}
