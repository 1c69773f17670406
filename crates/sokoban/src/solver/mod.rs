//! Push-level solvers (issue item 4, SPEC §F "Classic solvers"): BFS, A*, weighted A*,
//! greedy best-first and IDA* over pushes, with the dead-square table, freeze and closed-diagonal deadlocks, the
//! Hungarian matching lower bound and a transposition table; and the genetic solver
//! ([`crate::genetic`]). Every solver respects a [`Budget`] (time, expansions as iterations,
//! stored positions as nodes, the stop flag) and reports how far it got.

mod bestfirst;
mod idastar;
mod store;

use crate::board::{Board, BoardError};
use crate::level::Level;
use crate::position::{pushes_to_lurd, Push};
use puzzle_engine::{Budget, Deadline, StopReason};
use std::time::Duration;

pub use bestfirst::{best_first, best_first_opts, best_first_with, Order, SearchOptions};
pub use idastar::idastar;

/// Which solver to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// A* over pushes with the matching lower bound: push-optimal.
    AStar,
    /// IDA* over pushes with the matching lower bound and a transposition table: push-optimal,
    /// little memory.
    IdaStar,
    /// Breadth-first search over pushes: push-optimal, for small levels.
    Bfs,
    /// The any-solution mode: a portfolio of best-first searches sharing the budget in turn
    /// (see [`any_solution`]): greedy on the bound plus packing order, then weighted A*
    /// (w = 2), then A*. Fast, not push-optimal.
    Greedy,
    /// The genetic "reactive string" solver of the paper (SPEC §F).
    Genetic,
}

impl Algorithm {
    /// Parse a CLI name: `astar`, `idastar`, `bfs`, `greedy`, `ga`.
    pub fn from_name(name: &str) -> Option<Algorithm> {
        Some(match name {
            "astar" => Algorithm::AStar,
            "idastar" => Algorithm::IdaStar,
            "bfs" => Algorithm::Bfs,
            "greedy" => Algorithm::Greedy,
            "ga" => Algorithm::Genetic,
            _ => return None,
        })
    }

    /// The CLI name.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::AStar => "astar",
            Algorithm::IdaStar => "idastar",
            Algorithm::Bfs => "bfs",
            Algorithm::Greedy => "greedy",
            Algorithm::Genetic => "ga",
        }
    }
}

/// What a solver found.
#[derive(Clone, Debug)]
pub struct Solution {
    /// The pushes from the start (`None` if no solution was found).
    pub pushes: Option<Vec<Push>>,
    /// The solution as LURD with shortest player walks between pushes.
    pub lurd: Option<String>,
    /// Positions generated (stored or visited).
    pub nodes: u64,
    /// Positions expanded.
    pub expanded: u64,
    /// Why the search ended (`Solved`, `Exhausted` = proved unsolvable, or a budget).
    pub stop: StopReason,
    /// Wall time.
    pub elapsed: Duration,
}

/// The raw outcome of a push search.
#[derive(Clone, Debug)]
pub struct SearchOutcome {
    /// The pushes of the solution, if found.
    pub pushes: Option<Vec<Push>>,
    /// Positions generated.
    pub nodes: u64,
    /// Positions expanded.
    pub expanded: u64,
    /// Why it ended.
    pub stop: StopReason,
}

/// Poll the budget: returns the reason to stop, if any. `expanded` counts iterations.
pub(crate) fn budget_exceeded(
    budget: &Budget,
    deadline: &Deadline,
    expanded: u64,
) -> Option<StopReason> {
    if budget.max_iterations.is_some_and(|m| expanded >= m) {
        return Some(StopReason::Iterations);
    }
    if expanded & 127 == 0 {
        if deadline.stopped() {
            return Some(StopReason::Interrupted);
        }
        if deadline.expired() {
            return Some(StopReason::Time);
        }
    }
    None
}

/// The any-solution portfolio, the phases given half, a quarter and a quarter of the time
/// (and of the iterations; a phase that stops early leaves its share to the next): greedy
/// best-first (bound + packing-order penalty) with goal macros, the goal cut and corral
/// deadlocks; then weighted A* (w = 2) and A* without macros (corral deadlocks kept).
/// Most levels fall to the first phase in milliseconds; a level whose goal-room plan does not
/// fit (the macro phase exhausts its pruned space) or where greedy search drowns often falls to
/// the broader searches. Stops early when a phase without macros proves the level unsolvable.
pub fn any_solution(board: &Board, budget: &Budget) -> SearchOutcome {
    let macros = SearchOptions::MACROS;
    let no_macros = SearchOptions::NO_MACROS;
    run_phases(
        board,
        budget,
        &[
            (Order::Greedy, macros, 50),
            (Order::Weighted(2), no_macros, 50),
            (Order::AStar, no_macros, 100),
        ],
    )
}

/// Best-first searches one after another, each given `share` per cent of the time (and of
/// the iterations) left when it starts, until one finds a solution, one without macros proves
/// the level unsolvable, or the stop flag is set. Nodes and expansions are summed; the stop
/// reason is the last search's.
fn run_phases(
    board: &Board,
    budget: &Budget,
    phases: &[(Order, SearchOptions, u32)],
) -> SearchOutcome {
    let deadline = budget.start();
    let mut total = SearchOutcome {
        pushes: None,
        nodes: 0,
        expanded: 0,
        stop: StopReason::Exhausted,
    };
    for &(order, opts, share) in phases {
        let mut phase = budget.clone();
        if let Some(t) = budget.max_time {
            let remaining = t.saturating_sub(deadline.elapsed());
            phase.max_time = Some(remaining * share / 100);
        }
        if let Some(n) = budget.max_iterations {
            let remaining = n.saturating_sub(total.expanded);
            phase.max_iterations = Some(remaining * u64::from(share) / 100);
        }
        let outcome = best_first_opts(board, order, opts, &phase);
        total.nodes += outcome.nodes;
        total.expanded += outcome.expanded;
        total.stop = outcome.stop;
        // A search with macros prunes pushes: its exhaustion proves nothing.
        let proved =
            outcome.stop == StopReason::Exhausted && !opts.goal_macros && !opts.tunnel_macros;
        if outcome.pushes.is_some() || proved {
            total.pushes = outcome.pushes;
            return total;
        }
        if matches!(outcome.stop, StopReason::Interrupted) {
            return total;
        }
    }
    total
}

