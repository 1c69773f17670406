//! Events: what a running job reports, and the callback that receives them.

use serde::Serialize;

/// What an event reports; the server uses [`EventKind::name`] as the server-sent event's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// How far the job is (for progress bars and live charts); never printed by `--json`.
    Progress,
    /// One result record: a solved item, a kept level, a table column.
    Result,
    /// The closing record of a run or of one set.
    Summary,
}

impl EventKind {
    /// `progress`, `result` or `summary`.
    pub fn name(self) -> &'static str {
        match self {
            EventKind::Progress => "progress",
            EventKind::Result => "result",
            EventKind::Summary => "summary",
        }
    }
}

/// An event of some job: it serializes to its record (for `result` and `summary`: exactly the
/// CLI's `--json` line) and says what kind it is.
pub trait JobEvent: Serialize {
    /// The event's kind.
    fn kind(&self) -> EventKind;
}

/// The receiver of a job's events, called as they happen (possibly from a search thread, so it
/// is `Send`). An error (a closed pipe, a gone client) stops the job; the job returns it.
pub type Emit<'a, E> = &'a mut (dyn FnMut(E) -> anyhow::Result<()> + Send);

/// Progress over a set of items (levels, boards, puzzles).
#[derive(Clone, Debug, Serialize)]
pub struct ItemProgress {
    /// Items finished.
    pub done: u64,
    /// Items in the run.
    pub total: u64,
    /// Items solved so far.
    pub solved: u64,
    /// What is being run (set and algorithm).
    pub label: String,
    /// Seconds since the job started.
    pub elapsed_s: f64,
}

/// One line of the deterministic `puzzle bench` signature.
#[derive(Clone, Debug, Serialize)]
pub struct Signature {
    /// What was run (game and algorithm).
    pub name: String,
    /// Nodes/iterations/expansions done: changes whenever search behaviour changes.
    pub work: u64,
    /// A result figure (score, solved count ...), also behaviour-dependent.
    pub result: f64,
    /// Wall time in seconds (not part of the signature).
    pub time_s: f64,
}
