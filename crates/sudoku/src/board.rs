//! Candidate bookkeeping for any n²×n² grid: one bitmask of used values per row, column and box
//! (see `docs/METHODS.md#sudoku-grids`; the Czech paper's legality test "not used in the row,
//! column or box"), plus the list of empty cells for O(1) random choice. Every buffer is a `Vec`
//! whose storage `clone_from` reuses, so MCTS copies boards without allocating.

use crate::grid::Grid;

/// Sentinel for "no cell".
pub const NO_CELL: u16 = u16::MAX;

/// A grid with per-unit used-value masks and the set of empty cells.
#[derive(Debug, PartialEq, Eq)]
pub struct Board {
    box_size: u8,
    side: u8,
    full: u32,
    cells: Vec<u8>,
    row_used: Vec<u32>,
    col_used: Vec<u32>,
    box_used: Vec<u32>,
    /// Empty cells in arbitrary order.
    empties: Vec<u16>,
    /// Index of each cell in `empties` (`NO_CELL` when filled).
    empty_pos: Vec<u16>,
}

impl Clone for Board {
    fn clone(&self) -> Self {
        Board {
            box_size: self.box_size,
            side: self.side,
            full: self.full,
            cells: self.cells.clone(),
            row_used: self.row_used.clone(),
            col_used: self.col_used.clone(),
            box_used: self.box_used.clone(),
            empties: self.empties.clone(),
            empty_pos: self.empty_pos.clone(),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        self.box_size = source.box_size;
        self.side = source.side;
        self.full = source.full;
        self.cells.clone_from(&source.cells);
        self.row_used.clone_from(&source.row_used);
        self.col_used.clone_from(&source.col_used);
        self.box_used.clone_from(&source.box_used);
        self.empties.clone_from(&source.empties);
        self.empty_pos.clone_from(&source.empty_pos);
    }
}

impl Board {
    /// The board of `grid`'s clues. Errors if two clues conflict.
    pub fn new(grid: &Grid) -> Result<Board, String> {
        let side = grid.side();
        let mut board = Board {
            box_size: grid.box_size() as u8,
            side: side as u8,
            full: if side == 32 {
                u32::MAX
            } else {
                (1u32 << side) - 1
            },
            cells: vec![0; side * side],
            row_used: vec![0; side],
            col_used: vec![0; side],
            box_used: vec![0; side],
            empties: (0..(side * side) as u16).collect(),
            empty_pos: (0..(side * side) as u16).collect(),
        };
        for i in 0..grid.len() {
            let v = grid.get(i);
            if v == 0 {
                continue;
            }
            if board.candidates(i) & (1 << (v - 1)) == 0 {
                return Err(format!(
                    "clue {} at row {} column {} conflicts with another clue",
                    crate::grid::symbol(v),
                    i / side + 1,
                    i % side + 1
                ));
            }
            board.place(i, v);
        }
        Ok(board)
    }

    /// Box size n.
    #[inline]
    pub fn box_size(&self) -> usize {
        self.box_size as usize
    }

    /// Side n².
    #[inline]
    pub fn side(&self) -> usize {
        self.side as usize
    }

    /// Number of cells.
    #[inline]
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Always false; for clippy.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// Value of cell `i` (0 = empty).
    #[inline]
    pub fn value(&self, i: usize) -> u8 {
        self.cells[i]
    }

    /// The empty cells (in no particular order).
    #[inline]
    pub fn empties(&self) -> &[u16] {
        &self.empties
    }

    /// Number of empty cells.
    #[inline]
    pub fn empty_count(&self) -> usize {
        self.empties.len()
    }

    /// Row, column and box of cell `i`.
    #[inline]
    pub fn units_of(&self, i: usize) -> (usize, usize, usize) {
        let side = self.side as usize;
        let n = self.box_size as usize;
        let (r, c) = (i / side, i % side);
        (r, c, (r / n) * n + c / n)
    }

    /// Values still legal in cell `i` (bit v-1 for value v), ignoring whether `i` is filled.
    #[inline]
    pub fn candidates(&self, i: usize) -> u32 {
        let (r, c, b) = self.units_of(i);
        self.full & !(self.row_used[r] | self.col_used[c] | self.box_used[b])
    }

    /// Used-value masks of the rows, columns and boxes (for tests and diagnostics).
    pub fn masks(&self) -> (&[u32], &[u32], &[u32]) {
        (&self.row_used, &self.col_used, &self.box_used)
    }

    /// Put legal `value` into empty cell `i`.
    #[inline]
    pub fn place(&mut self, i: usize, value: u8) {
        debug_assert_eq!(self.cells[i], 0);
        debug_assert!(self.candidates(i) & (1 << (value - 1)) != 0);
        let (r, c, b) = self.units_of(i);
        let bit = 1u32 << (value - 1);
        self.row_used[r] |= bit;
        self.col_used[c] |= bit;
        self.box_used[b] |= bit;
        self.cells[i] = value;
        // Swap-remove from the empty list.
        let pos = self.empty_pos[i] as usize;
        let last = *self.empties.last().expect("cell was empty");
        self.empties[pos] = last;
        self.empty_pos[last as usize] = pos as u16;
        self.empties.pop();
        self.empty_pos[i] = NO_CELL;
    }

