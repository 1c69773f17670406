//! Sokoban solving jobs (see `docs/METHODS.md#sokoban`): solve the levels of an XSB text, or
//! benchmark the solvers over level sets. Every solution in a result was replayed with
//! [`puzzle_sokoban::replay`] first.

use crate::data::{sokoban_set, MICROBAN};
use crate::event::{Emit, EventKind, ItemProgress, JobEvent, Signature};
use crate::limits::Limits;
use crate::options::choice_name;
use crate::shard::{ItemRecord, Items, Plan, Shard};
use anyhow::{bail, Context, Result};
use clap::ValueEnum;
use puzzle_engine::{Budget, WorkCounter};
use puzzle_sokoban::board::Board;
use puzzle_sokoban::genetic::{solve_ga, GaConfig};
use puzzle_sokoban::solver::{Phases, PortfolioConfig};
use puzzle_sokoban::{parse_xsb, replay, solve as solve_level, solve_with, Algorithm, Level};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Default time limit per level, seconds.
pub const DEFAULT_TIME_LIMIT: f64 = 10.0;
/// Default node budget (positions stored: about 100 bytes each for A* and BFS, about 400 for the
/// greedy portfolio, so 0.8 to 3.2 GB at most; docs/ROBUSTNESS.md#memory).
pub const DEFAULT_MAX_NODES: usize = 8_000_000;
/// The most threads a solve uses: the `greedy` portfolio runs two lists of searches, on two
/// threads or taking turns on one (the same searches, the second list with two thirds of the
/// core, docs/benchmarks/sokoban.md); the default thread count is the machine's cores capped
/// at this.
pub const PORTFOLIO_THREADS: usize = 2;
/// The solvers, strongest first.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum AlgorithmName {
    /// A portfolio of fast searches for any solution (greedy and weighted A* with macros and
    /// FESS's features, forwards and backwards; see `docs/METHODS.md#sokoban`).
    #[default]
    #[schemars(title = "Greedy portfolio: fast searches for any solution")]
    Greedy,
    /// A* over pushes: push-optimal.
    Astar,
    /// IDA* over pushes: push-optimal in little memory.
    Idastar,
    /// Breadth-first search over pushes: push-optimal, small levels.
    Bfs,
    /// The reactive-string genetic algorithm (the paper's).
    Ga,
    /// FESS, the feature space search of Shoham & Schaeffer (IEEE CoG 2020): macro moves,
    /// four features, seven advisors, one thread (see `docs/METHODS.md#sokoban-fess`).
    #[schemars(title = "FESS: feature space search on macro moves")]
    Fess,
}

impl AlgorithmName {
    /// The solver crate's algorithm.
    pub fn algorithm(self) -> Algorithm {
        match Algorithm::from_name(&choice_name(&self)) {
            Some(a) => a,
            // The names are the solver crate's own: a unit test reads every one.
            None => unreachable!("no Sokoban solver is called {}", choice_name(&self)),
        }
    }
}

/// Solve the levels of one XSB text (`puzzle solve sokoban`, job `sokoban_solve`). Every field
/// but the text is an option of the command (the same name, `-` for `_`) with the same
/// default: the `greedy` portfolio, 10 s per level, the machine's cores up to
/// [`PORTFOLIO_THREADS`] (the portfolio runs two lists of searches side by side: on two
/// threads, or taking turns on one core with `threads: 1`; the same searches either way).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema, clap::Args)]
#[serde(default)]
#[schemars(transform = crate::options::flattened(
    &["portfolio_first", "portfolio_second"],
    "x-when",
    serde_json::json!({"algo": ["greedy"]}),
))]
pub struct SolveRequest {
    /// The XSB text: one or more levels.
    #[arg(skip)]
    pub xsb: String,
    /// Where the text came from, named in parse errors (a file path; `input` by default).
    #[arg(skip = String::from("input"))]
    pub source: String,
    /// Solve only this level (1-based); default: every level in order.
    #[arg(long, value_name = "N")]
    #[schemars(range(min = 1))]
    pub level: Option<usize>,
    /// Solver.
    #[arg(long, value_enum, default_value_t = AlgorithmName::Greedy)]
    pub algo: AlgorithmName,
    /// GA: individuals per generation (default 100).
    #[arg(long, value_name = "N")]
    #[schemars(range(min = 2, max = 100_000))]
    #[schemars(title = "GA population", extend("x-when" = {"algo": ["ga"]}))]
    pub population: Option<usize>,
    /// GA: per-gene mutation probability (the paper: 0.05–0.1; default 0.08).
    #[arg(long, value_name = "P")]
    #[schemars(range(min = 0.0, max = 1.0))]
    #[schemars(title = "GA mutation probability", extend("x-when" = {"algo": ["ga"]}))]
    pub mutation: Option<f64>,
    /// GA: probability that two parents are crossed (state-aligned crossover, the GA paper
    /// §3.2) rather than copied; 0 is mutation alone, the paper's §4 question (default 0.9).
    #[arg(long, value_name = "P")]
    #[schemars(range(min = 0.0, max = 1.0))]
    #[schemars(title = "GA crossover probability", extend("x-when" = {"algo": ["ga"]}))]
    pub crossover: Option<f64>,
    /// Budget (default 10 s per level, 8,000,000 nodes, the machine's cores up to
    /// [`PORTFOLIO_THREADS`] threads; `threads: 1` for one).
    #[serde(flatten)]
    #[arg(skip)]
    pub limits: Limits,
    /// Sharding and resuming over the levels (items: the chosen levels in order).
    #[serde(flatten)]
    #[arg(skip)]
    pub items: Items,
    /// The `greedy` portfolio's lists of searches, for experiments with the portfolio
    /// (`None`: the built-in lists).
    #[serde(flatten)]
    #[command(flatten)]
    pub portfolio: Portfolio,
}

