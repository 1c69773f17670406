//! Nested Rollout Policy Adaptation (Rosin 2011, "Nested Rollout Policy Adaptation for Monte
//! Carlo Tree Search", IJCAI); see `docs/METHODS.md#nrpa`.
//!
//! A policy maps action codes ([`Game::action_code`]) to weights; a level-0 search is one
//! playout choosing each move with probability proportional to `exp(weight)`. A level-`n`
//! search runs `iterations` level-`n−1` searches, each from a copy of its policy, keeps the
//! best sequence (ties go to the newer one, as in the paper's `>=`), and after each one adapts
//! its policy towards that best sequence: for every step, `+α` on the code of the move played
//! and `−α·p(m)` on every legal move's code (the gradient of the sequence's log-likelihood,
//! Rosin's Fig. 1 `Adapt`, computed from the policy before the update).
//!
//! Allocation: one policy map per level (copied with `clone_from`, which reuses its storage),
//! and buffers for the legal actions, their codes and weights, reused by every playout.
//!
//! `Adapt` never replays the game: every playout records, step by step, the codes of the legal
//! moves and which one it played (`CodedSequence`), and the best sequences of the levels
//! carry that record with them (moved by swapping, never copied). `Adapt` then costs policy
//! lookups only, where replaying would cost a full move generation per step — as much as the
//! playout itself.
//!
//! ```
//! use puzzle_engine::{nrpa, toy::SumGame, Budget};
//! let game = SumGame::new(&[3, 9, 1, 4, 8, 2, 7, 5, 6], 4);
//! let cfg = nrpa::NrpaConfig { level: 2, seed: 1, ..Default::default() };
//! let result = nrpa::search(&game, &cfg, &Budget::iterations(100_000));
//! assert_eq!(result.best_score, 30.0); // 9 + 8 + 7 + 6
//! ```

use crate::classic::meter::Meter;
use crate::{Budget, FxHashMap, Game, Rng, StopReason};
use std::collections::hash_map::Entry;
use std::time::Duration;

/// Settings of NRPA. `Default` = the paper's: `iterations` 100, `alpha` 1.0, one playout per
/// step; level 3.
#[derive(Clone, Debug, PartialEq)]
pub struct NrpaConfig {
    /// Nesting level (≥ 1; a level-`n` run makes `iterations^n` playouts).
    pub level: usize,
    /// Level-`n−1` searches per level-`n` search (N in the paper, 100).
    pub iterations: usize,
    /// Learning rate α (1.0 in the paper).
    pub alpha: f64,
    /// Playouts per level-1 step before each `Adapt`: P of Stabilized NRPA (Cazenave,
    /// Sevestre & Toulemont 2021, "Stabilized Nested Rollout Policy Adaptation"); 1 is
    /// Rosin's NRPA. A level-`n` run then makes `iterations^n · P` playouts.
    pub stabilization: usize,
    /// Seed of the playouts.
    pub seed: u64,
    /// Stop as soon as a sequence scores at least this.
    pub target_score: Option<f64>,
    /// Start again with a fresh policy (the random stream goes on) until a budget ends it
    /// (ignored when the budget has neither iterations nor time).
    pub repeat: bool,
    /// Lineages of the top level, cut by successive halving: a run starts this many
    /// independent top-level searches (each its own policy and best sequence), advances them
    /// one iteration each in turn (a level-`n−1` search, or at level 1 the playouts), and keeps the better half (by best score) whenever
    /// the iteration reaches `iterations / alive`, until one is left. 1 is Rosin's NRPA; with
    /// `B` lineages a run makes about `(1 + log2 B / 2) · iterations^n` playouts (B = 8:
    /// 2.5 runs' worth). A top-level beam in the spirit of Beam NRPA (Cazenave & Teytaud 2012).
    pub lineages: usize,
}

impl Default for NrpaConfig {
    fn default() -> Self {
        NrpaConfig {
            level: 3,
            iterations: 100,
            alpha: 1.0,
            stabilization: 1,
            seed: 0,
            target_score: None,
            repeat: false,
            lineages: 1,
        }
    }
}

/// What NRPA produced.
#[derive(Clone, Debug)]
pub struct NrpaResult<A> {
    /// The best complete sequence seen, from the root.
    pub best_sequence: Vec<A>,
    /// Its score (`-inf` if no playout ran).
    pub best_score: f64,
    /// Playouts run (the budget's iterations).
    pub playouts: u64,
    /// Complete runs at the requested level.
    pub runs: u64,
    /// Most policy entries held at once, summed over the levels (never above `max_nodes`: an
    /// update or copy that would pass it ends the search with `Nodes`).
    pub peak_policy_entries: usize,
    /// `Exhausted` when the run(s) finished, `Solved` on reaching the target, else the budget.
    pub stop_reason: StopReason,
    /// Wall time.
    pub elapsed: Duration,
    /// When the best sequence was found.
    pub time_to_best: Duration,
}

