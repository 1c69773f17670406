//! End-to-end tests of `puzzle solve sokoban` and `puzzle bench sokoban`.

mod common;
use common::{assert_success, json_lines, puzzle, temp_file};

use puzzle_sokoban::{parse_xsb, replay};

const MICROBAN: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../data/sokoban/Microban_155.xsb"
);

const FIELDS: [&str; 8] = [
    "level", "title", "solved", "solution", "moves", "pushes", "time_s", "nodes",
];

#[test]
fn solve_one_level_json_contract_and_replay() {
    let levels = parse_xsb(&std::fs::read_to_string(MICROBAN).unwrap()).unwrap();
    for algo in ["astar", "idastar", "bfs", "greedy", "ga"] {
        let out = puzzle()
            .args(["solve", "sokoban", MICROBAN, "--level", "2", "--algo", algo])
            .args(["--time-limit", "20", "--json", "--seed", "1"])
            .output()
            .unwrap();
        assert_success(&out);
        let lines = json_lines(&out.stdout);
        assert_eq!(lines.len(), 1);
        let v = &lines[0];
        for f in FIELDS {
            assert!(v.get(f).is_some(), "{algo}: field {f} missing in {v}");
        }
        assert_eq!(v["level"], 2);
        assert_eq!(v["title"], "2");
        assert_eq!(v["solved"], true, "{algo}");
        let lurd = v["solution"].as_str().unwrap();
        let r = replay(&levels[1], lurd).unwrap();
        assert!(r.solved);
        assert_eq!(v["moves"].as_u64().unwrap() as usize, r.moves);
        assert_eq!(v["pushes"].as_u64().unwrap() as usize, r.pushes);
        assert!(v["time_s"].as_f64().unwrap() >= 0.0);
        if algo != "greedy" && algo != "ga" {
            assert_eq!(r.pushes, 3, "{algo} is push-optimal");
        }
    }
}

#[test]
fn solve_every_level_in_order_and_unsolvable_reports_false() {
    let file = temp_file(
        "; first\n#######\n#@ $ .#\n#######\n\n; stuck\n######\n#$  .#\n#  @ #\n######\n",
    );
    let solve_file = |flags: &[&str]| {
        let out = puzzle()
            .args(["solve", "sokoban"])
            .arg(file.path())
            .args(["--json", "--time-limit", "5"])
            .args(flags)
            .output()
            .unwrap();
        assert_success(&out);
        json_lines(&out.stdout)
    };
    let lines = solve_file(&["--algo", "astar"]);
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["level"], 1);
    assert_eq!(lines[0]["title"], "first");
    assert_eq!(lines[0]["solution"], "rRR");
    assert_eq!(lines[1]["level"], 2);
    assert_eq!(lines[1]["solved"], false);
    assert_eq!(lines[1]["solution"], "");
    assert_eq!(lines[1]["pushes"], 0);
    // The two-thread portfolio: the same contract; the unsolvable level is proved quickly.
    let lines = solve_file(&["--threads", "2"]);
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["solution"], "rRR");
    assert_eq!(lines[1]["solved"], false);
    assert_eq!(lines[1]["stop"], "exhausted");
}

#[test]
fn untitled_level_has_null_title_and_text_mode_prints_lurd() {
    let file = temp_file("#######\n#@ $ .#\n#######\n");
    let out = puzzle()
        .args(["solve", "sokoban"])
        .arg(file.path())
        .arg("--json")
        .output()
        .unwrap();
    let lines = json_lines(&out.stdout);
    assert!(lines[0]["title"].is_null());
    let out = puzzle()
        .args(["solve", "sokoban"])
        .arg(file.path())
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("rRR"), "{text}");
}

