//! Breadth-first search, depth-first search with a visited set, and depth-limited DFS with a
//! heuristic at the horizon (see `docs/METHODS.md#classic`; the Bait agents of
//! `docs/METHODS.md#bait-agents` use the last one per move).

use super::arena::{StateArena, NONE};
use super::meter::Meter;
use super::{Plan, SearchProblem, Successors};
use crate::{Budget, FxHashMap, StopReason};

/// Breadth-first search: the plan with the fewest steps (optimal cost when every step costs
/// the same). The arena's insertion order is the BFS queue, so no separate queue is stored.
/// Stores every state reached (`max_nodes` bounds them); one iteration = one expansion.
///
/// ```
/// use puzzle_engine::classic::{bfs, SearchProblem};
/// use puzzle_engine::{Budget, StopReason};
/// struct Count;
/// impl SearchProblem for Count {
///     type State = u32;
///     type Action = u32;
///     fn initial_state(&self) -> u32 { 1 }
///     fn is_goal(&self, s: &u32) -> bool { *s == 10 }
///     fn successors(&self, s: &u32, out: &mut Vec<(u32, u32, u32)>) {
///         out.clear();
///         if *s < 100 { out.push((1, s + 1, 1)); out.push((2, s * 2, 1)); }
///     }
/// }
/// let plan = bfs(&Count, &Budget::iterations(1000));
/// assert_eq!(plan.stop_reason, StopReason::Solved);
/// assert_eq!(plan.cost, 4); // 1 → 2 → 4 → 5 → 10
/// ```
pub fn bfs<P: SearchProblem>(problem: &P, budget: &Budget) -> Plan<P::Action> {
    graph_search(problem, budget, Order::Breadth)
}

