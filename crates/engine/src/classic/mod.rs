//! Classic searches (SPEC §A "Other searches"): BFS, DFS with a visited set, depth-limited DFS
//! with a horizon heuristic, A* (with re-opening), weighted A* / greedy best-first, IDA*, and
//! DBS. All are generic over [`SearchProblem`] (cost-minimizing, hashable states) except DBS,
//! which maximizes a [`crate::Game`] score. Each respects a [`crate::Budget`]
//! (`max_nodes` = states stored, `max_iterations` = expansions, time, stop flag).

use std::hash::Hash;
use std::time::Duration;

use crate::StopReason;

/// A deterministic search problem with non-negative integer step costs.
pub trait SearchProblem {
    /// A search state; equal states must hash equally.
    type State: Clone + Eq + Hash;
    /// What leads from a state to a successor.
    type Action: Clone;
    /// The start state.
    fn initial_state(&self) -> Self::State;
    /// Is `state` a goal?
    fn is_goal(&self, state: &Self::State) -> bool;
    /// Clear `out`, then write every successor as (action, next state, step cost).
    fn successors(&self, state: &Self::State, out: &mut Vec<(Self::Action, Self::State, u32)>);
    /// A lower bound on the cost to a goal (admissible for A*/IDA* optimality). Default 0.
    fn heuristic(&self, state: &Self::State) -> u32 {
        let _ = state;
        0
    }
}

/// The outcome of a classic search.
#[derive(Clone, Debug)]
pub struct Plan<A> {
    /// The actions from the start to the goal (empty if none was found).
    pub actions: Vec<A>,
    /// Total cost of `actions` (meaningful when `found`).
    pub cost: u64,
    /// A goal was reached.
    pub found: bool,
    /// Why the search ended (`Solved`, `Exhausted` = proved no solution, or a budget).
    pub stop_reason: StopReason,
    /// States expanded.
    pub expanded: u64,
    /// States generated.
    pub generated: u64,
    /// The most states stored at once (never above the node budget).
    pub peak_stored: usize,
    /// Wall time.
    pub elapsed: Duration,
}
