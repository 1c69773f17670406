//! Sokoban endpoints: the bundled sets, parsing pasted XSB, the state of a level being played
//! (rules, walking and deadlocks from the sokoban crate), and hints.

use crate::body::JsonBody;
use crate::error::ApiError;
use crate::jobs::StopOnDrop;
use crate::AppState;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use puzzle_jobs::data::{sokoban_set, SOKOBAN_SETS};
use puzzle_jobs::sokoban::{parse_levels, Hint};
use puzzle_jobs::Limits;
use puzzle_sokoban::board::MAX_CELLS;
use puzzle_sokoban::{Dir, Level, Play};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::sync::Arc;

/// `[x, y]`: column and row from the top-left, 0-based.
type Cell = [usize; 2];

fn cells(level: &Level, pick: impl Fn(usize) -> bool) -> Vec<Cell> {
    (0..level.width * level.height)
        .filter(|&i| pick(i))
        .map(|i| {
            let (x, y) = level.xy(i);
            [x, y]
        })
        .collect()
}

#[derive(Serialize)]
struct LevelRecord {
    index: usize,
    title: Option<String>,
    xsb: String,
    width: usize,
    height: usize,
    boxes: usize,
}

fn records(levels: &[Level]) -> Vec<LevelRecord> {
    levels
        .iter()
        .enumerate()
        .map(|(i, l)| LevelRecord {
            index: i + 1,
            title: l.title.clone(),
            xsb: l.to_xsb(),
            width: l.width,
            height: l.height,
            boxes: l.box_count(),
        })
        .collect()
}

/// `GET /api/sokoban/sets`.
pub async fn sets() -> Json<Value> {
    Json(Value::Array(
        SOKOBAN_SETS
            .iter()
            .map(|s| {
                let n = parse_levels(s.text, s.id).map_or(0, |l| l.len());
                json!({ "id": s.id, "name": s.name, "levels": n })
            })
            .collect(),
    ))
}

/// `GET /api/sokoban/sets/{id}`.
pub async fn set(Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    let set = sokoban_set(&id).ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            format!("no bundled level set '{id}'"),
        )
    })?;
    let levels = parse_levels(set.text, set.id)?;
    Ok(Json(
        json!({ "id": set.id, "name": set.name, "levels": records(&levels) }),
    ))
}

/// A text of levels.
#[derive(Deserialize)]
pub struct XsbBody {
    xsb: String,
}

/// `POST /api/sokoban/parse`.
pub async fn parse(JsonBody(body): JsonBody<XsbBody>) -> Result<Json<Value>, ApiError> {
    let levels = parse_levels(&body.xsb, "pasted level")?;
    Ok(Json(json!({ "levels": records(&levels) })))
}

fn one_level(xsb: &str) -> Result<Level, ApiError> {
    let mut levels = parse_levels(xsb, "level")?;
    Ok(levels.swap_remove(0))
}

/// One level the workbench can play and search: at most [`MAX_CELLS`] playable cells (the
/// solvers' limit), else a 400 naming the limit before any work on the level.
fn playable_level(xsb: &str) -> Result<Level, ApiError> {
    let level = one_level(xsb)?;
    let cells = level.area().iter().filter(|&&a| a).count();
    if cells > MAX_CELLS {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            format!(
                "level too large: {cells} playable cells ({}×{}); the workbench plays and \
                 solves levels of at most {MAX_CELLS} playable cells",
                level.width, level.height
            ),
        ));
    }
    Ok(level)
}

/// What the player does next.
#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// One step; pushes when a box is in the way.
    Step(String),
    /// Walk to a cell without pushing.
    WalkTo(Cell),
    /// Push the box on `from` to `to` with the fewest pushes, walking between them.
    PushBox {
        /// The box's cell.
        from: Cell,
        /// Where it should go.
        to: Cell,
    },
}

