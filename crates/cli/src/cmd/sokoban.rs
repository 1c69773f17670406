//! `puzzle solve sokoban` and `puzzle bench sokoban` / `puzzle experiment sokoban` (issue 3,
//! SPEC §F): solve the levels of an XSB file with A*, IDA*, BFS, greedy best-first or the
//! paper's genetic solver; every printed solution is verified by replay first.

use crate::common::{interrupt_flag, progress_bar, read_text, CommonArgs, Signature};
use anyhow::{bail, Context, Result};
use puzzle_engine::Budget;
use puzzle_sokoban::board::Board;
use puzzle_sokoban::genetic::{solve_ga, GaConfig};
use puzzle_sokoban::{parse_xsb, replay, solve as solve_level, solve_threads, Algorithm, Level};
use serde::Serialize;
use std::path::PathBuf;
use std::time::Instant;

/// Default time limit per level, seconds.
const DEFAULT_TIME_LIMIT: f64 = 10.0;
/// Default node budget (positions stored; about 150 bytes each, so at most 1.2 GB).
const DEFAULT_MAX_NODES: usize = 8_000_000;

const MICROBAN: &str = include_str!("../../../../data/sokoban/Microban_155.xsb");
const XSOKOBAN: &str = include_str!("../../../../data/sokoban/XSokoban_90.xsb");
const BOXOBAN_HARD: &str = include_str!("../../../../data/sokoban/boxoban/hard_000.txt");

/// Arguments of `puzzle solve sokoban`.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// An XSB file with one or more levels.
    pub file: PathBuf,
    /// Solve only this level (1-based); default: every level in order.
    #[arg(long, value_name = "N", value_parser = crate::common::parse_positive_usize)]
    pub level: Option<usize>,
    /// Solver: `greedy` (default: fast, any solution, solves the most), `astar`/`idastar`/`bfs`
    /// (push-optimal), `ga` (the paper's genetic reactive-string solver).
    #[arg(long, default_value = "greedy", value_parser = ["astar", "idastar", "bfs", "greedy", "ga"])]
    pub algo: String,
    /// GA: individuals per generation (default 100).
    #[arg(long, value_name = "N", value_parser = parse_population)]
    pub population: Option<usize>,
    /// GA: per-gene mutation probability (the paper: 0.05–0.1; default 0.08).
    #[arg(long, value_name = "P", value_parser = parse_probability)]
    pub mutation: Option<f64>,
}

fn parse_population(s: &str) -> Result<usize, String> {
    let n = crate::common::parse_positive_usize(s)?;
    if !(2..=100_000).contains(&n) {
        return Err(format!(
            "the population must be between 2 and 100000, not {n}"
        ));
    }
    Ok(n)
}

fn parse_probability(s: &str) -> Result<f64, String> {
    let p: f64 = s
        .parse()
        .map_err(|_| format!("'{s}' is not a probability"))?;
    if !(0.0..=1.0).contains(&p) {
        return Err(format!("a probability lies in [0, 1], not {s}"));
    }
    Ok(p)
}

/// The GA configuration from the flags (defaults: [`GaConfig::default`]).
fn ga_config(population: Option<usize>, mutation: Option<f64>) -> GaConfig {
    let mut config = GaConfig::default();
    if let Some(n) = population {
        config.population = n;
    }
    if let Some(p) = mutation {
        config.mutation = p;
    }
    config
}

/// One solved (or not) level, as printed with `--json`.
#[derive(Serialize, Debug)]
pub struct LevelResult {
    /// 1-based index of the level in the file.
    pub level: usize,
    /// The level's title, if any.
    pub title: Option<String>,
    /// A solution was found and verified by replay.
    pub solved: bool,
    /// The LURD solution (empty when unsolved).
    pub solution: String,
    /// Player steps of the solution.
    pub moves: usize,
    /// Pushes of the solution.
    pub pushes: usize,
    /// Wall time for this level.
    pub time_s: f64,
    /// Positions generated (GA: individuals decoded).
    pub nodes: u64,
    /// The solver used.
    pub algo: &'static str,
    /// Why the search ended: solved, exhausted (proved unsolvable), time, nodes, iterations,
    /// interrupted, or error (the level cannot be searched, e.g. too large).
    pub stop: String,
}

