//! Rooms and FESS's room-connectivity feature (Shoham & Schaeffer 2020, §III-B; the room
//! definition follows the authors' longer write-up; see `docs/METHODS.md#sokoban-fess`).
//!
//! A *room* is a connected area made of 2×3 (or 3×2) blocks of floor; every other floor cell
//! is corridor. Two rooms are *linked* when a path on the empty board goes from one to the
//! other through corridor cells only. In a position, each room's free cells are flooded
//! through the room and the corridors (never through another room or a box), one flood per
//! part the boxes cut the room into; a link is *obstructed* when some part of one of its rooms
//! does not reach the other room. The feature is the number of obstructed links.
//!
//! On a grid that fits bit rows ([`Board::place`]) the floods are the row floods of the
//! player's reach ([`crate::position::Reach`]) over each room's cells and the corridors;
//! on wider grids, and when the links are found, cell by cell. Both give the same count.

use crate::board::{Board, CellSet, NONE, ROW_BITS};
use crate::position::{clear_rows, copy_rows, fill_area, next_to_row, row_bit, Rows};

/// The rooms of a level and their links.
#[derive(Clone, Debug)]
pub struct Rooms {
    /// The room of each cell, or [`NONE`] for a corridor cell.
    pub room_of: Vec<u16>,
    /// The number of rooms.
    pub count: usize,
    /// The linked rooms of each room (sorted).
    pub links: Vec<Vec<u16>>,
    /// The cells of each room, in cell order.
    cells: Vec<Vec<u16>>,
    seen: Vec<u32>,
    stamp: u32,
    stack: Vec<u16>,
    touched: Vec<u32>,
    /// The obstructed links found so far (scratch of [`Rooms::obstructed_links`]).
    broken: Vec<(u16, u16)>,
    /// Each room's cells and the corridor cells as bit rows (`None` when the grid does not
    /// fit them).
    rows: Option<Box<RoomRows>>,
    /// Each room's links as bits of one word (aligned with [`Rooms::links`]), when the grid
    /// fits bit rows and the level has at most 64 links.
    link_bits: Option<Vec<Vec<u64>>>,
}

/// The bit rows of the rooms and corridors, and the row floods' scratch.
#[derive(Clone, Debug)]
struct RoomRows {
    /// The cells of each room.
    room: Vec<Rows>,
    /// The first and last padded row holding cells of each room.
    span: Vec<(usize, usize)>,
    /// The corridor cells.
    corridor: Rows,
    /// The boxes of the position being measured.
    boxes: Rows,
    /// The free cells of one room and the corridors.
    free: Rows,
    /// The cells of the room's parts flooded so far.
    seen: Rows,
    /// One part's flood.
    area: Rows,
    /// The cells whose boxes a room's obstructed links depend on: its own, the corridor
    /// cells joined to it through corridors, and the cells of linked rooms next to those
    /// ([`Rooms::obstructed_links_after_move`]).
    depends: Vec<Rows>,
    /// The first and last padded row a flood of each room may cover (its cells and the
    /// corridor cells joined to it through corridors).
    reach_span: Vec<(usize, usize)>,
    /// The links each room's parts found obstructed in the base position.
    base: Vec<u64>,
    /// The boxes of the base position.
    base_boxes: Rows,
    /// Whether `base` holds a position's masks.
    base_set: bool,
    /// Room masks already measured ([`MaskMemo`]).
    memo: MaskMemo,
}

/// A direct-mapped cache of room masks. A room's obstructed links depend only on the boxes
/// on the cells of its `depends` rows, so the mask is kept under those boxes (as rows) and
/// the room; a lookup compares them exactly, so a hit returns what the floods would. Its size
/// is fixed when the level is analysed.
#[derive(Clone, Debug)]
struct MaskMemo {
    /// Rows kept per entry: the most rows any room's `depends` spans.
    width: usize,
    /// Each entry's room (`u32::MAX`: empty) and mask.
    room: Vec<u32>,
    mask: Vec<u64>,
    /// Each entry's boxes on its room's `depends` cells, `width` rows from the room's first.
    boxes: Vec<u64>,
    /// The first and last padded row of each room's `depends`.
    span: Vec<(usize, usize)>,
}

/// The entries of a [`MaskMemo`] (a power of two).
const MEMO_SLOTS: usize = 1 << 14;

