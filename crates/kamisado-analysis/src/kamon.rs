//! Kamon: one position and every cell, as `kamisado kamon solve`, the board (`serve`) and
//! the Python package answer it, and the perfect player of `kamisado kamon play`.
//!
//! A Kamon solver belongs to one layout (the layout is the game), so these calls take the
//! solver of the record's layout (`Solver::new(KamonGame::new(layout), options)`); a front
//! end keeps it between questions about the same layout, and what one search puts in its
//! table makes the next faster. Every call takes a [`Cancel`] (a time limit, an
//! interrupt, a closed connection); the solver's node count ([`Solver::nodes`]) is the
//! progress of a single search, which another thread may read.

use std::time::Instant;

use kamisado_solver::{
    Cancel, Game, Options, Outcome, Progress, Score, Solution, SolveError, Solver, Stage, Value,
};
use kamon_core::{Cell, EndReason, KamonGame, Layout, Player, Position, Record};
use serde::Serialize;

use crate::perfect_line::walk;
use crate::request::{random_record, RequestError};
use crate::survey_file::{Entry, MoveValue};
use crate::SearchStats;

/// Threads of a Kamon search for its value alone (`kamon solve --value-only`, `kamon
/// units solve`, `kamon prove`, a value-only survey) when none are asked for. The
/// proof-number search shares its table badly between threads on Kamon: on two threads it
/// searched 1.8 to 23 times the nodes of one and took longer (README, *Where the nodes go*), while the
/// full solve (remoteness and a perfect line) searches about the same nodes on two and
/// finishes sooner, so it keeps the solver's default of every core.
pub const VALUE_SEARCH_THREADS: usize = 1;

/// The threads of a Kamon search: those `asked` for, else one for a search of the value
/// alone ([`VALUE_SEARCH_THREADS`]), else none given (every core, the solver's default).
pub fn threads(asked: Option<usize>, value_only: bool) -> Option<usize> {
    asked.or(value_only.then_some(VALUE_SEARCH_THREADS))
}

/// What `kamisado kamon solve --json` prints, and the core of every Kamon answer with its
/// cells ([`MovesReport`]), so the two never disagree on a field.
#[derive(Clone, Debug, Serialize)]
pub struct SolveReport {
    pub layout: String,
    pub moves: Vec<String>,
    pub to_move: &'static str,
    /// For the side to move; `null` only in an answer cut short by its time limit.
    pub value: Option<Value>,
    /// `black`, `white` or `draw`; `null` with the value.
    pub winner: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remoteness: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pv: Option<Vec<String>>,
    /// How the perfect line ends: connection, loop, no legal cell or full board.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ends_by: Option<&'static str>,
    #[serde(flatten)]
    pub stats: SearchStats,
    /// For a position too early for one search: how its units proved it (or did not).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by_units: Option<ByUnits>,
    /// The game reported on, for a front end's own rendering.
    #[serde(skip)]
    pub record: Record,
}

impl SolveReport {
    /// The report on `record`'s position: its `value` if known, and the `solution` (best
    /// moves and a perfect line) if found.
    pub fn new(
        record: &Record,
        value: Option<Value>,
        solution: Option<&Solution<Cell>>,
        stats: SearchStats,
    ) -> SolveReport {
        let layout = record.layout();
        let pos = record.position();
        SolveReport {
            layout: layout.to_string(),
            moves: cells_text(record.moves()),
            to_move: pos.turn().name(),
            value,
            winner: value.map(|v| winner(pos.turn(), v)),
            remoteness: solution.map(|s| s.outcome.remoteness),
            best: solution.map(|s| cells_text(&s.best)),
            pv: solution.map(|s| cells_text(&s.pv)),
            ends_by: solution
                .and_then(|s| line_end(layout, pos, &s.pv))
                .map(|reason| reason.name()),
            stats,
            by_units: None,
            record: record.clone(),
        }
    }
}

