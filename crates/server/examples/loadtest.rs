//! A bounded load test of a running `puzzle serve` on loopback (docs/BENCHMARKS.md):
//!
//! ```sh
//! cargo run --release -p puzzle-server --example loadtest -- 'http://127.0.0.1:8765/?token=…' \
//!     [--clients 20] [--rounds 10] [--pid SERVER_PID]
//! ```
//!
//! Each client runs `rounds` rounds of: `GET /api/info`, `POST /api/sokoban/play` (one step),
//! and a one-second `sokoban_solve` job read to its end. It reports the status codes (anything
//! but 200 and 429 is an error), latencies, the time from a job request to its first event, and
//! the server's peak resident memory (with `--pid`, from /proc). Then one 10-second generation
//! alone measures events per second. Loopback only: the URL's host must be 127.0.0.1 or
//! localhost. Exits non-zero on any error.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

struct Target {
    addr: String,
    token: String,
}

/// One HTTP/1.1 request with `Connection: close`: the status, the time to the first
/// server-sent event (or to the end), and the whole response text.
async fn request(
    t: &Target,
    method: &str,
    path: &str,
    body: &str,
) -> std::io::Result<(u16, Duration, String)> {
    let start = Instant::now();
    let mut socket = tokio::net::TcpStream::connect(&t.addr).await?;
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        t.addr,
        t.token,
        body.len()
    );
    socket.write_all(head.as_bytes()).await?;
    socket.write_all(body.as_bytes()).await?;
    let mut text = Vec::new();
    let mut first_event = None;
    let mut buf = [0u8; 8192];
    loop {
        let n = tokio::time::timeout(Duration::from_secs(30), socket.read(&mut buf))
            .await
            .map_err(|_| std::io::Error::other("no answer in 30 s"))??;
        if n == 0 {
            break;
        }
        text.extend_from_slice(&buf[..n]);
        if first_event.is_none() && text.windows(7).any(|w| w == b"event: ") {
            first_event = Some(start.elapsed());
        }
    }
    let text = String::from_utf8_lossy(&text).into_owned();
    let status = text.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
    Ok((status, first_event.unwrap_or(start.elapsed()), text))
}

fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

fn percentile_ms(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i].as_secs_f64() * 1000.0
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let url = args
        .first()
        .expect("usage: loadtest URL [--clients N] [--rounds N] [--pid PID]");
    let flag = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse::<u64>().ok())
    };
    let clients = flag("--clients").unwrap_or(20).min(200);
    let rounds = flag("--rounds").unwrap_or(10).min(1000);
    let pid = flag("--pid").map(|p| p as u32);
    let rest = url.strip_prefix("http://").expect("an http:// URL");
    let (addr, query) = rest.split_once('/').expect("a URL with a path");
    assert!(
        addr.starts_with("127.0.0.1:") || addr.starts_with("localhost:"),
        "the load test only targets loopback"
    );
    let token = query.split("token=").nth(1).expect("the URL's token");
    let target = Arc::new(Target {
        addr: addr.to_string(),
        token: token.to_string(),
    });
    let level = r"#####\n#@$.#\n#   #\n#####\n";
    let statuses = Arc::new(Mutex::new(BTreeMap::<(String, u16), u64>::new()));
    let latencies = Arc::new(Mutex::new(Vec::new()));
    let first_events = Arc::new(Mutex::new(Vec::new()));
    let rss_before = pid.and_then(rss_kib);
    let peak = Arc::new(Mutex::new(rss_before.unwrap_or(0)));
    let sampling = Arc::new(AtomicBool::new(true));
    let sampler = {
        let (peak, sampling) = (peak.clone(), sampling.clone());
        tokio::spawn(async move {
            while sampling.load(Ordering::Relaxed) {
                if let Some(kib) = pid.and_then(rss_kib) {
                    let mut p = peak.lock().unwrap();
                    *p = (*p).max(kib);
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        })
    };
    let started = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..clients {
        let (t, statuses, latencies, first_events) = (
            target.clone(),
            statuses.clone(),
            latencies.clone(),
            first_events.clone(),
        );
        tasks.push(tokio::spawn(async move {
            for _ in 0..rounds {
                let calls = [
                    ("info", "GET", "/api/info", String::new()),
                    (
                        "play",
                        "POST",
                        "/api/sokoban/play",
                        format!(r#"{{"xsb":"{level}","moves":"","action":{{"step":"r"}}}}"#),
                    ),
                    (
                        "job",
                        "POST",
                        "/api/jobs",
                        format!(r#"{{"job":"sokoban_solve","xsb":"{level}","time_limit":1}}"#),
                    ),
                ];
                for (name, method, path, body) in calls {
                    let start = Instant::now();
                    let status = match request(&t, method, path, &body).await {
                        Ok((status, first, _)) => {
                            if name == "job" && status == 200 {
                                first_events.lock().unwrap().push(first);
                            }
                            status
                        }
                        Err(_) => 0,
                    };
                    latencies.lock().unwrap().push(start.elapsed());
                    *statuses
                        .lock()
                        .unwrap()
                        .entry((name.to_string(), status))
                        .or_insert(0) += 1;
                }
            }
        }));
    }
    for task in tasks {
        let _ = task.await;
    }
    let elapsed = started.elapsed();
    let mut lat = latencies.lock().unwrap().clone();
    lat.sort();
    let mut first = first_events.lock().unwrap().clone();
    first.sort();
    let statuses = statuses.lock().unwrap().clone();
    let errors: u64 = statuses
        .iter()
        .filter(|((_, s), _)| *s != 200 && *s != 429)
        .map(|(_, n)| n)
        .sum();
    println!(
        "{clients} clients x {rounds} rounds: {} requests in {:.2} s ({:.0}/s)",
        lat.len(),
        elapsed.as_secs_f64(),
        lat.len() as f64 / elapsed.as_secs_f64()
    );
    for ((name, status), n) in &statuses {
        println!("  {name:<5} {status}: {n}");
    }
    println!("  errors (not 200 or 429): {errors}");
    println!(
        "  latency ms: median {:.2}, p95 {:.2}, max {:.2}",
        percentile_ms(&lat, 0.5),
        percentile_ms(&lat, 0.95),
        percentile_ms(&lat, 1.0)
    );
    println!(
        "  job request -> first event ms: median {:.2}, p95 {:.2} ({} jobs admitted)",
        percentile_ms(&first, 0.5),
        percentile_ms(&first, 0.95),
        first.len()
    );
    // One generation alone: events per second.
    let generation = r#"{"job":"sokoban_generate","time_limit":10}"#;
    let start = Instant::now();
    let (_, first_gen, text) = request(&target, "POST", "/api/jobs", generation)
        .await
        .expect("the generation");
    let secs = start.elapsed().as_secs_f64();
    let count = |kind: &str| text.matches(&format!("event: {kind}\n")).count();
    let all = text.matches("event: ").count();
    println!(
        "  generation 10 s: first event after {:.2} ms; {all} events in {secs:.2} s ({:.1}/s: {} progress, {} levels)",
        first_gen.as_secs_f64() * 1000.0,
        all as f64 / secs,
        count("progress"),
        count("result")
    );
    sampling.store(false, Ordering::Relaxed);
    let _ = sampler.await;
    if let (Some(before), Some(after)) = (rss_before, pid.and_then(rss_kib)) {
        println!(
            "  server RSS: {before} KiB before, peak {} KiB, {after} KiB after",
            peak.lock().unwrap()
        );
    }
    if errors > 0 {
        std::process::exit(1);
    }
}
