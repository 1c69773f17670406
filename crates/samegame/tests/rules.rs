//! Rules: hand-computed games under each scoring convention, gravity and column-shift
//! invariants (property tests), group enumeration, the engine's conformance harness.

use proptest::prelude::*;
use puzzle_engine::{conformance, Game, HashedGame};
use puzzle_samegame::{format, Board, Move, Penalty, Scoring, Scratch};

mod common;
use common::best_final;

const R: u8 = 1;
const G: u8 = 2;
const B: u8 = 3;

fn board(rows: &[&[u8]], colours: usize, scoring: Scoring) -> Board {
    let rows: Vec<Vec<u8>> = rows.iter().map(|r| r.to_vec()).collect();
    Board::from_rows(&rows, colours, scoring).unwrap()
}

/// Play moves given as (column, row from the top of the board before the move).
fn play(b: &mut Board, moves: &[(usize, usize)]) -> Vec<usize> {
    let mut scratch = Scratch::new();
    moves
        .iter()
        .map(|&(c, r)| {
            let mv = b.move_from_top(c, r).unwrap();
            b.try_play(mv, &mut scratch).expect("legal move")
        })
        .collect()
}

#[test]
fn hand_computed_clearing_game() {
    // R G G
    // R R B
    // B B B
    let rows: &[&[u8]] = &[&[R, G, G], &[R, R, B], &[B, B, B]];
    let mut b = board(rows, 3, Scoring::standard());
    // B group of 4: (4-2)^2 = 4; then R (3): 1; then the two Gs slid together: 0; +1000.
    let sizes = play(&mut b, &[(2, 2), (0, 2), (0, 2)]);
    assert_eq!(sizes, vec![4, 3, 2]);
    assert!(b.is_cleared() && b.is_terminal());
    assert_eq!(b.final_score(), 1005);
    assert_eq!(b.score(), 1005.0);

    let mut h = board(rows, 3, Scoring::hungarian());
    play(&mut h, &[(2, 2), (0, 2), (0, 2)]);
    // (4-1)^2 + (3-1)^2 + (2-1)^2 = 9 + 4 + 1, no bonus.
    assert_eq!(h.final_score(), 14);
}

#[test]
fn intermediate_positions_after_gravity_and_shift() {
    let rows: &[&[u8]] = &[&[R, G, G], &[R, R, B], &[B, B, B]];
    let mut b = board(rows, 3, Scoring::standard());
    play(&mut b, &[(2, 2)]);
    assert_eq!(b.rows(), vec![vec![0, 0, 0], vec![R, G, 0], vec![R, R, G]]);
    play(&mut b, &[(0, 2)]);
    // Column 0 emptied: the Gs shift left.
    assert_eq!(b.rows(), vec![vec![0, 0, 0], vec![0, 0, 0], vec![G, G, 0]]);
    assert_eq!(b.columns(), 2);
}

#[test]
fn penalties_on_a_stuck_board() {
    // Checkerboard: no group at all; R = 5, G = 4 stones.
    let rows: &[&[u8]] = &[&[R, G, R], &[G, R, G], &[R, G, R]];
    let none = board(rows, 2, Scoring::standard());
    assert!(none.is_terminal());
    assert_eq!(none.final_score(), 0);
    let total = board(rows, 2, Scoring::standard().with_penalty(Penalty::Total));
    assert_eq!(total.final_score(), -49); // (9 - 2)^2
    let per = board(
        rows,
        2,
        Scoring::standard().with_penalty(Penalty::PerColour),
    );
    assert_eq!(per.final_score(), -13); // (5 - 2)^2 + (4 - 2)^2
    assert_eq!(per.score(), -13.0);
}

