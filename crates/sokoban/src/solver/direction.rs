//! Which way a best-first push search runs: forwards from the start ([`super::bestfirst`]),
//! backwards from the solved position ([`super::reverse`]), or both, meeting
//! ([`SearchOptions::meet`]). The entry points of the push searches live here, above both
//! directions.

use super::bestfirst::{forward_search, new_store, Order, SearchOptions};
use super::reverse::{reverse_best_first, reverse_search};
use super::SearchOutcome;
use crate::board::Board;
use puzzle_engine::{Budget, StopReason};

/// Run a best-first push search on `board` within `budget`, with PI-corral pruning (which
/// keeps push-optimality: the pruned pushes can always be made after a corral push without
/// extra pushes).
pub fn best_first(board: &Board, order: Order, budget: &Budget) -> SearchOutcome {
    best_first_with(board, order, true, budget)
}

/// [`best_first`] with PI-corral pruning switched on or off explicitly.
pub fn best_first_with(
    board: &Board,
    order: Order,
    corrals_on: bool,
    budget: &Budget,
) -> SearchOutcome {
    let opts = SearchOptions {
        corrals: corrals_on,
        ..SearchOptions::OPTIMAL
    };
    best_first_opts(board, order, opts, budget)
}

/// [`best_first`] with explicit [`SearchOptions`].
pub fn best_first_opts(
    board: &Board,
    order: Order,
    opts: SearchOptions,
    budget: &Budget,
) -> SearchOutcome {
    if opts.fess {
        return crate::fess::fess(board, budget);
    }
    if opts.meet > 0 {
        return meeting(board, order, opts, budget);
    }
    if opts.reverse {
        return reverse_best_first(board, order, opts, budget);
    }
    forward_search(board, order, opts, budget, None, &mut new_store(board))
}

/// Bidirectional search ([`SearchOptions::meet`]): a helper search in the other direction
/// first, with `opts.meet` per cent of the budget, then the search itself with the rest,
/// which stops at the first position the helper stored. The helper is the same search with
/// the direction flipped (backwards without the connectivity term). A helper that solves the
/// level alone answers at once; either's exhaustion is reported as is.
fn meeting(board: &Board, order: Order, opts: SearchOptions, budget: &Budget) -> SearchOutcome {
    let deadline = budget.start();
    let part = u64::from(opts.meet.min(100));
    let mut first = budget.clone();
    first.max_time = budget.max_time.map(|t| t.mul_f64(part as f64 / 100.0));
    first.max_iterations = budget.max_iterations.map(|n| n * part / 100);
    first.max_nodes = (budget.max_nodes as u64 * part / 100).max(1) as usize;
    let main = SearchOptions { meet: 0, ..opts };
    let helper = SearchOptions {
        reverse: !opts.reverse,
        connectivity: if opts.reverse { opts.connectivity } else { 0 },
        ..main
    };
    let mut helper_store = new_store(board);
    let found = if helper.reverse {
        reverse_search(board, order, helper, &first, None, &mut helper_store)
    } else {
        forward_search(board, order, helper, &first, None, &mut helper_store)
    };
    if found.pushes.is_some() || found.stop == StopReason::Interrupted {
        return found;
    }
    let mut rest = budget.clone();
    rest.max_time = budget
        .max_time
        .map(|t| t.saturating_sub(deadline.elapsed()));
    rest.max_iterations = budget
        .max_iterations
        .map(|n| n.saturating_sub(found.expanded));
    rest.max_nodes = budget.max_nodes.saturating_sub(helper_store.len()).max(1);
    let mut store = new_store(board);
    let mut outcome = if main.reverse {
        reverse_search(board, order, main, &rest, Some(&helper_store), &mut store)
    } else {
        forward_search(board, order, main, &rest, Some(&helper_store), &mut store)
    };
    outcome.nodes += found.nodes;
    outcome.expanded += found.expanded;
    outcome
}
