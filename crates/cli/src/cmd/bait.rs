//! `puzzle play bait`, `puzzle experiment bait`, `puzzle bench bait` (see `docs/METHODS.md#bait`):
//! argument parsing and printing over [`puzzle_jobs::bait`] (GVGAI's Bait played by the agents of
//! `puzzle-bait` under a per-move CPU budget).

use crate::common::{
    finish_request, interrupt_flag, read_text, save_report, write_atomic, CommonArgs,
};
use anyhow::{bail, Result};
use puzzle_jobs::bait::{self as job, BenchEvent, ExperimentEvent, PlayEvent, TickRecord};
use std::path::PathBuf;

/// `puzzle play bait (--level 0..4 | FILE) [--agent ...] [--budget-ms MS]`: the options of
/// the job's request ([`job::PlayRequest`]), a level file, and what to print.
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// A level file in GVGAI's text format (w wall, A avatar, 0 hole, 1 box, k key, g door,
    /// m mushroom, . floor).
    #[arg(value_name = "FILE", conflicts_with = "level")]
    pub file: Option<PathBuf>,
    #[command(flatten)]
    pub request: job::PlayRequest,
    /// Print the board after every tick.
    #[arg(long)]
    pub show: bool,
    /// Write the action sequence (one letter per tick, U D L R N) to this file.
    #[arg(long, value_name = "FILE")]
    pub export: Option<PathBuf>,
}

/// A board as the text `--show` prints: one line per row, then an empty line.
fn board_text(t: &TickRecord) -> String {
    t.rows.iter().map(|r| format!("{r}\n")).collect()
}

/// Play one game and print it (verified by replay inside the job).
pub fn play(args: PlayArgs, common: &CommonArgs) -> Result<()> {
    let mut req = args.request;
    let label = match (req.level, &args.file) {
        (Some(i), None) => format!("level {i}"),
        (None, Some(f)) => {
            req.text = Some(read_text(f)?);
            req.source = f.display().to_string();
            f.display().to_string()
        }
        (None, None) => bail!("give a level: --level 0..4 or a level FILE"),
        (Some(_), Some(_)) => bail!("give either --level or a FILE, not both"),
    };
    finish_request(&mut req, common, None)?;
    let out = common.output();
    let show = args.show && !common.json;
    let mut print = |event: PlayEvent| -> Result<()> {
        match event {
            PlayEvent::Tick(t) if show => {
                if t.tick == 0 {
                    out.text(&format!("{label} — tick 0\n{}", board_text(&t)))?;
                } else {
                    out.text(&format!(
                        "tick {} action {} score {}{}\n{}",
                        t.tick,
                        t.action.unwrap_or('N'),
                        t.score,
                        if t.has_key { " (key)" } else { "" },
                        board_text(&t)
                    ))?;
                }
            }
            PlayEvent::Tick(_) => {}
            PlayEvent::Game(g) => {
                if let Some(path) = &args.export {
                    write_atomic(path, format!("{}\n", g.actions).as_bytes())?;
                }
                out.json(&g)?;
                out.text(&format!(
                    "{label}: {} {} with score {} in {} ticks (longest move {:.2} ms CPU, {:.2} ms wall; setup {:.0} ms){}",
                    g.agent,
                    if g.win { "won" } else { "lost" },
                    g.score,
                    g.ticks,
                    g.max_move_ms,
                    g.max_move_wall_ms,
                    g.setup_ms,
                    if g.interrupted { " [interrupted]" } else { "" }
                ))?;
                if let Some(why) = &g.unwinnable {
                    out.text(&format!("the level cannot be won: {why}"))?;
                }
                out.text(&format!("actions: {}", g.actions))?;
            }
        }
        Ok(())
    };
    job::play(&req, &interrupt_flag(), &mut print).map(drop)
}

/// `puzzle experiment bait`: every agent on every level (the options of
/// [`job::ExperimentRequest`]) and where the report goes.
#[derive(clap::Args, Debug)]
pub struct ExperimentArgs {
    #[command(flatten)]
    pub request: job::ExperimentRequest,
    /// Write the Markdown report here (default: standard output).
    #[arg(long, short, visible_alias = "out", value_name = "FILE")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub shard: crate::common::ShardArgs,
}

/// Play every agent on every level and write the Markdown table.
pub fn experiment(args: ExperimentArgs, common: &CommonArgs) -> Result<()> {
    let mut req = args.request;
    finish_request(&mut req, common, Some(&args.shard))?;
    let out = common.output();
    let mut print = |event: ExperimentEvent| -> Result<()> {
        if let ExperimentEvent::Game(g) = event {
            out.json(&g)?;
            if !common.quiet && !common.json {
                eprintln!(
                    "{} level {} seed {}: {} score {} ticks {} (max move {:.1} ms)",
                    g.agent,
                    g.level,
                    g.seed,
                    if g.win { "won" } else { "lost" },
                    g.score,
                    g.ticks,
                    g.max_move_ms
                );
            }
        }
        Ok(())
    };
    let report = job::experiment_report(&req, &interrupt_flag(), &mut print)?;
    save_report(common, args.output.as_deref(), &report)
}

/// `puzzle bench bait`: time per move of every agent on one level ([`job::BenchRequest`]).
pub type BenchArgs = job::BenchRequest;

/// Play every agent once on a level and report the move times.
pub fn bench(mut req: BenchArgs, common: &CommonArgs) -> Result<()> {
    finish_request(&mut req, common, None)?;
    let out = common.output();
    out.text(&format!(
        "level {}, {} ms per move\nagent          win score ticks  max-ms(cpu) max-ms(wall) setup-ms work",
        req.level, req.budget_ms
    ))?;
    let mut print = |event: BenchEvent| -> Result<()> {
        if let BenchEvent::Agent(o) = event {
            out.json(&o)?;
            out.text(&format!(
                "{:14} {:3} {:5} {:5} {:12.2} {:12.2} {:8.0} {}",
                o.agent,
                if o.win { "yes" } else { "no" },
                o.score,
                o.ticks,
                o.max_move_ms,
                o.max_move_wall_ms,
                o.setup_ms,
                o.work
            ))?;
        }
        Ok(())
    };
    job::bench(&req, &interrupt_flag(), &mut print).map(drop)
}
