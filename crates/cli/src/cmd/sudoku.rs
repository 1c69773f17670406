//! `puzzle solve|generate|bench|experiment sudoku`: the Czech thesis's MCTS solver (chapter 4, see
//! `docs/METHODS.md#sudoku-mcts`), the exact bitboard solver, the generator, and the thesis's test
//! grid as a report: argument parsing and printing over [`puzzle_jobs::sudoku`].

use crate::common::{
    finish_request, interrupt_flag, progress_bar, read_text, save_report, write_atomic, CommonArgs,
};
use anyhow::Result;
use indicatif::ProgressBar;
use puzzle_jobs::sudoku::{self as job, BenchEvent, ExperimentEvent, GenerateEvent, SolveEvent};
use puzzle_jobs::ItemProgress;
use std::path::{Path, PathBuf};

/// The name of a clap value (`ucb-tuned` …): the job takes the same names as the flags.
fn value_name<T: clap::ValueEnum>(v: &T) -> String {
    v.to_possible_value()
        .map(|p| p.get_name().to_string())
        .unwrap_or_default()
}

/// Move the progress bar to a job's progress.
fn show_progress(bar: &ProgressBar, p: &ItemProgress) {
    bar.set_length(p.total);
    bar.set_position(p.done);
}

/// Arguments of `puzzle solve sudoku`: a file, and the options of the job's request
/// ([`job::SolveRequest`], where each is declared with its help and default).
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// Puzzle file: one puzzle per line (81 symbols, `.` or `0` empty), or grids of 9 lines.
    pub file: PathBuf,
    #[command(flatten)]
    pub request: job::SolveRequest,
    #[command(flatten)]
    pub shard: crate::common::ShardArgs,
}

fn parse_simulations(s: &str) -> Result<u64, String> {
    let v = crate::common::parse_positive_u64(s)?;
    if v > puzzle_jobs::sudoku::MAX_SIMULATIONS {
        return Err(format!(
            "{v} simulations per tree is too many (at most 10^10)"
        ));
    }
    Ok(v)
}

/// `puzzle solve sudoku FILE`: solve every puzzle, printing each result (verified) as found.
pub fn solve(args: SolveArgs, common: &CommonArgs) -> Result<()> {
    let mut req = args.request;
    req.puzzles = read_text(&args.file)?;
    req.source = args.file.display().to_string();
    finish_request(&mut req, common, Some(&args.shard))?;
    let out = common.output();
    let bar = progress_bar(common, 0, "sudoku");
    let mut print = |event: SolveEvent| -> Result<()> {
        match event {
            SolveEvent::Progress(p) => show_progress(&bar, &p),
            // The live search figures are for the workbench; the bar counts puzzles.
            SolveEvent::Search(_) => {}
            SolveEvent::Puzzle(r) => {
                out.json(&r)?;
                let status = if r.solved {
                    format!("solved by {} ", r.algo)
                } else {
                    format!("NOT solved by {} ", r.algo)
                };
                let extra = match r.solutions {
                    Some(1) => ", unique".to_string(),
                    Some(0) => ", no solution exists".to_string(),
                    Some(_) => ", several solutions".to_string(),
                    None => format!(", {} simulations, {} restarts", r.simulations, r.restarts),
                };
                let text = format!(
                    "#{} (line {}): {status}in {:.3} s{extra}\n{}",
                    r.index,
                    r.line,
                    r.time_s,
                    r.grid.to_grid_text()
                );
                bar.suspend(|| out.text(&text))?;
            }
            SolveEvent::Summary(s) => {
                bar.finish_and_clear();
                out.summary(&s)?;
                out.text(&format!(
                    "{}{}/{} solved; mean {} per solved puzzle: {:.0}",
                    if s.interrupted { "stopped early: " } else { "" },
                    s.solved,
                    s.puzzles,
                    if s.algo == "mcts" {
                        "simulations"
                    } else {
                        "guesses"
                    },
                    s.mean_simulations
                ))?;
            }
        }
        Ok(())
    };
    let result = job::solve(&req, &interrupt_flag(), &mut print);
    bar.finish_and_clear();
    result.map(drop)
}

