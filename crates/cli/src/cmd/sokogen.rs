//! `puzzle generate sokoban`, `puzzle experiment sokoban-gen` and `puzzle render`: Sokoban level
//! generation with MCTS (SPEC §B, crate `puzzle_sokogen`).
//!
//! Generation streams every kept level as soon as it is found (JSON line, text, and the
//! `--out` XSB file, flushed), each verified by replaying its solution first; Ctrl-C ends the run
//! and keeps everything found.

use crate::common::{interrupt_flag, progress_bar, read_text, time_bar, CommonArgs, Signature};
use anyhow::{bail, Context, Result};
use puzzle_engine::Budget;
use puzzle_sokogen::experiment::{markdown_table, measure, process_cpu_seconds, tables};
use puzzle_sokogen::render::{level_png, level_svg, score_plot_svg};
use puzzle_sokogen::{
    generate as run_generation, Bootstrap, BoxLimit, Congestion, GenConfig, GenParams,
    GeneratedLevel, MoveAgent, Rules, Selection,
};
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// Default node budget over all threads (a node is ~60 bytes plus its untried-action list).
const DEFAULT_MAX_NODES: usize = 8_000_000;

/// Arguments of `puzzle generate sokoban`.
#[derive(clap::Args, Debug)]
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
    pub box_limit: BoxLimit,
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
}

fn parse_box_limit(s: &str) -> Result<BoxLimit, String> {
    match s {
        "none" => Ok(BoxLimit::Unlimited),
        "third" => Ok(BoxLimit::AreaOver(3)),
        "half" => Ok(BoxLimit::AreaOver(2)),
        _ => match s.parse::<u16>() {
            Ok(0) | Err(_) => Err(format!(
                "'{s}' is not a box limit (a positive number, third, half or none)"
            )),
            Ok(h) => Ok(BoxLimit::Fixed(h)),
        },
    }
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

/// One kept level as a JSON line (the CLI contract; extra fields allowed).
#[derive(Serialize)]
struct LevelJson<'a> {
    score: f64,
    pb: u32,
    pc: f64,
    boxes: u32,
    xsb: &'a str,
    solution: &'a str,
    iteration: u64,
    time_s: f64,
    new_best: bool,
    index: usize,
}

/// The final summary line.
#[derive(Serialize)]
struct SummaryJson {
    summary: bool,
    iterations: u64,
    iterations_per_s: f64,
    best_score: f64,
    time_to_best_s: f64,
    nodes: usize,
    peak_nodes: usize,
    levels: usize,
    elapsed_s: f64,
    bootstrap_iterations: u64,
    interrupted: bool,
    /// CPU seconds of the process (Linux), for iterations per CPU-second on a shared machine.
    cpu_s: Option<f64>,
    iterations_per_cpu_s: Option<f64>,
}

/// The XSB text of a kept level with its comment lines (solution, metrics) and title.
fn xsb_entry(l: &GeneratedLevel, index: usize, w: u32, h: u32) -> String {
    let m = &l.metrics;
    format!(
        "; solution: {}\n; score={:.4} pb={} pc={:.4} boxes={} iteration={} time_s={:.3}\n; sokogen {w}x{h} #{index} score {:.4}\n{}\n",
        l.solution, m.score, m.pb, m.pc, m.boxes, l.iteration, l.time_s, m.score, l.xsb
    )
}

