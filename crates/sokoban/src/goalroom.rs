//! Goal rooms and goal macros for the any-solution search (see `docs/METHODS.md#sokoban-macros`,
//! "goal-room packing order"; the goal macros of Junghanns & Schaeffer's Rolling Stone, in a simple
//! form).
//!
//! A *goal room* is a 4-connected set of at least [`MIN_ROOM`] goal cells; its *entrances* are
//! the live non-goal cells next to it. Its *fill order* comes from a reverse search: starting
//! with every goal of the room holding a box (the rest of the board empty), repeatedly pull out
//! the box that leaves the room in the fewest pulls (player moves checked, the other room
//! boxes standing); the removal order reversed is an order in which the room can be filled
//! from outside. A room whose boxes cannot all be pulled out gets no order (no macros), and so
//! does a room that already holds a box when the search starts: the plan would count such a
//! box as packed and never move it, but a start box on a goal may have to make room first
//! (Microban 93 needs exactly that).
//!
//! In the search, a box pushed onto an entrance (or into the room from outside) of a room
//! that is *on plan* (its filled goals are exactly a prefix of the fill order) is pushed on in
//! one *goal macro* to the next goal of the order, if a push path exists with the other boxes
//! standing. Macros are not push-optimal and are used only by the any-solution searches.

use crate::board::{Board, CellSet, NONE};
use crate::dir::Dir;
use crate::position::{Push, Reach};
use std::collections::VecDeque;

/// The fewest goals a goal room has.
pub const MIN_ROOM: usize = 3;

/// "No room".
const NO_ROOM: u16 = u16::MAX;

/// One goal room.
#[derive(Clone, Debug)]
pub struct Room {
    /// The room's goals in fill order (first = fill first).
    pub order: Vec<u16>,
}

/// The goal rooms of a board with their fill orders, and scratch for macro searches.
#[derive(Clone, Debug)]
pub struct GoalRooms {
    /// Rooms that have a fill order.
    pub rooms: Vec<Room>,
    /// Room of each goal cell (`NO_ROOM` elsewhere).
    room_of: Vec<u16>,
    /// Room each entrance cell leads into (`NO_ROOM` elsewhere).
    entrance_of: Vec<u16>,
    reach: Reach,
    parent: Vec<u32>,
    queue: VecDeque<u32>,
    scratch: CellSet,
}

impl GoalRooms {
    /// Find the goal rooms of `board` and their fill orders, for a search starting with boxes
    /// `start` (rooms holding one of them get no plan: module doc).
    pub fn new(board: &Board, start: &CellSet) -> GoalRooms {
        let n = board.cells();
        let mut component = vec![NO_ROOM; n];
        let mut comps: Vec<Vec<u16>> = Vec::new();
        for &g in &board.goal_list {
            if component[g as usize] != NO_ROOM {
                continue;
            }
            let id = comps.len() as u16;
            let mut cells = vec![g];
            component[g as usize] = id;
            let mut k = 0;
            while k < cells.len() {
                let c = cells[k];
                k += 1;
                for &m in &board.neighbors[c as usize] {
                    if m != NONE && board.is_goal(m) && component[m as usize] == NO_ROOM {
                        component[m as usize] = id;
                        cells.push(m);
                    }
                }
            }
            comps.push(cells);
        }
        let mut rooms = Vec::new();
        let mut room_of = vec![NO_ROOM; n];
        let mut entrance_of = vec![NO_ROOM; n];
        let holds_start_box = |cells: &[u16]| cells.iter().any(|&g| start.contains(g));
        for cells in comps
            .iter()
            .filter(|c| c.len() >= MIN_ROOM && !holds_start_box(c))
        {
            let Some(order) = fill_order(board, cells, &box_reachable(board, cells)) else {
                continue;
            };
            let id = rooms.len() as u16;
            for &g in cells {
                room_of[g as usize] = id;
                for &m in &board.neighbors[g as usize] {
                    if m != NONE && !board.is_goal(m) && !board.is_dead(m) {
                        entrance_of[m as usize] = id;
                    }
                }
            }
            rooms.push(Room { order });
        }
        GoalRooms {
            rooms,
            room_of,
            entrance_of,
            reach: Reach::new(n),
            parent: vec![u32::MAX; n * 4],
            queue: VecDeque::new(),
            scratch: CellSet::new(n),
        }
    }

    /// The room of goal cell `c`, if it is in one.
    pub fn room_of(&self, c: u16) -> Option<usize> {
        let r = self.room_of[c as usize];
        (r != NO_ROOM).then_some(r as usize)
    }

