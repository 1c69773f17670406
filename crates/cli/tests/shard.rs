//! End-to-end tests of sharded runs: `--shard I/N`, `puzzle merge` and `--resume`, on a set
//! solve, a set benchmark, experiments and generation over seeds, all with iteration budgets
//! (so the merged shards must equal one unsharded run record for record, times aside).

mod common;
use common::{assert_success, json_lines, puzzle};

use serde_json::Value;
use std::path::{Path, PathBuf};

const MICROBAN: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../data/sokoban/Microban_155.xsb"
);

/// Fields that hold times or rates (they differ between any two runs).
const TIMED: [&str; 13] = [
    "time_s",
    "elapsed_s",
    "total_time_s",
    "median_time_s",
    "max_solved_time_s",
    "time_to_best_s",
    "iterations_per_s",
    "cpu_s",
    "iterations_per_cpu_s",
    "mean_time_s",
    "max_move_ms",
    "p99_move_ms",
    "setup_ms",
];

/// The records with their times removed.
fn untimed(lines: &[Value]) -> Vec<Value> {
    lines
        .iter()
        .map(|v| {
            let mut v = v.clone();
            if let Value::Object(map) = &mut v {
                for f in TIMED {
                    map.shift_remove(f);
                }
            }
            v
        })
        .collect()
}

/// Run `puzzle ARGS` and return stdout's JSON lines, failing on an error.
fn run(args: &[&str]) -> Vec<Value> {
    let out = puzzle().args(args).output().unwrap();
    assert_success(&out);
    json_lines(&out.stdout)
}

/// Run shard `i` of `n` into `dir/shard-i.jsonl`; returns its path.
fn shard(dir: &Path, args: &[&str], i: usize, n: usize) -> PathBuf {
    let out = puzzle()
        .args(args)
        .args(["--shard", &format!("{i}/{n}")])
        .output()
        .unwrap();
    assert_success(&out);
    let path = dir.join(format!("shard-{i}.jsonl"));
    std::fs::write(&path, &out.stdout).unwrap();
    path
}

/// `puzzle merge FILES... EXTRA...`: the command's output.
fn merge(files: &[PathBuf], extra: &[&str]) -> std::process::Output {
    puzzle()
        .arg("merge")
        .args(files)
        .args(extra)
        .output()
        .unwrap()
}

/// Shard `args` into `n`, check the shards partition the items (disjoint, union = all), merge
/// them in reverse order and check the merge equals the unsharded run; returns the unsharded
/// records and the shard files.
fn sharded_equals_unsharded(
    dir: &Path,
    args: &[&str],
    n: usize,
    unsharded_extra: &[&str],
) -> (Vec<Value>, Vec<PathBuf>) {
    let whole = run(&[args, unsharded_extra].concat());
    let files: Vec<PathBuf> = (1..=n).map(|i| shard(dir, args, i, n)).collect();
    let mut seen = std::collections::BTreeMap::new();
    for (i, file) in files.iter().enumerate() {
        let lines = json_lines(&std::fs::read(file).unwrap());
        assert!(lines[0].get("request").is_some(), "no header in {lines:?}");
        let shard = format!("{}/{n}", i + 1);
        assert_eq!(lines[0]["request"]["shard"], shard.as_str());
        for v in &lines[1..] {
            if let Some(item) = v.get("item").and_then(Value::as_u64) {
                assert_eq!(v["shard"], shard.as_str(), "{v}");
                assert_eq!((item as usize - 1) % n, i, "item {item} in shard {shard}");
                let owner = seen.entry(item).or_insert(i);
                assert_eq!(*owner, i, "item {item} in two shards");
            }
        }
    }
    let all: Vec<u64> = whole
        .iter()
        .filter_map(|v| v.get("item").and_then(Value::as_u64))
        .collect();
    let mut unique = all.clone();
    unique.dedup();
    assert_eq!(
        seen.keys().copied().collect::<Vec<_>>(),
        unique,
        "the shards' items are the run's"
    );
    let reversed: Vec<PathBuf> = files.iter().rev().cloned().collect();
    let out = merge(&reversed, &[]);
    assert_success(&out);
    let merged = json_lines(&out.stdout);
    assert!(merged.iter().all(|v| v.get("shard").is_none()));
    assert_eq!(untimed(&merged), untimed(&whole));
    (whole, files)
}

/// A reproducible set solve: A* on Microban with an expansion budget.
const MICROBAN_ASTAR: [&str; 11] = [
    "solve",
    "sokoban",
    MICROBAN,
    "--algo",
    "astar",
    "--iterations",
    "20000",
    "--threads",
    "1",
    "--json",
    "-q",
];

