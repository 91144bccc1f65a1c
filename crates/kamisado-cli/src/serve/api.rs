//! The JSON API's handlers: reading a request, waiting for a search permit, running the
//! search off the executor under the time limit, and answering.
//!
//! Errors are JSON too, `{"error": "..."}`: 400 for bad input, with the message the
//! command line prints after `error: `; 503 when every search permit stays taken; 500 if
//! a search fails for a reason the input did not cause.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use kamisado_solver::Cancel;
use serde::Deserialize;

use super::answer::{answer, Request};
use super::{games, App};

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
}

fn given(value: Option<String>) -> Option<String> {
    value.filter(|v| !v.trim().is_empty())
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

/// `GET /api/query?game=kamisado&position=TEXT&moves=a1-a5+d8-d3`.
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
    let game = match games::served(given(params.game).as_deref()) {
        Ok(game) => game,
        Err(message) => return error(StatusCode::BAD_REQUEST, message),
    };
    // Bad input is refused before it can take a permit.
    let request = match Request::read(game, given(params.position), given(params.moves)) {
        Ok(request) => request,
        Err(failure) => return error(StatusCode::BAD_REQUEST, failure.message()),
    };
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
    let oracle = Arc::clone(&app.oracle);
    let limit = app.settings.time_limit;
    let search_cancel = Arc::clone(&cancel);
    let mut search = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        answer(&oracle, &request, &search_cancel, limit.as_secs_f64())
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
        Ok(Err(failure)) => error(StatusCode::INTERNAL_SERVER_ERROR, failure.message()),
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
