//! GVGAI's Bait jobs (see `docs/METHODS.md#bait`): one game played by an agent of `puzzle-bait`
//! under a per-move CPU budget, shown tick by tick; every agent on every level (the paper's
//! comparison); the move times of every agent on one level; and Bait's part of the `puzzle bench`
//! signature. Every game's outcome was re-derived by replaying its actions (inside
//! [`puzzle_bait::play_game`]) before it is emitted.

mod bench;
mod experiment;
mod play;
pub use bench::*;
pub use experiment::*;
pub use play::*;

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

/// The game of [`play`], on a level of any width.
struct PlayGame<'a, 'e> {
    req: &'a PlayRequest,
    kind: AgentKind,
    level_json: serde_json::Value,
    stop: &'a Arc<AtomicBool>,
    emit: Emit<'e, PlayEvent>,
}

/// The games of one agent on one level.
#[derive(Default)]
struct Cell {
    games: u32,
    wins: u32,
    score_sum: i64,
    ticks_sum: u64,
    max_move_ms: f64,
    /// The largest per-game 99th percentile of the moves' CPU times.
    worst_p99_ms: f64,
    /// Why the level cannot be won, when a game ended before its first tick for it.
    unwinnable: Option<String>,
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
        // A wide game with a tiny node budget: every search stores at most 20 positions, so the
        // planner goes on from the best partial plan of each, a few moves at a time.
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
        assert!(g.work <= 40 * g.ticks as u64, "{g:?}");
        assert!(g.win, "{g:?}");
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
