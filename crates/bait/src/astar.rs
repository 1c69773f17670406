//! A* over Bait positions (see `docs/METHODS.md#bait-agents`), resumable: the open and closed lists
//! live in the [`AStar`] value, so a per-move agent continues the same search at its next move (the
//! paper's Task 3 design) and the offline planner runs it to the end in one go.
//!
//! Costs are ticks, the goal is a win, and positions that are lost or certainly unwinnable
//! ([`crate::heuristic::is_dead`]) are pruned. Both heuristics are admissible and consistent,
//! so the first win popped is a shortest one; among the shortest wins the highest score is
//! kept (all goals with the same f are popped before the search stops).

use crate::clock::MoveClock;
use crate::heuristic::{admissible_distance, is_dead, paper_distance, relaxed_distance};
use crate::state::{Action, BaitState, Dynamic, Fingerprint, MAX_TICKS};
use puzzle_engine::FxHashMap;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Which lower bound A* uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heuristic {
    /// The paper's: Manhattan distance to the key, then to the door.
    Paper,
    /// Walking distance to a key and on to a door (stronger; used by the offline planner).
    Walk,
    /// [`relaxed_distance`] with the given extra cost per hole: not admissible (a hole can
    /// be filled on the way at no extra move), so plans are short but not proved shortest.
    Relaxed(u32),
    /// [`Heuristic::Walk`] times the given weight (weighted A*): not admissible, a win within
    /// that factor of the shortest, found in far fewer expansions where many ways tie.
    WeightedWalk(u32),
}

impl Heuristic {
    fn eval<const W: usize>(self, s: &BaitState<W>) -> Option<u32> {
        match self {
            Heuristic::Paper => paper_distance(s),
            Heuristic::Walk => admissible_distance(s),
            Heuristic::Relaxed(hole_cost) => relaxed_distance(s, hole_cost),
            Heuristic::WeightedWalk(weight) => admissible_distance(s).map(|h| h * weight),
        }
    }
}

struct Node<const W: usize> {
    dy: Dynamic<W>,
    parent: u32,
    action: Action,
    g: u16,
}

/// How a search call ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AStarStatus {
    /// A shortest win was found (the actions from the search's start).
    Solved(Vec<Action>),
    /// Every reachable position was searched: no win exists.
    Exhausted,
    /// The node budget is full.
    OutOfNodes,
    /// The time (or stop) budget ran out; call [`AStar::run`] again to continue.
    Paused,
}

/// A resumable A* search from one start position (of a level of bitset width `W`). A stored
/// position takes about `40·W + 60` bytes (its node, closed-set entry and open-list entry).
pub struct AStar<const W: usize = 4> {
    start: BaitState<W>,
    heuristic: Heuristic,
    nodes: Vec<Node<W>>,
    open: BinaryHeap<(Reverse<u32>, u16, Reverse<u32>)>,
    best_g: FxHashMap<Fingerprint, u16>,
    max_nodes: usize,
    goal: Option<(u32, i32)>,
    goal_f: u32,
    /// Positions expanded so far.
    pub expanded: u64,
    /// Positions generated so far.
    pub generated: u64,
    scratch: BaitState<W>,
    /// The clock is read every this many expansions: about every 16,384 cells' worth of work,
    /// so that a wide level's costlier expansions do not overrun the move budget.
    check_every: u32,
    /// The stored position closest to a win by the heuristic (least `h`, then least `g`): where
    /// a search out of nodes goes on from ([`AStar::best_partial`]).
    best: (u32, u16, u32),
    /// Store positions by [`BaitState::exact_plan_key`] (else by [`BaitState::plan_key`]).
    exact: bool,
}

impl<const W: usize> AStar<W> {
    /// A search from `start`, storing at most `max_nodes` positions.
    pub fn new(start: &BaitState<W>, heuristic: Heuristic, max_nodes: usize) -> AStar<W> {
        // Reserved up front (address space only until used): growing these by copying in the
        // middle of a move would blow the per-move budget. At most 2^26 nodes of width 4, and
        // as many bytes in a wider width.
        let most = (1usize << 26) * std::mem::size_of::<Node<4>>() / std::mem::size_of::<Node<W>>();
        let reserve = max_nodes.clamp(1, most);
        let mut best_g = FxHashMap::default();
        best_g.reserve(reserve);
        let mut search = AStar {
            start: start.clone(),
            heuristic,
            nodes: Vec::with_capacity(reserve),
            open: BinaryHeap::with_capacity(reserve),
            best_g,
            max_nodes: max_nodes.max(1),
            goal: None,
            goal_f: u32::MAX,
            expanded: 0,
            generated: 0,
            scratch: start.clone(),
            check_every: (16_384 / start.level().cells().max(1)).clamp(1, 64) as u32,
            best: (u32::MAX, 0, 0),
            exact: false,
        };
        if let Some(h) = heuristic.eval(start).filter(|_| !is_dead(start)) {
            search.best = (h, 0, 0);
            search.nodes.push(Node {
                dy: start.dy,
                parent: u32::MAX,
                action: Action::Nil,
                g: 0,
            });
            search.best_g.insert(start.plan_key(), 0);
            search.open.push((Reverse(h), 0, Reverse(0)));
        }
        search
    }

