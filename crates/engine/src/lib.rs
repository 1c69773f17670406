//! # puzzle-engine
//!
//! The game-agnostic search engine of puzzle-search (see `docs/METHODS.md#engine`). It knows
//! no game: games
//! implement [`Game`] (legal actions into a caller's buffer, apply, terminal test, score), and
//! the searches work on any of them:
//!
//! - [`mcts`]: Monte Carlo Tree Search with UCB1, UCB1-Tuned, UCB-V and SP-MCTS selection,
//!   α-AMAF and RAVE, lazy ("bloom") or all-children expansion, node/time/iteration budgets,
//!   best-sequence results, per-move play with subtree reuse, restarts and root parallelism;
//! - [`nmcs`] and [`nrpa`]: Nested Monte Carlo Search and Nested Rollout Policy Adaptation;
//! - [`classic`]: BFS, DFS, depth-limited DFS, A*, weighted A*, IDA*, DBS;
//! - [`ga`]: a genetic algorithm framework;
//! - [`conformance`]: checks every game crate runs on its games;
//! - [`toy`]: small games with known optima.
//!
//! ```
//! use puzzle_engine::{mcts, Budget, UniformRandom, toy::BinaryTreeGame};
//! let game = BinaryTreeGame::new(16, 0xBEEF);
//! let cfg = mcts::MctsConfig { budget: Budget::iterations(20_000), seed: 7, ..Default::default() };
//! let result = mcts::search(&game, &cfg, &UniformRandom::default());
//! assert_eq!(result.best_score, 1.0);
//! ```

#![warn(missing_docs)]

pub mod bits;
pub mod budget;
pub mod classic;
pub mod conformance;
pub mod ga;
pub mod game;
pub mod games;
pub mod mcts;
pub mod memory;
pub mod nmcs;
pub mod nrpa;
pub mod playout;
pub mod rng;
pub mod text;
pub mod toy;

pub use budget::{Budget, Deadline, StopReason, WorkCounter, DEFAULT_MAX_NODES};
pub use game::{replay, FxHashMap, FxHashSet, FxLikeHasher, Game, HashedGame, UndoGame};
pub use playout::{PlayoutPolicy, UniformRandom};
pub use rng::Rng;
