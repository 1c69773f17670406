//! `puzzle experiment sudoku`: the Czech thesis's MCTS test grid (chapter 4.4: playouts ×
//! selection × AMAF, several runs each, on an easy, a medium and a hard puzzle with a simulation
//! limit per puzzle) and the success rate on magictour top95 against the simulation budget, as
//! a Markdown report.

use crate::data::{SUDOKU_GRID_PUZZLES, SUDOKU_TOP95};
use crate::event::{Emit, EventKind, ItemProgress, JobEvent};
use crate::limits::Limits;
use crate::plot::{line_chart, success_curve, Dash, LineChart, Plot, Report, Series};
use crate::shard::{ItemRecord, Items, Shard};
use anyhow::{bail, Result};
use clap::ValueEnum;
use puzzle_engine::Rng;
use puzzle_sudoku::mcts::{solve_mcts, CellChoice, MctsSudokuConfig, PlayoutKind, Selection};
use puzzle_sudoku::{parse_puzzle, parse_puzzles};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::check_simulations;

/// One of the three test puzzles of the thesis's grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum GridPuzzleName {
    /// The easy puzzle ([`crate::data::SUDOKU_EASY`]).
    #[schemars(title = "Easy")]
    Easy,
    /// The medium puzzle ([`crate::data::SUDOKU_MEDIUM`]).
    #[schemars(title = "Medium")]
    Medium,
    /// The hard puzzle ([`crate::data::SUDOKU_HARD`]).
    #[schemars(title = "Hard")]
    Hard,
}

/// The thesis's test grid and the top95 budget table (`puzzle experiment sudoku`, job
/// `sudoku_experiment`); the defaults are short ones (the thesis's in brackets). Every
/// configuration is the thesis's (`preset: thesis`: random tree cell, UCB1 0.2, no AMAF, 10
/// visits before expansion) with the playout, selection and AMAF of its row set explicitly:
/// `sudoku_solve`'s defaults (the most-constrained cell) do not apply. The top95 table adds the
/// MRV rows beside the thesis's.
// The field docs are the `--help` text, where `[10]` gives the thesis's value, not a link.
#[allow(rustdoc::broken_intra_doc_links)]
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema, clap::Args)]
#[serde(default)]
pub struct ExperimentRequest {
    /// Runs per configuration [10].
    #[arg(long, default_value_t = 3)]
    #[schemars(range(min = 1, max = 1000))]
    #[schemars(title = "Runs per configuration")]
    pub runs: u64,
    /// Simulation limit for the easy puzzle [10000].
    #[arg(long, default_value_t = 10_000)]
    #[schemars(range(min = 1, max = 10_000_000_000u64))]
    #[schemars(title = "Easy puzzle: simulations")]
    pub easy_limit: u64,
    /// Simulation limit for the medium puzzle [200000].
    #[arg(long, default_value_t = 50_000)]
    #[schemars(range(min = 1, max = 10_000_000_000u64))]
    #[schemars(title = "Medium puzzle: simulations")]
    pub medium_limit: u64,
    /// Simulation limit for the hard puzzle [700000].
    #[arg(long, default_value_t = 100_000)]
    #[schemars(range(min = 1, max = 10_000_000_000u64))]
    #[schemars(title = "Hard puzzle: simulations")]
    pub hard_limit: u64,
    /// Also run α-AMAF on the hard puzzle (the thesis left it out there).
    #[arg(long)]
    #[schemars(title = "Also α-AMAF on the hard puzzle")]
    pub amaf_on_hard: bool,
    /// Puzzles of top95 for the success-against-budget table.
    #[arg(long, default_value_t = 95)]
    #[schemars(range(min = 0, max = 95))]
    #[schemars(title = "top95 puzzles")]
    pub top95: u64,
    /// Largest simulation budget of the top95 table (restarts every 10% of it).
    #[arg(long, default_value_t = 100_000)]
    #[schemars(range(min = 1, max = 10_000_000_000u64))]
    #[schemars(title = "top95 largest budget (simulations)")]
    pub top95_budget: u64,
    /// Which of the grid's puzzles to run (comma-separated).
    #[arg(long, value_enum, value_delimiter = ',', default_values_t = [GridPuzzleName::Easy, GridPuzzleName::Medium, GridPuzzleName::Hard])]
    #[schemars(title = "Grid puzzles")]
    pub puzzles: Vec<GridPuzzleName>,
    /// Seed (default 1; run r uses the stream seed (seed, r)) and a time limit per run; the
    /// other settings are not used.
    #[serde(flatten)]
    #[arg(skip)]
    pub limits: Limits,
    /// Sharding and resuming (items: every grid run — puzzle × configuration × run — then
    /// every top95 run — configuration × puzzle —, in that order).
    #[serde(flatten)]
    #[arg(skip)]
    pub items: Items,
}