/// Depth-first search with a visited set: finds some plan (not necessarily short) while
/// storing every state reached once. Successors are explored in the order the problem lists
/// them. One iteration = one expansion; `max_nodes` bounds the visited set.
pub fn dfs<P: SearchProblem>(problem: &P, budget: &Budget) -> Plan<P::Action> {
    graph_search(problem, budget, Order::Depth)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Order {
    Breadth,
    Depth,
}

fn graph_search<P: SearchProblem>(problem: &P, budget: &Budget, order: Order) -> Plan<P::Action> {
    let mut meter = Meter::start(budget);
    let mut arena: StateArena<P::State, P::Action> = StateArena::new();
    let mut stats = Stats::default();
    let root = problem.initial_state();
    if let Some(plan) = stats.trivial_start(problem, &root, budget, &meter) {
        return plan;
    }
    arena.insert(root, NONE, None, 0);
    stats.stored(1);
    let mut succ = Vec::new();
    let mut stack: Vec<u32> = vec![0];
    let mut head = 0u32;
    loop {
        let current = match order {
            Order::Breadth if (head as usize) < arena.len() => {
                head += 1;
                head - 1
            }
            Order::Depth if !stack.is_empty() => stack.pop().unwrap_or(0),
            _ => return stats.finish(Vec::new(), 0, false, StopReason::Exhausted, &meter),
        };
        if let Some(reason) = meter.exhausted() {
            return stats.finish(Vec::new(), 0, false, reason, &meter);
        }
        meter.tick();
        stats.expanded += 1;
        problem.successors(arena.state(current), &mut succ);
        let g = arena.node(current).g;
        let first_child = stack.len();
        for (action, state, cost) in succ.drain(..) {
            stats.generated += 1;
            if arena.find(&state).is_some() {
                continue;
            }
            let g2 = g.saturating_add(cost);
            if problem.is_goal(&state) {
                let mut actions = arena.path_to(current);
                actions.push(action);
                return stats.finish(actions, g2 as u64, true, StopReason::Solved, &meter);
            }
            if arena.len() >= budget.max_nodes {
                return stats.finish(Vec::new(), 0, false, StopReason::Nodes, &meter);
            }
            let Some(index) = arena.insert(state, current, Some(action), g2) else {
                return stats.finish(Vec::new(), 0, false, StopReason::Nodes, &meter);
            };
            stats.stored(arena.len());
            if order == Order::Depth {
                stack.push(index);
            }
        }
        // The stack pops the last pushed first: reverse so the first successor goes first.
        stack[first_child..].reverse();
    }
}

/// Counters that become a [`Plan`].
#[derive(Default)]
pub(super) struct Stats {
    pub(super) expanded: u64,
    pub(super) generated: u64,
    pub(super) peak_stored: usize,
}

impl Stats {
    #[inline]
    pub(super) fn stored(&mut self, now: usize) {
        self.peak_stored = self.peak_stored.max(now);
    }

    /// The common start of the tree and graph searches: the root is already a goal (an empty
    /// plan), or a zero node budget leaves no room to store it. `None`: search on.
    pub(super) fn trivial_start<P: SearchProblem>(
        &self,
        problem: &P,
        root: &P::State,
        budget: &Budget,
        meter: &Meter,
    ) -> Option<Plan<P::Action>> {
        if problem.is_goal(root) {
            return Some(self.finish(Vec::new(), 0, true, StopReason::Solved, meter));
        }
        if budget.max_nodes == 0 {
            return Some(self.finish(Vec::new(), 0, false, StopReason::Nodes, meter));
        }
        None
    }

    pub(super) fn finish<A>(
        &self,
        actions: Vec<A>,
        cost: u64,
        found: bool,
        stop_reason: StopReason,
        meter: &Meter,
    ) -> Plan<A> {
        Plan {
            actions,
            cost,
            found,
            stop_reason,
            expanded: self.expanded,
            generated: self.generated,
            peak_stored: self.peak_stored,
            elapsed: meter.elapsed(),
        }
    }
}

/// One level of the depth-limited search's explicit stack: the successors of the state at
/// this depth and the next one to try.
struct Frame<A, S> {
    successors: Vec<(A, S, u32)>,
    next: usize,
    g: u32,
}

/// Depth-limited DFS with a heuristic at the horizon (see `docs/METHODS.md#classic-dls`; the Bait
/// paper's per-move agent, `docs/METHODS.md#bait-agents`): searches every path of at most
/// `max_depth` steps, depth first. The first goal reached ends the search (`found`,
/// [`StopReason::Solved`]). Otherwise the plan leads to the horizon state with the least
/// [`SearchProblem::heuristic`] (ties: the cheaper path, then the first found), where the horizon
/// is the states at depth `max_depth` and the dead ends (states without successors) before it;
/// `found` is then false and `cost` is that path's cost.
///
/// A state already on the current path is skipped (cycle check). A transposition table
/// remembers the shallowest depth each state was reached at and skips a state reached again no
/// shallower; it stops growing when table plus path would pass `max_nodes`, and is emptied when
/// a deeper path needs the room (the search stays correct, just slower). A path longer than
/// `max_nodes` states ends the search with [`StopReason::Nodes`]. One iteration = one
/// expansion; when a budget stops the search, the best horizon path so far is returned.
///
/// ```
/// use puzzle_engine::classic::{depth_limited, SearchProblem};
/// use puzzle_engine::{Budget, StopReason};
/// /// Walk on a line towards 7 (the goal), one step left or right.
/// struct Line;
/// impl SearchProblem for Line {
///     type State = i32;
///     type Action = i32;
///     fn initial_state(&self) -> i32 { 0 }
///     fn is_goal(&self, s: &i32) -> bool { *s == 7 }
///     fn successors(&self, s: &i32, out: &mut Vec<(i32, i32, u32)>) {
///         out.clear();
///         out.extend([(-1, s - 1, 1), (1, s + 1, 1)]);
///     }
///     fn heuristic(&self, s: &i32) -> u32 { (7 - s).unsigned_abs() }
/// }
/// let plan = depth_limited(&Line, 3, &Budget::iterations(1000));
/// assert!(!plan.found);
/// assert_eq!(plan.actions, vec![1, 1, 1]); // the horizon state closest to the goal
/// let plan = depth_limited(&Line, 9, &Budget::iterations(100_000));
/// assert!(plan.found && plan.stop_reason == StopReason::Solved);
/// ```
pub fn depth_limited<P: SearchProblem>(
    problem: &P,
    max_depth: usize,
    budget: &Budget,
) -> Plan<P::Action> {
    let mut meter = Meter::start(budget);
    let mut stats = Stats::default();
    let root = problem.initial_state();
    if let Some(plan) = stats.trivial_start(problem, &root, budget, &meter) {
        return plan;
    }
    stats.stored(1);
    // Best horizon path: (heuristic, cost, actions).
    let mut best: Option<(u32, u32, Vec<P::Action>)> = None;
    let mut consider = |h: u32, g: u32, frames: &[Frame<P::Action, P::State>], depth: usize| {
        let better = match &best {
            None => true,
            Some((bh, bg, _)) => (h, g) < (*bh, *bg),
        };
        if better {
            let actions = frames[..depth]
                .iter()
                .map(|f| f.successors[f.next - 1].0.clone())
                .collect();
            best = Some((h, g, actions));
        }
    };
    if max_depth == 0 {
        let h = problem.heuristic(&root);
        consider(h, 0, &[], 0);
        let (_, g, actions) = best.unwrap_or((0, 0, Vec::new()));
        return stats.finish(actions, g as u64, false, StopReason::Exhausted, &meter);
    }
    let mut table: FxHashMap<P::State, u32> = FxHashMap::default();
    let mut frames: Vec<Frame<P::Action, P::State>> = Vec::with_capacity(max_depth);
    let mut pool: Vec<Successors<P>> = Vec::new();
    meter.tick();
    stats.expanded += 1;
    let mut successors = Vec::new();
    problem.successors(&root, &mut successors);
    if successors.is_empty() {
        let h = problem.heuristic(&root);
        consider(h, 0, &[], 0);
    }
    frames.push(Frame {
        successors,
        next: 0,
        g: 0,
    });
    let mut stop = StopReason::Exhausted;
    while let Some(top) = frames.last_mut() {
        if top.next == top.successors.len() {
            if let Some(frame) = frames.pop() {
                pool.push(frame.successors);
            }
            continue;
        }
        top.next += 1;
        let depth = frames.len(); // depth of the child
        let (child_state, g) = {
            let top = &frames[depth - 1];
            let (_, state, cost) = &top.successors[top.next - 1];
            (state, top.g.saturating_add(*cost))
        };
        stats.generated += 1;
        // Cycle check along the path: the root and the states the frames below lead to.
        let on_path = *child_state == root
            || frames[..depth - 1]
                .iter()
                .any(|f| f.successors[f.next - 1].1 == *child_state);
        if on_path {
            continue;
        }
        if problem.is_goal(child_state) {
            let actions = frames
                .iter()
                .map(|f| f.successors[f.next - 1].0.clone())
                .collect();
            return stats.finish(actions, g as u64, true, StopReason::Solved, &meter);
        }
        if depth + 1 > budget.max_nodes {
            stop = StopReason::Nodes;
            break;
        }
        if table.len() + depth + 1 > budget.max_nodes {
            table.clear(); // make room for the path: forgetting only costs pruning
        }
        match table.get_mut(child_state) {
            Some(seen) if *seen <= depth as u32 => continue,
            Some(seen) => *seen = depth as u32,
            None => {
                if table.len() + depth + 2 <= budget.max_nodes {
                    table.insert(child_state.clone(), depth as u32);
                }
            }
        }
        stats.stored(table.len() + depth + 1);
        if depth == max_depth {
            let h = problem.heuristic(child_state);
            consider(h, g, &frames, depth);
            continue;
        }
        if let Some(reason) = meter.exhausted() {
            stop = reason;
            break;
        }
        meter.tick();
        stats.expanded += 1;
        let mut buffer = pool.pop().unwrap_or_default();
        problem.successors(child_state, &mut buffer);
        if buffer.is_empty() {
            let h = problem.heuristic(child_state);
            consider(h, g, &frames, depth);
            pool.push(buffer);
            continue;
        }
        frames.push(Frame {
            successors: buffer,
            next: 0,
            g,
        });
    }
    let (_, g, actions) = best.unwrap_or((u32::MAX, 0, Vec::new()));
    stats.finish(actions, g as u64, false, stop, &meter)
}
