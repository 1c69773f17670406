//! `samegame_solve`: boards with SP-MCTS, NMCS, NRPA, DBS, A* or IDA*
//! (`puzzle solve samegame`).

use super::*;

/// Solve SameGame boards (`puzzle solve samegame`, job `samegame_solve`). Every field is an
/// option of the command (the same name, `-` for `_`) with the same default, the strongest
/// configuration measured: selective NRPA with best-first tabu colours. The papers' settings:
/// `algo: spmcts` (Schadd et al.), `tabu_colours: 1` (Cazenave 2016), `selective: false`
/// (Rosin's NRPA).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema, clap::Args)]
#[serde(default)]
pub struct SolveRequest {
    /// The boards' text: a standard-set file (`rows cols colours` + letter rows), the digits
    /// file (`# problem NN` blocks) or a Hungarian CSV (`columns;rows`). `None` with `random`.
    #[arg(skip)]
    pub text: Option<String>,
    /// Where the text came from, named in parse errors and board names (a file path; `input`
    /// by default).
    #[arg(skip = String::from("input"))]
    pub source: String,
    /// Only board N (1-based) of a multi-board file.
    #[arg(long, value_name = "N")]
    #[schemars(range(min = 1))]
    pub board: Option<usize>,
    /// A random board instead of a file: COLSxROWSxCOLOURS, e.g. 15x15x5 (seed: --seed).
    #[arg(long, value_name = "WxHxK")]
    pub random: Option<String>,
    /// The search.
    #[arg(long, value_enum, default_value_t = AlgorithmName::Nrpa)]
    #[schemars(title = "Algorithm")]
    pub algo: AlgorithmName,
    /// Playout policy: random, tabu, tabu-colour, pseudo[-K], pseudo-tabu[-K], double-tabu,
    /// roulette, eps<E>-<policy>.
    // The doc comment is the `--help` text: `<E>` is a placeholder, not HTML.
    #[allow(rustdoc::invalid_html_tags)]
    #[arg(long, default_value = "tabu", value_parser = parse_playout)]
    #[serde(with = "crate::options::as_text")]
    #[schemars(with = "String")]
    #[schemars(
        title = "Playout policy",
        extend("x-when" = {"algo": ["spmcts", "nmcs", "dbs", "random"]}),
        // Named policies for a form's menu (any policy the text names is accepted).
        extend("x-choices" = [
            {"const": "tabu", "title": "Random Tabu (Czech thesis)"},
            {"const": "tabu-colour", "title": "TabuColorRandom (Schadd)"},
            {"const": "random", "title": "Random"},
            {"const": "pseudo-3", "title": "Pseudo Random, k = 3 (Czech thesis)"},
            {"const": "pseudo-tabu-3", "title": "Pseudo Random Tabu, k = 3 (Czech thesis)"},
            {"const": "double-tabu", "title": "Random Double Tabu (Czech thesis)"},
            {"const": "roulette", "title": "Roulette wheel, (n − 1)² (Hungarian paper)"},
            {"const": "eps0.1-tabu", "title": "ε-greedy 0.1 around Random Tabu (Hungarian paper)"}
        ])
    )]
    pub playout: AnyChooser,
    /// Points per group.
    #[arg(long, value_enum, default_value_t = ScoringName::Standard)]
    #[schemars(title = "Scoring")]
    pub scoring: ScoringName,
    /// End penalty for stones left.
    #[arg(long, value_enum, default_value_t = PenaltyName::None)]
    #[schemars(title = "End penalty (stones left)")]
    pub penalty: PenaltyName,
    /// SP-MCTS exploration constant C (rewards are normalized to about [0, 1]).
    #[arg(long)]
    #[schemars(range(min = 0.0))]
    #[schemars(title = "C (exploration)", extend("x-when" = {"algo": ["spmcts"], "uctk": [null]}))]
    pub c: Option<f64>,
    /// SP-MCTS variance constant D.
    #[arg(long)]
    #[schemars(range(min = 0.0))]
    #[schemars(title = "D (variance)", extend("x-when" = {"algo": ["spmcts"], "uctk": [null]}))]
    pub d: Option<f64>,
    /// SP-MCTS weight W of the best result below a node.
    #[arg(long)]
    #[schemars(range(min = 0.0))]
    #[schemars(title = "W (best result)", extend("x-when" = {"algo": ["spmcts"], "uctk": [null]}))]
    pub w: Option<f64>,
    /// UCB1 with this UCTK instead of the SP-MCTS formula (the Czech thesis's best: 0.1–0.2).
    #[arg(long)]
    #[schemars(range(min = 0.0))]
    #[schemars(title = "UCTK (UCB1 instead of the SP-MCTS formula)", extend("x-when" = {"algo": ["spmcts"]}))]
    pub uctk: Option<f64>,
    /// Playouts through a leaf before it is expanded.
    #[arg(long, default_value_t = 20)]
    #[schemars(range(min = 0, max = 1_000_000))]
    #[schemars(title = "Playouts before expansion", extend("x-when" = {"algo": ["spmcts"]}))]
    #[schemars(extend("x-advanced" = true))]
    pub visits_before_expand: u32,
    /// Expand one child per playout (Coulom) instead of all children at once.
    #[arg(long)]
    #[schemars(title = "Expand one child per playout", extend("x-when" = {"algo": ["spmcts"]}))]
    #[schemars(extend("x-advanced" = true))]
    pub one_child: bool,
    /// Random restarts: a fresh tree after this many playouts per thread (default 20000).
    #[arg(long, value_name = "N", conflicts_with = "no_restarts")]
    #[schemars(range(min = 1))]
    #[schemars(title = "Restart after (playouts per thread)", extend("x-when" = {"algo": ["spmcts"], "no_restarts": [false]}))]
    #[schemars(extend("x-advanced" = true))]
    pub restart_after: Option<u64>,
    /// One tree per thread for the whole run (no random restarts).
    #[arg(long)]
    #[schemars(title = "No random restarts", extend("x-when" = {"algo": ["spmcts"]}))]
    #[schemars(extend("x-advanced" = true))]
    pub no_restarts: bool,
    /// SP-MCTS: keep selecting finished lines (no solved-subtree marking).
    #[arg(long)]
    #[schemars(title = "No solved-subtree marking", extend("x-when" = {"algo": ["spmcts"]}))]
    #[schemars(extend("x-advanced" = true))]
    pub no_solved_marking: bool,
    /// SP-MCTS per-move mode: search, commit the next move of the best game so far, search
    /// again from there (the budget shared out over the moves).
    #[arg(long)]
    #[schemars(title = "Per-move mode (commit a move, search again)", extend("x-when" = {"algo": ["spmcts"]}))]
    pub per_move: bool,
    /// NRPA with the selective policy (Cazenave 2016): the tabu colour is not played while a
    /// group of another colour exists. On by default; `--no-selective` gives plain NRPA
    /// (Rosin 2011).
    #[arg(long = "no-selective", action = clap::ArgAction::SetFalse)]
    #[schemars(title = "Selective policy (tabu colour)", extend("x-when" = {"algo": ["nrpa"]}))]
    pub selective: bool,
    /// Stabilized NRPA (Cazenave, Sevestre & Toulemont 2021): P playouts per level-1 step
    /// before each policy adaptation (1 = plain NRPA).
    #[arg(long, value_name = "P", default_value_t = 1)]
    #[schemars(range(min = 1, max = 1000))]
    #[schemars(title = "Stabilized NRPA (playouts per step)", extend("x-when" = {"algo": ["nrpa"]}))]
    #[schemars(extend("x-advanced" = true))]
    pub stabilized: u32,
    /// NRPA's top level as B lineages, each its own policy, cut by successive halving: the
    /// better half is kept at 1/B, then 1/(B/2), … of the iterations (1 = plain NRPA; B = 8
    /// makes a run 2.5 plain runs long).
    #[arg(long, value_name = "B", default_value_t = 1)]
    #[schemars(range(min = 1, max = 64))]
    #[schemars(title = "Top-level lineages (halved)", extend("x-when" = {"algo": ["nrpa"]}))]
    #[schemars(extend("x-advanced" = true))]
    pub lineages: u32,
    /// Selective NRPA: restarts take the tabu colour from the K most frequent colours (1 =
    /// always the most frequent, as Cazenave); with several threads each thread starts at a
    /// different one.
    #[arg(long, value_name = "K", default_value_t = 3)]
    #[schemars(range(min = 1, max = 20))]
    #[schemars(title = "Tabu colours (K most frequent)", extend("x-when" = {"algo": ["nrpa"], "selective": [true]}))]
    pub tabu_colours: u32,
    /// With tabu_colours K > 1: how runs choose among the K colours.
    #[arg(long, value_enum, default_value_t = TabuScheduleName::BestFirst)]
    #[schemars(title = "Tabu schedule", extend("x-when" = {"algo": ["nrpa"], "selective": [true], "tabu_colours": {"minimum": 2}}))]
    #[schemars(extend("x-advanced" = true))]
    pub tabu_schedule: TabuScheduleName,
    /// Selective NRPA with several tabu colours: keep PCT % of the budget for endgame
    /// searches, one NRPA run each from the positions after 1/2, 2/3 and 5/6 of the best
    /// game's moves (0 = none).
    #[arg(long, value_name = "PCT", default_value_t = 0)]
    #[schemars(range(min = 0, max = 90))]
    #[schemars(title = "Endgame searches (% of the budget)", extend("x-when" = {"algo": ["nrpa"], "selective": [true], "tabu_colours": {"minimum": 2}}))]
    #[schemars(extend("x-advanced" = true))]
    pub endgame_percent: u32,
    /// NMCS / NRPA nesting level (default: NMCS 2, NRPA 3).
    #[arg(long)]
    #[schemars(range(min = 1, max = 5))]
    #[schemars(title = "Nesting level", extend("x-when" = {"algo": ["nmcs", "nrpa"]}))]
    pub level: Option<u32>,
    /// DBS depth.
    #[arg(long, default_value_t = 2)]
    #[schemars(range(min = 1, max = 6))]
    #[schemars(extend("x-when" = {"algo": ["dbs"]}))]
    pub depth: u32,
    /// Budget per board (default 10 s, or only the iterations when an iteration budget is
    /// given; 4,000,000 nodes, A* 300,000; one thread with an iteration budget, else the
    /// machine's cores; seed 1).
    #[serde(flatten)]
    #[arg(skip)]
    pub limits: Limits,
    /// Sharding and resuming over the boards (items: the boards in order).
    #[serde(flatten)]
    #[arg(skip)]
    pub items: Items,
}

