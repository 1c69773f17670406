//! Sudoku jobs (see `docs/METHODS.md#sudoku`; the Czech thesis's
//! chapter 4): solve the puzzles of a text with the
//! thesis's MCTS solver or the exact bitboard solver, generate unique-solution puzzles, time the
//! exact solver over a puzzle file, and the thesis's test grid as a Markdown report
//! ([`experiment_report()`]). Every solution in a result was checked against its puzzle first.

mod experiment;

pub use experiment::{
    experiment_report, BudgetRow, ExperimentEvent, ExperimentRequest, GridPuzzleName, GridRow,
};

use crate::data::{SUDOKU_EASY, SUDOKU_HARDEST11};
use crate::event::{Emit, EventKind, ItemProgress, JobEvent, Signature};
use crate::limits::Limits;
use crate::options::choice_name;
use crate::shard::{Items, Plan, Shard};
use anyhow::{bail, Context, Result};
use clap::ValueEnum;
use puzzle_engine::Rng;
use puzzle_engine::WorkCounter;
use puzzle_sudoku::generator::generate as generate_puzzle;
use puzzle_sudoku::mcts::{
    solve_mcts, solve_mcts_watched, CellChoice, MctsSudokuConfig, PlayoutKind, Selection,
};
use puzzle_sudoku::{parse_puzzle, parse_puzzles, solve_exact, ExactLimits, Grid, ParsedPuzzle};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The solvers.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum AlgorithmName {
    /// The thesis's MCTS solver (chapter 4), with the most-constrained cell by default.
    #[default]
    #[schemars(title = "MCTS (the thesis's solver)")]
    Mcts,
    /// Constraint propagation and search; proves uniqueness.
    #[schemars(title = "Exact: propagation and search (proves uniqueness)")]
    Exact,
}

/// MCTS cell choices, for playouts (thesis 4.3.3) and for the tree's expansion (4.3.4 leaves
/// it open); `mrv` is an extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum CellName {
    /// A random empty cell.
    Random,
    /// Prefer the row, column and box of the previous move.
    Pseudo,
    /// The most constrained cell (beyond the thesis).
    Mrv,
}

/// MCTS selection formulas (thesis 4.3.5).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum SelectionName {
    /// UCB1 with UCTK.
    #[default]
    Ucb1,
    /// UCB1-Tuned.
    UcbTuned,
}

/// Named settings of [`SolveRequest`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum PresetName {
    /// The Czech thesis's exact MCTS: random playouts, a random cell for expansion, UCB1 with
    /// UCTK 0.2, no AMAF, 10 visits before expansion (solves none of top95,
    /// `docs/benchmarks/sudoku.md` 2.3).
    #[schemars(title = "The thesis's settings (random cells)")]
    Thesis,
}

/// The default MCTS playout and tree cell choice, the strongest measured (top95: 95/95,
/// forum-hardest-1106: 375/375; `docs/benchmarks/sudoku.md` 2.1).
pub const DEFAULT_CELL: CellName = CellName::Mrv;

/// What the exact-solver benchmark solves for.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum BenchModeName {
    /// Stop at the first solution.
    #[default]
    First,
    /// Up to two solutions (proves uniqueness).
    Unique,
}
/// The most simulations per tree (or simulation limit) a request may ask for.
pub const MAX_SIMULATIONS: u64 = 10_000_000_000;
/// The most restarts a solve may ask for.
pub const MAX_RESTARTS: u64 = 1_000_000;
/// The most puzzles one generation may ask for.
pub const MAX_GENERATE: u64 = 1_000_000;

/// Solve the puzzles of one text (`puzzle solve sudoku`, job `sudoku_solve`). Every field but
/// the text is an option of the command (the same name, `-` for `_`) with the same default:
/// MCTS with the most-constrained cell for the tree and the playouts, UCB1 0.2, 100,000
/// simulations per tree, 9 restarts, one thread. `preset: thesis` gives the thesis's settings.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema, clap::Args)]
#[serde(default)]
// The exact solver reads no budget setting.
#[schemars(transform = crate::options::flattened(
    &["seed", "time_limit", "iterations", "threads", "max_nodes"],
    "x-when",
    serde_json::json!({"algo": ["mcts"]}),
))]
pub struct SolveRequest {
    /// The puzzles: one per line (81 symbols, `.` or `0` empty), or grids of 9 lines.
    #[arg(skip)]
    pub puzzles: String,
    /// Where the text came from, named in parse errors (a file path; `input` by default).
    #[arg(skip = String::from("input"))]
    pub source: String,
    /// Solver.
    #[arg(long, value_enum, default_value_t = AlgorithmName::Mcts)]
    pub algo: AlgorithmName,
    /// Named settings (default none: the strongest configuration). The preset gives the
    /// playout and tree cell choice a request leaves out; the other defaults are already the
    /// thesis's.
    #[arg(long, value_enum)]
    #[schemars(title = "Preset", extend("x-when" = {"algo": ["mcts"]}))]
    pub preset: Option<PresetName>,
    /// MCTS playout cell choice [default: mrv; random with the thesis preset].
    #[arg(long, value_enum)]
    #[schemars(title = "Playout cell choice", extend("x-when" = {"algo": ["mcts"]}))]
    pub playout: Option<CellName>,
    /// MCTS selection formula.
    #[arg(long, value_enum, default_value_t = SelectionName::Ucb1)]
    #[schemars(title = "Selection formula", extend("x-when" = {"algo": ["mcts"]}))]
    pub selection: SelectionName,
    /// UCB1 exploration constant UCTK (the thesis tried 0.1, 0.2, 0.4; 0.2 was best).
    #[arg(long, value_name = "K", default_value_t = 0.2)]
    #[schemars(range(min = 0.0, max = 100.0))]
    #[schemars(title = "UCTK", extend("x-when" = {"algo": ["mcts"], "selection": ["ucb1"]}))]
    pub uctk: f64,
    /// Turn on α-AMAF with this α (0.5 in the thesis); widens expansion to a whole unit.
    #[arg(long, value_name = "ALPHA")]
    #[schemars(range(min = 0.0, max = 1.0))]
    #[schemars(title = "α-AMAF with α (empty: off)", extend("x-when" = {"algo": ["mcts"]}))]
    pub amaf: Option<f64>,
    /// Simulations per MCTS tree; the search restarts with a fresh tree after this many.
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    #[schemars(range(min = 1, max = 10_000_000_000u64))]
    #[schemars(title = "Simulations per tree", extend("x-when" = {"algo": ["mcts"]}))]
    pub max_simulations: u64,
    /// Restarts allowed after the first tree (total budget: N × (R + 1) simulations).
    #[arg(long, value_name = "R", default_value_t = 9)]
    #[schemars(range(max = 1_000_000))]
    #[schemars(title = "Restarts", extend("x-when" = {"algo": ["mcts"]}))]
    pub restarts: u64,
    /// Tree expansion cell choice (the thesis leaves it open) [default: mrv; random with the
    /// thesis preset].
    #[arg(long, value_enum)]
    #[schemars(title = "Tree cell choice", extend("x-when" = {"algo": ["mcts"], "amaf": [null]}))]
    pub tree_cell: Option<CellName>,
    /// Visits of a leaf before it is expanded (10 in the thesis).
    #[arg(long, value_name = "V", default_value_t = 10)]
    #[schemars(title = "Visits before expansion", extend("x-when" = {"algo": ["mcts"]}))]
    pub visits_before_expand: u32,
    /// Budget per puzzle: `iterations` caps the simulations, `time_limit` the time (default
    /// none: the simulations bound the run), `max_nodes` the tree (default the engine's),
    /// seed 1, one thread.
    #[serde(flatten)]
    #[arg(skip)]
    pub limits: Limits,
    /// Sharding and resuming over the puzzles (items: the puzzles in order).
    #[serde(flatten)]
    #[arg(skip)]
    pub items: Items,
}

