//! `sudoku_solve`: the puzzles of a text with the thesis's MCTS or the exact solver
//! (`puzzle solve sudoku`).

use super::*;

/// Solve the puzzles of one text (`puzzle solve sudoku`, job `sudoku_solve`). Every field but
/// the text is an option of the command (the same name, `-` for `_`) with the same default:
/// MCTS with the most-constrained cell for the tree and the playouts, UCB1 0.2, 100,000
/// simulations per tree, 9 restarts, one thread. `preset: thesis` gives the thesis's settings.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema, clap::Args)]
#[serde(default)]
// The exact solver reads no budget setting.
#[schemars(transform = crate::options::flattened(
    &["seed", "time_limit", "iterations", "threads", "max_nodes"],
    "x-when",
    serde_json::json!({"algo": ["mcts"]}),
))]
pub struct SolveRequest {
    /// The puzzles: one per line (81 symbols, `.` or `0` empty), or grids of 9 lines.
    #[arg(skip)]
    pub puzzles: String,
    /// Where the text came from, named in parse errors (a file path; `input` by default).
    #[arg(skip = String::from("input"))]
    pub source: String,
    /// Solver.
    #[arg(long, value_enum, default_value_t = AlgorithmName::Mcts)]
    pub algo: AlgorithmName,
    /// Named settings (default none: the strongest configuration). The preset gives the
    /// playout and tree cell choice a request leaves out; the other defaults are already the
    /// thesis's.
    #[arg(long, value_enum)]
    #[schemars(title = "Preset", extend("x-when" = {"algo": ["mcts"]}))]
    pub preset: Option<PresetName>,
    /// MCTS playout cell choice [default: mrv; random with the thesis preset].
    #[arg(long, value_enum)]
    #[schemars(title = "Playout cell choice", extend("x-when" = {"algo": ["mcts"]}))]
    pub playout: Option<CellName>,
    /// MCTS selection formula.
    #[arg(long, value_enum, default_value_t = SelectionName::Ucb1)]
    #[schemars(title = "Selection formula", extend("x-when" = {"algo": ["mcts"]}))]
    pub selection: SelectionName,
    /// UCB1 exploration constant UCTK (the thesis tried 0.1, 0.2, 0.4; 0.2 was best).
    #[arg(long, value_name = "K", default_value_t = 0.2)]
    #[schemars(range(min = 0.0, max = 100.0))]
    #[schemars(title = "UCTK", extend("x-when" = {"algo": ["mcts"], "selection": ["ucb1"]}))]
    pub uctk: f64,
    /// Turn on α-AMAF with this α (0.5 in the thesis); widens expansion to a whole unit.
    #[arg(long, value_name = "ALPHA")]
    #[schemars(range(min = 0.0, max = 1.0))]
    #[schemars(title = "α-AMAF with α (empty: off)", extend("x-when" = {"algo": ["mcts"]}))]
    pub amaf: Option<f64>,
    /// Simulations per MCTS tree; the search restarts with a fresh tree after this many.
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    #[schemars(range(min = 1, max = 10_000_000_000u64))]
    #[schemars(title = "Simulations per tree", extend("x-when" = {"algo": ["mcts"]}))]
    #[schemars(extend("x-advanced" = true))]
    pub max_simulations: u64,
    /// Restarts allowed after the first tree (total budget: N × (R + 1) simulations).
    #[arg(long, value_name = "R", default_value_t = 9)]
    #[schemars(range(max = 1_000_000))]
    #[schemars(title = "Restarts", extend("x-when" = {"algo": ["mcts"]}))]
    #[schemars(extend("x-advanced" = true))]
    pub restarts: u64,
    /// Tree expansion cell choice (the thesis leaves it open) [default: mrv; random with the
    /// thesis preset].
    #[arg(long, value_enum)]
    #[schemars(title = "Tree cell choice", extend("x-when" = {"algo": ["mcts"], "amaf": [null]}))]
    #[schemars(extend("x-advanced" = true))]
    pub tree_cell: Option<CellName>,
    /// Visits of a leaf before it is expanded (10 in the thesis).
    #[arg(long, value_name = "V", default_value_t = 10)]
    #[schemars(title = "Visits before expansion", extend("x-when" = {"algo": ["mcts"]}))]
    #[schemars(extend("x-advanced" = true))]
    pub visits_before_expand: u32,
    /// Budget per puzzle: `iterations` caps the simulations, `time_limit` the time (default
    /// none: the simulations bound the run), `max_nodes` the tree (default the engine's),
    /// seed 1, one thread.
    #[serde(flatten)]
    #[arg(skip)]
    pub limits: Limits,
    /// Sharding and resuming over the puzzles (items: the puzzles in order).
    #[serde(flatten)]
    #[arg(skip)]
    pub items: Items,
}

