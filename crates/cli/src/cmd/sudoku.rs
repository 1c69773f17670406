//! `puzzle solve|generate|bench|experiment sudoku`: the Czech thesis's MCTS solver (chapter 4,
//! SPEC §D), the exact bitboard solver, the generator, and the thesis's test grid as a report.

use crate::common::{interrupt_flag, progress_bar, read_text, CommonArgs, Signature};
use anyhow::{bail, Context, Result};
use puzzle_engine::Rng;
use puzzle_sudoku::generator::generate as generate_puzzle;
use puzzle_sudoku::mcts::{solve_mcts, CellChoice, MctsSudokuConfig, PlayoutKind, Selection};
use puzzle_sudoku::{parse_puzzle, parse_puzzles, solve_exact, ExactLimits, Grid};
use serde::Serialize;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Solver choice.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algo {
    /// The thesis's MCTS solver.
    Mcts,
    /// Constraint propagation + search (proves uniqueness).
    Exact,
}

/// Playout cell choice (thesis 4.3.3; `mrv` is an extension).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayoutArg {
    /// A random empty cell.
    Random,
    /// Prefer the row, column and box of the previous move.
    Pseudo,
    /// The most constrained cell (beyond the thesis).
    Mrv,
}

/// Selection formula (thesis 4.3.5).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SelectionArg {
    /// UCB1 with UCTK.
    Ucb1,
    /// UCB1-Tuned.
    UcbTuned,
}

/// Tree cell choice for expansion (thesis 4.3.4).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TreeCellArg {
    /// A random empty cell (fixed per state).
    Random,
    /// A cell near the previous move.
    Pseudo,
    /// The most constrained cell.
    Mrv,
}

/// Arguments of `puzzle solve sudoku`.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// Puzzle file: one puzzle per line (81 symbols, `.` or `0` empty), or grids of 9 lines.
    pub file: PathBuf,
    /// Solver.
    #[arg(long, value_enum, default_value_t = Algo::Mcts)]
    pub algo: Algo,
    /// MCTS playout cell choice.
    #[arg(long, value_enum, default_value_t = PlayoutArg::Random)]
    pub playout: PlayoutArg,
    /// MCTS selection formula.
    #[arg(long, value_enum, default_value_t = SelectionArg::Ucb1)]
    pub selection: SelectionArg,
    /// UCB1 exploration constant UCTK (the thesis tried 0.1, 0.2, 0.4; 0.2 was best).
    #[arg(long, value_name = "K", default_value_t = 0.2, value_parser = parse_uctk)]
    pub uctk: f64,
    /// Turn on α-AMAF with this α (0.5 in the thesis); widens expansion to a whole unit.
    #[arg(long, value_name = "ALPHA", value_parser = parse_alpha)]
    pub amaf: Option<f64>,
    /// Simulations per MCTS tree; the search restarts with a fresh tree after this many.
    #[arg(long, value_name = "N", default_value_t = 100_000, value_parser = parse_simulations)]
    pub max_simulations: u64,
    /// Restarts allowed after the first tree (total budget: N × (R + 1) simulations).
    #[arg(long, value_name = "R", default_value_t = 9, value_parser = parse_restarts)]
    pub restarts: u64,
    /// Tree expansion cell choice (beyond the contract: the thesis leaves it open).
    #[arg(long, value_enum, default_value_t = TreeCellArg::Random)]
    pub tree_cell: TreeCellArg,
    /// Visits of a leaf before it is expanded (10 in the thesis).
    #[arg(long, value_name = "V", default_value_t = 10)]
    pub visits_before_expand: u32,
}

fn parse_uctk(s: &str) -> Result<f64, String> {
    let v: f64 = s.parse().map_err(|_| format!("'{s}' is not a number"))?;
    if !v.is_finite() || !(0.0..=100.0).contains(&v) {
        return Err(format!("UCTK must be between 0 and 100, not {s}"));
    }
    Ok(v)
}

