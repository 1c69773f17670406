//! GVGAI's Bait jobs (see `docs/METHODS.md#bait`): one game played by an agent of `puzzle-bait`
//! under a per-move CPU budget, shown tick by tick; every agent on every level (the paper's
//! comparison); the move times of every agent on one level; and Bait's part of the `puzzle bench`
//! signature. Every game's outcome was re-derived by replaying its actions (inside
//! [`puzzle_bait::play_game`]) before it is emitted.

use crate::data::BAIT_LEVELS;
use crate::event::{Emit, EventKind, ItemProgress, JobEvent, Signature};
use crate::limits::Limits;
use crate::options::choice_name;
use crate::plot::{bar_chart, BarChart, BarPanel, Plot, Report};
use crate::shard::{ItemRecord, Items, Plan, Shard};
use anyhow::{bail, Context, Result};
use clap::ValueEnum;
use puzzle_bait::agents::AgentKind;
use puzzle_bait::astar::shortest_win;
use puzzle_bait::{
    actions_to_string, builtin_level, default_max_nodes, parse_actions, play_game, play_game_timed,
    Action, AnyLevel, BaitState, GameConfig, Level, LevelVisitor, MoveTime, Outcome, Status,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Default CPU time per move, milliseconds (GVGAI: 40).
pub const DEFAULT_BUDGET_MS: f64 = 40.0;
/// The longest per-move budget a request may ask for, milliseconds.
pub const MAX_BUDGET_MS: f64 = 600_000.0;
/// The agents' names, in the order of the reports.
pub const AGENTS: [&str; 6] = ["dfs", "dls", "astar", "astar-offline", "mcts", "mcts-plus"];

/// The agents (see `docs/METHODS.md#bait`), in the order of the reports.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum AgentName {
    /// Depth-first search over the whole game, then its plan.
    #[schemars(title = "dfs: depth-first search, then its plan")]
    Dfs,
    /// Depth-limited search each move.
    #[schemars(title = "dls: depth-limited search each move")]
    Dls,
    /// A* each move, paused and resumed within the move's budget.
    #[default]
    #[schemars(title = "astar: A* each move")]
    Astar,
    /// A* to the win before the first move, then its plan.
    #[schemars(title = "astar-offline: A* to the win, then its plan")]
    AstarOffline,
    /// UCT with random playouts.
    #[schemars(title = "mcts: UCT with random playouts")]
    Mcts,
    /// UCT over a transposition graph with the heuristic's guidance.
    #[schemars(title = "mcts-plus: UCT over a transposition graph")]
    MctsPlus,
}

impl AgentName {
    /// The agent of the game crate.
    pub fn kind(self) -> AgentKind {
        match choice_name(&self).parse() {
            Ok(kind) => kind,
            // The names are the game crate's own: a unit test parses every one.
            Err(e) => unreachable!("{e}"),
        }
    }
}

/// Play one game (`puzzle play bait`): a bundled level by number, or a level's text.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema, clap::Args)]
#[serde(default)]
pub struct PlayRequest {
    /// One of GVGAI's five levels (0 to 4); give this or a level's text.
    #[arg(long, value_name = "N")]
    #[schemars(range(max = 4))]
    pub level: Option<usize>,
    /// A level in GVGAI's text format (w wall, A avatar, 0 hole, 1 box, k key, g door,
    /// m mushroom, . floor); give this or `level`.
    #[arg(skip)]
    pub text: Option<String>,
    /// Where `text` came from, named in parse errors and reported as the game's `level` (a
    /// file path; `input` by default).
    #[arg(skip = String::from("input"))]
    pub source: String,
    /// The agent.
    #[arg(long, value_enum, default_value_t = AgentName::Astar)]
    #[schemars(title = "Agent")]
    pub agent: AgentName,
    /// CPU time per move in milliseconds (GVGAI: 40).
    #[arg(long, value_name = "MS", default_value_t = DEFAULT_BUDGET_MS)]
    #[schemars(range(min = 0.001, max = 600_000.0))]
    #[schemars(title = "Budget per move (ms)")]
    pub budget_ms: f64,
    /// Seed (default 0) and node budget of every search (default 3,000,000 on levels of at
    /// most 256 cells, 750,000 up to 1,024 and 187,500 up to 4,096:
    /// [`puzzle_bait::default_max_nodes`]); the time limit, iterations and threads are not
    /// used (a game lasts at most 2000 ticks of `budget_ms`).
    #[serde(flatten)]
    #[arg(skip)]
    pub limits: Limits,
}

impl Default for PlayRequest {
    fn default() -> Self {
        crate::options::defaults()
    }
}

/// The position after a tick (tick 0: the start), for watching a game: a progress event.
#[derive(Clone, Debug, Serialize)]
pub struct TickRecord {
    /// Ticks played (0 for the start position).
    pub tick: u32,
    /// The action of this tick (`U`, `D`, `L`, `R` or `N`); `null` for the start.
    pub action: Option<char>,
    /// The score so far.
    pub score: i32,
    /// The avatar holds the key.
    pub has_key: bool,
    /// `playing`, `won`, `dead` or `timeout`.
    pub status: &'static str,
    /// The board as GVGAI level text, one string per row (the avatar `A`, or `a` with the key;
    /// a box on a key or door `B`).
    pub rows: Vec<String>,
    /// CPU time the agent took to choose this tick's action, milliseconds (GVGAI's measure);
    /// `null` for the start.
    pub move_ms: Option<f64>,
    /// Wall time the agent took to choose this tick's action, milliseconds; `null` for the
    /// start.
    pub move_wall_ms: Option<f64>,
}

