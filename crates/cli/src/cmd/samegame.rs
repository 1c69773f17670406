//! `puzzle solve|experiment|bench samegame` (issue 5; SPEC §C).
//!
//! - `solve`: every board of a standard-set file, the digits file (or one `--board N`), a
//!   Hungarian CSV, or a random board, with SP-MCTS, NMCS, NRPA, DBS, A*, IDA* or random
//!   playouts; each answer is replayed and checked before it is printed (JSON: one object
//!   per board with `board, score, cleared, moves[{col,row}], time_s, iterations`, plus
//!   `time_to_best_s` and more; rows counted from the top of the board before the move).
//! - `experiment`: the Czech thesis's comparison (§3.4): playouts × selection formulas on
//!   the 20 standard boards, totals beside the paper's, as Markdown.
//! - `bench`: playouts per second on a fresh board and SP-MCTS iterations per second.

use crate::common::{interrupt_flag, read_text, time_bar, CommonArgs, Signature};
use anyhow::{bail, Context, Result};
use puzzle_engine::mcts::{RewardTransform, SelectionPolicy};
use puzzle_engine::{Budget, Rng};
use puzzle_samegame::format::{self, NamedBoard};
use puzzle_samegame::playout::{AnyChooser, Playout};
use puzzle_samegame::search::{
    self, Algorithm, Solution, SolveConfig, SpMctsSettings, TabuSchedule,
};
use puzzle_samegame::{Board, Penalty, Scoring};
use serde::Serialize;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The 20 standard boards, bundled (data/samegame/standard20_digits.txt).
const STANDARD20: &str = include_str!("../../../../data/samegame/standard20_digits.txt");

/// Default time per board when neither `--time-limit` nor `--iterations` is given.
const DEFAULT_SECONDS: f64 = 10.0;

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

/// `--tabu-schedule` (see [`TabuSchedule`]).
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TabuScheduleArg {
    /// Run i takes the (i mod K)-th most frequent colour.
    #[default]
    RoundRobin,
    /// One run per colour, then the colour whose runs scored best.
    BestFirst,
}

