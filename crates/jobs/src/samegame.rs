//! SameGame jobs (see `docs/METHODS.md#samegame`): solve boards with SP-MCTS, NMCS, NRPA, DBS, A*,
//! IDA* or random playouts ([`solve`]), the Czech thesis's comparison of playout policies and
//! selection formulas (§3.4, [`experiment_report()`]), playout and SP-MCTS speeds ([`bench()`]), and this
//! game's part of the `puzzle bench` signature ([`signature`]).
//!
//! Every answer in a [`BoardResult`] was replayed on the game's rules (by
//! [`puzzle_samegame::search::solve`], then once more here) before it was emitted. Moves are
//! reported as `{col, row}`: the column from the left, the row from the top of the board
//! before the move.

mod bench;
mod experiment;

pub use self::bench::{bench, BenchEvent, BenchRequest, RateRecord, BENCH_PLAYOUTS};
pub use self::experiment::{
    experiment_report, paper_total, parse_formula, ExperimentEvent, ExperimentRequest, TotalRecord,
};

use crate::data::{samegame_set, SAMEGAME_SETS};
use crate::event::{Emit, EventKind, ItemProgress, JobEvent, Signature};
use crate::limits::Limits;
use crate::options::{choice_name, parse_choice};
use crate::shard::{ItemRecord, Items, Plan, Shard};
use anyhow::{anyhow, bail, Result};
use clap::ValueEnum;
use puzzle_engine::mcts::SelectionPolicy;
use puzzle_engine::{Budget, WorkCounter};
use puzzle_samegame::format::{self, NamedBoard};
use puzzle_samegame::playout::AnyChooser;
use puzzle_samegame::search::{
    self, Algorithm, Solution, SolveConfig, SpMctsSettings, TabuSchedule,
};
use puzzle_samegame::{Board, Move, Penalty, Scoring};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Default time per board, seconds, when neither a time limit nor an iteration budget is given.
pub const DEFAULT_TIME_LIMIT: f64 = 10.0;
/// Default node budget (search-tree nodes held at once).
pub const DEFAULT_MAX_NODES: usize = 4_000_000;
/// Default node budget of A* (its nodes are whole boards).
pub const ASTAR_MAX_NODES: usize = 300_000;
/// How often a running search reports its progress.
pub const PROGRESS_EVERY: Duration = Duration::from_millis(200);
/// The searches (see `docs/METHODS.md#samegame`).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum AlgorithmName {
    /// Single-player MCTS (Schadd et al. 2008).
    #[schemars(title = "SP-MCTS, single-player MCTS (Schadd et al. 2008)")]
    Spmcts,
    /// Nested Monte Carlo Search (Cazenave 2009).
    #[schemars(title = "NMCS, nested Monte Carlo search (Cazenave 2009)")]
    Nmcs,
    /// Nested Rollout Policy Adaptation (Rosin 2011), with the selective policy by default.
    #[default]
    #[schemars(title = "NRPA, nested rollout policy adaptation (Rosin 2011)")]
    Nrpa,
    /// Depth-budgeted search (beam of depth-limited lookaheads).
    #[schemars(title = "DBS, depth-budgeted search")]
    Dbs,
    /// A* maximising the score with the colour bound (small boards).
    #[schemars(title = "A* with the colour bound (small boards)")]
    Astar,
    /// IDA* with the same bound.
    #[schemars(title = "IDA* with the colour bound")]
    Idastar,
    /// The best of random playouts.
    #[schemars(title = "Random playouts, the best kept")]
    Random,
}

impl AlgorithmName {
    /// The game crate's search.
    pub fn algorithm(self) -> Algorithm {
        match choice_name(&self).parse() {
            Ok(a) => a,
            // The names are the game crate's own: a unit test parses every one.
            Err(e) => unreachable!("{e}"),
        }
    }
}

/// The scoring conventions.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum ScoringName {
    /// (n−2)² per group, +1000 for clearing the board.
    #[default]
    #[schemars(title = "Standard: (n − 2)², +1000 for clearing")]
    Standard,
    /// The Hungarian paper's (n−1)² per group, no bonus.
    #[schemars(title = "Hungarian: (n − 1)², no bonus")]
    Hungarian,
}

