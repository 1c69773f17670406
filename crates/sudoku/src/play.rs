//! A puzzle being filled in by a player (the workbench's Sudoku page): the givens, the player's
//! entries, and what follows from them under the rules: each empty cell's candidates (the
//! automatic pencil marks), the cells that clash with a peer, and whether the grid is complete
//! and solved. Entries may conflict (that is what the conflict marks are for); givens may not.

use crate::grid::{value_of, Grid};
use crate::parse::ParseError;

/// What the rules say about a grid being filled in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayState {
    /// Givens and entries together.
    pub grid: Grid,
    /// Per cell: it is a given (not editable).
    pub given: Vec<bool>,
    /// Per cell: a bitmask of the values no filled peer holds (bit v-1 for value v); 0 for a
    /// filled cell.
    pub candidates: Vec<u32>,
    /// Filled cells whose value a peer (same row, column or box) also holds, ascending.
    pub conflicts: Vec<usize>,
    /// Filled cells (givens included).
    pub filled: usize,
    /// Every cell filled.
    pub complete: bool,
    /// Complete and without conflicts (and so a solution of the puzzle).
    pub solved: bool,
}

/// The cells sharing a row, column or box with `i` (excluding `i`), ascending.
pub fn peers(grid: &Grid, i: usize) -> Vec<usize> {
    (0..grid.len())
        .filter(|&j| {
            j != i
                && (grid.row_of(j) == grid.row_of(i)
                    || grid.col_of(j) == grid.col_of(i)
                    || grid.box_of(j) == grid.box_of(i))
        })
        .collect()
}

/// Read the player's entries: one line as long as the puzzle (`.` or `0` where the player wrote
/// nothing). A digit on a given cell must equal the given. Errors name the (1-based) column,
/// on line 1.
pub fn parse_entries(puzzle: &Grid, line: &str) -> Result<Grid, ParseError> {
    let error = |column: Option<usize>, message: String| ParseError {
        line: 1,
        column,
        message,
    };
    let side = puzzle.side();
    let mut grid = puzzle.clone();
    let mut count = 0;
    for (k, ch) in line.trim_end().chars().enumerate() {
        let v = value_of(ch).filter(|&v| v as usize <= side).ok_or_else(|| {
            error(
                Some(k + 1),
                format!("unexpected character {ch:?} in the entries (1-{side}, or '.'/'0' for empty)"),
            )
        })?;
        if k >= puzzle.len() {
            return Err(error(
                Some(k + 1),
                format!(
                    "the entries are longer than the puzzle's {} cells",
                    puzzle.len()
                ),
            ));
        }
        count += 1;
        if v == 0 {
            continue;
        }
        let given = puzzle.get(k);
        if given != 0 && given != v {
            return Err(error(
                Some(k + 1),
                format!(
                    "row {} column {} is a given {}, not {}",
                    k / side + 1,
                    k % side + 1,
                    given,
                    v
                ),
            ));
        }
        grid.set(k, v);
    }
    if count != puzzle.len() {
        return Err(error(
            None,
            format!(
                "the entries have {count} cells, the puzzle {}",
                puzzle.len()
            ),
        ));
    }
    Ok(grid)
}

/// What the rules say about `grid` (givens and entries) for `puzzle` (the givens).
pub fn play_state(puzzle: &Grid, grid: &Grid) -> PlayState {
    assert_eq!(puzzle.len(), grid.len(), "puzzle and grid differ in size");
    let side = grid.side();
    let full = if side >= 32 {
        u32::MAX
    } else {
        (1u32 << side) - 1
    };
    // How often each value stands in each row, column and box: one pass over the grid, so
    // a state costs O(cells), not O(cells²) by walking every cell's peers.
    let mut counts = vec![0u16; 3 * side * side];
    let units = |i: usize| {
        [
            grid.row_of(i),
            side + grid.col_of(i),
            2 * side + grid.box_of(i),
        ]
    };
    for i in 0..grid.len() {
        let v = grid.get(i) as usize;
        if v != 0 {
            for unit in units(i) {
                counts[unit * side + v - 1] += 1;
            }
        }
    }
    let mut candidates = vec![0u32; grid.len()];
    let mut conflicts = Vec::new();
    for (i, slot) in candidates.iter_mut().enumerate() {
        let v = grid.get(i) as usize;
        if v == 0 {
            let used = (0..side)
                .filter(|&value| units(i).iter().any(|&u| counts[u * side + value] > 0))
                .fold(0u32, |m, value| m | 1 << value);
            *slot = full & !used;
        } else if units(i).iter().any(|&u| counts[u * side + v - 1] > 1) {
            conflicts.push(i);
        }
    }
    let filled = grid.clue_count();
    let complete = grid.is_complete();
    PlayState {
        grid: grid.clone(),
        given: puzzle.cells().iter().map(|&v| v != 0).collect(),
        candidates,
        solved: complete && conflicts.is_empty(),
        conflicts,
        filled,
        complete,
    }
}

