//! Every game's CLI solves a file written by a Windows editor (a UTF-8
//! byte-order mark, CRLF line ends, trailing spaces and blank lines), and Sokoban levels that
//! are already solved or unsolvable are answered, not refused.

mod common;
use common::{assert_success, json_lines, puzzle, temp_file};
use serde_json::Value;

/// `text` as a Windows editor writes it: a BOM, CRLF, trailing spaces, trailing blank lines.
fn windows(text: &str) -> String {
    let mut out = String::from("\u{feff}");
    for line in text.lines() {
        out.push_str(line);
        out.push_str("  \r\n");
    }
    out.push_str("\r\n\r\n");
    out
}

/// Run `puzzle SUBCOMMAND… FILE FLAGS…` on `text` written as [`windows`] does, check that it
/// succeeds, and return its JSON lines.
fn run_on_windows_file(subcommand: &[&str], text: &str, flags: &[&str]) -> Vec<Value> {
    let file = temp_file(&windows(text));
    let out = puzzle()
        .args(subcommand)
        .arg(file.path())
        .args(flags)
        .output()
        .unwrap();
    assert_success(&out);
    json_lines(&out.stdout)
}

#[test]
fn sokoban_solves_a_bom_crlf_file() {
    let lines = run_on_windows_file(
        &["solve", "sokoban"],
        "; 1\n#######\n#@ $ .#\n#######\n",
        &["--json", "--time-limit", "5"],
    );
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["title"], "1");
    assert_eq!(lines[0]["solved"], true, "{}", lines[0]);
    assert_eq!(lines[0]["pushes"], 2);
}

#[test]
fn sokoban_answers_trivial_and_unsolvable_levels() {
    let file = temp_file(&windows(
        "; empty\n#####\n#@  #\n#####\n\n; stranded\n#########\n#@$ .#$.#\n#########\n",
    ));
    for algo in ["astar", "idastar", "bfs", "greedy", "ga"] {
        let out = puzzle()
            .args(["solve", "sokoban"])
            .arg(file.path())
            .args(["--json", "--time-limit", "2", "--algo", algo])
            .output()
            .unwrap();
        assert_success(&out);
        let lines = json_lines(&out.stdout);
        assert_eq!(lines.len(), 2, "{algo}");
        assert_eq!(lines[0]["solved"], true, "{algo}: {}", lines[0]);
        assert_eq!(lines[0]["solution"], "", "{algo}: {}", lines[0]);
        assert_eq!(lines[1]["solved"], false, "{algo}: {}", lines[1]);
    }
}

#[test]
fn samegame_solves_a_bom_crlf_file() {
    let flags = ["--json", "--time-limit", "2"];
    let lines = run_on_windows_file(&["solve", "samegame"], "3 4 2\nRRGG\nRRGG\nGGRR\n", &flags);
    assert_eq!(lines.len(), 1);
    assert!(lines[0]["score"].as_i64().is_some(), "{}", lines[0]);
    let csv = "4;3\n0;0;1;1\n0;0;1;1\n1;1;0;0\n";
    run_on_windows_file(&["solve", "samegame"], csv, &flags);
    let digits = "# problem 01\n0011\n0011\n1100\n";
    run_on_windows_file(&["solve", "samegame"], digits, &flags);
}

#[test]
fn sudoku_solves_a_bom_crlf_file() {
    let easy = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
    let flags = ["--algo", "exact", "--json"];
    let lines = run_on_windows_file(&["solve", "sudoku"], easy, &flags);
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["solved"], true, "{}", lines[0]);
    // The grid layout too.
    let grid: String = easy
        .as_bytes()
        .chunks(9)
        .map(|r| format!("{}\n", std::str::from_utf8(r).unwrap()))
        .collect();
    let lines = run_on_windows_file(&["solve", "sudoku"], &grid, &flags);
    assert_eq!(lines[0]["solved"], true);
}

#[test]
fn bait_plays_a_bom_crlf_file() {
    let lines = run_on_windows_file(
        &["play", "bait", "--agent", "astar"],
        "wwwwwww\nwA10kgw\nwwwwwww\n",
        &["--json"],
    );
    assert_eq!(lines[0]["win"], true, "{}", lines[0]);
    assert_eq!(lines[0]["actions"], "RRRR");
}
