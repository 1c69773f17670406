//! Best-first push search: BFS (FIFO), A* (f = g + h, bucket queue, deeper first among equal
//! f), weighted A* (f = g + w·h) and greedy best-first (h, then deeper first). Duplicates are
//! caught by the transposition table of [`super::store::NodeStore`] (positions with the
//! normalized player). Greedy and weighted A* can also take turns among feature cells
//! ([`SearchOptions::feature_cycle`], after FESS). Children are pruned by dead squares, freeze
//! and closed-diagonal deadlocks, an infinite matching bound and, after a box freezes on a
//! goal, the matching with frozen boxes as walls ([`crate::bipartite`]).

use super::join::joined_forward;
use super::store::{NodeStore, NO_NODE};
use super::{budget_exceeded, SearchOutcome};
use crate::bipartite::FrozenMatching;
use crate::board::{Board, CellSet, NONE};
use crate::corral::CorralPruner;
use crate::corraldl::CorralDeadlock;
use crate::deadlock::{closed_diagonal_deadlock, window_has_enclosed_after_move, FreezeCheck};
use crate::dir::Dir;
use crate::features::{boxes_in_doors, door_cells, Features};
use crate::goalroom::GoalRooms;
use crate::matching::{LowerBound, SavedBound};
use crate::packing::{packing_ranks, packing_violations};
use crate::position::{
    child_normalized_player, count_regions, count_regions_beside_player, generate_pushes,
    regions_after_push, Position, Push, Reach,
};
use crate::tunnel::tunnel_tail;
use puzzle_engine::{Budget, FxHashMap, StopReason};
use std::collections::VecDeque;

/// Positions stored by one corral deadlock search.
const CORRAL_SEARCH_LIMIT: usize = 300;

/// The expansion order of [`super::best_first`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Breadth-first (push-optimal).
    Bfs,
    /// A*: f = g + h (push-optimal with the admissible matching bound).
    AStar,
    /// Weighted A*: f = g + w·h (at most w times the optimum).
    Weighted(u32),
    /// Greedy best-first: f = h plus the goal packing-order penalty.
    Greedy,
}

impl Order {
    fn priority(self, g: u32, h: u32) -> usize {
        match self {
            Order::Bfs => g as usize,
            Order::AStar => (g + h) as usize,
            Order::Weighted(w) => (g + w * h) as usize,
            Order::Greedy => h as usize,
        }
    }
}

/// "No entry" in [`Chains`].
const NIL: u32 = u32::MAX;

/// Singly linked LIFO chains of nodes in one flat arena: a chain is the index of its newest
/// entry, and an entry holds its node and the next (older) entry. Popped entries are reused,
/// so the arena holds as many entries as the chains together. The many small queues of the
/// feature cells (a bucket queue per cell, most buckets holding a few positions) so cost 8
/// bytes an entry and 4 bytes a bucket, where a `Vec` per bucket cost 24 bytes a bucket and
/// a heap block of at least four entries a non-empty one: on XSokoban 90 at 4 M nodes the
/// weighted A* with feature cycling on every expansion peaked at 537 MB with a `Vec` per
/// bucket (the same search without cycling: 382 MB).
struct Chains {
    entries: Vec<(u32, u32)>,
    free: u32,
}

impl Chains {
    fn new() -> Self {
        Chains {
            entries: Vec::new(),
            free: NIL,
        }
    }

    /// Put `node` at the front of the chain `head`.
    fn push(&mut self, head: &mut u32, node: u32) {
        let k = if self.free == NIL {
            self.entries.push((node, *head));
            (self.entries.len() - 1) as u32
        } else {
            let k = self.free;
            self.free = self.entries[k as usize].1;
            self.entries[k as usize] = (node, *head);
            k
        };
        *head = k;
    }

    /// Take the node at the front of the chain `head`.
    fn pop(&mut self, head: &mut u32) -> Option<u32> {
        if *head == NIL {
            return None;
        }
        let k = *head as usize;
        let (node, next) = self.entries[k];
        *head = next;
        self.entries[k].1 = self.free;
        self.free = k as u32;
        Some(node)
    }
}

/// A bucket priority queue on small integer priorities, LIFO within a bucket, whose buckets
/// are chains of a [`Chains`] arena it shares with other queues (it pops what [`Buckets`]
/// pops, in the same order).
struct ChainQueue {
    heads: Vec<u32>,
    min: usize,
    len: usize,
}

impl ChainQueue {
    fn new() -> Self {
        ChainQueue {
            heads: Vec::new(),
            min: 0,
            len: 0,
        }
    }

    fn push(&mut self, chains: &mut Chains, priority: usize, node: u32) {
        if priority >= self.heads.len() {
            self.heads.resize(priority + 1, NIL);
        }
        chains.push(&mut self.heads[priority], node);
        self.min = self.min.min(priority);
        self.len += 1;
    }

    fn pop(&mut self, chains: &mut Chains) -> Option<(usize, u32)> {
        if self.len == 0 {
            return None;
        }
        while self.heads[self.min] == NIL {
            self.min += 1;
        }
        self.len -= 1;
        let node = chains.pop(&mut self.heads[self.min])?;
        Some((self.min, node))
    }
}

/// A bucket priority queue on small integer priorities, LIFO within a bucket: the search's
/// open list (a few hundred buckets, each a `Vec`, 4 bytes an entry).
pub(super) struct Buckets {
    buckets: Vec<Vec<u32>>,
    min: usize,
    len: usize,
}

