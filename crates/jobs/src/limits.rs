//! The budget knobs every job takes (the CLI's shared flags `--seed`, `--time-limit`,
//! `--iterations`, `--threads`, `--max-nodes`).

use puzzle_engine::Budget;
use serde::{Deserialize, Serialize};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// A job's budget settings; `None` means "the job's own default" (each job documents it).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct Limits {
    /// Random seed (runs are reproducible for a seed and thread count with an iteration budget).
    #[schemars(title = "Seed")]
    pub seed: Option<u64>,
    /// Time limit in seconds (per item where a job solves many).
    #[schemars(title = "Time limit (s)")]
    pub time_limit: Option<f64>,
    /// Iteration (simulation) budget.
    #[schemars(title = "Iterations")]
    pub iterations: Option<u64>,
    /// Worker threads (default 1, or the machine's cores where more threads help: each job
    /// documents its default).
    #[schemars(title = "Threads")]
    pub threads: Option<usize>,
    /// The most search nodes held at once.
    #[schemars(title = "Max nodes")]
    pub max_nodes: Option<usize>,
}

/// The machine's cores (`std::thread::available_parallelism`, 1 when unknown), at most `cap`
/// and at least 1.
pub fn machine_threads(cap: usize) -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, cap.max(1))
}

impl Limits {
    /// The seed, or `default`.
    pub fn seed_or(&self, default: u64) -> u64 {
        self.seed.unwrap_or(default)
    }

    /// The time limit, or `default` seconds.
    pub fn time_or(&self, default: f64) -> Duration {
        Duration::from_secs_f64(self.time_limit.unwrap_or(default))
    }

    /// The thread count, or `default`.
    pub fn threads_or(&self, default: usize) -> usize {
        self.threads.unwrap_or(default)
    }

    /// The thread count, or the machine's cores capped at `cap`, for the jobs where more
    /// threads help (`cap`: the most the job can use).
    pub fn threads_or_cores(&self, cap: usize) -> usize {
        self.threads.unwrap_or_else(|| machine_threads(cap))
    }

    /// The thread count, or, when no iteration budget is set, the machine's cores (at most
    /// `cap`); with an iteration budget the default is one thread, so that the command gives
    /// the same answer on every machine. For the root-parallel searches whose threads add work
    /// in the same time (Sokoban generation, SameGame's SP-MCTS and NRPA).
    pub fn threads_or_cores_when_timed(&self, cap: usize) -> usize {
        match self.iterations {
            Some(_) => self.threads_or(1),
            None => self.threads_or_cores(cap),
        }
    }

    /// Refuse values no job can run with (the CLI's parsers refuse them too; the server's
    /// requests come here unparsed).
    pub fn validate(&self) -> anyhow::Result<()> {
        if let Some(t) = self.time_limit {
            const MAX: f64 = 365.0 * 24.0 * 3600.0;
            if !t.is_finite() || t <= 0.0 || t > MAX {
                anyhow::bail!(
                    "time_limit must be more than 0 and at most {MAX} seconds (a year), not {t}"
                );
            }
        }
        if self.iterations == Some(0) {
            anyhow::bail!("iterations must be at least 1");
        }
        if let Some(t) = self.threads {
            if !(1..=256).contains(&t) {
                anyhow::bail!("threads must be 1 to 256, not {t}");
            }
        }
        if self.max_nodes == Some(0) {
            anyhow::bail!("max_nodes must be at least 1");
        }
        Ok(())
    }

    /// The time limit under the one budget rule: `time_limit` when given; none when only an
    /// iteration budget is given (so that a seeded run with `--iterations` does the same work
    /// on any machine); else the job's `default_time` seconds.
    pub fn time(&self, default_time: f64) -> Option<Duration> {
        match (self.time_limit, self.iterations) {
            (Some(t), _) => Some(Duration::from_secs_f64(t)),
            (None, Some(_)) => None,
            (None, None) => Some(Duration::from_secs_f64(default_time)),
        }
    }

    /// The budget of a search, by the one rule every job follows: `iterations` alone bounds
    /// the iterations only; `time_limit` alone bounds the time; both: whichever comes first;
    /// neither: the job's `default_time` seconds. `max_nodes` (default `default_nodes`) always
    /// bounds the nodes held at once, and `stop` ends the search early.
    pub fn budget(
        &self,
        default_time: f64,
        default_nodes: usize,
        stop: &Arc<AtomicBool>,
    ) -> Budget {
        Budget {
            max_iterations: self.iterations,
            max_time: self.time(default_time),
            max_nodes: self.max_nodes.unwrap_or(default_nodes),
            stop: Some(stop.clone()),
            progress: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_default_to_the_cores_within_the_cap_and_an_explicit_count_wins() {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let none = Limits::default();
        assert_eq!(none.threads_or_cores(2), cores.min(2));
        assert_eq!(none.threads_or_cores(1), 1);
        assert_eq!(none.threads_or_cores(0), 1);
        let one = Limits {
            threads: Some(1),
            ..Limits::default()
        };
        assert_eq!(one.threads_or_cores(2), 1);
    }

    #[test]
    fn one_budget_rule_for_time_and_iterations() {
        let stop = Arc::new(AtomicBool::new(false));
        let limits = |time_limit, iterations| Limits {
            time_limit,
            iterations,
            ..Limits::default()
        };
        let b = limits(None, None).budget(10.0, 5, &stop);
        assert_eq!(
            (b.max_time, b.max_iterations, b.max_nodes),
            (Some(Duration::from_secs(10)), None, 5)
        );
        let b = limits(None, Some(100)).budget(10.0, 5, &stop);
        assert_eq!((b.max_time, b.max_iterations), (None, Some(100)));
        let b = limits(Some(2.0), None).budget(10.0, 5, &stop);
        assert_eq!(
            (b.max_time, b.max_iterations),
            (Some(Duration::from_secs(2)), None)
        );
        let b = limits(Some(2.0), Some(100)).budget(10.0, 5, &stop);
        assert_eq!(
            (b.max_time, b.max_iterations),
            (Some(Duration::from_secs(2)), Some(100))
        );
        let nodes = Limits {
            max_nodes: Some(7),
            ..Limits::default()
        };
        assert_eq!(nodes.budget(10.0, 5, &stop).max_nodes, 7);
    }

    #[test]
    fn timed_runs_default_to_the_cores_and_iteration_budgets_to_one_thread() {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert_eq!(Limits::default().threads_or_cores_when_timed(256), cores);
        let iterations = Limits {
            iterations: Some(1000),
            ..Limits::default()
        };
        assert_eq!(iterations.threads_or_cores_when_timed(256), 1);
        let two = Limits {
            threads: Some(2),
            ..iterations
        };
        assert_eq!(two.threads_or_cores_when_timed(256), 2);
    }
}