impl Default for SolveRequest {
    fn default() -> Self {
        crate::options::defaults()
    }
}

/// One solved (or not) puzzle: the `puzzle solve sudoku --json` line.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SolveRecord {
    /// 1-based index of the puzzle in the text.
    pub index: usize,
    /// The puzzle (one line, `.` empty).
    pub puzzle: String,
    /// A solution was found and verified.
    pub solved: bool,
    /// The solution (81 digits), or "" when none was found.
    pub solution: String,
    /// MCTS: simulations over all restarts; exact: guesses.
    pub simulations: u64,
    /// MCTS restarts (0 for exact).
    pub restarts: u64,
    /// Wall time for this puzzle.
    pub time_s: f64,
    /// The solver used (`mcts` or `exact`).
    pub algo: String,
    /// Exact solver only: solutions found, up to 2 (2 means "not unique").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solutions: Option<usize>,
    /// Exact solver only: branches tried.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub guesses: Option<u64>,
    /// The line of the text where the puzzle starts.
    pub line: usize,
    /// The grid to show: the solution, or the puzzle when unsolved (not serialized).
    #[serde(skip, default = "no_grid")]
    pub grid: Grid,
    /// The puzzle's number in the run (1-based; the same as `index`).
    #[serde(default)]
    pub item: usize,
    /// The shard that solved it (`"2/4"`), when the run was sharded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
}

/// The grid of a record read back (replaced by the puzzle or its checked solution).
fn no_grid() -> Grid {
    Grid::empty(3)
}

/// The closing record of a solve run.
#[derive(Clone, Debug, Serialize)]
pub struct SolveSummary {
    /// Puzzles in the text.
    pub puzzles: usize,
    /// Puzzles solved.
    pub solved: usize,
    /// The solver used.
    pub algo: String,
    /// Mean simulations (exact: guesses) per solved puzzle (0 when none was solved).
    pub mean_simulations: f64,
    /// The run was stopped before every puzzle was attempted.
    pub interrupted: bool,
}

/// How often a running MCTS solve reports [`SearchProgress`].
pub const PROGRESS_EVERY: Duration = Duration::from_millis(200);

/// Live progress of one puzzle's MCTS search (at the start, then every [`PROGRESS_EVERY`]).
#[derive(Clone, Debug, Serialize)]
pub struct SearchProgress {
    /// 1-based index of the puzzle being searched.
    pub puzzle: usize,
    /// Simulations so far (all threads and restarts).
    pub simulations: u64,
    /// Restarts so far (simulations done ÷ `max_simulations` per tree; exact for one thread).
    pub restarts: u64,
    /// The deepest fill any playout reached: cells filled, clues included.
    pub best_filled: usize,
    /// Cells of the grid (81 for 9×9).
    pub cells: usize,
    /// Seconds since this puzzle's search started.
    pub elapsed_s: f64,
}

/// The events of a solve run.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum SolveEvent {
    /// Puzzles done so far.
    Progress(ItemProgress),
    /// The MCTS search of one puzzle while it runs.
    Search(SearchProgress),
    /// One puzzle's result.
    Puzzle(SolveRecord),
    /// The end.
    Summary(SolveSummary),
}

impl JobEvent for SolveEvent {
    fn kind(&self) -> EventKind {
        match self {
            SolveEvent::Progress(_) | SolveEvent::Search(_) => EventKind::Progress,
            SolveEvent::Puzzle(_) => EventKind::Result,
            SolveEvent::Summary(_) => EventKind::Summary,
        }
    }
}

/// Check that `value` (the field `field`) is one of `choices`.
/// Check a simulation count named `field`: 1 to [`MAX_SIMULATIONS`].
fn check_simulations(field: &str, v: u64) -> Result<()> {
    if !(1..=MAX_SIMULATIONS).contains(&v) {
        bail!("{field} must be 1 to 10^10 simulations, not {v}");
    }
    Ok(())
}