/// One game: the `puzzle play bait --json` line (the CLI contract, plus extra fields).
#[derive(Clone, Debug, Serialize)]
pub struct GameRecord {
    /// The level's number, or the `source` of a level text.
    pub level: serde_json::Value,
    /// The agent.
    pub agent: String,
    /// The game was won.
    pub win: bool,
    /// The final score.
    pub score: i32,
    /// Ticks played.
    pub ticks: u32,
    /// The actions, one letter per tick (U D L R N), replayed before this was emitted.
    pub actions: String,
    /// The longest CPU time any move took, milliseconds (GVGAI's measure).
    pub max_move_ms: f64,
    /// The longest wall time any move took, milliseconds.
    pub max_move_wall_ms: f64,
    /// CPU time of the agent's setup, milliseconds.
    pub setup_ms: f64,
    /// The per-move budget, milliseconds.
    pub budget_ms: f64,
    /// The seed.
    pub seed: u64,
    /// Search work (expansions or iterations).
    pub work: u64,
    /// The game was stopped before it ended.
    pub interrupted: bool,
}

/// The events of a game.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum PlayEvent {
    /// The start position, then the position after every tick.
    Tick(TickRecord),
    /// The game's result.
    Game(GameRecord),
}

impl JobEvent for PlayEvent {
    fn kind(&self) -> EventKind {
        match self {
            PlayEvent::Tick(_) => EventKind::Progress,
            PlayEvent::Game(_) => EventKind::Result,
        }
    }
}

/// Refuse a per-move budget outside (0, 600000] ms.
pub fn check_budget_ms(ms: f64) -> Result<()> {
    if !ms.is_finite() || ms <= 0.0 || ms > MAX_BUDGET_MS {
        bail!("budget_ms must be more than 0 and at most 600000 ms, not {ms}");
    }
    Ok(())
}

fn check_level_index(field: &str, i: usize) -> Result<()> {
    if i >= BAIT_LEVELS.len() {
        bail!("{field}: there is no level {i} (0 to 4)");
    }
    Ok(())
}

/// Parse a level's text of up to [`puzzle_bait::MAX_CELLS`] cells into the narrowest bitset
/// width that holds it, naming `source` in the error (the error keeps its line and column:
/// downcast to [`puzzle_bait::LevelError`]).
pub fn parse_level(text: &str, source: &str) -> Result<AnyLevel> {
    AnyLevel::parse(text).map_err(|e| anyhow::Error::new(e).context(source.to_string()))
}

fn bundled(i: usize) -> BaitState {
    BaitState::new(builtin_level(i).expect("levels 0 to 4 are bundled"))
}

/// The settings of one game on a level of bitset width `W`: `budget_ms` per move, `seed`, the
/// request's node budget (else [`default_max_nodes`] of `W`) and the stop flag.
pub fn game_config<const W: usize>(
    budget_ms: f64,
    seed: u64,
    limits: &Limits,
    stop: &Arc<AtomicBool>,
) -> GameConfig {
    GameConfig {
        move_budget: Duration::from_secs_f64(budget_ms / 1e3),
        seed,
        stop: Some(stop.clone()),
        max_nodes: limits.max_nodes.unwrap_or(default_max_nodes::<W>()),
        ..Default::default()
    }
}

fn status_name(s: Status) -> &'static str {
    s.name()
}

/// The tick event of `state`, reached by `action` (`None` for the start) chosen in `time`.
pub fn tick_record<const W: usize>(
    state: &BaitState<W>,
    action: Option<Action>,
    time: Option<MoveTime>,
) -> TickRecord {
    TickRecord {
        tick: state.tick() as u32,
        action: action.map(Action::letter),
        score: state.points(),
        has_key: state.dy.has_key,
        status: status_name(state.status()),
        rows: state.render().lines().map(str::to_string).collect(),
        move_ms: time.map(|t| t.cpu_ms),
        move_wall_ms: time.map(|t| t.wall_ms),
    }
}

/// Run a [`PlayRequest`]: a `Tick` event for the start and after every tick, then the `Game`.
/// A level's text is played in the narrowest bitset width that holds it.
pub fn play(
    req: &PlayRequest,
    stop: &Arc<AtomicBool>,
    emit: Emit<'_, PlayEvent>,
) -> Result<GameRecord> {
    req.limits.validate()?;
    let kind = req.agent.kind();
    check_budget_ms(req.budget_ms)?;
    let (level, level_json) = match (req.level, &req.text) {
        (Some(i), None) => {
            check_level_index("level", i)?;
            let level = builtin_level(i).expect("levels 0 to 4 are bundled");
            (AnyLevel::from(level), serde_json::Value::from(i))
        }
        (None, Some(text)) => (
            parse_level(text, &req.source)?,
            serde_json::Value::from(req.source.clone()),
        ),
        (None, None) => bail!("give a level: `level` (0 to 4) or a level's `text`"),
        (Some(_), Some(_)) => bail!("give either `level` or `text`, not both"),
    };
    level.visit(PlayGame {
        req,
        kind,
        level_json,
        stop,
        emit,
    })
}

/// The game of [`play`], on a level of any width.
struct PlayGame<'a, 'e> {
    req: &'a PlayRequest,
    kind: AgentKind,
    level_json: serde_json::Value,
    stop: &'a Arc<AtomicBool>,
    emit: Emit<'e, PlayEvent>,
}