fn scoring_of(scoring: ScoringArg, penalty: PenaltyArg) -> Scoring {
    let base = match scoring {
        ScoringArg::Standard => Scoring::standard(),
        ScoringArg::Hungarian => Scoring::hungarian(),
    };
    base.with_penalty(match penalty {
        PenaltyArg::None => Penalty::None,
        PenaltyArg::Total => Penalty::Total,
        PenaltyArg::PerColour => Penalty::PerColour,
    })
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
    /// The search.
    #[arg(long, default_value = "spmcts", value_parser = parse_algorithm)]
    pub algo: Algorithm,
    /// Playout policy: random, tabu, tabu-colour, pseudo[-K], pseudo-tabu[-K], double-tabu,
    /// roulette, eps<E>-<policy>.
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
    /// NRPA with the selective policy (Cazenave 2016): the most frequent colour of the board
    /// is not played while another group exists.
    #[arg(long)]
    pub selective: bool,
    /// Stabilized NRPA (Cazenave, Sevestre & Toulemont 2021): P playouts per level-1 step
    /// before each policy adaptation (1 = plain NRPA).
    #[arg(long, value_name = "P", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub stabilized: u32,
    /// Selective NRPA: restarts rotate the tabu colour through the K most frequent colours
    /// (1 = always the most frequent, as Cazenave).
    #[arg(long, value_name = "K", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=20))]
    pub tabu_colours: u32,
    /// With --tabu-colours K > 1: `round-robin` (run i takes the (i mod K)-th colour) or
    /// `best-first` (one run per colour, then every run takes the colour whose runs scored best).
    #[arg(long, value_enum, default_value_t = TabuScheduleArg::RoundRobin)]
    pub tabu_schedule: TabuScheduleArg,
    /// NMCS / NRPA nesting level (default: NMCS 2, NRPA 3).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=5))]
    pub level: Option<u32>,
    /// DBS depth.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=6))]
    pub depth: u32,
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

fn parse_random_spec(spec: &str) -> Result<(usize, usize, usize)> {
    let parts: Vec<&str> = spec.split(['x', 'X']).collect();
    let nums: Option<Vec<usize>> = parts.iter().map(|p| p.trim().parse().ok()).collect();
    match nums.as_deref() {
        Some([w, h, k]) => Ok((*w, *h, *k)),
        _ => bail!("--random {spec}: expected COLSxROWSxCOLOURS, e.g. 15x15x5"),
    }
}

/// Load the boards the solve command works on.
fn load_boards(args: &SolveArgs, common: &CommonArgs, scoring: Scoring) -> Result<Vec<NamedBoard>> {
    let boards = if let Some(spec) = &args.random {
        if args.file.is_some() {
            bail!("give either FILE or --random, not both");
        }
        let (w, h, k) = parse_random_spec(spec)?;
        let seed = common.seed_or(1);
        let board = Board::random(w, h, k, seed, scoring)
            .map_err(|e| anyhow::anyhow!("--random {spec}: {e}"))?;
        vec![NamedBoard {
            name: format!("random {w}x{h}x{k} seed {seed}"),
            index: 1,
            board,
        }]
    } else {
        let path = args.file.as_ref().context("no board file given")?;
        let text = read_text(path)?;
        format::parse_any(&text, &path.display().to_string(), scoring)?
    };
    match args.board {
        None => Ok(boards),
        Some(n) if n >= 1 && n <= boards.len() => {
            Ok(boards.into_iter().filter(|b| b.index == n).collect())
        }
        Some(n) => bail!(
            "--board {n}: the file has {} board(s) (numbered from 1)",
            boards.len()
        ),
    }
}

fn budget_of(common: &CommonArgs, default_nodes: usize) -> Budget {
    let time = if common.iterations.is_some() && common.time_limit.is_none() {
        None
    } else {
        Some(common.time_or(DEFAULT_SECONDS))
    };
    Budget {
        max_iterations: common.iterations,
        max_time: time,
        max_nodes: common.max_nodes.unwrap_or(default_nodes),
        stop: Some(interrupt_flag()),
        progress: None,
    }
}

/// One move of the JSON output: column from the left, row from the top.
#[derive(Serialize)]
struct JsonMove {
    col: usize,
    row: usize,
}

/// One board's result (the JSON contract, plus extra fields).
#[derive(Serialize)]
struct JsonResult<'a> {
    board: usize,
    name: &'a str,
    score: i64,
    cleared: bool,
    moves: Vec<JsonMove>,
    time_s: f64,
    /// When the printed score was first found, if the search reports its improvements
    /// (SP-MCTS, NMCS, NRPA, random) and the last one reported is the printed score.
    time_to_best_s: Option<f64>,
    iterations: u64,
    scoring: &'a str,
    penalty: String,
    algo: String,
    playout: String,
    optimal: bool,
    stop: String,
}

/// The moves with rows counted from the top of the board before each move.
fn json_moves(board: &Board, solution: &Solution) -> Vec<JsonMove> {
    solution
        .moves
        .iter()
        .map(|m| JsonMove {
            col: m.col as usize,
            row: board.top_row(m.row as usize),
        })
        .collect()
}

/// The solve configuration from the flags.
fn solve_config(args: &SolveArgs, common: &CommonArgs) -> SolveConfig {
    let defaults = SpMctsSettings::default();
    let selection = match (args.uctk, defaults.selection) {
        (Some(c), _) => SelectionPolicy::Ucb1 { c },
        (None, SelectionPolicy::SpMcts { c, d, w }) => SelectionPolicy::SpMcts {
            c: args.c.unwrap_or(c),
            d: args.d.unwrap_or(d),
            w: args.w.unwrap_or(w),
        },
        (None, other) => other,
    };
    let default_nodes = match args.algo {
        Algorithm::AStar => 300_000,
        _ => 4_000_000,
    };
    SolveConfig {
        algorithm: args.algo,
        playout: args.playout.clone(),
        budget: budget_of(common, default_nodes),
        seed: common.seed_or(1),
        threads: common.threads_or(1),
        spmcts: SpMctsSettings {
            selection,
            visits_before_expand: args.visits_before_expand,
            all_children: !args.one_child,
            restart_after: if args.no_restarts {
                None
            } else {
                args.restart_after.or(defaults.restart_after)
            },
            mark_solved: !args.no_solved_marking,
            per_move: args.per_move,
            ..defaults
        },
        nmcs_level: args.level.map_or(2, |l| l as usize),
        nrpa_level: args.level.map_or(3, |l| l as usize),
        nrpa_selective: args.selective,
        nrpa_stabilization: args.stabilized as usize,
        nrpa_tabu_colours: args.tabu_colours as usize,
        nrpa_tabu_schedule: match args.tabu_schedule {
            TabuScheduleArg::RoundRobin => TabuSchedule::RoundRobin,
            TabuScheduleArg::BestFirst => TabuSchedule::BestFirst,
        },
        dbs_depth: args.depth as usize,
    }
}

