//! End-to-end tests of the CLI shell: help, the engine benchmark, the signature, bad arguments.

mod common;
use common::{assert_success, json_lines, puzzle};

#[test]
fn help_lists_the_subcommand_groups() {
    let out = puzzle().arg("--help").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for group in ["solve", "generate", "play", "experiment", "bench", "render"] {
        assert!(text.contains(group), "--help lacks {group}:\n{text}");
    }
    let out = puzzle().args(["solve", "--help"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    for game in ["sokoban", "samegame", "sudoku"] {
        assert!(text.contains(game), "solve --help lacks {game}");
    }
}

#[test]
fn bench_engine_json_reports_iterations_per_second() {
    let out = puzzle()
        .args([
            "bench",
            "engine",
            "--seconds",
            "0.1",
            "--threads",
            "1",
            "--json",
        ])
        .output()
        .unwrap();
    assert_success(&out);
    let lines = json_lines(&out.stdout);
    assert_eq!(lines.len(), 4, "one line per selection policy");
    for l in &lines {
        assert!(l["iterations_per_s"].as_f64().unwrap() > 0.0);
        assert!(l["iterations"].as_u64().unwrap() > 0);
        assert!(l["best_score"].as_f64().unwrap() <= l["optimum"].as_f64().unwrap());
        assert_eq!(l["threads"], 1);
    }
}

#[test]
fn bench_signature_is_deterministic() {
    let run = || {
        let out = puzzle().args(["bench", "--json"]).output().unwrap();
        assert_success(&out);
        let lines = json_lines(&out.stdout);
        let total = lines.last().unwrap()["total_work"].as_u64().unwrap();
        let parts: Vec<(String, u64, f64)> = lines[..lines.len() - 1]
            .iter()
            .map(|l| {
                (
                    l["name"].as_str().unwrap().to_string(),
                    l["work"].as_u64().unwrap(),
                    l["result"].as_f64().unwrap(),
                )
            })
            .collect();
        (total, parts)
    };
    let (a, pa) = run();
    let (b, pb) = run();
    assert!(a > 0);
    assert_eq!(
        a, b,
        "the bench signature changed between two identical runs"
    );
    assert_eq!(pa, pb);
    assert!(pa.iter().any(|(n, _, _)| n.starts_with("engine/")));
}

#[test]
fn bad_arguments_are_clear_errors_not_panics() {
    for args in [
        vec!["bench", "engine", "--time-limit", "-3"],
        vec!["bench", "engine", "--threads", "0"],
        vec!["bench", "engine", "--seconds", "abc"],
        vec!["bench", "engine", "--iterations", "0"],
        vec!["frobnicate"],
    ] {
        let out = puzzle().args(&args).output().unwrap();
        assert!(!out.status.success(), "{args:?} should fail");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("error"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    }
}

/// A budget flag the command does not read is refused with its name and what the command reads
/// instead (exit code 2), never silently dropped; the same flag on a command that reads it runs.
#[test]
fn an_unread_budget_flag_is_refused() {
    for (args, flag) in [
        (
            vec!["play", "bait", "--level", "0", "--time-limit", "5"],
            "--time-limit",
        ),
        (vec!["experiment", "bait", "--threads", "2"], "--threads"),
        (
            vec!["generate", "sudoku", "--iterations", "9"],
            "--iterations",
        ),
        (vec!["render", "x.xsb", "--seed", "1"], "--seed"),
        (
            vec![
                "solve",
                "sudoku",
                "--algo",
                "exact",
                "--time-limit",
                "3",
                "/dev/null",
            ],
            "--time-limit",
        ),
    ] {
        let out = puzzle().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?} should be refused");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(flag) && err.contains("the budget settings it reads"),
            "{args:?}: {err}"
        );
        assert!(out.stdout.is_empty(), "{args:?} ran: {:?}", out.stdout);
    }
    let out = puzzle()
        .args([
            "play", "bait", "--level", "0", "--seed", "3", "--json", "-q",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
