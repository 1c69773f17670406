//! The budget knobs every job takes (the CLI's shared flags `--seed`, `--time-limit`,
//! `--iterations`, `--threads`, `--max-nodes`), declared once here: their flags, JSON, schema
//! and the rules a value must follow. Each job says which of them it reads
//! ([`crate::Job::READS`]); a setting it does not read is refused, never dropped.

use puzzle_engine::Budget;
use serde::{Deserialize, Serialize};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// A job's budget settings; `None` means "the job's own default" (each job documents it).
///
/// The CLI takes them as global flags (they may stand anywhere on the command line), the server
/// and Python as the request's fields of the same names.
#[derive(
    Clone, Debug, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema, clap::Args,
)]
#[serde(default)]
pub struct Limits {
    /// Random seed (runs are reproducible for a seed and thread count with an iteration budget).
    #[schemars(title = "Seed")]
    #[arg(long, global = true)]
    #[schemars(extend("x-advanced" = true))]
    pub seed: Option<u64>,
    /// Time limit in seconds (per item where a job solves many).
    #[schemars(title = "Time limit (s)")]
    #[arg(long, global = true, value_name = "SECS", value_parser = parse_seconds)]
    pub time_limit: Option<f64>,
    /// Iteration (simulation) budget, instead of or besides the time limit.
    #[schemars(title = "Iterations")]
    #[arg(long, global = true, value_name = "N", value_parser = parse_positive_u64)]
    #[schemars(extend("x-advanced" = true))]
    pub iterations: Option<u64>,
    /// Worker threads (default 1, or the machine's cores where more threads help: each job
    /// documents its default).
    #[schemars(title = "Threads")]
    #[arg(long, global = true, value_name = "T", value_parser = parse_threads)]
    #[schemars(extend("x-advanced" = true))]
    pub threads: Option<usize>,
    /// Memory budget: the most search nodes held at once.
    #[schemars(title = "Max nodes")]
    #[arg(long, global = true, value_name = "N", value_parser = parse_positive_usize)]
    #[schemars(extend("x-advanced" = true))]
    pub max_nodes: Option<usize>,
}

/// One of the budget settings of [`Limits`], for a job to say which it reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// `seed`.
    Seed,
    /// `time_limit`.
    TimeLimit,
    /// `iterations`.
    Iterations,
    /// `threads`.
    Threads,
    /// `max_nodes`.
    MaxNodes,
}

impl Limit {
    /// Every budget setting (what most jobs read).
    pub const ALL: &'static [Limit] = &[
        Limit::Seed,
        Limit::TimeLimit,
        Limit::Iterations,
        Limit::Threads,
        Limit::MaxNodes,
    ];

    /// The setting's field name in JSON (and the schema).
    pub const fn field(self) -> &'static str {
        match self {
            Limit::Seed => "seed",
            Limit::TimeLimit => "time_limit",
            Limit::Iterations => "iterations",
            Limit::Threads => "threads",
            Limit::MaxNodes => "max_nodes",
        }
    }

    /// The setting's flag on the command line.
    pub const fn flag(self) -> &'static str {
        match self {
            Limit::Seed => "--seed",
            Limit::TimeLimit => "--time-limit",
            Limit::Iterations => "--iterations",
            Limit::Threads => "--threads",
            Limit::MaxNodes => "--max-nodes",
        }
    }

    /// Whether `limits` sets this setting.
    fn is_set(self, limits: &Limits) -> bool {
        match self {
            Limit::Seed => limits.seed.is_some(),
            Limit::TimeLimit => limits.time_limit.is_some(),
            Limit::Iterations => limits.iterations.is_some(),
            Limit::Threads => limits.threads.is_some(),
            Limit::MaxNodes => limits.max_nodes.is_some(),
        }
    }

    /// Whether `field` names a budget setting.
    pub fn is_field(field: &str) -> bool {
        Limit::ALL.iter().any(|l| l.field() == field)
    }
}

/// The most seconds a time limit may be: a year.
const MAX_SECONDS: f64 = 365.0 * 24.0 * 3600.0;

/// A time limit in seconds, if it is positive, finite and at most a year.
fn check_seconds(v: f64) -> Result<f64, String> {
    if !v.is_finite() || v <= 0.0 || v > MAX_SECONDS {
        return Err(format!(
            "the time limit must be more than 0 and at most {MAX_SECONDS} seconds (a year), not {v}"
        ));
    }
    Ok(v)
}

/// A thread count, if it is 1 to 256.
fn check_threads(v: u64) -> Result<usize, String> {
    if !(1..=256).contains(&v) {
        return Err(format!("threads must be 1 to 256, not {v}"));
    }
    Ok(v as usize)
}

/// Parse a positive, finite number of seconds (at most a year): `--time-limit`'s rule.
pub fn parse_seconds(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .parse()
        .map_err(|_| format!("'{s}' is not a number of seconds"))?;
    check_seconds(v)
}

/// Parse a positive whole number.
pub fn parse_positive_u64(s: &str) -> Result<u64, String> {
    match s.parse::<u64>() {
        Ok(0) => Err("must be at least 1".into()),
        Ok(v) => Ok(v),
        Err(_) => Err(format!("'{s}' is not a positive whole number")),
    }
}

/// Parse a positive whole number (usize).
pub fn parse_positive_usize(s: &str) -> Result<usize, String> {
    let v = parse_positive_u64(s)?;
    usize::try_from(v).map_err(|_| format!("{v} is too large"))
}

/// Parse a thread count: 1 to 256.
pub fn parse_threads(s: &str) -> Result<usize, String> {
    check_threads(parse_positive_u64(s)?)
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

    /// Refuse values no job can run with, by the rules the CLI's parsers apply (the server's
    /// and Python's requests come here unparsed).
    pub fn validate(&self) -> anyhow::Result<()> {
        if let Some(t) = self.time_limit {
            check_seconds(t).map_err(|e| anyhow::anyhow!("time_limit: {e}"))?;
        }
        if self.iterations == Some(0) {
            anyhow::bail!("iterations must be at least 1");
        }
        if let Some(t) = self.threads {
            check_threads(t as u64).map_err(anyhow::Error::msg)?;
        }
        if self.max_nodes == Some(0) {
            anyhow::bail!("max_nodes must be at least 1");
        }
        Ok(())
    }

    /// Unset every setting not in `reads`.
    pub fn keep_only(&mut self, reads: &[Limit]) {
        for limit in Limit::ALL.iter().filter(|l| !reads.contains(l)) {
            match limit {
                Limit::Seed => self.seed = None,
                Limit::TimeLimit => self.time_limit = None,
                Limit::Iterations => self.iterations = None,
                Limit::Threads => self.threads = None,
                Limit::MaxNodes => self.max_nodes = None,
            }
        }
    }

    /// Refuse a setting that job `job` does not read (`reads`: the ones it does), naming the
    /// setting, its flag and what the job reads instead, so that no front end drops it
    /// silently.
    pub fn check_read(&self, job: &str, reads: &[Limit]) -> anyhow::Result<()> {
        let Some(unread) = Limit::ALL
            .iter()
            .find(|l| l.is_set(self) && !reads.contains(l))
        else {
            return Ok(());
        };
        let read: Vec<&str> = reads.iter().map(|l| l.field()).collect();
        let read = if read.is_empty() {
            "none".to_string()
        } else {
            read.join(", ")
        };
        anyhow::bail!(
            "{job} does not read {} ({}); the budget settings it reads: {read}",
            unread.field(),
            unread.flag()
        )
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
