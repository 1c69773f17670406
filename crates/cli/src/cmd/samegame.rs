//! `puzzle solve|experiment|bench samegame` (see `docs/METHODS.md#samegame`): argument parsing and
//! printing over [`puzzle_jobs::samegame`].
//!
//! - `solve`: every board of a standard-set file, the digits file (or one `--board N`), a
//!   Hungarian CSV, or a random board, with SP-MCTS, NMCS, NRPA, DBS, A*, IDA* or random
//!   playouts; each answer is replayed and checked before it is printed (JSON: one object
//!   per board with `board, score, cleared, moves[{col,row}], time_s, iterations`, plus
//!   `time_to_best_s` and more; rows counted from the top of the board before the move).
//! - `experiment`: the Czech thesis's comparison (§3.4): playouts × selection formulas on
//!   the 20 standard boards, totals beside the paper's, as Markdown.
//! - `bench`: playouts per second on a fresh board and SP-MCTS iterations per second.

use crate::common::{
    finish_request, interrupt_flag, progress_bar, read_text, save_report, time_bar, CommonArgs,
    ShardArgs,
};
use anyhow::Result;
use indicatif::ProgressBar;
use puzzle_jobs::samegame::{
    self as job, BenchEvent, ExperimentEvent, ExperimentRequest, SolveEvent, SolveRequest,
};
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `puzzle solve samegame`: a file, and the options of the job's request
/// ([`SolveRequest`], where each option is declared with its help and default).
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// A standard-set file (`rows cols colours` + letter rows), the digits file (`# problem NN`
    /// blocks) or a Hungarian CSV (`columns;rows`). Omit it with --random.
    #[arg(value_name = "FILE", required_unless_present = "random")]
    pub file: Option<PathBuf>,
    #[command(flatten)]
    pub request: SolveRequest,
    /// Selective NRPA, the default (older commands name it).
    #[arg(long = "selective", id = "selective_default", hide = true)]
    pub selective: bool,
    #[command(flatten)]
    pub shard: ShardArgs,
}

/// `puzzle solve samegame`.
pub fn solve(args: SolveArgs, common: &CommonArgs) -> Result<()> {
    if args.request.random.is_some() && args.file.is_some() {
        anyhow::bail!("give either FILE or --random, not both");
    }
    let mut req = args.request;
    if let Some(path) = &args.file {
        req.text = Some(read_text(path)?);
        req.source = path.display().to_string();
    }
    finish_request(&mut req, common, Some(&args.shard))?;
    let out = common.output();
    // The time bar of the board being searched.
    let mut bar: Option<(usize, ProgressBar)> = None;
    let mut print = |event: SolveEvent| -> Result<()> {
        match event {
            SolveEvent::Search(p) => {
                if bar.as_ref().is_none_or(|(board, _)| *board != p.board) {
                    let limit = p
                        .time_limit_s
                        .map_or(Duration::ZERO, Duration::from_secs_f64);
                    let b = time_bar(common, limit, &format!("{} {}", p.name, p.algo));
                    if let Some((_, old)) = bar.replace((p.board, b)) {
                        old.finish_and_clear();
                    }
                }
                if let (Some(score), Some((_, b))) = (p.best_score, &bar) {
                    b.set_message(format!("best {score}"));
                }
            }
            SolveEvent::Progress(_) => {}
            SolveEvent::Board(r) => {
                if let Some((_, b)) = bar.take() {
                    b.finish_and_clear();
                }
                out.json(&r)?;
                out.text(&format!(
                    "{:>3} {:<12} score {:>6}{} in {} moves, {:.1} s, {} iterations{}",
                    r.board,
                    r.name,
                    r.score,
                    if r.cleared { " (cleared)" } else { "" },
                    r.moves.len(),
                    r.time_s,
                    r.iterations,
                    if r.optimal { ", optimal" } else { "" }
                ))?;
            }
            SolveEvent::Summary(s) => {
                out.summary(&s)?;
                if s.interrupted {
                    out.text(&format!(
                        "stopped early: total {} over {} of {} boards",
                        s.total_score, s.searched, s.boards
                    ))?;
                } else if s.boards > 1 {
                    out.text(&format!("total {} over {} boards", s.total_score, s.boards))?;
                }
            }
        }
        Ok(())
    };
    let result = job::solve(&req, &interrupt_flag(), &mut print);
    if let Some((_, b)) = bar {
        b.finish_and_clear();
    }
    result.map(drop)
}

/// Arguments of `puzzle experiment samegame`: the options of [`ExperimentRequest`], a boards
/// file and where the report goes.
#[derive(clap::Args, Debug)]
pub struct ExperimentArgs {
    /// Boards (default: the bundled 20 standard boards).
    #[arg(long, value_name = "FILE")]
    pub boards: Option<PathBuf>,
    #[command(flatten)]
    pub request: ExperimentRequest,
    /// Write the Markdown report here (default: standard output).
    #[arg(long, short, visible_alias = "output", value_name = "FILE")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub shard: ShardArgs,
}

/// `puzzle experiment samegame`.
pub fn experiment(args: ExperimentArgs, common: &CommonArgs) -> Result<()> {
    let mut req = args.request;
    if let Some(path) = &args.boards {
        req.boards = Some(read_text(path)?);
        req.source = path.display().to_string();
    }
    finish_request(&mut req, common, Some(&args.shard))?;
    let out = common.output();
    let bar = progress_bar(common, 0, "runs");
    let mut print = |event: ExperimentEvent| -> Result<()> {
        match event {
            ExperimentEvent::Progress(p) => {
                bar.set_length(p.total);
                bar.set_position(p.done);
            }
            ExperimentEvent::Run(r) => out.json(&r)?,
            ExperimentEvent::Total(t) => out.json(&t)?,
        }
        Ok(())
    };
    let result = job::experiment_report(&req, &interrupt_flag(), &mut print);
    bar.finish_and_clear();
    save_report(common, args.out.as_deref(), &result?)
}

/// Arguments of `puzzle bench samegame`: the job's request ([`job::BenchRequest`]).
pub type BenchArgs = job::BenchRequest;

/// `puzzle bench samegame`.
pub fn bench(mut req: BenchArgs, common: &CommonArgs) -> Result<()> {
    finish_request(&mut req, common, None)?;
    let out = common.output();
    let mut print = |event: BenchEvent| -> Result<()> {
        match event {
            BenchEvent::Progress(_) => {}
            BenchEvent::Playouts(r) => {
                out.json(&r)?;
                out.text(&format!(
                    "{:<12} {:>9.0} playouts/s wall, {} per CPU-second, {:>5.1} moves/playout, mean score {:>5.0}",
                    r.what.strip_prefix("playouts/").unwrap_or(&r.what),
                    r.per_second,
                    r.per_cpu_second.map_or("?".to_string(), |v| format!("{v:>9.0}")),
                    r.moves_per_playout.unwrap_or(0.0),
                    r.mean_score
                ))?;
            }
            BenchEvent::Search(r) => {
                out.json(&r)?;
                out.text(&format!(
                    "SP-MCTS tabu, {} thread(s): {:.0} iterations/s, best score {} in {:.1} s",
                    r.threads, r.per_second, r.mean_score as i64, r.time_s
                ))?;
            }
        }
        Ok(())
    };
    job::bench(&req, &interrupt_flag(), &mut print).map(drop)
}
