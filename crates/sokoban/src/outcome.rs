//! The raw outcome of a push search, shared by the classic solvers (`solver`) and the
//! genetic solver (`genetic`). It lives in its own module so that `solver` depends on
//! `genetic` and not the other way round.

use crate::position::Push;
use puzzle_engine::StopReason;

/// The raw outcome of a push search.
#[derive(Clone, Debug)]
pub struct SearchOutcome {
    /// The pushes of the solution, if found.
    pub pushes: Option<Vec<Push>>,
    /// Positions generated.
    pub nodes: u64,
    /// Positions expanded.
    pub expanded: u64,
    /// Why it ended.
    pub stop: StopReason,
}
