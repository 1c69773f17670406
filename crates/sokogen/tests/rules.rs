//! The generation game's actions, preconditions, post-processing and metrics on hand-made
//! boards (see `docs/METHODS.md#sokogen-actions`).

use puzzle_engine::bits::Bits;
use puzzle_engine::{conformance, Game, Rng};
use puzzle_sokogen::bootstrap::Bootstrapped;
use puzzle_sokogen::geometry::{Direction, Geometry};
use puzzle_sokogen::solution::verified_level;
use puzzle_sokogen::state::score_level;
use puzzle_sokogen::{BoxLimit, Congestion, GenAction, GenState, MoveAgent, Phase, Rules};

type S5 = GenState<1, 48>;

fn cell(x: usize, y: usize) -> u16 {
    (y * 6 + x) as u16 // 5 wide: stride 6
}

fn actions(s: &S5) -> Vec<GenAction> {
    let mut v = Vec::new();
    s.legal_actions(&mut v);
    v
}

fn open_rules() -> Rules {
    Rules {
        depth_limit: 0,
        remove_impossible: false,
        box_limit: BoxLimit::Unlimited,
        ..Rules::default()
    }
}

/// A 5×5 board, start (2, 2), every wall deleted (in an order where each deletion is legal),
/// then the given boxes placed.
fn open_board(rules: Rules, boxes: &[(usize, usize)]) -> S5 {
    let mut s = S5::new(5, 5, (2, 2), rules).unwrap();
    // Breadth-first from the centre so that each wall deleted touches an open cell.
    let mut order: Vec<(usize, usize)> = (0..5).flat_map(|y| (0..5).map(move |x| (x, y))).collect();
    order.sort_by_key(|&(x, y)| x.abs_diff(2) + y.abs_diff(2));
    for (x, y) in order.into_iter().skip(1) {
        let a = GenAction::DeleteObstacle(cell(x, y));
        assert!(actions(&s).contains(&a), "delete ({x},{y}) should be legal");
        s.apply(a);
    }
    for &(x, y) in boxes {
        let a = GenAction::PlaceBox(cell(x, y));
        assert!(actions(&s).contains(&a), "place ({x},{y}) should be legal");
        s.apply(a);
    }
    s
}

#[test]
fn root_is_all_walls_but_the_start_and_offers_only_its_four_deletions() {
    let s = S5::new(5, 5, (2, 2), Rules::default()).unwrap();
    assert_eq!(s.walls().count(), 24);
    assert!(!s.walls().has(cell(2, 2) as usize));
    let mut a = actions(&s);
    a.sort_by_key(|a| format!("{a:?}"));
    let mut expected: Vec<GenAction> = [(2, 1), (1, 2), (3, 2), (2, 3)]
        .iter()
        .map(|&(x, y)| GenAction::DeleteObstacle(cell(x, y)))
        .collect();
    expected.sort_by_key(|a| format!("{a:?}"));
    assert_eq!(a, expected);
}

#[test]
fn delete_obstacle_needs_an_open_neighbour() {
    let mut s = S5::new(5, 5, (2, 2), Rules::default()).unwrap();
    s.apply(GenAction::DeleteObstacle(cell(3, 2)));
    let a = actions(&s);
    assert!(a.contains(&GenAction::DeleteObstacle(cell(4, 2))));
    assert!(a.contains(&GenAction::DeleteObstacle(cell(3, 1))));
    assert!(!a.contains(&GenAction::DeleteObstacle(cell(4, 4))));
    assert!(!a.contains(&GenAction::DeleteObstacle(cell(0, 0))));
    // The new floor cell can take a box; the start never can.
    assert!(a.contains(&GenAction::PlaceBox(cell(3, 2))));
    assert!(!a.contains(&GenAction::PlaceBox(cell(2, 2))));
}

