//! The generation driver (see `docs/METHODS.md#sokogen-level-set`): the engine's MCTS searches the
//! generation game; an observer hears every new best and every playout above the threshold as it is
//! found, drops near-duplicates, derives and replays each level's solution, and hands the level to
//! a sink at once (so a long run writes its results as found, and Ctrl-C keeps them). With
//! bootstrapping, the last `n` new best levels are re-rooted and searched for the last `δ` of the
//! budget.

use crate::aim::{run_aimed, Aim};
use crate::bootstrap::Bootstrapped;
use crate::config::GenConfig;
use crate::playout::{AllocatingPlayout, FastPlayout, LevelGame};
use crate::solution::{verified_level, SolutionError};
use crate::state::{BoardError, GenState, Metrics};
use puzzle_engine::bits::Bits;
use puzzle_engine::mcts::{self, Found, IterationSample, MctsConfig, MctsResult};
use puzzle_engine::{Budget, StopReason};
use puzzle_sokoban::Level;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What a generation run should do.
#[derive(Clone, Debug)]
pub struct GenParams {
    /// Board width (3..=31).
    pub width: usize,
    /// Board height (3..=31).
    pub height: usize,
    /// The player's start cell; `None` = the centre `(width/2, height/2)`.
    pub start: Option<(usize, usize)>,
    /// Rules and optimizations.
    pub config: GenConfig,
    /// Time and/or iterations (over all threads), node budget per tree, stop flag (Ctrl-C).
    pub budget: Budget,
    /// Seed: with an iteration budget and one thread, a run is reproducible.
    pub seed: u64,
    /// Root-parallel threads.
    pub threads: usize,
    /// Also keep every level scoring at least this (besides each new best).
    pub threshold: Option<f64>,
    /// A level whose board differs from a kept level's in at most this many cells, and does not
    /// score higher, is a near-duplicate and is dropped.
    pub near_duplicate_cells: u32,
    /// With bootstrapping and an iteration budget: the bootstrapped search's own iteration
    /// count, taken out of the budget's iterations (the first search gets the rest), instead of
    /// the share δ of them. The thesis counts Table 3.6's iterations from the bootstrap start
    /// (thesis §3.7), so the equal-iterations comparison gives each phase its own count.
    pub bootstrap_iterations: Option<u64>,
    /// A level to continue from instead of a board of walls ([`GenState::seeded`]); `width`,
    /// `height` and `start` must be the seed's ([`SeedLevel::from_level`] gives them).
    pub seed_level: Option<SeedLevel>,
    /// Aim at difficulty instead of the thesis's score ([`crate::aim`]): exact box count,
    /// requested band of optimal pushes. `None`: the thesis's generation.
    pub aim: Option<Aim>,
    /// Sample one iteration in every `n` of the first search phase
    /// ([`MctsConfig::sample_every`]; the thesis's §3.10 per-iteration trace).
    pub sample_every: Option<u64>,
}

/// A level of one's own to continue generating from (bootstrapping from a seed level): its
/// floor, and its goals as the boxes placed before Freeze-Level. Cells are `(x, y)` on the
/// generator's board (the level without its outer ring).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeedLevel {
    /// The floor the player can reach.
    pub floor: Vec<(usize, usize)>,
    /// The goals: where boxes are placed before Freeze-Level.
    pub boxes: Vec<(usize, usize)>,
}

impl SeedLevel {
    /// The seed of `level` with the board's width, height and start: the level without its
    /// outer ring of cells (which must hold no floor). The level's boxes are left out (the
    /// generator places its boxes on the goals and moves them itself).
    pub fn from_level(level: &Level) -> Result<(usize, usize, (usize, usize), SeedLevel), String> {
        let (w, h) = (level.width, level.height);
        if w < 5 || h < 5 {
            return Err(format!(
                "a {w}×{h} level is too small: the generator's board is the level without its outer walls, at least 3×3"
            ));
        }
        let area = level.area();
        let inner = |i: usize| {
            let (x, y) = level.xy(i);
            (x >= 1 && y >= 1 && x + 1 < w && y + 1 < h).then(|| (x - 1, y - 1))
        };
        let mut seed = SeedLevel::default();
        for (i, &reached) in area.iter().enumerate() {
            if level.goals[i] && !reached {
                let (x, y) = level.xy(i);
                return Err(format!(
                    "the goal at ({x},{y}) is out of the player's reach"
                ));
            }
            if !reached {
                continue;
            }
            let cell = inner(i).ok_or_else(|| {
                let (x, y) = level.xy(i);
                format!("the floor at ({x},{y}) is on the level's outer ring")
            })?;
            seed.floor.push(cell);
            if level.goals[i] {
                seed.boxes.push(cell);
            }
        }
        let start = inner(level.player).ok_or("the player is on the level's outer ring")?;
        Ok((w - 2, h - 2, start, seed))
    }
}

