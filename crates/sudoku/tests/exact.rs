//! The exact solver on the bundled puzzle sets: every solution verified, uniqueness decided,
//! and the fast 9×9 solver cross-checked against the generic one.

use puzzle_sudoku::solver::solve_generic;
use puzzle_sudoku::{parse_puzzles, solve_exact, ExactLimits, Grid};

fn data(name: &str) -> Vec<Grid> {
    let path = format!("{}/../../data/sudoku/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    parse_puzzles(&text)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .into_iter()
        .map(|p| p.grid)
        .collect()
}

#[test]
fn norvig_hardest_all_unique_and_verified() {
    let puzzles = data("norvig_hardest11.txt");
    assert_eq!(puzzles.len(), 11);
    for (i, p) in puzzles.iter().enumerate() {
        let o = solve_exact(p, ExactLimits::default());
        assert!(o.is_unique(), "puzzle {}: {o:?}", i + 1);
        assert!(o.solution.as_ref().unwrap().solves(p), "puzzle {}", i + 1);
    }
}

#[test]
fn serg_puzzles_have_several_solutions() {
    let puzzles = data("serg_multisolution_1000.txt");
    assert_eq!(puzzles.len(), 1000);
    for (i, p) in puzzles.iter().enumerate() {
        let o = solve_exact(p, ExactLimits::default());
        assert_eq!(o.solutions, 2, "puzzle {} should have ≥ 2 solutions", i + 1);
        assert!(o.solution.as_ref().unwrap().solves(p));
    }
    // The generic solver agrees on a sample.
    for p in puzzles.iter().step_by(50) {
        assert_eq!(solve_generic(p, ExactLimits::default()).solutions, 2);
    }
}

#[test]
fn unsolvable_puzzles_have_no_solution() {
    // Put a wrong (but not directly conflicting) value into an empty cell of unique puzzles.
    let mut checked = 0;
    for p in data("magictour_top95.txt").iter().take(30) {
        let solution = solve_exact(p, ExactLimits::default()).solution.unwrap();
        let board = puzzle_sudoku::Board::new(p).unwrap();
        let Some((cell, cands)) = (0..81)
            .filter(|&c| p.get(c) == 0)
            .map(|c| (c, board.candidates(c) & !(1 << (solution.get(c) - 1))))
            .find(|&(_, m)| m != 0)
        else {
            continue;
        };
        let mut bad = p.clone();
        bad.set(cell, cands.trailing_zeros() as u8 + 1);
        assert!(bad.first_conflict().is_none());
        assert_eq!(
            solve_exact(&bad, ExactLimits::default()).solutions,
            0,
            "{bad}"
        );
        assert_eq!(solve_generic(&bad, ExactLimits::default()).solutions, 0);
        checked += 1;
    }
    assert!(checked >= 25);
}

#[test]
fn fast_and_generic_solvers_agree() {
    for name in ["magictour_top95.txt", "forum_hardest_1106.txt"] {
        for p in data(name).iter().step_by(7) {
            let fast = solve_exact(p, ExactLimits::default());
            let slow = solve_generic(p, ExactLimits::default());
            assert_eq!(fast.solutions, 1, "{p}");
            assert_eq!(slow.solutions, 1, "{p}");
            assert_eq!(fast.solution, slow.solution);
        }
    }
}

#[test]
fn every_set_is_solved_uniquely() {
    for name in [
        "magictour_top95.txt",
        "magictour_top1465.txt",
        "forum_hardest_1106.txt",
        "royle17_sample_9831.txt",
    ] {
        for (i, p) in data(name).iter().enumerate() {
            let o = solve_exact(p, ExactLimits::default());
            assert!(o.is_unique(), "{name} #{}: {o:?}", i + 1);
            assert!(o.solution.as_ref().unwrap().solves(p), "{name} #{}", i + 1);
        }
    }
}