impl LevelResult {
    /// An unsolved result for level `index` (the solution fields are filled in once a found
    /// solution has replayed).
    fn unsolved(
        index: usize,
        level: &Level,
        algo: Algorithm,
        time_s: f64,
        nodes: u64,
        stop: String,
    ) -> LevelResult {
        LevelResult {
            level: index,
            title: level.title.clone(),
            solved: false,
            solution: String::new(),
            moves: 0,
            pushes: 0,
            time_s,
            nodes,
            algo: algo.name(),
            stop,
        }
    }
}

fn budget(common: &CommonArgs) -> Budget {
    let mut b = Budget::time(common.time_or(DEFAULT_TIME_LIMIT))
        .with_max_nodes(common.max_nodes.unwrap_or(DEFAULT_MAX_NODES))
        .with_stop_flag(interrupt_flag());
    b.max_iterations = common.iterations;
    b
}

/// Solve one level and verify the solution by replay.
fn run_level(
    index: usize,
    level: &Level,
    algo: Algorithm,
    ga: &GaConfig,
    common: &CommonArgs,
) -> Result<LevelResult> {
    let start = Instant::now();
    let budget = budget(common);
    let board = match Board::new(level) {
        Ok(board) => board,
        Err(e) => {
            // A level the solvers cannot take (e.g. too large) is reported unsolved.
            eprintln!("level {index}: {e}; reported unsolved");
            let time_s = start.elapsed().as_secs_f64();
            return Ok(LevelResult::unsolved(
                index,
                level,
                algo,
                time_s,
                0,
                "error".into(),
            ));
        }
    };
    let (lurd, nodes, stop) = if algo == Algorithm::Genetic {
        let outcome = solve_ga(&board, ga, &budget, common.seed_or(1));
        let lurd = outcome
            .pushes
            .as_ref()
            .and_then(|p| puzzle_sokoban::position::pushes_to_lurd(&board, p));
        (lurd, outcome.nodes, outcome.stop)
    } else {
        let s = solve_threads(level, algo, &budget, common.threads_or(1))
            .with_context(|| format!("level {index}"))?;
        (s.lurd, s.nodes, s.stop)
    };
    let time_s = start.elapsed().as_secs_f64();
    let stop = format!("{stop:?}").to_lowercase();
    let mut result = LevelResult::unsolved(index, level, algo, time_s, nodes, stop);
    if let Some(lurd) = lurd {
        match replay(level, &lurd) {
            Ok(r) if r.solved => {
                result.solved = true;
                result.moves = r.moves;
                result.pushes = r.pushes;
                result.solution = lurd;
            }
            Ok(_) => eprintln!("level {index}: internal error: the solution does not solve the level; reported unsolved"),
            Err(e) => eprintln!("level {index}: internal error: the solution does not replay ({e}); reported unsolved"),
        }
    }
    Ok(result)
}