impl Buckets {
    pub(super) fn new() -> Self {
        Buckets {
            buckets: Vec::new(),
            min: 0,
            len: 0,
        }
    }
    pub(super) fn push(&mut self, priority: usize, node: u32) {
        if priority >= self.buckets.len() {
            self.buckets.resize_with(priority + 1, Vec::new);
        }
        self.buckets[priority].push(node);
        self.min = self.min.min(priority);
        self.len += 1;
    }
    pub(super) fn pop(&mut self) -> Option<(usize, u32)> {
        if self.len == 0 {
            return None;
        }
        while self.buckets[self.min].is_empty() {
            self.min += 1;
        }
        self.len -= 1;
        let node = self.buckets[self.min].pop()?;
        Some((self.min, node))
    }
}

/// The open positions filed by feature cell (FESS-style cycling, [`SearchOptions::feature_cycle`]):
/// one bucket queue per cell, visited in turn, their buckets chains of one arena.
pub(super) struct FeatureCells {
    index: FxHashMap<u32, usize>,
    cells: Vec<ChainQueue>,
    chains: Chains,
    next: usize,
}

impl FeatureCells {
    pub(super) fn new() -> Self {
        FeatureCells {
            index: FxHashMap::default(),
            cells: Vec::new(),
            chains: Chains::new(),
            next: 0,
        }
    }
    pub(super) fn push(&mut self, cell: u32, priority: usize, node: u32) {
        let k = *self.index.entry(cell).or_insert_with(|| {
            self.cells.push(ChainQueue::new());
            self.cells.len() - 1
        });
        self.cells[k].push(&mut self.chains, priority, node);
    }
    /// On an expansion whose number `expanded` is a multiple of `every` (the cycling turn,
    /// [`SearchOptions::feature_cycle`]), the best live position of the next non-empty cell
    /// of `cells`; otherwise, or without cells, `None` (the search's own queue decides).
    pub(super) fn pop_on_turn(
        cells: &mut Option<FeatureCells>,
        (expanded, every): (u64, u32),
        store: &NodeStore,
        prio: &impl Fn(usize) -> usize,
    ) -> Option<u32> {
        match cells {
            Some(cells) if expanded.is_multiple_of(u64::from(every)) => cells.pop(store, prio),
            _ => None,
        }
    }

    /// The best live position of the next non-empty cell, in turn.
    pub(super) fn pop(&mut self, store: &NodeStore, prio: &impl Fn(usize) -> usize) -> Option<u32> {
        for _ in 0..self.cells.len() {
            let k = self.next % self.cells.len();
            self.next = k + 1;
            let (queue, chains) = (&mut self.cells[k], &mut self.chains);
            if let Some(n) = pop_live(|| queue.pop(chains), store, prio) {
                return Some(n);
            }
        }
        None
    }
}

/// Open list: FIFO for BFS, buckets otherwise.
enum Open {
    Fifo(VecDeque<u32>),
    Buckets(Buckets),
}

/// Switches of [`super::best_first_opts`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// PI-corral pruning (keeps push-optimality).
    pub corrals: bool,
    /// Goal macros into goal rooms with a fill order ([`crate::goalroom`]); boxes packed in an
    /// on-plan room are not pushed again. Not push-optimal.
    pub goal_macros: bool,
    /// Goal cut: when some push starts a goal macro, only goal macros are searched there.
    pub goal_cut: bool,
    /// Tunnel macros ([`crate::tunnel`]). Not push-optimal.
    pub tunnel_macros: bool,
    /// Corral deadlock search ([`crate::corraldl`]) before expanding a position (keeps
    /// push-optimality: it only removes deadlocked positions).
    pub corral_deadlocks: bool,
    /// Greedy and weighted A* only (A* and BFS ignore it: they stay push-optimal): priority
    /// points per free-cell area beyond the first (the FESS connectivity feature, Shoham &
    /// Schaeffer 2020 §4; 0 = off). Steers the search away from positions where boxes cut
    /// the player's floor into pieces.
    pub connectivity: u32,
    /// Greedy search only: priority points per box on a goal filled out of packing order
    /// ([`crate::packing`]).
    pub packing: u32,
    /// Greedy and weighted A* only: feature-space cycling in the spirit of FESS (Shoham &
    /// Schaeffer 2020 §3). Positions are also filed by their feature cell
    /// ([`crate::features::Features`]: boxes on goals, free-floor areas, goal boxes out of
    /// packing order, boxes in doorways). One expansion in `feature_cycle` takes the best
    /// position of the next non-empty cell in turn (1 = every expansion, 0 = off), so the
    /// search keeps spreading over different kinds of positions instead of sinking into one
    /// plateau of its priority.
    pub feature_cycle: u32,
    /// Greedy and weighted A* only: priority points per push that no advisor suggested (FESS's
    /// move weights, Shoham & Schaeffer 2020 §4: advisor moves cost 0, others 1; 0 = off).
    /// After each expansion, each advisor names at most one child that improves its feature:
    /// more boxes on goals without breaking the packing order, fewer free-floor areas, fewer
    /// boxes in doorways. A position's advice cost is the number of unadvised pushes on its
    /// path, so the search follows chains of advised pushes before spreading out.
    pub advice: u32,
    /// Search backwards, pulling boxes from the solved position to the start
    /// ([`super::reverse_best_first`]); only the order, the connectivity weight and feature
    /// cycling apply then.
    pub reverse: bool,
    /// Bidirectional search (0 = off): first a helper search in the other direction gets
    /// `meet` per cent of the budget (time, expansions and nodes), then this search runs
    /// with the rest and stops at the first position the helper stored, joining the two
    /// paths (docs/METHODS.md §8.12). The helper is this search with the direction
    /// flipped, without connectivity term backwards.
    pub meet: u32,
    /// Run FESS, the feature space search over macro moves ([`crate::fess`], Shoham &
    /// Schaeffer 2020), instead of a best-first search: the order and the other switches do
    /// not apply then. Lets the portfolio give FESS a share of its budget.
    pub fess: bool,
    /// With `fess`: the advisors name distinct moves ([`crate::fess::Sharing::Distinct`]),
    /// and the search has a tree of its own, dropped when its phase ends.
    pub fess_distinct: bool,
}

