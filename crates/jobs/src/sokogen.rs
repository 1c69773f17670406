//! Sokoban level generation jobs (Kartal et al. 2016 as optimized by the 2023 thesis; see
//! `docs/METHODS.md#sokogen`): a generation run that reports each kept level as found (each
//! verified by replaying its solution), live progress, and the thesis's experiment tables 3.1–3.8.

use crate::event::{Emit, EventKind, JobEvent, Signature};
use crate::limits::Limits;
use crate::plot::{bar_chart, BarChart, BarPanel, Plot, Report};
use crate::shard::{ItemRecord, Items, Plan, Shard};
use anyhow::{bail, Result};
use clap::ValueEnum;
use puzzle_engine::mcts::MctsConfig;
use puzzle_engine::{Budget, WorkCounter};
use puzzle_sokogen::experiment::{
    aggregate, markdown_table, process_cpu_seconds, run_once, tables, Measured, RunFigures, Table,
};
use puzzle_sokogen::{
    generate as run_generation, Aim, Bootstrap, BoxLimit, Congestion, GenAction, GenConfig,
    GenParams, GeneratedLevel, MoveAgent, Rules, SeedLevel, Selection,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Default node budget over all threads (a node is ~60 bytes plus its untried-action list).
pub const DEFAULT_MAX_NODES: usize = 8_000_000;
/// Default run time, seconds.
pub const DEFAULT_TIME_LIMIT: f64 = 10.0;
/// How often a generation reports progress.
pub const PROGRESS_EVERY: Duration = Duration::from_millis(200);

/// The Move-Agent forms of the generation game (thesis §2.3).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum MoveAgentName {
    /// The player pushes a box or walks to a cell beside one (the thesis's optimization).
    #[default]
    #[schemars(title = "push: push a box or walk beside one")]
    Push,
    /// Four-direction steps (Kartal et al.).
    #[schemars(title = "naive: four-direction steps (Kartal et al.)")]
    Naive,
}

/// What a generation maximizes.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum ObjectiveName {
    /// The exact optimal push count of the room's farthest start, proven by an exhaustive
    /// backward search (Taylor & Parberry 2011), each room improved by moving walls and goals
    /// (YASGen); every level's solution is push-optimal.
    #[default]
    #[schemars(title = "pushes: the fewest pushes that solve the level, proven")]
    Pushes,
    /// The thesis's score: box-path congestion and 3×3 tile patterns (Kartal et al. 2016; the
    /// experiment's tables use it).
    #[schemars(title = "score: the thesis's congestion score")]
    Score,
}

/// The selection formulas of Table 3.8.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum SelectionName {
    /// UCB1 with the exploration factor `xi`.
    #[default]
    Ucb1,
    /// UCB1-Tuned (Auer et al.).
    Ucb1Tuned,
    /// UCB-V (Audibert et al.).
    UcbV,
    /// Single-player MCTS's formula (Schadd et al.).
    SpMcts,
}