    /// The next goal to fill in room `r` given `boxes`, if the room is on plan (its filled
    /// goals are a prefix of the fill order) and not full.
    pub fn next_goal(&self, r: usize, boxes: &CellSet) -> Option<u16> {
        let order = &self.rooms[r].order;
        let k = order.iter().take_while(|&&g| boxes.contains(g)).count();
        if k == order.len() || order[k..].iter().any(|&g| boxes.contains(g)) {
            return None;
        }
        Some(order[k])
    }

    /// Is the box on `c` packed: on a goal of an on-plan room within the filled prefix?
    pub fn is_packed(&self, c: u16, boxes: &CellSet) -> bool {
        let Some(r) = self.room_of(c) else {
            return false;
        };
        let order = &self.rooms[r].order;
        let k = order.iter().take_while(|&&g| boxes.contains(g)).count();
        order[..k].contains(&c) && order[k..].iter().all(|&g| !boxes.contains(g))
    }

    /// After `push` (already applied to `boxes`; the player stands on `push.from`): if it
    /// brought a box onto an entrance of an on-plan room (or into the room from outside), the
    /// further pushes taking that box to the room's next goal, other boxes standing. Returns
    /// `None` when the push is no macro start or no path exists.
    pub fn goal_macro(&mut self, board: &Board, boxes: &CellSet, push: Push) -> Option<Vec<Push>> {
        let to = board.step(push.from, push.dir);
        if self.room_of[push.from as usize] != NO_ROOM {
            return None;
        }
        let r = match (self.room_of[to as usize], self.entrance_of[to as usize]) {
            (NO_ROOM, NO_ROOM) => return None,
            (NO_ROOM, e) => e,
            (r, _) => r,
        };
        let r = r as usize;
        // The room's state without the moving box.
        self.scratch.set_words(boxes.words());
        self.scratch.remove(to);
        let target = self.next_goal(r, &self.scratch)?;
        if target == to {
            return Some(Vec::new());
        }
        self.push_path(board, r as u16, to, push.from, target)
    }

    /// Shortest push path of the box on `start` (removed from `self.scratch`, which holds the
    /// other boxes) to `target` with the player on `player`, the box staying inside room `r`
    /// or on its entrances.
    fn push_path(
        &mut self,
        board: &Board,
        r: u16,
        start: u16,
        player: u16,
        target: u16,
    ) -> Option<Vec<Push>> {
        let allowed = |c: u16| {
            c != NONE && (self.room_of[c as usize] == r || self.entrance_of[c as usize] == r)
        };
        let mut touched: Vec<u32> = Vec::new();
        self.queue.clear();
        // State s = cell * 4 + dir: the box on `cell`, the player on `cell - dir`. The start
        // state is encoded with the player's own cell.
        let mut found = None;
        // Start: flood with the box on `start`.
        self.scratch.insert(start);
        self.reach.compute(board, &self.scratch, player);
        self.scratch.remove(start);
        for d in Dir::ALL {
            let t = board.step(start, d);
            let back = board.step(start, d.opposite());
            if allowed(t) && !self.scratch.contains(t) && self.reach.reachable(back) {
                let s = t as u32 * 4 + d as u32;
                if self.parent[s as usize] == u32::MAX {
                    self.parent[s as usize] = u32::MAX - 1; // root marker
                    touched.push(s);
                    self.queue.push_back(s);
                }
            }
        }
        while let Some(s) = self.queue.pop_front() {
            let cell = (s / 4) as u16;
            let dir = Dir::ALL[(s % 4) as usize];
            if cell == target {
                found = Some(s);
                break;
            }
            let behind = board.step(cell, dir.opposite());
            self.scratch.insert(cell);
            self.reach.compute(board, &self.scratch, behind);
            self.scratch.remove(cell);
            for d in Dir::ALL {
                let t = board.step(cell, d);
                let back = board.step(cell, d.opposite());
                if !allowed(t) || self.scratch.contains(t) || !self.reach.reachable(back) {
                    continue;
                }
                if board.is_dead(t) {
                    continue;
                }
                let ns = t as u32 * 4 + d as u32;
                if self.parent[ns as usize] == u32::MAX {
                    self.parent[ns as usize] = s;
                    touched.push(ns);
                    self.queue.push_back(ns);
                }
            }
        }
        let result = found.map(|mut s| {
            let mut path = Vec::new();
            loop {
                let cell = (s / 4) as u16;
                let dir = Dir::ALL[(s % 4) as usize];
                path.push(Push {
                    from: board.step(cell, dir.opposite()),
                    dir,
                });
                let p = self.parent[s as usize];
                if p == u32::MAX - 1 {
                    break;
                }
                s = p;
            }
            path.reverse();
            path
        });
        for s in touched {
            self.parent[s as usize] = u32::MAX;
        }
        result
    }
}

