//! The budget knobs every job takes (the CLI's shared flags `--seed`, `--time-limit`,
//! `--iterations`, `--threads`, `--max-nodes`).

use puzzle_engine::Budget;
use serde::{Deserialize, Serialize};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// A job's budget settings; `None` means "the job's own default" (each job documents it).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Limits {
    /// Random seed (runs are reproducible for a seed and thread count with an iteration budget).
    pub seed: Option<u64>,
    /// Time limit in seconds (per item where a job solves many).
    pub time_limit: Option<f64>,
    /// Iteration (simulation) budget.
    pub iterations: Option<u64>,
    /// Worker threads.
    pub threads: Option<usize>,
    /// The most search nodes held at once.
    pub max_nodes: Option<usize>,
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

    /// Refuse values no job can run with (the CLI's parsers refuse them too; the server's
    /// requests come here unparsed).
    pub fn validate(&self) -> anyhow::Result<()> {
        if let Some(t) = self.time_limit {
            if !t.is_finite() || t <= 0.0 || t > 365.0 * 24.0 * 3600.0 {
                anyhow::bail!("time_limit must be a positive number of seconds, not {t}");
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

    /// A time budget (default `default_time` seconds) with the iteration and node limits and
    /// the stop flag.
    pub fn budget(
        &self,
        default_time: f64,
        default_nodes: usize,
        stop: &Arc<AtomicBool>,
    ) -> Budget {
        let mut b = Budget::time(self.time_or(default_time))
            .with_max_nodes(self.max_nodes.unwrap_or(default_nodes))
            .with_stop_flag(stop.clone());
        b.max_iterations = self.iterations;
        b
    }
}