/// A callback that hears every new best (sequence from the root, score) as it is found.
pub type Observer<'a, A> = &'a mut dyn FnMut(&[A], f64);

/// A policy weight with its exponential cached (playouts and `Adapt` read `exp(w)` for every
/// legal move, which would otherwise dominate the run time).
#[derive(Clone, Copy, Debug)]
struct Weight {
    w: f64,
    exp: f64,
}

/// A policy: weights of action codes (absent = 0, so `exp` = 1).
type Policy = FxHashMap<u64, Weight>;

/// A sequence as a playout saw it: the moves, and for every step the codes of all legal moves
/// there and the index of the one played — everything `Adapt` needs (module doc).
#[derive(Clone, Debug)]
struct CodedSequence<A> {
    actions: Vec<A>,
    /// The legal moves' codes of every step, one after the other.
    codes: Vec<u64>,
    /// Per step: the end of its codes in `codes` (exclusive) and the played move's index there.
    steps: Vec<(u32, u32)>,
}

impl<A> Default for CodedSequence<A> {
    fn default() -> Self {
        CodedSequence {
            actions: Vec::new(),
            codes: Vec::new(),
            steps: Vec::new(),
        }
    }
}

impl<A> CodedSequence<A> {
    fn clear(&mut self) {
        self.actions.clear();
        self.codes.clear();
        self.steps.clear();
    }

    /// Record a step: the legal moves had `codes`, the move at `chosen` was played.
    fn push(&mut self, action: A, codes: &[u64], chosen: usize) {
        self.actions.push(action);
        self.codes.extend_from_slice(codes);
        self.steps.push((self.codes.len() as u32, chosen as u32));
    }

    /// Each step's codes and the played move's index among them.
    fn steps(&self) -> impl Iterator<Item = (&[u64], usize)> {
        let mut start = 0;
        self.steps.iter().map(move |&(end, chosen)| {
            let codes = &self.codes[start..end as usize];
            start = end as usize;
            (codes, chosen as usize)
        })
    }
}

/// One top-level search of [`NrpaConfig::lineages`]: its policy, its best sequence and that
/// sequence's score (`-inf` before its first search).
struct Lineage<A> {
    policy: Policy,
    best: CodedSequence<A>,
    score: f64,
}

impl<A> Default for Lineage<A> {
    fn default() -> Self {
        Lineage {
            policy: Policy::default(),
            best: CodedSequence::default(),
            score: f64::NEG_INFINITY,
        }
    }
}

/// The policy's weights `exp(policy[code])` of the legal moves with `codes` (Rosin's softmax,
/// see `docs/METHODS.md#nrpa`) into `weights` (cleared first); returns the weights' sum.
fn policy_weights(policy: &Policy, codes: &[u64], weights: &mut Vec<f64>) -> f64 {
    weights.clear();
    let mut total = 0.0;
    for &code in codes {
        let w = exp_weight(policy, code);
        total += w;
        weights.push(w);
    }
    total
}

/// `exp(weight)` of `code` under `policy`.
#[inline]
fn exp_weight(policy: &Policy, code: u64) -> f64 {
    policy.get(&code).map_or(1.0, |w| w.exp)
}

/// Run NRPA from `root`.
pub fn search<G: Game>(root: &G, config: &NrpaConfig, budget: &Budget) -> NrpaResult<G::Action> {
    search_observed(root, config, budget, None)
}

/// [`search`], calling `observer` with every new best sequence.
pub fn search_observed<G: Game>(
    root: &G,
    config: &NrpaConfig,
    budget: &Budget,
    observer: Option<Observer<'_, G::Action>>,
) -> NrpaResult<G::Action> {
    let levels = config.level.max(1);
    let mut nrpa = Nrpa::new(root, config, budget, observer);
    // Repeating without an iteration or time limit would never end: run once then.
    let unbounded = budget.is_unbounded();
    let mut runs = 0;
    loop {
        nrpa.policies[levels].clear();
        nrpa.top(levels);
        if nrpa.stop.is_none() {
            runs += 1;
        }
        if !config.repeat || nrpa.stop.is_some() || unbounded {
            break;
        }
    }
    nrpa.result(runs)
}

