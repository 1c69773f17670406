//! Board files with a byte-order mark, CRLF or CR line ends, trailing spaces and
//! trailing blank lines read the same as without, in all three formats.

use proptest::prelude::*;
use puzzle_samegame::format::{self, parse_any, parse_csv, parse_digits, parse_standard};
use puzzle_samegame::Scoring;

const STANDARD: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../data/samegame/standard20/problem01.txt"
));
const DIGITS: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../data/samegame/standard20_digits.txt"
));

/// The text with `\n` replaced by `eol`, trailing spaces on every line, blank lines at the end,
/// optionally behind a byte-order mark.
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

fn key(boards: &[puzzle_samegame::NamedBoard]) -> Vec<(String, String)> {
    boards
        .iter()
        .map(|b| (b.name.clone(), format::write_standard(&b.board)))
        .collect()
}

#[test]
fn a_bom_is_not_a_column() {
    let text = "\u{feff}2 2 2\r\nRG\r\nRX\r\n";
    let e = parse_standard(text, "f.txt", Scoring::standard()).unwrap_err();
    assert_eq!((e.line, e.column), (3, Some(2)), "{e}");
    let e = parse_digits("\u{feff}# p\r01\r0x\r", "f.txt", Scoring::standard()).unwrap_err();
    assert_eq!((e.line, e.column), (3, Some(2)), "{e}");
    // Row-length refusals point at the first missing or extra stone.
    let e = parse_standard("2 3 2\r\nRGR\r\nRG\r\n", "f.txt", Scoring::standard()).unwrap_err();
    assert_eq!((e.line, e.column), (3, Some(3)), "{e}");
    let e = parse_csv("2;2\r0;1\r0;1;1\r", "f.csv", Scoring::standard()).unwrap_err();
    assert_eq!((e.line, e.column), (3, Some(3)), "{e}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn every_format_reads_the_same_dressed(
        bom in any::<bool>(),
        eol in prop::sample::select(vec!["\n", "\r\n", "\r"]),
        trailing in 0usize..3,
        blank in 0usize..3,
    ) {
        let s = Scoring::standard();
        let want = parse_standard(STANDARD, "p.txt", s).unwrap();
        let got = parse_standard(&dress(STANDARD, bom, eol, trailing, blank), "p.txt", s).unwrap();
        prop_assert_eq!(format::write_standard(&got), format::write_standard(&want));
        let any = parse_any(&dress(STANDARD, bom, eol, trailing, blank), "p.txt", s).unwrap();
        prop_assert_eq!(format::write_standard(&any[0].board), format::write_standard(&want));

        let want = parse_digits(DIGITS, "d.txt", s).unwrap();
        let dressed = dress(DIGITS, bom, eol, trailing, blank);
        prop_assert_eq!(key(&parse_digits(&dressed, "d.txt", s).unwrap()), key(&want));
        prop_assert_eq!(key(&parse_any(&dressed, "d.txt", s).unwrap()), key(&want));

        let csv = format::write_csv(&want[0].board);
        let want = parse_csv(&csv, "c.csv", s).unwrap();
        let dressed = dress(&csv, bom, eol, trailing, blank);
        let got = parse_csv(&dressed, "c.csv", s).unwrap();
        prop_assert_eq!(format::write_standard(&got), format::write_standard(&want));
        let any = parse_any(&dressed, "c.csv", s).unwrap();
        prop_assert_eq!(format::write_standard(&any[0].board), format::write_standard(&want));
    }
}
