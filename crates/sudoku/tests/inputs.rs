//! Puzzle files with a byte-order mark, CRLF or CR line ends, trailing spaces and
//! trailing blank lines read the same as without, in the one-line and grid layouts.

use proptest::prelude::*;
use puzzle_sudoku::{parse_puzzle, parse_puzzles};

const TOP95: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../data/sudoku/magictour_top95.txt"
));

fn dress(text: &str, bom: bool, eol: &str, trailing: usize, blank: usize) -> String {
    let mut out = String::new();
    if bom {
        out.push('\u{feff}');
    }
    for line in text.lines() {
        out.push_str(line);
        out.push_str(&" ".repeat(trailing));
        out.push_str(eol);
    }
    out.push_str(&eol.repeat(blank));
    out
}

#[test]
fn a_bom_is_not_a_column() {
    let line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4.....x";
    let plain = parse_puzzle(line).unwrap_err();
    let e = parse_puzzle(&format!("\u{feff}{line}\r\n")).unwrap_err();
    assert_eq!((e.line, e.column), (plain.line, plain.column), "{e}");
    assert_eq!(plain.column, Some(81));
    // A short grid row names the column where a cell is missing.
    let e = parse_puzzle("\u{feff}123456789\r\n12345678\r\n").unwrap_err();
    assert_eq!((e.line, e.column), (2, Some(9)), "{e}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn puzzles_read_the_same_dressed(
        index in 0usize..95,
        bom in any::<bool>(),
        eol in prop::sample::select(vec!["\n", "\r\n", "\r"]),
        trailing in 0usize..3,
        blank in 0usize..3,
    ) {
        let all = parse_puzzles(TOP95).unwrap();
        let grid = &all[index].grid;
        let line = grid.to_line();
        prop_assert_eq!(&parse_puzzle(&dress(&line, bom, eol, trailing, blank)).unwrap(), grid);
        let text = grid.to_grid_text();
        prop_assert_eq!(&parse_puzzle(&dress(&text, bom, eol, trailing, blank)).unwrap(), grid);
        let got = parse_puzzles(&dress(TOP95, bom, eol, trailing, blank)).unwrap();
        prop_assert_eq!(got.len(), 95);
        prop_assert_eq!(&got[index].grid, grid);
    }
}
