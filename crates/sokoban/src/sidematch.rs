//! Box-to-goal matching with the player's side of each box (see
//! `docs/METHODS.md#sokoban-bipartite`; the bipartite analysis "under the player's reach" that
//! Shoham & Schaeffer's FESS write-up lists among its deadlock tests, appendix).
//!
//! Take one box alone on the board, every other box removed. Which goals it can still be
//! pushed onto depends on where it stands and on which side of it the player is: with the box
//! as a wall, the floor falls into up to four pieces (one per side of the box that is not
//! joined to another around it), and the player can only ever push from the sides of its own
//! piece, and from those it reaches after each push. A solution's pushes of that box still work
//! on the emptied board (the other boxes only ever stood in the way), so its goal is among
//! those reachable from the box's cell and the player's piece. If the boxes then have no
//! perfect matching to distinct goals, the position is a deadlock. The static bipartite test
//! ([`crate::bipartite`]) lets the player stand anywhere; this one catches a box pushed into a
//! corridor or a room entrance with the player on the wrong side of it.
//!
//! Everything is computed once per level: for every cell the pieces the floor falls into
//! around it, and for every cell and piece the goals a lone box reaches (a breadth-first
//! search over (box cell, player's piece) states, which needs no flood once the pieces are
//! known: after a push the player stands next to the box on the side it came from). A
//! position costs one table lookup per box and a matching.

use crate::board::{Board, CellSet, NONE};
use crate::dir::Dir;

/// No piece: a wall beside the box, or a cell the player cannot reach the box from.
const NO_PIECE: u8 = u8::MAX;

/// The most cells of a level the tables are built for (the per-cell pieces take a byte per
/// pair of cells); larger levels skip the test.
pub const MAX_CELLS: usize = 1024;

/// The tables and scratch of [`SideMatching::is_deadlock`].
#[derive(Debug)]
pub struct SideMatching {
    cells: usize,
    /// `piece[b * cells + p]`: the piece of the floor, with a wall on `b`, that holds `p`.
    piece: Vec<u8>,
    /// `side_piece[b * 4 + d]`: the piece of `b`'s neighbour in direction `d`.
    side_piece: Vec<u8>,
    /// Words of a goal set (one bit per goal of [`Board::goal_list`]).
    words: usize,
    /// `goals[(b * 4 + k) * words..]`: the goals a lone box on `b` reaches with the player in
    /// piece `k` (a box on a goal counts that goal).
    goals: Vec<u64>,
    /// Scratch for the matching: the boxes, the box matched to each goal, goals tried, and
    /// the goals no box holds yet (a goal set's words).
    boxes: Vec<u16>,
    goal_of: Vec<usize>,
    seen: Vec<bool>,
    free: Vec<u64>,
    /// Number of positions proved deadlocked (for statistics).
    pub proved: u64,
}

