//! Depth-first search with a visited set (paper Task 1): the whole game is planned before the
//! first move, then the plan is replayed.

use super::Agent;
use crate::clock::MoveClock;
use crate::heuristic::{is_dead, relaxed_distance};
use crate::state::{Action, BaitState, Dynamic, Fingerprint};
use puzzle_engine::FxHashSet;

/// Extra hole cost of the move-ordering heuristic (see [`relaxed_distance`]).
const ORDER_HOLE_COST: u32 = 4;

/// One level of the DFS stack.
struct Frame<const W: usize> {
    position: Dynamic<W>,
    /// The moves to try, best first.
    order: [Action; 4],
    next: u8,
    /// The move that led here.
    via: Action,
}

/// DFS never revisiting a position (the paper's `visited` list) and never entering a lost or
/// certainly unwinnable one. The paper tries the moves in a fixed order; we try them best
/// first by [`relaxed_distance`] (ties: up, down, left, right), which keeps the first win found
/// short enough for the 2000-tick limit on the large levels. The search runs in the setup
/// second and, if that is not enough, goes on during the first moves (the avatar waits
/// meanwhile: nothing in Bait moves by itself); the win found is then played move by move.
pub struct DfsAgent<const W: usize = 4> {
    max_nodes: usize,
    visited: FxHashSet<Fingerprint>,
    stack: Vec<Frame<W>>,
    plan: Option<Vec<Action>>,
    next: usize,
    gave_up: bool,
    verdict: Option<String>,
    expanded: u64,
    scratch: Option<BaitState<W>>,
}

impl<const W: usize> DfsAgent<W> {
    /// A DFS storing at most `max_nodes` visited positions.
    pub fn new(max_nodes: usize) -> DfsAgent<W> {
        DfsAgent {
            max_nodes,
            visited: FxHashSet::default(),
            stack: Vec::new(),
            plan: None,
            next: 0,
            gave_up: false,
            verdict: None,
            expanded: 0,
            scratch: None,
        }
    }

    fn frame(scratch: &mut BaitState<W>, position: Dynamic<W>, via: Action) -> Frame<W> {
        let mut keyed = [(u32::MAX, 0usize); 4];
        for (i, a) in Action::MOVES.into_iter().enumerate() {
            scratch.dy = position;
            scratch.step(a);
            keyed[i] = (
                relaxed_distance(scratch, ORDER_HOLE_COST).unwrap_or(u32::MAX),
                i,
            );
        }
        keyed.sort();
        Frame {
            position,
            order: keyed.map(|(_, i)| Action::MOVES[i]),
            next: 0,
            via,
        }
    }

    fn think(&mut self, state: &BaitState<W>, clock: &MoveClock) {
        if self.plan.is_some() || self.gave_up {
            return;
        }
        if self.scratch.is_none() {
            self.visited.reserve(self.max_nodes.clamp(1, 1 << 26));
            self.visited.insert(state.plan_key());
            let mut scratch = state.clone();
            self.stack
                .push(Self::frame(&mut scratch, state.dy, Action::Nil));
            self.scratch = Some(scratch);
        }
        let scratch = self.scratch.as_mut().expect("set above");
        // The clock is read about every 16,384 cells' worth of ordering work (a wide level's
        // expansions cost more).
        let check_every = (16_384 / state.level().cells().max(1)).clamp(1, 64) as u32;
        let mut count = 0u32;
        while let Some(top) = self.stack.last_mut() {
            count += 1;
            if count.is_multiple_of(check_every) && clock.expired() {
                return;
            }
            if top.next as usize >= 4 {
                self.stack.pop();
                continue;
            }
            let action = top.order[top.next as usize];
            top.next += 1;
            if top.next == 1 {
                self.expanded += 1;
            }
            let position = top.position;
            scratch.dy = position;
            scratch.step(action);
            if scratch.is_win() {
                let mut plan: Vec<Action> = self.stack[1..].iter().map(|f| f.via).collect();
                plan.push(action);
                self.plan = Some(plan);
                // The visited set is freed with the agent, after the game (not in a timed move).
                self.stack.clear();
                return;
            }
            if is_dead(scratch) || !self.visited.insert(scratch.plan_key()) {
                continue;
            }
            if self.visited.len() >= self.max_nodes {
                self.gave_up = true;
                return;
            }
            let child = scratch.dy;
            let frame = Self::frame(scratch, child, action);
            self.stack.push(frame);
        }
        // Exhausted from the start: no win exists, if the positions were stored by an exact
        // key (the plan key leaves the mushrooms out, which is exact only where none matters).
        self.gave_up = true;
        if state.level().plan_key_is_exact() {
            self.verdict = Some(format!(
                "no win exists: DFS saw all {} positions reachable from the start",
                self.visited.len()
            ));
        }
    }
}

impl<const W: usize> Agent<W> for DfsAgent<W> {
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

    fn verdict(&self) -> Option<String> {
        self.verdict.clone()
    }
}
