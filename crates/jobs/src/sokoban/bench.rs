//! `sokoban_bench`: solvers over level sets (`puzzle bench sokoban`, `puzzle experiment sokoban`).

use super::*;

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
            (None, Some(set)) => parse_levels(set.text, set.id),
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

impl crate::job::Job for BenchRequest {
    const NAME: &'static str = "sokoban_bench";
    const TITLE: &'static str = "Sokoban solvers over level sets";
    type Event = SolveEvent;

    fn check(&self) -> Result<()> {
        let algos: Vec<Algorithm> = self.algos.iter().map(|a| a.algorithm()).collect();
        self.portfolio.validate(&algos)
    }

    crate::job::job_fields!(limits, items);

    crate::job::job_run!(bench);

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
