//! The thesis's experiments (its chapter 3, Tables 3.1–3.8; see
//! `docs/METHODS.md#sokogen-experiments`):
//! 5×5 boards, start (2, 2), optimizations added one after the other, each column run over
//! several seeds; mean iterations, best score, time to best and the best score's σ, beside the
//! thesis's numbers (C++ -O3, Ryzen 5 3600, 30 s per run, 10 seeds; 30 in Tables 3.7 and 3.8).

use crate::config::{Bootstrap, BoxLimit, GenConfig, MoveAgent, Selection};
use crate::generate::{generate, GenError, GenParams};
use puzzle_engine::Budget;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// One column of a thesis table: its mean iterations per 30 s run, best score, time to best
/// (s) and σ of the best score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ThesisCell {
    /// Iterations per 30 s run (for bootstrapping: since the bootstrap start).
    pub iterations: f64,
    /// Mean best score.
    pub score: f64,
    /// Mean time to the best score (s).
    pub time_to_best: f64,
    /// Standard deviation of the best score.
    pub sigma: f64,
}

/// The thesis's own work for a column, in iterations: what the equal-iterations comparison
/// runs instead of 30 s on the thesis's machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThesisWork {
    /// All iterations of the run.
    pub iterations: u64,
    /// Of which the bootstrapped search's (Table 3.6, δ > 0); `None` without bootstrapping.
    pub bootstrap: Option<u64>,
}

/// A column: a configuration and the thesis's result for it.
#[derive(Clone, Debug)]
pub struct Column {
    /// The column's heading.
    pub label: String,
    /// The configuration run.
    pub config: GenConfig,
    /// The thesis's numbers.
    pub thesis: ThesisCell,
    /// The thesis's iterations per run, for the equal-iterations comparison: the published
    /// "Iterationszahl" (thesis §3.2–3.9). For Table 3.6 with δ > 0 the thesis counts only the
    /// bootstrapped search's iterations (from the start at 30·(1 − δ) s, §3.7); the first
    /// search then gets (1 − δ) of the δ = 0 column's 3,924,687, the iterations that
    /// configuration ran in the same time.
    pub thesis_work: ThesisWork,
}

/// A table of the thesis.
#[derive(Clone, Debug)]
pub struct Table {
    /// "3.1" … "3.8".
    pub id: &'static str,
    /// What it compares.
    pub title: &'static str,
    /// What stays fixed in it.
    pub setup: &'static str,
    /// Its columns.
    pub columns: Vec<Column>,
}

fn cell(iterations: f64, score: f64, time_to_best: f64, sigma: f64) -> ThesisCell {
    ThesisCell {
        iterations,
        score,
        time_to_best,
        sigma,
    }
}

fn col(label: &str, config: GenConfig, thesis: ThesisCell) -> Column {
    let iterations = thesis.iterations.round() as u64;
    let thesis_work = match config.bootstrap.filter(|b| b.delta > 0.0) {
        Some(b) => {
            let first = ((1.0 - b.delta) * TABLE_3_6_NO_BOOTSTRAP.iterations).round() as u64;
            ThesisWork {
                iterations: first + iterations,
                bootstrap: Some(iterations),
            }
        }
        None => ThesisWork {
            iterations,
            bootstrap: None,
        },
    };
    Column {
        label: label.to_string(),
        config,
        thesis,
        thesis_work,
    }
}

/// Table 3.6's δ = 0 column (no bootstrapping; thesis §3.7).
const TABLE_3_6_NO_BOOTSTRAP: ThesisCell = ThesisCell {
    iterations: 3_924_687.0,
    score: 1.4350,
    time_to_best: 15.0072,
    sigma: 0.0506,
};

