//! Every bundled test set of every game, for the workbench's test-set page: the list
//! (`GET /api/sets`) and one set's text (`GET /api/sets/{game}/{id}`), both from the game
//! registry ([`puzzle_jobs::games`]). Item counts come from the games' own readers.

use crate::error::ApiError;
use axum::extract::Path;
use axum::http::StatusCode;
use axum::Json;
use puzzle_jobs::games::GAMES;
use serde::Serialize;
use serde_json::{json, Value};
use std::sync::OnceLock;

/// One bundled set: its game, id, display name and item count (levels, boards, puzzles).
#[derive(Clone, Debug, Serialize)]
pub struct SetInfo {
    /// The set's id, as job requests name it (`microban`, `standard20`, `top95`, `levels`).
    pub id: &'static str,
    /// The game's name (`sokoban` …).
    pub game: &'static str,
    /// A display name.
    pub name: &'static str,
    /// Items in the set.
    pub items: usize,
    /// The set's text (for Bait, the five GVGAI levels, each followed by a blank line).
    #[serde(skip)]
    pub text: String,
}

/// Every bundled set, in the order the workbench lists them (read once).
pub fn all_sets() -> &'static [SetInfo] {
    static SETS: OnceLock<Vec<SetInfo>> = OnceLock::new();
    SETS.get_or_init(|| {
        GAMES
            .iter()
            .flat_map(|game| {
                (game.sets)().into_iter().map(|set| SetInfo {
                    id: set.id,
                    game: game.name,
                    name: set.name,
                    // The bundled data is tested to read (the games' conformance test).
                    items: (game.read)(&set.text).map_or(0, |items| items.len()),
                    text: set.text.into_owned(),
                })
            })
            .collect()
    })
}

/// `GET /api/sets`: `[{"id", "game", "name", "items"}, …]`.
pub async fn list() -> Json<Value> {
    Json(json!(all_sets()))
}

/// `GET /api/sets/{game}/{id}`: one set with its text.
pub async fn one(Path((game, id)): Path<(String, String)>) -> Result<Json<Value>, ApiError> {
    let set = all_sets()
        .iter()
        .find(|s| s.game == game && s.id == id)
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::NOT_FOUND,
                format!("no bundled {game} set '{id}' (GET /api/sets lists them)"),
            )
        })?;
    Ok(Json(json!({
        "id": set.id,
        "game": set.game,
        "name": set.name,
        "items": set.items,
        "text": set.text,
    })))
}