#[test]
fn place_box_respects_the_upper_limit_and_freeze_the_lower_limit_and_depth() {
    let rules = Rules {
        box_limit: BoxLimit::Fixed(1),
        depth_limit: 4,
        ..Rules::default()
    };
    let mut s = S5::new(5, 5, (2, 2), rules).unwrap();
    s.apply(GenAction::DeleteObstacle(cell(3, 2)));
    s.apply(GenAction::DeleteObstacle(cell(1, 2)));
    assert!(!actions(&s).contains(&GenAction::Freeze), "no box yet");
    s.apply(GenAction::PlaceBox(cell(3, 2)));
    let a = actions(&s);
    assert!(
        !a.iter().any(|a| matches!(a, GenAction::PlaceBox(_))),
        "limit 1 reached"
    );
    assert!(!a.contains(&GenAction::Freeze), "depth 3 < limit 4");
    s.apply(GenAction::DeleteObstacle(cell(2, 1)));
    assert!(actions(&s).contains(&GenAction::Freeze), "depth 4, one box");
}

#[test]
fn freeze_is_allowed_when_nothing_else_is() {
    // 3×3, box limit 1, depth limit 10: after 8 deletions and a box nothing else is legal at
    // depth 9, so Freeze must be (every playout has to end).
    let rules = Rules {
        box_limit: BoxLimit::Fixed(1),
        ..Rules::default()
    };
    let mut s = GenState::<1, 48>::new(3, 3, (1, 1), rules).unwrap();
    let mut rng = Rng::new(3);
    while s.phase() == Phase::Build {
        let a = s.random_action(&mut rng).unwrap();
        s.apply(a);
    }
    assert_eq!(s.depth(), 10, "8 deletions, 1 box, then the forced Freeze");
}

#[test]
fn push_based_move_agent_lists_every_reachable_push() {
    let mut s = open_board(open_rules(), &[(1, 2), (3, 3), (0, 0)]);
    s.apply(GenAction::Freeze);
    let a = actions(&s);
    let moves: Vec<_> = a
        .iter()
        .filter(|a| matches!(a, GenAction::Move { .. }))
        .collect();
    assert_eq!(moves.len(), 8, "{a:?}");
    for (from, dir) in [
        ((2, 2), Direction::Left),
        ((0, 2), Direction::Right),
        ((1, 3), Direction::Up),
        ((1, 1), Direction::Down),
        ((4, 3), Direction::Left),
        ((2, 3), Direction::Right),
        ((3, 4), Direction::Up),
        ((3, 2), Direction::Down),
    ] {
        let m = GenAction::Move {
            from: cell(from.0, from.1),
            dir,
        };
        assert!(a.contains(&m), "missing {m:?}");
    }
    assert_eq!(a.last(), Some(&GenAction::Evaluate));
}

#[test]
fn pushes_behind_a_closed_wall_are_unreachable() {
    // Corridor: the box's far side can only be reached by passing the box.
    let rules = open_rules();
    let mut s = S5::new(5, 5, (0, 2), rules).unwrap();
    for x in 1..5 {
        s.apply(GenAction::DeleteObstacle(cell(x, 2)));
    }
    s.apply(GenAction::PlaceBox(cell(2, 2)));
    s.apply(GenAction::Freeze);
    let a = actions(&s);
    assert_eq!(
        a,
        vec![
            GenAction::Move {
                from: cell(1, 2),
                dir: Direction::Right
            },
            GenAction::Evaluate
        ]
    );
}

#[test]
fn naive_move_agent_steps_one_cell_in_four_directions() {
    let rules = Rules {
        move_agent: MoveAgent::Naive,
        ..open_rules()
    };
    let mut s = open_board(rules, &[(1, 2)]);
    s.apply(GenAction::Freeze);
    let a = actions(&s);
    assert_eq!(a.len(), 5);
    for d in [
        Direction::Up,
        Direction::Right,
        Direction::Down,
        Direction::Left,
    ] {
        assert!(a.contains(&GenAction::Move {
            from: cell(2, 2),
            dir: d
        }));
    }
    // Stepping left pushes the box.
    s.apply(GenAction::Move {
        from: cell(2, 2),
        dir: Direction::Left,
    });
    assert!(s.boxes().has(cell(0, 2) as usize));
    assert_eq!(s.player(), cell(1, 2) as usize);
}

