//! `sokoban_gen_experiment`: the generation thesis's tables 3.1–3.8 with their Markdown report
//! (`puzzle experiment sokoban-gen`).

use super::*;

/// The thesis's experiment tables (`puzzle experiment sokoban-gen`).
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema, clap::Args)]
#[serde(default)]
pub struct ExperimentRequest {
    /// Tables to run, comma-separated, e.g. `3.1,3.5` (default: all eight).
    #[arg(long, value_delimiter = ',', value_name = "IDS")]
    #[schemars(title = "Tables")]
    pub tables: Vec<String>,
    /// Seeds per column: first..first+seeds (the thesis: 10).
    #[arg(long, default_value_t = 10)]
    #[schemars(range(min = 1, max = 1000))]
    #[schemars(title = "Seeds per column")]
    pub seeds: u64,
    /// Run each column for the thesis's own iteration count (its "it/30 s" figures, thesis
    /// §3.2–3.9) instead of a time limit: the tables at equal work, whatever the machine and
    /// its load. A time limit, if given, still caps each run; not with `iterations`.
    #[arg(long)]
    #[schemars(title = "The thesis's iteration count per column")]
    pub thesis_iterations: bool,
    /// Per-run time (default 0.5 s; the thesis: 30 s), iterations per run (none by default:
    /// give them for reproducible tables), first seed (default 1), node budget.
    #[serde(flatten)]
    #[arg(skip)]
    pub limits: Limits,
    /// Sharding and resuming (items: every table × column × seed run, in that order).
    #[serde(flatten)]
    #[arg(skip)]
    pub items: Items,
}

impl Default for ExperimentRequest {
    fn default() -> Self {
        crate::options::defaults()
    }
}

/// One measured column of a table, beside the thesis's figures.
#[derive(Clone, Debug, Serialize)]
pub struct ColumnRecord {
    /// The table (`3.1` …).
    pub table: String,
    /// The column's label.
    pub column: String,
    /// Runs (seeds).
    pub runs: usize,
    /// The time limit of each run in seconds (`null` when only iterations bound the runs).
    pub time_per_run_s: Option<f64>,
    /// Mean iterations per run.
    pub iterations: f64,
    /// Iterations per wall second.
    pub iterations_per_s: f64,
    /// Iterations per CPU second.
    pub iterations_per_cpu_s: Option<f64>,
    /// Mean best score.
    pub best_score: f64,
    /// Mean time to the best.
    pub time_to_best_s: f64,
    /// Standard deviation of the best score.
    pub sigma: f64,
    /// The thesis: iterations per 30 s.
    pub thesis_iterations_per_30s: f64,
    /// The thesis: best score.
    pub thesis_best_score: f64,
    /// The thesis: time to the best.
    pub thesis_time_to_best_s: f64,
    /// The thesis: σ.
    pub thesis_sigma: f64,
}

/// One run (one table, column and seed): the experiment's item record, from which a merge of
/// shards rebuilds the columns and the report.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ExperimentRunRecord {
    /// The run's number (1-based; table-major, then column, then seed).
    pub item: usize,
    /// The table (`3.1` …).
    pub table: String,
    /// The column's label.
    pub column: String,
    /// The run's seed.
    pub seed: u64,
    /// Iterations counted for the table (for bootstrapping: since the bootstrap start).
    pub iterations: u64,
    /// All iterations of the run.
    pub all_iterations: u64,
    /// The best score.
    pub best_score: f64,
    /// When the best was found.
    pub time_to_best_s: f64,
    /// Seconds the run took.
    pub time_s: f64,
    /// CPU seconds of the process during the run (Linux).
    pub cpu_s: Option<f64>,
    /// The largest tree the run held (nodes).
    #[serde(default)]
    pub peak_nodes: u64,
    /// The run's tree filled the node budget (`max_nodes`) and grew no further there.
    #[serde(default)]
    pub filled_node_budget: bool,
    /// The shard that ran it (`"2/4"`), when the run was sharded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
}

fn run_identity(table: &str, column: &str, seed: u64) -> String {
    format!("table {table} column {column} seed {seed}")
}

impl ItemRecord for ExperimentRunRecord {
    fn identity(&self) -> String {
        run_identity(&self.table, &self.column, self.seed)
    }
}

/// The events of the experiment: a `Result` per run and per measured column.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum ExperimentEvent {
    /// One run (one seed of a column).
    Run(ExperimentRunRecord),
    /// One column measured.
    Column(ColumnRecord),
}

impl JobEvent for ExperimentEvent {
    fn kind(&self) -> EventKind {
        EventKind::Result
    }
}

