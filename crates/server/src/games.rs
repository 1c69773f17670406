//! The registered games ([`puzzle_jobs::games`]) as the page sees them: `GET /api/games` lists
//! them, and `POST /api/games/{game}/check` reads a text in a game's format and says whether
//! it holds items or where it is wrong, with `200` either way, so that a page checking a text
//! as it is typed or drawn makes no failed request.

use crate::body::JsonBody;
use crate::error::ApiError;
use axum::extract::Path;
use axum::http::StatusCode;
use axum::Json;
use puzzle_jobs::games::{game, GAMES};
use serde::Deserialize;
use serde_json::{json, Value};

/// `GET /api/games`: `[{"name", "title", "format", "sets": [ids]}, …]`, in the workbench's order.
pub async fn list() -> Json<Value> {
    Json(json!(GAMES
        .iter()
        .map(|g| json!({
            "name": g.name,
            "title": g.title,
            "format": g.format,
            "sets": (g.sets)().iter().map(|s| s.id).collect::<Vec<_>>(),
        }))
        .collect::<Vec<_>>()))
}

/// The body of `POST /api/games/{game}/check`.
#[derive(Deserialize)]
pub struct TextBody {
    text: String,
}

/// `POST /api/games/{game}/check`: `{"valid": true, "items": N}` when the text reads (N items),
/// else `{"valid": false, "error": …, "line": L, "column": C, "level": K}` (`column` and `level`
/// when known). `404` for a game that is not registered.
pub async fn check(
    Path(name): Path<String>,
    JsonBody(body): JsonBody<TextBody>,
) -> Result<Json<Value>, ApiError> {
    let Some(spec) = game(&name) else {
        let names: Vec<&str> = GAMES.iter().map(|g| g.name).collect();
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            format!("no game '{name}' (the games: {})", names.join(", ")),
        ));
    };
    Ok(Json(match (spec.read)(&body.text) {
        Ok(items) => json!({ "valid": true, "items": items.len() }),
        Err(error) => {
            let mut answer = json!({ "valid": false, "error": error.to_string() });
            if let Some(place) = spec.find_text_error(error.as_ref()) {
                answer["line"] = json!(place.line);
                if let Some(column) = place.column {
                    answer["column"] = json!(column);
                }
                if let Some(item) = place.item {
                    answer["level"] = json!(item);
                }
            }
            answer
        }
    }))
}
