//! One MCTS tree in a flat arena (see `docs/METHODS.md#mcts`,
//! `docs/METHODS.md#mcts-expansion` and `docs/METHODS.md#engine-speed`).
//!
//! Nodes live in a `Vec` and link by `u32` index. A node's legal actions are computed once, on
//! its first expansion ("bloom"), into a contiguous block of child slots: the first `born` slots
//! are its children, the rest hold its untried actions. Each expansion swaps a random untried
//! slot to the front of the unborn part and makes it a child, so finding an untried action never
//! scans, and selection walks the children as one contiguous run of memory (the thesis's
//! first-child/next-sibling lists scattered them: measured 52 % of generation time in selection).
//! Scratch buffers are reused, so an iteration allocates nothing in steady state (except when a
//! new best sequence is stored). Unborn slots count against the node budget.

use super::config::{Amaf, ChildrenPerExpansion, MctsConfig, SelectionPolicy};
use crate::{Deadline, Game, PlayoutPolicy, Rng, StopReason};
use std::time::Duration;

const NONE: u32 = u32::MAX;
const FLAG_BLOOMED: u8 = 1;
const FLAG_TERMINAL: u8 = 2;
/// Solved (with [`MctsConfig::mark_solved`]): terminal, or fully expanded with every child
/// solved. Selection skips it.
const FLAG_SOLVED: u8 = 4;

/// One node: what every selection policy reads (32 bytes for a 4-byte action). The spread of
/// the rewards (sum of squares, best), which only some policies read, lives in the parallel
/// [`Spread`] arena, so plain UCB1 trees (the generator's default) take 32 bytes a node instead
/// of 56. Nodes do not store their parent: backpropagation follows the iteration's path.
#[derive(Clone, Debug)]
struct Node<A> {
    action: Option<A>,
    /// First slot of the child block (NONE before bloom).
    first_child: u32,
    /// Children created so far (the first `born` slots of the block).
    born: u32,
    /// Size of the child block (= legal actions at bloom).
    slots: u32,
    visits: u32,
    flags: u8,
    sum: f64,
}

impl<A> Node<A> {
    fn new(action: Option<A>) -> Self {
        Node {
            action,
            first_child: NONE,
            born: 0,
            slots: 0,
            visits: 0,
            flags: 0,
            sum: 0.0,
        }
    }
}

/// The spread of a node's rewards, kept (parallel to the nodes) only when the selection
/// policy reads it: UCB1-Tuned and UCB-V (variance), SP-MCTS (variance and best reward).
#[derive(Clone, Copy, Debug)]
struct Spread {
    sum_sq: f64,
    max: f64,
}

impl Default for Spread {
    fn default() -> Self {
        Spread {
            sum_sq: 0.0,
            max: f64::NEG_INFINITY,
        }
    }
}

/// The bytes one node of a tree over actions `A` takes under `config` (the node, and the spread
/// and AMAF statistics where the configuration keeps them): what a node budget costs in memory.
/// Child blocks are allocated whole at a node's first expansion, so unborn slots count too.
pub fn node_bytes<A>(config: &MctsConfig) -> usize {
    std::mem::size_of::<Node<A>>()
        + if reads_spread(&config.selection) {
            std::mem::size_of::<Spread>()
        } else {
            0
        }
        + if matches!(config.amaf, Amaf::Off) {
            0
        } else {
            std::mem::size_of::<AmafStats>()
        }
}

/// Does `policy` read the rewards' spread (sum of squares, best)?
fn reads_spread(policy: &SelectionPolicy) -> bool {
    !matches!(policy, SelectionPolicy::Ucb1 { .. })
}

#[derive(Clone, Copy, Debug, Default)]
struct AmafStats {
    visits: u32,
    sum: f64,
}

/// Statistics of one root child, for the "best mean" and "most visited" decisions.
#[derive(Clone, Debug, PartialEq)]
pub struct ChildStats<A> {
    /// The move.
    pub action: A,
    /// Visits through this child.
    pub visits: u64,
    /// Sum of the (transformed) rewards backed up through it.
    pub reward_sum: f64,
    /// Best (transformed) reward seen below it; `None` where the selection policy does not keep
    /// it (plain UCB1 trees store no reward spread, to halve their memory).
    pub max_reward: Option<f64>,
}

