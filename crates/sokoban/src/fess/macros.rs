//! Macro moves, FESS's move unit (Shoham & Schaeffer 2020, §III-D; see
//! `docs/METHODS.md#sokoban-fess`): a macro move takes one box from its cell to any cell it can
//! reach by pushes with the other boxes standing still, the player walking between the pushes.
//! It is named by its box's two cells and the side the player ends on; the pushes themselves
//! are found again only for the solution ([`MacroGen::path`]).
//!
//! The moves of one box come from a breadth-first search over (box cell, direction of the last
//! push) states. Which cells the player reaches with the box on a cell is one labelling of the
//! free floor per box cell, so two sides of the box are joined exactly when the player can walk
//! from one to the other. Pushes onto dead squares are never made (a box there can never reach
//! a goal). Moves that leave the box on the same cell with the player in the same area are one
//! move: the first found, with the fewest pushes.

use crate::board::{Board, CellSet, NONE};
use crate::dir::Dir;
use crate::position::{Push, Reach};

/// One macro move of a position: the box on `from` ends on `to`, pushed last in direction
/// `side` (so the player stands on the cell before `to` in that direction).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MacroMove {
    /// The box's cell before the move.
    pub from: u16,
    /// The box's cell after the move.
    pub to: u16,
    /// The direction of the move's last push.
    pub side: Dir,
    /// The number of pushes (the fewest that end with this box cell and player area).
    pub pushes: u16,
}

impl MacroMove {
    /// The player's cell after the move.
    pub fn player(&self, board: &Board) -> u16 {
        board.step(self.to, self.side.opposite())
    }
}

/// The index of a search state: box cell × 4 + direction of the last push.
fn state(c: u16, d: Dir) -> usize {
    c as usize * 4 + d as usize
}

/// Scratch for the macro moves of one box at a time (see the module documentation).
#[derive(Clone, Debug)]
pub struct MacroGen {
    /// `seen[s] == stamp`: state `s` was reached in this search.
    seen: Vec<u32>,
    stamp: u32,
    /// The state each state was reached from (`u32::MAX` for the first push).
    prev: Vec<u32>,
    depth: Vec<u16>,
    queue: Vec<u32>,
    /// `label_at[c] == (stamp, k)`: the labelling with the box on `c` is block `k` of `labels`.
    label_at: Vec<(u32, u32)>,
    labels: Vec<u16>,
    /// `(to, label)` pairs already given a move in this search.
    taken: Vec<(u16, u16)>,
    stack: Vec<u16>,
}

impl MacroGen {
    /// Scratch for `board`.
    pub fn new(board: &Board) -> MacroGen {
        let n = board.cells();
        MacroGen {
            seen: vec![0; n * 4],
            stamp: 0,
            prev: vec![u32::MAX; n * 4],
            depth: vec![0; n * 4],
            queue: Vec::new(),
            label_at: vec![(0, 0); n],
            labels: Vec::new(),
            taken: Vec::new(),
            stack: Vec::new(),
        }
    }

    /// The labelling (connected areas of free floor) with the moving box on `c`, the other
    /// boxes `others` standing: the player's area is the label of its cell.
    fn labels_with_box_on(&mut self, board: &Board, others: &CellSet, c: u16) -> u32 {
        let (s, k) = self.label_at[c as usize];
        if s == self.stamp {
            return k;
        }
        let n = board.cells();
        let k = (self.labels.len() / n) as u32;
        let base = self.labels.len();
        self.labels.resize(base + n, u16::MAX);
        let mut next = 0u16;
        for start in 0..n as u16 {
            if start == c
                || others.contains(start)
                || self.labels[base + start as usize] != u16::MAX
            {
                continue;
            }
            self.labels[base + start as usize] = next;
            self.stack.clear();
            self.stack.push(start);
            while let Some(x) = self.stack.pop() {
                for &y in &board.neighbors[x as usize] {
                    if y == NONE || y == c || others.contains(y) {
                        continue;
                    }
                    let l = &mut self.labels[base + y as usize];
                    if *l == u16::MAX {
                        *l = next;
                        self.stack.push(y);
                    }
                }
            }
            next += 1;
        }
        self.label_at[c as usize] = (self.stamp, k);
        k
    }

    fn label(&self, board: &Board, k: u32, c: u16) -> u16 {
        self.labels[k as usize * board.cells() + c as usize]
    }

