//! MCTS agents (paper Task 4 = GVGAI's sample controller, and our improved version), driving
//! the engine's [`MctsTree`] one move at a time and keeping the subtree of the move played.
//!
//! **Plain MCTS** (`mcts`): UCB1 (c = √2), expansion of one child per visit, uniformly random
//! rollouts of at most 10 moves (GVGAI's `ROLLOUT_DEPTH`), reward = a win 1, a loss 0,
//! otherwise ½ plus a share of the score (GVGAI's score-based value, normalized), the most
//! visited move with random tie-breaking (the paper's ε noise).
//!
//! **MCTS-plus** (`mcts-plus`) changes three things, each aimed at why plain MCTS loses Bait:
//! 1. *Dead-position pruning*: moves into a hole, moves that change nothing (into a wall, a
//!    blocked push, a closed door) and moves into a certainly unwinnable position (a box frozen
//!    on the key or a door: GVGAI's trap) are not offered to the tree or to the rollouts, and
//!    such positions count as losses. Random rollouts stop committing suicide, and the tree's
//!    branching drops.
//! 2. *Progress-aware reward*: the reward of a position that is neither won nor lost grows as a
//!    relaxed distance to the win shrinks: the cheapest walk to a key and on to a door where a
//!    hole costs [`HOLE_COST`] steps and a box 2, so filling the holes that block the way is
//!    rewarded before the key is in sight. The score adds a little. A 10-move rollout in a
//!    level that needs 40 moves to win then still tells good directions from bad ones.
//! 3. *Wins are certain*: a rollout that reached a win is remembered ([`MctsTree::best`]) and,
//!    since the game is deterministic, played out instead of re-deciding every move.

use super::Agent;
use crate::clock::MoveClock;
use crate::heuristic::{is_dead, relaxed_distance};
use crate::state::{Action, BaitState};
use puzzle_engine::mcts::{ChildrenPerExpansion, Expansion, MctsConfig, MctsTree, SelectionPolicy};
use puzzle_engine::{Budget, Game, Rng, UniformRandom};
use std::time::Duration;

/// Added to a won game's points in [`JudgedState`]'s score.
pub const WIN_BONUS: f64 = 1000.0;

/// Extra cost of crossing a hole in MCTS-plus's relaxed distance.
pub const HOLE_COST: u32 = 6;

/// Settings of an MCTS agent.
#[derive(Clone, Debug)]
pub struct MctsAgentConfig {
    /// UCB1's exploration constant.
    pub c: f64,
    /// Rollout depth limit.
    pub rollout_depth: usize,
    /// MCTS-plus's changes (pruning, progress reward, certain wins).
    pub plus: bool,
}

impl MctsAgentConfig {
    /// GVGAI's sample MCTS as the paper describes it.
    pub fn plain() -> Self {
        MctsAgentConfig {
            c: std::f64::consts::SQRT_2,
            rollout_depth: 10,
            plus: false,
        }
    }

    /// MCTS-plus.
    pub fn plus() -> Self {
        MctsAgentConfig {
            c: std::f64::consts::SQRT_2,
            rollout_depth: 10,
            plus: true,
        }
    }
}

/// The state type the tree searches: a Bait position plus how the agent judges it.
#[derive(Clone, Debug)]
pub struct JudgedState {
    /// The position.
    pub state: BaitState,
    plus: bool,
    max_score: f64,
    max_distance: f64,
}

impl JudgedState {
    fn useful_moves(&self, out: &mut Vec<Action>) {
        out.clear();
        for a in Action::MOVES {
            let mut child = self.state.clone();
            child.step(a);
            let mut same = child.dy;
            same.tick = self.state.dy.tick;
            if same == self.state.dy || is_dead(&child) {
                continue;
            }
            out.push(a);
        }
        if out.is_empty() {
            out.extend_from_slice(&Action::MOVES);
        }
    }
}

impl Game for JudgedState {
    type Action = Action;

    fn legal_actions(&self, out: &mut Vec<Action>) {
        if self.is_terminal() {
            out.clear();
        } else if self.plus {
            self.useful_moves(out);
        } else {
            self.state.legal_actions(out);
        }
    }

    fn apply(&mut self, action: Action) {
        self.state.step(action);
    }

    fn is_terminal(&self) -> bool {
        self.state.is_terminal() || (self.plus && is_dead(&self.state))
    }

    /// Game points, plus [`WIN_BONUS`] for a win (so the tree's best sequence is a win
    /// whenever it has seen one).
    fn score(&self) -> f64 {
        self.state.points() as f64 + if self.state.is_win() { WIN_BONUS } else { 0.0 }
    }