impl<A> ChildStats<A> {
    /// Mean (transformed) reward.
    pub fn mean(&self) -> f64 {
        if self.visits == 0 {
            f64::NEG_INFINITY
        } else {
            self.reward_sum / self.visits as f64
        }
    }
}

/// A complete playout reported to an observer: a new best, or one above the report threshold.
pub struct Found<'a, G: Game> {
    /// The whole action sequence from the search root (tree part + playout).
    pub sequence: &'a [G::Action],
    /// The terminal state it reached.
    pub state: &'a G,
    /// `state.score()`.
    pub score: f64,
    /// Iterations of this tree so far.
    pub iteration: u64,
    /// Time since the whole search started.
    pub elapsed: Duration,
    /// It beats every earlier sequence of this tree.
    pub new_best: bool,
    /// The thread whose tree found it (0 to `threads` − 1; 0 for a tree run directly), so
    /// that an observer can order finds of several threads the same way in every run.
    pub thread: usize,
    /// Iterations of this thread before this tree (its earlier restarts), so that
    /// `restart_offset + iteration` counts the thread's iterations.
    pub restart_offset: u64,
}

/// A callback for [`Found`] sequences, shared by all threads (use a `Mutex` or channel inside).
pub type Observer<'o, G> = &'o (dyn Fn(&Found<'_, G>) + Sync);

/// A point of the best-score-over-time trace (for plots like the thesis's figures 3.2–3.6).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TracePoint {
    /// Iterations of the tree that found it.
    pub iteration: u64,
    /// Seconds since the search started.
    pub time_s: f64,
    /// The new best score.
    pub score: f64,
}

/// One sampled iteration of a search ([`super::MctsConfig::sample_every`]; the generation
/// thesis's §3.10 measures every iteration's duration, the memory allocated, the depth where
/// the rollout began and the best score, its Figures 3.2 and 3.3).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IterationSample {
    /// The thread's iterations before this one (over its restarts).
    pub iteration: u64,
    /// Seconds since the search started, at the iteration's end.
    pub time_s: f64,
    /// The iteration's own duration, nanoseconds.
    pub duration_ns: u64,
    /// The tree's memory after it: nodes times [`node_bytes`] (the statistics arrays included),
    /// in bytes.
    pub tree_bytes: u64,
    /// Nodes of the tree after it.
    pub nodes: u64,
    /// The depth (tree edges from the root) of the node the rollout began at.
    pub depth: u32,
    /// Moves of the rollout.
    pub rollout: u32,
    /// The tree's best score so far (`-inf` before a complete sequence).
    pub best_score: f64,
}

/// The best complete sequence a tree has seen.
#[derive(Clone, Debug)]
pub struct BestSequence<A> {
    /// Actions from the root.
    pub actions: Vec<A>,
    /// Its score (`Game::score` of the terminal state).
    pub score: f64,
    /// Iteration at which it was found.
    pub iteration: u64,
    /// Time since the search started.
    pub elapsed: Duration,
}

/// One MCTS tree over game `G`. Use [`super::search`] for the full driver (threads, restarts);
/// use the tree directly for per-move play with subtree reuse.
pub struct MctsTree<G: Game> {
    root: G,
    nodes: Vec<Node<G::Action>>,
    /// Parallel to `nodes` when the selection policy reads the spread, else empty.
    spread: Vec<Spread>,
    amaf: Vec<AmafStats>,
    max_nodes: usize,
    config: MctsConfig,
    // scratch
    state: G,
    path: Vec<u32>,
    actions: Vec<G::Action>,
    trace: Vec<G::Action>,
    sequence: Vec<G::Action>,
    /// Iterations run on this tree.
    pub iterations: u64,
    /// Best complete sequence seen (from the current root).
    pub best: Option<BestSequence<G::Action>>,
    /// Best-score-over-time trace.
    pub trace_points: Vec<TracePoint>,
    /// The sampled iterations ([`MctsConfig::sample_every`]).
    pub samples: Vec<IterationSample>,
    /// The thread running this tree and its iterations before this tree ([`Found::thread`],
    /// [`Found::restart_offset`]).
    pub origin: (usize, u64),
}

