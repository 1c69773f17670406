//! `puzzle`: the command line of puzzle-search.
//!
//! Subcommand groups: `solve`, `generate`, `play`, `experiment`, `bench`, `render`, `merge`. Each game's
//! commands live in their own module under `cmd/`; this file only parses and dispatches.

mod cmd;
mod common;

use clap::{Parser, Subcommand};
use common::CommonArgs;
use std::process::ExitCode;

/// Search for single-player puzzles: Sokoban (solving and MCTS level generation), SameGame,
/// Sudoku and GVGAI's Bait, with MCTS, NMCS/NRPA, A*/IDA*/BFS/DFS and a genetic algorithm.
#[derive(Parser, Debug)]
#[command(name = "puzzle", version, about, long_about = None, propagate_version = true)]
struct Cli {
    #[command(flatten)]
    common: CommonArgs,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Solve puzzles from a file.
    #[command(subcommand)]
    Solve(SolveCommand),
    /// Generate puzzles (Sokoban levels with MCTS, Sudoku puzzles).
    #[command(subcommand)]
    Generate(GenerateCommand),
    /// Rate puzzles by difficulty (Sokoban: proven optimal pushes, solver effort, state space).
    #[command(subcommand)]
    Rate(RateCommand),
    /// Play a game with an agent.
    #[command(subcommand)]
    Play(PlayCommand),
    /// Reproduce the papers' experiments and write Markdown reports.
    #[command(subcommand)]
    Experiment(ExperimentCommand),
    /// Benchmarks; without a game, the deterministic signature over every game.
    Bench(BenchArgs),
    /// Draw a Sokoban level (XSB) as SVG and PNG.
    Render(cmd::sokogen::RenderArgs),
    /// The workbench in the browser: play, solve and generate (prints its URL with a token).
    Serve(cmd::serve::ServeArgs),
    /// Join the JSON Lines of a sharded run's shards (`--shard I/N`) into the unsharded output.
    Merge(cmd::merge::MergeArgs),
}

#[derive(Subcommand, Debug)]
enum SolveCommand {
    /// Solve Sokoban levels (XSB) with A*, IDA*, BFS, greedy search or the genetic algorithm.
    Sokoban(Box<cmd::sokoban::SolveArgs>),
    /// Solve SameGame boards with SP-MCTS, NMCS, NRPA, DBS, A* or IDA*.
    Samegame(Box<cmd::samegame::SolveArgs>),
    /// Solve Sudoku puzzles (one per line) with MCTS or the exact solver.
    Sudoku(Box<cmd::sudoku::SolveArgs>),
}

#[derive(Subcommand, Debug)]
enum GenerateCommand {
    /// Generate Sokoban levels with MCTS (solvable by construction).
    Sokoban(Box<cmd::sokogen::GenerateArgs>),
    /// Generate Sudoku puzzles with a unique solution.
    Sudoku(cmd::sudoku::GenerateArgs),
}

#[derive(Subcommand, Debug)]
enum RateCommand {
    /// Rate Sokoban levels (XSB): optimal pushes by A*, box lines and changes, the effort of A*
    /// and of the default solver, reachable positions.
    Sokoban(Box<cmd::sokoban::RateArgs>),
}

#[derive(Subcommand, Debug)]
enum PlayCommand {
    /// Play GVGAI's Bait with an agent.
    Bait(cmd::bait::PlayArgs),
}

#[derive(Subcommand, Debug)]
enum ExperimentCommand {
    /// The thesis's Sokoban-generation experiments (tables 3.1–3.8).
    #[command(name = "sokoban-gen")]
    SokobanGen(cmd::sokogen::ExperimentArgs),
    /// Sokoban solvers over level sets.
    Sokoban(cmd::sokoban::BenchArgs),
    /// The Czech paper's SameGame comparison on the 20 standard boards.
    Samegame(cmd::samegame::ExperimentArgs),
    /// The Czech paper's Sudoku test grid.
    Sudoku(cmd::sudoku::ExperimentArgs),
    /// Every Bait agent on every level.
    Bait(cmd::bait::ExperimentArgs),
}

#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
struct BenchArgs {
    #[command(subcommand)]
    game: Option<BenchCommand>,
}

#[derive(Subcommand, Debug)]
enum BenchCommand {
    /// MCTS iterations/s on the built-in toy game, per selection policy and thread count.
    Engine(cmd::engine::BenchEngineArgs),
    /// Sokoban solvers: solved count and time per level set.
    Sokoban(cmd::sokoban::BenchArgs),
    /// SameGame playouts per second and search speed.
    Samegame(cmd::samegame::BenchArgs),
    /// Sudoku exact-solver puzzles per second on a file.
    Sudoku(cmd::sudoku::BenchArgs),
    /// Bait agents: time per move.
    Bait(cmd::bait::BenchArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let common = cli.common;
    common::init_tracing(common.trace);
    let result = match cli.command {
        Command::Solve(SolveCommand::Sokoban(a)) => cmd::sokoban::solve(*a, &common),
        Command::Solve(SolveCommand::Samegame(a)) => cmd::samegame::solve(*a, &common),
        Command::Solve(SolveCommand::Sudoku(a)) => cmd::sudoku::solve(*a, &common),
        Command::Generate(GenerateCommand::Sokoban(a)) => cmd::sokogen::generate(*a, &common),
        Command::Generate(GenerateCommand::Sudoku(a)) => cmd::sudoku::generate(a, &common),
        Command::Rate(RateCommand::Sokoban(a)) => cmd::sokoban::rate(*a, &common),
        Command::Play(PlayCommand::Bait(a)) => cmd::bait::play(a, &common),
        Command::Experiment(ExperimentCommand::SokobanGen(a)) => {
            cmd::sokogen::experiment(a, &common)
        }
        Command::Experiment(ExperimentCommand::Sokoban(a)) => cmd::sokoban::bench(a, &common),
        Command::Experiment(ExperimentCommand::Samegame(a)) => {
            cmd::samegame::experiment(a, &common)
        }
        Command::Experiment(ExperimentCommand::Sudoku(a)) => cmd::sudoku::experiment(a, &common),
        Command::Experiment(ExperimentCommand::Bait(a)) => cmd::bait::experiment(a, &common),
        Command::Bench(BenchArgs { game: None }) => cmd::engine::signature_all(&common),
        Command::Bench(BenchArgs {
            game: Some(BenchCommand::Engine(a)),
        }) => cmd::engine::bench_engine(a, &common),
        Command::Bench(BenchArgs {
            game: Some(BenchCommand::Sokoban(a)),
        }) => cmd::sokoban::bench(a, &common),
        Command::Bench(BenchArgs {
            game: Some(BenchCommand::Samegame(a)),
        }) => cmd::samegame::bench(a, &common),
        Command::Bench(BenchArgs {
            game: Some(BenchCommand::Sudoku(a)),
        }) => cmd::sudoku::bench(a, &common),
        Command::Bench(BenchArgs {
            game: Some(BenchCommand::Bait(a)),
        }) => cmd::bait::bench(a, &common),
        Command::Render(a) => cmd::sokogen::render(a, &common),
        Command::Serve(a) => cmd::serve::serve(a, &common),
        Command::Merge(a) => cmd::merge::merge(a, &common),
    };
    if let Err(e) = &result {
        eprintln!("error: {e:#}");
    }
    if common.peak_memory {
        match common::peak_rss_bytes() {
            Some(bytes) => eprintln!("{{\"peak_rss_bytes\":{bytes}}}"),
            None => eprintln!("{{\"peak_rss_bytes\":null}}"),
        }
    }
    ExitCode::from(common::exit_code(&result))
}
