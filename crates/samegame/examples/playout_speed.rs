//! Playouts per second on board 1 of the standard set (random and tabu policies).
//! `cargo run --release -p puzzle-samegame --example playout_speed`

use puzzle_engine::Rng;
use puzzle_samegame::playout::{AnyChooser, Playout};
use puzzle_samegame::{format, Scoring};
use std::time::Instant;

fn main() {
    let text = include_str!("../../../data/samegame/standard20/problem01.txt");
    let board = format::parse_standard(text, "problem01.txt", Scoring::standard()).unwrap();
    for name in [
        "random",
        "tabu",
        "tabu-colour",
        "pseudo-tabu",
        "double-tabu",
        "roulette",
    ] {
        let chooser: AnyChooser = name.parse().unwrap();
        let mut policy = Playout::new(chooser);
        let mut rng = Rng::new(1);
        let mut state = board.clone();
        let start = Instant::now();
        let (mut n, mut moves, mut total) = (0u64, 0u64, 0i64);
        while start.elapsed().as_secs_f64() < 2.0 {
            for _ in 0..100 {
                state.clone_from(&board);
                moves += policy.run(&mut state, &mut rng) as u64;
                total += state.final_score();
                n += 1;
            }
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{name:12} {:>9.0} playouts/s  {:.1} moves/playout  mean score {:.0}",
            n as f64 / secs,
            moves as f64 / n as f64,
            total as f64 / n as f64
        );
    }
}