impl SearchOptions {
    /// The push-optimal settings: corral pruning only.
    pub const OPTIMAL: SearchOptions = SearchOptions {
        corrals: true,
        goal_macros: false,
        goal_cut: false,
        tunnel_macros: false,
        corral_deadlocks: false,
        connectivity: 0,
        packing: 4,
        feature_cycle: 0,
        advice: 0,
        reverse: false,
        meet: 0,
        fess: false,
        fess_distinct: false,
    };
    /// The broader any-solution phases: corrals and corral deadlocks, no macros (a search
    /// with these settings that exhausts its space proves the level unsolvable).
    pub const NO_MACROS: SearchOptions = SearchOptions {
        corrals: true,
        goal_macros: false,
        goal_cut: false,
        tunnel_macros: false,
        corral_deadlocks: true,
        connectivity: 0,
        packing: 4,
        feature_cycle: 0,
        advice: 0,
        reverse: false,
        meet: 0,
        fess: false,
        fess_distinct: false,
    };
    /// The any-solution settings: corrals, goal macros and the goal cut.
    pub const MACROS: SearchOptions = SearchOptions {
        corrals: true,
        goal_macros: true,
        goal_cut: true,
        tunnel_macros: true,
        corral_deadlocks: true,
        connectivity: 0,
        packing: 4,
        feature_cycle: 0,
        advice: 0,
        reverse: false,
        meet: 0,
        fess: false,
        fess_distinct: false,
    };
}

/// An empty node store for positions of `board`.
pub(super) fn new_store(board: &Board) -> NodeStore {
    NodeStore::new(board.start_boxes.words().len())
}