/// A generation run (`puzzle generate sokoban`, job `sokoban_generate`). Every field is an
/// option of the command (the same name, `-` for `_`; `max_memory_mb` is `--max-memory`) with
/// the same default: the thesis's final configuration, every optimization on.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema, clap::Args)]
#[serde(default)]
pub struct GenerateRequest {
    /// Board width (interior, without the wall border added on output).
    #[arg(long, default_value_t = 7)]
    #[schemars(range(min = 3, max = 31))]
    #[schemars(title = "Width (interior cells)")]
    pub width: u32,
    /// Board height (interior).
    #[arg(long, default_value_t = 7)]
    #[schemars(range(min = 3, max = 31))]
    #[schemars(title = "Height (interior cells)")]
    pub height: u32,
    /// What the search maximizes: `pushes`, the proven optimal push count of each level (the
    /// hardest levels), or `score`, the thesis's congestion score.
    #[arg(long, value_enum, default_value_t = ObjectiveName::Pushes)]
    #[schemars(title = "Objective")]
    pub objective: ObjectiveName,
    /// Boxes per level, exactly (objective `pushes`; default 4, or the seed level's goals).
    #[arg(long, value_name = "N")]
    #[schemars(range(min = 1, max = 48))]
    #[schemars(title = "Boxes", extend("x-when" = {"objective": ["pushes"]}))]
    pub boxes: Option<u16>,
    /// Keep only levels needing at least this many pushes (objective `pushes`): the search
    /// steers toward rooms that reach it.
    #[arg(long, value_name = "A")]
    #[schemars(title = "Fewest pushes", extend("x-when" = {"objective": ["pushes"]}))]
    pub min_pushes: Option<u32>,
    /// Keep only levels needing at most this many pushes (objective `pushes`): each level's
    /// start is drawn from the pushes in the band its room allows; without it, the farthest.
    #[arg(long, value_name = "B")]
    #[schemars(title = "Most pushes", extend("x-when" = {"objective": ["pushes"]}))]
    pub max_pushes: Option<u32>,
    /// Keep the rooms the MCTS finds as they are, without moving walls and goals to make
    /// them harder (objective `pushes`).
    #[arg(long)]
    #[schemars(title = "No local improvement", extend("x-when" = {"objective": ["pushes"]}))]
    pub no_improve: bool,
    /// The player's start cell `X,Y` ((0,0) top-left of the interior; default: the centre).
    /// With objective `pushes` the room grows from it, and the player starts there when the
    /// chosen start's area holds it.
    #[arg(long, value_name = "X,Y", value_parser = parse_start)]
    #[schemars(title = "Start cell (X,Y)")]
    pub start: Option<(usize, usize)>,
    /// A level to continue from (XSB, one level): its floor is cleared and boxes are placed on
    /// its goals before the search goes on (bootstrapping from a seed level); the board is the
    /// level without its outer ring, the start its player's cell (width, height and start are
    /// taken from it).
    #[arg(skip)]
    #[schemars(extend("x-hidden" = true))]
    pub seed_level: Option<String>,
    /// Also keep every level scoring at least this (besides each new best; objective `score`).
    #[arg(long, value_name = "SCORE")]
    #[schemars(title = "Score threshold", extend("x-when" = {"objective": ["score"]}))]
    pub threshold: Option<f64>,
    /// Bootstrapping's share δ of the budget (0 = off; the thesis's best: 0.2; objective
    /// `score`).
    #[arg(long, default_value_t = 0.2, value_name = "DELTA")]
    #[schemars(range(min = 0.0, max = 0.99))]
    #[schemars(title = "Bootstrap δ (0 = off)", extend("x-when" = {"objective": ["score"]}))]
    pub bootstrap_delta: f64,
    /// Levels differing from a kept, at least as good level in at most this many cells are
    /// dropped as near-duplicates.
    #[arg(long, default_value_t = 2, value_name = "CELLS")]
    #[schemars(title = "Near-duplicates (cells)")]
    pub near_duplicates: u32,
    /// Move-Agent form (objective `score`).
    #[arg(long, value_enum, default_value_t = MoveAgentName::Push)]
    #[schemars(title = "Move agent", extend("x-when" = {"objective": ["score"]}))]
    pub move_agent: MoveAgentName,
    /// Upper box limit: a number, `third` (⌈nm/3⌉, default), `half` (⌈nm/2⌉) or `none`
    /// (objective `score`; with `pushes`, `--boxes` sets the count).
    #[arg(long, default_value = "third", value_name = "H", value_parser = box_limit_text)]
    #[schemars(
        title = "Box limit",
        extend("x-when" = {"objective": ["score"]}),
        extend("x-choices" = [
            {"const": "third", "title": "A third of the cells, ⌈nm/3⌉"},
            {"const": "half", "title": "Half of the cells, ⌈nm/2⌉"},
            {"const": "none", "title": "No limit"}
        ])
    )]
    pub box_limit: String,
    /// Tree depth Freeze-Level needs (0 = off; the thesis's final configuration: 10).
    #[arg(long, default_value_t = 10, value_name = "D")]
    #[schemars(title = "Depth limit (0 = off)")]
    pub depth_limit: u16,
    /// Keep boxes in impossible 2×2 configurations at Freeze-Level (turns the optimization off;
    /// objective `score`).
    #[arg(long)]
    #[schemars(title = "Keep impossible 2×2 boxes", extend("x-when" = {"objective": ["score"]}))]
    pub keep_impossible: bool,
    /// Create all children at a node's first expansion instead of one per expansion (bloom off).
    #[arg(long)]
    #[schemars(title = "No bloom (all children at the first expansion)")]
    pub no_bloom: bool,
    /// Use Congestion-V1 instead of Congestion-V2 in the score (objective `score`).
    #[arg(long)]
    #[schemars(title = "Congestion V1 (instead of V2)", extend("x-when" = {"objective": ["score"]}))]
    pub congestion_v1: bool,
    /// Selection formula (Table 3.8's constants).
    #[arg(long, value_enum, default_value_t = SelectionName::Ucb1)]
    #[schemars(title = "Selection formula")]
    pub selection: SelectionName,
    /// UCB1's exploration factor ξ (C = ξ/√2; Table 3.7).
    #[arg(long, default_value_t = 1.0, value_name = "XI")]
    #[schemars(title = "Exploration factor ξ", extend("x-when" = {"selection": ["ucb1"]}))]
    pub xi: f64,
    /// Low-memory setting for long runs on big boards: the search trees' memory in MiB (caps
    /// the node budget at what fits, at [`puzzle_engine::mcts::node_bytes`] a node: 32 bytes
    /// with UCB1, 48 with the formulas that read the rewards' spread; a full tree stops
    /// growing and the search goes on sampling from its leaves).
    #[arg(long = "max-memory", value_name = "MIB")]
    #[schemars(title = "Tree memory (MiB)")]
    pub max_memory_mb: Option<f64>,
    /// Budget (default 10 s, 8,000,000 nodes over all threads, seed 1; threads: the machine's
    /// cores for a time budget, one with an iteration budget — see [`default_threads`]).
    #[serde(flatten)]
    #[arg(skip)]
    pub limits: Limits,
    /// One generation (one level set) per seed: `A..B` (A to B−1) or `A..=B`; each record
    /// carries its seed. Instead of a seed; sharding splits the seeds.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<String>")]
    #[arg(long, value_name = "A..B", value_parser = parse_seed_range)]
    pub seeds: Option<SeedRange>,
    /// Sharding and resuming over `seeds` (items: the seeds in order).
    #[serde(flatten)]
    #[arg(skip)]
    pub items: Items,
}

