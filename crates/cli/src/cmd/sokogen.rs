//! `puzzle generate sokoban`, `puzzle experiment sokoban-gen` and `puzzle render`: Sokoban level
//! generation with MCTS (see `docs/METHODS.md#sokogen`, crate `puzzle_sokogen`).
//!
//! Generation streams every kept level as soon as it is found (JSON line, text, and the
//! `--out` XSB file, flushed), each verified by replaying its solution first; Ctrl-C ends the run
//! and keeps everything found.

use crate::common::{
    interrupt_flag, progress_bar, read_text, save_report, time_bar, write_atomic, CommonArgs,
    ShardArgs,
};
use anyhow::{bail, Context, Result};
use puzzle_jobs::sokogen::{
    self as job, ExperimentEvent, ExperimentRequest, GenEvent, GenerateRequest,
};
use puzzle_sokogen::render::{level_png, level_svg, score_plot_svg};
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `puzzle generate sokoban`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Defaults: 7×7, 10 s; `--threads` = the machine's cores when only time \
bounds the run (root parallelism: 2 threads gave 1.9× the iterations of one), 1 with \
`--iterations` (reproducible for a seed; give `--threads` for more)."
)]
pub struct GenerateArgs {
    /// Board width (interior, without the wall border added on output): 3 to 31.
    #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u32).range(3..=31))]
    pub width: u32,
    /// Board height (interior): 3 to 31.
    #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u32).range(3..=31))]
    pub height: u32,
    /// The player's start cell `X,Y` ((0,0) top-left of the interior; default: the centre).
    #[arg(long, value_name = "X,Y", value_parser = parse_start)]
    pub start: Option<(usize, usize)>,
    /// Also keep every level scoring at least this (besides each new best).
    #[arg(long, value_name = "SCORE")]
    pub threshold: Option<f64>,
    /// Write the kept levels to this XSB file as they are found.
    #[arg(long, value_name = "FILE.xsb")]
    pub out: Option<PathBuf>,
    /// Write a plot of the best score over time (SVG).
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// Bootstrapping's share δ of the budget (0 = off; the thesis's best: 0.2).
    #[arg(long, default_value_t = 0.2, value_name = "DELTA")]
    pub bootstrap_delta: f64,
    /// Levels differing from a kept, at least as good level in at most this many cells are
    /// dropped as near-duplicates.
    #[arg(long, default_value_t = 2, value_name = "CELLS")]
    pub near_duplicates: u32,
    /// Move-Agent form: `push` (the thesis's optimization) or `naive` (4-direction steps).
    #[arg(long, default_value = "push", value_parser = ["push", "naive"])]
    pub move_agent: String,
    /// Upper box limit: a number, `third` (⌈nm/3⌉, default), `half` (⌈nm/2⌉) or `none`.
    #[arg(long, default_value = "third", value_name = "H", value_parser = parse_box_limit)]
    pub box_limit: String,
    /// Tree depth Freeze-Level needs (0 = off; the thesis's final configuration: 10).
    #[arg(long, default_value_t = 10, value_name = "D")]
    pub depth_limit: u16,
    /// Keep boxes in impossible 2×2 configurations at Freeze-Level (turns the optimization off).
    #[arg(long)]
    pub keep_impossible: bool,
    /// Create all children at a node's first expansion instead of one per expansion (bloom off).
    #[arg(long)]
    pub no_bloom: bool,
    /// Use Congestion-V1 instead of Congestion-V2 in the score.
    #[arg(long)]
    pub congestion_v1: bool,
    /// Selection formula: `ucb1`, `ucb1-tuned`, `ucb-v` or `sp-mcts` (Table 3.8's constants).
    #[arg(long, default_value = "ucb1", value_parser = ["ucb1", "ucb1-tuned", "ucb-v", "sp-mcts"])]
    pub selection: String,
    /// UCB1's exploration factor ξ (C = ξ/√2; Table 3.7).
    #[arg(long, default_value_t = 1.0, value_name = "XI")]
    pub xi: f64,
    /// Low-memory setting for long runs on big boards: the search trees' memory in MiB (caps
    /// `--max-nodes` at what fits: 32 bytes a node with UCB1, 48 with the other formulas; a
    /// full tree stops growing and the search goes on sampling from its leaves).
    #[arg(long, value_name = "MIB", value_parser = parse_mib)]
    pub max_memory: Option<f64>,
    /// One generation (one level set) per seed: `A..B` (A to B−1) or `A..=B`; each record
    /// carries its seed. Instead of --seed; --shard splits the seeds.
    #[arg(long, value_name = "A..B", value_parser = parse_seeds)]
    pub seeds: Option<job::SeedRange>,
    #[command(flatten)]
    pub shard: ShardArgs,
}