/// The eight tables with their configurations, built up cumulatively as in the thesis: each
/// table adds the optimization the previous one found good.
pub fn tables() -> Vec<Table> {
    let base0 = GenConfig::unoptimized();
    let naive = GenConfig {
        rules: crate::Rules {
            move_agent: MoveAgent::Naive,
            ..base0.rules
        },
        ..base0
    };
    let mut push = base0;
    push.rules.move_agent = MoveAgent::Push;
    let mut base1 = push;
    base1.rules.require_box = true;
    let with_limit = |limit: BoxLimit| {
        let mut c = base1;
        c.rules.box_limit = limit;
        c
    };
    // Table 3.3's text: "lower box limit 1 and upper box limit 9 are active".
    let base2 = with_limit(BoxLimit::AreaOver(3));
    let with_depth = |d: u16| {
        let mut c = base2;
        c.rules.depth_limit = d;
        c
    };
    let base3 = with_depth(10);
    let mut base4 = base3;
    base4.rules.remove_impossible = true;
    let mut base5 = base4;
    base5.allocation_free = true;
    let with_delta = |delta: f64| {
        let mut c = base5;
        c.bootstrap = (delta > 0.0).then_some(Bootstrap { levels: 4, delta });
        c
    };
    let with_selection = |s: Selection| {
        let mut c = base5;
        c.selection = s;
        c
    };
    vec![
        Table {
            id: "3.1",
            title: "Move-Agent: push-based vs naive",
            setup: "every optimization off except bloom",
            columns: vec![
                col(
                    "push-based",
                    push,
                    cell(4_498_609.0, 1.1480, 11.7857, 0.0457),
                ),
                col("naive", naive, cell(4_972_319.0, 0.8199, 12.4690, 0.0245)),
            ],
        },
        Table {
            id: "3.2",
            title: "Upper box limit",
            setup: "push-based Move-Agent, lower box limit 1",
            columns: vec![
                col(
                    "∞",
                    with_limit(BoxLimit::Unlimited),
                    cell(3_600_105.0, 1.1507, 15.8943, 0.0826),
                ),
                col(
                    "20",
                    with_limit(BoxLimit::Fixed(20)),
                    cell(3_632_097.0, 1.1433, 16.0630, 0.0521),
                ),
                col(
                    "15",
                    with_limit(BoxLimit::Fixed(15)),
                    cell(3_650_202.0, 1.1363, 12.3663, 0.0612),
                ),
                col(
                    "10",
                    with_limit(BoxLimit::Fixed(10)),
                    cell(3_709_194.0, 1.2997, 17.4361, 0.0193),
                ),
                col(
                    "5",
                    with_limit(BoxLimit::Fixed(5)),
                    cell(3_950_324.0, 1.3518, 14.7178, 0.0525),
                ),
            ],
        },
        Table {
            id: "3.3",
            title: "Depth limit for Freeze-Level",
            setup: "+ box limits 1 and ⌈25/3⌉ = 9 (as the thesis's text for this table)",
            columns: vec![
                col(
                    "0",
                    with_depth(0),
                    cell(3_527_152.0, 1.3678, 10.8055, 0.0635),
                ),
                col(
                    "5",
                    with_depth(5),
                    cell(3_562_598.0, 1.3710, 15.1329, 0.0825),
                ),
                col(
                    "7",
                    with_depth(7),
                    cell(3_474_843.0, 1.3605, 14.5628, 0.0415),
                ),
                col(
                    "10",
                    with_depth(10),
                    cell(3_108_058.0, 1.3931, 17.0468, 0.0403),
                ),
                col(
                    "15",
                    with_depth(15),
                    cell(2_722_091.0, 1.3654, 9.1510, 0.0260),
                ),
            ],
        },
        Table {
            id: "3.4",
            title: "Impossible-configuration removal at Freeze-Level",
            setup: "+ depth limit 10",
            columns: vec![
                col("off", base3, cell(3_135_409.0, 1.3557, 14.5781, 0.0516)),
                col("on", base4, cell(3_091_629.0, 1.4439, 10.6731, 0.0614)),
            ],
        },
        Table {
            id: "3.5",
            title: "Allocation-free playouts",
            setup: "+ impossible-configuration removal",
            columns: vec![
                col(
                    "allocating",
                    base4,
                    cell(3_069_198.0, 1.4589, 14.6182, 0.0462),
                ),
                col(
                    "allocation-free",
                    base5,
                    cell(3_897_098.0, 1.4611, 13.5235, 0.0445),
                ),
            ],
        },
        Table {
            id: "3.6",
            title: "Bootstrapping (n = 4), share δ of the time",
            setup:
                "+ allocation-free playouts; iterations for δ > 0 counted from the bootstrap start",
            columns: vec![
                col("δ = 0", with_delta(0.0), TABLE_3_6_NO_BOOTSTRAP),
                col(
                    "δ = 0.05",
                    with_delta(0.05),
                    cell(1_170_963.0, 1.4705, 28.5884, 0.0780),
                ),
                col(
                    "δ = 0.10",
                    with_delta(0.10),
                    cell(2_425_516.0, 1.4516, 27.0664, 0.0725),
                ),
                col(
                    "δ = 0.15",
                    with_delta(0.15),
                    cell(3_625_749.0, 1.4583, 25.6074, 0.0749),
                ),
                col(
                    "δ = 0.20",
                    with_delta(0.20),
                    cell(4_948_784.0, 1.4769, 24.0890, 0.0685),
                ),
            ],
        },
        Table {
            id: "3.7",
            title: "Exploration factor ξ (UCB1 with C = ξ/√2)",
            setup: "no bootstrapping",
            columns: (1..=6)
                .map(|xi| {
                    let thesis = [
                        cell(3_939_814.0, 1.4231, 17.7743, 0.0456),
                        cell(3_807_184.0, 1.4582, 16.4087, 0.0563),
                        cell(3_760_231.0, 1.4252, 14.1706, 0.0451),
                        cell(3_737_064.0, 1.4307, 13.9001, 0.0565),
                        cell(3_722_411.0, 1.4302, 12.8775, 0.0522),
                        cell(3_715_273.0, 1.4315, 16.4749, 0.0583),
                    ][xi - 1];
                    col(
                        &format!("ξ = {xi}"),
                        with_selection(Selection::Ucb1 { xi: xi as f64 }),
                        thesis,
                    )
                })
                .collect(),
        },
        Table {
            id: "3.8",
            title: "Selection formulas",
            setup: "no bootstrapping; C = 2/√2 (UCB1, SP-MCTS), 8/√2 (UCB1-Tuned), 16/√2 (UCB-V)",
            columns: Selection::table_3_8()
                .into_iter()
                .zip([
                    cell(3_773_864.0, 1.4322, 18.1368, 0.0552),
                    cell(3_764_409.0, 1.4407, 15.3107, 0.0762),
                    cell(3_790_436.0, 1.4344, 13.8132, 0.0564),
                    cell(3_774_020.0, 1.4371, 15.0853, 0.0409),
                ])
                .map(|((name, s), thesis)| col(name, with_selection(s), thesis))
                .collect(),
        },
    ]
}