    /// Empty filled cell `i` again.
    #[inline]
    pub fn remove(&mut self, i: usize) {
        let value = self.cells[i];
        debug_assert!(value != 0);
        let (r, c, b) = self.units_of(i);
        let bit = !(1u32 << (value - 1));
        self.row_used[r] &= bit;
        self.col_used[c] &= bit;
        self.box_used[b] &= bit;
        self.cells[i] = 0;
        self.empty_pos[i] = self.empties.len() as u16;
        self.empties.push(i as u16);
    }

    /// An empty cell with no legal value (the paper's "collision"), if any.
    pub fn dead_cell(&self) -> Option<usize> {
        self.empties
            .iter()
            .map(|&c| c as usize)
            .find(|&c| self.candidates(c) == 0)
    }

    /// The empty cell with the fewest candidates (first such in row-major order), with its
    /// candidate mask; `None` when the board is full.
    pub fn most_constrained(&self) -> Option<(usize, u32)> {
        let mut best: Option<(usize, u32)> = None;
        let mut best_count = u32::MAX;
        for &c in &self.empties {
            let m = self.candidates(c as usize);
            let k = m.count_ones();
            if k < best_count || (k == best_count && best.is_some_and(|(b, _)| (c as usize) < b)) {
                best = Some((c as usize, m));
                best_count = k;
            }
        }
        best
    }

    /// The current values as a [`Grid`].
    pub fn to_grid(&self) -> Grid {
        Grid::from_values(&self.cells).expect("board sizes are valid grid sizes")
    }

    /// The cells sharing a row, column or box with `i` (excluding `i`), written into `out`.
    pub fn peers(&self, i: usize, out: &mut Vec<u16>) {
        out.clear();
        let side = self.side as usize;
        let n = self.box_size as usize;
        let (r, c, _) = self.units_of(i);
        for k in 0..side {
            let a = r * side + k;
            if a != i {
                out.push(a as u16);
            }
            let b = k * side + c;
            if b != i {
                out.push(b as u16);
            }
        }
        let (br, bc) = (r / n * n, c / n * n);
        for rr in br..br + n {
            for cc in bc..bc + n {
                if rr != r && cc != c {
                    out.push((rr * side + cc) as u16);
                }
            }
        }
    }

    /// The cells of unit `u`: rows 0..side, columns side..2·side, boxes 2·side..3·side.
    pub fn unit_cells(&self, u: usize, out: &mut Vec<u16>) {
        out.clear();
        let side = self.side as usize;
        let n = self.box_size as usize;
        for k in 0..side {
            let cell = if u < side {
                u * side + k
            } else if u < 2 * side {
                k * side + (u - side)
            } else {
                let b = u - 2 * side;
                (b / n * n + k / n) * side + (b % n) * n + k % n
            };
            out.push(cell as u16);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_puzzle;
    use proptest::prelude::*;

    const EASY: &str =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

    #[test]
    fn clues_fill_the_masks() {
        let g = parse_puzzle(EASY).unwrap();
        let b = Board::new(&g).unwrap();
        assert_eq!(b.empty_count(), 81 - g.clue_count());
        // Row 0 holds 3, 2, 6.
        assert_eq!(b.masks().0[0], (1 << 2) | (1 << 1) | (1 << 5));
        assert_eq!(b.candidates(0) & (1 << 2), 0);
    }

    #[test]
    fn peers_and_units() {
        let b = Board::new(&Grid::empty(3)).unwrap();
        let mut p = Vec::new();
        b.peers(40, &mut p);
        assert_eq!(p.len(), 20);
        b.unit_cells(18 + 4, &mut p);
        assert_eq!(p, vec![30, 31, 32, 39, 40, 41, 48, 49, 50]);
    }

    proptest! {
        /// Placing a legal value then removing it restores every mask and the empty set.
        #[test]
        fn place_then_remove_restores(seed in any::<u64>(), moves in 1usize..60, n in 2usize..=4) {
            let mut rng = puzzle_engine::Rng::new(seed);
            let mut board = Board::new(&Grid::empty(n)).unwrap();
            for _ in 0..moves {
                let empties = board.empties().to_vec();
                if empties.is_empty() { break; }
                let cell = empties[rng.below(empties.len())] as usize;
                let cands = board.candidates(cell);
                if cands == 0 { continue; }
                let before = board.clone();
                let mut sorted_before = before.empties().to_vec();
                sorted_before.sort_unstable();
                let v = cands.trailing_zeros() as u8 + 1;
                board.place(cell, v);
                prop_assert_eq!(board.value(cell), v);
                prop_assert_eq!(board.candidates(cell) & (1 << (v - 1)), 0);
                board.remove(cell);
                prop_assert_eq!(board.masks(), before.masks());
                let mut sorted_after = board.empties().to_vec();
                sorted_after.sort_unstable();
                prop_assert_eq!(sorted_after, sorted_before);
                prop_assert_eq!(board.to_grid(), before.to_grid());
                board.place(cell, v);
            }
            // Every empty cell's position index is consistent.
            for (k, &c) in board.empties().iter().enumerate() {
                prop_assert_eq!(board.empty_pos[c as usize] as usize, k);
            }
        }
    }
}
