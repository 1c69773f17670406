//! The API's normal paths and its refusals, through the real router (and a real socket where a
//! client has to go away).

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use puzzle_jobs::data::MICROBAN;
use puzzle_server::{router, state, ServerConfig};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tower::ServiceExt;

mod common;
use common::*;

#[tokio::test]
async fn the_token_is_required_and_checked() {
    let app = app_with(2);
    let no_token = Request::get("/api/info")
        .header("host", HOST)
        .body(Body::empty())
        .unwrap();
    let (status, body) = call(&app, no_token).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(body["error"].as_str().unwrap().contains("token"));
    let wrong = Request::get("/api/info")
        .header("host", HOST)
        .header("authorization", "Bearer nope")
        .body(Body::empty())
        .unwrap();
    assert_eq!(call(&app, wrong).await.0, StatusCode::FORBIDDEN);
    let in_query = Request::get(format!("/api/info?token={TOKEN}"))
        .header("host", HOST)
        .body(Body::empty())
        .unwrap();
    let (status, body) = call(&app, in_query).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["max_jobs"], 2);
}

#[tokio::test]
async fn a_foreign_host_or_origin_is_refused() {
    let app = app_with(2);
    let rebinding = Request::get("/api/info")
        .header("host", "attacker.example:8765")
        .header("authorization", format!("Bearer {TOKEN}"))
        .body(Body::empty())
        .unwrap();
    assert_eq!(call(&app, rebinding).await.0, StatusCode::FORBIDDEN);
    let page = Request::get("/")
        .header("host", "attacker.example")
        .body(Body::empty())
        .unwrap();
    assert_eq!(call(&app, page).await.0, StatusCode::FORBIDDEN);
    let mut cross = post("/api/sokoban/parse", &json!({ "xsb": MICROBAN }));
    cross
        .headers_mut()
        .insert("origin", "http://attacker.example".parse().unwrap());
    assert_eq!(call(&app, cross).await.0, StatusCode::FORBIDDEN);
    let mut own = post("/api/sokoban/parse", &json!({ "xsb": MICROBAN }));
    own.headers_mut()
        .insert("origin", format!("http://{HOST}").parse().unwrap());
    assert_eq!(call(&app, own).await.0, StatusCode::OK);
    let mut req = get("/api/info");
    req.headers_mut()
        .insert("host", "localhost:8765".parse().unwrap());
    assert_eq!(call(&app, req).await.0, StatusCode::OK);
}

