//! The Sudoku endpoints and jobs through the real router: sets, parse, state, hint, the
//! `sudoku_solve` (exact and MCTS) and `sudoku_generate` jobs, and their refusals.

use axum::http::StatusCode;
use http_body_util::BodyExt;
use puzzle_jobs::data::{SUDOKU_EASY, SUDOKU_HARDEST11};
use serde_json::{json, Value};
use tower::ServiceExt;

mod common;
use common::*;

/// A puzzle without a single at the start (from Norvig's hardest list).
const NO_SINGLES: &str =
    "....7..2.8.......6.1.2.5...9.54....8.........3....85.1...3.2.8.4.......9.7..6....";

/// The `(event, data)` pairs of a job's whole event stream.
async fn job(app: &axum::Router, request: Value) -> Vec<(String, Value)> {
    let resp = app
        .clone()
        .oneshot(post("/api/jobs", &request))
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    String::from_utf8_lossy(&bytes)
        .split("\n\n")
        .filter_map(|block| {
            let name = block.lines().find_map(|l| l.strip_prefix("event: "))?;
            let data = block.lines().find_map(|l| l.strip_prefix("data: "))?;
            Some((name.to_string(), serde_json::from_str(data).ok()?))
        })
        .collect()
}

/// The unique solution of a puzzle, from the exact solver (not from the server).
fn solution_of(puzzle: &str) -> String {
    let grid = puzzle_sudoku::parse_puzzle(puzzle).unwrap();
    let out = puzzle_sudoku::solve_exact(&grid, puzzle_sudoku::ExactLimits::default());
    assert!(out.is_unique());
    out.solution.unwrap().to_line()
}

/// `puzzle` completed by `solution`: every given kept, a valid full grid.
fn assert_solves(solution: &str, puzzle: &str) {
    let p = puzzle_sudoku::parse_puzzle(puzzle).unwrap();
    let s = puzzle_sudoku::parse_puzzle(solution).unwrap();
    assert!(s.solves(&p), "{solution} does not solve {puzzle}");
}

fn entries_with(cells: &[(usize, char)]) -> String {
    let mut line: Vec<char> = ".".repeat(81).chars().collect();
    for &(i, c) in cells {
        line[i] = c;
    }
    line.into_iter().collect()
}

#[tokio::test]
async fn bundled_sets_list_and_load() {
    let app = app();
    let (status, sets) = call(&app, get("/api/sudoku/sets")).await;
    assert_eq!(status, StatusCode::OK);
    let ids: Vec<&str> = sets
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["top95", "hardest11"]);
    assert_eq!(sets[0]["puzzles"], 95);
    assert_eq!(sets[1]["puzzles"], 11);
    let (status, set) = call(&app, get("/api/sudoku/sets/hardest11")).await;
    assert_eq!(status, StatusCode::OK);
    let puzzles = set["puzzles"].as_array().unwrap();
    assert_eq!(puzzles.len(), 11);
    let first = SUDOKU_HARDEST11
        .lines()
        .find(|l| !l.starts_with('#'))
        .unwrap();
    assert_eq!(puzzles[0]["puzzle"], first.trim());
    assert_eq!(puzzles[0]["index"], 1);
    assert_eq!(puzzles[0]["side"], 9);
    let clues = first
        .chars()
        .filter(|c| c.is_ascii_digit() && *c != '0')
        .count();
    assert_eq!(puzzles[0]["clues"], clues);

    let (status, body) = call(&app, get("/api/sudoku/sets/nope")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(body["error"].as_str().unwrap().contains("nope"), "{body}");
}

