//! The agents on the generated test set (8×8 to 64×64): whatever DFS wins within its node
//! budget, both A* agents win too, in no more ticks; a level that cannot be won is said to be so
//! before its first tick, with the reason. The games run with a per-move budget far beyond any
//! search here, so each agent plans in its setup and the result does not depend on the
//! machine's speed; the node budget (the default of each level's width) is what bounds them.

use puzzle_bait::agents::{play_game, AgentKind, GameConfig};
use puzzle_bait::generate::{test_set, LevelKind};
use puzzle_bait::{AnyLevel, BaitState, Level, LevelVisitor};
use std::time::Duration;

/// What the test keeps of one game.
#[derive(Debug)]
struct Game {
    win: bool,
    ticks: u32,
    unwinnable: Option<String>,
}

/// The games of `agents` on one level.
struct Play<'a>(&'a [AgentKind]);

impl LevelVisitor for Play<'_> {
    type Output = Vec<Game>;

    fn visit<const W: usize>(self, level: Level<W>) -> Vec<Game> {
        let start = BaitState::new(level);
        // The agents' own node budget at this width (as in a real game).
        let config = GameConfig {
            move_budget: Duration::from_secs(3600),
            setup_budget: Duration::from_secs(3600),
            ..GameConfig::for_width::<W>()
        };
        self.0
            .iter()
            .map(|&agent| {
                let o = play_game(&start, agent, &config, |_, _| {});
                Game {
                    win: o.win,
                    ticks: o.ticks,
                    unwinnable: o.unwinnable,
                }
            })
            .collect()
    }
}

const AGENTS: [AgentKind; 3] = [AgentKind::Dfs, AgentKind::Astar, AgentKind::AstarOffline];

fn check_set(seed: u64) {
    let mut dfs_wins = 0;
    for level in test_set(seed) {
        let parsed = AnyLevel::parse(&level.text).expect("a generated level reads");
        let games = parsed.visit(Play(&AGENTS));
        let name = format!("{} (seed {seed})", level.name);
        if level.kind == LevelKind::Unwinnable {
            for (agent, game) in AGENTS.iter().zip(&games) {
                assert!(
                    game.unwinnable.is_some() && game.ticks == 0 && !game.win,
                    "{name}: {agent} did not say at once that it cannot be won: {game:?}"
                );
            }
            continue;
        }
        let dfs = &games[0];
        if !dfs.win {
            continue;
        }
        dfs_wins += 1;
        for (agent, game) in AGENTS.iter().zip(&games).skip(1) {
            assert!(
                game.win && game.ticks <= dfs.ticks,
                "{name}: DFS wins in {} ticks, {agent} {}",
                dfs.ticks,
                if game.win {
                    format!("takes {}", game.ticks)
                } else {
                    format!("does not win ({game:?})")
                }
            );
        }
    }
    // The set is made of winnable levels apart from its unwinnable ones: most must be won.
    assert!(
        dfs_wins >= 15,
        "DFS won only {dfs_wins} levels of seed {seed}"
    );
}

/// One test for both sets, so that their searches (up to about 0.7 GB each at the default
/// budgets) do not run side by side.
#[test]
fn a_star_wins_what_dfs_wins_in_no_more_ticks_on_the_generated_sets() {
    check_set(0);
    check_set(1);
}

/// A 50×50 open room: the avatar in a corner with the door beside it, the key in the far
/// corner and a band of 30 mushrooms across the middle. Eating mushrooms on the way must not
/// multiply the positions A* stores: both A* agents win within a small node budget.
#[test]
fn both_a_star_agents_cross_a_band_of_mushrooms_in_a_big_room() {
    let mut text = String::new();
    for r in 0..50 {
        for c in 0..50 {
            text.push(match (r, c) {
                _ if r == 0 || c == 0 || r == 49 || c == 49 => 'w',
                (1, 1) => 'A',
                (1, 2) => 'g',
                (48, 48) => 'k',
                (25, 10..40) => 'm',
                _ => '.',
            });
        }
        text.push('\n');
    }
    struct Small;
    impl LevelVisitor for Small {
        type Output = Vec<(bool, u32)>;
        fn visit<const W: usize>(self, level: Level<W>) -> Vec<(bool, u32)> {
            let start = BaitState::new(level);
            let config = GameConfig {
                setup_budget: Duration::from_secs(3600),
                max_nodes: 20_000,
                ..GameConfig::default()
            };
            [AgentKind::Astar, AgentKind::AstarOffline]
                .iter()
                .map(|&agent| {
                    let o = play_game(&start, agent, &config, |_, _| {});
                    (o.win, o.ticks)
                })
                .collect()
        }
    }
    let games = AnyLevel::parse(&text).unwrap().visit(Small);
    // The shortest win: 47 down and 47 right to the key, then back: 188 moves, one fewer as
    // the door is beside the avatar's corner.
    assert_eq!(games, vec![(true, 187), (true, 187)]);
}
