//! End-to-end tests of `puzzle play/experiment/bench bait` (the CLI contract of README.md and
//! docs/METHODS.md#bait-agents).

mod common;
use common::{assert_success, puzzle};

use serde_json::Value;

/// Run `puzzle <args> --json` and parse its one JSON line.
fn play_json(args: &[&str]) -> Value {
    let out = puzzle().args(args).arg("--json").output().unwrap();
    assert_success(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    let line = text.lines().next().expect("one JSON line");
    serde_json::from_str(line).unwrap()
}

#[test]
fn play_level_json_contract() {
    let v = play_json(&["play", "bait", "--level", "1", "--agent", "astar-offline"]);
    assert_eq!(v["level"], 1);
    assert_eq!(v["agent"], "astar-offline");
    assert_eq!(v["win"], true);
    assert_eq!(v["score"], 7);
    assert_eq!(v["ticks"], 38);
    let actions = v["actions"].as_str().unwrap();
    assert_eq!(actions.len(), 38);
    assert!(actions.chars().all(|c| "UDLRN".contains(c)));
    assert!(v["max_move_ms"].as_f64().unwrap() >= 0.0);
}

#[test]
fn every_agent_plays_level_0_from_the_cli() {
    for agent in ["dfs", "dls", "astar", "astar-offline", "mcts", "mcts-plus"] {
        let v = play_json(&[
            "play",
            "bait",
            "--level",
            "0",
            "--agent",
            agent,
            "--budget-ms",
            "10",
            "--seed",
            "3",
        ]);
        assert_eq!(v["agent"], agent);
        assert_eq!(v["win"], true, "{agent}");
        assert_eq!(v["score"], 5, "{agent}");
        assert_eq!(
            v["ticks"].as_u64().unwrap() as usize,
            v["actions"].as_str().unwrap().len()
        );
    }
}

#[test]
fn play_a_level_file_show_and_export() {
    let dir = tempfile::tempdir().unwrap();
    let level = dir.path().join("tiny.txt");
    std::fs::write(&level, "wwwwwww\nwA10kgw\nwwwwwww").unwrap();
    let export = dir.path().join("moves.txt");
    let out = puzzle()
        .args(["play", "bait", "--agent", "dfs", "--show", "--export"])
        .arg(&export)
        .arg(&level)
        .output()
        .unwrap();
    assert_success(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    // The board after each tick: the box fills the hole (+1), the key is taken, the door opens.
    assert!(text.contains("tick 1 action R score 1"), "{text}");
    assert!(text.contains("won with score 6 in 4 ticks"), "{text}");
    assert_eq!(std::fs::read_to_string(&export).unwrap().trim(), "RRRR");
    let v = play_json(&["play", "bait", "--agent", "astar", level.to_str().unwrap()]);
    assert_eq!(v["level"], level.to_str().unwrap());
    assert_eq!(v["actions"], "RRRR");
}

#[test]
fn bad_levels_and_arguments_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "wwww\nwAxw\nwgww").unwrap();
    let out = puzzle().args(["play", "bait"]).arg(&bad).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.txt") && err.contains("line 2, column 3"),
        "{err}"
    );
    std::fs::write(&bad, "wwww\nw.gw\nwwww").unwrap();
    let out = puzzle().args(["play", "bait"]).arg(&bad).output().unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("no avatar"));
    for args in [
        vec!["play", "bait", "--level", "5"],
        vec!["play", "bait", "--level", "1", "--agent", "bfs"],
        vec!["play", "bait", "--level", "1", "--budget-ms", "0"],
        vec!["play", "bait"],
    ] {
        let out = puzzle().args(&args).output().unwrap();
        assert!(!out.status.success(), "{args:?}");
        assert!(!out.stderr.is_empty());
    }
}

#[test]
fn experiment_writes_a_markdown_table() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("bait.md");
    let out = puzzle()
        .args([
            "experiment",
            "bait",
            "--agents",
            "dfs,astar-offline",
            "--levels",
            "0,1",
            "--quiet",
            "-o",
        ])
        .arg(&report)
        .output()
        .unwrap();
    assert_success(&out);
    let md = std::fs::read_to_string(&report).unwrap();
    assert!(
        md.contains("| astar-offline | 1/1, 5.0, 9 | 1/1, 7.0, 38 |"),
        "{md}"
    );
    assert!(md.contains("| dfs | 1/1, 5.0, 9 |"), "{md}");
    assert!(md.contains("GVGAI"));
}