impl Default for GenerateRequest {
    fn default() -> Self {
        crate::options::defaults()
    }
}

fn parse_seed_range(s: &str) -> Result<SeedRange, String> {
    s.parse()
}

fn box_limit_text(s: &str) -> Result<String, String> {
    parse_box_limit(s).map(|_| s.to_string())
}

/// Parse a start cell `X,Y`.
pub fn parse_start(s: &str) -> Result<(usize, usize), String> {
    let (x, y) = s
        .split_once(',')
        .ok_or_else(|| format!("'{s}' is not X,Y (e.g. 2,2)"))?;
    let parse = |v: &str| {
        v.trim()
            .parse::<usize>()
            .map_err(|_| format!("'{v}' in '{s}' is not a non-negative whole number"))
    };
    Ok((parse(x)?, parse(y)?))
}

/// A range of seeds `A..B` (A to B−1) or `A..=B` (A to B), at most 100,000 of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeedRange {
    /// The first seed.
    pub first: u64,
    /// The last seed (inclusive).
    pub last: u64,
}

impl SeedRange {
    /// The seeds in order.
    pub fn seeds(&self) -> impl Iterator<Item = u64> {
        self.first..=self.last
    }

    /// How many seeds.
    pub fn len(&self) -> usize {
        (self.last - self.first) as usize + 1
    }

    /// Never: a range holds at least one seed.
    pub fn is_empty(&self) -> bool {
        false
    }
}

impl std::fmt::Display for SeedRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}..={}", self.first, self.last)
    }
}

impl std::str::FromStr for SeedRange {
    type Err = String;

    fn from_str(s: &str) -> Result<SeedRange, String> {
        let bad = || format!("'{s}' is not a seed range: write A..B (A to B-1) or A..=B");
        let (a, b, inclusive) = match s.split_once("..=") {
            Some((a, b)) => (a, b, true),
            None => {
                let (a, b) = s.split_once("..").ok_or_else(bad)?;
                (a, b, false)
            }
        };
        let first: u64 = a.trim().parse().map_err(|_| bad())?;
        let end: u64 = b.trim().parse().map_err(|_| bad())?;
        let last = if inclusive {
            end
        } else {
            end.checked_sub(1).ok_or_else(bad)?
        };
        if last < first {
            return Err(format!("the seed range '{s}' is empty"));
        }
        if last - first >= 100_000 {
            return Err(format!("the seed range '{s}' holds more than 100000 seeds"));
        }
        Ok(SeedRange { first, last })
    }
}