/// The any-solution portfolio on `threads` threads. One thread runs [`any_solution`]; with two
/// or more, a second runs a short A* and then weighted A* with w = 5, both without macros
/// (corral deadlocks kept; see `second_thread`), at the same time. It is for levels where
/// greedy search drowns and the sequential portfolio reaches the right search too late or never
/// (Microban 146: A* 0.09 s, reached after 7.5 s; Microban 93: greedy, w = 2 and A* fail in
/// 15 s, w = 5 takes 7.5 s).
/// The first solution stops the other search; the node budget is split between the two, so
/// memory stays within [`Budget::max_nodes`]; time and iteration limits apply to each search.
/// Which search wins can depend on timing, so with two threads the reported pushes and node
/// counts may differ from run to run (every solution is still verified by replay). More than
/// two threads are used as two.
pub fn any_solution_threads(board: &Board, budget: &Budget, threads: usize) -> SearchOutcome {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    if threads < 2 {
        return any_solution(board, budget);
    }
    let found = Arc::new(AtomicBool::new(false));
    let finished = AtomicBool::new(false);
    let mut shared = budget.clone();
    shared.stop = Some(found.clone());
    shared.max_nodes = (budget.max_nodes / 2).max(1);
    // Both searches poll `found`; the watcher passes an outside stop (Ctrl-C) on to it.
    let outer = budget.stop.clone();
    let (a, b) = std::thread::scope(|scope| {
        let watcher = scope.spawn(|| {
            while !finished.load(Ordering::Relaxed) {
                if outer.as_ref().is_some_and(|f| f.load(Ordering::Relaxed)) {
                    found.store(true, Ordering::Relaxed);
                    return;
                }
                std::thread::park_timeout(Duration::from_millis(5));
            }
        });
        let run = |which: usize| {
            let out = if which == 0 {
                any_solution(board, &shared)
            } else {
                second_thread(board, &shared)
            };
            // Both end `Exhausted` only on a proof (the portfolio's last phase has no macros).
            if out.pushes.is_some() || out.stop == StopReason::Exhausted {
                found.store(true, Ordering::Relaxed);
            }
            out
        };
        let second = scope.spawn(move || run(1));
        let a = run(0);
        let b = second.join().expect("the second search does not panic");
        finished.store(true, Ordering::Relaxed);
        watcher.thread().unpark();
        watcher.join().expect("the watcher does not panic");
        (a, b)
    });
    // The portfolio's own result, unless only the second thread found (or proved) the answer.
    // Only those and Ctrl-C set `found`, so a search that found nothing after the other
    // found nothing either ended for its own reasons (budget) or was interrupted.
    let decided = |o: &SearchOutcome| o.pushes.is_some() || o.stop == StopReason::Exhausted;
    let (nodes, expanded) = (a.nodes + b.nodes, a.expanded + b.expanded);
    let mut best = if a.pushes.is_none() && !decided(&a) && decided(&b) {
        b
    } else {
        a
    };
    best.nodes = nodes;
    best.expanded = expanded;
    best
}

/// The second thread of [`any_solution_threads`]: A* without macros for a twentieth of the
/// budget (it solves small levels with short solutions at once, e.g. Microban 146: 14 pushes,
/// 0.09 s, where greedy search drowns and the sequential portfolio reaches A* only after
/// 7.5 s), then weighted A* with w = 5 for the rest.
fn second_thread(board: &Board, budget: &Budget) -> SearchOutcome {
    let no_macros = SearchOptions::NO_MACROS;
    run_phases(
        board,
        budget,
        &[
            (Order::AStar, no_macros, 5),
            (Order::Weighted(5), no_macros, 100),
        ],
    )
}

/// Solve `level` with a classic push search (`Genetic` uses [`crate::genetic`] with its
/// default configuration and seed 1).
pub fn solve(level: &Level, algorithm: Algorithm, budget: &Budget) -> Result<Solution, BoardError> {
    solve_threads(level, algorithm, budget, 1)
}

/// [`solve`] on up to `threads` threads: the any-solution mode runs
/// [`any_solution_threads`]; the other solvers are single-threaded.
pub fn solve_threads(
    level: &Level,
    algorithm: Algorithm,
    budget: &Budget,
    threads: usize,
) -> Result<Solution, BoardError> {
    let board = Board::new(level)?;
    let deadline = budget.start();
    let outcome = match algorithm {
        Algorithm::AStar => best_first(&board, Order::AStar, budget),
        Algorithm::Bfs => best_first(&board, Order::Bfs, budget),
        Algorithm::Greedy => any_solution_threads(&board, budget, threads),
        Algorithm::IdaStar => idastar(&board, budget),
        Algorithm::Genetic => {
            let config = crate::genetic::GaConfig::default();
            crate::genetic::solve_ga(&board, &config, budget, 1)
        }
    };
    let lurd = outcome
        .pushes
        .as_ref()
        .and_then(|p| pushes_to_lurd(&board, p));
    Ok(Solution {
        pushes: outcome.pushes,
        lurd,
        nodes: outcome.nodes,
        expanded: outcome.expanded,
        stop: outcome.stop,
        elapsed: deadline.elapsed(),
    })
}