#[test]
fn penalty_after_moves() {
    let rows: &[&[u8]] = &[&[R, R, R, G, G, G, G, B]];
    let mut b = board(
        rows,
        3,
        Scoring::standard().with_penalty(Penalty::PerColour),
    );
    play(&mut b, &[(3, 0)]); // 4 Gs: 4 points
    play(&mut b, &[(0, 0)]); // 3 Rs: 1 point, the B is left
    assert!(b.is_terminal() && !b.is_cleared());
    assert_eq!(b.points(), 5);
    assert_eq!(b.final_score(), 5 - 1); // (1 - 2)^2 for the lone B
    let mut h = board(rows, 3, Scoring::hungarian().with_penalty(Penalty::Total));
    play(&mut h, &[(3, 0), (0, 0)]);
    assert_eq!(h.final_score(), 9 + 4 - 1);
}

#[test]
fn illegal_moves_are_rejected() {
    let rows: &[&[u8]] = &[&[R, G, R], &[G, R, G]];
    let mut b = board(rows, 2, Scoring::standard());
    let before = b.clone();
    let mut scratch = Scratch::new();
    assert!(b.try_play(Move { col: 0, row: 0 }, &mut scratch).is_none());
    assert!(b.try_play(Move { col: 9, row: 0 }, &mut scratch).is_none());
    assert_eq!(b, before);
}

#[test]
fn one_action_per_group_and_codes_differ() {
    let text = include_str!("../../../data/samegame/standard20/problem01.txt");
    let b = format::parse_standard(text, "problem01.txt", Scoring::standard()).unwrap();
    let mut actions = Vec::new();
    b.legal_actions(&mut actions);
    let mut scratch = Scratch::new();
    assert_eq!(actions.len(), b.find_groups(&mut scratch));
    let sizes: usize = scratch.groups.iter().map(|g| g.size as usize).sum();
    // Each stone belongs to at most one group.
    assert!(sizes <= 225);
    let mut codes: Vec<u64> = actions.iter().map(|&a| b.action_code(a)).collect();
    codes.sort_unstable();
    codes.dedup();
    assert_eq!(codes.len(), actions.len());
    // Any stone of a group gives the same code.
    for g in &scratch.groups {
        let first = b.move_of(g.cell);
        let (size, colour) = b.group_at(first, &mut Scratch::new()).unwrap();
        assert_eq!((size, colour), (g.size as usize, g.colour));
    }
}

#[test]
fn engine_conformance() {
    let text = include_str!("../../../data/samegame/standard20/problem05.txt");
    let b = format::parse_standard(text, "problem05.txt", Scoring::standard()).unwrap();
    let report = conformance::check_playouts(&b, 30, 300, 1).unwrap();
    assert!(report.max_length > 20);
    for seed in 0..5 {
        let r = Board::random(7, 5, 3, seed, Scoring::hungarian()).unwrap();
        conformance::check_playouts(&r, 20, 100, seed).unwrap();
    }
}

#[test]
fn hash_follows_the_stones() {
    let a = Board::random(6, 6, 3, 9, Scoring::standard()).unwrap();
    let b = a.clone();
    assert_eq!(a.state_hash(), b.state_hash());
    let mut c = a.clone();
    let mut actions = Vec::new();
    c.legal_actions(&mut actions);
    c.apply(actions[0]);
    assert_ne!(a.state_hash(), c.state_hash());
}