/// Our measurement of one column.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measured {
    /// Runs done.
    pub runs: usize,
    /// Runs whose tree filled the node budget ([`RunFigures::filled_node_budget`]).
    pub filled_node_budget: usize,
    /// The runs' node budget.
    pub node_budget: u64,
    /// Mean iterations per run (for bootstrapping: since the bootstrap start).
    pub iterations: f64,
    /// Mean iterations per second (whole run, wall time).
    pub iterations_per_s: f64,
    /// Iterations per CPU-second of this process (Linux; `None` elsewhere): on a shared
    /// machine the fair measure of speed.
    pub iterations_per_cpu_s: Option<f64>,
    /// Mean best score.
    pub score: f64,
    /// Mean time to best (s).
    pub time_to_best: f64,
    /// Standard deviation of the best score (population).
    pub sigma: f64,
}

/// One run of a configuration (one seed): the figures a column's [`Measured`] is made of.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RunFigures {
    /// Iterations counted for the table (for bootstrapping: since the bootstrap start).
    pub iterations: u64,
    /// All iterations of the run.
    pub all_iterations: u64,
    /// Seconds the run took (wall time).
    pub time_s: f64,
    /// CPU seconds of this process during the run (Linux; `None` elsewhere).
    pub cpu_s: Option<f64>,
    /// The best score.
    pub score: f64,
    /// When the best was found (s).
    pub time_to_best: f64,
    /// The largest tree the run held (nodes; 0 when not recorded).
    pub peak_nodes: u64,
    /// The run's node budget: a run whose tree reached it stopped growing there (the thesis's
    /// trees were unbounded).
    pub node_budget: u64,
}

