//! Generation benchmarks (divan): whole MCTS runs of 20,000 iterations on 5×5 (final
//! configuration with and without bootstrapping, and the allocating playouts of Table 3.5), and
//! bare random playouts from the root. Run with `cargo bench -p puzzle-sokogen`.

use divan::counter::ItemsCount;
use divan::Bencher;
use puzzle_engine::{Budget, Game, Rng};
use puzzle_sokogen::{generate, GenConfig, GenParams, GenState, Rules};

fn main() {
    divan::main();
}

const ITERATIONS: u64 = 20_000;

fn run(config: GenConfig) -> f64 {
    let params = GenParams {
        width: 5,
        height: 5,
        start: Some((2, 2)),
        config,
        budget: Budget::iterations(ITERATIONS),
        seed: 1,
        ..GenParams::default()
    };
    generate(&params, &mut |_| Ok(()))
        .expect("generation")
        .best_score
}

#[divan::bench(sample_count = 10)]
fn mcts_5x5_final(b: Bencher) {
    b.counter(ItemsCount::new(ITERATIONS))
        .bench(|| run(GenConfig::default()));
}

#[divan::bench(sample_count = 10)]
fn mcts_5x5_no_bootstrap(b: Bencher) {
    b.counter(ItemsCount::new(ITERATIONS)).bench(|| {
        run(GenConfig {
            bootstrap: None,
            ..GenConfig::default()
        })
    });
}

#[divan::bench(sample_count = 10)]
fn mcts_5x5_allocating_playouts(b: Bencher) {
    b.counter(ItemsCount::new(ITERATIONS)).bench(|| {
        run(GenConfig {
            bootstrap: None,
            allocation_free: false,
            ..GenConfig::default()
        })
    });
}

#[divan::bench(sample_count = 10)]
fn random_playouts_5x5(b: Bencher) {
    let root = GenState::<1, 48>::new(5, 5, (2, 2), Rules::default()).unwrap();
    b.counter(ItemsCount::new(10_000u64)).bench(|| {
        let mut rng = Rng::new(3);
        let mut total = 0.0;
        let mut state = root;
        for _ in 0..10_000 {
            state.clone_from(&root);
            while let Some(a) = state.random_action(&mut rng) {
                state.apply(a);
            }
            total += state.score();
        }
        total
    });
}

/// The room of a generated 8×8 level with four boxes (its farthest start needs 67 pushes):
/// `#` wall, `.` goal.
const ROOM_8X8: [&str; 8] = [
    ".  . ###", ".     . ", "  ##   #", "## # ## ", "#       ", "        ", "   ## # ", "     #  ",
];

/// One exhaustive backward search of [`ROOM_8X8`] (counter: positions met).
#[divan::bench(sample_count = 20)]
fn backward_search_8x8_4_boxes(b: Bencher) {
    use puzzle_engine::bits::Bits;
    use puzzle_sokogen::backward::BackwardSearch;
    use puzzle_sokogen::geometry::Geometry;
    let geo = Geometry::<2>::new(8, 8).expect("8×8 fits two words");
    let (mut floor, mut goals) = (Bits::EMPTY, Bits::EMPTY);
    for (y, row) in ROOM_8X8.iter().enumerate() {
        for (x, ch) in row.chars().enumerate() {
            if ch != '#' {
                floor.set(geo.cell(x, y));
            }
            if ch == '.' {
                goals.set(geo.cell(x, y));
            }
        }
    }
    let mut search = BackwardSearch::new();
    let positions = search.run(&geo, floor, goals, usize::MAX).positions;
    b.counter(ItemsCount::new(positions))
        .bench_local(|| search.run(&geo, floor, goals, usize::MAX).max_pushes);
}