/// `puzzle solve samegame`.
pub fn solve(args: SolveArgs, common: &CommonArgs) -> Result<()> {
    let scoring = scoring_of(args.scoring, args.penalty);
    let boards = load_boards(&args, common, scoring)?;
    let cfg = solve_config(&args, common);
    let out = common.output();
    let mut total = 0i64;
    for nb in &boards {
        let limit = cfg.budget.max_time.unwrap_or(Duration::ZERO);
        let bar = time_bar(common, limit, &format!("{} {}", nb.name, cfg.algorithm));
        let bar_ref = &bar;
        let started = std::time::Instant::now();
        // (score, seconds) of the last improvement the search reported.
        let last_best = std::sync::Mutex::new(None::<(i64, f64)>);
        let last_ref = &last_best;
        let on_best = move |score: i64, _moves: &[puzzle_samegame::Move]| {
            bar_ref.set_message(format!("best {score}"));
            let mut last = last_ref.lock().unwrap_or_else(|e| e.into_inner());
            *last = Some((score, started.elapsed().as_secs_f64()));
        };
        let solution = search::solve(&nb.board, &cfg, Some(&on_best)).map_err(|e| {
            anyhow::anyhow!("{}: the search returned an invalid game: {e}", nb.name)
        })?;
        bar.finish_and_clear();
        // The answer has been replayed by `search::solve`; check once more what we print.
        search::verify(&nb.board, &solution.moves, solution.score)
            .map_err(|e| anyhow::anyhow!("{}: replay failed: {e}", nb.name))?;
        total += solution.score;
        out.json(&JsonResult {
            board: nb.index,
            name: &nb.name,
            score: solution.score,
            cleared: solution.cleared,
            moves: json_moves(&nb.board, &solution),
            time_s: solution.elapsed.as_secs_f64(),
            time_to_best_s: last_best
                .into_inner()
                .unwrap_or_else(|e| e.into_inner())
                .and_then(|(score, t)| (score == solution.score).then_some(t)),
            iterations: solution.iterations,
            scoring: scoring.name(),
            penalty: scoring.penalty.to_string(),
            algo: cfg.algorithm.to_string(),
            playout: cfg.playout.to_string(),
            optimal: solution.optimal,
            stop: format!("{:?}", solution.stop_reason),
        })?;
        out.text(&format!(
            "{:>3} {:<12} score {:>6}{} in {} moves, {:.1} s, {} iterations{}",
            nb.index,
            nb.name,
            solution.score,
            if solution.cleared { " (cleared)" } else { "" },
            solution.moves.len(),
            solution.elapsed.as_secs_f64(),
            solution.iterations,
            if solution.optimal { ", optimal" } else { "" }
        ))?;
        if crate::common::interrupted() {
            break;
        }
    }
    if boards.len() > 1 {
        out.text(&format!("total {total} over {} boards", boards.len()))?;
    }
    Ok(())
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
    #[arg(long, default_value = "ucb-tuned,uctk0.1,uctk0.2,uctk0.4")]
    pub formulas: String,
    /// Write the Markdown report here (default: standard output).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// The thesis's totals over the 20 boards (§3.4, 700,000 simulations, 20 before expansion).
fn paper_total(playout: &str, formula: &str) -> Option<u32> {
    let row = match playout {
        "tabu" => [63_606, 66_091, 67_409, 62_624],
        "pseudo-tabu-3" => [55_228, 64_136, 62_566, 56_244],
        "double-tabu" => [61_739, 60_988, 62_910, 62_443],
        _ => return None,
    };
    let col = match formula {
        "ucb-tuned" => 0,
        "uctk0.1" => 1,
        "uctk0.2" => 2,
        "uctk0.4" => 3,
        _ => return None,
    };
    Some(row[col])
}

fn parse_formula(s: &str) -> Result<SelectionPolicy> {
    if s == "ucb-tuned" {
        return Ok(SelectionPolicy::Ucb1Tuned { c: 1.0 });
    }
    if s == "spmcts" {
        return Ok(SpMctsSettings::default().selection);
    }
    if let Some(c) = s.strip_prefix("uctk") {
        if let Ok(c) = c.parse::<f64>() {
            if c.is_finite() && c >= 0.0 {
                return Ok(SelectionPolicy::Ucb1 { c });
            }
        }
    }
    bail!("unknown formula '{s}' (expected ucb-tuned, uctk<C> or spmcts)")
}

/// `puzzle experiment samegame`.
pub fn experiment(args: ExperimentArgs, common: &CommonArgs) -> Result<()> {
    let scoring = Scoring::standard();
    let mut boards = match &args.boards {
        Some(path) => format::parse_any(&read_text(path)?, &path.display().to_string(), scoring)?,
        None => format::parse_digits(STANDARD20, "standard20_digits.txt", scoring)?,
    };
    if let Some(n) = args.count {
        boards.truncate(n);
    }
    let playouts: Vec<AnyChooser> = args
        .playouts
        .split(',')
        .map(|s| s.trim().parse().map_err(anyhow::Error::msg))
        .collect::<Result<_>>()?;
    let formulas: Vec<(String, SelectionPolicy)> = args
        .formulas
        .split(',')
        .map(|s| parse_formula(s.trim()).map(|f| (s.trim().to_string(), f)))
        .collect::<Result<_>>()?;
    let iterations = common.iterations.or(if common.time_limit.is_none() {
        Some(2_000)
    } else {
        None
    });
    let budget = Budget {
        max_iterations: iterations,
        max_time: common.time_limit.map(Duration::from_secs_f64),
        max_nodes: common.max_nodes.unwrap_or(4_000_000),
        stop: Some(interrupt_flag()),
        progress: None,
    };
    let seed = common.seed_or(1);
    // Runs: playout × formula × board, spread over --threads workers (one tree each).
    let mut jobs = Vec::new();
    for (p, _) in playouts.iter().enumerate() {
        for (f, _) in formulas.iter().enumerate() {
            for (b, _) in boards.iter().enumerate() {
                jobs.push((p, f, b));
            }
        }
    }
    let results: Mutex<Vec<Option<i64>>> = Mutex::new(vec![None; jobs.len()]);
    let next = Mutex::new(0usize);
    let workers = common.threads_or(1).min(jobs.len()).max(1);
    let bar = crate::common::progress_bar(common, jobs.len() as u64, "runs");
    let start = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let j = {
                    let mut n = next.lock().unwrap_or_else(|e| e.into_inner());
                    if *n >= jobs.len() || crate::common::interrupted() {
                        break;
                    }
                    *n += 1;
                    *n - 1
                };
                let (p, f, b) = jobs[j];
                let cfg = SolveConfig {
                    algorithm: Algorithm::SpMcts,
                    playout: playouts[p].clone(),
                    budget: budget.clone(),
                    seed: Rng::stream_seed(seed, b as u64),
                    threads: 1,
                    spmcts: SpMctsSettings {
                        selection: formulas[f].1,
                        // The thesis: (score + 1500) / max_score (§3.3.4), max_score ≈ 6000 on 15×15.
                        reward: Some(RewardTransform {
                            offset: 1500.0,
                            scale: 1.0 / 6000.0,
                        }),
                        // The thesis ran one tree per board.
                        restart_after: None,
                        ..SpMctsSettings::default()
                    },
                    ..SolveConfig::default()
                };
                let r = search::solve(&boards[b].board, &cfg, None)
                    .ok()
                    .map(|s| s.score);
                results.lock().unwrap_or_else(|e| e.into_inner())[j] = r;
                bar.inc(1);
            });
        }
    });
    bar.finish_and_clear();
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    let budget_text = match (iterations, common.time_limit) {
        (Some(n), None) => format!("{n} simulations per board"),
        (None, Some(t)) => format!("{t} s per board"),
        (Some(n), Some(t)) => format!("{n} simulations or {t} s per board"),
        (None, None) => unreachable!("a budget is always set"),
    };
    let mut md = String::new();
    md.push_str("# SameGame: playout policies × selection formulas (Czech thesis §3.4)\n\n");
    md.push_str(&format!(
        "{} boards, {budget_text}, 20 playouts before expansion (all children), rewards \
         (score + 1500) / 6000, standard scoring (no penalty), seed {seed}, one tree per run. \
         Paper: 700,000 simulations per board. Wall time {:.0} s.\n\n",
        boards.len(),
        start.elapsed().as_secs_f64()
    ));
    md.push_str("Totals (ours / paper):\n\n| formula |");
    for p in &playouts {
        md.push_str(&format!(" {p} |"));
    }
    md.push_str("\n|---|");
    md.push_str(&"---|".repeat(playouts.len()));
    md.push('\n');
    let total_of = |p: usize, f: usize| -> Option<i64> {
        jobs.iter()
            .zip(&results)
            .filter(|((jp, jf, _), _)| *jp == p && *jf == f)
            .map(|(_, r)| *r)
            .sum()
    };
    for (f, (fname, _)) in formulas.iter().enumerate() {
        md.push_str(&format!("| {fname} |"));
        for (p, pol) in playouts.iter().enumerate() {
            let ours = total_of(p, f).map_or("–".to_string(), |t| t.to_string());
            let paper =
                paper_total(&pol.to_string(), fname).map_or("–".to_string(), |t| t.to_string());
            md.push_str(&format!(" {ours} / {paper} |"));
        }
        md.push('\n');
    }
    md.push_str("\nPer board:\n\n| board |");
    for p in &playouts {
        for (fname, _) in &formulas {
            md.push_str(&format!(" {p} {fname} |"));
        }
    }
    md.push_str("\n|---|");
    md.push_str(&"---|".repeat(playouts.len() * formulas.len()));
    md.push('\n');
    for (b, nb) in boards.iter().enumerate() {
        md.push_str(&format!("| {} |", nb.index));
        for p in 0..playouts.len() {
            for f in 0..formulas.len() {
                let j = jobs
                    .iter()
                    .position(|&x| x == (p, f, b))
                    .expect("job exists");
                md.push_str(&format!(
                    " {} |",
                    results[j].map_or("–".to_string(), |s| s.to_string())
                ));
            }
        }
        md.push('\n');
    }
    match &args.out {
        Some(path) => {
            std::fs::write(path, &md)
                .with_context(|| format!("cannot write {}", path.display()))?;
            common
                .output()
                .text(&format!("report written to {}", path.display()))?;
        }
        None => common.output().text(&md)?,
    }
    #[derive(Serialize)]
    struct JsonTotal {
        playout: String,
        formula: String,
        total: Option<i64>,
        paper: Option<u32>,
    }
    for (p, pol) in playouts.iter().enumerate() {
        for (f, (fname, _)) in formulas.iter().enumerate() {
            common.output().json(&JsonTotal {
                playout: pol.to_string(),
                formula: fname.clone(),
                total: total_of(p, f),
                paper: paper_total(&pol.to_string(), fname),
            })?;
        }
    }
    Ok(())
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