/// Whether the generation game can reach `params`' seed level (none: yes), in the state width
/// a run of these dimensions uses.
pub fn check_seed(params: &GenParams) -> Result<(), GenError> {
    if params.seed_level.is_none() {
        return Ok(());
    }
    match capacity(params.width, params.height).0 {
        1 => root_state::<1, 48>(params).map(drop),
        2 => root_state::<2, 96>(params).map(drop),
        4 => root_state::<4, 160>(params).map(drop),
        8 => root_state::<8, 256>(params).map(drop),
        _ => root_state::<16, 512>(params).map(drop),
    }
}

/// The state a run of `params` starts from: the empty board, or the seed level.
pub(crate) fn root_state<const N: usize, const B: usize>(
    params: &GenParams,
) -> Result<GenState<N, B>, GenError> {
    let start = params
        .start
        .unwrap_or((params.width / 2, params.height / 2));
    match &params.seed_level {
        Some(seed) => GenState::<N, B>::seeded(
            params.width,
            params.height,
            start,
            params.config.rules,
            &seed.floor,
            &seed.boxes,
        ),
        None => GenState::<N, B>::new(params.width, params.height, start, params.config.rules),
    }
    .map_err(GenError::Board)
}

impl Default for GenParams {
    fn default() -> Self {
        GenParams {
            width: 7,
            height: 7,
            start: None,
            config: GenConfig::default(),
            budget: Budget::time(Duration::from_secs(10)),
            seed: 1,
            threads: 1,
            threshold: None,
            near_duplicate_cells: 2,
            bootstrap_iterations: None,
            seed_level: None,
            aim: None,
            sample_every: None,
        }
    }
}

/// A level kept by a run: verified, with its solution and metrics.
#[derive(Clone, Debug)]
pub struct GeneratedLevel {
    /// The level (with a wall border).
    pub level: Level,
    /// Its XSB text (no title).
    pub xsb: String,
    /// Its LURD solution (replayed to a solved state before it was accepted).
    pub solution: String,
    /// Score, P_b, P_c, n.
    pub metrics: Metrics,
    /// The iteration (of the tree that found it) at which it was found.
    pub iteration: u64,
    /// Seconds since the run started.
    pub time_s: f64,
    /// It was a new best of the run when found.
    pub new_best: bool,
    /// The fewest pushes that solve it, when proven (levels of a run aimed at difficulty, whose
    /// `solution` is then push-optimal).
    pub optimal_pushes: Option<u32>,
}

/// What a run did.
#[derive(Clone, Debug)]
pub struct GenSummary {
    /// Iterations over all threads and both phases.
    pub iterations: u64,
    /// Wall time of the run.
    pub elapsed: Duration,
    /// Best score found (0 if nothing was found).
    pub best_score: f64,
    /// Seconds from the start to the best level.
    pub time_to_best_s: f64,
    /// Nodes at the end (of the last phase, summed over threads).
    pub nodes: usize,
    /// Largest tree held.
    pub peak_nodes: usize,
    /// Best score over time: `(seconds, score)` at each improvement.
    pub trace: Vec<(f64, f64)>,
    /// Levels kept.
    pub levels: usize,
    /// Iterations of the bootstrapped search (0 without bootstrapping).
    pub bootstrap_iterations: u64,
    /// When the bootstrapped search started, if it ran.
    pub bootstrap_start_s: Option<f64>,
    /// Why the run ended.
    pub stop: StopReason,
    /// The sampled iterations of the first search phase ([`GenParams::sample_every`]).
    pub samples: Vec<IterationSample>,
}

/// Why a run failed.
#[derive(Debug)]
pub enum GenError {
    /// Bad size or start.
    Board(BoardError),
    /// Bad parameter.
    Params(String),
    /// A level failed its verification (a bug; nothing unverified is ever handed out).
    Verification(SolutionError),
    /// The sink failed (e.g. writing a file).
    Sink(Box<dyn std::error::Error + Send + Sync>),
}

