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

/// Arguments of `puzzle generate sudoku`: the job's request ([`job::GenerateRequest`]).
pub type GenerateArgs = job::GenerateRequest;

/// `puzzle generate sudoku`: minimal unique-solution puzzles with a difficulty estimate.
pub fn generate(mut req: GenerateArgs, common: &CommonArgs) -> Result<()> {
    finish_request(&mut req, common, None)?;
    let out = common.output();
    let bar = progress_bar(common, req.count, "generating");
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

/// Arguments of `puzzle bench sudoku`: a file and the options of [`job::BenchRequest`].
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Puzzle file (one puzzle per line).
    pub file: PathBuf,
    #[command(flatten)]
    pub request: job::BenchRequest,
}

/// `puzzle bench sudoku FILE`: puzzles per second of the exact solver (best of `--repeat`).
pub fn bench(args: BenchArgs, common: &CommonArgs) -> Result<()> {
    let mut req = args.request;
    req.puzzles = read_text(&args.file)?;
    req.source = args.file.display().to_string();
    finish_request(&mut req, common, None)?;
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
                req.repeat,
                line.best_pass_s,
                line.guesses_per_puzzle,
                line.solved
            ))?;
        }
        Ok(())
    };
    job::bench(&req, &interrupt_flag(), &mut print).map(drop)
}

/// Arguments of `puzzle experiment sudoku`: the options of [`job::ExperimentRequest`] and
/// where the report goes.
#[derive(clap::Args, Debug)]
pub struct ExperimentArgs {
    #[command(flatten)]
    pub request: job::ExperimentRequest,
    /// Write the Markdown report here instead of standard output (rewritten after every
    /// configuration, so an interrupted long run keeps the finished rows).
    #[arg(long, short, visible_alias = "out", value_name = "FILE")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub shard: crate::common::ShardArgs,
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
    let mut req = args.request;
    finish_request(&mut req, common, Some(&args.shard))?;
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