impl Default for SolveRequest {
    fn default() -> Self {
        crate::options::defaults()
    }
}

/// One solved (or not) puzzle: the `puzzle solve sudoku --json` line.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SolveRecord {
    /// 1-based index of the puzzle in the text.
    pub index: usize,
    /// The puzzle (one line, `.` empty).
    pub puzzle: String,
    /// A solution was found and verified.
    pub solved: bool,
    /// The solution (81 digits), or "" when none was found.
    pub solution: String,
    /// MCTS: simulations over all restarts; exact: guesses.
    pub simulations: u64,
    /// MCTS restarts (0 for exact).
    pub restarts: u64,
    /// Wall time for this puzzle.
    pub time_s: f64,
    /// The solver used (`mcts` or `exact`).
    pub algo: String,
    /// Exact solver only: solutions found, up to 2 (2 means "not unique").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solutions: Option<usize>,
    /// Exact solver only: branches tried.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub guesses: Option<u64>,
    /// The line of the text where the puzzle starts.
    pub line: usize,
    /// The grid to show: the solution, or the puzzle when unsolved (not serialized).
    #[serde(skip, default = "no_grid")]
    pub grid: Grid,
    /// The puzzle's number in the run (1-based; the same as `index`).
    #[serde(default)]
    pub item: usize,
    /// The shard that solved it (`"2/4"`), when the run was sharded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
}

/// The grid of a record read back (replaced by the puzzle or its checked solution).
fn no_grid() -> Grid {
    Grid::empty(3)
}

/// The closing record of a solve run.
#[derive(Clone, Debug, Serialize)]
pub struct SolveSummary {
    /// Puzzles in the text.
    pub puzzles: usize,
    /// Puzzles solved.
    pub solved: usize,
    /// The solver used.
    pub algo: String,
    /// Mean simulations (exact: guesses) per solved puzzle (0 when none was solved).
    pub mean_simulations: f64,
    /// The run was stopped before every puzzle was attempted.
    pub interrupted: bool,
}

/// How often a running MCTS solve reports [`SearchProgress`].
pub const PROGRESS_EVERY: Duration = Duration::from_millis(200);

/// Live progress of one puzzle's MCTS search (at the start, then every [`PROGRESS_EVERY`]).
#[derive(Clone, Debug, Serialize)]
pub struct SearchProgress {
    /// 1-based index of the puzzle being searched.
    pub puzzle: usize,
    /// Simulations so far (all threads and restarts).
    pub simulations: u64,
    /// Restarts so far (simulations done ÷ `max_simulations` per tree; exact for one thread).
    pub restarts: u64,
    /// The deepest fill any playout reached: cells filled, clues included.
    pub best_filled: usize,
    /// Cells of the grid (81 for 9×9).
    pub cells: usize,
    /// Seconds since this puzzle's search started.
    pub elapsed_s: f64,
}

/// The events of a solve run.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum SolveEvent {
    /// Puzzles done so far.
    Progress(ItemProgress),
    /// The MCTS search of one puzzle while it runs.
    Search(SearchProgress),
    /// One puzzle's result.
    Puzzle(SolveRecord),
    /// The end.
    Summary(SolveSummary),
}

impl JobEvent for SolveEvent {
    fn kind(&self) -> EventKind {
        match self {
            SolveEvent::Progress(_) | SolveEvent::Search(_) => EventKind::Progress,
            SolveEvent::Puzzle(_) => EventKind::Result,
            SolveEvent::Summary(_) => EventKind::Summary,
        }
    }
}

/// Check that `value` (the field `field`) is one of `choices`.
/// Check a simulation count named `field`: 1 to [`MAX_SIMULATIONS`].
pub(super) fn check_simulations(field: &str, v: u64) -> Result<()> {
    if !(1..=MAX_SIMULATIONS).contains(&v) {
        bail!("{field} must be 1 to 10^10 simulations, not {v}");
    }
    Ok(())
}

/// Parse `text` as puzzles, naming `source` in the error (the error keeps its line and column:
/// downcast to [`puzzle_sudoku::ParseError`]); an empty text is an error too.
pub fn parse_puzzle_text(text: &str, source: &str) -> Result<Vec<ParsedPuzzle>> {
    let puzzles =
        parse_puzzles(text).map_err(|e| anyhow::Error::new(e).context(source.to_string()))?;
    if puzzles.is_empty() {
        bail!("{source}: no puzzle in the file");
    }
    Ok(puzzles)
}

