//! Board files: the bundled standard set, round trips of every format, errors with file,
//! line and column.

use puzzle_samegame::format::{self, FileFormat};
use puzzle_samegame::{Board, Scoring};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/samegame");

fn read(path: &str) -> String {
    std::fs::read_to_string(format!("{DIR}/{path}")).unwrap()
}

#[test]
fn the_standard_set_matches_the_digits_file() {
    let digits = format::parse_digits(
        &read("standard20_digits.txt"),
        "digits",
        Scoring::standard(),
    )
    .unwrap();
    assert_eq!(digits.len(), 20);
    for (i, nb) in digits.iter().enumerate() {
        let file = format!("standard20/problem{:02}.txt", i + 1);
        let b = format::parse_standard(&read(&file), &file, Scoring::standard()).unwrap();
        assert_eq!(b, nb.board, "{file}");
        assert_eq!(
            (b.width(), b.height(), b.colours(), b.stones()),
            (15, 15, 5, 225)
        );
        assert_eq!(nb.name, format!("problem {:02}", i + 1));
        assert_eq!(nb.index, i + 1);
    }
    // The source of the standard boards notes that boards 11-15 hold 45 stones of each colour.
    for nb in &digits[10..15] {
        assert_eq!(&nb.board.counts()[1..], &[45; 5]);
    }
}

#[test]
fn round_trips() {
    for seed in 0..10 {
        let b = Board::random(
            3 + seed as usize,
            2 + (seed as usize * 7) % 9,
            1 + seed as usize % 6,
            seed,
            Scoring::standard(),
        )
        .unwrap();
        let s = format::write_standard(&b);
        assert_eq!(format::detect(&s), FileFormat::Standard);
        assert_eq!(
            format::parse_standard(&s, "x", Scoring::standard()).unwrap(),
            b
        );
        let c = format::write_csv(&b);
        assert_eq!(format::detect(&c), FileFormat::Csv);
        let back = format::parse_csv(&c, "x.csv", Scoring::standard()).unwrap();
        assert_eq!(back.rows(), b.rows());
        assert_eq!(format::write_csv(&back), c);
        let d = format::write_digits(&[("problem 07".to_string(), b.clone())]);
        let parsed = format::parse_digits(&d, "d", Scoring::standard()).unwrap();
        assert_eq!(parsed[0].board.rows(), b.rows());
        assert_eq!(parsed[0].name, "problem 07");
    }
    // The bundled digits file is reproduced exactly.
    let text = read("standard20_digits.txt");
    let boards = format::parse_digits(&text, "d", Scoring::standard()).unwrap();
    let named: Vec<(String, Board)> = boards.into_iter().map(|nb| (nb.name, nb.board)).collect();
    assert_eq!(format::write_digits(&named).trim_end(), text.trim_end());
}

#[test]
fn csv_with_trailing_separators() {
    let b = format::parse_csv("3;2\n0;1;2;\n2;1;0;\n", "t.csv", Scoring::standard()).unwrap();
    assert_eq!(b.rows(), vec![vec![1, 2, 3], vec![3, 2, 1]]);
    assert_eq!(b.colours(), 3);
}

fn error(text: &str, parse: fn(&str) -> Result<(), String>) -> String {
    parse(text).unwrap_err()
}

fn std_parse(t: &str) -> Result<(), String> {
    format::parse_standard(t, "b.txt", Scoring::standard())
        .map(|_| ())
        .map_err(|e| e.to_string())
}
fn csv_parse(t: &str) -> Result<(), String> {
    format::parse_csv(t, "b.csv", Scoring::standard())
        .map(|_| ())
        .map_err(|e| e.to_string())
}
fn digits_parse(t: &str) -> Result<(), String> {
    format::parse_digits(t, "d.txt", Scoring::standard())
        .map(|_| ())
        .map_err(|e| e.to_string())
}

#[test]
fn errors_name_file_line_and_column() {
    let e = error("2 3 2\nRGR\nRG\n", std_parse);
    assert!(e.starts_with("b.txt:3:") && e.contains("2 stones"), "{e}");
    let e = error("2 3 2\nRGR\nRGB\n", std_parse);
    assert!(
        e.starts_with("b.txt:3:3:") && e.contains("unknown colour 'B'"),
        "{e}"
    );
    let e = error("3 3 2\nRGR\nRGG\n", std_parse);
    assert!(e.contains("announces 3 rows, found 2"), "{e}");
    let e = error("2 x 2\nRG\nRG\n", std_parse);
    assert!(
        e.starts_with("b.txt:1:") && e.contains("not a whole number"),
        "{e}"
    );
    let e = error("2 2 99\nRG\nRG\n", std_parse);
    assert!(e.contains("colour count 99 is out of range"), "{e}");
    let e = error("2 2 2\nRG\nRG\nRG\n", std_parse);
    assert!(e.starts_with("b.txt:4:"), "{e}");
    let e = error("", std_parse);
    assert!(e.contains("empty file"), "{e}");
    let e = error("3;2\n0;1;2\n0;1\n", csv_parse);
    assert!(e.starts_with("b.csv:3:") && e.contains("2 cells"), "{e}");
    let e = error("3;2\n0;1;2\n0;a;1\n", csv_parse);
    assert!(
        e.starts_with("b.csv:3:2:") && e.contains("unknown colour 'a'"),
        "{e}"
    );
    let e = error("3;0\n", csv_parse);
    assert!(e.contains("row count 0 is out of range"), "{e}");
    let e = error("# problem 01\n012\n01\n", digits_parse);
    assert!(e.starts_with("d.txt:3:"), "{e}");
    let e = error("# problem 01\n012\n0x2\n", digits_parse);
    assert!(e.starts_with("d.txt:3:2:"), "{e}");
    let e = error("012\n", digits_parse);
    assert!(e.starts_with("d.txt:1:"), "{e}");
}

#[test]
fn random_boards_are_reproducible() {
    let a = Board::random(15, 15, 5, 42, Scoring::standard()).unwrap();
    assert_eq!(
        a,
        Board::random(15, 15, 5, 42, Scoring::standard()).unwrap()
    );
    assert_ne!(
        a,
        Board::random(15, 15, 5, 43, Scoring::standard()).unwrap()
    );
    assert!(Board::random(0, 15, 5, 1, Scoring::standard()).is_err());
    assert!(Board::random(15, 15, 0, 1, Scoring::standard()).is_err());
    assert!(Board::random(500, 15, 5, 1, Scoring::standard()).is_err());
}