impl Serialize for SeedRange {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for SeedRange {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<SeedRange, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// What identifies a generation's records in a run over seeds (`None` fields are left out).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RunId {
    /// The run's seed (with `--seeds`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The run's item number (1-based position of the seed in the range).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item: Option<usize>,
    /// The shard that ran it (`"2/4"`), when sharded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
}

/// Parse a box limit: a positive number, `third` (⌈nm/3⌉), `half` (⌈nm/2⌉) or `none`.
pub fn parse_box_limit(s: &str) -> Result<BoxLimit, String> {
    match s {
        "none" => Ok(BoxLimit::Unlimited),
        "third" => Ok(BoxLimit::AreaOver(3)),
        "half" => Ok(BoxLimit::AreaOver(2)),
        _ => match s.parse::<u16>() {
            Ok(0) | Err(_) => Err(format!(
                "'{s}' is not a box limit (a positive number, third, half or none)"
            )),
            Ok(h) => Ok(BoxLimit::Fixed(h)),
        },
    }
}

/// One kept level: the `puzzle generate sokoban --json` line.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LevelRecord {
    /// The level's score (P_b · P_c, thesis §2).
    pub score: f64,
    /// P_b: pushes of the generating solution's box lines.
    pub pb: u32,
    /// P_c: congestion.
    pub pc: f64,
    /// Boxes.
    pub boxes: u32,
    /// The level as XSB (with its wall border).
    pub xsb: String,
    /// A LURD solution, replayed before it was emitted.
    pub solution: String,
    /// The iteration that found it.
    pub iteration: u64,
    /// Seconds from the start.
    pub time_s: f64,
    /// It is the best so far.
    pub new_best: bool,
    /// The fewest pushes that solve the level, proven by the backward search (objective
    /// `pushes`; `solution` is then push-optimal).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub optimal_pushes: Option<u32>,
    /// Box lines of `solution` (runs of pushes of one box in one direction; objective
    /// `pushes`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub box_lines: Option<usize>,
    /// Box changes of `solution` (pushes of another box than the push before; objective
    /// `pushes`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub box_changes: Option<usize>,
    /// 1-based number of the kept level.
    pub index: usize,
    /// The run it belongs to (with `--seeds`).
    #[serde(flatten)]
    pub run: RunId,
}

/// Live progress of a generation (every [`PROGRESS_EVERY`]).
#[derive(Clone, Debug, Serialize)]
pub struct GenProgress {
    /// Seconds from the start.
    pub elapsed_s: f64,
    /// Iterations so far (all threads).
    pub iterations: u64,
    /// Iterations per second over the last interval.
    pub iterations_per_s: f64,
    /// The best so far (0 before the first level): the most optimal pushes of a kept level
    /// (objective `pushes`), or the best score (objective `score`).
    pub best_score: f64,
    /// Levels kept so far.
    pub levels: usize,
}

/// The final summary line.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GenSummaryRecord {
    /// Always true (tells the line from level lines).
    pub summary: bool,
    /// Iterations run.
    pub iterations: u64,
    /// Iterations per wall-clock second.
    pub iterations_per_s: f64,
    /// The best: the most optimal pushes of a kept level (objective `pushes`), or the best
    /// score (objective `score`).
    pub best_score: f64,
    /// When the best was found.
    pub time_to_best_s: f64,
    /// Tree nodes at the end.
    pub nodes: usize,
    /// The most nodes held at once.
    pub peak_nodes: usize,
    /// Levels kept.
    pub levels: usize,
    /// Seconds run.
    pub elapsed_s: f64,
    /// Iterations of the bootstrapped search.
    pub bootstrap_iterations: u64,
    /// The run was stopped (Ctrl-C, Stop).
    pub interrupted: bool,
    /// CPU seconds of the process (Linux), for iterations per CPU-second on a shared machine.
    pub cpu_s: Option<f64>,
    /// Iterations per CPU-second.
    pub iterations_per_cpu_s: Option<f64>,
    /// The run it closes (with `--seeds`).
    #[serde(flatten)]
    pub run: RunId,
}

/// The events of a generation.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum GenEvent {
    /// Live progress.
    Progress(GenProgress),
    /// A kept level.
    Level(LevelRecord),
    /// The end.
    Summary(GenSummaryRecord),
}

impl JobEvent for GenEvent {
    fn kind(&self) -> EventKind {
        match self {
            GenEvent::Progress(_) => EventKind::Progress,
            GenEvent::Level(_) => EventKind::Result,
            GenEvent::Summary(_) => EventKind::Summary,
        }
    }
}

/// What a generation returns besides its events: the summary and the best-score trace
/// (seconds, score) for a plot.
#[derive(Clone, Debug)]
pub struct GenOutcome {
    /// The summary (also emitted).
    pub summary: GenSummaryRecord,
    /// Each new best: (seconds, score).
    pub trace: Vec<(f64, f64)>,
    /// The seed used.
    pub seed: u64,
}

/// The thread count: `limits.threads`, else the machine's cores when only time bounds the run
/// (root parallelism: 2 threads gave 1.90× the iterations of one on a quiet 2-core machine,
/// docs/benchmarks/sokogen.md), else 1. With an iteration budget the default stays one thread,
/// which alone is reproducible: threads report levels into one set as they find them, so a
/// multi-threaded run's levels depend on timing.
pub fn default_threads(limits: &Limits) -> usize {
    limits.threads_or_cores_when_timed(256)
}

