//! The agents and the game loop (see `docs/METHODS.md#bait-agents`). Every agent sees the current
//! position at each tick and must answer within the per-move budget (GVGAI: 40 ms of CPU time; 1 s
//! to set up). [`play_game`] times every answer, applies it, and replays the whole action sequence
//! from the start before reporting, so a reported result is always reproducible.

mod astar_agents;
mod dfs;
mod dls;
mod mcts;
pub mod ttmcts;

pub use astar_agents::{AStarAgent, OfflineAgent};
pub use dfs::DfsAgent;
pub use dls::{DlsAgent, DlsConfig};
pub use mcts::{MctsAgent, MctsAgentConfig};
pub use ttmcts::{GraphMcts, GraphStatus};

use crate::clock::MoveClock;

/// The next move of a plan computed ahead (DFS, A*), advancing `next`; nil while there is no
/// plan yet or once it is played out.
fn next_planned(plan: Option<&[Action]>, next: &mut usize) -> Action {
    match plan {
        Some(plan) if *next < plan.len() => {
            *next += 1;
            plan[*next - 1]
        }
        _ => Action::Nil,
    }
}
use crate::state::{Action, BaitState};
use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// An agent playing Bait one tick at a time, on levels of bitset width `W`.
pub trait Agent<const W: usize = 4> {
    /// Prepare with the start position (GVGAI gives an agent's constructor 1 s).
    fn setup(&mut self, state: &BaitState<W>, clock: &MoveClock) {
        let _ = (state, clock);
    }
    /// Choose the action for `state` before `clock` expires.
    fn act(&mut self, state: &BaitState<W>, clock: &MoveClock) -> Action;
    /// Search work done so far (positions expanded, MCTS iterations ...).
    fn work(&self) -> u64;
    /// Why the level cannot be won, once the agent's search has proved it (it saw every
    /// position reachable from the start); the game then ends at once.
    fn verdict(&self) -> Option<String> {
        None
    }
}

/// The agents `puzzle play bait --agent` knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AgentKind {
    /// Depth-first search with a visited set, planned whole before the first move (paper Task 1).
    Dfs,
    /// Depth-limited DFS per move with the paper's heuristic (paper Task 2).
    Dls,
    /// A* per move, open/closed lists kept across moves (paper Task 3).
    Astar,
    /// Offline A* planner: a shortest win, computed before the game, then replayed.
    AstarOffline,
    /// MCTS per move: UCB1, depth-limited random rollouts, most-visited move (paper Task 4,
    /// GVGAI's sample controller).
    Mcts,
    /// Our improved MCTS (see [`MctsAgentConfig::plus`]).
    MctsPlus,
}

impl AgentKind {
    /// Every agent, in the order of the reports.
    pub const ALL: [AgentKind; 6] = [
        AgentKind::Dfs,
        AgentKind::Dls,
        AgentKind::Astar,
        AgentKind::AstarOffline,
        AgentKind::Mcts,
        AgentKind::MctsPlus,
    ];

    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            AgentKind::Dfs => "dfs",
            AgentKind::Dls => "dls",
            AgentKind::Astar => "astar",
            AgentKind::AstarOffline => "astar-offline",
            AgentKind::Mcts => "mcts",
            AgentKind::MctsPlus => "mcts-plus",
        }
    }

    /// One line saying what the agent does (for menus).
    pub fn description(self) -> &'static str {
        match self {
            AgentKind::Dfs => "depth-first search, planned whole before the first move",
            AgentKind::Dls => "depth-limited DFS every move, with the paper's heuristic",
            AgentKind::Astar => "A* every move, its lists kept from move to move",
            AgentKind::AstarOffline => "offline A*: a shortest win planned before the game",
            AgentKind::Mcts => "MCTS every move (UCB1, random rollouts; GVGAI's sample)",
            AgentKind::MctsPlus => {
                "improved MCTS: dead moves pruned, distance values, transpositions"
            }
        }
    }

    /// Does the agent use random numbers (so several seeds are worth playing)?
    pub fn is_random(self) -> bool {
        matches!(self, AgentKind::Mcts | AgentKind::MctsPlus | AgentKind::Dls)
    }

    /// A fresh agent for levels of width `W`.
    pub fn make<const W: usize>(self, config: &GameConfig) -> Box<dyn Agent<W>> {
        match self {
            AgentKind::Dfs => Box::new(DfsAgent::new(config.max_nodes)),
            AgentKind::Dls => Box::new(DlsAgent::new(DlsConfig::default(), config.seed)),
            AgentKind::Astar => Box::new(AStarAgent::new(config.max_nodes)),
            AgentKind::AstarOffline => {
                Box::new(OfflineAgent::new(config.max_nodes, config.stop.clone()))
            }
            AgentKind::Mcts => Box::new(MctsAgent::new(
                MctsAgentConfig::plain(),
                config.seed,
                config.max_nodes,
            )),
            AgentKind::MctsPlus => Box::new(MctsAgent::new(
                MctsAgentConfig::plus(),
                config.seed,
                config.max_nodes,
            )),
        }
    }
}

