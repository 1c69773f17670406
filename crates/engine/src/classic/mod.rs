//! Classic searches (see `docs/METHODS.md#classic`): BFS, DFS with a visited set, depth-limited DFS
//! with a horizon heuristic, A* (with re-opening), weighted A* / greedy best-first, IDA*, and
//! DBS. All are generic over [`SearchProblem`] (cost-minimizing, hashable states) except DBS,
//! which maximizes a [`crate::Game`] score. Each respects a [`crate::Budget`]
//! (`max_nodes` = states stored, `max_iterations` = expansions, time, stop flag).

//!
//! | search | optimal | memory (`max_nodes` bounds it) |
//! |---|---|---|
//! | [`bfs`] | fewest steps | every state reached |
//! | [`dfs`] | no | every state reached |
//! | [`depth_limited`] | no (best horizon state) | path + transposition table |
//! | [`astar`] | yes (admissible h) | every state reached ([`arena::StateArena`]) |
//! | [`weighted_astar`], [`greedy_best_first`] | within w× / no | every state reached |
//! | [`idastar`], [`idastar_with_table`] | yes (admissible h) | path (+ table) |
//! | [`dbs`] | no (maximizes a [`crate::Game`] score) | `depth` + 2 states |
//!
//! ```
//! use puzzle_engine::classic::{astar, bfs, idastar, SearchProblem};
//! use puzzle_engine::Budget;
//! /// Reach (3, 2) on an open grid from (0, 0).
//! struct Grid;
//! impl SearchProblem for Grid {
//!     type State = (i32, i32);
//!     type Action = char;
//!     fn initial_state(&self) -> (i32, i32) { (0, 0) }
//!     fn is_goal(&self, s: &(i32, i32)) -> bool { *s == (3, 2) }
//!     fn successors(&self, &(x, y): &(i32, i32), out: &mut Vec<(char, (i32, i32), u32)>) {
//!         out.clear();
//!         for (a, dx, dy) in [('R', 1, 0), ('L', -1, 0), ('D', 0, 1), ('U', 0, -1)] {
//!             let (nx, ny) = (x + dx, y + dy);
//!             if (0..5).contains(&nx) && (0..5).contains(&ny) { out.push((a, (nx, ny), 1)); }
//!         }
//!     }
//!     fn heuristic(&self, &(x, y): &(i32, i32)) -> u32 { ((3 - x).abs() + (2 - y).abs()) as u32 }
//! }
//! let budget = Budget::iterations(10_000);
//! assert_eq!(astar(&Grid, &budget).cost, 5);
//! assert_eq!(idastar(&Grid, &budget).cost, 5);
//! assert_eq!(bfs(&Grid, &budget).cost, 5);
//! ```

pub mod arena;
mod astar;
mod dbs;
mod idastar;
pub(crate) mod meter;
mod uninformed;

#[cfg(test)]
mod tests;

pub use astar::{astar, greedy_best_first, weighted_astar};
pub use dbs::{dbs, DbsConfig, DbsResult, GreedyPolicy};
pub use idastar::{idastar, idastar_with_table};
pub use uninformed::{bfs, depth_limited, dfs};

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

/// The successor buffer of a problem: (action, next state, step cost) triples.
pub type Successors<P> = Vec<(
    <P as SearchProblem>::Action,
    <P as SearchProblem>::State,
    u32,
)>;

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

impl<A> Plan<A> {
    /// Number of actions in the plan.
    pub fn len(&self) -> usize {
        self.actions.len()
    }

    /// The plan has no action (the start is a goal, or nothing was found).
    pub fn is_empty(&self) -> bool {
        self.actions.is_empty()
    }
}
