//! Play the agents given on the command line (default: all) on the five levels.
use puzzle_bait::{actions_to_string, builtin_level, play_game, AgentKind, BaitState, GameConfig};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let kinds: Vec<AgentKind> = if args.is_empty() {
        AgentKind::ALL.to_vec()
    } else {
        args.iter().map(|a| a.parse().unwrap()).collect()
    };
    let seeds: u64 = std::env::var("SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    for kind in kinds {
        for level in 0..5 {
            for seed in 0..seeds {
                let start = BaitState::new(builtin_level(level).unwrap());
                let mut cfg = GameConfig {
                    seed,
                    ..Default::default()
                };
                if let Some(n) = std::env::var("MAXN").ok().and_then(|s| s.parse().ok()) {
                    cfg.max_nodes = n;
                }
                if let Some(l) = std::env::var("LEVEL")
                    .ok()
                    .and_then(|s| s.parse::<usize>().ok())
                {
                    if l != level {
                        continue;
                    }
                }
                let t = std::time::Instant::now();
                let o = play_game(&start, kind, &cfg, |_, _| {});
                println!(
                    "{kind:14} L{level} s{seed} win={} score={} ticks={} max_ms={:.1} wall={:.1} setup_ms={:.0} work={} total={:.1}s {}",
                    o.win, o.score, o.ticks, o.max_move_ms, o.max_move_wall_ms, o.setup_ms, o.work,
                    t.elapsed().as_secs_f64(),
                    if o.actions.len() < 120 { actions_to_string(&o.actions) } else { String::new() }
                );
            }
        }
    }
}
