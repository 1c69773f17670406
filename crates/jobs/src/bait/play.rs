//! `bait_play`: one game of Bait with an agent, tick by tick (`puzzle play bait`).

use super::*;

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
    /// The 99th percentile of the moves' CPU times, milliseconds (0 when no move was played).
    pub p99_move_ms: f64,
    /// Why the level cannot be won, when that was known before the first tick or proved by
    /// the agent's search: the game ended there, lost. `null` otherwise.
    pub unwinnable: Option<String>,
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
            p99_move_ms: outcome.p99_move_ms(),
            unwinnable: outcome.unwinnable.clone(),
        };
        emit(PlayEvent::Game(record.clone()))?;
        Ok(record)
    }
}

impl crate::job::Job for PlayRequest {
    const NAME: &'static str = "bait_play";
    const READS: &'static [crate::limits::Limit] =
        &[crate::limits::Limit::Seed, crate::limits::Limit::MaxNodes];
    const TITLE: &'static str = "Play one game of Bait with an agent";
    type Event = PlayEvent;

    fn check(&self) -> Result<()> {
        check_budget_ms(self.budget_ms)
    }

    crate::job::job_fields!(limits);

    crate::job::job_run!(play);

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
