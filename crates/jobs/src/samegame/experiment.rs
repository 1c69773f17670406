//! The Czech thesis's SameGame comparison (§3.4): playout policies × selection formulas with
//! SP-MCTS on the standard boards, totals beside the paper's, as a Markdown report
//! (`puzzle experiment samegame`).

use super::{bundled_boards, parse_boards, scoring_of, PenaltyName, ScoringName};
use crate::event::{Emit, EventKind, ItemProgress, JobEvent};
use crate::limits::Limits;
use crate::plot::{
    bar_chart, line_chart, BarChart, BarPanel, Dash, LineChart, Plot, Report, Series,
};
use crate::shard::{ItemRecord, Items, Plan, Shard};
use anyhow::{bail, Result};
use puzzle_engine::mcts::{RewardTransform, SelectionPolicy};
use puzzle_engine::{Budget, Rng};
use puzzle_samegame::playout::AnyChooser;
use puzzle_samegame::search::{self, Algorithm, SolveConfig, SpMctsSettings};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The thesis's comparison (`puzzle experiment samegame`); every field's default is the CLI's.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema, clap::Args)]
#[serde(default)]
pub struct ExperimentRequest {
    /// The boards' text (any format the solve job reads); `None`: the bundled set `set`.
    #[arg(skip)]
    pub boards: Option<String>,
    /// Where `boards` came from, named in parse errors (a file path; `input` by default).
    #[arg(skip = String::from("input"))]
    pub source: String,
    /// The bundled set used without a boards file (`standard20`, the 20 standard boards).
    #[arg(long, default_value = "standard20")]
    #[schemars(title = "Board set")]
    pub set: String,
    /// Only the first N boards.
    #[arg(long, value_name = "N")]
    #[schemars(range(min = 1))]
    #[schemars(title = "Boards (first N)")]
    pub count: Option<usize>,
    /// The playout policies compared (comma-separated).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "tabu,pseudo-tabu,double-tabu"
    )]
    #[schemars(title = "Playout policies")]
    pub playouts: Vec<String>,
    /// The selection formulas compared (comma-separated): `ucb-tuned`, `uctk<C>` (UCB1),
    /// `spmcts`.
    // The doc comment is the `--help` text: `<C>` is a placeholder, not HTML.
    #[allow(rustdoc::invalid_html_tags)]
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "ucb-tuned,uctk0.1,uctk0.2,uctk0.4"
    )]
    #[schemars(title = "Selection formulas")]
    pub formulas: Vec<String>,
    /// End penalty for stones left. The thesis plays by js-games.de's rules, which subtract
    /// (m − 2)² for the m stones left (Czech thesis §3.1.1): its totals are on that scale.
    #[arg(long, value_enum, default_value_t = PenaltyName::Total)]
    #[schemars(title = "End penalty (stones left)")]
    pub penalty: PenaltyName,
    /// Budget per run (default 2,000 simulations when no time limit is given; 4,000,000
    /// nodes; seed 1); `threads` runs in parallel (one tree each).
    #[serde(flatten)]
    #[arg(skip)]
    pub limits: Limits,
    /// Sharding and resuming (items: every playout × formula × board run, in that order).
    #[serde(flatten)]
    #[arg(skip)]
    pub items: Items,
}

impl Default for ExperimentRequest {
    fn default() -> Self {
        crate::options::defaults()
    }
}

/// One cell of the totals table: the `puzzle experiment samegame --json` line.
#[derive(Clone, Debug, Serialize)]
pub struct TotalRecord {
    /// The playout policy.
    pub playout: String,
    /// The selection formula.
    pub formula: String,
    /// The total over the boards (`None` when a run failed or was not run).
    pub total: Option<i64>,
    /// The thesis's total over the 20 boards, where it has one.
    pub paper: Option<u32>,
}

/// One run (one playout, formula and board): the experiment's item record, from which a merge
/// of shards rebuilds the totals and the report.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RunRecord {
    /// The run's number (1-based; playout-major, then formula, then board).
    pub item: usize,
    /// The playout policy.
    pub playout: String,
    /// The selection formula.
    pub formula: String,
    /// The board's number in its set.
    pub board: usize,
    /// The run's seed (derived from the base seed and the board's position).
    pub seed: u64,
    /// The best score (`None` when the run failed).
    pub score: Option<i64>,
    /// Seconds the run took.
    pub time_s: f64,
    /// The shard that ran it (`"2/4"`), when the run was sharded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
}