fn check_invariants(
    before: &Board,
    after: &Board,
    size: usize,
    colour: u8,
) -> Result<(), TestCaseError> {
    let k = before.colours();
    for c in 1..=k {
        let drop = if c == colour as usize { size as u16 } else { 0 };
        prop_assert_eq!(after.counts()[c], before.counts()[c] - drop);
    }
    prop_assert_eq!(after.stones(), before.stones() - size);
    prop_assert_eq!(
        after.points(),
        before.points() + before.scoring().group_points(size)
    );
    let mut seen_empty = false;
    for c in 0..after.width() {
        let h = after.column_height(c);
        // No floating stones: stones exactly in rows 0..h.
        for r in 0..after.height() {
            prop_assert_eq!(after.get(c, r) != 0, r < h, "column {} row {}", c, r);
        }
        // No empty column left of a non-empty one.
        if h == 0 {
            seen_empty = true;
        } else {
            prop_assert!(!seen_empty, "empty column left of column {}", c);
        }
    }
    // Stones counted by colour match the grid.
    let mut grid_counts = vec![0u16; k + 1];
    for row in after.rows() {
        for v in row {
            grid_counts[v as usize] += 1;
        }
    }
    prop_assert_eq!(&grid_counts[1..], &after.counts()[1..]);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn gravity_and_shift_invariants(
        w in 1usize..12, h in 1usize..12, k in 1usize..6, seed in any::<u64>(), picks in proptest::collection::vec(any::<u32>(), 1..80)
    ) {
        let mut b = Board::random(w, h, k, seed, Scoring::standard()).unwrap();
        let mut scratch = Scratch::new();
        for p in picks {
            let n = b.find_groups(&mut scratch);
            if n == 0 {
                prop_assert!(b.is_terminal());
                break;
            }
            let g = scratch.groups[p as usize % n];
            let mv = b.move_of(g.cell);
            let before = b.clone();
            let size = b.try_play(mv, &mut scratch).unwrap();
            prop_assert_eq!(size, g.size as usize);
            check_invariants(&before, &b, size, g.colour)?;
        }
    }

    #[test]
    fn upper_bound_is_admissible(w in 1usize..5, h in 1usize..4, k in 1usize..4, seed in any::<u64>()) {
        for scoring in [Scoring::standard(), Scoring::hungarian(), Scoring::standard().with_penalty(Penalty::PerColour)] {
            let b = Board::random(w, h, k, seed, scoring).unwrap();
            prop_assert!(b.upper_bound() >= best_final(&b));
        }
    }
}

#[test]
fn a_shared_scratch_gives_the_same_answers_as_fresh_ones() {
    let mut shared = Scratch::new();
    for seed in 0..20 {
        let mut b = Board::random(9, 7, 3, seed, Scoring::standard()).unwrap();
        let mut rng = puzzle_engine::Rng::new(seed);
        while b.find_groups(&mut shared) > 0 {
            let groups = shared.groups.clone();
            for g in &groups {
                let mv = b.move_of(g.cell);
                assert_eq!(
                    b.group_code(mv, &mut shared),
                    b.group_code(mv, &mut Scratch::new())
                );
                assert_eq!(
                    b.group_at(mv, &mut shared),
                    Some((g.size as usize, g.colour))
                );
            }
            let g = groups[rng.below(groups.len())];
            let mut fresh = b.clone();
            fresh.remove_group(g.cell as usize, &mut Scratch::new());
            b.remove_group(g.cell as usize, &mut shared);
            assert_eq!(b, fresh);
        }
    }
}

#[test]
fn coded_move_generation_agrees_with_action_codes() {
    // Sizes whose columns fit inside a word, span words, and need many words.
    for (w, h, k, seed) in [(15, 15, 5, 1), (20, 20, 4, 2), (40, 9, 3, 3), (6, 70, 3, 4)] {
        let mut b = Board::random(w, h, k, seed, Scoring::standard()).unwrap();
        let mut rng = puzzle_engine::Rng::new(seed);
        let (mut actions, mut codes, mut plain) = (Vec::new(), Vec::new(), Vec::new());
        loop {
            b.legal_actions_coded(&mut actions, &mut codes);
            b.legal_actions(&mut plain);
            assert_eq!(actions, plain);
            assert_eq!(actions.len(), codes.len());
            if actions.is_empty() {
                break;
            }
            for (&a, &c) in actions.iter().zip(&codes) {
                assert_eq!(b.action_code(a), c);
            }
            let mut distinct = codes.clone();
            distinct.sort_unstable();
            distinct.dedup();
            assert_eq!(distinct.len(), codes.len(), "two groups share a code");
            // Every stone of a group names the group's code.
            let mut scratch = Scratch::new();
            for col in 0..b.width() {
                for row in 0..b.height() {
                    let mv = Move {
                        col: col as u8,
                        row: row as u8,
                    };
                    if b.group_at(mv, &mut scratch).is_some() {
                        let code = b.group_code(mv, &mut scratch);
                        assert!(codes.contains(&code), "{mv:?}");
                    }
                }
            }
            b.apply(actions[rng.below(actions.len())]);
        }
    }
}

