//! Quick throughput check of the exact solver: `cargo run --release --example sudoku_speed -- FILE...`
//! (`LIMIT=1` stops at the first solution; default 2, the uniqueness check).
use puzzle_sudoku::fast9::solve9;
use std::time::Instant;

fn main() {
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).expect("readable file");
        let puzzles: Vec<[u8; 81]> = puzzle_sudoku::parse_puzzles(&text)
            .expect("valid puzzles")
            .iter()
            .map(|p| p.grid.cells().try_into().expect("9×9"))
            .collect();
        let limit: usize = std::env::var("LIMIT")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(2);
        let start = Instant::now();
        let mut guesses = 0;
        for p in &puzzles {
            let o = solve9(p, limit, u64::MAX);
            assert_eq!(o.solutions, 1);
            guesses += o.guesses;
        }
        let t = start.elapsed().as_secs_f64();
        println!(
            "{path}: {} puzzles, {:.0} puzzles/s, {:.1} guesses/puzzle",
            puzzles.len(),
            puzzles.len() as f64 / t,
            guesses as f64 / puzzles.len() as f64
        );
    }
}
