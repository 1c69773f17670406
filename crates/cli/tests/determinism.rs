//! Same seed, thread count and iteration budget ⇒ the same `--json` output: every command that
//! takes `--seed` runs twice and its JSON Lines must be equal, apart from the fields listed in
//! [`TIMING_FIELDS`] (clock readings, which differ between any two runs). The commands whose
//! result depends on the clock by design are listed in `docs/ROBUSTNESS.md#determinism`.

mod common;

use common::{assert_success, json_lines, puzzle, temp_file};
use serde_json::Value;

/// The fields that hold clock readings (seconds, milliseconds or rates per second). They are
/// removed, at any depth, before two runs' outputs are compared; every other field must be
/// byte-identical. `docs/ROBUSTNESS.md#determinism` lists the same names.
const TIMING_FIELDS: &[&str] = &[
    "time_s",
    "time_to_best_s",
    "elapsed_s",
    "iterations_per_s",
    "cpu_s",
    "iterations_per_cpu_s",
    "max_move_ms",
    "max_move_wall_ms",
    "p99_move_ms",
    "setup_ms",
];

/// Remove [`TIMING_FIELDS`] from every object in `value`, and say whether one was found.
fn strip_timings(value: &mut Value) -> bool {
    match value {
        Value::Object(map) => {
            let mut found = false;
            for name in TIMING_FIELDS {
                found |= map.shift_remove(*name).is_some();
            }
            for v in map.values_mut() {
                found |= strip_timings(v);
            }
            found
        }
        Value::Array(items) => {
            let mut found = false;
            for v in items {
                found |= strip_timings(v);
            }
            found
        }
        _ => false,
    }
}

/// Run `puzzle --json -q <args>` and return its JSON lines with the timing fields removed.
fn run(args: &[&str]) -> Vec<String> {
    let out = puzzle()
        .args(["--json", "-q"])
        .args(args)
        .output()
        .expect("puzzle runs");
    assert_success(&out);
    json_lines(&out.stdout)
        .into_iter()
        .map(|mut v| {
            strip_timings(&mut v);
            serde_json::to_string(&v).expect("serializes")
        })
        .collect()
}

/// Run the command twice and require equal output (and some output).
#[track_caller]
fn assert_reproducible(args: &[&str]) -> Vec<String> {
    let first = run(args);
    assert!(!first.is_empty(), "no output from {args:?}");
    let second = run(args);
    assert_eq!(first, second, "two runs of puzzle {args:?} differ");
    first
}

#[test]
fn only_the_listed_timing_fields_are_stripped() {
    let mut v: Value = serde_json::from_str(
        r#"{"time_s": 1.5, "score": 3, "trace": [{"elapsed_s": 2, "best": 1}], "iterations": 9}"#,
    )
    .unwrap();
    assert!(strip_timings(&mut v));
    assert_eq!(
        v.to_string(),
        r#"{"score":3,"trace":[{"best":1}],"iterations":9}"#
    );
}

const LEVEL: &str = "#######\n#     #\n# $.@ #\n# *   #\n#######\n";

#[test]
fn sokoban_ga_is_reproducible() {
    let file = temp_file(LEVEL);
    let path = file.path().to_str().unwrap();
    let lines = assert_reproducible(&[
        "--seed",
        "7",
        "--iterations",
        "40",
        "--threads",
        "1",
        "solve",
        "sokoban",
        "--algo",
        "ga",
        path,
    ]);
    assert!(lines[0].contains(r#""algo":"ga""#), "{lines:?}");
}

#[test]
fn samegame_searches_are_reproducible_on_one_and_two_threads() {
    for algo in ["spmcts", "nmcs", "nrpa"] {
        let mut outputs = Vec::new();
        for threads in ["1", "2"] {
            let lines = assert_reproducible(&[
                "--seed",
                "5",
                "--iterations",
                "300",
                "--threads",
                threads,
                "solve",
                "samegame",
                "--random",
                "8x8x3",
                "--algo",
                algo,
            ]);
            assert!(
                lines[0].contains(r#""iterations":300"#),
                "{algo}: {lines:?}"
            );
            outputs.push(lines);
        }
        // Another seed gives another random board, so the seed is really used.
        let other = run(&[
            "--seed",
            "6",
            "--iterations",
            "300",
            "--threads",
            "1",
            "solve",
            "samegame",
            "--random",
            "8x8x3",
            "--algo",
            algo,
        ]);
        assert_ne!(other, outputs[0], "{algo}: the seed changes nothing");
    }
}

#[test]
fn sudoku_mcts_is_reproducible_on_one_and_two_threads() {
    let file = temp_file(
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n",
    );
    let path = file.path().to_str().unwrap();
    for threads in ["1", "2"] {
        let lines = assert_reproducible(&[
            "--seed",
            "5",
            "--iterations",
            "300",
            "--threads",
            threads,
            "solve",
            "sudoku",
            path,
        ]);
        assert!(lines[0].contains(r#""simulations":300"#), "{lines:?}");
    }
}

#[test]
fn sokoban_generation_is_reproducible_on_one_and_two_threads() {
    // Both objectives: the default (optimal pushes) and the thesis's score.
    for (threads, objective) in [
        ("1", "pushes"),
        ("2", "pushes"),
        ("1", "score"),
        ("2", "score"),
    ] {
        let lines = assert_reproducible(&[
            "--seed",
            "5",
            "--iterations",
            "4000",
            "--threads",
            threads,
            "generate",
            "sokoban",
            "--objective",
            objective,
        ]);
        assert!(
            lines.len() >= 2,
            "{threads} thread(s), {objective}: {lines:?}"
        );
        assert!(
            lines.last().unwrap().contains(r#""iterations":4000"#),
            "{threads} thread(s), {objective}: {lines:?}"
        );
    }
    // With the bootstrapping phase and a threshold (many levels kept), too.
    let lines = assert_reproducible(&[
        "--seed",
        "9",
        "--iterations",
        "6000",
        "--threads",
        "2",
        "generate",
        "sokoban",
        "--objective",
        "score",
        "--threshold",
        "0.3",
    ]);
    assert!(lines.len() >= 3, "{lines:?}");
}

#[test]
fn sudoku_generation_is_reproducible() {
    // The generator runs on one thread (and refuses `--threads`).
    let lines = assert_reproducible(&["--seed", "5", "generate", "sudoku", "--count", "2"]);
    assert_eq!(lines.len(), 2, "{lines:?}");
    let other = run(&["--seed", "6", "generate", "sudoku", "--count", "2"]);
    assert_ne!(
        other,
        run(&["--seed", "5", "generate", "sudoku", "--count", "2"])
    );
}

#[test]
fn bait_offline_astar_is_reproducible() {
    // The other agents search under a CPU-time budget per move (GVGAI's rule), so their moves
    // depend on the clock; the offline A* plans the whole level before the first tick.
    let lines = assert_reproducible(&[
        "--seed",
        "3",
        "play",
        "bait",
        "--level",
        "0",
        "--agent",
        "astar-offline",
    ]);
    assert!(lines[0].contains(r#""win":true"#), "{lines:?}");
}
