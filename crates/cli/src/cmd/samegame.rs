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
    interrupt_flag, progress_bar, read_text, save_report, time_bar, CommonArgs, ShardArgs,
};
use anyhow::Result;
use clap::ValueEnum;
use indicatif::ProgressBar;
use puzzle_jobs::samegame::{
    self as job, BenchEvent, ExperimentEvent, ExperimentRequest, SolveEvent, SolveRequest,
};
use puzzle_samegame::playout::AnyChooser;
use puzzle_samegame::search::Algorithm;
use std::path::PathBuf;
use std::time::Duration;

/// `--scoring`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ScoringArg {
    /// (n−2)² per group, +1000 for clearing the board.
    #[default]
    Standard,
    /// The Hungarian paper's (n−1)² per group, no bonus.
    Hungarian,
}

/// `--penalty`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PenaltyArg {
    /// No end penalty (Cazenave, CodinGame).
    #[default]
    None,
    /// (m−2)² for the m stones left (js-games.de).
    Total,
    /// Σ(m_c−2)² over the colours left (Schadd).
    PerColour,
}

/// `--tabu-schedule` (see [`TabuSchedule`](puzzle_samegame::search::TabuSchedule)).
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TabuScheduleArg {
    /// Run i takes the (i mod K)-th most frequent colour.
    RoundRobin,
    /// One run per colour, then the colour whose runs scored best.
    #[default]
    BestFirst,
}

/// The name clap gives a value (`per-colour`, `round-robin` …), which the job layer takes.
fn value_name<T: ValueEnum>(value: T) -> String {
    value
        .to_possible_value()
        .map_or_else(String::new, |v| v.get_name().to_string())
}

/// Arguments of `puzzle solve samegame`.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// A standard-set file (`rows cols colours` + letter rows), the digits file (`# problem NN`
    /// blocks) or a Hungarian CSV (`columns;rows`). Omit it with --random.
    #[arg(value_name = "FILE", required_unless_present = "random")]
    pub file: Option<PathBuf>,
    /// Only board N (1-based) of a multi-board file.
    #[arg(long, value_name = "N")]
    pub board: Option<usize>,
    /// A random board instead of a file: COLSxROWSxCOLOURS, e.g. 15x15x5 (seed: --seed).
    #[arg(long, value_name = "WxHxK")]
    pub random: Option<String>,
    /// The search. The default, NRPA with the selective policy and best-first tabu colours, is
    /// the strongest at every budget measured; the papers' settings: `--algo spmcts` (Schadd
    /// et al.), `--tabu-colours 1` (Cazenave 2016), `--no-selective` (Rosin's NRPA).
    #[arg(long, default_value = "nrpa", value_parser = parse_algorithm)]
    pub algo: Algorithm,
    /// Playout policy: random, tabu, tabu-colour, pseudo[-K], pseudo-tabu[-K], double-tabu,
    /// roulette, eps<E>-<policy>.
    // The doc comment is the `--help` text: `<E>` is a placeholder, not HTML.
    #[allow(rustdoc::invalid_html_tags)]
    #[arg(long, default_value = "tabu", value_parser = parse_playout)]
    pub playout: AnyChooser,
    /// Points per group.
    #[arg(long, value_enum, default_value = "standard")]
    pub scoring: ScoringArg,
    /// End penalty for stones left.
    #[arg(long, value_enum, default_value = "none")]
    pub penalty: PenaltyArg,
    /// SP-MCTS exploration constant C (rewards are normalized to about [0, 1]).
    #[arg(long, value_parser = parse_nonnegative)]
    pub c: Option<f64>,
    /// SP-MCTS variance constant D.
    #[arg(long, value_parser = parse_nonnegative)]
    pub d: Option<f64>,
    /// SP-MCTS weight W of the best result below a node.
    #[arg(long, value_parser = parse_nonnegative)]
    pub w: Option<f64>,
    /// Use UCB1 with this UCTK instead of the SP-MCTS formula (the Czech thesis's best: 0.1–0.2).
    #[arg(long, value_parser = parse_nonnegative)]
    pub uctk: Option<f64>,
    /// Playouts through a leaf before it is expanded.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
    pub visits_before_expand: u32,
    /// Expand one child per playout (Coulom) instead of all children at once.
    #[arg(long)]
    pub one_child: bool,
    /// Random restarts: a fresh tree after this many playouts per thread (default 20000).
    #[arg(long, value_name = "N", value_parser = crate::common::parse_positive_u64)]
    pub restart_after: Option<u64>,
    /// One tree per thread for the whole run (no random restarts).
    #[arg(long, conflicts_with = "restart_after")]
    pub no_restarts: bool,
    /// SP-MCTS: keep selecting finished lines (no solved-subtree marking).
    #[arg(long)]
    pub no_solved_marking: bool,
    /// SP-MCTS per-move mode: search, commit the next move of the best game so far, search
    /// again from there (the budget shared out over the moves); best for long budgets.
    #[arg(long)]
    pub per_move: bool,
    /// NRPA with the selective policy (Cazenave 2016): the tabu colour is not played while a
    /// group of another colour exists. On by default; kept so that older commands still run.
    #[arg(long, overrides_with = "no_selective")]
    pub selective: bool,
    /// Plain NRPA (Rosin 2011): every move allowed, no tabu colour.
    #[arg(long, overrides_with = "selective")]
    pub no_selective: bool,
    /// Selective NRPA with several tabu colours: keep PCT % of the budget for endgame
    /// searches, one NRPA run each from the positions after 1/2, 2/3 and 5/6 of the best
    /// game's moves (0 = none)
    #[arg(long, value_name = "PCT", default_value_t = 0,
          value_parser = clap::value_parser!(u32).range(0..=90))]
    pub endgame_percent: u32,
    /// Stabilized NRPA (Cazenave, Sevestre & Toulemont 2021): P playouts per level-1 step
    /// before each policy adaptation (1 = plain NRPA).
    #[arg(long, value_name = "P", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub stabilized: u32,
    /// NRPA's top level as B lineages, each its own policy, cut by successive halving: the
    /// better half is kept at 1/B, then 1/(B/2), … of the iterations (1 = plain NRPA; B = 8
    /// makes a run 2.5 plain runs long)
    #[arg(long, value_name = "B", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=64))]
    pub lineages: u32,
    /// Selective NRPA: restarts take the tabu colour from the K most frequent colours
    /// (1 = always the most frequent, as Cazenave); with several threads each thread starts
    /// at a different one.
    #[arg(long, value_name = "K", default_value_t = 3,
          value_parser = clap::value_parser!(u32).range(1..=20))]
    pub tabu_colours: u32,
    /// With --tabu-colours K > 1: `round-robin` (run i takes the (i mod K)-th colour) or
    /// `best-first` (one run per colour, then every run takes the colour whose runs scored best).
    #[arg(long, value_enum, default_value_t = TabuScheduleArg::BestFirst)]
    pub tabu_schedule: TabuScheduleArg,
    /// NMCS / NRPA nesting level (default: NMCS 2, NRPA 3).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=5))]
    pub level: Option<u32>,
    /// DBS depth.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=6))]
    pub depth: u32,
    #[command(flatten)]
    pub shard: ShardArgs,
}

