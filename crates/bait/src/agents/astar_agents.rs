//! The A* agents: per move (paper Task 3) and the offline shortest-win planner.

use super::Agent;
use crate::astar::{plan_win, AStar, AStarStatus, Heuristic};
use crate::clock::MoveClock;
use crate::state::{Action, BaitState};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The most positions the per-move agent's admissible first stages store (as [`plan_win`]).
const ADMISSIBLE_NODES: usize = 1_000_000;

/// The searches the per-move agent runs, in order (see [`AStarAgent`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// The walking distance, positions stored by their plan key.
    Shortest,
    /// The walking distance, positions stored by their exact key (only where the plan key is
    /// not exact and the first stage ran out of positions).
    ShortestExact,
    /// The relaxed estimate, then partial plans.
    Relaxed,
}

/// A* within the per-move budget (paper Task 3). The open and closed lists persist across
/// moves: each move continues the same search. Until a win is found the avatar waits (nil:
/// nothing in Bait moves by itself, so waiting is safe, whereas a step toward a merely
/// promising position can be irreversible); once found, the win is played out. The setup
/// second is used as well.
///
/// The search runs in stages, as the offline planner's ([`plan_win`]): first with the
/// admissible walking distance ([`Heuristic::Walk`]: a shortest win where the plan key is
/// exact), storing at most `min(max_nodes, 1M)` positions (by exact keys too, where the plan
/// key is not and the first search ran out of positions); if that is not enough, with
/// [`Heuristic::Relaxed`] (a hole costing 4 more: not admissible, far fewer expansions); and
/// if that fills the node budget too, the avatar walks the best partial plan
/// ([`AStar::best_partial`]) and a new search starts where it ends. When an exhaustive search
/// has seen every position reachable from the start without a win, the agent says the level
/// cannot be won ([`Agent::verdict`]).
pub struct AStarAgent<const W: usize = 4> {
    max_nodes: usize,
    heuristic: Option<Heuristic>,
    stage: Stage,
    search: Option<AStar<W>>,
    plan: Option<Vec<Action>>,
    /// The plan is a partial one: search again where it ends.
    partial: bool,
    next: usize,
    gave_up: bool,
    verdict: Option<String>,
    expanded: u64,
}

impl<const W: usize> AStarAgent<W> {
    /// An agent storing at most `max_nodes` positions.
    pub fn new(max_nodes: usize) -> AStarAgent<W> {
        AStarAgent {
            max_nodes,
            heuristic: None,
            stage: Stage::Shortest,
            search: None,
            plan: None,
            partial: false,
            next: 0,
            gave_up: false,
            verdict: None,
            expanded: 0,
        }
    }

    /// The same agent with one heuristic throughout, one search and no partial plans (e.g.
    /// the paper's [`Heuristic::Paper`]).
    pub fn with_heuristic(mut self, heuristic: Heuristic) -> Self {
        self.heuristic = Some(heuristic);
        self
    }

    fn new_search(&self, state: &BaitState<W>) -> AStar<W> {
        match (self.heuristic, self.stage) {
            (Some(h), _) => AStar::new(state, h, self.max_nodes),
            (None, Stage::Shortest) => {
                AStar::new(state, Heuristic::Walk, self.max_nodes.min(ADMISSIBLE_NODES))
            }
            (None, Stage::ShortestExact) => {
                AStar::new(state, Heuristic::Walk, self.max_nodes.min(ADMISSIBLE_NODES)).exact()
            }
            (None, Stage::Relaxed) => AStar::new(state, Heuristic::WeightedWalk(3), self.max_nodes),
        }
    }

    /// Drop a search off the move's clock: freeing hundreds of megabytes would cost the move
    /// tens of milliseconds, so another thread frees them.
    fn retire(search: Option<AStar<W>>) {
        if let Some(search) = search.filter(|s| s.stored() > 100_000) {
            std::thread::spawn(move || drop(search));
        }
    }

    fn think(&mut self, state: &BaitState<W>, clock: &MoveClock) {
        if self.partial && self.plan.as_ref().is_some_and(|p| self.next >= p.len()) {
            self.plan = None;
            self.partial = false;
        }
        if self.plan.is_some() || self.gave_up {
            return;
        }
        loop {
            if self.search.is_none() {
                self.search = Some(self.new_search(state));
            }
            let search = self.search.as_mut().expect("set above");
            let status = search.run(Some(clock), None);
            self.expanded += search.expanded;
            search.expanded = 0;
            let staged = self.heuristic.is_none();
            match status {
                AStarStatus::Solved(plan) => {
                    self.plan = Some(plan);
                    self.next = 0;
                    // The lists are kept until the agent is dropped after the game.
                    return;
                }
                AStarStatus::Paused => return,
                AStarStatus::Exhausted => {
                    let from_start = search.start().tick() == 0 && !self.partial;
                    if from_start && search.exhaustive() {
                        self.verdict = Some(format!(
                            "no win exists: A* saw all {} positions reachable from the start",
                            search.stored()
                        ));
                    } else if staged && self.stage == Stage::Shortest {
                        self.stage = Stage::ShortestExact;
                        Self::retire(self.search.take());
                        continue;
                    }
                    self.gave_up = true;
                    return;
                }
                AStarStatus::OutOfNodes => {
                    if staged && self.stage != Stage::Relaxed {
                        self.stage = Stage::Relaxed;
                        Self::retire(self.search.take());
                        continue;
                    }
                    let partial = search.best_partial().filter(|_| staged);
                    Self::retire(self.search.take());
                    match partial {
                        Some(plan) => {
                            self.plan = Some(plan);
                            self.partial = true;
                            self.next = 0;
                        }
                        None => self.gave_up = true,
                    }
                    return;
                }
            }
        }
    }
}

impl<const W: usize> Agent<W> for AStarAgent<W> {
    fn setup(&mut self, state: &BaitState<W>, clock: &MoveClock) {
        self.think(state, clock);
        // The shortest-win stages get the setup second; a game waits while the agent
        // searches, so after it the relaxed estimate's quicker wins are worth more ticks.
        if self.plan.is_none()
            && !self.gave_up
            && self.heuristic.is_none()
            && self.stage != Stage::Relaxed
        {
            self.stage = Stage::Relaxed;
            Self::retire(self.search.take());
        }
    }

    fn act(&mut self, state: &BaitState<W>, clock: &MoveClock) -> Action {
        self.think(state, clock);
        super::next_planned(self.plan.as_deref(), &mut self.next)
    }

    fn work(&self) -> u64 {
        self.expanded
    }

    fn verdict(&self) -> Option<String> {
        self.verdict.clone()
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
    verdict: Option<String>,
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
            verdict: None,
        }
    }
}

impl<const W: usize> Agent<W> for OfflineAgent {
    fn setup(&mut self, state: &BaitState<W>, _clock: &MoveClock) {
        let stop = self.stop.clone();
        let stop_fn = move || stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed));
        let result = plan_win(state, self.max_nodes, Some(&stop_fn));
        self.expanded = result.expanded;
        if result.unwinnable {
            self.verdict = Some(format!(
                "no win exists: A* saw every position reachable from the start ({} expanded)",
                result.expanded
            ));
        }
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

    fn verdict(&self) -> Option<String> {
        self.verdict.clone()
    }
}
