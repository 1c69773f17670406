//! `bait_experiment`: every agent on every level, the paper's comparison, with its Markdown
//! report (`puzzle experiment bait`).

use super::*;
use puzzle_bait::generate::{test_set, LevelKind, TEST_SET_SIZES};
use puzzle_bait::BUILTIN_LEVELS;

fn test_set_len() -> usize {
    TEST_SET_SIZES.len() * LevelKind::ALL.len()
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
    /// The levels played: GVGAI's five, or the generated test set (28 levels, 8×8 to 64×64:
    /// open rooms, mazes, rivers of holes, unwinnable ones).
    #[arg(long, value_enum, default_value_t)]
    #[schemars(title = "Level set")]
    pub set: LevelSet,
    /// The seed of the generated test set (`set` = generated).
    #[arg(long, default_value_t = 0)]
    #[schemars(title = "Seed of the generated set")]
    #[schemars(extend("x-advanced" = true))]
    pub set_seed: u64,
    /// Levels of the set by number, comma-separated (GVGAI's: 0 to 4; the generated set's: 0
    /// to 27; default: all).
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

/// The level sets `puzzle experiment bait` plays.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum LevelSet {
    /// GVGAI's five levels (the paper's comparison).
    #[default]
    #[schemars(title = "gvgai: GVGAI's five levels")]
    Gvgai,
    /// The generated test set ([`puzzle_bait::generate::test_set`]): every kind at 8×8 to 64×64.
    #[schemars(title = "generated: 28 levels, 8×8 to 64×64")]
    Generated,
}

/// The levels of `set`: each one's name and text.
pub fn set_levels(set: LevelSet, set_seed: u64) -> Vec<(String, String)> {
    match set {
        LevelSet::Gvgai => BUILTIN_LEVELS
            .iter()
            .enumerate()
            .map(|(i, text)| (format!("level {i}"), text.to_string()))
            .collect(),
        LevelSet::Generated => test_set(set_seed)
            .into_iter()
            .map(|l| (l.name, l.text))
            .collect(),
    }
}

