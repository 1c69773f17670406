use puzzle_engine::Budget;
use puzzle_sokoban::solver::{best_first_with, Order};
use puzzle_sokoban::{Board, Level};
fn main() {
    let text = std::fs::read_to_string(std::env::args().nth(1).unwrap()).unwrap();
    let level = Level::parse_one(&text).unwrap();
    let board = Board::new(&level).unwrap();
    for c in [true, false] {
        let o = best_first_with(&board, Order::AStar, c, &Budget::iterations(1_000_000));
        println!("corrals {c}: {:?} {:?}", o.stop, o.pushes.map(|p| p.len()));
    }
    let dead: Vec<(usize, usize)> = (0..board.cells() as u16)
        .filter(|&c| board.is_dead(c))
        .map(|c| board.xy(c))
        .collect();
    println!("dead {dead:?}");
}