/// CPU time of the calling thread (Linux `/proc/thread-self/schedstat`), to report speeds
/// per CPU-second on a shared, loaded machine.
fn thread_cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

/// A playout speed measurement.
struct PlayoutRate {
    per_wall_second: f64,
    per_cpu_second: Option<f64>,
    moves_per_playout: f64,
    mean_score: f64,
}

/// Playouts per second of `chooser` from `board` for about `seconds`.
fn playout_rate(board: &Board, chooser: AnyChooser, seconds: f64, seed: u64) -> PlayoutRate {
    let mut policy = Playout::new(chooser);
    let mut rng = Rng::new(seed);
    let mut state = board.clone();
    let cpu_start = thread_cpu_seconds();
    let start = Instant::now();
    let (mut n, mut moves, mut total) = (0u64, 0u64, 0i64);
    while start.elapsed().as_secs_f64() < seconds && !crate::common::interrupted() {
        for _ in 0..64 {
            state.clone_from(board);
            moves += policy.run(&mut state, &mut rng) as u64;
            total += state.final_score();
            n += 1;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let cpu = match (cpu_start, thread_cpu_seconds()) {
        (Some(a), Some(b)) if b > a => Some(b - a),
        _ => None,
    };
    PlayoutRate {
        per_wall_second: n as f64 / secs,
        per_cpu_second: cpu.map(|c| n as f64 / c),
        moves_per_playout: moves as f64 / n as f64,
        mean_score: total as f64 / n as f64,
    }
}

/// `puzzle bench samegame`.
pub fn bench(args: BenchArgs, common: &CommonArgs) -> Result<()> {
    let boards = format::parse_digits(STANDARD20, "standard20_digits.txt", Scoring::standard())?;
    let board = &boards[args.board as usize - 1].board;
    let out = common.output();
    #[derive(Serialize)]
    struct Rate {
        what: String,
        per_second: f64,
        per_cpu_second: Option<f64>,
        moves_per_playout: Option<f64>,
        mean_score: f64,
    }
    for name in [
        "random",
        "tabu",
        "tabu-colour",
        "pseudo-tabu",
        "double-tabu",
        "roulette",
    ] {
        let chooser: AnyChooser = name.parse().map_err(anyhow::Error::msg)?;
        let r = playout_rate(board, chooser, args.seconds, common.seed_or(1));
        out.json(&Rate {
            what: format!("playouts/{name}"),
            per_second: r.per_wall_second,
            per_cpu_second: r.per_cpu_second,
            moves_per_playout: Some(r.moves_per_playout),
            mean_score: r.mean_score,
        })?;
        out.text(&format!(
            "{name:<12} {:>9.0} playouts/s wall, {} per CPU-second, {:>5.1} moves/playout, mean score {:>5.0}",
            r.per_wall_second,
            r.per_cpu_second.map_or("?".to_string(), |v| format!("{v:>9.0}")),
            r.moves_per_playout,
            r.mean_score
        ))?;
    }
    let cfg = SolveConfig {
        budget: Budget::time(Duration::from_secs_f64(args.seconds))
            .with_stop_flag(interrupt_flag()),
        seed: common.seed_or(1),
        threads: common.threads_or(1),
        ..SolveConfig::default()
    };
    let s = search::solve(board, &cfg, None).map_err(|e| anyhow::anyhow!("{e}"))?;
    let rate = s.iterations as f64 / s.elapsed.as_secs_f64();
    out.json(&Rate {
        what: format!("spmcts-tabu/{}-threads", cfg.threads),
        per_second: rate,
        per_cpu_second: None,
        moves_per_playout: None,
        mean_score: s.score as f64,
    })?;
    out.text(&format!(
        "SP-MCTS tabu, {} thread(s): {rate:.0} iterations/s, best score {} in {:.1} s",
        cfg.threads,
        s.score,
        s.elapsed.as_secs_f64()
    ))?;
    Ok(())
}

/// This game's part of the `puzzle bench` signature: fixed-seed, iteration-budgeted runs on
/// standard board 1 (deterministic `work` and `result`).
pub fn signature(_common: &CommonArgs) -> Result<Vec<Signature>> {
    let boards = format::parse_digits(STANDARD20, "standard20_digits.txt", Scoring::standard())?;
    let board = &boards[0].board;
    let mut out = Vec::new();
    for (name, algorithm, iterations) in [
        ("samegame/spmcts-tabu", Algorithm::SpMcts, 3_000),
        ("samegame/random-tabu", Algorithm::Random, 2_000),
        ("samegame/idastar", Algorithm::IdaStar, 2_000),
    ] {
        let cfg = SolveConfig {
            algorithm,
            budget: Budget::iterations(iterations),
            seed: 1,
            threads: 1,
            ..SolveConfig::default()
        };
        let s = search::solve(board, &cfg, None).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
        out.push(Signature {
            name: name.to_string(),
            work: s.iterations,
            result: s.score as f64,
            time_s: s.elapsed.as_secs_f64(),
        });
    }
    Ok(out)
}