/// `puzzle generate sokoban`.
pub fn generate(args: GenerateArgs, common: &CommonArgs) -> Result<()> {
    let (w, h) = (args.width as usize, args.height as usize);
    if let Some((x, y)) = args.start {
        if x >= w || y >= h {
            bail!("--start {x},{y} is outside the {w}×{h} board (0 ≤ X < {w}, 0 ≤ Y < {h})");
        }
    }
    if !(0.0..1.0).contains(&args.bootstrap_delta) {
        bail!(
            "--bootstrap-delta {} must be at least 0 and below 1",
            args.bootstrap_delta
        );
    }
    if let Some(t) = args.threshold {
        if !t.is_finite() {
            bail!("--threshold {t} is not a number");
        }
    }
    let threads = common.threads_or(1);
    let max_nodes = common.max_nodes.unwrap_or(DEFAULT_MAX_NODES);
    let per_tree = (max_nodes / threads).max(1);
    let mut budget = match (common.iterations, common.time_limit) {
        (Some(n), None) => Budget::iterations(n),
        (Some(n), Some(t)) => Budget::iterations(n).with_time(Duration::from_secs_f64(t)),
        (None, _) => Budget::time(common.time_or(10.0)),
    };
    budget = budget
        .with_max_nodes(per_tree)
        .with_stop_flag(interrupt_flag());
    if !(args.xi.is_finite() && args.xi > 0.0) {
        bail!("--xi {} must be a positive number", args.xi);
    }
    let defaults = GenConfig::default();
    let config = GenConfig {
        rules: Rules {
            move_agent: if args.move_agent == "naive" {
                MoveAgent::Naive
            } else {
                MoveAgent::Push
            },
            box_limit: args.box_limit,
            depth_limit: args.depth_limit,
            remove_impossible: !args.keep_impossible,
            congestion: if args.congestion_v1 {
                Congestion::V1
            } else {
                Congestion::V2
            },
            ..defaults.rules
        },
        bloom: !args.no_bloom,
        bootstrap: (args.bootstrap_delta > 0.0).then_some(Bootstrap {
            levels: 4,
            delta: args.bootstrap_delta,
        }),
        selection: match args.selection.as_str() {
            "ucb1" => Selection::Ucb1 { xi: args.xi },
            name => Selection::table_3_8()
                .into_iter()
                .find(|(n, _)| n.to_ascii_lowercase() == name)
                .map(|(_, s)| s)
                .unwrap_or_default(),
        },
        ..defaults
    };
    let params = GenParams {
        width: w,
        height: h,
        start: args.start,
        config,
        budget: budget.clone(),
        seed: common.seed_or(1),
        threads,
        threshold: args.threshold,
        near_duplicate_cells: args.near_duplicates,
    };
    let mut file = match &args.out {
        Some(path) => Some(std::io::BufWriter::new(
            std::fs::File::create(path)
                .with_context(|| format!("cannot create {}", path.display()))?,
        )),
        None => None,
    };
    let out = common.output();
    let bar = match budget.max_time {
        Some(t) if common.iterations.is_none() => time_bar(common, t, "generating"),
        _ => progress_bar(common, 0, "generating"),
    };
    let mut index = 0usize;
    let out_path = args.out.clone();
    let mut sink = |l: &GeneratedLevel| -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        index += 1;
        if let Some(f) = file.as_mut() {
            f.write_all(xsb_entry(l, index, args.width, args.height).as_bytes())
                .and_then(|_| f.flush())
                .map_err(|e| {
                    format!(
                        "cannot write {}: {e}",
                        out_path.as_deref().unwrap_or(Path::new("?")).display()
                    )
                })?;
        }
        out.json(&LevelJson {
            score: l.metrics.score,
            pb: l.metrics.pb,
            pc: l.metrics.pc,
            boxes: l.metrics.boxes,
            xsb: &l.xsb,
            solution: &l.solution,
            iteration: l.iteration,
            time_s: l.time_s,
            new_best: l.new_best,
            index,
        })
        .map_err(|e| e.to_string())?;
        let m = &l.metrics;
        bar.set_message(format!("best {:.4}", m.score.max(0.0)));
        bar.suspend(|| {
            out.text(&format!(
                "level {index}{}: score {:.4} (P_b {}, P_c {:.4}, {} boxes) after {:.2} s\n{}solution: {}\n",
                if l.new_best { " (new best)" } else { "" },
                m.score,
                m.pb,
                m.pc,
                m.boxes,
                l.time_s,
                l.xsb,
                l.solution
            ))
        })
        .map_err(|e| e.to_string())?;
        Ok(())
    };
    let cpu_before = process_cpu_seconds();
    let result = run_generation(&params, &mut sink);
    let cpu_s = match (cpu_before, process_cpu_seconds()) {
        (Some(a), Some(b)) => Some(b - a),
        _ => None,
    };
    bar.finish_and_clear();
    let summary = result.map_err(|e| anyhow::anyhow!("generation failed: {e}"))?;
    let interrupted = interrupt_flag().load(Ordering::Relaxed);
    if let Some(path) = &args.plot {
        let svg = score_plot_svg(
            &summary.trace,
            summary.elapsed.as_secs_f64(),
            &format!("Best score over time, {w}×{h}, seed {}", params.seed),
        );
        std::fs::write(path, svg).with_context(|| format!("cannot write {}", path.display()))?;
    }
    let rate = summary.iterations as f64 / summary.elapsed.as_secs_f64().max(1e-9);
    out.json(&SummaryJson {
        summary: true,
        iterations: summary.iterations,
        iterations_per_s: rate,
        best_score: summary.best_score,
        time_to_best_s: summary.time_to_best_s,
        nodes: summary.nodes,
        peak_nodes: summary.peak_nodes,
        levels: summary.levels,
        elapsed_s: summary.elapsed.as_secs_f64(),
        bootstrap_iterations: summary.bootstrap_iterations,
        interrupted,
        cpu_s,
        // The clock ticks are 1/100 s: below 0.2 s the rate would be mostly rounding.
        iterations_per_cpu_s: cpu_s
            .filter(|&c| c >= 0.2)
            .map(|c| summary.iterations as f64 / c),
    })?;
    out.text(&format!(
        "{} levels kept; best score {:.4} after {:.2} s; {} iterations in {:.2} s ({:.0}/s); {} nodes (peak {}){}",
        summary.levels,
        summary.best_score,
        summary.time_to_best_s,
        summary.iterations,
        summary.elapsed.as_secs_f64(),
        rate,
        summary.nodes,
        summary.peak_nodes,
        if interrupted { "; interrupted" } else { "" }
    ))?;
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
    #[arg(long, value_name = "FILE.md")]
    pub out: Option<PathBuf>,
}

