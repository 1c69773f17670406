//! Every search the server runs stops on time: at the job time cap, on `DELETE`, and when its
//! client goes away, a Bait agent inside a single long move and a Sokoban hint as much as a job
//! stream. The bounds below are the server's promise (within a second of the cause), with slack
//! for a loaded machine.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use puzzle_server::{router, state, ServerConfig};
use serde_json::json;
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tower::ServiceExt;

mod common;
use common::*;

/// The promise (one second) plus slack for a machine busy with other work.
const WITHIN: Duration = Duration::from_millis(2500);

fn app_capped(cap: Duration) -> axum::Router {
    let config = ServerConfig {
        max_jobs: 2,
        job_time_cap: cap,
        ..ServerConfig::default()
    };
    router(state(&config, HOST.parse().unwrap(), TOKEN.into()))
}

/// A Bait MCTS game whose every move may think for ten minutes.
fn long_bait_game() -> serde_json::Value {
    json!({ "job": "bait_play", "level": 3, "agent": "mcts", "budget_ms": 600000 })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bait_mcts_job_with_a_huge_move_budget_ends_at_the_time_cap() {
    let cap = Duration::from_secs(2);
    let app = app_capped(cap);
    let started = Instant::now();
    let events = events(&app, post("/api/jobs", &long_bait_game())).await;
    let took = started.elapsed();
    assert!(
        took < cap + WITHIN,
        "the stream ended {took:?} after the start, the cap is {cap:?}"
    );
    let (name, end) = events.last().unwrap();
    assert_eq!((name.as_str(), &end["reason"]), ("end", &json!("time_cap")));
    let result = &events.iter().find(|(n, _)| n == "result").unwrap().1;
    assert_eq!(result["interrupted"], true, "{result}");
    assert_eq!(running(&app).await, 0, "the slot is free");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn delete_ends_a_bait_move_in_progress() {
    let app = app_capped(Duration::from_secs(600));
    let resp = app
        .clone()
        .oneshot(post("/api/jobs", &long_bait_game()))
        .await
        .unwrap();
    let mut body = resp.into_body();
    let mut text = String::new();
    let id = started_id(&mut body, &mut text).await;
    // Let the agent get into its first move.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let del = delete(&format!("/api/jobs/{id}"));
    let asked = Instant::now();
    assert_eq!(call(&app, del).await.0, StatusCode::NO_CONTENT);
    let rest = body.collect().await.unwrap().to_bytes();
    assert!(
        asked.elapsed() < WITHIN,
        "ended {:?} after DELETE",
        asked.elapsed()
    );
    text.push_str(&String::from_utf8_lossy(&rest));
    let events = parse_sse(&text);
    assert_eq!(events.last().unwrap().1["reason"], "stopped");
}

async fn running(app: &axum::Router) -> u64 {
    let (_, info) = call(app, get("/api/info")).await;
    info["running_jobs"].as_u64().unwrap()
}

/// A server on a real socket (a client going away is a closed connection).
async fn listening(max_jobs: usize) -> (SocketAddr, axum::Router) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let config = ServerConfig {
        max_jobs,
        ..ServerConfig::default()
    };
    let app = router(state(&config, addr, TOKEN.into()));
    let server = app.clone();
    tokio::spawn(async move { axum::serve(listener, server).await });
    (addr, app)
}

async fn running_at(app: &axum::Router, addr: SocketAddr) -> u64 {
    let req = Request::get("/api/info")
        .header("host", addr.to_string())
        .header("authorization", format!("Bearer {TOKEN}"))
        .body(Body::empty())
        .unwrap();
    call(app, req).await.1["running_jobs"].as_u64().unwrap()
}

/// Poll until no search runs; the time it took, or `None` after `limit`.
async fn freed_within(app: &axum::Router, addr: SocketAddr, limit: Duration) -> Option<Duration> {
    let start = Instant::now();
    while start.elapsed() < limit {
        if running_at(app, addr).await == 0 {
            return Some(start.elapsed());
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    None
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hint_whose_client_disconnects_frees_its_slot() {
    let (addr, app) = listening(2).await;
    let set = puzzle_jobs::data::sokoban_set("xsokoban").unwrap();
    let levels = puzzle_jobs::sokoban::parse_levels(set.text, "xsokoban").unwrap();
    // XSokoban 50: far beyond a hint's 12 seconds.
    let body = json!({ "xsb": levels[49].to_xsb(), "moves": "", "time_limit": 12 }).to_string();
    let mut socket = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request = format!(
        "POST /api/sokoban/hint HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {TOKEN}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    socket.write_all(request.as_bytes()).await.unwrap();
    let waiting = Instant::now();
    while running_at(&app, addr).await == 0 {
        assert!(
            waiting.elapsed() < Duration::from_secs(10),
            "the hint never started"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    // The hint is still searching: nothing has been answered.
    let mut buf = [0u8; 64];
    let pending = tokio::time::timeout(Duration::from_millis(50), socket.read(&mut buf)).await;
    assert!(pending.is_err(), "the hint answered early");
    drop(socket);
    let freed = freed_within(&app, addr, Duration::from_secs(12)).await;
    assert!(
        freed.is_some_and(|t| t < WITHIN),
        "the hint kept its slot {freed:?} after its client left"
    );
}

#[tokio::test]
async fn a_hint_on_a_level_too_large_names_the_limit() {
    let app = app();
    // 100 × 70: 6,664 cells inside the walls, over the solvers' 4,096.
    let row = format!("#{}#\n", " ".repeat(98));
    let mut xsb = format!("{}\n", "#".repeat(100));
    xsb.push_str(&format!("#@${}.#\n", " ".repeat(95)));
    for _ in 0..67 {
        xsb.push_str(&row);
    }
    xsb.push_str(&format!("{}\n", "#".repeat(100)));
    for path in ["/api/sokoban/hint", "/api/sokoban/play"] {
        let (status, body) = call(&app, post(path, &json!({ "xsb": xsb }))).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{path}: {body}");
        let message = body["error"].as_str().unwrap();
        assert!(
            message.contains("at most 4096 playable cells"),
            "{path}: {message}"
        );
        assert!(message.contains("6664"), "{path}: {message}");
    }
}

#[tokio::test]
async fn a_time_limit_out_of_range_names_the_range() {
    let app = app();
    let xsb = "######\n#@ $.#\n#    #\n######\n";
    let (status, body) = call(
        &app,
        post(
            "/api/sokoban/hint",
            &json!({ "xsb": xsb, "time_limit": 1e9 }),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let message = body["error"].as_str().unwrap();
    assert!(message.contains("1000000000"), "{message}");
    assert!(message.contains("at most"), "{message}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sudoku_hint_is_a_search_under_the_job_limit() {
    let app = app_capped(Duration::from_secs(600));
    let puzzle = ".".repeat(256);
    // Every place taken by two long jobs: the hint is refused like a third job.
    let long = json!({ "job": "sokoban_generate", "time_limit": 60 });
    let first = app.clone().oneshot(post("/api/jobs", &long)).await.unwrap();
    let second = app.clone().oneshot(post("/api/jobs", &long)).await.unwrap();
    assert_eq!(
        (first.status(), second.status()),
        (StatusCode::OK, StatusCode::OK)
    );
    let (status, body) = call(&app, post("/api/sudoku/hint", &json!({ "puzzle": puzzle }))).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    drop((first, second));
    let start = Instant::now();
    while running(&app).await > 0 {
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "the jobs outlived their streams"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // With a place free, the 16×16 hint (the solver's guess) is answered and frees it.
    let (status, body) = call(&app, post("/api/sudoku/hint", &json!({ "puzzle": puzzle }))).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["reason"], "solver");
    assert_eq!(running(&app).await, 0);
}
