//! DBS, depth-budgeted search over a [`Game`] (see `docs/METHODS.md#classic-dbs`, the SameGame
//! baseline): at each step every move sequence of up to `depth` moves is enumerated, each is
//! completed by a playout policy (greedy or random), the first move of the best complete sequence
//! is played, and the search repeats from the new state. The best complete sequence ever seen is
//! remembered, so the final score never falls below any sequence the search has evaluated.

use super::meter::Meter;
use crate::{Budget, Game, PlayoutPolicy, Rng, StopReason};
use std::time::Duration;

/// Settings of [`dbs`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DbsConfig {
    /// Length of the move sequences enumerated at each step (the "depth budget"); at least 1.
    pub depth: usize,
    /// Seed of the playout policy's randomness.
    pub seed: u64,
}

impl Default for DbsConfig {
    /// Depth 2: every pair of moves, completed greedily.
    fn default() -> Self {
        DbsConfig { depth: 2, seed: 0 }
    }
}

/// What [`dbs`] produced.
#[derive(Clone, Debug)]
pub struct DbsResult<A> {
    /// The best complete sequence from the root: the moves played, completed by the best
    /// continuation seen if a budget stopped the search early.
    pub sequence: Vec<A>,
    /// Its score (the score of the state it leads to).
    pub score: f64,
    /// Playouts (completions) run; one iteration of the budget is one playout.
    pub playouts: u64,
    /// Moves actually decided by the search.
    pub steps: usize,
    /// Most game states held at once (`depth` + 2; never above `max_nodes`).
    pub peak_stored: usize,
    /// `Exhausted` when the game was played to the end, else the budget that stopped it.
    pub stop_reason: StopReason,
    /// Wall time.
    pub elapsed: Duration,
}

/// A playout policy that always plays the move whose resulting state scores highest (ties
/// broken uniformly at random): the "greedy below the budget" completion of DBS.
#[derive(Clone, Debug)]
pub struct GreedyPolicy<G: Game> {
    actions: Vec<G::Action>,
    scratch: Option<G>,
    /// Stop after this many moves (`None`: play to the end).
    pub max_moves: Option<usize>,
}

impl<G: Game> Default for GreedyPolicy<G> {
    fn default() -> Self {
        GreedyPolicy {
            actions: Vec::new(),
            scratch: None,
            max_moves: None,
        }
    }
}

impl<G: Game> PlayoutPolicy<G> for GreedyPolicy<G> {
    fn playout(&mut self, state: &mut G, rng: &mut Rng, trace: &mut Vec<G::Action>) {
        let limit = self.max_moves.unwrap_or(usize::MAX);
        let scratch = self.scratch.get_or_insert_with(|| state.clone());
        while trace.len() < limit {
            state.legal_actions(&mut self.actions);
            if self.actions.is_empty() {
                break;
            }
            let mut best = self.actions[0];
            let mut best_score = f64::NEG_INFINITY;
            let mut ties = 0usize;
            for &action in &self.actions {
                scratch.clone_from(state);
                scratch.apply(action);
                let score = scratch.score();
                if score > best_score {
                    best_score = score;
                    best = action;
                    ties = 1;
                } else if score == best_score {
                    ties += 1;
                    if rng.below(ties) == 0 {
                        best = action;
                    }
                }
            }
            state.apply(best);
            trace.push(best);
        }
    }
}

