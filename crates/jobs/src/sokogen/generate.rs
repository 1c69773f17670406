//! `sokoban_generate`: Sokoban levels by MCTS, aimed at difficulty or by the thesis's score
//! (`puzzle generate sokoban`).

use super::*;

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
    #[schemars(extend("x-advanced" = true))]
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
    #[schemars(extend("x-advanced" = true))]
    pub seed_level: Option<String>,
    /// Also keep every level scoring at least this (besides each new best; objective `score`).
    #[arg(long, value_name = "SCORE")]
    #[schemars(title = "Score threshold", extend("x-when" = {"objective": ["score"]}))]
    #[schemars(extend("x-advanced" = true))]
    pub threshold: Option<f64>,
    /// Bootstrapping's share δ of the budget (0 = off; the thesis's best: 0.2; objective
    /// `score`).
    #[arg(long, default_value_t = 0.2, value_name = "DELTA")]
    #[schemars(range(min = 0.0, max = 0.99))]
    #[schemars(title = "Bootstrap δ (0 = off)", extend("x-when" = {"objective": ["score"]}))]
    #[schemars(extend("x-advanced" = true))]
    pub bootstrap_delta: f64,
    /// Levels differing from a kept, at least as good level in at most this many cells are
    /// dropped as near-duplicates.
    #[arg(long, default_value_t = 2, value_name = "CELLS")]
    #[schemars(title = "Near-duplicates (cells)")]
    #[schemars(extend("x-advanced" = true))]
    pub near_duplicates: u32,
    /// Move-Agent form (objective `score`).
    #[arg(long, value_enum, default_value_t = MoveAgentName::Push)]
    #[schemars(title = "Move agent", extend("x-when" = {"objective": ["score"]}))]
    #[schemars(extend("x-advanced" = true))]
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
    #[schemars(extend("x-advanced" = true))]
    pub box_limit: String,
    /// Tree depth Freeze-Level needs (0 = off; the thesis's final configuration: 10).
    #[arg(long, default_value_t = 10, value_name = "D")]
    #[schemars(title = "Depth limit (0 = off)")]
    #[schemars(extend("x-advanced" = true))]
    pub depth_limit: u16,
    /// Keep boxes in impossible 2×2 configurations at Freeze-Level (turns the optimization off;
    /// objective `score`).
    #[arg(long)]
    #[schemars(title = "Keep impossible 2×2 boxes", extend("x-when" = {"objective": ["score"]}))]
    #[schemars(extend("x-advanced" = true))]
    pub keep_impossible: bool,
    /// Create all children at a node's first expansion instead of one per expansion (bloom off).
    #[arg(long)]
    #[schemars(title = "No bloom (all children at the first expansion)")]
    #[schemars(extend("x-advanced" = true))]
    pub no_bloom: bool,
    /// Use Congestion-V1 instead of Congestion-V2 in the score (objective `score`).
    #[arg(long)]
    #[schemars(title = "Congestion V1 (instead of V2)", extend("x-when" = {"objective": ["score"]}))]
    #[schemars(extend("x-advanced" = true))]
    pub congestion_v1: bool,
    /// Selection formula (Table 3.8's constants).
    #[arg(long, value_enum, default_value_t = SelectionName::Ucb1)]
    #[schemars(title = "Selection formula")]
    #[schemars(extend("x-advanced" = true))]
    pub selection: SelectionName,
    /// UCB1's exploration factor ξ (C = ξ/√2; Table 3.7).
    #[arg(long, default_value_t = 1.0, value_name = "XI")]
    #[schemars(title = "Exploration factor ξ", extend("x-when" = {"selection": ["ucb1"]}))]
    #[schemars(extend("x-advanced" = true))]
    pub xi: f64,
    /// Low-memory setting for long runs on big boards: the search trees' memory in MiB (caps
    /// the node budget at what fits, at [`puzzle_engine::mcts::node_bytes`] a node: 32 bytes
    /// with UCB1, 48 with the formulas that read the rewards' spread; a full tree stops
    /// growing and the search goes on sampling from its leaves).
    #[arg(long = "max-memory", value_name = "MIB")]
    #[schemars(title = "Tree memory (MiB)")]
    #[schemars(extend("x-advanced" = true))]
    pub max_memory_mb: Option<f64>,
    /// Record one iteration in every `N` of the search (objective `score`): its duration, the
    /// tree's memory, the depth its rollout began at and the best score so far, written as
    /// `samples` in the summary line (the per-iteration trace of the thesis's §3.10, its
    /// Figures 3.2 and 3.3).
    #[arg(long, value_name = "N")]
    #[schemars(range(min = 1))]
    #[schemars(title = "Sample every N iterations", extend("x-when" = {"objective": ["score"]}))]
    #[schemars(extend("x-advanced" = true))]
    pub sample_every: Option<u64>,
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
    /// The sampled iterations (`--sample-every`), in time order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub samples: Vec<SampleRecord>,
    /// The run it closes (with `--seeds`).
    #[serde(flatten)]
    pub run: RunId,
}

/// One sampled iteration of a generation's search (`--sample-every`;
/// [`puzzle_engine::mcts::IterationSample`]).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SampleRecord {
    /// Iterations before it.
    pub iteration: u64,
    /// Seconds since the search started.
    pub time_s: f64,
    /// Its own duration, nanoseconds.
    pub duration_ns: u64,
    /// The search tree's memory after it, bytes (nodes × bytes per node).
    pub tree_bytes: u64,
    /// The tree's nodes after it.
    pub nodes: u64,
    /// The tree depth its rollout began at.
    pub depth: u32,
    /// Moves of its rollout.
    pub rollout: u32,
    /// The best score so far (none before a complete level).
    pub best_score: Option<f64>,
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
        sample_every: req.sample_every.filter(|&n| n > 0),
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
        samples: summary
            .samples
            .iter()
            .map(|x| SampleRecord {
                iteration: x.iteration,
                time_s: x.time_s,
                duration_ns: x.duration_ns,
                tree_bytes: x.tree_bytes,
                nodes: x.nodes,
                depth: x.depth,
                rollout: x.rollout,
                best_score: x.best_score.is_finite().then_some(x.best_score),
            })
            .collect(),
        run,
    };
    send(GenEvent::Summary(record.clone()))?;
    Ok(GenOutcome {
        summary: record,
        trace: summary.trace,
        seed: params.seed,
    })
}

impl crate::job::Job for GenerateRequest {
    const NAME: &'static str = "sokoban_generate";
    const TITLE: &'static str = "Generate Sokoban levels with MCTS";
    type Event = GenEvent;

    fn check(&self) -> Result<()> {
        params(self, &Arc::new(AtomicBool::new(false))).map(drop)
    }

    crate::job::job_fields!(limits, items);

    fn item_complete(records: &[serde_json::Value]) -> bool {
        // A seed's levels are whole once its summary is written.
        records
            .last()
            .is_some_and(|r| r.get("summary") == Some(&serde_json::Value::Bool(true)))
    }

    crate::job::job_run!(generate);

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