/// The forward search of [`super::best_first_opts`], storing its nodes in `store` (empty). With
/// `meet`, the nodes of a reverse search ([`super::reverse`]): a new position stored there
/// ends the search, its path joined to the reverse one.
pub(super) fn forward_search(
    board: &Board,
    order: Order,
    opts: SearchOptions,
    budget: &Budget,
    meet: Option<&NodeStore>,
    store: &mut NodeStore,
) -> SearchOutcome {
    let deadline = budget.start();
    let mut reach = Reach::new(board.cells());
    let mut child_reach = Reach::new(board.cells());
    let mut deadlock_tests = (FreezeCheck::new(), FrozenMatching::new());
    let mut bound = LowerBound::new();
    let mut pushes: Vec<Push> = Vec::new();
    let mut pos = Position::start(board);
    if pos.is_solved(board) {
        return SearchOutcome::solved_at_start(1);
    }
    let mut outcome = SearchOutcome::exhausted(1);
    let ranks = packing_ranks(board);
    let packing = matches!(order, Order::Greedy).then_some((ranks.as_slice(), opts.packing));
    let connectivity = match order {
        Order::Greedy | Order::Weighted(_) => opts.connectivity,
        Order::AStar | Order::Bfs => 0,
    };
    let Some(mut h0) = bound.compute(board, &pos.boxes) else {
        return outcome;
    };
    let cycle = opts.feature_cycle > 0 && matches!(order, Order::Greedy | Order::Weighted(_));
    // Goal boxes out of packing order: the greedy priority's penalty and a feature.
    let root_out_of_order = if packing.is_some() || cycle {
        packing_violations(board, &ranks, &pos.boxes)
    } else {
        0
    };
    if let Some((_, weight)) = packing {
        h0 += weight * root_out_of_order;
    }
    let root_regions = count_regions(board, &pos.boxes, &mut child_reach);
    if connectivity > 0 && h0 > 0 {
        h0 += connectivity * (root_regions - 1);
    }
    let norm = reach.compute(board, &pos.boxes, pos.player);
    // Free cells outside the player's area with no neighbour (cut off from it whatever the
    // boxes do): each is a free area of its own in every position, never a corral's.
    let stranded_free = (0..board.cells() as u16)
        .filter(|&c| {
            board.neighbors[c as usize] == [NONE; 4]
                && !pos.boxes.contains(c)
                && !reach.reachable(c)
        })
        .count() as u32;
    let dummy = Push {
        from: 0,
        dir: Dir::Up,
    };
    let root = store.insert(pos.box_hash, pos.boxes.words(), norm, NO_NODE, dummy, 0, h0);
    // FESS move weights: the unadvised pushes on each stored position's path (by node).
    let advice = match order {
        Order::Greedy | Order::Weighted(_) => opts.advice,
        Order::AStar | Order::Bfs => 0,
    };
    let root_priority = order.priority(0, h0);
    let mut open = match order {
        Order::Bfs => Open::Fifo(VecDeque::from([root])),
        _ => {
            let mut b = Buckets::new();
            b.push(root_priority, root);
            Open::Buckets(b)
        }
    };
    let doors = if cycle || advice > 0 {
        door_cells(board)
    } else {
        CellSet::new(0)
    };
    let mut cells = cycle.then(FeatureCells::new);
    let mut advice_of: Vec<u32> = vec![0];
    let mut children: Vec<(u32, Option<ChildInfo>)> = Vec::new();
    let mut cell_of: Vec<u32> = Vec::new();
    // Free-floor areas of every stored position (node numbers are insertion order), from
    // which most children's counts follow without a flood (`regions_after_push`).
    let mut regions_of: Vec<u32> = vec![root_regions];
    if let Some(cells) = &mut cells {
        let ctx = CycleContext {
            ranks: &ranks,
            doors: &doors,
        };
        let cell = ctx.info(board, &pos, root_regions, root_out_of_order).cell;
        cell_of.push(cell);
        cells.push(cell, root_priority, root);
    }
    let goal_at_pop = order == Order::AStar;
    // Only A* needs to expand a closed position again when a shorter path reaches it (its
    // push-optimality depends on it). Greedy and weighted A* keep the shorter path for the
    // solution but do not search the position's subtree again: in greedy search the priority
    // does not depend on g, and re-expansions were about half of its expansions (XSokoban).
    let reopen = order == Order::AStar;
    let use_corrals = opts.corrals;
    let mut rooms = opts
        .goal_macros
        .then(|| GoalRooms::new(board, &pos.boxes))
        .filter(|r| !r.rooms.is_empty());
    let mut macro_moves: Vec<(Push, Vec<Push>)> = Vec::new();
    let mut corral_dl = opts
        .corral_deadlocks
        .then(|| CorralDeadlock::new(board, CORRAL_SEARCH_LIMIT));
    let mut corrals = CorralPruner::new();
    // The node whose position `bound` was last prepared for.
    let mut prepared = NO_NODE;
    let mut saved_bounds = SavedBounds::new(board.box_count());
    let limit = budget.max_nodes.clamp(1, u32::MAX as usize - 1);
    loop {
        let prio = |j: usize| node_priority(order, advice, store, &advice_of, j);
        let from_cells = FeatureCells::pop_on_turn(
            &mut cells,
            (outcome.expanded, opts.feature_cycle),
            store,
            &prio,
        );
        let node = match (from_cells, &mut open) {
            (Some(n), _) => Some(n),
            (None, Open::Fifo(q)) => q.pop_front(),
            (None, Open::Buckets(b)) => pop_live(|| b.pop(), store, &prio),
        };
        let Some(node) = node else {
            outcome.stop = StopReason::Exhausted;
            return outcome;
        };
        let i = node as usize;
        if goal_at_pop && store.h[i] == 0 {
            outcome.pushes = Some(store.path_to(node));
            outcome.stop = StopReason::Solved;
            return outcome;
        }
        if let Some(stop) = budget_exceeded(budget, &deadline, outcome.expanded) {
            outcome.stop = stop;
            return outcome;
        }
        store.closed[i] = true;
        outcome.expanded += 1;
        let g = store.g[i];
        let parent_regions = regions_of[i];
        pos = Position::from_words(board, store.words(node), store.player(node));
        let parent_min = reach.compute(board, &pos.boxes, pos.player);
        // Every free area but the player's is a stranded cell: no corral to test or prune by.
        let corrals_possible = parent_regions > 1 + stranded_free;
        if let Some(cd) = corral_dl.as_mut().filter(|_| corrals_possible) {
            let moved = if store.parent[i] == NO_NODE {
                NONE
            } else {
                let last = store.last_push(node);
                board.step(last.from, last.dir)
            };
            if cd.is_deadlock(board, &pos, &reach, moved) {
                continue;
            }
        }
        // The bound's optimum is kept from the last expansion when this node is its child
        // by one push (greedy search dives): repaired in one row, not solved again; else
        // from the parent's or a near ancestor's optimum if still cached.
        saved_bounds.prepare(
            &mut bound,
            board,
            &pos.boxes,
            (node, prepared),
            store,
            |j| {
                let push = store.push[j as usize];
                (store.parent[j as usize] != NO_NODE && !store.is_macro(j))
                    .then(|| (push.from, board.step(push.from, push.dir)))
            },
        );
        saved_bounds.put(node, &bound);
        prepared = node;
        generate_pushes(board, &pos, &reach, true, &mut pushes);
        // The children's table slots depend on their boxes alone: load them now.
        for &push in &pushes {
            let to = board.step(push.from, push.dir);
            store.prefetch(
                pos.box_hash
                    ^ board.zobrist_box[push.from as usize]
                    ^ board.zobrist_box[to as usize],
            );
        }
        if use_corrals && corrals_possible {
            corrals.restrict(board, &pos, &reach, &mut pushes);
        }
        macro_moves.clear();
        if let Some(rooms) = &mut rooms {
            pushes.retain(|p| !rooms.is_packed(p.from, &pos.boxes));
            let mut k = 0;
            while k < pushes.len() {
                let push = pushes[k];
                let old = pos.apply_push(board, push);
                let path = rooms.goal_macro(board, &pos.boxes, push);
                pos.undo_push(board, push, old);
                match path {
                    Some(path) if !path.is_empty() => {
                        macro_moves.push((push, path));
                        pushes.swap_remove(k);
                    }
                    _ => k += 1,
                }
            }
            if opts.goal_cut && !macro_moves.is_empty() {
                pushes.clear();
            }
        }
        if opts.tunnel_macros {
            let mut k = 0;
            while k < pushes.len() {
                let push = pushes[k];
                let old = pos.apply_push(board, push);
                let tail = tunnel_tail(board, &pos.boxes, push);
                pos.undo_push(board, push, old);
                if tail.is_empty() {
                    k += 1;
                } else {
                    macro_moves.push((push, tail));
                    pushes.swap_remove(k);
                }
            }
        }
        let plain = pushes.len();
        for (k, &push) in pushes
            .iter()
            .chain(macro_moves.iter().map(|(p, _)| p))
            .enumerate()
        {
            let tail: &[Push] = if k < plain {
                &[]
            } else {
                &macro_moves[k - plain].1
            };
            let saved = (!tail.is_empty()).then(|| pos.clone());
            let old = pos.apply_push(board, push);
            for &p in tail {
                pos.apply_push(board, p);
            }
            let to = match tail.last() {
                Some(p) => board.step(p.from, p.dir),
                None => board.step(push.from, push.dir),
            };
            let child = expand_child(
                board,
                &mut pos,
                (&reach, parent_min),
                &mut child_reach,
                &mut deadlock_tests,
                &mut bound,
                store,
                (push, tail),
                to,
                node,
                g + 1 + tail.len() as u32,
                parent_regions,
                limit,
                packing,
                connectivity,
                reopen,
                (cycle || advice > 0).then_some(CycleContext {
                    ranks: &ranks,
                    doors: &doors,
                }),
            );
            match saved {
                Some(saved) => pos = saved,
                None => pos.undo_push(board, push, old),
            }
            match child {
                Child::Pruned => {}
                Child::Improved(j) | Child::New(j, _) => {
                    outcome.nodes += u64::from(matches!(child, Child::New(..)));
                    if !goal_at_pop && store.h[j as usize] == 0 {
                        outcome.pushes = Some(store.path_to(j));
                        outcome.stop = StopReason::Solved;
                        return outcome;
                    }
                    if let Some(pushes) = meet.and_then(|m| joined_forward(store, j, m)) {
                        outcome.pushes = Some(pushes);
                        outcome.stop = StopReason::Solved;
                        return outcome;
                    }
                    let info = match child {
                        Child::New(_, info) => {
                            regions_of.push(info.regions);
                            if advice > 0 {
                                advice_of.push(u32::MAX);
                            }
                            if cells.is_some() {
                                cell_of.push(info.cell);
                            }
                            Some(info)
                        }
                        _ => None,
                    };
                    children.push((j, info));
                }
                Child::Full => {
                    outcome.stop = StopReason::Nodes;
                    return outcome;
                }
            }
        }
        if advice > 0 {
            let parent_info = ChildInfo {
                cell: 0,
                regions: parent_regions,
                on_goals: pos.boxes_on_goals(board) as u32,
                in_doors: boxes_in_doors(&pos.boxes, &doors),
                out_of_order: packing_violations(board, &ranks, &pos.boxes),
            };
            let advised = advised_children(&parent_info, &children, |j| store.h[j as usize]);
            let base = advice_of[i];
            for (k, &(j, _)) in children.iter().enumerate() {
                let cost = base.saturating_add(u32::from(!advised.contains(&Some(k))));
                let a = &mut advice_of[j as usize];
                *a = (*a).min(cost);
            }
        }
        for (j, _) in children.drain(..) {
            let ju = j as usize;
            let p = node_priority(order, advice, store, &advice_of, ju);
            match &mut open {
                Open::Fifo(q) => q.push_back(j),
                Open::Buckets(b) => b.push(p, j),
            }
            if let Some(cells) = &mut cells {
                cells.push(cell_of[ju], p, j);
            }
        }
    }
}

