//! Reverse (pull) search: best-first search from the solved position back to the start, the
//! player pulling boxes instead of pushing them, as bidirectional solvers such as Sokolution
//! also search (docs/METHODS.md §8.12). A pull is a push run backwards, so the pulls found,
//! read in reverse order, are the pushes of a forward solution.
//!
//! Backwards, packing a goal room is unpacking it: levels whose difficulty is the order in
//! which boxes must enter a crowded goal area are often easy in reverse, where forward
//! deadlocks do not exist (every position reached by pulls from the solved one can be
//! solved). What can go wrong backwards is a box pulled where no start cell can be reached
//! from; the matching bound to the start cells prunes it.
//!
//! The solved position fixes the boxes but not the player: every free-floor area of it is a
//! root. A position is the target when its boxes are the start's and its player's area holds
//! the start's player.

use super::bestfirst::{new_store, Buckets, FeatureCells, Order, SavedBounds, SearchOptions};
use super::join::{backwards, joined_backward};
use super::store::{NodeStore, NO_NODE};
use super::{budget_exceeded, SearchOutcome};
use crate::board::{Board, CellSet, FAR, NONE};
use crate::dir::Dir;
use crate::matching::LowerBound;
use crate::position::{count_regions, count_regions_beside_player, Position, Push, Reach};
use puzzle_engine::{Budget, StopReason};

/// The board with the roles of goals and start cells exchanged for the matching bound: its
/// "goals" are the start's box cells, and the distance of a cell to one of them is the number
/// of pulls that bring a box there on an empty board (the pushes from that start cell to it).
/// A box on a cell that no start cell reaches by pushes can never get back: dead backwards.
fn reverse_targets(board: &Board) -> Board {
    let mut rb = board.clone();
    let starts: Vec<u16> = board.start_boxes.iter().collect();
    let distance: Vec<Vec<u16>> = starts
        .iter()
        .map(|&s| push_distances(&board.neighbors, s))
        .collect();
    let cells = board.cells();
    rb.dead = (0..cells)
        .map(|c| distance.iter().all(|d| d[c] == FAR))
        .collect();
    rb.distance_by_cell = (0..cells)
        .flat_map(|c| distance.iter().map(move |d| d[c]))
        .collect();
    rb.goal_distance = distance;
    rb.goals = board.start_boxes.clone();
    rb.goal_list = starts;
    rb
}

/// Pushes from `s` to every cell on an empty board: a box at `c` goes to `c + d` when the
/// player can stand at `c − d` and `c + d` is floor ([`FAR`] where it never gets).
fn push_distances(neighbors: &[[u16; 4]], s: u16) -> Vec<u16> {
    let mut dist = vec![FAR; neighbors.len()];
    let mut queue = std::collections::VecDeque::new();
    dist[s as usize] = 0;
    queue.push_back(s);
    while let Some(c) = queue.pop_front() {
        for d in Dir::ALL {
            let to = neighbors[c as usize][d as usize];
            let behind = neighbors[c as usize][d.opposite() as usize];
            if to == NONE || behind == NONE || dist[to as usize] != FAR {
                continue;
            }
            dist[to as usize] = dist[c as usize] + 1;
            queue.push_back(to);
        }
    }
    dist
}