impl fmt::Display for AgentKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for AgentKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        AgentKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| {
                format!(
                    "unknown agent '{s}' (one of: {})",
                    AgentKind::ALL.map(|k| k.name()).join(", ")
                )
            })
    }
}

/// The share of the per-move budget an agent's search may use; the rest is a margin for
/// choosing the move, bookkeeping and the clock's own granularity.
pub const SEARCH_SHARE: f64 = 0.75;

/// Settings of one game.
#[derive(Clone, Debug)]
pub struct GameConfig {
    /// CPU time per move (GVGAI: 40 ms). Agents search for [`SEARCH_SHARE`] of it.
    pub move_budget: Duration,
    /// CPU time for setting up (GVGAI: 1 s).
    pub setup_budget: Duration,
    /// Random seed.
    pub seed: u64,
    /// Node budget of every search (positions or tree nodes stored); the default is
    /// [`default_max_nodes`] of the width.
    pub max_nodes: usize,
    /// Ctrl-C, a time cap, a client gone: stop the game, inside the move being thought about
    /// too (every agent's move clock polls it); it is then reported as it stood before that
    /// move.
    pub stop: Option<Arc<AtomicBool>>,
}

/// The default node budget at the bundled levels' width (4 words: 256 cells).
pub const DEFAULT_MAX_NODES: usize = 3_000_000;

/// The default node budget of the searches on a level of bitset width `W`:
/// [`DEFAULT_MAX_NODES`] at width 4, scaled down in proportion to the width (750,000 at 16,
/// 187,500 at 64). A stored position holds five `W`-word object layers, so its size grows
/// about in proportion to `W` (A*: about 230 bytes per stored position at width 4, 710 at 16,
/// 2,630 at 64), and the default budget takes about the same memory, at most about 0.7 GB, in
/// every width.
pub const fn default_max_nodes<const W: usize>() -> usize {
    let words = if W < 4 { 4 } else { W };
    DEFAULT_MAX_NODES * 4 / words
}

impl GameConfig {
    /// The default settings for a level of bitset width `W` (the node budget
    /// [`default_max_nodes`] of `W`).
    pub fn for_width<const W: usize>() -> GameConfig {
        GameConfig {
            max_nodes: default_max_nodes::<W>(),
            ..GameConfig::default()
        }
    }
}

impl Default for GameConfig {
    /// GVGAI's budgets (40 ms per move, 1 s to set up), seed 0, and the node budget
    /// [`DEFAULT_MAX_NODES`] of the bundled levels' width ([`GameConfig::for_width`] gives a
    /// wider level's).
    fn default() -> Self {
        GameConfig {
            move_budget: Duration::from_millis(40),
            setup_budget: Duration::from_secs(1),
            seed: 0,
            max_nodes: DEFAULT_MAX_NODES,
            stop: None,
        }
    }
}

/// The result of one game, checked by replay.
#[derive(Clone, Debug)]
pub struct Outcome<const W: usize = 4> {
    /// The game was won.
    pub win: bool,
    /// Final score.
    pub score: i32,
    /// Ticks played until the game ended (or was stopped).
    pub ticks: u32,
    /// The actions, one per tick.
    pub actions: Vec<Action>,
    /// Longest CPU time any move took, in milliseconds (GVGAI's measure).
    pub max_move_ms: f64,
    /// Longest wall time any move took, in milliseconds.
    pub max_move_wall_ms: f64,
    /// CPU time of the setup, in milliseconds (the offline planner's whole search).
    pub setup_ms: f64,
    /// Search work (expansions or iterations).
    pub work: u64,
    /// The final position.
    pub final_state: BaitState<W>,
    /// The game was stopped by the stop flag before it ended.
    pub interrupted: bool,
    /// Why the level cannot be won, when that was known before the game or proved by the
    /// agent's search ([`crate::heuristic::unwinnable_reason`], [`Agent::verdict`]): the game
    /// then ends there, lost, instead of running to [`crate::MAX_TICKS`].
    pub unwinnable: Option<String>,
    /// The CPU time of every move, in milliseconds, in order.
    pub move_cpu_ms: Vec<f32>,
}

