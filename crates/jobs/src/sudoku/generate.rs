//! `sudoku_generate`: minimal puzzles with a unique solution (`puzzle generate sudoku`).

use super::*;

/// Generate minimal unique-solution puzzles (`puzzle generate sudoku`).
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema, clap::Args)]
#[serde(default)]
pub struct GenerateRequest {
    /// How many puzzles.
    #[arg(long, value_name = "N", default_value_t = 1)]
    #[schemars(range(min = 1, max = 1_000_000))]
    pub count: u64,
    /// Box size n (the grid is n²×n²; 3 is the classic 9×9).
    #[arg(long, value_name = "n", default_value_t = 3)]
    #[schemars(range(min = 2, max = 4))]
    pub box_size: usize,
    /// Only the seed is used (default 1): puzzle i uses the stream seed (seed, i).
    #[serde(flatten)]
    #[arg(skip)]
    pub limits: Limits,
}

impl Default for GenerateRequest {
    fn default() -> Self {
        crate::options::defaults()
    }
}

/// One generated puzzle: the `puzzle generate sudoku --json` line.
#[derive(Clone, Debug, Serialize)]
pub struct GeneratedRecord {
    /// 1-based number of the puzzle.
    pub index: u64,
    /// The puzzle (one line, `.` empty).
    pub puzzle: String,
    /// Its unique solution (checked by the exact solver).
    pub solution: String,
    /// Clues of the puzzle.
    pub clues: usize,
    /// Guesses the exact solver needed (the difficulty estimate).
    pub guesses: u64,
    /// The difficulty class of `guesses`.
    pub difficulty: String,
    /// The seed that generates this puzzle alone.
    pub seed: u64,
}

/// The closing record of a generation.
#[derive(Clone, Debug, Serialize)]
pub struct GenerateSummary {
    /// Puzzles generated.
    pub generated: u64,
    /// The run was stopped before `count` puzzles were generated.
    pub interrupted: bool,
}

/// The events of a generation.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum GenerateEvent {
    /// Puzzles generated so far.
    Progress(ItemProgress),
    /// One generated puzzle.
    Puzzle(GeneratedRecord),
    /// The end.
    Summary(GenerateSummary),
}

impl JobEvent for GenerateEvent {
    fn kind(&self) -> EventKind {
        match self {
            GenerateEvent::Progress(_) => EventKind::Progress,
            GenerateEvent::Puzzle(_) => EventKind::Result,
            GenerateEvent::Summary(_) => EventKind::Summary,
        }
    }
}

/// Run a [`GenerateRequest`]: a `Puzzle` event per puzzle, each checked unique by the exact
/// solver, then the `Summary`.
pub fn generate(
    req: &GenerateRequest,
    stop: &Arc<AtomicBool>,
    emit: Emit<'_, GenerateEvent>,
) -> Result<GenerateSummary> {
    req.limits.validate()?;
    if !(1..=MAX_GENERATE).contains(&req.count) {
        bail!("count must be 1 to 10^6 puzzles, not {}", req.count);
    }
    if !(2..=4).contains(&req.box_size) {
        bail!("box_size must be 2, 3 or 4, not {}", req.box_size);
    }
    let seed = req.limits.seed_or(1);
    let started = Instant::now();
    let mut generated = 0;
    for i in 0..req.count {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let s = Rng::stream_seed(seed, i);
        let g = generate_puzzle(req.box_size, &mut Rng::new(s))
            .context("the exact solver's budget ran out while generating")?;
        let check = solve_exact(&g.puzzle, ExactLimits::default());
        if !check.is_unique() || check.solution.as_ref() != Some(&g.solution) {
            bail!("internal error: generated puzzle is not unique");
        }
        generated += 1;
        emit(GenerateEvent::Puzzle(GeneratedRecord {
            index: i + 1,
            puzzle: g.puzzle.to_line(),
            solution: g.solution.to_line(),
            clues: g.puzzle.clue_count(),
            guesses: g.guesses,
            difficulty: g.difficulty.name().to_string(),
            seed: s,
        }))?;
        emit(GenerateEvent::Progress(ItemProgress {
            done: generated,
            total: req.count,
            solved: generated,
            label: "generating".into(),
            elapsed_s: started.elapsed().as_secs_f64(),
        }))?;
    }
    let summary = GenerateSummary {
        generated,
        interrupted: generated < req.count,
    };
    emit(GenerateEvent::Summary(summary.clone()))?;
    Ok(summary)
}

impl crate::job::Job for GenerateRequest {
    const NAME: &'static str = "sudoku_generate";
    const READS: &'static [crate::limits::Limit] = &[crate::limits::Limit::Seed];
    const TITLE: &'static str = "Generate Sudoku puzzles with a unique solution";
    type Event = GenerateEvent;

    crate::job::job_fields!(limits);

    crate::job::job_run!(generate);

    fn example() -> Self {
        GenerateRequest {
            count: 1,
            ..GenerateRequest::default()
        }
    }
}
