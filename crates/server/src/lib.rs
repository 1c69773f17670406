//! The workbench server of puzzle-search (`puzzle serve`): the page, embedded in the binary,
//! and an HTTP API over the job layer ([`puzzle_jobs`]), safe by default (loopback, a token,
//! Host and Origin checks, a body limit, one limit on concurrent searches, a time cap).
//! The API is documented in `docs/API.md`.

#![warn(missing_docs)]

pub mod assets;
pub mod bait;
pub mod body;
pub mod error;
pub mod games;
pub mod guard;
pub mod headers;
pub mod jobs;
pub mod results;
pub mod samegame;
pub mod sets;
pub mod sokoban;
pub mod sudoku;

use anyhow::{Context, Result};
use axum::extract::{DefaultBodyLimit, State};
use axum::routing::{any, delete, get, post};
use axum::{middleware, Json, Router};
use jobs::Jobs;
use serde_json::{json, Value};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

/// The largest request body accepted (1 MiB).
pub const BODY_LIMIT: usize = 1 << 20;

/// How `puzzle serve` runs.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// The address to listen on (default loopback).
    pub bind: IpAddr,
    /// The port (0: any free port).
    pub port: u16,
    /// The token (default: 32 random hex digits).
    pub token: Option<String>,
    /// Concurrent searches (default: the number of cores).
    pub max_jobs: usize,
    /// The longest a job may run.
    pub job_time_cap: Duration,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            bind: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: 8765,
            token: None,
            max_jobs: cores(),
            job_time_cap: Duration::from_secs(600),
        }
    }
}

/// The machine's cores.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// What every handler shares.
#[derive(Debug)]
pub struct AppState {
    /// The secret every API call must carry.
    pub token: String,
    /// Host header values this server answers to.
    pub hosts: Vec<String>,
    /// The running jobs and their limits.
    pub jobs: Arc<Jobs>,
}

/// A new random token: 128 bits from the operating system, as hex.
pub fn random_token() -> Result<String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| anyhow::anyhow!("no randomness for the token: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// The state for a server bound to `addr`.
pub fn state(config: &ServerConfig, addr: SocketAddr, token: String) -> Arc<AppState> {
    Arc::new(AppState {
        token,
        hosts: guard::allowed_hosts(addr),
        jobs: Jobs::new(config.max_jobs.max(1), config.job_time_cap, cores()),
    })
}

async fn info(State(state): State<Arc<AppState>>) -> Json<Value> {
    Json(json!({
        "version": env!("CARGO_PKG_VERSION"),
        "max_jobs": state.jobs.max_jobs,
        "job_time_cap_s": state.jobs.time_cap.as_secs_f64(),
        "body_limit_bytes": BODY_LIMIT,
        "running_jobs": state.jobs.running(),
        "cores": cores(),
    }))
}

/// Every route, behind the guard.
pub fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/api/info", get(info))
        .route("/api/jobs", post(jobs::start).get(jobs::list))
        .route("/api/jobs/{id}", delete(jobs::stop))
        .route("/api/sokoban/sets", get(sokoban::sets))
        .route("/api/sokoban/sets/{id}", get(sokoban::set))
        .route("/api/sokoban/parse", post(sokoban::parse))
        .route("/api/sokoban/play", post(sokoban::play))
        .route("/api/sokoban/hint", post(sokoban::hint))
        .route("/api/samegame/sets", get(samegame::sets))
        .route("/api/samegame/sets/{id}", get(samegame::set))
        .route("/api/samegame/parse", post(samegame::parse))
        .route("/api/samegame/random", post(samegame::random))
        .route("/api/samegame/play", post(samegame::play))
        .route("/api/games", get(games::list))
        .route("/api/games/{game}/check", post(games::check))
        .route("/api/results", get(results::list))
        .route("/api/results/{id}", get(results::one))
        .route("/api/sets", get(sets::list))
        .route("/api/sets/{game}/{id}", get(sets::one))
        .route("/api/bait/levels", get(bait::levels))
        .route("/api/bait/agents", get(bait::agents))
        .route("/api/bait/play", post(bait::play))
        .route("/api/sudoku/sets", get(sudoku::sets))
        .route("/api/sudoku/sets/{id}", get(sudoku::set))
        .route("/api/sudoku/parse", post(sudoku::parse))
        .route("/api/sudoku/state", post(sudoku::state))
        .route("/api/sudoku/hint", post(sudoku::hint))
        .route("/api/{*rest}", any(error::no_endpoint))
        .fallback(get(assets::serve))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(middleware::from_fn_with_state(state.clone(), guard::check))
        .layer(middleware::from_fn(headers::harden))
        .with_state(state)
}

/// Serve until Ctrl-C or SIGTERM; `ready` hears the URL (with the token) once listening.
pub async fn serve(config: ServerConfig, ready: impl FnOnce(&str)) -> Result<()> {
    let listener = tokio::net::TcpListener::bind((config.bind, config.port))
        .await
        .with_context(|| format!("cannot listen on {}:{}", config.bind, config.port))?;
    let addr = listener.local_addr()?;
    let token = match &config.token {
        Some(t) => t.clone(),
        None => random_token()?,
    };
    let state = state(&config, addr, token.clone());
    let host = match addr.ip() {
        ip if ip.is_unspecified() || ip.is_loopback() => "127.0.0.1".to_string(),
        IpAddr::V6(ip) => format!("[{ip}]"),
        IpAddr::V4(ip) => ip.to_string(),
    };
    ready(&format!("http://{host}:{}/?token={token}", addr.port()));
    let jobs = state.jobs.clone();
    let app = router(state);
    let (closing_tx, closing_rx) = tokio::sync::watch::channel(false);
    let server = axum::serve(listener, app).with_graceful_shutdown(async move {
        shutdown_signal().await;
        // End every job: their streams close, and the connections with them.
        jobs.stop_all();
        let _ = closing_tx.send(true);
    });
    let mut closing = closing_rx;
    tokio::select! {
        r = server => r.context("serving")?,
        _ = async {
            let _ = closing.wait_for(|&c| c).await;
            tokio::time::sleep(Duration::from_secs(5)).await;
        } => {}
    }
    Ok(())
}

/// Ctrl-C, or SIGTERM on Unix.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! { _ = ctrl_c => {}, _ = term => {} }
}

/// Run [`serve`] on a runtime of its own (for the synchronous CLI).
pub fn serve_blocking(config: ServerConfig, ready: impl FnOnce(&str)) -> Result<()> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("starting the server's runtime")?
        .block_on(serve(config, ready))
}
