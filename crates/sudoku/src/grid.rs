//! Sudoku grids of any size n²×n² (4×4, 9×9, 16×16, 25×25): values, geometry, validity checks
//! and the two text layouts (one line of n⁴ characters, or a grid of n² lines).
//!
//! Symbols: `.` or `0` is an empty cell; values 1–9 are digits, values 10–25 the letters `A`–`P`
//! (either case). In the grid layout, `|`, `+`, `-`, spaces and tabs are separators and lines
//! made only of separators are skipped (see `docs/METHODS.md#sudoku-grids`).

use std::fmt;

/// The smallest and largest supported box size n (the grid is n²×n²).
pub const MIN_BOX: usize = 2;
/// See [`MIN_BOX`].
pub const MAX_BOX: usize = 5;

/// A Sudoku grid: `side = box_size²` rows and columns, values `1..=side`, `0` for empty.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    box_size: usize,
    cells: Vec<u8>,
}

/// Two clues of the same value in one row, column or box.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conflict {
    /// The repeated value.
    pub value: u8,
    /// First cell (row-major index).
    pub first: usize,
    /// Second cell.
    pub second: usize,
    /// "row", "column" or "box".
    pub unit: &'static str,
}

impl Grid {
    /// An empty grid with boxes of `box_size`×`box_size` (2..=5).
    pub fn empty(box_size: usize) -> Grid {
        assert!(
            (MIN_BOX..=MAX_BOX).contains(&box_size),
            "box size {box_size} out of range"
        );
        let side = box_size * box_size;
        Grid {
            box_size,
            cells: vec![0; side * side],
        }
    }

    /// A grid from row-major values (`0` empty). Errors if the length is not n⁴ for n in 2..=5
    /// or a value exceeds the side.
    pub fn from_values(values: &[u8]) -> Result<Grid, String> {
        let box_size = box_size_for_cells(values.len())
            .ok_or_else(|| format!("{} cells is not a square Sudoku size", values.len()))?;
        let side = box_size * box_size;
        if let Some(i) = values.iter().position(|&v| v as usize > side) {
            return Err(format!("value {} at cell {i} exceeds {side}", values[i]));
        }
        Ok(Grid {
            box_size,
            cells: values.to_vec(),
        })
    }

    /// Box size n.
    pub fn box_size(&self) -> usize {
        self.box_size
    }

    /// Side n² (9 for the classic grid).
    pub fn side(&self) -> usize {
        self.box_size * self.box_size
    }

    /// Number of cells n⁴.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Always false (a grid has at least 16 cells); for clippy's `len_without_is_empty`.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// Row-major values, `0` for empty.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// Value of cell `i` (0 = empty).
    pub fn get(&self, i: usize) -> u8 {
        self.cells[i]
    }

    /// Set cell `i` to `value` (0 clears it).
    pub fn set(&mut self, i: usize, value: u8) {
        assert!(value as usize <= self.side());
        self.cells[i] = value;
    }