impl<G: Game> MctsTree<G> {
    /// A tree holding only `root`. The node budget is `config.budget.max_nodes`.
    pub fn new(root: G, config: &MctsConfig) -> Self {
        let state = root.clone();
        let max_nodes = config.budget.max_nodes.clamp(1, NONE as usize - 1);
        MctsTree {
            root,
            nodes: vec![Node::new(None)],
            spread: if reads_spread(&config.selection) {
                vec![Spread::default()]
            } else {
                Vec::new()
            },
            amaf: if matches!(config.amaf, Amaf::Off) {
                Vec::new()
            } else {
                vec![AmafStats::default()]
            },
            max_nodes,
            config: config.clone(),
            state,
            path: Vec::new(),
            actions: Vec::new(),
            trace: Vec::new(),
            sequence: Vec::new(),
            iterations: 0,
            best: None,
            trace_points: Vec::new(),
            samples: Vec::new(),
            origin: (0, 0),
        }
    }

    /// The root state.
    pub fn root_state(&self) -> &G {
        &self.root
    }

    /// Nodes in the tree (never more than the node budget).
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Visits of the root.
    pub fn root_visits(&self) -> u64 {
        self.nodes[0].visits as u64
    }

    /// Run iterations until `max_iterations` (for this call), the deadline, the stop flag or the
    /// target score. `clock` measures elapsed time for reports; `observer` hears new bests.
    pub fn run<P: PlayoutPolicy<G>>(
        &mut self,
        policy: &mut P,
        rng: &mut Rng,
        max_iterations: Option<u64>,
        clock: &Deadline,
        observer: Option<Observer<'_, G>>,
    ) -> StopReason {
        let limit = max_iterations.unwrap_or(u64::MAX);
        let mut done = 0u64;
        let mut reported = 0u64;
        let stop = loop {
            if done >= limit {
                break StopReason::Iterations;
            }
            if done.is_multiple_of(64) {
                clock.report_iterations(done - reported);
                reported = done;
                if clock.stopped() {
                    break StopReason::Interrupted;
                }
                if clock.expired() {
                    break StopReason::Time;
                }
            }
            if let (Some(target), Some(best)) = (self.config.target_score, &self.best) {
                if best.score >= target {
                    break StopReason::Solved;
                }
            }
            if self.nodes[0].flags & (FLAG_TERMINAL | FLAG_SOLVED) != 0 {
                break StopReason::Exhausted;
            }
            match self.config.sample_every {
                Some(n) if n > 0 && self.iterations.is_multiple_of(n) => {
                    let began = std::time::Instant::now();
                    self.iterate(policy, rng, clock, observer);
                    let duration = began.elapsed();
                    self.sample(duration, clock);
                }
                _ => self.iterate(policy, rng, clock, observer),
            }
            done += 1;
        };
        clock.report_iterations(done - reported);
        stop
    }

    /// Record the iteration just run ([`IterationSample`]): `duration` it took.
    fn sample(&mut self, duration: std::time::Duration, clock: &Deadline) {
        let nodes = self.nodes.len() as u64;
        self.samples.push(IterationSample {
            iteration: self.origin.1 + self.iterations - 1,
            time_s: clock.elapsed().as_secs_f64(),
            duration_ns: duration.as_nanos() as u64,
            tree_bytes: nodes * node_bytes::<G::Action>(&self.config) as u64,
            nodes,
            depth: self.path.len().saturating_sub(1) as u32,
            rollout: self.trace.len() as u32,
            best_score: self.best.as_ref().map_or(f64::NEG_INFINITY, |b| b.score),
        });
    }

