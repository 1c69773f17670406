//! The Bait endpoints (`/api/bait/…`) and the `bait_play` job through the real router: normal
//! paths checked against the bait crate's own rules, and the refusals.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use puzzle_bait::astar::shortest_win;
use puzzle_bait::{actions_to_string, builtin_level, parse_actions, BaitState, Level};
use serde_json::{json, Value};

mod common;
use common::*;

fn level(i: usize) -> BaitState {
    BaitState::new(builtin_level(i).unwrap())
}

/// What the endpoint should answer for `start` after `actions`, from the crate's own replay.
fn expected_state<const W: usize>(start: &BaitState<W>, actions: &str) -> Value {
    let end = start.replay(&parse_actions(actions).unwrap());
    let (x, y) = end.avatar_xy();
    json!({
        "width": end.level().width,
        "height": end.level().height,
        "rows": end.render().lines().collect::<Vec<_>>(),
        "avatar": [x, y],
        "tick": end.tick(),
        "max_ticks": 2000,
        "score": end.points(),
        "has_key": end.dy.has_key,
        "status": end.status().name(),
    })
}

async fn play(app: &axum::Router, body: Value) -> (StatusCode, Value) {
    call(app, post("/api/bait/play", &body)).await
}

#[tokio::test]
async fn the_five_levels_are_listed_with_their_text_and_size() {
    let (status, body) = call(&app(), get("/api/bait/levels")).await;
    assert_eq!(status, StatusCode::OK);
    let levels = body.as_array().unwrap();
    assert_eq!(levels.len(), 5);
    for (i, l) in levels.iter().enumerate() {
        assert_eq!(l["id"], i);
        assert_eq!(l["name"], format!("Bait level {i}"));
        let parsed = Level::parse(l["text"].as_str().unwrap()).unwrap();
        assert_eq!(parsed, builtin_level(i).unwrap());
        assert_eq!(
            (l["width"].clone(), l["height"].clone()),
            (json!(parsed.width), json!(parsed.height))
        );
    }
    assert_eq!(
        (levels[0]["width"].clone(), levels[0]["height"].clone()),
        (json!(5), json!(6))
    );
}

#[tokio::test]
async fn the_agents_are_the_job_layer_s() {
    let (status, body) = call(&app(), get("/api/bait/agents")).await;
    assert_eq!(status, StatusCode::OK);
    let names: Vec<&str> = body["agents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, puzzle_jobs::bait::AGENTS);
    assert!(body["agents"][3]["description"]
        .as_str()
        .unwrap()
        .contains("A*"));
    assert_eq!(body["default_budget_ms"], 40.0);
    assert_eq!(body["max_budget_ms"], 600000.0);
}

#[tokio::test]
async fn the_state_after_actions_is_the_crate_s_replay() {
    let app = app();
    for (i, actions) in [
        (0, ""),
        (0, "DLRN"),
        (2, "LLLUURRDD"),
        (4, "ULLRRDU"),
        (3, "RRRRDDL"),
    ] {
        let (status, body) = play(&app, json!({ "level": i, "actions": actions })).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["actions"], actions);
        assert_eq!(body["dropped"], 0);
        assert_eq!(
            body["state"],
            expected_state(&level(i), actions),
            "level {i} {actions}"
        );
    }
    // Lower case and spaces are accepted; the answer's actions are upper case.
    let (_, body) = play(&app, json!({ "level": 0, "actions": "d l" })).await;
    assert_eq!(body["actions"], "DL");
    assert_eq!(body["state"], expected_state(&level(0), "DL"));
    // A move into a wall spends a tick and moves nothing.
    let (_, body) = play(&app, json!({ "level": 0, "actions": "U" })).await;
    assert_eq!(body["state"]["tick"], 1);
    assert_eq!(body["state"]["avatar"], json!([2, 1]));
    assert_eq!(body["state"]["status"], "playing");
}

#[tokio::test]
async fn a_won_game_is_reported_won_and_later_actions_are_dropped() {
    let app = app();
    for i in 0..3 {
        let start = level(i);
        let plan = actions_to_string(&shortest_win(&start, 1_000_000, None).plan.unwrap());
        let (status, body) =
            play(&app, json!({ "level": i, "actions": format!("{plan}LR") })).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body["actions"], plan);
        assert_eq!(body["dropped"], 2);
        assert_eq!(body["state"]["status"], "won");
        assert_eq!(body["state"]["tick"], plan.len());
        assert_eq!(body["state"], expected_state(&start, &plan));
    }
}

#[tokio::test]
async fn a_fall_into_a_hole_is_a_loss() {
    // Level 1: the second step down is a hole.
    let (_, body) = play(&app(), json!({ "level": 1, "actions": "DD" })).await;
    assert_eq!(body["state"]["status"], "dead");
    assert_eq!(body["state"]["avatar"], json!([6, 5]));
    assert!(body["state"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| !r.as_str().unwrap().contains(['A', 'a'])));
}

#[tokio::test]
async fn a_pasted_level_is_played_with_the_key_held() {
    let text = "wwwwww\nwAk.gw\nwwwwww\n";
    let (status, body) = play(&app(), json!({ "text": text, "actions": "R" })).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["state"]["has_key"], true);
    assert_eq!(body["state"]["rows"][1], "w.a.gw");
    let (_, body) = play(&app(), json!({ "text": text, "actions": "RRR" })).await;
    assert_eq!(
        (
            body["state"]["status"].clone(),
            body["state"]["score"].clone()
        ),
        (json!("won"), json!(5))
    );
}

