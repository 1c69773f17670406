//! Levels bigger than the bundled ones: up to 64×64 cells are read into a wider bitset, played
//! and solved there exactly as in the narrow width, and bigger levels are refused.

use proptest::prelude::*;
use puzzle_bait::astar::{plan_win, shortest_win, AStar, AStarStatus, Heuristic};
use puzzle_bait::{
    actions_to_string, builtin_level, default_max_nodes, play_game, Action, AgentKind, AnyLevel,
    BaitState, GameConfig, Level, LevelVisitor, Status, BUILTIN_LEVELS, MAX_CELLS,
};
use std::time::Duration;

/// A `width`×`height` level (at least 12×12): walls around, the avatar at row 2 column 2, the
/// key at row 2 column `width - 4`, the door at row `height - 4` in the key's column and a hole
/// half-way between key and door; boxes, holes and mushrooms spread over the rest, none within
/// a cell of the avatar's row or the key's column. The shortest win walks the row, steps
/// around the hole and walks down the column: `(width - 6) + (height - 6) + 2` moves, score 5.
fn big_level(width: usize, height: usize) -> String {
    let key_col = width - 4;
    let mut text = String::new();
    for r in 0..height {
        for c in 0..width {
            let near_path = r <= 3 || (key_col - 1..=key_col + 1).contains(&c);
            let ch = if r == 0 || c == 0 || r == height - 1 || c == width - 1 {
                'w'
            } else if (r, c) == (2, 2) {
                'A'
            } else if (r, c) == (2, key_col) {
                'k'
            } else if (r, c) == (height - 4, key_col) {
                'g'
            } else if (r, c) == (height / 2, key_col) {
                '0'
            } else if near_path {
                '.'
            } else if r % 6 == 4 && c % 6 == 4 {
                '0'
            } else if r % 6 == 1 && c % 6 == 3 {
                '1'
            } else if r % 5 == 0 && c % 7 == 1 {
                'm'
            } else if r % 9 == 7 && c % 11 == 5 {
                'w'
            } else {
                '.'
            };
            text.push(ch);
        }
        text.push('\n');
    }
    text
}

