//! The bitboard [`Board`] against a plain reference implementation (a grid of colours,
//! flood fill with a stack, gravity and column shift written out cell by cell), on random
//! boards of every lane layout (heights 1–128: lanes of 2 to 256 bits, lanes inside a word
//! and lanes spanning words), the groups a selective game keeps move by move against a full
//! enumeration, and the exact uniformity of the Random playout policy.

use proptest::prelude::*;
use puzzle_engine::{Game, Rng};
use puzzle_samegame::playout::{GroupChooser, Uniform};
use puzzle_samegame::selective::Selective;
use puzzle_samegame::{Board, Scoring, Scratch};

/// The reference: columns bottom-up, empty columns removed.
#[derive(Clone, Debug)]
struct Reference {
    cols: Vec<Vec<u8>>,
    height: usize,
    points: i64,
}

impl Reference {
    fn new(b: &Board) -> Self {
        let cols = (0..b.width())
            .map(|c| {
                (0..b.height())
                    .map(|r| b.get(c, r))
                    .filter(|&v| v != 0)
                    .collect::<Vec<u8>>()
            })
            .filter(|c| !c.is_empty())
            .collect();
        Reference {
            cols,
            height: b.height(),
            points: 0,
        }
    }

    fn at(&self, c: isize, r: isize) -> u8 {
        if c < 0 || r < 0 {
            return 0;
        }
        self.cols
            .get(c as usize)
            .and_then(|col| col.get(r as usize))
            .copied()
            .unwrap_or(0)
    }

    /// The cells of the group containing (c, r), sorted in scan order.
    fn group(&self, c: usize, r: usize) -> Vec<(usize, usize)> {
        let v = self.at(c as isize, r as isize);
        let mut seen = std::collections::HashSet::from([(c, r)]);
        let mut stack = vec![(c, r)];
        while let Some((x, y)) = stack.pop() {
            for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let (nx, ny) = (x as isize + dx, y as isize + dy);
                if self.at(nx, ny) == v && seen.insert((nx as usize, ny as usize)) {
                    stack.push((nx as usize, ny as usize));
                }
            }
        }
        let mut cells: Vec<(usize, usize)> = seen.into_iter().collect();
        cells.sort();
        cells
    }

    /// Every group stone in scan order (columns left to right, each bottom-up).
    fn group_stones(&self) -> Vec<(usize, usize, u8)> {
        let mut out = Vec::new();
        for (c, col) in self.cols.iter().enumerate() {
            for (r, &v) in col.iter().enumerate() {
                let (ci, ri) = (c as isize, r as isize);
                if [(1, 0), (-1, 0), (0, 1), (0, -1)]
                    .iter()
                    .any(|&(dx, dy)| self.at(ci + dx, ri + dy) == v)
                {
                    out.push((c, r, v));
                }
            }
        }
        out
    }

    /// The groups as (first stone in scan order, size, colour), in scan order.
    fn groups(&self) -> Vec<((usize, usize), usize, u8)> {
        let mut out: Vec<((usize, usize), usize, u8)> = Vec::new();
        for (c, r, v) in self.group_stones() {
            let g = self.group(c, r);
            if g[0] == (c, r) {
                out.push(((c, r), g.len(), v));
            }
        }
        out
    }

    fn remove(&mut self, c: usize, r: usize) -> usize {
        let g = self.group(c, r);
        for &(x, y) in g.iter().rev() {
            self.cols[x].remove(y); // reverse scan order: higher rows first within a column
        }
        self.cols.retain(|col| !col.is_empty());
        let n = g.len() as i64;
        self.points += (n - 2) * (n - 2);
        g.len()
    }

    fn rows(&self, width: usize) -> Vec<Vec<u8>> {
        (0..self.height)
            .rev()
            .map(|r| {
                (0..width)
                    .map(|c| self.at(c as isize, r as isize))
                    .collect()
            })
            .collect()
    }
}