/// Parse `text` as puzzles, naming `source` in the error (the error keeps its line and column:
/// downcast to [`puzzle_sudoku::ParseError`]); an empty text is an error too.
pub fn parse_puzzle_text(text: &str, source: &str) -> Result<Vec<ParsedPuzzle>> {
    let puzzles =
        parse_puzzles(text).map_err(|e| anyhow::Error::new(e).context(source.to_string()))?;
    if puzzles.is_empty() {
        bail!("{source}: no puzzle in the file");
    }
    Ok(puzzles)
}

/// The MCTS solver's settings for a request, after checking every field (thesis 4.3: playout,
/// selection, AMAF, restarts).
pub fn mcts_config(req: &SolveRequest, stop: &Arc<AtomicBool>) -> Result<MctsSudokuConfig> {
    req.limits.validate()?;
    crate::options::check_ranges(req)?;
    if !req.uctk.is_finite() {
        bail!("uctk must be between 0 and 100, not {}", req.uctk);
    }
    // `thesis`, the only preset (chapter 4.3): random playouts, a random cell for expansion.
    let preset_cell = match req.preset {
        None => DEFAULT_CELL,
        Some(PresetName::Thesis) => CellName::Random,
    };
    let playout = match req.playout.unwrap_or(preset_cell) {
        CellName::Random => PlayoutKind::Random,
        CellName::Pseudo => PlayoutKind::PseudoRandom,
        CellName::Mrv => PlayoutKind::MostConstrained,
    };
    let selection = match req.selection {
        SelectionName::Ucb1 => Selection::Ucb1 { uctk: req.uctk },
        SelectionName::UcbTuned => Selection::Ucb1Tuned,
    };
    let tree_cell = match req.tree_cell.unwrap_or(preset_cell) {
        CellName::Random => CellChoice::Random,
        CellName::Pseudo => CellChoice::PseudoRandom,
        CellName::Mrv => CellChoice::MostConstrained,
    };
    check_simulations("max_simulations", req.max_simulations)?;
    if req.restarts > MAX_RESTARTS {
        bail!("restarts must be at most 10^6, not {}", req.restarts);
    }
    let total = req.max_simulations.saturating_mul(req.restarts + 1);
    let limits = &req.limits;
    Ok(MctsSudokuConfig {
        playout,
        selection,
        amaf: req.amaf,
        tree_cell,
        visits_before_expand: req.visits_before_expand,
        restart_after: Some(req.max_simulations),
        max_simulations: limits.iterations.map_or(total, |i| i.min(total)),
        time_limit: limits.time_limit.map(Duration::from_secs_f64),
        max_nodes: limits.max_nodes.unwrap_or(puzzle_engine::DEFAULT_MAX_NODES),
        seed: limits.seed_or(1),
        threads: limits.threads_or(1),
        stop: Some(stop.clone()),
    })
}

/// A receiver of events callable from the search's progress thread.
type Send<'a> = &'a (dyn Fn(SolveEvent) -> Result<()> + Sync);

/// Run MCTS on one puzzle, reporting [`SearchProgress`] through `send` while it runs.
fn watched_mcts(
    index: usize,
    p: &ParsedPuzzle,
    cfg: &MctsSudokuConfig,
    send: Send<'_>,
) -> Result<puzzle_sudoku::mcts::MctsSolve> {
    let counter = Arc::new(WorkCounter::new());
    let best_filled = AtomicUsize::new(p.grid.clue_count());
    let failed = Mutex::new(None::<anyhow::Error>);
    let started = Instant::now();
    let per_tree = cfg.restart_after.unwrap_or(u64::MAX).max(1);
    let report = || {
        let simulations = counter.iterations();
        let event = SolveEvent::Search(SearchProgress {
            puzzle: index,
            simulations,
            restarts: simulations / per_tree,
            best_filled: best_filled.load(Ordering::Relaxed),
            cells: p.grid.len(),
            elapsed_s: started.elapsed().as_secs_f64(),
        });
        if let Err(e) = send(event) {
            // The receiver is gone: stop the search as a closed output would.
            if let Some(stop) = &cfg.stop {
                stop.store(true, Ordering::Relaxed);
            }
            failed
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get_or_insert(e);
        }
    };
    let on_fill = |filled: usize| {
        best_filled.fetch_max(filled, Ordering::Relaxed);
    };
    report();
    let result = crate::ticker::with_ticks(
        PROGRESS_EVERY,
        || {
            report();
            true
        },
        || solve_mcts_watched(&p.grid, cfg, Some(counter.clone()), Some(&on_fill)),
    );
    if let Some(e) = failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    result.map_err(|e| anyhow::anyhow!("puzzle {index} (line {}): {e}", p.line))
}

/// Solve one puzzle (the `index`-th) and verify the solution.
fn solve_one(
    index: usize,
    p: &ParsedPuzzle,
    exact: bool,
    cfg: &MctsSudokuConfig,
    send: Send<'_>,
) -> Result<SolveRecord> {
    let start = Instant::now();
    let mut record = SolveRecord {
        index,
        puzzle: p.grid.to_line(),
        solved: false,
        solution: String::new(),
        simulations: 0,
        restarts: 0,
        time_s: 0.0,
        algo: "mcts".into(),
        solutions: None,
        guesses: None,
        line: p.line,
        grid: p.grid.clone(),
        item: index,
        shard: None,
    };
    let solution: Option<Grid> = if exact {
        record.algo = "exact".into();
        let o = solve_exact(&p.grid, ExactLimits::default());
        record.solutions = Some(o.solutions);
        record.guesses = Some(o.guesses);
        record.simulations = o.guesses;
        if o.aborted {
            bail!(
                "puzzle {index} (line {}): the exact solver's guess budget ran out",
                p.line
            );
        }
        o.solution
    } else {
        let r = watched_mcts(index, p, cfg, send)?;
        record.simulations = r.simulations;
        record.restarts = r.restarts;
        r.solution
    };
    record.time_s = start.elapsed().as_secs_f64();
    if let Some(s) = solution {
        // Verified before it is emitted.
        if !s.solves(&p.grid) {
            bail!("internal error: puzzle {index} solution does not verify");
        }
        record.solved = true;
        record.solution = s.to_line();
        record.grid = s;
    }
    Ok(record)
}

