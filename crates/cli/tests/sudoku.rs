//! End-to-end tests of `puzzle solve|generate|bench|experiment sudoku`.

mod common;
use common::{assert_success, json_lines, puzzle, temp_file};

fn data(name: &str) -> String {
    format!("{}/../../data/sudoku/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// An independent check: 81 digits, rows/columns/boxes are permutations, clues kept.
fn assert_solves(solution: &str, puzzle: &str) {
    let s: Vec<u32> = solution.chars().map(|c| c.to_digit(10).unwrap()).collect();
    assert_eq!(s.len(), 81);
    for (p, &v) in puzzle.chars().zip(&s) {
        if let Some(d) = p.to_digit(10).filter(|&d| d != 0) {
            assert_eq!(d, v, "clue changed");
        }
    }
    for u in 0..9 {
        let mut row = 0u32;
        let mut col = 0u32;
        let mut bx = 0u32;
        for k in 0..9 {
            row |= 1 << s[u * 9 + k];
            col |= 1 << s[k * 9 + u];
            bx |= 1 << s[(u / 3 * 3 + k / 3) * 9 + u % 3 * 3 + k % 3];
        }
        assert_eq!(
            (row, col, bx),
            (0x3FE, 0x3FE, 0x3FE),
            "unit {u} is not 1..9"
        );
    }
}

const EASY: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

#[test]
fn exact_solves_norvig_hardest_with_the_json_contract() {
    let out = puzzle()
        .args([
            "solve",
            "sudoku",
            &data("norvig_hardest11.txt"),
            "--algo",
            "exact",
            "--json",
        ])
        .output()
        .unwrap();
    assert_success(&out);
    let lines = json_lines(&out.stdout);
    assert_eq!(lines.len(), 11);
    for (i, l) in lines.iter().enumerate() {
        for key in [
            "index",
            "puzzle",
            "solved",
            "solution",
            "simulations",
            "restarts",
            "time_s",
        ] {
            assert!(l.get(key).is_some(), "missing {key} in {l}");
        }
        assert_eq!(l["index"], i as u64 + 1);
        assert_eq!(l["solved"], true);
        assert_eq!(l["solutions"], 1);
        assert_solves(
            l["solution"].as_str().unwrap(),
            l["puzzle"].as_str().unwrap(),
        );
    }
}

#[test]
fn exact_reports_several_solutions_and_none() {
    let serg = std::fs::read_to_string(data("serg_multisolution_1000.txt")).unwrap();
    let first: Vec<&str> = serg.lines().take(3).collect();
    // An unsolvable puzzle: EASY with a wrong value that does not conflict directly.
    let unsolvable = format!("5{}", &EASY[1..]);
    let f = temp_file(&format!("{}\n{unsolvable}\n", first.join("\n")));
    let out = puzzle()
        .args(["solve", "sudoku"])
        .arg(f.path())
        .args(["--algo", "exact", "--json"])
        .output()
        .unwrap();
    assert_success(&out);
    let lines = json_lines(&out.stdout);
    assert_eq!(lines.len(), 4);
    for l in &lines[..3] {
        assert_eq!(l["solutions"], 2);
        assert_solves(
            l["solution"].as_str().unwrap(),
            l["puzzle"].as_str().unwrap(),
        );
    }
    assert_eq!(lines[3]["solved"], false);
    assert_eq!(lines[3]["solutions"], 0);
}

#[test]
fn mcts_solves_an_easy_puzzle_reproducibly() {
    let f = temp_file(&format!("{EASY}\n"));
    let run = || {
        let out = puzzle()
            .args(["solve", "sudoku"])
            .arg(f.path())
            .args([
                "--algo",
                "mcts",
                "--playout",
                "pseudo",
                "--selection",
                "ucb1",
                "--uctk",
                "0.2",
            ])
            .args([
                "--max-simulations",
                "20000",
                "--restarts",
                "2",
                "--seed",
                "9",
                "--json",
            ])
            .output()
            .unwrap();
        assert_success(&out);
        json_lines(&out.stdout)
    };
    let a = run();
    assert_eq!(a.len(), 1);
    assert_eq!(a[0]["solved"], true);
    assert_solves(a[0]["solution"].as_str().unwrap(), EASY);
    assert!(a[0]["simulations"].as_u64().unwrap() > 0);
    let b = run();
    assert_eq!(a[0]["simulations"], b[0]["simulations"]);
    assert_eq!(a[0]["solution"], b[0]["solution"]);
}

#[test]
fn mcts_variants_run_and_respect_the_budget() {
    let hard = std::fs::read_to_string(data("norvig_hardest11.txt")).unwrap();
    let f = temp_file(hard.lines().next().unwrap());
    for extra in [
        vec!["--selection", "ucb-tuned"],
        vec!["--amaf", "0.5"],
        vec!["--playout", "random", "--uctk", "0.4"],
    ] {
        let out = puzzle()
            .args(["solve", "sudoku"])
            .arg(f.path())
            .args(["--max-simulations", "300", "--restarts", "1", "--json"])
            .args(&extra)
            .output()
            .unwrap();
        assert_success(&out);
        let l = &json_lines(&out.stdout)[0];
        let sims = l["simulations"].as_u64().unwrap();
        assert!(sims <= 600, "{extra:?}: {sims} simulations over the budget");
        if l["solved"] == true {
            assert_solves(
                l["solution"].as_str().unwrap(),
                l["puzzle"].as_str().unwrap(),
            );
        } else {
            assert_eq!(sims, 600);
            assert_eq!(l["restarts"], 1);
        }
    }
}

#[test]
fn parse_errors_name_the_line() {
    let f = temp_file(&format!("{EASY}\n{}\n", &EASY[..80]));
    let out = puzzle()
        .args(["solve", "sudoku"])
        .arg(f.path())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 2") && err.contains("80 cells"), "{err}");

    let conflicting = format!("33{}", &EASY[2..]);
    let f = temp_file(&conflicting);
    let out = puzzle()
        .args(["solve", "sudoku"])
        .arg(f.path())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 1") && err.contains("conflicts"), "{err}");

    let f = temp_file(&EASY.replace('.', "x"));
    let out = puzzle()
        .args(["solve", "sudoku"])
        .arg(f.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("column 1"), "{err}");

    let out = puzzle()
        .args([
            "solve",
            "sudoku",
            &data("norvig_hardest11.txt"),
            "--uctk",
            "-1",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
}

#[test]
fn generated_puzzles_are_unique() {
    let out = puzzle()
        .args([
            "generate", "sudoku", "--count", "3", "--seed", "5", "--json",
        ])
        .output()
        .unwrap();
    assert_success(&out);
    let lines = json_lines(&out.stdout);
    assert_eq!(lines.len(), 3);
    let puzzles: Vec<String> = lines
        .iter()
        .map(|l| l["puzzle"].as_str().unwrap().to_string())
        .collect();
    for l in &lines {
        assert_solves(
            l["solution"].as_str().unwrap(),
            l["puzzle"].as_str().unwrap(),
        );
        assert!(l["difficulty"].is_string());
    }
    // The exact solver agrees that each has exactly one solution.
    let f = temp_file(&puzzles.join("\n"));
    let out = puzzle()
        .args(["solve", "sudoku"])
        .arg(f.path())
        .args(["--algo", "exact", "--json"])
        .output()
        .unwrap();
    for l in json_lines(&out.stdout) {
        assert_eq!(l["solutions"], 1);
    }
}

#[test]
fn bench_reports_puzzles_per_second() {
    let out = puzzle()
        .args([
            "bench",
            "sudoku",
            &data("magictour_top95.txt"),
            "--repeat",
            "1",
            "--json",
        ])
        .output()
        .unwrap();
    assert_success(&out);
    let l = &json_lines(&out.stdout)[0];
    assert_eq!(l["puzzles"], 95);
    assert_eq!(l["solved"], 95);
    assert!(l["puzzles_per_s"].as_f64().unwrap() > 0.0);
}

#[test]
fn experiment_writes_a_markdown_report() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("sudoku.md");
    let out = puzzle()
        .args([
            "experiment",
            "sudoku",
            "--runs",
            "1",
            "--easy-limit",
            "3000",
        ])
        .args([
            "--medium-limit",
            "300",
            "--hard-limit",
            "300",
            "--top95",
            "2",
        ])
        .args(["--top95-budget", "300", "--output"])
        .arg(&report)
        .output()
        .unwrap();
    assert_success(&out);
    let md = std::fs::read_to_string(&report).unwrap();
    assert!(md.contains("## easy puzzle"), "{md}");
    assert!(md.contains("random / UCB1 0.2 / α-AMAF 0.5"), "{md}");
    assert!(md.contains("top95"), "{md}");
    // 16 configurations on easy and medium, 8 on hard, 4 on top95.
    assert_eq!(
        md.lines()
            .filter(|l| l.starts_with("| random")
                || l.starts_with("| pseudo")
                || l.starts_with("| MRV"))
            .count(),
        16 + 16 + 8 + 4
    );
}

#[test]
fn experiment_runs_only_the_chosen_puzzles() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("hard.md");
    let out = puzzle()
        .args(["experiment", "sudoku", "--runs", "1", "--hard-limit", "300"])
        .args([
            "--puzzles",
            "hard",
            "--amaf-on-hard",
            "--top95",
            "0",
            "--output",
        ])
        .arg(&report)
        .output()
        .unwrap();
    assert_success(&out);
    let md = std::fs::read_to_string(&report).unwrap();
    assert!(md.contains("## hard puzzle"), "{md}");
    assert!(!md.contains("## easy puzzle"), "{md}");
    assert!(!md.contains("## medium puzzle"), "{md}");
    assert!(!md.contains("top95"), "{md}");
    // The 16 configurations of the hard puzzle (α-AMAF included), one table row each.
    assert_eq!(
        md.lines()
            .filter(|l| l.starts_with("| random") || l.starts_with("| pseudo"))
            .count(),
        16
    );
    let bad = puzzle()
        .args(["experiment", "sudoku", "--puzzles", "hardest"])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("hardest"));
}

#[test]
fn experiment_writes_its_success_plots_beside_the_report() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("sudoku.md");
    let out = puzzle()
        .args(["experiment", "sudoku", "--runs", "1", "--puzzles", "easy"])
        .args([
            "--easy-limit",
            "300",
            "--top95",
            "2",
            "--top95-budget",
            "300",
        ])
        .arg("--output")
        .arg(&report)
        .output()
        .unwrap();
    assert_success(&out);
    common::assert_plots_beside(&report, &["sudoku-grid-easy.svg", "sudoku-top95.svg"]);
    assert!(!report
        .with_file_name("sudoku-sudoku-grid-hard.svg")
        .exists());
}

