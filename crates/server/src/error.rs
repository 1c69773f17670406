//! API errors: JSON `{"error": message}` with the CLI's message, plus the line and column of a
//! parse error.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

/// An error answered as JSON with a status.
#[derive(Debug)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// The JSON body (`error`, and for parse errors `line`, `column`, `level`).
    pub body: serde_json::Value,
}

impl ApiError {
    /// An error with just a message.
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        ApiError {
            status,
            body: json!({ "error": message.into() }),
        }
    }

    /// A 400 from a job-layer error, with the parse position when the cause is a game's parse
    /// error (found by the game registry, [`puzzle_jobs::games::text_error`]): `line`, and
    /// `column` and `level` (the item's number in the text) when known.
    pub fn bad_request(e: &anyhow::Error) -> Self {
        let mut body = json!({ "error": format!("{e:#}") });
        if let Some(place) = puzzle_jobs::games::text_error(e) {
            body["line"] = json!(place.line);
            if let Some(column) = place.column {
                body["column"] = json!(column);
            }
            if let Some(item) = place.item {
                body["level"] = json!(item);
            }
        }
        ApiError {
            status: StatusCode::BAD_REQUEST,
            body,
        }
    }
}

impl From<anyhow::Error> for ApiError {
    fn from(e: anyhow::Error) -> Self {
        ApiError::bad_request(&e)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(self.body)).into_response()
    }
}

/// Every `/api/` path no route takes: a JSON 404 naming it.
pub async fn no_endpoint(method: axum::http::Method, uri: axum::http::Uri) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        format!("no API endpoint {method} {} (see docs/API.md)", uri.path()),
    )
}