    /// The same search storing positions by [`BaitState::exact_plan_key`], so that running out
    /// of positions proves that no win exists on every level (call before [`AStar::run`]).
    pub fn exact(mut self) -> AStar<W> {
        self.exact = true;
        if let Some(node) = self.nodes.first() {
            self.scratch.dy = node.dy;
            let key = self.scratch.exact_plan_key();
            self.best_g.clear();
            self.best_g.insert(key, 0);
        }
        self
    }

    /// Does [`AStarStatus::Exhausted`] prove that no win exists from the start? It does when
    /// the positions are stored by an exact key: [`AStar::exact`], or a level whose plan key
    /// is exact ([`crate::level::Level::plan_key_is_exact`]).
    pub fn exhaustive(&self) -> bool {
        self.exact || self.start.level().plan_key_is_exact()
    }

    fn key(&self) -> Fingerprint {
        if self.exact {
            self.scratch.exact_plan_key()
        } else {
            self.scratch.plan_key()
        }
    }

    /// Positions stored.
    pub fn stored(&self) -> usize {
        self.nodes.len()
    }

    fn path_to(&self, mut index: u32) -> Vec<Action> {
        let mut path = Vec::new();
        while self.nodes[index as usize].parent != u32::MAX {
            path.push(self.nodes[index as usize].action);
            index = self.nodes[index as usize].parent;
        }
        path.reverse();
        path
    }

    /// Search until a shortest win is known, the space is exhausted, the node budget is full
    /// or `clock` runs out (checked every 64 expansions; `None` = no time limit).
    pub fn run(
        &mut self,
        clock: Option<&MoveClock>,
        stop: Option<&dyn Fn() -> bool>,
    ) -> AStarStatus {
        let mut count = 0u32;
        loop {
            count += 1;
            if count.is_multiple_of(self.check_every)
                && (clock.is_some_and(|c| c.expired()) || stop.is_some_and(|f| f()))
            {
                return AStarStatus::Paused;
            }
            let Some(&(Reverse(f), _, Reverse(index))) = self.open.peek() else {
                return match self.goal {
                    Some((g, _)) => AStarStatus::Solved(self.path_to(g)),
                    None => AStarStatus::Exhausted,
                };
            };
            if f > self.goal_f {
                let (g, _) = self.goal.expect("goal_f is set with goal");
                return AStarStatus::Solved(self.path_to(g));
            }
            self.open.pop();
            let node_dy = self.nodes[index as usize].dy;
            let g = self.nodes[index as usize].g;
            self.scratch.dy = node_dy;
            let fp = self.key();
            if self.best_g.get(&fp).is_some_and(|&best| best < g) {
                continue; // a stale duplicate
            }
            if self.scratch.is_win() {
                let score = self.scratch.points();
                if self.goal.is_none_or(|(_, s)| score > s) {
                    self.goal = Some((index, score));
                    self.goal_f = f;
                }
                continue;
            }
            self.expanded += 1;
            for action in Action::MOVES {
                self.scratch.dy = node_dy;
                self.scratch.step(action);
                let mut same = self.scratch.dy;
                same.tick = node_dy.tick;
                if same == node_dy {
                    continue; // blocked: only the tick changed
                }
                if is_dead(&self.scratch) {
                    continue;
                }
                let child_g = g + 1;
                let child_fp = self.key();
                match self.best_g.get_mut(&child_fp) {
                    Some(best) if *best <= child_g => continue,
                    Some(best) => *best = child_g,
                    None => {
                        if self.nodes.len() >= self.max_nodes {
                            return AStarStatus::OutOfNodes;
                        }
                        self.best_g.insert(child_fp, child_g);
                    }
                }
                // The heuristic only for positions not seen before (or reached cheaper).
                let Some(h) = self.heuristic.eval(&self.scratch) else {
                    continue;
                };
                if self.nodes.len() >= self.max_nodes {
                    return AStarStatus::OutOfNodes;
                }
                self.generated += 1;
                let child = self.nodes.len() as u32;
                if (h, child_g) < (self.best.0, self.best.1) {
                    self.best = (h, child_g, child);
                }
                self.nodes.push(Node {
                    dy: self.scratch.dy,
                    parent: index,
                    action,
                    g: child_g,
                });
                self.open
                    .push((Reverse(child_g as u32 + h), child_g, Reverse(child)));
            }
        }
    }

    /// The start position.
    pub fn start(&self) -> &BaitState<W> {
        &self.start
    }

    /// The actions to the stored position the heuristic puts closest to a win (least
    /// estimate, then fewest moves), if it is not the start: the best partial plan when the
    /// node budget ends without a win.
    pub fn best_partial(&self) -> Option<Vec<Action>> {
        let (h, _, index) = self.best;
        (h != u32::MAX && index != 0).then(|| self.path_to(index))
    }
}