#[test]
fn a_sharded_set_solve_merges_into_the_unsharded_run() {
    let dir = tempfile::tempdir().unwrap();
    let args = MICROBAN_ASTAR;
    let (whole, _) = sharded_equals_unsharded(dir.path(), &args, 3, &[]);
    assert_eq!(whole.len(), 155);
    assert_eq!(whole[154]["item"], 155);
    assert_eq!(whole[154]["level"], 155);
}

#[test]
fn a_sharded_benchmark_merges_into_the_unsharded_per_level_run() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "bench",
        "sokoban",
        "--set",
        "microban",
        "--set",
        "boxoban-hard",
        "--first",
        "5",
        "--algo",
        "astar,bfs",
        "--iterations",
        "5000",
        "--threads",
        "1",
        "--json",
        "-q",
    ];
    let (whole, _) = sharded_equals_unsharded(dir.path(), &args, 3, &["--per-level"]);
    // 2 sets × 2 solvers × 5 levels, and a summary after each set and solver.
    assert_eq!(whole.len(), 2 * 2 * 6);
    assert_eq!(whole[5]["set"], "microban");
    assert_eq!(whole[5]["algo"], "astar");
    assert_eq!(whole[5]["levels"], 5);
}

#[test]
fn sharded_experiments_merge_into_the_same_records_report_and_plots() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("whole.md");
    let args = [
        "experiment",
        "samegame",
        "--count",
        "3",
        "--playouts",
        "tabu",
        "--formulas",
        "uctk0.1,ucb-tuned",
        "--iterations",
        "200",
        "--threads",
        "1",
        "--json",
        "-q",
    ];
    let (whole, files) =
        sharded_equals_unsharded(dir.path(), &args, 4, &["--out", report.to_str().unwrap()]);
    // 6 runs, then the 2 totals.
    assert_eq!(whole.len(), 8);
    assert_eq!(whole[5]["item"], 6);
    assert!(whole[7]["total"].as_i64().unwrap() > 0);
    let merged_report = dir.path().join("merged.md");
    let out = merge(&files, &["--report", merged_report.to_str().unwrap()]);
    assert_success(&out);
    let text = |p: &Path| {
        std::fs::read_to_string(p)
            .unwrap()
            .replace("whole-", "")
            .replace("merged-", "")
    };
    // The report gives the runs' summed seconds: the one figure that differs.
    let untimed_report = |s: String| {
        s.lines()
            .map(|l| match l.find("Run time") {
                Some(i) => l[..i].to_string(),
                None => l.to_string(),
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(
        untimed_report(text(&merged_report)),
        untimed_report(text(&report))
    );
    for plot in ["samegame-boards.svg", "samegame-totals.svg"] {
        let a = std::fs::read(dir.path().join(format!("whole-{plot}"))).unwrap();
        let b = std::fs::read(dir.path().join(format!("merged-{plot}"))).unwrap();
        assert!(a == b, "{plot} differs");
    }

    let gen_dir = dir.path().join("gen");
    std::fs::create_dir(&gen_dir).unwrap();
    let args = [
        "experiment",
        "sokoban-gen",
        "--tables",
        "3.1",
        "--seeds",
        "3",
        "--iterations",
        "400",
        "--time-limit",
        "30",
        "--json",
        "-q",
    ];
    let (whole, _) = sharded_equals_unsharded(&gen_dir, &args, 2, &[]);
    // Two columns of three runs each, each column after its runs.
    assert_eq!(whole.len(), 8);
    assert_eq!(whole[3]["column"], whole[0]["column"]);
    assert_eq!(whole[3]["runs"], 3);
}

#[test]
fn generation_over_seeds_shards_and_merges_with_its_levels() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "generate",
        "sokoban",
        "--seeds",
        "5..=8",
        "--width",
        "5",
        "--height",
        "5",
        "--iterations",
        "2000",
        "--json",
        "-q",
    ];
    let (whole, files) = sharded_equals_unsharded(dir.path(), &args, 2, &[]);
    let summaries: Vec<&Value> = whole.iter().filter(|v| v["summary"] == true).collect();
    assert_eq!(
        summaries
            .iter()
            .map(|v| v["seed"].clone())
            .collect::<Vec<_>>(),
        [5, 6, 7, 8]
    );
    // A seed's levels come before its summary and carry its seed.
    assert_eq!(whole[0]["seed"], 5);
    assert_eq!(whole[0]["item"], 1);
    let xsb = dir.path().join("levels.xsb");
    assert_success(&merge(&files, &["--xsb", xsb.to_str().unwrap()]));
    let text = std::fs::read_to_string(&xsb).unwrap();
    let levels = puzzle_sokoban::parse_xsb(&text).unwrap();
    assert_eq!(levels.len(), whole.len() - 4);
    assert!(text.contains("; sokogen 5x5 seed 8 #1 "), "{text}");
    // The default objective titles each level by its proven optimal pushes.
    assert!(levels
        .iter()
        .all(|l| l.title.as_deref().is_some_and(|t| t.ends_with(" pushes"))));
}

