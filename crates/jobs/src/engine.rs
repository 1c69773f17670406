//! The engine's own jobs: MCTS speed on a built-in toy game (`puzzle bench engine`) and the
//! deterministic signature over every game (`puzzle bench`, as Stockfish's `bench`).

use crate::event::{Emit, EventKind, ItemProgress, JobEvent, Signature};
use crate::limits::Limits;
use anyhow::{bail, Result};
use puzzle_engine::mcts::{self, MctsConfig, SelectionPolicy};
use puzzle_engine::toy::SumGame;
use puzzle_engine::{Budget, UniformRandom};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Default node budget of a measurement.
pub const DEFAULT_MAX_NODES: usize = 1 << 22;

/// The toy game of the engine benchmark: pick 12 of 32 items (playouts of 12 moves over a
/// shrinking action list, a branching factor like SameGame's mid-game).
pub fn bench_game() -> SumGame {
    let values: Vec<i64> = (0..32).map(|i| (i * 37 % 101) as i64).collect();
    SumGame::new(&values, 12)
}

/// The selection policies measured, with the papers' default constants.
pub fn policies() -> Vec<(&'static str, SelectionPolicy)> {
    vec![
        ("ucb1", SelectionPolicy::Ucb1 { c: 0.2 }),
        ("ucb1-tuned", SelectionPolicy::Ucb1Tuned { c: 1.0 }),
        (
            "ucb-v",
            SelectionPolicy::UcbV {
                c: 1.0,
                xi: 1.0,
                b: 1.0,
            },
        ),
        (
            "sp-mcts",
            SelectionPolicy::SpMcts {
                c: 0.5,
                d: 0.05,
                w: 0.02,
            },
        ),
    ]
}

/// MCTS iterations per second with each selection policy (`puzzle bench engine`).
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema, clap::Args)]
#[serde(default)]
pub struct BenchRequest {
    /// Seconds per measurement.
    #[arg(long, value_name = "SECS", default_value_t = 1.0)]
    #[schemars(range(min = 0.001, max = 31_536_000.0))]
    pub seconds: f64,
    /// `threads`: measure with this many threads only (default: one, then two); the seed
    /// (default 1) and the node budget (default 2^22). The time limit and iterations are not
    /// used (`seconds` is the budget).
    #[serde(flatten)]
    #[arg(skip)]
    pub limits: Limits,
}

impl Default for BenchRequest {
    fn default() -> Self {
        crate::options::defaults()
    }
}

/// One measurement: the `puzzle bench engine --json` line.
#[derive(Clone, Debug, Serialize)]
pub struct EngineBenchLine {
    /// The selection policy.
    pub policy: &'static str,
    /// Threads.
    pub threads: usize,
    /// Iterations run.
    pub iterations: u64,
    /// Iterations per second.
    pub iterations_per_s: f64,
    /// The best score found.
    pub best_score: f64,
    /// The toy game's optimum.
    pub optimum: f64,
    /// The most tree nodes held at once.
    pub peak_nodes: usize,
    /// Seconds run.
    pub time_s: f64,
}

/// The events of the engine benchmark.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum EngineEvent {
    /// Before each measurement: measurements done, and the one starting as `label`; `solved`
    /// counts the measurements that found the optimum.
    Progress(ItemProgress),
    /// One measurement.
    Line(EngineBenchLine),
}

impl JobEvent for EngineEvent {
    fn kind(&self) -> EventKind {
        match self {
            EngineEvent::Progress(_) => EventKind::Progress,
            EngineEvent::Line(_) => EventKind::Result,
        }
    }
}

/// Run a [`BenchRequest`]: each policy on each thread count, a `Line` event per measurement.
pub fn bench(
    req: &BenchRequest,
    stop: &Arc<AtomicBool>,
    emit: Emit<'_, EngineEvent>,
) -> Result<Vec<EngineBenchLine>> {
    req.limits.validate()?;
    if !req.seconds.is_finite() || req.seconds <= 0.0 || req.seconds > 365.0 * 24.0 * 3600.0 {
        bail!(
            "seconds must be a positive number of seconds (at most a year), not {}",
            req.seconds
        );
    }
    let game = bench_game();
    let threads: Vec<usize> = match req.limits.threads {
        Some(t) => vec![t],
        None => vec![1, 2],
    };
    let scale = 1.0 / game.optimum() as f64;
    let total = (policies().len() * threads.len()) as u64;
    let started = Instant::now();
    let mut lines: Vec<EngineBenchLine> = Vec::new();
    for (name, selection) in policies() {
        for &t in &threads {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            emit(EngineEvent::Progress(ItemProgress {
                done: lines.len() as u64,
                total,
                solved: lines.iter().filter(|l| l.best_score >= l.optimum).count() as u64,
                label: format!("{name}, {t} thread(s)"),
                elapsed_s: started.elapsed().as_secs_f64(),
            }))?;
            let cfg = MctsConfig {
                selection,
                reward: mcts::RewardTransform { offset: 0.0, scale },
                budget: Budget::time(Duration::from_secs_f64(req.seconds))
                    .with_max_nodes(req.limits.max_nodes.unwrap_or(DEFAULT_MAX_NODES))
                    .with_stop_flag(stop.clone()),
                seed: req.limits.seed_or(1),
                threads: t,
                ..MctsConfig::default()
            };
            let r = mcts::search(&game, &cfg, &UniformRandom::default());
            let line = EngineBenchLine {
                policy: name,
                threads: t,
                iterations: r.iterations,
                iterations_per_s: r.iterations_per_second(),
                best_score: r.best_score,
                optimum: game.optimum() as f64,
                peak_nodes: r.peak_nodes,
                time_s: r.elapsed.as_secs_f64(),
            };
            emit(EngineEvent::Line(line.clone()))?;
            lines.push(line);
        }
    }
    Ok(lines)
}

