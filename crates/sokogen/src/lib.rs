//! # puzzle-sokogen
//!
//! Sokoban level generation with Monte Carlo Tree Search (Kartal, Sohre & Guy 2016), with every
//! optimization of the 2023 thesis `sokoban-generation-mcts.de.txt` (SPEC §B), each switchable.
//!
//! Generation is a single-player game searched by the engine's MCTS ([`puzzle_engine::mcts`]):
//! the root is a board of walls with the player's start; phase-1 actions delete walls, place
//! boxes and freeze the board; phase-2 actions push the boxes; the terminal action turns the
//! boxes' cells into goals, post-processes and scores the level. A level is solvable by
//! construction: the generation's pushes are its solution, which is replayed before any level is
//! handed out.
//!
//! - [`state`]: the game ([`GenState`], [`GenAction`]) and the score ([`state::score_level`]);
//! - [`config`]: rules and optimizations ([`GenConfig`]; `Default` = the thesis's final one);
//! - [`playout`], [`bootstrap`]: playout policies and the bootstrapping wrapper game;
//! - [`solution`]: the XSB level with a wall border and its verified LURD solution;
//! - [`generate()`]: the driver (threads, level set, near-duplicates, bootstrapping);
//! - [`render`]: SVG/PNG pictures of levels and SVG plots of the best score over time;
//! - [`experiment`]: the thesis's Tables 3.1–3.8.
//!
//! ```
//! use puzzle_sokogen::{generate, GenParams};
//! use puzzle_engine::Budget;
//! let params = GenParams { width: 5, height: 5, budget: Budget::iterations(20_000), ..GenParams::default() };
//! let mut levels = Vec::new();
//! let summary = generate(&params, &mut |l: &puzzle_sokogen::GeneratedLevel| {
//!     levels.push(l.clone());
//!     Ok(())
//! }).unwrap();
//! assert!(summary.best_score > 0.0);
//! assert!(levels.iter().all(|l| puzzle_sokoban::replay(&l.level, &l.solution).unwrap().solved));
//! ```

#![warn(missing_docs)]

pub mod bits;
pub mod bootstrap;
pub mod config;
pub mod experiment;
pub mod generate;
pub mod geometry;
pub mod playout;
pub mod render;
pub mod solution;
pub mod state;

pub use config::{
    Bootstrap, BoxLimit, Congestion, GenConfig, MoveAgent, Rules, ScoreWeights, Selection,
};
pub use generate::{generate, GenError, GenParams, GenSummary, GeneratedLevel};
pub use state::{GenAction, GenState, Metrics, Phase};
