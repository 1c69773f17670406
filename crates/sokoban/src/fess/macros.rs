//! Macro moves, FESS's move unit (Shoham & Schaeffer 2020, §III-D; see
//! `docs/METHODS.md#sokoban-fess`): a macro move takes one box from its cell to any cell it can
//! reach by pushes with the other boxes standing still, the player walking between the pushes.
//! It is named by its box's two cells and the side the player ends on; the pushes themselves
//! are found again only for the solution ([`MacroGen::path`]).
//!
//! The moves of one box come from a breadth-first search over (box cell, direction of the last
//! push) states. Which sides of the box the player can walk between comes from one
//! depth-first search per box: the blocks (biconnected components) of the free floor, two
//! sides of a cell being joined when the box stands on it exactly when their edges to it are
//! in one block. Pushes onto dead squares are never made (a box there can never reach
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
    /// How many more connected areas of free floor the position has after the move than
    /// before it (FESS's connectivity feature, §III-B), found from the blocks of the macro
    /// search ([`MacroGen::moves_of_box`]).
    pub areas_added: i8,
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
    /// The block (biconnected component of the free floor) of each edge `(cell, direction)`
    /// in the current search's area (see [`MacroGen::compute_blocks`]); edges elsewhere keep
    /// earlier searches' numbers, and an edge into a wall stays `u32::MAX`.
    block: Vec<u32>,
    /// `visit[c] == stamp`: cell `c` was discovered by the current search's depth-first
    /// search, at time `disc[c]`, with low point `low[c]`.
    visit: Vec<u32>,
    disc: Vec<u32>,
    low: Vec<u32>,
    /// The depth-first path: cell, its parent, the next direction to try.
    dfs: Vec<(u16, u16, u8)>,
    /// Edges (`cell × 4 + direction`) of the blocks being built.
    edges: Vec<u32>,
    /// `(to, block)` pairs already given a move in this search.
    taken: Vec<(u16, u32)>,
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
            block: vec![u32::MAX; n * 4],
            visit: vec![0; n],
            disc: vec![0; n],
            low: vec![0; n],
            dfs: Vec::new(),
            edges: Vec::new(),
            taken: Vec::new(),
        }
    }

    /// The blocks (biconnected components) of the free floor around `root`, `walls`
    /// standing, by Tarjan's depth-first search: every edge between two free cells of
    /// `root`'s area gets its block's number (edges elsewhere keep stale numbers). Two free
    /// neighbours `u`, `v` of a cell `c` stay joined when a box stands on `c` exactly when the
    /// edges `c–u` and `c–v` are in one block (a path from `u` to `v` avoiding `c` closes a
    /// cycle through both edges, and a block of two or more edges is 2-connected), so one
    /// search answers, for every cell the box may stand on, which sides of it the player can
    /// walk between. Discovery times are valid where `visit` holds the current stamp.
    fn compute_blocks(&mut self, board: &Board, walls: &CellSet, root: u16) {
        let free = |c: u16| c != NONE && !walls.contains(c);
        let stamp = self.stamp;
        let mut time = 1u32;
        let mut blocks = 0u32;
        self.visit[root as usize] = stamp;
        self.disc[root as usize] = time;
        self.low[root as usize] = time;
        self.dfs.clear();
        self.dfs.push((root, NONE, 0));
        while let Some(top) = self.dfs.len().checked_sub(1) {
            let (v, parent, i) = self.dfs[top];
            if i < 4 {
                self.dfs[top].2 += 1;
                let d = Dir::ALL[i as usize];
                let w = board.step(v, d);
                if !free(w) || w == parent {
                    continue;
                }
                if self.visit[w as usize] != stamp {
                    self.edges.push(state(v, d) as u32);
                    time += 1;
                    self.visit[w as usize] = stamp;
                    self.disc[w as usize] = time;
                    self.low[w as usize] = time;
                    self.dfs.push((w, v, 0));
                } else if self.disc[w as usize] < self.disc[v as usize] {
                    // A back edge to an ancestor.
                    self.edges.push(state(v, d) as u32);
                    self.low[v as usize] = self.low[v as usize].min(self.disc[w as usize]);
                }
                continue;
            }
            self.dfs.pop();
            if parent == NONE {
                continue;
            }
            let u = parent as usize;
            self.low[u] = self.low[u].min(self.low[v as usize]);
            if self.low[v as usize] >= self.disc[u] {
                // `u` cuts `v`'s subtree off: the edges down to `u`–`v` are one block.
                while let Some(e) = self.edges.pop() {
                    let a = (e / 4) as u16;
                    let d = Dir::ALL[e as usize % 4];
                    let b = board.step(a, d);
                    self.block[e as usize] = blocks;
                    self.block[state(b, d.opposite())] = blocks;
                    if a == parent && b == v {
                        break;
                    }
                }
                blocks += 1;
            }
        }
    }

    /// The number of distinct blocks among the edges from `c` to its free neighbours (`boxes`
    /// and walls not free), `c` being in the area of the last [`MacroGen::compute_blocks`]:
    /// with a box on `c`, `c`'s area parts into that many areas (each block less `c` stays
    /// connected, and two blocks meet only at cut cells).
    fn blocks_at(&self, board: &Board, boxes: &CellSet, c: u16) -> i8 {
        let mut seen = [u32::MAX; 4];
        let mut count = 0;
        for d in Dir::ALL {
            let w = board.step(c, d);
            if w == NONE || boxes.contains(w) {
                continue;
            }
            let k = self.side(c, d);
            if !seen[..count].contains(&k) {
                seen[count] = k;
                count += 1;
            }
        }
        count as i8
    }

    /// The block of the edge from `c` to its neighbour in direction `d`.
    fn side(&self, c: u16, d: Dir) -> u32 {
        self.block[state(c, d)]
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
            self.visit.fill(0);
            self.stamp = 1;
        }
        self.queue.clear();
        let pushable = |d: Dir| {
            let behind = board.step(b, d.opposite());
            let to = board.step(b, d);
            behind != NONE
                && to != NONE
                && reach.reachable(behind)
                && !boxes.contains(to)
                && !board.is_dead(to)
                && first(d)
        };
        let firsts: [bool; 4] = Dir::ALL.map(pushable);
        if !firsts.contains(&true) {
            // A box that cannot be pushed at all has no moves: no blocks to compute.
            return;
        }
        boxes.remove(b);
        self.compute_blocks(board, boxes, b);
        for d in Dir::ALL {
            if !firsts[d as usize] {
                continue;
            }
            let to = board.step(b, d);
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
            let area = self.side(c, d.opposite());
            for e in Dir::ALL {
                let behind = board.step(c, e.opposite());
                let to = board.step(c, e);
                if behind == NONE || to == NONE || boxes.contains(behind) || boxes.contains(to) {
                    continue;
                }
                if board.is_dead(to) || self.side(c, e.opposite()) != area {
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
        // The box's cell joins the areas around it into one; with the box on `to`, that
        // area parts into one area per block at `to`.
        let areas_beside_box = if self.queue.is_empty() {
            0
        } else {
            self.blocks_at(board, boxes, b)
        };
        for i in 0..self.queue.len() {
            let s = self.queue[i] as usize;
            let to = (s / 4) as u16;
            let side = Dir::ALL[s % 4];
            let area = self.side(to, side.opposite());
            if self.taken.contains(&(to, area)) {
                continue;
            }
            self.taken.push((to, area));
            out.push(MacroMove {
                from: b,
                to,
                side,
                pushes: self.depth[s],
                areas_added: self.blocks_at(board, boxes, to) - areas_beside_box,
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

    /// The areas a macro move adds, from the blocks, agree with counting the areas of the
    /// position before and after the move, along random macro moves of Microban and
    /// XSokoban levels.
    #[test]
    fn areas_added_match_counting_the_areas() {
        use crate::position::count_regions;
        let sets = [
            include_str!("../../../../data/sokoban/Microban_155.xsb"),
            include_str!("../../../../data/sokoban/XSokoban_90.xsb"),
        ];
        let (mut compared, mut changed) = (0, 0);
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for text in sets {
            for level in parse_xsb(text).expect("levels").iter().step_by(3) {
                let board = Board::new(level).expect("board");
                let mut pos = Position::start(&board);
                let mut gen = MacroGen::new(&board);
                let mut reach = Reach::new(board.cells());
                let mut scratch = Reach::new(board.cells());
                for _ in 0..8 {
                    reach.compute(&board, &pos.boxes, pos.player);
                    let before = count_regions(&board, &pos.boxes, &mut scratch) as i32;
                    let mut out = Vec::new();
                    let mut boxes = pos.boxes.clone();
                    for b in pos.boxes.iter() {
                        gen.moves_of_box(&board, &mut boxes, &reach, b, |_| true, &mut out);
                    }
                    for m in &out {
                        let mut next = pos.boxes.clone();
                        next.remove(m.from);
                        next.insert(m.to);
                        let after = count_regions(&board, &next, &mut scratch) as i32;
                        assert_eq!(after - before, i32::from(m.areas_added), "{m:?}");
                        compared += 1;
                        changed += usize::from(m.areas_added != 0);
                    }
                    if out.is_empty() {
                        break;
                    }
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    let m = out[(seed % out.len() as u64) as usize];
                    pos.boxes.remove(m.from);
                    pos.boxes.insert(m.to);
                    pos.player = m.player(&board);
                }
            }
        }
        assert!(
            compared > 5_000 && changed > 1_000,
            "{compared} moves, {changed} changed"
        );
    }

    /// A box in a doorway parts the rooms on either side; a box inside a room parts nothing.
    #[test]
    fn blocks_join_the_sides_of_a_cell_the_player_can_walk_between() {
        use crate::fess::test_levels::cell;
        let b = board("#########\n#   #   #\n#@$    .#\n#   #   #\n#########\n");
        let mut gen = MacroGen::new(&b);
        gen.stamp = 1;
        gen.compute_blocks(&b, &CellSet::new(b.cells()), cell(&b, 1, 1));
        let door = cell(&b, 4, 2);
        assert_ne!(gen.side(door, Dir::Left), gen.side(door, Dir::Right));
        let inside = cell(&b, 2, 2);
        let sides: Vec<u32> = Dir::ALL.iter().map(|&d| gen.side(inside, d)).collect();
        assert!(
            sides.iter().all(|&k| k == sides[0] && k != u32::MAX),
            "{sides:?}"
        );
        // No edge leads into a wall.
        assert_eq!(gen.side(cell(&b, 1, 1), Dir::Up), u32::MAX);
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