    /// One iteration: selection, expansion, simulation, backpropagation.
    fn iterate<P: PlayoutPolicy<G>>(
        &mut self,
        policy: &mut P,
        rng: &mut Rng,
        clock: &Deadline,
        observer: Option<Observer<'_, G>>,
    ) {
        self.state.clone_from(&self.root);
        self.path.clear();
        let mut node = 0u32;
        self.path.push(node);
        // Selection and expansion.
        loop {
            let n = &self.nodes[node as usize];
            if n.flags & FLAG_TERMINAL != 0 {
                break;
            }
            if n.flags & FLAG_BLOOMED == 0 {
                if node != 0 && n.visits < self.config.expansion.visits_before_expand {
                    break;
                }
                if !self.bloom(node, rng) {
                    break; // node budget: simulate from here
                }
                if self.nodes[node as usize].flags & FLAG_TERMINAL != 0 {
                    break;
                }
            }
            let n = &self.nodes[node as usize];
            if n.born < n.slots {
                let child = self.expand_one(node, rng);
                let action = self.nodes[child as usize].action.expect("child has action");
                self.state.apply(action);
                self.path.push(child);
                break;
            }
            let child = self.select(node);
            if child == NONE {
                break; // every child solved (the node is marked solved below)
            }
            let action = self.nodes[child as usize].action.expect("child has action");
            self.state.apply(action);
            node = child;
            self.path.push(node);
            if self.nodes[node as usize].visits == 0 {
                break; // a fresh child (all-children expansion): simulate from it first
            }
        }
        // Simulation.
        self.trace.clear();
        policy.playout(&mut self.state, rng, &mut self.trace);
        let raw = self.state.reward(self.trace.len());
        let reward = self.config.reward.apply(raw);
        self.iterations += 1;
        // Backpropagation.
        for &id in &self.path {
            let n = &mut self.nodes[id as usize];
            n.visits += 1;
            n.sum += reward;
        }
        if !self.spread.is_empty() {
            for &id in &self.path {
                let s = &mut self.spread[id as usize];
                s.sum_sq += reward * reward;
                if reward > s.max {
                    s.max = reward;
                }
            }
        }
        if !self.amaf.is_empty() {
            self.update_amaf(reward);
        }
        let terminal = self.state.is_terminal();
        if self.config.mark_solved && (terminal && self.trace.is_empty() || self.all_solved()) {
            self.mark_solved();
        }
        // Best complete sequence.
        if terminal {
            let score = self.state.score();
            let new_best = self.best.as_ref().is_none_or(|b| score > b.score);
            let report = self.config.report_threshold.is_some_and(|t| score >= t);
            if new_best || report {
                self.sequence.clear();
                for &id in &self.path[1..] {
                    self.sequence
                        .push(self.nodes[id as usize].action.expect("child has action"));
                }
                self.sequence.extend_from_slice(&self.trace);
                let elapsed = clock.elapsed();
                if new_best {
                    self.best = Some(BestSequence {
                        actions: self.sequence.clone(),
                        score,
                        iteration: self.iterations,
                        elapsed,
                    });
                    self.trace_points.push(TracePoint {
                        iteration: self.iterations,
                        time_s: elapsed.as_secs_f64(),
                        score,
                    });
                }
                if let Some(obs) = observer {
                    obs(&Found {
                        sequence: &self.sequence,
                        state: &self.state,
                        score,
                        iteration: self.iterations,
                        elapsed,
                        new_best,
                        thread: self.origin.0,
                        restart_offset: self.origin.1,
                    });
                }
            }
        }
    }

    /// Is the last node of the path fully expanded with every child solved? (Only after a
    /// selection that found no unsolved child.)
    #[inline(never)]
    fn all_solved(&self) -> bool {
        let leaf = *self.path.last().expect("path has the root");
        let n = &self.nodes[leaf as usize];
        n.flags & FLAG_BLOOMED != 0
            && n.born == n.slots
            && n.slots > 0
            && self
                .children(leaf)
                .all(|c| self.nodes[c as usize].flags & FLAG_SOLVED != 0)
    }

    /// Mark the last node of the path solved (its state is terminal, or all its children are
    /// solved), then each ancestor whose children are now all solved, bottom-up.
    #[inline(never)]
    fn mark_solved(&mut self) {
        let leaf = *self.path.last().expect("path has the root") as usize;
        let n = &mut self.nodes[leaf];
        if n.slots == 0 {
            // A terminal state: no legal actions, so no child block.
            n.flags |= FLAG_BLOOMED | FLAG_TERMINAL;
        }
        n.flags |= FLAG_SOLVED;
        for i in (0..self.path.len() - 1).rev() {
            let id = self.path[i];
            let n = &self.nodes[id as usize];
            if n.flags & FLAG_BLOOMED == 0 || n.born < n.slots {
                break;
            }
            if !self
                .children(id)
                .all(|c| self.nodes[c as usize].flags & FLAG_SOLVED != 0)
            {
                break;
            }
            self.nodes[id as usize].flags |= FLAG_SOLVED;
        }
    }

