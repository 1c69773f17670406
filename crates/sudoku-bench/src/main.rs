//! `sudoku-compare FILE...`: puzzles per second of puzzle-sudoku's exact solver and of the AGPL
//! `sudoku` crate (Emerentius), measured side by side in one process on the same puzzles.
//!
//! This crate exists only for the comparison: it is not a default workspace member and nothing
//! in the product depends on it. Each file is timed in `--rounds` alternating passes (ours,
//! theirs, ours, ...) and the best pass of each is reported, for "first solution" and for
//! "unique" (search for a second solution) modes (`--mode first|unique|both`). `--only
//! ours|theirs` runs one side alone, for profiling it (e.g. under valgrind); `--only none` runs
//! neither, to measure the harness's own cost (parsing) and subtract it. Times are the thread's
//! on-CPU time (`/proc/thread-self/schedstat`), which keeps the comparison fair on a machine
//! shared with other jobs. That clock advances in scheduler ticks (4 ms here), so each timed pass
//! solves the file's puzzles `reps` times over, with `reps` chosen so that one pass of ours lasts
//! at least `--min-seconds` (default 0.25 s; calibrated on one untimed pass, the same `reps` for
//! both solvers).

use std::time::Instant;

/// Seconds this thread has spent on a CPU (from `/proc/thread-self/schedstat`, nanoseconds),
/// so that time spent waiting for a core on a shared machine is not counted; wall time where
/// that file does not exist.
fn cpu_seconds(start: Instant) -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .map_or_else(|| start.elapsed().as_secs_f64(), |ns| ns as f64 * 1e-9)
}

fn best_of<F: FnMut() -> usize>(rounds: usize, mut pass: F) -> (f64, usize) {
    let mut best = f64::INFINITY;
    let mut solved = 0;
    let origin = Instant::now();
    for _ in 0..rounds {
        let start = cpu_seconds(origin);
        solved = pass();
        best = best.min(cpu_seconds(origin) - start);
    }
    (best, solved)
}

fn main() {
    let mut rounds = 5usize;
    let mut min_seconds = 0.25f64;
    let mut only: Option<String> = None;
    let mut modes: Vec<(&str, usize)> = vec![("first", 1), ("unique", 2)];
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--rounds" {
            rounds = args
                .next()
                .and_then(|v| v.parse().ok())
                .filter(|&r| r > 0)
                .expect("--rounds takes a positive number");
        } else if a == "--min-seconds" {
            min_seconds = args
                .next()
                .and_then(|v| v.parse().ok())
                .filter(|&s: &f64| s >= 0.0)
                .expect("--min-seconds takes a number of seconds");
        } else if a == "--only" {
            only = args.next();
            assert!(
                matches!(only.as_deref(), Some("ours" | "theirs" | "none")),
                "--only takes ours, theirs or none"
            );
        } else if a == "--mode" {
            modes = match args.next().as_deref() {
                Some("first") => vec![("first", 1)],
                Some("unique") => vec![("unique", 2)],
                Some("both") => vec![("first", 1), ("unique", 2)],
                _ => panic!("--mode takes first, unique or both"),
            };
        } else {
            files.push(a);
        }
    }
    if files.is_empty() {
        eprintln!("usage: sudoku-compare [--rounds K] [--min-seconds S] [--only ours|theirs|none] [--mode first|unique|both] FILE...");
        std::process::exit(2);
    }
    println!(
        "| file | puzzles | mode | passes × reps | puzzle-sudoku (puzzles/s) | sudoku crate (puzzles/s) | ratio |"
    );
    println!("|---|---|---|---|---|---|---|");
    for path in files {
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
        let ours: Vec<[u8; 81]> = puzzle_sudoku::parse_puzzles(&text)
            .unwrap_or_else(|e| panic!("{path}: {e}"))
            .iter()
            .map(|p| p.grid.cells().try_into().expect("9×9 puzzles"))
            .collect();
        let theirs: Vec<sudoku::Sudoku> = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| sudoku::Sudoku::from_str_line(l.trim()).expect("their parser accepts it"))
            .collect();
        assert_eq!(ours.len(), theirs.len());
        for &(mode, limit) in &modes {
            let solve_ours = || {
                ours.iter()
                    .filter(|p| puzzle_sudoku::fast9::solve9(p, limit, u64::MAX).solutions >= 1)
                    .count()
            };
            // Calibration (untimed, wall clock): enough repetitions of the file for one pass
            // to outlast the on-CPU clock's tick many times over.
            // `--only` (profiling one side, e.g. under valgrind): one repetition.
            let reps = if only.is_some() || min_seconds == 0.0 {
                1
            } else {
                let start = Instant::now();
                solve_ours();
                let t = start.elapsed().as_secs_f64().max(1e-6);
                ((min_seconds / t).ceil() as usize).max(1)
            };
            let mut ours_t = (f64::INFINITY, 0);
            let mut theirs_t = (f64::INFINITY, 0);
            for _ in 0..rounds {
                if matches!(only.as_deref(), Some("theirs" | "none")) {
                    ours_t = (1.0, ours.len());
                } else {
                    let o = best_of(1, || (0..reps).map(|_| solve_ours()).sum::<usize>() / reps);
                    if o.0 < ours_t.0 {
                        ours_t = o;
                    }
                }
                if matches!(only.as_deref(), Some("ours" | "none")) {
                    theirs_t = (1.0, ours.len());
                    continue;
                }
                let t = best_of(1, || {
                    (0..reps)
                        .map(|_| {
                            theirs
                                .iter()
                                .filter(|s| {
                                    if limit == 1 {
                                        s.some_solution().is_some()
                                    } else {
                                        s.solutions_count_up_to(2) >= 1
                                    }
                                })
                                .count()
                        })
                        .sum::<usize>()
                        / reps
                });
                if t.0 < theirs_t.0 {
                    theirs_t = t;
                }
            }
            assert_eq!(ours_t.1, ours.len(), "puzzle-sudoku failed a puzzle");
            assert_eq!(theirs_t.1, ours.len(), "sudoku crate failed a puzzle");
            let n = (ours.len() * reps) as f64;
            if ours_t.0 <= 0.0 || theirs_t.0 <= 0.0 {
                eprintln!(
                    "{path} ({mode}): a pass took less than one tick of the on-CPU clock; \
                     raise --min-seconds"
                );
            }
            println!(
                "| {} | {} | {mode} | {rounds} × {reps} | {:.0} | {:.0} | {:.2} |",
                path.rsplit('/').next().unwrap_or(&path),
                ours.len(),
                n / ours_t.0,
                n / theirs_t.0,
                theirs_t.0 / ours_t.0
            );
        }
    }
}
