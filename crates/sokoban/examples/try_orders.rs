//! Run one level with several search orders and options, each for the same time, to compare
//! them (a development tool).
//! `cargo run --release -p puzzle-sokoban --example try_orders -- FILE FROM-TO SECS [RUN...]`
//! (RUN: greedy-macros, greedy, wa2, wa5, wa10, astar; default all)

use puzzle_engine::Budget;
use puzzle_sokoban::level::parse_xsb;
use puzzle_sokoban::solver::{best_first_opts, Order, SearchOptions};
use puzzle_sokoban::Board;
use std::time::{Duration, Instant};

fn with_conn(opts: SearchOptions, connectivity: u32) -> SearchOptions {
    SearchOptions {
        connectivity,
        ..opts
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).expect("readable file");
    let (from, to) = match args[2].split_once('-') {
        Some((a, b)) => (a.parse().expect("from"), b.parse().expect("to")),
        None => {
            let n: usize = args[2].parse().expect("level number");
            (n, n)
        }
    };
    let secs: f64 = args[3].parse().expect("seconds");
    let wanted: Vec<&str> = args[4..].iter().map(String::as_str).collect();
    let levels = parse_xsb(&text).expect("valid levels");
    let no_macros = SearchOptions::NO_MACROS;
    let runs = [
        ("greedy-macros", Order::Greedy, SearchOptions::MACROS),
        ("greedy", Order::Greedy, no_macros),
        ("wa2", Order::Weighted(2), no_macros),
        ("wa5", Order::Weighted(5), no_macros),
        ("wa10", Order::Weighted(10), no_macros),
        ("astar", Order::AStar, no_macros),
        (
            "greedy-macros-c1",
            Order::Greedy,
            with_conn(SearchOptions::MACROS, 1),
        ),
        (
            "greedy-macros-c2",
            Order::Greedy,
            with_conn(SearchOptions::MACROS, 2),
        ),
        (
            "greedy-macros-c4",
            Order::Greedy,
            with_conn(SearchOptions::MACROS, 4),
        ),
        (
            "greedy-macros-c8",
            Order::Greedy,
            with_conn(SearchOptions::MACROS, 8),
        ),
        (
            "greedy-macros-c16",
            Order::Greedy,
            with_conn(SearchOptions::MACROS, 16),
        ),
        ("greedy-c2", Order::Greedy, with_conn(no_macros, 2)),
        ("greedy-c4", Order::Greedy, with_conn(no_macros, 4)),
        ("wa2-c4", Order::Weighted(2), with_conn(no_macros, 4)),
        ("wa5-c2", Order::Weighted(5), with_conn(no_macros, 2)),
    ];
    // Also `gm-cX-pY`: greedy with macros, connectivity weight X, packing weight Y
    // (`g-cX-pY` without macros).
    let mut custom = Vec::new();
    for w in &wanted {
        let Some((kind, rest)) = w.split_once("-c") else {
            continue;
        };
        let Some((c, p)) = rest.split_once("-p") else {
            continue;
        };
        let base = match kind {
            "gm" => SearchOptions::MACROS,
            "g" => no_macros,
            _ => continue,
        };
        let opts = SearchOptions {
            connectivity: c.parse().expect("connectivity weight"),
            packing: p.parse().expect("packing weight"),
            ..base
        };
        custom.push((*w, Order::Greedy, opts));
    }
    let runs: Vec<(&str, Order, SearchOptions)> = runs.iter().copied().chain(custom).collect();
    for n in from..=to {
        let board = Board::new(&levels[n - 1]).expect("a board");
        for &(name, order, opts) in &runs {
            if !wanted.is_empty() && !wanted.contains(&name) {
                continue;
            }
            let start = Instant::now();
            let budget = Budget::time(Duration::from_secs_f64(secs)).with_max_nodes(8_000_000);
            let o = best_first_opts(&board, order, opts, &budget);
            println!(
                "{n:>3} {name:<14} {:?} pushes {:?} nodes {} expanded {} in {:.2} s",
                o.stop,
                o.pushes.map(|p| p.len()),
                o.nodes,
                o.expanded,
                start.elapsed().as_secs_f64()
            );
        }
    }
}