impl SideMatching {
    /// The tables of `board` (empty for a level over [`MAX_CELLS`] cells: no position is then
    /// found deadlocked).
    pub fn new(board: &Board) -> SideMatching {
        let n = board.cells();
        let words = board.goal_list.len().div_ceil(64).max(1);
        let mut t = SideMatching {
            cells: n,
            piece: Vec::new(),
            side_piece: Vec::new(),
            words,
            goals: Vec::new(),
            boxes: Vec::new(),
            goal_of: Vec::new(),
            seen: Vec::new(),
            free: Vec::new(),
            proved: 0,
        };
        if n > MAX_CELLS || board.goal_list.is_empty() {
            return t;
        }
        t.piece = vec![NO_PIECE; n * n];
        t.side_piece = vec![NO_PIECE; n * 4];
        let mut stack = Vec::new();
        for b in 0..n {
            let row = &mut t.piece[b * n..(b + 1) * n];
            let mut next = 0u8;
            for d in Dir::ALL {
                let s = board.step(b as u16, d);
                if s == NONE {
                    continue;
                }
                if row[s as usize] == NO_PIECE {
                    row[s as usize] = next;
                    stack.push(s);
                    while let Some(x) = stack.pop() {
                        for &y in &board.neighbors[x as usize] {
                            if y != NONE && y as usize != b && row[y as usize] == NO_PIECE {
                                row[y as usize] = next;
                                stack.push(y);
                            }
                        }
                    }
                    next += 1;
                }
                t.side_piece[b * 4 + d as usize] = row[s as usize];
            }
        }
        // The goals of each (cell, piece) state, by a search from it over states.
        let goal_index = {
            let mut at = vec![usize::MAX; n];
            for (k, &g) in board.goal_list.iter().enumerate() {
                at[g as usize] = k;
            }
            at
        };
        t.goals = vec![0; n * 4 * words];
        let mut seen = vec![false; n * 4];
        let mut queue = Vec::new();
        for b in 0..n {
            for k in 0..4u8 {
                if !(0..4).any(|d| t.side_piece[b * 4 + d] == k) {
                    continue;
                }
                seen.iter_mut().for_each(|s| *s = false);
                queue.clear();
                queue.push((b as u16, k));
                seen[b * 4 + k as usize] = true;
                let at = (b * 4 + k as usize) * words;
                let mut head = 0;
                while head < queue.len() {
                    let (c, piece) = queue[head];
                    head += 1;
                    let g = goal_index[c as usize];
                    if g != usize::MAX {
                        t.goals[at + g / 64] |= 1 << (g % 64);
                    }
                    for e in Dir::ALL {
                        if t.side_piece[c as usize * 4 + e as usize] != piece {
                            continue;
                        }
                        // The player on side `e` pushes the box the other way; it then
                        // stands on the box's old cell, on side `e` of its new one.
                        let to = board.step(c, e.opposite());
                        if to == NONE || board.is_dead(to) {
                            continue;
                        }
                        let next = t.side_piece[to as usize * 4 + e as usize];
                        let s = to as usize * 4 + next as usize;
                        if next != NO_PIECE && !seen[s] {
                            seen[s] = true;
                            queue.push((to, next));
                        }
                    }
                }
            }
        }
        t
    }

    /// Where the goal set of the box on `b` with the player on `player` starts in
    /// `self.goals`; `None` when the player cannot reach the box.
    fn goal_set_at(&self, b: u16, player: u16) -> Option<usize> {
        let k = self.piece[b as usize * self.cells + player as usize];
        (k != NO_PIECE).then(|| (b as usize * 4 + k as usize) * self.words)
    }

    /// Is the position (`boxes`, the player on `player`) a deadlock because its boxes cannot
    /// reach distinct goals, each with the player on its own side (see the module
    /// documentation)?
    pub fn is_deadlock(&mut self, board: &Board, boxes: &CellSet, player: u16) -> bool {
        if self.piece.is_empty() || player == NONE {
            return false;
        }
        self.boxes.clear();
        self.boxes.extend(boxes.iter());
        let goals = board.goal_list.len();
        self.goal_of.clear();
        self.goal_of.resize(goals, usize::MAX);
        self.free.clear();
        self.free.resize(self.words, 0);
        for j in 0..goals {
            self.free[j / 64] |= 1 << (j % 64);
        }
        let mut dead = false;
        for i in 0..self.boxes.len() {
            self.seen.clear();
            self.seen.resize(goals, false);
            if !self.augment(board, i, player) {
                dead = true;
                break;
            }
        }
        self.proved += u64::from(dead);
        dead
    }

    /// Kuhn's augmenting path from box `i` of `self.boxes` (no allocation: the goal words
    /// are read one at a time, so the recursion can borrow `self` mutably). A goal of the
    /// box's set that no box holds is taken at once, before any path through held goals is
    /// tried: the matching's size, and so the answer, is the same, with far fewer steps.
    fn augment(&mut self, board: &Board, i: usize, player: u16) -> bool {
        let b = self.boxes[i];
        let Some(at) = self.goal_set_at(b, player) else {
            // The player never reaches this box: it stays, and counts only on its own goal.
            let Some(j) = board.goal_list.iter().position(|&g| g == b) else {
                return false;
            };
            return self.take(board, i, j, player);
        };
        for w in 0..self.words {
            let open = self.goals[at + w] & self.free[w];
            if open != 0 {
                let j = w * 64 + open.trailing_zeros() as usize;
                self.goal_of[j] = i;
                self.free[w] &= !(1 << (j % 64));
                return true;
            }
        }
        for w in 0..self.words {
            let mut bits = self.goals[at + w];
            while bits != 0 {
                let j = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if self.take(board, i, j, player) {
                    return true;
                }
            }
        }
        false
    }