impl Default for ExperimentRequest {
    fn default() -> Self {
        crate::options::defaults()
    }
}

/// One row of the test grid: a configuration's runs on one puzzle.
#[derive(Clone, Debug, Serialize)]
pub struct GridRow {
    /// Always `grid`.
    pub table: String,
    /// The puzzle (`easy`, `medium` or `hard`).
    pub puzzle: String,
    /// Playout / selection / AMAF, as in the report.
    pub configuration: String,
    /// The simulation limit of a run.
    pub limit: u64,
    /// Runs asked for.
    pub runs: u64,
    /// Runs that solved the puzzle within the limit.
    pub solved: u64,
    /// Mean simulations of the solved runs (`None` when none solved it).
    pub mean_simulations: Option<f64>,
    /// Mean seconds per run.
    pub mean_time_s: f64,
    /// The Markdown report up to this row (not serialized; the CLI saves it as it goes).
    #[serde(skip)]
    pub report: String,
}

/// One row of the top95 table: a configuration's success against the simulation budget.
#[derive(Clone, Debug, Serialize)]
pub struct BudgetRow {
    /// Always `top95`.
    pub table: String,
    /// The configuration, as in the report.
    pub configuration: String,
    /// Puzzles of top95 run.
    pub puzzles: u64,
    /// The budgets of the table's columns.
    pub budgets: Vec<u64>,
    /// Puzzles solved within each budget.
    pub solved_within: Vec<u64>,
    /// Mean simulations of the solved puzzles (`None` when none was solved).
    pub mean_simulations: Option<f64>,
    /// The Markdown report up to this row (not serialized; the CLI saves it as it goes).
    #[serde(skip)]
    pub report: String,
}

/// One MCTS run (a grid run or a top95 puzzle): the experiment's item record, from which a
/// merge of shards rebuilds the rows and the report.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RunRecord {
    /// The run's number (1-based; the grid's runs first, then top95's).
    pub item: usize,
    /// `grid` or `top95`.
    pub table: String,
    /// The grid's puzzle (`easy` …) or the top95 puzzle's number (1-based).
    pub puzzle: String,
    /// The configuration, as in the report.
    pub configuration: String,
    /// The run's seed (the stream seed of the base seed and the run or puzzle index).
    pub seed: u64,
    /// The run solved the puzzle within its limit.
    pub solved: bool,
    /// Simulations run.
    pub simulations: u64,
    /// Seconds the run took.
    pub time_s: f64,
    /// The shard that ran it (`"2/4"`), when the run was sharded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
}

/// What identifies a run: its table, puzzle, configuration and seed.
struct RunId<'a> {
    table: &'a str,
    puzzle: String,
    configuration: &'a str,
    seed: u64,
}

fn identity(table: &str, puzzle: &str, configuration: &str, seed: u64) -> String {
    format!("{table} {puzzle} {configuration} seed {seed}")
}

impl ItemRecord for RunRecord {
    fn identity(&self) -> String {
        identity(&self.table, &self.puzzle, &self.configuration, self.seed)
    }
}