impl Default for SolveRequest {
    fn default() -> Self {
        crate::options::defaults()
    }
}

/// One solved (or not) level: the `puzzle solve sokoban --json` line.
#[derive(Clone, Serialize, Deserialize, Debug)]
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
    /// Positions expanded (the unit of `--iterations`; GA: as `nodes`; summed over threads).
    #[serde(default)]
    pub expanded: u64,
    /// The solver used.
    pub algo: String,
    /// Why the search ended: solved, exhausted (proved unsolvable), time, nodes, iterations,
    /// interrupted, or error (the level cannot be searched, e.g. too large).
    pub stop: String,
    /// Set name (benchmarks only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub set: Option<String>,
    /// Why the level is reported unsolved although it did not run out of budget (a level the
    /// solvers cannot take, or an internal error caught by the replay).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The item's number in the run (1-based; a benchmark counts sets × solvers × levels).
    #[serde(default)]
    pub item: usize,
    /// The shard that ran it (`"2/4"`), when the run was sharded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// The portfolio's first list of searches, when the request set one (`greedy` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub portfolio_first: Option<Phases>,
    /// The portfolio's second list of searches, when the request set one (`greedy` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub portfolio_second: Option<Phases>,
}

fn level_identity(set: Option<&str>, level: usize, algo: &str) -> String {
    let set = set.map_or(String::new(), |s| format!("{s} "));
    format!("{set}level {level} with {algo}")
}

impl ItemRecord for LevelResult {
    fn identity(&self) -> String {
        level_identity(self.set.as_deref(), self.level, &self.algo)
    }
}

/// The closing record of a solve run.
#[derive(Clone, Debug, Serialize)]
pub struct SolveSummary {
    /// Levels chosen (every level of the text, or the one asked for).
    pub levels: usize,
    /// Levels solved.
    pub solved: usize,
    /// The run was stopped (a stop request or signal) before every level was searched to the
    /// end of its budget.
    pub interrupted: bool,
    /// Levels attempted (fewer than `levels` when stopped early).
    pub attempted: usize,
}

/// Live progress of one level's search: at its start and every [`PROGRESS_EVERY`].
#[derive(Clone, Debug, Serialize)]
pub struct SearchProgress {
    /// The level (1-based position in its text).
    pub level: usize,
    /// The level's title, if it has one.
    pub title: Option<String>,
    /// The solver.
    pub algo: String,
    /// Positions expanded so far by every search of the solver (counted in steps of 128).
    pub expanded: u64,
    /// Seconds since this level's search started.
    pub elapsed_s: f64,
    /// The time limit per level, if any.
    pub time_limit_s: Option<f64>,
}

/// How often a solve run reports a level's [`SearchProgress`].
pub const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_millis(200);

/// The events of a solve or benchmark run.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum SolveEvent {
    /// Levels done so far.
    Progress(ItemProgress),
    /// The search of one level, while it runs (solve runs only).
    Search(SearchProgress),
    /// One level's result.
    Level(LevelResult),
    /// The end of `puzzle solve sokoban`.
    Summary(SolveSummary),
    /// The end of one set and solver in a benchmark.
    Set(SetSummary),
}

impl JobEvent for SolveEvent {
    fn kind(&self) -> EventKind {
        match self {
            SolveEvent::Progress(_) | SolveEvent::Search(_) => EventKind::Progress,
            SolveEvent::Level(_) => EventKind::Result,
            SolveEvent::Summary(_) | SolveEvent::Set(_) => EventKind::Summary,
        }
    }
}

/// The lists of searches of the `greedy` portfolio a request chooses, for experiments with the
/// portfolio: each `search:share[:cap],…` ([`Phases`], e.g. `gm-c4:50:500000,w2-c4:50`); `None` runs the
/// built-in list. Level records of `greedy` carry the lists that were set.
#[derive(
    Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema, clap::Args,
)]
#[serde(default)]
pub struct Portfolio {
    /// For experiments with the portfolio (`algo: greedy`): run LIST as its first list of
    /// searches instead of the built-in one. LIST is `search:share,…` with each search's share
    /// of the budget in per cent, e.g. `astar:10,gm-c4:50,w2-c4:40`; `search:share:N` also stops
    /// that search after N expansions (its time passes on). Searches: `astar`;
    /// `fess` (the feature space search over macro moves; listed again, it goes on with the
    /// tree of its earlier window); `gm-cX` / `g-cX` greedy with / without macros and connectivity weight X; `wmN-cX` /
    /// `wN-cX` weighted A* (w = N) with / without macros; then optionally `-pY` packing weight,
    /// `-fK` feature cycling on one expansion in K, `-aA` advisor weight, `-mK` bidirectional
    /// with K % for the helper; `r-` before a name searches backwards. The last search must go
    /// forwards without macros. Level records carry the list.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<String>", title = "Portfolio: first list")]
    #[arg(long, value_name = "LIST")]
    pub portfolio_first: Option<Phases>,
    /// For experiments with the portfolio (`algo: greedy`): run LIST as its second list of
    /// searches (the one beside the first, on a second thread or taking turns on one core),
    /// written like `portfolio_first`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<String>", title = "Portfolio: second list")]
    #[arg(long, value_name = "LIST")]
    pub portfolio_second: Option<Phases>,
}

impl Portfolio {
    /// Whether a list is set.
    pub fn is_set(&self) -> bool {
        self.portfolio_first.is_some() || self.portfolio_second.is_some()
    }

    /// The solver's settings: the lists set, the built-in ones for the rest.
    pub fn config(&self) -> PortfolioConfig {
        let built_in = PortfolioConfig::default();
        PortfolioConfig {
            first: self.portfolio_first.clone().unwrap_or(built_in.first),
            second: self.portfolio_second.clone().unwrap_or(built_in.second),
        }
    }

