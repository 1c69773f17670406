//! # puzzle-sokogen
//!
//! Sokoban level generation with Monte Carlo Tree Search (Kartal, Sohre & Guy 2016), with every
//! optimization of the 2023 thesis (Koczorowski; see
//! `docs/METHODS.md#sokogen`), each switchable.
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
//! ## Choices where the thesis leaves details open
//!
//! - **Score normalization**: the score `(w_b·P_b + w_c·P_c + w_n·n)/k` is multiplied by
//!   `25 / (w·h)`, `w × h` being the generated board (the interior, without the wall border
//!   added on output), so that every size lands in the range of the 5×5 original. P_b counts
//!   only 3×3 windows fully inside that board (thesis §2.2.3); cells off the board count as
//!   obstacles for pushes and for the impossible-configuration rules.
//! - **Depth** is the number of actions applied since the root (phase 1 and 2).
//! - **Freeze-Level is forced** when no other phase-1 action is legal (e.g. 3×3 with one box),
//!   so that every playout ends; such a level may score 0.
//! - **Solutions**: generation pushes each box from its start cell to its goal, so the
//!   generation's pushes in their own order (with shortest walks between them) solve the level;
//!   a box moved once is removed by post-processing, and its push becomes a plain step.
//! - **Bootstrapping** splits the budget: `(1 − δ)` for the first search, `δ` for the
//!   bootstrapped one (the thesis's "start = 30·(1 − δ)").
//! - **Capacity**: boards up to 31×31; at most 48/96/160/256/512 boxes by board size tier.
//! - **Near-duplicates**: a level is dropped if a kept level with at least its score differs in
//!   at most `near_duplicate_cells` cells (default 2).
//! - **Constants the thesis does not give**: SP-MCTS `D = 0.1`, UCB-V reward bound `b = 2`;
//!   a safety cap of 1000 Move-Agent actions after Freeze.
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

pub mod aim;
pub mod backward;
pub mod bootstrap;
pub mod config;
pub mod experiment;
pub mod generate;
pub mod geometry;
pub mod playout;
pub mod render;
pub mod solution;
pub mod state;

pub use aim::Aim;
pub use config::{
    Bootstrap, BoxLimit, Congestion, GenConfig, MoveAgent, Rules, ScoreWeights, Selection,
};
pub use generate::{
    check_seed, generate, GenError, GenParams, GenSummary, GeneratedLevel, SeedLevel,
};
pub use state::{GenAction, GenState, Metrics, Phase};