fn parse_algorithm(s: &str) -> Result<Algorithm, String> {
    s.parse()
}

fn parse_playout(s: &str) -> Result<AnyChooser, String> {
    s.parse()
}

fn parse_nonnegative(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!("'{s}' is not a non-negative number")),
    }
}

/// `puzzle solve samegame`.
pub fn solve(args: SolveArgs, common: &CommonArgs) -> Result<()> {
    if args.random.is_some() && args.file.is_some() {
        anyhow::bail!("give either FILE or --random, not both");
    }
    let text = args.file.as_deref().map(read_text).transpose()?;
    let mut req = SolveRequest {
        text,
        source: args
            .file
            .as_ref()
            .map_or_else(|| "input".to_string(), |p| p.display().to_string()),
        board: args.board,
        random: args.random,
        algo: args.algo.to_string(),
        playout: args.playout.to_string(),
        scoring: value_name(args.scoring),
        penalty: value_name(args.penalty),
        c: args.c,
        d: args.d,
        w: args.w,
        uctk: args.uctk,
        visits_before_expand: args.visits_before_expand,
        one_child: args.one_child,
        restart_after: args.restart_after,
        no_restarts: args.no_restarts,
        no_solved_marking: args.no_solved_marking,
        per_move: args.per_move,
        selective: !args.no_selective,
        stabilized: args.stabilized,
        lineages: args.lineages,
        tabu_colours: args.tabu_colours,
        tabu_schedule: value_name(args.tabu_schedule),
        endgame_percent: args.endgame_percent,
        level: args.level,
        depth: args.depth,
        limits: common.limits(),
        items: Default::default(),
    };
    args.shard.prepare(
        common,
        &mut req,
        |r| &mut r.items,
        puzzle_jobs::JobRequest::SamegameSolve,
    )?;
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

/// Arguments of `puzzle experiment samegame`.
#[derive(clap::Args, Debug)]
pub struct ExperimentArgs {
    /// Boards (default: the bundled 20 standard boards).
    #[arg(long, value_name = "FILE")]
    pub boards: Option<PathBuf>,
    /// Only the first N boards.
    #[arg(long, value_name = "N", value_parser = crate::common::parse_positive_usize)]
    pub count: Option<usize>,
    /// Playout policies compared (comma-separated).
    #[arg(long, default_value = "tabu,pseudo-tabu,double-tabu")]
    pub playouts: String,
    /// Selection formulas compared: ucb-tuned, uctk<C> (UCB1), spmcts.
    // The doc comment is the `--help` text: `<C>` is a placeholder, not HTML.
    #[allow(rustdoc::invalid_html_tags)]
    #[arg(long, default_value = "ucb-tuned,uctk0.1,uctk0.2,uctk0.4")]
    pub formulas: String,
    /// Write the Markdown report here (default: standard output).
    #[arg(long, short, visible_alias = "output", value_name = "FILE")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub shard: ShardArgs,
}

/// `puzzle experiment samegame`.
pub fn experiment(args: ExperimentArgs, common: &CommonArgs) -> Result<()> {
    let (boards, source) = match &args.boards {
        Some(path) => (Some(read_text(path)?), path.display().to_string()),
        None => (None, "input".to_string()),
    };
    let mut req = ExperimentRequest {
        boards,
        source,
        count: args.count,
        playouts: args.playouts.split(',').map(String::from).collect(),
        formulas: args.formulas.split(',').map(String::from).collect(),
        limits: common.limits(),
        ..ExperimentRequest::default()
    };
    args.shard.prepare(
        common,
        &mut req,
        |r| &mut r.items,
        puzzle_jobs::JobRequest::SamegameExperiment,
    )?;
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

/// Arguments of `puzzle bench samegame`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Which standard board (1–20) to measure on.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=20))]
    pub board: u32,
    /// Seconds per measurement.
    #[arg(long, default_value_t = 2.0, value_parser = crate::common::parse_seconds)]
    pub seconds: f64,
}

/// `puzzle bench samegame`.
pub fn bench(args: BenchArgs, common: &CommonArgs) -> Result<()> {
    let req = job::BenchRequest {
        board: args.board,
        seconds: args.seconds,
        limits: common.limits(),
    };
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
