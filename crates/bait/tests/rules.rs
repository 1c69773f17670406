//! Each interaction of GVGAI's Bait on a hand-made micro level, the parser's errors, the
//! engine's conformance checks and replay properties.

use proptest::prelude::*;
use puzzle_bait::heuristic::is_dead;
use puzzle_bait::{builtin_level, parse_actions, Action, BaitState, Level, Status, MAX_TICKS};
use puzzle_engine::conformance::{check_playouts, check_undo};

fn state(text: &str) -> BaitState {
    BaitState::new(Level::parse(text).expect("valid test level"))
}

fn cell(s: &BaitState, row: usize, col: usize) -> usize {
    row * s.level().width + col
}

/// Play `moves` and return the state.
fn play(text: &str, moves: &str) -> BaitState {
    state(text).replay(&parse_actions(moves).unwrap())
}

#[test]
fn push_into_wall_box_or_mushroom_undoes_the_whole_tick() {
    for row in ["wA1w.gw", "wA11.gw", "wA1m.gw"] {
        let text = format!("wwwwwww\n{row}\nwk....w\nwwwwwww");
        let before = state(&text);
        let after = play(&text, "R");
        assert_eq!(after.tick(), 1, "{row}");
        assert_eq!(after.dy.avatar, before.dy.avatar, "{row}: avatar moved");
        assert_eq!(after.dy.boxes, before.dy.boxes, "{row}: boxes moved");
        assert_eq!(after.dy.mushrooms, before.dy.mushrooms, "{row}");
        assert_eq!(after.points(), 0);
        assert_eq!(after.status(), Status::Playing);
    }
}

#[test]
fn free_push_moves_box_and_avatar() {
    let s = play("wwwwwww\nwA1..gw\nwk....w\nwwwwwww", "R");
    assert_eq!(s.dy.avatar as usize, cell(&s, 1, 2));
    assert!(s.dy.boxes.has(cell(&s, 1, 3)) && !s.dy.boxes.has(cell(&s, 1, 2)));
}

#[test]
fn box_into_hole_removes_both_and_scores_one() {
    let text = "wwwwwww\nwA10.gw\nwk....w\nwwwwwww";
    let s = play(text, "R");
    assert_eq!(s.points(), 1);
    assert!(s.dy.boxes.is_empty() && s.dy.holes.is_empty());
    assert_eq!(s.dy.avatar as usize, cell(&s, 1, 2));
    // The filled hole is floor now: walking on it is safe.
    let s = play(text, "RR");
    assert_eq!(s.status(), Status::Playing);
    assert_eq!(s.dy.avatar as usize, cell(&s, 1, 3));
}

#[test]
fn hole_kills_the_avatar() {
    let s = play("wwwwwww\nwA0..gw\nwk....w\nwwwwwww", "R");
    assert_eq!(s.status(), Status::Dead);
    assert!(s.is_loss());
    assert_eq!(s.points(), 0);
    assert!(is_dead(&s));
}

#[test]
fn key_pickup_scores_nothing_and_removes_the_key() {
    let s = play("wwwwwww\nwAk..gw\nw.....w\nwwwwwww", "R");
    assert!(s.dy.has_key);
    assert!(s.dy.keys.is_empty());
    assert_eq!(s.points(), 0);
}

#[test]
fn door_is_a_wall_without_the_key() {
    let text = "wwwwwww\nwAg...w\nwk....w\nwwwwwww";
    let s = play(text, "R");
    assert_eq!(s.dy.avatar, state(text).dy.avatar);
    assert_eq!(s.status(), Status::Playing);
    assert_eq!(s.dy.doors.count(), 1);
}

#[test]
fn door_with_key_scores_five_and_wins() {
    let s = play("wwwwwww\nwAkg..w\nw.....w\nwwwwwww", "RR");
    assert_eq!(s.status(), Status::Won);
    assert_eq!(s.points(), 5);
    assert_eq!(s.tick(), 2);
    // Nothing happens after the end.
    let t = s.replay(&[Action::Left]);
    assert_eq!(t, s);
}

#[test]
fn mushroom_scores_one() {
    let s = play("wwwwwww\nwAm..gw\nwk....w\nwwwwwww", "R");
    assert_eq!(s.points(), 1);
    assert!(s.dy.mushrooms.is_empty());
    assert_eq!(s.dy.avatar as usize, cell(&s, 1, 2));
}

#[test]
fn box_on_key_can_be_pushed_off_and_the_key_taken() {
    let s = play("wwwwwww\nwA1k.gw\nw.....w\nwwwwwww", "R");
    assert!(s.dy.boxes.has(cell(&s, 1, 3)) && s.dy.keys.has(cell(&s, 1, 3)));
    let s = play("wwwwwww\nwA1k.gw\nw.....w\nwwwwwww", "RR");
    assert!(s.dy.has_key);
    assert!(s.dy.boxes.has(cell(&s, 1, 4)));
}

#[test]
fn without_key_pushing_a_box_off_the_door_moves_only_the_box() {
    // GVGAI: `box avatar > bounceForward` moves the box, then `nokey goal > stepBack` moves
    // the avatar back: the box stays pushed.
    let s = play("wwwwwww\nwA1g..w\nwk....w\nwwwwwww", "RR");
    assert!(s.dy.boxes.has(cell(&s, 1, 4)));
    assert_eq!(s.dy.avatar as usize, cell(&s, 1, 2));
    assert_eq!(s.dy.doors.count(), 1);
}

