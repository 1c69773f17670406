//! `bait_bench`: the move times of every agent on one level (`puzzle bench bait`).

use super::*;

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

impl crate::job::Job for BenchRequest {
    const NAME: &'static str = "bait_bench";
    const READS: &'static [crate::limits::Limit] =
        &[crate::limits::Limit::Seed, crate::limits::Limit::MaxNodes];
    const TITLE: &'static str = "Move times of the Bait agents";
    type Event = BenchEvent;

    fn check(&self) -> Result<()> {
        check_budget_ms(self.budget_ms)
    }

    crate::job::job_fields!(limits);

    crate::job::job_run!(bench);

    fn example() -> Self {
        BenchRequest {
            level: 0,
            budget_ms: 5.0,
            ..BenchRequest::default()
        }
    }
}
