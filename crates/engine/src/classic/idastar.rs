//! IDA* (Korf 1985; see `docs/METHODS.md#classic-idastar`): depth-first searches bounded by f = g +
//! h, the bound raised to the least f that exceeded it, until a goal is reached. Memory is the
//! current path, plus an optional small transposition table.

use super::arena::state_hash;
use super::meter::Meter;
use super::uninformed::Stats;
use super::{Plan, SearchProblem, Successors};
use crate::{Budget, FxHashMap, StopReason};

/// One level of the explicit DFS stack.
struct Frame<A, S> {
    successors: Vec<(A, S, u32)>,
    next: usize,
    g: u32,
}

/// IDA* without a transposition table: memory is the current path (`max_nodes` bounds its
/// length). Optimal with an admissible heuristic. A state already on the current path is
/// skipped (cycle check). One iteration = one expansion. A budget with neither iterations nor
/// time gets the default time limit (IDA* never ends on an infinite space without a goal).
///
/// ```
/// use puzzle_engine::classic::{idastar, SearchProblem};
/// use puzzle_engine::{Budget, StopReason};
/// struct Line;
/// impl SearchProblem for Line {
///     type State = i32;
///     type Action = i32;
///     fn initial_state(&self) -> i32 { 0 }
///     fn is_goal(&self, s: &i32) -> bool { *s == 5 }
///     fn successors(&self, s: &i32, out: &mut Vec<(i32, i32, u32)>) {
///         out.clear();
///         out.extend([(-1, s - 1, 1), (1, s + 1, 1)]);
///     }
///     fn heuristic(&self, s: &i32) -> u32 { (5 - s).unsigned_abs() }
/// }
/// let plan = idastar(&Line, &Budget::iterations(1000));
/// assert_eq!((plan.cost, plan.stop_reason), (5, StopReason::Solved));
/// ```
pub fn idastar<P: SearchProblem>(problem: &P, budget: &Budget) -> Plan<P::Action> {
    idastar_with_table(problem, 0, budget)
}

/// IDA* with a transposition table of at most `table_capacity` states (also bounded by
/// `max_nodes` minus the path): within one iteration, a state reached again at no lower cost
/// than before is skipped, which removes most duplicate work on graphs with many transpositions.
/// The table is cleared at each new bound, stops growing when full, and is emptied when the
/// path needs its room under `max_nodes`.
pub fn idastar_with_table<P: SearchProblem>(
    problem: &P,
    table_capacity: usize,
    budget: &Budget,
) -> Plan<P::Action> {
    // IDA* may run forever (an unsolvable infinite space): without an iteration or time limit,
    // the default time limit applies.
    let mut meter = Meter::start(&budget.bounded());
    let mut stats = Stats::default();
    let root = problem.initial_state();
    if let Some(plan) = stats.trivial_start(problem, &root, budget, &meter) {
        return plan;
    }
    stats.stored(1);
    let root_hash = state_hash(&root);
    let mut bound = problem.heuristic(&root) as u64;
    let mut table: FxHashMap<P::State, u32> = FxHashMap::default();
    let mut frames: Vec<Frame<P::Action, P::State>> = Vec::new();
    let mut pool: Vec<Successors<P>> = Vec::new();
    // Hashes of the states on the path (root first), for a fast cycle check.
    let mut path_hashes: Vec<u64> = Vec::new();
    loop {
        let mut next_bound = u64::MAX;
        table.clear();
        path_hashes.clear();
        path_hashes.push(root_hash);
        if let Some(reason) = meter.exhausted() {
            return stats.finish(Vec::new(), 0, false, reason, &meter);
        }
        meter.tick();
        stats.expanded += 1;
        let mut successors = pool.pop().unwrap_or_default();
        problem.successors(&root, &mut successors);
        frames.push(Frame {
            successors,
            next: 0,
            g: 0,
        });
        while let Some(top) = frames.last_mut() {
            if top.next == top.successors.len() {
                if let Some(frame) = frames.pop() {
                    pool.push(frame.successors);
                }
                path_hashes.pop();
                continue;
            }
            top.next += 1;
            let depth = frames.len();
            let (state, g) = {
                let top = &frames[depth - 1];
                let (_, state, cost) = &top.successors[top.next - 1];
                (state, top.g.saturating_add(*cost))
            };
            stats.generated += 1;
            let f = g as u64 + problem.heuristic(state) as u64;
            if f > bound {
                next_bound = next_bound.min(f);
                continue;
            }
            let hash = state_hash(state);
            let on_path = path_hashes.iter().enumerate().any(|(i, &h)| {
                h == hash
                    && if i == 0 {
                        *state == root
                    } else {
                        let f = &frames[i - 1];
                        f.successors[f.next - 1].1 == *state
                    }
            });
            if on_path {
                continue;
            }
            if problem.is_goal(state) {
                let actions = frames
                    .iter()
                    .map(|f| f.successors[f.next - 1].0.clone())
                    .collect();
                return stats.finish(actions, g as u64, true, StopReason::Solved, &meter);
            }
            if table_capacity > 0 {
                match table.get_mut(state) {
                    Some(seen) if *seen <= g => continue,
                    Some(seen) => *seen = g,
                    None => {
                        if table.len() < table_capacity
                            && table.len() + depth + 1 < budget.max_nodes
                        {
                            table.insert(state.clone(), g);
                        }
                    }
                }
            }
            if depth + 1 > budget.max_nodes {
                return stats.finish(Vec::new(), 0, false, StopReason::Nodes, &meter);
            }
            if table.len() + depth + 1 > budget.max_nodes {
                table.clear(); // make room for the path: forgetting only costs pruning
            }
            stats.stored(table.len() + depth + 1);
            if let Some(reason) = meter.exhausted() {
                return stats.finish(Vec::new(), 0, false, reason, &meter);
            }
            meter.tick();
            stats.expanded += 1;
            let mut buffer = pool.pop().unwrap_or_default();
            problem.successors(state, &mut buffer);
            path_hashes.push(hash);
            frames.push(Frame {
                successors: buffer,
                next: 0,
                g,
            });
        }
        if next_bound == u64::MAX {
            return stats.finish(Vec::new(), 0, false, StopReason::Exhausted, &meter);
        }
        bound = next_bound;
    }
}
