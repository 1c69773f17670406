//! Push rules: apply/undo and hashing (property tests), the engine conformance checks, and
//! agreement of pushes with LURD replay.

use proptest::prelude::*;
use puzzle_engine::conformance::{check_playouts, check_undo};
use puzzle_engine::{Game, HashedGame, Rng, UndoGame};
use puzzle_sokoban::position::pushes_to_lurd;
use puzzle_sokoban::{parse_xsb, replay, Level, SokobanGame};

const MICROBAN: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../data/sokoban/Microban_155.xsb"
));

fn microban() -> Vec<Level> {
    parse_xsb(MICROBAN).unwrap()
}

#[test]
fn engine_conformance_on_microban_levels() {
    let levels = microban();
    for n in [0, 5, 20, 60, 100, 154] {
        let game = SokobanGame::new(&levels[n]).unwrap().with_push_limit(150);
        let report = check_playouts(&game, 20, 200, n as u64).unwrap();
        assert!(report.moves > 0, "level {}: no move played", n + 1);
        let checked = check_undo(&game, 5, 50, n as u64).unwrap();
        assert!(checked > 0);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Along random push sequences, apply then undo restores the position and its hash, and
    /// the push sequence written as LURD replays to the same position.
    #[test]
    fn push_then_undo_restores_state_and_hash(level_index in 0usize..155, seed in any::<u64>()) {
        let levels = microban();
        let level = &levels[level_index];
        let mut game = SokobanGame::new(level).unwrap();
        let mut rng = Rng::new(seed);
        let mut actions = Vec::new();
        let mut played = Vec::new();
        for _ in 0..30 {
            game.legal_actions(&mut actions);
            if actions.is_empty() {
                break;
            }
            for &a in &actions {
                let before = game.clone();
                let hash = game.state_hash();
                let undo = game.apply_undoable(a);
                prop_assert_ne!(&game.position.boxes, &before.position.boxes);
                game.undo(a, undo);
                prop_assert_eq!(&game, &before);
                prop_assert_eq!(game.state_hash(), hash);
            }
            let a = actions[rng.below(actions.len())];
            game.apply(a);
            played.push(a);
        }
        // The hash of the boxes equals a recomputation from scratch.
        let board = game.board();
        let fresh = game.position.boxes.iter().fold(0, |h, c| h ^ board.zobrist_box[c as usize]);
        prop_assert_eq!(fresh, game.position.box_hash);
        // LURD of the pushes replays without error, with the same push count.
        let lurd = pushes_to_lurd(board, &played).unwrap();
        let r = replay(level, &lurd).unwrap();
        prop_assert_eq!(r.pushes, played.len());
        prop_assert_eq!(r.solved, game.is_solved());
    }
}

#[test]
fn normalized_player_is_the_same_anywhere_in_the_region() {
    let a = Level::parse_one("######\n#@   #\n# $. #\n######\n").unwrap();
    let b = Level::parse_one("######\n#   @#\n# $. #\n######\n").unwrap();
    let ga = SokobanGame::new(&a).unwrap();
    let gb = SokobanGame::new(&b).unwrap();
    assert_eq!(ga.normalized_player(), gb.normalized_player());
    assert_eq!(ga.state_hash(), gb.state_hash());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// The incremental matching bound after one push equals a full recomputation.
    #[test]
    fn incremental_bound_matches_full_recomputation(level_index in 0usize..155, seed in any::<u64>()) {
        use puzzle_sokoban::matching::LowerBound;
        let levels = microban();
        let mut game = SokobanGame::new(&levels[level_index]).unwrap();
        let mut rng = Rng::new(seed);
        let mut actions = Vec::new();
        let mut incremental = LowerBound::new();
        let mut full = LowerBound::new();
        for _ in 0..20 {
            game.legal_actions(&mut actions);
            if actions.is_empty() {
                break;
            }
            let board = game.board().clone();
            if incremental.prepare(&board, &game.position.boxes).is_none() {
                break;
            }
            for &a in &actions {
                let to = board.step(a.from, a.dir);
                let quick = incremental.after_push(&board, a.from, to);
                let undo = game.apply_undoable(a);
                let slow = full.compute(&board, &game.position.boxes);
                game.undo(a, undo);
                prop_assert_eq!(quick, slow);
            }
            let a = actions[rng.below(actions.len())];
            game.apply(a);
        }
    }
}

#[test]
fn free_areas_are_counted() {
    use puzzle_sokoban::position::{count_regions, Position, Reach};
    use puzzle_sokoban::Board;
    // One open room; a box in a corridor cuts it in two; a box in the only passage between two
    // rooms; two boxes seal off a one-cell pocket and a goal corner.
    for (text, areas) in [
        ("######\n#@ $.#\n#    #\n######\n", 1),
        ("#########\n#@  $  .#\n#########\n", 2),
        ("#######\n#  $  #\n#@ #$ #\n#  #  #\n#.##. #\n#######\n", 2),
        ("######\n#. $ #\n##$###\n#.  @#\n######\n", 3),
        // A goal and a box walled off from the player: the lone goal's cell is an area of
        // its own, the lone box's cell none.
        ("#######\n#@ $.##\n#######\n#.# #$#\n#######\n", 3),
    ] {
        let level = Level::parse_one(text).unwrap();
        let board = Board::new(&level).unwrap();
        let pos = Position::start(&board);
        let mut scratch = Reach::new(board.cells());
        assert_eq!(
            count_regions(&board, &pos.boxes, &mut scratch),
            areas,
            "{text}"
        );
    }
}

/// Level `index` (wrapped round) of Microban (`set` 0), XSokoban (1) or Sasquatch (2).
fn level_in_set(set: usize, index: usize) -> Level {
    let levels = match set {
        0 => microban(),
        1 => parse_xsb(XSOKOBAN).unwrap(),
        _ => parse_xsb(SASQUATCH).unwrap(),
    };
    levels[index % levels.len()].clone()
}

/// Along at most `steps` random pushes (seeded by `seed`) from the start of `level`, call
/// `visit` with the game and the generator before each push.
fn along_random_pushes(
    level: &Level,
    seed: u64,
    steps: usize,
    mut visit: impl FnMut(&SokobanGame, &mut Rng) -> Result<(), TestCaseError>,
) -> Result<(), TestCaseError> {
    let mut game = SokobanGame::new(level).unwrap();
    let mut rng = Rng::new(seed);
    let mut actions = Vec::new();
    for _ in 0..steps {
        visit(&game, &mut rng)?;
        game.legal_actions(&mut actions);
        if actions.is_empty() {
            break;
        }
        game.apply(actions[rng.below(actions.len())]);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// The area count equals the number of distinct normalized cells over all free cells.
    #[test]
    fn area_count_matches_distinct_flood_fills(level_index in 0usize..155, seed in any::<u64>()) {
        use puzzle_sokoban::position::{count_regions, Reach};
        along_random_pushes(&microban()[level_index], seed, 15, |game, _| {
            let (board, boxes) = (game.board(), &game.position.boxes);
            let mut reach = Reach::new(board.cells());
            let mut firsts = std::collections::BTreeSet::new();
            for c in (0..board.cells() as u16).filter(|&c| !boxes.contains(c)) {
                firsts.insert(reach.compute(board, boxes, c));
            }
            prop_assert_eq!(count_regions(board, boxes, &mut reach) as usize, firsts.len());
            Ok(())
        })?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// The row flood reaches the same cells, with the same smallest one, as the cell flood,
    /// from every free cell, and counts the same areas, along random push sequences of
    /// Microban, XSokoban and Sasquatch levels.
    #[test]
    fn row_flood_matches_cell_flood(set in 0usize..3, index in 0usize..155, seed in any::<u64>()) {
        use puzzle_sokoban::position::{count_regions, count_regions_cell_by_cell, Reach};
        along_random_pushes(&level_in_set(set, index), seed, 12, |game, _| {
            let (board, boxes) = (game.board(), &game.position.boxes);
            prop_assert!(!board.floor_rows.is_empty());
            let (mut rows, mut cells) = (Reach::new(board.cells()), Reach::new(board.cells()));
            for from in (0..board.cells() as u16).filter(|&c| !boxes.contains(c)) {
                let a = rows.compute(board, boxes, from);
                let b = cells.compute_cell_by_cell(board, boxes, from);
                prop_assert_eq!(a, b);
                for c in 0..board.cells() as u16 {
                    prop_assert_eq!(rows.reachable(c), cells.reachable(c), "cell {}", c);
                }
            }
            prop_assert_eq!(
                count_regions(board, boxes, &mut rows),
                count_regions_cell_by_cell(board, boxes, &mut cells)
            );
            Ok(())
        })?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Push generation and PI-corral pruning on the row flood give the same pushes, in the
    /// same order, as on the cell flood; the reached box sides and the pushes a move opens
    /// are the same; and the corral deadlock test gives the same answers, along
    /// random push sequences of Microban, XSokoban and Sasquatch levels.
    #[test]
    fn corral_pruning_by_rows_matches_by_cells(set in 0usize..3, index in 0usize..155, seed in any::<u64>()) {
        use puzzle_sokoban::board::NONE;
        use puzzle_sokoban::corral::CorralPruner;
        use puzzle_sokoban::corraldl::CorralDeadlock;
        use puzzle_sokoban::position::{generate_pushes, Reach};
        let level = level_in_set(set, index);
        let board = SokobanGame::new(&level).unwrap().board().clone();
        let (mut by_rows, mut by_cells) = (Vec::new(), Vec::new());
        let (mut rows, mut cells) = (Reach::new(board.cells()), Reach::new(board.cells()));
        let (mut pruner_rows, mut pruner_cells) = (CorralPruner::new(), CorralPruner::new());
        let mut dead_rows = CorralDeadlock::new(&board, 2000);
        let mut dead_cells = CorralDeadlock::new(&board, 2000);
        // The previous position's areas, for the test of pushes a move opens.
        let (mut before_rows, mut before_cells) = (Reach::new(board.cells()), Reach::new(board.cells()));
        before_rows.compute(&board, &board.start_boxes, board.start_player);
        before_cells.compute_cell_by_cell(&board, &board.start_boxes, board.start_player);
        along_random_pushes(&level, seed, 40, |game, rng| {
            let (board, pos) = (game.board(), &game.position);
            rows.compute(board, &pos.boxes, pos.player);
            cells.compute_cell_by_cell(board, &pos.boxes, pos.player);
            prop_assert_eq!(
                rows.box_sides_reached(board, &pos.boxes),
                cells.box_sides_reached(board, &pos.boxes)
            );
            for except in pos.boxes.iter() {
                prop_assert_eq!(
                    rows.opens_push(board, &pos.boxes, &before_rows, except),
                    cells.opens_push(board, &pos.boxes, &before_cells, except),
                    "box {}", except
                );
            }
            before_rows.compute(board, &pos.boxes, pos.player);
            before_cells.compute_cell_by_cell(board, &pos.boxes, pos.player);
            for prune_dead in [false, true] {
                generate_pushes(board, pos, &rows, prune_dead, &mut by_rows);
                generate_pushes(board, pos, &cells, prune_dead, &mut by_cells);
                prop_assert_eq!(&by_rows, &by_cells);
            }
            // The child's area from the parent's free rows, for every push.
            let mut child = Reach::new(board.cells());
            let mut fresh = Reach::new(board.cells());
            for p in by_cells.iter() {
                let mut next = pos.clone();
                let to = board.step(p.from, p.dir);
                next.apply_push(board, *p);
                let a = child.compute_after_move(board, &next.boxes, &rows, (p.from, to), p.from);
                let b = fresh.compute_cell_by_cell(board, &next.boxes, p.from);
                prop_assert_eq!(a, b);
                for c in 0..board.cells() as u16 {
                    prop_assert_eq!(child.reachable(c), fresh.reachable(c), "cell {}", c);
                }
            }
            let a = pruner_rows.restrict(board, pos, &rows, &mut by_rows);
            let b = pruner_cells.restrict(board, pos, &cells, &mut by_cells);
            prop_assert_eq!(a, b);
            prop_assert_eq!(&by_rows, &by_cells);
            let moved = pos.boxes.iter().nth(rng.below(board.box_count().max(1)));
            for moved in [NONE, moved.unwrap_or(NONE)] {
                prop_assert_eq!(
                    dead_rows.is_deadlock(board, pos, &rows, moved),
                    dead_cells.is_deadlock(board, pos, &cells, moved)
                );
            }
            Ok(())
        })?;
    }
}

const SASQUATCH: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../data/sokoban/Sasquatch_50.xsb"
));

const XSOKOBAN: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../data/sokoban/XSokoban_90.xsb"
));

