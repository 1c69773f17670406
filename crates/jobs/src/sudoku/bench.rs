//! `sudoku_bench`: the exact solver's puzzles per second over a text (`puzzle bench sudoku`).

use super::*;

/// Time the exact solver over a puzzle text (`puzzle bench sudoku`): puzzles per second, best
/// of `repeat` passes.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema, clap::Args)]
#[serde(default)]
pub struct BenchRequest {
    /// The puzzles (one per line).
    #[arg(skip)]
    pub puzzles: String,
    /// Where the text came from: named in parse errors and the record's `file`.
    #[arg(skip = String::from("input"))]
    pub source: String,
    /// What to solve for.
    #[arg(long, value_enum, default_value_t = BenchModeName::First)]
    pub mode: BenchModeName,
    /// Passes over the whole text (the best pass counts).
    #[arg(long, value_name = "K", default_value_t = 3)]
    #[schemars(range(min = 1, max = 1000))]
    pub repeat: u64,
    /// Validated but unused: the benchmark runs whole passes (a stop ends it after the
    /// current pass).
    #[serde(flatten)]
    #[arg(skip)]
    pub limits: Limits,
}

impl Default for BenchRequest {
    fn default() -> Self {
        crate::options::defaults()
    }
}

/// The benchmark's result: the `puzzle bench sudoku --json` line.
#[derive(Clone, Debug, Serialize)]
pub struct BenchRecord {
    /// The request's `source` (the file).
    pub file: String,
    /// Puzzles per pass.
    pub puzzles: usize,
    /// `first` or `unique`.
    pub mode: String,
    /// Puzzles per second of wall time (best pass).
    pub puzzles_per_s: f64,
    /// Puzzles per second of this thread's on-CPU time (best pass; Linux only): robust when
    /// the machine is shared.
    pub puzzles_per_cpu_s: Option<f64>,
    /// The best pass's wall time.
    pub best_pass_s: f64,
    /// Exact-solver guesses per puzzle.
    pub guesses_per_puzzle: f64,
    /// Puzzles whose solution verified.
    pub solved: usize,
}

/// The events of a benchmark.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum BenchEvent {
    /// Passes done (`done` of `total`).
    Progress(ItemProgress),
    /// The result.
    Summary(BenchRecord),
}

impl JobEvent for BenchEvent {
    fn kind(&self) -> EventKind {
        match self {
            BenchEvent::Progress(_) => EventKind::Progress,
            BenchEvent::Summary(_) => EventKind::Summary,
        }
    }
}

/// Seconds this thread has spent on a CPU (Linux `/proc/thread-self/schedstat`), if available.
fn thread_cpu_seconds() -> Option<f64> {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()?
        .split_whitespace()
        .next()?
        .parse::<u64>()
        .ok()
        .map(|ns| ns as f64 * 1e-9)
}

/// Run a [`BenchRequest`]: a `Progress` event per pass, then the result as the `Summary`.
pub fn bench(
    req: &BenchRequest,
    stop: &Arc<AtomicBool>,
    emit: Emit<'_, BenchEvent>,
) -> Result<BenchRecord> {
    req.limits.validate()?;
    let mode = choice_name(&req.mode);
    if !(1..=1000).contains(&req.repeat) {
        bail!("repeat must be 1 to 1000 passes, not {}", req.repeat);
    }
    let puzzles = parse_puzzle_text(&req.puzzles, &req.source)?;
    let limits = ExactLimits {
        max_solutions: if mode == "first" { 1 } else { 2 },
        ..ExactLimits::default()
    };
    // 9×9 puzzles go straight to the band solver (as a library user would call it); the
    // solutions are kept and verified after the timed passes.
    let nine: Option<Vec<[u8; 81]>> = puzzles
        .iter()
        .map(|p| <[u8; 81]>::try_from(p.grid.cells()).ok())
        .collect();
    let started = Instant::now();
    let mut best = f64::INFINITY;
    let mut best_cpu = f64::INFINITY;
    let mut guesses = 0u64;
    let mut solutions: Vec<Option<Grid>> = Vec::new();
    for pass in 0..req.repeat {
        let start = Instant::now();
        let cpu_start = thread_cpu_seconds();
        guesses = 0;
        solutions.clear();
        match &nine {
            Some(cells) => {
                for c in cells {
                    let o =
                        puzzle_sudoku::fast9::solve9(c, limits.max_solutions, limits.max_guesses);
                    guesses += o.guesses;
                    solutions.push(o.first.and_then(|s| Grid::from_values(&s).ok()));
                }
            }
            None => {
                for p in &puzzles {
                    let o = solve_exact(&p.grid, limits);
                    guesses += o.guesses;
                    solutions.push(o.solution);
                }
            }
        }
        best = best.min(start.elapsed().as_secs_f64());
        if let (Some(a), Some(b)) = (cpu_start, thread_cpu_seconds()) {
            best_cpu = best_cpu.min(b - a);
        }
        emit(BenchEvent::Progress(ItemProgress {
            done: pass + 1,
            total: req.repeat,
            solved: pass + 1,
            label: format!("{} ({mode})", req.source),
            elapsed_s: started.elapsed().as_secs_f64(),
        }))?;
        if stop.load(Ordering::Relaxed) {
            break;
        }
    }
    let solved = puzzles
        .iter()
        .zip(&solutions)
        .filter(|(p, s)| s.as_ref().is_some_and(|s| s.solves(&p.grid)))
        .count();
    let record = BenchRecord {
        file: req.source.clone(),
        puzzles: puzzles.len(),
        mode: mode.to_string(),
        puzzles_per_s: puzzles.len() as f64 / best.max(1e-9),
        puzzles_per_cpu_s: best_cpu
            .is_finite()
            .then(|| puzzles.len() as f64 / best_cpu.max(1e-9)),
        best_pass_s: best,
        guesses_per_puzzle: guesses as f64 / puzzles.len() as f64,
        solved,
    };
    emit(BenchEvent::Summary(record.clone()))?;
    Ok(record)
}

impl crate::job::Job for BenchRequest {
    const NAME: &'static str = "sudoku_bench";
    const READS: &'static [crate::limits::Limit] = &[];
    const TITLE: &'static str = "Time the exact Sudoku solver";
    type Event = BenchEvent;

    crate::job::job_fields!(limits);

    crate::job::job_run!(bench);

    fn example() -> Self {
        BenchRequest {
            puzzles: "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n".into(),
            repeat: 1,
            ..BenchRequest::default()
        }
    }
}