/// Best-first pull search from the solved position to the start (see the module doc) in
/// `order` (greedy or weighted A*; A* and BFS are run as weighted A* with w = 1) within
/// `budget`, storing its nodes in `store` (empty), which the caller keeps for a forward
/// search to meet ([`meeting`]). `opts.connectivity` adds points per free-floor area beyond
/// the first, and `opts.feature_cycle` takes turns among feature cells, as forward. With `meet`, the nodes of a forward search: a new position stored there ends
/// the search, the two paths joined. The pushes returned are a forward solution from the
/// start. Exhausting the space proves the level unsolvable, but the portfolio does not rely
/// on it (see `run_phases`).
pub(super) fn reverse_search(
    board: &Board,
    order: Order,
    opts: SearchOptions,
    budget: &Budget,
    meet: Option<&NodeStore>,
    store: &mut NodeStore,
) -> SearchOutcome {
    let deadline = budget.start();
    let start = Position::start(board);
    if start.is_solved(board) {
        return SearchOutcome::solved_at_start(0);
    }
    let mut outcome = SearchOutcome::exhausted(0);
    let targets = reverse_targets(board);
    let weight = match order {
        Order::Greedy => None,
        Order::Weighted(w) => Some(w),
        Order::AStar | Order::Bfs => Some(1),
    };
    let priority = |g: u32, h: u32| match weight {
        None => h as usize,
        Some(w) => (g + w * h) as usize,
    };
    let mut reach = Reach::new(board.cells());
    let mut scratch = Reach::new(board.cells());
    let mut bound = LowerBound::new();
    let start_norm = reach.compute(board, &start.boxes, start.player);
    let mut open = Buckets::new();
    let limit = budget.max_nodes.clamp(1, u32::MAX as usize - 1);
    let connectivity = match order {
        Order::Greedy | Order::Weighted(_) => opts.connectivity,
        Order::AStar | Order::Bfs => 0,
    };
    // The connectivity term, on positions off the target: `connectivity` points per
    // free-floor area beyond the first.
    let weighs_areas = |h: u32| connectivity > 0 && h > 0;
    let with_areas = |h: u32, regions: u32| {
        if weighs_areas(h) {
            h + connectivity * (regions - 1)
        } else {
            h
        }
    };
    // The solved position: the start's boxes on the goals (the boxes walled off on goals
    // were dropped with the goals), one root per free-floor area of the player's.
    let mut solved = Position::start(board);
    for c in board.start_boxes.iter() {
        solved.boxes.remove(c);
    }
    for g in board.goals.iter() {
        solved.boxes.insert(g);
    }
    solved.box_hash = board
        .goals
        .iter()
        .fold(0, |h, g| h ^ board.zobrist_box[g as usize]);
    let Some(h0) = bound.compute(&targets, &solved.boxes) else {
        return outcome;
    };
    // Every root has the solved position's boxes, so its areas and feature cell.
    let solved_regions = count_regions(board, &solved.boxes, &mut scratch);
    let h0 = with_areas(h0, solved_regions);
    let dummy = Push {
        from: 0,
        dir: Dir::Up,
    };
    let mut covered = CellSet::new(board.cells());
    for c in 0..board.area_cells as u16 {
        if solved.boxes.contains(c) || covered.contains(c) {
            continue;
        }
        let norm = reach.compute(board, &solved.boxes, c);
        for x in 0..board.area_cells as u16 {
            if reach.reachable(x) {
                covered.insert(x);
            }
        }
        let root = store.insert(
            solved.box_hash,
            solved.boxes.words(),
            norm,
            NO_NODE,
            dummy,
            0,
            h0,
        );
        outcome.nodes += 1;
        open.push(priority(0, h0), root);
    }
    // Feature-space cycling backwards (`opts.feature_cycle`, as forward, METHODS §8.9): the
    // cells are boxes on start cells and free-floor areas.
    let mut cells = (opts.feature_cycle > 0).then(FeatureCells::new);
    let cell_with = |boxes: &CellSet, regions: u32| {
        let on_start: u32 = boxes
            .words()
            .iter()
            .zip(board.start_boxes.words())
            .map(|(a, b)| (a & b).count_ones())
            .sum();
        on_start | regions.min(255) << 8
    };
    let mut box_cells: Vec<u16> = Vec::with_capacity(board.box_count());
    let mut saved_bounds = SavedBounds::new(board.box_count());
    // The node whose position `bound` was last prepared for.
    let mut prepared = NO_NODE;
    if let Some(cells) = &mut cells {
        let cell = cell_with(&solved.boxes, solved_regions);
        for root in 0..store.len() as u32 {
            cells.push(cell, priority(0, store.h[root as usize]), root);
        }
    }
    loop {
        let prio = |j: usize| priority(store.g[j], store.h[j]);
        let from_cells = FeatureCells::pop_on_turn(
            &mut cells,
            (outcome.expanded, opts.feature_cycle),
            store,
            &prio,
        );
        let Some(node) = from_cells.or_else(|| pop_open(&mut open, store)) else {
            outcome.stop = StopReason::Exhausted;
            return outcome;
        };
        if let Some(stop) = budget_exceeded(budget, &deadline, outcome.expanded) {
            outcome.stop = stop;
            return outcome;
        }
        let i = node as usize;
        store.closed[i] = true;
        outcome.expanded += 1;
        let g = store.g[i];
        let mut pos = Position::from_words(board, store.words(node), store.player(node));
        reach.compute(board, &pos.boxes, pos.player);
        // The bound's optimum repaired from the parent's when the parent was the last node
        // expanded (greedy search dives) or from a near ancestor's still cached, as forward.
        let h = saved_bounds.prepare(
            &mut bound,
            &targets,
            &pos.boxes,
            (node, prepared),
            store,
            |j| {
                let push = store.push[j as usize];
                (store.parent[j as usize] != NO_NODE)
                    .then(|| (board.step(push.from, push.dir), push.from))
            },
        );
        saved_bounds.put(node, &bound);
        prepared = node;
        if h.is_none() {
            continue;
        }
        box_cells.clear();
        box_cells.extend(pos.boxes.iter());
        for &c in &box_cells {
            for e in Dir::ALL {
                // The player stands on `b` beside the box (the box lies in direction `e`)
                // and backs off to `b − e`, pulling the box onto `b`.
                let b = board.neighbors[c as usize][e.opposite() as usize];
                if b == NONE || !reach.reachable(b) {
                    continue;
                }
                let back = board.neighbors[b as usize][e.opposite() as usize];
                if back == NONE || pos.boxes.contains(back) || targets.dead[b as usize] {
                    continue;
                }
                pos.boxes.remove(c);
                pos.boxes.insert(b);
                let key =
                    pos.box_hash ^ board.zobrist_box[c as usize] ^ board.zobrist_box[b as usize];
                // The child's slot is known before its player's area: fetched during the flood.
                store.prefetch(key);
                // The child's player area, flooded on the parent's free cells with the two
                // cells of the pull changed.
                let norm = scratch.compute_after_move(board, &pos.boxes, &reach, (c, b), back);
                debug_assert_eq!(norm, scratch.compute(board, &pos.boxes, back));
                // The child's free-floor areas, for the connectivity term and its feature
                // cell: counted beside the player's area just flooded.
                let mut cell = 0;
                // The bound (a one-row repair) only for a position not stored yet: a
                // duplicate is skipped either way, and so is a deadlock the bound finds.
                let bounded = match store.find(key, pos.boxes.words(), norm) {
                    Some(_) => None,
                    None => bound.after_push(&targets, c, b),
                };
                let child = match bounded {
                    None => None,
                    Some(_) if store.len() >= limit => {
                        outcome.stop = StopReason::Nodes;
                        return outcome;
                    }
                    Some(h) => {
                        let counted = weighs_areas(h) || cells.is_some();
                        let regions = if counted {
                            count_regions_beside_player(board, &pos.boxes, &mut scratch)
                        } else {
                            1
                        };
                        debug_assert!(
                            !counted || regions == count_regions(board, &pos.boxes, &mut scratch)
                        );
                        cell = cell_with(&pos.boxes, regions);
                        let h = with_areas(h, regions);
                        // The forward push that this pull undoes: the box on `b` pushed
                        // in direction `e` back onto `c`.
                        let push = Push { from: b, dir: e };
                        let j = store.insert(key, pos.boxes.words(), norm, node, push, g + 1, h);
                        outcome.nodes += 1;
                        Some(j)
                    }
                };
                let is_start = child.is_some()
                    && norm == start_norm
                    && pos.boxes.words() == start.boxes.words();
                pos.boxes.remove(b);
                pos.boxes.insert(c);
                let Some(j) = child else { continue };
                let found = if is_start {
                    Some(backwards(store, j))
                } else {
                    meet.and_then(|forward| joined_backward(forward, store, j))
                };
                if let Some(pushes) = found {
                    outcome.pushes = Some(pushes);
                    outcome.stop = StopReason::Solved;
                    return outcome;
                }
                let p = priority(g + 1, store.h[j as usize]);
                open.push(p, j);
                if let Some(cells) = &mut cells {
                    cells.push(cell, p, j);
                }
            }
        }
    }
}