/// Along a random push sequence of `level` (seeded by `seed`), every area count derived from
/// the parent's (`regions_after_push`), with and without the child's player area, equals a
/// full count of the child. Returns how many counts were derived.
fn derived_area_counts(level: &Level, seed: u64) -> Result<usize, TestCaseError> {
    use puzzle_sokoban::position::{count_regions, regions_after_push, Reach};
    let mut game = SokobanGame::new(level).unwrap();
    let board = game.board().clone();
    let mut rng = Rng::new(seed);
    let mut actions = Vec::new();
    let (mut parent, mut child, mut scratch) = (
        Reach::new(board.cells()),
        Reach::new(board.cells()),
        Reach::new(board.cells()),
    );
    let mut derived = 0;
    for _ in 0..40 {
        game.legal_actions(&mut actions);
        if actions.is_empty() {
            break;
        }
        let regions = count_regions(&board, &game.position.boxes, &mut scratch);
        parent.compute(&board, &game.position.boxes, game.position.player);
        for &a in &actions {
            let to = board.step(a.from, a.dir);
            let undo = game.apply_undoable(a);
            let boxes = &game.position.boxes;
            let full = count_regions(&board, boxes, &mut scratch);
            child.compute(&board, boxes, game.position.player);
            for area in [None, Some(&child)] {
                if let Some(r) =
                    regions_after_push(&board, boxes, (a.from, to), regions, &parent, area)
                {
                    prop_assert_eq!(r, full, "push {:?} from {}", a.dir, a.from);
                    derived += 1;
                }
            }
            game.undo(a, undo);
        }
        game.apply(actions[rng.below(actions.len())]);
    }
    Ok(derived)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The area count derived from the parent's equals a full count (random levels of
    /// Microban and XSokoban, random push sequences).
    #[test]
    fn derived_area_count_matches_full_count(
        xsokoban in any::<bool>(),
        level_index in 0usize..90,
        seed in any::<u64>(),
    ) {
        let levels = if xsokoban { parse_xsb(XSOKOBAN).unwrap() } else { microban() };
        derived_area_counts(&levels[level_index], seed)?;
    }
}

