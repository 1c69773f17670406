//! `puzzle solve sokoban` and `puzzle bench sokoban` / `puzzle experiment sokoban` (see
//! `docs/METHODS.md#sokoban`): argument parsing and printing over [`puzzle_jobs::sokoban`].

use crate::common::{
    finish_request, interrupt_flag, progress_bar, read_text, CommonArgs, ShardArgs,
};
use anyhow::Result;
use puzzle_jobs::sokoban::{self as job, LevelResult, SolveEvent};
use puzzle_jobs::sokoban_rate::{self as rate_job, RateEvent};
use std::path::PathBuf;

/// The budget defaults of the Sokoban solving commands, under their `--help`.
const DEFAULTS: &str = "Defaults: `--algo greedy`, 10 s per level, `--threads` = the machine's \
cores up to 2 (the greedy portfolio runs two lists of searches side by side: on two threads, \
or taking turns on one core with `--threads 1`; the same searches either way).";

/// Arguments of `puzzle solve sokoban`: a file, and the options of the job's request
/// ([`job::SolveRequest`], where each is declared with its help and default).
#[derive(clap::Args, Debug)]
#[command(after_help = DEFAULTS)]
pub struct SolveArgs {
    /// An XSB file with one or more levels.
    pub file: PathBuf,
    #[command(flatten)]
    pub request: job::SolveRequest,
    #[command(flatten)]
    pub shard: ShardArgs,
}

fn print_note(r: &LevelResult) {
    if let Some(note) = &r.note {
        eprintln!("{note}");
    }
}

/// `puzzle solve sokoban FILE [--level N] [--algo ...] [--time-limit SECS] [--json]`.
pub fn solve(args: SolveArgs, common: &CommonArgs) -> Result<()> {
    let mut req = args.request;
    req.xsb = read_text(&args.file)?;
    req.source = args.file.display().to_string();
    finish_request(&mut req, common, Some(&args.shard))?;
    let out = common.output();
    let bar = progress_bar(common, 0, "sokoban");
    let mut print = |event: SolveEvent| -> Result<()> {
        match event {
            SolveEvent::Progress(p) => {
                bar.set_length(p.total);
                bar.set_position(p.done);
                bar.set_message(format!("{} solved", p.solved));
            }
            SolveEvent::Level(r) => {
                print_note(&r);
                out.json(&r)?;
                let title = r
                    .title
                    .as_deref()
                    .map(|t| format!(" ({t})"))
                    .unwrap_or_default();
                let line = if r.solved {
                    format!(
                        "level {}{title}: solved, {} moves, {} pushes, {:.3} s, {} nodes\n{}",
                        r.level, r.moves, r.pushes, r.time_s, r.nodes, r.solution
                    )
                } else {
                    format!(
                        "level {}{title}: not solved ({}), {:.3} s, {} nodes",
                        r.level, r.stop, r.time_s, r.nodes
                    )
                };
                bar.suspend(|| out.text(&line))?;
            }
            SolveEvent::Summary(s) => {
                out.summary(&s)?;
                if s.interrupted {
                    out.text(&format!(
                        "stopped early: solved {} of {} attempted ({} levels)",
                        s.solved, s.attempted, s.levels
                    ))?;
                } else if s.levels > 1 {
                    out.text(&format!("solved {} of {}", s.solved, s.levels))?;
                }
            }
            SolveEvent::Set(_) | SolveEvent::Search(_) => {}
        }
        Ok(())
    };
    let result = job::solve(&req, &interrupt_flag(), &mut print);
    bar.finish_and_clear();
    result.map(drop)
}

/// Arguments of `puzzle rate sokoban`: a file, and the options of the job's request
/// ([`rate_job::RateRequest`]).
#[derive(clap::Args, Debug)]
pub struct RateArgs {
    /// An XSB file with one or more levels.
    pub file: PathBuf,
    #[command(flatten)]
    pub request: rate_job::RateRequest,
    #[command(flatten)]
    pub shard: ShardArgs,
}