/// Cells outside the room `cells` that some start box outside the room can be pushed to
/// without entering the room (other boxes ignored).
fn box_reachable(board: &Board, cells: &[u16]) -> Vec<bool> {
    let n = board.cells();
    let mut in_room = vec![false; n];
    for &c in cells {
        in_room[c as usize] = true;
    }
    let mut seen = vec![false; n];
    let mut queue: VecDeque<u16> = board
        .start_boxes
        .iter()
        .filter(|&b| !in_room[b as usize])
        .collect();
    for &b in &queue {
        seen[b as usize] = true;
    }
    while let Some(c) = queue.pop_front() {
        for d in Dir::ALL {
            let t = board.step(c, d);
            let back = board.step(c, d.opposite());
            if t == NONE || back == NONE || in_room[t as usize] || seen[t as usize] {
                continue;
            }
            seen[t as usize] = true;
            queue.push_back(t);
        }
    }
    seen
}

/// The fill order of the room `cells` (see the module doc), or `None`. Boxes are pulled out
/// onto cells `box_ok` (where boxes from the start position can come from).
fn fill_order(board: &Board, cells: &[u16], box_ok: &[bool]) -> Option<Vec<u16>> {
    let n = board.cells();
    let mut in_room = vec![false; n];
    for &c in cells {
        in_room[c as usize] = true;
    }
    let mut standing = CellSet::new(n);
    for &c in cells {
        standing.insert(c);
    }
    let mut removed = Vec::with_capacity(cells.len());
    let mut left: Vec<u16> = cells.to_vec();
    while !left.is_empty() {
        let outside = player_area(board, &standing, &in_room);
        let best = left
            .iter()
            .enumerate()
            .filter_map(|(k, &g)| {
                pulls_to_leave(board, &standing, &in_room, box_ok, &outside, g).map(|d| (d, k))
            })
            .min()?;
        let g = left.swap_remove(best.1);
        standing.remove(g);
        removed.push(g);
    }
    removed.reverse();
    Some(removed)
}

/// Cells the player reaches from the non-room cells, `boxes` blocking.
fn player_area(board: &Board, boxes: &CellSet, in_room: &[bool]) -> Vec<bool> {
    let n = board.cells();
    let mut seen = vec![false; n];
    let mut stack: Vec<u16> = (0..n as u16)
        .filter(|&c| !in_room[c as usize] && !boxes.contains(c))
        .collect();
    for &c in &stack {
        seen[c as usize] = true;
    }
    while let Some(c) = stack.pop() {
        for &m in &board.neighbors[c as usize] {
            if m != NONE && !boxes.contains(m) && !seen[m as usize] {
                seen[m as usize] = true;
                stack.push(m);
            }
        }
    }
    seen
}