/// The request's checks beyond its ranges: known tables; `thesis_iterations` not with
/// `iterations`.
fn check_experiment(req: &ExperimentRequest) -> Result<()> {
    let all = tables();
    for id in &req.tables {
        if !all.iter().any(|t| t.id == id.as_str()) {
            bail!(
                "unknown table '{id}' (choose from {})",
                all.iter().map(|t| t.id).collect::<Vec<_>>().join(", ")
            );
        }
    }
    if req.thesis_iterations && req.limits.iterations.is_some() {
        bail!("thesis_iterations runs each column for the thesis's count: leave out iterations");
    }
    Ok(())
}

/// Run the thesis's tables; returns the Markdown report and a plot per table (iterations per
/// second and best score per column, ours beside the thesis's).
pub fn experiment_report(
    req: &ExperimentRequest,
    stop: &Arc<AtomicBool>,
    emit: Emit<'_, ExperimentEvent>,
) -> Result<Report> {
    req.limits.validate()?;
    if !(1..=1000).contains(&req.seeds) {
        bail!("seeds must be 1 to 1000, not {}", req.seeds);
    }
    check_experiment(req)?;
    let all = tables();
    let chosen: Vec<_> = all
        .into_iter()
        .filter(|t| req.tables.is_empty() || req.tables.iter().any(|id| id == t.id))
        .collect();
    // The one budget rule: iterations alone bound the runs by iterations only; the thesis's
    // iteration counts are bounded by time only when a time limit is given.
    let time = if req.thesis_iterations {
        req.limits.time_limit.map(Duration::from_secs_f64)
    } else {
        req.limits.time(0.5)
    };
    let first_seed = req.limits.seed_or(1);
    let seeds: Vec<u64> = (first_seed..first_seed + req.seeds).collect();
    let max_nodes = req.limits.max_nodes.unwrap_or(DEFAULT_MAX_NODES);
    let total: usize = chosen.iter().map(|t| t.columns.len()).sum::<usize>() * seeds.len();
    req.items.check(total)?;
    let mut plots = Vec::new();
    let mut run_time = 0.0;
    let per_run = match (req.thesis_iterations, req.limits.iterations, time) {
        (true, _, _) => "the thesis's iterations".to_string(),
        (false, Some(n), None) => format!("{n} iterations"),
        (false, _, t) => format!("{:.1} s", t.unwrap_or_default().as_secs_f64()),
    };
    let budget_text = match (req.limits.iterations, time) {
        _ if req.thesis_iterations => format!(
            "each column run for the thesis's own iteration count per run (its \"it/30 s\"; \
             Table 3.6 with δ > 0: the thesis's count for the bootstrapped search, after \
             (1 − δ) × 3,924,687 iterations of the first search){}",
            time.map_or(String::new(), |t| format!(
                ", at most {} s per run",
                t.as_secs_f64()
            ))
        ),
        (Some(n), Some(t)) => format!("{n} iterations (at most {} s) per run", t.as_secs_f64()),
        (Some(n), None) => format!("{n} iterations per run"),
        (None, t) => format!(
            "{} s per run (the thesis: 30 s)",
            t.unwrap_or_default().as_secs_f64()
        ),
    };
    let mut report = format!(
        "# Sokoban level generation with MCTS: the thesis's experiments (Tables 3.1–3.8)\n\n\
         5×5 board, start (2, 2), {budget_text}, {} seeds per column \
         ({}..={}), one thread. Thesis: C++ -O3 on a Ryzen 5 3600, 10 seeds (30 in Tables 3.7 and 3.8). Iteration counts \
         are per run; compare the per-second rates. Optimizations are added cumulatively as in \
         the thesis. Generated by `puzzle experiment sokoban-gen`.\n\n",
        seeds.len(),
        seeds[0],
        seeds[seeds.len() - 1]
    );
    let mut item = 0;
    for table in &chosen {
        let mut measured = Vec::new();
        for column in &table.columns {
            let mut runs = Vec::new();
            for &seed in &seeds {
                item += 1;
                let expected = run_identity(table.id, &column.label, seed);
                let Some(record) = req.items.record(item, &expected, stop, || {
                    let (iterations, bootstrap_iterations) = if req.thesis_iterations {
                        (
                            Some(column.thesis_work.iterations),
                            column.thesis_work.bootstrap,
                        )
                    } else {
                        (req.limits.iterations, None)
                    };
                    let f = run_once(
                        column.config,
                        seed,
                        time,
                        iterations,
                        bootstrap_iterations,
                        max_nodes,
                        Some(stop.clone()),
                    )
                    .map_err(|e| {
                        anyhow::anyhow!("table {} column {}: {e}", table.id, column.label)
                    })?;
                    if stop.load(Ordering::Relaxed) {
                        // Cut short: not a run of the configured budget. Left out, so the
                        // report's figures stay whole runs and a resume runs it again.
                        return Ok(None);
                    }
                    Ok(Some(ExperimentRunRecord {
                        item,
                        table: table.id.to_string(),
                        column: column.label.to_string(),
                        seed,
                        iterations: f.iterations,
                        all_iterations: f.all_iterations,
                        best_score: f.score,
                        time_to_best_s: f.time_to_best,
                        time_s: f.time_s,
                        cpu_s: f.cpu_s,
                        peak_nodes: f.peak_nodes,
                        filled_node_budget: f.filled_node_budget(),
                        shard: req.items.shard,
                    }))
                })?
                else {
                    continue;
                };
                run_time += record.time_s;
                runs.push(RunFigures {
                    iterations: record.iterations,
                    all_iterations: record.all_iterations,
                    time_s: record.time_s,
                    cpu_s: record.cpu_s,
                    score: record.best_score,
                    time_to_best: record.time_to_best_s,
                    peak_nodes: record.peak_nodes,
                    node_budget: max_nodes as u64,
                });
                emit(ExperimentEvent::Run(record))?;
            }
            if runs.is_empty() && stop.load(Ordering::Relaxed) {
                // Stopped before this column's first whole run: no row for it (nor for the
                // columns after it).
                break;
            }
            let m = aggregate(&runs);
            emit(ExperimentEvent::Column(ColumnRecord {
                table: table.id.to_string(),
                column: column.label.to_string(),
                runs: m.runs,
                time_per_run_s: time.map(|t| t.as_secs_f64()),
                iterations: m.iterations,
                iterations_per_s: m.iterations_per_s,
                iterations_per_cpu_s: m.iterations_per_cpu_s,
                best_score: m.score,
                time_to_best_s: m.time_to_best,
                sigma: m.sigma,
                thesis_iterations_per_30s: column.thesis.iterations,
                thesis_best_score: column.thesis.score,
                thesis_time_to_best_s: column.thesis.time_to_best,
                thesis_sigma: column.thesis.sigma,
            }))?;
            measured.push(m);
        }
        if !measured.is_empty() {
            report.push_str(&markdown_table(table, &measured, &per_run));
            plots.push(table_plot(table, &measured, &per_run)?);
        }
        if stop.load(Ordering::Relaxed) {
            report.push_str("*Interrupted: the remaining tables were not run.*\n");
            break;
        }
    }
    report.push_str(&format!(
        "Run time: {:.1} s (the runs' seconds summed).\n",
        run_time
    ));
    Ok(Report {
        markdown: report,
        plots,
    })
}

