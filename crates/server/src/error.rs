//! API errors: JSON `{"error": message}` with the CLI's message, plus the line and column of a
//! parse error.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use puzzle_bait::LevelError;
use puzzle_samegame::FormatError;
use puzzle_sokoban::XsbError;
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

    /// A 400 from a job-layer error, with the parse position when the cause has one.
    pub fn bad_request(e: &anyhow::Error) -> Self {
        let mut body = json!({ "error": format!("{e:#}") });
        if let Some(x) = e.chain().find_map(|c| c.downcast_ref::<XsbError>()) {
            body["line"] = json!(x.line);
            body["column"] = json!(x.column);
            body["level"] = json!(x.level);
        }
        if let Some(x) = e.chain().find_map(|c| c.downcast_ref::<FormatError>()) {
            if x.line > 0 {
                body["line"] = json!(x.line);
            }
            if let Some(column) = x.column {
                body["column"] = json!(column);
            }
        }
        if let Some(x) = e.chain().find_map(|c| c.downcast_ref::<LevelError>()) {
            // A Bait level: 0 means the problem concerns the whole level (or line).
            if x.line > 0 {
                body["line"] = json!(x.line);
            }
            if x.column > 0 {
                body["column"] = json!(x.column);
            }
        }
        if let Some(x) = e
            .chain()
            .find_map(|c| c.downcast_ref::<puzzle_sudoku::ParseError>())
        {
            body["line"] = json!(x.line);
            if let Some(column) = x.column {
                body["column"] = json!(column);
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
