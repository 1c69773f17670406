//! The workbench in a real browser: starts the server on a free loopback port and runs the
//! Playwright scenarios in `tests/browser/scenarios.mjs` (headless Debian chromium, kept off
//! the network). `.ci/run` installs chromium and `playwright-core`; without them this test
//! fails under CI (`CI` set) and says how to install them elsewhere.

use puzzle_server::{router, state, ServerConfig};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const CHROMIUM: &str = "/usr/bin/chromium";

fn browser_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser")
}

/// What is missing to run the scenarios, if anything.
fn missing() -> Option<String> {
    if !Path::new(CHROMIUM).exists() {
        return Some(format!("{CHROMIUM} (apt-get install chromium)"));
    }
    if Command::new("node").arg("--version").output().is_err() {
        return Some("node (apt-get install nodejs npm)".into());
    }
    if !browser_dir().join("node_modules/playwright-core").exists() {
        return Some(format!(
            "playwright-core (cd {} && npm ci)",
            browser_dir().display()
        ));
    }
    None
}

#[test]
fn browser_scenarios_pass() {
    if let Some(what) = missing() {
        if std::env::var_os("CI").is_some() {
            panic!("the browser scenarios need {what}; .ci/run installs it");
        }
        eprintln!("browser scenarios skipped: missing {what} (bash .ci/run installs it)");
        return;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let addr = listener.local_addr().unwrap();
    let token = puzzle_server::random_token().unwrap();
    let app = router(state(&ServerConfig::default(), addr, token.clone()));
    runtime.spawn(async move { axum::serve(listener, app).await });
    let url = format!("http://127.0.0.1:{}/?token={token}", addr.port());
    let failures = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-failures");
    let mut child = Command::new("node")
        .arg("scenarios.mjs")
        .arg(&url)
        .arg("--screenshots")
        .arg(&failures)
        .current_dir(browser_dir())
        .spawn()
        .expect("starting node");
    // The scenarios bound themselves; this is the last guard against a hang.
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > Duration::from_secs(300) {
            let _ = child.kill();
            panic!("the browser scenarios ran for over 5 minutes");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(
        status.success(),
        "browser scenarios failed (screenshots in {})",
        failures.display()
    );
}