impl Default for SolveRequest {
    fn default() -> Self {
        crate::options::defaults()
    }
}

fn parse_playout(s: &str) -> Result<AnyChooser, String> {
    s.parse()
}

/// One move of a result: column from the left, row from the top of the board before the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// Column, 0-based from the left.
    pub col: usize,
    /// Row, 0-based from the top of the board before the move.
    pub row: usize,
}

/// One board's answer: the `puzzle solve samegame --json` line (the CLI contract
/// `board, score, cleared, moves[{col,row}], time_s, iterations`, plus more).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BoardResult {
    /// 1-based position of the board in its text.
    pub board: usize,
    /// The board's name (`problem 01`, the file's stem, `random 15x15x5 seed 1`).
    pub name: String,
    /// The final score, end penalty included.
    pub score: i64,
    /// The board was cleared.
    pub cleared: bool,
    /// The game, replayed before it was emitted.
    pub moves: Vec<MoveRecord>,
    /// Seconds of search.
    pub time_s: f64,
    /// When the printed score was first found, if the search reports its improvements
    /// (SP-MCTS, NMCS, NRPA, random) and the last one reported is the printed score.
    pub time_to_best_s: Option<f64>,
    /// Iterations (playouts, expansions) done.
    pub iterations: u64,
    /// The scoring convention.
    pub scoring: String,
    /// The end penalty.
    pub penalty: String,
    /// The search.
    pub algo: String,
    /// The playout policy.
    pub playout: String,
    /// The score is proved optimal (A*, IDA* that finished).
    pub optimal: bool,
    /// Why the search ended (`Iterations`, `Time`, `Exhausted`, `Interrupted` …).
    pub stop: String,
    /// The board's number in the run (1-based position among the boards solved).
    #[serde(default)]
    pub item: usize,
    /// The shard that solved it (`"2/4"`), when the run was sharded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
}