/// Item `item`'s record (see [`Items::record`](crate::Items::record)); `run` returns solved,
/// simulations and seconds.
fn item_record(
    req: &ExperimentRequest,
    item: usize,
    id: RunId<'_>,
    stop: &AtomicBool,
    run: impl FnOnce(u64) -> Result<(bool, u64, f64)>,
) -> Result<Option<RunRecord>> {
    let expected = identity(id.table, &id.puzzle, id.configuration, id.seed);
    req.items.record(item, &expected, stop, || {
        let (solved, simulations, time_s) = run(id.seed)?;
        if stop.load(Ordering::Relaxed) {
            // Cut short: not a run of the configured budget.
            return Ok(None);
        }
        Ok(Some(RunRecord {
            item,
            table: id.table.to_string(),
            puzzle: id.puzzle.clone(),
            configuration: id.configuration.to_string(),
            seed: id.seed,
            solved,
            simulations,
            time_s,
            shard: req.items.shard,
        }))
    })
}

/// The events of the experiment.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum ExperimentEvent {
    /// Runs done (`done` of `total`; `solved`: runs that solved their puzzle).
    Progress(ItemProgress),
    /// One run.
    Run(RunRecord),
    /// A row of the test grid.
    Grid(GridRow),
    /// A row of the top95 table.
    Budget(BudgetRow),
}

impl ExperimentEvent {
    /// The Markdown report so far, after a row.
    pub fn report_so_far(&self) -> Option<&str> {
        match self {
            ExperimentEvent::Progress(_) | ExperimentEvent::Run(_) => None,
            ExperimentEvent::Grid(r) => Some(&r.report),
            ExperimentEvent::Budget(r) => Some(&r.report),
        }
    }
}

impl JobEvent for ExperimentEvent {
    fn kind(&self) -> EventKind {
        match self {
            ExperimentEvent::Progress(_) => EventKind::Progress,
            ExperimentEvent::Run(_) | ExperimentEvent::Grid(_) | ExperimentEvent::Budget(_) => {
                EventKind::Result
            }
        }
    }
}

/// The thesis's MCTS settings (chapter 4.3, the `thesis` preset of `puzzle solve sudoku`), every
/// policy field spelled out so that a change of the solver's defaults cannot change the grid:
/// random playouts, a random cell for expansion, UCB1 with UCTK 0.2, no AMAF, 10 visits before
/// expansion, one thread. Each row then sets what it varies.
fn thesis_config() -> MctsSudokuConfig {
    MctsSudokuConfig {
        playout: PlayoutKind::Random,
        selection: Selection::Ucb1 { uctk: 0.2 },
        amaf: None,
        tree_cell: CellChoice::Random,
        visits_before_expand: 10,
        threads: 1,
        ..MctsSudokuConfig::default()
    }
}

/// A configuration of the test grid.
struct GridConfig {
    name: String,
    playout: PlayoutKind,
    selection: Selection,
    amaf: Option<f64>,
}

/// The grid's configurations (thesis 4.4): playouts × selection formulas, then the same with
/// α-AMAF 0.5 when `with_amaf`.
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

/// Check every field of the request.
fn validate(req: &ExperimentRequest) -> Result<()> {
    req.limits.validate()?;
    if !(1..=1000).contains(&req.runs) {
        bail!("runs must be 1 to 1000, not {}", req.runs);
    }
    check_simulations("easy_limit", req.easy_limit)?;
    check_simulations("medium_limit", req.medium_limit)?;
    check_simulations("hard_limit", req.hard_limit)?;
    if req.top95 > 95 {
        bail!("top95 must be 0 to 95 puzzles, not {}", req.top95);
    }
    check_simulations("top95_budget", req.top95_budget)?;
    Ok(())
}