/// The end penalties for stones left.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum PenaltyName {
    /// No end penalty (Cazenave, CodinGame).
    #[default]
    #[schemars(title = "None (Cazenave, CodinGame)")]
    None,
    /// (m−2)² for the m stones left (js-games.de).
    #[schemars(title = "Total: −(m − 2)² for m stones left (js-games.de)")]
    Total,
    /// Σ(m_c−2)² over the colours left (Schadd).
    #[schemars(title = "Per colour: −Σ(m_c − 2)² (Schadd)")]
    PerColour,
}

/// Selective NRPA's tabu schedules (see [`TabuSchedule`]).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum TabuScheduleName {
    /// Run i takes the (i mod K)-th most frequent colour.
    #[schemars(title = "Round robin")]
    RoundRobin,
    /// One run per colour, then every run takes the colour whose runs scored best.
    #[default]
    #[schemars(title = "Best first")]
    BestFirst,
}

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
    pub visits_before_expand: u32,
    /// Expand one child per playout (Coulom) instead of all children at once.
    #[arg(long)]
    #[schemars(title = "Expand one child per playout", extend("x-when" = {"algo": ["spmcts"]}))]
    pub one_child: bool,
    /// Random restarts: a fresh tree after this many playouts per thread (default 20000).
    #[arg(long, value_name = "N", conflicts_with = "no_restarts")]
    #[schemars(range(min = 1))]
    #[schemars(title = "Restart after (playouts per thread)", extend("x-when" = {"algo": ["spmcts"], "no_restarts": [false]}))]
    pub restart_after: Option<u64>,
    /// One tree per thread for the whole run (no random restarts).
    #[arg(long)]
    #[schemars(title = "No random restarts", extend("x-when" = {"algo": ["spmcts"]}))]
    pub no_restarts: bool,
    /// SP-MCTS: keep selecting finished lines (no solved-subtree marking).
    #[arg(long)]
    #[schemars(title = "No solved-subtree marking", extend("x-when" = {"algo": ["spmcts"]}))]
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
    pub stabilized: u32,
    /// NRPA's top level as B lineages, each its own policy, cut by successive halving: the
    /// better half is kept at 1/B, then 1/(B/2), … of the iterations (1 = plain NRPA; B = 8
    /// makes a run 2.5 plain runs long).
    #[arg(long, value_name = "B", default_value_t = 1)]
    #[schemars(range(min = 1, max = 64))]
    #[schemars(title = "Top-level lineages (halved)", extend("x-when" = {"algo": ["nrpa"]}))]
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
    pub tabu_schedule: TabuScheduleName,
    /// Selective NRPA with several tabu colours: keep PCT % of the budget for endgame
    /// searches, one NRPA run each from the positions after 1/2, 2/3 and 5/6 of the best
    /// game's moves (0 = none).
    #[arg(long, value_name = "PCT", default_value_t = 0)]
    #[schemars(range(min = 0, max = 90))]
    #[schemars(title = "Endgame searches (% of the budget)", extend("x-when" = {"algo": ["nrpa"], "selective": [true], "tabu_colours": {"minimum": 2}}))]
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

/// The scoring convention called `scoring` with the end penalty called `penalty` (the names of
/// [`ScoringName`] and [`PenaltyName`]).
pub fn scoring(scoring: &str, penalty: &str) -> Result<Scoring> {
    Ok(scoring_of(
        parse_choice("scoring", scoring)?,
        parse_choice("penalty", penalty)?,
    ))
}

/// The scoring convention with its end penalty.
pub fn scoring_of(scoring: ScoringName, penalty: PenaltyName) -> Scoring {
    let base = match scoring {
        ScoringName::Standard => Scoring::standard(),
        ScoringName::Hungarian => Scoring::hungarian(),
    };
    base.with_penalty(match penalty {
        PenaltyName::None => Penalty::None,
        PenaltyName::Total => Penalty::Total,
        PenaltyName::PerColour => Penalty::PerColour,
    })
}

