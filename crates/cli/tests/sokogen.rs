//! End-to-end tests of `puzzle generate sokoban`, `puzzle render` and
//! `puzzle experiment sokoban-gen`.

mod common;
use common::{assert_success, json_lines, puzzle};

use serde_json::Value;

fn generate(extra: &[&str]) -> Vec<Value> {
    let out = puzzle()
        .args(["generate", "sokoban", "--json", "--quiet"])
        .args(extra)
        .output()
        .unwrap();
    assert_success(&out);
    json_lines(&out.stdout)
}

#[test]
fn generated_levels_follow_the_json_contract_and_replay() {
    let lines = generate(&[
        "--width",
        "6",
        "--height",
        "5",
        "--iterations",
        "30000",
        "--seed",
        "4",
        "--objective",
        "score",
        "--threshold",
        "0.8",
    ]);
    let (levels, summary) = lines.split_at(lines.len() - 1);
    assert!(!levels.is_empty());
    for l in levels {
        for key in ["score", "pc", "time_s"] {
            assert!(l[key].is_f64(), "{key} in {l}");
        }
        for key in ["pb", "boxes", "iteration"] {
            assert!(l[key].is_u64(), "{key} in {l}");
        }
        let xsb = l["xsb"].as_str().unwrap();
        let level = &puzzle_sokoban::parse_xsb(xsb).unwrap()[0];
        assert_eq!((level.width, level.height), (8, 7), "border added");
        assert_eq!(level.box_count() as u64, l["boxes"].as_u64().unwrap());
        let r = puzzle_sokoban::replay(level, l["solution"].as_str().unwrap()).unwrap();
        assert!(r.solved);
    }
    let s = &summary[0];
    assert_eq!(s["summary"], Value::Bool(true));
    assert_eq!(s["iterations"].as_u64(), Some(30_000));
    for key in ["iterations_per_s", "best_score", "time_to_best_s"] {
        assert!(s[key].is_f64(), "{key}");
    }
    assert!(s["nodes"].is_u64() && s["peak_nodes"].is_u64());
    let best = levels
        .iter()
        .map(|l| l["score"].as_f64().unwrap())
        .fold(0.0, f64::max);
    assert_eq!(best, s["best_score"].as_f64().unwrap());
}

#[test]
fn every_optimization_can_be_switched_off_from_the_command_line() {
    let lines = generate(&[
        "--width",
        "5",
        "--height",
        "5",
        "--iterations",
        "20000",
        "--objective",
        "score",
        "--move-agent",
        "naive",
        "--box-limit",
        "none",
        "--depth-limit",
        "0",
        "--keep-impossible",
        "--no-bloom",
        "--selection",
        "sp-mcts",
        "--bootstrap-delta",
        "0",
        "--congestion-v1",
    ]);
    let summary = lines.last().unwrap();
    assert_eq!(summary["bootstrap_iterations"].as_u64(), Some(0));
    for l in &lines[..lines.len() - 1] {
        let level = &puzzle_sokoban::parse_xsb(l["xsb"].as_str().unwrap()).unwrap()[0];
        assert!(
            puzzle_sokoban::replay(level, l["solution"].as_str().unwrap())
                .unwrap()
                .solved
        );
    }
    let out = puzzle()
        .args(["generate", "sokoban", "--box-limit", "0"])
        .output()
        .unwrap();
    assert!(!out.status.success());
}

#[test]
fn same_seed_same_levels() {
    let args = [
        "--width",
        "5",
        "--height",
        "5",
        "--iterations",
        "20000",
        "--seed",
        "9",
    ];
    let strip = |v: Vec<Value>| -> Vec<(String, String, f64)> {
        v.iter()
            .filter(|l| l.get("summary").is_none())
            .map(|l| {
                (
                    l["xsb"].as_str().unwrap().to_string(),
                    l["solution"].as_str().unwrap().to_string(),
                    l["score"].as_f64().unwrap(),
                )
            })
            .collect()
    };
    assert_eq!(strip(generate(&args)), strip(generate(&args)));
}

#[test]
fn out_file_holds_every_level_with_title_metrics_and_solution() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("levels.xsb");
    let plot = dir.path().join("plot.svg");
    let lines = generate(&[
        "--width",
        "5",
        "--height",
        "5",
        "--iterations",
        "20000",
        "--objective",
        "score",
        "--start",
        "1,1",
        "--out",
        file.to_str().unwrap(),
        "--plot",
        plot.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&file).unwrap();
    let levels = puzzle_sokoban::parse_xsb(&text).unwrap();
    assert_eq!(levels.len(), lines.len() - 1);
    let solutions: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("; solution: "))
        .collect();
    assert_eq!(solutions.len(), levels.len());
    for (level, solution) in levels.iter().zip(solutions) {
        let title = level.title.as_deref().unwrap();
        assert!(title.contains("score"), "{title}");
        let r = puzzle_sokoban::replay(level, solution).unwrap();
        assert!(r.solved);
        // Player start (1,1) of the interior = (2,2) with the border.
        assert_eq!(level.player, 2 * level.width + 2);
    }
    assert!(text.contains("pb=") && text.contains("pc=") && text.contains("boxes="));
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("<path"));
}