/// The result of [`shortest_win`].
#[derive(Clone, Debug)]
pub struct PlanResult {
    /// A shortest win (highest score among the shortest), if one was found.
    pub plan: Option<Vec<Action>>,
    /// How the search ended.
    pub status: AStarStatus,
    /// Positions expanded.
    pub expanded: u64,
    /// Positions stored.
    pub stored: usize,
}

/// Offline planner: A* with the walking-distance heuristic to the end (or the node budget, or
/// `stop`), storing positions by [`BaitState::plan_key`]: the win is a shortest one where
/// that key is exact ([`crate::level::Level::plan_key_is_exact`]). The plan is replayed
/// before it is returned.
pub fn shortest_win<const W: usize>(
    start: &BaitState<W>,
    max_nodes: usize,
    stop: Option<&dyn Fn() -> bool>,
) -> PlanResult {
    let mut search = AStar::new(start, Heuristic::Walk, max_nodes);
    let status = search.run(None, stop);
    let plan = match &status {
        AStarStatus::Solved(p) => {
            let end = start.replay(p);
            assert!(end.is_win(), "A* plan does not replay to a win");
            Some(p.clone())
        }
        _ => None,
    };
    PlanResult {
        plan,
        status,
        expanded: search.expanded,
        stored: search.stored(),
    }
}

/// The result of [`plan_win`].
#[derive(Clone, Debug)]
pub struct WinPlan {
    /// The win found (replayed), if any.
    pub plan: Option<Vec<Action>>,
    /// `plan` is proved shortest (the admissible search finished, on a level where mushrooms
    /// do not matter).
    pub optimal: bool,
    /// No win exists: an exhaustive search ([`AStar::exhaustive`]) visited every reachable
    /// position.
    pub unwinnable: bool,
    /// Positions expanded by every stage.
    pub expanded: u64,
}

/// The offline planner: [`shortest_win`] (shortest where its key is exact) with at most
/// `min(max_nodes, 1M)` stored positions; if it runs out of positions where its key is not
/// exact, the same search by exact keys ([`AStar::exact`]), which is then a proof when it runs
/// out too. If the node budget is not enough, A* with the [`Heuristic::Relaxed`] estimate (a
/// hole costing 4 extra), which is not admissible but finds short wins in far fewer
/// expansions. If that search fills its node budget too, the plan goes on from the best
/// partial plan ([`AStar::best_partial`]): the position it reaches starts a new search, until
/// a win, a dead end, [`MAX_TICKS`] moves or `stop`.
pub fn plan_win<const W: usize>(
    start: &BaitState<W>,
    max_nodes: usize,
    stop: Option<&dyn Fn() -> bool>,
) -> WinPlan {
    let admissible_nodes = max_nodes.min(1_000_000);
    let mut expanded = 0;
    let mut first = AStar::new(start, Heuristic::Walk, admissible_nodes);
    let mut status = first.run(None, stop);
    expanded += first.expanded;
    if status == AStarStatus::Exhausted && !first.exhaustive() {
        drop(first);
        let mut exact = AStar::new(start, Heuristic::Walk, admissible_nodes).exact();
        status = exact.run(None, stop);
        expanded += exact.expanded;
    }
    let stopped = stop.is_some_and(|f| f());
    match status {
        AStarStatus::Solved(plan) => {
            assert!(
                start.replay(&plan).is_win(),
                "A* plan does not replay to a win"
            );
            return WinPlan {
                optimal: start.level().plan_key_is_exact(),
                unwinnable: false,
                plan: Some(plan),
                expanded,
            };
        }
        AStarStatus::Exhausted => {
            return WinPlan {
                optimal: false,
                unwinnable: true,
                plan: None,
                expanded,
            };
        }
        _ if stopped => {
            return WinPlan {
                optimal: false,
                unwinnable: false,
                plan: None,
                expanded,
            };
        }
        _ => {}
    }
    let mut prefix: Vec<Action> = Vec::new();
    let mut from = start.clone();
    let plan = loop {
        let mut search = AStar::new(&from, Heuristic::Relaxed(4), max_nodes);
        let status = search.run(None, stop);
        expanded += search.expanded;
        match status {
            AStarStatus::Solved(p) => {
                prefix.extend(p);
                break Some(prefix);
            }
            AStarStatus::OutOfNodes => match search.best_partial() {
                Some(partial) if prefix.len() + partial.len() < MAX_TICKS as usize => {
                    from = from.replay(&partial);
                    prefix.extend(partial);
                }
                _ => break None,
            },
            AStarStatus::Exhausted | AStarStatus::Paused => break None,
        }
    };
    if let Some(p) = &plan {
        assert!(start.replay(p).is_win(), "A* plan does not replay to a win");
    }
    WinPlan {
        plan,
        optimal: false,
        unwinnable: false,
        expanded,
    }
}