#[test]
fn evaluate_post_processes_scores_and_yields_a_replayable_level() {
    let mut s = open_board(open_rules(), &[(1, 2), (3, 3), (0, 0)]);
    s.apply(GenAction::Freeze);
    let moves = [
        GenAction::Move {
            from: cell(2, 2),
            dir: Direction::Left,
        },
        GenAction::Move {
            from: cell(3, 2),
            dir: Direction::Down,
        },
        GenAction::Move {
            from: cell(4, 4),
            dir: Direction::Left,
        },
    ];
    for m in moves {
        assert!(actions(&s).contains(&m), "{m:?} legal");
        s.apply(m);
    }
    s.apply(GenAction::Evaluate);
    assert!(s.is_terminal());
    assert!(actions(&s).is_empty());
    // Unmoved box (0,0) → wall; box moved once (1,2) → gone; box moved twice kept.
    assert_eq!(
        s.walls().iter().collect::<Vec<_>>(),
        vec![cell(0, 0) as usize]
    );
    assert_eq!(
        s.boxes().iter().collect::<Vec<_>>(),
        vec![cell(3, 3) as usize]
    );
    assert_eq!(
        s.goals().iter().collect::<Vec<_>>(),
        vec![cell(2, 4) as usize]
    );
    assert_eq!(s.player(), cell(2, 2) as usize);
    let m = s.metrics();
    assert_eq!(m.boxes, 1);
    assert_eq!(m.pb, 1);
    assert_eq!(m.pc, 0.0);
    assert!((m.score - 11.0 / 55.0).abs() < 1e-12);
    let (level, lurd) = verified_level(&s, &moves).unwrap();
    // The once-moved box is gone, so its push is a plain step; then walk and two pushes.
    assert_eq!(lurd, "lrrDrdL");
    assert_eq!(level.width, 7);
    assert_eq!(
        level.to_xsb(),
        "#######\n##    #\n#     #\n#  @  #\n#   $ #\n#  .  #\n#######\n"
    );
}

#[test]
fn a_level_without_boxes_scores_zero() {
    let mut s = open_board(open_rules(), &[(1, 2)]);
    s.apply(GenAction::Freeze);
    s.apply(GenAction::Evaluate);
    assert_eq!(s.metrics().boxes, 0);
    assert_eq!(s.score(), 0.0);
    assert!(s.walls().has(cell(1, 2) as usize));
}

fn bits(geo: &Geometry<1>, cells: &[(usize, usize)]) -> Bits<1> {
    let mut b = Bits::EMPTY;
    for &(x, y) in cells {
        b.set(geo.cell(x, y));
    }
    b
}

