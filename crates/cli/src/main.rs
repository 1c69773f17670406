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

/// A command's job: what its request reads of the budget, how its request declares its flags,
/// and its request's JSON Schema.
#[derive(Clone, Copy)]
struct CommandJob {
    /// The budget settings the job reads ([`Job::READS`]).
    reads: &'static [Limit],
    /// The request's own flags (`clap::Args::augment_args`).
    #[cfg_attr(not(test), allow(dead_code))]
    flags: fn(clap::Command) -> clap::Command,
    /// The request's JSON Schema.
    #[cfg_attr(not(test), allow(dead_code))]
    schema: fn() -> serde_json::Value,
}

impl CommandJob {
    fn of<J: Job + clap::Args>() -> Option<CommandJob> {
        Some(CommandJob {
            reads: J::READS,
            flags: <J as clap::Args>::augment_args,
            schema: puzzle_jobs::registry::schema_of::<J>,
        })
    }
}

/// Every command with the job it runs (`None`: a command that runs no search and reads no
/// budget setting). The budget settings a command's job does not read are hidden from its
/// `--help` and refused when given, never dropped.
fn commands() -> Vec<(&'static [&'static str], Option<CommandJob>)> {
    use puzzle_jobs::{bait, engine, samegame, sokoban, sokoban_rate, sokogen, sudoku};
    vec![
        (
            &["solve", "sokoban"],
            CommandJob::of::<sokoban::SolveRequest>(),
        ),
        (
            &["solve", "samegame"],
            CommandJob::of::<samegame::SolveRequest>(),
        ),
        (
            &["solve", "sudoku"],
            CommandJob::of::<sudoku::SolveRequest>(),
        ),
        (
            &["generate", "sokoban"],
            CommandJob::of::<sokogen::GenerateRequest>(),
        ),
        (
            &["generate", "sudoku"],
            CommandJob::of::<sudoku::GenerateRequest>(),
        ),
        (
            &["rate", "sokoban"],
            CommandJob::of::<sokoban_rate::RateRequest>(),
        ),
        (&["play", "bait"], CommandJob::of::<bait::PlayRequest>()),
        (
            &["experiment", "sokoban-gen"],
            CommandJob::of::<sokogen::ExperimentRequest>(),
        ),
        (
            &["experiment", "sokoban"],
            CommandJob::of::<sokoban::BenchRequest>(),
        ),
        (
            &["experiment", "samegame"],
            CommandJob::of::<samegame::ExperimentRequest>(),
        ),
        (
            &["experiment", "sudoku"],
            CommandJob::of::<sudoku::ExperimentRequest>(),
        ),
        (
            &["experiment", "bait"],
            CommandJob::of::<bait::ExperimentRequest>(),
        ),
        (&["bench"], None),
        (
            &["bench", "engine"],
            CommandJob::of::<engine::BenchRequest>(),
        ),
        (
            &["bench", "sokoban"],
            CommandJob::of::<sokoban::BenchRequest>(),
        ),
        (
            &["bench", "samegame"],
            CommandJob::of::<samegame::BenchRequest>(),
        ),
        (
            &["bench", "sudoku"],
            CommandJob::of::<sudoku::BenchRequest>(),
        ),
        (&["bench", "bait"], CommandJob::of::<bait::BenchRequest>()),
        (&["render"], None),
        (&["serve"], None),
        (&["merge"], None),
    ]
}

/// The budget settings each command reads (see [`commands`]).
fn command_reads() -> Vec<(&'static [&'static str], &'static [Limit])> {
    commands()
        .into_iter()
        .map(|(path, job)| (path, job.map_or(&[][..], |j| j.reads)))
        .collect()
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
        match common::process_peak_rss_bytes() {
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

    /// No option is declared twice: a flag a command adds beside its job's request (a file,
    /// `--out`, `--show`) is not one of the request's options, except a flag that reads a file
    /// into a text option (`--boards`), the sharding flags (`--shard`, `--resume`), and
    /// SameGame's hidden `--selective`, which older commands give and which sets the default.
    #[test]
    fn no_command_declares_an_option_of_its_job_again() {
        const DECLARED_BESIDE: [&str; 3] = ["boards", "shard", "selective"];
        let mut command = command_line();
        let global: Vec<String> = command
            .get_arguments()
            .map(|a| a.get_id().to_string())
            .collect();
        for (path, job) in commands() {
            let Some(job) = job else { continue };
            let own: Vec<String> = (job.flags)(clap::Command::new("request"))
                .get_arguments()
                .map(|a| a.get_id().to_string())
                .collect();
            let schema = (job.schema)();
            let options = schema["properties"].as_object().unwrap();
            let mut sub = &mut command;
            for name in path {
                sub = sub.find_subcommand_mut(name).unwrap();
            }
            for arg in sub.get_arguments() {
                let id = arg.get_id().to_string();
                if own.contains(&id) || global.contains(&id) || arg.get_long().is_none() {
                    continue;
                }
                let option = arg.get_long().unwrap_or_default().replace('-', "_");
                assert!(
                    !options.contains_key(&option) || DECLARED_BESIDE.contains(&option.as_str()),
                    "puzzle {} declares --{} beside its job's option `{option}`",
                    path.join(" "),
                    arg.get_long().unwrap_or_default()
                );
            }
        }
    }
}
