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

impl SearchOutcome {
    /// A search that has found nothing yet, having generated `nodes` positions: what every
    /// search starts from (and returns when it runs out of positions).
    pub fn exhausted(nodes: u64) -> SearchOutcome {
        SearchOutcome {
            pushes: None,
            nodes,
            expanded: 0,
            stop: StopReason::Exhausted,
        }
    }

    /// The answer for a start position that is already solved: no pushes.
    pub fn solved_at_start(nodes: u64) -> SearchOutcome {
        SearchOutcome {
            pushes: Some(Vec::new()),
            stop: StopReason::Solved,
            ..SearchOutcome::exhausted(nodes)
        }
    }
}