/// More nodes than one expansion's block of children can hold on the thesis's boards (one child
/// per legal action of the generation game, a few dozen on 5×5): a tree this close to its
/// budget has refused a block.
pub const BLOCK_MARGIN: u64 = 4096;

impl RunFigures {
    /// Did the run's tree fill its node budget? The tree adds a node's children as one block
    /// and refuses a block that would not fit, so a full tree can stop a little below the
    /// budget: it counts as full within [`BLOCK_MARGIN`] nodes of it (a 64th of a smaller
    /// budget).
    pub fn filled_node_budget(&self) -> bool {
        let margin = BLOCK_MARGIN.min(self.node_budget / 64);
        self.peak_nodes > 0 && self.peak_nodes + margin >= self.node_budget
    }
}

/// Run one configuration on 5×5, start (2, 2), for `time` and `iterations`, whichever ends
/// first (at least one of them given), with `seed` (one thread). `bootstrap_iterations`: of
/// `iterations`, the bootstrapped search's own count (see [`GenParams::bootstrap_iterations`]).
pub fn run_once(
    config: GenConfig,
    seed: u64,
    time: Option<Duration>,
    iterations: Option<u64>,
    bootstrap_iterations: Option<u64>,
    max_nodes: usize,
    stop: Option<Arc<AtomicBool>>,
) -> Result<RunFigures, GenError> {
    let mut budget = Budget {
        max_time: time,
        max_iterations: iterations,
        ..Budget::default()
    }
    .with_max_nodes(max_nodes);
    budget.stop = stop;
    let params = GenParams {
        width: 5,
        height: 5,
        start: Some((2, 2)),
        config,
        budget,
        seed,
        threads: 1,
        threshold: None,
        near_duplicate_cells: 0,
        bootstrap_iterations,
        seed_level: None,
        aim: None,
        sample_every: None,
    };
    let cpu_before = process_cpu_seconds();
    let summary = generate(&params, &mut |_| Ok(()))?;
    let cpu_s = match (cpu_before, process_cpu_seconds()) {
        (Some(a), Some(b)) => Some(b - a),
        _ => None,
    };
    Ok(RunFigures {
        iterations: if config.bootstrap.is_some() && summary.bootstrap_start_s.is_some() {
            summary.bootstrap_iterations
        } else {
            summary.iterations
        },
        all_iterations: summary.iterations,
        time_s: summary.elapsed.as_secs_f64(),
        cpu_s,
        score: summary.best_score,
        time_to_best: summary.time_to_best_s,
        peak_nodes: summary.peak_nodes as u64,
        node_budget: max_nodes as u64,
    })
}

