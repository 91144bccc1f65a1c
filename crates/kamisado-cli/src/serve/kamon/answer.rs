//! One Kamon answer of `/api/query`: the analysis library's report of every legal cell
//! (`kamisado kamon solve --json`'s fields with each cell's result, see
//! [`kamisado_analysis::kamon::analyse`]), and beside it the board to draw and what the
//! time limit left unanswered.

use kamisado_analysis::kamon::{self, MovesReport};
use kamisado_analysis::GameKind;
use kamisado_solver::{Cancel, SolveError};
use kamon_core::{Cell, Player, Record};
use serde::Serialize;

use super::solvers::KamonSolvers;
use crate::commands::kamon::board;

/// What `/api/query?game=kamon` sends.
#[derive(Serialize)]
pub struct KamonAnswer {
    game: GameKind,
    /// The fields of `kamisado kamon solve --json`, `complete`, `pv_complete`, `end`,
    /// `legal_cells` and `cells`.
    #[serde(flatten)]
    report: MovesReport,
    /// Why the answer is incomplete, if it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
    /// Who moves and what they may play, or how the game ended, in words.
    status: String,
    /// The 37 cells in reading order (a1 .. g4): chip and piece.
    board: Vec<BoardCellJson>,
    /// The cell played last: its chip is the top of the stack.
    #[serde(skip_serializing_if = "Option::is_none")]
    last_move: Option<String>,
    /// The cell of the first-player chip, forbidden to both.
    forbidden: String,
}

#[derive(Serialize)]
struct BoardCellJson {
    cell: String,
    /// Like `5a` (five symbols `a`), or `--` for the first-player chip.
    chip: String,
    /// `black` or `white` if a piece stands there.
    #[serde(skip_serializing_if = "Option::is_none")]
    piece: Option<&'static str>,
}

/// Answers a request: blocking, bounded by `cancel`. `time_limit` (seconds) is only for
/// the messages when the search is stopped.
pub fn answer(
    solvers: &KamonSolvers,
    record: &Record,
    cancel: &Cancel,
    time_limit: f64,
) -> Result<KamonAnswer, SolveError> {
    let solver = solvers.for_layout(record.layout())?;
    let analysis = kamon::analyse(&solver, record, cancel, &|_| {})?;

    let message = if !analysis.complete() {
        Some(format!(
            "not solved within the time limit of {time_limit} s: {} of {} cells answered; \
             early positions take minutes or more (a later position is answered sooner)",
            analysis.answered.len(),
            analysis.legal.len()
        ))
    } else if !analysis.pv_complete {
        let shown = analysis.solution.as_ref().map_or(0, |s| s.pv.len());
        Some(format!(
            "time limit of {time_limit} s reached while following the perfect line: {shown} placements shown"
        ))
    } else {
        None
    };

    let layout = record.layout();
    let pos = record.position();
    let board = Cell::ALL
        .iter()
        .map(|&cell| BoardCellJson {
            cell: cell.to_string(),
            chip: layout.chip(cell).to_string(),
            piece: Player::ALL
                .into_iter()
                .find(|&p| pos.pieces(p).contains(cell))
                .map(Player::name),
        })
        .collect();
    let status = board::status(record)
        .lines()
        .next()
        .unwrap_or_default()
        .to_owned();
    Ok(KamonAnswer {
        game: GameKind::Kamon,
        report: MovesReport::of(&analysis),
        message,
        status,
        board,
        last_move: pos.last_move().map(|c| c.to_string()),
        forbidden: pos.forbidden().to_string(),
    })
}