impl LevelVisitor for PlayGame<'_, '_> {
    type Output = Result<GameRecord>;

    fn visit<const W: usize>(self, level: Level<W>) -> Result<GameRecord> {
        let PlayGame {
            req,
            kind,
            level_json,
            stop,
            emit,
        } = self;
        let start = BaitState::new(level);
        let seed = req.limits.seed_or(0);
        let config = game_config::<W>(req.budget_ms, seed, &req.limits, stop);
        emit(PlayEvent::Tick(tick_record(&start, None, None)))?;
        let mut failed = None;
        let outcome = play_game_timed(&start, kind, &config, |state, action, time| {
            if failed.is_none() {
                if let Err(e) = emit(PlayEvent::Tick(tick_record(
                    state,
                    Some(action),
                    Some(time),
                ))) {
                    // The receiver is gone: stop the game as a closed output would.
                    failed = Some(e);
                    stop.store(true, Ordering::Relaxed);
                }
            }
        });
        if let Some(e) = failed {
            return Err(e);
        }
        let record = GameRecord {
            level: level_json,
            agent: kind.name().to_string(),
            win: outcome.win,
            score: outcome.score,
            ticks: outcome.ticks,
            actions: actions_to_string(&outcome.actions),
            max_move_ms: outcome.max_move_ms,
            max_move_wall_ms: outcome.max_move_wall_ms,
            setup_ms: outcome.setup_ms,
            budget_ms: req.budget_ms,
            seed,
            work: outcome.work,
            interrupted: outcome.interrupted,
        };
        emit(PlayEvent::Game(record.clone()))?;
        Ok(record)
    }
}

/// Every agent on every level (`puzzle experiment bait`), with the Markdown report.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema, clap::Args)]
#[serde(default)]
pub struct ExperimentRequest {
    /// Games per level for the agents that use random numbers (seeds `seed`, `seed`+1, …);
    /// the others play one.
    #[arg(long, default_value_t = 5)]
    #[schemars(range(min = 1, max = 1000))]
    #[schemars(title = "Games per level (random agents)")]
    pub seeds: u64,
    /// Agents, comma-separated (default: all, in the order of the reports).
    #[arg(long, value_enum, value_delimiter = ',')]
    #[schemars(title = "Agents")]
    pub agents: Vec<AgentName>,
    /// Levels 0 to 4, comma-separated (default: all five).
    #[arg(long, value_delimiter = ',')]
    #[schemars(title = "Levels")]
    pub levels: Vec<usize>,
    /// CPU time per move in milliseconds (GVGAI: 40).
    #[arg(long, value_name = "MS", default_value_t = DEFAULT_BUDGET_MS)]
    #[schemars(range(min = 0.001, max = 600_000.0))]
    #[schemars(title = "Budget per move (ms)")]
    pub budget_ms: f64,
    /// The first seed (default 0) and the node budget (default 3,000,000).
    #[serde(flatten)]
    #[arg(skip)]
    pub limits: Limits,
    /// Sharding and resuming (items: every agent × level × seed game, in that order).
    #[serde(flatten)]
    #[arg(skip)]
    pub items: Items,
}

impl Default for ExperimentRequest {
    fn default() -> Self {
        crate::options::defaults()
    }
}

/// One game of the experiment: the `puzzle experiment bait --json` line.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ExperimentGameRecord {
    /// The level (0 to 4).
    pub level: usize,
    /// The agent.
    pub agent: String,
    /// The seed.
    pub seed: u64,
    /// The game was won.
    pub win: bool,
    /// The final score.
    pub score: i32,
    /// Ticks played.
    pub ticks: u32,
    /// The longest CPU time any move took, milliseconds.
    pub max_move_ms: f64,
    /// CPU time of the setup, milliseconds.
    pub setup_ms: f64,
    /// The actions, one letter per tick, replayed before this was emitted.
    pub actions: String,
    /// The game's number in the run (1-based; agent-major, then level, then seed).
    #[serde(default)]
    pub item: usize,
    /// Seconds the game took (wall time, setup included).
    #[serde(default)]
    pub time_s: f64,
    /// The shard that played it (`"2/4"`), when the run was sharded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
}

fn game_identity(agent: &str, level: usize, seed: u64) -> String {
    format!("{agent} on level {level} seed {seed}")
}

impl ItemRecord for ExperimentGameRecord {
    fn identity(&self) -> String {
        game_identity(&self.agent, self.level, self.seed)
    }
}

/// The events of the experiment.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum ExperimentEvent {
    /// Games played so far.
    Progress(ItemProgress),
    /// One game.
    Game(ExperimentGameRecord),
}

impl JobEvent for ExperimentEvent {
    fn kind(&self) -> EventKind {
        match self {
            ExperimentEvent::Progress(_) => EventKind::Progress,
            ExperimentEvent::Game(_) => EventKind::Result,
        }
    }
}

/// The games of one agent on one level.
struct Cell {
    games: u32,
    wins: u32,
    score_sum: i64,
    ticks_sum: u64,
    max_move_ms: f64,
}

fn agents_of(names: &[AgentName]) -> Vec<AgentKind> {
    if names.is_empty() {
        return AgentKind::ALL.to_vec();
    }
    names.iter().map(|n| n.kind()).collect()
}

