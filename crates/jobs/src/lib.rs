//! The job layer of puzzle-search: every job the CLI and the workbench server run (solve one
//! item, solve a set, generate, play an agent, run an experiment, benchmark) as
//!
//! 1. a request struct (serde; its `Default` is the CLI's default),
//! 2. one function that runs it under a [`puzzle_engine::Budget`] and a stop flag,
//! 3. a stream of typed events ([`EventKind`]: progress, result, summary) handed to an
//!    [`Emit`] callback as they happen.
//!
//! The CLI turns events into text or JSON Lines; the server turns them into server-sent events.
//! A `result` or `summary` event serializes to exactly the CLI's `--json` line, so scripts see
//! one format whichever front end they use. Every solution or level in an event was replayed on
//! the game's own rules before it was emitted.

#![warn(missing_docs)]

pub mod bait;
pub mod data;
pub mod engine;
pub mod event;
pub mod games;
pub mod job;
pub mod limits;
pub mod merge;
pub mod options;
pub mod plot;
pub mod registry;
pub mod samegame;
pub mod shard;
pub mod sokoban;
pub mod sokoban_rate;
pub mod sokogen;
pub mod sudoku;
mod ticker;

pub use event::{Emit, EventKind, ItemProgress, JobEvent, Signature};
pub use job::{Job, JobInfo};
pub use limits::{Limit, Limits};
pub use registry::{JobRequest, JsonEmit};
pub use shard::{Items, Shard};
