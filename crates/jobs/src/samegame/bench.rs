//! SameGame speed measurements (`puzzle bench samegame`): playouts per second of each playout
//! policy from a fresh standard board, then SP-MCTS iterations per second.

use super::bundled_boards;
use crate::event::{Emit, EventKind, ItemProgress, JobEvent};
use crate::limits::Limits;
use anyhow::{anyhow, bail, Result};
use puzzle_engine::{Budget, Rng};
use puzzle_samegame::playout::{AnyChooser, Playout};
use puzzle_samegame::search::{self, SolveConfig};
use puzzle_samegame::{Board, Scoring};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The playout policies measured, in order.
pub const BENCH_PLAYOUTS: [&str; 6] = [
    "random",
    "tabu",
    "tabu-colour",
    "pseudo-tabu",
    "double-tabu",
    "roulette",
];

/// Speed measurements (`puzzle bench samegame`); every field's default is the CLI's.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema, clap::Args)]
#[serde(default)]
pub struct BenchRequest {
    /// Which standard board (1–20) to measure on.
    #[arg(long, default_value_t = 1)]
    #[schemars(range(min = 1, max = 20))]
    pub board: u32,
    /// Seconds per measurement.
    #[arg(long, value_name = "SECS", default_value_t = 2.0)]
    #[schemars(range(min = 0.001, max = 31_536_000.0))]
    pub seconds: f64,
    /// `seed` (default 1) and `threads` (SP-MCTS's root-parallel trees, default 1); the
    /// other limits are not used.
    #[serde(flatten)]
    #[arg(skip)]
    pub limits: Limits,
}

impl Default for BenchRequest {
    fn default() -> Self {
        crate::options::defaults()
    }
}

/// One measurement: the `puzzle bench samegame --json` line.
#[derive(Clone, Debug, Serialize)]
pub struct RateRecord {
    /// What was measured: `playouts/<policy>` or `spmcts-tabu/<T>-threads`.
    pub what: String,
    /// Playouts (SP-MCTS: iterations) per wall-clock second.
    pub per_second: f64,
    /// Playouts per CPU-second of the measuring thread (Linux; playouts only).
    pub per_cpu_second: Option<f64>,
    /// Mean moves per playout (playouts only).
    pub moves_per_playout: Option<f64>,
    /// Mean final score of the playouts (SP-MCTS: the best score found).
    pub mean_score: f64,
    /// Seconds measured.
    pub time_s: f64,
    /// Threads used.
    pub threads: usize,
}

/// The events of the benchmark.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum BenchEvent {
    /// Measurements done.
    Progress(ItemProgress),
    /// One playout policy's speed.
    Playouts(RateRecord),
    /// SP-MCTS's speed.
    Search(RateRecord),
}

impl JobEvent for BenchEvent {
    fn kind(&self) -> EventKind {
        match self {
            BenchEvent::Progress(_) => EventKind::Progress,
            BenchEvent::Playouts(_) | BenchEvent::Search(_) => EventKind::Result,
        }
    }
}

/// CPU time of the calling thread (Linux `/proc/thread-self/schedstat`), to report speeds
/// per CPU-second on a shared, loaded machine.
fn thread_cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