    /// Number of filled cells.
    pub fn clue_count(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// Every cell filled.
    pub fn is_complete(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// Row of cell `i`.
    pub fn row_of(&self, i: usize) -> usize {
        i / self.side()
    }

    /// Column of cell `i`.
    pub fn col_of(&self, i: usize) -> usize {
        i % self.side()
    }

    /// Box of cell `i` (row-major box numbering).
    pub fn box_of(&self, i: usize) -> usize {
        let (r, c, n) = (self.row_of(i), self.col_of(i), self.box_size);
        (r / n) * n + c / n
    }

    /// The first pair of equal values sharing a row, column or box, if any.
    pub fn first_conflict(&self) -> Option<Conflict> {
        if !self.has_conflict() {
            return None;
        }
        for i in 0..self.cells.len() {
            let v = self.cells[i];
            if v == 0 {
                continue;
            }
            for j in (i + 1)..self.cells.len() {
                if self.cells[j] != v {
                    continue;
                }
                let unit = if self.row_of(i) == self.row_of(j) {
                    "row"
                } else if self.col_of(i) == self.col_of(j) {
                    "column"
                } else if self.box_of(i) == self.box_of(j) {
                    "box"
                } else {
                    continue;
                };
                return Some(Conflict {
                    value: v,
                    first: i,
                    second: j,
                    unit,
                });
            }
        }
        None
    }

    /// Some row, column or box repeats a value (one pass with bitmasks).
    pub fn has_conflict(&self) -> bool {
        let side = self.side();
        let mut rows = vec![0u32; side];
        let mut cols = vec![0u32; side];
        let mut boxes = vec![0u32; side];
        for (i, &v) in self.cells.iter().enumerate() {
            if v == 0 {
                continue;
            }
            let bit = 1u32 << (v - 1);
            let (r, c, b) = (self.row_of(i), self.col_of(i), self.box_of(i));
            if (rows[r] | cols[c] | boxes[b]) & bit != 0 {
                return true;
            }
            rows[r] |= bit;
            cols[c] |= bit;
            boxes[b] |= bit;
        }
        false
    }

    /// A complete grid without conflicts.
    pub fn is_valid_solution(&self) -> bool {
        self.is_complete() && self.first_conflict().is_none()
    }

    /// `self` is a valid complete grid that keeps every clue of `puzzle`.
    pub fn solves(&self, puzzle: &Grid) -> bool {
        self.box_size == puzzle.box_size
            && self.is_valid_solution()
            && puzzle
                .cells
                .iter()
                .zip(&self.cells)
                .all(|(&p, &s)| p == 0 || p == s)
    }

    /// The one-line layout: n⁴ symbols, `.` for empty.
    pub fn to_line(&self) -> String {
        self.cells.iter().map(|&v| symbol(v)).collect()
    }

    /// The grid layout: n² lines with `|` between boxes and `------+------` lines between
    /// bands (the classic newspaper look), `.` for empty.
    pub fn to_grid_text(&self) -> String {
        let (n, side) = (self.box_size, self.side());
        let mut out = String::new();
        for r in 0..side {
            if r > 0 && r % n == 0 {
                let segment = "-".repeat(2 * n);
                let parts: Vec<String> = (0..n).map(|_| segment.clone()).collect();
                out.push_str(parts.join("+").trim_end());
                out.push('\n');
            }
            let mut line = String::new();
            for c in 0..side {
                if c > 0 && c % n == 0 {
                    line.push_str("| ");
                }
                line.push(symbol(self.cells[r * side + c]));
                line.push(' ');
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }
}

impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_line())
    }
}

/// The box size n with n⁴ == `cells`, for n in 2..=5.
pub fn box_size_for_cells(cells: usize) -> Option<usize> {
    (MIN_BOX..=MAX_BOX).find(|n| n * n * n * n == cells)
}

/// The box size n with n² == `side`, for n in 2..=5.
pub fn box_size_for_side(side: usize) -> Option<usize> {
    (MIN_BOX..=MAX_BOX).find(|n| n * n == side)
}

/// The text symbol of a value: `.` for 0, digits, then `A`.. for 10..=25.
pub fn symbol(value: u8) -> char {
    match value {
        0 => '.',
        1..=9 => (b'0' + value) as char,
        _ => (b'A' + value - 10) as char,
    }
}

/// The value of a symbol (`.`/`0` → 0), or `None` if it is not a cell symbol.
pub fn value_of(ch: char) -> Option<u8> {
    match ch {
        '.' | '0' => Some(0),
        '1'..='9' => Some(ch as u8 - b'0'),
        'A'..='P' => Some(ch as u8 - b'A' + 10),
        'a'..='p' => Some(ch as u8 - b'a' + 10),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbols_round_trip() {
        for v in 0..=25u8 {
            assert_eq!(value_of(symbol(v)), Some(v));
        }
        assert_eq!(value_of('x'), None);
    }

    #[test]
    fn geometry_of_the_classic_grid() {
        let g = Grid::empty(3);
        assert_eq!(g.side(), 9);
        assert_eq!(g.box_of(80), 8);
        assert_eq!(g.box_of(30), 4);
        assert_eq!(g.row_of(30), 3);
        assert_eq!(g.col_of(30), 3);
    }

    #[test]
    fn conflicts_are_found_in_each_unit() {
        let mut g = Grid::empty(3);
        g.set(0, 5);
        g.set(8, 5);
        assert_eq!(g.first_conflict().map(|c| c.unit), Some("row"));
        g.set(8, 0);
        g.set(72, 5);
        assert_eq!(g.first_conflict().map(|c| c.unit), Some("column"));
        g.set(72, 0);
        g.set(20, 5);
        assert_eq!(g.first_conflict().map(|c| c.unit), Some("box"));
    }
}