fn run_identity(playout: &str, formula: &str, board: usize) -> String {
    format!("{playout} / {formula} on board {board}")
}

impl ItemRecord for RunRecord {
    fn identity(&self) -> String {
        run_identity(&self.playout, &self.formula, self.board)
    }
}

/// The events of the experiment.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum ExperimentEvent {
    /// Runs done (one run: one playout, formula and board; `solved`: runs with a score).
    Progress(ItemProgress),
    /// One run's score, in item order (sent at the end).
    Run(RunRecord),
    /// One cell of the totals table (all sent at the end).
    Total(TotalRecord),
}

impl JobEvent for ExperimentEvent {
    fn kind(&self) -> EventKind {
        match self {
            ExperimentEvent::Progress(_) => EventKind::Progress,
            ExperimentEvent::Run(_) | ExperimentEvent::Total(_) => EventKind::Result,
        }
    }
}

/// The thesis's totals over the 20 boards (§3.4, 700,000 simulations, 20 before expansion).
pub fn paper_total(playout: &str, formula: &str) -> Option<u32> {
    let row = match playout {
        "tabu" => [63_606, 66_091, 67_409, 62_624],
        "pseudo-tabu-3" => [55_228, 64_136, 62_566, 56_244],
        "double-tabu" => [61_739, 60_988, 62_910, 62_443],
        _ => return None,
    };
    let col = match formula {
        "ucb-tuned" => 0,
        "uctk0.1" => 1,
        "uctk0.2" => 2,
        "uctk0.4" => 3,
        _ => return None,
    };
    Some(row[col])
}

/// A selection formula: `ucb-tuned`, `uctk<C>` (UCB1 with C ≥ 0) or `spmcts`.
pub fn parse_formula(s: &str) -> Result<SelectionPolicy> {
    if s == "ucb-tuned" {
        return Ok(SelectionPolicy::Ucb1Tuned { c: 1.0 });
    }
    if s == "spmcts" {
        return Ok(SpMctsSettings::default().selection);
    }
    if let Some(c) = s.strip_prefix("uctk") {
        if let Ok(c) = c.parse::<f64>() {
            if c.is_finite() && c >= 0.0 {
                return Ok(SelectionPolicy::Ucb1 { c });
            }
        }
    }
    bail!("unknown formula '{s}' (expected ucb-tuned, uctk<C> or spmcts)")
}

