//! # puzzle-bait
//!
//! GVGAI's game Bait, exactly as the GVGAI framework runs it (see `docs/METHODS.md#bait`; the rules
//! in `data/bait/bait.txt`), and the agents of the Chinese report (Zhang,
//! `docs/METHODS.md#ref-zhang-bait`: DFS, depth-limited DFS, A*, MCTS) plus an offline
//! shortest-win planner and an improved MCTS, each playing under GVGAI's per-move CPU budget
//! (40 ms).
//!
//! - [`level`]: GVGAI level text with Bait's legend, clear errors, levels up to 64×64 in the
//!   narrowest bitset width that holds them ([`AnyLevel`]);
//! - [`state`]: the compact state (avatar, key flag, bitsets), one tick of the rules, hashing;
//! - [`heuristic`]: the paper's Manhattan heuristic, walking distances, the dead-position test;
//! - [`astar`]: resumable A* (per-move agent and offline planner);
//! - [`agents`]: the agents and the game loop that times every move;
//! - [`play`]: a game played by hand (the workbench's Bait page): an action string replayed.

#![warn(missing_docs)]

pub mod agents;
pub mod astar;
pub mod clock;
pub mod generate;
pub mod heuristic;
pub mod level;
pub mod play;
pub mod spec;
pub mod state;

pub use agents::{
    default_max_nodes, play_game, play_game_timed, AgentKind, GameConfig, MoveTime, Outcome,
};
pub use level::{
    builtin_level, AnyLevel, Level, LevelError, LevelVisitor, BUILTIN_LEVELS, MAX_CELLS, WIDTHS,
};
pub use state::{actions_to_string, parse_actions, Action, BaitState, Status, MAX_TICKS};
