//! Iterations per second of one generation run: `cargo run --release -p puzzle-sokogen
//! --example speed -- [width] [height] [seconds] [threads] [bootstrap 0/1]`.

use puzzle_engine::Budget;
use puzzle_sokogen::{generate, GenConfig, GenParams};
use std::time::Duration;

fn main() {
    let args: Vec<f64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let get = |i: usize, d: f64| args.get(i).copied().unwrap_or(d);
    let mut config = GenConfig::default();
    if get(4, 1.0) == 0.0 {
        config.bootstrap = None;
    }
    let params = GenParams {
        width: get(0, 5.0) as usize,
        height: get(1, 5.0) as usize,
        budget: Budget::time(Duration::from_secs_f64(get(2, 5.0))),
        threads: get(3, 1.0) as usize,
        config,
        seed: get(5, 1.0) as u64,
        ..GenParams::default()
    };
    let mut n = 0;
    let s = generate(&params, &mut |_| {
        n += 1;
        Ok(())
    })
    .expect("generation");
    let cpu = cpu_seconds();
    println!(
        "cpu {cpu:.2} s = {:.0} it/cpu-s; iterations {} in {:.2} s = {:.0}/s, best {:.4} at {:.2} s, levels {n}, nodes {}, peak {}",
        s.iterations as f64 / cpu,
        s.iterations,
        s.elapsed.as_secs_f64(),
        s.iterations as f64 / s.elapsed.as_secs_f64(),
        s.best_score,
        s.time_to_best_s,
        s.nodes,
        s.peak_nodes
    );
}

/// User + system CPU seconds of this process (Linux `/proc/self/stat`, 100 ticks per second).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = stat.rsplit(')').next().unwrap_or("");
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (ticks(11) + ticks(12)) / 100.0
}
