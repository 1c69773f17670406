//! MCTS over a puzzle file: `cargo run --release --example mcts_set -- FILE [random|pseudo]
//! [restart_after] [max_sims] [uctk] [tree: random|pseudo|mrv]`.
use puzzle_sudoku::mcts::{solve_mcts, CellChoice, MctsSudokuConfig, PlayoutKind, Selection};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).expect("readable file");
    let puzzles = puzzle_sudoku::parse_puzzles(&text).expect("valid puzzles");
    let arg = |i: usize, d: &str| args.get(i).cloned().unwrap_or_else(|| d.to_string());
    let cfg = MctsSudokuConfig {
        playout: match arg(2, "random").as_str() {
            "pseudo" => PlayoutKind::PseudoRandom,
            "mrv" => PlayoutKind::MostConstrained,
            _ => PlayoutKind::Random,
        },
        restart_after: Some(arg(3, "10000").parse().unwrap()),
        max_simulations: arg(4, "1000000").parse().unwrap(),
        selection: Selection::Ucb1 {
            uctk: arg(5, "0.2").parse().unwrap(),
        },
        tree_cell: match arg(6, "random").as_str() {
            "pseudo" => CellChoice::PseudoRandom,
            "mrv" => CellChoice::MostConstrained,
            _ => CellChoice::Random,
        },
        ..MctsSudokuConfig::default()
    };
    let limit: usize = arg(7, "1000000").parse().unwrap();
    let (mut solved, mut sims, mut time) = (0, 0u64, 0.0);
    let mut n = 0;
    for p in puzzles.iter().take(limit) {
        let r = solve_mcts(&p.grid, &cfg).unwrap();
        n += 1;
        if r.solution.is_some() {
            solved += 1;
            sims += r.simulations;
        }
        time += r.elapsed.as_secs_f64();
        eprintln!(
            "#{n}: solved={} sims={} restarts={} t={:.2}",
            r.solution.is_some(),
            r.simulations,
            r.restarts,
            r.elapsed.as_secs_f64()
        );
    }
    println!(
        "{solved}/{n} solved, mean simulations (solved) {:.0}, total time {time:.1}s",
        sims as f64 / solved.max(1) as f64
    );
}
