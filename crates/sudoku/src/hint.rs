//! Hints for a player (the workbench's Sudoku page): a cell that is forced now and why (a naked
//! single: one candidate left; a hidden single: the only place for a value in a row, column or
//! box); otherwise the exact solver's value for the cell with the fewest candidates. A grid
//! with clashing cells, or one that no longer has a solution, gets that said instead.

use crate::grid::Grid;
use crate::play::{mask_values, play_state};
use crate::solver::{solve_exact_until, ExactLimits};
use std::sync::atomic::{AtomicBool, Ordering};

/// A row, column or box.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// A row.
    Row,
    /// A column.
    Column,
    /// A box.
    Box,
}

impl Unit {
    /// `row`, `column` or `box`.
    pub fn name(self) -> &'static str {
        match self {
            Unit::Row => "row",
            Unit::Column => "column",
            Unit::Box => "box",
        }
    }
}

/// Why a hinted cell holds its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The value is the cell's only candidate.
    NakedSingle,
    /// The cell is the only place for the value in this unit (`index` 1-based; boxes numbered
    /// row by row).
    HiddenSingle {
        /// The unit.
        unit: Unit,
        /// Its 1-based number.
        index: usize,
    },
    /// Nothing is forced by singles: the exact solver's value for the cell with the fewest
    /// candidates (`candidates` of them).
    Solver {
        /// How many candidates the cell has.
        candidates: usize,
        /// The puzzle (from this grid) has exactly one solution.
        unique: bool,
    },
}

/// A hint for a grid being filled in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Hint {
    /// Write `value` in `cell`, because of `reason`.
    Place {
        /// Row-major cell index.
        cell: usize,
        /// The value.
        value: u8,
        /// Why.
        reason: Reason,
    },
    /// These filled cells clash with a peer: fix them first.
    Conflicts {
        /// The clashing cells, ascending.
        cells: Vec<usize>,
    },
    /// The grid has no solution any more; `wrong` are the entries that differ from the
    /// puzzle's (first) solution (empty when the puzzle itself has none).
    NoSolution {
        /// The wrong entries, ascending.
        wrong: Vec<usize>,
    },
    /// Every cell is filled and nothing clashes.
    Solved,
}

