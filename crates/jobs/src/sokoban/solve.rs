//! `sokoban_solve`: the levels of one XSB text (`puzzle solve sokoban`).

use super::*;

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

impl crate::job::Job for SolveRequest {
    const NAME: &'static str = "sokoban_solve";
    const TITLE: &'static str = "Solve Sokoban levels";
    const PRINTS_SUMMARY: bool = false;
    type Event = SolveEvent;

    fn check(&self) -> Result<()> {
        self.portfolio.validate(&[self.algo.algorithm()])?;
        ga_config(self.population, self.mutation, self.crossover).map(drop)
    }

    crate::job::job_fields!(limits, items);

    crate::job::job_run!(solve);

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
