//! Sokoban rules, XSB/LURD formats, deadlocks, A*/IDA*/BFS/greedy and genetic solvers
//! (SPEC §F, the paper `sokoban-genetic-solver.cs.txt`).
//!
//! - [`level`]: the [`Level`] type and the XSB format ([`parse_xsb`], [`Level::to_xsb`]);
//! - [`lurd`]: LURD solutions and [`replay`], which verifies a solution.

pub mod level;
pub mod lurd;

pub use level::{parse_xsb, Level, XsbError, XsbProblem};
pub use lurd::{replay, Dir, Replay, ReplayError};