fn parse_alpha(s: &str) -> Result<f64, String> {
    let v: f64 = s.parse().map_err(|_| format!("'{s}' is not a number"))?;
    if !v.is_finite() || !(0.0..=1.0).contains(&v) {
        return Err(format!("α must be between 0 and 1, not {s}"));
    }
    Ok(v)
}

fn parse_simulations(s: &str) -> Result<u64, String> {
    let v = crate::common::parse_positive_u64(s)?;
    if v > 10_000_000_000 {
        return Err(format!(
            "{v} simulations per tree is too many (at most 10^10)"
        ));
    }
    Ok(v)
}

fn parse_restarts(s: &str) -> Result<u64, String> {
    let v: u64 = s
        .parse()
        .map_err(|_| format!("'{s}' is not a whole number"))?;
    if v > 1_000_000 {
        return Err(format!("{v} restarts is too many (at most 10^6)"));
    }
    Ok(v)
}

#[derive(Serialize)]
struct SolveLine {
    index: usize,
    puzzle: String,
    solved: bool,
    /// The solution (81 digits), or "" when none was found.
    solution: String,
    simulations: u64,
    restarts: u64,
    time_s: f64,
    algo: &'static str,
    /// Exact solver only: solutions found, up to 2 (2 means "not unique").
    #[serde(skip_serializing_if = "Option::is_none")]
    solutions: Option<usize>,
    /// Exact solver only: branches tried.
    #[serde(skip_serializing_if = "Option::is_none")]
    guesses: Option<u64>,
    /// The file line of the puzzle.
    line: usize,
}

impl SolveArgs {
    fn mcts_config(&self, common: &CommonArgs) -> MctsSudokuConfig {
        let total = self.max_simulations.saturating_mul(self.restarts + 1);
        MctsSudokuConfig {
            playout: match self.playout {
                PlayoutArg::Random => PlayoutKind::Random,
                PlayoutArg::Pseudo => PlayoutKind::PseudoRandom,
                PlayoutArg::Mrv => PlayoutKind::MostConstrained,
            },
            selection: match self.selection {
                SelectionArg::Ucb1 => Selection::Ucb1 { uctk: self.uctk },
                SelectionArg::UcbTuned => Selection::Ucb1Tuned,
            },
            amaf: self.amaf,
            tree_cell: match self.tree_cell {
                TreeCellArg::Random => CellChoice::Random,
                TreeCellArg::Pseudo => CellChoice::PseudoRandom,
                TreeCellArg::Mrv => CellChoice::MostConstrained,
            },
            visits_before_expand: self.visits_before_expand,
            restart_after: Some(self.max_simulations),
            max_simulations: common.iterations.map_or(total, |i| i.min(total)),
            time_limit: common.time_limit.map(Duration::from_secs_f64),
            max_nodes: common.max_nodes.unwrap_or(puzzle_engine::DEFAULT_MAX_NODES),
            seed: common.seed_or(1),
            threads: common.threads_or(1),
            stop: Some(interrupt_flag()),
        }
    }
}

