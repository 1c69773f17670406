//! SameGame endpoints: the bundled boards, random boards, parsing pasted boards (any format
//! the game crate reads), and the state of a game being played (groups, points and the end of
//! the game from [`puzzle_samegame::play`]). Cells are `[col, row]`, the column from the left
//! and the row from the top, as the CLI's JSON moves `{"col", "row"}`.

use crate::body::JsonBody;
use crate::error::ApiError;
use axum::extract::Path;
use axum::http::StatusCode;
use axum::Json;
use puzzle_jobs::data::{samegame_set, SAMEGAME_SETS};
use puzzle_jobs::samegame::{bundled_boards, parse_boards, scoring};
use puzzle_samegame::format::{write_standard, NamedBoard};
use puzzle_samegame::play as rules;
use puzzle_samegame::{Board, Scoring};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// `[col, row]`: the column from the left and the row from the top, 0-based.
type Cell = [usize; 2];

/// A board as the page lists it: its name and its text in the standard format.
#[derive(Serialize)]
struct BoardRecord {
    index: usize,
    name: String,
    text: String,
    width: usize,
    height: usize,
    colours: usize,
}

fn record(nb: &NamedBoard) -> BoardRecord {
    BoardRecord {
        index: nb.index,
        name: nb.name.clone(),
        text: write_standard(&nb.board),
        width: nb.board.width(),
        height: nb.board.height(),
        colours: nb.board.colours(),
    }
}

/// `GET /api/samegame/sets`.
pub async fn sets() -> Json<Value> {
    Json(Value::Array(
        SAMEGAME_SETS
            .iter()
            .map(|s| {
                let n = bundled_boards(s.id, Scoring::standard()).map_or(0, |b| b.len());
                json!({ "id": s.id, "name": s.name, "boards": n })
            })
            .collect(),
    ))
}

/// `GET /api/samegame/sets/{id}`.
pub async fn set(Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    let set = samegame_set(&id).ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            format!("no bundled board set '{id}'"),
        )
    })?;
    let boards = bundled_boards(set.id, Scoring::standard())?;
    let records: Vec<BoardRecord> = boards.iter().map(record).collect();
    Ok(Json(
        json!({ "id": set.id, "name": set.name, "boards": records }),
    ))
}

/// The body of `POST /api/samegame/parse`: boards in any supported format.
#[derive(Deserialize)]
pub struct TextBody {
    text: String,
}

/// `POST /api/samegame/parse`.
pub async fn parse(JsonBody(body): JsonBody<TextBody>) -> Result<Json<Value>, ApiError> {
    let boards = parse_boards(&body.text, "pasted board", Scoring::standard())?;
    let records: Vec<BoardRecord> = boards.iter().map(record).collect();
    Ok(Json(json!({ "boards": records })))
}

/// The body of `POST /api/samegame/random`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RandomBody {
    width: usize,
    height: usize,
    colours: usize,
    #[serde(default = "default_seed")]
    seed: u64,
}

fn default_seed() -> u64 {
    1
}

/// `POST /api/samegame/random`: a board of uniformly drawn colours (the CLI's `--random
/// COLSxROWSxCOLOURS` with `--seed`).
pub async fn random(JsonBody(body): JsonBody<RandomBody>) -> Result<Json<Value>, ApiError> {
    let RandomBody {
        width,
        height,
        colours,
        seed,
    } = body;
    let board = Board::random(width, height, colours, seed, Scoring::standard())
        .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, format!("random board: {e}")))?;
    let nb = NamedBoard {
        name: format!("random {width}x{height}x{colours} seed {seed}"),
        index: 1,
        board,
    };
    Ok(Json(json!({ "board": record(&nb) })))
}

fn default_scoring() -> String {
    "standard".into()
}

fn default_penalty() -> String {
    "none".into()
}

/// The body of `POST /api/samegame/play`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayBody {
    /// One board in any supported format.
    board: String,
    /// `standard` or `hungarian`.
    #[serde(default = "default_scoring")]
    scoring: String,
    /// `none`, `total` or `per-colour`.
    #[serde(default = "default_penalty")]
    penalty: String,
    /// The moves so far, `[col, row]` with the row from the top of the board before the move.
    #[serde(default)]
    moves: Vec<Cell>,
}

fn cell_list(cells: &[(usize, usize)]) -> Vec<Cell> {
    cells.iter().map(|&(c, r)| [c, r]).collect()
}

/// `POST /api/samegame/play`: the position after the moves, its removable groups and, once no
/// group is left, the end adjustment and the final score.
pub async fn play(JsonBody(body): JsonBody<PlayBody>) -> Result<Json<Value>, ApiError> {
    let scoring = scoring(&body.scoring, &body.penalty)?;
    let mut boards = parse_boards(&body.board, "board", scoring)?;
    if boards.len() != 1 {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("the board text holds {} boards; send one", boards.len()),
        ));
    }
    let start = boards.swap_remove(0).board;
    let moves: Vec<(usize, usize)> = body.moves.iter().map(|&[c, r]| (c, r)).collect();
    let board = rules::replay(&start, &moves).map_err(|e| ApiError {
        status: StatusCode::BAD_REQUEST,
        body: json!({ "error": format!("the moves do not replay: {e}"), "step": e.step }),
    })?;
    let groups: Vec<Value> = rules::removable_groups(&board)
        .into_iter()
        .map(|g| {
            json!({
                "cells": cell_list(&g.cells),
                "colour": g.colour,
                "size": g.cells.len(),
                "points": g.points,
            })
        })
        .collect();
    let ending = rules::ending(&board);
    Ok(Json(json!({
        "width": board.width(),
        "height": board.height(),
        "colours": board.colours(),
        "rows": board.rows(),
        "moves": moves.len(),
        "points": board.points(),
        "stones": board.stones(),
        "moves_left": groups.len(),
        "groups": groups,
        "over": ending.is_some(),
        "cleared": board.is_cleared(),
        "end_adjustment": ending.map(|(a, _)| a),
        "final_score": ending.map(|(_, s)| s),
        "scoring": scoring.name(),
        "penalty": scoring.penalty.to_string(),
        "clear_bonus": scoring.clear_bonus,
    })))
}