/// Run an [`ExperimentRequest`]: `Progress` per run, a `Grid` or `Budget` event per table row;
/// returns the Markdown report (a stopped run keeps the finished rows) and its plots: per grid
/// puzzle, the share of runs solved within N simulations (one line per configuration); on top95,
/// the share of puzzles solved against the simulation budget (one line per configuration).
pub fn experiment_report(
    req: &ExperimentRequest,
    stop: &Arc<AtomicBool>,
    emit: Emit<'_, ExperimentEvent>,
) -> Result<Report> {
    validate(req)?;
    let mut plots = Vec::new();
    let seed = req.limits.seed_or(1);
    let time_limit = req.limits.time_limit.map(Duration::from_secs_f64);
    let started = Instant::now();
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
        req.runs
    )?;
    let puzzles: Vec<_> = SUDOKU_GRID_PUZZLES
        .into_iter()
        .zip([
            (req.easy_limit, true),
            (req.medium_limit, true),
            (req.hard_limit, req.amaf_on_hard),
        ])
        .filter(|((label, _), _)| {
            req.puzzles
                .iter()
                .any(|p| crate::options::choice_name(p) == *label)
        })
        .map(|((label, text), (limit, with_amaf))| (label, text, limit, with_amaf))
        .collect();
    let total: u64 = puzzles
        .iter()
        .map(|p| grid_configs(p.3).len() as u64 * req.runs)
        .sum::<u64>()
        + req.top95 * 4;
    req.items.check(total as usize)?;
    let mut item = 0;
    let (mut done, mut solved_runs) = (0u64, 0u64);
    let mut progress = |label: &str, solved: bool| -> ExperimentEvent {
        done += 1;
        solved_runs += u64::from(solved);
        ExperimentEvent::Progress(ItemProgress {
            done,
            total,
            solved: solved_runs,
            label: label.to_string(),
            elapsed_s: started.elapsed().as_secs_f64(),
        })
    };
    for (label, text, limit, with_amaf) in puzzles {
        let grid = parse_puzzle(text).map_err(|e| anyhow::anyhow!("{label} puzzle: {e}"))?;
        writeln!(
            md,
            "## {label} puzzle ({} clues, limit {limit} simulations)\n\n`{text}`\n",
            grid.clue_count()
        )?;
        writeln!(md, "| playout / selection / AMAF | solved | mean simulations (solved runs) | mean time (s) |")?;
        writeln!(md, "|---|---|---|---|")?;
        let mut curves = Vec::new();
        for cfg in grid_configs(with_amaf) {
            let (mut solved, mut sims, mut time) = (0u64, 0u64, 0.0);
            let mut run_sims = Vec::new();
            let run_label = format!("{label} {}", cfg.name);
            for run in 0..req.runs {
                item += 1;
                let id = RunId {
                    table: "grid",
                    puzzle: label.to_string(),
                    configuration: &cfg.name,
                    seed: Rng::stream_seed(seed, run),
                };
                let Some(r) = item_record(req, item, id, stop, |seed| {
                    let c = MctsSudokuConfig {
                        playout: cfg.playout,
                        selection: cfg.selection,
                        amaf: cfg.amaf,
                        restart_after: None,
                        max_simulations: limit,
                        seed,
                        stop: Some(stop.clone()),
                        time_limit,
                        ..thesis_config()
                    };
                    let r = solve_mcts(&grid, &c).map_err(|e| anyhow::anyhow!(e))?;
                    Ok((r.solution.is_some(), r.simulations, r.elapsed.as_secs_f64()))
                })?
                else {
                    continue;
                };
                time += r.time_s;
                run_sims.push(r.solved.then_some(r.simulations as f64));
                if r.solved {
                    solved += 1;
                    sims += r.simulations;
                }
                let solved_now = r.solved;
                emit(ExperimentEvent::Run(r))?;
                emit(progress(&run_label, solved_now))?;
            }
            let mean_simulations = (solved > 0).then(|| sims as f64 / solved as f64);
            curves.push(GridCurve {
                playout: cfg.playout,
                selection: cfg.selection,
                amaf: cfg.amaf.is_some(),
                name: cfg.name.clone(),
                simulations: run_sims,
            });
            let mean_time_s = time / req.runs as f64;
            writeln!(
                md,
                "| {} | {solved}/{} | {} | {:.2} |",
                cfg.name,
                req.runs,
                mean_simulations.map_or_else(|| "–".into(), |m| format!("{m:.0}")),
                mean_time_s
            )?;
            emit(ExperimentEvent::Grid(GridRow {
                table: "grid".into(),
                puzzle: label.to_string(),
                configuration: cfg.name,
                limit,
                runs: req.runs,
                solved,
                mean_simulations,
                mean_time_s,
                report: md.clone(),
            }))?;
        }
        plots.push(grid_plot(label, limit, req.runs, &curves)?);
        writeln!(md)?;
    }
    // Success against budget on top95.
    if req.top95 > 0 {
        let top = parse_puzzles(SUDOKU_TOP95).map_err(|e| anyhow::anyhow!("bundled top95: {e}"))?;
        let budgets: Vec<u64> = [1u64, 3, 10, 30, 100]
            .iter()
            .map(|f| req.top95_budget * f / 100)
            .filter(|&b| b > 0)
            .collect();
        writeln!(
            md,
            "## Success rate against the simulation budget on magictour top95 (first {} puzzles)\n",
            req.top95
        )?;
        writeln!(
            md,
            "One run per puzzle with the largest budget ({}), restarting every {} simulations; a \
             puzzle counts as solved within budget B if that run solved it within B simulations \
             (a run with budget B is the same run cut at B).\n",
            req.top95_budget,
            (req.top95_budget / 10).max(1)
        )?;
        write!(md, "| configuration |")?;
        for b in &budgets {
            write!(md, " ≤ {b} |")?;
        }
        writeln!(md, " mean simulations (solved) |")?;
        writeln!(md, "|---|{}---|", "---|".repeat(budgets.len()))?;
        let mut lines = Vec::new();
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
            let run_label = format!("top95 {name}");
            for (i, p) in top.iter().take(req.top95 as usize).enumerate() {
                item += 1;
                let id = RunId {
                    table: "top95",
                    puzzle: (i + 1).to_string(),
                    configuration: name,
                    seed: Rng::stream_seed(seed, i as u64),
                };
                let Some(r) = item_record(req, item, id, stop, |seed| {
                    let c = MctsSudokuConfig {
                        playout,
                        tree_cell,
                        restart_after: Some((req.top95_budget / 10).max(1)),
                        max_simulations: req.top95_budget,
                        seed,
                        stop: Some(stop.clone()),
                        time_limit,
                        ..thesis_config()
                    };
                    let r = solve_mcts(&p.grid, &c).map_err(|e| anyhow::anyhow!(e))?;
                    Ok((r.solution.is_some(), r.simulations, r.elapsed.as_secs_f64()))
                })?
                else {
                    continue;
                };
                if r.solved {
                    sims_to_solve.push(r.simulations);
                }
                let solved_now = r.solved;
                emit(ExperimentEvent::Run(r))?;
                emit(progress(&run_label, solved_now))?;
            }
            write!(md, "| {name} |")?;
            let mut solved_within = Vec::new();
            for &b in &budgets {
                let k = sims_to_solve.iter().filter(|&&s| s <= b).count();
                solved_within.push(k as u64);
                write!(md, " {:.0} % |", 100.0 * k as f64 / req.top95 as f64)?;
            }
            lines.push(Series::new(
                name,
                budgets
                    .iter()
                    .zip(&solved_within)
                    .map(|(&b, &k)| (b as f64, 100.0 * k as f64 / req.top95 as f64))
                    .collect(),
            ));
            let mean_simulations = (!sims_to_solve.is_empty())
                .then(|| sims_to_solve.iter().sum::<u64>() as f64 / sims_to_solve.len() as f64);
            writeln!(
                md,
                " {} |",
                mean_simulations.map_or_else(|| "–".to_string(), |m| format!("{m:.0}"))
            )?;
            emit(ExperimentEvent::Budget(BudgetRow {
                table: "top95".into(),
                configuration: name.to_string(),
                puzzles: req.top95,
                budgets: budgets.clone(),
                solved_within,
                mean_simulations,
                report: md.clone(),
            }))?;
        }
        let title = format!(
            "Sudoku, magictour top95 (first {}): success against the simulation budget",
            req.top95
        );
        let svg = line_chart(&LineChart {
            title: title.clone(),
            x_label: "simulation budget (simulations, log scale)".into(),
            y_label: "puzzles solved within the budget (%)".into(),
            series: lines,
            log_x: true,
            y_range: Some((0.0, 100.0)),
            ..LineChart::default()
        })?;
        plots.push(Plot {
            name: "sudoku-top95.svg".into(),
            title,
            svg,
        });
        writeln!(md)?;
    }
    Ok(Report {
        markdown: md,
        plots,
    })
}