#[test]
fn bad_input_gives_clear_errors() {
    let file = temp_file("#####\n#@$x#\n#####\n");
    let out = puzzle()
        .args(["solve", "sokoban"])
        .arg(file.path())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("level 1, line 2, column 4") && err.contains("unknown character"),
        "{err}"
    );
    let empty = temp_file("");
    let out = puzzle()
        .args(["solve", "sokoban"])
        .arg(empty.path())
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no level"));
    let out = puzzle()
        .args(["solve", "sokoban", MICROBAN, "--level", "156"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("155 levels"));
    let out = puzzle()
        .args(["solve", "sokoban", MICROBAN, "--algo", "magic"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let out = puzzle()
        .args([
            "solve",
            "sokoban",
            MICROBAN,
            "--algo",
            "ga",
            "--mutation",
            "2",
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "a value out of range is bad usage"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("mutation must be 0 to 1"));
    let out = puzzle()
        .args(["solve", "sokoban", "/nonexistent/file.xsb"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/file.xsb"));
}

#[test]
fn bench_reports_solved_counts() {
    let out = puzzle()
        .args(["bench", "sokoban", "--set", "microban", "--first", "5"])
        .args(["--algo", "astar,greedy", "--json", "--time-limit", "5"])
        .output()
        .unwrap();
    assert_success(&out);
    let lines = json_lines(&out.stdout);
    assert_eq!(lines.len(), 2);
    for l in &lines {
        assert_eq!(l["set"], "microban");
        assert_eq!(l["levels"], 5);
        assert_eq!(l["solved"], 5);
    }
}

#[test]
fn fess_solves_small_microban_levels_and_its_solutions_replay() {
    let levels = parse_xsb(&std::fs::read_to_string(MICROBAN).unwrap()).unwrap();
    let out = puzzle()
        .args(["bench", "sokoban", "--set", "microban", "--algo", "fess"])
        .args(["--levels", "1-4,7", "--per-level", "--json", "-q"])
        .args(["--threads", "1", "--time-limit", "30"])
        .output()
        .unwrap();
    assert_success(&out);
    let lines = json_lines(&out.stdout);
    let per_level: Vec<_> = lines.iter().filter(|v| v.get("title").is_some()).collect();
    assert_eq!(per_level.len(), 5);
    for v in per_level {
        let k = v["level"].as_u64().unwrap() as usize;
        assert_eq!(v["algo"], "fess");
        assert_eq!(v["solved"], true, "level {k}");
        let r = replay(&levels[k - 1], v["solution"].as_str().unwrap()).unwrap();
        assert!(r.solved, "level {k}");
        assert_eq!(v["pushes"].as_u64().unwrap() as usize, r.pushes);
    }
}

#[test]
fn bench_skip_keeps_the_set_level_numbers() {
    let levels = parse_xsb(&std::fs::read_to_string(MICROBAN).unwrap()).unwrap();
    let out = puzzle()
        .args(["bench", "sokoban", "--set", MICROBAN, "--algo", "astar"])
        .args(["--skip", "4", "--first", "2", "--per-level", "--json", "-q"])
        .args(["--time-limit", "20"])
        .output()
        .unwrap();
    assert_success(&out);
    let lines = json_lines(&out.stdout);
    let per_level: Vec<_> = lines.iter().filter(|v| v.get("title").is_some()).collect();
    let numbers: Vec<u64> = per_level
        .iter()
        .map(|v| v["level"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, vec![5, 6]);
    for v in per_level {
        let k = v["level"].as_u64().unwrap() as usize;
        let r = replay(&levels[k - 1], v["solution"].as_str().unwrap()).unwrap();
        assert!(r.solved, "level {k}");
    }
    let summary = lines.iter().find(|v| v.get("levels").is_some()).unwrap();
    assert_eq!(summary["levels"], 2);
}

#[test]
fn threads_default_to_the_cores_up_to_two_and_one_thread_stays_a_flag_away() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let bench = |extra: &[&str]| {
        let out = puzzle()
            .args(["bench", "sokoban", "--set", "microban", "--first", "3"])
            .args(["--json", "--time-limit", "5"])
            .args(extra)
            .output()
            .unwrap();
        assert_success(&out);
        json_lines(&out.stdout)
    };
    let default = bench(&[]);
    assert_eq!(default[0]["threads"], cores.min(2));
    assert_eq!(default[0]["solved"], 3);
    let one = bench(&["--threads", "1"]);
    assert_eq!(one[0]["threads"], 1);
    assert_eq!(one[0]["solved"], 3);
    let help = puzzle()
        .args(["solve", "sokoban", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    assert!(help.contains("cores up to 2"), "{help}");
}
