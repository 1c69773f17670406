//! Bait endpoints: GVGAI's five levels, the agents, and the position of a game played by hand
//! (the start replayed through an action string under the bait crate's rules,
//! [`puzzle_bait::play::play_text`]).

use crate::body::JsonBody;
use crate::error::ApiError;
use axum::http::StatusCode;
use axum::Json;
use puzzle_bait::play::play_text;
use puzzle_bait::{AgentKind, AnyLevel, BaitState, Level, LevelVisitor, MAX_TICKS};
use puzzle_jobs::bait::{parse_level, DEFAULT_BUDGET_MS, MAX_BUDGET_MS};
use puzzle_jobs::data::{bait_level, BAIT_LEVELS};
use serde::Deserialize;
use serde_json::{json, Value};

/// `GET /api/bait/levels`: GVGAI's five levels with their text and size.
pub async fn levels() -> Json<Value> {
    Json(Value::Array(
        BAIT_LEVELS
            .iter()
            .map(|l| {
                let level = Level::parse(l.text).expect("bundled levels are valid");
                json!({
                    "id": l.id,
                    "name": l.name,
                    "text": l.text,
                    "width": level.width,
                    "height": level.height,
                })
            })
            .collect(),
    ))
}

/// `GET /api/bait/agents`: the agents a `bait_play` job takes, and the per-move budget's
/// default and limit.
pub async fn agents() -> Json<Value> {
    Json(json!({
        "agents": AgentKind::ALL
            .iter()
            .map(|a| json!({ "name": a.name(), "description": a.description() }))
            .collect::<Vec<_>>(),
        "default_agent": "astar",
        "default_budget_ms": DEFAULT_BUDGET_MS,
        "max_budget_ms": MAX_BUDGET_MS,
    }))
}

/// The body of `POST /api/bait/play`: a level (bundled by number, or text) and the actions
/// played so far.
#[derive(Deserialize)]
pub struct PlayBody {
    #[serde(default)]
    level: Option<usize>,
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    actions: String,
}

/// The level of a play body, in the narrowest bitset width that holds it.
fn level_of(body: &PlayBody) -> Result<AnyLevel, ApiError> {
    let bad = |m: String| ApiError::new(StatusCode::BAD_REQUEST, m);
    match (body.level, &body.text) {
        (Some(i), None) => {
            let l = bait_level(i)
                .ok_or_else(|| bad(format!("level: there is no level {i} (0 to 4)")))?;
            Ok(AnyLevel::from(
                Level::parse(l.text).expect("bundled levels are valid"),
            ))
        }
        (None, Some(text)) => Ok(parse_level(text, "pasted level")?),
        (None, None) => Err(bad(
            "give a level: `level` (0 to 4) or a level's `text`".into()
        )),
        (Some(_), Some(_)) => Err(bad("give either `level` or `text`, not both".into())),
    }
}

/// A position as the page draws it: the board rows (GVGAI level text, as in a `bait_play`
/// job's tick events), the avatar's cell and the counters.
fn state_json<const W: usize>(state: &BaitState<W>) -> Value {
    let level = state.level();
    let (x, y) = state.avatar_xy();
    json!({
        "width": level.width,
        "height": level.height,
        "rows": state.render().lines().collect::<Vec<_>>(),
        "avatar": [x, y],
        "tick": state.tick(),
        "max_ticks": MAX_TICKS,
        "score": state.points(),
        "has_key": state.dy.has_key,
        "status": state.status().name(),
    })
}

/// `POST /api/bait/play`.
pub async fn play(JsonBody(body): JsonBody<PlayBody>) -> Result<Json<Value>, ApiError> {
    let level = level_of(&body)?;
    level.visit(HandPlay {
        actions: &body.actions,
    })
}

/// The actions of a play body replayed from the start of a level of any width.
struct HandPlay<'a> {
    actions: &'a str,
}

impl LevelVisitor for HandPlay<'_> {
    type Output = Result<Json<Value>, ApiError>;

    fn visit<const W: usize>(self, level: Level<W>) -> Self::Output {
        let hand = play_text(&BaitState::new(level), self.actions)
            .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, format!("actions: {e}")))?;
        Ok(Json(json!({
            "actions": hand.actions,
            "dropped": hand.dropped,
            "state": state_json(&hand.state),
        })))
    }
}
