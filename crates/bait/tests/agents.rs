//! The planners' known shortest wins and every agent's result checked by replay.

use puzzle_bait::astar::{plan_win, shortest_win, AStarStatus};
use puzzle_bait::{builtin_level, play_game, AgentKind, BaitState, GameConfig, Level};
use std::time::Duration;

fn start(level: usize) -> BaitState {
    BaitState::new(builtin_level(level).unwrap())
}

#[test]
fn offline_astar_finds_the_known_shortest_wins() {
    // (level, moves, score): the shortest wins of GVGAI levels 0, 1, 4 and 2
    // (docs/METHODS.md#bait-agents).
    for (level, moves, score) in [(0, 9, 5), (1, 38, 7), (4, 37, 11), (2, 53, 9)] {
        let s = start(level);
        let r = shortest_win(&s, 2_000_000, None);
        assert!(
            matches!(r.status, AStarStatus::Solved(_)),
            "level {level}: {:?}",
            r.status
        );
        let plan = r.plan.unwrap();
        let end = s.replay(&plan);
        assert!(end.is_win(), "level {level}");
        assert_eq!((plan.len(), end.points()), (moves, score), "level {level}");
    }
}

#[test]
fn a_level_without_a_win_is_proved_so() {
    // The key sits behind a hole that no box can fill.
    let s = BaitState::new(Level::parse("wwwwww\nwA0kgw\nwwwwww").unwrap());
    let r = shortest_win(&s, 10_000, None);
    assert_eq!(r.status, AStarStatus::Exhausted);
    assert!(r.plan.is_none());
    let o = play_game(&s, AgentKind::Dfs, &GameConfig::default(), |_, _| {});
    assert!(!o.win);
}

/// Level 3 needs the relaxed fallback (about 10 s in release on an idle 2-core machine).
#[test]
fn offline_planner_wins_level_3_within_48_moves() {
    let s = start(3);
    let r = plan_win(&s, 3_000_000, None);
    let plan = r.plan.expect("a win");
    let end = s.replay(&plan);
    assert!(end.is_win());
    assert!(plan.len() <= 48, "{} moves", plan.len());
}

fn check_replay(level: &BaitState, kind: AgentKind, config: &GameConfig) -> puzzle_bait::Outcome {
    let o = play_game(level, kind, config, |_, _| {});
    let end = level.replay(&o.actions);
    assert_eq!(end, o.final_state);
    assert_eq!(end.is_win(), o.win);
    assert_eq!(end.points(), o.score);
    assert_eq!(end.tick() as u32, o.ticks);
    assert_eq!(o.actions.len() as u32, o.ticks);
    o
}

#[test]
fn every_agent_wins_level_0_and_its_sequence_replays() {
    let s = start(0);
    for kind in AgentKind::ALL {
        for seed in 0..2 {
            let config = GameConfig {
                seed,
                move_budget: Duration::from_millis(10),
                ..Default::default()
            };
            let o = check_replay(&s, kind, &config);
            assert!(o.win, "{kind} seed {seed} lost level 0");
            assert_eq!(o.score, 5, "{kind}");
        }
    }
}

#[test]
fn dfs_and_per_move_astar_win_the_small_levels() {
    for level in [1, 2, 4] {
        let s = start(level);
        for kind in [AgentKind::Dfs, AgentKind::Astar, AgentKind::AstarOffline] {
            let o = check_replay(&s, kind, &GameConfig::default());
            assert!(o.win, "{kind} lost level {level}");
        }
    }
}

#[test]
fn a_losing_game_replays_to_its_loss() {
    // A random-ish agent with a tiny budget on a level it cannot win: the sequence still
    // replays to the reported loss (here: a level with no win at all).
    let s = BaitState::new(Level::parse("wwwwwww\nwA.0kgw\nwwwwwww").unwrap());
    let config = GameConfig {
        move_budget: Duration::from_micros(300),
        ..Default::default()
    };
    for kind in [AgentKind::Mcts, AgentKind::Dls] {
        let o = check_replay(&s, kind, &config);
        assert!(!o.win);
    }
}

/// A stopped game ends inside the move being thought about, however long the per-move budget:
/// every agent polls the stop flag through its move clock (setup included).
#[test]
fn the_stop_flag_ends_a_move_of_any_budget() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use std::time::Instant;
    for kind in AgentKind::ALL {
        let stop = Arc::new(AtomicBool::new(false));
        let config = GameConfig {
            move_budget: Duration::from_secs(3600),
            setup_budget: Duration::from_secs(3600),
            stop: Some(stop.clone()),
            ..GameConfig::default()
        };
        let raise = {
            let stop = stop.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(300));
                stop.store(true, Ordering::Relaxed);
            })
        };
        let started = Instant::now();
        let o = play_game(&start(3), kind, &config, |_, _| {});
        raise.join().unwrap();
        // Without the stop flag a single move would think for 45 minutes.
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "{kind}: the game ran {:?} after a stop",
            started.elapsed()
        );
        assert!(o.interrupted || o.final_state.is_terminal_state(), "{kind}");
        if matches!(kind, AgentKind::Mcts | AgentKind::MctsPlus | AgentKind::Dls) {
            assert!(o.interrupted, "{kind}: stopped in its first move");
        }
    }
}