#[test]
fn experiment_writes_its_wins_plot_beside_the_report() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("bait.md");
    let out = puzzle()
        .args([
            "experiment",
            "bait",
            "--agents",
            "astar-offline",
            "--levels",
            "0,1",
        ])
        .args(["--quiet", "-o"])
        .arg(&report)
        .output()
        .unwrap();
    assert_success(&out);
    common::assert_plots_beside(&report, &["bait-wins.svg"]);
    let svg = std::fs::read_to_string(dir.path().join("bait-bait-wins.svg")).unwrap();
    assert!(svg.contains("astar-offline") && svg.contains("level 1"));
}

#[test]
fn a_64_by_64_level_is_won_and_a_bigger_one_refused() {
    let dir = tempfile::tempdir().unwrap();
    let level = dir.path().join("room.txt");
    std::fs::write(&level, puzzle_bait::level::room(64, 64)).unwrap();
    let v = play_json(&[
        "play",
        "bait",
        "--agent",
        "astar-offline",
        level.to_str().unwrap(),
    ]);
    assert_eq!(
        (v["win"].clone(), v["score"].clone()),
        (true.into(), 5.into())
    );
    assert_eq!(v["ticks"], 61 + 61);
    assert_eq!(
        v["actions"],
        format!("{}{}", "R".repeat(61), "D".repeat(61))
    );
    std::fs::write(&level, puzzle_bait::level::room(65, 64)).unwrap();
    let out = puzzle()
        .args(["play", "bait"])
        .arg(&level)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("room.txt")
            && err.contains("line 1, column 1")
            && err.contains("65x64 = 4160 cells; at most 4096 are supported"),
        "{err}"
    );
}

#[test]
fn a_level_that_cannot_be_won_is_reported_before_the_first_tick() {
    let dir = tempfile::tempdir().unwrap();
    let level = dir.path().join("sealed.txt");
    // The door is walled off from the key: no agent can win, and none plays 2000 ticks to
    // find out.
    std::fs::write(&level, "wwwwwww\nwAkwg.w\nwwwwwww\n").unwrap();
    for agent in ["dfs", "astar", "mcts"] {
        let v = play_json(&["play", "bait", "--agent", agent, level.to_str().unwrap()]);
        assert_eq!(
            (v["win"].clone(), v["ticks"].clone()),
            (false.into(), 0.into())
        );
        let why = v["unwinnable"].as_str().unwrap_or_default();
        assert!(why.contains("door at row 2, column 5"), "{agent}: {v}");
    }
    // A winnable level says nothing of the kind.
    let v = play_json(&["play", "bait", "--level", "0", "--agent", "astar"]);
    assert!(v["unwinnable"].is_null(), "{v}");
}

#[test]
fn the_experiment_plays_the_generated_set() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("generated.md");
    let out = puzzle()
        .args([
            "experiment",
            "bait",
            "--set",
            "generated",
            "--agents",
            "dfs,astar-offline",
        ])
        .args(["--levels", "0,3,7", "--quiet", "-o"])
        .arg(&report)
        .output()
        .unwrap();
    assert_success(&out);
    let md = std::fs::read_to_string(&report).unwrap();
    assert!(md.contains("the generated test set (seed 0)"), "{md}");
    // Levels 3 and 7 of every seed's set are unwinnable ones (the fourth kind, 8×8 and 12×12).
    assert!(
        md.contains("| agent | open-8x8 | unwinnable-8x8 | unwinnable-12x12 |"),
        "{md}"
    );
    assert!(md.contains("| unwinnable | unwinnable |\n"), "{md}");
    assert!(md.contains("| dfs | 1/1 | 2 |"), "{md}");
    let out = puzzle()
        .args(["experiment", "bait", "--set", "generated", "--levels", "28"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("the generated set has no level 28"));
}
