//! What the API tests share: a router with a known token, requests that carry it, and readers
//! for JSON answers and server-sent-event streams (each test file is its own crate and uses a
//! part).
#![allow(dead_code)]

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use puzzle_server::{router, state, ServerConfig};
use serde_json::Value;
use tower::ServiceExt;

/// The token of the test server.
pub const TOKEN: &str = "test-token-0123456789";
/// The Host the test server answers to.
pub const HOST: &str = "127.0.0.1:8765";

/// The router of a server bound to [`HOST`] with [`TOKEN`] and at most `max_jobs` searches.
pub fn app_with(max_jobs: usize) -> axum::Router {
    let config = ServerConfig {
        max_jobs,
        ..ServerConfig::default()
    };
    router(state(&config, HOST.parse().unwrap(), TOKEN.into()))
}

/// [`app_with`] two searches at once.
pub fn app() -> axum::Router {
    app_with(2)
}

/// `GET path` with the Host and the token.
pub fn get(path: &str) -> Request<Body> {
    Request::get(path)
        .header("host", HOST)
        .header("authorization", format!("Bearer {TOKEN}"))
        .body(Body::empty())
        .unwrap()
}

/// `POST path` with a JSON body text, the Host and the token.
pub fn post_raw(path: &str, body: String) -> Request<Body> {
    Request::post(path)
        .header("host", HOST)
        .header("authorization", format!("Bearer {TOKEN}"))
        .header("content-type", "application/json")
        .body(Body::from(body))
        .unwrap()
}

/// `POST path` with a JSON body, the Host and the token.
pub fn post(path: &str, body: &Value) -> Request<Body> {
    post_raw(path, body.to_string())
}

/// The status and the JSON body (`null` when the body is not JSON).
pub async fn call(app: &axum::Router, req: Request<Body>) -> (StatusCode, Value) {
    let resp = app.clone().oneshot(req).await.unwrap();
    let status = resp.status();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    let value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (status, value)
}

/// The `(event, data)` pairs of a server-sent-event text.
pub fn parse_sse(text: &str) -> Vec<(String, Value)> {
    text.split("\n\n")
        .filter_map(|block| {
            let name = block.lines().find_map(|l| l.strip_prefix("event: "))?;
            let data = block.lines().find_map(|l| l.strip_prefix("data: "))?;
            Some((name.to_string(), serde_json::from_str(data).ok()?))
        })
        .collect()
}

/// The `(event, data)` pairs of a whole stream (the answer must be 200).
pub async fn events(app: &axum::Router, req: Request<Body>) -> Vec<(String, Value)> {
    let resp = app.clone().oneshot(req).await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    parse_sse(&String::from_utf8_lossy(&bytes))
}

/// A `DELETE` of `path` with the test host and token.
pub fn delete(path: &str) -> Request<Body> {
    Request::delete(path)
        .header("host", HOST)
        .header("authorization", format!("Bearer {TOKEN}"))
        .body(Body::empty())
        .unwrap()
}

/// Read a job's stream until its `started` event, keeping what was read in `text`; the job's id.
pub async fn started_id(body: &mut Body, text: &mut String) -> String {
    loop {
        let frame = body.frame().await.unwrap().unwrap();
        if let Some(data) = frame.data_ref() {
            text.push_str(&String::from_utf8_lossy(data));
        }
        if let Some((_, started)) = parse_sse(text).into_iter().find(|(n, _)| n == "started") {
            return started["id"].as_str().unwrap().to_string();
        }
    }
}