#[tokio::test]
async fn a_pasted_64_by_64_level_is_played_and_a_bigger_one_refused() {
    let app = app();
    let text = puzzle_bait::level::room(64, 64);
    // Three down the first column, then right onto a mushroom.
    let actions = "DDDR";
    let (status, body) = play(&app, json!({ "text": text, "actions": actions })).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let start = BaitState::new(Level::<64>::parse_width(&text).unwrap());
    assert_eq!(body["state"], expected_state(&start, actions));
    let state = &body["state"];
    assert_eq!(
        (
            state["width"].clone(),
            state["tick"].clone(),
            state["score"].clone()
        ),
        (json!(64), json!(4), json!(1))
    );
    let (status, e) = play(&app, json!({ "text": puzzle_bait::level::room(65, 64) })).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        (e["line"].clone(), e["column"].clone()),
        (json!(1), json!(1))
    );
    assert!(
        e["error"]
            .as_str()
            .unwrap()
            .contains("65x64 = 4160 cells; at most 4096 are supported"),
        "{e}"
    );
}

#[tokio::test]
async fn bad_play_requests_are_refused_with_a_clear_message() {
    let app = app();
    let refused = |body: Value| {
        let app = app.clone();
        async move {
            let (status, answer) = play(&app, body).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
            answer
        }
    };
    let e = refused(json!({ "level": 0, "actions": "RRxU" })).await;
    assert_eq!(e["error"], "actions: action 3: 'x' is not one of U D L R N");
    let e = refused(json!({ "level": 5 })).await;
    assert_eq!(e["error"], "level: there is no level 5 (0 to 4)");
    let e = refused(json!({ "actions": "R" })).await;
    assert!(
        e["error"].as_str().unwrap().starts_with("give a level"),
        "{e}"
    );
    let e = refused(json!({ "level": 0, "text": "wAgw" })).await;
    assert!(e["error"].as_str().unwrap().contains("not both"), "{e}");
    let e = refused(json!({ "level": "zero" })).await;
    assert!(
        e["error"].as_str().unwrap().starts_with("bad request body"),
        "{e}"
    );
    let (status, e) = call(&app, post_raw("/api/bait/play", "{not json".into())).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        e["error"].as_str().unwrap().starts_with("bad request body"),
        "{e}"
    );
}

#[tokio::test]
async fn a_bad_level_text_is_refused_with_its_line_and_column() {
    let app = app();
    let (status, e) = play(&app, json!({ "text": "wwww\nwAxw\nwgww\n" })).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        (e["line"].clone(), e["column"].clone()),
        (json!(2), json!(3))
    );
    assert!(
        e["error"]
            .as_str()
            .unwrap()
            .starts_with("pasted level: line 2, column 3: unknown character 'x'"),
        "{e}"
    );
    // A ragged row: the line, and the column where the row goes past the first row's width.
    let (status, e) = play(&app, json!({ "text": "wwww\nwAgww\nwwww" })).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        (e["line"].clone(), e["column"].clone()),
        (json!(2), json!(5))
    );
    assert!(e["error"].as_str().unwrap().contains("ragged row"), "{e}");
    // The whole level: its first line, no column.
    let (status, e) = play(&app, json!({ "text": "wwww\nw.gw\nwwww" })).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(e["line"] == json!(1) && e.get("column").is_none(), "{e}");
    assert!(e["error"].as_str().unwrap().contains("no avatar"), "{e}");
}

#[tokio::test]
async fn the_bait_endpoints_need_the_token() {
    let req = Request::get("/api/bait/levels")
        .header("host", HOST)
        .body(Body::empty())
        .unwrap();
    let (status, _) = call(&app(), req).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_bait_play_job_streams_timed_ticks_and_a_won_result() {
    let app = app();
    let events = events(
        &app,
        post(
            "/api/jobs",
            &json!({ "job": "bait_play", "level": 0, "agent": "astar-offline", "budget_ms": 40 }),
        ),
    )
    .await;
    let ticks: Vec<&Value> = events
        .iter()
        .filter(|(n, _)| n == "progress")
        .map(|(_, v)| v)
        .collect();
    let result = &events.iter().find(|(n, _)| n == "result").unwrap().1;
    assert_eq!(result["win"], true);
    assert_eq!(
        (result["score"].clone(), result["ticks"].clone()),
        (json!(5), json!(9))
    );
    // The result is the CLI's JSON line, without the tick fields.
    assert!(
        result.get("move_ms").is_none() && result.get("rows").is_none(),
        "{result}"
    );
    assert_eq!(ticks.len(), 10);
    assert!(ticks[0]["move_ms"].is_null() && ticks[0]["action"].is_null());
    for (i, t) in ticks.iter().enumerate().skip(1) {
        assert_eq!(t["tick"], i);
        assert!(t["move_ms"].as_f64().unwrap() >= 0.0, "{t}");
        assert!(t["move_wall_ms"].as_f64().unwrap() >= 0.0, "{t}");
    }
    // The last frame is the play endpoint's state after the result's actions.
    let (_, played) = play(&app, json!({ "level": 0, "actions": result["actions"] })).await;
    assert_eq!(played["state"]["rows"], ticks[9]["rows"]);
    assert_eq!(played["state"]["status"], "won");
    assert_eq!(ticks[9]["status"], "won");
    assert_eq!(events.last().unwrap().1["reason"], "done");
}

#[tokio::test]
async fn a_bait_play_job_on_a_bad_level_text_ends_with_its_position() {
    let events = events(
        &app(),
        post(
            "/api/jobs",
            &json!({ "job": "bait_play", "text": "wwww\nwAxw\nwgww" }),
        ),
    )
    .await;
    let error = &events.iter().find(|(n, _)| n == "error").unwrap().1;
    assert_eq!(
        (error["line"].clone(), error["column"].clone()),
        (json!(2), json!(3))
    );
    assert_eq!(events.last().unwrap().1["reason"], "error");
}