/// A value proven by splitting the position into units, the positions `depth`
/// placements below it, each solved apart and merged by the AND/OR rule
/// ([`crate::units_file`], [`crate::units_run`]): how a position too early for one
/// search on this machine is solved.
#[derive(Clone, Debug, Serialize)]
pub struct ByUnits {
    pub depth: u32,
    /// Units solved side by side at most, one thread and a table of the report's
    /// `hash_mb` each (the report's `threads`).
    pub jobs: usize,
    /// What the units' results prove, as `kamon units merge` reports it.
    pub summary: crate::units_file::Summary,
}

/// How deep to split a position with `placed` placements made to solve its value, when
/// one search is out of this machine's reach: units two placements in (the deepest the
/// ladder of the README reaches with one search, 0.05 to 1.9 G nodes each on the empty
/// boards solved), so a split only before the second placement.
pub fn split_depth(placed: u32) -> Option<u32> {
    2u32.checked_sub(placed).filter(|&depth| depth > 0)
}

/// `record`'s position solved by `solver` (the solver of its layout), as `kamisado kamon
/// solve --json` reports it: with `value_only` the value alone (proof-number search),
/// else the remoteness, every best cell and a perfect line. A raised `cancel` stops it
/// with [`SolveError::Stopped`].
pub fn solve(
    solver: &Solver<KamonGame>,
    record: &Record,
    value_only: bool,
    cancel: &Cancel,
) -> Result<SolveReport, SolveError> {
    let started = Instant::now();
    let nodes_before = solver.nodes();
    let node = solver.game().node(record.position());
    let (value, solution) = if value_only {
        (solver.value(&node, cancel)?, None)
    } else {
        let s = solver.solve(&node, cancel)?;
        (s.outcome.value, Some(s))
    };
    let stats = SearchStats::since(solver, started, nodes_before);
    Ok(SolveReport::new(
        record,
        Some(value),
        solution.as_ref(),
        stats,
    ))
}

/// One legal cell answered exactly, for the player placing there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellAnswer {
    pub cell: Cell,
    /// The placer's score through the placement.
    pub score: Score,
    /// The position after it, for its own side to move.
    pub child_score: Score,
    /// The placer's outcome; the remoteness counts this placement.
    pub outcome: Outcome,
}

/// A Kamon position and its cells, as far as [`analyse`] got before it finished or was
/// stopped.
#[derive(Clone, Debug)]
pub struct KamonAnalysis {
    pub record: Record,
    /// Every legal cell, in reading order.
    pub legal: Vec<Cell>,
    /// The cells answered, in reading order: all of them unless the search was stopped.
    pub answered: Vec<CellAnswer>,
    /// The position's result once known (the rules' for a finished game, else the best
    /// cell's once every cell is answered), with its best cells and a perfect line.
    pub solution: Option<Solution<Cell>>,
    /// Whether the perfect line reaches the end of the game.
    pub pv_complete: bool,
    pub stats: SearchStats,
}

impl KamonAnalysis {
    /// Whether every legal cell was answered.
    pub fn complete(&self) -> bool {
        self.answered.len() == self.legal.len()
    }

    /// The best score among the cells answered.
    fn best_score(&self) -> Option<Score> {
        self.answered.iter().map(|a| a.score).max()
    }
}

