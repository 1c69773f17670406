//! Mean best score of a configuration over seeds with an iteration budget (CPU-independent):
//! `cargo run --release -p puzzle-sokogen --example tune -- VARIANT ITERATIONS SEEDS`.
//! Variants: default, limit9, noboot, xi2, limit9xi2.

use puzzle_engine::Budget;
use puzzle_sokogen::{generate, BoxLimit, GenConfig, GenParams, Selection};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let variant = args.first().map_or("default", |s| s.as_str());
    let iterations: u64 = args
        .get(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let seeds: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(5);
    let mut config = GenConfig::default();
    for part in variant.split('+') {
        match part {
            "default" => {}
            "limit9" => config.rules.box_limit = BoxLimit::AreaOver(3),
            "limit7" => config.rules.box_limit = BoxLimit::Fixed(7),
            "noboot" => config.bootstrap = None,
            "xi2" => config.selection = Selection::Ucb1 { xi: 2.0 },
            "xi3" => config.selection = Selection::Ucb1 { xi: 3.0 },
            "d01" => {
                config.bootstrap = Some(puzzle_sokogen::Bootstrap {
                    levels: 4,
                    delta: 0.1,
                })
            }
            "d04" => {
                config.bootstrap = Some(puzzle_sokogen::Bootstrap {
                    levels: 4,
                    delta: 0.4,
                })
            }
            other => panic!("unknown variant part {other}"),
        }
    }
    let mut scores = Vec::new();
    for seed in 1..=seeds {
        let params = GenParams {
            width: 5,
            height: 5,
            start: Some((2, 2)),
            config,
            budget: Budget::iterations(iterations),
            seed,
            ..GenParams::default()
        };
        let s = generate(&params, &mut |_| Ok(())).expect("generation");
        scores.push(s.best_score);
    }
    let mean = scores.iter().sum::<f64>() / scores.len() as f64;
    println!(
        "{variant}: mean {mean:.4} over {seeds} seeds at {iterations} iterations: {scores:.3?}"
    );
}