/// Run the comparison: `Progress` per run (spread over `threads` workers), then a `Total` per
/// playout and formula; returns the Markdown report and its plots: the score per board and
/// configuration, and the totals per configuration beside the paper's (when the boards are
/// the 20 standard ones).
pub fn experiment_report(
    req: &ExperimentRequest,
    stop: &Arc<AtomicBool>,
    emit: Emit<'_, ExperimentEvent>,
) -> Result<Report> {
    req.limits.validate()?;
    if req.count == Some(0) {
        bail!("count must be at least 1");
    }
    if req.playouts.is_empty() {
        bail!("playouts: give at least one playout policy");
    }
    if req.formulas.is_empty() {
        bail!("formulas: give at least one selection formula");
    }
    let scoring = scoring_of(ScoringName::Standard, req.penalty);
    let mut boards = match &req.boards {
        Some(text) => parse_boards(text, &req.source, scoring)?,
        None => bundled_boards(&req.set, scoring)?,
    };
    if let Some(n) = req.count {
        boards.truncate(n);
    }
    let playouts: Vec<AnyChooser> = req
        .playouts
        .iter()
        .map(|s| s.trim().parse().map_err(anyhow::Error::msg))
        .collect::<Result<_>>()?;
    let formulas: Vec<(String, SelectionPolicy)> = req
        .formulas
        .iter()
        .map(|s| parse_formula(s.trim()).map(|f| (s.trim().to_string(), f)))
        .collect::<Result<_>>()?;
    let time_limit = req.limits.time_limit;
    let iterations = req.limits.iterations.or(if time_limit.is_none() {
        Some(2_000)
    } else {
        None
    });
    let budget = Budget {
        max_iterations: iterations,
        max_time: time_limit.map(Duration::from_secs_f64),
        max_nodes: req.limits.max_nodes.unwrap_or(super::DEFAULT_MAX_NODES),
        stop: Some(stop.clone()),
        progress: None,
    };
    let seed = req.limits.seed_or(1);
    // Runs: playout × formula × board, spread over the workers (one tree each).
    let mut jobs = Vec::new();
    for p in 0..playouts.len() {
        for f in 0..formulas.len() {
            for b in 0..boards.len() {
                jobs.push((p, f, b));
            }
        }
    }
    req.items.check(jobs.len())?;
    // Each run's record: set by the worker that ran it, or from an earlier run's record.
    let mut records: Vec<Option<RunRecord>> = vec![None; jobs.len()];
    let mut todo = Vec::new();
    let mut taken = Vec::new();
    let no_stop = AtomicBool::new(false);
    for (j, &(p, f, b)) in jobs.iter().enumerate() {
        let expected = run_identity(&playouts[p].to_string(), &formulas[f].0, boards[b].index);
        match req.items.plan(j + 1) {
            Plan::Skip => continue,
            Plan::Done(_) => {
                // Decoded and checked to be this item; the runs themselves start below.
                records[j] = req.items.record(j + 1, &expected, &no_stop, || Ok(None))?;
            }
            Plan::Run => todo.push(j),
        }
        taken.push(j);
    }
    let records = Mutex::new(records);
    // Records go out in item order, each as soon as every earlier one is out.
    let emitted = Mutex::new(0usize);
    let next = Mutex::new(0usize);
    let workers = req.limits.threads_or(1).min(todo.len()).max(1);
    let emit = Mutex::new(emit);
    let failed = Mutex::new(None::<anyhow::Error>);
    let finished = AtomicUsize::new(taken.len() - todo.len());
    let start = Instant::now();
    let flush = |emit: &mut Emit<'_, ExperimentEvent>| -> Result<()> {
        let mut at = emitted.lock().unwrap_or_else(|e| e.into_inner());
        while *at < taken.len() {
            let record = records.lock().unwrap_or_else(|e| e.into_inner())[taken[*at]].clone();
            let Some(record) = record else { break };
            (*emit)(ExperimentEvent::Run(record))?;
            *at += 1;
        }
        Ok(())
    };
    flush(&mut emit.lock().unwrap_or_else(|e| e.into_inner()))?;
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let j = {
                    let mut n = next.lock().unwrap_or_else(|e| e.into_inner());
                    if *n >= todo.len() || stop.load(Ordering::Relaxed) {
                        break;
                    }
                    *n += 1;
                    todo[*n - 1]
                };
                let (p, f, b) = jobs[j];
                let run_seed = Rng::stream_seed(seed, b as u64);
                let cfg = SolveConfig {
                    algorithm: Algorithm::SpMcts,
                    playout: playouts[p].clone(),
                    budget: budget.clone(),
                    seed: run_seed,
                    threads: 1,
                    spmcts: SpMctsSettings {
                        selection: formulas[f].1,
                        // The thesis: (score + 1500) / max_score (§3.3.4), max_score ≈ 6000 on 15×15.
                        reward: Some(RewardTransform {
                            offset: 1500.0,
                            scale: 1.0 / 6000.0,
                        }),
                        // The thesis ran one tree per board.
                        restart_after: None,
                        ..SpMctsSettings::default()
                    },
                    ..SolveConfig::default()
                };
                let run_start = Instant::now();
                let score = search::solve(&boards[b].board, &cfg, None)
                    .ok()
                    .map(|s| s.score);
                if stop.load(Ordering::Relaxed) {
                    // Cut short: not a run of the configured budget; left out (a resume runs
                    // it again).
                    break;
                }
                records.lock().unwrap_or_else(|e| e.into_inner())[j] = Some(RunRecord {
                    item: j + 1,
                    playout: playouts[p].to_string(),
                    formula: formulas[f].0.clone(),
                    board: boards[b].index,
                    seed: run_seed,
                    score,
                    time_s: run_start.elapsed().as_secs_f64(),
                    shard: req.items.shard,
                });
                let sent = {
                    // Counted under the receiver's lock, so progress never goes backwards.
                    let mut guard = emit.lock().unwrap_or_else(|e| e.into_inner());
                    let scored = records
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .iter()
                        .filter(|r| r.as_ref().is_some_and(|r| r.score.is_some()))
                        .count();
                    let done = finished.fetch_add(1, Ordering::Relaxed) + 1;
                    flush(&mut guard).and_then(|()| {
                        (*guard)(ExperimentEvent::Progress(ItemProgress {
                            done: done as u64,
                            total: taken.len() as u64,
                            solved: scored as u64,
                            label: "runs".into(),
                            elapsed_s: start.elapsed().as_secs_f64(),
                        }))
                    })
                };
                if let Err(e) = sent {
                    // The receiver is gone: stop the run as a closed output would.
                    stop.store(true, Ordering::Relaxed);
                    failed
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .get_or_insert(e);
                }
            });
        }
    });
    if let Some(e) = failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    let emit = emit.into_inner().unwrap_or_else(|e| e.into_inner());
    let records = records.into_inner().unwrap_or_else(|e| e.into_inner());
    let results: Vec<Option<i64>> = records
        .iter()
        .map(|r| r.as_ref().and_then(|r| r.score))
        .collect();
    let run_time: f64 = records.iter().flatten().map(|r| r.time_s).sum();
    let budget_text = match (iterations, time_limit) {
        (Some(n), None) => format!("{n} simulations per board"),
        (None, Some(t)) => format!("{t} s per board"),
        (Some(n), Some(t)) => format!("{n} simulations or {t} s per board"),
        (None, None) => unreachable!("a budget is always set"),
    };
    let mut md = String::new();
    md.push_str("# SameGame: playout policies × selection formulas (Czech thesis §3.4)\n\n");
    md.push_str(&format!(
        "{} boards, {budget_text}, 20 playouts before expansion (all children), rewards \
         (score + 1500) / 6000, standard scoring ((n − 2)², +1000 for clearing) with end \
         penalty {}, seed {seed}, one tree per run. Paper: 700,000 simulations per board, \
         js-games.de's rules (end penalty (m − 2)² for the m stones left). Run time {:.0} s \
         (the runs' seconds summed).\n\n",
        boards.len(),
        penalty_text(req.penalty),
        run_time
    ));
    md.push_str("Totals (ours / paper):\n\n| formula |");
    for p in &playouts {
        md.push_str(&format!(" {p} |"));
    }
    md.push_str("\n|---|");
    md.push_str(&"---|".repeat(playouts.len()));
    md.push('\n');
    let total_of = |p: usize, f: usize| -> Option<i64> {
        jobs.iter()
            .zip(&results)
            .filter(|((jp, jf, _), _)| *jp == p && *jf == f)
            .map(|(_, r)| *r)
            .sum()
    };
    for (f, (fname, _)) in formulas.iter().enumerate() {
        md.push_str(&format!("| {fname} |"));
        for (p, pol) in playouts.iter().enumerate() {
            let ours = total_of(p, f).map_or("–".to_string(), |t| t.to_string());
            let paper =
                paper_total(&pol.to_string(), fname).map_or("–".to_string(), |t| t.to_string());
            md.push_str(&format!(" {ours} / {paper} |"));
        }
        md.push('\n');
    }
    md.push_str("\nPer board:\n\n| board |");
    for p in &playouts {
        for (fname, _) in &formulas {
            md.push_str(&format!(" {p} {fname} |"));
        }
    }
    md.push_str("\n|---|");
    md.push_str(&"---|".repeat(playouts.len() * formulas.len()));
    md.push('\n');
    for (b, nb) in boards.iter().enumerate() {
        md.push_str(&format!("| {} |", nb.index));
        for p in 0..playouts.len() {
            for f in 0..formulas.len() {
                let j = jobs
                    .iter()
                    .position(|&x| x == (p, f, b))
                    .expect("job exists");
                md.push_str(&format!(
                    " {} |",
                    results[j].map_or("–".to_string(), |s| s.to_string())
                ));
            }
        }
        md.push('\n');
    }
    for (p, pol) in playouts.iter().enumerate() {
        for (f, (fname, _)) in formulas.iter().enumerate() {
            emit(ExperimentEvent::Total(TotalRecord {
                playout: pol.to_string(),
                formula: fname.clone(),
                total: total_of(p, f),
                paper: paper_total(&pol.to_string(), fname),
            }))?;
        }
    }
    // Plots: colour by formula, dash pattern by playout.
    let configs: Vec<(usize, usize)> = (0..playouts.len())
        .flat_map(|p| (0..formulas.len()).map(move |f| (p, f)))
        .collect();
    let name = |(p, f): (usize, usize)| format!("{} / {}", playouts[p], formulas[f].0);
    let per_board = configs
        .iter()
        .map(|&(p, f)| {
            let points = boards
                .iter()
                .enumerate()
                .filter_map(|(b, nb)| {
                    let j = jobs.iter().position(|&x| x == (p, f, b))?;
                    results[j].map(|s| (nb.index as f64, s as f64))
                })
                .collect();
            Series::new(name((p, f)), points)
                .styled(f, [Dash::Solid, Dash::Dashed, Dash::Dotted][p % 3])
        })
        .collect();
    let first = boards.first().map_or(1, |b| b.index) as f64;
    let last = boards.last().map_or(1, |b| b.index) as f64;
    let title = format!("SameGame: score per board ({budget_text})");
    let boards_svg = line_chart(&LineChart {
        title: title.clone(),
        x_label: "board (number in the set)".into(),
        y_label: "score (points)".into(),
        series: per_board,
        x_range: Some((first - 0.5, last + 0.5)),
        ..LineChart::default()
    })?;
    let mut plots = vec![Plot {
        name: "samegame-boards.svg".into(),
        title,
        svg: boards_svg,
    }];
    // The paper's totals are over the 20 standard boards: shown only beside the same boards.
    let standard = req.boards.is_none() && req.set == "standard20" && boards.len() == 20;
    let mut series = vec![format!("ours ({budget_text})")];
    let mut values = vec![configs
        .iter()
        .map(|&(p, f)| total_of(p, f).map(|t| t as f64))
        .collect::<Vec<_>>()];
    if standard {
        series.push("paper (700,000 simulations per board)".into());
        values.push(
            configs
                .iter()
                .map(|&(p, f)| paper_total(&playouts[p].to_string(), &formulas[f].0).map(f64::from))
                .collect(),
        );
    }
    let title = format!("SameGame: total score over {} boards", boards.len());
    let totals_svg = bar_chart(&BarChart {
        title: title.clone(),
        category_label: "playout / selection formula".into(),
        categories: configs.iter().map(|&c| name(c)).collect(),
        series,
        panels: vec![BarPanel {
            value_label: format!("total score over {} boards (points)", boards.len()),
            values,
        }],
    })?;
    plots.push(Plot {
        name: "samegame-totals.svg".into(),
        title,
        svg: totals_svg,
    });
    Ok(Report {
        markdown: md,
        plots,
    })
}

