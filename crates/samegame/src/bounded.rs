//! A* and IDA* for SameGame (see `docs/METHODS.md#samegame-bounded`; Hungarian paper §2.2),
//! maximizing the score with the admissible bound [`Board::upper_bound`] ("every colour removed at
//! once").
//!
//! The engine's classic searches minimize costs and report only complete proofs; SameGame
//! maximizes, and on a 15×15 board neither search finishes (the paper: they behave like
//! breadth-first search), so these versions are anytime: they remember the best complete
//! game seen and, when the budget ends, also complete the most promising open position with
//! a Tabu playout. When they do finish, the result is proved optimal.
//!
//! - A*: best-first on the bound, ties to the deeper position; a position reached again with
//!   no more points is skipped (same stones, same future).
//! - IDA*: depth-first search of the positions whose bound is at least a threshold, children
//!   in decreasing bound order; the threshold starts at the root's bound and decreases
//!   (geometrically faster than one point at a time, which keeps optimality: every complete
//!   game scoring at least the threshold is found in that iteration).

use crate::board::{Board, Move, Scratch};
use crate::playout::{Playout, Tabu};
use puzzle_engine::{Budget, Deadline, FxHashMap, Rng, StopReason};
use std::collections::BinaryHeap;
use std::time::Duration;

/// What a bounded search produced.
#[derive(Clone, Debug)]
pub struct BoundedResult {
    /// The best complete game found, from the root.
    pub moves: Vec<Move>,
    /// Its final score.
    pub score: i64,
    /// The search finished: `score` is optimal.
    pub optimal: bool,
    /// Positions expanded.
    pub expanded: u64,
    /// Most positions stored at once (A*: open + closed entries; IDA*: the path).
    pub peak_stored: usize,
    /// Why the search ended.
    pub stop_reason: StopReason,
    /// Wall time.
    pub elapsed: Duration,
}

struct Best {
    moves: Vec<Move>,
    score: i64,
}

impl Best {
    fn offer(&mut self, score: i64, moves: impl FnOnce() -> Vec<Move>) {
        if score > self.score {
            self.score = score;
            self.moves = moves();
        }
    }
}

/// Complete `board` (reached by `prefix`) with a Tabu playout; returns the full sequence and
/// its final score.
fn complete(board: &Board, prefix: Vec<Move>, seed: u64) -> (Vec<Move>, i64) {
    let mut state = board.clone();
    let mut trace = Vec::new();
    let mut policy = Playout::new(Tabu);
    puzzle_engine::PlayoutPolicy::playout(&mut policy, &mut state, &mut Rng::new(seed), &mut trace);
    let mut moves = prefix;
    moves.extend(trace);
    (moves, state.final_score())
}

fn budget_stop(deadline: &Deadline, expanded: u64, budget: &Budget) -> Option<StopReason> {
    if budget.max_iterations.is_some_and(|m| expanded >= m) {
        return Some(StopReason::Iterations);
    }
    if expanded.is_multiple_of(64) {
        if deadline.stopped() {
            return Some(StopReason::Interrupted);
        }
        if deadline.expired() {
            return Some(StopReason::Time);
        }
    }
    None
}

struct AstarNode {
    parent: u32,
    mv: Move,
    depth: u32,
    board: Option<Board>,
}

/// A* on the upper bound (see the module docs). `budget.max_nodes` caps the positions stored;
/// `max_iterations` the expansions.
pub fn astar(root: &Board, budget: &Budget, seed: u64) -> BoundedResult {
    let deadline = budget.start();
    let mut nodes: Vec<AstarNode> = vec![AstarNode {
        parent: u32::MAX,
        mv: Move { col: 0, row: 0 },
        depth: 0,
        board: Some(root.clone()),
    }];
    // (bound, depth, id): max-heap, ties to the deeper position.
    let mut open: BinaryHeap<(i64, u32, u32)> = BinaryHeap::new();
    open.push((root.upper_bound(), 0, 0));
    let mut seen: FxHashMap<u64, i64> = FxHashMap::default();
    let mut best = Best {
        moves: Vec::new(),
        score: i64::MIN,
    };
    let mut scratch = Scratch::new();
    let mut expanded = 0u64;
    let mut peak = 1usize;
    let path = |nodes: &Vec<AstarNode>, mut id: u32| {
        let mut moves = Vec::new();
        while id != 0 {
            moves.push(nodes[id as usize].mv);
            id = nodes[id as usize].parent;
        }
        moves.reverse();
        moves
    };
    let mut stop = StopReason::Exhausted;
    let mut optimal = false;
    while let Some(&(bound, _, id)) = open.peek() {
        if bound <= best.score {
            // Nothing open can beat the best complete game: it is optimal.
            optimal = true;
            stop = StopReason::Solved;
            break;
        }
        if let Some(reason) = budget_stop(&deadline, expanded, budget) {
            stop = reason;
            break;
        }
        if nodes.len() + seen.len() >= budget.max_nodes {
            stop = StopReason::Nodes;
            break;
        }
        open.pop();
        let board = nodes[id as usize]
            .board
            .take()
            .expect("open node has a board");
        let depth = nodes[id as usize].depth;
        expanded += 1;
        if !board.has_move() {
            let score = board.final_score();
            best.offer(score, || path(&nodes, id));
            continue;
        }
        board.find_groups(&mut scratch);
        let groups = scratch.groups.clone();
        for g in groups {
            let mut child = board.clone();
            let mv = child.move_of(g.cell);
            child.remove_group(g.cell as usize, &mut scratch);
            let key = child.zobrist();
            if seen.get(&key).is_some_and(|&p| p >= child.points()) {
                continue;
            }
            seen.insert(key, child.points());
            let child_bound = child.upper_bound();
            let cid = nodes.len() as u32;
            if !child.has_move() {
                let score = child.final_score();
                nodes.push(AstarNode {
                    parent: id,
                    mv,
                    depth: depth + 1,
                    board: None,
                });
                best.offer(score, || path(&nodes, cid));
                continue;
            }
            if child_bound <= best.score {
                continue;
            }
            nodes.push(AstarNode {
                parent: id,
                mv,
                depth: depth + 1,
                board: Some(child),
            });
            open.push((child_bound, depth + 1, cid));
        }
        peak = peak.max(nodes.len() + seen.len());
    }
    if open.is_empty() && stop == StopReason::Exhausted {
        optimal = true;
    }
    if !optimal {
        // Anytime answer: complete the most promising open positions.
        for &(_, _, id) in open.iter().take(16) {
            if let Some(b) = &nodes[id as usize].board {
                let (moves, score) = complete(b, path(&nodes, id), seed ^ id as u64);
                best.offer(score, || moves);
            }
        }
        if best.score == i64::MIN {
            let (moves, score) = complete(root, Vec::new(), seed);
            best.offer(score, || moves);
        }
    }
    BoundedResult {
        moves: best.moves,
        score: best.score,
        optimal,
        expanded,
        peak_stored: peak,
        stop_reason: stop,
        elapsed: deadline.elapsed(),
    }
}