/// `puzzle rate sokoban FILE [--level N] [--time-limit SECS] [--json]`.
pub fn rate(args: RateArgs, common: &CommonArgs) -> Result<()> {
    let mut req = args.request;
    req.xsb = read_text(&args.file)?;
    req.source = args.file.display().to_string();
    finish_request(&mut req, common, Some(&args.shard))?;
    let out = common.output();
    let bar = progress_bar(common, 0, "rating");
    let mut print = |event: RateEvent| -> Result<()> {
        match event {
            RateEvent::Progress(p) => {
                bar.set_length(p.total);
                bar.set_position(p.done);
                bar.set_message(format!("{} proven", p.solved));
            }
            RateEvent::Level(r) => {
                if let Some(note) = &r.note {
                    eprintln!("{note}");
                }
                out.json(&r)?;
                let title = r
                    .title
                    .as_deref()
                    .map(|t| format!(" ({t})"))
                    .unwrap_or_default();
                let pushes = match r.optimal_pushes {
                    Some(p) => format!(
                        "{p} pushes (optimal), {} box lines, {} box changes",
                        r.box_lines, r.box_changes
                    ),
                    None => format!("optimal pushes not proven ({})", r.astar_stop),
                };
                let positions = match (r.positions, r.positions_at_least) {
                    (Some(n), _) => format!("{n} positions"),
                    (None, Some(n)) => format!("over {n} positions"),
                    _ => "positions not counted".into(),
                };
                bar.suspend(|| {
                    out.text(&format!(
                        "level {}{title}: {pushes}; A* {} expanded, default solver {} expanded{}; {positions}",
                        r.level,
                        r.astar_expanded,
                        r.solver_expanded,
                        if r.solver_solved { "" } else { " (unsolved)" },
                    ))
                })?;
            }
            RateEvent::Summary(s) => {
                out.summary(&s)?;
                out.text(&format!(
                    "{} of {} levels proven{}",
                    s.proven,
                    s.levels,
                    if s.interrupted { "; stopped early" } else { "" }
                ))?;
            }
        }
        Ok(())
    };
    let result = rate_job::rate(&req, &interrupt_flag(), &mut print);
    bar.finish_and_clear();
    result.map(drop)
}

/// Arguments of `puzzle bench sokoban` / `puzzle experiment sokoban`.
#[derive(clap::Args, Debug)]
#[command(after_help = DEFAULTS)]
pub struct BenchArgs {
    #[command(flatten)]
    pub request: job::BenchRequest,
    /// Also print one line per level (always with --shard or --resume: a merge needs them).
    #[arg(long)]
    pub per_level: bool,
    #[command(flatten)]
    pub shard: ShardArgs,
}

/// `puzzle bench sokoban`: solved count, total and median time per level set and solver.
pub fn bench(args: BenchArgs, common: &CommonArgs) -> Result<()> {
    let mut req = args.request;
    // A set that is not bundled is a file: its text goes into the request.
    for set in req.sets.iter_mut().filter(|set| !set.is_resolved()) {
        set.xsb = Some(read_text(std::path::Path::new(&set.name))?);
    }
    finish_request(&mut req, common, Some(&args.shard))?;
    let per_level = args.per_level || args.shard.active();
    let limit = req.limits.time_or(job::DEFAULT_TIME_LIMIT).as_secs_f64();
    let out = common.output();
    let bar = progress_bar(common, 0, "sokoban");
    let mut print = |event: SolveEvent| -> Result<()> {
        match event {
            SolveEvent::Progress(p) => {
                bar.set_prefix(p.label);
                bar.set_length(p.total);
                bar.set_position(p.done);
                bar.set_message(format!("{} solved", p.solved));
            }
            SolveEvent::Level(r) => {
                print_note(&r);
                if per_level {
                    if common.peak_memory {
                        // The peak while this level ran, then a new peak for the next one.
                        let mut record = serde_json::to_value(&r)?;
                        record["peak_rss_bytes"] = crate::common::peak_rss_bytes().into();
                        crate::common::reset_peak_rss();
                        out.json(&record)?;
                    } else {
                        out.json(&r)?;
                    }
                    let line = format!(
                        "{} {} level {}: {} {:.3} s, {} pushes, {} nodes",
                        r.set.as_deref().unwrap_or(""),
                        r.algo,
                        r.level,
                        if r.solved { "solved" } else { "unsolved" },
                        r.time_s,
                        r.pushes,
                        r.nodes
                    );
                    bar.suspend(|| out.text(&line))?;
                }
            }
            SolveEvent::Search(_) => {}
            SolveEvent::Set(summary) => {
                out.json(&summary)?;
                let line = format!(
                    "{:<14} {:<8} solved {:>4}/{:<4} total {:>9.2} s  median {:>7.3} s  max(solved) {:>7.3} s  limit {} s",
                    summary.set,
                    summary.algo,
                    summary.solved,
                    summary.levels,
                    summary.total_time_s,
                    summary.median_time_s,
                    summary.max_solved_time_s,
                    limit
                );
                bar.suspend(|| out.text(&line))?;
            }
            SolveEvent::Summary(_) => {}
        }
        Ok(())
    };
    let result = job::bench(&req, &interrupt_flag(), &mut print);
    bar.finish_and_clear();
    result.map(drop)
}