/// The MCTS solver's settings for a request, after checking every field (thesis 4.3: playout,
/// selection, AMAF, restarts).
pub fn mcts_config(req: &SolveRequest, stop: &Arc<AtomicBool>) -> Result<MctsSudokuConfig> {
    req.limits.validate()?;
    crate::options::check_ranges(req)?;
    if !req.uctk.is_finite() {
        bail!("uctk must be between 0 and 100, not {}", req.uctk);
    }
    // `thesis`, the only preset (chapter 4.3): random playouts, a random cell for expansion.
    let preset_cell = match req.preset {
        None => DEFAULT_CELL,
        Some(PresetName::Thesis) => CellName::Random,
    };
    let playout = match req.playout.unwrap_or(preset_cell) {
        CellName::Random => PlayoutKind::Random,
        CellName::Pseudo => PlayoutKind::PseudoRandom,
        CellName::Mrv => PlayoutKind::MostConstrained,
    };
    let selection = match req.selection {
        SelectionName::Ucb1 => Selection::Ucb1 { uctk: req.uctk },
        SelectionName::UcbTuned => Selection::Ucb1Tuned,
    };
    let tree_cell = match req.tree_cell.unwrap_or(preset_cell) {
        CellName::Random => CellChoice::Random,
        CellName::Pseudo => CellChoice::PseudoRandom,
        CellName::Mrv => CellChoice::MostConstrained,
    };
    check_simulations("max_simulations", req.max_simulations)?;
    if req.restarts > MAX_RESTARTS {
        bail!("restarts must be at most 10^6, not {}", req.restarts);
    }
    let total = req.max_simulations.saturating_mul(req.restarts + 1);
    let limits = &req.limits;
    Ok(MctsSudokuConfig {
        playout,
        selection,
        amaf: req.amaf,
        tree_cell,
        visits_before_expand: req.visits_before_expand,
        restart_after: Some(req.max_simulations),
        max_simulations: limits.iterations.map_or(total, |i| i.min(total)),
        time_limit: limits.time_limit.map(Duration::from_secs_f64),
        max_nodes: limits.max_nodes.unwrap_or(puzzle_engine::DEFAULT_MAX_NODES),
        seed: limits.seed_or(1),
        threads: limits.threads_or(1),
        stop: Some(stop.clone()),
    })
}

/// Run MCTS on one puzzle, reporting [`SearchProgress`] through `send` while it runs.
fn watched_mcts(
    index: usize,
    p: &ParsedPuzzle,
    cfg: &MctsSudokuConfig,
    send: Send<'_>,
) -> Result<puzzle_sudoku::mcts::MctsSolve> {
    let counter = Arc::new(WorkCounter::new());
    let best_filled = AtomicUsize::new(p.grid.clue_count());
    let failed = Mutex::new(None::<anyhow::Error>);
    let started = Instant::now();
    let per_tree = cfg.restart_after.unwrap_or(u64::MAX).max(1);
    let report = || {
        let simulations = counter.iterations();
        let event = SolveEvent::Search(SearchProgress {
            puzzle: index,
            simulations,
            restarts: simulations / per_tree,
            best_filled: best_filled.load(Ordering::Relaxed),
            cells: p.grid.len(),
            elapsed_s: started.elapsed().as_secs_f64(),
        });
        if let Err(e) = send(event) {
            // The receiver is gone: stop the search as a closed output would.
            if let Some(stop) = &cfg.stop {
                stop.store(true, Ordering::Relaxed);
            }
            failed
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get_or_insert(e);
        }
    };
    let on_fill = |filled: usize| {
        best_filled.fetch_max(filled, Ordering::Relaxed);
    };
    report();
    let result = crate::ticker::with_ticks(
        PROGRESS_EVERY,
        || {
            report();
            true
        },
        || solve_mcts_watched(&p.grid, cfg, Some(counter.clone()), Some(&on_fill)),
    );
    if let Some(e) = failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    result.map_err(|e| anyhow::anyhow!("puzzle {index} (line {}): {e}", p.line))
}

/// Solve one puzzle (the `index`-th) and verify the solution.
fn solve_one(
    index: usize,
    p: &ParsedPuzzle,
    exact: bool,
    cfg: &MctsSudokuConfig,
    send: Send<'_>,
) -> Result<SolveRecord> {
    let start = Instant::now();
    let mut record = SolveRecord {
        index,
        puzzle: p.grid.to_line(),
        solved: false,
        solution: String::new(),
        simulations: 0,
        restarts: 0,
        time_s: 0.0,
        algo: "mcts".into(),
        solutions: None,
        guesses: None,
        line: p.line,
        grid: p.grid.clone(),
        item: index,
        shard: None,
    };
    let solution: Option<Grid> = if exact {
        record.algo = "exact".into();
        let o = solve_exact(&p.grid, ExactLimits::default());
        record.solutions = Some(o.solutions);
        record.guesses = Some(o.guesses);
        record.simulations = o.guesses;
        if o.aborted {
            bail!(
                "puzzle {index} (line {}): the exact solver's guess budget ran out",
                p.line
            );
        }
        o.solution
    } else {
        let r = watched_mcts(index, p, cfg, send)?;
        record.simulations = r.simulations;
        record.restarts = r.restarts;
        r.solution
    };
    record.time_s = start.elapsed().as_secs_f64();
    if let Some(s) = solution {
        // Verified before it is emitted.
        if !s.solves(&p.grid) {
            bail!("internal error: puzzle {index} solution does not verify");
        }
        record.solved = true;
        record.solution = s.to_line();
        record.grid = s;
    }
    Ok(record)
}