fn ring(geo: &Geometry<1>) -> Vec<(usize, usize)> {
    let (w, h) = (geo.width as usize, geo.height as usize);
    (0..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .filter(|&(x, y)| x == 0 || y == 0 || x == w - 1 || y == h - 1)
        .collect()
}

#[test]
fn metrics_on_a_hand_computed_level() {
    // 5×5: a ring of walls around an open 3×3; box A (1,1)→(3,3), box B (3,1)→(1,3).
    let geo = Geometry::<1>::new(5, 5).unwrap();
    let rules = Rules::default();
    let walls = bits(&geo, &ring(&geo));
    let starts = bits(&geo, &[(1, 1), (3, 1)]);
    let goals = bits(&geo, &[(3, 3), (1, 3)]);
    let pairs = [
        (geo.cell(1, 1), geo.cell(3, 3)),
        (geo.cell(3, 1), geo.cell(1, 3)),
    ];
    let m = score_level(&geo, &rules, walls, starts, goals, 2, pairs.iter().copied());
    // Every 3×3 window but the centre one holds a wall and a floor cell.
    assert_eq!(m.pb, 8);
    // Each rectangle is the open 3×3 (A = 9, o = 0) and holds the other box's start and goal
    // (its own start and goal are not counted): (1.9 + 0.1) / (1.3 · 9), twice.
    let term = 2.0 / (1.3 * 9.0);
    assert!((m.pc - 2.0 * term).abs() < 1e-12, "{}", m.pc);
    let score = (3.0 * 8.0 + 7.0 * 2.0 * term + 8.0 * 2.0) / 55.0;
    assert!((m.score - score).abs() < 1e-12);

    // A wall inside both rectangles: o = 1, and the centre window now counts too.
    let walls2 = walls.or(bits(&geo, &[(2, 1)]));
    let m2 = score_level(
        &geo,
        &rules,
        walls2,
        starts,
        goals,
        2,
        pairs.iter().copied(),
    );
    assert_eq!(m2.pb, 9);
    assert!((m2.pc - 2.0 * 2.0 / (1.3 * 8.0)).abs() < 1e-12);

    // Congestion-V1: Σ α·b + β·g + γ·o with the same b, g (own corners excluded).
    let v1 = Rules {
        congestion: Congestion::V1,
        ..rules
    };
    let m3 = score_level(&geo, &v1, walls2, starts, goals, 2, pairs.iter().copied());
    assert!((m3.pc - 2.0 * (1.9 + 0.1 + 1.3)).abs() < 1e-12);
}

#[test]
fn congestion_ignores_a_box_alone_on_its_path_and_a_box_back_at_its_start() {
    let geo = Geometry::<1>::new(5, 5).unwrap();
    let rules = Rules::default();
    let walls = bits(&geo, &ring(&geo));
    // Box alone: start (1,1), goal (3,1), nothing else in between.
    let starts = bits(&geo, &[(1, 1)]);
    let goals = bits(&geo, &[(3, 1)]);
    let m = score_level(
        &geo,
        &rules,
        walls,
        starts,
        goals,
        1,
        [(geo.cell(1, 1), geo.cell(3, 1))].into_iter(),
    );
    assert_eq!(m.pc, 0.0);
    // Back at its start: a 1-cell rectangle, nothing else.
    let back = bits(&geo, &[(2, 2)]);
    let m = score_level(
        &geo,
        &rules,
        walls,
        back,
        back,
        1,
        [(geo.cell(2, 2), geo.cell(2, 2))].into_iter(),
    );
    assert_eq!(m.pc, 0.0);
}

#[test]
fn a_rectangle_of_walls_only_contributes_zero_not_a_division_by_zero() {
    let geo = Geometry::<1>::new(5, 5).unwrap();
    let walls = bits(&geo, &ring(&geo));
    let starts = bits(&geo, &[(2, 2)]);
    let goals = bits(&geo, &[(2, 3)]);
    // The pair (0,0)–(0,0): A = 1, o = 1, so A − o = 0.
    let m = score_level(
        &geo,
        &Rules::default(),
        walls,
        starts,
        goals,
        1,
        [(geo.cell(0, 0), geo.cell(0, 0))].into_iter(),
    );
    assert_eq!(m.pc, 0.0);
    assert!(m.score.is_finite());
}

#[test]
fn area_normalization_scales_by_25_over_the_area() {
    let geo = Geometry::<2>::new(10, 5).unwrap();
    let mut walls = Bits::<2>::EMPTY;
    walls.set(geo.cell(0, 0));
    let mut starts = Bits::<2>::EMPTY;
    starts.set(geo.cell(5, 2));
    let mut goals = Bits::<2>::EMPTY;
    goals.set(geo.cell(7, 2));
    let pair = [(geo.cell(5, 2), geo.cell(7, 2))];
    let on = score_level(
        &geo,
        &Rules::default(),
        walls,
        starts,
        goals,
        1,
        pair.into_iter(),
    );
    let off_rules = Rules {
        area_normalization: false,
        ..Rules::default()
    };
    let off = score_level(&geo, &off_rules, walls, starts, goals, 1, pair.into_iter());
    assert_eq!(on.pb, 1);
    assert!((off.score - (3.0 + 8.0) / 55.0).abs() < 1e-12);
    assert!((on.score - off.score * 25.0 / 50.0).abs() < 1e-12);
}

#[test]
fn impossible_configurations_are_removed_at_freeze() {
    let rules = Rules {
        remove_impossible: true,
        ..open_rules()
    };
    // Corner box; two boxes side by side along the top wall; a diagonal pair in a corner
    // window that stays; a free box in the middle that stays.
    let mut s = open_board(rules, &[(0, 4), (1, 0), (2, 0), (4, 3), (3, 4), (2, 3)]);
    s.apply(GenAction::Freeze);
    let left: Vec<usize> = s.box_records().map(|(start, _, _)| start).collect();
    let mut expected = vec![
        cell(2, 0) as usize,
        cell(2, 3) as usize,
        cell(4, 3) as usize,
        cell(3, 4) as usize,
    ];
    expected.sort();
    assert_eq!(left, expected);
}

#[test]
fn a_full_2x2_block_of_boxes_loses_its_first_box() {
    let rules = Rules {
        remove_impossible: true,
        ..open_rules()
    };
    let mut s = open_board(rules, &[(3, 0), (4, 0), (3, 1), (4, 1)]);
    s.apply(GenAction::Freeze);
    let left: Vec<usize> = s.box_records().map(|(start, _, _)| start).collect();
    // Reading order: window (3,−1) holds the adjacent pair (3,0),(4,0) and two off-board
    // cells → (3,0) goes; window (4,−1) then holds (4,0) and three off-board cells → it goes;
    // the windows below see (3,1),(4,1) with free cells above them → both stay.
    assert_eq!(left, vec![cell(3, 1) as usize, cell(4, 1) as usize]);
}

#[test]
fn both_removal_implementations_agree_on_random_boards() {
    let mut rng = Rng::new(99);
    for round in 0..400 {
        let w = 3 + rng.below(8);
        let h = 3 + rng.below(6);
        let start = (rng.below(w), rng.below(h));
        let rules = Rules {
            depth_limit: 0,
            box_limit: BoxLimit::Unlimited,
            remove_impossible: false,
            ..Rules::default()
        };
        let mut s = GenState::<2, 96>::new(w, h, start, rules).unwrap();
        while let Some(a) = s.random_action(&mut rng) {
            if a == GenAction::Freeze {
                if rng.below(4) == 0 {
                    break;
                }
                continue;
            }
            s.apply(a);
        }
        let mut fast = s;
        fast.remove_impossible_boxes();
        let mut reference = s;
        reference.remove_impossible_boxes_all_windows();
        assert_eq!(fast.boxes(), reference.boxes(), "round {round}: {w}×{h}");
    }
}

#[test]
fn the_game_passes_the_engine_conformance_checks() {
    for rules in [
        Rules::default(),
        Rules::unoptimized(),
        Rules {
            move_agent: MoveAgent::Naive,
            ..Rules::default()
        },
    ] {
        let root = S5::new(5, 5, (2, 2), rules).unwrap();
        conformance::check_playouts(&root, 300, 10_000, 5).unwrap();
        let root = GenState::<4, 160>::new(12, 9, (0, 8), rules).unwrap();
        conformance::check_playouts(&root, 30, 100_000, 6).unwrap();
    }
    let seed = {
        let mut s = S5::new(5, 5, (2, 2), Rules::default()).unwrap();
        let mut rng = Rng::new(1);
        loop {
            let a = s.random_action(&mut rng).unwrap();
            if a == GenAction::Freeze {
                break;
            }
            s.apply(a);
        }
        s
    };
    let boot = Bootstrapped::new(vec![seed, seed]);
    conformance::check_playouts(&boot, 200, 10_000, 7).unwrap();
}

#[test]
fn random_action_draws_only_legal_actions() {
    let mut rng = Rng::new(11);
    for _ in 0..200 {
        let mut s = S5::new(5, 5, (2, 2), Rules::default()).unwrap();
        while let Some(a) = s.random_action(&mut rng) {
            assert!(actions(&s).contains(&a), "{a:?} not legal");
            s.apply(a);
        }
        assert!(s.is_terminal());
    }
}

#[test]
fn bad_sizes_and_starts_are_refused() {
    assert!(S5::new(2, 5, (0, 0), Rules::default()).is_err());
    assert!(S5::new(5, 5, (5, 0), Rules::default()).is_err());
    assert!(S5::new(8, 8, (0, 0), Rules::default()).is_err());
}
