//! Nested Monte Carlo Search (Cazenave 2009, "Nested Monte-Carlo Search", IJCAI); see
//! `docs/METHODS.md#nmcs`.
//!
//! A level-0 search is one playout. A level-`n` search, from a state, tries every legal move,
//! runs a level-`n−1` search after each, and plays the first move of the best sequence found
//! so far (§2 of the paper, with the memorization of the best sequence: when no move of this
//! step beats the remembered sequence, the search follows it), until the game ends.
//!
//! Every playout is a complete sequence from the root; the best one seen is the result, so a
//! budget that stops the search mid-way still returns the best sequence found.
//!
//! ```
//! use puzzle_engine::{nmcs, toy::SumGame, Budget, UniformRandom};
//! let game = SumGame::new(&[3, 9, 1, 4, 8, 2, 7], 3);
//! let cfg = nmcs::NmcsConfig { level: 2, ..Default::default() };
//! let result = nmcs::search(&game, &cfg, &UniformRandom::default(), &Budget::iterations(100_000));
//! assert_eq!(result.best_score, 24.0); // 9 + 8 + 7
//! ```

use crate::classic::meter::Meter;
use crate::{Budget, Game, PlayoutPolicy, Rng, StopReason};
use std::time::Duration;

/// Settings of a nested search. `Default`: level 2, seed 0, no target, one run.
#[derive(Clone, Debug, PartialEq)]
pub struct NmcsConfig {
    /// Nesting level (1..N; 0 runs a single playout). Each level multiplies the work by about
    /// the branching factor times the game length.
    pub level: usize,
    /// Seed of the playouts.
    pub seed: u64,
    /// Stop as soon as a sequence scores at least this.
    pub target_score: Option<f64>,
    /// Run the nested search again (the random stream goes on) until a budget ends it, instead
    /// of stopping after one run (ignored when the budget has neither iterations nor time).
    pub repeat: bool,
}

impl Default for NmcsConfig {
    fn default() -> Self {
        NmcsConfig {
            level: 2,
            seed: 0,
            target_score: None,
            repeat: false,
        }
    }
}

/// What a nested search produced.
#[derive(Clone, Debug)]
pub struct NmcsResult<A> {
    /// The best complete sequence seen, from the root.
    pub best_sequence: Vec<A>,
    /// Its score (`-inf` if no playout ran).
    pub best_score: f64,
    /// Playouts run (the budget's iterations).
    pub playouts: u64,
    /// Complete nested runs at the requested level.
    pub runs: u64,
    /// `Exhausted` when the run(s) finished, `Solved` on reaching the target, else the budget.
    pub stop_reason: StopReason,
    /// Wall time.
    pub elapsed: Duration,
    /// When the best sequence was found.
    pub time_to_best: Duration,
}

/// A callback that hears every new best (sequence from the root, score) as it is found.
pub type Observer<'a, A> = &'a mut dyn FnMut(&[A], f64);

/// Run NMCS from `root` at `config.level` with `policy` as the level-0 playout.
pub fn search<G: Game, P: PlayoutPolicy<G>>(
    root: &G,
    config: &NmcsConfig,
    policy: &P,
    budget: &Budget,
) -> NmcsResult<G::Action> {
    search_observed(root, config, policy, budget, None)
}

/// [`search`], calling `observer` with every new best sequence (for long runs that write
/// results as they are found).
pub fn search_observed<G: Game, P: PlayoutPolicy<G>>(
    root: &G,
    config: &NmcsConfig,
    policy: &P,
    budget: &Budget,
    observer: Option<Observer<'_, G::Action>>,
) -> NmcsResult<G::Action> {
    let levels = config.level.max(1);
    let mut nested = Nested {
        policy: policy.clone(),
        rng: Rng::new(config.seed),
        meter: Meter::start(budget),
        stop: None,
        target: config.target_score,
        states: vec![root.clone(); levels + 1],
        actions: vec![Vec::new(); levels + 1],
        bests: vec![Vec::new(); levels + 1],
        scratch: root.clone(),
        trace: Vec::new(),
        path: Vec::new(),
        best: Vec::new(),
        best_score: f64::NEG_INFINITY,
        time_to_best: Duration::ZERO,
        observer,
    };
    // Repeating without an iteration or time limit would never end: run once then.
    let unbounded = budget.is_unbounded();
    let mut runs = 0;
    loop {
        nested.path.clear();
        if config.level == 0 {
            nested.states[0].clone_from(root);
            nested.playout_from(0);
        } else {
            nested.states[levels].clone_from(root);
            nested.level(levels);
        }
        if nested.stop.is_none() {
            runs += 1;
        }
        if !config.repeat || nested.stop.is_some() || unbounded {
            break;
        }
    }
    NmcsResult {
        best_sequence: nested.best,
        best_score: nested.best_score,
        playouts: nested.meter.done,
        runs,
        stop_reason: nested.stop.unwrap_or(StopReason::Exhausted),
        elapsed: nested.meter.elapsed(),
        time_to_best: nested.time_to_best,
    }
}

