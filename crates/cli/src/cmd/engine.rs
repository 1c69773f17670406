//! `puzzle bench engine` (MCTS speed on a built-in toy game) and `puzzle bench` (the
//! deterministic signature over every game, as Stockfish's `bench`).

use crate::cmd;
use crate::common::{CommonArgs, Signature};
use anyhow::Result;
use puzzle_engine::mcts::{self, MctsConfig, SelectionPolicy};
use puzzle_engine::toy::SumGame;
use puzzle_engine::{Budget, UniformRandom};
use serde::Serialize;
use std::time::{Duration, Instant};

/// Arguments of `puzzle bench engine`.
#[derive(clap::Args, Debug)]
pub struct BenchEngineArgs {
    /// Seconds per measurement (default 1).
    #[arg(long, value_name = "SECS", default_value_t = 1.0, value_parser = crate::common::parse_seconds)]
    pub seconds: f64,
}

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

#[derive(Serialize)]
struct EngineBenchLine {
    policy: &'static str,
    threads: usize,
    iterations: u64,
    iterations_per_s: f64,
    best_score: f64,
    optimum: f64,
    peak_nodes: usize,
    time_s: f64,
}

/// Run MCTS with each selection policy on one and two threads and report iterations/s.
pub fn bench_engine(args: BenchEngineArgs, common: &CommonArgs) -> Result<()> {
    let game = bench_game();
    let out = common.output();
    let threads: Vec<usize> = match common.threads {
        Some(t) => vec![t],
        None => vec![1, 2],
    };
    let scale = 1.0 / game.optimum() as f64;
    let stop = crate::common::interrupt_flag();
    let bar = crate::common::progress_bar(
        common,
        (policies().len() * threads.len()) as u64,
        "bench engine",
    );
    for (name, selection) in policies() {
        for &t in &threads {
            if crate::common::interrupted() {
                break;
            }
            bar.set_message(format!("{name}, {t} thread(s)"));
            let cfg = MctsConfig {
                selection,
                reward: mcts::RewardTransform { offset: 0.0, scale },
                budget: Budget::time(Duration::from_secs_f64(args.seconds))
                    .with_max_nodes(common.max_nodes.unwrap_or(1 << 22))
                    .with_stop_flag(stop.clone()),
                seed: common.seed_or(1),
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
            out.json(&line)?;
            out.text(&format!(
                "{name:<11} threads={t} iterations={:>10} iterations/s={:>12.0} best={}/{} peak_nodes={}",
                line.iterations, line.iterations_per_s, line.best_score, line.optimum, line.peak_nodes
            ))?;
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
    Ok(())
}

/// The engine's part of the signature: fixed seeds and iteration budgets on the toy games.
pub fn signature(_common: &CommonArgs) -> Result<Vec<Signature>> {
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

/// `puzzle bench`: every game's signature lines, then the total work.
pub fn signature_all(common: &CommonArgs) -> Result<()> {
    let out = common.output();
    let mut total = 0u64;
    let mut all = signature(common)?;
    all.extend(cmd::sokoban::signature(common)?);
    all.extend(cmd::sokogen::signature(common)?);
    all.extend(cmd::samegame::signature(common)?);
    all.extend(cmd::sudoku::signature(common)?);
    all.extend(cmd::bait::signature(common)?);
    for s in &all {
        total += s.work;
        out.json(s)?;
        out.text(&format!(
            "{:<32} work={:>12} result={:<12} {:.3}s",
            s.name, s.work, s.result, s.time_s
        ))?;
    }
    #[derive(Serialize)]
    struct Total {
        total_work: u64,
        lines: usize,
    }
    out.json(&Total {
        total_work: total,
        lines: all.len(),
    })?;
    out.text(&format!("total work (the signature): {total}"))?;
    Ok(())
}