/// Run an [`ExperimentRequest`]: a `Game` event per game (and `Progress`); returns the Markdown
/// report (the table, with the paper's and GVGAI's figures for reference) and its plot, the
/// share of games won per agent and level.
pub fn experiment_report(
    req: &ExperimentRequest,
    stop: &Arc<AtomicBool>,
    emit: Emit<'_, ExperimentEvent>,
) -> Result<Report> {
    req.limits.validate()?;
    if !(1..=1000).contains(&req.seeds) {
        bail!("seeds must be 1 to 1000, not {}", req.seeds);
    }
    check_budget_ms(req.budget_ms)?;
    let agents = agents_of(&req.agents);
    for &l in &req.levels {
        check_level_index("levels", l)?;
    }
    let levels: Vec<usize> = if req.levels.is_empty() {
        (0..BAIT_LEVELS.len()).collect()
    } else {
        req.levels.clone()
    };
    let base_seed = req.limits.seed_or(0);
    if base_seed.checked_add(req.seeds).is_none() {
        bail!("seed: {base_seed} plus {} seeds is too large", req.seeds);
    }
    let total: u64 = agents
        .iter()
        .map(|a| levels.len() as u64 * if a.is_random() { req.seeds } else { 1 })
        .sum();
    req.items.check(total as usize)?;
    let started = Instant::now();
    let (mut done, mut won) = (0u64, 0u64);
    let mut run_time = 0.0;
    let mut item = 0;
    let mut table: Vec<Vec<Cell>> = Vec::new();
    'agents: for &agent in &agents {
        let mut row = Vec::new();
        for &li in &levels {
            let start = bundled(li);
            let seeds = if agent.is_random() { req.seeds } else { 1 };
            let mut cell = Cell {
                games: 0,
                wins: 0,
                score_sum: 0,
                ticks_sum: 0,
                max_move_ms: 0.0,
            };
            for s in 0..seeds {
                let seed = base_seed + s;
                item += 1;
                let expected = game_identity(agent.name(), li, seed);
                let mut interrupted = false;
                let record = req.items.record(item, &expected, stop, || {
                    let game_start = Instant::now();
                    let config = game_config::<4>(req.budget_ms, seed, &req.limits, stop);
                    let o: Outcome = play_game(&start, agent, &config, |_, _| {});
                    if o.interrupted {
                        interrupted = true;
                        return Ok(None);
                    }
                    Ok(Some(ExperimentGameRecord {
                        level: li,
                        agent: agent.name().into(),
                        seed,
                        win: o.win,
                        score: o.score,
                        ticks: o.ticks,
                        max_move_ms: o.max_move_ms,
                        setup_ms: o.setup_ms,
                        actions: actions_to_string(&o.actions),
                        item,
                        time_s: game_start.elapsed().as_secs_f64(),
                        shard: req.items.shard,
                    }))
                })?;
                if interrupted || (record.is_none() && stop.load(Ordering::Relaxed)) {
                    row.push(cell);
                    table.push(row);
                    break 'agents;
                }
                let Some(record) = record else {
                    continue;
                };
                if !matches!(req.items.plan(item), Plan::Run) {
                    // An earlier run's game: its actions must replay to its result.
                    let end = parse_actions(&record.actions)
                        .map(|actions| start.replay(&actions))
                        .map_err(|e| anyhow::anyhow!("item {item}: {e}"))?;
                    if end.is_win() != record.win || end.points() != record.score {
                        bail!("item {item}: the recorded actions do not replay to its result");
                    }
                }
                cell.games += 1;
                cell.wins += record.win as u32;
                cell.score_sum += record.score as i64;
                cell.ticks_sum += record.ticks as u64;
                if agent != AgentKind::AstarOffline {
                    cell.max_move_ms = cell.max_move_ms.max(record.max_move_ms);
                }
                run_time += record.time_s;
                done += 1;
                won += record.win as u64;
                emit(ExperimentEvent::Game(record))?;
                emit(ExperimentEvent::Progress(ItemProgress {
                    done,
                    total,
                    solved: won,
                    label: format!("bait {agent}"),
                    elapsed_s: started.elapsed().as_secs_f64(),
                }))?;
            }
            row.push(cell);
        }
        table.push(row);
        if stop.load(Ordering::Relaxed) {
            break;
        }
    }
    let markdown = markdown_report(
        &agents,
        &levels,
        &table,
        req,
        base_seed,
        Duration::from_secs_f64(run_time),
    );
    let plots = vec![wins_plot(&agents, &levels, &table, req)?];
    Ok(Report { markdown, plots })
}

/// The plot of the experiment: the share of games won per agent and level.
fn wins_plot(
    agents: &[AgentKind],
    levels: &[usize],
    table: &[Vec<Cell>],
    req: &ExperimentRequest,
) -> Result<Plot> {
    let values = (0..levels.len())
        .map(|l| {
            agents
                .iter()
                .enumerate()
                .map(|(a, _)| {
                    let cell = table.get(a)?.get(l)?;
                    (cell.games > 0).then(|| 100.0 * cell.wins as f64 / cell.games as f64)
                })
                .collect()
        })
        .collect();
    let title = format!(
        "Bait: games won per agent and level ({} ms CPU per move)",
        req.budget_ms
    );
    let svg = bar_chart(&BarChart {
        title: title.clone(),
        category_label: "agent".into(),
        categories: agents.iter().map(|a| a.name().to_string()).collect(),
        series: levels.iter().map(|l| format!("level {l}")).collect(),
        panels: vec![BarPanel {
            value_label: format!(
                "games won (% of the agent's games; random agents: {} per level)",
                req.seeds
            ),
            values,
        }],
    })?;
    Ok(Plot {
        name: "bait-wins.svg".into(),
        title,
        svg,
    })
}