/// Depth-budgeted search from `root`: see the module docs. `policy` completes each enumerated
/// sequence ([`GreedyPolicy`] for the classic DBS, any other policy for a sampled variant).
/// Stores `depth + 2` states; a `max_nodes` below that ends the search at once with
/// [`StopReason::Nodes`]. A budget that runs out mid-way returns the best complete sequence seen.
///
/// ```
/// use puzzle_engine::classic::{dbs, DbsConfig, GreedyPolicy};
/// use puzzle_engine::{toy::SumGame, Budget};
/// let game = SumGame::new(&[4, 9, 1, 7, 3], 2);
/// let result = dbs(&game, &DbsConfig::default(), &GreedyPolicy::default(), &Budget::iterations(1000));
/// assert_eq!(result.score, 16.0);
/// ```
pub fn dbs<G: Game, P: PlayoutPolicy<G>>(
    root: &G,
    config: &DbsConfig,
    policy: &P,
    budget: &Budget,
) -> DbsResult<G::Action> {
    let depth = config.depth.max(1);
    let mut search = Dbs {
        policy: policy.clone(),
        rng: Rng::new(config.seed),
        meter: Meter::start(budget),
        stop: None,
        states: vec![root.clone(); depth + 1],
        actions: vec![Vec::new(); depth],
        scratch: root.clone(),
        trace: Vec::new(),
        prefix: Vec::new(),
        best: Vec::new(),
        best_score: f64::NEG_INFINITY,
        step_best: None,
        playouts: 0,
    };
    let mut state = root.clone();
    let mut played: Vec<G::Action> = Vec::new();
    let peak_stored = depth + 2;
    if budget.max_nodes < peak_stored {
        search.stop = Some(StopReason::Nodes);
    }
    while search.stop.is_none() && !state.is_terminal() {
        search.states[0].clone_from(&state);
        search.prefix.clone_from(&played);
        search.step_best = None;
        search.enumerate(0, depth);
        let next = if search.best.len() > played.len() {
            search.best[played.len()]
        } else if let Some((_, action)) = search.step_best {
            action
        } else {
            break; // stopped before any playout at this step
        };
        if search.stop.is_some() {
            break;
        }
        state.apply(next);
        played.push(next);
    }
    let steps = played.len();
    let (sequence, score) = if state.is_terminal() && state.score() >= search.best_score {
        (played, state.score())
    } else if search.best_score > f64::NEG_INFINITY {
        (search.best, search.best_score)
    } else {
        (played, state.score())
    };
    DbsResult {
        sequence,
        score,
        playouts: search.playouts,
        steps,
        peak_stored: if budget.max_nodes < peak_stored {
            0
        } else {
            peak_stored
        },
        stop_reason: search.stop.unwrap_or(StopReason::Exhausted),
        elapsed: search.meter.elapsed(),
    }
}

/// The enumeration state of one DBS run (buffers reused across steps).
struct Dbs<G: Game, P> {
    policy: P,
    rng: Rng,
    meter: Meter,
    stop: Option<StopReason>,
    /// `states[k]`: the state after the first `k` enumerated moves of this step.
    states: Vec<G>,
    actions: Vec<Vec<G::Action>>,
    scratch: G,
    trace: Vec<G::Action>,
    /// Moves from the root to the state being extended (played moves + enumerated ones).
    prefix: Vec<G::Action>,
    best: Vec<G::Action>,
    best_score: f64,
    /// Best (score, first move) of the current step.
    step_best: Option<(f64, G::Action)>,
    playouts: u64,
}

impl<G: Game, P: PlayoutPolicy<G>> Dbs<G, P> {
    fn enumerate(&mut self, level: usize, depth: usize) {
        let mut actions = std::mem::take(&mut self.actions[level]);
        self.states[level].legal_actions(&mut actions);
        for &action in &actions {
            if self.stop.is_some() {
                break;
            }
            let (done, rest) = self.states.split_at_mut(level + 1);
            rest[0].clone_from(&done[level]);
            rest[0].apply(action);
            self.prefix.push(action);
            if level + 1 < depth && !rest[0].is_terminal() {
                self.enumerate(level + 1, depth);
            } else {
                self.complete(level + 1);
            }
            self.prefix.pop();
        }
        self.actions[level] = actions;
    }

    /// Complete the sequence ending at `states[level]` with a playout and keep it if best.
    fn complete(&mut self, level: usize) {
        if let Some(reason) = self.meter.exhausted() {
            self.stop = Some(reason);
            return;
        }
        self.meter.tick();
        self.playouts += 1;
        self.scratch.clone_from(&self.states[level]);
        self.trace.clear();
        self.policy
            .playout(&mut self.scratch, &mut self.rng, &mut self.trace);
        let score = self.scratch.score();
        // The first move of this step is prefix[len - level].
        let first = self.prefix[self.prefix.len() - level];
        if self.step_best.is_none_or_worse(score) {
            self.step_best = Some((score, first));
        }
        if score > self.best_score {
            self.best_score = score;
            self.best.clear();
            self.best.extend_from_slice(&self.prefix);
            self.best.extend_from_slice(&self.trace);
        }
    }
}

/// "Is there no entry, or one scoring below `score`?"
trait WorseThan {
    fn is_none_or_worse(&self, score: f64) -> bool;
}

impl<A> WorseThan for Option<(f64, A)> {
    fn is_none_or_worse(&self, score: f64) -> bool {
        match self {
            None => true,
            Some((s, _)) => *s < score,
        }
    }
}