#[tokio::test]
async fn the_page_is_served_without_a_token() {
    let app = app_with(2);
    let resp = app
        .clone()
        .oneshot(
            Request::get("/")
                .header("host", HOST)
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    assert!(resp.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    let html = resp.into_body().collect().await.unwrap().to_bytes();
    assert!(String::from_utf8_lossy(&html).contains("app.js"));
    let missing = Request::get("/nope.js")
        .header("host", HOST)
        .body(Body::empty())
        .unwrap();
    assert_eq!(call(&app, missing).await.0, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn an_oversized_body_is_refused_with_413() {
    let app = app_with(2);
    let huge = "#".repeat(puzzle_server::BODY_LIMIT + 10);
    let (status, body) = call(&app, post("/api/sokoban/parse", &json!({ "xsb": huge }))).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(body["error"].as_str().unwrap().contains("limit"));
}

#[tokio::test]
async fn malformed_xsb_is_a_400_naming_line_and_column() {
    let app = app_with(2);
    let xsb = "#####\n#@$.#\n#  x#\n#####\n";
    let (status, body) = call(&app, post("/api/sokoban/parse", &json!({ "xsb": xsb }))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        (body["line"].as_u64(), body["column"].as_u64()),
        (Some(3), Some(4))
    );
    assert!(
        body["error"].as_str().unwrap().contains("line 3, column 4"),
        "{body}"
    );
    let (status, body) = call(
        &app,
        post("/api/sokoban/parse", &json!({ "xsb": MICROBAN })),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["levels"].as_array().unwrap().len(), 155);
}

#[tokio::test]
async fn sets_are_listed_and_served() {
    let app = app_with(2);
    let (status, sets) = call(&app, get("/api/sokoban/sets")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(sets[0]["id"], "microban");
    assert_eq!(sets[0]["levels"], 155);
    let (status, set) = call(&app, get("/api/sokoban/sets/xsokoban")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(set["levels"].as_array().unwrap().len(), 90);
    let (status, _) = call(&app, get("/api/sokoban/sets/nope")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn play_steps_pushes_walks_and_refuses_bad_moves() {
    let app = app_with(2);
    let xsb = "######\n#@ $.#\n#    #\n######\n";
    let step = |moves: &str, action: Value| {
        post(
            "/api/sokoban/play",
            &json!({ "xsb": xsb, "moves": moves, "action": action }),
        )
    };
    let (status, body) = call(&app, step("", json!({ "step": "r" }))).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["moves"], "r");
    let (_, body) = call(&app, step("r", json!({ "step": "R" }))).await;
    assert_eq!(
        body["moves"], "rR",
        "the server decides that this step pushes"
    );
    assert_eq!(body["state"]["solved"], true);
    assert_eq!(body["state"]["pushes"], 1);
    let (_, body) = call(&app, step("", json!({ "step": "u" }))).await;
    assert_eq!(body["applied"], false);
    assert_eq!(body["moves"], "");
    let (_, body) = call(&app, step("", json!({ "walk_to": [4, 2] }))).await;
    assert_eq!(body["state"]["player"], json!([4, 2]));
    assert_eq!(body["state"]["pushes"], 0);
    let (status, body) = call(&app, step("rrr", Value::Null)).await;
    assert_eq!(
        status,
        StatusCode::BAD_REQUEST,
        "a lower-case move into a box"
    );
    assert!(body["error"].as_str().unwrap().contains("step 2"), "{body}");
}

#[tokio::test]
async fn play_reports_dead_squares_and_frozen_boxes() {
    let app = app_with(2);
    let xsb = "#####\n#$  #\n# @.#\n#####\n";
    let (_, body) = call(&app, post("/api/sokoban/play", &json!({ "xsb": xsb }))).await;
    let state = &body["state"];
    assert!(state["dead_squares"]
        .as_array()
        .unwrap()
        .contains(&json!([1, 1])));
    assert_eq!(state["frozen_boxes"], json!([[1, 1]]));
}

#[tokio::test]
async fn a_solve_job_streams_a_replayed_solution() {
    let app = app_with(2);
    let level1 = MICROBAN.split("\n\n").find(|b| b.contains('#')).unwrap();
    let events = events(
        &app,
        post(
            "/api/jobs",
            &json!({ "job": "sokoban_solve", "xsb": level1, "time_limit": 5 }),
        ),
    )
    .await;
    let names: Vec<&str> = events.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names.first(), Some(&"started"));
    assert_eq!(names.last(), Some(&"end"));
    let result = &events.iter().find(|(n, _)| n == "result").unwrap().1;
    assert_eq!(result["solved"], true);
    let keys: Vec<&str> = result
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys[..4],
        ["level", "title", "solved", "solution"],
        "the record's fields in the CLI's order"
    );
    let level = &puzzle_sokoban::parse_xsb(level1).unwrap()[0];
    let solution = result["solution"].as_str().unwrap();
    assert!(puzzle_sokoban::replay(level, solution).unwrap().solved);
    assert_eq!(events.last().unwrap().1["reason"], "done");
}

#[tokio::test]
async fn a_bad_job_request_is_refused_before_it_starts() {
    let app = app_with(2);
    let (status, body) = call(&app, post("/api/jobs", &json!({ "job": "nope" }))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body["error"]
        .as_str()
        .unwrap()
        .contains("unknown job 'nope'"));
    // An option the job does not have is refused too, named (not silently ignored).
    let (status, body) = call(
        &app,
        post(
            "/api/jobs",
            &json!({ "job": "samegame_solve", "iteratons": 9 }),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("unknown option 'iteratons'"),
        "{body}"
    );
    let (status, _) = call(
        &app,
        post(
            "/api/jobs",
            &json!({ "job": "sokoban_generate", "time_limit": -1 }),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // A request that parses but cannot run ends its stream with an `error` event.
    let events = events(
        &app,
        post(
            "/api/jobs",
            &json!({ "job": "sokoban_solve", "xsb": "#\n#@x\n" }),
        ),
    )
    .await;
    let error = &events.iter().find(|(n, _)| n == "error").unwrap().1;
    assert_eq!(error["line"], 2);
    assert_eq!(events.last().unwrap().1["reason"], "error");
}

async fn running_jobs(app: &axum::Router) -> u64 {
    let (_, info) = call(app, get("/api/info")).await;
    info["running_jobs"].as_u64().unwrap()
}

/// Poll until no job runs; false after `limit`.
async fn jobs_end_within(app: &axum::Router, limit: Duration) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if running_jobs(app).await == 0 {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}

#[tokio::test]
async fn the_job_limit_answers_429_and_a_dropped_stream_stops_its_job() {
    let app = app_with(1);
    let long = json!({ "job": "sokoban_generate", "time_limit": 60 });
    let first = app.clone().oneshot(post("/api/jobs", &long)).await.unwrap();
    assert_eq!(first.status(), StatusCode::OK);
    assert_eq!(running_jobs(&app).await, 1);
    let (status, body) = call(&app, post("/api/jobs", &long)).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    assert!(body["error"].as_str().unwrap().contains("limit"));
    drop(first);
    assert!(
        jobs_end_within(&app, Duration::from_secs(3)).await,
        "the job outlived its client"
    );
}

#[tokio::test]
async fn delete_stops_a_job_and_its_stream_says_so() {
    let app = app_with(2);
    let resp = app
        .clone()
        .oneshot(post(
            "/api/jobs",
            &json!({ "job": "sokoban_generate", "time_limit": 60 }),
        ))
        .await
        .unwrap();
    let mut body = resp.into_body();
    let mut text = String::new();
    let id = started_id(&mut body, &mut text).await;
    let del = delete(&format!("/api/jobs/{id}"));
    assert_eq!(call(&app, del).await.0, StatusCode::NO_CONTENT);
    let rest = body.collect().await.unwrap().to_bytes();
    text.push_str(&String::from_utf8_lossy(&rest));
    let events = parse_sse(&text);
    assert_eq!(events.last().unwrap().1["reason"], "stopped");
    let summary = &events.iter().find(|(n, _)| n == "summary").unwrap().1;
    assert_eq!(summary["interrupted"], true);
    assert!(summary["elapsed_s"].as_f64().unwrap() < 30.0);
}

#[tokio::test]
async fn a_client_that_closes_its_socket_stops_its_job() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr: SocketAddr = listener.local_addr().unwrap();
    let config = ServerConfig::default();
    let app = router(state(&config, addr, TOKEN.into()));
    let server = app.clone();
    tokio::spawn(async move { axum::serve(listener, server).await });
    let body = json!({ "job": "sokoban_generate", "time_limit": 60 }).to_string();
    let mut socket = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request = format!(
        "POST /api/jobs HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {TOKEN}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    socket.write_all(request.as_bytes()).await.unwrap();
    let mut buf = vec![0u8; 4096];
    let n = socket.read(&mut buf).await.unwrap();
    assert!(String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 200"));
    let in_app = |app: axum::Router| async move {
        let req = Request::get("/api/info")
            .header("host", addr.to_string())
            .header("authorization", format!("Bearer {TOKEN}"))
            .body(Body::empty())
            .unwrap();
        call(&app, req).await.1["running_jobs"].as_u64().unwrap()
    };
    assert_eq!(in_app(app.clone()).await, 1);
    drop(socket);
    let start = Instant::now();
    while in_app(app.clone()).await > 0 {
        assert!(
            start.elapsed() < Duration::from_secs(3),
            "the job outlived its client's socket"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn hint_gives_the_next_push() {
    let app = app_with(2);
    let xsb = "######\n#@ $.#\n#    #\n######\n";
    let (status, body) = call(
        &app,
        post("/api/sokoban/hint", &json!({ "xsb": xsb, "moves": "" })),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["hint"], "rR");
}

#[tokio::test]
async fn a_solve_job_reports_its_search_while_it_runs() {
    let app = app_with(2);
    let set = puzzle_jobs::data::sokoban_set("xsokoban").unwrap();
    let levels = puzzle_jobs::sokoban::parse_levels(set.text, "xsokoban").unwrap();
    // XSokoban 50 is not solved in a second: the search reports as it goes.
    let request = json!({ "job": "sokoban_solve", "xsb": levels[49].to_xsb(), "time_limit": 1 });
    let events = events(&app, post("/api/jobs", &request)).await;
    let result = events.iter().position(|(n, _)| n == "result").unwrap();
    let searching: Vec<&serde_json::Value> = events[..result]
        .iter()
        .filter(|(n, d)| n == "progress" && d.get("expanded").is_some())
        .map(|(_, d)| d)
        .collect();
    assert!(searching.len() >= 2, "{searching:?}");
    let last = searching.last().unwrap();
    assert_eq!(last["level"], 1);
    assert_eq!(last["time_limit_s"], 1.0);
    assert!(last["expanded"].as_u64().unwrap() > 0, "{last}");
    let expanded: Vec<u64> = searching
        .iter()
        .map(|d| d["expanded"].as_u64().unwrap())
        .collect();
    assert!(expanded.windows(2).all(|w| w[0] <= w[1]), "{expanded:?}");
    assert!(
        expanded.last().unwrap() <= &events[result].1["expanded"].as_u64().unwrap(),
        "never more than the result's count"
    );
}

#[tokio::test]
async fn play_pushes_a_clicked_box_to_a_clicked_square() {
    let app = app_with(2);
    let xsb = "#######\n#     #\n# @$  #\n#     #\n#.    #\n#######\n";
    let push = |from: [usize; 2], to: [usize; 2]| {
        post(
            "/api/sokoban/play",
            &json!({ "xsb": xsb, "moves": "", "action": { "push_box": { "from": from, "to": to } } }),
        )
    };
    let (status, body) = call(&app, push([3, 2], [1, 4])).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["applied"], true);
    assert_eq!(body["state"]["solved"], true);
    assert_eq!(body["state"]["pushes"], 4);
    // The server's LURD replays to the same position.
    let moves = body["moves"].as_str().unwrap();
    let (_, again) = call(
        &app,
        post("/api/sokoban/play", &json!({ "xsb": xsb, "moves": moves })),
    )
    .await;
    assert_eq!(again["state"], body["state"]);
    // No box there, or no way: nothing happens.
    for (from, to) in [([2, 2], [1, 4]), ([3, 2], [0, 0]), ([3, 2], [30, 4])] {
        let (status, body) = call(&app, push(from, to)).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["applied"], false, "{from:?} -> {to:?}");
        assert_eq!(body["moves"], "");
    }
}

#[tokio::test]
async fn the_generator_continues_from_a_seed_level() {
    let app = app_with(2);
    let seed = "#######\n#     #\n# .$  #\n#  @  #\n# $ . #\n#     #\n#######\n";
    let request = json!({ "job": "sokoban_generate", "objective": "score", "seed_level": seed, "iterations": 3000, "seed": 1 });
    let streamed = events(&app, post("/api/jobs", &request)).await;
    assert_eq!(streamed.last().unwrap().1["reason"], "done", "{streamed:?}");
    let levels: Vec<&serde_json::Value> = streamed
        .iter()
        .filter(|(n, _)| n == "result")
        .map(|(_, d)| d)
        .collect();
    assert!(!levels.is_empty(), "a seeded run keeps levels");
    for level in levels {
        // The seed's 5×5 board inside a wall border, the player where the seed had it.
        let rows: Vec<&str> = level["xsb"].as_str().unwrap().lines().collect();
        assert_eq!(rows.len(), 7, "{}", level["xsb"]);
        assert!(
            rows[3].chars().nth(3).is_some_and(|c| c == '@' || c == '+'),
            "{}",
            level["xsb"]
        );
        let (_, played) = call(
            &app,
            post(
                "/api/sokoban/play",
                &json!({ "xsb": level["xsb"], "moves": level["solution"] }),
            ),
        )
        .await;
        assert_eq!(played["state"]["solved"], true, "{level}");
    }
    // A goal under the player is a seed the game cannot reach: refused, naming why.
    let under = "#######\n#     #\n#  +  #\n#     #\n#   $ #\n#     #\n#######\n";
    let bad = json!({ "job": "sokoban_generate", "seed_level": under, "iterations": 100 });
    let refused = events(&app, post("/api/jobs", &bad)).await;
    let error = &refused.iter().find(|(n, _)| n == "error").unwrap().1;
    assert!(
        error["error"].as_str().unwrap().contains("seed_level"),
        "{error}"
    );
}