fn markdown_report(
    agents: &[AgentKind],
    levels: &[usize],
    table: &[Vec<Cell>],
    req: &ExperimentRequest,
    base_seed: u64,
    elapsed: Duration,
) -> String {
    let mut s = String::new();
    s.push_str(&format!(
        "## Bait: every agent on GVGAI's levels\n\n{} ms CPU per move; random agents (dls, mcts, \
         mcts-plus) {} games per level (seeds {}..{}), the others one. Cell: wins/games, mean score, \
         mean ticks. `max ms`: the longest CPU time any move took (astar-offline plans before the \
         game and is not timed per move). Run time {:.0} s (the games' seconds summed).\n\n",
        req.budget_ms,
        req.seeds,
        base_seed,
        base_seed + req.seeds - 1,
        elapsed.as_secs_f64()
    ));
    s.push_str("| agent |");
    for l in levels {
        s.push_str(&format!(" level {l} |"));
    }
    s.push_str(" wins | max ms |\n|---|");
    for _ in levels {
        s.push_str("---|");
    }
    s.push_str("---|---|\n");
    for (agent, row) in agents.iter().zip(table) {
        s.push_str(&format!("| {agent} |"));
        let mut levels_won = 0;
        let mut max_ms = 0f64;
        for cell in row {
            if cell.games == 0 {
                s.push_str(" – |");
                continue;
            }
            let g = cell.games as f64;
            s.push_str(&format!(
                " {}/{}, {:.1}, {:.0} |",
                cell.wins,
                cell.games,
                cell.score_sum as f64 / g,
                cell.ticks_sum as f64 / g
            ));
            if cell.wins * 2 > cell.games {
                levels_won += 1;
            }
            max_ms = max_ms.max(cell.max_move_ms);
        }
        for _ in row.len()..levels.len() {
            s.push_str(" – |");
        }
        s.push_str(&format!(" {levels_won}/{} | {max_ms:.1} |\n", levels.len()));
    }
    s.push_str(
        "\n`wins`: levels won in most games.\n\n### References\n\n\
         | source | agent | result |\n|---|---|---|\n\
         | the paper (Chinese report) | DFS | wins the simple levels; too much search on \
         \"the fourth and fifth\" (our 3 and 4) |\n\
         | the paper | depth-limited DFS | level 0 only (level 1 needs a deeper horizon, which \
         breaks the time limit) |\n\
         | the paper | A* | level 0; levels 1–2 not within 100 ms per move (optimal with a \
         larger limit) |\n\
         | the paper | MCTS (GVGAI sample) | \"not satisfactory\" (no figures) |\n\
         | GVGAI | sample MCTS, OLETS | level 0 only (1/5) |\n\
         | known shortest wins | — | level 0: 9 moves (score 5), 1: 38 (7), 2: 53 (9), \
         3: ≤ 48 (12), 4: 37 (11) |\n",
    );
    s
}

/// The move times of every agent on one level (`puzzle bench bait`).
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema, clap::Args)]
#[serde(default)]
pub struct BenchRequest {
    /// The level (0 to 4).
    #[arg(long, value_name = "N", default_value_t = 1)]
    #[schemars(range(max = 4))]
    pub level: usize,
    /// CPU time per move in milliseconds (GVGAI: 40).
    #[arg(long, value_name = "MS", default_value_t = DEFAULT_BUDGET_MS)]
    #[schemars(range(min = 0.001, max = 600_000.0))]
    pub budget_ms: f64,
    /// The seed (default 0) and the node budget (default 3,000,000).
    #[serde(flatten)]
    #[arg(skip)]
    pub limits: Limits,
}

impl Default for BenchRequest {
    fn default() -> Self {
        crate::options::defaults()
    }
}

/// One agent's game: the `puzzle bench bait --json` line.
#[derive(Clone, Debug, Serialize)]
pub struct BenchRecord {
    /// The level.
    pub level: usize,
    /// The agent.
    pub agent: String,
    /// The game was won.
    pub win: bool,
    /// The final score.
    pub score: i32,
    /// Ticks played.
    pub ticks: u32,
    /// The longest CPU time any move took, milliseconds.
    pub max_move_ms: f64,
    /// The longest wall time any move took, milliseconds.
    pub max_move_wall_ms: f64,
    /// CPU time of the setup, milliseconds.
    pub setup_ms: f64,
    /// Search work (expansions or iterations).
    pub work: u64,
}

/// The events of the benchmark.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum BenchEvent {
    /// Agents done so far.
    Progress(ItemProgress),
    /// One agent's game.
    Agent(BenchRecord),
}

impl JobEvent for BenchEvent {
    fn kind(&self) -> EventKind {
        match self {
            BenchEvent::Progress(_) => EventKind::Progress,
            BenchEvent::Agent(_) => EventKind::Result,
        }
    }
}