fn read_puzzles(path: &Path) -> Result<Vec<puzzle_sudoku::ParsedPuzzle>> {
    let text = read_text(path)?;
    let puzzles = parse_puzzles(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    if puzzles.is_empty() {
        bail!("{}: no puzzle in the file", path.display());
    }
    Ok(puzzles)
}

/// `puzzle solve sudoku FILE`: solve every puzzle, printing each result (verified) as found.
pub fn solve(args: SolveArgs, common: &CommonArgs) -> Result<()> {
    let puzzles = read_puzzles(&args.file)?;
    let out = common.output();
    let cfg = args.mcts_config(common);
    let bar = progress_bar(common, puzzles.len() as u64, "sudoku");
    let (mut solved_count, mut total_sims) = (0usize, 0u64);
    for (k, p) in puzzles.iter().enumerate() {
        if crate::common::interrupted() {
            break;
        }
        let start = Instant::now();
        let mut line = SolveLine {
            index: k + 1,
            puzzle: p.grid.to_line(),
            solved: false,
            solution: String::new(),
            simulations: 0,
            restarts: 0,
            time_s: 0.0,
            algo: "mcts",
            solutions: None,
            guesses: None,
            line: p.line,
        };
        let solution: Option<Grid> = match args.algo {
            Algo::Mcts => {
                let r = solve_mcts(&p.grid, &cfg)
                    .map_err(|e| anyhow::anyhow!("puzzle {} (line {}): {e}", k + 1, p.line))?;
                line.simulations = r.simulations;
                line.restarts = r.restarts;
                r.solution
            }
            Algo::Exact => {
                line.algo = "exact";
                let o = solve_exact(&p.grid, ExactLimits::default());
                line.solutions = Some(o.solutions);
                line.guesses = Some(o.guesses);
                line.simulations = o.guesses;
                if o.aborted {
                    bail!(
                        "puzzle {} (line {}): the exact solver's guess budget ran out",
                        k + 1,
                        p.line
                    );
                }
                o.solution
            }
        };
        line.time_s = start.elapsed().as_secs_f64();
        if let Some(s) = &solution {
            // Verified before printing.
            if !s.solves(&p.grid) {
                bail!("internal error: puzzle {} solution does not verify", k + 1);
            }
            line.solved = true;
            line.solution = s.to_line();
            solved_count += 1;
            total_sims += line.simulations;
        }
        out.json(&line)?;
        let status = if line.solved {
            format!("solved by {} ", line.algo)
        } else {
            "NOT solved by ".to_string() + line.algo + " "
        };
        let extra = match line.solutions {
            Some(1) => ", unique".to_string(),
            Some(0) => ", no solution exists".to_string(),
            Some(_) => ", several solutions".to_string(),
            None => format!(
                ", {} simulations, {} restarts",
                line.simulations, line.restarts
            ),
        };
        out.text(&format!(
            "#{} (line {}): {status}in {:.3} s{extra}\n{}",
            line.index,
            line.line,
            line.time_s,
            solution.map_or_else(|| p.grid.to_grid_text(), |s| s.to_grid_text())
        ))?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    out.text(&format!(
        "{solved_count}/{} solved; mean {} per solved puzzle: {:.0}",
        puzzles.len(),
        if args.algo == Algo::Mcts {
            "simulations"
        } else {
            "guesses"
        },
        total_sims as f64 / solved_count.max(1) as f64
    ))?;
    Ok(())
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

#[derive(Serialize)]
struct GeneratedLine {
    index: u64,
    puzzle: String,
    solution: String,
    clues: usize,
    guesses: u64,
    difficulty: &'static str,
    seed: u64,
}

/// `puzzle generate sudoku`: minimal unique-solution puzzles with a difficulty estimate.
pub fn generate(args: GenerateArgs, common: &CommonArgs) -> Result<()> {
    let out = common.output();
    let seed = common.seed_or(1);
    let bar = progress_bar(common, args.count, "generating");
    for i in 0..args.count {
        if crate::common::interrupted() {
            break;
        }
        let s = Rng::stream_seed(seed, i);
        let g = generate_puzzle(args.box_size as usize, &mut Rng::new(s))
            .context("the exact solver's budget ran out while generating")?;
        let check = solve_exact(&g.puzzle, ExactLimits::default());
        if !check.is_unique() || check.solution.as_ref() != Some(&g.solution) {
            bail!("internal error: generated puzzle is not unique");
        }
        out.json(&GeneratedLine {
            index: i + 1,
            puzzle: g.puzzle.to_line(),
            solution: g.solution.to_line(),
            clues: g.puzzle.clue_count(),
            guesses: g.guesses,
            difficulty: g.difficulty.name(),
            seed: s,
        })?;
        out.text(&format!(
            "{}  # {} clues, {} ({} guesses)",
            g.puzzle.to_line(),
            g.puzzle.clue_count(),
            g.difficulty.name(),
            g.guesses
        ))?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    Ok(())
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

#[derive(Serialize)]
struct BenchLine {
    file: String,
    puzzles: usize,
    mode: &'static str,
    /// Puzzles per second of wall time (best pass).
    puzzles_per_s: f64,
    /// Puzzles per second of this thread's on-CPU time (best pass; Linux only): robust when
    /// the machine is shared.
    puzzles_per_cpu_s: Option<f64>,
    best_pass_s: f64,
    guesses_per_puzzle: f64,
    solved: usize,
}

/// `puzzle bench sudoku FILE`: puzzles per second of the exact solver (best of `--repeat`).
pub fn bench(args: BenchArgs, common: &CommonArgs) -> Result<()> {
    let puzzles = read_puzzles(&args.file)?;
    let limits = ExactLimits {
        max_solutions: if args.mode == BenchMode::First { 1 } else { 2 },
        ..ExactLimits::default()
    };
    // 9×9 puzzles go straight to the band solver (as a library user would call it); the
    // solutions are kept and verified after the timed passes.
    let nine: Option<Vec<[u8; 81]>> = puzzles
        .iter()
        .map(|p| <[u8; 81]>::try_from(p.grid.cells()).ok())
        .collect();
    let mut best = f64::INFINITY;
    let mut best_cpu = f64::INFINITY;
    let mut guesses = 0u64;
    let mut solutions: Vec<Option<Grid>> = Vec::new();
    for _ in 0..args.repeat {
        let start = Instant::now();
        let cpu_start = thread_cpu_seconds();
        guesses = 0;
        solutions.clear();
        match &nine {
            Some(cells) => {
                for c in cells {
                    let o =
                        puzzle_sudoku::fast9::solve9(c, limits.max_solutions, limits.max_guesses);
                    guesses += o.guesses;
                    solutions.push(o.first.and_then(|s| Grid::from_values(&s).ok()));
                }
            }
            None => {
                for p in &puzzles {
                    let o = solve_exact(&p.grid, limits);
                    guesses += o.guesses;
                    solutions.push(o.solution);
                }
            }
        }
        best = best.min(start.elapsed().as_secs_f64());
        if let (Some(a), Some(b)) = (cpu_start, thread_cpu_seconds()) {
            best_cpu = best_cpu.min(b - a);
        }
        if crate::common::interrupted() {
            break;
        }
    }
    let solved = puzzles
        .iter()
        .zip(&solutions)
        .filter(|(p, s)| s.as_ref().is_some_and(|s| s.solves(&p.grid)))
        .count();
    let line = BenchLine {
        file: args.file.display().to_string(),
        puzzles: puzzles.len(),
        mode: if args.mode == BenchMode::First {
            "first"
        } else {
            "unique"
        },
        puzzles_per_s: puzzles.len() as f64 / best.max(1e-9),
        puzzles_per_cpu_s: best_cpu
            .is_finite()
            .then(|| puzzles.len() as f64 / best_cpu.max(1e-9)),
        best_pass_s: best,
        guesses_per_puzzle: guesses as f64 / puzzles.len() as f64,
        solved,
    };
    let out = common.output();
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
    Ok(())
}

/// Seconds this thread has spent on a CPU (Linux `/proc/thread-self/schedstat`), if available.
fn thread_cpu_seconds() -> Option<f64> {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()?
        .split_whitespace()
        .next()?
        .parse::<u64>()
        .ok()
        .map(|ns| ns as f64 * 1e-9)
}

/// Arguments of `puzzle experiment sudoku` (short defaults; the thesis's are in brackets).
#[derive(clap::Args, Debug)]
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
    #[arg(long)]
    pub output: Option<PathBuf>,
    /// Which of the grid's puzzles to run (comma-separated; all three by default).
    #[arg(long, value_enum, value_delimiter = ',', default_values_t = [GridPuzzle::Easy, GridPuzzle::Medium, GridPuzzle::Hard])]
    pub puzzles: Vec<GridPuzzle>,
}

/// One of the three test puzzles of the thesis's grid.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum GridPuzzle {
    /// The easy puzzle (`EASY_PUZZLE`).
    Easy,
    /// The medium puzzle (`MEDIUM_PUZZLE`).
    Medium,
    /// The hard puzzle (`HARD_PUZZLE`).
    Hard,
}

/// Write the report so far to `--output` (no-op when it goes to standard output at the end).
fn save_partial(args: &ExperimentArgs, md: &str) -> Result<()> {
    if let Some(path) = &args.output {
        std::fs::write(path, md).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

/// The thesis's three test puzzles are only pictures; these stand in for them, chosen so that
/// the thesis's MCTS finds them easy, harder, and hard within its limits (its solvable range is
/// about 28 clues and up). Easy: a classic 32-clue puzzle solved by singles (Project Euler 96,
/// grid 01).
pub const EASY_PUZZLE: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
/// Medium: 33 clues (a generated minimal puzzle, `generate --seed 7` #2, plus solution cells).
pub const MEDIUM_PUZZLE: &str =
    "....98.3.4.9.7..6..8.14.5..32..6.1.519..2...3..7.......7.9513.6...6....9..1...758";
/// Hard: 28 clues (`generate --seed 7` #3 plus three solution cells).
pub const HARD_PUZZLE: &str =
    "..2..854...7...6125....137.2.9.........6...94.15.3....3..2.64....1..5..3........1";

const TOP95: &str = include_str!("../../../../data/sudoku/magictour_top95.txt");

struct GridConfig {
    name: String,
    playout: PlayoutKind,
    selection: Selection,
    amaf: Option<f64>,
}

fn grid_configs(with_amaf: bool) -> Vec<GridConfig> {
    let mut out = Vec::new();
    for amaf in [None, Some(0.5)] {
        if amaf.is_some() && !with_amaf {
            continue;
        }
        for (pname, playout) in [
            ("random", PlayoutKind::Random),
            ("pseudo", PlayoutKind::PseudoRandom),
        ] {
            for (sname, selection) in [
                ("UCB-Tuned", Selection::Ucb1Tuned),
                ("UCB1 0.1", Selection::Ucb1 { uctk: 0.1 }),
                ("UCB1 0.2", Selection::Ucb1 { uctk: 0.2 }),
                ("UCB1 0.4", Selection::Ucb1 { uctk: 0.4 }),
            ] {
                out.push(GridConfig {
                    name: format!(
                        "{pname} / {sname}{}",
                        if amaf.is_some() { " / α-AMAF 0.5" } else { "" }
                    ),
                    playout,
                    selection,
                    amaf,
                });
            }
        }
    }
    out
}

/// `puzzle experiment sudoku`: the thesis's grid (playouts × selection × AMAF, runs each, on an
/// easy, a medium and a hard puzzle with a simulation limit per puzzle) and the success rate on
/// top95 against the simulation budget, as a Markdown report.
pub fn experiment(args: ExperimentArgs, common: &CommonArgs) -> Result<()> {
    let seed = common.seed_or(1);
    let mut md = String::new();
    writeln!(
        md,
        "# Sudoku: the Czech thesis's MCTS test grid (reproduction)\n"
    )?;
    writeln!(
        md,
        "Settings: {} runs per configuration, 10 visits before expansion, one-cell expansion \
         (random cell; α-AMAF: a whole unit), reward movecount/(movecount+unsolved), no restarts \
         inside a run; a run succeeds if it solves the puzzle within the limit. Seed {seed}.\n",
        args.runs
    )?;
    let puzzles: Vec<_> = [
        (GridPuzzle::Easy, "easy", EASY_PUZZLE, args.easy_limit, true),
        (
            GridPuzzle::Medium,
            "medium",
            MEDIUM_PUZZLE,
            args.medium_limit,
            true,
        ),
        (
            GridPuzzle::Hard,
            "hard",
            HARD_PUZZLE,
            args.hard_limit,
            args.amaf_on_hard,
        ),
    ]
    .into_iter()
    .filter(|p| args.puzzles.contains(&p.0))
    .map(|p| (p.1, p.2, p.3, p.4))
    .collect();
    let total: u64 = puzzles
        .iter()
        .map(|p| grid_configs(p.3).len() as u64 * args.runs)
        .sum::<u64>()
        + args.top95 * 4;
    let bar = progress_bar(common, total, "experiment");
    for (label, text, limit, with_amaf) in puzzles {
        let grid = parse_puzzle(text).map_err(|e| anyhow::anyhow!("{label} puzzle: {e}"))?;
        writeln!(
            md,
            "## {label} puzzle ({} clues, limit {limit} simulations)\n\n`{text}`\n",
            grid.clue_count()
        )?;
        writeln!(md, "| playout / selection / AMAF | solved | mean simulations (solved runs) | mean time (s) |")?;
        writeln!(md, "|---|---|---|---|")?;
        for cfg in grid_configs(with_amaf) {
            let (mut solved, mut sims, mut time) = (0u64, 0u64, 0.0);
            for run in 0..args.runs {
                let c = MctsSudokuConfig {
                    playout: cfg.playout,
                    selection: cfg.selection,
                    amaf: cfg.amaf,
                    restart_after: None,
                    max_simulations: limit,
                    seed: Rng::stream_seed(seed, run),
                    stop: Some(interrupt_flag()),
                    time_limit: common.time_limit.map(Duration::from_secs_f64),
                    ..MctsSudokuConfig::default()
                };
                let r = solve_mcts(&grid, &c).map_err(|e| anyhow::anyhow!(e))?;
                time += r.elapsed.as_secs_f64();
                if r.solution.is_some() {
                    solved += 1;
                    sims += r.simulations;
                }
                bar.inc(1);
                if crate::common::interrupted() {
                    break;
                }
            }
            writeln!(
                md,
                "| {} | {solved}/{} | {} | {:.2} |",
                cfg.name,
                args.runs,
                if solved > 0 {
                    format!("{:.0}", sims as f64 / solved as f64)
                } else {
                    "–".into()
                },
                time / args.runs as f64
            )?;
            save_partial(&args, &md)?;
        }
        writeln!(md)?;
    }
    // Success against budget on top95.
    if args.top95 > 0 {
        let top = parse_puzzles(TOP95).map_err(|e| anyhow::anyhow!("bundled top95: {e}"))?;
        let budgets: Vec<u64> = [1u64, 3, 10, 30, 100]
            .iter()
            .map(|f| args.top95_budget * f / 100)
            .filter(|&b| b > 0)
            .collect();
        writeln!(
            md,
            "## Success rate against the simulation budget on magictour top95 (first {} puzzles)\n",
            args.top95
        )?;
        writeln!(
            md,
            "One run per puzzle with the largest budget ({}), restarting every {} simulations; a \
             puzzle counts as solved within budget B if that run solved it within B simulations \
             (a run with budget B is the same run cut at B).\n",
            args.top95_budget,
            (args.top95_budget / 10).max(1)
        )?;
        write!(md, "| configuration |")?;
        for b in &budgets {
            write!(md, " ≤ {b} |")?;
        }
        writeln!(md, " mean simulations (solved) |")?;
        writeln!(md, "|---|{}---|", "---|".repeat(budgets.len()))?;
        let configs = [
            (
                "random / UCB1 0.2 (thesis)",
                PlayoutKind::Random,
                CellChoice::Random,
            ),
            (
                "pseudo / UCB1 0.2 (thesis)",
                PlayoutKind::PseudoRandom,
                CellChoice::Random,
            ),
            (
                "pseudo / UCB1 0.2, MRV tree cell",
                PlayoutKind::PseudoRandom,
                CellChoice::MostConstrained,
            ),
            (
                "MRV playout / UCB1 0.2, MRV tree cell",
                PlayoutKind::MostConstrained,
                CellChoice::MostConstrained,
            ),
        ];
        for (name, playout, tree_cell) in configs {
            let mut sims_to_solve = Vec::new();
            for (i, p) in top.iter().take(args.top95 as usize).enumerate() {
                let c = MctsSudokuConfig {
                    playout,
                    tree_cell,
                    restart_after: Some((args.top95_budget / 10).max(1)),
                    max_simulations: args.top95_budget,
                    seed: Rng::stream_seed(seed, i as u64),
                    stop: Some(interrupt_flag()),
                    time_limit: common.time_limit.map(Duration::from_secs_f64),
                    ..MctsSudokuConfig::default()
                };
                let r = solve_mcts(&p.grid, &c).map_err(|e| anyhow::anyhow!(e))?;
                if r.solution.is_some() {
                    sims_to_solve.push(r.simulations);
                }
                bar.inc(1);
                if crate::common::interrupted() {
                    break;
                }
            }
            write!(md, "| {name} |")?;
            for &b in &budgets {
                let k = sims_to_solve.iter().filter(|&&s| s <= b).count();
                write!(md, " {:.0} % |", 100.0 * k as f64 / args.top95 as f64)?;
            }
            let mean = if sims_to_solve.is_empty() {
                "–".to_string()
            } else {
                format!(
                    "{:.0}",
                    sims_to_solve.iter().sum::<u64>() as f64 / sims_to_solve.len() as f64
                )
            };
            writeln!(md, " {mean} |")?;
            save_partial(&args, &md)?;
        }
        writeln!(md)?;
    }
    bar.finish_and_clear();
    match &args.output {
        Some(path) => {
            std::fs::write(path, &md).with_context(|| format!("cannot write {}", path.display()))?
        }
        None => print!("{md}"),
    }
    Ok(())
}

/// This game's part of the `puzzle bench` signature: the exact solver on Norvig's hardest 11
/// (work: guesses) and a fixed-seed MCTS solve of the easy puzzle (work: simulations).
pub fn signature(_common: &CommonArgs) -> Result<Vec<Signature>> {
    let mut lines = Vec::new();
    let start = Instant::now();
    let hardest = parse_puzzles(include_str!("../../../../data/sudoku/norvig_hardest11.txt"))
        .map_err(|e| anyhow::anyhow!("bundled hardest11: {e}"))?;
    let (mut guesses, mut unique) = (0u64, 0u64);
    for p in &hardest {
        let o = solve_exact(&p.grid, ExactLimits::default());
        guesses += o.guesses;
        unique += u64::from(o.is_unique());
    }
    lines.push(Signature {
        name: "sudoku/exact-hardest11".into(),
        work: guesses,
        result: unique as f64,
        time_s: start.elapsed().as_secs_f64(),
    });
    let start = Instant::now();
    let grid = parse_puzzle(EASY_PUZZLE).map_err(|e| anyhow::anyhow!("{e}"))?;
    let cfg = MctsSudokuConfig {
        max_simulations: 20_000,
        seed: 1,
        ..MctsSudokuConfig::default()
    };
    let r = solve_mcts(&grid, &cfg).map_err(|e| anyhow::anyhow!(e))?;
    lines.push(Signature {
        name: "sudoku/mcts-easy".into(),
        work: r.simulations,
        result: f64::from(u8::from(r.solution.is_some())),
        time_s: start.elapsed().as_secs_f64(),
    });
    Ok(lines)
}