fn board_identity(board: usize) -> String {
    format!("board {board}")
}

impl ItemRecord for BoardResult {
    fn identity(&self) -> String {
        board_identity(self.board)
    }
}

/// Live progress of one board's search: at its start, at each improvement and every
/// [`PROGRESS_EVERY`].
#[derive(Clone, Debug, Serialize)]
pub struct SearchProgress {
    /// The board (1-based position in its text).
    pub board: usize,
    /// The board's name.
    pub name: String,
    /// The search.
    pub algo: String,
    /// The best score found so far (`None` before the first report).
    pub best_score: Option<i64>,
    /// Iterations so far (SP-MCTS reports them as it runs; the other searches report 0).
    pub iterations: u64,
    /// Seconds since this board's search started.
    pub elapsed_s: f64,
    /// The time limit per board, if any.
    pub time_limit_s: Option<f64>,
}

/// The closing record of a solve run.
#[derive(Clone, Debug, Serialize)]
pub struct SolveSummary {
    /// Boards in the run.
    pub boards: usize,
    /// Boards searched (fewer when interrupted).
    pub searched: usize,
    /// Boards cleared.
    pub cleared: usize,
    /// The sum of the searched boards' scores.
    pub total_score: i64,
    /// The run was stopped before every board was searched.
    pub interrupted: bool,
}