#[test]
fn resume_skips_the_complete_items_and_leaves_out_a_cut_off_line() {
    let dir = tempfile::tempdir().unwrap();
    let args = MICROBAN_ASTAR;
    let full = shard(dir.path(), &args[..], 2, 50);
    let text = std::fs::read_to_string(&full).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1 + 4, "items 2, 52, 102 and 152");
    // An interrupted run: the header, two complete records and half of the third. The second
    // record's node count is changed, so the output shows it was written again, not run again.
    let third = lines[3];
    let nodes = lines[2].find("\"nodes\":").unwrap();
    let marked = format!("{}\"nodes\":987654321,{}", &lines[2][..nodes], {
        let rest = &lines[2][nodes..];
        &rest[rest.find(',').unwrap() + 1..]
    });
    let cut = format!(
        "{}\n{}\n{marked}\n{}",
        lines[0],
        lines[1],
        &third[..third.len() / 2]
    );
    let partial = dir.path().join("partial.jsonl");
    std::fs::write(&partial, cut).unwrap();
    let out = puzzle()
        .args(args)
        .args(["--shard", "2/50", "--resume", partial.to_str().unwrap()])
        .output()
        .unwrap();
    assert_success(&out);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("cut-off last line"), "{stderr}");
    let resumed = json_lines(&out.stdout);
    assert_eq!(resumed.len(), 5);
    assert_eq!(resumed[2]["item"], 52);
    assert_eq!(resumed[2]["nodes"], 987654321, "item 52 was run again");
    // Apart from that mark, the output equals the uninterrupted shard's.
    let mut expected = json_lines(text.as_bytes());
    expected[2]["nodes"] = 987654321.into();
    assert_eq!(untimed(&resumed), untimed(&expected));
    // Resuming from the output of another shard is refused, naming the difference.
    let out = puzzle()
        .args(args)
        .args(["--shard", "3/50", "--resume", partial.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("is the output of a different run: `shard` is \"2/50\" and \"3/50\""),
        "{stderr}"
    );
}

