//! # puzzle-sudoku
//!
//! Sudoku for puzzle-search (see `docs/METHODS.md#sudoku`; the Czech thesis, Malý 2010,
//! chapter 4):
//!
//! - [`grid`] and [`parse`]: n²×n² grids (4×4 to 25×25), the one-line and grid text layouts,
//!   errors naming line and column;
//! - [`board`]: candidate bookkeeping with one used-value mask per row, column and box;
//! - [`solver`] (with [`fast9`]): the exact solver, constraint propagation on band bitboards plus
//!   branching, counting solutions up to a limit;
//! - [`mcts`]: the thesis's MCTS solver (one-cell expansion, random / pseudo-random playouts,
//!   reward `movecount / (movecount + unsolved)`, restarts, UCB1 / UCB1-Tuned, α-AMAF), plus
//!   the most-constrained cell choice for tree and playouts as an extension;
//! - [`generator`]: puzzles with a unique solution and a difficulty estimate;
//! - [`play`] and [`hint`]: a grid being filled in by a player (candidates, clashes) and hints
//!   (naked and hidden singles, else the solver's value), for the workbench.

#![warn(missing_docs)]

pub mod board;
pub mod fast9;
pub mod generator;
pub mod grid;
pub mod hint;
pub mod mcts;
pub mod parse;
pub mod play;
pub mod solver;
pub mod spec;

pub use board::Board;
pub use grid::Grid;
pub use parse::{parse_puzzle, parse_puzzles, ParseError, ParsedPuzzle};
pub use solver::{solve, solve_exact, ExactLimits, ExactOutcome};
