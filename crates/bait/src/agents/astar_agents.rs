//! The A* agents: per move (paper Task 3) and the offline shortest-win planner.

use super::Agent;
use crate::astar::{plan_win, AStar, AStarStatus, Heuristic};
use crate::clock::MoveClock;
use crate::state::{Action, BaitState};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A* within the per-move budget (paper Task 3). The open and closed lists persist across
/// moves: each move continues the same search. The heuristic is [`Heuristic::Relaxed`]
/// (walking distance to the key and door, a hole costing 4 more): with the paper's Manhattan
/// distance ([`Heuristic::Paper`], still available) level 3 is out of reach even with 15
/// million stored positions, as the paper found for its levels 2 and 3. Until a win is found the avatar waits (nil: nothing in Bait
/// moves by itself, so waiting is safe, whereas a step toward a merely promising position can
/// be irreversible); once found, the win is played out. The setup second is used as well.
pub struct AStarAgent<const W: usize = 4> {
    max_nodes: usize,
    heuristic: Heuristic,
    search: Option<AStar<W>>,
    plan: Option<Vec<Action>>,
    next: usize,
    gave_up: bool,
    expanded: u64,
}

impl<const W: usize> AStarAgent<W> {
    /// An agent storing at most `max_nodes` positions.
    pub fn new(max_nodes: usize) -> AStarAgent<W> {
        AStarAgent {
            max_nodes,
            heuristic: Heuristic::Relaxed(4),
            search: None,
            plan: None,
            next: 0,
            gave_up: false,
            expanded: 0,
        }
    }

    /// The same agent with another heuristic (e.g. [`Heuristic::Paper`]).
    pub fn with_heuristic(mut self, heuristic: Heuristic) -> Self {
        self.heuristic = heuristic;
        self
    }

    fn think(&mut self, state: &BaitState<W>, clock: &MoveClock) {
        if self.plan.is_some() || self.gave_up {
            return;
        }
        let search = self
            .search
            .get_or_insert_with(|| AStar::new(state, self.heuristic, self.max_nodes));
        let status = search.run(Some(clock), None);
        self.expanded = search.expanded;
        match status {
            AStarStatus::Solved(plan) => {
                self.plan = Some(plan);
                self.next = 0;
                // The lists are kept until the agent is dropped after the game: freeing
                // hundreds of megabytes here would cost this move tens of milliseconds.
            }
            AStarStatus::Exhausted | AStarStatus::OutOfNodes => self.gave_up = true,
            AStarStatus::Paused => {}
        }
    }
}

impl<const W: usize> Agent<W> for AStarAgent<W> {
    fn setup(&mut self, state: &BaitState<W>, clock: &MoveClock) {
        self.think(state, clock);
    }

    fn act(&mut self, state: &BaitState<W>, clock: &MoveClock) -> Action {
        self.think(state, clock);
        super::next_planned(self.plan.as_deref(), &mut self.next)
    }

    fn work(&self) -> u64 {
        self.expanded
    }
}

/// The offline planner ([`plan_win`]: A* with the walking-distance heuristic, falling back to
/// the relaxed estimate when the node budget is too small), run to the end before the game (no
/// per-move budget: it is a planner, not a GVGAI controller), then the plan replayed.
pub struct OfflineAgent {
    max_nodes: usize,
    stop: Option<Arc<AtomicBool>>,
    plan: Vec<Action>,
    next: usize,
    expanded: u64,
}

impl OfflineAgent {
    /// A planner storing at most `max_nodes` positions; `stop` interrupts it.
    pub fn new(max_nodes: usize, stop: Option<Arc<AtomicBool>>) -> OfflineAgent {
        OfflineAgent {
            max_nodes,
            stop,
            plan: Vec::new(),
            next: 0,
            expanded: 0,
        }
    }
}

impl<const W: usize> Agent<W> for OfflineAgent {
    fn setup(&mut self, state: &BaitState<W>, _clock: &MoveClock) {
        let stop = self.stop.clone();
        let stop_fn = move || stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed));
        let result = plan_win(state, self.max_nodes, Some(&stop_fn));
        self.expanded = result.expanded;
        self.plan = result.plan.unwrap_or_default();
    }

    fn act(&mut self, _state: &BaitState<W>, _clock: &MoveClock) -> Action {
        let a = self.plan.get(self.next).copied().unwrap_or(Action::Nil);
        self.next += 1;
        a
    }

    fn work(&self) -> u64 {
        self.expanded
    }
}