/// The cells (column, row from the top) of the group through `(col, row)` of `rows`.
fn group_cells(rows: &[Vec<u8>], col: usize, row: usize) -> Vec<(usize, usize)> {
    let colour = rows[row][col];
    let mut cells = vec![(col, row)];
    let mut i = 0;
    while i < cells.len() {
        let (c, r) = cells[i];
        i += 1;
        let near = [
            (c.wrapping_sub(1), r),
            (c + 1, r),
            (c, r.wrapping_sub(1)),
            (c, r + 1),
        ];
        for (nc, nr) in near {
            if nr < rows.len()
                && nc < rows[nr].len()
                && rows[nr][nc] == colour
                && !cells.contains(&(nc, nr))
            {
                cells.push((nc, nr));
            }
        }
    }
    cells.sort_unstable();
    cells
}

#[test]
fn group_codes_name_colour_and_cells_across_positions() {
    // A code seen twice must name the same colour and cells both times (NRPA shares a
    // weight between equal codes); checked over whole random games on the standard size.
    let mut seen: std::collections::HashMap<u64, (u8, Vec<(usize, usize)>)> = Default::default();
    let mut rng = puzzle_engine::Rng::new(5);
    for seed in 0..12 {
        let mut b = Board::random(15, 15, 5, seed, Scoring::standard()).unwrap();
        let (mut actions, mut codes) = (Vec::new(), Vec::new());
        loop {
            b.legal_actions_coded(&mut actions, &mut codes);
            if actions.is_empty() {
                break;
            }
            let rows = b.rows();
            for (&mv, &code) in actions.iter().zip(&codes) {
                let (col, row) = (mv.col as usize, b.top_row(mv.row as usize));
                let group = (rows[row][col], group_cells(&rows, col, row));
                let previous = seen.entry(code).or_insert_with(|| group.clone());
                assert_eq!(*previous, group, "code {code:x}");
            }
            b.apply(actions[rng.below(actions.len())]);
        }
    }
    assert!(seen.len() > 1000);
}

#[test]
fn group_cells_lists_the_stones_a_move_removes() {
    let rows: &[&[u8]] = &[&[R, G, G], &[R, R, B], &[B, B, B]];
    let b = board(rows, 3, Scoring::standard());
    let mut scratch = Scratch::new();
    let mut cells = b
        .group_cells(b.move_from_top(2, 2).unwrap(), &mut scratch)
        .unwrap();
    cells.sort();
    let expected: Vec<Move> = [(0, 0), (1, 0), (2, 0), (2, 1)]
        .iter()
        .map(|&(col, row)| Move { col, row })
        .collect();
    assert_eq!(cells, expected, "the four Bs, bottom-based rows");
    let rs = b.group_cells(b.move_from_top(0, 0).unwrap(), &mut scratch);
    assert_eq!(rs.map(|c| c.len()), Some(3), "the three Rs");
    let lone = board(&[&[R, G], &[G, R]], 2, Scoring::standard());
    assert!(lone
        .group_cells(lone.move_from_top(0, 0).unwrap(), &mut scratch)
        .is_none());
}

proptest! {
    #[test]
    fn group_cells_has_the_size_of_the_removed_group(seed in 0u64..500, col in 0usize..6, row in 0usize..6) {
        let b = Board::random(6, 6, 3, seed, Scoring::standard()).unwrap();
        let mut scratch = Scratch::new();
        let mv = b.move_from_top(col, row).unwrap();
        let cells = b.group_cells(mv, &mut scratch);
        let mut after = b.clone();
        let removed = after.try_play(mv, &mut scratch);
        prop_assert_eq!(cells.as_ref().map(Vec::len), removed);
        if let Some(cells) = cells {
            let colour = b.get(mv.col as usize, mv.row as usize);
            for c in cells {
                prop_assert_eq!(b.get(c.col as usize, c.row as usize), colour);
            }
        }
    }
}