/// `what`: playouts per second of `chooser` from `board` for about `seconds` (or until `stop`).
fn playout_rate(
    what: String,
    board: &Board,
    chooser: AnyChooser,
    seconds: f64,
    seed: u64,
    stop: &AtomicBool,
) -> RateRecord {
    let mut policy = Playout::new(chooser);
    let mut rng = Rng::new(seed);
    let mut state = board.clone();
    let cpu_start = thread_cpu_seconds();
    let start = Instant::now();
    let (mut n, mut moves, mut total) = (0u64, 0u64, 0i64);
    while start.elapsed().as_secs_f64() < seconds && !stop.load(Ordering::Relaxed) {
        for _ in 0..64 {
            state.clone_from(board);
            moves += policy.run(&mut state, &mut rng) as u64;
            total += state.final_score();
            n += 1;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let cpu = match (cpu_start, thread_cpu_seconds()) {
        (Some(a), Some(b)) if b > a => Some(b - a),
        _ => None,
    };
    RateRecord {
        what,
        per_second: n as f64 / secs,
        per_cpu_second: cpu.map(|c| n as f64 / c),
        moves_per_playout: Some(moves as f64 / n as f64),
        mean_score: total as f64 / n as f64,
        time_s: secs,
        threads: 1,
    }
}

/// Run the benchmark: a `Playouts` result per policy of [`BENCH_PLAYOUTS`], then the
/// `Search` result of SP-MCTS with tabu playouts on `threads` threads; `Progress` after each.
pub fn bench(
    req: &BenchRequest,
    stop: &Arc<AtomicBool>,
    emit: Emit<'_, BenchEvent>,
) -> Result<Vec<RateRecord>> {
    req.limits.validate()?;
    if !(req.seconds.is_finite() && req.seconds > 0.0 && req.seconds <= 365.0 * 24.0 * 3600.0) {
        bail!(
            "seconds must be a positive number of seconds, not {}",
            req.seconds
        );
    }
    let boards = bundled_boards("standard20", Scoring::standard())?;
    if !(1..=boards.len()).contains(&(req.board as usize)) {
        bail!("board must be 1 to {}, not {}", boards.len(), req.board);
    }
    let board = &boards[req.board as usize - 1].board;
    let seed = req.limits.seed_or(1);
    let started = Instant::now();
    let total = BENCH_PLAYOUTS.len() as u64 + 1;
    let progress = |done: u64| ItemProgress {
        done,
        total,
        solved: done,
        label: "samegame bench".into(),
        elapsed_s: started.elapsed().as_secs_f64(),
    };
    let mut rates = Vec::new();
    for (i, name) in BENCH_PLAYOUTS.into_iter().enumerate() {
        let chooser: AnyChooser = name.parse().map_err(anyhow::Error::msg)?;
        let r = playout_rate(
            format!("playouts/{name}"),
            board,
            chooser,
            req.seconds,
            seed,
            stop,
        );
        emit(BenchEvent::Playouts(r.clone()))?;
        emit(BenchEvent::Progress(progress(i as u64 + 1)))?;
        rates.push(r);
    }
    let cfg = SolveConfig {
        budget: Budget::time(Duration::from_secs_f64(req.seconds)).with_stop_flag(stop.clone()),
        seed,
        threads: req.limits.threads_or(1),
        ..SolveConfig::spmcts()
    };
    let s = search::solve(board, &cfg, None).map_err(|e| anyhow!("{e}"))?;
    let r = RateRecord {
        what: format!("spmcts-tabu/{}-threads", cfg.threads),
        per_second: s.iterations as f64 / s.elapsed.as_secs_f64(),
        per_cpu_second: None,
        moves_per_playout: None,
        mean_score: s.score as f64,
        time_s: s.elapsed.as_secs_f64(),
        threads: cfg.threads,
    };
    emit(BenchEvent::Search(r.clone()))?;
    emit(BenchEvent::Progress(progress(total)))?;
    rates.push(r);
    Ok(rates)
}

impl crate::job::Job for BenchRequest {
    const NAME: &'static str = "samegame_bench";
    const READS: &'static [crate::limits::Limit] =
        &[crate::limits::Limit::Seed, crate::limits::Limit::Threads];
    const TITLE: &'static str = "SameGame playout and search speeds";
    type Event = BenchEvent;

    crate::job::job_fields!(limits);

    crate::job::job_run!(bench);

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
    fn every_policy_is_measured_then_spmcts() {
        let req = BenchRequest {
            board: 2,
            seconds: 0.01,
            ..BenchRequest::default()
        };
        let mut events = Vec::new();
        let rates = bench(&req, &Arc::new(AtomicBool::new(false)), &mut |e| {
            events.push(e);
            Ok(())
        })
        .unwrap();
        assert_eq!(rates.len(), BENCH_PLAYOUTS.len() + 1);
        let results: Vec<&RateRecord> = events
            .iter()
            .filter_map(|e| match e {
                BenchEvent::Playouts(r) | BenchEvent::Search(r) => Some(r),
                BenchEvent::Progress(_) => None,
            })
            .collect();
        for (r, name) in results.iter().zip(BENCH_PLAYOUTS) {
            assert_eq!(r.what, format!("playouts/{name}"));
            assert!(r.per_second > 0.0 && r.moves_per_playout.unwrap() > 1.0);
        }
        let last = results.last().unwrap();
        assert_eq!(last.what, "spmcts-tabu/1-threads");
        assert!(last.per_second > 0.0 && last.mean_score > 0.0);
        assert!(matches!(events.last(), Some(BenchEvent::Progress(p)) if p.done == p.total));
        // A record serializes to the CLI's JSON line.
        let v = serde_json::to_value(results[1]).unwrap();
        assert_eq!(v["what"], "playouts/tabu");
        assert!(v["per_second"].as_f64().unwrap() > 0.0);
    }

    #[test]
    fn bad_requests_are_refused() {
        let run = |req: BenchRequest| {
            bench(&req, &Arc::new(AtomicBool::new(false)), &mut |_| Ok(()))
                .map(drop)
                .unwrap_err()
                .to_string()
        };
        let err = run(BenchRequest {
            board: 21,
            ..BenchRequest::default()
        });
        assert!(err.contains("board must be 1 to 20"), "{err}");
        let err = run(BenchRequest {
            seconds: -1.0,
            ..BenchRequest::default()
        });
        assert!(err.contains("seconds must be"), "{err}");
    }
}