/// The engine's part of the signature: fixed seeds and iteration budgets on the toy game
/// (`work`: iterations plus peak nodes; `result`: the best score).
pub fn signature() -> Result<Vec<Signature>> {
    let game = bench_game();
    let mut lines = Vec::new();
    for (name, selection) in policies() {
        let start = Instant::now();
        let cfg = MctsConfig {
            selection,
            reward: mcts::RewardTransform {
                offset: 0.0,
                scale: 1.0 / game.optimum() as f64,
            },
            budget: Budget::iterations(20_000),
            seed: 1,
            ..MctsConfig::default()
        };
        let r = mcts::search(&game, &cfg, &UniformRandom::default());
        lines.push(Signature {
            name: format!("engine/mcts-{name}"),
            work: r.iterations + r.peak_nodes as u64,
            result: r.best_score,
            time_s: start.elapsed().as_secs_f64(),
        });
    }
    Ok(lines)
}

impl crate::job::Job for BenchRequest {
    const NAME: &'static str = "engine_bench";
    const READS: &'static [crate::limits::Limit] = &[
        crate::limits::Limit::Seed,
        crate::limits::Limit::Threads,
        crate::limits::Limit::MaxNodes,
    ];
    const TITLE: &'static str = "MCTS iterations per second on a toy game";
    type Event = EngineEvent;

    crate::job::job_fields!(limits);

    crate::job::job_run!(bench);

    fn signature() -> Result<Vec<Signature>> {
        signature()
    }

    fn example() -> Self {
        BenchRequest {
            seconds: 0.01,
            ..BenchRequest::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_benchmark_reports_every_policy_within_the_optimum() {
        let req = BenchRequest {
            seconds: 0.05,
            limits: Limits {
                threads: Some(1),
                ..Limits::default()
            },
        };
        let mut lines = Vec::new();
        let mut progress = Vec::new();
        let stop = Arc::new(AtomicBool::new(false));
        let returned = bench(&req, &stop, &mut |e| {
            match e {
                EngineEvent::Line(l) => lines.push(l),
                EngineEvent::Progress(p) => progress.push(p),
            }
            Ok(())
        })
        .unwrap();
        assert_eq!(lines.len(), 4);
        assert_eq!(returned.len(), 4);
        let names: Vec<&str> = lines.iter().map(|l| l.policy).collect();
        assert_eq!(names, ["ucb1", "ucb1-tuned", "ucb-v", "sp-mcts"]);
        for l in &lines {
            assert!(l.iterations > 0 && l.iterations_per_s > 0.0);
            assert!(l.best_score <= l.optimum);
            assert_eq!(l.threads, 1);
        }
        let done: Vec<u64> = progress.iter().map(|p| p.done).collect();
        assert_eq!(done, [0, 1, 2, 3]);
        assert!(progress.iter().all(|p| p.total == 4));
    }

    #[test]
    fn bad_requests_are_refused_naming_the_field() {
        let stop = Arc::new(AtomicBool::new(false));
        for (json, field) in [
            (r#"{"seconds": 0}"#, "seconds"),
            (r#"{"seconds": -1}"#, "seconds"),
            (r#"{"threads": 0}"#, "threads"),
            (r#"{"max_nodes": 0}"#, "max_nodes"),
        ] {
            let req: BenchRequest = serde_json::from_str(json).unwrap();
            let err = bench(&req, &stop, &mut |_| panic!("no event")).unwrap_err();
            assert!(err.to_string().starts_with(field), "{json}: {err}");
        }
    }

    #[test]
    fn the_engine_signature_is_deterministic() {
        let work = |s: Vec<Signature>| s.iter().map(|l| (l.work, l.result)).collect::<Vec<_>>();
        assert_eq!(work(signature().unwrap()), work(signature().unwrap()));
    }
}