/// [`search_observed`] for one run (`config.repeat` is ignored) that starts from a known
/// complete sequence `start`: the top level takes it as its best so far, so its first
/// `Adapt` already moves the policy towards it and the search explores around it; the
/// result is never worse than `start`. A `start` that is not a legal complete sequence from
/// `root` is ignored (a plain run).
pub fn search_from<G: Game>(
    root: &G,
    config: &NrpaConfig,
    budget: &Budget,
    start: &[G::Action],
    observer: Option<Observer<'_, G::Action>>,
) -> NrpaResult<G::Action> {
    let levels = config.level.max(1);
    let mut nrpa = Nrpa::new(root, config, budget, observer);
    let mut state = root.clone();
    let mut known = CodedSequence::default();
    let (mut actions, mut codes) = (Vec::new(), Vec::new());
    let mut legal = true;
    for &action in start {
        state.legal_actions_coded(&mut actions, &mut codes);
        let Some(chosen) = actions.iter().position(|&a| a == action) else {
            legal = false;
            break;
        };
        known.push(action, &codes, chosen);
        state.apply(action);
    }
    state.legal_actions(&mut actions);
    if legal && actions.is_empty() {
        let score = state.score();
        nrpa.best = start.to_vec();
        nrpa.best_score = score;
        nrpa.initial = Some((known, score));
    }
    nrpa.top(levels);
    let runs = u64::from(nrpa.stop.is_none());
    nrpa.result(runs)
}

/// A callback shared by threads that hears every new best (sequence from the root, score).
pub type SharedObserver<'a, A> = &'a (dyn Fn(&[A], f64) + Sync);

/// Root-parallel NRPA: `threads` independent [`search`]es (thread `t` seeded with
/// [`Rng::stream_seed`]`(seed, t)`), the best sequence kept. The iteration budget and the
/// policy-entry bound (`max_nodes`) are shared out between the threads, the time limit and
/// the stop flag apply to each. `observer` hears every improvement over all threads. One
/// thread is exactly [`search_observed`] with `config.seed`. A thread that reaches
/// `target_score` stops itself only.
///
/// ```
/// use puzzle_engine::{nrpa, toy::SumGame, Budget};
/// let game = SumGame::new(&[3, 9, 1, 4, 8, 2, 7, 5, 6], 4);
/// let cfg = nrpa::NrpaConfig { level: 2, seed: 1, ..Default::default() };
/// let result = nrpa::search_parallel(&game, &cfg, &Budget::iterations(20_000), 2, None);
/// assert_eq!(result.best_score, 30.0);
/// assert_eq!(result.playouts, 20_000);
/// ```
pub fn search_parallel<G: Game>(
    root: &G,
    config: &NrpaConfig,
    budget: &Budget,
    threads: usize,
    observer: Option<SharedObserver<'_, G::Action>>,
) -> NrpaResult<G::Action> {
    let threads = threads.max(1);
    let best_seen = std::sync::Mutex::new(f64::NEG_INFINITY);
    best_of_threads(threads, |thread| {
        let mut config = config.clone();
        let mut budget = budget.clone();
        if threads > 1 {
            config.seed = Rng::stream_seed(config.seed, thread as u64);
            budget = budget.thread_share(thread, threads);
        }
        let mut hear = |sequence: &[G::Action], score: f64| {
            if let Some(observer) = observer {
                let mut best = best_seen.lock().unwrap_or_else(|e| e.into_inner());
                if score > *best {
                    *best = score;
                    observer(sequence, score);
                }
            }
        };
        search_observed(root, &config, &budget, Some(&mut hear))
    })
}

/// Runs `run(t)` for every thread `t < threads` side by side (on the calling thread when
/// there is one) and keeps the best result (ties: the lowest thread, so a run is
/// reproducible), with the playouts, runs and policy entries of all of them, the longest
/// time, and `Solved` if any thread reached its target.
pub fn best_of_threads<A: Send>(
    threads: usize,
    run: impl Fn(usize) -> NrpaResult<A> + Sync,
) -> NrpaResult<A> {
    if threads <= 1 {
        return run(0);
    }
    let results: Vec<NrpaResult<A>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let run = &run;
                scope.spawn(move || run(t))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("NRPA thread panicked"))
            .collect()
    });
    let playouts = results.iter().map(|r| r.playouts).sum();
    let runs = results.iter().map(|r| r.runs).sum();
    let peak = results.iter().map(|r| r.peak_policy_entries).sum();
    let elapsed = results.iter().map(|r| r.elapsed).max().unwrap_or_default();
    let solved = results.iter().any(|r| r.stop_reason == StopReason::Solved);
    let mut best = results
        .into_iter()
        .reduce(|a, b| if b.best_score > a.best_score { b } else { a })
        .expect("at least one thread");
    best.playouts = playouts;
    best.runs = runs;
    best.peak_policy_entries = peak;
    best.elapsed = elapsed;
    if solved {
        best.stop_reason = StopReason::Solved;
    }
    best
}

