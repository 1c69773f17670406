//! The papers' results as docs/results holds them (run at the papers' own budgets, see
//! docs/RESULTS.md), for the Experiments page to show without running anything:
//! `GET /api/results` lists the reports, `GET /api/results/{id}` gives one report's Markdown
//! with the plots it shows.

use crate::error::ApiError;
use axum::extract::Path;
use axum::http::StatusCode;
use axum::Json;
use include_dir::{include_dir, Dir};
use serde_json::{json, Value};

/// The reports, in docs/RESULTS.md's order: their ids and Markdown.
const REPORTS: [(&str, &str); 5] = [
    (
        "sokoban-generation",
        include_str!("../../../docs/results/sokoban-generation.md"),
    ),
    (
        "czech-thesis",
        include_str!("../../../docs/results/czech-thesis.md"),
    ),
    (
        "samegame-report",
        include_str!("../../../docs/results/samegame-report.md"),
    ),
    ("bait", include_str!("../../../docs/results/bait.md")),
    (
        "sokoban-ga",
        include_str!("../../../docs/results/sokoban-ga.md"),
    ),
];

/// The plots and full reports the reports link to (`generated/…`).
static GENERATED: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/../../docs/results/generated");

/// A report's title: its first heading's text.
fn title(markdown: &str) -> &str {
    markdown
        .lines()
        .find_map(|line| line.strip_prefix("# "))
        .unwrap_or("")
        .trim()
}

/// The plots a report shows (`![alt](generated/NAME.svg)`), in order: `(alt, path, svg)`.
fn plots(markdown: &str) -> Vec<Value> {
    let mut found = Vec::new();
    for line in markdown.lines() {
        let mut rest = line;
        while let Some(start) = rest.find("![") {
            rest = &rest[start + 2..];
            let Some((alt, after)) = rest.split_once("](") else {
                break;
            };
            let Some((path, after)) = after.split_once(')') else {
                break;
            };
            rest = after;
            let Some(name) = path
                .strip_prefix("generated/")
                .filter(|n| n.ends_with(".svg"))
            else {
                continue;
            };
            if let Some(svg) = GENERATED.get_file(name).and_then(|f| f.contents_utf8()) {
                found.push(json!({ "alt": alt, "path": path, "svg": svg }));
            }
        }
    }
    found
}

/// `GET /api/results`: `[{"id", "title"}, …]`, in docs/RESULTS.md's order.
pub async fn list() -> Json<Value> {
    Json(json!(REPORTS
        .iter()
        .map(|(id, markdown)| json!({ "id": id, "title": title(markdown) }))
        .collect::<Vec<_>>()))
}

/// `GET /api/results/{id}`: `{"id", "title", "markdown", "plots": [{"alt", "path", "svg"}]}`;
/// `404` naming the reports for another id.
pub async fn one(Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    let Some((id, markdown)) = REPORTS.iter().find(|(name, _)| *name == id) else {
        let ids: Vec<&str> = REPORTS.iter().map(|(id, _)| *id).collect();
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            format!("no saved report '{id}' (the reports: {})", ids.join(", ")),
        ));
    };
    Ok(Json(json!({
        "id": id,
        "title": title(markdown),
        "markdown": markdown,
        "plots": plots(markdown),
    })))
}
