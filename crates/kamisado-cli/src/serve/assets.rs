//! The page and its assets, compiled into the binary: plain HTML, CSS and JavaScript, no
//! build step outside cargo and nothing to install beside the program.

use axum::http::header;
use axum::response::{Html, IntoResponse, Response};

const PAGE: &str = include_str!("assets/index.html");
const STYLE: &str = include_str!("assets/app.css");
const SCRIPT: &str = include_str!("assets/app.js");

/// The assets change only with the binary; a browser asks again each time (a local
/// server answers at once) so that a new build is never hidden by an old copy.
const NO_CACHE: (header::HeaderName, &str) = (header::CACHE_CONTROL, "no-cache");

pub async fn page() -> Response {
    ([NO_CACHE], Html(PAGE)).into_response()
}

pub async fn style() -> Response {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8"), NO_CACHE],
        STYLE,
    )
        .into_response()
}

pub async fn script() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/javascript; charset=utf-8"),
            NO_CACHE,
        ],
        SCRIPT,
    )
        .into_response()
}