/// Fewest pulls taking the box on `g` out of the room (onto a non-room cell) with the player
/// starting in `outside`, the other `boxes` standing; `None` if impossible.
fn pulls_to_leave(
    board: &Board,
    boxes: &CellSet,
    in_room: &[bool],
    box_ok: &[bool],
    outside: &[bool],
    g: u16,
) -> Option<u32> {
    let n = board.cells();
    let mut others = boxes.clone();
    others.remove(g);
    let mut reach = Reach::new(n);
    // State: box cell and the player's cell (a neighbour of the box), as cell * 4 + dir.
    let mut dist = vec![u32::MAX; n * 4];
    let mut queue = VecDeque::new();
    // Initial pulls: the player on a free neighbour `p` of `g` in the outside area, the cell
    // beyond `p` free.
    for d in Dir::ALL {
        let p = board.step(g, d);
        if p == NONE || others.contains(p) || !outside[p as usize] {
            continue;
        }
        let q = board.step(p, d);
        if q == NONE || others.contains(q) {
            continue;
        }
        if !in_room[p as usize] {
            if box_ok[p as usize] {
                return Some(1);
            }
            continue;
        }
        let s = p as usize * 4 + d as usize;
        if dist[s] == u32::MAX {
            dist[s] = 1;
            queue.push_back(s);
        }
    }
    while let Some(s) = queue.pop_front() {
        let c = (s / 4) as u16;
        let d = Dir::ALL[s % 4];
        let player = board.step(c, d);
        others.insert(c);
        reach.compute(board, &others, player);
        others.remove(c);
        for e in Dir::ALL {
            let p = board.step(c, e);
            if p == NONE || others.contains(p) || !reach.reachable(p) {
                continue;
            }
            let q = board.step(p, e);
            if q == NONE || others.contains(q) {
                continue;
            }
            if !in_room[p as usize] {
                if box_ok[p as usize] {
                    return Some(dist[s] + 1);
                }
                continue;
            }
            let ns = p as usize * 4 + e as usize;
            if dist[ns] == u32::MAX {
                dist[ns] = dist[s] + 1;
                queue.push_back(ns);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;

    fn board(text: &str) -> Board {
        Board::new(&Level::parse_one(text).unwrap()).unwrap()
    }

    #[test]
    fn dead_end_room_fills_from_the_back() {
        // A corridor of goals closed on the left: the leftmost goal must be filled first.
        let b = board("#######\n#...  #\n#  $$$#\n#  @  #\n#######\n");
        let rooms = GoalRooms::new(&b, &crate::position::Position::start(&b).boxes);
        assert_eq!(rooms.rooms.len(), 1);
        let order = &rooms.rooms[0].order;
        assert_eq!(order.len(), 3);
        // Every goal must be fillable given the earlier ones: check the pulls-out reverse.
        assert!(order.iter().all(|&g| b.is_goal(g)));
    }

    #[test]
    fn a_room_holding_a_start_box_gets_no_plan() {
        // The corridor room with a box already on its middle goal: that box has to leave
        // before the deepest goal can be filled, so no fill plan may count it as packed.
        let b = board("##########\n#.*. $   #\n####  $  #\n   #    @#\n   #######\n");
        let start = crate::position::Position::start(&b);
        assert!(GoalRooms::new(&b, &start.boxes).rooms.is_empty());
        let empty = CellSet::new(b.cells());
        assert_eq!(GoalRooms::new(&b, &empty).rooms.len(), 1);
    }

    const CORRIDOR: &str = "##########\n#... $   #\n####  $  #\n   #  $ @#\n   #######\n";

    #[test]
    fn corridor_room_order_is_deepest_first() {
        let b = board(CORRIDOR);
        let rooms = GoalRooms::new(&b, &crate::position::Position::start(&b).boxes);
        assert_eq!(rooms.rooms.len(), 1);
        let xs: Vec<usize> = rooms.rooms[0].order.iter().map(|&g| b.xy(g).0).collect();
        assert_eq!(xs, vec![1, 2, 3]);
    }

    #[test]
    fn macro_pushes_box_to_next_goal() {
        let b = board(CORRIDOR);
        let mut rooms = GoalRooms::new(&b, &crate::position::Position::start(&b).boxes);
        let start = crate::position::Position::start(&b);
        let pushed = |from: u16, dir: Dir| {
            let mut boxes = start.boxes.clone();
            boxes.remove(from);
            boxes.insert(b.step(from, dir));
            (boxes, Push { from, dir })
        };
        // The box at (6,2) pushed up to (6,1): no entrance.
        let (boxes, push) = pushed(b.cell_of[2 * b.width + 6], Dir::Up);
        assert!(rooms.goal_macro(&b, &boxes, push).is_none());
        // The box at (5,1) pushed left onto the entrance (4,1): it goes on to (1,1).
        let (boxes, push) = pushed(b.cell_of[b.width + 5], Dir::Left);
        let path = rooms.goal_macro(&b, &boxes, push).expect("a macro");
        assert_eq!(path.len(), 3);
        assert!(path.iter().all(|p| p.dir == Dir::Left));
        assert_eq!(b.xy(b.step(path[2].from, Dir::Left)), (1, 1));
        // With (1,1) filled, the next box goes to (2,1).
        let mut boxes2 = boxes.clone();
        boxes2.remove(b.step(push.from, Dir::Left));
        boxes2.insert(b.cell_of[b.width + 1]);
        boxes2.insert(b.cell_of[b.width + 4]);
        boxes2.remove(b.cell_of[2 * b.width + 6]);
        let push2 = Push {
            from: b.cell_of[b.width + 5],
            dir: Dir::Left,
        };
        let path2 = rooms.goal_macro(&b, &boxes2, push2).expect("a macro");
        assert_eq!(path2.len(), 2);
    }
}
