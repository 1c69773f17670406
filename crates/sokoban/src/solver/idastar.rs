//! IDA* over pushes: depth-first iterations with an f = g + h threshold (h = the matching
//! bound), push apply/undo on one position, and a per-iteration transposition table (a
//! position already reached with no more pushes in this iteration is not searched again).
//! The table holds at most `budget.max_nodes` positions. PI-corral pruning as in A*.

use super::{budget_exceeded, SearchOutcome};
use crate::board::Board;
use crate::corral::CorralPruner;
use crate::deadlock::{closed_diagonal_deadlock, FreezeCheck};
use crate::matching::LowerBound;
use crate::position::{generate_pushes, Position, Push, Reach};
use puzzle_engine::{Budget, Deadline, FxHashMap, StopReason};

const FOUND: u32 = u32::MAX - 1;
const NONE_LEFT: u32 = u32::MAX;

struct Ida<'a> {
    board: &'a Board,
    budget: &'a Budget,
    deadline: Deadline,
    reach: Reach,
    freeze: FreezeCheck,
    corrals: CorralPruner,
    bound: LowerBound,
    pos: Position,
    path: Vec<Push>,
    table: FxHashMap<u64, u32>,
    lists: Vec<Vec<Push>>,
    nodes: u64,
    expanded: u64,
    stop: Option<StopReason>,
}

/// Run IDA* on `board` within `budget`.
pub fn idastar(board: &Board, budget: &Budget) -> SearchOutcome {
    let pos = Position::start(board);
    let mut ida = Ida {
        board,
        budget,
        deadline: budget.start(),
        reach: Reach::new(board.cells()),
        freeze: FreezeCheck::new(),
        corrals: CorralPruner::new(),
        bound: LowerBound::new(),
        pos,
        path: Vec::new(),
        table: FxHashMap::default(),
        lists: Vec::new(),
        nodes: 1,
        expanded: 0,
        stop: None,
    };
    let mut outcome = SearchOutcome::exhausted(1);
    let Some(h0) = ida.bound.compute(board, &ida.pos.boxes) else {
        return outcome;
    };
    let mut threshold = h0;
    loop {
        ida.table.clear();
        let r = ida.search(0, h0, threshold);
        outcome.nodes = ida.nodes;
        outcome.expanded = ida.expanded;
        if r == FOUND {
            outcome.pushes = Some(ida.path.clone());
            outcome.stop = StopReason::Solved;
            return outcome;
        }
        if let Some(stop) = ida.stop {
            outcome.stop = stop;
            return outcome;
        }
        if r == NONE_LEFT {
            outcome.stop = StopReason::Exhausted;
            return outcome;
        }
        threshold = r;
    }
}

impl Ida<'_> {
    /// Search below the current position reached with `g` pushes and bound `h`; returns
    /// `FOUND`, the smallest f above the threshold met, or `NONE_LEFT`.
    fn search(&mut self, g: u32, h: u32, threshold: u32) -> u32 {
        let f = g + h;
        if f > threshold {
            return f;
        }
        if h == 0 {
            return FOUND;
        }
        if self.stop.is_some() {
            return NONE_LEFT;
        }
        if let Some(stop) = budget_exceeded(self.budget, &self.deadline, self.expanded) {
            self.stop = Some(stop);
            return NONE_LEFT;
        }
        let board = self.board;
        let norm = self.reach.compute(board, &self.pos.boxes, self.pos.player);
        let key = self.pos.box_hash ^ board.zobrist_player[norm as usize];
        match self.table.get(&key) {
            Some(&seen) if seen <= g => return NONE_LEFT,
            _ => {
                if self.table.len() >= self.budget.max_nodes {
                    self.stop = Some(StopReason::Nodes);
                    return NONE_LEFT;
                }
                self.table.insert(key, g);
            }
        }
        self.expanded += 1;
        let depth = g as usize;
        if self.lists.len() <= depth {
            self.lists.resize_with(depth + 1, Vec::new);
        }
        let mut pushes = std::mem::take(&mut self.lists[depth]);
        generate_pushes(board, &self.pos, &self.reach, true, &mut pushes);
        self.corrals
            .restrict(board, &self.pos, &self.reach, &mut pushes);
        let mut best = NONE_LEFT;
        for &push in &pushes {
            let old = self.pos.apply_push(board, push);
            let to = board.step(push.from, push.dir);
            let mut result = NONE_LEFT;
            if !self.freeze.is_deadlock(board, &self.pos.boxes, to)
                && !closed_diagonal_deadlock(board, &self.pos.boxes, self.pos.player, to)
            {
                if let Some(h2) = self.bound.compute(board, &self.pos.boxes) {
                    self.nodes += 1;
                    self.path.push(push);
                    result = self.search(g + 1, h2, threshold);
                    if result != FOUND {
                        self.path.pop();
                    }
                }
            }
            self.pos.undo_push(board, push, old);
            if result == FOUND {
                self.lists[depth] = pushes;
                return FOUND;
            }
            best = best.min(result);
            if self.stop.is_some() {
                break;
            }
        }
        self.lists[depth] = pushes;
        best
    }
}