/// The candidates of every cell of `grid` into `out` (one mask per cell, bit `v − 1` for
/// value `v`; 0 for a filled cell): the values none of its peers holds, as
/// [`play_state`]'s `candidates`, in one pass over the grid with no allocation (the Gymnasium
/// environments call it every step).
pub fn candidate_masks(grid: &Grid, out: &mut [u32]) {
    let side = grid.side();
    assert!(side <= 64, "a side of {side} has no candidate masks");
    let full = if side >= 32 {
        u32::MAX
    } else {
        (1u32 << side) - 1
    };
    let (mut rows, mut cols, mut boxes) = ([0u32; 64], [0u32; 64], [0u32; 64]);
    for i in 0..grid.len() {
        let v = grid.get(i);
        if v != 0 {
            let bit = 1u32 << (v - 1);
            rows[grid.row_of(i)] |= bit;
            cols[grid.col_of(i)] |= bit;
            boxes[grid.box_of(i)] |= bit;
        }
    }
    for (i, slot) in out.iter_mut().enumerate().take(grid.len()) {
        *slot = if grid.get(i) == 0 {
            full & !(rows[grid.row_of(i)] | cols[grid.col_of(i)] | boxes[grid.box_of(i)])
        } else {
            0
        };
    }
}

/// The values of a candidate mask, ascending.
pub fn mask_values(mask: u32) -> Vec<u8> {
    (0..32u8)
        .filter(|b| mask & (1 << b) != 0)
        .map(|b| b + 1)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_puzzle;
    use crate::solver::solve;

    const EASY: &str =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

    /// The definition, cell by cell over its peers, that [`play_state`] computes in one pass.
    fn by_peers(grid: &Grid) -> (Vec<u32>, Vec<usize>) {
        let full = (1u32 << grid.side()) - 1;
        let mut candidates = vec![0; grid.len()];
        let mut conflicts = Vec::new();
        for (i, slot) in candidates.iter_mut().enumerate() {
            let used = peers(grid, i)
                .iter()
                .map(|&j| grid.get(j))
                .filter(|&v| v != 0)
                .fold(0u32, |m, v| m | 1 << (v - 1));
            match grid.get(i) {
                0 => *slot = full & !used,
                v if used & (1 << (v - 1)) != 0 => conflicts.push(i),
                _ => {}
            }
        }
        (candidates, conflicts)
    }

    #[test]
    fn the_one_pass_state_agrees_with_the_peers_on_random_entries() {
        let puzzle = parse_puzzle(EASY).unwrap();
        let mut rng = puzzle_engine::Rng::new(5);
        for _ in 0..200 {
            let mut grid = puzzle.clone();
            for _ in 0..rng.below(40) {
                let cell = rng.below(grid.len());
                if puzzle.get(cell) == 0 {
                    grid.set(cell, rng.below(10) as u8);
                }
            }
            let state = play_state(&puzzle, &grid);
            let mut masks = vec![0; grid.len()];
            candidate_masks(&grid, &mut masks);
            assert_eq!(masks, state.candidates);
            assert_eq!((state.candidates, state.conflicts), by_peers(&grid));
        }
    }

    #[test]
    fn candidates_are_the_values_no_peer_holds() {
        let puzzle = parse_puzzle(EASY).unwrap();
        let s = play_state(&puzzle, &puzzle);
        // Row 1 column 1: the row has 2, 3, 6; the column 7, 8, 9; the box 1, 3, 9.
        assert_eq!(mask_values(s.candidates[0]), vec![4, 5]);
        assert_eq!(s.candidates[2], 0, "a filled cell has no candidates");
        assert!(s.conflicts.is_empty());
        assert_eq!(s.filled, puzzle.clue_count());
        assert!(!s.complete && !s.solved);
        assert!(s.given[2] && !s.given[0]);
    }

    #[test]
    fn a_clashing_entry_marks_both_cells() {
        let puzzle = parse_puzzle(EASY).unwrap();
        // A 3 in row 1 column 1 clashes with the given 3 in column 3.
        let mut entries = ".".repeat(81);
        entries.replace_range(0..1, "3");
        let grid = parse_entries(&puzzle, &entries).unwrap();
        let s = play_state(&puzzle, &grid);
        assert_eq!(s.conflicts, vec![0, 2]);
        assert!(!s.given[0]);
    }

    #[test]
    fn the_solution_is_solved() {
        let puzzle = parse_puzzle(EASY).unwrap();
        let solution = solve(&puzzle).unwrap();
        let grid = parse_entries(&puzzle, &solution.to_line()).unwrap();
        let s = play_state(&puzzle, &grid);
        assert!(s.complete && s.solved && s.conflicts.is_empty());
        assert!(s.candidates.iter().all(|&m| m == 0));
        assert_eq!(s.filled, 81);
    }

    #[test]
    fn bad_entries_name_their_column() {
        let puzzle = parse_puzzle(EASY).unwrap();
        let short = parse_entries(&puzzle, "...").unwrap_err();
        assert_eq!(short.column, None);
        assert!(short.message.contains("3 cells"), "{short}");
        let mut x = ".".repeat(81);
        x.replace_range(4..5, "x");
        assert_eq!(parse_entries(&puzzle, &x).unwrap_err().column, Some(5));
        let mut over_given = ".".repeat(81);
        over_given.replace_range(2..3, "5");
        let e = parse_entries(&puzzle, &over_given).unwrap_err();
        assert_eq!(e.column, Some(3));
        assert!(e.message.contains("given 3"), "{e}");
        // Repeating a given is fine.
        let mut same = ".".repeat(81);
        same.replace_range(2..3, "3");
        assert!(parse_entries(&puzzle, &same).is_ok());
        let long = ".".repeat(82);
        assert_eq!(parse_entries(&puzzle, &long).unwrap_err().column, Some(82));
    }

    #[test]
    fn peers_of_a_cell() {
        let g = Grid::empty(3);
        let p = peers(&g, 0);
        assert_eq!(p.len(), 20);
        assert!(p.contains(&8) && p.contains(&72) && p.contains(&20));
        assert!(!p.contains(&0) && !p.contains(&30));
    }
}
