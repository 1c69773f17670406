//! The headers every answer carries (page, assets, API, refusals), JSON errors for what the
//! router refuses by itself, and the token's scheme read in any case.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use tower::ServiceExt;

mod common;
use common::*;

async fn headers_of(req: Request<Body>) -> (StatusCode, axum::http::HeaderMap) {
    let resp = app().oneshot(req).await.unwrap();
    (resp.status(), resp.headers().clone())
}

fn header<'a>(h: &'a axum::http::HeaderMap, name: &str) -> &'a str {
    h.get(name)
        .unwrap_or_else(|| panic!("no {name} header"))
        .to_str()
        .unwrap()
}

fn assert_hardened(what: &str, h: &axum::http::HeaderMap, cache: &str) {
    let csp = header(h, "content-security-policy");
    for directive in [
        "default-src 'none'",
        "script-src 'self'",
        "frame-ancestors 'none'",
    ] {
        assert!(csp.contains(directive), "{what}: {csp}");
    }
    assert!(
        !csp.contains("unsafe-inline") && !csp.contains("unsafe-eval"),
        "{what}: {csp}"
    );
    assert_eq!(header(h, "x-frame-options"), "DENY", "{what}");
    assert_eq!(header(h, "referrer-policy"), "no-referrer", "{what}");
    assert_eq!(header(h, "x-content-type-options"), "nosniff", "{what}");
    assert_eq!(header(h, "cache-control"), cache, "{what}");
}

fn page(path: &str) -> Request<Body> {
    Request::get(path)
        .header("host", HOST)
        .body(Body::empty())
        .unwrap()
}

#[tokio::test]
async fn the_page_assets_and_api_answers_carry_the_security_headers() {
    let (status, h) = headers_of(page("/?token=abc")).await;
    assert_eq!(status, StatusCode::OK);
    assert_hardened("the page", &h, "no-store");
    let (status, h) = headers_of(page("/app.js")).await;
    assert_eq!(status, StatusCode::OK);
    assert_hardened("a script", &h, "no-cache");
    let (status, h) = headers_of(get("/api/info")).await;
    assert_eq!(status, StatusCode::OK);
    assert_hardened("an API answer", &h, "no-store");
    let (status, h) = headers_of(page("/api/info")).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_hardened("a refusal", &h, "no-store");
}

#[tokio::test]
async fn what_the_router_refuses_under_api_is_a_json_error() {
    let app = app();
    let (status, body) = call(&app, get("/api/no-such-thing")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("/api/no-such-thing"),
        "{body}"
    );
    let (status, body) = call(&app, post("/api/sokoban/nothing", &serde_json::json!({}))).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    assert!(body["error"].is_string(), "{body}");
    let (status, body) = call(&app, get("/api/sokoban/play")).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    let message = body["error"].as_str().unwrap();
    assert!(
        message.contains("/api/sokoban/play") && message.contains("GET"),
        "{body}"
    );
    // The page's own missing files stay plain.
    let resp = app.clone().oneshot(page("/no-such-file.js")).await.unwrap();
    assert_eq!(resp.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_bearer_scheme_is_case_insensitive() {
    let app = app();
    for scheme in ["Bearer", "bearer", "BEARER"] {
        let req = Request::get("/api/info")
            .header("host", HOST)
            .header("authorization", format!("{scheme} {TOKEN}"))
            .body(Body::empty())
            .unwrap();
        assert_eq!(call(&app, req).await.0, StatusCode::OK, "{scheme}");
    }
    let req = Request::get("/api/info")
        .header("host", HOST)
        .header("authorization", format!("Basic {TOKEN}"))
        .body(Body::empty())
        .unwrap();
    assert_eq!(call(&app, req).await.0, StatusCode::UNAUTHORIZED);
}
