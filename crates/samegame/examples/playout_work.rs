//! A fixed number of playouts on standard board 1 (for instruction counts with
//! `valgrind --tool=callgrind`, which do not depend on the machine's load).
//! `cargo run --release -p puzzle-samegame --example playout_work -- tabu 2000`

use puzzle_engine::Rng;
use puzzle_samegame::playout::{AnyChooser, Playout};
use puzzle_samegame::{format, Scoring};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).map_or("tabu", String::as_str);
    let count: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(2000);
    let text = include_str!("../../../data/samegame/standard20/problem01.txt");
    let board = format::parse_standard(text, "problem01.txt", Scoring::standard()).unwrap();
    let chooser: AnyChooser = name.parse().unwrap();
    let mut policy = Playout::new(chooser);
    let mut rng = Rng::new(1);
    let mut state = board.clone();
    let (mut moves, mut total) = (0u64, 0i64);
    for _ in 0..count {
        state.clone_from(&board);
        moves += policy.run(&mut state, &mut rng) as u64;
        total += state.final_score();
    }
    println!(
        "{name}: {count} playouts, {:.1} moves/playout, mean score {:.1}",
        moves as f64 / count as f64,
        total as f64 / count as f64
    );
}
