//! Best-first searches over [`SearchProblem`]: A* (Hart, Nilsson & Raphael 1968; see
//! `docs/METHODS.md#classic-astar`: f = g + h, a binary-heap open list, a closed set, re-opening
//! when a cheaper path is found), weighted A* (f = g + w·h) and greedy best-first (f = h).
//!
//! Storage is compact ([`StateArena`]): each state is stored once, with its parent index, cost
//! and depth; the open list holds 24-byte entries and stale entries are skipped when popped
//! (lazy deletion), so a cheaper path simply pushes the state again ("re-opening").

use super::arena::{state_hash, StateArena, NONE};
use super::meter::Meter;
use super::uninformed::Stats;
use super::{Plan, SearchProblem};
use crate::{Budget, StopReason};
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// Fixed-point scale of the weights of [`weighted_astar`] (f = 1024·g + round(1024·w)·h).
const WEIGHT_SCALE: f64 = 1024.0;

/// The closed flag lives in the top bit of the stored heuristic value.
const CLOSED: u32 = 1 << 31;

/// An open-list entry. The heap pops the least `f`, then the least `h` (deepest), then the
/// newest state, so runs are deterministic.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Entry {
    f: u64,
    h: u32,
    g: u32,
    index: u32,
}

impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .f
            .cmp(&self.f)
            .then(other.h.cmp(&self.h))
            .then(self.index.cmp(&other.index))
    }
}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// How a best-first search orders and treats its states.
#[derive(Clone, Copy, Debug)]
struct Weights {
    g: u64,
    h: u64,
    reopen: bool,
}

/// A*: with an admissible heuristic (never above the true remaining cost) the plan is optimal.
/// One iteration = one expansion; `max_nodes` bounds the states stored (open and closed
/// together): the search stops with [`StopReason::Nodes`] rather than store one more.
///
/// ```
/// use puzzle_engine::classic::{astar, SearchProblem};
/// use puzzle_engine::{Budget, StopReason};
/// /// From 0 to 10 on a line; steps of +1 cost 1, steps of +3 cost 2.
/// struct Line;
/// impl SearchProblem for Line {
///     type State = u32;
///     type Action = u32;
///     fn initial_state(&self) -> u32 { 0 }
///     fn is_goal(&self, s: &u32) -> bool { *s == 10 }
///     fn successors(&self, s: &u32, out: &mut Vec<(u32, u32, u32)>) {
///         out.clear();
///         if *s < 10 { out.push((1, s + 1, 1)); }
///         if *s + 3 <= 10 { out.push((3, s + 3, 2)); }
///     }
///     fn heuristic(&self, s: &u32) -> u32 { (10 - s) * 2 / 3 }
/// }
/// let plan = astar(&Line, &Budget::iterations(1000));
/// assert_eq!(plan.stop_reason, StopReason::Solved);
/// assert_eq!(plan.cost, 7); // 3 + 3 + 3 + 1
/// ```
pub fn astar<P: SearchProblem>(problem: &P, budget: &Budget) -> Plan<P::Action> {
    best_first(
        problem,
        Weights {
            g: 1,
            h: 1,
            reopen: true,
        },
        budget,
    )
}

/// Weighted A* (Pohl 1970): f = g + `weight`·h, re-opening as A*. With an admissible heuristic
/// the cost is at most `weight` times the optimum; larger weights expand fewer states.
/// `weight` is used to 1/1024 precision; `weight` = 1 is A*. A negative or non-finite weight is
/// treated as 1.
pub fn weighted_astar<P: SearchProblem>(
    problem: &P,
    weight: f64,
    budget: &Budget,
) -> Plan<P::Action> {
    let weight = if weight.is_finite() && weight >= 0.0 {
        weight
    } else {
        1.0
    };
    best_first(
        problem,
        Weights {
            g: WEIGHT_SCALE as u64,
            h: (weight * WEIGHT_SCALE).round().min(u32::MAX as f64) as u64,
            reopen: true,
        },
        budget,
    )
}

/// Greedy best-first search: always expands the state of least heuristic (f = h), never
/// re-opens a closed state. Fast, not optimal.
pub fn greedy_best_first<P: SearchProblem>(problem: &P, budget: &Budget) -> Plan<P::Action> {
    best_first(
        problem,
        Weights {
            g: 0,
            h: 1,
            reopen: false,
        },
        budget,
    )
}

fn best_first<P: SearchProblem>(problem: &P, weights: Weights, budget: &Budget) -> Plan<P::Action> {
    let mut meter = Meter::start(budget);
    let mut stats = Stats::default();
    if budget.max_nodes == 0 {
        return stats.finish(Vec::new(), 0, false, StopReason::Nodes, &meter);
    }
    let mut arena: StateArena<P::State, P::Action> = StateArena::new();
    // Heuristic value of each stored state, with the closed flag in the top bit.
    let mut h_closed: Vec<u32> = Vec::new();
    let mut open = BinaryHeap::new();
    let f = |g: u32, h: u32| weights.g * g as u64 + weights.h * h as u64;

    let root = problem.initial_state();
    let h0 = problem.heuristic(&root).min(CLOSED - 1);
    arena.insert(root, NONE, None, 0);
    h_closed.push(h0);
    stats.stored(1);
    open.push(Entry {
        f: f(0, h0),
        h: h0,
        g: 0,
        index: 0,
    });
    let mut successors = Vec::new();
    while let Some(entry) = open.pop() {
        let index = entry.index;
        let g = arena.node(index).g;
        let closed = h_closed[index as usize] & CLOSED != 0;
        if entry.g != g || (closed && !weights.reopen) {
            continue; // stale: a cheaper path re-pushed this state, or it is closed for good
        }
        if problem.is_goal(arena.state(index)) {
            let actions = arena.path_to(index);
            return stats.finish(actions, g as u64, true, StopReason::Solved, &meter);
        }
        if let Some(reason) = meter.exhausted() {
            return stats.finish(Vec::new(), 0, false, reason, &meter);
        }
        meter.tick();
        stats.expanded += 1;
        h_closed[index as usize] |= CLOSED;
        problem.successors(arena.state(index), &mut successors);
        for (action, state, cost) in successors.drain(..) {
            stats.generated += 1;
            let g2 = g.saturating_add(cost);
            let hash = state_hash(&state);
            if let Some(other) = arena.find_hashed(&state, hash) {
                let known = arena.node(other).g;
                let other_closed = h_closed[other as usize] & CLOSED != 0;
                if g2 < known && (weights.reopen || !other_closed) {
                    arena.relink(other, index, action, g2);
                    let h = h_closed[other as usize] & !CLOSED;
                    h_closed[other as usize] = h;
                    open.push(Entry {
                        f: f(g2, h),
                        h,
                        g: g2,
                        index: other,
                    });
                }
                continue;
            }
            if arena.len() >= budget.max_nodes {
                return stats.finish(Vec::new(), 0, false, StopReason::Nodes, &meter);
            }
            let h = problem.heuristic(&state).min(CLOSED - 1);
            let Some(child) = arena.insert_hashed(state, hash, index, Some(action), g2) else {
                return stats.finish(Vec::new(), 0, false, StopReason::Nodes, &meter);
            };
            h_closed.push(h);
            stats.stored(arena.len());
            open.push(Entry {
                f: f(g2, h),
                h,
                g: g2,
                index: child,
            });
        }
    }
    stats.finish(Vec::new(), 0, false, StopReason::Exhausted, &meter)
}