/// Run a [`SolveRequest`]: a `Puzzle` event per puzzle (with `Progress`), then the `Summary`.
pub fn solve(
    req: &SolveRequest,
    stop: &Arc<AtomicBool>,
    emit: Emit<'_, SolveEvent>,
) -> Result<SolveSummary> {
    let algo = req.algo;
    let cfg = mcts_config(req, stop)?;
    let puzzles = parse_puzzle_text(&req.puzzles, &req.source)?;
    let emit = Mutex::new(emit);
    let send = |event: SolveEvent| -> Result<()> {
        let mut guard = emit.lock().unwrap_or_else(|e| e.into_inner());
        (*guard)(event)
    };
    let emit = send;
    let started = Instant::now();
    req.items.check(puzzles.len())?;
    let (mut solved, mut done, mut total_sims, mut taken) = (0usize, 0usize, 0u64, 0usize);
    for (k, p) in puzzles.iter().enumerate() {
        let item = k + 1;
        let r = match req.items.plan(item) {
            Plan::Skip => continue,
            Plan::Done(records) => {
                taken += 1;
                let [record] = records else {
                    bail!(
                        "item {item}: {} records where one is expected",
                        records.len()
                    );
                };
                let mut r: SolveRecord = req.items.decode(item, record)?;
                if r.index != item || r.puzzle != p.grid.to_line() {
                    bail!(
                        "item {item} is puzzle {} {}, but this run's item {item} is {}: the \
                         records come from a different configuration",
                        r.index,
                        r.puzzle,
                        p.grid.to_line()
                    );
                }
                r.grid = p.grid.clone();
                if r.solved {
                    match parse_puzzle(&r.solution) {
                        Ok(s) if s.solves(&p.grid) => r.grid = s,
                        _ => bail!("item {item}: the recorded solution does not solve the puzzle"),
                    }
                }
                r
            }
            Plan::Run => {
                taken += 1;
                if stop.load(Ordering::Relaxed) {
                    continue;
                }
                let mut r = solve_one(item, p, algo == AlgorithmName::Exact, &cfg, &emit)?;
                r.shard = req.items.shard;
                r
            }
        };
        if r.solved {
            solved += 1;
            total_sims += r.simulations;
        }
        done += 1;
        emit(SolveEvent::Puzzle(r))?;
        emit(SolveEvent::Progress(ItemProgress {
            done: done as u64,
            total: puzzles.len() as u64,
            solved: solved as u64,
            label: "sudoku".into(),
            elapsed_s: started.elapsed().as_secs_f64(),
        }))?;
    }
    let summary = SolveSummary {
        puzzles: taken,
        solved,
        algo: crate::options::choice_name(&algo),
        mean_simulations: total_sims as f64 / solved.max(1) as f64,
        interrupted: done < taken || stop.load(Ordering::Relaxed),
    };
    emit(SolveEvent::Summary(summary.clone()))?;
    Ok(summary)
}

impl crate::job::Job for SolveRequest {
    const NAME: &'static str = "sudoku_solve";
    const TITLE: &'static str = "Solve Sudoku puzzles (MCTS or exact)";
    const PRINTS_SUMMARY: bool = false;
    type Event = SolveEvent;

    fn check(&self) -> Result<()> {
        // The exact solver reads no budget setting (the schema says so with `x-when`): one
        // given with it is refused, not dropped.
        if self.algo == AlgorithmName::Exact {
            self.limits
                .check_read("sudoku_solve with algo exact", &[])?;
        }
        mcts_config(self, &Arc::new(AtomicBool::new(false))).map(drop)
    }

    crate::job::job_fields!(limits, items);

    crate::job::job_run!(solve);

    fn signature() -> Result<Vec<Signature>> {
        signature()
    }

    fn example() -> Self {
        SolveRequest {
            puzzles: "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n".into(),
            limits: Limits {
                time_limit: Some(5.0),
                ..Limits::default()
            },
            ..SolveRequest::default()
        }
    }
}