struct Ida<'b> {
    budget: &'b Budget,
    deadline: Deadline,
    boards: Vec<Board>,
    children: Vec<Vec<(i64, u16)>>,
    path: Vec<Move>,
    scratch: Scratch,
    best: Best,
    threshold: i64,
    next_threshold: i64,
    expanded: u64,
    stop: Option<StopReason>,
}

impl Ida<'_> {
    /// Search below `boards[depth]`.
    fn dfs(&mut self, depth: usize) {
        if self.stop.is_some() {
            return;
        }
        if let Some(reason) = budget_stop(&self.deadline, self.expanded, self.budget) {
            self.stop = Some(reason);
            return;
        }
        self.expanded += 1;
        if self.boards.len() <= depth + 1 {
            self.boards.push(self.boards[depth].clone());
            self.children.push(Vec::new());
        }
        let mut list = std::mem::take(&mut self.children[depth]);
        list.clear();
        {
            let board = &self.boards[depth];
            board.find_groups(&mut self.scratch);
            let groups = std::mem::take(&mut self.scratch.groups);
            let mut child = self.boards[depth + 1].clone();
            for g in &groups {
                child.clone_from(board);
                child.remove_group(g.cell as usize, &mut self.scratch);
                list.push((child.upper_bound(), g.cell));
            }
            self.boards[depth + 1] = child;
            self.scratch.groups = groups;
        }
        list.sort_unstable_by_key(|&(bound, _)| std::cmp::Reverse(bound));
        for &(bound, cell) in &list {
            if self.stop.is_some() {
                break;
            }
            let (before, after) = self.boards.split_at_mut(depth + 1);
            let child = &mut after[0];
            child.clone_from(&before[depth]);
            let mv = child.move_of(cell);
            child.remove_group(cell as usize, &mut self.scratch);
            self.path.push(mv);
            if !child.has_move() {
                let score = child.final_score();
                let path = &self.path;
                self.best.offer(score, || path.clone());
            } else if bound >= self.threshold && bound > self.best.score {
                self.dfs(depth + 1);
            } else if bound > self.best.score {
                self.next_threshold = self.next_threshold.max(bound);
            }
            self.path.pop();
        }
        self.children[depth] = list;
    }
}

/// IDA* on the upper bound (see the module docs). `max_iterations` caps the expansions.
pub fn idastar(root: &Board, budget: &Budget, seed: u64) -> BoundedResult {
    let mut ida = Ida {
        budget,
        deadline: budget.start(),
        boards: vec![root.clone()],
        children: vec![Vec::new()],
        path: Vec::new(),
        scratch: Scratch::new(),
        best: Best {
            moves: Vec::new(),
            score: i64::MIN,
        },
        threshold: root.upper_bound(),
        next_threshold: i64::MIN,
        expanded: 0,
        stop: None,
    };
    let mut optimal = false;
    if !root.has_move() {
        ida.best.offer(root.final_score(), Vec::new);
        optimal = true;
    }
    let mut step = 1i64;
    while !optimal && ida.stop.is_none() {
        ida.next_threshold = i64::MIN;
        ida.dfs(0);
        if ida.stop.is_some() {
            break;
        }
        if ida.best.score >= ida.threshold || ida.next_threshold == i64::MIN {
            // Every game scoring at least the threshold was seen (or nothing else is left).
            optimal = true;
            break;
        }
        // Lower the threshold: at least to the best pruned bound, faster as it goes on.
        ida.threshold = ida.next_threshold.min(ida.threshold - step);
        step = step.saturating_mul(2);
    }
    if !optimal && ida.best.score == i64::MIN {
        let (moves, score) = complete(root, Vec::new(), seed);
        ida.best.offer(score, || moves);
    }
    BoundedResult {
        moves: ida.best.moves,
        score: ida.best.score,
        optimal,
        expanded: ida.expanded,
        peak_stored: ida.boards.len(),
        stop_reason: ida.stop.unwrap_or(StopReason::Solved),
        elapsed: ida.deadline.elapsed(),
    }
}
