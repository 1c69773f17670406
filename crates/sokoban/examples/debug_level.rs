//! Solve one level (a file with one XSB level) with the any-solution portfolio and report.
//! `cargo run --release -p puzzle-sokoban --example debug_level -- FILE SECS`

use puzzle_engine::Budget;
use puzzle_sokoban::solver::any_solution;
use puzzle_sokoban::{Board, Level};
use std::time::{Duration, Instant};

fn main() {
    let path = std::env::args().nth(1).expect("a level file");
    let secs: f64 = std::env::args()
        .nth(2)
        .map_or(10.0, |s| s.parse().expect("seconds"));
    let text = std::fs::read_to_string(path).expect("readable file");
    let level = Level::parse_one(&text).expect("one valid level");
    let board = Board::new(&level).expect("a board");
    let start = Instant::now();
    let budget = Budget::time(Duration::from_secs_f64(secs)).with_max_nodes(4_000_000);
    let o = any_solution(&board, &budget);
    println!(
        "{:?} pushes {:?} nodes {} in {:.2} s",
        o.stop,
        o.pushes.map(|p| p.len()),
        o.nodes,
        start.elapsed().as_secs_f64()
    );
}
