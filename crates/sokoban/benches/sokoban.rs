//! Sokoban benchmarks (divan): FESS (Shoham & Schaeffer 2020; `docs/METHODS.md#sokoban-fess`)
//! adding 500 positions on XSokoban screen 11, and the macro moves of every box of screen 11's
//! start position (§III-D). Run with `cargo bench -p puzzle-sokoban`.

use divan::counter::ItemsCount;
use divan::Bencher;
use puzzle_engine::Budget;
use puzzle_sokoban::fess::fess;
use puzzle_sokoban::fess::macros::MacroGen;
use puzzle_sokoban::position::{Position, Reach};
use puzzle_sokoban::{parse_xsb, Board};

fn main() {
    divan::main();
}

fn screen(n: usize) -> Board {
    let text = include_str!("../../../data/sokoban/XSokoban_90.xsb");
    let levels = parse_xsb(text).expect("xsokoban");
    Board::new(&levels[n - 1]).expect("board")
}

/// Positions FESS adds per second.
#[divan::bench]
fn fess_500_positions(bencher: Bencher) {
    let board = screen(11);
    bencher
        .counter(ItemsCount::new(500usize))
        .bench(|| fess(&board, &Budget::iterations(500)).expanded);
}

/// The macro moves of every box of a start position.
#[divan::bench]
fn macro_moves_of_a_position(bencher: Bencher) {
    let board = screen(11);
    let start = Position::start(&board);
    let mut reach = Reach::new(board.cells());
    reach.compute(&board, &start.boxes, start.player);
    let mut gen = MacroGen::new(&board);
    let mut boxes = start.boxes.clone();
    let mut moves = Vec::new();
    bencher.bench_local(|| {
        moves.clear();
        for b in start.boxes.iter() {
            gen.moves_of_box(&board, &mut boxes, &reach, b, |_| true, &mut moves);
        }
        moves.len()
    });
}
