//! Engine benchmarks (divan): MCTS iterations per selection policy on one and two threads, on
//! the toy game of `puzzle bench engine` (SumGame, pick 12 of 32 items); NMCS level 2; NRPA
//! level 2; A* on a serpentine maze. Run with `cargo bench -p puzzle-engine`.

use divan::counter::ItemsCount;
use divan::Bencher;
use puzzle_engine::classic::{astar, idastar_with_table, SearchProblem};
use puzzle_engine::mcts::{self, MctsConfig, RewardTransform, SelectionPolicy};
use puzzle_engine::toy::SumGame;
use puzzle_engine::{nmcs, nrpa, Budget, UniformRandom};

fn main() {
    divan::main();
}

/// The toy game of `puzzle bench engine`.
fn sum_game(items: i64, picks: u32) -> SumGame {
    let values: Vec<i64> = (0..items).map(|i| i * 37 % 101).collect();
    SumGame::new(&values, picks)
}

fn policy(name: &str) -> SelectionPolicy {
    match name {
        "ucb1" => SelectionPolicy::Ucb1 { c: 0.2 },
        "ucb1-tuned" => SelectionPolicy::Ucb1Tuned { c: 1.0 },
        "ucb-v" => SelectionPolicy::UcbV {
            c: 1.0,
            xi: 1.0,
            b: 1.0,
        },
        _ => SelectionPolicy::SpMcts {
            c: 0.5,
            d: 10_000.0,
            w: 0.02,
        },
    }
}

/// MCTS iterations; the counter makes divan report iterations per second.
#[divan::bench(consts = [1, 2], args = ["ucb1", "ucb1-tuned", "ucb-v", "sp-mcts"], sample_count = 10)]
fn mcts_iterations<const THREADS: usize>(bencher: Bencher, name: &str) {
    const ITERATIONS: u64 = 20_000;
    let game = sum_game(32, 12);
    let cfg = MctsConfig {
        selection: policy(name),
        reward: RewardTransform {
            offset: 0.0,
            scale: 1.0 / game.optimum() as f64,
        },
        budget: Budget::iterations(ITERATIONS),
        seed: 1,
        threads: THREADS,
        ..MctsConfig::default()
    };
    bencher
        .counter(ItemsCount::new(ITERATIONS))
        .bench(|| mcts::search(&game, &cfg, &UniformRandom::default()).best_score);
}

/// One level-2 NMCS run (counter: playouts).
#[divan::bench(sample_count = 10)]
fn nmcs_level2(bencher: Bencher) {
    let game = sum_game(20, 8);
    let cfg = nmcs::NmcsConfig {
        level: 2,
        seed: 1,
        ..Default::default()
    };
    let budget = Budget::iterations(u64::MAX);
    let playouts = nmcs::search(&game, &cfg, &UniformRandom::default(), &budget).playouts;
    bencher
        .counter(ItemsCount::new(playouts))
        .bench(|| nmcs::search(&game, &cfg, &UniformRandom::default(), &budget).best_score);
}

/// One level-2 NRPA run with 30 iterations per level (900 playouts).
#[divan::bench(sample_count = 10)]
fn nrpa_level2(bencher: Bencher) {
    let game = sum_game(32, 12);
    let cfg = nrpa::NrpaConfig {
        level: 2,
        iterations: 30,
        seed: 1,
        ..Default::default()
    };
    let budget = Budget::iterations(u64::MAX);
    bencher
        .counter(ItemsCount::new(900u64))
        .bench(|| nrpa::search(&game, &cfg, &budget).best_score);
}

/// A square maze of corridors: every fourth row is a wall with one gap, alternating ends,
/// plus scattered pillars; start top-left, goal bottom-right.
struct Serpentine {
    size: i32,
}

impl Serpentine {
    fn wall(&self, x: i32, y: i32) -> bool {
        if x < 0 || y < 0 || x >= self.size || y >= self.size {
            return true;
        }
        if y % 4 == 2 {
            let gap = if y % 8 == 2 { self.size - 1 } else { 0 };
            return x != gap;
        }
        (x * 7 + y * 13) % 11 == 0 && y % 4 == 0 && x > 0 && x < self.size - 1
    }
}

impl SearchProblem for Serpentine {
    type State = (i32, i32);
    type Action = u8;
    fn initial_state(&self) -> (i32, i32) {
        (0, 0)
    }
    fn is_goal(&self, s: &(i32, i32)) -> bool {
        *s == (self.size - 1, self.size - 1)
    }
    fn successors(&self, &(x, y): &(i32, i32), out: &mut Vec<(u8, (i32, i32), u32)>) {
        out.clear();
        for (a, dx, dy) in [(0u8, 0, -1), (1, 1, 0), (2, 0, 1), (3, -1, 0)] {
            if !self.wall(x + dx, y + dy) {
                out.push((a, (x + dx, y + dy), 1));
            }
        }
    }
    fn heuristic(&self, &(x, y): &(i32, i32)) -> u32 {
        ((self.size - 1 - x) + (self.size - 1 - y)) as u32
    }
}

/// A* on a 128×128 serpentine maze (counter: expansions).
#[divan::bench(sample_count = 10)]
fn astar_maze(bencher: Bencher) {
    let maze = Serpentine { size: 128 };
    let budget = Budget::iterations(u64::MAX);
    let expanded = astar(&maze, &budget).expanded;
    bencher
        .counter(ItemsCount::new(expanded))
        .bench(|| astar(&maze, &budget).cost);
}

/// IDA* with a transposition table on a 24×24 serpentine maze (counter: expansions).
#[divan::bench(sample_count = 10)]
fn idastar_maze(bencher: Bencher) {
    let maze = Serpentine { size: 24 };
    let budget = Budget::iterations(u64::MAX);
    let expanded = idastar_with_table(&maze, 1 << 16, &budget).expanded;
    bencher
        .counter(ItemsCount::new(expanded))
        .bench(|| idastar_with_table(&maze, 1 << 16, &budget).cost);
}
