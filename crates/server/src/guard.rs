//! Safe by default, as Jupyter and TensorBoard are: the `Host` header must name this server (a
//! page on another site that rebinds its DNS name to 127.0.0.1 is refused), a request with an
//! `Origin` must come from this server's own page, and every `/api/` call needs the token.

use crate::error::ApiError;
use crate::AppState;
use axum::extract::{Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use std::sync::Arc;

/// The host names (with port) this server answers to.
pub fn allowed_hosts(bound: std::net::SocketAddr) -> Vec<String> {
    let port = bound.port();
    let mut hosts = vec![
        format!("localhost:{port}"),
        format!("127.0.0.1:{port}"),
        format!("[::1]:{port}"),
    ];
    let own = match bound.ip() {
        std::net::IpAddr::V4(ip) => format!("{ip}:{port}"),
        std::net::IpAddr::V6(ip) => format!("[{ip}]:{port}"),
    };
    if !hosts.contains(&own) && !bound.ip().is_unspecified() {
        hosts.push(own);
    }
    hosts
}

/// Compare two strings in time independent of where they differ.
fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// The token of an `Authorization` value `Bearer TOKEN` (the scheme in any case, as HTTP
/// says of authentication schemes).
fn bearer(value: &str) -> Option<&str> {
    let (scheme, token) = value.trim().split_once(char::is_whitespace)?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim())
        .filter(|t| !t.is_empty())
}

/// The token sent with a request: `Authorization: Bearer …` or `?token=…`.
fn request_token(req: &Request) -> Option<String> {
    if let Some(v) = req.headers().get(header::AUTHORIZATION) {
        return v.to_str().ok().and_then(bearer).map(str::to_string);
    }
    req.uri().query().and_then(|q| {
        q.split('&')
            .find_map(|kv| kv.strip_prefix("token="))
            .map(str::to_string)
    })
}

/// The middleware: Host, then Origin, then (for `/api/`) the token.
pub async fn check(
    State(state): State<Arc<AppState>>,
    req: Request,
    next: Next,
) -> Result<Response, ApiError> {
    let host = req
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    if !state.hosts.iter().any(|h| h == host) {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            format!("host '{host}' is not this server (open the URL the server printed)"),
        ));
    }
    if let Some(origin) = req.headers().get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        let own = origin
            .strip_prefix("http://")
            .is_some_and(|h| state.hosts.iter().any(|a| a == h));
        if !own {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                format!("requests from origin '{origin}' are refused"),
            ));
        }
    }
    if req.uri().path().starts_with("/api/") {
        match request_token(&req) {
            None => {
                return Err(ApiError::new(
                    StatusCode::UNAUTHORIZED,
                    "this call needs the token printed in the server's URL",
                ))
            }
            Some(t) if !same_secret(&t, &state.token) => {
                return Err(ApiError::new(StatusCode::FORBIDDEN, "wrong token"))
            }
            Some(_) => {}
        }
    }
    Ok(next.run(req).await)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bearer_scheme_is_read_in_any_case() {
        assert_eq!(bearer("Bearer abc"), Some("abc"));
        assert_eq!(bearer("bearer abc"), Some("abc"));
        assert_eq!(bearer("BEARER  abc "), Some("abc"));
        assert_eq!(bearer("Basic abc"), None);
        assert_eq!(bearer("Bearer"), None);
        assert_eq!(bearer("Bearerabc"), None);
    }

    #[test]
    fn secrets_compare_whole() {
        assert!(same_secret("abc", "abc"));
        assert!(!same_secret("abc", "abd"));
        assert!(!same_secret("abc", "abcd"));
    }

    #[test]
    fn hosts_include_loopback_names_and_the_bound_address() {
        let h = allowed_hosts("192.168.1.5:80".parse().unwrap());
        assert!(h.contains(&"localhost:80".to_string()));
        assert!(h.contains(&"192.168.1.5:80".to_string()));
        let h = allowed_hosts("0.0.0.0:80".parse().unwrap());
        assert!(!h.iter().any(|x| x.starts_with("0.0.0.0")));
    }
}
