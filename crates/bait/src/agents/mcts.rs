//! MCTS agents (paper Task 4 = GVGAI's sample controller, and our improved version).
//!
//! **Plain MCTS** (`mcts`) drives the engine's [`MctsTree`] one move at a time, keeping the
//! subtree of the move played: UCB1 (c = √2), all children of a node expanded together (each
//! gets a rollout before UCB1 compares them, as in GVGAI's sample), uniformly random rollouts
//! of at most 10 moves (GVGAI's `ROLLOUT_DEPTH`), reward = a win 1, a loss 0, otherwise ½ plus
//! a share of the score (GVGAI's score-based value, normalized), the most visited move with
//! random tie-breaking (the paper's ε noise).
//!
//! **MCTS-plus** (`mcts-plus`) changes what makes plain MCTS lose Bait:
//! 1. *Dead positions pruned*: moves into a hole, moves that change nothing (into a wall, a
//!    blocked push, a closed door) and moves into a certainly unwinnable position (a box frozen
//!    on the key or a door: GVGAI's trap) are never searched or played.
//! 2. *Progress-aware values*: a position is scored at once by a relaxed distance to the win
//!    (the cheapest walk to a key and on to a door, a hole costing [`HOLE_COST`] extra steps
//!    and a box 2, so filling the holes that block the way counts as progress before the key
//!    is in sight) plus a share of the score, instead of by a 10-move random rollout, which in
//!    levels needing 40–50 moves says almost nothing.
//! 3. *Transpositions*: UCT over the graph of positions ([`super::ttmcts::GraphMcts`]), with
//!    max backup (the game is deterministic and single-player: the best line found below a
//!    position is its value), kept from move to move.
//! 4. *Certain wins, and waiting*: when the search reaches a win it is played out (the game is
//!    deterministic); until then the agent waits (nil: nothing in Bait moves by itself) for up
//!    to [`MctsAgentConfig::think_ticks`] ticks, and only then plays the most visited move each
//!    tick.

use super::ttmcts::{GraphMcts, GraphStatus};
use super::Agent;
use crate::clock::MoveClock;
use crate::state::{Action, BaitState};
use puzzle_engine::mcts::{ChildrenPerExpansion, Expansion, MctsConfig, MctsTree, SelectionPolicy};
use puzzle_engine::{Budget, Game, Rng, UniformRandom};
use std::time::Duration;

/// Extra cost of crossing a hole in MCTS-plus's relaxed distance.
pub const HOLE_COST: u32 = 4;

/// Settings of an MCTS agent.
#[derive(Clone, Debug)]
pub struct MctsAgentConfig {
    /// UCB1's exploration constant.
    pub c: f64,
    /// Rollout depth limit (plain MCTS).
    pub rollout_depth: usize,
    /// MCTS-plus (see the module documentation).
    pub plus: bool,
    /// MCTS-plus waits (plays nil, growing its search) until it has reached a win or this
    /// many ticks have passed; then it plays the most-visited move each tick.
    pub think_ticks: u16,
}

impl MctsAgentConfig {
    /// GVGAI's sample MCTS as the paper describes it.
    pub fn plain() -> Self {
        MctsAgentConfig {
            c: std::f64::consts::SQRT_2,
            rollout_depth: 10,
            plus: false,
            think_ticks: 0,
        }
    }

    /// MCTS-plus.
    pub fn plus() -> Self {
        MctsAgentConfig {
            c: 0.05,
            rollout_depth: 0,
            plus: true,
            think_ticks: 1500,
        }
    }
}

/// Added to a won game's points in [`JudgedState`]'s score.
pub const WIN_BONUS: f64 = 1000.0;

/// The state type plain MCTS searches: a Bait position and GVGAI's normalized value.
#[derive(Clone, Debug)]
pub struct JudgedState<const W: usize = 4> {
    /// The position.
    pub state: BaitState<W>,
    max_score: f64,
}

impl<const W: usize> Game for JudgedState<W> {
    type Action = Action;

    fn legal_actions(&self, out: &mut Vec<Action>) {
        self.state.legal_actions(out);
    }

    fn apply(&mut self, action: Action) {
        self.state.step(action);
    }

    fn is_terminal(&self) -> bool {
        self.state.is_terminal()
    }

    /// Game points, plus [`WIN_BONUS`] for a win.
    fn score(&self) -> f64 {
        self.state.points() as f64 + if self.state.is_win() { WIN_BONUS } else { 0.0 }
    }

    fn reward(&self, _playout_moves: usize) -> f64 {
        if self.state.is_win() {
            return 1.0;
        }
        if self.state.is_loss() {
            return 0.0;
        }
        0.5 + 0.4 * (self.state.points() as f64 / self.max_score).min(1.0)
    }