/// `puzzle solve sokoban FILE [--level N] [--algo ...] [--time-limit SECS] [--json]`.
pub fn solve(args: SolveArgs, common: &CommonArgs) -> Result<()> {
    let algo = Algorithm::from_name(&args.algo).context("unknown algorithm")?;
    let text = read_text(&args.file)?;
    let levels = parse_xsb(&text).map_err(|e| anyhow::anyhow!("{}: {e}", args.file.display()))?;
    let chosen: Vec<usize> = match args.level {
        Some(n) if n > levels.len() => bail!(
            "{}: --level {n} but the file has {} level{}",
            args.file.display(),
            levels.len(),
            if levels.len() == 1 { "" } else { "s" }
        ),
        Some(n) => vec![n],
        None => (1..=levels.len()).collect(),
    };
    let ga = ga_config(args.population, args.mutation);
    let out = common.output();
    let bar = progress_bar(common, chosen.len() as u64, "sokoban");
    let mut solved = 0;
    for &n in &chosen {
        if crate::common::interrupted() {
            break;
        }
        let r = run_level(n, &levels[n - 1], algo, &ga, common)?;
        solved += usize::from(r.solved);
        bar.inc(1);
        bar.set_message(format!("{solved} solved"));
        out.json(&r)?;
        let title = r
            .title
            .as_deref()
            .map(|t| format!(" ({t})"))
            .unwrap_or_default();
        if r.solved {
            out.text(&format!(
                "level {}{title}: solved, {} moves, {} pushes, {:.3} s, {} nodes\n{}",
                r.level, r.moves, r.pushes, r.time_s, r.nodes, r.solution
            ))?;
        } else {
            out.text(&format!(
                "level {}{title}: not solved ({}), {:.3} s, {} nodes",
                r.level, r.stop, r.time_s, r.nodes
            ))?;
        }
    }
    bar.finish_and_clear();
    if chosen.len() > 1 {
        out.text(&format!("solved {solved} of {}", chosen.len()))?;
    }
    Ok(())
}

/// Arguments of `puzzle bench sokoban` / `puzzle experiment sokoban`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Level sets: `microban`, `xsokoban`, `boxoban-hard` (bundled) or XSB file paths.
    /// Default: microban and boxoban-hard.
    #[arg(long = "set", value_name = "SET")]
    pub sets: Vec<String>,
    /// Solvers to compare (comma-separated or repeated). Default: greedy.
    #[arg(long, value_delimiter = ',', value_parser = ["astar", "idastar", "bfs", "greedy", "ga"])]
    pub algo: Vec<String>,
    /// Only the first N levels of each set (after `--skip`).
    #[arg(long, value_name = "N", value_parser = crate::common::parse_positive_usize)]
    pub first: Option<usize>,
    /// Leave out the first K levels of each set (to split a long run; level numbers in the
    /// output stay those of the set).
    #[arg(long, value_name = "K", default_value_t = 0)]
    pub skip: usize,
    /// Also print one line per level.
    #[arg(long)]
    pub per_level: bool,
}

/// One line of the benchmark summary.
#[derive(Serialize, Debug)]
struct SetSummary {
    set: String,
    algo: &'static str,
    levels: usize,
    solved: usize,
    total_time_s: f64,
    median_time_s: f64,
    max_solved_time_s: f64,
    time_limit_s: f64,
    nodes: u64,
    /// `--threads` (only `greedy` uses a second thread).
    threads: usize,
}

fn load_set(name: &str) -> Result<(String, Vec<Level>)> {
    let (label, text) = match name {
        "microban" => ("microban".to_string(), MICROBAN.to_string()),
        "xsokoban" => ("xsokoban".to_string(), XSOKOBAN.to_string()),
        "boxoban-hard" => ("boxoban-hard".to_string(), BOXOBAN_HARD.to_string()),
        path => (path.to_string(), read_text(std::path::Path::new(path))?),
    };
    let levels = parse_xsb(&text).map_err(|e| anyhow::anyhow!("{label}: {e}"))?;
    Ok((label, levels))
}