/// The events of a solve run.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum SolveEvent {
    /// Boards done so far (`solved`: boards cleared).
    Progress(ItemProgress),
    /// One board's search as it runs.
    Search(SearchProgress),
    /// One board's answer.
    Board(BoardResult),
    /// The end of the run.
    Summary(SolveSummary),
}

impl JobEvent for SolveEvent {
    fn kind(&self) -> EventKind {
        match self {
            SolveEvent::Progress(_) | SolveEvent::Search(_) => EventKind::Progress,
            SolveEvent::Board(_) => EventKind::Result,
            SolveEvent::Summary(_) => EventKind::Summary,
        }
    }
}

/// The boards a [`SolveRequest`] works on: a random board, or the boards of its text (only
/// `board` if given).
pub fn load_boards(req: &SolveRequest, scoring: Scoring) -> Result<Vec<NamedBoard>> {
    let boards = if let Some(spec) = &req.random {
        if req.text.is_some() {
            bail!("give either FILE or --random, not both");
        }
        let (w, h, k) = parse_random_spec(spec)?;
        let seed = req.limits.seed_or(1);
        let board =
            Board::random(w, h, k, seed, scoring).map_err(|e| anyhow!("--random {spec}: {e}"))?;
        vec![NamedBoard {
            name: format!("random {w}x{h}x{k} seed {seed}"),
            index: 1,
            board,
        }]
    } else {
        let text = req
            .text
            .as_deref()
            .ok_or_else(|| anyhow!("no boards given: send the boards' text or `random`"))?;
        parse_boards(text, &req.source, scoring)?
    };
    match req.board {
        None => Ok(boards),
        Some(n) if n >= 1 && n <= boards.len() => {
            Ok(boards.into_iter().filter(|b| b.index == n).collect())
        }
        Some(n) => bail!(
            "--board {n}: the file has {} board(s) (numbered from 1)",
            boards.len()
        ),
    }
}

/// The thread count of a solve: `limits.threads`, else the machine's cores when only time
/// bounds the run, else 1. SP-MCTS and NRPA run root-parallel (independent searches, the best
/// kept), so on free cores a second thread is a second search in the same time: on the 20
/// standard boards, 2 threads with twice the iterations (what 2 free cores do in the time of
/// one) scored 65,163 / 65,013 against 62,091 / 63,134 for one thread (seeds 1 / 2), better on
/// 13 boards and worse on none (docs/benchmarks/samegame.md#threads). With an iteration
/// budget the default stays one thread, so the same command gives the same answer on any
/// machine.
pub fn default_threads(limits: &Limits) -> usize {
    limits.threads_or_cores_when_timed(256)
}

