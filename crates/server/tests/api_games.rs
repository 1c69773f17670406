//! `GET /api/games` and `POST /api/games/{game}/check`: the game registry as the page sees it.
//! A check answers `200` whether the text reads or not, with the reader's position.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{json, Value};

mod common;
use common::*;

#[tokio::test]
async fn every_registered_game_is_listed_with_its_sets() {
    let request = Request::get("/api/games")
        .header("host", HOST)
        .header("authorization", format!("Bearer {TOKEN}"))
        .body(Body::empty())
        .unwrap();
    let (status, body) = call(&app(), request).await;
    assert_eq!(status, StatusCode::OK);
    let names: Vec<&str> = body
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    let registered: Vec<&str> = puzzle_jobs::games::GAMES.iter().map(|g| g.name).collect();
    assert_eq!(names, registered);
    let sokoban = &body[0];
    assert!(sokoban["sets"]
        .as_array()
        .unwrap()
        .contains(&json!("microban")));
}

#[tokio::test]
async fn a_check_says_where_a_text_is_wrong_without_failing() {
    let app = app();
    let check = |game: &str, text: &str| {
        post(
            &format!("/api/games/{game}/check"),
            &json!({ "text": text }),
        )
    };
    let (status, body) = call(&app, check("sokoban", "#####\n#@$.#\n#####\n")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body, json!({ "valid": true, "items": 1 }));
    let (status, body) = call(&app, check("sokoban", "#####\n#-$.#\n#####\n")).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["valid"], false);
    assert!(body["error"].as_str().unwrap().contains("player"), "{body}");
    assert_eq!(
        (body["line"].clone(), body["level"].clone()),
        (json!(1), json!(1))
    );
    let (status, body) = call(&app, check("sudoku", "1234341221434X21\n")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        (
            body["valid"].clone(),
            body["line"].clone(),
            body["column"].clone()
        ),
        (json!(false), json!(1), json!(14))
    );
    let (status, body): (StatusCode, Value) = call(&app, check("chess", "")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(
        body["error"].as_str().unwrap().contains("sokoban"),
        "{body}"
    );
}