impl<const W: usize> Outcome<W> {
    /// The 99th percentile of the moves' CPU times, in milliseconds (0 with no move).
    pub fn p99_move_ms(&self) -> f64 {
        percentile(&self.move_cpu_ms, 0.99)
    }
}

/// The `q`-quantile (0 to 1, nearest rank) of `times`, in their unit; 0 when empty.
pub fn percentile(times: &[f32], q: f64) -> f64 {
    if times.is_empty() {
        return 0.0;
    }
    let mut sorted = times.to_vec();
    sorted.sort_by(f32::total_cmp);
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    f64::from(sorted[rank - 1])
}

/// Play a game of `kind` from `start`. `on_tick` sees every position after each tick (for
/// `--show`). The returned outcome has been re-derived by replaying its actions from `start`.
pub fn play_game<const W: usize>(
    start: &BaitState<W>,
    kind: AgentKind,
    config: &GameConfig,
    mut on_tick: impl FnMut(&BaitState<W>, Action),
) -> Outcome<W> {
    play_game_timed(start, kind, config, |state, action, _| {
        on_tick(state, action)
    })
}

/// How long the agent took to choose one move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveTime {
    /// CPU time of the agent's thread, milliseconds (GVGAI's measure).
    pub cpu_ms: f64,
    /// Wall time, milliseconds.
    pub wall_ms: f64,
}

/// [`play_game`], with the time the agent took for each move passed to `on_tick` too (for
/// watching a game move by move).
pub fn play_game_timed<const W: usize>(
    start: &BaitState<W>,
    kind: AgentKind,
    config: &GameConfig,
    mut on_tick: impl FnMut(&BaitState<W>, Action, MoveTime),
) -> Outcome<W> {
    let mut agent = kind.make(config);
    let mut unwinnable = crate::heuristic::unwinnable_reason(start);
    let mut setup_ms = 0.0;
    if unwinnable.is_none() {
        let setup_clock = MoveClock::start(config.setup_budget).with_stop(config.stop.clone());
        agent.setup(start, &setup_clock);
        setup_ms = setup_clock.cpu_elapsed().as_secs_f64() * 1e3;
        unwinnable = agent.verdict();
    }
    let mut state = start.clone();
    let mut actions = Vec::new();
    let mut move_cpu_ms = Vec::new();
    let mut max_cpu = 0f64;
    let mut max_wall = 0f64;
    let mut interrupted = false;
    let search_share = config.move_budget.mul_f64(SEARCH_SHARE);
    while !state.is_terminal_state() && unwinnable.is_none() {
        if config
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
        {
            interrupted = true;
            break;
        }
        let clock = MoveClock::start(search_share).with_stop(config.stop.clone());
        let action = agent.act(&state, &clock);
        if clock.stopped() {
            // Chosen in a move cut short: the game is reported as it stood before it.
            interrupted = true;
            break;
        }
        let time = MoveTime {
            cpu_ms: clock.cpu_elapsed().as_secs_f64() * 1e3,
            wall_ms: clock.wall_elapsed().as_secs_f64() * 1e3,
        };
        max_cpu = max_cpu.max(time.cpu_ms);
        max_wall = max_wall.max(time.wall_ms);
        move_cpu_ms.push(time.cpu_ms as f32);
        state.step(action);
        actions.push(action);
        on_tick(&state, action, time);
        if !state.is_terminal_state() {
            unwinnable = agent.verdict();
        }
    }
    let replayed = start.replay(&actions);
    assert_eq!(
        replayed, state,
        "the game does not replay to the same position"
    );
    Outcome {
        win: replayed.is_win(),
        score: replayed.points(),
        ticks: actions.len() as u32,
        actions,
        max_move_ms: max_cpu,
        max_move_wall_ms: max_wall,
        setup_ms,
        work: agent.work(),
        final_state: replayed,
        interrupted,
        unwinnable,
        move_cpu_ms,
    }
}

impl<const W: usize> BaitState<W> {
    /// The game is over (won, dead or out of time).
    pub fn is_terminal_state(&self) -> bool {
        self.status() != crate::state::Status::Playing
    }
}