/// Parse the boards of `text` (any format [`format::parse_any`] reads), naming `source` in
/// errors and board names. The error is the typed [`puzzle_samegame::FormatError`] (downcast
/// it for the line and column); its message already starts with `source:line:column`.
pub fn parse_boards(text: &str, source: &str, scoring: Scoring) -> Result<Vec<NamedBoard>> {
    format::parse_any(text, source, scoring).map_err(anyhow::Error::new)
}

/// Parse a random-board spec `COLSxROWSxCOLOURS`.
pub fn parse_random_spec(spec: &str) -> Result<(usize, usize, usize)> {
    let parts: Vec<&str> = spec.split(['x', 'X']).collect();
    let nums: Option<Vec<usize>> = parts.iter().map(|p| p.trim().parse().ok()).collect();
    match nums.as_deref() {
        Some([w, h, k]) => Ok((*w, *h, *k)),
        _ => bail!("--random {spec}: expected COLSxROWSxCOLOURS, e.g. 15x15x5"),
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

/// The boards of the bundled set `id` (see [`crate::data::SAMEGAME_SETS`]), scored with
/// `scoring`.
pub fn bundled_boards(id: &str, scoring: Scoring) -> Result<Vec<NamedBoard>> {
    let set = samegame_set(id).ok_or_else(|| {
        anyhow!(
            "unknown board set '{id}' (bundled: {})",
            SAMEGAME_SETS.map(|s| s.id).join(", ")
        )
    })?;
    parse_boards(set.text, set.file, scoring)
}

/// This game's part of the `puzzle bench` signature: fixed-seed, iteration-budgeted runs on
/// standard board 1 (deterministic `work` and `result`).
pub fn signature() -> Result<Vec<Signature>> {
    let boards = bundled_boards("standard20", Scoring::standard())?;
    let board = &boards[0].board;
    let mut out = Vec::new();
    for (name, algorithm, iterations) in [
        ("samegame/spmcts-tabu", Algorithm::SpMcts, 3_000),
        ("samegame/random-tabu", Algorithm::Random, 2_000),
        ("samegame/idastar", Algorithm::IdaStar, 2_000),
    ] {
        let cfg = SolveConfig {
            algorithm,
            budget: Budget::iterations(iterations),
            seed: 1,
            threads: 1,
            ..SolveConfig::default()
        };
        let s = search::solve(board, &cfg, None).map_err(|e| anyhow!("{name}: {e}"))?;
        out.push(Signature {
            name: name.to_string(),
            work: s.iterations,
            result: s.score as f64,
            time_s: s.elapsed.as_secs_f64(),
        });
    }
    Ok(out)
}

impl crate::registry::Job for SolveRequest {
    const NAME: &'static str = "samegame_solve";
    const TITLE: &'static str = "Solve SameGame boards";
    const PRINTS_SUMMARY: bool = false;
    type Event = SolveEvent;

    fn check(&self) -> Result<()> {
        solve_config(self, &Arc::new(AtomicBool::new(false))).map(drop)
    }

    crate::registry::job_fields!(limits, items);

    crate::registry::job_run!(solve);

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

#[cfg(test)]
mod tests {
    use super::*;
    use puzzle_samegame::Scratch;

    /// Run a solve, collecting its events.
    fn run(req: &SolveRequest) -> Result<(SolveSummary, Vec<SolveEvent>)> {
        let mut events = Vec::new();
        let stop = Arc::new(AtomicBool::new(false));
        let summary = solve(req, &stop, &mut |e| {
            events.push(e);
            Ok(())
        })?;
        Ok((summary, events))
    }

    /// Replay `moves` (top-based rows) on `board`: the final score and whether it cleared.
    fn replay(board: &Board, moves: &[MoveRecord]) -> (i64, bool) {
        let mut b = board.clone();
        let mut scratch = Scratch::new();
        for m in moves {
            let mv = b.move_from_top(m.col, m.row).expect("move on the board");
            b.try_play(mv, &mut scratch).expect("legal move");
        }
        assert!(!b.has_move(), "the game is not over");
        (b.final_score(), b.is_cleared())
    }

    fn standard20_text() -> String {
        crate::data::SAMEGAME_STANDARD20.to_string()
    }

    #[test]
    fn a_timed_solve_runs_on_the_cores() {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let stop = Arc::new(AtomicBool::new(false));
        let req = SolveRequest {
            text: Some(standard20_text()),
            ..SolveRequest::default()
        };
        assert_eq!(solve_config(&req, &stop).unwrap().1.threads, cores);
    }

    #[test]
    fn solved_boards_replay_and_the_summary_counts_them() {
        let req = SolveRequest {
            text: Some(standard20_text()),
            source: "standard20_digits.txt".into(),
            limits: Limits {
                iterations: Some(300),
                seed: Some(2),
                ..Limits::default()
            },
            ..SolveRequest::default()
        };
        let mut req_one = req.clone();
        req_one.board = Some(4);
        let boards = parse_boards(&standard20_text(), "d", Scoring::standard()).unwrap();
        for algo in AlgorithmName::value_variants() {
            req_one.algo = *algo;
            let algo = choice_name(algo);
            let (summary, events) = run(&req_one).unwrap();
            let results: Vec<&BoardResult> = events
                .iter()
                .filter_map(|e| match e {
                    SolveEvent::Board(r) => Some(r),
                    _ => None,
                })
                .collect();
            assert_eq!(results.len(), 1, "{algo}");
            let r = results[0];
            assert_eq!((r.board, r.algo.as_str()), (4, algo.as_str()));
            assert_eq!(replay(&boards[3].board, &r.moves), (r.score, r.cleared));
            assert_eq!(summary.total_score, r.score);
            assert!(matches!(events[0], SolveEvent::Search(_)), "{algo}");
            assert!(matches!(events.last(), Some(SolveEvent::Summary(_))));
            // The result serializes to the CLI's JSON line.
            let v = serde_json::to_value(&events[events.len() - 3]).unwrap();
            assert_eq!(v["board"], 4);
            assert!(v["moves"][0]["col"].is_u64() && v["stop"] == "Iterations");
        }
        // Three boards: three results, and the summary adds them up.
        let mut req3 = req;
        req3.text = Some(
            standard20_text()
                .split("# problem 04")
                .next()
                .unwrap()
                .to_string(),
        );
        let (summary, events) = run(&req3).unwrap();
        let scores: Vec<i64> = events
            .iter()
            .filter_map(|e| match e {
                SolveEvent::Board(r) => Some(r.score),
                _ => None,
            })
            .collect();
        assert_eq!(scores.len(), 3);
        assert_eq!(summary.boards, 3);
        assert_eq!(summary.searched, 3);
        assert_eq!(summary.total_score, scores.iter().sum::<i64>());
        assert!(!summary.interrupted);
    }

    #[test]
    fn a_random_board_is_reproducible() {
        let req = SolveRequest {
            random: Some("10x8x4".into()),
            algo: AlgorithmName::Nrpa,
            level: Some(2),
            limits: Limits {
                iterations: Some(500),
                seed: Some(3),
                ..Limits::default()
            },
            ..SolveRequest::default()
        };
        let moves = |events: Vec<SolveEvent>| {
            events.into_iter().find_map(|e| match e {
                SolveEvent::Board(r) => Some((r.name, r.moves)),
                _ => None,
            })
        };
        let (_, a) = run(&req).unwrap();
        let (_, b) = run(&req).unwrap();
        let a = moves(a).unwrap();
        assert_eq!(a.0, "random 10x8x4 seed 3");
        assert_eq!(Some(a), moves(b));
    }

    #[test]
    fn unknown_choices_are_refused_naming_the_choices() {
        for (field, value, message) in [
            (
                "algo",
                "magic",
                "unknown variant `magic`, expected one of `spmcts`",
            ),
            ("playout", "pseudo-0", "pseudo"),
            (
                "penalty",
                "some",
                "unknown variant `some`, expected one of `none`",
            ),
        ] {
            let json = serde_json::json!({ "job": "samegame_solve", field: value });
            let e = serde_json::from_value::<crate::JobRequest>(json).unwrap_err();
            assert!(e.to_string().contains(message), "{field}: {e}");
        }
        let e = scoring("fancy", "none").unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown scoring 'fancy' (choose from standard, hungarian)"
        );
        for name in choice_names_all() {
            assert_eq!(
                parse_choice::<AlgorithmName>("algo", &name)
                    .unwrap()
                    .algorithm()
                    .to_string(),
                name
            );
        }
    }

    fn choice_names_all() -> Vec<String> {
        crate::options::choice_names::<AlgorithmName>()
    }

    #[test]
    fn bad_requests_are_refused_naming_the_field() {
        let base = SolveRequest {
            text: Some(standard20_text()),
            ..SolveRequest::default()
        };
        let cases: Vec<(SolveRequest, &str)> = vec![
            (
                SolveRequest {
                    c: Some(-1.0),
                    ..base.clone()
                },
                "c must be a non-negative number",
            ),
            (
                SolveRequest {
                    depth: 9,
                    ..base.clone()
                },
                "depth must be 1 to 6",
            ),
            (
                SolveRequest {
                    tabu_colours: 0,
                    ..base.clone()
                },
                "tabu_colours must be 1 to 20",
            ),
            (
                SolveRequest {
                    board: Some(21),
                    ..base.clone()
                },
                "--board 21: the file has 20 board(s)",
            ),
            (
                SolveRequest {
                    random: Some("0x5x3".into()),
                    text: None,
                    ..base.clone()
                },
                "--random 0x5x3",
            ),
            (
                SolveRequest {
                    random: Some("5x5x3".into()),
                    ..base.clone()
                },
                "not both",
            ),
            (
                SolveRequest {
                    limits: Limits {
                        threads: Some(0),
                        ..Limits::default()
                    },
                    ..base.clone()
                },
                "threads must be 1 to 256",
            ),
        ];
        for (req, message) in cases {
            let err = run(&req).map(drop).unwrap_err();
            assert!(format!("{err:#}").contains(message), "{err:#} / {message}");
        }
        // A parse error keeps its line and column.
        let req = SolveRequest {
            text: Some("2 3 2\nRGR\nRGX\n".into()),
            source: "bad.txt".into(),
            ..SolveRequest::default()
        };
        let err = run(&req).map(drop).unwrap_err();
        let e = err
            .downcast_ref::<puzzle_samegame::FormatError>()
            .expect("a typed parse error");
        assert_eq!((e.file.as_str(), e.line, e.column), ("bad.txt", 3, Some(3)));
        assert!(format!("{err:#}").starts_with("bad.txt:3:3: unknown colour 'X'"));
    }

    #[test]
    fn a_request_parses_from_json_with_the_cli_defaults() {
        let req: crate::JobRequest = serde_json::from_value(serde_json::json!({
            "job": "samegame_solve",
            "random": "6x5x3",
            "iterations": 200,
        }))
        .unwrap();
        let crate::JobRequest::SamegameSolve(r) = &req else {
            panic!("{req:?}")
        };
        assert_eq!(
            (r.algo, r.playout.to_string().as_str()),
            (AlgorithmName::Nrpa, "tabu")
        );
        assert_eq!(
            (r.selective, r.tabu_colours, r.tabu_schedule),
            (true, 3, TabuScheduleName::BestFirst)
        );
        assert_eq!((r.visits_before_expand, r.depth), (20, 2));
        assert_eq!(r.limits.iterations, Some(200));
        let mut kinds = Vec::new();
        req.run(&Arc::new(AtomicBool::new(false)), &mut |kind, value| {
            if kind == EventKind::Result {
                assert_eq!(value["name"], "random 6x5x3 seed 1");
            }
            kinds.push(kind);
            Ok(())
        })
        .unwrap();
        assert_eq!(kinds.iter().filter(|k| **k == EventKind::Result).count(), 1);
        assert_eq!(kinds.last(), Some(&EventKind::Summary));
    }

    #[test]
    fn the_signature_is_deterministic() {
        let a = signature().unwrap();
        let b = signature().unwrap();
        assert_eq!(a.len(), 3);
        for (x, y) in a.iter().zip(&b) {
            assert_eq!((x.work, x.result), (y.work, y.result));
        }
    }
}