/// One configuration's runs on a grid puzzle, for the plot.
struct GridCurve {
    playout: PlayoutKind,
    selection: Selection,
    amaf: bool,
    name: String,
    /// Simulations of each run that solved the puzzle (`None`: not solved).
    simulations: Vec<Option<f64>>,
}

/// The plot of one grid puzzle: the share of runs solved within N simulations, one step line
/// per configuration (colour: the selection formula, the α-AMAF ones in the next four colours;
/// dashed: pseudo-random playouts).
fn grid_plot(label: &str, limit: u64, runs: u64, curves: &[GridCurve]) -> Result<Plot> {
    let series = curves
        .iter()
        .map(|c| {
            let colour = match c.selection {
                Selection::Ucb1Tuned => 0,
                Selection::Ucb1 { uctk } if uctk <= 0.1 => 1,
                Selection::Ucb1 { uctk } if uctk <= 0.2 => 2,
                _ => 3,
            } + if c.amaf { 4 } else { 0 };
            let dash = if c.playout == PlayoutKind::Random {
                Dash::Solid
            } else {
                Dash::Dashed
            };
            Series::new(
                c.name.clone(),
                success_curve(&c.simulations, 0.0, limit as f64),
            )
            .styled(colour, dash)
            .without_markers()
        })
        .collect();
    let title = format!("Sudoku, {label} puzzle: runs solved within N simulations ({runs} runs)");
    let svg = line_chart(&LineChart {
        title: title.clone(),
        x_label: "simulations N".into(),
        y_label: "runs solved within N simulations (%)".into(),
        series,
        x_range: Some((0.0, limit as f64)),
        y_range: Some((0.0, 100.0)),
        ..LineChart::default()
    })?;
    Ok(Plot {
        name: format!("sudoku-grid-{label}.svg"),
        title,
        svg,
    })
}

