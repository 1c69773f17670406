//! Level files with a byte-order mark, CRLF or CR line ends, trailing spaces and
//! blank lines before and after read the same as without.

use proptest::prelude::*;
use puzzle_bait::{Level, BUILTIN_LEVELS};

fn dress(text: &str, bom: bool, eol: &str, trailing: usize, blank: usize) -> String {
    let mut out = String::new();
    if bom {
        out.push('\u{feff}');
    }
    out.push_str(&eol.repeat(blank));
    for line in text.lines() {
        out.push_str(line);
        out.push_str(&" ".repeat(trailing));
        out.push_str(eol);
    }
    out.push_str(&eol.repeat(blank));
    out
}

#[test]
fn a_bom_is_not_a_column_and_errors_name_a_column() {
    let e = Level::parse("\u{feff}wwww\r\nwAxw\r\nwwww\r\n").unwrap_err();
    assert_eq!((e.line, e.column), (2, 3), "{e}");
    let e = Level::parse("wwww\rwAgw\rwww\r").unwrap_err();
    assert_eq!((e.line, e.column), (3, 4), "{e}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn levels_read_the_same_dressed(
        index in 0usize..5,
        bom in any::<bool>(),
        eol in prop::sample::select(vec!["\n", "\r\n", "\r"]),
        trailing in 0usize..3,
        blank in 0usize..3,
    ) {
        let text = BUILTIN_LEVELS[index];
        let want = Level::parse(text).unwrap();
        prop_assert_eq!(Level::parse(&dress(text, bom, eol, trailing, blank)).unwrap(), want);
    }
}

#[test]
fn a_level_over_the_limit_is_refused_with_the_limit_and_why() {
    let row = |inner: &str| format!("w{inner}w\n");
    let mut text = format!("\u{feff}\r\n{}", row(&"w".repeat(15)));
    text += &row(&format!("A{}g", ".".repeat(13)));
    for _ in 0..14 {
        text += &row(&".".repeat(15));
    }
    text += &row(&"w".repeat(15));
    let e = Level::parse(&text).unwrap_err();
    assert_eq!((e.line, e.column), (2, 1), "{e}");
    assert!(
        e.message.contains("17x17 = 289 cells") && e.message.contains("at most 256"),
        "{e}"
    );
    // 16x16 is accepted.
    let mut text = row(&"w".repeat(14));
    text += &row(&format!("A{}g", ".".repeat(12)));
    for _ in 0..13 {
        text += &row(&".".repeat(14));
    }
    text += &row(&"w".repeat(14));
    let level = Level::parse(&text).unwrap();
    assert_eq!((level.width, level.height), (16, 16));
}