/// How the report names an end penalty.
fn penalty_text(penalty: PenaltyName) -> &'static str {
    match penalty {
        PenaltyName::None => "none",
        PenaltyName::Total => "(m − 2)² for the m stones left (js-games.de, the thesis's)",
        PenaltyName::PerColour => "Σ (m_c − 2)² over the colours left",
    }
}

impl crate::job::Job for ExperimentRequest {
    const NAME: &'static str = "samegame_experiment";
    const TITLE: &'static str = "The Czech thesis's SameGame comparison";
    type Event = ExperimentEvent;

    fn check(&self) -> Result<()> {
        if self.playouts.is_empty() {
            bail!("playouts: give at least one playout policy");
        }
        if self.formulas.is_empty() {
            bail!("formulas: give at least one selection formula");
        }
        for p in &self.playouts {
            p.trim()
                .parse::<AnyChooser>()
                .map_err(|e| anyhow::anyhow!("playouts: {e}"))?;
        }
        for f in &self.formulas {
            parse_formula(f.trim())?;
        }
        Ok(())
    }

    crate::job::job_fields!(limits, items);

    crate::job::job_run!(report experiment_report);

    fn example() -> Self {
        ExperimentRequest {
            count: Some(1),
            playouts: vec!["tabu".into()],
            formulas: vec!["uctk0.1".into()],
            limits: Limits {
                iterations: Some(200),
                ..Limits::default()
            },
            ..ExperimentRequest::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_add_up_and_the_report_cites_the_paper() {
        let req = ExperimentRequest {
            count: Some(2),
            playouts: vec!["tabu".into(), "double-tabu".into()],
            formulas: vec!["uctk0.1".into(), "ucb-tuned".into()],
            limits: Limits {
                iterations: Some(100),
                threads: Some(2),
                ..Limits::default()
            },
            ..ExperimentRequest::default()
        };
        let mut events = Vec::new();
        let md = experiment_report(&req, &Arc::new(AtomicBool::new(false)), &mut |e| {
            events.push(e);
            Ok(())
        })
        .unwrap()
        .markdown;
        let progress = events
            .iter()
            .filter(|e| matches!(e, ExperimentEvent::Progress(_)))
            .count();
        assert_eq!(progress, 2 * 2 * 2);
        let totals: Vec<&TotalRecord> = events
            .iter()
            .filter_map(|e| match e {
                ExperimentEvent::Total(t) => Some(t),
                _ => None,
            })
            .collect();
        assert_eq!(totals.len(), 4);
        assert!(totals.iter().all(|t| t.total.is_some_and(|s| s > 0)));
        let t = totals
            .iter()
            .find(|t| t.playout == "tabu" && t.formula == "uctk0.1")
            .unwrap();
        assert_eq!(t.paper, Some(66_091));
        // The report's totals row shows the same numbers.
        let row = md.lines().find(|l| l.starts_with("| uctk0.1 |")).unwrap();
        assert!(
            row.contains(&format!(" {} / 66091 |", t.total.unwrap())),
            "{row}"
        );
        // The same seed and iteration budget give the same totals on one thread.
        let mut again = Vec::new();
        let one = ExperimentRequest {
            limits: Limits {
                threads: Some(1),
                ..req.limits.clone()
            },
            ..req.clone()
        };
        experiment_report(&one, &Arc::new(AtomicBool::new(false)), &mut |e| {
            if let ExperimentEvent::Total(t) = e {
                again.push(t.total);
            }
            Ok(())
        })
        .unwrap();
        assert_eq!(again, totals.iter().map(|t| t.total).collect::<Vec<_>>());
    }

    #[test]
    fn the_thesis_rules_subtract_the_end_penalty_by_default() {
        // No group on this board: the game ends at once with its four stones left.
        let run = |penalty: PenaltyName| {
            let req = ExperimentRequest {
                boards: Some("2;2\n1;2\n3;4\n".into()),
                playouts: vec!["tabu".into()],
                formulas: vec!["uctk0.1".into()],
                limits: Limits {
                    iterations: Some(10),
                    threads: Some(1),
                    ..Limits::default()
                },
                penalty,
                ..ExperimentRequest::default()
            };
            let mut scores = Vec::new();
            let md = experiment_report(&req, &Arc::new(AtomicBool::new(false)), &mut |e| {
                if let ExperimentEvent::Run(r) = e {
                    scores.push(r.score);
                }
                Ok(())
            })
            .unwrap()
            .markdown;
            (scores, md)
        };
        assert_eq!(ExperimentRequest::default().penalty, PenaltyName::Total);
        let (scores, md) = run(PenaltyName::Total);
        assert_eq!(scores, vec![Some(-4)]);
        assert!(md.contains("(m − 2)² for the m stones left"), "{md}");
        assert_eq!(run(PenaltyName::None).0, vec![Some(0)]);
    }

    #[test]
    fn bad_requests_are_refused() {
        let run = |req: ExperimentRequest| {
            experiment_report(&req, &Arc::new(AtomicBool::new(false)), &mut |_| Ok(()))
                .map(drop)
                .unwrap_err()
                .to_string()
        };
        let base = ExperimentRequest {
            count: Some(1),
            limits: Limits {
                iterations: Some(10),
                ..Limits::default()
            },
            ..ExperimentRequest::default()
        };
        let err = run(ExperimentRequest {
            formulas: vec!["uctk-1".into()],
            ..base.clone()
        });
        assert!(err.contains("unknown formula 'uctk-1'"), "{err}");
        let err = run(ExperimentRequest {
            playouts: vec![],
            ..base.clone()
        });
        assert!(err.contains("playouts"), "{err}");
        let err = run(ExperimentRequest {
            set: "nope".into(),
            ..base.clone()
        });
        assert!(err.contains("unknown board set 'nope'"), "{err}");
        let err = run(ExperimentRequest {
            count: Some(0),
            ..base
        });
        assert!(err.contains("count"), "{err}");
    }
}