/// The derivation is exercised, not only its fallback: along one push sequence on each of the
/// first 30 Microban levels, more than a thousand counts are derived (1,542 when written).
#[test]
fn area_counts_are_mostly_derived() {
    let levels = microban();
    let derived: usize = levels[..30]
        .iter()
        .map(|level| derived_area_counts(level, 1).unwrap())
        .sum();
    assert!(derived > 1000, "only {derived} derived counts");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Along a random push sequence, a bound prepared by repairing the previous position's
    /// optimum (`prepare_after_push`) equals a full recomputation, and so do the children's
    /// bounds derived from it.
    #[test]
    fn repaired_bound_matches_full_recomputation(
        xsokoban in any::<bool>(),
        level_index in 0usize..90,
        seed in any::<u64>(),
    ) {
        use puzzle_sokoban::matching::LowerBound;
        let levels = if xsokoban { parse_xsb(XSOKOBAN).unwrap() } else { microban() };
        let mut game = SokobanGame::new(&levels[level_index]).unwrap();
        let board = game.board().clone();
        let mut rng = Rng::new(seed);
        let mut actions = Vec::new();
        let mut repaired = LowerBound::new();
        let mut full = LowerBound::new();
        prop_assume!(repaired.prepare(&board, &game.position.boxes).is_some());
        for _ in 0..30 {
            game.legal_actions(&mut actions);
            // Children: the repaired bound's quick answers against full ones.
            for &a in &actions {
                let to = board.step(a.from, a.dir);
                let quick = repaired.after_push(&board, a.from, to);
                let undo = game.apply_undoable(a);
                prop_assert_eq!(quick, full.compute(&board, &game.position.boxes));
                game.undo(a, undo);
            }
            // Move on by a push whose position has a finite bound, repairing the optimum.
            let finite: Vec<_> = actions
                .iter()
                .copied()
                .filter(|&a| repaired.after_push(&board, a.from, board.step(a.from, a.dir)).is_some())
                .collect();
            if finite.is_empty() {
                break;
            }
            let a = finite[rng.below(finite.len())];
            let to = board.step(a.from, a.dir);
            game.apply(a);
            let bound = repaired.prepare_after_push(&board, &game.position.boxes, (a.from, to));
            prop_assert_eq!(bound, full.compute(&board, &game.position.boxes));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// An optimum saved at a position and restored after other positions were prepared
    /// gives each child the bound a full recomputation gives, and so do that child's
    /// children from the restored optimum.
    #[test]
    fn restored_bound_matches_full_recomputation(
        xsokoban in any::<bool>(),
        level_index in 0usize..90,
        seed in any::<u64>(),
    ) {
        use puzzle_sokoban::matching::{LowerBound, SavedBound};
        let level = level_in_set(usize::from(xsokoban), level_index);
        let (mut actions, mut grandchildren) = (Vec::new(), Vec::new());
        let (mut bound, mut full) = (LowerBound::new(), LowerBound::new());
        let mut saved = SavedBound::default();
        along_random_pushes(&level, seed, 20, |game, _| {
            let (mut game, board) = (game.clone(), game.board().clone());
            if bound.prepare(&board, &game.position.boxes).is_none() {
                return Ok(()); // a dead end: nothing to save
            }
            prop_assert!(bound.save(&mut saved));
            game.legal_actions(&mut actions);
            for &a in &actions {
                let to = board.step(a.from, a.dir);
                let undo = game.apply_undoable(a);
                // Another position prepared in between: the restore must not depend on it.
                let _ = bound.prepare(&board, &game.position.boxes);
                let restored = bound.prepare_from(&board, &game.position.boxes, &saved, (a.from, to));
                prop_assert_eq!(restored, full.compute(&board, &game.position.boxes));
                if restored.is_some() {
                    game.legal_actions(&mut grandchildren);
                    for &c in &grandchildren {
                        let quick = bound.after_push(&board, c.from, board.step(c.from, c.dir));
                        let undo = game.apply_undoable(c);
                        prop_assert_eq!(quick, full.compute(&board, &game.position.boxes));
                        game.undo(c, undo);
                    }
                }
                game.undo(a, undo);
            }
            Ok(())
        })?;
    }
}
