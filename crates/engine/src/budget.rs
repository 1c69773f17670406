//! Search budgets (see `docs/METHODS.md#engine-budget`): iterations, wall time, node count and an
//! external stop flag (Ctrl-C). A search never exceeds its node budget; time is checked often
//! enough that a search overshoots its deadline by at most a few milliseconds.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long a search may run and how much memory (nodes) it may hold.
///
/// ```
/// use puzzle_engine::Budget;
/// use std::time::Duration;
/// let b = Budget::iterations(1000).with_time(Duration::from_secs(1)).with_max_nodes(10_000);
/// assert_eq!(b.max_iterations, Some(1000));
/// ```
#[derive(Clone, Debug)]
pub struct Budget {
    /// Stop after this many iterations (MCTS: playouts; other searches: their unit of work).
    pub max_iterations: Option<u64>,
    /// Stop after this much wall time.
    pub max_time: Option<Duration>,
    /// Never hold more than this many nodes (tree nodes, open/closed entries, ...).
    pub max_nodes: usize,
    /// Stop as soon as this flag is set (Ctrl-C, another thread found the answer, ...).
    pub stop: Option<Arc<AtomicBool>>,
    /// Where a running search adds up its work for an onlooker (a progress bar, the
    /// workbench's live chart). MCTS adds its iterations every 64 iterations, so reading it
    /// costs the search nothing measurable.
    pub progress: Option<Arc<WorkCounter>>,
}

/// Work done so far by the searches sharing one budget, readable from another thread while
/// they run (see [`Budget::progress`]).
#[derive(Debug, Default)]
pub struct WorkCounter {
    iterations: AtomicU64,
}

impl WorkCounter {
    /// A counter at zero.
    pub fn new() -> Self {
        Self::default()
    }

    /// Iterations reported so far (all threads).
    pub fn iterations(&self) -> u64 {
        self.iterations.load(Ordering::Relaxed)
    }

    /// Add `n` iterations.
    pub fn add_iterations(&self, n: u64) {
        self.iterations.fetch_add(n, Ordering::Relaxed);
    }
}

/// Default node budget: 2^24 nodes (a few hundred MB at most for the node types used here).
pub const DEFAULT_MAX_NODES: usize = 1 << 24;

impl Default for Budget {
    fn default() -> Self {
        Budget {
            max_iterations: None,
            max_time: Some(Duration::from_secs(10)),
            max_nodes: DEFAULT_MAX_NODES,
            stop: None,
            progress: None,
        }
    }
}

impl Budget {
    /// Only an iteration limit (deterministic for a seed), default node budget.
    pub fn iterations(n: u64) -> Self {
        Budget {
            max_iterations: Some(n),
            max_time: None,
            ..Budget::default()
        }
    }

    /// Only a time limit, default node budget.
    pub fn time(limit: Duration) -> Self {
        Budget {
            max_iterations: None,
            max_time: Some(limit),
            ..Budget::default()
        }
    }

    /// Also stop after `limit` of wall time.
    pub fn with_time(mut self, limit: Duration) -> Self {
        self.max_time = Some(limit);
        self
    }

    /// Also stop after `n` iterations.
    pub fn with_iterations(mut self, n: u64) -> Self {
        self.max_iterations = Some(n);
        self
    }

    /// Thread `thread`'s share of this budget when `threads` threads search side by side:
    /// the iterations and the node budget split between them (the first `n mod threads`
    /// threads take one iteration more), the time limit and the stop flag shared.
    pub fn thread_share(&self, thread: usize, threads: usize) -> Budget {
        let t = threads.max(1) as u64;
        Budget {
            max_iterations: self
                .max_iterations
                .map(|n| n / t + u64::from((thread as u64) < n % t)),
            max_nodes: (self.max_nodes / threads.max(1)).max(1),
            ..self.clone()
        }
    }

    /// Set the node budget.
    pub fn with_max_nodes(mut self, n: usize) -> Self {
        self.max_nodes = n;
        self
    }

    /// Stop when `flag` becomes true.
    pub fn with_stop_flag(mut self, flag: Arc<AtomicBool>) -> Self {
        self.stop = Some(flag);
        self
    }

    /// Report work to `counter` while running.
    pub fn with_progress(mut self, counter: Arc<WorkCounter>) -> Self {
        self.progress = Some(counter);
        self
    }

    /// Neither an iteration nor a time limit is set: a search that does not end by itself
    /// (MCTS, IDA* on an infinite space, repeated NMCS/NRPA) would run forever.
    pub fn is_unbounded(&self) -> bool {
        self.max_iterations.is_none() && self.max_time.is_none()
    }

    /// This budget, with the default time limit added if it [`is_unbounded`](Self::is_unbounded).
    pub fn bounded(&self) -> Budget {
        let mut b = self.clone();
        if b.is_unbounded() {
            b.max_time = Budget::default().max_time;
        }
        b
    }

    /// Start the clock: a [`Deadline`] to poll in the search loop.
    pub fn start(&self) -> Deadline {
        let start = Instant::now();
        Deadline {
            start,
            end: self.max_time.map(|t| start + t),
            stop: self.stop.clone(),
            progress: self.progress.clone(),
        }
    }
}

/// A running budget clock: the deadline and the stop flag.
#[derive(Clone, Debug)]
pub struct Deadline {
    start: Instant,
    end: Option<Instant>,
    stop: Option<Arc<AtomicBool>>,
    progress: Option<Arc<WorkCounter>>,
}

impl Deadline {
    /// Report `n` more iterations to the budget's [`WorkCounter`], if it has one.
    pub fn report_iterations(&self, n: u64) {
        if let Some(p) = &self.progress {
            p.add_iterations(n);
        }
    }

    /// When the search started.
    pub fn started(&self) -> Instant {
        self.start
    }

    /// Time since the start.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The time is up or the stop flag is set. Costs a clock read: poll it every few iterations.
    pub fn expired(&self) -> bool {
        self.stopped() || self.end.is_some_and(|end| Instant::now() >= end)
    }

    /// The stop flag is set (cheap: one atomic load).
    pub fn stopped(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
    }

    /// Time left, if there is a time limit.
    pub fn remaining(&self) -> Option<Duration> {
        self.end
            .map(|end| end.saturating_duration_since(Instant::now()))
    }
}

/// Why a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StopReason {
    /// The search space was exhausted (for exact searches: the answer is proved).
    Exhausted,
    /// A goal / target score was reached.
    Solved,
    /// The iteration budget ran out.
    Iterations,
    /// The time budget ran out.
    Time,
    /// The node budget was reached and the search could not go on without exceeding it.
    Nodes,
    /// The stop flag was set (Ctrl-C).
    Interrupted,
}