impl std::fmt::Display for GenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GenError::Board(e) => e.fmt(f),
            GenError::Params(s) => f.write_str(s),
            GenError::Verification(e) => write!(f, "internal error: {e}"),
            GenError::Sink(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for GenError {}

/// The receiver of kept levels, called as they are found.
pub type Sink<'a> = &'a mut (dyn FnMut(&GeneratedLevel) -> Result<(), Box<dyn std::error::Error + Send + Sync>>
             + Send);

/// Number of 64-bit words and box capacity used for a board size.
pub fn capacity(width: usize, height: usize) -> (usize, usize) {
    let cells = (width + 1) * height;
    match cells.div_ceil(64) {
        0 | 1 => (1, 48),
        2 => (2, 96),
        3 | 4 => (4, 160),
        5..=8 => (8, 256),
        _ => (16, 512),
    }
}

/// Run a generation, handing each kept level to `sink` as it is found.
pub fn generate(params: &GenParams, sink: Sink<'_>) -> Result<GenSummary, GenError> {
    if params.threads == 0 || params.threads > 256 {
        return Err(GenError::Params(format!(
            "{} threads: use 1 to 256",
            params.threads
        )));
    }
    if let Some(b) = params.config.bootstrap {
        if !(0.0..1.0).contains(&b.delta) || b.levels == 0 || b.levels > 255 {
            return Err(GenError::Params(format!(
                "bootstrapping needs 0 ≤ δ < 1 and 1..=255 levels (got δ = {}, n = {})",
                b.delta, b.levels
            )));
        }
    }
    if let Some(t) = params.threshold {
        if !t.is_finite() {
            return Err(GenError::Params(format!("threshold {t} is not a number")));
        }
    }
    if let Some(aim) = params.aim {
        if aim.boxes == 0 {
            return Err(GenError::Params(
                "an aimed run needs at least one box".into(),
            ));
        }
        if aim.max_pushes.is_some_and(|m| m < aim.min_pushes.max(1)) {
            return Err(GenError::Params(format!(
                "the push band {}..={} is empty",
                aim.min_pushes,
                aim.max_pushes.unwrap_or(0)
            )));
        }
        return match capacity(params.width, params.height).0 {
            1 => run_aimed::<1, 48>(params, aim, sink),
            2 => run_aimed::<2, 96>(params, aim, sink),
            4 => run_aimed::<4, 160>(params, aim, sink),
            8 => run_aimed::<8, 256>(params, aim, sink),
            _ => run_aimed::<16, 512>(params, aim, sink),
        };
    }
    match capacity(params.width, params.height).0 {
        1 => run::<1, 48>(params, sink),
        2 => run::<2, 96>(params, sink),
        4 => run::<4, 160>(params, sink),
        8 => run::<8, 256>(params, sink),
        _ => run::<16, 512>(params, sink),
    }
}

struct Kept<const N: usize> {
    walls: Bits<N>,
    boxes: Bits<N>,
    goals: Bits<N>,
    score: f64,
}

struct Collector<'s, const N: usize, const B: usize> {
    sink: Sink<'s>,
    kept: Vec<Kept<N>>,
    best: f64,
    best_time: f64,
    trace: Vec<(f64, f64)>,
    bests_pre_freeze: Vec<GenState<N, B>>,
    record_pre_freeze: bool,
    error: Option<GenError>,
    time_offset: f64,
    iteration_offset: u64,
}