impl crate::job::Job for ExperimentRequest {
    const NAME: &'static str = "sudoku_experiment";
    const READS: &'static [crate::limits::Limit] =
        &[crate::limits::Limit::Seed, crate::limits::Limit::TimeLimit];
    const TITLE: &'static str = "The Sudoku thesis's MCTS test grid";
    type Event = ExperimentEvent;

    fn check(&self) -> Result<()> {
        validate(self)
    }

    crate::job::job_fields!(limits, items);

    crate::job::job_run!(report experiment_report);

    fn example() -> Self {
        ExperimentRequest {
            runs: 1,
            easy_limit: 200,
            medium_limit: 200,
            hard_limit: 200,
            puzzles: vec![GridPuzzleName::Easy],
            top95: 1,
            top95_budget: 200,
            ..ExperimentRequest::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(req: &ExperimentRequest) -> Result<(Vec<ExperimentEvent>, String)> {
        let mut events = Vec::new();
        let stop = Arc::new(AtomicBool::new(false));
        let report = experiment_report(req, &stop, &mut |e| {
            events.push(e);
            Ok(())
        })?;
        Ok((events, report.markdown))
    }

    #[test]
    fn a_tiny_grid_reports_every_row_and_counts_its_runs() {
        let req = ExperimentRequest {
            runs: 2,
            easy_limit: 300,
            top95: 2,
            top95_budget: 200,
            puzzles: vec![GridPuzzleName::Easy],
            ..ExperimentRequest::default()
        };
        let (events, md) = run(&req).unwrap();
        let grid: Vec<&GridRow> = events
            .iter()
            .filter_map(|e| match e {
                ExperimentEvent::Grid(r) => Some(r),
                _ => None,
            })
            .collect();
        let budget: Vec<&BudgetRow> = events
            .iter()
            .filter_map(|e| match e {
                ExperimentEvent::Budget(r) => Some(r),
                _ => None,
            })
            .collect();
        // 16 configurations on the easy puzzle (α-AMAF included), 4 on top95.
        assert_eq!((grid.len(), budget.len()), (16, 4));
        for r in &grid {
            assert_eq!((r.puzzle.as_str(), r.runs, r.limit), ("easy", 2, 300));
            assert!(r.solved <= 2);
            assert_eq!(r.mean_simulations.is_some(), r.solved > 0);
            assert!(md.contains(&format!("| {} | {}/2 |", r.configuration, r.solved)));
            assert!(md.starts_with(&r.report));
        }
        for r in &budget {
            assert_eq!(r.budgets, [2, 6, 20, 60, 200]);
            assert!(r.solved_within.windows(2).all(|w| w[0] <= w[1]));
            assert!(*r.solved_within.last().unwrap() <= 2);
        }
        // Progress: one event per run, ending at the total.
        let progress: Vec<&ItemProgress> = events
            .iter()
            .filter_map(|e| match e {
                ExperimentEvent::Progress(p) => Some(p),
                _ => None,
            })
            .collect();
        assert_eq!(progress.len() as u64, 16 * 2 + 2 * 4);
        let last = progress.last().unwrap();
        assert_eq!((last.done, last.total), (40, 40));
        assert!(md.contains("## easy puzzle") && !md.contains("## hard puzzle"));
        assert!(md.contains("magictour top95 (first 2 puzzles)"));
        let json = serde_json::to_value(ExperimentEvent::Grid(grid[0].clone())).unwrap();
        assert!(json.get("report").is_none(), "{json}");
        assert_eq!(json["table"], "grid");
    }

    #[test]
    fn the_grid_puzzles_are_the_bundled_ones() {
        let names: Vec<&str> = SUDOKU_GRID_PUZZLES.iter().map(|(n, _)| *n).collect();
        assert_eq!(crate::options::choice_names::<GridPuzzleName>(), names);
        let e =
            serde_json::from_str::<ExperimentRequest>(r#"{"puzzles": ["hardest"]}"#).unwrap_err();
        assert!(e.to_string().contains("unknown variant `hardest`"), "{e}");
    }

    #[test]
    fn bad_experiment_requests_are_refused_naming_the_field() {
        let cases: Vec<(ExperimentRequest, &str)> = vec![
            (
                ExperimentRequest {
                    runs: 0,
                    ..ExperimentRequest::default()
                },
                "runs",
            ),
            (
                ExperimentRequest {
                    hard_limit: 0,
                    ..ExperimentRequest::default()
                },
                "hard_limit",
            ),
            (
                ExperimentRequest {
                    top95: 96,
                    ..ExperimentRequest::default()
                },
                "top95",
            ),
            (
                ExperimentRequest {
                    top95_budget: 20_000_000_000,
                    ..ExperimentRequest::default()
                },
                "top95_budget",
            ),
        ];
        for (req, field) in cases {
            let err = run(&req).unwrap_err().to_string();
            assert!(err.contains(field), "{field}: {err}");
        }
    }
}