    /// Give goal `j` to box `i` if it is free or its holder can move to another goal.
    fn take(&mut self, board: &Board, i: usize, j: usize, player: u16) -> bool {
        if self.seen[j] {
            return false;
        }
        self.seen[j] = true;
        let holder = self.goal_of[j];
        if holder == usize::MAX || self.augment(board, holder, player) {
            self.goal_of[j] = i;
            self.free[j / 64] &= !(1 << (j % 64));
            return true;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;
    use crate::position::Position;

    fn verdict(text: &str) -> bool {
        let board = Board::new(&Level::parse_one(text).unwrap()).unwrap();
        let pos = Position::start(&board);
        SideMatching::new(&board).is_deadlock(&board, &pos.boxes, pos.player)
    }

    #[test]
    fn a_box_in_a_corridor_with_the_player_beyond_it_is_a_deadlock() {
        // The goal room's only entrance is the corridor; the player stands on the goal side
        // of the box, so it can only push the box away from the goals.
        assert!(verdict("#######\n#.@$  #\n#######\n"));
        // With the player on the far side it is pushed in.
        assert!(!verdict("#######\n#. $@ #\n#######\n"));
    }

    #[test]
    fn the_static_test_lets_the_player_stand_anywhere() {
        let text = "#######\n#.@$  #\n#######\n";
        let board = Board::new(&Level::parse_one(text).unwrap()).unwrap();
        let pos = Position::start(&board);
        let mut frozen = crate::bipartite::FrozenMatching::new();
        assert!(!frozen.is_deadlock(&board, &pos.boxes));
    }

    #[test]
    fn boxes_on_goals_and_a_box_the_player_cannot_reach() {
        // A box on its goal, the player shut away from it: it stays, on its goal.
        assert!(!verdict("#####\n#*#@#\n#####\n"));
        // A box off its goal the player cannot reach: it can never move.
        assert!(verdict("######\n#.$#@#\n######\n"));
    }

    #[test]
    fn no_position_of_a_solution_is_a_deadlock() {
        for screen in [1, 2, 3, 5, 6, 9, 62] {
            let board = crate::fess::test_levels::xsokoban(screen);
            let out = crate::fess::fess(&board, &puzzle_engine::Budget::iterations(20_000));
            let mut test = SideMatching::new(&board);
            let mut pos = Position::start(&board);
            assert!(!test.is_deadlock(&board, &pos.boxes, pos.player));
            for p in out.pushes.expect("solved") {
                pos.apply_push(&board, p);
                assert!(
                    !test.is_deadlock(&board, &pos.boxes, pos.player),
                    "screen {screen}: a position of the solution"
                );
            }
        }
    }

    /// Random positions (boxes as many as goals, off dead squares, the player anywhere
    /// free) on four XSokoban screens: a deadlock exactly when the largest matching of the
    /// same goal sets leaves a box over.
    #[test]
    fn the_verdict_is_that_of_a_largest_matching() {
        let mut rng = puzzle_engine::Rng::new(7);
        let (mut dead, mut live) = (0, 0);
        for screen in [1, 5, 29, 50] {
            let board = crate::fess::test_levels::xsokoban(screen);
            let n = board.cells();
            let goals = board.goal_list.len();
            let floor: Vec<u16> = (0..n as u16).filter(|&c| !board.is_dead(c)).collect();
            let mut test = SideMatching::new(&board);
            for _ in 0..300 {
                let mut boxes = CellSet::new(n);
                while boxes.iter().count() < goals {
                    boxes.insert(floor[rng.below(floor.len())]);
                }
                let player = loop {
                    let c = rng.below(n) as u16;
                    if !boxes.contains(c) {
                        break c;
                    }
                };
                let reach: Vec<Vec<usize>> = boxes
                    .iter()
                    .map(|b| match test.goal_set_at(b, player) {
                        Some(at) => (0..goals)
                            .filter(|&j| test.goals[at + j / 64] >> (j % 64) & 1 == 1)
                            .collect(),
                        None => board
                            .goal_list
                            .iter()
                            .position(|&g| g == b)
                            .into_iter()
                            .collect(),
                    })
                    .collect();
                let expected = crate::bipartite::tests::largest_matching(&reach, goals) < goals;
                assert_eq!(
                    test.is_deadlock(&board, &boxes, player),
                    expected,
                    "screen {screen}"
                );
                if expected {
                    dead += 1;
                } else {
                    live += 1;
                }
            }
        }
        assert!(dead > 50 && live > 50, "{dead} dead, {live} live");
    }
}
