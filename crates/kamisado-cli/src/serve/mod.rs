//! The analysis board's web server: one page and a small JSON API on axum.
//!
//! Why this shape:
//! - The page has no rules of its own. Every answer carries what the board needs (the
//!   legal moves, each with its value and remoteness, the line played with the zero-length
//!   moves each move caused, a perfect line), all computed by the rules core and the
//!   oracle, so the browser never decides what is legal or what a move leads to.
//! - The answer is `query --json`'s report ([`crate::analysis`]) plus those fields, so the
//!   command line and the page can never disagree on a value.
//! - Searches are CPU-bound and blocking: they run on tokio's blocking threads, never on
//!   the executor, at most [`Settings::searches`] at once (a request finding them all busy
//!   waits briefly, then gets 503), each stopped by the time limit or when its client
//!   goes away. One oracle, and so one solver table, serves every single round and every
//!   round of a match without a Sumo: what one search learns makes the next faster. Rounds
//!   with a Sumo on the board have a second oracle, the one `query --target N` uses for
//!   them, whose table is made at the first such question (so a server that never sees
//!   one costs no more memory).
//! - The assets are plain HTML, CSS and JavaScript compiled into the binary: no build step
//!   outside cargo, nothing to install beside the program.
//! - Games are named in every request (`game=kamisado`, the default, `game=match` or
//!   `game=kamon`) and listed by `/api/games`. Match play is the single round's answer
//!   with the match's standing and the towers' ranks beside it ([`answer`]). Kamon
//!   answers come from `kamisado kamon`'s own reader, solver and report ([`kamon`]).
//! - With a whole-match proof file (`--match-db`), match play's moves also get their match
//!   values, from the library call `whole-match query` makes ([`match_values`]).

mod answer;
mod api;
mod assets;
mod games;
mod kamon;
mod match_values;
pub mod opening_table;

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use axum::routing::get;
use axum::Router;
use kamisado_analysis::{Oracle, OracleError, Rounds};
use kamisado_match::MatchPosition;
use kamisado_solver::{Options, SolveError};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

pub use match_values::MatchProofs;

/// How the server shares the machine.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Each request's search stops after this long.
    pub time_limit: Duration,
    /// Searches running at once, at most.
    pub searches: usize,
}

/// What every request shares: the oracles, the Kamon solver and the permits to search.
pub struct App {
    /// Single rounds, and rounds of a match without a Sumo (with the database).
    oracle: Arc<Oracle>,
    /// Rounds with a Sumo on the board: made at the first question about one.
    sumo_oracle: OnceLock<Result<Arc<Oracle>, SolveError>>,
    /// The threads and table size of every solver made after the start.
    options: Options,
    kamon: Arc<kamon::KamonSolvers>,
    /// `--match-db`: the whole-match proofs that give moves their match values.
    match_proofs: Option<MatchProofs>,
    permits: Arc<Semaphore>,
    settings: Settings,
}

impl App {
    /// `options` (threads, table size) make the match rounds' oracle and Kamon's solvers,
    /// one layout at a time.
    pub fn new(oracle: Oracle, options: Options, settings: Settings) -> App {
        App {
            oracle: Arc::new(oracle),
            sumo_oracle: OnceLock::new(),
            kamon: Arc::new(kamon::KamonSolvers::new(options)),
            options,
            match_proofs: None,
            permits: Arc::new(Semaphore::new(settings.searches.max(1))),
            settings,
        }
    }

    /// The app answering match values from `proofs` too (`serve --match-db`).
    pub fn with_match_proofs(self, proofs: MatchProofs) -> App {
        App {
            match_proofs: Some(proofs),
            ..self
        }
    }
}

impl App {
    /// The oracle for `pos`'s round, as `query` chooses one: the single-round oracle for
    /// a round without a Sumo, else the match rounds' (made now if this is the first
    /// question about such a round: blocking, a table is allocated).
    fn oracle_for(&self, pos: &MatchPosition) -> Result<Arc<Oracle>, SearchError> {
        if Rounds::of(&pos.resolve()) == Rounds::Plain {
            return Ok(Arc::clone(&self.oracle));
        }
        self.sumo_oracle
            .get_or_init(|| Oracle::with_budget(None, self.options, Rounds::Sumo).map(Arc::new))
            .clone()
            .map_err(SearchError::Solver)
    }
}

/// Why a search could not answer (the request was read, so not the visitor's fault):
/// the cause kept, printed as one line.
#[derive(Debug)]
pub enum SearchError {
    Oracle(OracleError),
    /// A solver (a table for a kind of round or a Kamon layout) could not be made, or
    /// failed.
    Solver(SolveError),
}

impl std::fmt::Display for SearchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SearchError::Oracle(e) => e.fmt(f),
            SearchError::Solver(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SearchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SearchError::Oracle(e) => Some(e),
            SearchError::Solver(e) => Some(e),
        }
    }
}

impl From<OracleError> for SearchError {
    fn from(e: OracleError) -> SearchError {
        SearchError::Oracle(e)
    }
}

impl From<SolveError> for SearchError {
    fn from(e: SolveError) -> SearchError {
        SearchError::Solver(e)
    }
}

/// The routes: the page, its assets, the API.
fn router(app: App) -> Router {
    Router::new()
        .route("/", get(assets::page))
        .route("/app.css", get(assets::style))
        .route("/app.js", get(assets::script))
        .route("/api/games", get(api::games))
        .route("/api/query", get(api::query))
        .fallback(api::not_found)
        .with_state(Arc::new(app))
}

/// Serves until the process ends: an interrupt (Ctrl-C) ends it the way it ends every
/// command (`crate::shutdown`), which also stops the searches in progress.
pub async fn run(listener: TcpListener, app: App) -> std::io::Result<()> {
    axum::serve(listener, router(app)).await
}
