//! End-to-end tests of `puzzle solve|experiment|bench samegame`: the JSON contract (col from
//! the left, row from the top of the board before each move), replayed here independently.

mod common;
use common::{json_lines, puzzle};

use puzzle_samegame::{format, Board, Scoring, Scratch};
use serde_json::Value;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/samegame");

/// The bundled digits file of the 20 standard boards: its path and its boards.
fn standard_digits() -> (String, Vec<puzzle_samegame::NamedBoard>) {
    let path = format!("{DATA}/standard20_digits.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let boards = format::parse_digits(&text, "d", Scoring::standard()).unwrap();
    (path, boards)
}

/// Replay the JSON moves on `board` (top-based rows) and return the final score and whether
/// the board was cleared.
fn replay(board: &Board, moves: &[Value]) -> (i64, bool) {
    let mut b = board.clone();
    let mut scratch = Scratch::new();
    for m in moves {
        let col = m["col"].as_u64().unwrap() as usize;
        let row = m["row"].as_u64().unwrap() as usize;
        let mv = b.move_from_top(col, row).expect("move on the board");
        b.try_play(mv, &mut scratch)
            .unwrap_or_else(|| panic!("illegal move {m}"));
    }
    assert!(!b.has_move(), "the game is not over");
    (b.final_score(), b.is_cleared())
}

fn check(board: &Board, v: &Value) {
    let (score, cleared) = replay(board, v["moves"].as_array().unwrap());
    assert_eq!(v["score"].as_i64().unwrap(), score, "{v}");
    assert_eq!(v["cleared"].as_bool().unwrap(), cleared);
    assert!(v["time_s"].as_f64().unwrap() >= 0.0);
    assert!(v["iterations"].as_u64().unwrap() > 0);
}

#[test]
fn solve_standard_file_json_replays() {
    let path = format!("{DATA}/standard20/problem01.txt");
    let out = puzzle()
        .args([
            "solve",
            "samegame",
            &path,
            "--iterations",
            "3000",
            "--seed",
            "2",
            "--json",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 1);
    let v = &lines[0];
    assert_eq!(v["board"], 1);
    assert_eq!(v["scoring"], "standard");
    assert_eq!(v["penalty"], "none");
    let board = format::parse_standard(
        &std::fs::read_to_string(&path).unwrap(),
        "p",
        Scoring::standard(),
    )
    .unwrap();
    check(&board, v);
    assert!(v["score"].as_i64().unwrap() > 500);
}

#[test]
fn digits_file_one_board_every_algorithm() {
    let (path, boards) = standard_digits();
    for algo in [
        "spmcts", "nmcs", "nrpa", "dbs", "astar", "idastar", "random",
    ] {
        let out = puzzle()
            .args([
                "solve",
                "samegame",
                &path,
                "--board",
                "7",
                "--algo",
                algo,
                "--iterations",
                "1500",
                "--json",
            ])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let lines = json_lines(&out);
        assert_eq!(lines.len(), 1, "{algo}");
        assert_eq!(lines[0]["board"], 7);
        assert_eq!(lines[0]["algo"], algo);
        check(&boards[6].board, &lines[0]);
    }
}

/// `puzzle solve samegame` with selective NRPA on standard board 3 and `flags`: its JSON lines.
fn selective_nrpa_board_3(path: &str, flags: &[&str]) -> Vec<Value> {
    let out = puzzle()
        .args(["solve", "samegame", path, "--board", "3", "--algo", "nrpa"])
        .args(["--selective", "--json"])
        .args(flags)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    json_lines(&out)
}

#[test]
fn selective_nrpa_on_two_threads_replays() {
    let (path, boards) = standard_digits();
    let run = || {
        selective_nrpa_board_3(
            &path,
            &["--threads", "2", "--iterations", "3001", "--seed", "4"],
        )
    };
    let lines = run();
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["iterations"], 3001);
    check(&boards[2].board, &lines[0]);
    let found = lines[0]["time_to_best_s"]
        .as_f64()
        .expect("NRPA reports its improvements");
    assert!(found <= lines[0]["time_s"].as_f64().unwrap() + 0.01);
    // An iteration budget makes the threaded run reproducible.
    assert_eq!(run()[0]["moves"], lines[0]["moves"]);
    // Stabilized NRPA replays too.
    let lines = selective_nrpa_board_3(
        &path,
        &["--stabilized", "3", "--level", "2", "--iterations", "1200"],
    );
    assert_eq!(lines[0]["iterations"], 1200);
    check(&boards[2].board, &lines[0]);
    // So do halved lineages: 4 of them at level 2 make 2 plain runs' playouts (4 for the
    // first quarter of the iterations, 2 for the second, 1 for the second half).
    let lines = selective_nrpa_board_3(
        &path,
        &["--lineages", "4", "--level", "2", "--iterations", "20000"],
    );
    assert_eq!(lines[0]["iterations"], 20000);
    check(&boards[2].board, &lines[0]);
    // So do restarts that pick their tabu colour best-first.
    let lines = selective_nrpa_board_3(
        &path,
        &[
            "--tabu-colours",
            "3",
            "--tabu-schedule",
            "best-first",
            "--level",
            "1",
            "--iterations",
            "1000",
        ],
    );
    check(&boards[2].board, &lines[0]);
    // And endgame searches from the best game's later positions.
    let lines = selective_nrpa_board_3(
        &path,
        &[
            "--endgame-percent",
            "40",
            "--level",
            "1",
            "--iterations",
            "1000",
        ],
    );
    assert_eq!(lines[0]["iterations"], 1000);
    check(&boards[2].board, &lines[0]);
}

#[test]
fn scoring_conventions_and_csv_input() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("b.csv");
    let board = Board::random(7, 6, 3, 5, Scoring::hungarian()).unwrap();
    std::fs::write(&csv, format::write_csv(&board)).unwrap();
    let out = puzzle()
        .args([
            "solve",
            "samegame",
            csv.to_str().unwrap(),
            "--scoring",
            "hungarian",
            "--penalty",
            "per-colour",
        ])
        .args(["--playout", "double-tabu", "--iterations", "2000", "--json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v = &json_lines(&out)[0];
    assert_eq!(v["scoring"], "hungarian");
    assert_eq!(v["penalty"], "per-colour");
    let b =
        board.with_scoring(Scoring::hungarian().with_penalty(puzzle_samegame::Penalty::PerColour));
    check(&b, v);
}

#[test]
fn random_board_and_text_output() {
    let out = puzzle()
        .args([
            "solve",
            "samegame",
            "--random",
            "10x8x4",
            "--seed",
            "3",
            "--iterations",
            "1000",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8_lossy(&out);
    assert!(
        text.contains("random 10x8x4 seed 3") && text.contains("score"),
        "{text}"
    );
}

#[test]
fn bad_input_is_reported_with_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "2 3 2\nRGR\nRGX\n").unwrap();
    let err = puzzle()
        .args([
            "solve",
            "samegame",
            bad.to_str().unwrap(),
            "--iterations",
            "10",
        ])
        .assert()
        .failure()
        .get_output()
        .stderr
        .clone();
    let err = String::from_utf8_lossy(&err);
    assert!(
        err.contains("bad.txt:3:3") && err.contains("unknown colour 'X'"),
        "{err}"
    );
    let path = format!("{DATA}/standard20/problem01.txt");
    puzzle()
        .args(["solve", "samegame", &path, "--board", "2"])
        .assert()
        .failure();
    puzzle()
        .args(["solve", "samegame", &path, "--algo", "magic"])
        .assert()
        .failure();
    puzzle()
        .args(["solve", "samegame", &path, "--playout", "pseudo-0"])
        .assert()
        .failure();
    puzzle()
        .args(["solve", "samegame", "--random", "0x5x3"])
        .assert()
        .failure();
    puzzle()
        .args(["solve", "samegame", "/nonexistent/file.txt"])
        .assert()
        .failure();
}

#[test]
fn experiment_writes_a_report_beside_the_paper() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("r.md");
    puzzle()
        .args([
            "experiment",
            "samegame",
            "--count",
            "2",
            "--iterations",
            "300",
            "--playouts",
            "tabu,double-tabu",
        ])
        .args([
            "--formulas",
            "uctk0.1,ucb-tuned",
            "--out",
            report.to_str().unwrap(),
            "--threads",
            "2",
        ])
        .assert()
        .success();
    let md = std::fs::read_to_string(&report).unwrap();
    assert!(
        md.contains("| uctk0.1 |") && md.contains("/ 66091 |") && md.contains("/ 61739 |"),
        "{md}"
    );
}

#[test]
fn bench_prints_rates() {
    let out = puzzle()
        .args(["bench", "samegame", "--seconds", "0.2", "--json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let lines = json_lines(&out);
    assert!(lines
        .iter()
        .any(|v| v["what"] == "playouts/tabu" && v["per_second"].as_f64().unwrap() > 0.0));
}

#[test]
fn experiment_writes_its_plots_beside_the_report() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("r.md");
    puzzle()
        .args([
            "experiment",
            "samegame",
            "--count",
            "2",
            "--iterations",
            "50",
        ])
        .args([
            "--playouts",
            "tabu",
            "--formulas",
            "uctk0.1,ucb-tuned",
            "--quiet",
        ])
        .arg("--out")
        .arg(&report)
        .assert()
        .success();
    common::assert_plots_beside(&report, &["samegame-boards.svg", "samegame-totals.svg"]);
    let svg = std::fs::read_to_string(dir.path().join("r-samegame-boards.svg")).unwrap();
    assert!(svg.contains("tabu / uctk0.1") && svg.contains("tabu / ucb-tuned"));
}