/// Run a [`SolveRequest`]: a `Puzzle` event per puzzle (with `Progress`), then the `Summary`.
pub fn solve(
    req: &SolveRequest,
    stop: &Arc<AtomicBool>,
    emit: Emit<'_, SolveEvent>,
) -> Result<SolveSummary> {
    let algo = req.algo;
    let cfg = mcts_config(req, stop)?;
    let puzzles = parse_puzzle_text(&req.puzzles, &req.source)?;
    let emit = Mutex::new(emit);
    let send = |event: SolveEvent| -> Result<()> {
        let mut guard = emit.lock().unwrap_or_else(|e| e.into_inner());
        (*guard)(event)
    };
    let emit = send;
    let started = Instant::now();
    req.items.check(puzzles.len())?;
    let (mut solved, mut done, mut total_sims, mut taken) = (0usize, 0usize, 0u64, 0usize);
    for (k, p) in puzzles.iter().enumerate() {
        let item = k + 1;
        let r = match req.items.plan(item) {
            Plan::Skip => continue,
            Plan::Done(records) => {
                taken += 1;
                let [record] = records else {
                    bail!(
                        "item {item}: {} records where one is expected",
                        records.len()
                    );
                };
                let mut r: SolveRecord = req.items.decode(item, record)?;
                if r.index != item || r.puzzle != p.grid.to_line() {
                    bail!(
                        "item {item} is puzzle {} {}, but this run's item {item} is {}: the \
                         records come from a different configuration",
                        r.index,
                        r.puzzle,
                        p.grid.to_line()
                    );
                }
                r.grid = p.grid.clone();
                if r.solved {
                    match parse_puzzle(&r.solution) {
                        Ok(s) if s.solves(&p.grid) => r.grid = s,
                        _ => bail!("item {item}: the recorded solution does not solve the puzzle"),
                    }
                }
                r
            }
            Plan::Run => {
                taken += 1;
                if stop.load(Ordering::Relaxed) {
                    continue;
                }
                let mut r = solve_one(item, p, algo == AlgorithmName::Exact, &cfg, &emit)?;
                r.shard = req.items.shard;
                r
            }
        };
        if r.solved {
            solved += 1;
            total_sims += r.simulations;
        }
        done += 1;
        emit(SolveEvent::Puzzle(r))?;
        emit(SolveEvent::Progress(ItemProgress {
            done: done as u64,
            total: puzzles.len() as u64,
            solved: solved as u64,
            label: "sudoku".into(),
            elapsed_s: started.elapsed().as_secs_f64(),
        }))?;
    }
    let summary = SolveSummary {
        puzzles: taken,
        solved,
        algo: crate::options::choice_name(&algo),
        mean_simulations: total_sims as f64 / solved.max(1) as f64,
        interrupted: done < taken || stop.load(Ordering::Relaxed),
    };
    emit(SolveEvent::Summary(summary.clone()))?;
    Ok(summary)
}

/// Generate minimal unique-solution puzzles (`puzzle generate sudoku`).
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema, clap::Args)]
#[serde(default)]
pub struct GenerateRequest {
    /// How many puzzles.
    #[arg(long, value_name = "N", default_value_t = 1)]
    #[schemars(range(min = 1, max = 1_000_000))]
    pub count: u64,
    /// Box size n (the grid is n²×n²; 3 is the classic 9×9).
    #[arg(long, value_name = "n", default_value_t = 3)]
    #[schemars(range(min = 2, max = 4))]
    pub box_size: usize,
    /// Only the seed is used (default 1): puzzle i uses the stream seed (seed, i).
    #[serde(flatten)]
    #[arg(skip)]
    pub limits: Limits,
}

impl Default for GenerateRequest {
    fn default() -> Self {
        crate::options::defaults()
    }
}

/// One generated puzzle: the `puzzle generate sudoku --json` line.
#[derive(Clone, Debug, Serialize)]
pub struct GeneratedRecord {
    /// 1-based number of the puzzle.
    pub index: u64,
    /// The puzzle (one line, `.` empty).
    pub puzzle: String,
    /// Its unique solution (checked by the exact solver).
    pub solution: String,
    /// Clues of the puzzle.
    pub clues: usize,
    /// Guesses the exact solver needed (the difficulty estimate).
    pub guesses: u64,
    /// The difficulty class of `guesses`.
    pub difficulty: String,
    /// The seed that generates this puzzle alone.
    pub seed: u64,
}

/// The closing record of a generation.
#[derive(Clone, Debug, Serialize)]
pub struct GenerateSummary {
    /// Puzzles generated.
    pub generated: u64,
    /// The run was stopped before `count` puzzles were generated.
    pub interrupted: bool,
}

/// The events of a generation.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum GenerateEvent {
    /// Puzzles generated so far.
    Progress(ItemProgress),
    /// One generated puzzle.
    Puzzle(GeneratedRecord),
    /// The end.
    Summary(GenerateSummary),
}

impl JobEvent for GenerateEvent {
    fn kind(&self) -> EventKind {
        match self {
            GenerateEvent::Progress(_) => EventKind::Progress,
            GenerateEvent::Puzzle(_) => EventKind::Result,
            GenerateEvent::Summary(_) => EventKind::Summary,
        }
    }
}

