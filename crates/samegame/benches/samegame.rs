//! SameGame benchmarks (divan) on standard board 1 (15×15, 5 colours): move generation with
//! NRPA's group codes, plain and selective (the selective policy of Cazenave 2016,
//! `docs/METHODS.md#nrpa-selective`),
//! and NRPA level 2 with the selective policy, counted in playouts. Run with
//! `cargo bench -p puzzle-samegame`.

use divan::counter::ItemsCount;
use divan::Bencher;
use puzzle_engine::{nrpa, Budget, Game};
use puzzle_samegame::selective::Selective;
use puzzle_samegame::{format, Board, Scoring};

fn main() {
    divan::main();
}

/// Standard board 1, as bundled.
fn board_1() -> Board {
    let text = include_str!("../../../data/samegame/standard20/problem01.txt");
    format::parse_standard(text, "problem01.txt", Scoring::standard()).expect("bundled board")
}

/// The positions of one random game from board 1 (the moves a playout meets).
fn positions() -> Vec<Board> {
    let mut board = board_1();
    let mut rng = puzzle_engine::Rng::new(1);
    let mut moves = Vec::new();
    let mut out = Vec::new();
    while !board.is_terminal() {
        out.push(board.clone());
        board.legal_actions(&mut moves);
        board.apply(moves[rng.below(moves.len())]);
    }
    out
}

/// Legal moves and their codes at every position of one game (counter: positions).
#[divan::bench(args = ["plain", "selective"], sample_count = 20)]
fn coded_moves(bencher: Bencher, kind: &str) {
    let boards = positions();
    let games: Vec<Selective> = boards.iter().cloned().map(Selective::new).collect();
    let (mut actions, mut codes) = (Vec::new(), Vec::new());
    bencher
        .counter(ItemsCount::new(boards.len()))
        .bench_local(|| {
            let mut total = 0;
            if kind == "plain" {
                for b in &boards {
                    b.legal_actions_coded(&mut actions, &mut codes);
                    total += codes.len();
                }
            } else {
                for g in &games {
                    g.legal_actions_coded(&mut actions, &mut codes);
                    total += codes.len();
                }
            }
            total
        });
}

/// NRPA level 2 (20 iterations per level: 400 playouts) with the selective policy; the
/// counter makes divan report playouts per second.
#[divan::bench(sample_count = 10)]
fn nrpa_selective_level_2(bencher: Bencher) {
    let game = Selective::new(board_1());
    let cfg = nrpa::NrpaConfig {
        level: 2,
        iterations: 20,
        seed: 1,
        ..Default::default()
    };
    bencher
        .counter(ItemsCount::new(400usize))
        .bench(|| nrpa::search(&game, &cfg, &Budget::iterations(400)).best_score);
}