    /// Refuse lists when none of `algos` is the portfolio (`greedy`): they would change
    /// nothing. (The lists themselves are checked when they are parsed.)
    pub fn validate(&self, algos: &[Algorithm]) -> Result<()> {
        if self.is_set() && !algos.contains(&Algorithm::Greedy) {
            bail!(
                "portfolio_first and portfolio_second (--portfolio-first, --portfolio-second) \
                 set the lists of the greedy portfolio, which this run does not use (solver: {})",
                algos
                    .iter()
                    .map(|a| a.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        Ok(())
    }
}

fn ga_config(
    population: Option<usize>,
    mutation: Option<f64>,
    crossover: Option<f64>,
) -> Result<GaConfig> {
    let mut config = GaConfig::default();
    if let Some(n) = population {
        if !(2..=100_000).contains(&n) {
            bail!("the population must be between 2 and 100000, not {n}");
        }
        config.population = n;
    }
    let probability = |p: f64| {
        if (0.0..=1.0).contains(&p) {
            Ok(p)
        } else {
            Err(anyhow::anyhow!("a probability lies in [0, 1], not {p}"))
        }
    };
    if let Some(p) = mutation {
        config.mutation = probability(p)?;
    }
    if let Some(p) = crossover {
        config.crossover = probability(p)?;
    }
    Ok(config)
}

/// Parse `text` as XSB, naming `source` in the error (the error keeps its line and column:
/// downcast to [`puzzle_sokoban::XsbError`]).
pub fn parse_levels(text: &str, source: &str) -> Result<Vec<Level>> {
    parse_xsb(text).map_err(|e| anyhow::Error::new(e).context(source.to_string()))
}

/// Solve one level and verify the solution by replay (`portfolio`: the lists of `greedy`).
pub fn solve_one(
    index: usize,
    level: &Level,
    algo: Algorithm,
    ga: &GaConfig,
    portfolio: &Portfolio,
    limits: &Limits,
    stop: &Arc<AtomicBool>,
) -> Result<LevelResult> {
    solve_counted(index, level, algo, ga, portfolio, limits, stop, None)
}

/// [`solve_one`], the searches reporting their expansions to `progress`.
#[allow(clippy::too_many_arguments)]
fn solve_counted(
    index: usize,
    level: &Level,
    algo: Algorithm,
    ga: &GaConfig,
    portfolio: &Portfolio,
    limits: &Limits,
    stop: &Arc<AtomicBool>,
    progress: Option<Arc<WorkCounter>>,
) -> Result<LevelResult> {
    let start = Instant::now();
    let mut budget = limits.budget(DEFAULT_TIME_LIMIT, DEFAULT_MAX_NODES, stop);
    budget.progress = progress;
    let mut result = LevelResult {
        level: index,
        title: level.title.clone(),
        solved: false,
        solution: String::new(),
        moves: 0,
        pushes: 0,
        time_s: 0.0,
        nodes: 0,
        expanded: 0,
        algo: algo.name().to_string(),
        stop: "error".into(),
        set: None,
        note: None,
        item: 1,
        shard: None,
        portfolio_first: None,
        portfolio_second: None,
    };
    if algo == Algorithm::Greedy {
        result
            .portfolio_first
            .clone_from(&portfolio.portfolio_first);
        result
            .portfolio_second
            .clone_from(&portfolio.portfolio_second);
    }
    let board = match Board::new(level) {
        Ok(board) => board,
        Err(e) => {
            // A level the solvers cannot take (e.g. too large) is reported unsolved.
            result.note = Some(format!("level {index}: {e}; reported unsolved"));
            result.time_s = start.elapsed().as_secs_f64();
            return Ok(result);
        }
    };
    let (lurd, nodes, expanded, stop) = if algo == Algorithm::Genetic {
        let outcome = solve_ga(&board, ga, &budget, limits.seed_or(1));
        let lurd = outcome
            .pushes
            .as_ref()
            .and_then(|p| puzzle_sokoban::position::pushes_to_lurd(&board, p));
        (lurd, outcome.nodes, outcome.expanded, outcome.stop)
    } else {
        let s = solve_with(
            level,
            algo,
            &budget,
            limits.threads_or_cores(PORTFOLIO_THREADS),
            &portfolio.config(),
        )
        .with_context(|| format!("level {index}"))?;
        (s.lurd, s.nodes, s.expanded, s.stop)
    };
    result.time_s = start.elapsed().as_secs_f64();
    result.nodes = nodes;
    result.expanded = expanded;
    result.stop = format!("{stop:?}").to_lowercase();
    if let Some(lurd) = lurd {
        match replay(level, &lurd) {
            Ok(r) if r.solved => {
                result.solved = true;
                result.moves = r.moves;
                result.pushes = r.pushes;
                result.solution = lurd;
            }
            Ok(_) => {
                result.note = Some(format!("level {index}: internal error: the solution does not solve the level; reported unsolved"));
            }
            Err(e) => {
                result.note = Some(format!("level {index}: internal error: the solution does not replay ({e}); reported unsolved"));
            }
        }
    }
    Ok(result)
}

/// Run a [`SolveRequest`]: a `Level` event per level, then a `Summary`.
pub fn solve(
    req: &SolveRequest,
    stop: &Arc<AtomicBool>,
    emit: Emit<'_, SolveEvent>,
) -> Result<SolveSummary> {
    req.limits.validate()?;
    let algo = req.algo.algorithm();
    let ga = ga_config(req.population, req.mutation, req.crossover)?;
    req.portfolio.validate(&[algo])?;
    let levels = parse_levels(&req.xsb, &req.source)?;
    let chosen = chosen_levels(levels.len(), req.level, &req.source)?;
    req.items.check(chosen.len())?;
    let started = Instant::now();
    let (mut solved, mut done, mut taken) = (0, 0, 0);
    let emit = std::sync::Mutex::new(emit);
    let send = |event: SolveEvent| -> Result<()> {
        let mut guard = emit.lock().unwrap_or_else(|e| e.into_inner());
        (*guard)(event)
    };
    for (k, &n) in chosen.iter().enumerate() {
        let item = k + 1;
        let r = match req.items.plan(item) {
            Plan::Skip => continue,
            Plan::Done(records) => {
                taken += 1;
                done_level(
                    &req.items,
                    item,
                    records,
                    n,
                    &levels[n - 1],
                    algo,
                    None,
                    &req.portfolio,
                )?
            }
            Plan::Run => {
                taken += 1;
                if stop.load(Ordering::Relaxed) {
                    continue;
                }
                let level = &levels[n - 1];
                let counter = Arc::new(WorkCounter::new());
                let level_started = Instant::now();
                let progress = || {
                    SolveEvent::Search(SearchProgress {
                        level: n,
                        title: level.title.clone(),
                        algo: algo.name().to_string(),
                        expanded: counter.iterations(),
                        elapsed_s: level_started.elapsed().as_secs_f64(),
                        time_limit_s: req.limits.time(DEFAULT_TIME_LIMIT).map(|t| t.as_secs_f64()),
                    })
                };
                send(progress())?;
                let failed = std::sync::Mutex::new(None::<anyhow::Error>);
                let r = crate::ticker::with_ticks(
                    PROGRESS_EVERY,
                    || match send(progress()) {
                        Ok(()) => true,
                        Err(e) => {
                            // The receiver is gone: stop the search as a closed output would.
                            stop.store(true, Ordering::Relaxed);
                            *failed.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                            false
                        }
                    },
                    || {
                        solve_counted(
                            n,
                            level,
                            algo,
                            &ga,
                            &req.portfolio,
                            &req.limits,
                            stop,
                            Some(counter.clone()),
                        )
                    },
                );
                if let Some(e) = failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
                    return Err(e);
                }
                let mut r = r?;
                r.item = item;
                r.shard = req.items.shard;
                r
            }
        };
        solved += usize::from(r.solved);
        done += 1;
        send(SolveEvent::Level(r))?;
        send(SolveEvent::Progress(ItemProgress {
            done: done as u64,
            total: chosen.len() as u64,
            solved: solved as u64,
            label: "sokoban".into(),
            elapsed_s: started.elapsed().as_secs_f64(),
        }))?;
    }
    let summary = SolveSummary {
        levels: taken,
        solved,
        interrupted: done < taken || stop.load(Ordering::Relaxed),
        attempted: done,
    };
    send(SolveEvent::Summary(summary.clone()))?;
    Ok(summary)
}

/// The levels a request chooses (1-based): `level` alone, or every level of the text in order;
/// a level beyond the text's `count` is refused naming `source`.
pub fn chosen_levels(count: usize, level: Option<usize>, source: &str) -> Result<Vec<usize>> {
    Ok(match level {
        Some(0) => bail!("{source}: levels are numbered from 1"),
        Some(n) if n > count => bail!(
            "{source}: --level {n} but the file has {count} level{}",
            if count == 1 { "" } else { "s" }
        ),
        Some(n) => vec![n],
        None => (1..=count).collect(),
    })
}

/// A level's record from an earlier run (`--resume`, `puzzle merge`), checked against the
/// item it stands for (level number, solver, set, the portfolio's lists) and its solution
/// replayed on the level, so that nothing unverified is emitted.
#[allow(clippy::too_many_arguments)]
fn done_level(
    items: &Items,
    item: usize,
    records: &[serde_json::Value],
    number: usize,
    level: &Level,
    algo: Algorithm,
    set: Option<&str>,
    portfolio: &Portfolio,
) -> Result<LevelResult> {
    let r: LevelResult = items.done(item, records, &level_identity(set, number, algo.name()))?;
    let lists = (&r.portfolio_first, &r.portfolio_second);
    let expected = match algo {
        Algorithm::Greedy => (&portfolio.portfolio_first, &portfolio.portfolio_second),
        _ => (&None, &None),
    };
    if lists != expected {
        bail!(
            "item {item} was run with other portfolio lists than this run's: the records come \
             from a different configuration"
        );
    }
    if r.solved && !replay(level, &r.solution).is_ok_and(|p| p.solved) {
        bail!("item {item} (level {number}): the recorded solution does not solve the level");
    }
    Ok(r)
}

/// A level set for a benchmark: a bundled set by name, or a named XSB text.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct LevelSet {
    /// A bundled set's id (`microban`, `xsokoban`, `microban2`, `sasquatch`, `boxoban-hard`)
    /// or the label of `xsb`.
    pub name: String,
    /// The levels' XSB text; `None` for a bundled set.
    #[serde(default)]
    pub xsb: Option<String>,
}

impl LevelSet {
    /// The set named `name` (the command line's `--set`): a bundled set, or a file that the
    /// front end reads into `xsb`.
    pub fn named(name: &str) -> Result<LevelSet, String> {
        if name.trim().is_empty() {
            return Err("a level set's name is empty".into());
        }
        Ok(LevelSet {
            name: name.to_string(),
            xsb: None,
        })
    }

