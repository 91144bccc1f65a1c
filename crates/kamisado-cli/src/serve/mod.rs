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
//!   goes away. One oracle, and so one solver table, serves every request: what one
//!   search learns makes the next faster.
//! - The assets are plain HTML, CSS and JavaScript compiled into the binary: no build step
//!   outside cargo, nothing to install beside the program.
//! - Games are named in every request (`game=kamisado`, the default) and listed by
//!   `/api/games`, so match play and Kamon can join through the same API shape.

mod answer;
mod api;
mod assets;
mod games;
pub mod opening_table;
mod perfect_line;

use std::sync::Arc;
use std::time::Duration;

use axum::routing::get;
use axum::Router;
use kamisado_db::Oracle;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

/// How the server shares the machine.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Each request's search stops after this long.
    pub time_limit: Duration,
    /// Searches running at once, at most.
    pub searches: usize,
}

/// What every request shares: the oracle and the permits to search.
pub struct App {
    oracle: Arc<Oracle>,
    permits: Arc<Semaphore>,
    settings: Settings,
}

impl App {
    pub fn new(oracle: Oracle, settings: Settings) -> App {
        App {
            oracle: Arc::new(oracle),
            permits: Arc::new(Semaphore::new(settings.searches.max(1))),
            settings,
        }
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
