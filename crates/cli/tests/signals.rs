//! SIGTERM (what batch schedulers send before they kill a job) and SIGINT stop a run the way
//! Ctrl-C does: the records so far, the summary and every `--out` file are complete and valid,
//! and the exit code says which signal stopped it (docs/ROBUSTNESS.md#exit-codes).

mod common;

use serde_json::Value;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// Start `puzzle ARGS` in `dir` with stdout and stderr piped.
fn spawn(dir: &Path, args: &[&str]) -> Child {
    Command::new(assert_cmd::cargo::cargo_bin("puzzle"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("puzzle starts")
}

/// Read the child's stdout line by line; once `lines` lines have come, send `signal`; return
/// the whole stdout, stderr and the exit code.
fn signal_after(mut child: Child, lines: usize, signal: &str) -> (Vec<String>, String, i32) {
    let stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        stderr.read_to_string(&mut s).unwrap();
        s
    });
    let (tx, rx) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut all = Vec::new();
        for line in BufReader::new(stdout).lines() {
            let line = line.unwrap();
            all.push(line);
            if all.len() == lines {
                tx.send(()).unwrap();
            }
        }
        all
    });
    rx.recv_timeout(Duration::from_secs(120))
        .expect("the first records came");
    let sent = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let status = child.wait().unwrap();
    let out = reader.join().unwrap();
    (
        out,
        err.join().unwrap(),
        status.code().expect("an exit, not a kill"),
    )
}

fn parse(line: &str) -> Value {
    serde_json::from_str(line).unwrap_or_else(|e| panic!("a whole JSON record: {line:?}: {e}"))
}

#[test]
fn sigterm_keeps_every_solved_level_and_the_summary() {
    let dir = tempfile::tempdir().unwrap();
    let microban =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/sokoban/Microban_155.xsb");
    let child = spawn(
        dir.path(),
        &[
            "solve",
            "sokoban",
            microban.to_str().unwrap(),
            "--json",
            "-q",
            "--threads",
            "1",
        ],
    );
    let (lines, stderr, code) = signal_after(child, 3, "-TERM");
    assert_eq!(code, 143, "128 + SIGTERM; stderr: {stderr}");
    let levels = puzzle_sokoban::parse_xsb(&std::fs::read_to_string(&microban).unwrap()).unwrap();
    assert!(lines.len() >= 3 && lines.len() < levels.len());
    for (i, line) in lines.iter().enumerate() {
        let r = parse(line);
        assert_eq!(r["level"], i + 1, "every level in order, none lost");
        if r["solved"] == true {
            let solution = r["solution"].as_str().unwrap();
            let outcome = puzzle_sokoban::replay(&levels[i], solution).unwrap();
            assert!(outcome.solved, "level {} replays to solved", i + 1);
        }
    }
    let summary = stderr
        .lines()
        .find(|l| l.starts_with('{'))
        .map(parse)
        .expect("the summary record on stderr");
    assert_eq!(summary["interrupted"], true);
    assert_eq!(summary["attempted"], lines.len());
    assert_eq!(summary["levels"], levels.len());
}

#[test]
fn sigint_stops_generation_with_a_whole_xsb_file() {
    let dir = tempfile::tempdir().unwrap();
    let child = spawn(
        dir.path(),
        &[
            "generate",
            "sokoban",
            "--width",
            "5",
            "--height",
            "5",
            "--time-limit",
            "120",
            "--threads",
            "1",
            "--boxes",
            "2",
            "--out",
            "levels.xsb",
            "--json",
            "-q",
        ],
    );
    let (lines, stderr, code) = signal_after(child, 5, "-INT");
    assert_eq!(code, 130, "128 + SIGINT; stderr: {stderr}");
    let records: Vec<Value> = lines.iter().map(|l| parse(l)).collect();
    let summary = records.last().unwrap();
    assert_eq!(summary["summary"], true, "the summary closes the records");
    assert_eq!(summary["interrupted"], true);
    let kept = records.len() - 1;
    let text = std::fs::read_to_string(dir.path().join("levels.xsb")).unwrap();
    let levels = puzzle_sokoban::parse_xsb(&text).expect("the XSB file is whole");
    assert_eq!(levels.len(), kept, "one level in the file per record");
}

#[test]
fn sigterm_writes_the_report_so_far() {
    let dir = tempfile::tempdir().unwrap();
    let child = spawn(
        dir.path(),
        &["experiment", "bait", "--out", "report.md", "--json", "-q"],
    );
    let (lines, stderr, code) = signal_after(child, 1, "-TERM");
    assert_eq!(code, 143, "stderr: {stderr}");
    for line in &lines {
        parse(line);
    }
    let md = std::fs::read_to_string(dir.path().join("report.md")).expect("the report");
    assert!(md.starts_with('#'), "a whole Markdown report: {md:.200}");
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(
        leftovers.is_empty(),
        "no temporary files left: {leftovers:?}"
    );
}

#[test]
fn a_finished_run_exits_zero_even_when_nothing_was_solved() {
    // A closed level with a box the player cannot reach: a valid level, unsolvable.
    let level = "#######\n#@#  .#\n### $ #\n#######\n";
    let file = common::temp_file(level);
    let out = common::puzzle()
        .args(["solve", "sokoban", "--json", "-q", "--time-limit", "5"])
        .arg(file.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let r = &common::json_lines(&out.stdout)[0];
    assert_eq!(r["solved"], false);
}

#[test]
fn an_error_exits_one_and_bad_usage_two() {
    let file = common::temp_file("#####\n#@$?#\n#####\n");
    let out = common::puzzle()
        .args(["solve", "sokoban"])
        .arg(file.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let out = common::puzzle()
        .args(["solve", "sokoban", "--no-such-flag"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_run_cut_short_by_a_signal_is_left_out_of_the_experiment() {
    let dir = tempfile::tempdir().unwrap();
    let child = spawn(
        dir.path(),
        &[
            "experiment",
            "sokoban-gen",
            "--tables",
            "3.1",
            "--seeds",
            "3",
            "--time-limit",
            "1",
            "--out",
            "report.md",
            "--json",
            "-q",
        ],
    );
    // The first run's record, then SIGTERM during the second run.
    let (lines, stderr, code) = signal_after(child, 1, "-TERM");
    assert_eq!(code, 143, "stderr: {stderr}");
    let records: Vec<Value> = lines.iter().map(|l| parse(l)).collect();
    let runs = records.iter().filter(|r| r.get("item").is_some()).count();
    assert!(runs >= 1);
    for r in records.iter().filter(|r| r.get("item").is_some()) {
        // A whole run of 1 s does hundreds of thousands of iterations; a cut one is not kept.
        assert!(r["time_s"].as_f64().unwrap() >= 0.9, "a whole run: {r}");
    }
    for c in records.iter().filter(|r| r.get("runs").is_some()) {
        assert!(
            c["runs"].as_u64().unwrap() >= 1,
            "no row without a whole run: {c}"
        );
    }
    let md = std::fs::read_to_string(dir.path().join("report.md")).unwrap();
    assert!(!md.contains("| -0 |"), "no empty row in the report:\n{md}");
}