fn check_same(
    b: &Board,
    reference: &Reference,
    scratch: &mut Scratch,
) -> Result<(), TestCaseError> {
    prop_assert_eq!(b.rows(), reference.rows(b.width()));
    prop_assert_eq!(b.points(), reference.points);
    prop_assert_eq!(b.columns(), reference.cols.len());
    let mut column = vec![7u8; b.height() + 1];
    for c in 0..b.width() {
        prop_assert_eq!(
            b.column_height(c),
            reference.cols.get(c).map_or(0, Vec::len)
        );
        // A column read in one pass is the reference's, bottom up, zeros above its top.
        prop_assert_eq!(b.column_colours(c, &mut column), b.column_height(c));
        let mut expected = reference.cols.get(c).cloned().unwrap_or_default();
        expected.resize(column.len(), 0);
        prop_assert_eq!(&column, &expected);
    }
    let expected = reference.groups();
    prop_assert_eq!(b.has_move(), !expected.is_empty());
    prop_assert_eq!(b.is_terminal(), expected.is_empty());
    b.find_groups(scratch);
    let got: Vec<((usize, usize), usize, u8)> = scratch
        .groups
        .iter()
        .map(|g| {
            let m = b.move_of(g.cell);
            ((m.col as usize, m.row as usize), g.size as usize, g.colour)
        })
        .collect();
    prop_assert_eq!(got, expected);
    // Group stones as the scan sees them, from a few starting points and colour sets.
    let stones = reference.group_stones();
    let mut visited = Vec::new();
    b.scan((0, 0), |cell, colour| {
        let m = b.move_of(cell as u16);
        visited.push((m.col as usize, m.row as usize, colour));
        false
    });
    prop_assert_eq!(&visited, &stones);
    prop_assert_eq!(b.mark_group_stones(scratch), stones.len());
    for (k, &(c, r, _)) in stones.iter().enumerate() {
        let cell = b.nth_group_stone(scratch, k).unwrap();
        let m = b.move_of(cell as u16);
        prop_assert_eq!((m.col as usize, m.row as usize), (c, r));
        prop_assert_eq!(b.group_size(cell, scratch), reference.group(c, r).len());
    }
    prop_assert_eq!(b.nth_group_stone(scratch, stones.len()), None);
    for c in 0..reference.cols.len() {
        for r in [0, reference.cols[c].len() - 1] {
            for set in [!0u32, 0b1010, 0b0100, 1 << 1] {
                let start = c * 1000 + r;
                let want = stones
                    .iter()
                    .filter(|&&(_, _, v)| set & (1 << v) != 0)
                    .map(|&(x, y, v)| (x * 1000 + y, v))
                    .find(|&(pos, _)| pos >= start)
                    .or_else(|| {
                        stones
                            .iter()
                            .filter(|&&(_, _, v)| set & (1 << v) != 0)
                            .map(|&(x, y, v)| (x * 1000 + y, v))
                            .next()
                    });
                let got = b.first_group_stone((c, r), set).map(|(cell, v)| {
                    let m = b.move_of(cell as u16);
                    (m.col as usize * 1000 + m.row as usize, v)
                });
                prop_assert_eq!(got, want);
            }
        }
    }
    Ok(())
}