/// Run a [`BenchRequest`]: every agent (in the order of [`AGENTS`]) plays the level once; an
/// `Agent` event per game (and `Progress`). A stopped game ends the run.
pub fn bench(
    req: &BenchRequest,
    stop: &Arc<AtomicBool>,
    emit: Emit<'_, BenchEvent>,
) -> Result<Vec<BenchRecord>> {
    req.limits.validate()?;
    check_level_index("level", req.level)?;
    check_budget_ms(req.budget_ms)?;
    let start = bundled(req.level);
    let started = Instant::now();
    let mut records = Vec::new();
    let mut won = 0;
    for agent in AgentKind::ALL {
        let config = game_config::<4>(req.budget_ms, req.limits.seed_or(0), &req.limits, stop);
        let o = play_game(&start, agent, &config, |_, _| {});
        let record = BenchRecord {
            level: req.level,
            agent: agent.name().into(),
            win: o.win,
            score: o.score,
            ticks: o.ticks,
            max_move_ms: o.max_move_ms,
            max_move_wall_ms: o.max_move_wall_ms,
            setup_ms: o.setup_ms,
            work: o.work,
        };
        won += o.win as u64;
        records.push(record.clone());
        emit(BenchEvent::Agent(record))?;
        emit(BenchEvent::Progress(ItemProgress {
            done: records.len() as u64,
            total: AgentKind::ALL.len() as u64,
            solved: won,
            label: format!("bait level {}", req.level),
            elapsed_s: started.elapsed().as_secs_f64(),
        }))?;
        if o.interrupted {
            break;
        }
    }
    Ok(records)
}

/// Bait's part of the `puzzle bench` signature: the offline A* (admissible, deterministic) on
/// levels 0–2; `work` is the positions expanded, `result` the shortest win's length.
pub fn signature() -> Result<Vec<Signature>> {
    let mut out = Vec::new();
    for li in 0..3 {
        let start = bundled(li);
        let t = Instant::now();
        let r = shortest_win(&start, 1_000_000, None);
        let plan = r.plan.context("a bundled level has no win")?;
        out.push(Signature {
            name: format!("bait level {li} astar-offline"),
            work: r.expanded,
            result: plan.len() as f64,
            time_s: t.elapsed().as_secs_f64(),
        });
    }
    Ok(out)
}

impl crate::registry::Job for PlayRequest {
    const NAME: &'static str = "bait_play";
    const READS: &'static [crate::limits::Limit] =
        &[crate::limits::Limit::Seed, crate::limits::Limit::MaxNodes];
    const TITLE: &'static str = "Play one game of Bait with an agent";
    type Event = PlayEvent;

    fn check(&self) -> Result<()> {
        check_budget_ms(self.budget_ms)
    }

    crate::registry::job_fields!(limits);

    crate::registry::job_run!(play);

    fn signature() -> Result<Vec<Signature>> {
        signature()
    }

    fn example() -> Self {
        PlayRequest {
            level: Some(0),
            agent: AgentName::Dfs,
            ..PlayRequest::default()
        }
    }
}

impl crate::registry::Job for ExperimentRequest {
    const NAME: &'static str = "bait_experiment";
    const READS: &'static [crate::limits::Limit] =
        &[crate::limits::Limit::Seed, crate::limits::Limit::MaxNodes];
    const TITLE: &'static str = "Every Bait agent on every level";
    type Event = ExperimentEvent;

    fn check(&self) -> Result<()> {
        check_budget_ms(self.budget_ms)?;
        for &l in &self.levels {
            check_level_index("levels", l)?;
        }
        let base_seed = self.limits.seed_or(0);
        if base_seed.checked_add(self.seeds).is_none() {
            bail!("seed: {base_seed} plus {} seeds is too large", self.seeds);
        }
        Ok(())
    }

    crate::registry::job_fields!(limits, items);

    crate::registry::job_run!(report experiment_report);

    fn example() -> Self {
        ExperimentRequest {
            seeds: 1,
            agents: vec![AgentName::Dfs],
            levels: vec![0],
            ..ExperimentRequest::default()
        }
    }
}

impl crate::registry::Job for BenchRequest {
    const NAME: &'static str = "bait_bench";
    const READS: &'static [crate::limits::Limit] =
        &[crate::limits::Limit::Seed, crate::limits::Limit::MaxNodes];
    const TITLE: &'static str = "Move times of the Bait agents";
    type Event = BenchEvent;

    fn check(&self) -> Result<()> {
        check_budget_ms(self.budget_ms)
    }

    crate::registry::job_fields!(limits);

    crate::registry::job_run!(bench);

