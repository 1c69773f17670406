//! `puzzle generate sokoban`, `puzzle experiment sokoban-gen` and `puzzle render`: Sokoban level
//! generation with MCTS (see `docs/METHODS.md#sokogen`, crate `puzzle_sokogen`).
//!
//! Generation streams every kept level as soon as it is found (JSON line, text, and the
//! `--out` XSB file, flushed), each verified by replaying its solution first; Ctrl-C ends the run
//! and keeps everything found.

use crate::common::{
    finish_request, interrupt_flag, progress_bar, read_text, save_report, time_bar, write_atomic,
    CommonArgs, ShardArgs,
};
use anyhow::{bail, Context, Result};
use puzzle_jobs::sokogen::{
    self as job, ExperimentEvent, ExperimentRequest, GenEvent, GenerateRequest,
};
use puzzle_sokogen::render::{level_png, level_svg, score_plot_svg};
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `puzzle generate sokoban`: the options of the job's request
/// ([`GenerateRequest`], where each is declared with its help and default) and the files.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Defaults: 7×7, 10 s; `--threads` = the machine's cores when only time \
bounds the run (root parallelism), 1 with `--iterations` (reproducible for a seed and thread \
count; give `--threads` for more)."
)]
pub struct GenerateArgs {
    #[command(flatten)]
    pub request: GenerateRequest,
    /// Write the kept levels to this XSB file as they are found.
    #[arg(long, value_name = "FILE.xsb")]
    pub out: Option<PathBuf>,
    /// Write a plot of the best score over time (SVG).
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    #[command(flatten)]
    pub shard: ShardArgs,
}

/// `puzzle generate sokoban`.
pub fn generate(args: GenerateArgs, common: &CommonArgs) -> Result<()> {
    if args.request.seeds.is_some() && common.limits.seed.is_some() {
        bail!("--seeds gives each run its seed: leave out --seed");
    }
    if args.request.seeds.is_some() && args.plot.is_some() {
        bail!("--plot draws one run's best score over time: leave it out with --seeds");
    }
    if args.shard.active() && args.request.seeds.is_none() {
        bail!("--shard and --resume split a run over seeds: give --seeds A..B");
    }
    let mut req = args.request;
    finish_request(&mut req, common, Some(&args.shard))?;
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
    let aimed = params.aim.is_some();
    let bar = match params.budget.max_time {
        Some(t) if common.limits.iterations.is_none() => time_bar(common, t, "generating"),
        _ => progress_bar(common, 0, "generating"),
    };
    let mut print = |event: GenEvent| -> Result<()> {
        match event {
            GenEvent::Progress(_) => {}
            GenEvent::Level(l) => {
                if let (Some(f), Some(path)) = (file.as_mut(), &args.out) {
                    f.write_all(job::xsb_entry(&l, req.width, req.height).as_bytes())
                        .and_then(|_| f.flush())
                        .with_context(|| format!("cannot write {}", path.display()))?;
                }
                out.json(&l)?;
                let measure = match l.optimal_pushes {
                    Some(p) => {
                        bar.set_message(format!("{p} pushes"));
                        format!(
                            "{p} pushes, proven optimal ({} boxes; score {:.4})",
                            l.boxes, l.score
                        )
                    }
                    None => {
                        bar.set_message(format!("best {:.4}", l.score.max(0.0)));
                        format!(
                            "score {:.4} (P_b {}, P_c {:.4}, {} boxes)",
                            l.score, l.pb, l.pc, l.boxes
                        )
                    }
                };
                bar.suspend(|| {
                    out.text(&format!(
                        "level {}{}: {measure} after {:.2} s\n{}solution: {}\n",
                        l.index,
                        if l.new_best { " (new best)" } else { "" },
                        l.time_s,
                        l.xsb,
                        l.solution
                    ))
                })?;
            }
            GenEvent::Summary(s) => {
                out.json(&s)?;
                let best = if aimed {
                    format!("most pushes {}", s.best_score)
                } else {
                    format!("best score {:.4}", s.best_score)
                };
                out.text(&format!(
                    "{} levels kept; {best} after {:.2} s; {} iterations in {:.2} s ({:.0}/s); {} nodes (peak {}){}",
                    s.levels,
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
                "{} over time, {}×{}, seed {}",
                if aimed {
                    "Most optimal pushes"
                } else {
                    "Best score"
                },
                req.width,
                req.height,
                outcome.seed
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
    #[command(flatten)]
    pub request: ExperimentRequest,
    /// Write the Markdown report here (default: standard output).
    #[arg(long, short, visible_alias = "output", value_name = "FILE.md")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub shard: ShardArgs,
}

/// `puzzle experiment sokoban-gen`.
pub fn experiment(args: ExperimentArgs, common: &CommonArgs) -> Result<()> {
    let mut req = args.request;
    finish_request(&mut req, common, Some(&args.shard))?;
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