struct Nrpa<'o, G: Game> {
    root: G,
    config: NrpaConfig,
    rng: Rng,
    meter: Meter,
    max_entries: usize,
    stop: Option<StopReason>,
    /// `policies[l]`: the policy of the level-`l` search (level 0 plays with level 1's).
    policies: Vec<Policy>,
    /// `bests[l]`: the best sequence of the level-`l` search (`bests[0]`: the last playout).
    bests: Vec<CodedSequence<G::Action>>,
    /// The top level's lineages when `config.lineages > 1`.
    lineages: Vec<Lineage<G::Action>>,
    state: G,
    actions: Vec<G::Action>,
    codes: Vec<u64>,
    weights: Vec<f64>,
    deltas: Vec<(u64, f64)>,
    /// Codes whose weight `Adapt` changed (their `exp` is due).
    dirty: Vec<u64>,
    best: Vec<G::Action>,
    best_score: f64,
    time_to_best: Duration,
    peak_entries: usize,
    observer: Option<Observer<'o, G::Action>>,
    /// A known complete sequence and its score, the top level's best before its first
    /// search ([`search_from`]).
    initial: Option<(CodedSequence<G::Action>, f64)>,
}

impl<'o, G: Game> Nrpa<'o, G> {
    fn new(
        root: &G,
        config: &NrpaConfig,
        budget: &Budget,
        observer: Option<Observer<'o, G::Action>>,
    ) -> Self {
        let levels = config.level.max(1);
        Nrpa {
            root: root.clone(),
            config: config.clone(),
            rng: Rng::new(config.seed),
            meter: Meter::start(budget),
            max_entries: budget.max_nodes,
            stop: None,
            policies: vec![Policy::default(); levels + 1],
            bests: (0..=levels).map(|_| CodedSequence::default()).collect(),
            lineages: Vec::new(),
            state: root.clone(),
            actions: Vec::new(),
            codes: Vec::new(),
            weights: Vec::new(),
            deltas: Vec::new(),
            dirty: Vec::new(),
            best: Vec::new(),
            best_score: f64::NEG_INFINITY,
            time_to_best: Duration::ZERO,
            peak_entries: 0,
            observer,
            initial: None,
        }
    }
}

