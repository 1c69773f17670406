//! The workbench page: static files under `web/`, embedded in the binary at build time (no
//! build step, nothing from the network).

use axum::http::{header, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use include_dir::{include_dir, Dir};

static WEB: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/web");

fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("json") => "application/json",
        _ => "application/octet-stream",
    }
}

/// Total bytes of the embedded page (for the benchmarks' page weight).
pub fn page_bytes() -> usize {
    fn walk(d: &Dir<'_>) -> usize {
        d.files().map(|f| f.contents().len()).sum::<usize>() + d.dirs().map(walk).sum::<usize>()
    }
    walk(&WEB)
}

/// Serve `/` as `index.html` and every other path from `web/` (the security and cache headers
/// are [`crate::headers::harden`]'s).
pub async fn serve(uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    let path = if path.is_empty() { "index.html" } else { path };
    match WEB.get_file(path) {
        Some(f) => ([(header::CONTENT_TYPE, content_type(path))], f.contents()).into_response(),
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}
