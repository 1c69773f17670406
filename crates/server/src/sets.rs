//! Every bundled test set of every game, for the workbench's test-set page: the list
//! (`GET /api/sets`) and one set's text (`GET /api/sets/{game}/{id}`), both from
//! [`puzzle_jobs::data`]. Item counts come from the games' own parsers.

use crate::error::ApiError;
use axum::extract::Path;
use axum::http::StatusCode;
use axum::Json;
use puzzle_jobs::data::{BAIT_LEVELS, SAMEGAME_SETS, SOKOBAN_SETS, SUDOKU_SETS};
use serde::Serialize;
use serde_json::{json, Value};
use std::sync::OnceLock;

/// One bundled set: its game, id, display name and item count (levels, boards, puzzles).
#[derive(Clone, Debug, Serialize)]
pub struct SetInfo {
    /// The set's id, as job requests name it (`microban`, `standard20`, `top95`, `levels`).
    pub id: &'static str,
    /// `sokoban`, `samegame`, `sudoku` or `bait`.
    pub game: &'static str,
    /// A display name.
    pub name: &'static str,
    /// Items in the set.
    pub items: usize,
    /// The set's text (for Bait, the five GVGAI levels, each followed by a blank line).
    #[serde(skip)]
    pub text: String,
}

/// The id of the Bait set: GVGAI's five levels, 0 to 4.
pub const BAIT_SET_ID: &str = "levels";

fn count_items(game: &str, id: &str, text: &str) -> usize {
    let counted = match game {
        "sokoban" => puzzle_jobs::sokoban::parse_levels(text, id).map(|l| l.len()),
        "samegame" => puzzle_jobs::samegame::scoring("standard", "none")
            .and_then(|s| puzzle_jobs::samegame::bundled_boards(id, s))
            .map(|b| b.len()),
        "sudoku" => puzzle_jobs::sudoku::parse_puzzle_text(text, id).map(|p| p.len()),
        _ => Ok(0),
    };
    // The bundled data is tested to parse; a set that does not is listed as empty.
    counted.unwrap_or(0)
}

/// Every bundled set, in the order the workbench lists them (parsed once).
pub fn all_sets() -> &'static [SetInfo] {
    static SETS: OnceLock<Vec<SetInfo>> = OnceLock::new();
    SETS.get_or_init(|| {
        let mut sets = Vec::new();
        let mut add = |game: &'static str, id: &'static str, name: &'static str, text: &str| {
            sets.push(SetInfo {
                id,
                game,
                name,
                items: count_items(game, id, text),
                text: text.to_string(),
            });
        };
        for s in SOKOBAN_SETS {
            add("sokoban", s.id, s.name, s.xsb);
        }
        for s in SAMEGAME_SETS {
            add("samegame", s.id, s.name, s.text);
        }
        for s in SUDOKU_SETS {
            add("sudoku", s.id, s.name, s.text);
        }
        let bait: String = BAIT_LEVELS
            .iter()
            .map(|l| format!("{}\n\n", l.text.trim_end()))
            .collect();
        sets.push(SetInfo {
            id: BAIT_SET_ID,
            game: "bait",
            name: "GVGAI's five Bait levels",
            items: BAIT_LEVELS.len(),
            text: bait,
        });
        sets
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
