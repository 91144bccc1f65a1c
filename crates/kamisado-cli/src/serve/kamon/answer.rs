//! One Kamon answer of `/api/query`: `kamisado kamon solve --json`'s report, and every
//! legal cell with its result for the mover, the board to draw and how the game ended.
//!
//! Why the cells are searched first and the position's result derived from them: the
//! board needs every cell's result anyway, and once every cell is solved exactly the
//! position's value, remoteness and best cells follow at no cost (the best score among
//! the cells). Searching cell by cell also makes a search stopped by the time limit
//! truthful and still useful: the cells answered are exact, the others are unanswered,
//! and the position's value is given only if every cell was answered.

use std::time::Instant;

use kamisado_solver::{Cancel, Game, Score, Solution, SolveError, Solver};
use kamon_core::{Cell, KamonGame, Player};
use serde::Serialize;

use super::request::KamonRequest;
use super::solvers::KamonSolvers;
use crate::commands::kamon::search::SearchStats;
use crate::commands::kamon::solve::SolveReport;
use crate::commands::kamon::{board, input};
use crate::failure::{Failure, Result};

/// What `/api/query?game=kamon` sends.
#[derive(Serialize)]
pub struct KamonAnswer {
    game: &'static str,
    /// The fields of `kamisado kamon solve --json`. `value` and `winner` are `null`, and
    /// `remoteness`, `best`, `pv` and `ends_by` absent, unless every cell was answered.
    #[serde(flatten)]
    report: SolveReport,
    /// False if the time limit struck before every legal cell was answered.
    complete: bool,
    /// False if the perfect line stops before the end of the game (time limit).
    pv_complete: bool,
    /// Why the answer is incomplete, if it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
    /// Who moves and what they may play, or how the game ended, in words.
    status: String,
    /// How the game ended, if it has.
    #[serde(skip_serializing_if = "Option::is_none")]
    end: Option<EndJson>,
    /// Every legal cell, in reading order, answered or not.
    legal_cells: Vec<String>,
    /// The legal cells answered, best first: the result for the player placing there.
    cells: Vec<CellResultJson>,
    /// The 37 cells in reading order (a1 .. g4): chip and piece.
    board: Vec<BoardCellJson>,
    /// The cell played last: its chip is the top of the stack.
    #[serde(skip_serializing_if = "Option::is_none")]
    last_move: Option<String>,
    /// The cell of the first-player chip, forbidden to both.
    forbidden: String,
}

#[derive(Serialize)]
struct EndJson {
    /// `connection`, `loop`, `full board` or `no legal cell`.
    reason: &'static str,
    /// `black` or `white`; `null` for a draw.
    winner: Option<&'static str>,
    text: String,
}