impl<G: Game> Nrpa<'_, G> {
    /// What the search produced, after `runs` complete runs at the top level.
    fn result(self, runs: u64) -> NrpaResult<G::Action> {
        NrpaResult {
            best_sequence: self.best,
            best_score: self.best_score,
            playouts: self.meter.done,
            runs,
            peak_policy_entries: self.peak_entries,
            stop_reason: self.stop.unwrap_or(StopReason::Exhausted),
            elapsed: self.meter.elapsed(),
            time_to_best: self.time_to_best,
        }
    }

    /// The level-`level` search; its best sequence ends in `bests[level]`.
    fn level(&mut self, level: usize) -> f64 {
        let mut best_score = f64::NEG_INFINITY;
        let mut best = std::mem::take(&mut self.bests[level]);
        best.clear();
        if level == self.config.level.max(1) {
            if let Some((known, score)) = self.initial.take() {
                best = known;
                best_score = score;
            }
        }
        for _ in 0..self.config.iterations {
            if !self.iterate(level, &mut best, &mut best_score) {
                break;
            }
        }
        self.bests[level] = best;
        best_score
    }

    /// One iteration of a level-`level` search with the policy in `policies[level]`: the
    /// searches of the level below (one, or at level 1 Stabilized NRPA's P playouts), the best
    /// sequence kept in `best` and `best_score` (ties: the newer), then `Adapt` towards `best`.
    /// Returns false when the search must stop (a budget, or the entry bound).
    fn iterate(
        &mut self,
        level: usize,
        best: &mut CodedSequence<G::Action>,
        best_score: &mut f64,
    ) -> bool {
        // Stabilized NRPA: level 1 plays P playouts with the same policy per adaptation.
        let runs = if level == 1 {
            self.config.stabilization.max(1)
        } else {
            1
        };
        for _ in 0..runs {
            let score = if level == 1 {
                self.playout()
            } else {
                if !self.room_for_copy(level - 1, self.policies[level].len()) {
                    return false;
                }
                let (lower, upper) = self.policies.split_at_mut(level);
                lower[level - 1].clone_from(&upper[0]);
                self.level(level - 1)
            };
            if self.stop.is_some() {
                return false;
            }
            if score >= *best_score {
                *best_score = score;
                // The level below clears `bests[level - 1]` before it writes there again.
                std::mem::swap(best, &mut self.bests[level - 1]);
            }
        }
        self.adapt(level, best);
        self.stop.is_none()
    }

    /// One run of the top level (`level`): Rosin's level search, or with
    /// [`NrpaConfig::lineages`] > 1 the lineages; the best sequence ends in `bests[level]`.
    fn top(&mut self, level: usize) -> f64 {
        if self.config.lineages > 1 {
            self.lineages(level)
        } else {
            self.level(level)
        }
    }

    /// The top level as [`NrpaConfig::lineages`] lineages cut by successive halving; the best
    /// sequence of the lineage left ends in `bests[level]`. A known sequence
    /// ([`search_from`]) is every lineage's best before its first search.
    fn lineages(&mut self, level: usize) -> f64 {
        let iterations = self.config.iterations;
        let mut alive = self.config.lineages.max(1);
        self.lineages.clear();
        self.lineages.resize_with(alive, Lineage::default);
        if let Some((known, score)) = self.initial.take() {
            for lineage in &mut self.lineages {
                (lineage.best, lineage.score) = (known.clone(), score);
            }
        }
        'run: for iteration in 0..iterations {
            while alive > 1 && iteration >= iterations / alive {
                alive /= 2;
                // The better half stays (ties: the older lineage, so a run is reproducible).
                self.lineages.sort_by(|a, b| b.score.total_cmp(&a.score));
                self.lineages.truncate(alive);
            }
            for i in 0..alive {
                // The lineage's policy and best take the level's place for one iteration.
                let lineage = &mut self.lineages[i];
                std::mem::swap(&mut self.policies[level], &mut lineage.policy);
                let mut best = std::mem::take(&mut lineage.best);
                let mut score = lineage.score;
                let go_on = self.iterate(level, &mut best, &mut score);
                let lineage = &mut self.lineages[i];
                (lineage.best, lineage.score) = (best, score);
                std::mem::swap(&mut self.policies[level], &mut lineage.policy);
                if !go_on {
                    break 'run;
                }
            }
        }
        self.lineages.sort_by(|a, b| b.score.total_cmp(&a.score));
        let left = self.lineages.swap_remove(0);
        self.lineages.clear();
        self.bests[level] = left.best;
        left.score
    }

    /// One playout from the root with the policy of level 1; the sequence goes to `bests[0]`.
    fn playout(&mut self) -> f64 {
        if let Some(reason) = self.meter.exhausted() {
            self.stop = Some(reason);
            return f64::NEG_INFINITY;
        }
        self.meter.tick();
        let policy = &self.policies[1];
        let mut trace = std::mem::take(&mut self.bests[0]);
        trace.clear();
        self.state.clone_from(&self.root);
        loop {
            self.state
                .legal_actions_coded(&mut self.actions, &mut self.codes);
            if self.actions.is_empty() {
                break;
            }
            let chosen = if self.actions.len() == 1 {
                0
            } else {
                let total = policy_weights(policy, &self.codes, &mut self.weights);
                let mut x = self.rng.f64() * total;
                let mut chosen = self.actions.len() - 1;
                for (i, &w) in self.weights.iter().enumerate() {
                    if x < w {
                        chosen = i;
                        break;
                    }
                    x -= w;
                }
                chosen
            };
            let action = self.actions[chosen];
            self.state.apply(action);
            trace.push(action, &self.codes, chosen);
        }
        let score = self.state.score();
        if score > self.best_score {
            self.best_score = score;
            self.best.clone_from(&trace.actions);
            self.time_to_best = self.meter.elapsed();
            if let Some(observer) = self.observer.as_mut() {
                observer(&self.best, score);
            }
            if self.config.target_score.is_some_and(|t| score >= t) {
                self.stop = Some(StopReason::Solved);
            }
        }
        self.bests[0] = trace;
        score
    }

    /// Rosin's `Adapt`: move `policies[level]` towards `sequence`, from the codes its playout
    /// recorded (no replay).
    fn adapt(&mut self, level: usize, sequence: &CodedSequence<G::Action>) {
        let alpha = self.config.alpha;
        let policy = &self.policies[level];
        self.deltas.clear();
        for (codes, chosen) in sequence.steps() {
            let total = policy_weights(policy, codes, &mut self.weights);
            self.deltas.push((codes[chosen], alpha));
            for (&code, &w) in codes.iter().zip(&self.weights) {
                self.deltas.push((code, -alpha * w / total));
            }
        }
        let others = self.entries() - self.policies[level].len();
        let policy = &mut self.policies[level];
        for &(code, delta) in &self.deltas {
            let full = others + policy.len() >= self.max_entries;
            let weight = match policy.entry(code) {
                Entry::Occupied(entry) => entry.into_mut(),
                Entry::Vacant(_) if full => {
                    self.stop = Some(StopReason::Nodes);
                    break;
                }
                Entry::Vacant(entry) => entry.insert(Weight { w: 0.0, exp: 1.0 }),
            };
            weight.w += delta;
            // A code gets deltas at many steps (a group lives through many moves): mark it
            // (NaN is never a cached exp) and take its `exp` once, below.
            if !weight.exp.is_nan() {
                weight.exp = f64::NAN;
                self.dirty.push(code);
            }
        }
        for &code in &self.dirty {
            if let Some(weight) = policy.get_mut(&code) {
                weight.exp = weight.w.exp();
            }
        }
        self.dirty.clear();
        self.peak_entries = self.peak_entries.max(others + policy.len());
    }

    /// Whether `policies[below]` may take a copy of a policy of `incoming` entries within the
    /// entry bound; if not, the search stops with `Nodes`. Records the peak.
    fn room_for_copy(&mut self, below: usize, incoming: usize) -> bool {
        let copied = self.entries() - self.policies[below].len() + incoming;
        if copied > self.max_entries {
            self.stop = Some(StopReason::Nodes);
            return false;
        }
        self.peak_entries = self.peak_entries.max(copied);
        true
    }

    /// Policy entries held over all levels.
    fn entries(&self) -> usize {
        self.policies.iter().map(|p| p.len()).sum::<usize>()
            + self.lineages.iter().map(|l| l.policy.len()).sum::<usize>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toy::{BinaryTreeGame, SumGame};
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;

    fn replay<G: Game>(root: &G, actions: &[G::Action]) -> (f64, bool) {
        let state = crate::replay(root, actions).unwrap();
        (state.score(), state.is_terminal())
    }

    /// The binary tree with codes that name the move *and* the depth (the toy's default code
    /// only names the move, which gives NRPA's policy nothing to learn per position).
    #[derive(Clone, Debug, PartialEq)]
    struct CodedTree {
        tree: BinaryTreeGame,
        depth: u64,
    }

    impl Game for CodedTree {
        type Action = bool;
        fn legal_actions(&self, out: &mut Vec<bool>) {
            self.tree.legal_actions(out)
        }
        fn apply(&mut self, action: bool) {
            self.tree.apply(action);
            self.depth += 1;
        }
        fn is_terminal(&self) -> bool {
            self.tree.is_terminal()
        }
        fn score(&self) -> f64 {
            self.tree.score()
        }
        fn action_code(&self, action: bool) -> u64 {
            self.depth * 2 + action as u64
        }
    }

    fn coded_tree(depth: u32, target: u64) -> CodedTree {
        CodedTree {
            tree: BinaryTreeGame::new(depth, target),
            depth: 0,
        }
    }

    fn sum_game() -> SumGame {
        let values: Vec<i64> = (0..32).map(|i| (i * 37 % 101) as i64).collect();
        SumGame::new(&values, 12)
    }

    #[test]
    fn finds_the_toy_optima() {
        let game = sum_game();
        let cfg = NrpaConfig {
            level: 2,
            seed: 4,
            ..Default::default()
        };
        let r = search(&game, &cfg, &Budget::iterations(1_000_000));
        assert_eq!(r.best_score, game.optimum() as f64);
        assert_eq!(replay(&game, &r.best_sequence), (r.best_score, true));
        assert_eq!(r.stop_reason, StopReason::Exhausted);
        assert_eq!(r.playouts, 100 * 100);

        let tree = coded_tree(48, 0xDEAD_BEEF_F00D);
        let r = search(&tree, &cfg, &Budget::iterations(1_000_000));
        assert_eq!(r.best_score, 1.0);
        assert_eq!(replay(&tree, &r.best_sequence), (1.0, true));
    }

    #[test]
    fn a_known_start_is_kept_and_searched_around() {
        // The target's path with its last move wrong scores 39/40; a level-1 run of 100
        // playouts from it keeps at least that, where the same run from nothing stays far
        // below.
        let target = 0x0012_3456_789A_u64;
        let tree = coded_tree(40, target);
        let mut start: Vec<bool> = (0..40).map(|i| target >> i & 1 == 1).collect();
        start[39] = !start[39];
        let cfg = NrpaConfig {
            level: 1,
            seed: 5,
            ..Default::default()
        };
        let budget = Budget::iterations(1_000_000);
        let warm = search_from(&tree, &cfg, &budget, &start, None);
        assert!(warm.best_score >= 39.0 / 40.0, "{}", warm.best_score);
        assert_eq!(replay(&tree, &warm.best_sequence), (warm.best_score, true));
        assert_eq!(warm.playouts, 100);
        let cold = search(&tree, &cfg, &budget);
        assert!(cold.best_score < 0.9, "{}", cold.best_score);
        // One playout: nothing better found, the start comes back.
        let one = search_from(&tree, &cfg, &Budget::iterations(1), &start, None);
        assert_eq!(one.best_sequence, start);
        assert_eq!(one.best_score, 39.0 / 40.0);
        // A start that is not a complete game is ignored: the plain run.
        let plain = search_from(&tree, &cfg, &budget, &start[..20], None);
        assert_eq!(plain.best_score, cold.best_score);
        assert_eq!(plain.best_sequence, cold.best_sequence);
        // With lineages the start is every lineage's best: kept, and still at least 39/40
        // (4 lineages for 25 iterations, 2 for 25, 1 for 50).
        let four = NrpaConfig { lineages: 4, ..cfg };
        let warm = search_from(&tree, &four, &budget, &start, None);
        assert_eq!(warm.playouts, 4 * 25 + 2 * 25 + 50);
        assert!(warm.best_score >= 39.0 / 40.0, "{}", warm.best_score);
        assert_eq!(replay(&tree, &warm.best_sequence), (warm.best_score, true));
        let one = search_from(&tree, &four, &Budget::iterations(1), &start, None);
        assert_eq!(one.best_sequence, start);
    }

    #[test]
    fn adaptation_beats_plain_sampling() {
        // Level 2 with adaptation against the same search with α = 0 (uniform sampling), same
        // playouts: 2,500 uniform playouts reach a 40-deep leaf with chance 2500 / 2^40.
        let tree = coded_tree(40, 0x0012_3456_789A);
        let adapt = NrpaConfig {
            level: 2,
            iterations: 50,
            seed: 7,
            ..Default::default()
        };
        let plain = NrpaConfig {
            alpha: 0.0,
            ..adapt.clone()
        };
        let a = search(&tree, &adapt, &Budget::iterations(1_000_000));
        let p = search(&tree, &plain, &Budget::iterations(1_000_000));
        assert_eq!(a.playouts, 2_500);
        assert_eq!(p.playouts, 2_500);
        assert!(a.best_score >= 0.9, "{}", a.best_score);
        assert!(p.best_score < 0.5, "{}", p.best_score);
    }

    #[test]
    fn recorded_codes_are_what_a_replay_sees() {
        // `Adapt` trusts the playouts' records: replaying each level's best sequence must meet
        // the same legal codes, in the same order, and the recorded move at the recorded index.
        let game = sum_game();
        let cfg = NrpaConfig {
            level: 2,
            iterations: 10,
            seed: 3,
            ..Default::default()
        };
        let mut nrpa = Nrpa::new(&game, &cfg, &Budget::iterations(1_000_000), None);
        nrpa.level(2);
        assert_eq!(nrpa.meter.done, 100);
        assert!(!nrpa.bests[2].actions.is_empty());
        for sequence in &nrpa.bests {
            let mut state = game.clone();
            let (mut actions, mut codes) = (Vec::new(), Vec::new());
            assert_eq!(sequence.steps.len(), sequence.actions.len());
            for ((recorded, chosen), &action) in sequence.steps().zip(&sequence.actions) {
                state.legal_actions_coded(&mut actions, &mut codes);
                assert_eq!(recorded, &codes[..]);
                assert_eq!(actions[chosen], action);
                state.apply(action);
            }
            assert!(sequence.actions.is_empty() || state.is_terminal());
        }
    }

    #[test]
    fn parallel_runs_share_the_budget_and_keep_the_best() {
        let game = sum_game();
        let cfg = NrpaConfig {
            level: 2,
            iterations: 20,
            seed: 9,
            repeat: true,
            ..Default::default()
        };
        let one = search_parallel(&game, &cfg, &Budget::iterations(3_000), 1, None);
        let plain = search(&game, &cfg, &Budget::iterations(3_000));
        assert_eq!(one.best_sequence, plain.best_sequence);
        let heard = std::sync::Mutex::new(Vec::new());
        let hear = |seq: &[u8], score: f64| {
            heard.lock().unwrap().push((seq.len(), score));
        };
        let three = search_parallel(&game, &cfg, &Budget::iterations(3_001), 3, Some(&hear));
        assert_eq!(three.playouts, 3_001);
        assert_eq!(
            replay(&game, &three.best_sequence),
            (three.best_score, true)
        );
        // Each thread is the plain search with its stream's seed and its share of the budget.
        let shares = [1_001, 1_000, 1_000];
        let best = (0..3)
            .map(|t| {
                let cfg = NrpaConfig {
                    seed: Rng::stream_seed(9, t),
                    ..cfg.clone()
                };
                search(&game, &cfg, &Budget::iterations(shares[t as usize])).best_score
            })
            .fold(f64::NEG_INFINITY, f64::max);
        assert_eq!(three.best_score, best);
        // The observer heard strictly rising scores ending at the best.
        let heard = heard.into_inner().unwrap();
        assert!(heard.windows(2).all(|w| w[0].1 < w[1].1));
        assert_eq!(heard.last().unwrap().1, three.best_score);
    }

    #[test]
    fn stabilized_runs_p_playouts_per_step() {
        let game = sum_game();
        let cfg = NrpaConfig {
            level: 2,
            iterations: 10,
            stabilization: 4,
            seed: 2,
            ..Default::default()
        };
        let r = search(&game, &cfg, &Budget::iterations(1_000_000));
        assert_eq!(r.playouts, 10 * 10 * 4);
        assert_eq!(r.runs, 1);
        assert_eq!(replay(&game, &r.best_sequence), (r.best_score, true));
        // It still learns: level 2 with P = 4 reaches the toy optimum.
        let cfg = NrpaConfig {
            iterations: 50,
            ..cfg
        };
        let r = search(&game, &cfg, &Budget::iterations(1_000_000));
        assert_eq!(r.best_score, game.optimum() as f64);
    }

    #[test]
    fn lineages_are_halved_on_schedule_and_bounded() {
        let game = sum_game();
        let cfg = NrpaConfig {
            level: 2,
            iterations: 100,
            lineages: 8,
            seed: 3,
            ..Default::default()
        };
        let r = search(&game, &cfg, &Budget::iterations(10_000_000));
        // 8 lineages for iterations 0..12, 4 for 12..25, 2 for 25..50, 1 for 50..100.
        assert_eq!(r.playouts, (8 * 12 + 4 * 13 + 2 * 25 + 50) * 100);
        assert_eq!(r.runs, 1);
        assert_eq!(r.stop_reason, StopReason::Exhausted);
        assert_eq!(replay(&game, &r.best_sequence), (r.best_score, true));
        assert_eq!(r.best_score, game.optimum() as f64);
        let again = search(&game, &cfg, &Budget::iterations(10_000_000));
        assert_eq!(again.best_sequence, r.best_sequence);
        // The lineages' policies count towards the entry bound.
        let r = search(
            &game,
            &cfg,
            &Budget::iterations(10_000_000).with_max_nodes(60),
        );
        assert_eq!(r.stop_reason, StopReason::Nodes);
        assert!(r.peak_policy_entries <= 60, "{}", r.peak_policy_entries);
        assert_eq!(replay(&game, &r.best_sequence), (r.best_score, true));
        // With one lineage the lineage loop is Rosin's top level, move for move.
        let one = NrpaConfig { lineages: 1, ..cfg };
        let budget = Budget::iterations(1_000_000);
        let mut a = Nrpa::new(&game, &one, &budget, None);
        let mut b = Nrpa::new(&game, &one, &budget, None);
        let (score_a, score_b) = (a.lineages(2), b.level(2));
        assert_eq!(score_a, score_b);
        assert_eq!(a.bests[2].actions, b.bests[2].actions);
        assert_eq!(
            (a.meter.done, a.best.clone()),
            (b.meter.done, b.best.clone())
        );
    }

    #[test]
    fn lineages_at_level_one_play_their_own_playouts() {
        // A level-1 lineage's step is its playouts (it panicked before level 1 had them).
        let game = sum_game();
        let cfg = NrpaConfig {
            level: 1,
            iterations: 100,
            lineages: 4,
            stabilization: 2,
            seed: 4,
            ..Default::default()
        };
        let r = search(&game, &cfg, &Budget::iterations(1_000_000));
        // 4 lineages for iterations 0..25, 2 for 25..50, 1 for 50..100; P = 2 playouts each.
        assert_eq!(r.playouts, (4 * 25 + 2 * 25 + 50) * 2);
        assert_eq!(r.stop_reason, StopReason::Exhausted);
        assert_eq!(replay(&game, &r.best_sequence), (r.best_score, true));
        let again = search(&game, &cfg, &Budget::iterations(1_000_000));
        assert_eq!(again.best_sequence, r.best_sequence);
    }

    #[test]
    fn deterministic_for_a_seed() {
        let game = sum_game();
        let cfg = NrpaConfig {
            level: 2,
            iterations: 20,
            seed: 5,
            ..Default::default()
        };
        let a = search(&game, &cfg, &Budget::iterations(100_000));
        let b = search(&game, &cfg, &Budget::iterations(100_000));
        assert_eq!(a.best_sequence, b.best_sequence);
        assert_eq!(a.playouts, 400);
    }

    #[test]
    fn budgets_stop_it_with_the_best_so_far() {
        let game = sum_game();
        let cfg = NrpaConfig::default();
        let r = search(&game, &cfg, &Budget::iterations(250));
        assert_eq!(r.stop_reason, StopReason::Iterations);
        assert_eq!(r.playouts, 250);
        assert_eq!(replay(&game, &r.best_sequence), (r.best_score, true));
        let r = search(&game, &cfg, &Budget::time(Duration::from_millis(40)));
        assert_eq!(r.stop_reason, StopReason::Time);
        assert!(r.elapsed < Duration::from_secs(2), "{:?}", r.elapsed); // generous
        let flag = Arc::new(AtomicBool::new(true));
        let r = search(&game, &cfg, &Budget::iterations(9).with_stop_flag(flag));
        assert_eq!(r.stop_reason, StopReason::Interrupted);
        let r = search(&game, &cfg, &Budget::iterations(100_000).with_max_nodes(40));
        assert_eq!(r.stop_reason, StopReason::Nodes);
        assert!(r.peak_policy_entries <= 40);
        assert!(r.peak_policy_entries > 0);
        let target = NrpaConfig {
            level: 2,
            target_score: Some(game.optimum() as f64),
            repeat: true,
            ..Default::default()
        };
        let r = search(&game, &target, &Budget::iterations(10_000_000));
        assert_eq!(r.stop_reason, StopReason::Solved);
        assert_eq!(r.best_score, game.optimum() as f64);
    }
}
