//! `--max-nodes N` bounds each search's memory: the process's peak resident set stays under the
//! bound documented in docs/ROBUSTNESS.md#memory, `base + N × bytes per node`, on a workload that
//! would need far more without the budget (each run would go on for many seconds and grow
//! without it). Peak memory comes from the CLI's own `--peak-memory` report (Linux `VmHWM`).

mod common;

use serde_json::Value;
use std::path::PathBuf;

const MB: u64 = 1 << 20;

fn data(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../data")
        .join(path)
}

/// Run `puzzle ARGS --max-nodes N --peak-memory --json -q`; the JSON records on stdout and the
/// peak RSS in bytes.
fn run(args: &[&str], max_nodes: u64) -> (Vec<Value>, u64) {
    let out = common::puzzle()
        .args(args)
        .args(["--max-nodes", &max_nodes.to_string()])
        .args(["--peak-memory", "--json", "-q"])
        .output()
        .unwrap();
    common::assert_success(&out);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let peak = stderr
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find_map(|v| v["peak_rss_bytes"].as_u64());
    match peak {
        Some(p) => (common::json_lines(&out.stdout), p),
        None if !cfg!(target_os = "linux") => (common::json_lines(&out.stdout), 0),
        None => panic!("no peak memory report: {stderr}"),
    }
}

#[track_caller]
fn assert_within(what: &str, peak: u64, base_mb: u64, nodes: u64, bytes_per_node: u64) {
    let bound = base_mb * MB + nodes * bytes_per_node;
    eprintln!(
        "{what}: peak {:.1} MB, bound {:.1} MB",
        peak as f64 / MB as f64,
        bound as f64 / MB as f64
    );
    assert!(
        peak <= bound,
        "{what}: peak {:.1} MB over the documented bound {:.1} MB ({base_mb} MB + {nodes} × {bytes_per_node} B)",
        peak as f64 / MB as f64,
        bound as f64 / MB as f64
    );
}

#[test]
fn sokoban_searches_stay_within_their_node_budget() {
    let level = data("sokoban/XSokoban_90.xsb");
    let level = level.to_str().unwrap();
    // XSokoban 89 is far beyond these budgets: A*, BFS and FESS, either advice (whose stored moves count as
    // nodes) stop on the node budget. IDA* keeps
    // its transposition table within the budget; the greedy portfolio runs its phases one after
    // another, each within the budget, until the time limit.
    // (solver, node budget, time limit, base MB, bytes per node, stops on the budget)
    for (algo, n, secs, base_mb, per_node, stops_on_nodes) in [
        ("astar", 100_000, "60", 16, 150, true),
        ("bfs", 100_000, "60", 16, 150, true),
        ("idastar", 50_000, "3", 16, 60, false),
        ("greedy", 50_000, "3", 32, 500, false),
        ("fess", 100_000, "60", 16, 150, true),
        ("fess-distinct", 100_000, "60", 16, 150, true),
    ] {
        let (records, peak) = run(
            &[
                "solve",
                "sokoban",
                level,
                "--level",
                "89",
                "--algo",
                algo,
                "--threads",
                "1",
                "--time-limit",
                secs,
            ],
            n,
        );
        if stops_on_nodes {
            assert_eq!(records[0]["stop"], "nodes", "{algo} stopped on its budget");
        }
        assert_within(algo, peak, base_mb, n, per_node);
    }
}

#[test]
fn the_generator_tree_stays_within_its_node_budget() {
    // 400,000 iterations grow about a million nodes without a budget (about 40 MB).
    let n = 100_000;
    let (records, peak) = run(
        &[
            "generate",
            "sokoban",
            "--objective",
            "score",
            "--width",
            "5",
            "--height",
            "5",
            "--iterations",
            "400000",
            "--seed",
            "1",
        ],
        n,
    );
    let summary = records.last().unwrap();
    assert!(summary["peak_nodes"].as_u64().unwrap() <= n);
    assert_within("generation", peak, 16, n, 40);
}