    /// Compute the node's legal actions once into a block of child slots. Returns false if the
    /// block would exceed the node budget (the caller then simulates from the node).
    fn bloom(&mut self, node: u32, rng: &mut Rng) -> bool {
        self.state.legal_actions(&mut self.actions);
        let len = self.actions.len();
        if len == 0 {
            self.nodes[node as usize].flags |= FLAG_BLOOMED | FLAG_TERMINAL;
            return true;
        }
        if self.nodes.len() + len > self.max_nodes {
            return false;
        }
        let all = self.config.expansion.children == ChildrenPerExpansion::All;
        if all {
            rng.shuffle(&mut self.actions);
        }
        let first = self.nodes.len() as u32;
        for i in 0..len {
            self.nodes.push(Node::new(Some(self.actions[i])));
        }
        if !self.spread.is_empty() {
            self.spread.resize(self.nodes.len(), Spread::default());
        }
        if !self.amaf.is_empty() {
            self.amaf.resize(self.nodes.len(), AmafStats::default());
        }
        let n = &mut self.nodes[node as usize];
        n.first_child = first;
        n.slots = len as u32;
        n.born = if all { len as u32 } else { 0 };
        n.flags |= FLAG_BLOOMED;
        true
    }

    /// Make a random untried action of `node` its next child.
    fn expand_one(&mut self, node: u32, rng: &mut Rng) -> u32 {
        let n = &self.nodes[node as usize];
        let (first, born, slots) = (n.first_child as usize, n.born as usize, n.slots as usize);
        let pick = first + born + rng.below(slots - born);
        let child = first + born;
        if pick != child {
            let a = self.nodes[pick].action;
            self.nodes[pick].action = self.nodes[child].action;
            self.nodes[child].action = a;
        }
        self.nodes[node as usize].born += 1;
        child as u32
    }

    /// The child maximizing the selection formula (first unvisited child if any), skipping
    /// solved children; `NONE` if every child is solved.
    #[inline(always)]
    fn select(&self, node: u32) -> u32 {
        // Two copies of the loop, so the solved test costs nothing when marking is off.
        if self.config.mark_solved {
            self.select_among::<true>(node)
        } else {
            self.select_among::<false>(node)
        }
    }

    /// [`MctsTree::select`], skipping solved children if `SKIP_SOLVED`.
    #[inline(never)]
    fn select_among<const SKIP_SOLVED: bool>(&self, node: u32) -> u32 {
        let parent = &self.nodes[node as usize];
        let ln_n = (parent.visits.max(1) as f64).ln();
        let mut best = NONE;
        let mut best_value = f64::NEG_INFINITY;
        let first = parent.first_child;
        let children = &self.nodes[first as usize..(first + parent.born) as usize];
        for (i, child) in children.iter().enumerate() {
            let c = first + i as u32;
            if SKIP_SOLVED && child.flags & FLAG_SOLVED != 0 {
                continue;
            }
            if child.visits == 0 {
                return c;
            }
            let mut value = self.formula(c, child, ln_n);
            if !self.amaf.is_empty() {
                value = self.blend_amaf(c, child, value, ln_n);
            }
            if value > best_value {
                best_value = value;
                best = c;
            }
        }
        best
    }

    #[inline]
    fn formula(&self, id: u32, child: &Node<G::Action>, ln_n: f64) -> f64 {
        let nj = child.visits as f64;
        let mean = child.sum / nj;
        let spread = || self.spread[id as usize];
        match self.config.selection {
            SelectionPolicy::Ucb1 { c } => mean + c * (ln_n / nj).sqrt(),
            SelectionPolicy::Ucb1Tuned { c } => {
                let v = (spread().sum_sq / nj - mean * mean + (2.0 * ln_n / nj).sqrt()).max(0.0);
                mean + c * ((ln_n / nj) * v.min(0.25)).sqrt()
            }
            SelectionPolicy::UcbV { c, xi, b } => {
                let var = (spread().sum_sq / nj - mean * mean).max(0.0);
                let e = xi * ln_n;
                mean + (2.0 * var * e / nj).sqrt() + c * 3.0 * b * e / nj
            }
            SelectionPolicy::SpMcts { c, d, w } => {
                let s = spread();
                let dev = ((s.sum_sq - nj * mean * mean + d) / nj).max(0.0);
                mean + c * (ln_n / nj).sqrt() + dev.sqrt() + w * s.max
            }
        }
    }

