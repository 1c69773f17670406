//! One module per game (each owned by that game's work) plus the engine's own benchmarks.

pub mod bait;
pub mod engine;
pub mod merge;
pub mod samegame;
pub mod serve;
pub mod sokoban;
pub mod sokogen;
pub mod sudoku;
