//! `puzzle play bait`, `puzzle experiment bait`, `puzzle bench bait` (see `docs/METHODS.md#bait`):
//! argument parsing and printing over [`puzzle_jobs::bait`] (GVGAI's Bait played by the agents of
//! `puzzle-bait` under a per-move CPU budget).

use crate::common::{interrupt_flag, read_text, save_report, write_atomic, CommonArgs};
use anyhow::{bail, Result};
use puzzle_bait::agents::AgentKind;
use puzzle_jobs::bait::{self as job, BenchEvent, ExperimentEvent, PlayEvent, TickRecord};
use std::path::PathBuf;

fn parse_level_index(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(v) if v <= 4 => Ok(v),
        _ => Err(format!("'{s}' is not a level number 0 to 4")),
    }
}

fn parse_budget_ms(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .parse()
        .map_err(|_| format!("'{s}' is not a number of milliseconds"))?;
    if !v.is_finite() || v <= 0.0 || v > job::MAX_BUDGET_MS {
        return Err(format!(
            "the budget must be more than 0 and at most 600000 ms, not {s}"
        ));
    }
    Ok(v)
}

/// `puzzle play bait (--level 0..4 | FILE) [--agent ...] [--budget-ms MS]`.
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// One of GVGAI's five levels (0 to 4).
    #[arg(long, value_name = "N", value_parser = parse_level_index, conflicts_with = "file")]
    pub level: Option<usize>,
    /// A level file in GVGAI's text format (w wall, A avatar, 0 hole, 1 box, k key, g door,
    /// m mushroom, . floor).
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// The agent: dfs, dls, astar, astar-offline, mcts, mcts-plus.
    #[arg(long, default_value = "astar", value_parser = |s: &str| s.parse::<AgentKind>())]
    pub agent: AgentKind,
    /// CPU time per move in milliseconds (GVGAI: 40).
    #[arg(long, value_name = "MS", default_value = "40", value_parser = parse_budget_ms)]
    pub budget_ms: f64,
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
    let (req, label) = match (&args.level, &args.file) {
        (Some(i), None) => (
            job::PlayRequest {
                level: Some(*i),
                ..Default::default()
            },
            format!("level {i}"),
        ),
        (None, Some(f)) => (
            job::PlayRequest {
                text: Some(read_text(f)?),
                source: f.display().to_string(),
                ..Default::default()
            },
            f.display().to_string(),
        ),
        (None, None) => bail!("give a level: --level 0..4 or a level FILE"),
        (Some(_), Some(_)) => bail!("give either --level or a FILE, not both"),
    };
    let req = job::PlayRequest {
        agent: args.agent.name().to_string(),
        budget_ms: args.budget_ms,
        limits: common.limits(),
        ..req
    };
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
                out.text(&format!("actions: {}", g.actions))?;
            }
        }
        Ok(())
    };
    job::play(&req, &interrupt_flag(), &mut print).map(drop)
}

/// `puzzle experiment bait`: every agent on every level.
#[derive(clap::Args, Debug)]
pub struct ExperimentArgs {
    /// Games per level for the agents that use random numbers (seeds 0, 1, ...).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub seeds: u64,
    /// Agents (comma-separated); default all.
    #[arg(long, value_delimiter = ',', value_parser = |s: &str| s.trim().parse::<AgentKind>())]
    pub agents: Vec<AgentKind>,
    /// Levels (comma-separated, 0 to 4); default all.
    #[arg(long, value_delimiter = ',', value_parser = parse_level_index)]
    pub levels: Vec<usize>,
    /// CPU time per move in milliseconds.
    #[arg(long, value_name = "MS", default_value = "40", value_parser = parse_budget_ms)]
    pub budget_ms: f64,
    /// Write the Markdown report here (default: standard output).
    #[arg(long, short, visible_alias = "out", value_name = "FILE")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub shard: crate::common::ShardArgs,
}

/// Play every agent on every level and write the Markdown table.
pub fn experiment(args: ExperimentArgs, common: &CommonArgs) -> Result<()> {
    let mut req = job::ExperimentRequest {
        seeds: args.seeds,
        agents: args.agents.iter().map(|a| a.name().to_string()).collect(),
        levels: args.levels.clone(),
        budget_ms: args.budget_ms,
        limits: common.limits(),
        items: Default::default(),
    };
    args.shard.prepare(common, &mut req)?;
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

/// `puzzle bench bait`: time per move of every agent on one level.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// The level (0 to 4).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = parse_level_index)]
    pub level: usize,
    /// CPU time per move in milliseconds.
    #[arg(long, value_name = "MS", default_value = "40", value_parser = parse_budget_ms)]
    pub budget_ms: f64,
}

/// Play every agent once on a level and report the move times.
pub fn bench(args: BenchArgs, common: &CommonArgs) -> Result<()> {
    let req = job::BenchRequest {
        level: args.level,
        budget_ms: args.budget_ms,
        limits: common.limits(),
    };
    let out = common.output();
    out.text(&format!(
        "level {}, {} ms per move\nagent          win score ticks  max-ms(cpu) max-ms(wall) setup-ms work",
        args.level, args.budget_ms
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
