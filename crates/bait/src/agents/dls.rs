//! Depth-limited DFS per move (paper Task 2): a fresh search from the current position at
//! every move, deepened one ply at a time while the budget lasts, scoring the horizon with
//! the paper's heuristic.

use super::Agent;
use crate::clock::MoveClock;
use crate::heuristic::{is_dead, paper_distance};
use crate::state::{Action, BaitState, Fingerprint};
use puzzle_engine::{FxHashMap, Rng};

/// Settings of [`DlsAgent`].
#[derive(Clone, Debug)]
pub struct DlsConfig {
    /// Deepest horizon tried.
    pub max_depth: u32,
    /// Weight of the score at the horizon (the heuristic distance counts 1 per cell).
    pub score_weight: f64,
    /// Penalty per earlier visit of the horizon position in this game (a short memory against
    /// the back-and-forth the paper observed; 0 turns it off).
    pub revisit_penalty: f64,
}

impl Default for DlsConfig {
    fn default() -> Self {
        DlsConfig {
            max_depth: 40,
            score_weight: 2.0,
            revisit_penalty: 1.0,
        }
    }
}

const WIN: f64 = 1e6;
const KEY: f64 = 1e5;
const LOSS: f64 = -1e6;

/// The depth-limited agent. Values: a win is worth `WIN` plus its score, a lost or certainly
/// unwinnable position `LOSS`; taking the key ends that branch of the search (the paper's rule)
/// with a bonus; otherwise the horizon is worth `score_weight` × score − Manhattan distance to
/// the key (or to the door once the key is held). Shallower wins and key pickups are
/// preferred. Iterative deepening keeps the best move of the deepest completed horizon.
pub struct DlsAgent {
    config: DlsConfig,
    rng: Rng,
    visits: FxHashMap<Fingerprint, u32>,
    nodes: u64,
    timed_out: bool,
}

impl DlsAgent {
    /// A new agent.
    pub fn new(config: DlsConfig, seed: u64) -> DlsAgent {
        DlsAgent {
            config,
            rng: Rng::new(seed),
            visits: FxHashMap::default(),
            nodes: 0,
            timed_out: false,
        }
    }

    fn horizon_value<const W: usize>(&self, s: &BaitState<W>) -> f64 {
        let distance = paper_distance(s).unwrap_or(0) as f64;
        let revisits = self.visits.get(&s.fingerprint()).copied().unwrap_or(0) as f64;
        self.config.score_weight * s.points() as f64
            - distance
            - self.config.revisit_penalty * revisits
    }

    fn search<const W: usize>(
        &mut self,
        s: &BaitState<W>,
        depth: u32,
        ply: u32,
        had_key: bool,
        clock: &MoveClock,
    ) -> f64 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(32) && clock.expired() {
            self.timed_out = true;
        }
        if s.is_win() {
            return WIN + s.points() as f64 - ply as f64;
        }
        if is_dead(s) {
            return LOSS;
        }
        if s.dy.has_key && !had_key {
            return KEY + s.points() as f64 - ply as f64;
        }
        if depth == 0 || self.timed_out {
            return self.horizon_value(s);
        }
        let mut best = f64::NEG_INFINITY;
        for a in Action::MOVES {
            let mut child = s.clone();
            child.step(a);
            let mut same = child.dy;
            same.tick = s.dy.tick;
            if same == s.dy {
                continue; // blocked move
            }
            best = best.max(self.search(&child, depth - 1, ply + 1, had_key, clock));
        }
        if best == f64::NEG_INFINITY {
            self.horizon_value(s)
        } else {
            best
        }
    }
}

impl<const W: usize> Agent<W> for DlsAgent {
    fn act(&mut self, state: &BaitState<W>, clock: &MoveClock) -> Action {
        *self.visits.entry(state.fingerprint()).or_insert(0) += 1;
        self.timed_out = false;
        let mut chosen: Vec<Action> = Action::MOVES.to_vec();
        for depth in 1..=self.config.max_depth {
            let mut values = [f64::NEG_INFINITY; 4];
            for (i, a) in Action::MOVES.into_iter().enumerate() {
                let mut child = state.clone();
                child.step(a);
                values[i] = self.search(&child, depth - 1, 1, state.dy.has_key, clock);
                if self.timed_out {
                    break;
                }
            }
            if self.timed_out {
                break; // keep the previous depth's choice
            }
            let best = values.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            chosen = Action::MOVES
                .into_iter()
                .zip(values)
                .filter(|&(_, v)| v >= best - 1e-9)
                .map(|(a, _)| a)
                .collect();
            if best >= KEY {
                break; // a win or the key is in reach: the shallowest is known
            }
        }
        chosen[self.rng.below(chosen.len())]
    }

    fn work(&self) -> u64 {
        self.nodes
    }
}