/// The pull search from the solved position to the start (see the module doc), alone: no
/// forward search to meet.
pub fn reverse_best_first(
    board: &Board,
    order: Order,
    opts: SearchOptions,
    budget: &Budget,
) -> SearchOutcome {
    reverse_search(board, order, opts, budget, None, &mut new_store(board))
}

/// The next open node not yet expanded (a node is filed once, when it is stored).
fn pop_open(open: &mut Buckets, store: &NodeStore) -> Option<u32> {
    loop {
        let (_, n) = open.pop()?;
        if !store.closed[n as usize] {
            return Some(n);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;
    use crate::position::pushes_to_lurd;

    fn board(text: &str) -> Board {
        Board::new(&Level::parse_one(text).expect("a level")).expect("a board")
    }

    /// Replays `pushes` forward from the start and checks the boxes end on the goals.
    fn solves(board: &Board, pushes: &[Push]) -> bool {
        pushes_to_lurd(board, pushes).is_some() && {
            let mut pos = Position::start(board);
            for &p in pushes {
                pos.apply_push(board, p);
            }
            pos.is_solved(board)
        }
    }

    #[test]
    fn pulls_read_backwards_solve_small_levels() {
        for text in [
            "#####\n#@$.#\n#####\n",
            "#######\n#.@ # #\n#$* $ #\n#   $ #\n# ..  #\n#  *  #\n#######\n",
            "  ####\n###  #\n#  $ #\n# #. #\n# #  #\n# $.@#\n#    #\n######\n",
        ] {
            let b = board(text);
            let out = reverse_best_first(
                &b,
                Order::Greedy,
                SearchOptions::NO_MACROS,
                &Budget::iterations(100_000),
            );
            let pushes = out.pushes.unwrap_or_else(|| panic!("solved: {text}"));
            assert!(solves(&b, &pushes), "{text}");
        }
    }

    #[test]
    fn a_level_with_a_box_stuck_in_a_corner_is_exhausted() {
        let b = board("######\n#$ . #\n# @  #\n######\n");
        let out = reverse_best_first(
            &b,
            Order::Greedy,
            SearchOptions::NO_MACROS,
            &Budget::iterations(100_000),
        );
        assert!(out.pushes.is_none());
        assert_eq!(out.stop, StopReason::Exhausted);
    }

    #[test]
    fn the_player_must_reach_the_start_area() {
        // The solved boxes cut the floor in two; only a root in the right area leads back.
        let b = board("#######\n#@ $ .#\n#######\n");
        let out = reverse_best_first(
            &b,
            Order::Weighted(1),
            SearchOptions::NO_MACROS,
            &Budget::iterations(100_000),
        );
        let pushes = out.pushes.expect("solved");
        assert_eq!(pushes.len(), 2);
        assert!(solves(&b, &pushes));
    }
}