/// The generator's parameters for a request, after checking every field.
pub fn params(req: &GenerateRequest, stop: &Arc<AtomicBool>) -> Result<GenParams> {
    req.limits.validate()?;
    crate::options::check_ranges(req)?;
    let seed = match &req.seed_level {
        Some(xsb) => {
            let levels = crate::sokoban::parse_levels(xsb, "seed level")?;
            if levels.len() != 1 {
                bail!("seed_level: one level, not {}", levels.len());
            }
            Some(
                SeedLevel::from_level(&levels[0])
                    .map_err(|e| anyhow::anyhow!("seed_level: {e}"))?,
            )
        }
        None => None,
    };
    let (w, h) = match &seed {
        Some((w, h, _, _)) => (*w, *h),
        None => (req.width as usize, req.height as usize),
    };
    if !(3..=31).contains(&w) || !(3..=31).contains(&h) {
        bail!("the board is {w}×{h}: width and height must be 3 to 31");
    }
    if let Some((x, y)) = req.start {
        if x >= w || y >= h {
            bail!("--start {x},{y} is outside the {w}×{h} board (0 ≤ X < {w}, 0 ≤ Y < {h})");
        }
    }
    if !(0.0..1.0).contains(&req.bootstrap_delta) {
        bail!(
            "--bootstrap-delta {} must be at least 0 and below 1",
            req.bootstrap_delta
        );
    }
    if let Some(t) = req.threshold {
        if !t.is_finite() {
            bail!("--threshold {t} is not a number");
        }
    }
    if !(req.xi.is_finite() && req.xi > 0.0) {
        bail!("--xi {} must be a positive number", req.xi);
    }
    let move_agent = match req.move_agent {
        MoveAgentName::Push => MoveAgent::Push,
        MoveAgentName::Naive => MoveAgent::Naive,
    };
    let box_limit = parse_box_limit(&req.box_limit).map_err(anyhow::Error::msg)?;
    let selection = match req.selection {
        SelectionName::Ucb1 => Selection::Ucb1 { xi: req.xi },
        other => {
            let name = crate::options::choice_name(&other);
            Selection::table_3_8()
                .into_iter()
                .find(|(n, _)| n.to_ascii_lowercase() == name)
                .map(|(_, s)| s)
                .ok_or_else(|| anyhow::anyhow!("no Table 3.8 constants for '{name}'"))?
        }
    };
    let threads = default_threads(&req.limits);
    let mut max_nodes = req.limits.max_nodes.unwrap_or(DEFAULT_MAX_NODES);
    if let Some(mb) = req.max_memory_mb {
        if !mb.is_finite() || mb <= 0.0 {
            anyhow::bail!("max_memory_mb must be a positive number of MiB, not {mb}");
        }
        let probe = MctsConfig {
            selection: selection.policy(),
            ..MctsConfig::default()
        };
        let node = puzzle_engine::mcts::node_bytes::<GenAction>(&probe);
        max_nodes = max_nodes.min((mb * 1024.0 * 1024.0 / node as f64) as usize);
    }
    let per_tree = (max_nodes / threads).max(1);
    let mut budget = req.limits.budget(DEFAULT_TIME_LIMIT, per_tree, stop);
    budget.max_nodes = per_tree;
    let defaults = GenConfig::default();
    let config = GenConfig {
        rules: Rules {
            move_agent,
            box_limit,
            depth_limit: req.depth_limit,
            remove_impossible: !req.keep_impossible,
            congestion: if req.congestion_v1 {
                Congestion::V1
            } else {
                Congestion::V2
            },
            ..defaults.rules
        },
        bloom: !req.no_bloom,
        bootstrap: (req.bootstrap_delta > 0.0).then_some(Bootstrap {
            levels: 4,
            delta: req.bootstrap_delta,
        }),
        selection,
        ..defaults
    };
    let (start, seed_level) = match seed {
        Some((_, _, start, seed)) => (Some(start), Some(seed)),
        None => (req.start, None),
    };
    let aim = match req.objective {
        ObjectiveName::Pushes => {
            // A seed level brings its own number of boxes (its goals).
            let seed_boxes = seed_level
                .as_ref()
                .map(|s| s.boxes.len() as u16)
                .filter(|&n| n > 0);
            let aim = Aim {
                boxes: req.boxes.or(seed_boxes).unwrap_or(4),
                min_pushes: req.min_pushes.unwrap_or(0),
                max_pushes: req.max_pushes,
                improve: !req.no_improve,
                // The node budget bounds each thread's backward search too.
                max_positions: per_tree.min(puzzle_sokogen::aim::DEFAULT_MAX_POSITIONS),
            };
            if aim.boxes == 0 || aim.boxes as usize >= w * h {
                bail!("--boxes {} does not fit a {w}×{h} board", aim.boxes);
            }
            if let Some(max) = aim.max_pushes {
                if max == 0 || max < aim.min_pushes {
                    bail!(
                        "--max-pushes {max} is below --min-pushes {} (or 0): the band is empty",
                        aim.min_pushes
                    );
                }
            }
            if req.threshold.is_some() {
                bail!("--threshold is a score: it goes with --objective score");
            }
            Some(aim)
        }
        ObjectiveName::Score => {
            for (set, flag) in [
                (req.boxes.is_some(), "--boxes"),
                (req.min_pushes.is_some(), "--min-pushes"),
                (req.max_pushes.is_some(), "--max-pushes"),
                (req.no_improve, "--no-improve"),
            ] {
                if set {
                    bail!("{flag} goes with --objective pushes, not score");
                }
            }
            None
        }
    };
    let params = GenParams {
        width: w,
        height: h,
        start,
        config,
        budget,
        seed: req.limits.seed_or(1),
        threads,
        threshold: req.threshold,
        near_duplicate_cells: req.near_duplicates,
        bootstrap_iterations: None,
        seed_level,
        aim,
    };
    // Refused before the run: a seed the generation game cannot reach.
    puzzle_sokogen::check_seed(&params).map_err(|e| anyhow::anyhow!("seed_level: {e}"))?;
    Ok(params)
}

