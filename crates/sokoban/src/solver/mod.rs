//! Push-level solvers (see `docs/METHODS.md#sokoban-push-search`): BFS, A*, weighted A*, greedy
//! best-first and IDA* over pushes, with the dead-square table, freeze and closed-diagonal
//! deadlocks, the Hungarian matching lower bound and a transposition table; and the genetic solver
//! ([`crate::genetic`]). Every solver respects a [`Budget`] (time, expansions as iterations, stored
//! positions as nodes, the stop flag) and reports how far it got.

mod bestfirst;
mod direction;
mod idastar;
mod join;
mod portfolio;
mod reverse;
mod store;
pub(crate) mod turns;

use crate::board::{Board, BoardError};
use crate::fess::Fess;
use crate::level::Level;
use crate::position::{pushes_to_lurd, Push};
use puzzle_engine::{Budget, Deadline, StopReason};
use std::time::Duration;

pub use crate::outcome::SearchOutcome;
pub use bestfirst::{Order, SearchOptions};
pub use direction::{best_first, best_first_opts, best_first_with};
pub use idastar::idastar;
pub use portfolio::{parse_search, search_name, Phases, PhasesError, PortfolioConfig};
pub use reverse::reverse_best_first;

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
    /// The any-solution mode: a portfolio of best-first searches sharing the budget (see
    /// [`any_solution_threads`]): greedy searches on the bound plus packing order and
    /// connectivity, feature-space cycling, weighted A* (w = 2), A*. Fast, not push-optimal.
    Greedy,
    /// The genetic "reactive string" solver of the paper (see `docs/METHODS.md#sokoban-ga`).
    Genetic,
    /// FESS, the feature space search of Shoham & Schaeffer (IEEE CoG 2020), on macro moves
    /// with its four features and seven advisors ([`crate::fess`]). Not push-optimal.
    Fess,
    /// FESS whose advisors name distinct moves ([`crate::fess::Sharing::Distinct`]): an
    /// advisor whose best move another already named names its next best.
    FessDistinct,
}