#[tokio::test]
async fn pasted_puzzles_parse_and_errors_name_line_and_column() {
    let app = app();
    let text = format!("# mine\n{SUDOKU_EASY}\n{NO_SINGLES}\n");
    let (status, body) = call(&app, post("/api/sudoku/parse", &json!({ "text": text }))).await;
    assert_eq!(status, StatusCode::OK);
    let puzzles = body["puzzles"].as_array().unwrap();
    assert_eq!(puzzles.len(), 2);
    assert_eq!(puzzles[0]["puzzle"], SUDOKU_EASY);
    assert_eq!(puzzles[0]["line"], 2);
    assert_eq!(puzzles[1]["clues"], 22);

    // A bad symbol: line 2, column 5.
    let bad = format!("{SUDOKU_EASY}\n{}x{}\n", &NO_SINGLES[..4], &NO_SINGLES[5..]);
    let (status, body) = call(&app, post("/api/sudoku/parse", &json!({ "text": bad }))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        (body["line"].clone(), body["column"].clone()),
        (json!(2), json!(5))
    );
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("unexpected character 'x'"),
        "{body}"
    );
    // Clashing givens are refused with the second clue's position.
    let clash = format!("33{}", &".".repeat(79));
    let (status, body) = call(&app, post("/api/sudoku/parse", &json!({ "text": clash }))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        (body["line"].clone(), body["column"].clone()),
        (json!(1), json!(2))
    );
    // Too short a line, nothing at all, and a malformed body.
    let (status, body) = call(&app, post("/api/sudoku/parse", &json!({ "text": "123" }))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["line"], 1);
    let (status, body) = call(&app, post("/api/sudoku/parse", &json!({ "text": "\n" }))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        body["error"].as_str().unwrap().contains("no puzzle"),
        "{body}"
    );
    let (status, body) = call(&app, post("/api/sudoku/parse", &json!({ "xsb": "" }))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body["error"].as_str().unwrap().contains("text"), "{body}");
}