/// The queue priority of stored node `j`: the order's, plus `advice` points per unadvised
/// push on its path ([`SearchOptions::advice`]).
fn node_priority(
    order: Order,
    advice: u32,
    store: &NodeStore,
    advice_of: &[u32],
    j: usize,
) -> usize {
    let base = order.priority(store.g[j], store.h[j]);
    if advice == 0 {
        base
    } else {
        base + advice as usize * advice_of[j] as usize
    }
}

/// The children that the advisors suggest (FESS §4, [`SearchOptions::advice`]), as indices
/// into `children`, one per advisor: each names at most one new child that improves its
/// feature over the parent's, the one with the lowest `h` among those that improve it most.
/// - packing: more boxes on goals, with no more goal boxes out of packing order;
/// - connectivity: fewer free-floor areas;
/// - room connectivity: fewer boxes in doorways.
fn advised_children(
    parent: &ChildInfo,
    children: &[(u32, Option<ChildInfo>)],
    h_of: impl Fn(u32) -> u32,
) -> [Option<usize>; 3] {
    // Per advisor: (improvement, -h) of the best child so far, and its index.
    let mut best: [Option<((u32, i64), usize)>; 3] = [None; 3];
    for (k, (j, info)) in children.iter().enumerate() {
        let Some(c) = info else { continue };
        let h = -i64::from(h_of(*j));
        let gains = [
            (c.on_goals > parent.on_goals && c.out_of_order <= parent.out_of_order)
                .then(|| c.on_goals - parent.on_goals),
            (c.regions < parent.regions).then(|| parent.regions - c.regions),
            (c.in_doors < parent.in_doors).then(|| parent.in_doors - c.in_doors),
        ];
        for (slot, gain) in best.iter_mut().zip(gains) {
            if let Some(gain) = gain {
                if slot.is_none_or(|(key, _)| (gain, h) > key) {
                    *slot = Some(((gain, h), k));
                }
            }
        }
    }
    best.map(|b| b.map(|(_, k)| k))
}

/// Pop the best live entry of `b` (skipping closed nodes and stale priorities).
fn pop_live(
    mut pop: impl FnMut() -> Option<(usize, u32)>,
    store: &NodeStore,
    prio: &impl Fn(usize) -> usize,
) -> Option<u32> {
    loop {
        let (p, n) = pop()?;
        let i = n as usize;
        if store.closed[i] || prio(i) != p {
            continue; // stale entry
        }
        return Some(n);
    }
}