fn record(l: &GeneratedLevel, index: usize, run: RunId) -> LevelRecord {
    // The push structure of a push-optimal solution (the level was replayed already).
    let structure = l
        .optimal_pushes
        .and_then(|_| puzzle_sokoban::difficulty::push_structure(&l.level, &l.solution).ok());
    LevelRecord {
        score: l.metrics.score,
        pb: l.metrics.pb,
        pc: l.metrics.pc,
        boxes: l.metrics.boxes,
        xsb: l.xsb.clone(),
        solution: l.solution.clone(),
        iteration: l.iteration,
        time_s: l.time_s,
        new_best: l.new_best,
        optimal_pushes: l.optimal_pushes,
        box_lines: structure.map(|s| s.box_lines),
        box_changes: structure.map(|s| s.box_changes),
        index,
        run,
    }
}

/// The XSB text of a kept level with its comment lines (solution, metrics) and title, as
/// `--out` writes it.
pub fn xsb_entry(l: &LevelRecord, w: u32, h: u32) -> String {
    let seed = l.run.seed.map_or(String::new(), |s| format!("seed {s} "));
    let pushes = l
        .optimal_pushes
        .map_or(String::new(), |p| format!("optimal_pushes={p} "));
    // The title names the level's measure: its optimal pushes, or the thesis's score.
    let measure = l
        .optimal_pushes
        .map_or(format!("score {:.4}", l.score), |p| format!("{p} pushes"));
    format!(
        "; solution: {}\n; {pushes}score={:.4} pb={} pc={:.4} boxes={} iteration={} time_s={:.3}\n; sokogen {w}x{h} {seed}#{} {measure}\n{}\n",
        l.solution, l.score, l.pb, l.pc, l.boxes, l.iteration, l.time_s, l.index, l.xsb
    )
}

/// Run a generation request: one run with `limits.seed`, or with `seeds` one run per seed
/// (this shard's seeds; seeds done in `items` are emitted again from their records, each level
/// replayed first), each run's records carrying its seed and item number.
pub fn generate(
    req: &GenerateRequest,
    stop: &Arc<AtomicBool>,
    emit: Emit<'_, GenEvent>,
) -> Result<GenOutcome> {
    let Some(range) = req.seeds else {
        return generate_run(req, RunId::default(), stop, emit);
    };
    if req.limits.seed.is_some() {
        bail!("give either seed or seeds: each run of a seed range takes its seed from the range");
    }
    params(req, stop)?;
    req.items.check(range.len())?;
    let mut last = None;
    for (k, seed) in range.seeds().enumerate() {
        let item = k + 1;
        let run = RunId {
            seed: Some(seed),
            item: Some(item),
            shard: req.items.shard,
        };
        match req.items.plan(item) {
            Plan::Skip => {}
            Plan::Done(records) => {
                last = Some(done_run(req, item, run, records, emit)?);
            }
            Plan::Run => {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let mut one = req.clone();
                one.limits.seed = Some(seed);
                one.seeds = None;
                last = Some(generate_run(&one, run, stop, emit)?);
            }
        }
    }
    last.ok_or_else(|| anyhow::anyhow!("this shard holds none of the {} seeds", range.len()))
}