/// Run a [`GenerateRequest`]: a `Puzzle` event per puzzle, each checked unique by the exact
/// solver, then the `Summary`.
pub fn generate(
    req: &GenerateRequest,
    stop: &Arc<AtomicBool>,
    emit: Emit<'_, GenerateEvent>,
) -> Result<GenerateSummary> {
    req.limits.validate()?;
    if !(1..=MAX_GENERATE).contains(&req.count) {
        bail!("count must be 1 to 10^6 puzzles, not {}", req.count);
    }
    if !(2..=4).contains(&req.box_size) {
        bail!("box_size must be 2, 3 or 4, not {}", req.box_size);
    }
    let seed = req.limits.seed_or(1);
    let started = Instant::now();
    let mut generated = 0;
    for i in 0..req.count {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let s = Rng::stream_seed(seed, i);
        let g = generate_puzzle(req.box_size, &mut Rng::new(s))
            .context("the exact solver's budget ran out while generating")?;
        let check = solve_exact(&g.puzzle, ExactLimits::default());
        if !check.is_unique() || check.solution.as_ref() != Some(&g.solution) {
            bail!("internal error: generated puzzle is not unique");
        }
        generated += 1;
        emit(GenerateEvent::Puzzle(GeneratedRecord {
            index: i + 1,
            puzzle: g.puzzle.to_line(),
            solution: g.solution.to_line(),
            clues: g.puzzle.clue_count(),
            guesses: g.guesses,
            difficulty: g.difficulty.name().to_string(),
            seed: s,
        }))?;
        emit(GenerateEvent::Progress(ItemProgress {
            done: generated,
            total: req.count,
            solved: generated,
            label: "generating".into(),
            elapsed_s: started.elapsed().as_secs_f64(),
        }))?;
    }
    let summary = GenerateSummary {
        generated,
        interrupted: generated < req.count,
    };
    emit(GenerateEvent::Summary(summary.clone()))?;
    Ok(summary)
}

/// Time the exact solver over a puzzle text (`puzzle bench sudoku`): puzzles per second, best
/// of `repeat` passes.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema, clap::Args)]
#[serde(default)]
pub struct BenchRequest {
    /// The puzzles (one per line).
    #[arg(skip)]
    pub puzzles: String,
    /// Where the text came from: named in parse errors and the record's `file`.
    #[arg(skip = String::from("input"))]
    pub source: String,
    /// What to solve for.
    #[arg(long, value_enum, default_value_t = BenchModeName::First)]
    pub mode: BenchModeName,
    /// Passes over the whole text (the best pass counts).
    #[arg(long, value_name = "K", default_value_t = 3)]
    #[schemars(range(min = 1, max = 1000))]
    pub repeat: u64,
    /// Validated but unused: the benchmark runs whole passes (a stop ends it after the
    /// current pass).
    #[serde(flatten)]
    #[arg(skip)]
    pub limits: Limits,
}

impl Default for BenchRequest {
    fn default() -> Self {
        crate::options::defaults()
    }
}

/// The benchmark's result: the `puzzle bench sudoku --json` line.
#[derive(Clone, Debug, Serialize)]
pub struct BenchRecord {
    /// The request's `source` (the file).
    pub file: String,
    /// Puzzles per pass.
    pub puzzles: usize,
    /// `first` or `unique`.
    pub mode: String,
    /// Puzzles per second of wall time (best pass).
    pub puzzles_per_s: f64,
    /// Puzzles per second of this thread's on-CPU time (best pass; Linux only): robust when
    /// the machine is shared.
    pub puzzles_per_cpu_s: Option<f64>,
    /// The best pass's wall time.
    pub best_pass_s: f64,
    /// Exact-solver guesses per puzzle.
    pub guesses_per_puzzle: f64,
    /// Puzzles whose solution verified.
    pub solved: usize,
}

/// The events of a benchmark.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum BenchEvent {
    /// Passes done (`done` of `total`).
    Progress(ItemProgress),
    /// The result.
    Summary(BenchRecord),
}

