//! Puzzle generation (see `docs/METHODS.md#sudoku-generator`): puzzles with exactly one solution,
//! minimal (no clue can be removed without losing uniqueness), with a difficulty estimate from the
//! exact solver.
//!
//! Method: add random legal clues to an empty grid, keeping only clues that leave at least one
//! solution, until the solution is unique; then try removing each clue in random order, keeping
//! the removal whenever the solution stays unique. Every step is decided by the exact solver.

use crate::grid::Grid;
use crate::solver::{solve_exact, ExactLimits};
use crate::Board;
use puzzle_engine::Rng;

/// A difficulty class from the exact solver's guesses (branches needed to solve the puzzle and
/// prove its uniqueness).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Difficulty {
    /// Singles (naked/hidden) and locked candidates suffice: no guess.
    Easy,
    /// 1–5 guesses.
    Medium,
    /// 6–50 guesses.
    Hard,
    /// More than 50 guesses.
    Extreme,
}

impl Difficulty {
    /// The class of a guess count.
    pub fn from_guesses(guesses: u64) -> Difficulty {
        match guesses {
            0 => Difficulty::Easy,
            1..=5 => Difficulty::Medium,
            6..=50 => Difficulty::Hard,
            _ => Difficulty::Extreme,
        }
    }

    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
            Difficulty::Extreme => "extreme",
        }
    }
}

/// A generated puzzle with its (verified) unique solution and difficulty estimate.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The puzzle.
    pub puzzle: Grid,
    /// Its unique solution.
    pub solution: Grid,
    /// Guesses the exact solver needed (solve + uniqueness proof).
    pub guesses: u64,
    /// Class of `guesses`.
    pub difficulty: Difficulty,
}

/// Generate one minimal unique-solution puzzle with boxes of `box_size` (3: the classic 9×9).
/// Deterministic for a seed. Returns `None` only if the exact solver's guess budget runs out
/// (large grids).
pub fn generate(box_size: usize, rng: &mut Rng) -> Option<Generated> {
    let limits = ExactLimits {
        max_solutions: 2,
        max_guesses: 2_000_000,
    };
    let mut grid = Grid::empty(box_size);
    let cells = grid.len();
    // Phase 1: random clues until unique.
    loop {
        let o = solve_exact(&grid, limits);
        if o.aborted {
            return None;
        }
        if o.solutions == 1 {
            break;
        }
        let board = Board::new(&grid).ok()?;
        let empties = board.empties();
        let cell = empties[rng.below(empties.len())] as usize;
        let mut m = board.candidates(cell);
        // Try the candidates in random order until one keeps a solution.
        let mut placed = false;
        while m != 0 {
            let mut pick = m;
            for _ in 0..rng.below(m.count_ones() as usize) {
                pick &= pick - 1;
            }
            let v = pick.trailing_zeros() as u8 + 1;
            m &= !(1 << (v - 1));
            grid.set(cell, v);
            let o = solve_exact(&grid, limits);
            if o.solutions >= 1 {
                placed = true;
                break;
            }
            grid.set(cell, 0);
        }
        if !placed {
            return None; // cannot happen while the grid has a solution
        }
    }
    // Phase 2: remove clues while uniqueness holds.
    let mut order: Vec<usize> = (0..cells).filter(|&c| grid.get(c) != 0).collect();
    rng.shuffle(&mut order);
    for c in order {
        let v = grid.get(c);
        grid.set(c, 0);
        let o = solve_exact(&grid, limits);
        if !o.is_unique() {
            grid.set(c, v);
        }
    }
    let o = solve_exact(&grid, limits);
    let solution = o.solution.clone()?;
    if !o.is_unique() || !solution.solves(&grid) {
        return None;
    }
    Some(Generated {
        puzzle: grid,
        solution,
        guesses: o.guesses,
        difficulty: Difficulty::from_guesses(o.guesses),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_puzzles_are_unique_and_minimal() {
        let mut rng = Rng::new(11);
        for _ in 0..3 {
            let g = generate(3, &mut rng).expect("9×9 generation succeeds");
            let o = solve_exact(&g.puzzle, ExactLimits::default());
            assert!(o.is_unique());
            assert_eq!(o.solution.as_ref(), Some(&g.solution));
            assert!(g.solution.solves(&g.puzzle));
            // Minimal: removing any clue gives several solutions.
            for c in 0..81 {
                if g.puzzle.get(c) != 0 {
                    let mut fewer = g.puzzle.clone();
                    fewer.set(c, 0);
                    assert_eq!(solve_exact(&fewer, ExactLimits::default()).solutions, 2);
                }
            }
        }
    }

    #[test]
    fn generation_is_deterministic_and_works_for_4x4() {
        let a = generate(3, &mut Rng::new(5)).unwrap();
        let b = generate(3, &mut Rng::new(5)).unwrap();
        assert_eq!(a.puzzle, b.puzzle);
        let small = generate(2, &mut Rng::new(5)).unwrap();
        assert!(small.solution.solves(&small.puzzle));
    }
}
