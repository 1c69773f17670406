//! XSB parsing, writing and LURD replay.

use puzzle_sokoban::{
    parse_lurd, parse_xsb, replay, write_lurd, Dir, Level, ReplayError, XsbProblem,
};

const MICROBAN: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../data/sokoban/Microban_155.xsb"
));
const XSOKOBAN: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../data/sokoban/XSokoban_90.xsb"
));
const BOXOBAN: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../data/sokoban/boxoban/hard_000.txt"
));

#[test]
fn bundled_sets_parse_with_titles() {
    let micro = parse_xsb(MICROBAN).unwrap();
    assert_eq!(micro.len(), 155);
    assert_eq!(micro[0].title.as_deref(), Some("1"));
    assert_eq!(micro[154].title.as_deref(), Some("155"));
    let xs = parse_xsb(XSOKOBAN).unwrap();
    assert_eq!(xs.len(), 90);
    assert_eq!(xs[0].title.as_deref(), Some("screen.01"));
    assert_eq!(xs[0].box_count(), 6);
    let bx = parse_xsb(BOXOBAN).unwrap();
    assert_eq!(bx.len(), 1000);
    assert_eq!(bx[0].title.as_deref(), Some("0"));
    assert!(bx
        .iter()
        .all(|l| l.box_count() == 4 && l.width == 10 && l.height == 10));
}

#[test]
fn xsb_round_trip_on_every_bundled_level() {
    for text in [MICROBAN, XSOKOBAN, BOXOBAN] {
        for level in parse_xsb(text).unwrap() {
            let again = Level::parse_one(&level.to_xsb()).unwrap();
            assert_eq!(again.walls, level.walls);
            assert_eq!(again.goals, level.goals);
            assert_eq!(again.boxes, level.boxes);
            assert_eq!(again.player, level.player);
            assert_eq!(again.to_xsb(), level.to_xsb());
        }
    }
}

#[test]
fn floor_aliases_and_run_length() {
    let a = Level::parse_one("#####\n#@$.#\n#####\n").unwrap();
    let b = Level::parse_one("5#\n#@$.#|5#").unwrap();
    let c = Level::parse_one("#####\n#@$.#\n#####").unwrap();
    assert_eq!(a, b);
    assert_eq!(a, c);
    let d = Level::parse_one("######\n#@-$.#\n######").unwrap();
    let e = Level::parse_one("######\n#@_$.#\n######").unwrap();
    assert_eq!(d.walls, e.walls);
    assert_eq!(d.to_xsb(), "######\n#@ $.#\n######\n");
}

fn problem(text: &str) -> (usize, usize, usize, XsbProblem) {
    let e = parse_xsb(text).unwrap_err();
    assert!(!e.to_string().is_empty());
    (e.level, e.line, e.column, e.problem)
}

#[test]
fn error_cases_name_level_line_and_column() {
    assert_eq!(problem("").3, XsbProblem::Empty);
    assert_eq!(problem("; only a comment\n\n").3, XsbProblem::Empty);
    assert_eq!(
        problem("#####\n#@$.#\n#####\n\n#####\n#@$x#\n#####\n"),
        (2, 6, 4, XsbProblem::UnknownCharacter('x'))
    );
    assert_eq!(
        problem("#####\n# $.#\n#####\n"),
        (1, 1, 1, XsbProblem::NoPlayer)
    );
    assert_eq!(
        problem("######\n#@$.@#\n######\n"),
        (
            1,
            2,
            5,
            XsbProblem::TwoPlayers {
                first_line: 2,
                first_column: 2
            }
        )
    );
    assert_eq!(
        problem("######\n#@$$.#\n######\n").3,
        XsbProblem::BoxGoalMismatch { boxes: 2, goals: 1 }
    );
    // A level with no boxes is a level (already solved), not a format error.
    assert!(parse_xsb("####\n#@ #\n####\n").is_ok());
    let (level, line, _, p) = problem("#####\n#@$. \n#####\n");
    assert_eq!((level, line, p), (1, 2, XsbProblem::OpenBorder));
    // Ragged line: the cell below the gap has no character.
    let (_, _, _, p) = problem("######\n#@$. #\n#   \n######\n");
    assert_eq!(p, XsbProblem::OpenBorder);
    assert_eq!(
        problem("#####\n#@$.#\n#3\n"),
        (1, 3, 2, XsbProblem::BadRunLength)
    );
    // A box the player can never reach makes the level unsolvable, which is the
    // solver's answer, not a format error (the counts must still match).
    assert_eq!(
        problem("#######\n#@$.#$#\n#######\n").3,
        XsbProblem::BoxGoalMismatch { boxes: 2, goals: 1 }
    );
    assert!(parse_xsb("########\n#@$.#$.#\n########\n").is_ok());
    let e = Level::parse_one("#####\n#@$.#\n#####\n\n#####\n#@$.#\n#####\n").unwrap_err();
    assert_eq!((e.level, e.line), (2, 5));
    assert_eq!(e.problem, XsbProblem::MoreThanOneLevel);
    let msg = parse_xsb("#####\n#@$x#\n#####\n").unwrap_err().to_string();
    assert_eq!(
        msg,
        "level 1, line 2, column 4: unknown character 'x' (expected one of # @ + $ * . space - _, a run-length count or |)"
    );
}

#[test]
fn replay_counts_and_errors() {
    let level = Level::parse_one("#######\n#@ $ .#\n#######\n").unwrap();
    let r = replay(&level, "rRR").unwrap();
    assert_eq!((r.solved, r.moves, r.pushes), (true, 3, 2));
    let r = replay(&level, "rR").unwrap();
    assert!(!r.solved);
    assert_eq!(replay(&level, "u"), Err(ReplayError::IntoWall { step: 1 }));
    assert_eq!(
        replay(&level, "rr"),
        Err(ReplayError::MoveWouldPush { step: 2 })
    );
    assert_eq!(
        replay(&level, "R"),
        Err(ReplayError::PushWithoutBox { step: 1 })
    );
    assert_eq!(
        replay(&level, "rRRR"),
        Err(ReplayError::BoxBlocked { step: 4 })
    );
    assert_eq!(
        replay(&level, "rx"),
        Err(ReplayError::UnknownLetter {
            step: 2,
            letter: 'x'
        })
    );
    let two = Level::parse_one("#######\n#@$$..#\n#######\n").unwrap();
    assert_eq!(replay(&two, "R"), Err(ReplayError::BoxBlocked { step: 1 }));
}

#[test]
fn lurd_read_write_round_trip() {
    let steps = parse_lurd("rRu\nLd D").unwrap();
    assert_eq!(
        steps,
        vec![
            (Dir::Right, false),
            (Dir::Right, true),
            (Dir::Up, false),
            (Dir::Left, true),
            (Dir::Down, false),
            (Dir::Down, true)
        ]
    );
    assert_eq!(write_lurd(&steps), "rRuLdD");
    assert_eq!(
        parse_lurd("rRx"),
        Err(ReplayError::UnknownLetter {
            step: 3,
            letter: 'x'
        })
    );
}
