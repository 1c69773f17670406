//! Exhaustive backward search for the start farthest from a room's goals (Taylor & Parberry 2011,
//! "Procedural generation of Sokoban levels"; see `docs/METHODS.md#sokogen-backward`).
//!
//! The search starts from every solved position of a room (the boxes on the goals, the player in
//! any area of the free floor) and pulls boxes: the player stands beside a box, steps away from
//! it, and the box follows. A pull undoes a push, so a breadth-first search over pulls finds, for
//! every position it reaches, the fewest pushes that solve it: a position first met in layer `k`
//! needs exactly `k` pushes. The last layer holds the starts farthest from the goals, and the
//! parent links of a position are a push-optimal solution of it. A position is the boxes and the
//! player's area (named by its lowest cell), since walking is free when counting pushes.
//!
//! The search is bounded by a number of positions; a search cut short still knows the exact push
//! count of every position it met (each was met in its own layer), it only cannot claim that no
//! position lies farther.

use crate::geometry::{Direction, Geometry, DIRECTIONS};
use puzzle_engine::bits::Bits;
use puzzle_engine::FxHashMap;

/// One position met by the search.
#[derive(Clone, Copy, Debug)]
struct Node<const N: usize> {
    boxes: Bits<N>,
    /// The lowest cell of the player's area.
    player: u16,
    /// The player's area (kept so that expanding the position needs no flood).
    area: Bits<N>,
    /// The position this one was pulled from (`u32::MAX` for a solved position).
    parent: u32,
    /// The pulled box's cell in the parent.
    from: u16,
    /// The direction the pull moved that box (a push the other way undoes it).
    dir: u8,
}

/// What a search found about a room.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Explored {
    /// The most pushes any position met needs (0 when only solved positions exist).
    pub max_pushes: u32,
    /// Positions met (the solved ones included).
    pub positions: usize,
    /// Every position that can reach the goals was met (the position budget was not reached),
    /// so `max_pushes` is the room's true maximum.
    pub complete: bool,
}

/// A start chosen from the search, with its push-optimal solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Start<const N: usize> {
    /// The boxes' cells.
    pub boxes: Bits<N>,
    /// The player's cell (the lowest cell of its area).
    pub player: usize,
    /// The pushes that solve it, fewest possible: each is the box's cell and the push's
    /// direction (the player walks to the cell behind the box first).
    pub pushes: Vec<(usize, Direction)>,
}

/// The search's memory, kept between rooms so that repeated searches do not allocate.
#[derive(Debug, Default)]
pub struct BackwardSearch<const N: usize> {
    nodes: Vec<Node<N>>,
    index: FxHashMap<(Bits<N>, u16), u32>,
    /// `layers[k]..layers[k + 1]` are the positions needing `k` pushes.
    layers: Vec<usize>,
    goals: Bits<N>,
    /// The last search's room, bound and answer: searching the same room again (a kept level
    /// right after the improvement that found it) reuses the layers held.
    last: Option<(Bits<N>, Bits<N>, usize, Explored)>,
}

impl<const N: usize> BackwardSearch<N> {
    /// An empty search.
    pub fn new() -> Self {
        BackwardSearch {
            nodes: Vec::new(),
            index: FxHashMap::default(),
            layers: Vec::new(),
            goals: Bits::EMPTY,
            last: None,
        }
    }

    /// Search the room whose floor is `floor` (walls and off-board cells are everything else)
    /// and whose goals are `goals` (one box per goal), meeting at most `max_positions`
    /// positions.
    pub fn run(
        &mut self,
        geo: &Geometry<N>,
        floor: Bits<N>,
        goals: Bits<N>,
        max_positions: usize,
    ) -> Explored {
        let floor = floor.and(geo.inside);
        if let Some((f, g, m, explored)) = self.last {
            if (f, g, m) == (floor, goals, max_positions) {
                return explored;
            }
        }
        let explored = self.search(geo, floor, goals, max_positions);
        self.last = Some((floor, goals, max_positions, explored));
        explored
    }