    /// Whether the set is bundled (or its text given): a front end reads the others' files.
    pub fn is_resolved(&self) -> bool {
        self.xsb.is_some() || sokoban_set(&self.name).is_some()
    }

    /// The set's levels.
    pub fn levels(&self) -> Result<Vec<Level>> {
        match (&self.xsb, sokoban_set(&self.name)) {
            (Some(text), _) => parse_levels(text, &self.name),
            (None, Some(set)) => parse_levels(set.xsb, set.id),
            (None, None) => bail!(
                "unknown level set '{}' (bundled: {})",
                self.name,
                crate::data::SOKOBAN_SETS.map(|s| s.id).join(", ")
            ),
        }
    }
}

/// Level numbers in a set, from 1, ascending and without repeats (`--levels 3,6,10-12`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct LevelNumbers(pub Vec<usize>);

impl LevelNumbers {
    /// Parse numbers (from 1) and ranges `a-b`, separated by commas.
    pub fn parse(s: &str) -> Result<LevelNumbers, String> {
        let number = |t: &str| -> Result<usize, String> {
            match t.trim().parse::<usize>() {
                Ok(n) if n >= 1 => Ok(n),
                _ => Err(format!(
                    "'{t}' is not a level number (expected a whole number from 1, e.g. `3,6,10-12`)"
                )),
            }
        };
        let mut out = Vec::new();
        for part in s.split(',') {
            match part.split_once('-') {
                Some((a, b)) => {
                    let (a, b) = (number(a)?, number(b)?);
                    if a > b {
                        return Err(format!("the range '{part}' runs backwards"));
                    }
                    if b - a > 100_000 {
                        return Err(format!("the range '{part}' is too long"));
                    }
                    out.extend(a..=b);
                }
                None => out.push(number(part)?),
            }
        }
        out.sort_unstable();
        out.dedup();
        Ok(LevelNumbers(out))
    }
}

/// Benchmark solvers over level sets (`puzzle bench sokoban`, `puzzle experiment sokoban`).
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema, clap::Args)]
#[serde(default)]
#[schemars(transform = crate::options::flattened(
    &["portfolio_first", "portfolio_second"],
    "x-when",
    serde_json::json!({"algos": ["greedy"]}),
))]
pub struct BenchRequest {
    /// Level sets: `microban`, `xsokoban`, `microban2`, `sasquatch`, `boxoban-hard` (bundled)
    /// or XSB file paths (default: microban and boxoban-hard).
    #[arg(
        long = "set",
        value_name = "SET",
        value_parser = LevelSet::named,
        default_values = ["microban", "boxoban-hard"]
    )]
    pub sets: Vec<LevelSet>,
    /// Solvers to compare (comma-separated or repeated; default: greedy).
    #[arg(long = "algo", value_delimiter = ',', value_enum, default_values_t = [AlgorithmName::Greedy])]
    pub algos: Vec<AlgorithmName>,
    /// Only the first N levels of each set (after `skip`).
    #[arg(long, value_name = "N", value_parser = crate::limits::parse_positive_usize)]
    #[schemars(range(min = 1))]
    pub first: Option<usize>,
    /// Leave out the first K levels of each set (to split a long run; level numbers in the
    /// output stay those of the set).
    #[arg(long, value_name = "K", default_value_t = 0)]
    pub skip: usize,
    /// Only these levels of each set, by their numbers in the set (from 1): a comma-separated
    /// list of numbers and ranges, e.g. `3,6,10-12`, applied before `skip` and `first`. A
    /// number beyond a set's length is an error.
    #[arg(long, value_name = "LIST", value_parser = LevelNumbers::parse)]
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<Vec<usize>>")]
    pub levels: Option<LevelNumbers>,
    /// Budget per level.
    #[serde(flatten)]
    #[arg(skip)]
    pub limits: Limits,
    /// Sharding and resuming (items: every set × solver × level, in that order).
    #[serde(flatten)]
    #[arg(skip)]
    pub items: Items,
    /// The `greedy` portfolio's lists of searches, for experiments with the portfolio
    /// (`None`: the built-in lists).
    #[serde(flatten)]
    #[command(flatten)]
    pub portfolio: Portfolio,
}