#[derive(Serialize)]
struct ColumnJson<'a> {
    table: &'a str,
    column: &'a str,
    runs: usize,
    time_per_run_s: f64,
    iterations: f64,
    iterations_per_s: f64,
    iterations_per_cpu_s: Option<f64>,
    best_score: f64,
    time_to_best_s: f64,
    sigma: f64,
    thesis_iterations_per_30s: f64,
    thesis_best_score: f64,
    thesis_time_to_best_s: f64,
    thesis_sigma: f64,
}

/// `puzzle experiment sokoban-gen`.
pub fn experiment(args: ExperimentArgs, common: &CommonArgs) -> Result<()> {
    let all = tables();
    let chosen: Vec<_> = if args.tables.is_empty() {
        all
    } else {
        for id in &args.tables {
            if !all.iter().any(|t| t.id == id.as_str()) {
                bail!(
                    "unknown table '{id}' (choose from {})",
                    all.iter().map(|t| t.id).collect::<Vec<_>>().join(", ")
                );
            }
        }
        all.into_iter()
            .filter(|t| args.tables.iter().any(|id| id == t.id))
            .collect()
    };
    let time = common.time_or(0.5);
    let first_seed = common.seed_or(1);
    let seeds: Vec<u64> = (first_seed..first_seed + args.seeds).collect();
    let max_nodes = common.max_nodes.unwrap_or(DEFAULT_MAX_NODES);
    let runs: u64 = chosen.iter().map(|t| t.columns.len() as u64).sum::<u64>() * args.seeds;
    let bar = progress_bar(common, runs, "runs");
    let out = common.output();
    let started = Instant::now();
    let mut report = format!(
        "# Sokoban level generation with MCTS: the thesis's experiments (Tables 3.1–3.8)\n\n\
         5×5 board, start (2, 2), {} s per run (the thesis: 30 s), {} seeds per column \
         ({}..={}), one thread. Thesis: C++ -O3 on a Ryzen 5 3600, 10 seeds. Iteration counts \
         are per run; compare the per-second rates. Optimizations are added cumulatively as in \
         the thesis. Generated by `puzzle experiment sokoban-gen`.\n\n",
        time.as_secs_f64(),
        seeds.len(),
        seeds[0],
        seeds[seeds.len() - 1]
    );
    let stop = interrupt_flag();
    for table in &chosen {
        let mut measured = Vec::new();
        for column in &table.columns {
            let m = measure(column.config, &seeds, time, max_nodes, Some(stop.clone()))
                .map_err(|e| anyhow::anyhow!("table {} column {}: {e}", table.id, column.label))?;
            bar.inc(m.runs as u64);
            out.json(&ColumnJson {
                table: table.id,
                column: &column.label,
                runs: m.runs,
                time_per_run_s: time.as_secs_f64(),
                iterations: m.iterations,
                iterations_per_s: m.iterations_per_s,
                iterations_per_cpu_s: m.iterations_per_cpu_s,
                best_score: m.score,
                time_to_best_s: m.time_to_best,
                sigma: m.sigma,
                thesis_iterations_per_30s: column.thesis.iterations,
                thesis_best_score: column.thesis.score,
                thesis_time_to_best_s: column.thesis.time_to_best,
                thesis_sigma: column.thesis.sigma,
            })?;
            measured.push(m);
        }
        report.push_str(&markdown_table(table, &measured, time));
        if stop.load(Ordering::Relaxed) {
            report.push_str("*Interrupted: the remaining tables were not run.*\n");
            break;
        }
    }
    bar.finish_and_clear();
    report.push_str(&format!(
        "Total time: {:.1} s.\n",
        started.elapsed().as_secs_f64()
    ));
    match &args.out {
        Some(path) => {
            std::fs::write(path, &report)
                .with_context(|| format!("cannot write {}", path.display()))?;
            out.text(&format!("report written to {}", path.display()))?;
        }
        None => out.text(&report)?,
    }
    Ok(())
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
    std::fs::write(&svg_path, level_svg(level))
        .with_context(|| format!("cannot write {}", svg_path.display()))?;
    let png = level_png(level).context("encoding the PNG")?;
    std::fs::write(&png_path, png)
        .with_context(|| format!("cannot write {}", png_path.display()))?;
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

/// This game's part of `puzzle bench`: fixed-seed generation runs with iteration budgets.
pub fn signature(_common: &CommonArgs) -> Result<Vec<Signature>> {
    let mut sigs = Vec::new();
    for (name, w, h, its, config) in [
        (
            "sokogen 5x5 final config",
            5,
            5,
            60_000u64,
            GenConfig::default(),
        ),
        (
            "sokogen 8x8 no bootstrap",
            8,
            8,
            20_000,
            GenConfig {
                bootstrap: None,
                ..GenConfig::default()
            },
        ),
    ] {
        let params = GenParams {
            width: w,
            height: h,
            config,
            budget: Budget::iterations(its),
            seed: 1,
            ..GenParams::default()
        };
        let started = Instant::now();
        let summary =
            run_generation(&params, &mut |_| Ok(())).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
        sigs.push(Signature {
            name: name.to_string(),
            work: summary.peak_nodes as u64,
            result: summary.best_score,
            time_s: started.elapsed().as_secs_f64(),
        });
    }
    Ok(sigs)
}