#[test]
fn resume_replays_the_solutions_it_takes_and_refuses_a_wrong_one() {
    let dir = tempfile::tempdir().unwrap();
    let args = [&MICROBAN_ASTAR[..], &["--shard", "1/40"]].concat();
    let out = puzzle().args(&args).output().unwrap();
    assert_success(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    // A complete record whose solution was changed is refused on replay: it is read, not run.
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let bad = lines[1].replace("\"solution\":\"", "\"solution\":\"u");
    lines[1] = bad;
    let tampered = dir.path().join("tampered.jsonl");
    std::fs::write(&tampered, lines.join("\n") + "\n").unwrap();
    let out = puzzle()
        .args(&args)
        .args(["--resume", tampered.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("item 1 (level 1): the recorded solution does not solve the level"),
        "{stderr}"
    );
}

#[test]
fn merge_refuses_duplicates_other_runs_missing_items_and_bad_lines() {
    let dir = tempfile::tempdir().unwrap();
    let args = |iterations: &'static str| {
        vec![
            "solve",
            "sokoban",
            MICROBAN,
            "--algo",
            "astar",
            "--iterations",
            iterations,
            "--threads",
            "1",
            "--json",
            "-q",
        ]
    };
    let one = shard(dir.path(), &args("20000"), 1, 2);
    let err = |out: std::process::Output| {
        assert!(!out.status.success());
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let e = err(merge(&[one.clone(), one.clone()], &[]));
    assert!(
        e.contains("item 1 is in both") && e.contains("(line 2)"),
        "{e}"
    );
    let e = err(merge(std::slice::from_ref(&one), &[]));
    assert!(
        e.contains("77 of 155 items are in none of the files: 2, 4, 6"),
        "{e}"
    );
    let other_dir = dir.path().join("other");
    std::fs::create_dir(&other_dir).unwrap();
    let other = shard(&other_dir, &args("30000"), 2, 2);
    let e = err(merge(&[one.clone(), other], &[]));
    assert!(
        e.contains("come from different runs: `iterations` is 20000 and 30000"),
        "{e}"
    );
    let text = std::fs::read_to_string(&one).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[3] = "{\"item\": 3, oops";
    let bad = dir.path().join("bad.jsonl");
    std::fs::write(&bad, lines.join("\n")).unwrap();
    let e = err(merge(std::slice::from_ref(&bad), &[]));
    assert!(
        e.contains(&format!("{} line 4: not JSON", bad.display())),
        "{e}"
    );
    let unsharded = dir.path().join("plain.jsonl");
    std::fs::write(&unsharded, lines[1]).unwrap();
    let e = err(merge(&[unsharded], &[]));
    assert!(e.contains("line 1: not a run header"), "{e}");
}

#[test]
fn shard_flags_are_checked() {
    for (bad, expect) in [
        ("0/4", "numbered 1 to 4"),
        ("5/4", "numbered 1 to 4"),
        ("1/0", "0 shards"),
        ("two", "write I/N"),
    ] {
        let out = puzzle()
            .args(["solve", "sokoban", MICROBAN, "--json", "--shard", bad])
            .output()
            .unwrap();
        assert!(!out.status.success());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(expect), "{bad}: {stderr}");
    }
    let out = puzzle()
        .args(["solve", "sokoban", MICROBAN, "--shard", "1/2"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("add --json"));
    let out = puzzle()
        .args(["generate", "sokoban", "--json", "--shard", "1/2"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("give --seeds A..B"));
    let out = puzzle()
        .args(["generate", "sokoban", "--seeds", "3..3"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("is empty"));
}

#[test]
fn the_sudoku_and_bait_experiments_shard_and_merge_too() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "experiment",
        "sudoku",
        "--runs",
        "2",
        "--easy-limit",
        "3000",
        "--hard-limit",
        "3000",
        "--top95",
        "3",
        "--top95-budget",
        "3000",
        "--puzzles",
        "easy,hard",
        "--json",
        "-q",
    ];
    let (whole, _) = sharded_equals_unsharded(dir.path(), &args, 3, &[]);
    // 8 configurations × 2 runs on easy, 8 × 2 on hard (no α-AMAF there), 4 × 3 on top95,
    // each configuration's row after its runs.
    let runs = whole.iter().filter(|v| v.get("item").is_some()).count();
    assert_eq!(runs, 16 * 2 + 16 + 12);
    assert_eq!(whole.len(), runs + 16 + 8 + 4);
    assert_eq!(whole[2]["table"], "grid");
    assert_eq!(whole[2]["runs"], 2);

    let bait_dir = dir.path().join("bait");
    std::fs::create_dir(&bait_dir).unwrap();
    // The deterministic agents (their games do not depend on the move budget's timing).
    let args = [
        "experiment",
        "bait",
        "--agents",
        "astar-offline,dfs",
        "--levels",
        "0,1,2",
        "--json",
        "-q",
    ];
    let (whole, _) = sharded_equals_unsharded(&bait_dir, &args, 2, &[]);
    assert_eq!(whole.len(), 6);
    assert_eq!(whole[5]["agent"], "dfs");
    assert_eq!(whole[5]["level"], 2);
}

#[test]
fn samegame_and_sudoku_set_solves_shard_and_merge() {
    let dir = tempfile::tempdir().unwrap();
    let boards = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/samegame/standard20_digits.txt"
    );
    let args = [
        "solve",
        "samegame",
        boards,
        "--algo",
        "nmcs",
        "--level",
        "1",
        "--iterations",
        "30",
        "--json",
        "-q",
    ];
    let (whole, _) = sharded_equals_unsharded(dir.path(), &args, 3, &[]);
    assert_eq!(whole.len(), 20);
    assert_eq!(whole[19]["board"], 20);
    assert!(whole.iter().all(|v| v["score"].as_i64().unwrap() > 0));

    let sudoku_dir = dir.path().join("sudoku");
    std::fs::create_dir(&sudoku_dir).unwrap();
    let puzzles = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/sudoku/norvig_hardest11.txt"
    );
    let args = [
        "solve",
        "sudoku",
        puzzles,
        "--max-simulations",
        "20000",
        "--json",
        "-q",
    ];
    let (whole, files) = sharded_equals_unsharded(&sudoku_dir, &args, 2, &[]);
    assert_eq!(whole.len(), 11);
    assert!(whole.iter().any(|v| v["solved"] == true));
    // A record whose solution was changed is refused when it is read back.
    let text = std::fs::read_to_string(&files[0]).unwrap();
    let solved = text
        .lines()
        .find(|l| l.contains("\"solved\":true"))
        .expect("a solved puzzle in shard 1");
    let v: Value = serde_json::from_str(solved).unwrap();
    let solution = v["solution"].as_str().unwrap();
    let swapped: String = solution[1..2].to_string() + &solution[..1] + &solution[2..];
    let tampered = sudoku_dir.join("tampered.jsonl");
    std::fs::write(&tampered, text.replace(solution, &swapped)).unwrap();
    let out = merge(&[tampered, files[1].clone()], &[]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("the recorded solution does not solve the puzzle"),
        "{stderr}"
    );
}