/// The scoring and the search configuration of a [`SolveRequest`], after checking every field.
pub fn solve_config(req: &SolveRequest, stop: &Arc<AtomicBool>) -> Result<(Scoring, SolveConfig)> {
    req.limits.validate()?;
    crate::options::check_ranges(req)?;
    let scoring = scoring_of(req.scoring, req.penalty);
    let algo = req.algo.algorithm();
    let playout = req.playout.clone();
    if req.no_restarts && req.restart_after.is_some() {
        bail!("no_restarts and restart_after exclude each other");
    }
    let tabu_schedule = match req.tabu_schedule {
        TabuScheduleName::RoundRobin => TabuSchedule::RoundRobin,
        TabuScheduleName::BestFirst => TabuSchedule::BestFirst,
    };
    let defaults = SpMctsSettings::default();
    let selection = match (req.uctk, defaults.selection) {
        (Some(c), _) => SelectionPolicy::Ucb1 { c },
        (None, SelectionPolicy::SpMcts { c, d, w }) => SelectionPolicy::SpMcts {
            c: req.c.unwrap_or(c),
            d: req.d.unwrap_or(d),
            w: req.w.unwrap_or(w),
        },
        (None, other) => other,
    };
    let default_nodes = match algo {
        Algorithm::AStar => ASTAR_MAX_NODES,
        _ => DEFAULT_MAX_NODES,
    };
    let config = SolveConfig {
        algorithm: algo,
        playout,
        budget: req.limits.budget(DEFAULT_TIME_LIMIT, default_nodes, stop),
        seed: req.limits.seed_or(1),
        threads: default_threads(&req.limits),
        spmcts: SpMctsSettings {
            selection,
            visits_before_expand: req.visits_before_expand,
            all_children: !req.one_child,
            restart_after: if req.no_restarts {
                None
            } else {
                req.restart_after.or(defaults.restart_after)
            },
            mark_solved: !req.no_solved_marking,
            per_move: req.per_move,
            ..defaults
        },
        nmcs_level: req.level.map_or(2, |l| l as usize),
        nrpa_level: req.level.map_or(3, |l| l as usize),
        nrpa_selective: req.selective,
        nrpa_stabilization: req.stabilized as usize,
        nrpa_lineages: req.lineages as usize,
        nrpa_tabu_colours: req.tabu_colours as usize,
        nrpa_tabu_schedule: tabu_schedule,
        nrpa_endgame_percent: req.endgame_percent,
        dbs_depth: req.depth as usize,
    };
    Ok((scoring, config))
}

/// The moves with rows counted from the top of the board before each move.
pub fn move_records(board: &Board, solution: &Solution) -> Vec<MoveRecord> {
    solution
        .moves
        .iter()
        .map(|m| MoveRecord {
            col: m.col as usize,
            row: board.top_row(m.row as usize),
        })
        .collect()
}

/// Search one board, reporting `Search` progress through `send`; the answer is replayed
/// (twice: by the search and here) before it is returned.
fn solve_board(
    nb: &NamedBoard,
    scoring: Scoring,
    cfg: &SolveConfig,
    stop: &Arc<AtomicBool>,
    send: &(dyn Fn(SolveEvent) -> Result<()> + Sync),
) -> Result<BoardResult> {
    let counter = Arc::new(WorkCounter::new());
    let mut cfg = cfg.clone();
    cfg.budget = cfg.budget.clone().with_progress(counter.clone());
    let algo = cfg.algorithm.to_string();
    let time_limit_s = cfg.budget.max_time.map(|t| t.as_secs_f64());
    let started = Instant::now();
    // (score, seconds) of the last improvement the search reported.
    let last_best = Mutex::new(None::<(i64, f64)>);
    // The first error of the receiver (it stops the search).
    let failed = Mutex::new(None::<anyhow::Error>);
    let progress = |best: Option<i64>| SearchProgress {
        board: nb.index,
        name: nb.name.clone(),
        algo: algo.clone(),
        best_score: best,
        iterations: counter.iterations(),
        elapsed_s: started.elapsed().as_secs_f64(),
        time_limit_s,
    };
    let report = |event: SolveEvent| {
        if let Err(e) = send(event) {
            // The receiver is gone: stop the run as a closed output would.
            stop.store(true, Ordering::Relaxed);
            failed
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get_or_insert(e);
        }
    };
    report(SolveEvent::Search(progress(None)));
    let on_best = |score: i64, _moves: &[Move]| {
        *last_best.lock().unwrap_or_else(|e| e.into_inner()) =
            Some((score, started.elapsed().as_secs_f64()));
        report(SolveEvent::Search(progress(Some(score))));
    };
    let solution = crate::ticker::with_ticks(
        PROGRESS_EVERY,
        || {
            let best = last_best
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .map(|(s, _)| s);
            report(SolveEvent::Search(progress(best)));
            true
        },
        || search::solve(&nb.board, &cfg, Some(&on_best)),
    );
    if let Some(e) = failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    let solution =
        solution.map_err(|e| anyhow!("{}: the search returned an invalid game: {e}", nb.name))?;
    // The answer has been replayed by `search::solve`; check once more what we emit.
    search::verify(&nb.board, &solution.moves, solution.score)
        .map_err(|e| anyhow!("{}: replay failed: {e}", nb.name))?;
    Ok(BoardResult {
        board: nb.index,
        name: nb.name.clone(),
        score: solution.score,
        cleared: solution.cleared,
        moves: move_records(&nb.board, &solution),
        time_s: solution.elapsed.as_secs_f64(),
        time_to_best_s: last_best
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
            .and_then(|(score, t)| (score == solution.score).then_some(t)),
        iterations: solution.iterations,
        scoring: scoring.name().to_string(),
        penalty: scoring.penalty.to_string(),
        algo,
        playout: cfg.playout.to_string(),
        optimal: solution.optimal,
        stop: format!("{:?}", solution.stop_reason),
        item: 1,
        shard: None,
    })
}

