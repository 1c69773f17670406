//! Generation aimed at difficulty (see `docs/METHODS.md#sokogen-aimed`): the backward search's
//! push counts against forward A* on random small rooms, and aimed runs whose levels replay
//! push-optimally inside the requested band.

use proptest::prelude::*;
use puzzle_engine::bits::Bits;
use puzzle_engine::Budget;
use puzzle_sokoban::{replay, solve, Algorithm, Level};
use puzzle_sokogen::backward::BackwardSearch;
use puzzle_sokogen::geometry::Geometry;
use puzzle_sokogen::solution::{level_from_cells, lurd_of_pushes};
use puzzle_sokogen::{generate, Aim, GenParams, GeneratedLevel};

/// Forward A*'s optimal push count of `level` (it must be solvable).
fn astar_pushes(level: &Level) -> usize {
    let s = solve(
        level,
        Algorithm::AStar,
        &Budget::default().with_max_nodes(2_000_000),
    )
    .expect("a valid level");
    s.pushes.expect("solvable by construction").len()
}

/// A random connected room on a `w × h` board: cells opened from the centre outward with
/// probability `open`, and `goals` goals on its floor.
fn random_room(
    w: usize,
    h: usize,
    cells: &[bool],
    goal_picks: &[usize],
) -> Option<(Geometry<1>, Bits<1>, Bits<1>)> {
    let geo = Geometry::<1>::new(w, h)?;
    let mut floor = Bits::single(geo.cell(w / 2, h / 2));
    // Grow the floor by the drawn cells that touch it, until nothing changes.
    loop {
        let mut grown = floor;
        for y in 0..h {
            for x in 0..w {
                let c = geo.cell(x, y);
                if cells[y * w + x] && geo.neighbours(floor).has(c) {
                    grown.set(c);
                }
            }
        }
        if grown == floor {
            break;
        }
        floor = grown;
    }
    let mut goals = Bits::EMPTY;
    let mut free: Vec<usize> = floor.iter().collect();
    for &p in goal_picks {
        if free.len() <= 1 {
            return None;
        }
        goals.set(free.remove(p % free.len()));
    }
    Some((geo, floor, goals))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Every layer's push count is the optimum forward A* finds, for the farthest start and
    /// for one in the middle; the derived solution replays with exactly that many pushes.
    #[test]
    fn backward_layers_are_forward_optima(
        cells in proptest::collection::vec(proptest::bool::weighted(0.7), 30),
        goal_picks in proptest::collection::vec(0usize..100, 1..=3),
    ) {
        let Some((geo, floor, goals)) = random_room(6, 5, &cells, &goal_picks) else {
            return Ok(());
        };
        let mut search = BackwardSearch::new();
        let explored = search.run(&geo, floor, goals, 1 << 20);
        prop_assert!(explored.complete);
        let walls = geo.inside.and_not(floor);
        for pushes in [explored.max_pushes, explored.max_pushes / 2] {
            let start = search.start_at(&geo, pushes).expect("a position in every layer up to the last");
            prop_assert_eq!(start.pushes.len(), pushes as usize);
            let level = level_from_cells(&geo, walls, goals, start.boxes, start.player);
            let lurd = lurd_of_pushes(&geo, &level, &start.pushes).expect("a derivable solution");
            let r = replay(&level, &lurd).expect("a legal solution");
            prop_assert!(r.solved);
            prop_assert_eq!(r.pushes, pushes as usize);
            prop_assert_eq!(astar_pushes(&level), pushes as usize, "{}", level.to_xsb());
        }
    }
}

fn aimed_run(aim: Aim, iterations: u64, seed: u64) -> Vec<GeneratedLevel> {
    let params = GenParams {
        width: 6,
        height: 6,
        budget: Budget::iterations(iterations),
        seed,
        aim: Some(aim),
        ..GenParams::default()
    };
    let mut levels = Vec::new();
    generate(&params, &mut |l: &GeneratedLevel| {
        levels.push(l.clone());
        Ok(())
    })
    .expect("an aimed run");
    levels
}

#[test]
fn aimed_levels_are_push_optimal_with_the_requested_boxes() {
    let levels = aimed_run(
        Aim {
            boxes: 3,
            ..Aim::default()
        },
        300,
        1,
    );
    assert!(!levels.is_empty());
    for l in &levels {
        let pushes = l
            .optimal_pushes
            .expect("aimed levels carry their push count") as usize;
        assert_eq!(l.level.box_count(), 3);
        let r = replay(&l.level, &l.solution).unwrap();
        assert!(r.solved);
        assert_eq!(r.pushes, pushes);
        assert_eq!(astar_pushes(&l.level), pushes, "{}", l.xsb);
    }
}

#[test]
fn a_band_is_honoured_and_runs_repeat_by_seed() {
    let aim = Aim {
        boxes: 2,
        min_pushes: 8,
        max_pushes: Some(12),
        ..Aim::default()
    };
    let levels = aimed_run(aim, 400, 7);
    assert!(
        !levels.is_empty(),
        "rooms of 6×6 reach 8 pushes with two boxes"
    );
    for l in &levels {
        let pushes = l.optimal_pushes.unwrap();
        assert!((8..=12).contains(&pushes), "{pushes} pushes outside 8..=12");
        assert_eq!(astar_pushes(&l.level) as u32, pushes);
    }
    let again: Vec<String> = aimed_run(aim, 400, 7).into_iter().map(|l| l.xsb).collect();
    assert_eq!(levels.into_iter().map(|l| l.xsb).collect::<Vec<_>>(), again);
}

#[test]
fn an_empty_band_is_refused() {
    let params = GenParams {
        aim: Some(Aim {
            min_pushes: 10,
            max_pushes: Some(5),
            ..Aim::default()
        }),
        budget: Budget::iterations(10),
        ..GenParams::default()
    };
    let err = generate(&params, &mut |_| Ok(())).unwrap_err();
    assert!(err.to_string().contains("band"), "{err}");
}