/// A column's measurement from its runs (means over the runs; σ of the best score over the
/// population of runs).
pub fn aggregate(runs: &[RunFigures]) -> Measured {
    let n = runs.len().max(1) as f64;
    let mean = runs.iter().map(|r| r.score).sum::<f64>() / n;
    let var = runs
        .iter()
        .map(|r| (r.score - mean) * (r.score - mean))
        .sum::<f64>()
        / n;
    let cpu = runs
        .iter()
        .try_fold(0.0, |total, r| r.cpu_s.map(|c| total + c));
    let all_its: u64 = runs.iter().map(|r| r.all_iterations).sum();
    Measured {
        runs: runs.len(),
        iterations: runs.iter().map(|r| r.iterations as f64).sum::<f64>() / n,
        iterations_per_s: runs
            .iter()
            .map(|r| r.all_iterations as f64 / r.time_s.max(1e-9))
            .sum::<f64>()
            / n,
        iterations_per_cpu_s: cpu.filter(|&c| c > 0.0).map(|c| all_its as f64 / c),
        score: mean,
        time_to_best: runs.iter().map(|r| r.time_to_best).sum::<f64>() / n,
        sigma: var.sqrt(),
        filled_node_budget: runs.iter().filter(|r| r.filled_node_budget()).count(),
        node_budget: runs.iter().map(|r| r.node_budget).max().unwrap_or(0),
    }
}

/// Run one configuration on 5×5, start (2, 2), for `time` per run, once per seed (one thread).
/// Stops early (with the runs done so far) when `stop` is set.
pub fn measure(
    config: GenConfig,
    seeds: &[u64],
    time: Duration,
    max_nodes: usize,
    stop: Option<Arc<AtomicBool>>,
) -> Result<Measured, GenError> {
    let mut runs = Vec::new();
    for &seed in seeds {
        if stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed)) {
            break;
        }
        runs.push(run_once(
            config,
            seed,
            Some(time),
            None,
            None,
            max_nodes,
            stop.clone(),
        )?);
    }
    Ok(aggregate(&runs))
}

/// A Markdown table comparing our measurements of `table` with the thesis's; `per_run` says
/// what bounded each of our runs (`0.5 s`, `2000 iterations`).
pub fn markdown_table(table: &Table, measured: &[Measured], per_run: &str) -> String {
    let mut s = format!(
        "### Table {} — {}\n\nSetup: {}.\n\n| | thesis it/30 s | thesis it/s | ours it/run ({per_run}) | ours it/s | ours it/CPU-s | thesis score | ours score | thesis σ | ours σ | thesis t_best (s) | ours t_best (s) |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n",
        table.id,
        table.title,
        table.setup,
    );
    for (c, m) in table.columns.iter().zip(measured) {
        s.push_str(&format!(
            "| {} | {:.0} | {:.0} | {:.0} | {:.0} | {} | {:.4} | {:.4} | {:.4} | {:.4} | {:.2} | {:.2} |\n",
            c.label,
            c.thesis.iterations,
            c.thesis.iterations / 30.0,
            m.iterations,
            m.iterations_per_s,
            m.iterations_per_cpu_s
                .map_or("–".to_string(), |r| format!("{r:.0}")),
            c.thesis.score,
            m.score,
            c.thesis.sigma,
            m.sigma,
            c.thesis.time_to_best,
            m.time_to_best
        ));
    }
    s.push('\n');
    let filled: Vec<String> = table
        .columns
        .iter()
        .zip(measured)
        .filter(|(_, m)| m.filled_node_budget > 0)
        .map(|(c, m)| format!("{} ({} of {})", c.label, m.filled_node_budget, m.runs))
        .collect();
    if !filled.is_empty() {
        let budget = measured.iter().map(|m| m.node_budget).max().unwrap_or(0);
        s.push_str(&format!(
            "Runs whose tree filled the node budget of {budget} nodes (and grew no further; the \
             thesis's trees were unbounded): {}.\n\n",
            filled.join(", ")
        ));
    }
    s
}

/// User + system CPU seconds of this process so far (Linux `/proc/self/stat`, in clock ticks of
/// 1/100 s), `None` where unavailable.
pub fn process_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let after = stat.rsplit(')').next()?;
    let fields: Vec<&str> = after.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}