impl Hint {
    /// One sentence for the player, cells named by row and column (1-based).
    pub fn message(&self, side: usize) -> String {
        let at = |i: usize| format!("row {}, column {}", i / side + 1, i % side + 1);
        let list = |cells: &[usize]| cells.iter().map(|&c| at(c)).collect::<Vec<_>>().join("; ");
        match self {
            Hint::Place {
                cell,
                value,
                reason,
            } => match reason {
                Reason::NakedSingle => format!(
                    "{}: {value} is its only candidate (naked single).",
                    capitalize(&at(*cell))
                ),
                Reason::HiddenSingle { unit, index } => format!(
                    "{}: the only place for {value} in {} {index} (hidden single).",
                    capitalize(&at(*cell)),
                    unit.name()
                ),
                Reason::Solver { candidates, unique } => format!(
                    "No single is forced; {} has the fewest candidates ({candidates}) and the \
                     solver's {} solution puts {value} there.",
                    at(*cell),
                    if *unique { "unique" } else { "first" }
                ),
            },
            Hint::Conflicts { cells } => format!("These cells clash: {}.", list(cells)),
            Hint::NoSolution { wrong } if wrong.is_empty() => {
                "The puzzle has no solution.".to_string()
            }
            Hint::NoSolution { wrong } => format!(
                "No solution from here: {} {} wrong.",
                list(wrong),
                if wrong.len() == 1 { "is" } else { "are" }
            ),
            Hint::Solved => "Solved: nothing left to fill.".to_string(),
        }
    }
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// The first naked single in row-major order.
fn naked_single(candidates: &[u32]) -> Option<(usize, u8)> {
    candidates
        .iter()
        .position(|&m| m != 0 && m & (m - 1) == 0)
        .map(|i| (i, candidates[i].trailing_zeros() as u8 + 1))
}

/// The first hidden single: rows, then columns, then boxes; values ascending in each.
fn hidden_single(grid: &Grid, candidates: &[u32]) -> Option<(usize, u8, Unit, usize)> {
    let side = grid.side();
    for (unit, of) in [
        (Unit::Row, Grid::row_of as fn(&Grid, usize) -> usize),
        (Unit::Column, Grid::col_of),
        (Unit::Box, Grid::box_of),
    ] {
        for u in 0..side {
            let cells: Vec<usize> = (0..grid.len()).filter(|&i| of(grid, i) == u).collect();
            for v in 1..=side as u8 {
                if cells.iter().any(|&i| grid.get(i) == v) {
                    continue;
                }
                let mut places = cells
                    .iter()
                    .filter(|&&i| candidates[i] & (1 << (v - 1)) != 0);
                if let (Some(&i), None) = (places.next(), places.next()) {
                    return Some((i, v, unit, u + 1));
                }
            }
        }
    }
    None
}

/// A hint for `grid` (the givens of `puzzle` plus the player's entries).
pub fn hint(puzzle: &Grid, grid: &Grid) -> Hint {
    hint_until(puzzle, grid, None).expect("a hint without a stop flag is never stopped")
}

/// [`hint`], given up (`None`) once `stop` is raised while the exact solver searches (a server
/// stops a hint whose client went away, or at its time cap).
pub fn hint_until(puzzle: &Grid, grid: &Grid, stop: Option<&AtomicBool>) -> Option<Hint> {
    let stopped = || stop.is_some_and(|s| s.load(Ordering::Relaxed));
    let state = play_state(puzzle, grid);
    if !state.conflicts.is_empty() {
        return Some(Hint::Conflicts {
            cells: state.conflicts,
        });
    }
    if state.solved {
        return Some(Hint::Solved);
    }
    let now = solve_exact_until(grid, ExactLimits::default(), stop);
    if stopped() {
        return None;
    }
    let Some(solution) = &now.solution else {
        let of_puzzle = solve_exact_until(puzzle, ExactLimits::default(), stop);
        if stopped() {
            return None;
        }
        let wrong = of_puzzle
            .solution
            .map(|s| {
                (0..grid.len())
                    .filter(|&i| puzzle.get(i) == 0 && grid.get(i) != 0 && grid.get(i) != s.get(i))
                    .collect()
            })
            .unwrap_or_default();
        return Some(Hint::NoSolution { wrong });
    };
    if let Some((cell, value)) = naked_single(&state.candidates) {
        return Some(Hint::Place {
            cell,
            value,
            reason: Reason::NakedSingle,
        });
    }
    if let Some((cell, value, unit, index)) = hidden_single(grid, &state.candidates) {
        return Some(Hint::Place {
            cell,
            value,
            reason: Reason::HiddenSingle { unit, index },
        });
    }
    let (cell, mask) = state
        .candidates
        .iter()
        .enumerate()
        .filter(|&(i, _)| grid.get(i) == 0)
        .min_by_key(|&(i, m)| (m.count_ones(), i))
        .map(|(i, &m)| (i, m))
        .expect("an unsolved conflict-free grid has an empty cell");
    Some(Hint::Place {
        cell,
        value: solution.get(cell),
        reason: Reason::Solver {
            candidates: mask_values(mask).len(),
            unique: now.is_unique(),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_puzzle;
    use crate::play::parse_entries;
    use crate::solver::solve;

    const EASY: &str =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
    /// From Norvig's "hardest" list: no single at the start.
    const HARD: &str =
        "....7..2.8.......6.1.2.5...9.54....8.........3....85.1...3.2.8.4.......9.7..6....";

    fn entries(puzzle: &Grid, cells: &[(usize, u8)]) -> Grid {
        let mut line: Vec<char> = ".".repeat(puzzle.len()).chars().collect();
        for &(i, v) in cells {
            line[i] = char::from(b'0' + v);
        }
        parse_entries(puzzle, &line.into_iter().collect::<String>()).unwrap()
    }

    #[test]
    fn a_forced_cell_agrees_with_the_solution_and_is_explained() {
        let puzzle = parse_puzzle(EASY).unwrap();
        let solution = solve(&puzzle).unwrap();
        let mut grid = puzzle.clone();
        let mut reasons = Vec::new();
        // Following the hints fills the whole (singles-only) puzzle.
        loop {
            match hint(&puzzle, &grid) {
                Hint::Place {
                    cell,
                    value,
                    reason,
                } => {
                    assert_eq!(grid.get(cell), 0);
                    assert_eq!(value, solution.get(cell), "cell {cell}");
                    assert!(
                        !matches!(reason, Reason::Solver { .. }),
                        "EASY needs no solver"
                    );
                    reasons.push(reason);
                    grid.set(cell, value);
                }
                Hint::Solved => break,
                other => panic!("unexpected {other:?}"),
            }
        }
        assert_eq!(grid, solution);
        assert!(reasons.contains(&Reason::NakedSingle));
        let h = hint(&puzzle, &puzzle);
        assert!(h.message(9).contains("single"), "{}", h.message(9));
    }

    #[test]
    fn a_hidden_single_is_found_where_no_naked_single_is() {
        // EASY's start has hidden singles: the first found is right and really hidden.
        let puzzle = parse_puzzle(EASY).unwrap();
        let state = play_state(&puzzle, &puzzle);
        let found = hidden_single(&puzzle, &state.candidates).expect("EASY has hidden singles");
        let (cell, value, unit, index) = found;
        let solution = solve(&puzzle).unwrap();
        assert_eq!(solution.get(cell), value);
        let of = match unit {
            Unit::Row => puzzle.row_of(cell),
            Unit::Column => puzzle.col_of(cell),
            Unit::Box => puzzle.box_of(cell),
        };
        assert_eq!(of + 1, index);
        // No other cell of that unit can hold the value.
        for i in 0..81 {
            let same = match unit {
                Unit::Row => puzzle.row_of(i),
                Unit::Column => puzzle.col_of(i),
                Unit::Box => puzzle.box_of(i),
            } == of;
            if same && i != cell {
                assert_eq!(state.candidates[i] & (1 << (value - 1)), 0);
            }
        }
        let message = Hint::Place {
            cell: 10,
            value: 4,
            reason: Reason::HiddenSingle {
                unit: Unit::Box,
                index: 1,
            },
        }
        .message(9);
        assert_eq!(
            message,
            "Row 2, column 2: the only place for 4 in box 1 (hidden single)."
        );
    }

    #[test]
    fn without_singles_the_solver_fills_the_most_constrained_cell() {
        let puzzle = parse_puzzle(HARD).unwrap();
        let state = play_state(&puzzle, &puzzle);
        assert!(naked_single(&state.candidates).is_none());
        assert!(hidden_single(&puzzle, &state.candidates).is_none());
        let solution = solve(&puzzle).unwrap();
        match hint(&puzzle, &puzzle) {
            Hint::Place {
                cell,
                value,
                reason: Reason::Solver { candidates, unique },
            } => {
                assert_eq!(value, solution.get(cell));
                assert!(unique);
                let fewest = (0..81)
                    .filter(|&i| puzzle.get(i) == 0)
                    .map(|i| state.candidates[i].count_ones())
                    .min()
                    .unwrap();
                assert_eq!(candidates as u32, fewest);
                assert_eq!(state.candidates[cell].count_ones(), fewest);
            }
            other => panic!("expected a solver hint, got {other:?}"),
        }
    }

    #[test]
    fn clashes_and_wrong_entries_are_named() {
        let puzzle = parse_puzzle(EASY).unwrap();
        let clash = entries(&puzzle, &[(0, 3)]);
        assert_eq!(hint(&puzzle, &clash), Hint::Conflicts { cells: vec![0, 2] });
        let solution = solve(&puzzle).unwrap();
        // Row 1 column 1 is 4 in the solution; 5 is a candidate but wrong.
        assert_eq!(solution.get(0), 4);
        let wrong = entries(&puzzle, &[(0, 5)]);
        let h = hint(&puzzle, &wrong);
        assert_eq!(h, Hint::NoSolution { wrong: vec![0] });
        assert_eq!(
            h.message(9),
            "No solution from here: row 1, column 1 is wrong."
        );
        assert_eq!(hint(&puzzle, &solution), Hint::Solved);
    }

    #[test]
    fn a_raised_stop_flag_gives_up_a_hint_that_needs_a_search() {
        // An empty 16×16 grid: no single, so the hint asks the generic solver, which guesses.
        let empty = parse_puzzle(&".".repeat(256)).unwrap();
        let raised = AtomicBool::new(true);
        assert_eq!(hint_until(&empty, &empty, Some(&raised)), None);
        let lowered = AtomicBool::new(false);
        assert!(matches!(
            hint_until(&empty, &empty, Some(&lowered)),
            Some(Hint::Place { .. })
        ));
    }
}