    fn example() -> Self {
        BenchRequest {
            level: 0,
            budget_ms: 5.0,
            ..BenchRequest::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use puzzle_bait::parse_actions;

    fn no_stop() -> Arc<AtomicBool> {
        Arc::new(AtomicBool::new(false))
    }

    #[test]
    fn a_won_game_replays_to_a_win_and_its_ticks_follow_the_game() {
        let req = PlayRequest {
            level: Some(0),
            agent: AgentName::Astar,
            budget_ms: 10.0,
            ..Default::default()
        };
        let mut ticks = Vec::new();
        let mut games = Vec::new();
        let record = play(&req, &no_stop(), &mut |e| {
            match e {
                PlayEvent::Tick(t) => ticks.push(t),
                PlayEvent::Game(g) => games.push(g),
            }
            Ok(())
        })
        .unwrap();
        assert!(record.win);
        assert_eq!(games.len(), 1);
        // The actions replay on the rules to a win with the reported score.
        let start = bundled(0);
        let end = start.replay(&parse_actions(&record.actions).unwrap());
        assert!(end.is_win());
        assert_eq!(end.points(), record.score);
        // One tick event for the start and one per tick, numbered in order, ending won.
        assert_eq!(ticks.len(), record.ticks as usize + 1);
        for (i, t) in ticks.iter().enumerate() {
            assert_eq!(t.tick as usize, i);
            assert_eq!(t.rows.len(), start.level().height);
        }
        assert_eq!(ticks[0].action, None);
        assert_eq!(ticks[0].move_ms, None);
        assert!(ticks[1..].iter().all(|t| t
            .move_ms
            .is_some_and(|ms| ms >= 0.0 && ms <= record.max_move_ms)));
        let actions: String = ticks[1..].iter().map(|t| t.action.unwrap()).collect();
        assert_eq!(actions, record.actions);
        assert_eq!(ticks.last().unwrap().status, "won");
        assert_eq!(ticks.last().unwrap().score, record.score);
        // The result serializes to the CLI's JSON line.
        let json = serde_json::to_value(PlayEvent::Game(record)).unwrap();
        assert_eq!(json["level"], 0);
        assert_eq!(json["agent"], "astar");
    }

    #[test]
    fn a_level_text_is_played_and_parse_errors_keep_their_position() {
        let req = PlayRequest {
            text: Some("wwwwwww\nwA10kgw\nwwwwwww".into()),
            source: "tiny.txt".into(),
            agent: AgentName::Dfs,
            budget_ms: 10.0,
            ..Default::default()
        };
        let g = play(&req, &no_stop(), &mut |_| Ok(())).unwrap();
        assert_eq!((g.win, g.score, g.actions.as_str()), (true, 6, "RRRR"));
        assert_eq!(g.level, "tiny.txt");
        let bad = PlayRequest {
            text: Some("wwww\nwAxw\nwgww".into()),
            source: "bad.txt".into(),
            ..Default::default()
        };
        let err = play(&bad, &no_stop(), &mut |_| Ok(())).unwrap_err();
        assert!(
            format!("{err:#}").starts_with("bad.txt: line 2, column 3"),
            "{err:#}"
        );
        let e = err.downcast_ref::<puzzle_bait::LevelError>().unwrap();
        assert_eq!((e.line, e.column), (2, 3));
    }

    #[test]
    fn a_64_by_64_level_is_played_in_the_wide_width_and_a_bigger_one_refused() {
        let req = PlayRequest {
            text: Some(puzzle_bait::level::room(64, 64)),
            source: "room.txt".into(),
            agent: AgentName::AstarOffline,
            ..Default::default()
        };
        let mut ticks = 0;
        let g = play(&req, &no_stop(), &mut |e| {
            if let PlayEvent::Tick(t) = e {
                assert_eq!((t.rows.len(), t.rows[0].len()), (64, 64));
                ticks += 1;
            }
            Ok(())
        })
        .unwrap();
        assert_eq!((g.win, g.score, g.ticks), (true, 5, 61 + 61));
        assert_eq!(ticks, g.ticks + 1);
        let start =
            BaitState::new(Level::<64>::parse_width(&puzzle_bait::level::room(64, 64)).unwrap());
        let end = start.replay(&parse_actions(&g.actions).unwrap());
        assert_eq!((end.is_win(), end.points()), (true, 5));
        let big = PlayRequest {
            text: Some(puzzle_bait::level::room(65, 64)),
            ..req
        };
        let err = play(&big, &no_stop(), &mut |_| Ok(())).unwrap_err();
        let e = err.downcast_ref::<puzzle_bait::LevelError>().unwrap();
        assert_eq!((e.line, e.column), (1, 1));
        assert!(
            format!("{err:#}").starts_with(
                "room.txt: line 1, column 1: the level has 65x64 = \
                                            4160 cells; at most 4096 are supported"
            ),
            "{err:#}"
        );
    }

    #[test]
    fn the_default_node_budget_scales_with_the_width_and_a_given_one_is_kept() {
        let stop = no_stop();
        let default = Limits::default();
        let given = Limits {
            max_nodes: Some(1234),
            ..Limits::default()
        };
        assert_eq!(
            game_config::<4>(40.0, 0, &default, &stop).max_nodes,
            3_000_000
        );
        assert_eq!(
            game_config::<16>(40.0, 0, &default, &stop).max_nodes,
            750_000
        );
        assert_eq!(
            game_config::<64>(40.0, 0, &default, &stop).max_nodes,
            187_500
        );
        assert_eq!(game_config::<64>(40.0, 0, &given, &stop).max_nodes, 1234);
        // A wide game with a tiny node budget: the planner gives up, the game is not won.
        let req = PlayRequest {
            text: Some(puzzle_bait::level::room(40, 40)),
            agent: AgentName::AstarOffline,
            limits: Limits {
                max_nodes: Some(20),
                ..Limits::default()
            },
            ..Default::default()
        };
        let g = play(&req, &no_stop(), &mut |_| Ok(())).unwrap();
        assert!(!g.win && g.work <= 40, "{g:?}");
    }

    #[test]
    fn bad_requests_are_refused_naming_the_field() {
        let refuse = |req: PlayRequest, field: &str| {
            let err = play(&req, &no_stop(), &mut |_| {
                panic!("no event for a bad request")
            })
            .unwrap_err()
            .to_string();
            assert!(err.contains(field), "{err}");
        };
        let base = || PlayRequest {
            level: Some(0),
            ..Default::default()
        };
        refuse(
            PlayRequest {
                level: Some(5),
                ..base()
            },
            "level",
        );
        let e = serde_json::from_str::<PlayRequest>(r#"{"agent": "bfs"}"#).unwrap_err();
        assert!(e.to_string().contains("unknown variant `bfs`"), "{e}");
        refuse(
            PlayRequest {
                budget_ms: 0.0,
                ..base()
            },
            "budget_ms",
        );
        refuse(
            PlayRequest {
                budget_ms: f64::NAN,
                ..base()
            },
            "budget_ms",
        );
        refuse(
            PlayRequest {
                level: None,
                ..base()
            },
            "level",
        );
        refuse(
            PlayRequest {
                text: Some("wAg".into()),
                ..base()
            },
            "not both",
        );
        let err =
            serde_json::from_str::<ExperimentRequest>(r#"{"agents": ["dfs", "x"]}"#).unwrap_err();
        assert!(err.to_string().contains("unknown variant `x`"), "{err}");
        let bad: ExperimentRequest = serde_json::from_str(r#"{"levels": [7]}"#).unwrap();
        let err = experiment_report(&bad, &no_stop(), &mut |_| Ok(()))
            .map(drop)
            .unwrap_err();
        assert!(err.to_string().starts_with("levels:"), "{err}");
        let bad: ExperimentRequest = serde_json::from_str(r#"{"seeds": 0}"#).unwrap();
        let err = experiment_report(&bad, &no_stop(), &mut |_| Ok(()))
            .map(drop)
            .unwrap_err();
        assert!(err.to_string().contains("seeds"), "{err}");
        let bad = BenchRequest {
            level: 9,
            ..Default::default()
        };
        let err = bench(&bad, &no_stop(), &mut |_| Ok(())).unwrap_err();
        assert!(err.to_string().starts_with("level:"), "{err}");
    }

    #[test]
    fn the_experiment_report_counts_the_games_it_emitted() {
        let req = ExperimentRequest {
            agents: vec![AgentName::AstarOffline, AgentName::Dls],
            levels: vec![0],
            seeds: 2,
            budget_ms: 5.0,
            ..Default::default()
        };
        let mut games = Vec::new();
        let mut last_progress = None;
        let report = experiment_report(&req, &no_stop(), &mut |e| {
            match e {
                ExperimentEvent::Game(g) => games.push(g),
                ExperimentEvent::Progress(p) => last_progress = Some(p),
            }
            Ok(())
        })
        .unwrap()
        .markdown;
        // astar-offline plays once, dls (random) once per seed.
        assert_eq!(games.len(), 3);
        let p = last_progress.unwrap();
        assert_eq!((p.done, p.total), (3, 3));
        assert_eq!(p.solved, games.iter().filter(|g| g.win).count() as u64);
        let dls: Vec<_> = games.iter().filter(|g| g.agent == "dls").collect();
        assert_eq!(dls.iter().map(|g| g.seed).collect::<Vec<_>>(), [0, 1]);
        let wins = dls.iter().filter(|g| g.win).count();
        assert!(
            report.contains("| astar-offline | 1/1, 5.0, 9 |"),
            "{report}"
        );
        assert!(report.contains(&format!("| dls | {wins}/2, ")), "{report}");
        for g in &games {
            let end = bundled(0).replay(&parse_actions(&g.actions).unwrap());
            assert_eq!((end.is_win(), end.points()), (g.win, g.score));
        }
    }

    #[test]
    fn the_benchmark_plays_every_agent_once() {
        let req = BenchRequest {
            level: 0,
            budget_ms: 5.0,
            ..Default::default()
        };
        let mut events = Vec::new();
        let records = bench(&req, &no_stop(), &mut |e| {
            if let BenchEvent::Agent(r) = e {
                events.push(r);
            }
            Ok(())
        })
        .unwrap();
        let names: Vec<&str> = events.iter().map(|r| r.agent.as_str()).collect();
        assert_eq!(names, AGENTS);
        assert_eq!(records.len(), events.len());
        let offline = &records[3];
        assert!(offline.win && offline.ticks == 9 && offline.score == 5);
    }

    #[test]
    fn a_stopped_request_ends_at_once_and_says_so() {
        let stop = Arc::new(AtomicBool::new(true));
        let req = PlayRequest {
            level: Some(1),
            agent: AgentName::Mcts,
            ..Default::default()
        };
        let g = play(&req, &stop, &mut |_| Ok(())).unwrap();
        assert!(g.interrupted && g.ticks == 0 && !g.win);
    }

    #[test]
    fn a_tagged_request_runs_as_json_events() {
        let req: crate::JobRequest = serde_json::from_str(
            r#"{"job": "bait_play", "level": 0, "agent": "astar-offline", "seed": 3}"#,
        )
        .unwrap();
        assert_eq!(req.name(), "bait_play");
        let mut events = Vec::new();
        req.run(&no_stop(), &mut |kind, value| {
            events.push((kind, value));
            Ok(())
        })
        .unwrap();
        let (kind, last) = events.last().unwrap();
        assert_eq!(*kind, EventKind::Result);
        assert_eq!(last["win"], true);
        assert_eq!(last["seed"], 3);
        assert_eq!(events.len(), 9 + 2);
        assert!(events[..10]
            .iter()
            .all(|(k, v)| *k == EventKind::Progress && v["rows"].is_array()));
    }

    #[test]
    fn the_agent_names_are_the_bait_crate_s() {
        assert_eq!(AgentKind::ALL.map(|k| k.name()), AGENTS);
        assert_eq!(crate::options::choice_names::<AgentName>(), AGENTS);
        for name in AgentName::value_variants() {
            assert_eq!(name.kind().name(), choice_name(name));
        }
    }

    #[test]
    fn the_signature_is_the_shortest_wins() {
        let s = signature().unwrap();
        let lengths: Vec<f64> = s.iter().map(|l| l.result).collect();
        assert_eq!(lengths, [9.0, 38.0, 53.0]);
    }
}