/// The plot of one table: iterations per second and the best score per column, ours beside
/// the thesis's.
fn table_plot(table: &Table, measured: &[Measured], per_run: &str) -> Result<Plot> {
    let columns = &table.columns[..measured.len()];
    let title = format!("Table {} — {}", table.id, table.title);
    let svg = bar_chart(&BarChart {
        title: title.clone(),
        category_label: "configuration (column)".into(),
        categories: columns.iter().map(|c| c.label.clone()).collect(),
        series: vec![
            format!("ours ({per_run} per run, mean of seeds)"),
            "thesis (30 s per run, C++ on a Ryzen 5 3600)".into(),
        ],
        panels: vec![
            BarPanel {
                value_label: "iterations per second (1/s)".into(),
                values: vec![
                    measured.iter().map(|m| Some(m.iterations_per_s)).collect(),
                    columns
                        .iter()
                        .map(|c| Some(c.thesis.iterations / 30.0))
                        .collect(),
                ],
            },
            BarPanel {
                value_label: "mean best score (P_b · P_c, no unit)".into(),
                values: vec![
                    measured.iter().map(|m| Some(m.score)).collect(),
                    columns.iter().map(|c| Some(c.thesis.score)).collect(),
                ],
            },
        ],
    })?;
    Ok(Plot {
        name: format!("sokoban-gen-table-{}.svg", table.id),
        title,
        svg,
    })
}

impl crate::job::Job for ExperimentRequest {
    const NAME: &'static str = "sokoban_gen_experiment";
    const READS: &'static [crate::limits::Limit] = &[
        crate::limits::Limit::Seed,
        crate::limits::Limit::TimeLimit,
        crate::limits::Limit::Iterations,
        crate::limits::Limit::MaxNodes,
    ];
    const TITLE: &'static str = "The generation thesis's tables";
    type Event = ExperimentEvent;

    fn check(&self) -> Result<()> {
        check_experiment(self)
    }

    crate::job::job_fields!(limits, items);

    crate::job::job_run!(report experiment_report);

    fn example() -> Self {
        ExperimentRequest {
            tables: vec!["3.1".into()],
            seeds: 1,
            limits: Limits {
                iterations: Some(300),
                ..Limits::default()
            },
            ..ExperimentRequest::default()
        }
    }
}
