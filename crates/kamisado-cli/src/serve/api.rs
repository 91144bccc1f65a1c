//! The JSON API's handlers: reading a request, waiting for a search permit, running the
//! search off the executor under the time limit, and answering.
//!
//! Every game goes the same way (read, wait for a permit, search, answer); only the reading
//! and the answer differ.
//!
//! Errors are JSON too, `{"error": "..."}`: 400 for bad input, with the message the
//! command line prints after `error: ` (both read requests with the analysis library); 503 when every search permit stays taken; 500 if
//! a search fails for a reason the input did not cause.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use kamisado_solver::Cancel;
use serde::{Deserialize, Serialize};

use kamisado_analysis::{Request, RequestText};

use super::answer::{answer, Answer, Request as KamisadoRequest};
use super::kamon;
use super::{games, App};
use kamisado_core::printable;

/// How long a request waits for a search permit before it is told to try again: long
/// enough for a click that follows a click, short enough that an overloaded server says
/// so at once.
const PERMIT_WAIT: Duration = Duration::from_secs(1);

/// The query string of `/api/query`. Empty values count as absent, as a form sends them.
#[derive(Deserialize)]
pub struct Params {
    game: Option<String>,
    position: Option<String>,
    moves: Option<String>,
    /// Match play: the points of a match from the standard start (3, 7 or 15).
    target: Option<String>,
    /// Kamon: the layout text, or the seed of a random layout and its random placements.
    layout: Option<String>,
    seed: Option<String>,
    after: Option<String>,
}

fn error(status: StatusCode, message: impl Into<String>) -> Response {
    let body = serde_json::json!({ "error": message.into() });
    (status, Json(body)).into_response()
}

/// Raises its flag when dropped: a request whose client has gone away (its handler is
/// dropped) stops its search.
struct CancelOnDrop(Arc<Cancel<'static>>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// `GET /api/query?game=kamisado&position=TEXT&moves=a1-a5+d8-d3`,
/// `GET /api/query?game=match&target=3&moves=g1-g7+h8-h6+g7-h8+left` (or `position=TEXT`
/// of a match, with its target), or `GET /api/query?game=kamon&layout=TEXT&moves=b1+d4` (`seed=N` instead of `layout`).
pub async fn query(
    State(app): State<Arc<App>>,
    params: Result<Query<Params>, QueryRejection>,
) -> Response {
    let params = match params {
        Ok(Query(params)) => params,
        Err(e) => {
            return error(
                StatusCode::BAD_REQUEST,
                format!("the query string cannot be read: {}", e.body_text()),
            )
        }
    };
    // Bad input is refused before it can take a permit.
    let text = RequestText {
        game: params.game.as_deref(),
        position: params.position.as_deref(),
        moves: params.moves.as_deref(),
        target: params.target.as_deref(),
        layout: params.layout.as_deref(),
        seed: params.seed.as_deref(),
        after: params.after.as_deref(),
    };
    let (game, line) = match Request::read(&text) {
        Ok(Request::Kamon(record)) => {
            let solvers = Arc::clone(&app.kamon);
            return search(&app, move |cancel, limit| {
                kamon::answer(&solvers, &record, cancel, limit)
            })
            .await;
        }
        Ok(Request::Kamisado { game, line }) => (game, line),
        Err(e) => return error(StatusCode::BAD_REQUEST, printable(&e.to_string())),
    };
    let request = KamisadoRequest { game, line };
    // An answer the database and the rules give whole (the book's positions) needs no
    // search: it is tried first with every search stopped before it starts, outside the
    // permits, so that it never waits behind running searches or gets 503.
    let shared = Arc::clone(&app);
    let quick_request = request.clone();
    let quick = tokio::task::spawn_blocking(move || {
        let stopped = Cancel::new();
        stopped.cancel();
        answer(&shared, &quick_request, &stopped, 0.0)
            .ok()
            .filter(Answer::is_complete)
    })
    .await;
    if let Ok(Some(answer)) = quick {
        return Json(answer).into_response();
    }
    let shared = Arc::clone(&app);
    search(&app, move |cancel, limit| {
        answer(&shared, &request, cancel, limit)
    })
    .await
}

/// Runs `work` (a search, given its cancellation flag and the time limit in seconds) under
/// a permit, off the executor, stopped by the time limit or when the client goes away;
/// answers with what it returns.
async fn search<T, E, W>(app: &App, work: W) -> Response
where
    T: Serialize + Send + 'static,
    E: std::fmt::Display + Send + 'static,
    W: FnOnce(&Cancel, f64) -> Result<T, E> + Send + 'static,
{
    let permit = match tokio::time::timeout(PERMIT_WAIT, app.permits.clone().acquire_owned()).await
    {
        Ok(Ok(permit)) => permit,
        _ => {
            let mut response = error(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "busy: {} searches are running; try again in a moment",
                    app.settings.searches
                ),
            );
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, header::HeaderValue::from_static("1"));
            return response;
        }
    };
    let cancel = Arc::new(Cancel::new());
    let _stop_if_dropped = CancelOnDrop(Arc::clone(&cancel));
    let limit = app.settings.time_limit;
    let search_cancel = Arc::clone(&cancel);
    let mut search = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        work(&search_cancel, limit.as_secs_f64())
    });
    let outcome = tokio::select! {
        done = &mut search => done,
        () = tokio::time::sleep(limit) => {
            // The search returns what it has answered so far.
            cancel.cancel();
            search.await
        }
    };
    match outcome {
        Ok(Ok(answer)) => Json(answer).into_response(),
        Ok(Err(e)) => error(StatusCode::INTERNAL_SERVER_ERROR, printable(&e.to_string())),
        Err(e) => error(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the search failed: {e}"),
        ),
    }
}

/// `GET /api/games`: the games for the selector.
pub async fn games() -> Response {
    Json(games::all()).into_response()
}

/// Anything else.
pub async fn not_found() -> Response {
    error(
        StatusCode::NOT_FOUND,
        "no such page: the board is at /, the API at /api/query and /api/games",
    )
}
