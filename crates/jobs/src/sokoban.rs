//! Sokoban solving jobs (see `docs/METHODS.md#sokoban`): solve the levels of an XSB text, or
//! benchmark the solvers over level sets. Every solution in a result was replayed with
//! [`puzzle_sokoban::replay`] first.

mod bench;
mod hint;
mod solve;
pub use bench::*;
pub use hint::*;
pub use solve::*;

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
    #[schemars(title = "Greedy portfolio (any solution, fast)")]
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
    /// FESS whose advisors name distinct moves: an advisor whose best move another already
    /// named names its next best (see `docs/METHODS.md#sokoban-fess`, advisors).
    #[schemars(title = "FESS with distinct advice")]
    FessDistinct,
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
    /// tree of its earlier window); `fess-d` (FESS whose advisors name distinct moves, a tree of
    /// its own each time); `gm-cX` / `g-cX` greedy with / without macros and connectivity weight X; `wmN-cX` /
    /// `wN-cX` weighted A* (w = N) with / without macros; then optionally `-pY` packing weight,
    /// `-fK` feature cycling on one expansion in K, `-aA` advisor weight, `-mK` bidirectional
    /// with K % for the helper; `r-` before a name searches backwards. The last search must go
    /// forwards without macros. Level records carry the list.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<String>", title = "Portfolio: first list")]
    #[schemars(extend("x-advanced" = true))]
    #[arg(long, value_name = "LIST")]
    pub portfolio_first: Option<Phases>,
    /// For experiments with the portfolio (`algo: greedy`): run LIST as its second list of
    /// searches (the one beside the first, on a second thread or taking turns on one core),
    /// written like `portfolio_first`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<String>", title = "Portfolio: second list")]
    #[schemars(extend("x-advanced" = true))]
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