    fn reward(&self, _playout_moves: usize) -> f64 {
        let score = (self.state.points() as f64 / self.max_score).min(1.0);
        if self.state.is_win() {
            return if self.plus { 0.8 + 0.2 * score } else { 1.0 };
        }
        if self.state.is_loss() || (self.plus && is_dead(&self.state)) {
            return 0.0;
        }
        if !self.plus {
            return 0.5 + 0.4 * score;
        }
        let d = relaxed_distance(&self.state, HOLE_COST).unwrap_or(u32::MAX) as f64;
        let progress = 1.0 - (d / self.max_distance).min(1.0);
        0.05 + 0.5 * progress + 0.2 * score
    }

    fn action_code(&self, action: Action) -> u64 {
        action as u64
    }
}

/// An MCTS agent (plain or plus).
pub struct MctsAgent {
    config: MctsAgentConfig,
    seed: u64,
    max_nodes: usize,
    rng: Rng,
    tree: Option<MctsTree<JudgedState>>,
    policy: UniformRandom<Action>,
    plan: Vec<Action>,
    iterations: u64,
}

impl MctsAgent {
    /// A new agent; `max_nodes` bounds the tree.
    pub fn new(config: MctsAgentConfig, seed: u64, max_nodes: usize) -> MctsAgent {
        let policy = UniformRandom::with_max_moves(config.rollout_depth);
        MctsAgent {
            config,
            seed,
            max_nodes,
            rng: Rng::new(seed ^ 0x5EED),
            tree: None,
            policy,
            plan: Vec::new(),
            iterations: 0,
        }
    }

    fn judged(&self, state: &BaitState) -> JudgedState {
        let level = state.level();
        let max_score =
            (level.holes.count() + level.mushrooms.count() + 5 * level.doors.count()).max(1) as f64;
        let start = BaitState::from_shared(state.shared_level().clone());
        let d0 = relaxed_distance(&start, HOLE_COST).unwrap_or(100) as f64;
        JudgedState {
            state: state.clone(),
            plus: self.config.plus,
            max_score,
            max_distance: 2.0 * d0 + 10.0,
        }
    }
}

impl Agent for MctsAgent {
    fn act(&mut self, state: &BaitState, clock: &MoveClock) -> Action {
        if let Some(a) = self.plan.first().copied() {
            self.plan.remove(0);
            return a;
        }
        let cfg = MctsConfig {
            selection: SelectionPolicy::Ucb1 { c: self.config.c },
            // All children at once: each gets one rollout before UCB1 compares them (GVGAI's
            // sample expands every action of a node before selecting among them).
            expansion: Expansion {
                visits_before_expand: 0,
                children: ChildrenPerExpansion::All,
            },
            budget: Budget::time(Duration::from_secs(3600)).with_max_nodes(self.max_nodes),
            seed: self.seed,
            ..Default::default()
        };
        let judged = self.judged(state);
        let tree = match &mut self.tree {
            Some(t) if t.root_state().state == *state => t,
            slot => slot.insert(MctsTree::new(judged, &cfg)),
        };
        let far = cfg.budget.start();
        while !clock.expired() {
            let before = tree.iterations;
            tree.run(&mut self.policy, &mut self.rng, Some(32), &far, None);
            self.iterations += tree.iterations - before;
            if tree.iterations == before {
                break; // the root is solved or terminal
            }
            if self.config.plus && tree.best.as_ref().is_some_and(|b| b.score >= WIN_BONUS) {
                break;
            }
        }
        if self.config.plus {
            if let Some(best) = &tree.best {
                let end = state.replay(&best.actions);
                if end.is_win() && !best.actions.is_empty() {
                    self.plan = best.actions[1..].to_vec();
                    let first = best.actions[0];
                    self.tree = None;
                    return first;
                }
            }
        }
        let children = tree.root_children();
        let action = if children.is_empty() {
            Action::MOVES[self.rng.below(4)]
        } else {
            let noisy = |v: u64, rng: &mut Rng| v as f64 + rng.f64() * 1e-3;
            let mut best = (f64::NEG_INFINITY, children[0].action);
            for c in &children {
                let v = noisy(c.visits, &mut self.rng);
                if v > best.0 {
                    best = (v, c.action);
                }
            }
            best.1
        };
        tree.advance(action);
        action
    }

    fn work(&self) -> u64 {
        self.iterations
    }
}