    fn search(
        &mut self,
        geo: &Geometry<N>,
        floor: Bits<N>,
        goals: Bits<N>,
        max_positions: usize,
    ) -> Explored {
        self.nodes.clear();
        self.index.clear();
        self.layers.clear();
        self.goals = goals;
        let goals = goals.and(floor);
        let mut complete = true;
        // Layer 0: the boxes on the goals, the player in each area of the free floor.
        let free = floor.and_not(goals);
        let mut rest = free;
        while let Some(c) = rest.first() {
            let area = geo.flood(Bits::single(c), free);
            rest = rest.and_not(area);
            self.insert(goals, area, u32::MAX, 0, 0);
        }
        self.layers.push(0);
        let mut start = 0;
        'layers: loop {
            let end = self.nodes.len();
            if start == end {
                break;
            }
            for i in start..end {
                let node = self.nodes[i];
                let free = floor.and_not(node.boxes);
                let reach = node.area;
                for (d, &m) in DIRECTIONS.iter().enumerate() {
                    let back = m.opposite();
                    // A box at b moves to b + m when the player stands on b + m (in its area)
                    // and steps to b + 2m (free).
                    let pullable = node
                        .boxes
                        .and(geo.shift(reach, back))
                        .and(geo.shift(geo.shift(free, back), back));
                    for b in pullable.iter() {
                        let Some(c) = geo.step(b, m) else { continue };
                        let Some(p) = geo.step(c, m) else { continue };
                        let mut boxes = node.boxes;
                        boxes.clear(b);
                        boxes.set(c);
                        let area = area_after_pull(geo, floor, boxes, reach, b, c, p);
                        if self.nodes.len() >= max_positions {
                            let player = area.first().unwrap_or(p) as u16;
                            if !self.index.contains_key(&(boxes, player)) {
                                complete = false;
                                break 'layers;
                            }
                            continue;
                        }
                        self.insert(boxes, area, i as u32, b as u16, d as u8);
                    }
                }
            }
            self.layers.push(end);
            start = end;
        }
        if self.layers.last() != Some(&self.nodes.len()) {
            self.layers.push(self.nodes.len());
        }
        Explored {
            max_pushes: self.max_pushes(),
            positions: self.nodes.len(),
            complete,
        }
    }

    fn insert(&mut self, boxes: Bits<N>, area: Bits<N>, parent: u32, from: u16, dir: u8) {
        let next = self.nodes.len() as u32;
        let player = area.first().unwrap_or(0) as u16;
        if let std::collections::hash_map::Entry::Vacant(e) = self.index.entry((boxes, player)) {
            e.insert(next);
            self.nodes.push(Node {
                boxes,
                player,
                area,
                parent,
                from,
                dir,
            });
        }
    }

    /// The most pushes any position met needs.
    pub fn max_pushes(&self) -> u32 {
        (0..self.layers.len().saturating_sub(1))
            .rev()
            .find(|&k| self.layers[k] < self.layers[k + 1])
            .unwrap_or(0) as u32
    }

    /// How many positions met need exactly `pushes` pushes.
    pub fn count_at(&self, pushes: u32) -> usize {
        let k = pushes as usize;
        if k + 1 >= self.layers.len() {
            return 0;
        }
        self.layers[k + 1] - self.layers[k]
    }

    /// A start needing exactly `pushes` pushes, with its solution: of the positions in that
    /// layer, the one with the fewest boxes already on goals (the first met among equals).
    /// `None` when no position met needs that many.
    pub fn start_at(&self, geo: &Geometry<N>, pushes: u32) -> Option<Start<N>> {
        let k = pushes as usize;
        if self.count_at(pushes) == 0 {
            return None;
        }
        let layer = self.layers[k]..self.layers[k + 1];
        let chosen = layer.min_by_key(|&i| self.nodes[i].boxes.and(self.goals).count())?;
        let node = self.nodes[chosen];
        let mut pushes = Vec::with_capacity(k);
        let mut i = chosen;
        while self.nodes[i].parent != u32::MAX {
            let n = self.nodes[i];
            let m = DIRECTIONS[n.dir as usize];
            let cell = geo.step(n.from as usize, m)?;
            pushes.push((cell, m.opposite()));
            i = n.parent as usize;
        }
        Some(Start {
            boxes: node.boxes,
            player: node.player as usize,
            pushes,
        })
    }
}

/// The player's area after a pull that moved a box from `b` to `c` and the player from `c` to
/// `p`, the player's area before it being `reach`. Without a flood when the
/// answer is local: `c` leaves `reach` connected (its neighbours in `reach` form one run around
/// it) and the freed `b` joins no other area; then the area is `reach` less `c`, plus `b` when
/// `b` touches it.
#[inline]
fn area_after_pull<const N: usize>(
    geo: &Geometry<N>,
    floor: Bits<N>,
    boxes: Bits<N>,
    reach: Bits<N>,
    b: usize,
    c: usize,
    p: usize,
) -> Bits<N> {
    let free = floor.and_not(boxes);
    let mut rest = reach;
    rest.clear(c);
    let around_b = geo.neighbours(Bits::single(b)).and(free);
    let joins = !around_b.and(rest).is_empty();
    let elsewhere = !around_b.and_not(rest).is_empty();
    if !(joins && elsewhere) && keeps_connected(geo, reach, c) {
        if joins {
            rest.set(b);
        }
        return rest;
    }
    geo.flood(Bits::single(p), free)
}

/// For each ring of eight cells around a cell (bit 0 = up, then clockwise), whether the ring's
/// orthogonal neighbours in the set all lie in one run of set cells around the ring, so that
/// taking the centre out of a connected set leaves it connected.
const RING_KEEPS_CONNECTED: [bool; 256] = ring_table();