#[derive(Serialize)]
struct CellResultJson {
    cell: String,
    /// For the player placing there.
    value: &'static str,
    /// Placements to the end, this one included.
    remoteness: u32,
    /// Whether it keeps the position's result (known only when every cell is answered).
    best: bool,
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

/// One legal cell answered: its score for the mover through the placement, and the
/// child position's own exact score.
struct Answered {
    cell: Cell,
    score: Score,
    child_score: Score,
    outcome: kamisado_solver::Outcome,
}

/// Answers a request: blocking, bounded by `cancel`. `time_limit` (seconds) is only for
/// the messages when the search is stopped.
pub fn answer(
    solvers: &KamonSolvers,
    request: &KamonRequest,
    cancel: &Cancel,
    time_limit: f64,
) -> Result<KamonAnswer> {
    let record = &request.record;
    let solver = solvers.for_layout(record.layout())?;
    let game = solver.game();
    let started = Instant::now();
    let nodes_before = solver.nodes();
    let pos = *record.position();
    let node = game.node(&pos);

    let legal: Vec<Cell> = pos.legal_cells(record.layout()).collect();
    let mut answered: Vec<Answered> = Vec::with_capacity(legal.len());
    for &cell in &legal {
        let child = game.play(&node, cell);
        let passed = game.player(&child) != game.player(&node);
        match solver.score(&child, cancel) {
            Ok(child_score) => answered.push(Answered {
                cell,
                score: child_score.through_move(passed),
                child_score,
                outcome: child_score.outcome(game, &child).through_move(passed),
            }),
            Err(SolveError::Stopped) => break,
            Err(e) => return Err(Failure::internal(e)),
        }
    }
    let complete = answered.len() == legal.len();

    // The position's result: the rules' for a finished game, else the best cell's.
    let best_score = answered.iter().map(|a| a.score).max();
    let (solution, pv_complete) = match (game.outcome(&node), complete, best_score) {
        (Some(value), _, _) => (
            Some(Solution {
                outcome: kamisado_solver::Outcome::new(value, 0),
                best: Vec::new(),
                pv: Vec::new(),
            }),
            true,
        ),
        (None, true, Some(best_score)) => {
            let best: Vec<&Answered> = answered.iter().filter(|a| a.score == best_score).collect();
            let first = best[0];
            let child = game.play(&node, first.cell);
            let (rest, pv_complete) = perfect_line(&solver, &child, first.child_score, cancel);
            let mut pv = vec![first.cell];
            pv.extend(rest);
            (
                Some(Solution {
                    outcome: first.outcome,
                    best: best.iter().map(|a| a.cell).collect(),
                    pv,
                }),
                pv_complete,
            )
        }
        _ => (None, false),
    };

    let message = if !complete {
        Some(format!(
            "not solved within the time limit of {time_limit} s: {} of {} cells answered; \
             early positions take minutes or more (a later position is answered sooner)",
            answered.len(),
            legal.len()
        ))
    } else if !pv_complete {
        let shown = solution.as_ref().map_or(0, |s| s.pv.len());
        Some(format!(
            "time limit of {time_limit} s reached while following the perfect line: {shown} placements shown"
        ))
    } else {
        None
    };

    let mut cells: Vec<&Answered> = answered.iter().collect();
    // A stable sort keeps equal cells in reading order.
    cells.sort_by_key(|a| std::cmp::Reverse(a.score));
    let cells = cells
        .into_iter()
        .map(|a| CellResultJson {
            cell: a.cell.to_string(),
            value: a.outcome.value.name(),
            remoteness: a.outcome.remoteness,
            best: complete && Some(a.score) == best_score,
        })
        .collect();

    let stats = SearchStats::since(&solver, started, nodes_before);
    let layout = record.layout();
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
        game: "kamon",
        report: SolveReport::new(
            record,
            solution.as_ref().map(|s| s.outcome.value),
            solution.as_ref(),
            stats,
        ),
        complete,
        pv_complete,
        message,
        status,
        end: pos.end().map(|end| EndJson {
            reason: end.reason.name(),
            winner: end.winner.map(Player::name),
            text: end.to_string(),
        }),
        legal_cells: input::cells_text(&legal),
        cells,
        board,
        last_move: pos.last_move().map(|c| c.to_string()),
        forbidden: pos.forbidden().to_string(),
    })
}

/// A perfect line from `pos`, whose exact score is `score`: at each step the first of the
/// best moves, as the solver's own line takes them, so the line is `kamisado kamon
/// solve`'s. Unlike the solver's line it cannot panic: where no move keeps the score (or
/// the time limit strikes) it stops, and says the line is incomplete.
fn perfect_line(
    solver: &Solver<KamonGame>,
    pos: &<KamonGame as Game>::Position,
    score: Score,
    cancel: &Cancel,
) -> (Vec<Cell>, bool) {
    let game = solver.game();
    let (mut pos, mut score) = (*pos, score);
    let mut line = Vec::new();
    while game.outcome(&pos).is_none() {
        let m = match solver.best_moves(&pos, score, cancel) {
            Ok(best) if !best.is_empty() => best[0],
            _ => return (line, false),
        };
        let child = game.play(&pos, m);
        score = score.child_bound(game.player(&child) != game.player(&pos));
        line.push(m);
        pos = child;
    }
    (line, true)
}
