//! `puzzle serve` as a user runs it: it prints its URL with a token, serves the page, and on
//! SIGTERM ends the open job streams (with their `end` event) and exits.

use std::io::{BufRead, BufReader, Lines, Read, Write};
use std::net::TcpStream;
use std::process::{Child, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

fn http(addr: &str, request: &str) -> TcpStream {
    let mut s = TcpStream::connect(addr).expect("connecting to the server");
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    s.write_all(request.as_bytes()).unwrap();
    s
}

/// A running `puzzle serve --port 0`: the child, `host:port`, the token, and its standard
/// output, kept open (a closed pipe would end the server at its next line).
struct Server {
    child: Child,
    addr: String,
    token: String,
    _stdout: Lines<BufReader<ChildStdout>>,
}

/// Start `puzzle serve --port 0` and read its URL.
fn start_server() -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_puzzle"))
        .args(["serve", "--port", "0"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("starting puzzle serve");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    let url = first
        .split_whitespace()
        .find(|w| w.starts_with("http://127.0.0.1:"))
        .unwrap_or_else(|| panic!("no URL in {first:?}"));
    let (addr, token) = url
        .strip_prefix("http://")
        .and_then(|r| r.split_once("/?token="))
        .expect("URL with a token");
    Server {
        addr: addr.to_string(),
        token: token.to_string(),
        child,
        _stdout: lines,
    }
}

/// `POST /api/jobs` with `body`; the stream after its `200` status line.
fn post_job(addr: &str, token: &str, body: &str) -> TcpStream {
    let mut stream = http(
        addr,
        &format!(
            "POST /api/jobs HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        ),
    );
    let mut head = [0u8; 64];
    let n = stream.read(&mut head).unwrap();
    assert!(String::from_utf8_lossy(&head[..n]).starts_with("HTTP/1.1 200"));
    stream
}

/// Send SIGTERM to the server.
fn sigterm(child: &Child) {
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
}

/// The server exits, successfully, within ten seconds.
fn assert_clean_exit(child: &mut Child) {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "a clean exit: {status}");
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the server did not exit"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[cfg(unix)]
#[test]
fn serve_prints_its_url_and_sigterm_ends_open_jobs_cleanly() {
    let mut server = start_server();
    let (addr, token) = (server.addr.as_str(), server.token.as_str());
    assert_eq!(token.len(), 32, "a 128-bit token in hex");

    // The page is served.
    let mut page = String::new();
    http(
        addr,
        &format!("GET / HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"),
    )
    .read_to_string(&mut page)
    .unwrap();
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");

    // A long generation is running when SIGTERM comes.
    let mut stream = post_job(
        addr,
        token,
        r#"{"job":"sokoban_generate","time_limit":120}"#,
    );
    std::thread::sleep(Duration::from_millis(500));
    sigterm(&server.child);
    let mut rest = String::new();
    stream.read_to_string(&mut rest).unwrap();
    assert!(
        rest.contains("event: end\ndata: {\"reason\":\"stopped\"}"),
        "the stream ends with its end event: {rest:.300}"
    );
    assert!(rest.contains("\"interrupted\":true"), "the summary says so");
    assert_clean_exit(&mut server.child);
}

/// A Bait agent deep in a move whose budget is ten minutes: SIGTERM still ends its stream with
/// the `end` event at once (the agent polls the stop flag inside the move).
#[cfg(unix)]
#[test]
fn sigterm_ends_a_bait_move_in_progress_with_its_end_event() {
    let mut server = start_server();
    let (addr, token) = (server.addr.as_str(), server.token.as_str());
    let mut stream = post_job(
        addr,
        token,
        r#"{"job":"bait_play","level":3,"agent":"mcts","budget_ms":600000}"#,
    );
    // Into the first move.
    std::thread::sleep(Duration::from_millis(500));
    let signalled = Instant::now();
    sigterm(&server.child);
    let mut rest = String::new();
    stream.read_to_string(&mut rest).unwrap();
    let ended = signalled.elapsed();
    assert!(
        rest.contains("event: end\ndata: {\"reason\":\"stopped\"}"),
        "the stream ends with its end event: {rest:.300}"
    );
    assert!(rest.contains("\"interrupted\":true"), "the game says so");
    // The promise is a second; the rest is slack for a busy machine (the server's own last
    // resort cuts streams after 5 s).
    assert!(
        ended < Duration::from_secs(3),
        "the stream ended {ended:?} after SIGTERM"
    );
    assert_clean_exit(&mut server.child);
}
