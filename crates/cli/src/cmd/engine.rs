//! `puzzle bench engine` (MCTS speed on a built-in toy game) and `puzzle bench` (the
//! deterministic signature over every game, as Stockfish's `bench`): argument parsing and
//! printing over [`puzzle_jobs::engine`].

use crate::common::{finish_request, interrupt_flag, progress_bar, CommonArgs};
use anyhow::Result;
use puzzle_jobs::engine::{self as job, EngineEvent};
use serde::Serialize;

/// Arguments of `puzzle bench engine`: the job's request ([`job::BenchRequest`]).
pub type BenchEngineArgs = job::BenchRequest;

/// Run MCTS with each selection policy on one and two threads and report iterations/s.
pub fn bench_engine(mut req: BenchEngineArgs, common: &CommonArgs) -> Result<()> {
    finish_request(&mut req, common, None)?;
    let out = common.output();
    let bar = progress_bar(common, 0, "bench engine");
    let mut print = |event: EngineEvent| -> Result<()> {
        match event {
            EngineEvent::Progress(p) => {
                bar.set_length(p.total);
                bar.set_position(p.done);
                bar.set_message(p.label);
            }
            EngineEvent::Line(line) => {
                out.json(&line)?;
                out.text(&format!(
                    "{:<11} threads={} iterations={:>10} iterations/s={:>12.0} best={}/{} peak_nodes={}",
                    line.policy,
                    line.threads,
                    line.iterations,
                    line.iterations_per_s,
                    line.best_score,
                    line.optimum,
                    line.peak_nodes
                ))?;
                bar.inc(1);
            }
        }
        Ok(())
    };
    let result = job::bench(&req, &interrupt_flag(), &mut print);
    bar.finish_and_clear();
    result.map(drop)
}

/// `puzzle bench`: every game's signature lines, then the total work.
pub fn signature_all(common: &CommonArgs) -> Result<()> {
    let out = common.output();
    let mut total = 0u64;
    let all = puzzle_jobs::registry::signature_all()?;
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