fn parse_mib(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        _ => Err(format!("'{s}' is not a positive number of MiB")),
    }
}

fn parse_seeds(s: &str) -> Result<job::SeedRange, String> {
    s.parse()
}

fn parse_box_limit(s: &str) -> Result<String, String> {
    job::parse_box_limit(s).map(|_| s.to_string())
}

fn parse_start(s: &str) -> Result<(usize, usize), String> {
    let (x, y) = s
        .split_once(',')
        .ok_or_else(|| format!("'{s}' is not X,Y (e.g. 2,2)"))?;
    let parse = |v: &str| {
        v.trim()
            .parse::<usize>()
            .map_err(|_| format!("'{v}' in '{s}' is not a non-negative whole number"))
    };
    Ok((parse(x)?, parse(y)?))
}

/// `puzzle generate sokoban`.
pub fn generate(args: GenerateArgs, common: &CommonArgs) -> Result<()> {
    if args.seeds.is_some() && common.seed.is_some() {
        bail!("--seeds gives each run its seed: leave out --seed");
    }
    if args.seeds.is_some() && args.plot.is_some() {
        bail!("--plot draws one run's best score over time: leave it out with --seeds");
    }
    if args.shard.active() && args.seeds.is_none() {
        bail!("--shard and --resume split a run over seeds: give --seeds A..B");
    }
    let mut req = GenerateRequest {
        width: args.width,
        height: args.height,
        start: args.start,
        threshold: args.threshold,
        bootstrap_delta: args.bootstrap_delta,
        near_duplicates: args.near_duplicates,
        move_agent: args.move_agent.clone(),
        box_limit: args.box_limit.clone(),
        depth_limit: args.depth_limit,
        keep_impossible: args.keep_impossible,
        no_bloom: args.no_bloom,
        congestion_v1: args.congestion_v1,
        selection: args.selection.clone(),
        xi: args.xi,
        max_memory_mb: args.max_memory,
        limits: common.limits(),
        seeds: args.seeds,
        items: Default::default(),
    };
    args.shard.prepare(
        common,
        &mut req,
        |r| &mut r.items,
        puzzle_jobs::JobRequest::SokobanGenerate,
    )?;
    let stop = interrupt_flag();
    // Refuse bad settings before creating the output file.
    let params = job::params(&req, &stop)?;
    let mut file = match &args.out {
        Some(path) => Some(std::io::BufWriter::new(
            std::fs::File::create(path)
                .with_context(|| format!("cannot create {}", path.display()))?,
        )),
        None => None,
    };
    let out = common.output();
    let bar = match params.budget.max_time {
        Some(t) if common.iterations.is_none() => time_bar(common, t, "generating"),
        _ => progress_bar(common, 0, "generating"),
    };
    let mut print = |event: GenEvent| -> Result<()> {
        match event {
            GenEvent::Progress(_) => {}
            GenEvent::Level(l) => {
                if let (Some(f), Some(path)) = (file.as_mut(), &args.out) {
                    f.write_all(job::xsb_entry(&l, args.width, args.height).as_bytes())
                        .and_then(|_| f.flush())
                        .with_context(|| format!("cannot write {}", path.display()))?;
                }
                out.json(&l)?;
                bar.set_message(format!("best {:.4}", l.score.max(0.0)));
                bar.suspend(|| {
                    out.text(&format!(
                        "level {}{}: score {:.4} (P_b {}, P_c {:.4}, {} boxes) after {:.2} s\n{}solution: {}\n",
                        l.index,
                        if l.new_best { " (new best)" } else { "" },
                        l.score,
                        l.pb,
                        l.pc,
                        l.boxes,
                        l.time_s,
                        l.xsb,
                        l.solution
                    ))
                })?;
            }
            GenEvent::Summary(s) => {
                out.json(&s)?;
                out.text(&format!(
                    "{} levels kept; best score {:.4} after {:.2} s; {} iterations in {:.2} s ({:.0}/s); {} nodes (peak {}){}",
                    s.levels,
                    s.best_score,
                    s.time_to_best_s,
                    s.iterations,
                    s.elapsed_s,
                    s.iterations_per_s,
                    s.nodes,
                    s.peak_nodes,
                    if s.interrupted { "; interrupted" } else { "" }
                ))?;
            }
        }
        Ok(())
    };
    let result = job::generate(&req, &stop, &mut print);
    bar.finish_and_clear();
    let outcome = result?;
    if let Some(path) = &args.plot {
        let svg = score_plot_svg(
            &outcome.trace,
            outcome.summary.elapsed_s,
            &format!(
                "Best score over time, {}×{}, seed {}",
                args.width, args.height, outcome.seed
            ),
        );
        write_atomic(path, svg.as_bytes())?;
    }
    Ok(())
}