/// `text` (a bundled level) inside a `width`×`height` field of walls, at row 3, column 5.
fn padded(text: &str, width: usize, height: usize) -> String {
    let rows: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let mut out = String::new();
    for r in 0..height {
        let mut line = "w".repeat(5);
        if let Some(row) = r.checked_sub(3).and_then(|i| rows.get(i)) {
            line.push_str(row.trim_end());
        }
        while line.len() < width {
            line.push('w');
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The offline planner with this node budget on a level of any width: (width, plan, positions
/// expanded, score).
struct Plan(usize);

impl LevelVisitor for Plan {
    type Output = (usize, Option<Vec<Action>>, u64, i32);
    fn visit<const W: usize>(self, level: Level<W>) -> Self::Output {
        let start = BaitState::new(level);
        let r = plan_win(&start, self.0, None);
        let score = r.plan.as_ref().map_or(-1, |p| {
            let end = start.replay(p);
            assert!(end.is_win(), "the plan replays to a win");
            end.points()
        });
        (W, r.plan, r.expanded, score)
    }
}

#[test]
fn a_64_by_64_level_is_read_into_the_widest_set_and_won() {
    let text = big_level(64, 64);
    let level = AnyLevel::parse(&text).unwrap();
    assert_eq!((level.words(), level.size()), (64, (64, 64)));
    let AnyLevel::Large(large) = &level else {
        panic!("a 64x64 level is large");
    };
    assert_eq!((large.keys.count(), large.doors.count()), (1, 1));
    assert!(large.holes.count() > 50 && large.boxes.count() > 50);
    assert!(large.mushrooms.count() > 50 && large.walls.count() > 4 * 63);
    let (words, plan, _, score) = level.visit(Plan(default_max_nodes::<64>()));
    assert_eq!(words, 64);
    let plan = plan.expect("a win");
    assert_eq!((plan.len(), score), (58 + 58 + 2, 5));
    // The avatar walks the row, then down the column around the hole.
    let text = actions_to_string(&plan);
    assert!(text.starts_with(&"R".repeat(58)), "{text}");
}

#[test]
fn each_size_gets_the_narrowest_width() {
    for (w, h, words) in [
        (16, 16, 4),
        (17, 16, 16),
        (32, 32, 16),
        (33, 32, 64),
        (64, 64, 64),
        (128, 32, 64),
    ] {
        let level = AnyLevel::parse(&big_level(w, h)).unwrap();
        assert_eq!((level.size(), level.words()), ((w, h), words), "{w}x{h}");
    }
    // A 32x32 level is won in the middle width, with the same moves as the formula says.
    let (words, plan, _, score) = AnyLevel::parse(&big_level(32, 32))
        .unwrap()
        .visit(Plan(default_max_nodes::<16>()));
    assert_eq!(
        (words, plan.map(|p| p.len()), score),
        (16, Some(26 + 26 + 2), 5)
    );
}

#[test]
fn a_level_over_4096_cells_is_refused_with_its_size_and_the_limit() {
    assert_eq!(MAX_CELLS, 4096);
    let text = format!("\u{feff}\r\n\r\n{}", big_level(65, 64));
    let e = AnyLevel::parse(&text).unwrap_err();
    assert_eq!((e.line, e.column), (3, 1), "{e}");
    assert!(
        e.message.contains("65x64 = 4160 cells") && e.message.contains("at most 4096"),
        "{e}"
    );
    let e = AnyLevel::parse(&big_level(4097, 12)).unwrap_err();
    assert!(e.message.contains("4097x12 = 49164 cells"), "{e}");
    // One row too many is refused as well; the limit itself is read.
    assert!(AnyLevel::parse(&big_level(64, 65)).is_err());
    assert!(AnyLevel::parse(&big_level(4096 / 12, 12)).is_ok());
    // A narrow width refuses what it cannot hold, naming its own limit.
    let e = Level::parse(&big_level(17, 16)).unwrap_err();
    assert!(
        e.message.contains("17x16 = 272 cells") && e.message.contains("at most 256"),
        "{e}"
    );
}

#[test]
fn the_node_budget_bounds_a_wide_search() {
    assert_eq!(
        [
            default_max_nodes::<4>(),
            default_max_nodes::<16>(),
            default_max_nodes::<64>()
        ],
        [3_000_000, 750_000, 187_500]
    );
    assert_eq!(GameConfig::for_width::<64>().max_nodes, 187_500);
    assert_eq!(GameConfig::default().max_nodes, 3_000_000);
    let level = Level::<64>::parse_width(&big_level(64, 64)).unwrap();
    let start = BaitState::new(level);
    let mut search = AStar::new(&start, Heuristic::Walk, 40);
    assert_eq!(search.run(None, None), AStarStatus::OutOfNodes);
    assert!(search.stored() <= 40 && search.stored() > 10);
    let r = shortest_win(&start, 40, None);
    assert!(r.plan.is_none() && r.stored <= 40);
}

/// The offline planner and DFS give the same games on a bundled level read in every width and
/// inside a bigger field of walls.
#[test]
fn the_searches_play_the_same_in_every_width() {
    for i in [1, 2, 4] {
        let text = BUILTIN_LEVELS[i];
        let narrow = AnyLevel::from(builtin_level(i).unwrap()).visit(Plan(1_000_000));
        let medium =
            AnyLevel::Medium(Box::new(Level::parse_width(text).unwrap())).visit(Plan(1_000_000));
        let wide =
            AnyLevel::Large(Box::new(Level::parse_width(text).unwrap())).visit(Plan(1_000_000));
        let field = AnyLevel::parse(&padded(text, 40, 30)).unwrap();
        assert_eq!(field.words(), 64);
        let field = field.visit(Plan(1_000_000));
        assert!(narrow.1.is_some(), "level {i}");
        for other in [&medium, &wide, &field] {
            assert_eq!(
                (&other.1, other.2, other.3),
                (&narrow.1, narrow.2, narrow.3),
                "level {i} in {} words",
                other.0
            );
        }
    }
    let config = GameConfig {
        setup_budget: Duration::from_secs(3600),
        ..GameConfig::default()
    };
    let narrow = BaitState::new(builtin_level(1).unwrap());
    let wide =
        BaitState::new(Level::<64>::parse_width(&padded(BUILTIN_LEVELS[1], 30, 20)).unwrap());
    let a = play_game(&narrow, AgentKind::Dfs, &config, |_, _| {});
    let b = play_game(&wide, AgentKind::Dfs, &config, |_, _| {});
    assert!(a.win);
    assert_eq!((a.actions, a.score, a.work), (b.actions, b.score, b.work));
    // MCTS-plus's graph search, for a fixed number of iterations.
    let mut rng_a = puzzle_engine::Rng::new(7);
    let mut rng_b = puzzle_engine::Rng::new(7);
    let mut ga = puzzle_bait::agents::GraphMcts::new(&narrow, 0.05, 100_000, 4);
    let mut gb = puzzle_bait::agents::GraphMcts::new(&wide, 0.05, 100_000, 4);
    let (mut na, mut nb) = (0, 0);
    let sa = ga.run(&mut rng_a, || {
        na += 1;
        na > 200
    });
    let sb = gb.run(&mut rng_b, || {
        nb += 1;
        nb > 200
    });
    assert!(ga.len() > 100, "{} nodes", ga.len());
    assert_eq!((sa, ga.len(), ga.iterations), (sb, gb.len(), gb.iterations));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any action sequence plays the same on a bundled level in width 4, in widths 16 and 64,
    /// and inside a 40×30 field of walls (width 64): the same boards, scores, statuses and (in
    /// the same level) fingerprints after every tick.
    #[test]
    fn a_level_plays_the_same_in_every_width(
        index in 0usize..5,
        moves in proptest::collection::vec(0u8..5, 0..150),
    ) {
        let text = BUILTIN_LEVELS[index];
        let mut narrow = BaitState::new(builtin_level(index).unwrap());
        let mut medium = BaitState::new(Level::<16>::parse_width(text).unwrap());
        let mut wide = BaitState::new(Level::<64>::parse_width(text).unwrap());
        let mut field = BaitState::new(Level::<64>::parse_width(&padded(text, 40, 30)).unwrap());
        for m in moves {
            let a = [Action::Up, Action::Down, Action::Left, Action::Right, Action::Nil][m as usize];
            narrow.step(a);
            medium.step(a);
            wide.step(a);
            field.step(a);
            let board = narrow.render();
            prop_assert_eq!(&medium.render(), &board);
            prop_assert_eq!(&wide.render(), &board);
            prop_assert_eq!(field.render(), padded(&board, 40, 30));
            prop_assert_eq!(medium.fingerprint(), narrow.fingerprint());
            prop_assert_eq!(wide.fingerprint(), narrow.fingerprint());
            for s in [(medium.status(), medium.points(), medium.tick()),
                      (wide.status(), wide.points(), wide.tick()),
                      (field.status(), field.points(), field.tick())] {
                prop_assert_eq!(s, (narrow.status(), narrow.points(), narrow.tick()));
            }
            prop_assert_eq!(field.dy.has_key, narrow.dy.has_key);
            if narrow.status() != Status::Playing {
                break;
            }
        }
    }
}