/// The state of one nested search; buffers are per level and reused.
struct Nested<'o, G: Game, P> {
    policy: P,
    rng: Rng,
    meter: Meter,
    stop: Option<StopReason>,
    target: Option<f64>,
    /// `states[l]`: the current state of the level-`l` search.
    states: Vec<G>,
    actions: Vec<Vec<G::Action>>,
    /// `bests[l]`: the best sequence of the level-`l` search, from its start state.
    bests: Vec<Vec<G::Action>>,
    scratch: G,
    trace: Vec<G::Action>,
    /// Moves from the root to the state being searched.
    path: Vec<G::Action>,
    best: Vec<G::Action>,
    best_score: f64,
    time_to_best: Duration,
    observer: Option<Observer<'o, G::Action>>,
}

impl<G: Game, P: PlayoutPolicy<G>> Nested<'_, G, P> {
    /// One playout from `states[from]`; the sequence (without `path`) goes to `trace`.
    fn playout_from(&mut self, from: usize) -> f64 {
        if let Some(reason) = self.meter.exhausted() {
            self.stop = Some(reason);
            return f64::NEG_INFINITY;
        }
        self.meter.tick();
        self.scratch.clone_from(&self.states[from]);
        self.trace.clear();
        self.policy
            .playout(&mut self.scratch, &mut self.rng, &mut self.trace);
        let score = self.scratch.score();
        if score > self.best_score {
            self.best_score = score;
            self.best.clear();
            self.best.extend_from_slice(&self.path);
            self.best.extend_from_slice(&self.trace);
            self.time_to_best = self.meter.elapsed();
            if let Some(observer) = self.observer.as_mut() {
                observer(&self.best, score);
            }
            if self.target.is_some_and(|t| score >= t) {
                self.stop = Some(StopReason::Solved);
            }
        }
        score
    }

    /// The level-`level` search from `states[level]`; its best sequence ends in
    /// `bests[level]`. Returns the best score.
    fn level(&mut self, level: usize) -> f64 {
        let entry = self.path.len();
        let mut best_score = f64::NEG_INFINITY;
        let mut best = std::mem::take(&mut self.bests[level]);
        best.clear();
        let mut played = 0;
        let mut actions = std::mem::take(&mut self.actions[level]);
        loop {
            self.states[level].legal_actions(&mut actions);
            if actions.is_empty() {
                break;
            }
            for &action in &actions {
                let (lower, this) = self.states.split_at_mut(level);
                lower[level - 1].clone_from(&this[0]);
                lower[level - 1].apply(action);
                self.path.push(action);
                let score = if level == 1 {
                    self.playout_from(0)
                } else {
                    self.level(level - 1)
                };
                self.path.pop();
                if score > best_score {
                    best_score = score;
                    best.truncate(played);
                    best.push(action);
                    if level == 1 {
                        best.extend_from_slice(&self.trace);
                    } else {
                        best.extend_from_slice(&self.bests[level - 1]);
                    }
                }
                if self.stop.is_some() {
                    break;
                }
            }
            if self.stop.is_some() || best.len() <= played {
                break;
            }
            let next = best[played];
            self.states[level].apply(next);
            self.path.push(next);
            played += 1;
        }
        if best_score == f64::NEG_INFINITY && self.stop.is_none() {
            best_score = self.states[level].score(); // the start state was terminal
        }
        self.path.truncate(entry);
        self.actions[level] = actions;
        self.bests[level] = best;
        best_score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toy::{BinaryTreeGame, SumGame};
    use crate::UniformRandom;
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;

    fn replay<G: Game>(root: &G, actions: &[G::Action]) -> (f64, bool) {
        let state = crate::replay(root, actions).unwrap();
        (state.score(), state.is_terminal())
    }

    fn sum_game() -> SumGame {
        let values: Vec<i64> = (0..32).map(|i| (i * 37 % 101) as i64).collect();
        SumGame::new(&values, 12)
    }

    #[test]
    fn level_two_finds_the_sum_game_optimum() {
        let game = sum_game();
        let cfg = NmcsConfig {
            level: 2,
            seed: 3,
            ..Default::default()
        };
        let r = search(
            &game,
            &cfg,
            &UniformRandom::default(),
            &Budget::iterations(10_000_000),
        );
        assert_eq!(r.best_score, game.optimum() as f64);
        assert_eq!(replay(&game, &r.best_sequence), (r.best_score, true));
        assert_eq!(r.stop_reason, StopReason::Exhausted);
        assert_eq!(r.runs, 1);
    }

    #[test]
    fn level_one_and_two_solve_the_binary_tree() {
        let tree = BinaryTreeGame::new(40, 0x00AB_CDEF_0123);
        for level in [1, 2] {
            let cfg = NmcsConfig {
                level,
                seed: 11,
                ..Default::default()
            };
            let r = search(
                &tree,
                &cfg,
                &UniformRandom::default(),
                &Budget::iterations(1_000_000),
            );
            assert_eq!(r.best_score, 1.0, "level {level}");
            assert_eq!(replay(&tree, &r.best_sequence), (1.0, true));
        }
    }

    #[test]
    fn same_seed_same_result_and_seeds_differ() {
        let game = sum_game();
        let cfg = NmcsConfig {
            level: 1,
            seed: 9,
            ..Default::default()
        };
        let budget = Budget::iterations(5_000);
        let a = search(&game, &cfg, &UniformRandom::default(), &budget);
        let b = search(&game, &cfg, &UniformRandom::default(), &budget);
        assert_eq!(a.best_sequence, b.best_sequence);
        assert_eq!(a.playouts, b.playouts);
        let other = NmcsConfig { seed: 10, ..cfg };
        let c = search(&game, &other, &UniformRandom::default(), &budget);
        assert_ne!(a.best_sequence, c.best_sequence);
    }

    #[test]
    fn budget_stops_mid_way_with_the_best_so_far() {
        let game = sum_game();
        let cfg = NmcsConfig {
            level: 3,
            ..Default::default()
        };
        let r = search(
            &game,
            &cfg,
            &UniformRandom::default(),
            &Budget::iterations(500),
        );
        assert_eq!(r.stop_reason, StopReason::Iterations);
        assert_eq!(r.playouts, 500);
        assert_eq!(r.runs, 0);
        assert_eq!(replay(&game, &r.best_sequence), (r.best_score, true));

        let flag = Arc::new(AtomicBool::new(true));
        let r = search(
            &game,
            &cfg,
            &UniformRandom::default(),
            &Budget::iterations(500).with_stop_flag(flag),
        );
        assert_eq!(r.stop_reason, StopReason::Interrupted);
        assert!(r.best_sequence.is_empty());

        let r = search(
            &game,
            &cfg,
            &UniformRandom::default(),
            &Budget::time(Duration::from_millis(50)),
        );
        assert_eq!(r.stop_reason, StopReason::Time);
        assert!(r.elapsed < Duration::from_secs(2), "{:?}", r.elapsed); // generous
        assert_eq!(replay(&game, &r.best_sequence), (r.best_score, true));
    }

    #[test]
    fn target_and_observer() {
        let game = sum_game();
        let cfg = NmcsConfig {
            level: 2,
            target_score: Some(game.optimum() as f64),
            repeat: true,
            ..Default::default()
        };
        let mut seen = Vec::new();
        let mut observer = |seq: &[u8], score: f64| seen.push((seq.to_vec(), score));
        let r = search_observed(
            &game,
            &cfg,
            &UniformRandom::default(),
            &Budget::iterations(10_000_000),
            Some(&mut observer),
        );
        assert_eq!(r.stop_reason, StopReason::Solved);
        assert!(seen.windows(2).all(|w| w[0].1 < w[1].1));
        let last = seen.last().unwrap();
        assert_eq!((&last.0, last.1), (&r.best_sequence, r.best_score));
    }

    #[test]
    fn memorization_never_loses_the_best_sequence() {
        // Level-1 NMCS's final score is at least the best score of its first step's playouts
        // (the memorized sequence is followed when no move improves on it).
        let tree = BinaryTreeGame::new(20, 0x5A5A5);
        let cfg = NmcsConfig {
            level: 1,
            seed: 2,
            ..Default::default()
        };
        let first_step = search(
            &tree,
            &cfg,
            &UniformRandom::default(),
            &Budget::iterations(2),
        );
        let full = search(
            &tree,
            &cfg,
            &UniformRandom::default(),
            &Budget::iterations(1 << 20),
        );
        assert!(full.best_score >= first_step.best_score);
        assert_eq!(full.stop_reason, StopReason::Exhausted);
        // One level-1 run on a depth-20 binary tree: 2 playouts per step, 20 steps.
        assert_eq!(full.playouts, 40);
    }
}