/// The contract outside checks replay: `--objective pushes` with a band, each record carrying
/// `xsb`, a push-optimal `solution` and `optimal_pushes`.
#[test]
fn aimed_levels_carry_proven_push_counts_inside_the_band() {
    let lines = generate(&[
        "--width",
        "6",
        "--height",
        "6",
        "--boxes",
        "3",
        "--objective",
        "pushes",
        "--min-pushes",
        "10",
        "--max-pushes",
        "14",
        "--time-limit",
        "2",
        "--threads",
        "2",
        "--seed",
        "3",
    ]);
    let (levels, summary) = lines.split_at(lines.len() - 1);
    assert!(!levels.is_empty(), "{summary:?}");
    for l in levels {
        let pushes = l["optimal_pushes"].as_u64().expect("optimal_pushes") as usize;
        assert!((10..=14).contains(&pushes), "{pushes} outside the band");
        let level = &puzzle_sokoban::parse_xsb(l["xsb"].as_str().unwrap()).unwrap()[0];
        assert_eq!(level.box_count(), 3);
        let r = puzzle_sokoban::replay(level, l["solution"].as_str().unwrap()).unwrap();
        assert!(r.solved);
        assert_eq!(r.pushes, pushes);
        let astar = puzzle_sokoban::solve(
            level,
            puzzle_sokoban::Algorithm::AStar,
            &puzzle_engine::Budget::default(),
        )
        .unwrap();
        assert_eq!(astar.pushes.unwrap().len(), pushes, "{}", l["xsb"]);
    }
    for (args, needle) in [
        (
            &["--min-pushes", "9", "--max-pushes", "3"][..],
            "band is empty",
        ),
        (
            &["--objective", "score", "--boxes", "3"][..],
            "--boxes goes with",
        ),
        (&["--threshold", "0.5"][..], "--objective score"),
    ] {
        let out = puzzle()
            .args(["generate", "sokoban", "--iterations", "10"])
            .args(args)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn two_threads_and_a_large_board_work() {
    let lines = generate(&[
        "--width",
        "20",
        "--height",
        "20",
        "--iterations",
        "4000",
        "--threads",
        "2",
    ]);
    let summary = lines.last().unwrap();
    assert_eq!(summary["iterations"].as_u64(), Some(4000));
    assert!(lines.len() >= 2);
}

#[test]
fn render_writes_svg_and_png() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("two.xsb");
    std::fs::write(
        &file,
        "; one\n#####\n#@$.#\n#####\n\n; two\n######\n#@ $.#\n######\n",
    )
    .unwrap();
    let prefix = dir.path().join("pic");
    puzzle()
        .args([
            "render",
            file.to_str().unwrap(),
            "--level",
            "2",
            "--out",
            prefix.to_str().unwrap(),
        ])
        .assert()
        .success();
    let svg = std::fs::read_to_string(dir.path().join("pic.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("circle"));
    let png = std::fs::read(dir.path().join("pic.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    // Level 3 does not exist.
    let out = puzzle()
        .args(["render", file.to_str().unwrap(), "--level", "3"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("2 level"));
}

#[test]
fn bad_input_gets_clear_errors() {
    let out = puzzle()
        .args(["generate", "sokoban", "--width", "2"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let out = puzzle()
        .args([
            "generate", "sokoban", "--width", "5", "--height", "5", "--start", "7,1",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("outside"));
    let out = puzzle()
        .args(["generate", "sokoban", "--start", "a,b"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.xsb");
    std::fs::write(&file, "#####\n#@$X#\n#####\n").unwrap();
    let out = puzzle()
        .args(["render", file.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.xsb") && err.contains("line 2"), "{err}");
}

#[test]
fn experiment_writes_a_report_with_the_thesis_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("report.md");
    puzzle()
        .args([
            "experiment",
            "sokoban-gen",
            "--tables",
            "3.1,3.6",
            "--seeds",
            "2",
            "--time-limit",
            "0.1",
            "--quiet",
            "--out",
            report.to_str().unwrap(),
        ])
        .assert()
        .success();
    let text = std::fs::read_to_string(&report).unwrap();
    assert!(text.contains("Table 3.1") && text.contains("Table 3.6"));
    assert!(text.contains("4498609") && text.contains("1.1480"));
    assert!(text.contains("δ = 0.20"));
    let out = puzzle()
        .args(["experiment", "sokoban-gen", "--tables", "9.9"])
        .output()
        .unwrap();
    assert!(!out.status.success());
}

#[test]
fn experiment_writes_a_plot_per_table_beside_the_report() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("report.md");
    let out = puzzle()
        .args(["experiment", "sokoban-gen", "--tables", "3.1,3.4"])
        .args(["--seeds", "1", "--time-limit", "0.05", "--quiet", "--out"])
        .arg(&report)
        .output()
        .unwrap();
    assert_success(&out);
    common::assert_plots_beside(
        &report,
        &["sokoban-gen-table-3.1.svg", "sokoban-gen-table-3.4.svg"],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("report-sokoban-gen-table-3.4.svg"),
        "{stdout}"
    );
}

#[test]
fn help_names_the_thread_default_and_a_time_limited_default_run_works() {
    let help = puzzle()
        .args(["generate", "sokoban", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    assert!(help.contains("the machine's cores"), "{help}");
    // Without --iterations the run uses every core; it still reports its levels.
    let lines = generate(&["--width", "5", "--height", "5", "--time-limit", "0.3"]);
    assert!(lines.len() >= 2);
    assert_eq!(lines.last().unwrap()["summary"], Value::Bool(true));
}