/// The body of `POST /api/sokoban/play`.
#[derive(Deserialize)]
pub struct PlayBody {
    xsb: String,
    #[serde(default)]
    moves: String,
    #[serde(default)]
    action: Option<Action>,
}

fn state_json(play: &Play) -> Value {
    let level = play.level();
    let area = level.area();
    let dead = play.deadlocks();
    let xy = |i: usize| -> Cell {
        let (x, y) = level.xy(i);
        [x, y]
    };
    json!({
        "width": level.width,
        "height": level.height,
        "walls": cells(level, |i| level.walls[i]),
        "goals": cells(level, |i| level.goals[i]),
        "boxes": cells(level, |i| play.boxes()[i]),
        "floor": cells(level, |i| area[i]),
        "player": xy(play.player()),
        "moves": play.moves(),
        "pushes": play.pushes(),
        "solved": play.is_solved(),
        "dead_squares": dead.dead_squares.into_iter().map(xy).collect::<Vec<_>>(),
        "frozen_boxes": dead.frozen_boxes.into_iter().map(xy).collect::<Vec<_>>(),
    })
}

/// `POST /api/sokoban/play`.
pub async fn play(JsonBody(body): JsonBody<PlayBody>) -> Result<Json<Value>, ApiError> {
    let level = playable_level(&body.xsb)?;
    let mut play = Play::from_lurd(&level, &body.moves).map_err(|e| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("the moves do not replay: {e}"),
        )
    })?;
    let applied = match &body.action {
        None => true,
        Some(Action::Step(s)) => {
            let dir = s
                .chars()
                .next()
                .filter(|_| s.chars().count() == 1)
                .and_then(|c| Dir::from_letter(c.to_ascii_lowercase()))
                .map(|(d, _)| d)
                .ok_or_else(|| {
                    ApiError::new(
                        StatusCode::BAD_REQUEST,
                        format!("step '{s}' is not one of l, u, r, d"),
                    )
                })?;
            play.step(dir)
        }
        Some(Action::WalkTo([x, y])) => {
            *x < level.width && *y < level.height && play.walk_to(level.index(*x, *y))
        }
        Some(Action::PushBox { from, to }) => {
            let inside = |[x, y]: &Cell| *x < level.width && *y < level.height;
            inside(from)
                && inside(to)
                && play.push_box_to(level.index(from[0], from[1]), level.index(to[0], to[1]))
        }
    };
    Ok(Json(
        json!({ "moves": play.lurd(), "applied": applied, "state": state_json(&play) }),
    ))
}

/// The body of `POST /api/sokoban/hint`.
#[derive(Deserialize)]
pub struct HintBody {
    xsb: String,
    #[serde(default)]
    moves: String,
    #[serde(default)]
    time_limit: Option<f64>,
}

/// `POST /api/sokoban/hint`: a search, so it runs as any job does: admitted under the job
/// limit, stopped at the time cap, on shutdown, and when its client goes away (the request's
/// future is dropped, raising the stop flag; the slot is freed when the search returns).
pub async fn hint(
    State(state): State<Arc<AppState>>,
    JsonBody(body): JsonBody<HintBody>,
) -> Result<Json<Hint>, ApiError> {
    let level = playable_level(&body.xsb)?;
    let limits = Limits {
        time_limit: body.time_limit,
        ..Limits::default()
    };
    limits.validate()?;
    let limits = state.jobs.capped(limits);
    let run = state.jobs.start()?;
    let _client = StopOnDrop(run.stop().clone());
    let hint = tokio::task::spawn_blocking(move || {
        let hint = puzzle_jobs::sokoban::hint(&level, &body.moves, &limits, run.stop());
        (hint, run.capped())
    })
    .await
    .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    match hint {
        (Ok(hint), true) if hint.hint.is_none() => Ok(Json(Hint {
            reason: Some(format!(
                "no solution found from here within the server's time cap of {} s",
                state.jobs.time_cap.as_secs_f64()
            )),
            ..hint
        })),
        (hint, _) => Ok(Json(hint?)),
    }
}
