//! The exact solver (see `docs/METHODS.md#sudoku-exact`; constraint propagation and search, to
//! verify answers and as the speed reference): solution counting up to a limit
//! (uniqueness checks), a guess budget, and the number of guesses as the difficulty measure.
//!
//! 9×9 grids go to the band-bitboard solver in [`crate::fast9`]; other sizes to a generic
//! cell-mask solver (naked and hidden singles, most-constrained-cell branching).

use crate::board::Board;
use crate::fast9;
use crate::grid::Grid;
use std::sync::atomic::{AtomicBool, Ordering};

/// Limits of an exact search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExactLimits {
    /// Stop after this many solutions (2 decides uniqueness).
    pub max_solutions: usize,
    /// Stop after this many guesses (branches): the node budget.
    pub max_guesses: u64,
}

impl Default for ExactLimits {
    /// Up to 2 solutions (uniqueness), at most 10⁸ guesses.
    fn default() -> Self {
        ExactLimits {
            max_solutions: 2,
            max_guesses: 100_000_000,
        }
    }
}

/// What an exact search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExactOutcome {
    /// Solutions found (at most `max_solutions`).
    pub solutions: usize,
    /// The first solution.
    pub solution: Option<Grid>,
    /// Branches tried: 0 means propagation alone solved it (the difficulty estimate).
    pub guesses: u64,
    /// The guess budget ran out: `solutions` is a lower bound.
    pub aborted: bool,
}

impl ExactOutcome {
    /// Exactly one solution, proved.
    pub fn is_unique(&self) -> bool {
        self.solutions == 1 && !self.aborted
    }
}

/// Solve `puzzle` exactly within `limits`.
pub fn solve_exact(puzzle: &Grid, limits: ExactLimits) -> ExactOutcome {
    solve_exact_until(puzzle, limits, None)
}

/// [`solve_exact`], ended early (as `aborted`) once `stop` is raised. The generic solver polls it
/// at every guess; a 9×9 grid goes to the band-bitboard solver, which takes milliseconds at
/// most, and is not interrupted.
pub fn solve_exact_until(
    puzzle: &Grid,
    limits: ExactLimits,
    stop: Option<&AtomicBool>,
) -> ExactOutcome {
    if puzzle.side() == 9 {
        let mut cells = [0u8; 81];
        cells.copy_from_slice(puzzle.cells());
        let o = fast9::solve9(&cells, limits.max_solutions, limits.max_guesses);
        return ExactOutcome {
            solutions: o.solutions,
            solution: o
                .first
                .map(|s| Grid::from_values(&s).expect("81 values are a 9×9 grid")),
            guesses: o.guesses,
            aborted: o.aborted,
        };
    }
    generic(puzzle, limits, stop)
}

/// The first solution, if any (unlimited solutions not needed: stops at the first).
pub fn solve(puzzle: &Grid) -> Option<Grid> {
    solve_exact(
        puzzle,
        ExactLimits {
            max_solutions: 1,
            ..ExactLimits::default()
        },
    )
    .solution
}

/// The generic solver for any size (also used to cross-check the 9×9 one in tests).
pub fn solve_generic(puzzle: &Grid, limits: ExactLimits) -> ExactOutcome {
    generic(puzzle, limits, None)
}

fn generic(puzzle: &Grid, limits: ExactLimits, stop: Option<&AtomicBool>) -> ExactOutcome {
    let mut out = ExactOutcome {
        solutions: 0,
        solution: None,
        guesses: 0,
        aborted: false,
    };
    let Ok(board) = Board::new(puzzle) else {
        return out;
    };
    let mut scratch = Vec::new();
    generic_search(board, &limits, stop, &mut out, &mut scratch);
    out
}

/// Fill forced cells (naked and hidden singles). `false`: contradiction.
fn generic_propagate(board: &mut Board, unit: &mut Vec<u16>) -> bool {
    let side = board.side();
    loop {
        let mut progress = false;
        // Naked singles and dead cells.
        let mut k = 0;
        while k < board.empty_count() {
            let c = board.empties()[k] as usize;
            let m = board.candidates(c);
            if m == 0 {
                return false;
            }
            if m & (m - 1) == 0 {
                board.place(c, m.trailing_zeros() as u8 + 1);
                progress = true;
            } else {
                k += 1;
            }
        }
        // Hidden singles.
        for u in 0..3 * side {
            board.unit_cells(u, unit);
            let (mut once, mut twice, mut placed) = (0u32, 0u32, 0u32);
            for &c in unit.iter() {
                let v = board.value(c as usize);
                if v != 0 {
                    placed |= 1 << (v - 1);
                    continue;
                }
                let m = board.candidates(c as usize);
                twice |= once & m;
                once |= m;
            }
            let full = if side == 32 {
                u32::MAX
            } else {
                (1u32 << side) - 1
            };
            if (once | placed) != full {
                return false; // a value has no place in this unit
            }
            let mut single = once & !twice & !placed;
            while single != 0 {
                let v = single.trailing_zeros();
                single &= single - 1;
                let Some(&c) = unit.iter().find(|&&c| {
                    board.value(c as usize) == 0 && board.candidates(c as usize) >> v & 1 == 1
                }) else {
                    return false;
                };
                board.place(c as usize, v as u8 + 1);
                progress = true;
            }
        }
        if !progress {
            return true;
        }
    }
}

fn generic_search(
    mut board: Board,
    limits: &ExactLimits,
    stop: Option<&AtomicBool>,
    out: &mut ExactOutcome,
    unit: &mut Vec<u16>,
) {
    if !generic_propagate(&mut board, unit) {
        return;
    }
    let Some((cell, mut values)) = board.most_constrained() else {
        out.solutions += 1;
        if out.solution.is_none() {
            out.solution = Some(board.to_grid());
        }
        return;
    };
    while values != 0 {
        if out.solutions >= limits.max_solutions || out.aborted {
            return;
        }
        if out.guesses >= limits.max_guesses || stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            out.aborted = true;
            return;
        }
        let v = values.trailing_zeros() as u8 + 1;
        values &= values - 1;
        out.guesses += 1;
        let mut next = board.clone();
        next.place(cell, v);
        generic_search(next, limits, stop, out, unit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_puzzle;

    #[test]
    fn four_by_four_and_sixteen_by_sixteen() {
        let g = parse_puzzle("1.3..4...3..2...").unwrap();
        let o = solve_exact(&g, ExactLimits::default());
        assert!(o.solutions >= 1);
        assert!(o.solution.unwrap().solves(&g));
        let empty16 = Grid::empty(4);
        let o = solve_exact(&empty16, ExactLimits::default());
        assert_eq!(o.solutions, 2);
        assert!(o.solution.unwrap().is_valid_solution());
    }

    #[test]
    fn guess_budget_is_respected() {
        let o = solve_exact(
            &Grid::empty(5),
            ExactLimits {
                max_solutions: 1_000_000,
                max_guesses: 50,
            },
        );
        assert!(o.aborted);
        assert!(o.guesses <= 50);
    }
}
