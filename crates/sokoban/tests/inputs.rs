//! Text inputs with a byte-order mark, CRLF or CR line ends, trailing spaces and
//! blank lines parse as without; well-formed but trivially solved or unsolvable levels are
//! levels, and every solver gives a sensible answer for them.

use proptest::prelude::*;
use puzzle_engine::{Budget, StopReason};
use puzzle_sokoban::{parse_lurd, parse_xsb, replay, solve, Algorithm, Board, Level, Play};

const MICROBAN: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../data/sokoban/Microban_155.xsb"
));

/// The text with `\n` replaced by `eol`, optionally behind a byte-order mark.
fn dress(text: &str, bom: bool, eol: &str) -> String {
    let body = text.replace('\n', eol);
    if bom {
        format!("\u{feff}{body}")
    } else {
        body
    }
}

const ALGORITHMS: [Algorithm; 5] = [
    Algorithm::AStar,
    Algorithm::IdaStar,
    Algorithm::Bfs,
    Algorithm::Greedy,
    Algorithm::Genetic,
];

#[test]
fn bom_crlf_cr_trailing_spaces_and_blank_lines() {
    let plain = "; 1\n####\n#@$.#\n#####\n";
    let want = parse_xsb(plain).unwrap();
    for bom in [false, true] {
        for eol in ["\n", "\r\n", "\r"] {
            let text = dress(plain, bom, eol);
            assert_eq!(parse_xsb(&text).unwrap(), want, "{text:?}");
            assert_eq!(Level::parse_one(&text).unwrap(), want[0], "{text:?}");
        }
    }
    let padded = "\u{feff}; 1  \r\n####   \r\n#@$.#  \r\n#####\t\r\n\r\n\r\n  \r\n";
    assert_eq!(parse_xsb(padded).unwrap(), want);
    // A BOM is not a column; CR line ends count as lines.
    let e = parse_xsb("\u{feff}#####\r#@$x#\r#####\r").unwrap_err();
    assert_eq!((e.line, e.column), (2, 4));
    // LURD with a BOM and CRLF.
    assert_eq!(
        parse_lurd("\u{feff}rR\r\nr\r").unwrap(),
        parse_lurd("rRr").unwrap()
    );
    let level = Level::parse_one("######\n#@$ .#\n######\n").unwrap();
    assert!(replay(&level, "\u{feff}RR\r\n").unwrap().solved);
}

#[test]
fn a_level_with_no_boxes_is_already_solved() {
    let level = Level::parse_one("#####\n#@  #\n#####\n").unwrap();
    assert_eq!(level.box_count(), 0);
    assert!(level.is_solved());
    let r = replay(&level, "").unwrap();
    assert!(r.solved);
    let play = Play::new(&level);
    assert!(play.is_solved());
    assert!(play.deadlocks().frozen_boxes.is_empty());
    let board = Board::new(&level).unwrap();
    assert_eq!(board.box_count(), 0);
    for algo in ALGORITHMS {
        let s = solve(&level, algo, &Budget::iterations(10_000)).unwrap();
        assert_eq!(s.stop, StopReason::Solved, "{algo:?}");
        assert_eq!(s.lurd.as_deref(), Some(""), "{algo:?}");
    }
}

#[test]
fn a_box_the_player_cannot_reach_makes_an_unsolvable_level() {
    // The left room holds the player, a box and a goal; the right room a box and a goal the
    // player can never reach.
    let text = "#########\n#@$ .#$.#\n#########\n";
    let level = Level::parse_one(text).unwrap();
    assert_eq!(level.box_count(), 2);
    let board = Board::new(&level).unwrap();
    assert_eq!(board.box_count(), 2);
    let r = replay(&level, "R").unwrap();
    assert!(!r.solved);
    // The workbench's play: the stranded box shows as on a dead square, nothing panics.
    let mut play = Play::from_lurd(&level, "R").unwrap();
    assert!(!play.is_solved());
    let dead = play.deadlocks();
    assert!(dead.dead_squares.contains(&level.index(6, 1)));
    assert!(!play.walk_to(level.index(6, 1)));
    for algo in ALGORITHMS {
        let s = solve(&level, algo, &Budget::iterations(10_000)).unwrap();
        assert_ne!(s.stop, StopReason::Solved, "{algo:?}");
        assert!(s.lurd.is_none(), "{algo:?}");
    }
    for algo in [Algorithm::AStar, Algorithm::IdaStar, Algorithm::Bfs] {
        let s = solve(&level, algo, &Budget::iterations(10_000)).unwrap();
        assert_eq!(s.stop, StopReason::Exhausted, "{algo:?}");
    }
    // A lone box outside the walls and a lone goal inside: also a level, also unsolvable.
    let level = Level::parse_one("#####\n#@ .#\n#####  $\n").unwrap();
    let s = solve(&level, Algorithm::AStar, &Budget::iterations(10_000)).unwrap();
    assert_eq!(s.stop, StopReason::Exhausted);
    // Real format errors stay errors.
    for bad in [
        "#####\n#@$.\n#####\n",
        "#####\n#@$x#\n#####\n",
        "#####\n# $.#\n#####\n",
        "#####\n#@$@#\n#####\n.",
        "######\n#@$$.#\n######\n",
        "#####\n#@$.#\n#3\n",
        "#####\n#@$. \n#####\n",
    ] {
        assert!(parse_xsb(bad).is_err(), "{bad:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any Microban level (with its title) parses the same behind a BOM and with CRLF or CR
    /// line ends, with trailing spaces and trailing blank lines.
    #[test]
    fn levels_parse_the_same_dressed(
        index in 0usize..155,
        bom in any::<bool>(),
        eol in prop::sample::select(vec!["\n", "\r\n", "\r"]),
        trailing in 0usize..3,
        blank in 0usize..3,
    ) {
        let levels = parse_xsb(MICROBAN).unwrap();
        let level = &levels[index];
        let plain = format!("; {}\n{}", index + 1, level.to_xsb());
        let padded: String = plain
            .lines()
            .map(|l| format!("{l}{}\n", " ".repeat(trailing)))
            .collect::<String>()
            + &"\n".repeat(blank);
        let want = Level::parse_one(&plain).unwrap();
        prop_assert_eq!(&want.walls, &level.walls);
        let got = Level::parse_one(&dress(&padded, bom, eol)).unwrap();
        prop_assert_eq!(got, want);
    }
}
