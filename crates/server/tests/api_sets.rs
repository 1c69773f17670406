//! `GET /api/sets` and `GET /api/sets/{game}/{id}`: every bundled set of every game, and the
//! refusals (no token, an unknown set).

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use puzzle_jobs::data::{MICROBAN, SUDOKU_TOP95};
use serde_json::Value;
use tower::ServiceExt;

mod common;
use common::*;

async fn get(app: &axum::Router, path: &str, token: Option<&str>) -> (StatusCode, Value) {
    let mut req = Request::get(path).header("host", HOST);
    if let Some(token) = token {
        req = req.header("authorization", format!("Bearer {token}"));
    }
    let resp = app
        .clone()
        .oneshot(req.body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = resp.status();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

#[tokio::test]
async fn every_bundled_set_of_every_game_is_listed_with_its_item_count() {
    let (status, body) = get(&app(), "/api/sets", Some(TOKEN)).await;
    assert_eq!(status, StatusCode::OK);
    let sets = body.as_array().unwrap();
    let summary: Vec<(&str, &str, u64)> = sets
        .iter()
        .map(|s| {
            assert!(!s["name"].as_str().unwrap().is_empty());
            assert!(s.get("text").is_none(), "the list leaves the texts out");
            (
                s["game"].as_str().unwrap(),
                s["id"].as_str().unwrap(),
                s["items"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("sokoban", "microban", 155),
            ("sokoban", "xsokoban", 90),
            ("sokoban", "microban2", 135),
            ("sokoban", "sasquatch", 50),
            ("sokoban", "boxoban-hard", 1000),
            ("samegame", "standard20", 20),
            ("sudoku", "top95", 95),
            ("sudoku", "hardest11", 11),
            ("bait", "levels", 5),
        ]
    );
}

#[tokio::test]
async fn one_set_comes_with_its_text() {
    let app = app();
    let (status, body) = get(&app, "/api/sets/sokoban/microban", Some(TOKEN)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["name"], "Microban");
    assert_eq!(body["items"], 155);
    assert_eq!(body["text"], MICROBAN);
    let (status, body) = get(&app, "/api/sets/sudoku/top95", Some(TOKEN)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        (body["game"].as_str(), body["items"].as_u64()),
        (Some("sudoku"), Some(95))
    );
    assert_eq!(body["text"], SUDOKU_TOP95);
}

#[tokio::test]
async fn unknown_sets_and_missing_tokens_are_refused() {
    let app = app();
    let (status, body) = get(&app, "/api/sets/sokoban/top95", Some(TOKEN)).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(body["error"]
        .as_str()
        .unwrap()
        .contains("no bundled sokoban set 'top95'"));
    let (status, _) = get(&app, "/api/sets/chess/microban", Some(TOKEN)).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = get(&app, "/api/sets", None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _) = get(&app, "/api/sets/sokoban/microban", Some("wrong")).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}