impl Algorithm {
    /// Parse a CLI name: `astar`, `idastar`, `bfs`, `greedy`, `ga`, `fess`, `fess-distinct`.
    pub fn from_name(name: &str) -> Option<Algorithm> {
        Some(match name {
            "astar" => Algorithm::AStar,
            "idastar" => Algorithm::IdaStar,
            "bfs" => Algorithm::Bfs,
            "greedy" => Algorithm::Greedy,
            "ga" => Algorithm::Genetic,
            "fess" => Algorithm::Fess,
            "fess-distinct" => Algorithm::FessDistinct,
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
            Algorithm::Fess => "fess",
            Algorithm::FessDistinct => "fess-distinct",
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

/// Poll the budget: returns the reason to stop, if any. `expanded` counts iterations; every
/// 128 of them are reported to the budget's work counter (live progress; no result depends on
/// it).
pub(crate) fn budget_exceeded(
    budget: &Budget,
    deadline: &Deadline,
    expanded: u64,
) -> Option<StopReason> {
    if budget.max_iterations.is_some_and(|m| expanded >= m) {
        return Some(StopReason::Iterations);
    }
    if expanded & 127 == 0 {
        if expanded > 0 {
            deadline.report_iterations(128);
        }
        turns::poll();
        if deadline.stopped() {
            return Some(StopReason::Interrupted);
        }
        if deadline.expired() {
            return Some(StopReason::Time);
        }
    }
    None
}

/// Greedy best-first with all macros and `connectivity` points per extra free-cell area.
const fn greedy_macros(connectivity: u32) -> (Order, SearchOptions) {
    let mut opts = SearchOptions::MACROS;
    opts.connectivity = connectivity;
    (Order::Greedy, opts)
}

/// Greedy best-first with all macros and connectivity weight 4, with feature-space cycling on
/// one expansion in `every` ([`SearchOptions::feature_cycle`]; with 1 the connectivity weight
/// does not change the order, since all positions of a feature cell have the same number of
/// areas).
const fn greedy_cycling(every: u32) -> (Order, SearchOptions) {
    let (order, mut opts) = greedy_macros(4);
    opts.feature_cycle = every;
    (order, opts)
}

/// Weighted A* (w = `w`) without macros, with `connectivity` points per extra free-cell area
/// and feature-space cycling on one expansion in `cycle` (0 = none).
const fn weighted(w: u32, connectivity: u32, cycle: u32) -> (Order, SearchOptions) {
    weighted_from(SearchOptions::NO_MACROS, w, connectivity, cycle)
}

/// Weighted A* (w = `w`) from the options `base`, with `connectivity` and `cycle` set.
const fn weighted_from(
    mut opts: SearchOptions,
    w: u32,
    connectivity: u32,
    cycle: u32,
) -> (Order, SearchOptions) {
    opts.connectivity = connectivity;
    opts.feature_cycle = cycle;
    (Order::Weighted(w), opts)
}

/// Weighted A* (w = `w`) with all macros, `connectivity` points per extra free-cell area and
/// feature-space cycling on one expansion in `cycle` (0 = none).
const fn weighted_macros(w: u32, connectivity: u32, cycle: u32) -> (Order, SearchOptions) {
    weighted_from(SearchOptions::MACROS, w, connectivity, cycle)
}

/// `search` with FESS's move weights ([`SearchOptions::advice`]): one point per push that no
/// advisor suggested.
const fn advised(search: (Order, SearchOptions)) -> (Order, SearchOptions) {
    let (order, mut opts) = search;
    opts.advice = 1;
    (order, opts)
}

/// A* without macros (push-optimal; exhausting its space proves a level unsolvable).
const A_STAR: (Order, SearchOptions) = (Order::AStar, SearchOptions::NO_MACROS);

/// FESS over macro moves ([`crate::fess`]); the order is not used.
const FESS: (Order, SearchOptions) = (
    Order::Greedy,
    SearchOptions {
        fess: true,
        ..SearchOptions::MACROS
    },
);

/// [`FESS`] with the advisors naming distinct moves ([`crate::fess::Sharing::Distinct`]).
const FESS_DISTINCT: (Order, SearchOptions) = (
    Order::Greedy,
    SearchOptions {
        fess_distinct: true,
        ..FESS.1
    },
);

/// Greedy best-first backwards: pulls from the solved position to the start on the matching
/// bound to the start's box cells ([`reverse_best_first`]).
const REVERSE_GREEDY: (Order, SearchOptions) = (
    Order::Greedy,
    SearchOptions {
        reverse: true,
        ..SearchOptions::NO_MACROS
    },
);

/// [`REVERSE_GREEDY`] with feature-space cycling on one expansion in 8 (cells: boxes on
/// start cells, free-floor areas).
const REVERSE_CYCLING: (Order, SearchOptions) = (
    Order::Greedy,
    SearchOptions {
        feature_cycle: 8,
        ..REVERSE_GREEDY.1
    },
);

/// A search of a portfolio list: the search, its share of the budget in per cent, and an
/// optional cap on its expansions (a capped search that reaches it stops and passes the rest
/// of its share on, like one that stops early for any other reason).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Phase {
    /// The order of the best-first search.
    pub order: Order,
    /// Its settings.
    pub opts: SearchOptions,
    /// Its share of the time and iteration budget in per cent (cumulative: the phase ends
    /// when the shares so far are used).
    pub share: u32,
    /// The most positions it expands (`None`: as many as its share allows).
    pub max_expansions: Option<u64>,
}

/// `search` with `share` per cent of the budget.
const fn phase((order, opts): (Order, SearchOptions), share: u32) -> Phase {
    Phase {
        order,
        opts,
        share,
        max_expansions: None,
    }
}

/// `search` with `share` per cent of the budget and at most [`GREEDY_CAP`] expansions.
const fn capped(search: (Order, SearchOptions), share: u32) -> Phase {
    capped_at(search, share, GREEDY_CAP)
}

/// `search` with `share` per cent of the budget and at most `cap` expansions.
const fn capped_at(search: (Order, SearchOptions), share: u32, cap: u64) -> Phase {
    Phase {
        max_expansions: Some(cap),
        ..phase(search, share)
    }
}

/// The most expansions of the FESS search with distinct advice ([`FESS_DISTINCT`]) that opens
/// the second list.
const DISTINCT_CAP: u64 = 50_000;

/// The share of one core each list gets when they take turns ([`turns`]): the second list,
/// with the cycling searches, runs two slices for each of the first's (slices of time under
/// a time budget, of expansions under an iteration budget; [`turns::TurnLength`]). At half the core its
/// two searches did not both fit in 10 s (Microban 93 needs about 4.2 s of cycling greedy
/// and 153 about 4.5 s of the advised search there); at two thirds both do (93 in 4.6 s, 153
/// in 3.0 s, on one thread at 10 s per level; docs/benchmarks/sokoban.md). The first list's
/// short greedy searches solve most levels within their first slices anyway.
const ONE_CORE_WEIGHTS: [u32; 2] = [1, 2];

/// The expansion cap of the greedy searches with macros but without the advisors' move
/// weights. In a run of XSokoban at 60 s on two threads and of Microban, Microban II,
/// Sasquatch and XSokoban at 10 s on one, none of them solved a level after 303,226
/// expansions (cycling greedy: 252,548), while the advised greedy searches solved screens
/// after up to 1.4 M. On one core at 10 s their windows held at most 334,000 expansions, so
/// the cap binds on long budgets, where it hands their time on: in the first list to the
/// backward search, in the second to the weighted searches at its end.
const GREEDY_CAP: u64 = 500_000;

/// The phases of `first_thread`.
const FIRST_THREAD: [Phase; 7] = [
    phase(A_STAR, 2),
    capped(greedy_macros(4), 18),
    capped(greedy_macros(8), 5),
    phase(REVERSE_CYCLING, 40),
    phase(advised(greedy_macros(4)), 20),
    phase(weighted(2, 4, 1), 5),
    phase(weighted(2, 4, 0), 10),
];

/// The phases of `second_thread`. Like the others it ends with a search without macros,
/// so that a portfolio that ends `Exhausted` has proved the level unsolvable (a macro
/// search can exhaust its pruned space on a solvable level).
const SECOND_THREAD: [Phase; 7] = [
    capped_at(FESS_DISTINCT, 5, DISTINCT_CAP),
    phase(FESS, 20),
    phase(advised(greedy_cycling(1)), 45),
    capped(greedy_cycling(1), 20),
    phase(FESS, 0),
    phase(advised(weighted_macros(2, 4, 1)), 5),
    phase(advised(weighted(2, 4, 1)), 5),
];

/// The any-solution portfolio on one core: [`any_solution_threads`] with `threads` = 1, its
/// two lists of searches taking turns (see there).
///
/// The greedy searches add the bound, the packing-order penalty and the FESS connectivity
/// feature (Shoham & Schaeffer 2020 §4) with goal macros, the goal cut, tunnel macros and
/// corral deadlocks ([`SearchOptions::MACROS`]). Different connectivity weights solve
/// different levels (XSokoban at 10 s per search: 25 screens with weight 4, 25 with 8, 21
/// with 16, 18 with 2, 28 with one of them; see docs/benchmarks/sokoban.md), and
/// most levels fall in well under a second to one of them, so several short greedy searches
/// beat one long one. Feature-space cycling (FESS §3, [`crate::features`]) takes turns among
/// kinds of positions instead of following the priority; at 6 s it solves XSokoban 15, 18,
/// 65, 67 and 68, which no search without it solved in 60 s. With FESS's move weights
/// (FESS §4, [`SearchOptions::advice`]: a push no advisor suggested costs a point) cycling
/// greedy search solves, at 15 s, XSokoban 21, 22, 40, 45, 49 and 61, which no search of the
/// portfolio before the move weights solved in 60 s, and Microban 153.
/// A level whose goal-room plan does not fit (a macro search exhausts its pruned space) often
/// falls to the broader searches without macros, which also prove unsolvable levels. The
/// connectivity term pays in weighted A* too: at 10 s it solves XSokoban 27, 57 and 86, which
/// no greedy search here solves in 60 s.
pub fn any_solution(board: &Board, budget: &Budget) -> SearchOutcome {
    any_solution_threads(board, budget, 1)
}

/// The first thread of [`any_solution_threads`]: a short A*, greedy searches at several
/// connectivity weights, a greedy search backwards, and weighted A* without macros (the
/// second thread runs the cycling searches):
///
/// | search | share |
/// |---|---:|
/// | A*, no macros | 2 % |
/// | greedy + macros, connectivity weight 4 | 18 %, at most 500,000 expansions |
/// | greedy + macros, connectivity weight 8 | 5 %, at most 500,000 expansions |
/// | greedy backwards (pulls from the solved position, [`reverse_best_first`]), cycling on one expansion in 8 | 40 % |
/// | greedy + macros, connectivity weight 4, FESS move weights (advisors) | 20 % |
/// | weighted A* (w = 2), no macros, cycling on every expansion | 5 % |
/// | weighted A* (w = 2), no macros, connectivity weight 4 | the rest |
///
/// The first A* solves small levels with short solutions at once where greedy search drowns
/// (Microban 146: 14 pushes, 0.09 s). The two greedy searches without the advisors solve
/// levels within a few hundred thousand expansions or not at all, so they stop at
/// [`GREEDY_CAP`]; on long budgets the backward search then starts after 7–12 s instead of
/// at 35 % of the time (at 60 s on two threads it solved XSokoban 35, 74 and 87 on a host
/// where they were lost without the cap; docs/benchmarks/sokoban.md). The backward search
/// with cycling alone solves XSokoban 11, 12, 13, 14, 19, 25, 29, 35, 74 and 87 (3 k to
/// 1.7 M expansions), which no forward search here solved in 60 s, and on one core at 10 s
/// it solves Sasquatch levels in a few thousand expansions that the forward searches do not
/// solve at all. Its window, from 25 % to 65 % of the time, was taken from greedy searches
/// with connectivity weights 0, 2 and 16 and from the advised greedy search: in the four
/// sets at 10 s on one thread they solved nothing in that window (the weight-8 search
/// solved one level, Sasquatch 23, in 5,369 expansions), while the doubled window gains
/// Sasquatch 33 (301,323 expansions) and loses nothing (docs/benchmarks/sokoban.md). Greedy
/// search with the advisors' move weights but without cycling solves XSokoban 32 (1.4 M
/// expansions), which no other search here solves. The weighted A* with cycling solves
/// XSokoban 46 (1–2 s), which the cycling searches with macros do not; it runs before the
/// last search so that it starts at 85 % of the time rather than 95 % (on the budget of the
/// XSokoban runs, 46 in 51.8 s instead of 57.7 s).
fn first_thread(
    board: &Board,
    budget: &Budget,
    phases: &Phases,
    fess: &mut Option<Fess>,
) -> SearchOutcome {
    run_phases(board, budget, phases.searches(), 0, fess)
}

/// Best-first searches one after another until one finds a solution, one without macros
/// proves the level unsolvable, or the stop flag is set. Each phase has `share` per cent of
/// the whole time and iteration budget; a phase ends when the shares so far are used, so a
/// phase that stops early passes its rest on, and the last phase runs to the end of the
/// budget. Nodes and expansions are summed; the stop reason is the last search's. The FESS
/// phases of a list are windows of one FESS search: a later one goes on with the tree the
/// earlier left ([`Fess::run`]), and the searches in between get the node budget less that
/// tree. The tree is left in `fess` when the list ends, for [`any_solution_with`] to go on
/// with.
///
/// Between phases the freed memory of the search that ended is handed back to the system
/// ([`puzzle_engine::memory::release_free_memory`]), so that the two lists' searches do not
/// hold, beside their own nodes, what the searches before them left in the allocator.
///
/// Each phase ends with a `tracing` debug event (target `puzzle_sokoban::solver`: the list,
/// the phase, its search and share, its window of the time and its outcome); traces change
/// nothing in the search.
fn run_phases(
    board: &Board,
    budget: &Budget,
    phases: &[Phase],
    list: usize,
    fess: &mut Option<Fess>,
) -> SearchOutcome {
    let deadline = budget.start();
    let mut total = SearchOutcome::exhausted(0);
    let mut cumulative = 0u32;
    for (
        k,
        &Phase {
            order,
            opts,
            share,
            max_expansions,
        },
    ) in phases.iter().enumerate()
    {
        cumulative += share;
        let last = k + 1 == phases.len();
        let upto = |whole: u64| {
            if last {
                whole
            } else {
                whole * u64::from(cumulative.min(100)) / 100
            }
        };
        let mut phase = budget.clone();
        if let Some(t) = budget.max_time {
            let end = Duration::from_nanos(upto(t.as_nanos().min(u128::from(u64::MAX)) as u64));
            phase.max_time = Some(end.saturating_sub(deadline.elapsed()));
        }
        if let Some(n) = budget.max_iterations {
            phase.max_iterations = Some(upto(n).saturating_sub(total.expanded));
        }
        if let Some(cap) = max_expansions {
            phase.max_iterations = Some(phase.max_iterations.map_or(cap, |n| n.min(cap)));
        }
        let started = deadline.elapsed();
        let outcome = if opts.fess && opts.fess_distinct {
            // A search of its own, dropped when the phase ends; the kept tree's nodes count.
            let held = fess.as_ref().map_or(0, Fess::held);
            phase.max_nodes = budget.max_nodes.saturating_sub(held as usize).max(1);
            Fess::with_sharing(board, crate::fess::Sharing::Distinct).run(board, &phase)
        } else if opts.fess {
            // Every FESS phase of the list goes on with the one tree.
            let search = fess.get_or_insert_with(|| Fess::new(board));
            let before = search.held();
            let mut outcome = search.run(board, &phase);
            outcome.nodes = outcome.nodes.saturating_sub(before);
            outcome
        } else {
            // A FESS tree kept for a later window counts against this search's nodes.
            let held = fess.as_ref().map_or(0, Fess::held);
            phase.max_nodes = budget.max_nodes.saturating_sub(held as usize).max(1);
            best_first_opts(board, order, opts, &phase)
        };
        tracing::debug!(
            list,
            phase = k,
            search = %search_name(order, &opts),
            share,
            from_s = started.as_secs_f64(),
            to_s = deadline.elapsed().as_secs_f64(),
            stop = ?outcome.stop,
            expanded = outcome.expanded,
            solved = outcome.pushes.is_some(),
            "portfolio phase"
        );
        total.nodes += outcome.nodes;
        total.expanded += outcome.expanded;
        total.stop = outcome.stop;
        // A search with macros prunes pushes: its exhaustion proves nothing. Nor is a
        // reverse search's taken as a proof: the forward searches without macros give it.
        let proved = outcome.stop == StopReason::Exhausted && portfolio::ends_a_portfolio(&opts);
        if outcome.pushes.is_some() || proved {
            total.pushes = outcome.pushes;
            return total;
        }
        if matches!(outcome.stop, StopReason::Interrupted) {
            return total;
        }
        if !last {
            // The search's nodes are freed: hand their pages back before the next search
            // fills its own (on XSokoban 90 the process otherwise peaks 270 MB higher).
            puzzle_engine::memory::release_free_memory();
        }
    }
    total
}

/// The any-solution portfolio: two lists of best-first searches side by side, each search
/// running until its share of the budget is used (one that stops early passes the rest of its
/// share on). One list (`first_thread`) runs a short A*, greedy searches at several
/// connectivity weights, then weighted A*; the other (`second_thread`) the feature-space
/// cycling searches (greedy with the advisors' move weights, then without). The first
/// answer, or a proof that the level is unsolvable, stops the other list. It is for levels
/// where one sequential portfolio reaches the right search too late or never (Microban 93:
/// cycling greedy; Microban 153: cycling greedy with the advisors).
///
/// With two or more `threads` the lists run on two threads (more are used as two), each with
/// the whole time and iteration budget. On one thread they take turns on one core
/// (`solver/turns.rs`: slices of 12 ms under a time budget, of about 1,000 expansions under
/// an iteration budget), the second list two slices for each of the first's
/// (`ONE_CORE_WEIGHTS`) and the iterations split in the same proportion, so
/// the same searches serve every core count. Taking turns did as well as a separate
/// one-thread sequence of the same searches that it replaced (at 10 s per level on one
/// thread over Microban, Microban II, XSokoban and Sasquatch, one level more;
/// docs/benchmarks/sokoban.md).
///
/// The lists are [`PortfolioConfig::default`]'s; [`any_solution_with`] runs others.
/// The node budget is split between the two lists, so memory stays within
/// [`Budget::max_nodes`]. On two threads, which search wins can depend on timing, so the
/// reported pushes and node counts may differ from run to run (every solution is still
/// verified by replay); on one thread with an iteration budget the run is the same every
/// time.
pub fn any_solution_threads(board: &Board, budget: &Budget, threads: usize) -> SearchOutcome {
    any_solution_with(board, budget, threads, &PortfolioConfig::default())
}

/// [`any_solution_threads`] with the lists of searches of `portfolio` (the default is the
/// built-in lists, which [`any_solution_threads`] runs).
pub fn any_solution_with(
    board: &Board,
    budget: &Budget,
    threads: usize,
    portfolio: &PortfolioConfig,
) -> SearchOutcome {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, Mutex};
    // One core: the two searches take turns, the second list two slices for each of the
    // first's, with iterations in the same proportion. Under an iteration budget a slice is
    // a number of expansions (the same run every time); under a time budget alone it is a
    // slice of time, since the searches' expansions differ ten-fold in cost and slices of
    // expansions gave the list running the dearer search most of the core.
    let length = if budget.max_iterations.is_some() {
        turns::TurnLength::Polls
    } else {
        turns::TurnLength::Time
    };
    let turns = (threads < 2).then(|| turns::Turns::new(&ONE_CORE_WEIGHTS, length));
    let found = Arc::new(AtomicBool::new(false));
    let finished = AtomicBool::new(false);
    // Half the nodes each; on one core the iterations split like the turns, on two the whole
    // count each.
    let share = |which: usize| {
        let mut b = budget.thread_share(which, 2);
        b.max_iterations = match turns {
            None => budget.max_iterations,
            Some(_) => budget.max_iterations.map(|n| {
                let total: u64 = ONE_CORE_WEIGHTS.iter().map(|&w| u64::from(w)).sum();
                n * u64::from(ONE_CORE_WEIGHTS[which]) / total
            }),
        };
        b.stop = Some(found.clone());
        b
    };
    let budgets = [share(0), share(1)];
    let clock = budget.start();
    let decided = |o: &SearchOutcome| o.pushes.is_some() || o.stop == StopReason::Exhausted;
    // How many lists have ended with neither answer, and the FESS tree left for the last.
    let handover: Mutex<(usize, Option<Fess>)> = Mutex::new((0, None));
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
            // Dropped last, after `found` is set, so the other search wakes to see it.
            let _turn = turns.as_ref().map(|t| turns::TurnGuard::join(t, which));
            let mut tree = None;
            let mut out = if which == 0 {
                first_thread(board, &budgets[0], &portfolio.first, &mut tree)
            } else {
                second_thread(board, &budgets[1], &portfolio.second, &mut tree)
            };
            if !decided(&out) && out.stop != StopReason::Interrupted {
                // The list that ends last goes on with FESS's tree (its own, or the one the
                // other list left), now with the whole node budget, until the time is up.
                let last_tree = {
                    let mut h = handover.lock().unwrap_or_else(|e| e.into_inner());
                    h.0 += 1;
                    if tree.is_some() {
                        h.1 = tree.take();
                    }
                    if h.0 == 2 {
                        h.1.take()
                    } else {
                        None
                    }
                };
                if let Some(mut search) = last_tree {
                    let mut rest = budget.clone();
                    rest.stop = Some(found.clone());
                    if let Some(t) = budget.max_time {
                        rest.max_time = Some(t.saturating_sub(clock.elapsed()));
                    }
                    rest.max_iterations = budgets[which]
                        .max_iterations
                        .map(|n| n.saturating_sub(out.expanded));
                    out = go_on_with_fess(board, &rest, &mut search, out, which);
                }
            }
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
    let (nodes, expanded) = (a.nodes + b.nodes, a.expanded + b.expanded);
    if nodes > TRIM_AFTER_NODES {
        // The last searches' pages too, so that the next level (a bench, a set) starts clean.
        puzzle_engine::memory::release_free_memory();
    }
    let mut best = if a.pushes.is_none() && !decided(&a) && decided(&b) {
        b
    } else {
        a
    };
    best.nodes = nodes;
    best.expanded = expanded;
    best
}

/// Nodes above which a finished portfolio hands its freed memory back to the system before it
/// returns ([`puzzle_engine::memory::release_free_memory`]; below it, the cost of the call,
/// a fraction of a millisecond, would show in the times of levels solved in milliseconds).
const TRIM_AFTER_NODES: u64 = 1_000_000;

/// FESS going on with `search`'s tree after both lists of the portfolio ended with neither a
/// solution nor a proof, within `rest` (the whole node budget, the time left): the searches of
/// the lists often stop on their node budgets well before the time limit (on XSokoban at 60 s
/// on two threads, nine unsolved screens after 35–54 s), and the tree FESS grew in its windows
/// is then the furthest any search got. `out` is the list's outcome so far, returned with this
/// run's expansions, nodes and stop reason added.
fn go_on_with_fess(
    board: &Board,
    rest: &Budget,
    search: &mut Fess,
    mut out: SearchOutcome,
    list: usize,
) -> SearchOutcome {
    // The other list's nodes are freed: hand their pages back first.
    puzzle_engine::memory::release_free_memory();
    let before = search.held();
    let started = std::time::Instant::now();
    let more = search.run(board, rest);
    tracing::debug!(
        list,
        search = "fess",
        held = before,
        secs = started.elapsed().as_secs_f64(),
        stop = ?more.stop,
        expanded = more.expanded,
        solved = more.pushes.is_some(),
        "portfolio: FESS goes on with the whole node budget"
    );
    out.nodes += more.nodes.saturating_sub(before);
    out.expanded += more.expanded;
    // FESS searches macro moves: running out of them proves nothing, and the lists' own
    // reason to stop stands.
    if more.stop != StopReason::Exhausted {
        out.stop = more.stop;
    }
    out.pushes = more.pushes;
    out
}

/// The second thread of [`any_solution_threads`]: the feature-space cycling searches, which
/// the first thread lacks:
///
/// | search | share |
/// |---|---:|
/// | FESS whose advisors name distinct moves ([`FESS_DISTINCT`]), a tree of its own | 5 %, at most 50,000 expansions |
/// | FESS ([`crate::fess`]) | 20 % |
/// | greedy + macros, cycling on every expansion, FESS move weights (advisors) | 45 % |
/// | greedy + macros, cycling on every expansion | 20 %, at most 500,000 expansions |
/// | FESS again, going on with its tree | 0 %: the time the cap frees |
/// | weighted A* (w = 2) + macros, cycling, FESS move weights | 5 % |
/// | weighted A* (w = 2), no macros, cycling, FESS move weights | the rest |
///
/// FESS with distinct advice opens the list, on a tree of its own: when advisors agree on a
/// move, those asked later name their next best, so more moves weigh 0. Alone it solves other
/// screens than FESS with the paper's advisors (at 60 s on one thread XSokoban 13, 18, 28 and
/// 29, which that FESS does not, and not 30, 52, 74, 75 and 89, which it does), and 28, which
/// no other search of the portfolio solves in 60 s, in 11,019 positions (1.3 s). Its 5 % came
/// from the advised cycling search, so that FESS's first window keeps its length: taken from
/// that window instead, XSokoban 23 and 39 were lost at 10 s on one thread.
/// FESS with the paper's advisors comes next, before the advised search: most levels it
/// solves take it a few dozen positions, and at 10 s on one thread it solves the same levels
/// of Microban, Microban II, XSokoban and Sasquatch first as after the advised search, the solved XSokoban screens in 32 s in all instead of
/// 103 s, and at 60 s on two threads as many XSokoban screens (80), the median in 0.21 s
/// instead of 4.41 s (docs/benchmarks/sokoban.md#fess): at 10 % its window was then the first
/// 6 s instead of the 30th to 36th. Its share went from 10 % to 20 % (taken from the capped
/// cycling search) once it got its list's share of one core: on the four sets at 10 s on one
/// thread, XSokoban 35, 39 and 70 gained and nothing lost (387 levels against 384). Its
/// tree, kept for its second window, takes part of the node budget of the searches after
/// it: with its moves counted at their size, XSokoban 77, which the advised search solves
/// just within its budget, is still solved (26.9 s; see [`crate::fess`]'s budget). Cycling
/// with the advisors' move weights ([`SearchOptions::advice`])
/// solves 39 of the 45 XSokoban screens that the portfolio before the move weights solved,
/// each in 25 s alone, and 6 of the 45 it did not (docs/benchmarks/sokoban.md), besides
/// Microban 153, which weighted A* with macros and cycling used to solve here; 93 and 153,
/// which FESS does not solve, still fall to it after FESS's window. Cycling without the
/// weights keeps the screens the weights lose (XSokoban 15, 18 and 75 in 0.5–10 s) and
/// Microban 93 (96 pushes); it stops at [`GREEDY_CAP`] expansions. On hard levels the two
/// greedy searches often fill their share of the node budget, or reach the cap, before their
/// share of the time. The time FESS leaves (a level it proves unsolvable in its pruned space,
/// or its node budget) goes to the advised search; the time the cap frees to a second window
/// of the same FESS search ([`Fess::run`] keeps its tree in between, and the searches
/// between its windows get the node budget less that tree), which on short budgets, where
/// the cap is not reached, gets nothing. The two weighted searches then share the last tenth.
/// The last one searches without macros (see [`SECOND_THREAD`]); it replaced an A* there,
/// which solved none of the 39 XSokoban screens the rest of the portfolio left unsolved.
fn second_thread(
    board: &Board,
    budget: &Budget,
    phases: &Phases,
    fess: &mut Option<Fess>,
) -> SearchOutcome {
    run_phases(board, budget, phases.searches(), 1, fess)
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
    solve_with(
        level,
        algorithm,
        budget,
        threads,
        &PortfolioConfig::default(),
    )
}

/// [`solve_threads`] with the any-solution mode's lists of searches from `portfolio` (the
/// other solvers ignore it).
pub fn solve_with(
    level: &Level,
    algorithm: Algorithm,
    budget: &Budget,
    threads: usize,
    portfolio: &PortfolioConfig,
) -> Result<Solution, BoardError> {
    let board = Board::new(level)?;
    let deadline = budget.start();
    let outcome = match algorithm {
        Algorithm::AStar => best_first(&board, Order::AStar, budget),
        Algorithm::Bfs => best_first(&board, Order::Bfs, budget),
        Algorithm::Greedy => any_solution_with(&board, budget, threads, portfolio),
        Algorithm::IdaStar => idastar(&board, budget),
        Algorithm::Genetic => {
            let config = crate::genetic::GaConfig::default();
            crate::genetic::solve_ga(&board, &config, budget, 1)
        }
        Algorithm::Fess => crate::fess::fess(&board, budget),
        Algorithm::FessDistinct => {
            Fess::with_sharing(&board, crate::fess::Sharing::Distinct).run(&board, budget)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A portfolio reports `Exhausted` only as a proof, and the two-thread portfolio stops
    /// the other thread on it: so every portfolio's last phase must search without macros
    /// (a macro search that exhausts its pruned space proves nothing).
    #[test]
    fn every_portfolio_ends_with_a_search_without_macros() {
        for (name, phases) in [
            ("first thread", &FIRST_THREAD[..]),
            ("second thread", &SECOND_THREAD[..]),
        ] {
            let last = phases.last().expect("a phase");
            assert!(portfolio::ends_a_portfolio(&last.opts), "{name}");
            let total: u32 = phases.iter().map(|p| p.share).sum();
            assert_eq!(total, 100, "{name}: shares add up to 100 %");
        }
    }

    /// A capped phase stops at its cap and passes its share on: the list's next search runs
    /// and solves the level.
    #[test]
    fn a_capped_phase_stops_at_its_cap_and_passes_its_time_on() {
        let level = &crate::fess::test_levels::xsokoban_level(1);
        let board = Board::new(level).expect("board");
        let budget = Budget::iterations(1_000_000);
        let cap = |n| Phase {
            max_expansions: Some(n),
            ..phase(greedy_macros(4), 100)
        };
        let alone = run_phases(&board, &budget, &[cap(20)], 0, &mut None);
        assert_eq!(alone.stop, StopReason::Iterations);
        assert!(alone.pushes.is_none());
        assert!(alone.expanded <= 20, "{}", alone.expanded);
        let then = run_phases(&board, &budget, &[cap(20), phase(A_STAR, 0)], 0, &mut None);
        assert_eq!(then.stop, StopReason::Solved);
        let pushes = then.pushes.expect("the A* after the cap solves screen 1");
        let lurd = pushes_to_lurd(&board, &pushes).expect("the pushes are legal");
        assert!(crate::lurd::replay(level, &lurd).expect("a replay").solved);
        let uncapped = run_phases(
            &board,
            &budget,
            &[phase(greedy_macros(4), 100)],
            0,
            &mut None,
        );
        assert!(uncapped.pushes.is_some() && uncapped.expanded > 20);
    }

    /// A second FESS phase of a list goes on with the first one's tree: FESS capped at 10
    /// expansions, a greedy search capped at 5, then FESS again solve XSokoban 5 with the
    /// expansions of one FESS run plus the greedy search's 5, where a fresh FESS would
    /// repeat the first 10. The greedy search's nodes share the budget with the kept tree.
    #[test]
    fn a_second_fess_phase_goes_on_with_the_first_ones_tree() {
        let level = &crate::fess::test_levels::xsokoban_level(5);
        let board = Board::new(level).expect("board");
        let budget = Budget::iterations(1_000_000);
        let capped = |search, n| Phase {
            max_expansions: Some(n),
            ..phase(search, 25)
        };
        let alone = crate::fess::fess(&board, &budget);
        assert_eq!(alone.stop, StopReason::Solved);
        assert!(alone.expanded > 10, "{}", alone.expanded);
        let phases = [
            capped(FESS, 10),
            capped(greedy_macros(4), 5),
            phase(FESS, 100),
        ];
        let out = run_phases(&board, &budget, &phases, 1, &mut None);
        assert_eq!(out.stop, StopReason::Solved);
        assert_eq!(out.expanded, alone.expanded + 5);
        assert_eq!(out.pushes, alone.pushes);
        let lurd = pushes_to_lurd(&board, &out.pushes.expect("pushes")).expect("legal pushes");
        assert!(crate::lurd::replay(level, &lurd).expect("a replay").solved);
    }

    /// When both lists end with neither answer, the list that ends last goes on with the FESS
    /// tree the other left, with the whole node budget: FESS stopped after 10 expansions and
    /// the lists' other searches after a few, on one core and on two, the portfolio finds
    /// FESS's own solution of XSokoban 5, and with the tree dropped it finds none.
    #[test]
    fn the_list_that_ends_last_goes_on_with_fess() {
        let level = &crate::fess::test_levels::xsokoban_level(5);
        let board = Board::new(level).expect("board");
        let budget = Budget::iterations(1_000_000).with_max_nodes(200_000);
        let alone = crate::fess::fess(&board, &budget);
        assert_eq!(alone.stop, StopReason::Solved);
        assert!(alone.expanded > 10, "{}", alone.expanded);
        let config = |second: &str| PortfolioConfig {
            // A* stopped after 50 expansions: it expands one push at a time, and this
            // screen's solutions take well over 100 pushes (147 in FESS's paper, 157 here).
            first: "astar:100:50".parse().expect("a list"),
            second: second.parse().expect("a list"),
        };
        for threads in [1, 2] {
            let out = any_solution_with(&board, &budget, threads, &config("fess:50:10,w2-c4:50:5"));
            assert_eq!(out.pushes, alone.pushes, "{threads} thread(s)");
            let lurd = pushes_to_lurd(&board, &out.pushes.expect("pushes")).expect("legal");
            assert!(crate::lurd::replay(level, &lurd).expect("a replay").solved);
            // Without FESS in the lists there is no tree to go on with.
            let none = any_solution_with(&board, &budget, threads, &config("w2-c4:100:5"));
            assert!(none.pushes.is_none(), "{threads} thread(s)");
            assert_eq!(none.stop, StopReason::Iterations);
        }
    }

    /// The portfolio's searches are the ones `parse_search` names.
    #[test]
    fn search_names_parse_to_the_portfolio_searches() {
        let same = |name: &str, (order, opts): (Order, SearchOptions)| {
            let (o, s) = parse_search(name).unwrap_or_else(|| panic!("{name} parses"));
            assert_eq!(o, order, "{name}");
            assert_eq!(s, opts, "{name}");
        };
        same("gm-c8", greedy_macros(8));
        same("gm-c4-f1", greedy_cycling(1));
        same("gm-c4-f1-a1", advised(greedy_cycling(1)));
        same("w2-c4-f1", weighted(2, 4, 1));
        same("astar", A_STAR);
        same("fess", FESS);
        same("gm-c4-a1", advised(greedy_macros(4)));
        same("wm2-c4-f1-a1", advised(weighted_macros(2, 4, 1)));
        same("w2-c4-f1-a1", advised(weighted(2, 4, 1)));
        same("r-g-c0", REVERSE_GREEDY);
        same("r-g-c0-f8", REVERSE_CYCLING);
        same(
            "gm-c4-m30",
            (
                Order::Greedy,
                SearchOptions {
                    meet: 30,
                    ..greedy_macros(4).1
                },
            ),
        );
        for bad in [
            "", "gm", "gm-cx", "x2-c4", "gm-c4-fz", "gm-c4-a", "r-", "gm-c4-m",
        ] {
            assert!(parse_search(bad).is_none(), "{bad:?}");
        }
    }
}