/// `puzzle bench sokoban`: solved count, total and median time per level set and solver.
pub fn bench(args: BenchArgs, common: &CommonArgs) -> Result<()> {
    let sets = if args.sets.is_empty() {
        vec!["microban".to_string(), "boxoban-hard".to_string()]
    } else {
        args.sets.clone()
    };
    let algos = if args.algo.is_empty() {
        vec!["greedy".to_string()]
    } else {
        args.algo.clone()
    };
    let out = common.output();
    let limit = common.time_or(DEFAULT_TIME_LIMIT).as_secs_f64();
    for set in &sets {
        let (label, mut levels) = load_set(set)?;
        let skip = args.skip.min(levels.len());
        levels.drain(..skip);
        if let Some(n) = args.first {
            levels.truncate(n);
        }
        for name in &algos {
            let algo = Algorithm::from_name(name).context("unknown algorithm")?;
            let bar = progress_bar(common, levels.len() as u64, &format!("{label} {name}"));
            let mut times = Vec::new();
            let mut solved_times = Vec::new();
            let mut nodes = 0;
            for (i, level) in levels.iter().enumerate() {
                if crate::common::interrupted() {
                    break;
                }
                let r = run_level(skip + i + 1, level, algo, &GaConfig::default(), common)?;
                times.push(r.time_s);
                nodes += r.nodes;
                if r.solved {
                    solved_times.push(r.time_s);
                }
                bar.inc(1);
                bar.set_message(format!("{} solved", solved_times.len()));
                if args.per_level {
                    out.json(&r)?;
                    out.text(&format!(
                        "{label} {name} level {}: {} {:.3} s, {} pushes, {} nodes",
                        r.level,
                        if r.solved { "solved" } else { "unsolved" },
                        r.time_s,
                        r.pushes,
                        r.nodes
                    ))?;
                }
            }
            bar.finish_and_clear();
            let mut sorted = times.clone();
            sorted.sort_by(f64::total_cmp);
            let summary = SetSummary {
                set: label.clone(),
                algo: algo.name(),
                levels: times.len(),
                solved: solved_times.len(),
                total_time_s: times.iter().sum(),
                median_time_s: median(&sorted),
                max_solved_time_s: solved_times.iter().copied().fold(0.0, f64::max),
                time_limit_s: limit,
                nodes,
                threads: common.threads_or(1),
            };
            out.json(&summary)?;
            out.text(&format!(
                "{:<14} {:<8} solved {:>4}/{:<4} total {:>9.2} s  median {:>7.3} s  max(solved) {:>7.3} s  limit {} s",
                summary.set,
                summary.algo,
                summary.solved,
                summary.levels,
                summary.total_time_s,
                summary.median_time_s,
                summary.max_solved_time_s,
                limit
            ))?;
        }
    }
    Ok(())
}

fn median(sorted: &[f64]) -> f64 {
    match sorted.len() {
        0 => 0.0,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

/// Sokoban's part of the `puzzle bench` signature: A* on the first 30 Microban levels and the
/// GA (seed 1, 30 generations) on the first 3, all with node/iteration budgets only.
pub fn signature(_common: &CommonArgs) -> Result<Vec<Signature>> {
    let levels = parse_xsb(MICROBAN).map_err(|e| anyhow::anyhow!("microban: {e}"))?;
    let mut lines = Vec::new();
    let start = Instant::now();
    let (mut work, mut pushes) = (0u64, 0usize);
    for level in levels.iter().take(30) {
        let budget = Budget::iterations(200_000).with_max_nodes(1_000_000);
        let s = solve_level(level, Algorithm::AStar, &budget)?;
        work += s.nodes;
        pushes += s.pushes.map_or(0, |p| p.len());
    }
    lines.push(Signature {
        name: "sokoban astar microban 1-30".into(),
        work,
        result: pushes as f64,
        time_s: start.elapsed().as_secs_f64(),
    });
    let start = Instant::now();
    let (mut work, mut solved) = (0u64, 0usize);
    for level in levels.iter().take(3) {
        let board = Board::new(level)?;
        let budget = Budget::iterations(30);
        let outcome = solve_ga(&board, &GaConfig::default(), &budget, 1);
        work += outcome.nodes;
        solved += usize::from(outcome.pushes.is_some());
    }
    lines.push(Signature {
        name: "sokoban ga microban 1-3".into(),
        work,
        result: solved as f64,
        time_s: start.elapsed().as_secs_f64(),
    });
    Ok(lines)
}
