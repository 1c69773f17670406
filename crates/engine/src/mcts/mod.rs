//! Monte Carlo Tree Search for single-player games (see `docs/METHODS.md#mcts`).
//!
//! - [`search`] runs the full driver: root-parallel threads (independent trees, deterministic
//!   for a seed, thread count and iteration budget), random restarts, target score, observer.
//! - [`play_per_move`] searches, plays one move, and searches again from the new root reusing
//!   the subtree.
//! - [`MctsTree`] is one tree, for callers that drive the search themselves.
//!
//! ```
//! use puzzle_engine::{mcts, Budget, UniformRandom, toy::SumGame};
//! let game = SumGame::new(&[3, 1, 4, 1, 5], 3);
//! let cfg = mcts::MctsConfig { budget: Budget::iterations(2_000), seed: 1, ..Default::default() };
//! let result = mcts::search(&game, &cfg, &UniformRandom::default());
//! assert_eq!(result.best_score, 12.0); // 3 + 4 + 5
//! ```

mod config;
mod tree;

pub use config::{
    Amaf, ChildrenPerExpansion, Expansion, MctsConfig, MoveChoice, RewardTransform, SelectionPolicy,
};
pub use tree::{
    node_bytes, BestSequence, ChildStats, Found, IterationSample, MctsTree, Observer, TracePoint,
};

use crate::{Budget, Deadline, Game, PlayoutPolicy, Rng, StopReason};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// What an MCTS run produced.
#[derive(Clone, Debug)]
pub struct MctsResult<A> {
    /// The best complete action sequence ever seen (tree prefix + playout), from the root.
    pub best_sequence: Vec<A>,
    /// Its score (`-inf` if no playout reached a terminal state).
    pub best_score: f64,
    /// Iterations (playouts) over all threads and restarts.
    pub iterations: u64,
    /// Nodes at the end, summed over the threads' live trees.
    pub nodes: usize,
    /// The largest tree any thread held (never above the node budget).
    pub peak_nodes: usize,
    /// Wall time.
    pub elapsed: Duration,
    /// When the best sequence was found (since the start).
    pub time_to_best: Duration,
    /// Improvements of the overall best score over time, in time order.
    pub trace: Vec<TracePoint>,
    /// Root children statistics merged over the threads (of the last restart of each).
    pub root_children: Vec<ChildStats<A>>,
    /// Trees built (threads × restarts).
    pub trees: u64,
    /// The sampled iterations ([`MctsConfig::sample_every`]) of every thread and tree, in time
    /// order.
    pub samples: Vec<IterationSample>,
    /// Why the run ended: `Solved` if any thread reached the target score, else thread 0's.
    pub stop_reason: StopReason,
}

impl<A: Copy> MctsResult<A> {
    /// The root child with the best mean reward.
    pub fn best_mean_action(&self) -> Option<A> {
        self.root_children
            .iter()
            .filter(|c| c.visits > 0)
            .max_by(|a, b| a.mean().total_cmp(&b.mean()))
            .map(|c| c.action)
    }

    /// The root child with the most visits.
    pub fn most_visited_action(&self) -> Option<A> {
        self.root_children
            .iter()
            .max_by_key(|c| c.visits)
            .map(|c| c.action)
    }