#[tokio::test]
async fn state_gives_candidates_clashes_and_solved() {
    let app = app();
    let (status, s) = call(
        &app,
        post("/api/sudoku/state", &json!({ "puzzle": SUDOKU_EASY })),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(s["side"], 9);
    assert_eq!(s["cells"].as_array().unwrap().len(), 81);
    assert_eq!(
        s["cells"][0],
        json!({ "value": 0, "given": false, "candidates": [4, 5], "conflict": false })
    );
    assert_eq!(s["cells"][2]["given"], true);
    assert_eq!(s["cells"][2]["value"], 3);
    assert_eq!(s["filled"], 32);
    assert_eq!(
        (s["complete"].clone(), s["solved"].clone()),
        (json!(false), json!(false))
    );

    // A 3 in row 1 column 1 clashes with the given 3 in column 3: both cells are marked.
    let entries = entries_with(&[(0, '3')]);
    let (_, s) = call(
        &app,
        post(
            "/api/sudoku/state",
            &json!({ "puzzle": SUDOKU_EASY, "entries": entries }),
        ),
    )
    .await;
    assert_eq!(s["conflicts"], json!([0, 2]));
    assert_eq!(s["cells"][0]["conflict"], true);
    assert_eq!(s["cells"][2]["conflict"], true);
    assert_eq!(s["filled"], 33);
    // A candidate list no longer offers 3 to row 1's other empty cells.
    assert!(!s["cells"][1]["candidates"]
        .as_array()
        .unwrap()
        .contains(&json!(3)));

    let solution = solution_of(SUDOKU_EASY);
    let (_, s) = call(
        &app,
        post(
            "/api/sudoku/state",
            &json!({ "puzzle": SUDOKU_EASY, "entries": solution }),
        ),
    )
    .await;
    assert_eq!(
        (s["complete"].clone(), s["solved"].clone()),
        (json!(true), json!(true))
    );
    assert_eq!(s["grid"], solution);
}

#[tokio::test]
async fn state_and_hint_refuse_bad_grids() {
    let app = app();
    for path in ["/api/sudoku/state", "/api/sudoku/hint"] {
        // A bad puzzle symbol: line and column.
        let bad = format!("..x{}", &SUDOKU_EASY[3..]);
        let (status, body) = call(&app, post(path, &json!({ "puzzle": bad }))).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{path}");
        assert_eq!(
            (body["line"].clone(), body["column"].clone()),
            (json!(1), json!(3)),
            "{body}"
        );
        assert!(
            body["error"].as_str().unwrap().starts_with("puzzle: "),
            "{body}"
        );
        // An entry over a different given: its column.
        let over = entries_with(&[(2, '5')]);
        let (status, body) = call(
            &app,
            post(path, &json!({ "puzzle": SUDOKU_EASY, "entries": over })),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(body["column"], 3, "{body}");
        assert!(
            body["error"]
                .as_str()
                .unwrap()
                .contains("entries: line 1, column 3: row 1 column 3 is a given 3"),
            "{body}"
        );
        // Entries of the wrong length, and a bad symbol in them.
        let (status, body) = call(
            &app,
            post(path, &json!({ "puzzle": SUDOKU_EASY, "entries": "12" })),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(
            body["error"].as_str().unwrap().contains("2 cells"),
            "{body}"
        );
        let (status, body) = call(
            &app,
            post(
                path,
                &json!({ "puzzle": SUDOKU_EASY, "entries": entries_with(&[(40, '?')]) }),
            ),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(body["column"], 41, "{body}");
        // No puzzle field at all.
        let (status, body) = call(&app, post(path, &json!({ "entries": "" }))).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(body["error"].as_str().unwrap().contains("puzzle"), "{body}");
    }
}

#[tokio::test]
async fn hints_agree_with_the_unique_solution() {
    let app = app();
    let solution: Vec<u64> = solution_of(SUDOKU_EASY)
        .chars()
        .map(|c| c.to_digit(10).unwrap() as u64)
        .collect();
    let (status, h) = call(
        &app,
        post("/api/sudoku/hint", &json!({ "puzzle": SUDOKU_EASY })),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(h["kind"], "place");
    let cell = h["cell"].as_u64().unwrap() as usize;
    assert_eq!(h["value"].as_u64().unwrap(), solution[cell]);
    assert_eq!(h["row"].as_u64().unwrap() as usize, cell / 9 + 1);
    assert_eq!(h["column"].as_u64().unwrap() as usize, cell % 9 + 1);
    let reason = h["reason"].as_str().unwrap();
    assert!(["naked_single", "hidden_single"].contains(&reason), "{h}");
    assert!(h["message"].as_str().unwrap().contains("single"), "{h}");
    if reason == "hidden_single" {
        assert!(["row", "column", "box"].contains(&h["unit"].as_str().unwrap()));
        assert!((1..=9).contains(&h["unit_index"].as_u64().unwrap()));
    }

    // No single at all: the solver's value for a cell with the fewest candidates.
    let no_singles: Vec<u64> = solution_of(NO_SINGLES)
        .chars()
        .map(|c| c.to_digit(10).unwrap() as u64)
        .collect();
    let (_, h) = call(
        &app,
        post("/api/sudoku/hint", &json!({ "puzzle": NO_SINGLES })),
    )
    .await;
    assert_eq!(
        (h["kind"].clone(), h["reason"].clone()),
        (json!("place"), json!("solver")),
        "{h}"
    );
    let cell = h["cell"].as_u64().unwrap() as usize;
    assert_eq!(h["value"].as_u64().unwrap(), no_singles[cell]);
    assert_eq!(h["unique"], true);
    let (_, s) = call(
        &app,
        post("/api/sudoku/state", &json!({ "puzzle": NO_SINGLES })),
    )
    .await;
    let fewest = s["cells"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["value"] == 0)
        .map(|c| c["candidates"].as_array().unwrap().len())
        .min()
        .unwrap();
    assert_eq!(h["candidates"].as_u64().unwrap() as usize, fewest);
    assert_eq!(
        s["cells"][cell]["candidates"].as_array().unwrap().len(),
        fewest
    );

    // Clashes, a wrong entry, and a solved grid.
    let (_, h) = call(
        &app,
        post(
            "/api/sudoku/hint",
            &json!({ "puzzle": SUDOKU_EASY, "entries": entries_with(&[(0, '3')]) }),
        ),
    )
    .await;
    assert_eq!(
        (h["kind"].clone(), h["cells"].clone()),
        (json!("conflicts"), json!([0, 2]))
    );
    let (_, h) = call(
        &app,
        post(
            "/api/sudoku/hint",
            &json!({ "puzzle": SUDOKU_EASY, "entries": entries_with(&[(0, '5')]) }),
        ),
    )
    .await;
    assert_eq!(
        (h["kind"].clone(), h["cells"].clone()),
        (json!("no_solution"), json!([0])),
        "{h}"
    );
    assert!(
        h["message"]
            .as_str()
            .unwrap()
            .contains("row 1, column 1 is wrong"),
        "{h}"
    );
    let (_, h) = call(
        &app,
        post(
            "/api/sudoku/hint",
            &json!({ "puzzle": SUDOKU_EASY, "entries": solution_of(SUDOKU_EASY) }),
        ),
    )
    .await;
    assert_eq!(h["kind"], "solved");
}

#[tokio::test]
async fn exact_and_mcts_solve_jobs_verify_their_solutions() {
    let app = app();
    let events = job(
        &app,
        json!({ "job": "sudoku_solve", "algo": "exact", "puzzles": NO_SINGLES }),
    )
    .await;
    let result = &events
        .iter()
        .find(|(e, _)| e == "result")
        .expect("a result")
        .1;
    assert_eq!(result["solved"], true);
    assert_eq!(result["solutions"], 1, "unique");
    assert_solves(result["solution"].as_str().unwrap(), NO_SINGLES);
    assert_eq!(events.last().unwrap().0, "end");

    let events = job(
        &app,
        json!({
            "job": "sudoku_solve", "algo": "mcts", "puzzles": SUDOKU_EASY, "playout": "pseudo",
            "selection": "ucb1", "uctk": 0.2, "tree_cell": "mrv", "amaf": null,
            "max_simulations": 20000, "restarts": 2, "seed": 3,
        }),
    )
    .await;
    let searches: Vec<&Value> = events
        .iter()
        .filter(|(e, d)| e == "progress" && d.get("best_filled").is_some())
        .map(|(_, d)| d)
        .collect();
    assert!(!searches.is_empty(), "live search progress: {events:?}");
    for s in &searches {
        assert_eq!(s["cells"], 81);
        assert!(s["simulations"].as_u64().unwrap() <= 60_000);
        assert!((32..=81).contains(&s["best_filled"].as_u64().unwrap()));
        assert!(s.get("restarts").is_some());
    }
    let result = &events
        .iter()
        .find(|(e, _)| e == "result")
        .expect("a result")
        .1;
    assert_eq!(result["algo"], "mcts");
    if result["solved"] == true {
        assert_solves(result["solution"].as_str().unwrap(), SUDOKU_EASY);
    }
    assert!(events.iter().any(|(e, _)| e == "summary"));
}

/// The `error` event of a job that failed, and its `end` reason.
async fn job_error(app: &axum::Router, request: Value) -> Value {
    let events = job(app, request).await;
    assert_eq!(
        events.last().unwrap(),
        &("end".to_string(), json!({ "reason": "error" }))
    );
    assert!(!events.iter().any(|(e, _)| e == "result"), "{events:?}");
    events
        .into_iter()
        .find(|(e, _)| e == "error")
        .expect("an error event")
        .1
}

#[tokio::test]
async fn bad_solve_settings_end_the_job_with_an_error() {
    let app = app();
    for (field, value) in [
        ("uctk", json!(-1)),
        ("amaf", json!(2)),
        ("max_simulations", json!(0)),
        ("restarts", json!(2_000_000)),
    ] {
        let mut request = json!({ "job": "sudoku_solve", "puzzles": SUDOKU_EASY });
        request[field] = value;
        let error = job_error(&app, request).await;
        assert!(
            error["error"].as_str().unwrap().contains(field),
            "{field}: {error}"
        );
    }
    // A bad puzzle in a job: its line and column too.
    let error = job_error(&app, json!({ "job": "sudoku_solve", "algo": "exact", "puzzles": format!("{}x", &SUDOKU_EASY[..80]) })).await;
    assert_eq!(
        (error["line"].clone(), error["column"].clone()),
        (json!(1), json!(81)),
        "{error}"
    );
    // A malformed request is refused before any stream.
    let (status, body) = call(
        &app,
        post(
            "/api/jobs",
            &json!({ "job": "sudoku_solve", "uctk": "high" }),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        body["error"].as_str().unwrap().contains("bad job request"),
        "{body}"
    );
    // So is a choice that is not one of the request's: the answer names the choices.
    for (field, value) in [
        ("playout", "smart"),
        ("selection", "ucb2"),
        ("tree_cell", "first"),
    ] {
        let mut request = json!({ "job": "sudoku_solve", "puzzles": SUDOKU_EASY });
        request[field] = json!(value);
        let (status, body) = call(&app, post("/api/jobs", &request)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{field}");
        let error = body["error"].as_str().unwrap();
        assert!(
            error.contains(&format!("unknown variant `{value}`")) && error.contains("expected"),
            "{field}: {body}"
        );
    }
}

#[tokio::test]
async fn generated_puzzles_are_unique() {
    let app = app();
    let events = job(
        &app,
        json!({ "job": "sudoku_generate", "count": 1, "seed": 11 }),
    )
    .await;
    let result = &events
        .iter()
        .find(|(e, _)| e == "result")
        .expect("a result")
        .1;
    let puzzle = result["puzzle"].as_str().unwrap();
    assert_eq!(solution_of(puzzle), result["solution"].as_str().unwrap());
    let clues = puzzle.chars().filter(|&c| c != '.').count();
    assert_eq!(result["clues"], clues);
    let error = job_error(&app, json!({ "job": "sudoku_generate", "box_size": 7 })).await;
    assert!(
        error["error"].as_str().unwrap().contains("box_size"),
        "{error}"
    );
}