/// Arguments of `puzzle experiment sokoban-gen` (the thesis's Tables 3.1–3.8 on 5×5, start
/// (2,2); `--time-limit` per run, default 0.5 s; the thesis used 30 s).
#[derive(clap::Args, Debug)]
pub struct ExperimentArgs {
    /// Tables to run, e.g. `3.1,3.5` (default: all eight).
    #[arg(long, value_delimiter = ',', value_name = "IDS")]
    pub tables: Vec<String>,
    /// Seeds per column: 1..=N (the thesis: 10).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub seeds: u64,
    /// Write the Markdown report here (default: standard output).
    #[arg(long, short, visible_alias = "output", value_name = "FILE.md")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub shard: ShardArgs,
}

/// `puzzle experiment sokoban-gen`.
pub fn experiment(args: ExperimentArgs, common: &CommonArgs) -> Result<()> {
    let mut req = ExperimentRequest {
        tables: args.tables,
        seeds: args.seeds,
        limits: common.limits(),
        items: Default::default(),
    };
    args.shard.prepare(
        common,
        &mut req,
        |r| &mut r.items,
        puzzle_jobs::JobRequest::SokobanGenExperiment,
    )?;
    let out = common.output();
    let bar = progress_bar(common, 0, "columns");
    let mut print = |event: ExperimentEvent| -> Result<()> {
        match event {
            ExperimentEvent::Run(r) => out.json(&r),
            ExperimentEvent::Column(c) => {
                bar.inc(1);
                out.json(&c)
            }
        }
    };
    let result = job::experiment_report(&req, &interrupt_flag(), &mut print);
    bar.finish_and_clear();
    save_report(common, args.out.as_deref(), &result?)
}

/// Arguments of `puzzle render`.
#[derive(clap::Args, Debug)]
pub struct RenderArgs {
    /// An XSB file (one or more levels).
    pub file: PathBuf,
    /// Which level of the file (1-based).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub level: u64,
    /// Output prefix: writes PREFIX.svg and PREFIX.png (default: the file's name without
    /// extension, plus `-N` for a level other than the first).
    #[arg(long, value_name = "PREFIX")]
    pub out: Option<PathBuf>,
}

/// `puzzle render`.
pub fn render(args: RenderArgs, common: &CommonArgs) -> Result<()> {
    let text = read_text(&args.file)?;
    let levels = puzzle_sokoban::parse_xsb(&text)
        .map_err(|e| anyhow::anyhow!("{}: {e}", args.file.display()))?;
    let n = args.level as usize;
    let Some(level) = levels.get(n - 1) else {
        bail!(
            "{}: level {n} asked for, but the file has {} level(s)",
            args.file.display(),
            levels.len()
        );
    };
    let prefix = match &args.out {
        Some(p) => p.clone(),
        None => {
            let stem = args.file.with_extension("");
            if n == 1 {
                stem
            } else {
                PathBuf::from(format!("{}-{n}", stem.display()))
            }
        }
    };
    let svg_path = PathBuf::from(format!("{}.svg", prefix.display()));
    let png_path = PathBuf::from(format!("{}.png", prefix.display()));
    write_atomic(&svg_path, level_svg(level).as_bytes())?;
    let png = level_png(level).context("encoding the PNG")?;
    write_atomic(&png_path, &png)?;
    let out = common.output();
    out.json(&serde_json::json!({
        "svg": svg_path.display().to_string(),
        "png": png_path.display().to_string(),
        "level": n,
        "width": level.width,
        "height": level.height,
    }))?;
    out.text(&format!(
        "wrote {} and {}",
        svg_path.display(),
        png_path.display()
    ))?;
    Ok(())
}