/// A board's result from an earlier run (`--resume`, `puzzle merge`), checked against the item
/// it stands for and its moves replayed on the board to its score.
fn done_board(
    req: &SolveRequest,
    item: usize,
    records: &[serde_json::Value],
    nb: &NamedBoard,
) -> Result<BoardResult> {
    let r: BoardResult = req.items.done(item, records, &board_identity(nb.index))?;
    let moves: Vec<(usize, usize)> = r.moves.iter().map(|m| (m.col, m.row)).collect();
    let end = puzzle_samegame::play::replay(&nb.board, &moves).map_err(|e| {
        anyhow!(
            "item {item} (board {}): the recorded moves do not replay: {e}",
            nb.index
        )
    })?;
    let score = puzzle_samegame::play::ending(&end).map_or(end.points(), |(_, s)| s);
    if score != r.score {
        bail!(
            "item {item} (board {}): the recorded moves score {score}, not {}",
            nb.index,
            r.score
        );
    }
    Ok(r)
}

/// Run a [`SolveRequest`]: per board `Search` progress while it runs, its `Board` result and
/// an `ItemProgress`; then the `Summary`. A stop ends the run after the board being searched
/// (which keeps the best game found so far).
pub fn solve(
    req: &SolveRequest,
    stop: &Arc<AtomicBool>,
    emit: Emit<'_, SolveEvent>,
) -> Result<SolveSummary> {
    let (scoring, cfg) = solve_config(req, stop)?;
    let boards = load_boards(req, scoring)?;
    let emit = Mutex::new(emit);
    let send = |event: SolveEvent| -> Result<()> {
        let mut guard = emit.lock().unwrap_or_else(|e| e.into_inner());
        (*guard)(event)
    };
    let started = Instant::now();
    req.items.check(boards.len())?;
    let (mut total, mut searched, mut cleared, mut taken) = (0i64, 0usize, 0usize, 0usize);
    for (k, nb) in boards.iter().enumerate() {
        let item = k + 1;
        let r = match req.items.plan(item) {
            Plan::Skip => continue,
            Plan::Done(records) => {
                taken += 1;
                done_board(req, item, records, nb)?
            }
            Plan::Run => {
                taken += 1;
                if stop.load(Ordering::Relaxed) {
                    continue;
                }
                let mut r = solve_board(nb, scoring, &cfg, stop, &send)?;
                r.item = item;
                r.shard = req.items.shard;
                r
            }
        };
        total += r.score;
        searched += 1;
        cleared += usize::from(r.cleared);
        send(SolveEvent::Board(r))?;
        send(SolveEvent::Progress(ItemProgress {
            done: searched as u64,
            total: boards.len() as u64,
            solved: cleared as u64,
            label: format!("samegame {}", cfg.algorithm),
            elapsed_s: started.elapsed().as_secs_f64(),
        }))?;
    }
    let summary = SolveSummary {
        boards: taken,
        searched,
        cleared,
        total_score: total,
        interrupted: searched < taken || stop.load(Ordering::Relaxed),
    };
    send(SolveEvent::Summary(summary.clone()))?;
    Ok(summary)
}

impl crate::job::Job for SolveRequest {
    const NAME: &'static str = "samegame_solve";
    const TITLE: &'static str = "Solve SameGame boards";
    const PRINTS_SUMMARY: bool = false;
    type Event = SolveEvent;

    fn check(&self) -> Result<()> {
        solve_config(self, &Arc::new(AtomicBool::new(false))).map(drop)
    }

    crate::job::job_fields!(limits, items);

    crate::job::job_run!(solve);

    fn signature() -> Result<Vec<Signature>> {
        signature()
    }

    fn example() -> Self {
        SolveRequest {
            random: Some("6x6x3".into()),
            limits: Limits {
                iterations: Some(300),
                ..Limits::default()
            },
            ..SolveRequest::default()
        }
    }
}
