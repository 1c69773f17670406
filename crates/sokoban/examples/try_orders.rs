//! Run one level with several search orders and options, each for the same time, to compare
//! them (a development tool).
//! `cargo run --release -p puzzle-sokoban --example try_orders -- FILE FROM-TO SECS [RUN...]`
//! (SECS may be `iN`: N expansions instead of a time limit.)
//! (RUN: greedy-macros, greedy, wa2, wa5, wa10, astar; default all. Also, with a
//! connectivity weight X and an optional packing weight Y: `gm-cX[-pY]` greedy with macros,
//! `g-cX[-pY]` greedy without, `wN-cX` weighted A* with w = N without macros, `wmN-cX` with
//! them; a `-fK` suffix takes one expansion in K from feature-space cycling, then an `-aA`
//! suffix adds A priority points per push no advisor suggested; an `r-` prefix searches
//! backwards, pulling from the solved position, and a last `-mK` makes the search
//! bidirectional with K per cent for the helper in the other direction.)
//! A run `nN` sets the node budget to N (default 8,000,000). FROM-TO may be `all`. Each line
//! ends with the search thread's CPU seconds, which the load of a shared machine changes less
//! than wall time (`scripts/sokoban-portfolio.py` reads these lines to choose the portfolio's
//! shares).

use puzzle_engine::Budget;
use puzzle_sokoban::level::parse_xsb;
use puzzle_sokoban::position::{pushes_to_lurd, Position, Push};
use puzzle_sokoban::solver::{best_first_opts, parse_search, Order, SearchOptions};
use puzzle_sokoban::Board;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).expect("readable file");
    let levels = parse_xsb(&text).expect("valid levels");
    let (from, to) = match args[2].split_once('-') {
        Some((a, b)) => (a.parse().expect("from"), b.parse().expect("to")),
        None if args[2] == "all" => (1, levels.len()),
        None => {
            let n: usize = args[2].parse().expect("level number");
            (n, n)
        }
    };
    // `iN` instead of seconds: N expansions (for instruction counts under callgrind).
    let (secs, iterations): (f64, Option<u64>) = match args[3].strip_prefix('i') {
        Some(n) => (3600.0, Some(n.parse().expect("expansions"))),
        None => (args[3].parse().expect("seconds"), None),
    };
    // `nN` among the runs: a node budget of N (default 8,000,000).
    let node_budget = |a: &str| a.strip_prefix('n').and_then(|n| n.parse::<usize>().ok());
    let max_nodes = args[4..]
        .iter()
        .find_map(|a| node_budget(a))
        .unwrap_or(8_000_000);
    let wanted: Vec<&str> = args[4..]
        .iter()
        .map(String::as_str)
        .filter(|a| node_budget(a).is_none())
        .collect();
    let no_macros = SearchOptions::NO_MACROS;
    let named = [
        ("greedy-macros", Order::Greedy, SearchOptions::MACROS),
        ("greedy", Order::Greedy, no_macros),
        ("wa2", Order::Weighted(2), no_macros),
        ("wa5", Order::Weighted(5), no_macros),
        ("wa10", Order::Weighted(10), no_macros),
        ("astar", Order::AStar, no_macros),
    ];
    let mut runs: Vec<(&str, Order, SearchOptions)> = named
        .into_iter()
        .filter(|(name, _, _)| wanted.is_empty() || wanted.contains(name))
        .collect();
    for &w in &wanted {
        if named.iter().any(|(name, _, _)| *name == w) {
            continue;
        }
        match parse_search(w) {
            Some((order, opts)) => runs.push((w, order, opts)),
            None => panic!("unknown run {w}"),
        }
    }
    for n in from..=to {
        let board = Board::new(&levels[n - 1]).expect("a board");
        for &(name, order, opts) in &runs {
            let start = Instant::now();
            let cpu_start = thread_cpu_seconds();
            let mut budget = Budget::time(Duration::from_secs_f64(secs)).with_max_nodes(max_nodes);
            budget.max_iterations = iterations;
            let o = best_first_opts(&board, order, opts, &budget);
            // Every solution is replayed: a push that cannot be made is reported.
            let replayed = match &o.pushes {
                Some(p) if pushes_to_lurd(&board, p).is_none() || !solves(&board, p) => {
                    " (REPLAY FAILED)"
                }
                _ => "",
            };
            println!(
                "{n:>3} {name:<14} {:?}{replayed} pushes {:?} nodes {} expanded {} in {:.2} s cpu {:.3} s",
                o.stop,
                o.pushes.map(|p| p.len()),
                o.nodes,
                o.expanded,
                start.elapsed().as_secs_f64(),
                thread_cpu_seconds() - cpu_start
            );
        }
    }
}

/// Do `pushes` (each possible, as `pushes_to_lurd` checked) leave every box on a goal?
fn solves(board: &Board, pushes: &[Push]) -> bool {
    let mut pos = Position::start(board);
    for &p in pushes {
        pos.apply_push(board, p);
    }
    pos.is_solved(board)
}

/// Seconds this thread has spent on a CPU (Linux `/proc/thread-self/schedstat`; 0 elsewhere).
fn thread_cpu_seconds() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|t| t.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |ns| ns / 1e9)
}