#[test]
fn the_aimed_generators_backward_searches_stay_within_the_node_budget() {
    // 10×10 rooms with six goals have millions of solvable positions: without the budget one
    // backward search holds up to 2,000,000 of them (about 80 MB here).
    let n = 200_000;
    let (records, peak) = run(
        &[
            "generate",
            "sokoban",
            "--width",
            "10",
            "--height",
            "10",
            "--boxes",
            "6",
            "--threads",
            "1",
            "--time-limit",
            "4",
            "--seed",
            "1",
        ],
        n,
    );
    assert_eq!(records.last().unwrap()["summary"], true);
    // The MCTS tree (32 bytes a node) and one backward search (about 85 bytes a position).
    assert_within("aimed generation", peak, 16, n, 100);
}

#[test]
fn the_generators_memory_setting_caps_its_trees() {
    let (records, peak) = run(
        &[
            "generate",
            "sokoban",
            "--objective",
            "score",
            "--width",
            "5",
            "--height",
            "5",
            "--iterations",
            "400000",
            "--seed",
            "1",
            "--max-memory",
            "4",
        ],
        8_000_000,
    );
    let summary = records.last().unwrap();
    assert!(summary["peak_nodes"].as_u64().unwrap() * 32 <= 4 * MB);
    assert_within("generation --max-memory 4", peak, 16, 0, 0);
    assert!(peak <= 20 * MB);
}

#[test]
fn samegame_astar_stays_within_its_node_budget() {
    let boards = data("samegame/standard20_digits.txt");
    let n = 50_000;
    let (records, peak) = run(
        &[
            "solve",
            "samegame",
            boards.to_str().unwrap(),
            "--board",
            "1",
            "--algo",
            "astar",
            "--time-limit",
            "60",
        ],
        n,
    );
    assert_eq!(records[0]["stop"], "Nodes");
    assert_within("samegame astar", peak, 16, n, 300);
}

#[test]
fn bait_searches_stay_within_their_node_budget() {
    for (agent, base_mb, per_node) in [("astar-offline", 24, 200), ("dfs", 16, 40)] {
        let n = 50_000;
        let (_, peak) = run(&["play", "bait", "--level", "4", "--agent", agent], n);
        assert_within(agent, peak, base_mb, n, per_node);
    }
}

#[test]
fn the_sokoban_bench_reports_each_levels_own_peak() {
    // Resetting the kernel's peak needs Linux 4.0 or later; elsewhere the records carry the
    // process's peak and there is nothing to compare.
    if std::fs::write("/proc/self/clear_refs", "5").is_err() {
        eprintln!("the kernel does not reset the peak here; skipped");
        return;
    }
    // XSokoban 89 (A* stops on a node budget of 400,000, tens of MB) and then a one-box level:
    // the small level's own peak is far below the large one's, and the process's peak at exit
    // is still the large one's.
    let xsokoban = std::fs::read_to_string(data("sokoban/XSokoban_90.xsb")).unwrap();
    let levels = xsb_levels(&xsokoban);
    let big = levels[88].clone();
    let set = common::temp_file(&format!("{big}\n\n; small\n#####\n#@$.#\n#####\n"));
    let (records, peak) = run(
        &[
            "bench",
            "sokoban",
            "--set",
            set.path().to_str().unwrap(),
            "--algo",
            "astar",
            "--per-level",
            "--threads",
            "1",
            "--time-limit",
            "60",
        ],
        400_000,
    );
    let level_peaks: Vec<u64> = records
        .iter()
        .filter(|r| r.get("level").is_some())
        .map(|r| r["peak_rss_bytes"].as_u64().expect("a peak in each record"))
        .collect();
    assert_eq!(level_peaks.len(), 2, "{records:?}");
    assert_eq!(records[0]["stop"], "nodes");
    assert_eq!(records[1]["solved"], true);
    assert!(
        level_peaks[1] + 20 * MB < level_peaks[0],
        "the small level's own peak {} is well below the large one's {}",
        level_peaks[1],
        level_peaks[0]
    );
    assert!(
        peak >= level_peaks[0],
        "the process's peak covers every level's"
    );
}

/// The levels of an XSB collection as text, split at their title comments.
fn xsb_levels(text: &str) -> Vec<String> {
    let mut levels: Vec<String> = Vec::new();
    for line in text.lines() {
        if line.starts_with(';') {
            levels.push(String::new());
        }
        if let Some(last) = levels.last_mut() {
            last.push_str(line);
            last.push('\n');
        }
    }
    levels
}