/// Emit a seed's records from an earlier run again: its levels (each parsed and its solution
/// replayed), then its summary.
fn done_run(
    req: &GenerateRequest,
    item: usize,
    run: RunId,
    records: &[serde_json::Value],
    emit: Emit<'_, GenEvent>,
) -> Result<GenOutcome> {
    let Some((summary, levels)) = records.split_last() else {
        bail!("item {item}: no records");
    };
    let mut summary: GenSummaryRecord = req.items.decode(item, summary)?;
    if summary.run.seed != run.seed {
        bail!(
            "item {item} is seed {:?}, but this run's item {item} is seed {:?}: the records come \
             from a different configuration",
            summary.run.seed,
            run.seed
        );
    }
    for record in levels {
        let mut l: LevelRecord = req.items.decode(item, record)?;
        if l.run.seed != run.seed {
            bail!(
                "item {item}: a level of seed {:?} among seed {:?}'s",
                l.run.seed,
                run.seed
            );
        }
        let level = puzzle_sokoban::parse_xsb(&l.xsb)
            .ok()
            .and_then(|mut v| (v.len() == 1).then(|| v.remove(0)));
        let solved = level.is_some_and(|level| {
            puzzle_sokoban::replay(&level, &l.solution).is_ok_and(|r| r.solved)
        });
        if !solved {
            bail!(
                "item {item} (seed {:?}), level {}: the recorded solution does not solve the level",
                run.seed,
                l.index
            );
        }
        l.run = run;
        emit(GenEvent::Level(l))?;
    }
    summary.run = run;
    emit(GenEvent::Summary(summary.clone()))?;
    Ok(GenOutcome {
        summary,
        trace: Vec::new(),
        seed: run.seed.unwrap_or(1),
    })
}

/// Run one generation: `Level` events as levels are kept, `Progress` every
/// [`PROGRESS_EVERY`], then the `Summary`.
fn generate_run(
    req: &GenerateRequest,
    run: RunId,
    stop: &Arc<AtomicBool>,
    emit: Emit<'_, GenEvent>,
) -> Result<GenOutcome> {
    let mut params = params(req, stop)?;
    let counter = Arc::new(WorkCounter::new());
    params.budget = params.budget.clone().with_progress(counter.clone());
    let emit = Mutex::new(emit);
    let send = |event: GenEvent| -> Result<()> {
        let mut guard = emit.lock().unwrap_or_else(|e| e.into_inner());
        (*guard)(event)
    };
    let kept = Mutex::new((0usize, 0.0f64)); // (levels, best score)
    let started = Instant::now();
    let cpu_before = process_cpu_seconds();
    let (mut last_t, mut last_n) = (0.0, 0u64);
    let tick = || {
        let (t, n) = (started.elapsed().as_secs_f64(), counter.iterations());
        let (levels, best) = *kept.lock().unwrap_or_else(|e| e.into_inner());
        let rate = (n - last_n) as f64 / (t - last_t).max(1e-9);
        (last_t, last_n) = (t, n);
        let progress = GenProgress {
            elapsed_s: t,
            iterations: n,
            iterations_per_s: rate,
            best_score: best,
            levels,
        };
        if send(GenEvent::Progress(progress)).is_err() {
            // The receiver is gone: stop the run as a closed output would.
            stop.store(true, Ordering::Relaxed);
            return false;
        }
        true
    };
    let result = crate::ticker::with_ticks(PROGRESS_EVERY, tick, || {
        let mut sink =
            |l: &GeneratedLevel| -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
                let index = {
                    let mut k = kept.lock().unwrap_or_else(|e| e.into_inner());
                    k.0 += 1;
                    // The best: optimal pushes for the default objective, else the score.
                    k.1 = k.1.max(l.optimal_pushes.map_or(l.metrics.score, f64::from));
                    k.0
                };
                send(GenEvent::Level(record(l, index, run))).map_err(|e| e.to_string().into())
            };
        run_generation(&params, &mut sink)
    });
    let cpu_s = match (cpu_before, process_cpu_seconds()) {
        (Some(a), Some(b)) => Some(b - a),
        _ => None,
    };
    let summary = result.map_err(|e| anyhow::anyhow!("generation failed: {e}"))?;
    let rate = summary.iterations as f64 / summary.elapsed.as_secs_f64().max(1e-9);
    let record = GenSummaryRecord {
        summary: true,
        iterations: summary.iterations,
        iterations_per_s: rate,
        best_score: summary.best_score,
        time_to_best_s: summary.time_to_best_s,
        nodes: summary.nodes,
        peak_nodes: summary.peak_nodes,
        levels: summary.levels,
        elapsed_s: summary.elapsed.as_secs_f64(),
        bootstrap_iterations: summary.bootstrap_iterations,
        interrupted: stop.load(Ordering::Relaxed),
        cpu_s,
        // The clock ticks are 1/100 s: below 0.2 s the rate would be mostly rounding.
        iterations_per_cpu_s: cpu_s
            .filter(|&c| c >= 0.2)
            .map(|c| summary.iterations as f64 / c),
        run,
    };
    send(GenEvent::Summary(record.clone()))?;
    Ok(GenOutcome {
        summary: record,
        trace: summary.trace,
        seed: params.seed,
    })
}

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
         ({}..={}), one thread. Thesis: C++ -O3 on a Ryzen 5 3600, 10 seeds. Iteration counts \
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