fn check_set_index(set: LevelSet, count: usize, i: usize) -> Result<()> {
    if i >= count {
        let name = choice_name(&set);
        bail!(
            "levels: the {name} set has no level {i} (0 to {})",
            count - 1
        );
    }
    Ok(())
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
    /// The level's name (`level 3`, `maze-32x32`).
    #[serde(default)]
    pub level_name: String,
    /// The 99th percentile of the moves' CPU times, milliseconds.
    #[serde(default)]
    pub p99_move_ms: f64,
    /// Why the level cannot be won, when that was known before the first tick or proved by
    /// the agent's search (the game ended there).
    #[serde(default)]
    pub unwinnable: Option<String>,
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
    let set = set_levels(req.set, req.set_seed);
    for &l in &req.levels {
        check_set_index(req.set, set.len(), l)?;
    }
    let levels: Vec<usize> = if req.levels.is_empty() {
        (0..set.len()).collect()
    } else {
        req.levels.clone()
    };
    let parsed: Vec<AnyLevel> = levels
        .iter()
        .map(|&l| parse_level(&set[l].1, &set[l].0))
        .collect::<Result<_>>()?;
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
        for (&li, level) in levels.iter().zip(&parsed) {
            let seeds = if agent.is_random() { req.seeds } else { 1 };
            let mut cell = Cell {
                games: 0,
                wins: 0,
                score_sum: 0,
                ticks_sum: 0,
                max_move_ms: 0.0,
                worst_p99_ms: 0.0,
                unwinnable: None,
            };
            for s in 0..seeds {
                let seed = base_seed + s;
                item += 1;
                let expected = game_identity(agent.name(), li, seed);
                let mut interrupted = false;
                let record = req.items.record(item, &expected, stop, || {
                    let game_start = Instant::now();
                    let o = level.clone().visit(OneGame {
                        agent,
                        budget_ms: req.budget_ms,
                        seed,
                        limits: &req.limits,
                        stop,
                    });
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
                        actions: o.actions,
                        level_name: set[li].0.clone(),
                        p99_move_ms: o.p99_move_ms,
                        unwinnable: o.unwinnable,
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
                    let actions = parse_actions(&record.actions)
                        .map_err(|e| anyhow::anyhow!("item {item}: {e}"))?;
                    let (win, score) = level.clone().visit(Replay(&actions));
                    if win != record.win || score != record.score {
                        bail!("item {item}: the recorded actions do not replay to its result");
                    }
                }
                cell.games += 1;
                cell.wins += record.win as u32;
                cell.score_sum += record.score as i64;
                cell.ticks_sum += record.ticks as u64;
                if agent != AgentKind::AstarOffline {
                    cell.max_move_ms = cell.max_move_ms.max(record.max_move_ms);
                    cell.worst_p99_ms = cell.worst_p99_ms.max(record.p99_move_ms);
                }
                if record.unwinnable.is_some() && record.ticks == 0 {
                    cell.unwinnable = record.unwinnable.clone();
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
    let names: Vec<String> = levels.iter().map(|&l| set[l].0.clone()).collect();
    let markdown = markdown_report(
        &agents,
        &names,
        &table,
        req,
        base_seed,
        Duration::from_secs_f64(run_time),
    );
    let plots = vec![wins_plot(&agents, &names, &table, req)?];
    Ok(Report { markdown, plots })
}

/// The plot of the experiment: the share of games won per agent and level.
fn wins_plot(
    agents: &[AgentKind],
    levels: &[String],
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
        series: levels.to_vec(),
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
    levels: &[String],
    table: &[Vec<Cell>],
    req: &ExperimentRequest,
    base_seed: u64,
    elapsed: Duration,
) -> String {
    let mut s = String::new();
    let what = match req.set {
        LevelSet::Gvgai => "GVGAI's levels".to_string(),
        LevelSet::Generated => format!("the generated test set (seed {})", req.set_seed),
    };
    s.push_str(&format!(
        "## Bait: every agent on {what}\n\n{} ms CPU per move; random agents (dls, mcts, \
         mcts-plus) {} per level ({}), the others one. Cell: wins/games, mean score, \
         mean ticks; `unwinnable` when the game ended before its first tick because the level \
         cannot be won (the reason is in the JSON Lines). Run time {:.0} s (the games' seconds \
         summed).\n\n",
        req.budget_ms,
        if req.seeds == 1 {
            "1 game".to_string()
        } else {
            format!("{} games", req.seeds)
        },
        if req.seeds == 1 {
            format!("seed {base_seed}")
        } else {
            format!("seeds {base_seed}–{}", base_seed + req.seeds - 1)
        },
        elapsed.as_secs_f64()
    ));
    let cell_text = |cell: &Cell| {
        if cell.games == 0 {
            return "–".to_string();
        }
        if cell.unwinnable.is_some() && cell.wins == 0 {
            return "unwinnable".to_string();
        }
        let g = cell.games as f64;
        format!(
            "{}/{}, {:.1}, {:.0}",
            cell.wins,
            cell.games,
            cell.score_sum as f64 / g,
            cell.ticks_sum as f64 / g
        )
    };
    let empty = Cell::default();
    // Levels as columns for a few levels, as rows for many.
    if levels.len() <= 6 {
        s.push_str("| agent |");
        for l in levels {
            s.push_str(&format!(" {l} |"));
        }
        s.push_str("\n|---|");
        for _ in levels {
            s.push_str("---|");
        }
        s.push('\n');
        for (agent, row) in agents.iter().zip(table) {
            s.push_str(&format!("| {agent} |"));
            for l in 0..levels.len() {
                s.push_str(&format!(" {} |", cell_text(row.get(l).unwrap_or(&empty))));
            }
            s.push('\n');
        }
    } else {
        s.push_str("| level |");
        for agent in agents {
            s.push_str(&format!(" {agent} |"));
        }
        s.push_str("\n|---|");
        for _ in agents {
            s.push_str("---|");
        }
        s.push('\n');
        for (l, name) in levels.iter().enumerate() {
            s.push_str(&format!("| {name} |"));
            for row in table
                .iter()
                .chain(std::iter::repeat_n(&Vec::new(), agents.len() - table.len()))
            {
                s.push_str(&format!(" {} |", cell_text(row.get(l).unwrap_or(&empty))));
            }
            s.push('\n');
        }
    }
    s.push_str(
        "\n### Per agent\n\n`levels won`: levels won in most games, of those not shown \
         unwinnable; `unwinnable`: levels the agent said cannot be won before the first tick; \
         `max ms`: the longest CPU time any move took; `p99 ms`: the largest per-game 99th \
         percentile of the moves' CPU times (astar-offline plans before the game and is not timed \
         per move).\n\n| agent | levels won | unwinnable | max ms | p99 ms |\n|---|---|---|---|---|\n",
    );
    for (agent, row) in agents.iter().zip(table) {
        let won = row
            .iter()
            .filter(|c| c.games > 0 && c.wins * 2 > c.games)
            .count();
        let unwinnable = row.iter().filter(|c| c.unwinnable.is_some()).count();
        let played = row.iter().filter(|c| c.games > 0).count();
        let max_ms = row.iter().map(|c| c.max_move_ms).fold(0.0, f64::max);
        let p99 = row.iter().map(|c| c.worst_p99_ms).fold(0.0, f64::max);
        s.push_str(&format!(
            "| {agent} | {won}/{} | {unwinnable} | {max_ms:.1} | {p99:.1} |\n",
            played - unwinnable
        ));
    }
    if req.set == LevelSet::Gvgai {
        s.push_str(
            "\n### References\n\n\
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
             3: ≤ 46 (11), 4: 37 (11) |\n",
        );
    }
    s
}

/// One game on a level of any width, summed up.
struct OneGame<'a> {
    agent: AgentKind,
    budget_ms: f64,
    seed: u64,
    limits: &'a Limits,
    stop: &'a Arc<AtomicBool>,
}

/// What the experiment keeps of a game.
struct GameSummary {
    win: bool,
    score: i32,
    ticks: u32,
    actions: String,
    max_move_ms: f64,
    p99_move_ms: f64,
    setup_ms: f64,
    unwinnable: Option<String>,
    interrupted: bool,
}

impl LevelVisitor for OneGame<'_> {
    type Output = GameSummary;

    fn visit<const W: usize>(self, level: Level<W>) -> GameSummary {
        let start = BaitState::new(level);
        let config = game_config::<W>(self.budget_ms, self.seed, self.limits, self.stop);
        let o: Outcome<W> = play_game(&start, self.agent, &config, |_, _| {});
        GameSummary {
            win: o.win,
            score: o.score,
            ticks: o.ticks,
            actions: actions_to_string(&o.actions),
            max_move_ms: o.max_move_ms,
            p99_move_ms: o.p99_move_ms(),
            setup_ms: o.setup_ms,
            unwinnable: o.unwinnable,
            interrupted: o.interrupted,
        }
    }
}

/// The win and score that actions replay to on a level of any width.
struct Replay<'a>(&'a [Action]);

impl LevelVisitor for Replay<'_> {
    type Output = (bool, i32);

    fn visit<const W: usize>(self, level: Level<W>) -> (bool, i32) {
        let end = BaitState::new(level).replay(self.0);
        (end.is_win(), end.points())
    }
}

impl crate::job::Job for ExperimentRequest {
    const NAME: &'static str = "bait_experiment";
    const READS: &'static [crate::limits::Limit] =
        &[crate::limits::Limit::Seed, crate::limits::Limit::MaxNodes];
    const TITLE: &'static str = "Every Bait agent on every level";
    type Event = ExperimentEvent;

    fn check(&self) -> Result<()> {
        check_budget_ms(self.budget_ms)?;
        let count = match self.set {
            LevelSet::Gvgai => BUILTIN_LEVELS.len(),
            LevelSet::Generated => test_set_len(),
        };
        for &l in &self.levels {
            check_set_index(self.set, count, l)?;
        }
        let base_seed = self.limits.seed_or(0);
        if base_seed.checked_add(self.seeds).is_none() {
            bail!("seed: {base_seed} plus {} seeds is too large", self.seeds);
        }
        Ok(())
    }

    crate::job::job_fields!(limits, items);

    crate::job::job_run!(report experiment_report);

    fn example() -> Self {
        ExperimentRequest {
            seeds: 1,
            agents: vec![AgentName::Dfs],
            levels: vec![0],
            ..ExperimentRequest::default()
        }
    }
}