#[test]
fn experiment_to_stdout_writes_its_plots_into_the_current_directory() {
    let dir = tempfile::tempdir().unwrap();
    let out = puzzle()
        .current_dir(dir.path())
        .args(["experiment", "sudoku", "--runs", "1", "--puzzles", "easy"])
        .args(["--easy-limit", "200", "--top95", "0", "--quiet"])
        .output()
        .unwrap();
    assert_success(&out);
    let md = String::from_utf8_lossy(&out.stdout);
    assert!(md.contains("](sudoku-grid-easy.svg)"), "{md}");
    assert!(dir.path().join("sudoku-grid-easy.svg").exists());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("current directory: sudoku-grid-easy.svg"),
        "{err}"
    );
}

/// top95's third puzzle: the default (most-constrained cell) solves it in a few hundred
/// simulations, the thesis's policies not within 2,000.
const TOP95_3: &str =
    "6.....8.3.4.7.................5.4.7.3..2.....1.6.......2.....5.....8.6......1....";

#[test]
fn the_default_solves_top95_and_the_thesis_preset_keeps_the_thesis_policies() {
    let f = temp_file(&format!("{TOP95_3}\n"));
    let run = |extra: &[&str]| {
        let out = puzzle()
            .args(["solve", "sudoku"])
            .arg(f.path())
            .args([
                "--max-simulations",
                "2000",
                "--restarts",
                "0",
                "--seed",
                "1",
            ])
            .args(["--json"])
            .args(extra)
            .output()
            .unwrap();
        assert_success(&out);
        json_lines(&out.stdout).remove(0)
    };
    let default = run(&[]);
    assert_eq!(default["solved"], true);
    assert_solves(default["solution"].as_str().unwrap(), TOP95_3);
    // The explicit flags of the default give the same seeded run.
    let explicit = run(&["--playout", "mrv", "--tree-cell", "mrv"]);
    assert_eq!(explicit["simulations"], default["simulations"]);
    assert_eq!(explicit["solution"], default["solution"]);
    // The thesis: random playouts and a random tree cell, the same as spelling them out.
    let thesis = run(&["--preset", "thesis"]);
    assert_eq!(thesis["solved"], false);
    assert_eq!(thesis["simulations"], 2000);
    let spelled = run(&["--playout", "random", "--tree-cell", "random"]);
    assert_eq!(spelled["simulations"], thesis["simulations"]);
    assert_eq!(spelled["solved"], false);
    // A flag beside the preset overrides it.
    let mixed = run(&[
        "--preset",
        "thesis",
        "--tree-cell",
        "mrv",
        "--playout",
        "mrv",
    ]);
    assert_eq!(mixed["simulations"], default["simulations"]);
    // An unknown preset is refused, naming the choices.
    let out = puzzle()
        .args(["solve", "sudoku"])
        .arg(f.path())
        .args(["--preset", "paper"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("thesis"));
    // --help lists the presets and the defaults.
    let help = puzzle()
        .args(["solve", "sudoku", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    assert!(help.contains("--preset"), "{help}");
    assert!(help.contains("thesis"), "{help}");
    assert!(help.contains("default: mrv"), "{help}");
}