impl Default for BenchRequest {
    fn default() -> Self {
        crate::options::defaults()
    }
}

/// One line of the benchmark summary.
#[derive(Clone, Serialize, Debug)]
pub struct SetSummary {
    /// The set's name.
    pub set: String,
    /// The solver.
    pub algo: String,
    /// Levels run.
    pub levels: usize,
    /// Levels solved.
    pub solved: usize,
    /// Seconds over all levels.
    pub total_time_s: f64,
    /// Median seconds per level.
    pub median_time_s: f64,
    /// The slowest solved level's seconds.
    pub max_solved_time_s: f64,
    /// The per-level time limit (`None` when iterations alone bounded the levels).
    pub time_limit_s: Option<f64>,
    /// Positions generated over all levels.
    pub nodes: u64,
    /// `--threads` (only `greedy` uses a second thread).
    pub threads: usize,
    /// The portfolio's first list of searches, when the request set one (`greedy` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub portfolio_first: Option<Phases>,
    /// The portfolio's second list of searches, when the request set one (`greedy` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub portfolio_second: Option<Phases>,
}

/// Run a [`BenchRequest`]: a `Level` event per level and a `Set` summary per set and solver.
pub fn bench(
    req: &BenchRequest,
    stop: &Arc<AtomicBool>,
    emit: Emit<'_, SolveEvent>,
) -> Result<Vec<SetSummary>> {
    req.limits.validate()?;
    let algos: Vec<Algorithm> = req.algos.iter().map(|a| a.algorithm()).collect();
    req.portfolio.validate(&algos)?;
    // The one budget rule: an iteration budget alone sets no time limit.
    let limit = req.limits.time(DEFAULT_TIME_LIMIT).map(|t| t.as_secs_f64());
    let started = Instant::now();
    let mut sets = Vec::new();
    for set in &req.sets {
        // (number in the set, level)
        let mut levels: Vec<(usize, Level)> = set
            .levels()?
            .into_iter()
            .zip(1..)
            .map(|(l, n)| (n, l))
            .collect();
        if let Some(LevelNumbers(wanted)) = &req.levels {
            if let Some(&n) = wanted.iter().find(|&&n| n == 0 || n > levels.len()) {
                bail!(
                    "level {n} is not in set '{}' (it has levels 1 to {})",
                    set.name,
                    levels.len()
                );
            }
            levels.retain(|(n, _)| wanted.contains(n));
        }
        let skip = req.skip.min(levels.len());
        levels.drain(..skip);
        if let Some(n) = req.first {
            levels.truncate(n);
        }
        sets.push((set, levels));
    }
    let total: usize = sets.iter().map(|(_, l)| l.len()).sum::<usize>() * algos.len();
    req.items.check(total)?;
    let mut item = 0;
    let mut summaries = Vec::new();
    for (set, levels) in &sets {
        for &algo in &algos {
            let mut times = Vec::new();
            let mut solved_times = Vec::new();
            let mut nodes = 0;
            for (number, level) in levels {
                let number = *number;
                item += 1;
                let r = match req.items.plan(item) {
                    Plan::Skip => continue,
                    Plan::Done(records) => done_level(
                        &req.items,
                        item,
                        records,
                        number,
                        level,
                        algo,
                        Some(&set.name),
                        &req.portfolio,
                    )?,
                    Plan::Run => {
                        if stop.load(Ordering::Relaxed) {
                            continue;
                        }
                        let mut r = solve_one(
                            number,
                            level,
                            algo,
                            &GaConfig::default(),
                            &req.portfolio,
                            &req.limits,
                            stop,
                        )?;
                        r.set = Some(set.name.clone());
                        r.item = item;
                        r.shard = req.items.shard;
                        r
                    }
                };
                times.push(r.time_s);
                nodes += r.nodes;
                if r.solved {
                    solved_times.push(r.time_s);
                }
                emit(SolveEvent::Level(r))?;
                emit(SolveEvent::Progress(ItemProgress {
                    done: times.len() as u64,
                    total: levels.len() as u64,
                    solved: solved_times.len() as u64,
                    label: format!("{} {}", set.name, algo.name()),
                    elapsed_s: started.elapsed().as_secs_f64(),
                }))?;
            }
            let mut sorted = times.clone();
            sorted.sort_by(f64::total_cmp);
            let mut summary = SetSummary {
                set: set.name.clone(),
                algo: algo.name().to_string(),
                levels: times.len(),
                solved: solved_times.len(),
                total_time_s: times.iter().sum(),
                median_time_s: median(&sorted),
                max_solved_time_s: solved_times.iter().copied().fold(0.0, f64::max),
                time_limit_s: limit,
                nodes,
                threads: req.limits.threads_or_cores(PORTFOLIO_THREADS),
                portfolio_first: None,
                portfolio_second: None,
            };
            if algo == Algorithm::Greedy {
                summary
                    .portfolio_first
                    .clone_from(&req.portfolio.portfolio_first);
                summary
                    .portfolio_second
                    .clone_from(&req.portfolio.portfolio_second);
            }
            emit(SolveEvent::Set(summary.clone()))?;
            summaries.push(summary);
        }
    }
    Ok(summaries)
}

