//! Sokoban rules, XSB/LURD formats, deadlocks, A*/IDA*/BFS/greedy and genetic solvers
//! (see `docs/METHODS.md#sokoban`; the genetic solver after Nezvalová's paper).
//!
//! - [`level`]: the [`Level`] type and the XSB format ([`parse_xsb`], [`Level::to_xsb`]);
//! - [`lurd`]: LURD solutions and [`replay`], which verifies a solution;
//! - [`board`]: the compiled static board (compact cells, dead squares, push distances,
//!   Zobrist keys); [`position`]: boxes bitset, reachability, pushes, apply/undo;
//! - [`deadlock`]: freeze and closed-diagonal deadlocks; [`corral`]: PI-corral pruning;
//!   [`corraldl`]: corral deadlocks by a bounded search on the corral's boxes; [`bipartite`]:
//!   box-to-goal matching with the boxes frozen on goals as walls; [`sidematch`]: the same
//!   matching with the player's side of each box; [`matching`]: the
//!   Hungarian lower bound;
//! - [`goalroom`]: goal rooms, their fill order (reverse search) and goal macros; [`tunnel`]:
//!   tunnel macros; [`packing`]: the greedy search's packing-order penalty (the last three only
//!   in the any-solution mode); [`features`]: the feature cells of the any-solution search's
//!   FESS-style cycling;
//! - [`solver`]: BFS, A*, IDA*, greedy over pushes ([`solve`]); [`genetic`]: the paper's
//!   reactive-string GA; [`outcome`]: the raw result both return; [`game`]: Sokoban as an
//!   engine `Game`.

#![warn(missing_docs)]

pub mod bipartite;
pub mod board;
pub mod cells;
pub mod corral;
pub mod corraldl;
pub mod deadlock;
pub mod difficulty;
pub mod dir;
pub mod features;
pub mod fess;
pub mod game;
pub mod genetic;
pub mod goalroom;
pub mod level;
pub mod lurd;
pub mod matching;
pub mod outcome;
pub mod packing;
pub mod play;
pub mod position;
pub mod sidematch;
pub mod solver;
pub mod spec;
pub mod tunnel;

pub use board::Board;
pub use dir::Dir;
pub use game::SokobanGame;
pub use level::{parse_xsb, Level, XsbError, XsbProblem};
pub use lurd::{parse_lurd, replay, write_lurd, Replay, ReplayError};
pub use play::{DeadlockTest, Play};
pub use solver::{solve, solve_threads, solve_with, Algorithm, PortfolioConfig, Solution};