#[test]
fn walls_stop_the_avatar() {
    let text = "wwwww\nwAw.w\nwkg.w\nwwwww";
    let s = play(text, "RU");
    assert_eq!(s.dy.avatar, state(text).dy.avatar);
    assert_eq!(s.tick(), 2);
}

#[test]
fn the_game_is_lost_after_2000_ticks_but_a_win_on_the_last_tick_counts() {
    let text = "wwwww\nwAkgw\nwwwww";
    let mut s = state(text);
    for _ in 0..MAX_TICKS - 1 {
        s.step(Action::Nil);
    }
    assert_eq!(s.status(), Status::Playing);
    let mut last = s.clone();
    s.step(Action::Nil);
    assert_eq!(s.status(), Status::TimeOut);
    assert!(s.is_loss());
    // Take the key one tick earlier, then open the door on tick 2000.
    let mut t = state(text);
    for _ in 0..MAX_TICKS - 2 {
        t.step(Action::Nil);
    }
    t.step(Action::Right);
    t.step(Action::Right);
    assert_eq!(t.tick(), MAX_TICKS);
    assert_eq!(t.status(), Status::Won);
    last.step(Action::Right); // key on tick 2000: lost
    assert_eq!(last.status(), Status::TimeOut);
}

#[test]
fn level_zero_trap_is_detected() {
    // Level 0: two moves down push the box onto the key in a corner.
    let s = BaitState::new(builtin_level(0).unwrap());
    let trapped = s.replay(&parse_actions("DD").unwrap());
    assert_eq!(trapped.status(), Status::Playing);
    assert!(is_dead(&trapped));
    assert!(!is_dead(&s));
}

#[test]
fn parser_reports_problems_with_line_and_column() {
    let e = Level::parse("wwww\nwAxw\nwgww").unwrap_err();
    assert_eq!((e.line, e.column), (2, 3));
    assert!(e.message.contains("unknown character 'x'"), "{e}");
    let e = Level::parse("wwww\nwAgww\nwwww").unwrap_err();
    assert_eq!(e.line, 2);
    assert!(e.message.contains("ragged"), "{e}");
    let e = Level::parse("wwww\nw.gw\nwwww").unwrap_err();
    assert!(e.message.contains("no avatar"), "{e}");
    let e = Level::parse("wwww\nwAAw\nwgww").unwrap_err();
    assert!(e.message.contains("second avatar"), "{e}");
    // A level without a door follows the format: it is accepted, and won at the first tick.
    let mut open = BaitState::new(Level::parse("wwww\nwA.w\nwwww").unwrap());
    open.step(Action::Nil);
    assert!(open.is_win());
    let big = "wAg".to_string() + &".".repeat(300);
    assert!(Level::parse(&big).unwrap_err().message.contains("at most"));
    assert!(Level::parse("").is_err());
    // GVGAI's files have no trailing newline; a trailing newline and CRLF are accepted too.
    assert!(Level::parse("wwwww\r\nwAkgw\r\nwwwww\r\n").is_ok());
}

#[test]
fn builtin_levels_parse_with_the_legend() {
    let sizes = [(5, 6), (13, 9), (13, 10), (13, 11), (7, 9)];
    for (i, &(w, h)) in sizes.iter().enumerate() {
        let l = builtin_level(i).unwrap();
        assert_eq!((l.width, l.height), (w, h), "level {i}");
        assert_eq!(l.keys.count(), 1);
        assert_eq!(l.doors.count(), 1);
    }
    assert!(builtin_level(5).is_none());
}

#[test]
fn render_round_trips_the_start() {
    for i in 0..5 {
        let s = BaitState::new(builtin_level(i).unwrap());
        let text = s.render();
        assert_eq!(text.trim_end(), puzzle_bait::BUILTIN_LEVELS[i].trim_end());
        assert_eq!(BaitState::new(Level::parse(&text).unwrap()), s);
    }
}

#[test]
fn engine_conformance_on_every_level() {
    for i in 0..5 {
        let s = BaitState::new(builtin_level(i).unwrap());
        let report = check_playouts(&s, 30, MAX_TICKS as usize, i as u64).unwrap();
        assert_eq!(report.playouts, 30);
        assert!(check_undo(&s, 10, 100, 7 + i as u64).unwrap() > 0);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Replays are deterministic, and the score is always the filled holes plus the eaten
    /// mushrooms plus five per opened door; boxes only disappear into holes.
    #[test]
    fn score_and_box_accounting(level in 0usize..5, moves in proptest::collection::vec(0u8..5, 0..200)) {
        let start = BaitState::new(builtin_level(level).unwrap());
        let actions: Vec<Action> = moves.iter().map(|&m| [Action::Up, Action::Down, Action::Left, Action::Right, Action::Nil][m as usize]).collect();
        let a = start.replay(&actions);
        let b = start.replay(&actions);
        prop_assert_eq!(&a, &b);
        prop_assert_eq!(a.fingerprint(), b.fingerprint());
        let l = start.level();
        let filled = l.holes.count() - a.dy.holes.count();
        let eaten = l.mushrooms.count() - a.dy.mushrooms.count();
        let opened = l.doors.count() - a.dy.doors.count();
        prop_assert_eq!(a.points() as u32, filled + eaten + 5 * opened);
        prop_assert_eq!(l.boxes.count() - a.dy.boxes.count(), filled);
        prop_assert!(a.tick() as usize <= actions.len());
    }
}