/// Every legal cell of `record`'s position solved exactly, one after the other in reading
/// order, then the position's result, best cells and a perfect line derived from them.
///
/// Why cell by cell: the board needs every cell's result anyway, and once every cell is
/// solved the position's value, remoteness and best cells follow at no cost. It also makes
/// a stopped search truthful and still useful: the cells answered are exact, the others
/// unanswered, and the position's value is given only if every cell was answered.
/// `progress` is told after each cell (stage [`Stage::Remoteness`]: each is exact).
pub fn analyse(
    solver: &Solver<KamonGame>,
    record: &Record,
    cancel: &Cancel,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<KamonAnalysis, SolveError> {
    let game = solver.game();
    let started = Instant::now();
    let nodes_before = solver.nodes();
    let pos = *record.position();
    let node = game.node(&pos);

    let legal: Vec<Cell> = pos.legal_cells(record.layout()).collect();
    let mut answered: Vec<CellAnswer> = Vec::with_capacity(legal.len());
    for &cell in &legal {
        let child = game.play(&node, cell);
        let passed = game.player(&child) != game.player(&node);
        match solver.score(&child, cancel) {
            Ok(child_score) => answered.push(CellAnswer {
                cell,
                score: child_score.through_move(passed),
                child_score,
                outcome: child_score.outcome(game, &child).through_move(passed),
            }),
            Err(SolveError::Stopped) => break,
            Err(e) => return Err(e),
        }
        progress(Progress {
            stage: Stage::Remoteness,
            done: answered.len(),
            total: legal.len(),
        });
    }
    let complete = answered.len() == legal.len();

    // The position's result: the rules' for a finished game, else the best cell's.
    let best_score = answered.iter().map(|a| a.score).max();
    let (solution, pv_complete) = match (game.outcome(&node), complete, best_score) {
        (Some(value), _, _) => (
            Some(Solution {
                outcome: Outcome::new(value, 0),
                best: Vec::new(),
                pv: Vec::new(),
            }),
            true,
        ),
        (None, true, Some(best_score)) => {
            let best: Vec<&CellAnswer> =
                answered.iter().filter(|a| a.score == best_score).collect();
            let first = best[0];
            let child = game.play(&node, first.cell);
            let (rest, pv_complete) = perfect_line(solver, &child, first.child_score, cancel);
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
    Ok(KamonAnalysis {
        record: record.clone(),
        legal,
        answered,
        solution,
        pv_complete,
        stats: SearchStats::since(solver, started, nodes_before),
    })
}

/// `kamisado kamon solve --json`'s fields for a position, and every legal cell with its
/// result: what the board and the Python package answer about a Kamon position.
#[derive(Clone, Debug, Serialize)]
pub struct MovesReport {
    /// `value` and `winner` are `null`, and `remoteness`, `best`, `pv` and `ends_by`
    /// absent, unless every cell was answered.
    #[serde(flatten)]
    pub report: SolveReport,
    /// False if the search was stopped before every legal cell was answered.
    pub complete: bool,
    /// False if the perfect line stops before the end of the game (time limit).
    pub pv_complete: bool,
    /// How the game ended, if it has.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end: Option<EndJson>,
    /// Every legal cell, in reading order, answered or not.
    pub legal_cells: Vec<String>,
    /// The legal cells answered, best first: the result for the player placing there.
    pub cells: Vec<CellJson>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EndJson {
    /// `connection`, `loop`, `full board` or `no legal cell`.
    pub reason: &'static str,
    /// `black` or `white`; `null` for a draw.
    pub winner: Option<&'static str>,
    pub text: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CellJson {
    pub cell: String,
    /// For the player placing there.
    pub value: &'static str,
    /// Placements to the end, this one included.
    pub remoteness: u32,
    /// Whether it keeps the position's result (known only when every cell is answered).
    pub best: bool,
}

impl MovesReport {
    pub fn of(analysis: &KamonAnalysis) -> MovesReport {
        let record = &analysis.record;
        let pos = record.position();
        let complete = analysis.complete();
        let best_score = analysis.best_score();
        let mut cells: Vec<&CellAnswer> = analysis.answered.iter().collect();
        // A stable sort keeps equal cells in reading order.
        cells.sort_by_key(|a| std::cmp::Reverse(a.score));
        MovesReport {
            report: SolveReport::new(
                record,
                analysis.solution.as_ref().map(|s| s.outcome.value),
                analysis.solution.as_ref(),
                analysis.stats.clone(),
            ),
            complete,
            pv_complete: analysis.pv_complete,
            end: pos.end().map(|end| EndJson {
                reason: end.reason.name(),
                winner: end.winner.map(Player::name),
                text: end.to_string(),
            }),
            legal_cells: cells_text(&analysis.legal),
            cells: cells
                .into_iter()
                .map(|a| CellJson {
                    cell: a.cell.to_string(),
                    value: a.outcome.value.name(),
                    remoteness: a.outcome.remoteness,
                    best: complete && Some(a.score) == best_score,
                })
                .collect(),
        }
    }
}

/// [`analyse`] and [`MovesReport::of`] in one call: a Kamon position and every cell as the
/// board answers it.
pub fn query(
    solver: &Solver<KamonGame>,
    record: &Record,
    cancel: &Cancel,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<MovesReport, SolveError> {
    Ok(MovesReport::of(&analyse(solver, record, cancel, progress)?))
}

/// A perfect line from `pos`, whose exact score is `score`: at each step the first of the
/// best moves, as the solver's own line takes them, so the line is `kamisado kamon
/// solve`'s. Unlike the solver's line it cannot panic: where no move keeps the score (or
/// the time limit strikes) it stops, and says the line is incomplete.
pub fn perfect_line(
    solver: &Solver<KamonGame>,
    pos: &<KamonGame as Game>::Position,
    score: Score,
    cancel: &Cancel,
) -> (Vec<Cell>, bool) {
    walk(solver.game(), *pos, score, |pos, score| {
        solver.best_moves(pos, score, cancel).ok()?.first().copied()
    })
}

/// The perfect player's choice, and whether it is proven.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reply {
    pub cell: Cell,
    /// The outcome for the player making it, when proven.
    pub outcome: Option<Outcome>,
}

/// The perfect player's placement (`kamisado kamon play`): a win at once if there is one,
/// else the first best placement of a solve, else (the solve stopped by `cancel`) a
/// placement that hands the opponent no win at once if there is one, leaving them the
/// fewest legal cells. `None` for a finished game.
pub fn reply(solver: &Solver<KamonGame>, pos: &Position, cancel: &Cancel) -> Option<Reply> {
    let game = solver.game();
    let layout = game.layout();
    if pos.is_over() {
        return None;
    }
    if let Some(cell) = pos.winning_move(layout) {
        return Some(Reply {
            cell,
            outcome: Some(Outcome::new(Value::Win, 1)),
        });
    }
    if let Ok(solution) = solver.solve(&game.node(pos), cancel) {
        if let Some(&cell) = solution.best.first() {
            return Some(Reply {
                cell,
                outcome: Some(solution.outcome),
            });
        }
    }
    Some(Reply {
        cell: safe_looking(game, pos),
        outcome: None,
    })
}

/// A placement that hands the opponent no win at once if there is one, leaving them the
/// fewest legal cells.
fn safe_looking(game: &KamonGame, pos: &Position) -> Cell {
    let layout = game.layout();
    let legal = pos.legal_cells(layout);
    let handing = game.handing_over(pos.threats(!pos.turn()));
    let pool = if (legal - handing).any() {
        legal - handing
    } else {
        legal
    };
    pool.min_by_key(|&cell| pos.play_unchecked(layout, cell).count_moves(layout))
        .expect("an unfinished position has a legal cell")
}

/// How a game played from `pos` along `line` ends; `None` if the line stops before the end.
pub fn line_end(layout: &Layout, pos: &Position, line: &[Cell]) -> Option<EndReason> {
    let end = line
        .iter()
        .fold(*pos, |p, &cell| p.play_unchecked(layout, cell));
    end.end().map(|e| e.reason)
}

/// Who wins when `to_move` has `value`: `black`, `white` or `draw`.
pub fn winner(to_move: Player, value: Value) -> &'static str {
    match value {
        Value::Win => to_move.name(),
        Value::Loss => (!to_move).name(),
        Value::Draw => "draw",
    }
}

/// Cells as text.
pub fn cells_text(cells: &[Cell]) -> Vec<String> {
    cells.iter().map(|c| c.to_string()).collect()
}

/// What solving one layout of a survey found.
struct SurveySolved {
    value: Value,
    solution: Option<Solution<Cell>>,
    moves: Vec<(Cell, Value)>,
}

/// Checks that a survey run from `seed` of `layouts` layouts has a seed for each (layout
/// i is of seed `seed + i`).
pub fn survey_seeds(seed: u64, layouts: u64) -> Result<(), RequestError> {
    if layouts > 0 && seed.checked_add(layouts - 1).is_none() {
        return Err(RequestError::Invalid(format!(
            "--seed {seed} --layouts {layouts}: the layouts' seeds would pass 2^64 - 1"
        )));
    }
    Ok(())
}

/// Why a layout of a survey was not solved (a time limit is not a failure: the layout is
/// recorded unsolved).
#[derive(Debug, thiserror::Error)]
pub enum SurveyError {
    /// The layout cannot be made (see [`random_record`]).
    #[error(transparent)]
    Layout(RequestError),
    /// Its solver cannot start (a table too big for this machine, see
    /// [`table_too_big`](crate::limits::table_too_big)).
    #[error(transparent)]
    Solver(SolveError),
    /// The search failed.
    #[error(transparent)]
    Search(SolveError),
}

/// Layout `index` of the survey run from `seed` after `after` random placements
/// (`kamisado kamon survey`): the random layout of seed `seed + index` (see
/// [`survey_seeds`]) after its placements, solved by a fresh solver with `options` (so
/// one layout's table never helps another and the times compare), as the survey file
/// records it: its value, and unless `value_only` its remoteness and perfect line, and
/// every first placement's value. `time_limit` is what the caller gave `cancel` (it is
/// recorded); stopped by `cancel`, the entry has no value, which is how a survey records
/// a layout not solved in time.
#[allow(clippy::too_many_arguments)]
pub fn survey_entry(
    seed: u64,
    after: u32,
    index: u64,
    options: Options,
    value_only: bool,
    time_limit: Option<f64>,
    cancel: &Cancel,
) -> Result<Entry, SurveyError> {
    let layout_seed = seed.wrapping_add(index);
    let record = random_record(layout_seed, after).map_err(SurveyError::Layout)?;
    let solver = Solver::new(KamonGame::new(record.layout().clone()), options)
        .map_err(SurveyError::Solver)?;
    survey_layout(
        index,
        layout_seed,
        &record,
        &solver,
        value_only,
        time_limit,
        cancel,
    )
    .map_err(SurveyError::Search)
}

/// Layout `index` of a survey run: `record`, the layout of seed `seed` after its random
/// placements, solved by `solver`, a fresh solver of its layout (see [`survey_entry`]).
fn survey_layout(
    index: u64,
    seed: u64,
    record: &Record,
    solver: &Solver<KamonGame>,
    value_only: bool,
    time_limit: Option<f64>,
    cancel: &Cancel,
) -> Result<Entry, SolveError> {
    let (layout, pos) = (record.layout(), *record.position());
    let node = solver.game().node(&pos);
    let started = Instant::now();
    let solve = || -> Result<SurveySolved, SolveError> {
        if value_only {
            let moves = solver.move_values(&node, cancel)?;
            let value = moves.iter().map(|&(_, v)| v).max().unwrap_or(Value::Loss);
            Ok(SurveySolved {
                value,
                solution: None,
                moves,
            })
        } else {
            let solution = solver.solve(&node, cancel)?;
            let moves = solver.move_values(&node, cancel)?;
            Ok(SurveySolved {
                value: solution.outcome.value,
                solution: Some(solution),
                moves,
            })
        }
    };
    let solved = match solve() {
        Ok(solved) => Some(solved),
        Err(SolveError::Stopped) => None,
        Err(e) => return Err(e),
    };
    let seconds = started.elapsed().as_secs_f64();
    let value = solved.as_ref().map(|s| s.value);
    let solution = solved.as_ref().and_then(|s| s.solution.as_ref());
    Ok(Entry {
        index,
        seed,
        layout: layout.to_string(),
        moves: cells_text(record.moves()),
        to_move: pos.turn().name().to_string(),
        value: value.map(|v| v.name().to_string()),
        winner: value.map(|v| winner(pos.turn(), v).to_string()),
        remoteness: solution.map(|s| s.outcome.remoteness),
        pv: solution.map(|s| cells_text(&s.pv)),
        ends_by: solution
            .and_then(|s| line_end(layout, &pos, &s.pv))
            .map(|reason| reason.name().to_string()),
        first_moves: solved.as_ref().map(|s| {
            s.moves
                .iter()
                .map(|(cell, value)| MoveValue {
                    cell: cell.to_string(),
                    value: value.name().to_string(),
                })
                .collect()
        }),
        nodes: solver.nodes(),
        seconds: (seconds * 1000.0).round() / 1000.0,
        threads: solver.threads(),
        hash_mb: (solver.table().bytes() >> 20) as u64,
        time_limit,
        load: crate::load_average(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_two_first_placements_are_split_so_that_units_are_two_in() {
        let depths: Vec<Option<u32>> = (0..40).map(split_depth).collect();
        assert_eq!(depths[..3], [Some(2), Some(1), None]);
        assert!(depths[2..].iter().all(Option::is_none));
    }

    /// A survey layout solved holds together as the survey file checks an entry (its
    /// layout, placements, winner, first moves and perfect line), its value is the plain
    /// solver's, `value_only` gives the same value and first moves without the line, and
    /// a stopped search is recorded unsolved.
    #[test]
    fn a_survey_layout_is_an_entry_the_survey_file_accepts() {
        let options = Options {
            threads: 1,
            table_bytes: 16 << 20,
        };
        for (seed, after) in [(5, 14), (6, 14), (3, 12)] {
            let record = Record::random(seed, after).unwrap();
            let fresh = || Solver::new(KamonGame::new(record.layout().clone()), options).unwrap();
            let cancel = Cancel::new();
            let full = survey_layout(0, seed, &record, &fresh(), false, None, &cancel).unwrap();
            full.check(after).unwrap();
            let plain = fresh();
            let value = plain
                .value(&plain.game().node(record.position()), &cancel)
                .unwrap();
            assert_eq!(full.value.as_deref(), Some(value.name()));
            assert!(full.pv.is_some() && full.remoteness.is_some());
            let quick = survey_layout(0, seed, &record, &fresh(), true, None, &cancel).unwrap();
            quick.check(after).unwrap();
            assert_eq!(
                (&quick.value, &quick.first_moves),
                (&full.value, &full.first_moves)
            );
            assert!(quick.pv.is_none() && quick.remoteness.is_none());
            let stopped = Cancel::new();
            stopped.cancel();
            let unsolved =
                survey_layout(0, seed, &record, &fresh(), false, Some(1.0), &stopped).unwrap();
            unsolved.check(after).unwrap();
            assert_eq!((unsolved.value, unsolved.pv), (None, None));
        }
    }

    /// Layout i of a run from seed S is seed S + i's, solved as [`survey_layout`] solves
    /// it; a run whose seeds would pass 2^64 - 1 is refused before any layout.
    #[test]
    fn a_survey_entry_is_the_layout_of_its_seed_plus_its_index() {
        let options = Options {
            threads: 1,
            table_bytes: 16 << 20,
        };
        let cancel = Cancel::new();
        let entry = survey_entry(4, 14, 1, options, true, None, &cancel).unwrap();
        let record = Record::random(5, 14).unwrap();
        let solver = Solver::new(KamonGame::new(record.layout().clone()), options).unwrap();
        let direct = survey_layout(1, 5, &record, &solver, true, None, &cancel).unwrap();
        assert_eq!((entry.index, entry.seed), (1, 5));
        assert_eq!(
            (&entry.layout, &entry.value, &entry.first_moves),
            (&direct.layout, &direct.value, &direct.first_moves)
        );
        assert!(matches!(
            survey_entry(1, 40, 0, options, true, None, &cancel),
            Err(SurveyError::Layout(_))
        ));
        survey_seeds(u64::MAX, 1).unwrap();
        survey_seeds(0, 0).unwrap();
        assert_eq!(
            survey_seeds(u64::MAX, 2).unwrap_err().to_string(),
            format!(
                "--seed {} --layouts 2: the layouts' seeds would pass 2^64 - 1",
                u64::MAX
            )
        );
    }
}