    /// Iterations per second of wall time.
    pub fn iterations_per_second(&self) -> f64 {
        self.iterations as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

struct ThreadOutcome<A> {
    best: Option<BestSequence<A>>,
    iterations: u64,
    nodes: usize,
    peak_nodes: usize,
    trace: Vec<TracePoint>,
    root_children: Vec<ChildStats<A>>,
    trees: u64,
    samples: Vec<IterationSample>,
    stop: StopReason,
}

/// Run MCTS from `root` with `config`; `policy` is cloned for each thread.
pub fn search<G: Game, P: PlayoutPolicy<G>>(
    root: &G,
    config: &MctsConfig,
    policy: &P,
) -> MctsResult<G::Action> {
    search_observed(root, config, policy, None)
}

/// [`search`] with an observer that hears every new best (per tree) and every complete playout
/// above `config.report_threshold`, as they are found.
pub fn search_observed<G: Game, P: PlayoutPolicy<G>>(
    root: &G,
    config: &MctsConfig,
    policy: &P,
    observer: Option<Observer<'_, G>>,
) -> MctsResult<G::Action> {
    let threads = config.threads.max(1);
    // A private stop flag that also follows the user's, so a solved thread can stop the rest.
    let stop = Arc::new(AtomicBool::new(false));
    // An unbounded search would never return: fall back to the default time limit.
    let mut budget = config.budget.bounded();
    let user_stop = budget.stop.take();
    let budget = budget.with_stop_flag(stop.clone());
    let clock = budget.start();
    let outcomes: Vec<ThreadOutcome<G::Action>> = if threads == 1 {
        vec![run_thread(
            root,
            config,
            policy,
            0,
            1,
            &clock,
            &stop,
            user_stop.as_deref(),
            observer,
        )]
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    let clock = clock.clone();
                    let stop = stop.clone();
                    let user_stop = user_stop.clone();
                    scope.spawn(move || {
                        run_thread(
                            root,
                            config,
                            policy,
                            t,
                            threads,
                            &clock,
                            &stop,
                            user_stop.as_deref(),
                            observer,
                        )
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("MCTS thread panicked"))
                .collect()
        })
    };
    merge(outcomes, clock.elapsed())
}

#[allow(clippy::too_many_arguments)]
fn run_thread<G: Game, P: PlayoutPolicy<G>>(
    root: &G,
    config: &MctsConfig,
    policy: &P,
    thread: usize,
    threads: usize,
    clock: &Deadline,
    stop: &AtomicBool,
    user_stop: Option<&AtomicBool>,
    observer: Option<Observer<'_, G>>,
) -> ThreadOutcome<G::Action> {
    let mut policy = policy.clone();
    let quota = config.budget.thread_share(thread, threads).max_iterations;
    let mut out = ThreadOutcome {
        best: None,
        iterations: 0,
        nodes: 0,
        peak_nodes: 0,
        trace: Vec::new(),
        root_children: Vec::new(),
        trees: 0,
        samples: Vec::new(),
        stop: StopReason::Iterations,
    };
    let mut restart = 0u64;
    loop {
        let seed = Rng::stream_seed(config.seed, (restart * threads as u64) + thread as u64);
        let mut rng = Rng::new(seed);
        let mut tree = MctsTree::new(root.clone(), config);
        tree.origin = (thread, out.iterations);
        out.trees += 1;
        let left = quota.map(|q| q - out.iterations);
        let this_run = match (left, config.restart_after) {
            (Some(l), Some(r)) => Some(l.min(r)),
            (Some(l), None) => Some(l),
            (None, r) => r,
        };
        let mut reason = StopReason::Iterations;
        // Run in slices so the user's stop flag (Ctrl-C) is followed too.
        let mut remaining = this_run;
        loop {
            let slice = remaining.map_or(4096, |r| r.min(4096));
            if slice == 0 {
                break;
            }
            let before = tree.iterations;
            reason = tree.run(&mut policy, &mut rng, Some(slice), clock, observer);
            let ran = tree.iterations - before;
            if let Some(r) = remaining.as_mut() {
                *r -= ran;
            }
            if user_stop.is_some_and(|f| f.load(Ordering::Relaxed)) {
                stop.store(true, Ordering::Relaxed);
                reason = StopReason::Interrupted;
                break;
            }
            if reason != StopReason::Iterations {
                break;
            }
        }
        out.iterations += tree.iterations;
        out.samples.append(&mut tree.samples);
        out.peak_nodes = out.peak_nodes.max(tree.node_count());
        if let Some(b) = tree.best.take() {
            for p in &tree.trace_points {
                if out.best.as_ref().is_none_or(|ob| p.score > ob.score) {
                    out.trace.push(*p);
                }
            }
            if out.best.as_ref().is_none_or(|ob| b.score > ob.score) {
                out.best = Some(b);
            }
        }
        out.nodes = tree.node_count();
        out.root_children = tree.root_children();
        if reason == StopReason::Solved {
            stop.store(true, Ordering::Relaxed);
        }
        out.stop = reason;
        let quota_done = quota.is_some_and(|q| out.iterations >= q);
        // An exhausted tree has proven its best sequence optimal: no restart can do better.
        let tree_finished = reason == StopReason::Iterations;
        let unbounded = quota.is_none() && clock.remaining().is_none() && user_stop.is_none();
        if config.restart_after.is_none() || quota_done || !tree_finished || unbounded {
            break;
        }
        restart += 1;
    }
    out
}

fn merge<A: Copy + Eq>(outcomes: Vec<ThreadOutcome<A>>, elapsed: Duration) -> MctsResult<A> {
    let mut result = MctsResult {
        best_sequence: Vec::new(),
        best_score: f64::NEG_INFINITY,
        iterations: 0,
        nodes: 0,
        peak_nodes: 0,
        elapsed,
        time_to_best: Duration::ZERO,
        trace: Vec::new(),
        root_children: Vec::new(),
        trees: 0,
        samples: Vec::new(),
        // A thread that reached the target stops the others (they see `Interrupted`).
        stop_reason: if outcomes.iter().any(|o| o.stop == StopReason::Solved) {
            StopReason::Solved
        } else {
            outcomes.first().map_or(StopReason::Iterations, |o| o.stop)
        },
    };
    let mut points = Vec::new();
    for o in outcomes {
        result.iterations += o.iterations;
        result.nodes += o.nodes;
        result.peak_nodes = result.peak_nodes.max(o.peak_nodes);
        result.trees += o.trees;
        result.samples.extend(o.samples);
        points.extend(o.trace);
        if let Some(b) = o.best {
            if b.score > result.best_score {
                result.best_score = b.score;
                result.best_sequence = b.actions;
                result.time_to_best = b.elapsed;
            }
        }
        for c in o.root_children {
            if let Some(m) = result
                .root_children
                .iter_mut()
                .find(|m| m.action == c.action)
            {
                m.visits += c.visits;
                m.reward_sum += c.reward_sum;
                m.max_reward = match (m.max_reward, c.max_reward) {
                    (Some(a), Some(b)) => Some(a.max(b)),
                    (a, b) => a.or(b),
                };
            } else {
                result.root_children.push(c);
            }
        }
    }
    result.samples.sort_by(|a, b| a.time_s.total_cmp(&b.time_s));
    points.sort_by(|a, b| a.time_s.total_cmp(&b.time_s));
    let mut best = f64::NEG_INFINITY;
    for p in points {
        if p.score > best {
            best = p.score;
            result.trace.push(p);
        }
    }
    result
}

/// Per-move play (see `docs/METHODS.md#mcts-final-decision`): search with `per_move` budget, play
/// one move chosen by `config.move_choice`, re-root the tree on it (keeping the subtree), repeat
/// until the game ends or the overall `config.budget` runs out (then the rest of the best known
/// sequence, or random moves, finish the game). Single tree (`config.threads` is ignored). Returns
/// the moves played and the final score.
pub fn play_per_move<G: Game, P: PlayoutPolicy<G>>(
    root: &G,
    config: &MctsConfig,
    policy: &P,
    per_move: &Budget,
) -> MctsResult<G::Action> {
    let total_clock = config.budget.start();
    let mut policy = policy.clone();
    let mut rng = Rng::new(Rng::stream_seed(config.seed, 0));
    let mut tree = MctsTree::new(root.clone(), config);
    let mut played: Vec<G::Action> = Vec::new();
    let mut state = root.clone();
    let mut iterations = 0u64;
    let mut peak = 1usize;
    let mut overall_best: Option<(f64, Vec<G::Action>)> = None;
    let mut buffer = Vec::new();
    let mut stop = StopReason::Exhausted;
    while !state.is_terminal() {
        let out_of_time = total_clock.expired();
        if !out_of_time {
            let clock = per_move.start();
            let before = tree.iterations;
            let _ = tree.run(&mut policy, &mut rng, per_move.max_iterations, &clock, None);
            iterations += tree.iterations - before;
            peak = peak.max(tree.node_count());
        } else {
            stop = if total_clock.stopped() {
                StopReason::Interrupted
            } else {
                StopReason::Time
            };
        }
        if let Some(b) = &tree.best {
            let mut full = played.clone();
            full.extend_from_slice(&b.actions);
            if overall_best.as_ref().is_none_or(|(s, _)| b.score > *s) {
                overall_best = Some((b.score, full));
            }
        }
        let children = tree.root_children();
        let chosen = match config.move_choice {
            MoveChoice::BestSequence => overall_best
                .as_ref()
                .and_then(|(_, seq)| seq.get(played.len()).copied()),
            MoveChoice::BestMean => children
                .iter()
                .filter(|c| c.visits > 0)
                .max_by(|a, b| a.mean().total_cmp(&b.mean()))
                .map(|c| c.action),
            MoveChoice::MostVisited => children.iter().max_by_key(|c| c.visits).map(|c| c.action),
        };
        let action = match chosen {
            Some(a) => a,
            None => {
                state.legal_actions(&mut buffer);
                buffer[rng.below(buffer.len())]
            }
        };
        state.apply(action);
        played.push(action);
        tree.advance(action);
    }
    let score = state.score();
    MctsResult {
        best_sequence: played,
        best_score: score,
        iterations,
        nodes: tree.node_count(),
        peak_nodes: peak,
        elapsed: total_clock.elapsed(),
        time_to_best: total_clock.elapsed(),
        trace: Vec::new(),
        root_children: Vec::new(),
        trees: 1,
        samples: std::mem::take(&mut tree.samples),
        stop_reason: stop,
    }
}

#[cfg(test)]
mod tests;