    fn action_code(&self, action: Action) -> u64 {
        action as u64
    }
}

/// An MCTS agent (plain or plus), on levels of bitset width `W`.
pub struct MctsAgent<const W: usize = 4> {
    config: MctsAgentConfig,
    seed: u64,
    max_nodes: usize,
    rng: Rng,
    tree: Option<MctsTree<JudgedState<W>>>,
    graph: Option<GraphMcts<W>>,
    policy: UniformRandom<Action>,
    plan: Vec<Action>,
    iterations: u64,
}

impl<const W: usize> MctsAgent<W> {
    /// A new agent; `max_nodes` bounds the tree (or graph).
    pub fn new(config: MctsAgentConfig, seed: u64, max_nodes: usize) -> MctsAgent<W> {
        let policy = UniformRandom::with_max_moves(config.rollout_depth);
        MctsAgent {
            config,
            seed,
            max_nodes,
            rng: Rng::new(seed ^ 0x5EED),
            tree: None,
            graph: None,
            policy,
            plan: Vec::new(),
            iterations: 0,
        }
    }

    fn think_plus(&mut self, state: &BaitState<W>, clock: &MoveClock) -> Option<Action> {
        let (c, max_nodes) = (self.config.c, self.max_nodes);
        let graph = self
            .graph
            .get_or_insert_with(|| GraphMcts::new(state, c, max_nodes, HOLE_COST));
        graph.set_root(state);
        let before = graph.iterations;
        let status = graph.run(&mut self.rng, || clock.expired());
        self.iterations += graph.iterations - before;
        if let GraphStatus::Win(moves) = status {
            debug_assert!(state.replay(&moves).is_win());
            self.plan = moves;
            self.plan.reverse();
            return self.plan.pop();
        }
        None
    }

    fn act_plus(&mut self, state: &BaitState<W>, clock: &MoveClock) -> Action {
        if let Some(a) = self.plan.pop() {
            return a;
        }
        if let Some(a) = self.think_plus(state, clock) {
            return a;
        }
        if state.tick() < self.config.think_ticks {
            return Action::Nil;
        }
        let graph = self.graph.as_ref().expect("created by think_plus");
        graph
            .best_move(&mut self.rng)
            .unwrap_or(Action::MOVES[self.rng.below(4)])
    }

    fn act_plain(&mut self, state: &BaitState<W>, clock: &MoveClock) -> Action {
        let cfg = MctsConfig {
            selection: SelectionPolicy::Ucb1 { c: self.config.c },
            expansion: Expansion {
                visits_before_expand: 0,
                children: ChildrenPerExpansion::All,
            },
            budget: Budget::time(Duration::from_secs(3600)).with_max_nodes(self.max_nodes),
            seed: self.seed,
            ..Default::default()
        };
        let level = state.level();
        let max_score =
            (level.holes.count() + level.mushrooms.count() + 5 * level.doors.count()).max(1) as f64;
        let tree = match &mut self.tree {
            Some(t) if t.root_state().state == *state => t,
            slot => slot.insert(MctsTree::new(
                JudgedState {
                    state: state.clone(),
                    max_score,
                },
                &cfg,
            )),
        };
        let far = cfg.budget.start();
        while !clock.expired() {
            let before = tree.iterations;
            tree.run(&mut self.policy, &mut self.rng, Some(32), &far, None);
            self.iterations += tree.iterations - before;
            if tree.iterations == before {
                break; // the root is terminal
            }
        }
        let children = tree.root_children();
        let action = if children.is_empty() {
            Action::MOVES[self.rng.below(4)]
        } else {
            let mut best = (f64::NEG_INFINITY, children[0].action);
            for c in &children {
                let v = c.visits as f64 + self.rng.f64() * 1e-3; // ε noise breaks ties
                if v > best.0 {
                    best = (v, c.action);
                }
            }
            best.1
        };
        tree.advance(action);
        action
    }
}

impl<const W: usize> Agent<W> for MctsAgent<W> {
    fn setup(&mut self, state: &BaitState<W>, clock: &MoveClock) {
        if self.config.plus {
            if let Some(a) = self.think_plus(state, clock) {
                self.plan.push(a); // the plan is stored reversed: put the first move back
            }
        }
    }

    fn act(&mut self, state: &BaitState<W>, clock: &MoveClock) -> Action {
        if self.config.plus {
            self.act_plus(state, clock)
        } else {
            self.act_plain(state, clock)
        }
    }

    fn work(&self) -> u64 {
        self.iterations
    }
}
