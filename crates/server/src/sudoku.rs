//! Sudoku endpoints: the bundled puzzle sets, parsing pasted puzzles, the state of a grid being
//! filled in (candidates, clashes, solved; from [`puzzle_sudoku::play`]) and hints (from
//! [`puzzle_sudoku::hint`]). Solving and generating are jobs (`sudoku_solve`,
//! `sudoku_generate` through `POST /api/jobs`).

use crate::body::JsonBody;
use crate::error::ApiError;
use crate::jobs::StopOnDrop;
use crate::AppState;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use puzzle_jobs::data::{sudoku_set, SUDOKU_SETS};
use puzzle_jobs::sudoku::parse_puzzle_text;
use puzzle_sudoku::hint::{hint_until, Hint, Reason};
use puzzle_sudoku::play::{mask_values, parse_entries, play_state};
use puzzle_sudoku::{parse_puzzle, Grid, ParsedPuzzle};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;

fn records(puzzles: &[ParsedPuzzle]) -> Vec<Value> {
    puzzles
        .iter()
        .enumerate()
        .map(|(i, p)| {
            json!({
                "index": i + 1,
                "puzzle": p.grid.to_line(),
                "clues": p.grid.clue_count(),
                "side": p.grid.side(),
                "line": p.line,
            })
        })
        .collect()
}

/// `GET /api/sudoku/sets`.
pub async fn sets() -> Json<Value> {
    Json(Value::Array(
        SUDOKU_SETS
            .iter()
            .map(|s| {
                let n = parse_puzzle_text(s.text, s.id).map_or(0, |p| p.len());
                json!({ "id": s.id, "name": s.name, "puzzles": n })
            })
            .collect(),
    ))
}

/// `GET /api/sudoku/sets/{id}`.
pub async fn set(Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    let set = sudoku_set(&id).ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            format!("no bundled puzzle set '{id}'"),
        )
    })?;
    let puzzles = parse_puzzle_text(set.text, set.id)?;
    Ok(Json(
        json!({ "id": set.id, "name": set.name, "puzzles": records(&puzzles) }),
    ))
}

/// A text of puzzles.
#[derive(Deserialize)]
pub struct TextBody {
    text: String,
}

/// `POST /api/sudoku/parse`: every puzzle of a pasted text (one per line, or 9-line grids).
pub async fn parse(JsonBody(body): JsonBody<TextBody>) -> Result<Json<Value>, ApiError> {
    let puzzles = parse_puzzle_text(&body.text, "pasted puzzle")?;
    Ok(Json(json!({ "puzzles": records(&puzzles) })))
}

/// The body of `POST /api/sudoku/state` and `POST /api/sudoku/hint`.
#[derive(Deserialize)]
pub struct GridBody {
    /// The givens: one line (`.` or `0` empty).
    puzzle: String,
    /// The player's digits: one line as long as the puzzle (default: none).
    #[serde(default)]
    entries: Option<String>,
}

/// The puzzle and the grid with the entries written in.
fn read_grid(body: &GridBody) -> Result<(Grid, Grid), ApiError> {
    let puzzle = parse_puzzle(&body.puzzle)
        .map_err(|e| ApiError::bad_request(&anyhow::Error::new(e).context("puzzle")))?;
    let grid = match &body.entries {
        Some(line) => parse_entries(&puzzle, line)
            .map_err(|e| ApiError::bad_request(&anyhow::Error::new(e).context("entries")))?,
        None => puzzle.clone(),
    };
    Ok((puzzle, grid))
}

/// `POST /api/sudoku/state`: per cell its value, given flag, candidates and clash flag; the
/// clashing cells; filled, complete, solved.
pub async fn state(JsonBody(body): JsonBody<GridBody>) -> Result<Json<Value>, ApiError> {
    let (puzzle, grid) = read_grid(&body)?;
    let s = play_state(&puzzle, &grid);
    let cells: Vec<Value> = (0..grid.len())
        .map(|i| {
            json!({
                "value": grid.get(i),
                "given": s.given[i],
                "candidates": mask_values(s.candidates[i]),
                "conflict": s.conflicts.binary_search(&i).is_ok(),
            })
        })
        .collect();
    Ok(Json(json!({
        "side": grid.side(),
        "box_size": grid.box_size(),
        "grid": grid.to_line(),
        "cells": cells,
        "conflicts": s.conflicts,
        "filled": s.filled,
        "complete": s.complete,
        "solved": s.solved,
    })))
}

/// `POST /api/sudoku/hint`: a forced cell and why, else the solver's value for the cell with
/// the fewest candidates; or the clashing cells, or the wrong entries.
///
/// Beyond 9×9 the exact solver may search for long, so a hint runs as any search does: admitted
/// under the job limit, stopped at the time cap and when its client goes away.
pub async fn hint(
    State(state): State<Arc<AppState>>,
    JsonBody(body): JsonBody<GridBody>,
) -> Result<Json<Value>, ApiError> {
    let (puzzle, grid) = read_grid(&body)?;
    let side = grid.side();
    let run = state.jobs.start()?;
    let _client = StopOnDrop(run.stop().clone());
    let cap = state.jobs.time_cap;
    let h = tokio::task::spawn_blocking(move || {
        hint_until(&puzzle, &grid, Some(run.stop())).ok_or_else(|| {
            let why = if run.capped() {
                format!(
                    "no hint within the server's time cap of {} s",
                    cap.as_secs_f64()
                )
            } else {
                "the hint was stopped".to_string()
            };
            ApiError::new(StatusCode::SERVICE_UNAVAILABLE, why)
        })
    })
    .await
    .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))??;
    let message = h.message(side);
    let mut out = match &h {
        Hint::Place {
            cell,
            value,
            reason,
        } => {
            let mut v = json!({
                "kind": "place",
                "cell": cell,
                "row": cell / side + 1,
                "column": cell % side + 1,
                "value": value,
            });
            match reason {
                Reason::NakedSingle => v["reason"] = json!("naked_single"),
                Reason::HiddenSingle { unit, index } => {
                    v["reason"] = json!("hidden_single");
                    v["unit"] = json!(unit.name());
                    v["unit_index"] = json!(index);
                }
                Reason::Solver { candidates, unique } => {
                    v["reason"] = json!("solver");
                    v["candidates"] = json!(candidates);
                    v["unique"] = json!(unique);
                }
            }
            v
        }
        Hint::Conflicts { cells } => json!({ "kind": "conflicts", "cells": cells }),
        Hint::NoSolution { wrong } => json!({ "kind": "no_solution", "cells": wrong }),
        Hint::Solved => json!({ "kind": "solved" }),
    };
    out["message"] = json!(message);
    Ok(Json(out))
}
