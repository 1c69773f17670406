//! The SameGame endpoints (boards, random boards, parsing, play) and the `samegame_solve` job,
//! through the real router: the normal paths with the scoring rules checked, and the refusals.

use axum::http::StatusCode;
use serde_json::{json, Value};

mod common;
use common::*;

async fn play(app: &axum::Router, body: Value) -> (StatusCode, Value) {
    call(app, post("/api/samegame/play", &body)).await
}

/// The standard text of standard board `n` (1-based).
async fn standard_board(app: &axum::Router, n: usize) -> String {
    let (status, set) = call(app, get("/api/samegame/sets/standard20")).await;
    assert_eq!(status, StatusCode::OK);
    set["boards"][n - 1]["text"].as_str().unwrap().to_string()
}

fn error_text(body: &Value) -> &str {
    body["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error in {body}"))
}

#[tokio::test]
async fn the_standard_boards_are_listed_and_served() {
    let app = app();
    let (status, sets) = call(&app, get("/api/samegame/sets")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(sets[0]["id"], "standard20");
    assert_eq!(sets[0]["boards"], 20);
    let (status, set) = call(&app, get("/api/samegame/sets/standard20")).await;
    assert_eq!(status, StatusCode::OK);
    let boards = set["boards"].as_array().unwrap();
    assert_eq!(boards.len(), 20);
    assert_eq!(boards[0]["name"], "problem 01");
    assert_eq!(boards[19]["index"], 20);
    for b in boards {
        assert_eq!(
            (b["width"].as_u64(), b["height"].as_u64()),
            (Some(15), Some(15))
        );
        assert_eq!(b["colours"], 5);
    }
    // The text is the standard format: a header and the rows top first (digit d is colour
    // d + 1: 0 R, 1 G, 2 B, 3 Y, 4 V).
    let text = boards[0]["text"].as_str().unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "15 15 5");
    assert_eq!(lines[1], "YGGVGRVRVVGGRBY");
    // It reads back to the same board.
    let (status, parsed) = call(&app, post("/api/samegame/parse", &json!({ "text": text }))).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(parsed["boards"][0]["text"], text);

    let (status, body) = call(&app, get("/api/samegame/sets/nope")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(error_text(&body).contains("no bundled board set 'nope'"));
}

#[tokio::test]
async fn every_format_parses_and_errors_carry_line_and_column() {
    let app = app();
    let parse = |text: &str| post("/api/samegame/parse", &json!({ "text": text }));
    // Standard, CSV (columns;rows, colours from 0) and digits blocks.
    let (status, body) = call(&app, parse("2 3 2\nRGR\nRGG\n")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["boards"][0]["text"], "2 3 2\nRGR\nRGG\n");
    let (status, body) = call(&app, parse("3;2\n0;1;0\n0;1;1\n")).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["boards"][0]["text"], "2 3 2\nRGR\nRGG\n");
    let (status, body) = call(
        &app,
        parse("# problem 01\n010\n011\n# problem 02\n00\n11\n"),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let boards = body["boards"].as_array().unwrap();
    assert_eq!(boards.len(), 2);
    assert_eq!(boards[1]["name"], "problem 02");

    // An unknown colour: line and column.
    let (status, body) = call(&app, parse("2 3 2\nRGR\nRGX\n")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        (body["line"].as_u64(), body["column"].as_u64()),
        (Some(3), Some(3))
    );
    assert!(
        error_text(&body).starts_with("pasted board:3:3: unknown colour 'X'"),
        "{body}"
    );
    // A short row: the line, and the column where the missing stone should be.
    let (status, body) = call(&app, parse("2 3 2\nRGR\nRG\n")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        (body["line"].as_u64(), body["column"].as_u64()),
        (Some(3), Some(3))
    );
    // A bad header, and nothing at all (line 1, no column: the whole file).
    let (status, body) = call(&app, parse("2 x 2\nRG\n")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["line"], 1);
    assert!(error_text(&body).contains("column count 'x' is not a whole number"));
    let (status, body) = call(&app, parse("")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error_text(&body).contains("empty file"));
    assert!(body["line"] == 1 && body.get("column").is_none(), "{body}");
    // Not the expected body.
    let (status, body) = call(&app, post("/api/samegame/parse", &json!({ "xsb": "x" }))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error_text(&body).contains("missing field `text`"));
}

#[tokio::test]
async fn random_boards_follow_size_colours_and_seed() {
    let app = app();
    let random = |w: usize, h: usize, k: usize, seed: u64| {
        post(
            "/api/samegame/random",
            &json!({ "width": w, "height": h, "colours": k, "seed": seed }),
        )
    };
    let (status, a) = call(&app, random(10, 8, 4, 7)).await;
    assert_eq!(status, StatusCode::OK);
    let board = &a["board"];
    assert_eq!(
        (board["width"].as_u64(), board["height"].as_u64()),
        (Some(10), Some(8))
    );
    assert_eq!(board["colours"], 4);
    assert_eq!(board["name"], "random 10x8x4 seed 7");
    let text = board["text"].as_str().unwrap();
    assert!(text.starts_with("8 10 4\n"));
    let rows: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(rows.len(), 8);
    assert!(rows
        .iter()
        .all(|r| r.len() == 10 && r.chars().all(|c| "RGBY".contains(c))));
    // The same seed gives the same board, another seed another one.
    assert_eq!(call(&app, random(10, 8, 4, 7)).await.1, a);
    assert_ne!(
        call(&app, random(10, 8, 4, 8)).await.1["board"]["text"],
        board["text"]
    );

    for (w, h, k, message) in [
        (0, 5, 3, "0 columns"),
        (5, 200, 3, "200 rows"),
        (5, 5, 21, "21 colours"),
        (5, 5, 0, "0 colours"),
    ] {
        let (status, body) = call(&app, random(w, h, k, 1)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{w}x{h}x{k}");
        assert!(error_text(&body).contains(message), "{body} / {message}");
    }
    let (status, body) = call(&app, post("/api/samegame/random", &json!({ "width": 5 }))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error_text(&body).contains("missing field"));
}

#[tokio::test]
async fn a_removed_group_earns_the_points_the_server_listed() {
    let app = app();
    let text = standard_board(&app, 1).await;
    let (status, start) = play(&app, json!({ "board": text, "moves": [] })).await;
    assert_eq!(status, StatusCode::OK, "{start}");
    assert_eq!(
        (start["width"].as_u64(), start["height"].as_u64()),
        (Some(15), Some(15))
    );
    assert_eq!(
        (start["points"].as_i64(), start["stones"].as_u64()),
        (Some(0), Some(225))
    );
    assert_eq!(start["over"], false);
    assert!(start["final_score"].is_null() && start["end_adjustment"].is_null());
    let groups = start["groups"].as_array().unwrap();
    assert_eq!(start["moves_left"].as_u64(), Some(groups.len() as u64));
    assert!(groups.len() > 10);
    // The grid's colours agree with the groups' stones, and no stone is in two groups.
    let mut seen = std::collections::HashSet::new();
    for g in groups {
        let size = g["size"].as_u64().unwrap();
        assert_eq!(g["cells"].as_array().unwrap().len() as u64, size);
        assert!(size >= 2);
        assert_eq!(
            g["points"].as_i64().unwrap(),
            (size as i64 - 2).pow(2),
            "standard (n-2)²"
        );
        for cell in g["cells"].as_array().unwrap() {
            let (c, r) = (cell[0].as_u64().unwrap(), cell[1].as_u64().unwrap());
            assert_eq!(start["rows"][r as usize][c as usize], g["colour"]);
            assert!(seen.insert((c, r)), "({c}, {r}) in two groups");
        }
    }
    // Removing the biggest group, named by any of its stones, earns exactly its points.
    let biggest = groups.iter().max_by_key(|g| g["size"].as_u64()).unwrap();
    let size = biggest["size"].as_u64().unwrap();
    assert!(size >= 3);
    for cell in biggest["cells"].as_array().unwrap() {
        let (status, after) = play(&app, json!({ "board": text, "moves": [cell] })).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(after["points"], biggest["points"]);
        assert_eq!(after["stones"].as_u64(), Some(225 - size));
        assert_eq!(after["moves"], 1);
    }
    // The same group under the Hungarian scoring: (n − 1)².
    let cell = &biggest["cells"][0];
    let (_, h) = play(
        &app,
        json!({ "board": text, "scoring": "hungarian", "moves": [] }),
    )
    .await;
    let same = h["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["cells"].as_array().unwrap().contains(cell))
        .unwrap();
    assert_eq!(same["points"].as_i64(), Some((size as i64 - 1).pow(2)));
    let (_, after) = play(
        &app,
        json!({ "board": text, "scoring": "hungarian", "moves": [cell] }),
    )
    .await;
    assert_eq!(after["points"].as_i64(), Some((size as i64 - 1).pow(2)));
    assert_eq!(after["scoring"], "hungarian");
}

#[tokio::test]
async fn the_end_of_the_game_adds_the_bonus_or_subtracts_the_penalty() {
    let app = app();
    // R R on top of G G: two moves clear the board.
    let two = "2 2 2\nRR\nGG\n";
    let (_, over) = play(&app, json!({ "board": two, "moves": [[0, 0], [0, 1]] })).await;
    assert_eq!(
        (over["over"].as_bool(), over["cleared"].as_bool()),
        (Some(true), Some(true))
    );
    assert_eq!(over["moves_left"], 0);
    assert_eq!(
        (over["points"].as_i64(), over["end_adjustment"].as_i64()),
        (Some(0), Some(1000))
    );
    assert_eq!(over["final_score"], 1000);
    let (_, h) = play(
        &app,
        json!({ "board": two, "scoring": "hungarian", "moves": [[0, 0], [0, 1]] }),
    )
    .await;
    assert_eq!(
        (h["points"].as_i64(), h["end_adjustment"].as_i64()),
        (Some(2), Some(0))
    );
    assert_eq!(h["final_score"], 2);
    // R R R G G B B B R: greens, blues, then all four reds clear the row.
    let row = "1 9 3\nRRRGGBBBR\n";
    // Greens (2 stones, 0 points), blues (3, 1 point), the four reds (4, 4 points), + 1000.
    let moves = json!([[3, 0], [3, 0], [0, 0]]);
    let (_, done) = play(&app, json!({ "board": row, "moves": moves })).await;
    assert_eq!(done["over"], true, "{done}");
    assert_eq!(
        (done["points"].as_i64(), done["cleared"].as_bool()),
        (Some(5), Some(true))
    );
    assert_eq!(done["final_score"], 1005);
    let moves = json!([[3, 0], [3, 0]]);
    let (_, partway) = play(&app, json!({ "board": row, "moves": moves })).await;
    assert_eq!(
        (partway["over"].as_bool(), partway["moves_left"].as_u64()),
        (Some(false), Some(1))
    );
    // Reds, then greens: B R B R B is left (5 stones; 3 blue, 2 red).
    let left = "1 9 3\nRRGGBRBRB\n";
    for (penalty, adjustment) in [("none", 0), ("total", -9), ("per-colour", -1)] {
        let (status, end) = play(
            &app,
            json!({ "board": left, "penalty": penalty, "moves": [[0, 0], [0, 0]] }),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{end}");
        assert_eq!(
            (end["over"].as_bool(), end["cleared"].as_bool()),
            (Some(true), Some(false))
        );
        assert_eq!(
            (end["stones"].as_u64(), end["points"].as_i64()),
            (Some(5), Some(0))
        );
        // total: (5 − 2)²; per colour: (3 − 2)² + (2 − 2)².
        assert_eq!(
            end["end_adjustment"].as_i64(),
            Some(adjustment),
            "{penalty}"
        );
        assert_eq!(end["final_score"].as_i64(), Some(adjustment), "{penalty}");
        assert_eq!(end["penalty"], penalty);
    }
}

#[tokio::test]
async fn bad_plays_are_refused_with_a_clear_message() {
    let app = app();
    let board = "2 3 2\nRGR\nRGG\n";
    let cases = [
        (
            json!({ "board": board, "moves": [[1, 1], [2, 1]] }),
            "move 2 (column 2, row 1) does not name a removable group",
            Some(2),
        ),
        (
            json!({ "board": board, "moves": [[2, 0]] }),
            "move 1 (column 2, row 0) does not name a removable group",
            Some(1),
        ),
        (
            json!({ "board": board, "moves": [[3, 0]] }),
            "move 1 (column 3, row 0) is outside the board",
            Some(1),
        ),
        (
            json!({ "board": board, "scoring": "fancy" }),
            "unknown scoring 'fancy'",
            None,
        ),
        (
            json!({ "board": board, "penalty": "some" }),
            "unknown penalty 'some'",
            None,
        ),
        (
            json!({ "board": "# problem 01\n01\n10\n# problem 02\n00\n11\n" }),
            "the board text holds 2 boards; send one",
            None,
        ),
        (
            json!({ "board": board, "moves": [[0]] }),
            "bad request body",
            None,
        ),
        (
            json!({ "board": board, "move": [] }),
            "unknown field `move`",
            None,
        ),
        (json!({ "moves": [] }), "missing field `board`", None),
    ];
    for (body, message, step) in cases {
        let (status, answer) = play(&app, body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert!(
            error_text(&answer).contains(message),
            "{answer} / {message}"
        );
        assert_eq!(answer["step"].as_u64(), step.map(|s| s as u64), "{answer}");
    }
    // A malformed board: line and column, as from the parse endpoint.
    let (status, answer) = play(&app, json!({ "board": "2 3 2\nRGR\nRGQ\n" })).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        (answer["line"].as_u64(), answer["column"].as_u64()),
        (Some(3), Some(3))
    );
    assert!(error_text(&answer).starts_with("board:3:3: unknown colour 'Q'"));
}

/// Runs a `samegame_solve` job and returns its result record and the best scores of its
/// progress events.
async fn solve(app: &axum::Router, request: Value) -> (Value, Vec<i64>) {
    let events = events(app, post("/api/jobs", &request)).await;
    assert_eq!(events.first().map(|e| e.0.as_str()), Some("started"));
    assert_eq!(events.last().unwrap().1["reason"], "done", "{events:?}");
    let result = events
        .iter()
        .find(|(name, _)| name == "result")
        .map(|(_, data)| data.clone())
        .unwrap_or_else(|| panic!("no result in {events:?}"));
    let best: Vec<i64> = events
        .iter()
        .filter(|(name, data)| name == "progress" && data.get("best_score").is_some())
        .filter_map(|(_, data)| data["best_score"].as_i64())
        .collect();
    (result, best)
}

#[tokio::test]
async fn a_solved_game_replays_to_its_reported_score() {
    let app = app();
    let standard = standard_board(&app, 1).await;
    let (_, random) = call(
        &app,
        post(
            "/api/samegame/random",
            &json!({ "width": 8, "height": 8, "colours": 3, "seed": 5 }),
        ),
    )
    .await;
    let small = random["board"]["text"].as_str().unwrap().to_string();
    let runs = [
        (
            json!({ "job": "samegame_solve", "text": standard, "algo": "spmcts", "iterations": 400, "seed": 3 }),
            "standard",
        ),
        (
            json!({ "job": "samegame_solve", "text": small, "algo": "nmcs", "level": 1, "playout": "pseudo-tabu", "time_limit": 0.5 }),
            "standard",
        ),
        (
            json!({ "job": "samegame_solve", "text": small, "algo": "nrpa", "level": 2, "selective": true, "tabu_colours": 2, "iterations": 300, "scoring": "hungarian", "penalty": "per-colour" }),
            "hungarian",
        ),
        (
            json!({ "job": "samegame_solve", "text": small, "algo": "nrpa", "level": 2, "lineages": 4, "iterations": 2000 }),
            "standard",
        ),
        (
            json!({ "job": "samegame_solve", "text": small, "algo": "spmcts", "uctk": 0.15, "playout": "tabu-colour", "time_limit": 0.4, "threads": 2, "penalty": "total" }),
            "standard",
        ),
    ];
    for (request, scoring) in runs {
        let (result, best) = solve(&app, request.clone()).await;
        assert!(!best.is_empty(), "no best-score progress for {request}");
        assert_eq!(best.last(), result["score"].as_i64().as_ref(), "{request}");
        let moves: Vec<Value> = result["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| json!([m["col"], m["row"]]))
            .collect();
        let text = request["text"].clone();
        let penalty = request.get("penalty").cloned().unwrap_or(json!("none"));
        let (status, end) = play(
            &app,
            json!({ "board": text, "scoring": scoring, "penalty": penalty, "moves": moves }),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{end}");
        assert_eq!(end["over"], true, "{request}");
        assert_eq!(end["final_score"], result["score"], "{request}");
        assert_eq!(end["cleared"], result["cleared"]);
    }
}

#[tokio::test]
async fn a_solve_of_a_malformed_board_ends_with_its_line_and_column() {
    let app = app();
    let request =
        json!({ "job": "samegame_solve", "text": "2 3 2\nRGR\nRGX\n", "source": "mine.txt" });
    let stream = events(&app, post("/api/jobs", &request)).await;
    let error = &stream.iter().find(|(name, _)| name == "error").unwrap().1;
    assert_eq!(
        (error["line"].as_u64(), error["column"].as_u64()),
        (Some(3), Some(3))
    );
    assert!(error_text(error).starts_with("mine.txt:3:3: unknown colour 'X'"));
    assert_eq!(stream.last().unwrap().1["reason"], "error");
    // A setting out of range is refused before the search starts.
    let request = json!({ "job": "samegame_solve", "text": "2 3 2\nRGR\nRGG\n", "algo": "nrpa", "tabu_colours": 0 });
    let stream = events(&app, post("/api/jobs", &request)).await;
    let error = &stream.iter().find(|(name, _)| name == "error").unwrap().1;
    assert!(error_text(error).contains("tabu_colours must be 1 to 20"));
    let request = json!({ "job": "samegame_solve", "text": "2 3 2\nRGR\nRGG\n", "algo": "nrpa", "endgame_percent": 95 });
    let stream = events(&app, post("/api/jobs", &request)).await;
    let error = &stream.iter().find(|(name, _)| name == "error").unwrap().1;
    assert!(error_text(error).contains("endgame_percent must be 0 to 90"));
    let request = json!({ "job": "samegame_solve", "text": "2 3 2\nRGR\nRGG\n", "algo": "nrpa", "lineages": 65 });
    let stream = events(&app, post("/api/jobs", &request)).await;
    let error = &stream.iter().find(|(name, _)| name == "error").unwrap().1;
    assert!(error_text(error).contains("lineages must be 1 to 64"));
}