/// Arguments of `puzzle generate sudoku`.
#[derive(clap::Args, Debug)]
pub struct GenerateArgs {
    /// How many puzzles.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = parse_count)]
    pub count: u64,
    /// Box size n (the grid is n²×n²; 3 is the classic 9×9).
    #[arg(long, value_name = "n", default_value_t = 3, value_parser = clap::value_parser!(u64).range(2..=4))]
    pub box_size: u64,
}

fn parse_count(s: &str) -> Result<u64, String> {
    let v = crate::common::parse_positive_u64(s)?;
    if v > 1_000_000 {
        return Err(format!("{v} puzzles is too many (at most 10^6)"));
    }
    Ok(v)
}

/// `puzzle generate sudoku`: minimal unique-solution puzzles with a difficulty estimate.
pub fn generate(args: GenerateArgs, common: &CommonArgs) -> Result<()> {
    let req = job::GenerateRequest {
        count: args.count,
        box_size: args.box_size as usize,
        limits: common.limits(),
    };
    let out = common.output();
    let bar = progress_bar(common, args.count, "generating");
    let mut print = |event: GenerateEvent| -> Result<()> {
        match event {
            GenerateEvent::Progress(p) => show_progress(&bar, &p),
            GenerateEvent::Puzzle(g) => {
                out.json(&g)?;
                let text = format!(
                    "{}  # {} clues, {} ({} guesses)",
                    g.puzzle, g.clues, g.difficulty, g.guesses
                );
                bar.suspend(|| out.text(&text))?;
            }
            GenerateEvent::Summary(s) => {
                out.summary(&s)?;
                if s.interrupted {
                    bar.suspend(|| out.text(&format!("stopped early: {} generated", s.generated)))?;
                }
            }
        }
        Ok(())
    };
    let result = job::generate(&req, &interrupt_flag(), &mut print);
    bar.finish_and_clear();
    result.map(drop)
}

/// Arguments of `puzzle bench sudoku`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Puzzle file (one puzzle per line).
    pub file: PathBuf,
    /// Stop at the first solution (`first`) or prove uniqueness (`unique`: up to 2 solutions).
    #[arg(long, value_enum, default_value_t = BenchMode::First)]
    pub mode: BenchMode,
    /// Repeat the whole file this many times (takes the best pass).
    #[arg(long, value_name = "K", default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub repeat: u64,
}

/// What the benchmark solves for.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum BenchMode {
    /// First solution.
    First,
    /// Up to two solutions (uniqueness).
    Unique,
}

/// `puzzle bench sudoku FILE`: puzzles per second of the exact solver (best of `--repeat`).
pub fn bench(args: BenchArgs, common: &CommonArgs) -> Result<()> {
    let req = job::BenchRequest {
        puzzles: read_text(&args.file)?,
        source: args.file.display().to_string(),
        mode: value_name(&args.mode),
        repeat: args.repeat,
        limits: common.limits(),
    };
    let out = common.output();
    let mut print = |event: BenchEvent| -> Result<()> {
        if let BenchEvent::Summary(line) = event {
            out.json(&line)?;
            out.text(&format!(
                "{}: {} puzzles, {:.0} puzzles/s (on-CPU: {}; {} mode, best of {} passes: {:.3} s), {:.1} guesses/puzzle, {} solved",
                line.file,
                line.puzzles,
                line.puzzles_per_s,
                line.puzzles_per_cpu_s.map_or("n/a".into(), |v| format!("{v:.0}/s")),
                line.mode,
                args.repeat,
                line.best_pass_s,
                line.guesses_per_puzzle,
                line.solved
            ))?;
        }
        Ok(())
    };
    job::bench(&req, &interrupt_flag(), &mut print).map(drop)
}