const fn ring_table() -> [bool; 256] {
    let mut table = [false; 256];
    let mut mask = 0;
    while mask < 256 {
        // Count the runs of set cells around the ring that hold an orthogonal neighbour.
        let mut runs_with_neighbour = 0;
        let mut all_set = true;
        let mut i = 0;
        while i < 8 {
            if mask & (1 << i) == 0 {
                all_set = false;
            }
            i += 1;
        }
        if all_set {
            table[mask] = true;
            mask += 1;
            continue;
        }
        // Start each run just after an unset cell.
        let mut start = 0;
        while start < 8 {
            let prev = (start + 7) % 8;
            if mask & (1 << start) != 0 && mask & (1 << prev) == 0 {
                let mut j = start;
                let mut has_neighbour = false;
                while mask & (1 << j) != 0 {
                    if j % 2 == 0 {
                        has_neighbour = true;
                    }
                    j = (j + 1) % 8;
                }
                if has_neighbour {
                    runs_with_neighbour += 1;
                }
            }
            start += 1;
        }
        table[mask] = runs_with_neighbour <= 1;
        mask += 1;
    }
    table
}

/// Whether taking `c` out of the connected set `set` (which holds it) leaves it connected, by
/// the ring of cells around `c` alone (`false` can be a false alarm: then flood).
#[inline]
fn keeps_connected<const N: usize>(geo: &Geometry<N>, set: Bits<N>, c: usize) -> bool {
    let s = geo.stride as isize;
    let c = c as isize;
    let ring = [
        c - s,
        c - s + 1,
        c + 1,
        c + s + 1,
        c + s,
        c + s - 1,
        c - 1,
        c - s - 1,
    ];
    let mut mask = 0usize;
    for (i, &r) in ring.iter().enumerate() {
        if r >= 0 && (r as usize) < Bits::<N>::CAPACITY && set.has(r as usize) {
            mask |= 1 << i;
        }
    }
    RING_KEEPS_CONNECTED[mask]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A room from rows of `#` (wall), `.` (goal) and anything else (floor).
    fn room(rows: &[&str]) -> (Geometry<2>, Bits<2>, Bits<2>) {
        let geo = Geometry::<2>::new(rows[0].len(), rows.len()).unwrap();
        let (mut floor, mut goals) = (Bits::EMPTY, Bits::EMPTY);
        for (y, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                let c = geo.cell(x, y);
                if ch != '#' {
                    floor.set(c);
                }
                if ch == '.' {
                    goals.set(c);
                }
            }
        }
        (geo, floor, goals)
    }

    #[test]
    fn a_corridor_is_as_long_as_its_floor_allows() {
        // One box, one goal at the end of a 5-cell corridor: the box can be pulled up to 3
        // cells away (the player needs a cell behind it).
        let (geo, floor, goals) = room(&["#####", ".    ", "#####"]);
        let mut search = BackwardSearch::new();
        let e = search.run(&geo, floor, goals, 1000);
        assert!(e.complete);
        assert_eq!(e.max_pushes, 3);
        let start = search.start_at(&geo, 3).unwrap();
        assert_eq!(start.pushes.len(), 3);
        assert_eq!(start.boxes.first(), Some(geo.cell(3, 1)));
        assert!(start.pushes.iter().all(|&(_, d)| d == Direction::Left));
    }

    #[test]
    fn the_budget_cuts_the_search_but_keeps_exact_layers() {
        let (geo, floor, goals) = room(&["      ", " ..   ", "      ", "      "]);
        let mut search = BackwardSearch::new();
        let full = search.run(&geo, floor, goals, 1 << 20);
        let cut = search.run(&geo, floor, goals, full.positions / 2);
        assert!(full.complete && !cut.complete);
        assert!(cut.positions <= full.positions / 2);
        assert!(cut.max_pushes <= full.max_pushes);
    }

    #[test]
    fn the_area_after_a_pull_is_the_flooded_one() {
        let geo = Geometry::<2>::new(8, 8).unwrap();
        let mut rng = puzzle_engine::Rng::new(3);
        let mut checked = 0;
        for _ in 0..3000 {
            let (mut floor, mut boxes) = (Bits::EMPTY, Bits::EMPTY);
            for c in geo.inside.iter() {
                if rng.chance(0.75) {
                    floor.set(c);
                    if rng.chance(0.2) {
                        boxes.set(c);
                    }
                }
            }
            let free = floor.and_not(boxes);
            let Some(start) = free.first() else { continue };
            let reach = geo.flood(Bits::single(start), free);
            for m in DIRECTIONS {
                for b in boxes.iter() {
                    let (Some(c), true) = (geo.step(b, m), true) else {
                        continue;
                    };
                    let Some(p) = geo.step(c, m) else { continue };
                    if !reach.has(c) || !free.has(p) {
                        continue;
                    }
                    let mut after = boxes;
                    after.clear(b);
                    after.set(c);
                    let flooded = geo.flood(Bits::single(p), floor.and_not(after));
                    assert_eq!(area_after_pull(&geo, floor, after, reach, b, c, p), flooded);
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000, "{checked} pulls checked");
    }
}