    fn blend_amaf(&self, id: u32, child: &Node<G::Action>, uct: f64, ln_n: f64) -> f64 {
        let a = self.amaf[id as usize];
        if a.visits == 0 {
            return uct;
        }
        let amaf_mean = a.sum / a.visits as f64;
        match self.config.amaf {
            Amaf::Off => uct,
            Amaf::Alpha(alpha) => {
                let c = match self.config.selection {
                    SelectionPolicy::Ucb1 { c } | SelectionPolicy::SpMcts { c, .. } => c,
                    SelectionPolicy::Ucb1Tuned { c } | SelectionPolicy::UcbV { c, .. } => c,
                };
                let amaf_value = amaf_mean + c * (ln_n / a.visits as f64).sqrt();
                alpha * amaf_value + (1.0 - alpha) * uct
            }
            Amaf::Rave { k } => {
                let beta = (k / (3.0 * child.visits as f64 + k)).sqrt();
                beta * amaf_mean + (1.0 - beta) * uct
            }
        }
    }

    /// AMAF update: for each node on the path, every child whose action occurs later in the
    /// same iteration (tree part below it or playout) gets the reward too.
    fn update_amaf(&mut self, reward: f64) {
        // Sequence of actions after path[i] is path[i+1..] actions + trace.
        self.sequence.clear();
        for &id in &self.path[1..] {
            self.sequence
                .push(self.nodes[id as usize].action.expect("child has action"));
        }
        self.sequence.extend_from_slice(&self.trace);
        for (depth, &id) in self.path.iter().enumerate() {
            let later = &self.sequence[depth..];
            for c in self.children(id) {
                let action = self.nodes[c as usize].action.expect("child has action");
                if later.contains(&action) {
                    let a = &mut self.amaf[c as usize];
                    a.visits += 1;
                    a.sum += reward;
                }
            }
        }
    }

    /// Statistics of the root's children.
    pub fn root_children(&self) -> Vec<ChildStats<G::Action>> {
        self.children(0)
            .map(|c| {
                let n = &self.nodes[c as usize];
                ChildStats {
                    action: n.action.expect("child has action"),
                    visits: n.visits as u64,
                    reward_sum: n.sum,
                    max_reward: self.spread.get(c as usize).map(|s| s.max),
                }
            })
            .collect()
    }

    /// Make the child reached by `action` the new root, keeping its subtree (per-move mode).
    /// The subtree is copied into a fresh arena, so the memory of the other branches is freed.
    /// The best sequence is kept if it starts with `action` (shortened by it).
    pub fn advance(&mut self, action: G::Action) {
        let mut new_root = self.root.clone();
        new_root.apply(action);
        let found = self
            .children(0)
            .find(|&c| self.nodes[c as usize].action == Some(action));
        let keep_amaf = !self.amaf.is_empty();
        let keep_spread = !self.spread.is_empty();
        let mut nodes: Vec<Node<G::Action>> = Vec::new();
        let mut amaf = Vec::new();
        let mut spread = Vec::new();
        let copy = |old: &Node<G::Action>| Node {
            first_child: NONE,
            ..old.clone()
        };
        match found {
            Some(old_root) => {
                // Breadth-first copy: each node's whole child block is copied contiguously.
                let mut root = copy(&self.nodes[old_root as usize]);
                root.action = None;
                nodes.push(root);
                if keep_amaf {
                    amaf.push(self.amaf[old_root as usize]);
                }
                if keep_spread {
                    spread.push(self.spread[old_root as usize]);
                }
                let mut queue = vec![(old_root, 0u32)];
                let mut head = 0;
                while head < queue.len() {
                    let (old, new) = queue[head];
                    head += 1;
                    let o = &self.nodes[old as usize];
                    if o.slots == 0 {
                        continue;
                    }
                    let first = nodes.len() as u32;
                    for k in 0..o.slots {
                        let old_child = o.first_child + k;
                        nodes.push(copy(&self.nodes[old_child as usize]));
                        if keep_amaf {
                            amaf.push(self.amaf[old_child as usize]);
                        }
                        if keep_spread {
                            spread.push(self.spread[old_child as usize]);
                        }
                        if k < o.born {
                            queue.push((old_child, first + k));
                        }
                    }
                    nodes[new as usize].first_child = first;
                }
            }
            None => {
                nodes.push(Node::new(None));
                if keep_amaf {
                    amaf.push(AmafStats::default());
                }
                if keep_spread {
                    spread.push(Spread::default());
                }
            }
        }
        self.nodes = nodes;
        self.amaf = amaf;
        self.spread = spread;
        self.root = new_root;
        self.best = self.best.take().and_then(|mut b| {
            if b.actions.first() == Some(&action) {
                b.actions.remove(0);
                Some(b)
            } else {
                None
            }
        });
    }