    /// Breadth-first search over the pushes of the box on `b` in the position `boxes`, the
    /// player's area being `reach`; only first pushes `(b, d)` with `first(d)` are made.
    fn search(
        &mut self,
        board: &Board,
        boxes: &mut CellSet,
        reach: &Reach,
        b: u16,
        first: impl Fn(Dir) -> bool,
    ) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.fill(0);
            self.label_at.fill((0, 0));
            self.stamp = 1;
        }
        self.labels.clear();
        self.queue.clear();
        boxes.remove(b);
        for d in Dir::ALL {
            let behind = board.step(b, d.opposite());
            let to = board.step(b, d);
            if behind == NONE || to == NONE || !reach.reachable(behind) || !first(d) {
                continue;
            }
            if boxes.contains(to) || board.is_dead(to) {
                continue;
            }
            let s = state(to, d);
            self.seen[s] = self.stamp;
            self.prev[s] = u32::MAX;
            self.depth[s] = 1;
            self.queue.push(s as u32);
        }
        let mut head = 0;
        while head < self.queue.len() {
            let s = self.queue[head] as usize;
            head += 1;
            let c = (s / 4) as u16;
            let d = Dir::ALL[s % 4];
            let player = board.step(c, d.opposite());
            let k = self.labels_with_box_on(board, boxes, c);
            let area = self.label(board, k, player);
            for e in Dir::ALL {
                let behind = board.step(c, e.opposite());
                let to = board.step(c, e);
                if behind == NONE || to == NONE || boxes.contains(behind) || boxes.contains(to) {
                    continue;
                }
                if board.is_dead(to) || self.label(board, k, behind) != area {
                    continue;
                }
                let t = state(to, e);
                if self.seen[t] == self.stamp {
                    continue;
                }
                self.seen[t] = self.stamp;
                self.prev[t] = s as u32;
                self.depth[t] = self.depth[s].saturating_add(1);
                self.queue.push(t as u32);
            }
        }
        boxes.insert(b);
    }

    /// Append to `out` the macro moves of the box on `b` in the position `boxes` with the
    /// player's area `reach`, one per box cell and player area, in breadth-first order (fewest
    /// pushes first). Only moves whose first push `(b, d)` has `first(d)` are made (PI-corral
    /// pruning keeps some first pushes only).
    pub fn moves_of_box(
        &mut self,
        board: &Board,
        boxes: &mut CellSet,
        reach: &Reach,
        b: u16,
        first: impl Fn(Dir) -> bool,
        out: &mut Vec<MacroMove>,
    ) {
        self.search(board, boxes, reach, b, first);
        self.taken.clear();
        boxes.remove(b);
        for i in 0..self.queue.len() {
            let s = self.queue[i] as usize;
            let to = (s / 4) as u16;
            let side = Dir::ALL[s % 4];
            let k = self.labels_with_box_on(board, boxes, to);
            let area = self.label(board, k, board.step(to, side.opposite()));
            if self.taken.contains(&(to, area)) {
                continue;
            }
            self.taken.push((to, area));
            out.push(MacroMove {
                from: b,
                to,
                side,
                pushes: self.depth[s],
            });
        }
        boxes.insert(b);
    }

    /// The pushes of the macro move `m` in the position `boxes` with the player's area
    /// `reach` (the fewest that end with the box on `m.to` pushed in direction `m.side`), or
    /// `None` if the move is not possible there.
    pub fn path(
        &mut self,
        board: &Board,
        boxes: &mut CellSet,
        reach: &Reach,
        m: MacroMove,
    ) -> Option<Vec<Push>> {
        self.search(board, boxes, reach, m.from, |_| true);
        let mut s = state(m.to, m.side);
        if self.seen[s] != self.stamp {
            return None;
        }
        let mut pushes = Vec::new();
        loop {
            let to = (s / 4) as u16;
            let d = Dir::ALL[s % 4];
            pushes.push(Push {
                from: board.step(to, d.opposite()),
                dir: d,
            });
            if self.prev[s] == u32::MAX {
                break;
            }
            s = self.prev[s] as usize;
        }
        pushes.reverse();
        Some(pushes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fess::test_levels::board;
    use crate::level::parse_xsb;
    use crate::position::Position;
    use std::collections::{HashSet, VecDeque};

    /// Every (box cell, normalized player) the box on `b` reaches by single pushes of that box
    /// alone, breadth-first over whole positions (the reference).
    fn by_single_pushes(board: &Board, pos: &Position, b: u16) -> HashSet<(u16, u16)> {
        let mut reach = Reach::new(board.cells());
        let mut seen = HashSet::new();
        let mut found = HashSet::new();
        let mut queue = VecDeque::from([(b, pos.player)]);
        seen.insert((b, reach.compute(board, &pos.boxes, pos.player)));
        while let Some((c, player)) = queue.pop_front() {
            let mut boxes = pos.boxes.clone();
            boxes.remove(b);
            boxes.insert(c);
            reach.compute(board, &boxes, player);
            for d in Dir::ALL {
                let behind = board.step(c, d.opposite());
                let to = board.step(c, d);
                if !reach.reachable(behind) || to == NONE || boxes.contains(to) {
                    continue;
                }
                if board.is_dead(to) {
                    continue;
                }
                let mut next = boxes.clone();
                next.remove(c);
                next.insert(to);
                let norm = Reach::new(board.cells()).compute(board, &next, c);
                if seen.insert((to, norm)) {
                    found.insert((to, norm));
                    queue.push_back((to, c));
                }
            }
        }
        // The start itself is reached again only by a move that changes the player's area.
        found
    }

    fn macro_results(board: &Board, pos: &Position, b: u16) -> Vec<(u16, u16)> {
        let mut gen = MacroGen::new(board);
        let mut reach = Reach::new(board.cells());
        reach.compute(board, &pos.boxes, pos.player);
        let mut out = Vec::new();
        let mut boxes = pos.boxes.clone();
        gen.moves_of_box(board, &mut boxes, &reach, b, |_| true, &mut out);
        assert_eq!(boxes, pos.boxes, "the boxes are restored");
        out.iter()
            .map(|m| {
                let mut next = pos.boxes.clone();
                next.remove(m.from);
                next.insert(m.to);
                (
                    m.to,
                    Reach::new(board.cells()).compute(board, &next, m.player(board)),
                )
            })
            .collect()
    }

    #[test]
    fn macro_moves_match_push_by_push_search_on_microban() {
        let text = include_str!("../../../../data/sokoban/Microban_155.xsb");
        let levels = parse_xsb(text).expect("microban");
        let mut compared = 0;
        for level in levels.iter().take(30) {
            let board = Board::new(level).expect("board");
            let pos = Position::start(&board);
            for b in pos.boxes.iter() {
                let got = macro_results(&board, &pos, b);
                let set: HashSet<(u16, u16)> = got.iter().copied().collect();
                assert_eq!(set.len(), got.len(), "one move per cell and area");
                let mut want = by_single_pushes(&board, &pos, b);
                // A move back onto the start cell with the player in the start area is the
                // position itself: the macro search may list it, the reference does not.
                let start_norm = Reach::new(board.cells()).compute(&board, &pos.boxes, pos.player);
                want.remove(&(b, start_norm));
                let mut got_set = set;
                got_set.remove(&(b, start_norm));
                assert_eq!(got_set, want, "box {b}");
                compared += want.len();
            }
        }
        assert!(compared > 100, "the comparison covered {compared} moves");
    }

    #[test]
    fn a_box_goes_round_a_corner_in_one_move_and_its_path_replays() {
        // The box reaches the goal by right, right, down or down, right, right: three pushes.
        let b = board("######\n#@   #\n# $  #\n#   .#\n######\n");
        let pos = Position::start(&b);
        let mut reach = Reach::new(b.cells());
        reach.compute(&b, &pos.boxes, pos.player);
        let mut gen = MacroGen::new(&b);
        let mut out = Vec::new();
        let mut boxes = pos.boxes.clone();
        let from = pos.boxes.iter().next().expect("a box");
        gen.moves_of_box(&b, &mut boxes, &reach, from, |_| true, &mut out);
        let goal = b.goal_list[0];
        let to_goal: Vec<&MacroMove> = out.iter().filter(|m| m.to == goal).collect();
        assert!(!to_goal.is_empty(), "{out:?}");
        assert!(to_goal.iter().all(|m| m.pushes == 3), "{to_goal:?}");
        // Corners are dead squares: no move ends there.
        assert!(out.iter().all(|m| !b.is_dead(m.to)));
        for m in out {
            let pushes = gen.path(&b, &mut boxes, &reach, m).expect("a path");
            assert_eq!(pushes.len(), m.pushes as usize);
            let mut p = pos.clone();
            for push in pushes {
                assert!(p.push_target(&b, push).is_some());
                p.apply_push(&b, push);
            }
            assert!(p.boxes.contains(m.to));
            assert_eq!(p.player, m.player(&b));
        }
    }
}