/// What a child needs for its feature cell ([`SearchOptions::feature_cycle`]).
#[derive(Clone, Copy)]
struct CycleContext<'a> {
    ranks: &'a [u16],
    doors: &'a CellSet,
}

impl CycleContext<'_> {
    /// The features of `pos` and its feature cell; `pos` has `regions` free-floor areas and
    /// `out_of_order` goal boxes filled out of packing order.
    fn info(&self, board: &Board, pos: &Position, regions: u32, out_of_order: u32) -> ChildInfo {
        let f = Features {
            on_goals: pos.boxes_on_goals(board) as u32,
            regions,
            out_of_order,
            in_doors: boxes_in_doors(&pos.boxes, self.doors),
        };
        ChildInfo {
            cell: f.cell(),
            regions,
            on_goals: f.on_goals,
            in_doors: f.in_doors,
            out_of_order,
        }
    }
}

/// The features of a new child ([`Features`]; `on_goals`, `in_doors` and `cell` are 0 unless
/// feature cycling or advice is on).
#[derive(Clone, Copy, Debug)]
struct ChildInfo {
    cell: u32,
    regions: u32,
    on_goals: u32,
    in_doors: u32,
    out_of_order: u32,
}

enum Child {
    Pruned,
    /// A new position and its features.
    New(u32, ChildInfo),
    Improved(u32),
    Full,
}

/// Evaluate the child position `pos` (the push already applied): deadlock tests, duplicate
/// test, bound, insertion.
#[allow(clippy::too_many_arguments)]
fn expand_child(
    board: &Board,
    pos: &mut Position,
    (parent_reach, parent_min): (&Reach, u16),
    reach: &mut Reach,
    deadlock_tests: &mut (FreezeCheck, FrozenMatching),
    bound: &mut LowerBound,
    store: &mut NodeStore,
    (push, tail): (Push, &[Push]),
    to: u16,
    parent: u32,
    g: u32,
    parent_regions: u32,
    limit: usize,
    packing: Option<(&[u16], u32)>,
    connectivity: u32,
    reopen: bool,
    cycle: Option<CycleContext<'_>>,
) -> Child {
    // The deadlock tests (local around `to`) run only for a new position or a shorter path:
    // a duplicate reached no faster is pruned either way.
    // The closed-diagonal test needs an enclosed cell in its window: after a single push,
    // looked for on the parent's free rows first (the same answer, a row at a time).
    let may_enclose = || {
        let free = parent_reach.row_state().filter(|_| tail.is_empty());
        free.and_then(|(_, free)| {
            window_has_enclosed_after_move(board, free, (push.from, to), push.from)
        })
        .unwrap_or(true)
    };
    let deadlocked = |pos: &Position, (freeze, matching): &mut (FreezeCheck, FrozenMatching)| {
        freeze.is_deadlock(board, &pos.boxes, to)
            || (may_enclose() && closed_diagonal_deadlock(board, &pos.boxes, pos.player, to))
            || matching.is_deadlock_after_push(board, &pos.boxes, to)
    };
    // Whether `reach` holds the child's player area (flooded).
    let mut flooded = false;
    let norm = if tail.is_empty() {
        child_normalized_player(board, &pos.boxes, parent_reach, parent_min, push).unwrap_or_else(
            || {
                flooded = true;
                reach.compute_after_move(
                    board,
                    &pos.boxes,
                    parent_reach,
                    (push.from, to),
                    pos.player,
                )
            },
        )
    } else {
        reach.compute(board, &pos.boxes, pos.player)
    };
    debug_assert_eq!(norm, reach.compute(board, &pos.boxes, pos.player));
    let key = pos.box_hash;
    if let Some(j) = store.find(key, pos.boxes.words(), norm) {
        let ju = j as usize;
        if g < store.g[ju] {
            if deadlocked(pos, deadlock_tests) {
                return Child::Pruned;
            }
            store.g[ju] = g;
            store.parent[ju] = parent;
            store.push[ju] = push;
            store.set_macro(j, tail);
            if store.closed[ju] && !reopen {
                return Child::Pruned;
            }
            store.closed[ju] = false;
            return Child::Improved(j);
        }
        return Child::Pruned;
    }
    if deadlocked(pos, deadlock_tests) {
        return Child::Pruned;
    }
    let Some(mut h) = bound.after_push(board, push.from, to) else {
        return Child::Pruned;
    };
    // Counted once for the greedy penalty and the feature cell (the same packing ranks).
    let ranks = packing.map(|(r, _)| r).or(cycle.map(|ctx| ctx.ranks));
    let out_of_order = ranks.map_or(0, |r| packing_violations(board, r, &pos.boxes));
    if let Some((_, weight)) = packing {
        h += weight * out_of_order;
    }
    // Counted for every position: the connectivity term and the feature cell use it, and a
    // position whose only free areas are the player's and the stranded cells has no corral.
    let regions = {
        let known = if tail.is_empty() {
            let child_area = flooded.then_some(&*reach);
            regions_after_push(
                board,
                &pos.boxes,
                (push.from, to),
                parent_regions,
                parent_reach,
                child_area,
            )
        } else {
            None
        };
        let regions = match known {
            Some(r) => r,
            // The child's flood holds the player's area: only the others are flooded.
            None if flooded => count_regions_beside_player(board, &pos.boxes, reach),
            None => count_regions(board, &pos.boxes, reach),
        };
        debug_assert_eq!(regions, count_regions(board, &pos.boxes, reach));
        regions
    };
    if connectivity > 0 && h > 0 {
        h += connectivity * (regions - 1);
    }
    if store.len() >= limit {
        return Child::Full;
    }
    let j = store.insert(key, pos.boxes.words(), norm, parent, push, g, h);
    if !tail.is_empty() {
        // A new node is in no macro record yet.
        store.set_macro(j, tail);
    }
    let info = match cycle {
        Some(ctx) => ctx.info(board, pos, regions, out_of_order),
        None => ChildInfo {
            cell: 0,
            regions,
            on_goals: 0,
            in_doors: 0,
            out_of_order,
        },
    };
    Child::New(j, info)
}

