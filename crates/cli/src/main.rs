//! `puzzle`: the command line of puzzle-search.
//!
//! Subcommand groups: `solve`, `generate`, `play`, `experiment`, `bench`, `render`, `merge`. Each game's
//! commands live in their own module under `cmd/`; this file only parses and dispatches.

mod cmd;
mod common;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use common::CommonArgs;
use puzzle_jobs::{Job, Limit};
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

/// The budget settings each command reads: its job's [`Job::READS`]; a command that runs no
/// search reads none. The others are hidden from the command's `--help` and refused when
/// given, never dropped.
fn command_reads() -> Vec<(&'static [&'static str], &'static [Limit])> {
    use puzzle_jobs::{bait, engine, samegame, sokoban, sokoban_rate, sokogen, sudoku};
    vec![
        (&["solve", "sokoban"], sokoban::SolveRequest::READS),
        (&["solve", "samegame"], samegame::SolveRequest::READS),
        (&["solve", "sudoku"], sudoku::SolveRequest::READS),
        (&["generate", "sokoban"], sokogen::GenerateRequest::READS),
        (&["generate", "sudoku"], sudoku::GenerateRequest::READS),
        (&["rate", "sokoban"], sokoban_rate::RateRequest::READS),
        (&["play", "bait"], bait::PlayRequest::READS),
        (
            &["experiment", "sokoban-gen"],
            sokogen::ExperimentRequest::READS,
        ),
        (&["experiment", "sokoban"], sokoban::BenchRequest::READS),
        (
            &["experiment", "samegame"],
            samegame::ExperimentRequest::READS,
        ),
        (&["experiment", "sudoku"], sudoku::ExperimentRequest::READS),
        (&["experiment", "bait"], bait::ExperimentRequest::READS),
        (&["bench"], &[]),
        (&["bench", "engine"], engine::BenchRequest::READS),
        (&["bench", "sokoban"], sokoban::BenchRequest::READS),
        (&["bench", "samegame"], samegame::BenchRequest::READS),
        (&["bench", "sudoku"], sudoku::BenchRequest::READS),
        (&["bench", "bait"], bait::BenchRequest::READS),
        (&["render"], &[]),
        (&["serve"], &[]),
        (&["merge"], &[]),
    ]
}

/// The command line with each command's unread budget flags hidden from its `--help`.
fn command_line() -> clap::Command {
    let mut command = Cli::command();
    command.build();
    for (path, reads) in command_reads() {
        command = hide_unread(command, path, reads);
    }
    command
}

fn hide_unread(command: clap::Command, path: &[&str], reads: &[Limit]) -> clap::Command {
    match path.split_first() {
        Some((name, rest)) => command.mut_subcommand(*name, |sub| hide_unread(sub, rest, reads)),
        // `mut_args` keeps the built command's order of arguments (its flag index).
        None => command.mut_args(|arg| {
            let unread = Limit::ALL
                .iter()
                .any(|l| !reads.contains(l) && arg.get_id() == l.field());
            arg.hide(unread)
        }),
    }
}

/// The names of the subcommands `matches` went through (`["play", "bait"]`).
fn matched_path(mut matches: &clap::ArgMatches) -> Vec<String> {
    let mut path = Vec::new();
    while let Some((name, sub)) = matches.subcommand() {
        path.push(name.to_string());
        matches = sub;
    }
    path
}

fn main() -> ExitCode {
    let matches = command_line().get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    let common = cli.common;
    let path = matched_path(&matches);
    let reads = command_reads()
        .into_iter()
        .find(|(p, _)| *p == path.as_slice())
        .map_or(Limit::ALL, |(_, reads)| reads);
    if let Err(e) = common
        .limits
        .check_read(&format!("puzzle {}", path.join(" ")), reads)
    {
        eprintln!("error: {e:#}");
        return ExitCode::from(2);
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every command that runs is in [`command_reads`], and its `--help` offers exactly the
    /// budget flags it reads.
    #[test]
    fn every_command_offers_exactly_the_budget_flags_it_reads() {
        fn leaves(command: &clap::Command, path: Vec<String>, out: &mut Vec<Vec<String>>) {
            if command.get_subcommands().next().is_none()
                || command.is_args_conflicts_with_subcommands_set()
            {
                out.push(path.clone());
            }
            for sub in command.get_subcommands().filter(|s| s.get_name() != "help") {
                let mut p = path.clone();
                p.push(sub.get_name().to_string());
                leaves(sub, p, out);
            }
        }
        let mut all = Vec::new();
        let mut command = command_line();
        leaves(&command, Vec::new(), &mut all);
        all.retain(|p| !p.is_empty());
        let table = command_reads();
        for path in &all {
            let reads = table
                .iter()
                .find(|(p, _)| p.iter().eq(path.iter()))
                .unwrap_or_else(|| panic!("puzzle {}: not in command_reads", path.join(" ")))
                .1;
            let mut sub = &mut command;
            for name in path {
                sub = sub.find_subcommand_mut(name).unwrap();
            }
            let help = sub.render_long_help().to_string();
            for limit in Limit::ALL {
                let offered = help
                    .lines()
                    .any(|line| line.trim_start().starts_with(limit.flag()));
                assert_eq!(
                    offered,
                    reads.contains(limit),
                    "puzzle {} --help and {}",
                    path.join(" "),
                    limit.flag()
                );
            }
        }
        assert_eq!(all.len(), table.len(), "command_reads has no stale entry");
    }
}