impl MaskMemo {
    /// A memo with no entries (until the rooms' `depends` are known).
    fn empty() -> MaskMemo {
        MaskMemo {
            width: 0,
            room: Vec::new(),
            mask: Vec::new(),
            boxes: Vec::new(),
            span: Vec::new(),
        }
    }

    fn new(depends: &[Rows]) -> MaskMemo {
        let span: Vec<(usize, usize)> = depends
            .iter()
            .map(|dep| {
                let first = dep.iter().position(|&w| w != 0).unwrap_or(1);
                let last = dep.iter().rposition(|&w| w != 0).unwrap_or(0);
                (first, last.max(first))
            })
            .collect();
        let width = span.iter().map(|&(a, b)| b - a + 1).max().unwrap_or(1);
        MaskMemo {
            width,
            room: vec![u32::MAX; MEMO_SLOTS],
            mask: vec![0; MEMO_SLOTS],
            boxes: vec![0; MEMO_SLOTS * width],
            span,
        }
    }

    /// The boxes of room `r`'s `depends` cells, row by row from its first row, into `key`
    /// (`width` long), and the entry they map to.
    fn key(&self, r: usize, depends: &Rows, boxes: &Rows, key: &mut [u64]) -> usize {
        let (first, last) = self.span[r];
        let mut h = (r as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        for (i, y) in (first..=last).enumerate() {
            let k = boxes[y] & depends[y];
            key[i] = k;
            h = (h ^ k).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
        key[last + 1 - first..].fill(0);
        (h >> (64 - MEMO_SLOTS.trailing_zeros())) as usize
    }

    /// The mask kept in entry `slot` for room `r` and boxes `key`, if it is there.
    fn get(&self, slot: usize, r: usize, key: &[u64]) -> Option<u64> {
        let w = self.width;
        (self.room[slot] == r as u32 && self.boxes[slot * w..(slot + 1) * w] == *key)
            .then(|| self.mask[slot])
    }

    fn put(&mut self, slot: usize, r: usize, key: &[u64], mask: u64) {
        let w = self.width;
        self.room[slot] = r as u32;
        self.mask[slot] = mask;
        self.boxes[slot * w..(slot + 1) * w].copy_from_slice(key);
    }
}

impl Rooms {
    /// The rooms of `board` (see the module documentation).
    pub fn new(board: &Board) -> Rooms {
        let n = board.cells();
        let floor = |x: usize, y: usize| {
            x < board.width && y < board.height && {
                let c = board.cell_of[y * board.width + x];
                c != NONE && board.neighbors[c as usize].iter().any(|&m| m != NONE)
            }
        };
        let mut in_room = vec![false; n];
        for y in 0..board.height {
            for x in 0..board.width {
                for (w, h) in [(3, 2), (2, 3)] {
                    if (0..h).all(|j| (0..w).all(|i| floor(x + i, y + j))) {
                        for j in 0..h {
                            for i in 0..w {
                                in_room[board.cell_of[(y + j) * board.width + x + i] as usize] =
                                    true;
                            }
                        }
                    }
                }
            }
        }
        let mut room_of = vec![NONE; n];
        let mut count = 0usize;
        for start in 0..n {
            if !in_room[start] || room_of[start] != NONE {
                continue;
            }
            let id = count as u16;
            count += 1;
            room_of[start] = id;
            let mut stack = vec![start as u16];
            while let Some(x) = stack.pop() {
                for &y in &board.neighbors[x as usize] {
                    if y != NONE && in_room[y as usize] && room_of[y as usize] == NONE {
                        room_of[y as usize] = id;
                        stack.push(y);
                    }
                }
            }
        }
        let mut cells = vec![Vec::new(); count];
        for (c, &r) in room_of.iter().enumerate() {
            if r != NONE {
                cells[r as usize].push(c as u16);
            }
        }
        let mut rooms = Rooms {
            room_of,
            count,
            links: vec![Vec::new(); count],
            cells,
            seen: vec![0; n],
            stamp: 0,
            stack: Vec::new(),
            touched: vec![0; count],
            broken: Vec::new(),
            rows: None,
            link_bits: None,
        };
        if !board.place.is_empty() {
            let mut room = vec![[0u64; ROW_BITS + 2]; count];
            let mut corridor = [0u64; ROW_BITS + 2];
            for c in 0..n as u16 {
                let (y, bit) = row_bit(board.place[c as usize]);
                match rooms.room_of[c as usize] {
                    NONE => corridor[y] |= bit,
                    r => room[r as usize][y] |= bit,
                }
            }
            let zero = [0u64; ROW_BITS + 2];
            let span = room
                .iter()
                .map(|rows| {
                    let first = rows.iter().position(|&w| w != 0).unwrap_or(1);
                    let last = rows.iter().rposition(|&w| w != 0).unwrap_or(0);
                    (first, last)
                })
                .collect();
            rooms.rows = Some(Box::new(RoomRows {
                room,
                span,
                corridor,
                boxes: zero,
                free: zero,
                seen: zero,
                area: zero,
                depends: Vec::new(),
                reach_span: Vec::new(),
                base: vec![0; count],
                base_boxes: zero,
                base_set: false,
                memo: MaskMemo::empty(),
            }));
        }
        let empty = CellSet::new(n);
        for r in 0..count as u16 {
            if let Some(&c) = rooms.cells[r as usize].first() {
                rooms.flood_part(board, &empty, r, c);
                let stamp = rooms.stamp;
                rooms.links[r as usize] = (0..count as u16)
                    .filter(|&o| o != r && rooms.touched[o as usize] == stamp)
                    .collect();
            }
        }
        if let Some(rows) = rooms.rows.as_deref_mut() {
            let mut pairs = Vec::new();
            for (r, links) in rooms.links.iter().enumerate() {
                for &o in links {
                    pairs.push(((r as u16).min(o), (r as u16).max(o)));
                }
            }
            pairs.sort_unstable();
            pairs.dedup();
            if pairs.len() <= 64 {
                rooms.link_bits = Some(
                    (0..count)
                        .map(|r| {
                            rooms.links[r]
                                .iter()
                                .map(|&o| {
                                    let pair = ((r as u16).min(o), (r as u16).max(o));
                                    1 << pairs.binary_search(&pair).expect("a listed link")
                                })
                                .collect()
                        })
                        .collect(),
                );
            }
            // A room's floods cover at most its cells and the corridor cells joined to it
            // through corridors on the empty board, and look at the cells of linked rooms
            // next to those.
            let areas: Vec<Rows> = (0..count)
                .map(|r| {
                    let free: Rows = std::array::from_fn(|y| rows.room[r][y] | rows.corridor[y]);
                    let mut area = [0u64; ROW_BITS + 2];
                    if let Some(&c) = rooms.cells[r].first() {
                        fill_area(&mut area, &free, board.place[c as usize], board.width);
                    }
                    area
                })
                .collect();
            rows.reach_span = areas
                .iter()
                .map(|area| {
                    let first = area.iter().position(|&w| w != 0).unwrap_or(1);
                    let last = area.iter().rposition(|&w| w != 0).unwrap_or(0);
                    (first, last)
                })
                .collect();
            rows.depends = areas
                .iter()
                .enumerate()
                .map(|(r, &area)| {
                    let mut dep = area;
                    for (y, row) in dep.iter_mut().enumerate().take(board.height + 1).skip(1) {
                        let linked = rooms.links[r]
                            .iter()
                            .fold(0, |acc, &o| acc | rows.room[o as usize][y]);
                        *row |= next_to_row(&area, y) & linked;
                    }
                    dep
                })
                .collect();
            rows.memo = MaskMemo::new(&rows.depends);
        }
        rooms
    }

    /// Flood from `start` (a free cell of room `r`) through room `r` and corridor cells
    /// around `boxes`; the rooms whose free cells it meets get `touched == stamp`.
    fn flood_part(&mut self, board: &Board, boxes: &CellSet, r: u16, start: u16) {
        self.stamp += 1;
        let stamp = self.stamp;
        self.seen[start as usize] = stamp;
        self.stack.clear();
        self.stack.push(start);
        while let Some(x) = self.stack.pop() {
            for &y in &board.neighbors[x as usize] {
                if y == NONE || boxes.contains(y) || self.seen[y as usize] == stamp {
                    continue;
                }
                let ry = self.room_of[y as usize];
                if ry != NONE && ry != r {
                    self.touched[ry as usize] = stamp;
                    continue;
                }
                self.seen[y as usize] = stamp;
                self.stack.push(y);
            }
        }
    }

    /// Each room's *area*: its cells and the corridor cells that open into it alone (the
    /// connected corridor cells touching no other room: dead ends, or a loop out of the room
    /// and back), so that a box leaving the area has reached a corridor that leads on to
    /// another room. Returns the area of each cell ([`NONE`] for a corridor leading on) and
    /// the areas as cell sets. Used by the room deadlock search
    /// ([`crate::corraldl::CorralDeadlock::is_room_deadlock`]).
    pub fn areas(&self, board: &Board) -> (Vec<u16>, Vec<CellSet>) {
        let n = board.cells();
        let mut area_of = self.room_of.clone();
        let mut seen = vec![false; n];
        let mut stack = Vec::new();
        let mut members = Vec::new();
        for start in 0..n {
            if self.room_of[start] != NONE || seen[start] {
                continue;
            }
            // One connected run of corridor cells, and the rooms it touches.
            seen[start] = true;
            stack.push(start as u16);
            members.clear();
            let mut touches = NONE;
            let mut several = false;
            while let Some(x) = stack.pop() {
                members.push(x);
                for &y in &board.neighbors[x as usize] {
                    if y == NONE {
                        continue;
                    }
                    match self.room_of[y as usize] {
                        NONE => {
                            if !seen[y as usize] {
                                seen[y as usize] = true;
                                stack.push(y);
                            }
                        }
                        r if touches == NONE || touches == r => touches = r,
                        _ => several = true,
                    }
                }
            }
            if touches != NONE && !several {
                for &x in &members {
                    area_of[x as usize] = touches;
                }
            }
        }
        let mut areas = vec![CellSet::new(n); self.count];
        for (c, &a) in area_of.iter().enumerate() {
            if a != NONE {
                areas[a as usize].insert(c as u16);
            }
        }
        (area_of, areas)
    }

    /// The room-connectivity feature of the position `boxes`: links obstructed by boxes.
    pub fn obstructed_links(&mut self, board: &Board, boxes: &CellSet) -> u32 {
        if self.count < 2 {
            return 0;
        }
        self.broken.clear();
        if self.rows.is_some() {
            self.obstructed_links_by_rows(board, boxes)
        } else {
            self.obstructed_links_by_cells(board, boxes)
        }
    }

    /// [`Rooms::obstructed_links`] by floods cell by cell (`broken` empty).
    fn obstructed_links_by_cells(&mut self, board: &Board, boxes: &CellSet) -> u32 {
        // Stamps only grow, so a cell seen by one of a room's floods has a stamp no smaller
        // than the room's first flood's; start afresh long before they could wrap.
        if self.stamp > u32::MAX / 2 {
            self.seen.fill(0);
            self.touched.fill(0);
            self.stamp = 0;
        }
        for r in 0..self.count {
            if self.links[r].is_empty() {
                continue;
            }
            let first = self.stamp + 1;
            for i in 0..self.cells[r].len() {
                let c = self.cells[r][i];
                // A box, or a cell one of this room's parts already covered.
                if boxes.contains(c) || self.seen[c as usize] >= first {
                    continue;
                }
                self.flood_part(board, boxes, r as u16, c);
                let stamp = self.stamp;
                for &o in &self.links[r] {
                    if self.touched[o as usize] != stamp {
                        let link = ((r as u16).min(o), (r as u16).max(o));
                        if !self.broken.contains(&link) {
                            self.broken.push(link);
                        }
                    }
                }
            }
        }
        self.broken.len() as u32
    }

    /// [`Rooms::obstructed_links`] by row floods (the grid fits bit rows).
    fn obstructed_links_by_rows(&mut self, board: &Board, boxes: &CellSet) -> u32 {
        let rows = self.rows.as_deref_mut().expect("bit rows");
        rows.load_boxes(board, boxes);
        if let Some(bits) = &self.link_bits {
            let mut all = 0;
            for (r, bits) in bits.iter().enumerate() {
                all |= rows.room_mask(board, r, &self.links[r], bits, &mut self.broken);
            }
            return all.count_ones();
        }
        for r in 0..self.count {
            rows.room_mask(board, r, &self.links[r], &[], &mut self.broken);
        }
        self.broken.len() as u32
    }

    /// Take `boxes` as the base position of [`Rooms::obstructed_links_after_move`]: each
    /// room's obstructed links are kept, so that a position one box away from it floods
    /// again only the rooms the box's two cells touch. Returns the base's count.
    pub fn set_base(&mut self, board: &Board, boxes: &CellSet) -> u32 {
        let (Some(rows), Some(bits)) = (self.rows.as_deref_mut(), &self.link_bits) else {
            return self.obstructed_links(board, boxes);
        };
        rows.load_boxes(board, boxes);
        rows.base_boxes = rows.boxes;
        let mut all = 0;
        for (r, bits) in bits.iter().enumerate() {
            rows.base[r] = rows.room_mask(board, r, &self.links[r], bits, &mut self.broken);
            all |= rows.base[r];
        }
        rows.base_set = true;
        all.count_ones()
    }

    /// [`Rooms::obstructed_links`] of `boxes`, the base position ([`Rooms::set_base`]) with
    /// the box on `from` moved to `to`. A room's floods cover only its cells and the corridor
    /// cells joined to it, and look only at the linked rooms' cells next to those, so a room
    /// none of whose such cells is `from` or `to` keeps the base's obstructed links; the
    /// others are flooded again. The count equals
    /// [`Rooms::obstructed_links`]'s (a property test).
    pub fn obstructed_links_after_move(
        &mut self,
        board: &Board,
        boxes: &CellSet,
        from: u16,
        to: u16,
    ) -> u32 {
        if self.count < 2 {
            return 0;
        }
        let (Some(rows), Some(bits)) = (self.rows.as_deref_mut(), &self.link_bits) else {
            return self.obstructed_links(board, boxes);
        };
        if !rows.base_set {
            return self.obstructed_links(board, boxes);
        }
        let ((fy, fbit), (ty, tbit)) = (
            row_bit(board.place[from as usize]),
            row_bit(board.place[to as usize]),
        );
        let mut loaded = false;
        let mut all = 0;
        for (r, bits) in bits.iter().enumerate() {
            if self.links[r].is_empty() {
                continue;
            }
            let dep = &rows.depends[r];
            if dep[fy] & fbit == 0 && dep[ty] & tbit == 0 {
                all |= rows.base[r];
                continue;
            }
            if !loaded {
                // The base's boxes with the one on `from` moved to `to`.
                copy_rows(&mut rows.boxes, &rows.base_boxes, board.height + 2);
                rows.boxes[fy] &= !fbit;
                rows.boxes[ty] |= tbit;
                loaded = true;
            }
            all |= rows.room_mask(board, r, &self.links[r], bits, &mut self.broken);
        }
        all.count_ones()
    }
}

impl RoomRows {
    /// Load the position's boxes into `boxes`.
    fn load_boxes(&mut self, board: &Board, boxes: &CellSet) {
        clear_rows(&mut self.boxes, board.height + 2);
        for b in boxes.iter() {
            let (y, bit) = row_bit(board.place[b as usize]);
            self.boxes[y] |= bit;
        }
    }

    /// The links of room `r` (linked to `links`) that some part of it, flooded through
    /// it and the corridors around the loaded boxes, does not reach: as bits (`bits`, one
    /// per link) when given, else pushed onto `broken` (without repeats).
    fn room_mask(
        &mut self,
        board: &Board,
        r: usize,
        links: &[u16],
        bits: &[u64],
        broken: &mut Vec<(u16, u16)>,
    ) -> u64 {
        if links.is_empty() {
            return 0;
        }
        // A mask as bits is kept in the memo; links pushed onto `broken` are not.
        let mut key = [0u64; ROW_BITS + 2];
        let key = &mut key[..self.memo.width];
        let slot = (!bits.is_empty() && !self.memo.room.is_empty()).then(|| {
            let slot = self.memo.key(r, &self.depends[r], &self.boxes, key);
            (slot, self.memo.get(slot, r, key))
        });
        if let Some((_, Some(mask))) = slot {
            return mask;
        }
        let mask = self.measure_room(board, r, links, bits, broken);
        if let Some((slot, None)) = slot {
            self.memo.put(slot, r, key, mask);
        }
        mask
    }

    /// [`RoomRows::room_mask`] by its floods.
    fn measure_room(
        &mut self,
        board: &Board,
        r: usize,
        links: &[u16],
        bits: &[u64],
        broken: &mut Vec<(u16, u16)>,
    ) -> u64 {
        let h = board.height;
        // The flood cannot leave the rows of `reach_span` (zero rows close them off).
        let (top, bottom) = self.reach_span[r];
        self.free[top - 1] = 0;
        self.free[bottom + 1] = 0;
        for y in top..=bottom {
            self.free[y] = (self.room[r][y] | self.corridor[y]) & !self.boxes[y];
        }
        clear_rows(&mut self.seen, h + 2);
        let mut mask = 0;
        // Each part: the lowest free cell of the room no part has covered yet.
        let (first, last) = self.span[r];
        for y in first..=last {
            loop {
                let seeds = self.room[r][y] & self.free[y] & !self.seen[y];
                if seeds == 0 {
                    break;
                }
                let p = ((y - 1) * ROW_BITS) as u16 + seeds.trailing_zeros() as u16;
                clear_rows(&mut self.area, h + 2);
                fill_area(&mut self.area, &self.free, p, board.width);
                for k in top..=bottom {
                    self.seen[k] |= self.area[k];
                }
                for (i, &o) in links.iter().enumerate() {
                    let room = &self.room[o as usize];
                    // The part's cells lie in rows `top..=bottom`: it meets no other rows.
                    let (first, last) = self.span[o as usize];
                    let (first, last) = (first.max(top - 1), last.min(bottom + 1));
                    let met = (first..=last)
                        .any(|k| next_to_row(&self.area, k) & room[k] & !self.boxes[k] != 0);
                    if !met {
                        if let Some(&bit) = bits.get(i) {
                            mask |= bit;
                        } else {
                            let link = ((r as u16).min(o), (r as u16).max(o));
                            if !broken.contains(&link) {
                                broken.push(link);
                            }
                        }
                    }
                }
            }
        }
        mask
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fess::test_levels::{board, cell};

    /// Three 3×3 rooms in a row joined by doorways of one cell.
    const TWO_ROOMS: &str =
        "#############\n#   #   #   #\n#@  .   $   #\n#   #   #   #\n#############\n";

    #[test]
    fn two_rooms_and_a_corridor() {
        let b = board(TWO_ROOMS);
        let mut rooms = Rooms::new(&b);
        // Each room is linked to its neighbours only.
        assert_eq!(rooms.count, 3);
        assert_eq!(rooms.links[0], vec![1]);
        assert_eq!(rooms.links[1], vec![0, 2]);
        assert_eq!(
            rooms.room_of[cell(&b, 4, 2) as usize],
            NONE,
            "the doorway is corridor"
        );
        // The start box stands in the right doorway: one link obstructed.
        assert_eq!(rooms.obstructed_links(&b, &b.start_boxes), 1);
        let mut boxes = CellSet::new(b.cells());
        boxes.insert(cell(&b, 10, 1));
        assert_eq!(rooms.obstructed_links(&b, &boxes), 0, "a box inside a room");
        boxes.insert(cell(&b, 4, 2));
        assert_eq!(rooms.obstructed_links(&b, &boxes), 1);
        boxes.insert(cell(&b, 8, 2));
        assert_eq!(rooms.obstructed_links(&b, &boxes), 2);
    }

    #[test]
    fn a_room_cut_in_two_obstructs_the_link_of_its_far_part() {
        let b = board(TWO_ROOMS);
        let mut rooms = Rooms::new(&b);
        // A wall of boxes down the left room's middle column: its left part no longer reaches
        // the corridor, although its right part does.
        let mut boxes = CellSet::new(b.cells());
        for y in 1..=3 {
            boxes.insert(cell(&b, 2, y));
        }
        assert_eq!(rooms.obstructed_links(&b, &boxes), 1);
    }

    /// A box on each cell of `b` with probability `per_cent` %.
    fn random_boxes(b: &Board, rng: &mut puzzle_engine::Rng, per_cent: u64) -> CellSet {
        let mut boxes = CellSet::new(b.cells());
        for c in 0..b.cells() as u16 {
            if rng.next_u64() % 100 < per_cent {
                boxes.insert(c);
            }
        }
        boxes
    }

    /// The obstructed links of `boxes` by the row floods (and the memo), asserted equal to
    /// the cell floods' count (`what` names the level in a failure).
    fn rows_count_as_cells(
        rooms: &mut Rooms,
        b: &Board,
        boxes: &CellSet,
        what: &dyn std::fmt::Debug,
    ) -> u32 {
        let by_rows = rooms.obstructed_links(b, boxes);
        rooms.broken.clear();
        let by_cells = rooms.obstructed_links_by_cells(b, boxes);
        assert_eq!(by_rows, by_cells, "{what:?}");
        by_rows
    }

    /// Masks found in the memo are the masks the floods measure: positions of random boxes
    /// on every XSokoban screen, each measured several times in turn with others, against the
    /// cell floods.
    #[test]
    fn remembered_masks_are_the_measured_ones() {
        let text = include_str!("../../../../data/sokoban/XSokoban_90.xsb");
        let mut rng = puzzle_engine::Rng::new(11);
        let mut remembered = 0;
        for level in crate::parse_xsb(text).expect("XSokoban") {
            let b = Board::new(&level).expect("a board");
            let mut rooms = Rooms::new(&b);
            let positions: Vec<CellSet> = (0..6)
                .map(|i| random_boxes(&b, &mut rng, 10 + 5 * i))
                .collect();
            for _ in 0..30 {
                let boxes = &positions[rng.below(positions.len())];
                rows_count_as_cells(&mut rooms, &b, boxes, &level.title);
            }
            if let Some(rows) = &rooms.rows {
                remembered += rows.memo.room.iter().filter(|&&r| r != u32::MAX).count();
            }
        }
        assert!(remembered > 1000, "{remembered} masks remembered");
    }

    /// The row floods count what the cell floods count, on positions of random boxes
    /// scattered over the floor of every XSokoban screen (walls of boxes cutting rooms in
    /// parts and corridors shut included).
    #[test]
    fn row_floods_count_the_links_the_cell_floods_count() {
        let text = include_str!("../../../../data/sokoban/XSokoban_90.xsb");
        let mut rng = puzzle_engine::Rng::new(7);
        let mut cut = 0;
        for level in crate::parse_xsb(text).expect("XSokoban") {
            let b = Board::new(&level).expect("a board");
            let mut rooms = Rooms::new(&b);
            assert!(rooms.rows.is_some(), "XSokoban fits bit rows");
            for round in 0..40 {
                let boxes = random_boxes(&b, &mut rng, 5 + round % 8 * 5);
                let by_rows = rows_count_as_cells(&mut rooms, &b, &boxes, &level.title);
                cut += u32::from(by_rows > 0);
            }
        }
        assert!(cut > 1000, "most positions obstruct some link: {cut}");
    }

    /// A position one box away from the base counts what a full count counts, on random
    /// positions of every XSokoban screen and random moves of one of their boxes.
    #[test]
    fn a_count_after_one_move_equals_the_full_count() {
        let text = include_str!("../../../../data/sokoban/XSokoban_90.xsb");
        let mut rng = puzzle_engine::Rng::new(11);
        let (mut kept, mut changed) = (0, 0);
        for level in crate::parse_xsb(text).expect("XSokoban") {
            let b = Board::new(&level).expect("a board");
            let mut rooms = Rooms::new(&b);
            let mut full = Rooms::new(&b);
            let n = b.cells() as u16;
            for round in 0..20 {
                let mut boxes = CellSet::new(b.cells());
                let per_cent = 5 + round % 6 * 5;
                for c in 0..n {
                    if rng.next_u64() % 100 < per_cent {
                        boxes.insert(c);
                    }
                }
                let base = rooms.set_base(&b, &boxes);
                assert_eq!(base, full.obstructed_links(&b, &boxes));
                for _ in 0..10 {
                    let from = (rng.next_u64() % u64::from(n)) as u16;
                    let to = (rng.next_u64() % u64::from(n)) as u16;
                    if !boxes.contains(from) || boxes.contains(to) {
                        continue;
                    }
                    let mut child = boxes.clone();
                    child.remove(from);
                    child.insert(to);
                    let after = rooms.obstructed_links_after_move(&b, &child, from, to);
                    let expected = full.obstructed_links(&b, &child);
                    assert_eq!(after, expected, "{:?}", level.title);
                    if after == base {
                        kept += 1;
                    } else {
                        changed += 1;
                    }
                }
            }
        }
        assert!(
            kept > 100 && changed > 100,
            "both kinds of move: {kept} {changed}"
        );
    }

    #[test]
    fn corridors_alone_make_no_room() {
        let b = board("#######\n#@$  .#\n#######\n");
        let mut rooms = Rooms::new(&b);
        assert_eq!(rooms.count, 0);
        assert_eq!(rooms.obstructed_links(&b, &b.start_boxes), 0);
    }
}