/// Arguments of `puzzle experiment sudoku` (short defaults; the thesis's are in brackets).
// The field docs are the `--help` text, where `[10]` gives the thesis's value, not a link.
#[allow(rustdoc::broken_intra_doc_links)]
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Every configuration is the thesis's (`solve sudoku --preset thesis`: random \
tree cell, UCB1 0.2, no AMAF, 10 visits before expansion) with the playout, selection and AMAF \
of its row, set explicitly: `solve sudoku`'s defaults (the most-constrained cell) do not apply. \
The top95 table adds the MRV rows beside the thesis's."
)]
pub struct ExperimentArgs {
    /// Runs per configuration [10].
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub runs: u64,
    /// Simulation limit for the easy puzzle [10000].
    #[arg(long, default_value_t = 10_000, value_parser = parse_simulations)]
    pub easy_limit: u64,
    /// Simulation limit for the medium puzzle [200000].
    #[arg(long, default_value_t = 50_000, value_parser = parse_simulations)]
    pub medium_limit: u64,
    /// Simulation limit for the hard puzzle [700000].
    #[arg(long, default_value_t = 100_000, value_parser = parse_simulations)]
    pub hard_limit: u64,
    /// Also run α-AMAF on the hard puzzle (the thesis left it out there).
    #[arg(long)]
    pub amaf_on_hard: bool,
    /// Puzzles of top95 for the success-against-budget table (all 95 by default).
    #[arg(long, default_value_t = 95, value_parser = clap::value_parser!(u64).range(0..=95))]
    pub top95: u64,
    /// Largest simulation budget of the top95 table (restarts every 10% of it).
    #[arg(long, default_value_t = 100_000, value_parser = parse_simulations)]
    pub top95_budget: u64,
    /// Write the Markdown report here instead of standard output (rewritten after every
    /// configuration, so an interrupted long run keeps the finished rows).
    #[arg(long, short, visible_alias = "out", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Which of the grid's puzzles to run (comma-separated; all three by default).
    #[arg(long, value_enum, value_delimiter = ',', default_values_t = [GridPuzzle::Easy, GridPuzzle::Medium, GridPuzzle::Hard])]
    pub puzzles: Vec<GridPuzzle>,
    #[command(flatten)]
    pub shard: crate::common::ShardArgs,
}

/// One of the three test puzzles of the thesis's grid.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum GridPuzzle {
    /// The easy puzzle ([`puzzle_jobs::data::SUDOKU_EASY`]).
    Easy,
    /// The medium puzzle ([`puzzle_jobs::data::SUDOKU_MEDIUM`]).
    Medium,
    /// The hard puzzle ([`puzzle_jobs::data::SUDOKU_HARD`]).
    Hard,
}

/// Write the report so far to `--output` (no-op when it goes to standard output at the end).
fn save_partial(path: Option<&Path>, md: &str) -> Result<()> {
    if let Some(path) = path {
        write_atomic(path, md.as_bytes())?;
    }
    Ok(())
}

/// `puzzle experiment sudoku`: the thesis's grid (playouts × selection × AMAF, runs each, on an
/// easy, a medium and a hard puzzle with a simulation limit per puzzle) and the success rate on
/// top95 against the simulation budget, as a Markdown report.
pub fn experiment(args: ExperimentArgs, common: &CommonArgs) -> Result<()> {
    let mut req = job::ExperimentRequest {
        runs: args.runs,
        easy_limit: args.easy_limit,
        medium_limit: args.medium_limit,
        hard_limit: args.hard_limit,
        amaf_on_hard: args.amaf_on_hard,
        top95: args.top95,
        top95_budget: args.top95_budget,
        puzzles: args.puzzles.iter().map(value_name).collect(),
        limits: common.limits(),
        items: Default::default(),
    };
    args.shard.prepare(common, &mut req)?;
    let out = common.output();
    let bar = progress_bar(common, 0, "experiment");
    let output = args.output.as_deref();
    let mut print = |event: ExperimentEvent| -> Result<()> {
        match &event {
            ExperimentEvent::Progress(p) => show_progress(&bar, p),
            ExperimentEvent::Run(r) => out.json(r)?,
            ExperimentEvent::Grid(r) => out.json(r)?,
            ExperimentEvent::Budget(r) => out.json(r)?,
        }
        if let Some(md) = event.report_so_far() {
            save_partial(output, md)?;
        }
        Ok(())
    };
    let result = job::experiment_report(&req, &interrupt_flag(), &mut print);
    bar.finish_and_clear();
    save_report(common, output, &result?)
}
