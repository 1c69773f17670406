//! Solve every level of an XSB file with one algorithm and print one line per level.
//! `cargo run --release -p puzzle-sokoban --example solve_set -- FILE ALGO SECS [FIRST_N [FROM]]`
//! (levels FROM .. FROM + FIRST_N - 1, numbered from 1; FROM defaults to 1)
//! (with `WEIGHT=w` in the environment: weighted A* with that weight instead of ALGO).

use puzzle_engine::Budget;
use puzzle_sokoban::{parse_xsb, replay, solve, Algorithm};
use std::time::Duration;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 4 {
        eprintln!("usage: solve_set FILE ALGO SECS [FIRST_N]");
        std::process::exit(2);
    }
    let text = std::fs::read_to_string(&args[1]).expect("readable file");
    let levels = parse_xsb(&text).unwrap_or_else(|e| panic!("{}: {e}", args[1]));
    let algo = Algorithm::from_name(&args[2]).expect("algorithm name");
    let secs: f64 = args[3].parse().expect("seconds");
    let first: usize = args
        .get(4)
        .map_or(levels.len(), |s| s.parse().expect("count"));
    let from: usize = args.get(5).map_or(1, |s| s.parse().expect("level number"));
    let mut solved = 0;
    let mut times = Vec::new();
    for (i, level) in levels
        .iter()
        .enumerate()
        .skip(from.saturating_sub(1))
        .take(first)
    {
        let budget = Budget::time(Duration::from_secs_f64(secs)).with_max_nodes(4_000_000);
        let s = match std::env::var("WEIGHT")
            .ok()
            .and_then(|w| w.parse::<u32>().ok())
        {
            Some(w) => {
                let board = puzzle_sokoban::Board::new(level).expect("board");
                let o = puzzle_sokoban::solver::best_first(
                    &board,
                    puzzle_sokoban::solver::Order::Weighted(w),
                    &budget,
                );
                let lurd = o
                    .pushes
                    .as_ref()
                    .and_then(|p| puzzle_sokoban::position::pushes_to_lurd(&board, p));
                puzzle_sokoban::Solution {
                    pushes: o.pushes,
                    lurd,
                    nodes: o.nodes,
                    expanded: o.expanded,
                    stop: o.stop,
                    elapsed: std::time::Duration::ZERO,
                }
            }
            None => solve(level, algo, &budget).expect("board"),
        };
        let ok = s
            .lurd
            .as_ref()
            .is_some_and(|l| replay(level, l).is_ok_and(|r| r.solved));
        solved += usize::from(ok);
        times.push(s.elapsed.as_secs_f64());
        println!(
            "{:4} {:5} pushes {:5} nodes {:9} {:8.3}s {:?}",
            i + 1,
            ok,
            s.pushes.as_ref().map_or(0, |p| p.len()),
            s.nodes,
            s.elapsed.as_secs_f64(),
            s.stop
        );
    }
    times.sort_by(f64::total_cmp);
    let total: f64 = times.iter().sum();
    println!(
        "solved {solved}/{} total {total:.2}s median {:.3}s",
        times.len(),
        times.get(times.len() / 2).copied().unwrap_or(0.0)
    );
}