/// Play random moves on both and compare after each.
fn agree(b: &mut Board, picks: &[u32]) -> Result<(), TestCaseError> {
    let mut reference = Reference::new(b);
    let mut scratch = Scratch::new();
    let hash = b.zobrist();
    prop_assert_eq!(hash, b.clone().zobrist());
    check_same(b, &reference, &mut scratch)?;
    for &p in picks {
        let groups = reference.groups();
        if groups.is_empty() {
            break;
        }
        let ((c, r), size, _) = groups[p as usize % groups.len()];
        // Name the group by a random one of its stones, not always the first.
        let cells = reference.group(c, r);
        let (x, y) = cells[(p as usize / 7) % cells.len()];
        let mv = puzzle_samegame::Move {
            col: x as u8,
            row: y as u8,
        };
        prop_assert_eq!(b.group_at(mv, &mut scratch).map(|g| g.0), Some(size));
        prop_assert_eq!(b.try_play(mv, &mut scratch), Some(size));
        prop_assert_eq!(reference.remove(x, y), size);
        check_same(b, &reference, &mut scratch)?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn small_boards_agree_with_the_reference(
        w in 1usize..14, h in 1usize..18, k in 1usize..6, seed in any::<u64>(),
        picks in proptest::collection::vec(any::<u32>(), 1..120)
    ) {
        let mut b = Board::random(w, h, k, seed, Scoring::standard()).unwrap();
        agree(&mut b, &picks)?;
    }

    #[test]
    fn tall_and_wide_boards_agree_with_the_reference(
        w in 1usize..40, h in prop::sample::select(vec![31usize, 32, 63, 64, 65, 100, 127, 128]),
        k in 3usize..21, seed in any::<u64>(),
        picks in proptest::collection::vec(any::<u32>(), 1..12)
    ) {
        let mut b = Board::random(w, h, k, seed, Scoring::standard()).unwrap();
        agree(&mut b, &picks)?;
    }
}

/// The groups a selective game keeps move by move (`Board::keep_groups`) against a full
/// enumeration of the same position: the groups of the colours other than `tabu`, or all of
/// them once only `tabu` has groups, in scan order with their codes.
fn kept_groups_agree(board: Board, tabu: u8, picks: &[u32]) -> Result<(), TestCaseError> {
    let mut game = Selective::with_tabu(board, tabu);
    let (mut moves, mut codes) = (Vec::new(), Vec::new());
    let (mut all_codes, mut scratch) = (Vec::new(), Scratch::new());
    for &p in picks {
        game.legal_actions_coded(&mut moves, &mut codes);
        let b = game.board();
        b.find_groups_coded(&mut scratch, &mut all_codes);
        let all: Vec<_> = scratch
            .groups
            .iter()
            .zip(&all_codes)
            .map(|(g, &code)| (b.move_of(g.cell), g.colour, code))
            .collect();
        let others: Vec<_> = all.iter().filter(|g| g.1 != tabu).copied().collect();
        let expected = if others.is_empty() { all } else { others };
        let kept: Vec<_> = moves
            .iter()
            .zip(&codes)
            .map(|(&mv, &code)| (mv, b.get(mv.col as usize, mv.row as usize), code))
            .collect();
        prop_assert_eq!(&kept, &expected);
        if moves.is_empty() {
            prop_assert!(game.is_terminal());
            break;
        }
        game.apply(moves[p as usize % moves.len()]);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn kept_groups_agree_with_a_full_enumeration(
        w in 1usize..17, h in 1usize..18, k in 1usize..7, tabu in 0u8..8, seed in any::<u64>(),
        picks in proptest::collection::vec(any::<u32>(), 1..150)
    ) {
        let b = Board::random(w, h, k, seed, Scoring::standard()).unwrap();
        kept_groups_agree(b, tabu, &picks)?;
    }

    #[test]
    fn kept_groups_agree_on_tall_and_wide_boards(
        w in 1usize..40, h in prop::sample::select(vec![31usize, 32, 63, 64, 65, 100, 127, 128]),
        k in 3usize..21, tabu in 1u8..4, seed in any::<u64>(),
        picks in proptest::collection::vec(any::<u32>(), 1..40)
    ) {
        let b = Board::random(w, h, k, seed, Scoring::standard()).unwrap();
        kept_groups_agree(b, tabu, &picks)?;
    }
}

#[test]
fn the_widest_tallest_board_agrees_with_the_reference() {
    let mut b = Board::random(128, 128, 3, 5, Scoring::standard()).unwrap();
    agree(&mut b, &[3, 17, 99, 1000, 5, 8]).unwrap();
}

/// Random picks every group equally often (rejection sampling over group stones), whatever
/// the group sizes: on a board with groups of 2, 3, 4 and 6 stones, each of 40,000 picks
/// lands in each group within 5 % of a quarter (a size-proportional pick would give the
/// 6-stone group 40 %).
#[test]
fn random_policy_is_uniform_over_groups() {
    let rows = vec![
        vec![1, 2, 3, 4, 4],
        vec![1, 2, 3, 4, 4],
        vec![5, 2, 3, 4, 4],
        vec![3, 5, 3, 5, 1],
    ];
    let b = Board::from_rows(&rows, 5, Scoring::standard()).unwrap();
    let mut scratch = Scratch::new();
    assert_eq!(b.find_groups(&mut scratch), 4);
    let sizes: Vec<u16> = scratch.groups.iter().map(|g| g.size).collect();
    assert_eq!(sizes, vec![2, 3, 4, 6]);
    let reps: Vec<u16> = scratch.groups.iter().map(|g| g.cell).collect();
    let mut hits = [0usize; 4];
    let mut rng = Rng::new(7);
    let mut chooser = Uniform;
    let trials = 40_000;
    for _ in 0..trials {
        let cell = chooser.pick(&b, &mut scratch, &mut rng).unwrap();
        // Which group: the one whose flood holds the picked stone.
        let mv = b.move_of(cell as u16);
        let mut probe = b.clone();
        probe.try_play(mv, &mut Scratch::new()).unwrap();
        let k = reps
            .iter()
            .position(|&rep| {
                let m = b.move_of(rep);
                let mut other = b.clone();
                other.try_play(m, &mut Scratch::new()).unwrap();
                other == probe
            })
            .unwrap();
        hits[k] += 1;
    }
    for (k, &h) in hits.iter().enumerate() {
        let share = h as f64 / trials as f64;
        assert!(
            (share - 0.25).abs() < 0.0125,
            "group {k} (size {}) picked {share:.3} of the time",
            sizes[k]
        );
    }
    let mut actions = Vec::new();
    b.legal_actions(&mut actions);
    assert_eq!(actions.len(), 4);
}