/// This game's part of `puzzle bench`: fixed-seed generation runs with iteration budgets.
pub fn signature() -> Result<Vec<Signature>> {
    let mut sigs = Vec::new();
    for (name, w, h, its, config) in [
        (
            "sokogen 5x5 final config",
            5,
            5,
            60_000u64,
            GenConfig::default(),
        ),
        (
            "sokogen 8x8 no bootstrap",
            8,
            8,
            20_000,
            GenConfig {
                bootstrap: None,
                ..GenConfig::default()
            },
        ),
    ] {
        let params = GenParams {
            width: w,
            height: h,
            config,
            budget: Budget::iterations(its),
            seed: 1,
            ..GenParams::default()
        };
        let started = Instant::now();
        let summary =
            run_generation(&params, &mut |_| Ok(())).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
        sigs.push(Signature {
            name: name.to_string(),
            work: summary.peak_nodes as u64,
            result: summary.best_score,
            time_s: started.elapsed().as_secs_f64(),
        });
    }
    Ok(sigs)
}

impl crate::registry::Job for GenerateRequest {
    const NAME: &'static str = "sokoban_generate";
    const TITLE: &'static str = "Generate Sokoban levels with MCTS";
    type Event = GenEvent;

    fn check(&self) -> Result<()> {
        params(self, &Arc::new(AtomicBool::new(false))).map(drop)
    }

    crate::registry::job_fields!(limits, items);

    fn item_complete(records: &[serde_json::Value]) -> bool {
        // A seed's levels are whole once its summary is written.
        records
            .last()
            .is_some_and(|r| r.get("summary") == Some(&serde_json::Value::Bool(true)))
    }

    crate::registry::job_run!(generate);

    fn signature() -> Result<Vec<Signature>> {
        signature()
    }

    fn example() -> Self {
        GenerateRequest {
            width: 5,
            height: 5,
            limits: Limits {
                iterations: Some(2_000),
                seed: Some(1),
                ..Limits::default()
            },
            ..GenerateRequest::default()
        }
    }
}

impl crate::registry::Job for ExperimentRequest {
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

    crate::registry::job_fields!(limits, items);

    crate::registry::job_run!(report experiment_report);

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::Job;

    #[test]
    fn thesis_iterations_run_each_column_for_the_thesis_count_and_exclude_iterations() {
        let mut req = ExperimentRequest {
            tables: vec!["3.1".into()],
            seeds: 1,
            thesis_iterations: true,
            limits: Limits {
                iterations: Some(1_000),
                ..Limits::default()
            },
            ..ExperimentRequest::default()
        };
        let err = req.validate().unwrap_err().to_string();
        assert!(err.contains("thesis_iterations"), "{err}");
        // A time limit caps the thesis's 4,498,609 and 4,972,319 iterations of Table 3.1.
        req.limits = Limits {
            time_limit: Some(0.05),
            ..Limits::default()
        };
        req.validate().unwrap();
        let mut runs = Vec::new();
        let report = experiment_report(&req, &Arc::new(AtomicBool::new(false)), &mut |e| {
            if let ExperimentEvent::Run(r) = e {
                runs.push(r);
            }
            Ok(())
        })
        .unwrap();
        assert_eq!(runs.len(), 2);
        assert!(runs
            .iter()
            .all(|r| r.iterations > 0 && r.iterations < 4_498_609));
        assert!(report.markdown.contains("thesis's own iteration count"));
        assert!(report.markdown.contains("at most 0.05 s per run"));
    }
}