    /// The created children of `node`, as indices.
    fn children(&self, node: u32) -> std::ops::Range<u32> {
        let n = &self.nodes[node as usize];
        if n.slots == 0 {
            0..0
        } else {
            n.first_child..n.first_child + n.born
        }
    }

    /// Check the tree's bookkeeping: each node's visits equal its children's visits plus the
    /// playouts that started at the node itself (never negative); child counts respect the
    /// budget. Returns a description of the first violation. Used by tests.
    pub fn validate(&self) -> Result<(), String> {
        if self.nodes.len() > self.max_nodes.max(1) {
            return Err(format!(
                "{} nodes exceed the budget {}",
                self.nodes.len(),
                self.max_nodes
            ));
        }
        if !self.spread.is_empty() && self.spread.len() != self.nodes.len() {
            return Err("the spread arena is not parallel to the nodes".into());
        }
        // Every node but the root lies in exactly one child block.
        let mut owner = vec![NONE; self.nodes.len()];
        for (i, n) in self.nodes.iter().enumerate() {
            if n.slots == 0 {
                continue;
            }
            let block = n.first_child as usize..(n.first_child + n.slots) as usize;
            if block.start == 0 || block.end > self.nodes.len() {
                return Err(format!("node {i}: child block {block:?} out of range"));
            }
            for c in block {
                if owner[c] != NONE {
                    return Err(format!("node {c} is in the blocks of {} and {i}", owner[c]));
                }
                owner[c] = i as u32;
            }
        }
        if let Some(orphan) = (1..self.nodes.len()).find(|&c| owner[c] == NONE) {
            return Err(format!("node {orphan} is in no child block"));
        }
        for (i, n) in self.nodes.iter().enumerate() {
            let mut sum = 0u64;
            if n.born > n.slots {
                return Err(format!(
                    "node {i}: {} children born of {} slots",
                    n.born, n.slots
                ));
            }
            for c in self.children(i as u32) {
                let child = &self.nodes[c as usize];
                if owner[c as usize] != i as u32 {
                    return Err(format!(
                        "node {c} is in the blocks of {} and {i}",
                        owner[c as usize]
                    ));
                }
                sum += child.visits as u64;
            }
            let unborn = if n.slots == 0 {
                0..0
            } else {
                n.first_child + n.born..n.first_child + n.slots
            };
            for c in unborn {
                if self.nodes[c as usize].visits != 0 {
                    return Err(format!("unborn slot {c} of node {i} has visits"));
                }
            }
            if sum > n.visits as u64 {
                return Err(format!(
                    "node {i}: children visits {sum} exceed its visits {}",
                    n.visits
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod layout {
    use super::Node;

    /// A node of a tree over actions that take 4 bytes as an `Option` (the Sokoban generator's
    /// `GenAction`, a `u16`) takes 32 bytes; with the reward spread inline it took 56.
    #[test]
    fn a_node_takes_32_bytes() {
        assert_eq!(std::mem::size_of::<Option<u16>>(), 4);
        assert_eq!(std::mem::size_of::<Node<u16>>(), 32);
    }
}