/// The most one-push moves [`SavedBounds::prepare`] repairs an ancestor's optimum along.
const ANCESTOR_REPAIRS: usize = 8;

/// The bound optima of recently expanded nodes, for preparing the bound of a child of one of
/// them by a one-row repair ([`LowerBound::prepare_from`]): best-first search expands most
/// nodes soon after their parents (with 4,096 entries, 91–99 % of the expansions of three
/// XSokoban and Microban searches found their parent). Direct-mapped by node number, at
/// most about 8 MB.
pub(super) struct SavedBounds {
    slots: Vec<(u32, SavedBound)>,
    /// Scratch for [`SavedBounds::prepare`]: the boxes along a chain of repairs.
    boxes: CellSet,
}

impl SavedBounds {
    /// An empty cache for positions of `boxes` boxes.
    pub(super) fn new(boxes: usize) -> Self {
        // A saved optimum holds about 4 words per box.
        let bytes = 32 * (boxes + 1) + 64;
        let slots = ((8 << 20) / bytes).clamp(1, 4096);
        SavedBounds {
            slots: vec![(NO_NODE, SavedBound::default()); slots],
            boxes: CellSet::default(),
        }
    }

    /// The saved optimum of `node` in `slots`, if still cached.
    fn cached(slots: &[(u32, SavedBound)], node: u32) -> Option<&SavedBound> {
        let (tag, saved) = &slots[node as usize % slots.len()];
        (*tag == node && node != NO_NODE).then_some(saved)
    }

    /// Prepare `bound` for `node` (its boxes `boxes`): repaired in one row from its parent's
    /// optimum when that is the one `bound` holds (`prepared`, the node last prepared) or is
    /// still cached, else row by row along the one-push moves from its nearest ancestor
    /// whose optimum is held or cached (at most [`ANCESTOR_REPAIRS`] up), else solved afresh.
    /// `moved(i)` is the move of the box (from, to) from `i`'s parent to `i`, `None` for a
    /// root or a child by more than one push. Each repair is O(n²) against O(n³) afresh; the
    /// bound is the same either way.
    pub(super) fn prepare(
        &mut self,
        bound: &mut LowerBound,
        board: &Board,
        boxes: &CellSet,
        (node, prepared): (u32, u32),
        store: &NodeStore,
        moved: impl Fn(u32) -> Option<(u16, u16)>,
    ) -> Option<u32> {
        // The moves from the ancestor to `node`, last first.
        let mut chain: [(u16, u16); ANCESTOR_REPAIRS] = [(0, 0); ANCESTOR_REPAIRS];
        let mut len = 0;
        let mut cur = node;
        let base = loop {
            let Some(m) = moved(cur).filter(|_| len < ANCESTOR_REPAIRS) else {
                return bound.prepare(board, boxes);
            };
            chain[len] = m;
            len += 1;
            let p = store.parent[cur as usize];
            if p == prepared {
                break None;
            }
            if let Some(saved) = Self::cached(&self.slots, p) {
                break Some(saved);
            }
            cur = p;
        };
        if len == 1 {
            return match base {
                None => bound.prepare_after_push(board, boxes, chain[0]),
                Some(saved) => bound.prepare_from(board, boxes, saved, chain[0]),
            };
        }
        // The boxes after the ancestor's move: `node`'s with the later moves undone; then
        // each move made again.
        let after = &mut self.boxes;
        after.clone_from(boxes);
        for &(from, to) in &chain[..len - 1] {
            after.remove(to);
            after.insert(from);
        }
        let mut h = match base {
            None => bound.prepare_after_push(board, after, chain[len - 1]),
            Some(saved) => bound.prepare_from(board, after, saved, chain[len - 1]),
        };
        for &(from, to) in chain[..len - 1].iter().rev() {
            after.remove(from);
            after.insert(to);
            h = bound.prepare_after_push(board, after, (from, to));
        }
        h
    }

