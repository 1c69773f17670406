//! The one middleware that hardens every response: a Content-Security-Policy that lets the
//! page load only its own scripts and styles and be framed by no one, `X-Frame-Options`,
//! `Referrer-Policy`, `X-Content-Type-Options`, `Cross-Origin-Resource-Policy`, and
//! `Cache-Control` (`no-store` for the page that carries the token in its URL and for every API
//! answer). It also turns the router's own plain-text refusals under `/api/` (an unknown path,
//! a method a route does not take) into JSON errors like every other error.

use crate::error::ApiError;
use axum::extract::Request;
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// The page's policy: everything from this server only (`data:` images for the plots and the
/// empty favicon), no framing, no plugins, no `<base>`, no form posting elsewhere.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
     style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; font-src 'self'; \
     manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Is `path` an answer no cache may keep: the API, and the page (its URL holds the token)?
fn no_store(path: &str) -> bool {
    path.starts_with("/api/") || path == "/" || path == "/index.html"
}

/// The middleware (outermost, so guard refusals get the headers too).
pub async fn harden(req: Request, next: Next) -> Response {
    let path = req.uri().path().to_string();
    let method = req.method().clone();
    let mut resp = next.run(req).await;
    if path.starts_with("/api/") && !is_json(&resp) && resp.status().is_client_error() {
        resp = json_refusal(&method, &path, resp).await.into_response();
    }
    let h = resp.headers_mut();
    let set = |h: &mut axum::http::HeaderMap, name, value: &'static str| {
        h.insert(name, HeaderValue::from_static(value));
    };
    set(h, header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY);
    set(h, header::X_FRAME_OPTIONS, "DENY");
    set(h, header::REFERRER_POLICY, "no-referrer");
    set(h, header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    h.insert(
        "cross-origin-resource-policy",
        HeaderValue::from_static("same-origin"),
    );
    let cache = if no_store(&path) {
        "no-store"
    } else {
        "no-cache"
    };
    set(h, header::CACHE_CONTROL, cache);
    resp
}

fn is_json(resp: &Response) -> bool {
    resp.headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"))
}

/// The JSON error for a refusal the router (or an extractor) made itself in plain text.
async fn json_refusal(method: &Method, path: &str, resp: Response) -> ApiError {
    let status = resp.status();
    let message = match status {
        StatusCode::NOT_FOUND => format!("no API endpoint {method} {path} (see docs/API.md)"),
        StatusCode::METHOD_NOT_ALLOWED => match resp.headers().get(header::ALLOW) {
            Some(allowed) => format!(
                "{path} does not take {method} (it takes {})",
                allowed.to_str().unwrap_or("another method")
            ),
            None => format!("{path} does not take {method} (see docs/API.md)"),
        },
        _ => {
            let text = axum::body::to_bytes(resp.into_body(), 4096)
                .await
                .map(|b| String::from_utf8_lossy(&b).trim().to_string())
                .unwrap_or_default();
            if text.is_empty() {
                format!(
                    "{method} {path}: {}",
                    status.canonical_reason().unwrap_or("refused")
                )
            } else {
                format!("{method} {path}: {text}")
            }
        }
    };
    ApiError::new(status, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_and_the_api_are_not_stored_and_assets_are_revalidated() {
        assert!(no_store("/"));
        assert!(no_store("/index.html"));
        assert!(no_store("/api/info"));
        assert!(!no_store("/app.js"));
    }
}