impl<const N: usize, const B: usize> Collector<'_, N, B> {
    fn consider<G: LevelGame<N, B>>(
        &mut self,
        root: &G,
        found: &Found<'_, G>,
        threshold: Option<f64>,
        near: u32,
        stop: &AtomicBool,
    ) {
        if self.error.is_some() {
            return;
        }
        let state = found.state.level_state();
        let m = state.metrics();
        if m.boxes == 0 || m.score <= 0.0 {
            return;
        }
        let is_best = m.score > self.best;
        let above = threshold.is_some_and(|t| m.score >= t);
        if !is_best && !above {
            return;
        }
        let (walls, boxes, goals) = (state.walls(), state.boxes(), state.goals());
        let duplicate = self.kept.iter().any(|k| {
            let diff = walls
                .xor(k.walls)
                .or(boxes.xor(k.boxes))
                .or(goals.xor(k.goals));
            diff.count() <= near && m.score <= k.score
        });
        if duplicate {
            return;
        }
        let (level, solution) = match verified_level(state, found.sequence) {
            Ok(v) => v,
            Err(e) => {
                self.error = Some(GenError::Verification(e));
                stop.store(true, Ordering::Relaxed);
                return;
            }
        };
        let time_s = self.time_offset + found.elapsed.as_secs_f64();
        if is_best {
            self.best = m.score;
            self.best_time = time_s;
            self.trace.push((time_s, m.score));
            if self.record_pre_freeze {
                self.bests_pre_freeze.push(root.pre_freeze(found.sequence));
            }
        }
        self.kept.push(Kept {
            walls,
            boxes,
            goals,
            score: m.score,
        });
        let xsb = level.to_xsb();
        let out = GeneratedLevel {
            level,
            xsb,
            solution,
            metrics: m,
            iteration: self.iteration_offset + found.iteration,
            time_s,
            new_best: is_best,
            optimal_pushes: None,
        };
        if let Err(e) = (self.sink)(&out) {
            self.error = Some(GenError::Sink(e));
            stop.store(true, Ordering::Relaxed);
        }
    }
}

/// One find of a search thread, kept until the search ends (see [`search_phase`]).
struct Held<G: LevelGame<N, B>, const N: usize, const B: usize> {
    state: G,
    sequence: Vec<crate::state::GenAction>,
    score: f64,
    iteration: u64,
    elapsed: Duration,
    new_best: bool,
    thread: usize,
    restart_offset: u64,
}