    /// Save the optimum `bound` holds prepared, as `node`'s.
    pub(super) fn put(&mut self, node: u32, bound: &LowerBound) {
        let k = node as usize % self.slots.len();
        let (tag, saved) = &mut self.slots[k];
        *tag = if bound.save(saved) { node } else { NO_NODE };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The bound prepared along a chain of pushes from the nearest ancestor whose optimum is
    /// cached (or is the one prepared) equals the bound solved afresh, at every depth of the
    /// chain and past [`ANCESTOR_REPAIRS`] (solved afresh there).
    #[test]
    fn a_bound_repaired_from_an_ancestor_is_the_bound_solved_afresh() {
        let board = crate::fess::test_levels::board(
            "#########\n#.   . .#\n#       #\n# $ $ $ #\n#   @   #\n# $   $ #\n#.     .#\n#########\n",
        );
        let mut store = new_store(&board);
        let mut pos = Position::start(&board);
        let mut reach = Reach::new(board.cells());
        let mut pushes = Vec::new();
        let mut node = store.insert(
            0,
            pos.boxes.words(),
            0,
            NO_NODE,
            Push {
                from: 0,
                dir: Dir::Up,
            },
            0,
            0,
        );
        let mut bound = LowerBound::new();
        bound.prepare(&board, &pos.boxes);
        let mut saved = SavedBounds::new(board.box_count());
        saved.put(node, &bound);
        let root = node;
        let moved = |store: &NodeStore, j: u32| {
            let push = store.push[j as usize];
            (store.parent[j as usize] != NO_NODE)
                .then(|| (push.from, board.step(push.from, push.dir)))
        };
        // A chain of pushes, each the first one possible that is not undone at once.
        for depth in 1..=ANCESTOR_REPAIRS + 2 {
            reach.compute(&board, &pos.boxes, pos.player);
            generate_pushes(&board, &pos, &reach, true, &mut pushes);
            let last = store.push[node as usize];
            // Each push the first that leaves a push to make, those not undoing the last
            // one first.
            let mut candidates = pushes.clone();
            candidates.sort_by_key(|p| node != root && board.step(p.from, p.dir) == last.from);
            let mut next = Vec::new();
            let push = candidates
                .into_iter()
                .find(|&p| {
                    let old = pos.apply_push(&board, p);
                    reach.compute(&board, &pos.boxes, pos.player);
                    generate_pushes(&board, &pos, &reach, true, &mut next);
                    pos.undo_push(&board, p, old);
                    !next.is_empty()
                })
                .unwrap_or_else(|| panic!("a push at depth {depth}"));
            pos.apply_push(&board, push);
            node = store.insert(0, pos.boxes.words(), 0, node, push, depth as u32, 0);
            let fresh = LowerBound::new().compute(&board, &pos.boxes);
            let prepare = |cache: &mut SavedBounds, bound: &mut LowerBound, prepared: u32| {
                cache.prepare(bound, &board, &pos.boxes, (node, prepared), &store, |j| {
                    moved(&store, j)
                })
            };
            // From the root's cached optimum, with another position prepared in between.
            let got = prepare(&mut saved, &mut LowerBound::new(), NO_NODE);
            assert_eq!(got, fresh, "depth {depth}");
            // From the root's optimum held prepared.
            let mut held = LowerBound::new();
            held.prepare(&board, &Position::start(&board).boxes);
            let got = prepare(&mut SavedBounds::new(board.box_count()), &mut held, root);
            assert_eq!(got, fresh, "depth {depth}, prepared");
        }
    }

    proptest! {
        /// The chained bucket queues pop what [`Buckets`] (a `Vec` per priority) pops, in the
        /// same order (lowest priority first, newest first within a priority), also when
        /// several queues share one arena of chains and entries are reused after pops.
        #[test]
        fn chained_buckets_pop_as_vec_buckets(
            ops in prop::collection::vec((0usize..3, 0usize..40, any::<bool>()), 0..400)
        ) {
            let mut chains = Chains::new();
            let mut queues = [ChainQueue::new(), ChainQueue::new(), ChainQueue::new()];
            let mut model = [Buckets::new(), Buckets::new(), Buckets::new()];
            for (k, &(q, priority, pop)) in ops.iter().enumerate() {
                if pop {
                    prop_assert_eq!(queues[q].pop(&mut chains), model[q].pop());
                } else {
                    queues[q].push(&mut chains, priority, k as u32);
                    model[q].push(priority, k as u32);
                }
            }
            for q in 0..3 {
                loop {
                    let (a, b) = (queues[q].pop(&mut chains), model[q].pop());
                    prop_assert_eq!(a, b);
                    if a.is_none() {
                        break;
                    }
                }
            }
            // Every entry popped went back to the arena: it never held more than were queued.
            prop_assert!(chains.entries.len() <= ops.len());
        }
    }

    fn info(on_goals: u32, regions: u32, in_doors: u32, out_of_order: u32) -> ChildInfo {
        ChildInfo {
            cell: 0,
            regions,
            on_goals,
            in_doors,
            out_of_order,
        }
    }

    #[test]
    fn each_advisor_names_its_best_improving_child() {
        let parent = info(2, 3, 2, 0);
        let children = [
            (10, Some(info(2, 3, 2, 0))), // improves nothing
            (11, Some(info(3, 3, 2, 1))), // packs, but out of order: no packing advice
            (12, Some(info(3, 3, 2, 0))), // packs in order (h 7)
            (13, Some(info(3, 2, 2, 0))), // packs in order (h 5) and joins two areas
            (14, Some(info(2, 1, 2, 0))), // joins three areas into one
            (15, None),                   // a shorter path to a known position
            (16, Some(info(2, 3, 1, 0))), // clears a doorway (h 9)
            (17, Some(info(2, 3, 1, 0))), // clears a doorway (h 4)
        ];
        let h = |j: u32| match j {
            12 => 7,
            13 => 5,
            16 => 9,
            17 => 4,
            _ => 6,
        };
        let advised = advised_children(&parent, &children, h);
        // Packing: 13 (lower h than 12); connectivity: 14 (the larger gain beats 13's);
        // doorways: 17 (lower h than 16).
        assert_eq!(advised, [Some(3), Some(4), Some(7)]);
    }

    #[test]
    fn no_advice_without_improvement() {
        let parent = info(1, 1, 0, 0);
        let children = [(1, Some(info(1, 2, 1, 0))), (2, Some(info(0, 1, 0, 0)))];
        assert_eq!(advised_children(&parent, &children, |_| 3), [None; 3]);
    }
}