/// The median of sorted numbers (0 for none).
pub fn median(sorted: &[f64]) -> f64 {
    match sorted.len() {
        0 => 0.0,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

/// Sokoban's part of the `puzzle bench` signature: A* on the first 30 Microban levels and the
/// GA (seed 1, 30 generations) on the first 3, all with node/iteration budgets only.
pub fn signature() -> Result<Vec<Signature>> {
    let levels = parse_levels(MICROBAN, "microban")?;
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

/// A hint: the next push of a solution from a position reached by playing.
#[derive(Clone, Debug, Serialize)]
pub struct Hint {
    /// The walk and the push (LURD from the current position), or `None`.
    pub hint: Option<String>,
    /// The whole solution from the current position (replayed before it is returned).
    pub solution: Option<String>,
    /// Why there is no hint (already solved, not found in time …).
    pub reason: Option<String>,
}

/// A hint's time limit when none is given, in seconds: a player waits for it.
pub const HINT_TIME_LIMIT: f64 = 5.0;

/// Solve from the position after `moves` (LURD from the level's start) with the default
/// solver and `limits` (time limit [`HINT_TIME_LIMIT`] unless one is given), and return the
/// next push with the walk before it.
pub fn hint(level: &Level, moves: &str, limits: &Limits, stop: &Arc<AtomicBool>) -> Result<Hint> {
    limits.validate()?;
    let limits = &Limits {
        time_limit: Some(limits.time_limit.unwrap_or(HINT_TIME_LIMIT)),
        ..limits.clone()
    };
    let play = puzzle_sokoban::Play::from_lurd(level, moves)
        .map_err(|e| anyhow::anyhow!("the moves do not replay: {e}"))?;
    if play.is_solved() {
        return Ok(Hint {
            hint: None,
            solution: None,
            reason: Some("the level is solved".into()),
        });
    }
    let position = play.position();
    let r = solve_one(
        1,
        &position,
        Algorithm::Greedy,
        &GaConfig::default(),
        &Portfolio::default(),
        limits,
        stop,
    )?;
    if !r.solved {
        let reason = match r.stop.as_str() {
            "exhausted" => {
                "no solution from here: the position is a deadlock (undo some moves)".into()
            }
            other => format!("no solution found from here ({other})"),
        };
        return Ok(Hint {
            hint: None,
            solution: None,
            reason: Some(reason),
        });
    }
    let first_push = r
        .solution
        .find(|c: char| c.is_ascii_uppercase())
        .map_or(r.solution.len(), |i| i + 1);
    Ok(Hint {
        hint: Some(r.solution[..first_push].to_string()),
        solution: Some(r.solution),
        reason: None,
    })
}

impl crate::registry::Job for SolveRequest {
    const NAME: &'static str = "sokoban_solve";
    const TITLE: &'static str = "Solve Sokoban levels";
    const PRINTS_SUMMARY: bool = false;
    type Event = SolveEvent;

    fn check(&self) -> Result<()> {
        self.portfolio.validate(&[self.algo.algorithm()])?;
        ga_config(self.population, self.mutation, self.crossover).map(drop)
    }

    crate::registry::job_fields!(limits, items);

    crate::registry::job_run!(solve);

    fn signature() -> Result<Vec<Signature>> {
        signature()
    }

    fn example() -> Self {
        SolveRequest {
            xsb: "#####\n#@$.#\n#####\n".into(),
            limits: Limits {
                time_limit: Some(5.0),
                ..Limits::default()
            },
            ..SolveRequest::default()
        }
    }
}

impl crate::registry::Job for BenchRequest {
    const NAME: &'static str = "sokoban_bench";
    const TITLE: &'static str = "Sokoban solvers over level sets";
    type Event = SolveEvent;

    fn check(&self) -> Result<()> {
        let algos: Vec<Algorithm> = self.algos.iter().map(|a| a.algorithm()).collect();
        self.portfolio.validate(&algos)
    }

    crate::registry::job_fields!(limits, items);

    crate::registry::job_run!(bench);

    fn example() -> Self {
        BenchRequest {
            sets: vec![LevelSet {
                name: "microban".into(),
                xsb: None,
            }],
            first: Some(2),
            limits: Limits {
                time_limit: Some(5.0),
                threads: Some(1),
                ..Limits::default()
            },
            ..BenchRequest::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_numbers_take_numbers_and_ranges_and_refuse_the_rest() {
        let list = |s: &str| LevelNumbers::parse(s).map(|l| l.0);
        assert_eq!(list("9,3,6-8,3").unwrap(), vec![3, 6, 7, 8, 9]);
        assert_eq!(list("5").unwrap(), vec![5]);
        for bad in ["0", "", "3,,4", "a", "8-6", "1-2000000", "-3"] {
            assert!(list(bad).is_err(), "{bad:?} accepted");
        }
    }

    fn collect(req: &SolveRequest) -> (Result<SolveSummary>, Vec<SolveEvent>) {
        let mut events = Vec::new();
        let stop = Arc::new(AtomicBool::new(false));
        let r = solve(req, &stop, &mut |e| {
            events.push(e);
            Ok(())
        });
        (r, events)
    }

    #[test]
    fn solve_emits_replayable_levels_and_a_matching_summary() {
        let req = SolveRequest {
            xsb: MICROBAN.to_string(),
            level: Some(2),
            ..SolveRequest::default()
        };
        let (summary, events) = collect(&req);
        let summary = summary.unwrap();
        let levels = parse_xsb(MICROBAN).unwrap();
        let results: Vec<_> = events
            .iter()
            .filter_map(|e| match e {
                SolveEvent::Level(r) => Some(r),
                _ => None,
            })
            .collect();
        assert_eq!(results.len(), 1);
        assert_eq!(summary.solved, 1);
        assert!(replay(&levels[1], &results[0].solution).unwrap().solved);
        assert!(matches!(events.last(), Some(SolveEvent::Summary(_))));
    }

    #[test]
    fn the_ga_options_reach_its_configuration() {
        let config = ga_config(Some(50), Some(0.1), Some(0.0)).unwrap();
        assert_eq!(
            (config.population, config.mutation, config.crossover),
            (50, 0.1, 0.0)
        );
        let default = ga_config(None, None, None).unwrap();
        assert_eq!(default.crossover, GaConfig::default().crossover);
        let e = ga_config(None, None, Some(1.5)).unwrap_err();
        assert!(e.to_string().contains("not 1.5"), "{e}");
        // Mutation alone still solves an easy level, replayed.
        let req = SolveRequest {
            xsb: MICROBAN.to_string(),
            level: Some(2),
            algo: AlgorithmName::Ga,
            crossover: Some(0.0),
            limits: Limits {
                seed: Some(1),
                ..Limits::default()
            },
            ..SolveRequest::default()
        };
        let (summary, events) = collect(&req);
        assert_eq!(summary.unwrap().solved, 1);
        let levels = parse_xsb(MICROBAN).unwrap();
        let solution = events
            .iter()
            .find_map(|e| match e {
                SolveEvent::Level(r) => Some(r.solution.clone()),
                _ => None,
            })
            .unwrap();
        assert!(replay(&levels[1], &solution).unwrap().solved);
    }

    #[test]
    fn bad_requests_are_refused_with_their_reason() {
        let e = serde_json::from_str::<SolveRequest>(r#"{"algo": "magic"}"#).unwrap_err();
        assert!(e.to_string().contains("unknown variant `magic`"), "{e}");
        for algo in AlgorithmName::value_variants() {
            assert_eq!(algo.algorithm().name(), choice_name(algo));
        }
        let (r, _) = collect(&SolveRequest {
            xsb: "#####\n#@x.#\n#####\n".into(),
            source: "pasted".into(),
            ..SolveRequest::default()
        });
        let e = r.unwrap_err();
        let xsb = e
            .chain()
            .find_map(|c| c.downcast_ref::<puzzle_sokoban::XsbError>());
        assert_eq!(xsb.map(|x| (x.line, x.column)), Some((2, 3)));
        assert!(format!("{e:#}").starts_with("pasted: "));
    }

    #[test]
    fn portfolio_lists_are_options_of_the_request_and_fields_of_its_records() {
        let json = r#"{"xsb": "", "level": 2, "threads": 1, "iterations": 100000,
            "portfolio_first": "astar:20,gm-c4:40,w2-c4:40", "portfolio_second": "w2-c4-f1:100"}"#;
        let mut req: SolveRequest = serde_json::from_str(json).unwrap();
        req.xsb = MICROBAN.into();
        assert_eq!(
            req.portfolio
                .portfolio_first
                .as_ref()
                .map(ToString::to_string),
            Some("astar:20,gm-c4:40,w2-c4:40".to_string())
        );
        let (summary, events) = collect(&req);
        assert_eq!(summary.unwrap().solved, 1);
        let record = events
            .iter()
            .find_map(|e| match e {
                SolveEvent::Level(r) => Some(serde_json::to_value(r).unwrap()),
                _ => None,
            })
            .unwrap();
        assert_eq!(record["portfolio_first"], "astar:20,gm-c4:40,w2-c4:40");
        assert_eq!(record["portfolio_second"], "w2-c4-f1:100");
        // The new fields come last: the fields before them keep their order.
        let keys: Vec<&String> = record.as_object().unwrap().keys().collect();
        assert_eq!(keys[..2], ["level", "title"]);
        assert_eq!(
            keys[keys.len() - 2..],
            ["portfolio_first", "portfolio_second"]
        );
        // Without lists, neither the request nor the records name them.
        let plain = SolveRequest {
            xsb: MICROBAN.into(),
            level: Some(2),
            ..SolveRequest::default()
        };
        assert!(!serde_json::to_string(&plain).unwrap().contains("portfolio"));
        let (_, events) = collect(&plain);
        let r = events
            .iter()
            .find_map(|e| match e {
                SolveEvent::Level(r) => Some(r),
                _ => None,
            })
            .expect("a level's record");
        assert!(!serde_json::to_string(r).unwrap().contains("portfolio"));
        // A list that does not end with a search without macros is refused when read, and
        // lists with another solver than greedy are refused by the run.
        let bad = r#"{"xsb": "", "portfolio_first": "gm-c4:100"}"#;
        let e = serde_json::from_str::<SolveRequest>(bad)
            .unwrap_err()
            .to_string();
        assert!(e.contains("portfolio list 'gm-c4:100'"), "{e}");
        let (r, _) = collect(&SolveRequest {
            algo: AlgorithmName::Astar,
            ..req
        });
        let e = r.unwrap_err().to_string();
        assert!(
            e.contains("which this run does not use (solver: astar)"),
            "{e}"
        );
    }

    #[test]
    fn bench_runs_the_listed_levels_under_their_numbers_in_the_set() {
        let run = |levels: Vec<usize>, skip: usize| {
            let req = BenchRequest {
                sets: vec![LevelSet {
                    name: "microban".into(),
                    xsb: None,
                }],
                levels: Some(LevelNumbers(levels)),
                skip,
                limits: Limits {
                    threads: Some(1),
                    ..Limits::default()
                },
                ..BenchRequest::default()
            };
            let mut numbers = Vec::new();
            let stop = Arc::new(AtomicBool::new(false));
            let summaries = bench(&req, &stop, &mut |e| {
                if let SolveEvent::Level(r) = e {
                    let level = &parse_xsb(MICROBAN).unwrap()[r.level - 1];
                    assert!(replay(level, &r.solution).unwrap().solved);
                    numbers.push(r.level);
                }
                Ok(())
            })?;
            Ok::<_, anyhow::Error>((numbers, summaries[0].levels))
        };
        assert_eq!(run(vec![2, 5, 9], 0).unwrap(), (vec![2, 5, 9], 3));
        assert_eq!(run(vec![2, 5, 9], 1).unwrap(), (vec![5, 9], 2));
        let e = run(vec![3, 156], 0).unwrap_err().to_string();
        assert!(e.contains("level 156 is not in set 'microban'"), "{e}");
    }

    #[test]
    fn the_set_summary_names_the_time_limit_only_when_one_was_set() {
        let run = |limits: Limits| {
            let req = BenchRequest {
                sets: vec![LevelSet {
                    name: "microban".into(),
                    xsb: None,
                }],
                algos: vec![AlgorithmName::Ga],
                levels: Some(LevelNumbers(vec![2])),
                limits: Limits {
                    threads: Some(1),
                    ..limits
                },
                ..BenchRequest::default()
            };
            bench(&req, &Arc::new(AtomicBool::new(false)), &mut |_| Ok(())).unwrap()[0].time_limit_s
        };
        let iterations = Limits {
            iterations: Some(20),
            ..Limits::default()
        };
        assert_eq!(run(iterations.clone()), None);
        assert_eq!(
            run(Limits {
                time_limit: Some(5.0),
                ..iterations
            }),
            Some(5.0)
        );
        assert_eq!(run(Limits::default()), Some(DEFAULT_TIME_LIMIT));
    }

    #[test]
    fn a_closed_receiver_stops_the_run() {
        let req = SolveRequest {
            xsb: MICROBAN.into(),
            ..SolveRequest::default()
        };
        let stop = Arc::new(AtomicBool::new(false));
        let mut seen = 0;
        let r = solve(&req, &stop, &mut |_| {
            seen += 1;
            anyhow::bail!("the client is gone")
        });
        assert!(r.is_err());
        assert_eq!(seen, 1, "nothing is solved after the output closed");
    }

    #[test]
    fn hint_is_the_next_push_of_a_replayed_solution() {
        let level = &parse_xsb(MICROBAN).unwrap()[0];
        let stop = Arc::new(AtomicBool::new(false));
        let h = hint(level, "", &Limits::default(), &stop).unwrap();
        let (hint, solution) = (h.hint.unwrap(), h.solution.unwrap());
        assert!(solution.starts_with(&hint));
        assert_eq!(hint.chars().filter(char::is_ascii_uppercase).count(), 1);
        assert!(hint.ends_with(|c: char| c.is_ascii_uppercase()));
        assert!(replay(level, &solution).unwrap().solved);
        let solved = hint_after(level, &solution);
        assert_eq!(solved.reason.as_deref(), Some("the level is solved"));
    }

    fn hint_after(level: &Level, moves: &str) -> Hint {
        hint(
            level,
            moves,
            &Limits::default(),
            &Arc::new(AtomicBool::new(false)),
        )
        .unwrap()
    }
}