/// Run one MCTS phase, handing its finds to the collector. On one thread, or under a time
/// budget, finds go to the collector as they come (levels are written as found). With several
/// threads and an iteration budget, each thread's finds are held and handed over when the
/// search ends, in an order that depends only on each thread's own work (the thread's
/// iteration count, then the thread's index), so that the same seed, thread count and
/// iteration budget keep the same levels in every run.
fn search_phase<const N: usize, const B: usize, G: LevelGame<N, B>>(
    root: &G,
    cfg: &MctsConfig,
    params: &GenParams,
    collector: &Mutex<Collector<'_, N, B>>,
    stop: &AtomicBool,
) -> MctsResult<crate::state::GenAction> {
    let deterministic = cfg.threads > 1 && cfg.budget.max_iterations.is_some();
    let consider = |found: &Found<'_, G>| {
        let mut c = collector.lock().unwrap_or_else(|e| e.into_inner());
        c.consider(
            root,
            found,
            params.threshold,
            params.near_duplicate_cells,
            stop,
        );
    };
    // Per thread: the finds held and that thread's best score so far. A find that does not
    // beat its own thread's best and is below the threshold cannot be kept, so it is not held.
    let held: Mutex<Vec<(Vec<Held<G, N, B>>, f64)>> =
        Mutex::new((0..cfg.threads).map(|_| (Vec::new(), 0.0)).collect());
    let hold = |found: &Found<'_, G>| {
        let mut held = held.lock().unwrap_or_else(|e| e.into_inner());
        let Some((finds, best)) = held.get_mut(found.thread) else {
            return;
        };
        let above = params.threshold.is_some_and(|t| found.score >= t);
        if found.score <= *best && !above {
            return;
        }
        *best = best.max(found.score);
        finds.push(Held {
            state: found.state.clone(),
            sequence: found.sequence.to_vec(),
            score: found.score,
            iteration: found.iteration,
            elapsed: found.elapsed,
            new_best: found.new_best,
            thread: found.thread,
            restart_offset: found.restart_offset,
        });
    };
    let observer: &(dyn Fn(&Found<'_, G>) + Sync) = if deterministic { &hold } else { &consider };
    let result = if params.config.allocation_free {
        mcts::search_observed(root, cfg, &FastPlayout, Some(observer))
    } else {
        mcts::search_observed(root, cfg, &AllocatingPlayout, Some(observer))
    };
    let mut finds: Vec<Held<G, N, B>> = held
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .flat_map(|(finds, _)| finds)
        .collect();
    finds.sort_by_key(|f| (f.restart_offset + f.iteration, f.thread));
    for f in &finds {
        consider(&Found {
            sequence: &f.sequence,
            state: &f.state,
            score: f.score,
            iteration: f.iteration,
            elapsed: f.elapsed,
            new_best: f.new_best,
            thread: f.thread,
            restart_offset: f.restart_offset,
        });
    }
    result
}

fn run<const N: usize, const B: usize>(
    params: &GenParams,
    sink: Sink<'_>,
) -> Result<GenSummary, GenError> {
    let root = root_state::<N, B>(params)?;
    let stop = params
        .budget
        .stop
        .clone()
        .unwrap_or_else(|| Arc::new(AtomicBool::new(false)));
    let bootstrap = params.config.bootstrap.filter(|b| b.delta > 0.0);
    let share = |budget: &Budget, part: f64| -> Budget {
        let mut b = budget.clone().with_stop_flag(stop.clone());
        b.max_time = budget.max_time.map(|t| t.mul_f64(part));
        b.max_iterations = budget
            .max_iterations
            .map(|n| ((n as f64 * part).round() as u64).max(1));
        b
    };
    let main_part = bootstrap.map_or(1.0, |b| 1.0 - b.delta);
    // The bootstrapped search's own iteration count, when given: out of the budget's
    // iterations, the first search gets the rest.
    let boot_iterations = bootstrap.and(params.bootstrap_iterations);
    let main_budget = match (boot_iterations, params.budget.max_iterations) {
        (Some(b), Some(n)) => {
            let mut main = share(&params.budget, main_part);
            main.max_iterations = Some(n.saturating_sub(b).max(1));
            main
        }
        _ => share(&params.budget, main_part),
    };
    let mut cfg = MctsConfig {
        selection: params.config.selection.policy(),
        expansion: params.config.expansion(),
        budget: main_budget,
        seed: params.seed,
        threads: params.threads,
        report_threshold: params.threshold,
        sample_every: params.sample_every,
        ..MctsConfig::default()
    };
    let collector = Mutex::new(Collector::<N, B> {
        sink,
        kept: Vec::new(),
        best: 0.0,
        best_time: 0.0,
        trace: Vec::new(),
        bests_pre_freeze: Vec::new(),
        record_pre_freeze: bootstrap.is_some(),
        error: None,
        time_offset: 0.0,
        iteration_offset: 0,
    });
    let clock = Instant::now();
    let main = search_phase(&root, &cfg, params, &collector, &stop);
    let mut summary = GenSummary {
        iterations: main.iterations,
        elapsed: Duration::ZERO,
        best_score: 0.0,
        time_to_best_s: 0.0,
        nodes: main.nodes,
        peak_nodes: main.peak_nodes,
        trace: Vec::new(),
        levels: 0,
        bootstrap_iterations: 0,
        bootstrap_start_s: None,
        stop: main.stop_reason,
        samples: main.samples.clone(),
    };
    let interrupted = stop.load(Ordering::Relaxed);
    if let (Some(b), false) = (bootstrap, interrupted) {
        let seeds = {
            let mut c = collector.lock().unwrap_or_else(|e| e.into_inner());
            c.record_pre_freeze = false;
            c.time_offset = clock.elapsed().as_secs_f64();
            c.iteration_offset = main.iterations / params.threads as u64;
            let mut seeds: Vec<GenState<N, B>> = Vec::new();
            for s in c.bests_pre_freeze.iter().rev() {
                if seeds.len() == b.levels {
                    break;
                }
                if !seeds.contains(s) {
                    seeds.push(*s);
                }
            }
            seeds
        };
        if !seeds.is_empty() {
            summary.bootstrap_start_s = Some(clock.elapsed().as_secs_f64());
            let boot_root = Bootstrapped::new(seeds);
            cfg.budget = share(&params.budget, b.delta);
            if let (Some(n), Some(_)) = (boot_iterations, params.budget.max_iterations) {
                cfg.budget.max_iterations = Some(n.max(1));
            }
            cfg.seed = puzzle_engine::Rng::stream_seed(params.seed, 0xB007);
            let boot = search_phase(&boot_root, &cfg, params, &collector, &stop);
            summary.iterations += boot.iterations;
            summary.bootstrap_iterations = boot.iterations;
            summary.nodes = boot.nodes;
            summary.peak_nodes = summary.peak_nodes.max(boot.peak_nodes);
            summary.stop = boot.stop_reason;
        }
    }
    summary.elapsed = clock.elapsed();
    let c = collector.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some(e) = c.error {
        return Err(e);
    }
    summary.best_score = c.best;
    summary.time_to_best_s = c.best_time;
    summary.trace = c.trace;
    summary.levels = c.kept.len();
    Ok(summary)
}