impl JobEvent for BenchEvent {
    fn kind(&self) -> EventKind {
        match self {
            BenchEvent::Progress(_) => EventKind::Progress,
            BenchEvent::Summary(_) => EventKind::Summary,
        }
    }
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

/// Run a [`BenchRequest`]: a `Progress` event per pass, then the result as the `Summary`.
pub fn bench(
    req: &BenchRequest,
    stop: &Arc<AtomicBool>,
    emit: Emit<'_, BenchEvent>,
) -> Result<BenchRecord> {
    req.limits.validate()?;
    let mode = choice_name(&req.mode);
    if !(1..=1000).contains(&req.repeat) {
        bail!("repeat must be 1 to 1000 passes, not {}", req.repeat);
    }
    let puzzles = parse_puzzle_text(&req.puzzles, &req.source)?;
    let limits = ExactLimits {
        max_solutions: if mode == "first" { 1 } else { 2 },
        ..ExactLimits::default()
    };
    // 9×9 puzzles go straight to the band solver (as a library user would call it); the
    // solutions are kept and verified after the timed passes.
    let nine: Option<Vec<[u8; 81]>> = puzzles
        .iter()
        .map(|p| <[u8; 81]>::try_from(p.grid.cells()).ok())
        .collect();
    let started = Instant::now();
    let mut best = f64::INFINITY;
    let mut best_cpu = f64::INFINITY;
    let mut guesses = 0u64;
    let mut solutions: Vec<Option<Grid>> = Vec::new();
    for pass in 0..req.repeat {
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
        emit(BenchEvent::Progress(ItemProgress {
            done: pass + 1,
            total: req.repeat,
            solved: pass + 1,
            label: format!("{} ({mode})", req.source),
            elapsed_s: started.elapsed().as_secs_f64(),
        }))?;
        if stop.load(Ordering::Relaxed) {
            break;
        }
    }
    let solved = puzzles
        .iter()
        .zip(&solutions)
        .filter(|(p, s)| s.as_ref().is_some_and(|s| s.solves(&p.grid)))
        .count();
    let record = BenchRecord {
        file: req.source.clone(),
        puzzles: puzzles.len(),
        mode: mode.to_string(),
        puzzles_per_s: puzzles.len() as f64 / best.max(1e-9),
        puzzles_per_cpu_s: best_cpu
            .is_finite()
            .then(|| puzzles.len() as f64 / best_cpu.max(1e-9)),
        best_pass_s: best,
        guesses_per_puzzle: guesses as f64 / puzzles.len() as f64,
        solved,
    };
    emit(BenchEvent::Summary(record.clone()))?;
    Ok(record)
}

/// Sudoku's part of the `puzzle bench` signature: the exact solver on Norvig's hardest 11
/// (work: guesses) and a fixed-seed MCTS solve of the easy puzzle (work: simulations).
pub fn signature() -> Result<Vec<Signature>> {
    let mut lines = Vec::new();
    let start = Instant::now();
    let hardest = parse_puzzle_text(SUDOKU_HARDEST11, "bundled hardest11")?;
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
    let grid = parse_puzzle(SUDOKU_EASY).map_err(|e| anyhow::anyhow!("{e}"))?;
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

impl crate::registry::Job for SolveRequest {
    const NAME: &'static str = "sudoku_solve";
    const TITLE: &'static str = "Solve Sudoku puzzles (MCTS or exact)";
    const PRINTS_SUMMARY: bool = false;
    type Event = SolveEvent;

    fn check(&self) -> Result<()> {
        mcts_config(self, &Arc::new(AtomicBool::new(false))).map(drop)
    }

    crate::registry::job_fields!(limits, items);

    crate::registry::job_run!(solve);

    fn signature() -> Result<Vec<Signature>> {
        signature()
    }

    fn example() -> Self {
        SolveRequest {
            puzzles: "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n".into(),
            limits: Limits {
                time_limit: Some(5.0),
                ..Limits::default()
            },
            ..SolveRequest::default()
        }
    }
}

impl crate::registry::Job for GenerateRequest {
    const NAME: &'static str = "sudoku_generate";
    const READS: &'static [crate::limits::Limit] = &[crate::limits::Limit::Seed];
    const TITLE: &'static str = "Generate Sudoku puzzles with a unique solution";
    type Event = GenerateEvent;

    crate::registry::job_fields!(limits);

    crate::registry::job_run!(generate);

    fn example() -> Self {
        GenerateRequest {
            count: 1,
            ..GenerateRequest::default()
        }
    }
}

impl crate::registry::Job for BenchRequest {
    const NAME: &'static str = "sudoku_bench";
    const READS: &'static [crate::limits::Limit] = &[];
    const TITLE: &'static str = "Time the exact Sudoku solver";
    type Event = BenchEvent;

    crate::registry::job_fields!(limits);

    crate::registry::job_run!(bench);

    fn example() -> Self {
        BenchRequest {
            puzzles: "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n".into(),
            repeat: 1,
            ..BenchRequest::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::SUDOKU_TOP95;
    use crate::JobRequest;

    /// An independent check: `solution` is 81 digits whose rows, columns and boxes are 1..9,
    /// and it keeps every clue of `puzzle`.
    pub(super) fn assert_completes(solution: &str, puzzle: &str) {
        let s: Vec<u32> = solution.chars().map(|c| c.to_digit(10).unwrap()).collect();
        assert_eq!(s.len(), 81, "{solution}");
        for (p, &v) in puzzle.chars().zip(&s) {
            if let Some(d) = p.to_digit(10).filter(|&d| d != 0) {
                assert_eq!(d, v, "a clue changed in {solution}");
            }
        }
        for u in 0..9 {
            let (mut row, mut col, mut bx) = (0u32, 0u32, 0u32);
            for k in 0..9 {
                row |= 1 << s[u * 9 + k];
                col |= 1 << s[k * 9 + u];
                bx |= 1 << s[(u / 3 * 3 + k / 3) * 9 + u % 3 * 3 + k % 3];
            }
            assert_eq!((row, col, bx), (0x3FE, 0x3FE, 0x3FE), "unit {u}");
        }
    }

    fn run_solve(req: &SolveRequest, stop: bool) -> Result<(Vec<SolveEvent>, SolveSummary)> {
        let mut events = Vec::new();
        let stop = Arc::new(AtomicBool::new(stop));
        let summary = solve(req, &stop, &mut |e| {
            events.push(e);
            Ok(())
        })?;
        Ok((events, summary))
    }

    fn records(events: &[SolveEvent]) -> Vec<&SolveRecord> {
        events
            .iter()
            .filter_map(|e| match e {
                SolveEvent::Puzzle(r) => Some(r),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn exact_solves_hardest11_and_the_summary_counts_the_records() {
        let req = SolveRequest {
            puzzles: SUDOKU_HARDEST11.into(),
            algo: AlgorithmName::Exact,
            ..SolveRequest::default()
        };
        let (events, summary) = run_solve(&req, false).unwrap();
        let recs = records(&events);
        assert_eq!(recs.len(), 11);
        for (i, r) in recs.iter().enumerate() {
            assert_eq!(r.index, i + 1);
            assert!(r.solved);
            assert_eq!(r.solutions, Some(1));
            assert_eq!(r.algo, "exact");
            assert_completes(&r.solution, &r.puzzle);
            assert_eq!(r.grid.to_line(), r.solution);
        }
        assert_eq!(summary.puzzles, 11);
        assert_eq!(summary.solved, recs.iter().filter(|r| r.solved).count());
        let guesses: u64 = recs.iter().map(|r| r.simulations).sum();
        assert_eq!(summary.mean_simulations, guesses as f64 / 11.0);
        assert!(!summary.interrupted);
        assert!(matches!(events.last(), Some(SolveEvent::Summary(_))));
        // The record is the CLI's JSON line: the same keys, the grid left out.
        let json = serde_json::to_value(SolveEvent::Puzzle(recs[0].clone())).unwrap();
        let keys: Vec<&str> = json
            .as_object()
            .unwrap()
            .keys()
            .map(|k| k.as_str())
            .collect();
        for key in [
            "index",
            "puzzle",
            "solved",
            "solution",
            "simulations",
            "restarts",
            "time_s",
            "algo",
            "solutions",
            "guesses",
            "line",
            "item",
        ] {
            assert!(keys.contains(&key), "{key} missing from {json}");
        }
        assert_eq!(keys.len(), 12, "{json}");
    }

    #[test]
    fn the_default_is_the_most_constrained_cell_and_the_thesis_preset_restores_the_thesis() {
        let stop = Arc::new(AtomicBool::new(false));
        let cfg = mcts_config(&SolveRequest::default(), &stop).unwrap();
        assert_eq!(cfg.playout, PlayoutKind::MostConstrained);
        assert_eq!(cfg.tree_cell, CellChoice::MostConstrained);
        let thesis = SolveRequest {
            preset: Some(PresetName::Thesis),
            ..SolveRequest::default()
        };
        let cfg = mcts_config(&thesis, &stop).unwrap();
        assert_eq!(cfg.playout, PlayoutKind::Random);
        assert_eq!(cfg.tree_cell, CellChoice::Random);
        assert_eq!(cfg.selection, Selection::Ucb1 { uctk: 0.2 });
        assert_eq!((cfg.amaf, cfg.visits_before_expand), (None, 10));
        assert_eq!(cfg.threads, 1);
        // A field given beside the preset wins over it.
        let pseudo = SolveRequest {
            playout: Some(CellName::Pseudo),
            ..thesis.clone()
        };
        let cfg = mcts_config(&pseudo, &stop).unwrap();
        assert_eq!(cfg.playout, PlayoutKind::PseudoRandom);
        assert_eq!(cfg.tree_cell, CellChoice::Random);
        // The request's JSON takes the preset by name, and refuses an unknown one.
        let req: SolveRequest = serde_json::from_str(r#"{"preset": "thesis"}"#).unwrap();
        assert_eq!(req.preset, Some(PresetName::Thesis));
        let err = serde_json::from_str::<SolveRequest>(r#"{"preset": "paper"}"#)
            .unwrap_err()
            .to_string();
        assert!(err.contains("paper") && err.contains("thesis"), "{err}");
    }

    #[test]
    fn the_default_mcts_solves_hardest11() {
        let req = SolveRequest {
            puzzles: SUDOKU_HARDEST11.into(),
            ..SolveRequest::default()
        };
        let (_, summary) = run_solve(&req, false).unwrap();
        assert_eq!(summary.solved, 11);
    }

    #[test]
    fn mcts_solves_the_easy_puzzle_within_its_iteration_budget() {
        let req = SolveRequest {
            puzzles: SUDOKU_EASY.into(),
            playout: Some(CellName::Pseudo),
            max_simulations: 5_000,
            restarts: 1,
            limits: Limits {
                seed: Some(9),
                ..Limits::default()
            },
            ..SolveRequest::default()
        };
        let (events, summary) = run_solve(&req, false).unwrap();
        let recs = records(&events);
        assert_eq!(recs.len(), 1);
        let r = recs[0];
        assert!(r.simulations <= 10_000, "{} simulations", r.simulations);
        if r.solved {
            assert_completes(&r.solution, SUDOKU_EASY);
            assert_eq!(summary.mean_simulations, r.simulations as f64);
        } else {
            assert_eq!(r.simulations, 10_000);
        }
        assert_eq!(summary.solved, usize::from(r.solved));
        // Live progress came first: simulations within the budget, the deepest fill between
        // the clues and the whole grid.
        let searches: Vec<&SearchProgress> = events
            .iter()
            .filter_map(|e| match e {
                SolveEvent::Search(s) => Some(s),
                _ => None,
            })
            .collect();
        assert!(!searches.is_empty());
        assert!(matches!(events[0], SolveEvent::Search(_)));
        for s in &searches {
            assert_eq!((s.puzzle, s.cells), (1, 81));
            assert!(s.simulations <= 10_000 && s.restarts <= 1);
            assert!((32..=81).contains(&s.best_filled), "{}", s.best_filled);
        }
        let json = serde_json::to_value(SolveEvent::Search(searches[0].clone())).unwrap();
        assert!(json.get("best_filled").is_some() && json.get("restarts").is_some());
        // The same seed gives the same run.
        let (again, _) = run_solve(&req, false).unwrap();
        assert_eq!(records(&again)[0].simulations, r.simulations);
        assert_eq!(records(&again)[0].solution, r.solution);
    }

    #[test]
    fn a_stopped_solve_ends_with_an_interrupted_summary() {
        let req = SolveRequest {
            puzzles: SUDOKU_HARDEST11.into(),
            ..SolveRequest::default()
        };
        let (events, summary) = run_solve(&req, true).unwrap();
        assert!(records(&events).is_empty());
        assert!(summary.interrupted);
        assert_eq!((summary.puzzles, summary.solved), (11, 0));
    }

    #[test]
    fn unknown_choices_are_refused_naming_the_field_value() {
        for (field, value) in [
            ("algo", "dfs"),
            ("playout", "smart"),
            ("selection", "ucb2"),
            ("tree_cell", "first"),
        ] {
            let json = serde_json::json!({ field: value });
            let err = serde_json::from_value::<SolveRequest>(json)
                .unwrap_err()
                .to_string();
            assert!(
                err.contains(value) && err.contains("expected"),
                "{field}: {err}"
            );
        }
    }

    #[test]
    fn bad_solve_requests_are_refused_naming_the_field() {
        let base = SolveRequest {
            puzzles: SUDOKU_EASY.into(),
            ..SolveRequest::default()
        };
        let cases: Vec<(SolveRequest, &str)> = vec![
            (
                SolveRequest {
                    uctk: -1.0,
                    ..base.clone()
                },
                "uctk",
            ),
            (
                SolveRequest {
                    uctk: f64::NAN,
                    ..base.clone()
                },
                "uctk",
            ),
            (
                SolveRequest {
                    amaf: Some(1.5),
                    ..base.clone()
                },
                "amaf",
            ),
            (
                SolveRequest {
                    max_simulations: 0,
                    ..base.clone()
                },
                "max_simulations",
            ),
            (
                SolveRequest {
                    restarts: 2_000_000,
                    ..base.clone()
                },
                "restarts",
            ),
            (
                SolveRequest {
                    limits: Limits {
                        threads: Some(0),
                        ..Limits::default()
                    },
                    ..base.clone()
                },
                "threads",
            ),
        ];
        for (req, field) in cases {
            let err = run_solve(&req, false).unwrap_err().to_string();
            assert!(err.contains(field), "{field}: {err}");
        }
    }

    #[test]
    fn parse_errors_keep_their_line_and_column() {
        let req = SolveRequest {
            puzzles: format!("{SUDOKU_EASY}\n{}\n", SUDOKU_EASY.replacen('.', "x", 1)),
            source: "mine.txt".into(),
            ..SolveRequest::default()
        };
        let err = run_solve(&req, false).unwrap_err();
        assert_eq!(err.to_string(), "mine.txt");
        let parse = err
            .downcast_ref::<puzzle_sudoku::ParseError>()
            .expect("the typed parse error");
        assert_eq!((parse.line, parse.column), (2, Some(1)));
        assert!(format!("{err:#}").starts_with("mine.txt: line 2, column 1"));
        let empty = SolveRequest {
            puzzles: "# nothing\n".into(),
            ..SolveRequest::default()
        };
        let err = run_solve(&empty, false).unwrap_err().to_string();
        assert!(err.contains("no puzzle"), "{err}");
    }

    #[test]
    fn generated_puzzles_are_unique_and_counted() {
        let req = GenerateRequest {
            count: 2,
            limits: Limits {
                seed: Some(5),
                ..Limits::default()
            },
            ..GenerateRequest::default()
        };
        let mut events = Vec::new();
        let stop = Arc::new(AtomicBool::new(false));
        let summary = generate(&req, &stop, &mut |e| {
            events.push(e);
            Ok(())
        })
        .unwrap();
        let puzzles: Vec<&GeneratedRecord> = events
            .iter()
            .filter_map(|e| match e {
                GenerateEvent::Puzzle(g) => Some(g),
                _ => None,
            })
            .collect();
        assert_eq!(puzzles.len(), 2);
        assert_eq!(summary.generated, 2);
        assert!(!summary.interrupted);
        for (i, g) in puzzles.iter().enumerate() {
            assert_eq!(g.index, i as u64 + 1);
            assert_eq!(g.seed, Rng::stream_seed(5, i as u64));
            assert_completes(&g.solution, &g.puzzle);
            let grid = parse_puzzle(&g.puzzle).unwrap();
            assert_eq!(grid.clue_count(), g.clues);
            let check = solve_exact(&grid, ExactLimits::default());
            assert!(check.is_unique());
        }
        for (count, box_size, field) in [(0, 3, "count"), (1, 5, "box_size")] {
            let bad = GenerateRequest {
                count,
                box_size,
                ..GenerateRequest::default()
            };
            let err = generate(&bad, &stop, &mut |_| Ok(())).unwrap_err();
            assert!(err.to_string().contains(field), "{err}");
        }
    }

    #[test]
    fn bench_solves_every_puzzle_of_a_pass() {
        let req = BenchRequest {
            puzzles: SUDOKU_HARDEST11.into(),
            source: "hardest11".into(),
            mode: BenchModeName::Unique,
            repeat: 2,
            ..BenchRequest::default()
        };
        let mut events = Vec::new();
        let stop = Arc::new(AtomicBool::new(false));
        let record = bench(&req, &stop, &mut |e| {
            events.push(e);
            Ok(())
        })
        .unwrap();
        assert_eq!((record.puzzles, record.solved), (11, 11));
        assert_eq!(record.file, "hardest11");
        assert_eq!(record.mode, "unique");
        assert!(record.puzzles_per_s > 0.0 && record.best_pass_s > 0.0);
        let passes = events
            .iter()
            .filter(|e| matches!(e, BenchEvent::Progress(_)))
            .count();
        assert_eq!(passes, 2);
        // The exact solver's guesses on hardest11 are the signature's work.
        let work = signature().unwrap()[0].work;
        assert_eq!(record.guesses_per_puzzle, work as f64 / 11.0);
        let bad = BenchRequest {
            puzzles: SUDOKU_TOP95.into(),
            repeat: 0,
            ..BenchRequest::default()
        };
        let err = bench(&bad, &stop, &mut |_| Ok(())).unwrap_err();
        assert!(err.to_string().contains("repeat"), "{err}");
        let err = serde_json::from_str::<BenchRequest>(r#"{"mode": "all"}"#).unwrap_err();
        assert!(err.to_string().contains("unknown variant `all`"), "{err}");
    }

    #[test]
    fn job_requests_run_from_json() {
        let json = serde_json::json!({
            "job": "sudoku_solve",
            "puzzles": SUDOKU_EASY,
            "algo": "exact",
        });
        let req: JobRequest = serde_json::from_value(json).unwrap();
        assert_eq!(req.name(), "sudoku_solve");
        let mut out = Vec::new();
        req.run(&Arc::new(AtomicBool::new(false)), &mut |kind, value| {
            out.push((kind, value));
            Ok(())
        })
        .unwrap();
        let results: Vec<_> = out
            .iter()
            .filter(|(k, _)| *k == EventKind::Result)
            .collect();
        assert_eq!(results.len(), 1);
        assert_eq!(results[0].1["solutions"], 1);
        assert_completes(results[0].1["solution"].as_str().unwrap(), SUDOKU_EASY);
        let (kind, summary) = out.last().unwrap();
        assert_eq!(*kind, EventKind::Summary);
        assert_eq!(summary["solved"], 1);

        let mut bad: JobRequest = serde_json::from_value(serde_json::json!({
            "job": "sudoku_bench", "puzzles": SUDOKU_EASY, "repeat": 1, "time_limit": 5
        }))
        .unwrap();
        assert_eq!(bad.limits_mut().time_limit, Some(5.0));
        bad.limits_mut().threads = Some(1000);
        let err = bad
            .run(&Arc::new(AtomicBool::new(false)), &mut |_, _| Ok(()))
            .unwrap_err();
        assert!(err.to_string().contains("threads"), "{err}");
    }

    #[test]
    fn the_signature_is_deterministic() {
        let a = signature().unwrap();
        let b = signature().unwrap();
        let names: Vec<&str> = a.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["sudoku/exact-hardest11", "sudoku/mcts-easy"]);
        for (x, y) in a.iter().zip(&b) {
            assert_eq!((x.work, x.result), (y.work, y.result));
        }
        assert_eq!(a[0].result, 11.0);
    }
}
