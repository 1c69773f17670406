//! Corral deadlocks (see `docs/METHODS.md#sokoban-corral-deadlock`; the idea of YASS and
//! Sokolution's "corral deadlock" tests, in a simple form).
//!
//! A *corral* is a free region the player cannot reach. Take the boxes next to it (`B`) and
//! remove every other box: if the level is solvable, the pushes of `B` in a solution still work
//! on that relaxed board (fewer obstacles for the player and the boxes) and leave every box of
//! `B` on a goal. So if an exhaustive push search on the relaxed board (dead squares and freeze
//! deadlocks pruned, both valid there) finds no position where either every box of `B` is on a
//! goal or the player reaches the corral again, the position is a deadlock. The search is
//! bounded; running out of budget proves nothing, so it runs first with `B` alone, then with
//! the boxes that block `B` added (fewer boxes relax more but search far less). Results are
//! cached by the boxes and the player's normalized cell on the relaxed board.
//!
//! **Learned patterns.** A proof is about the relaxed position alone: the boxes `B` with the
//! player anywhere in its area on the relaxed board. Any later position that holds every box
//! of `B` (and others besides), with the player standing in that area, relaxes to the same
//! position and is a deadlock too, whatever corral it shows. Each proof is kept as such a
//! pattern (the boxes and the area) and every position tested is matched against them first:
//! a database of small deadlock patterns learned during the search, as Shoham & Schaeffer's
//! FESS write-up keeps, here learned from the corral searches' proofs.
//!
//! The same relaxation serves two searches with no corral, for FESS: around the box pushed
//! last ([`CorralDeadlock::is_cluster_deadlock`]), and over a room whose boxes are taken off
//! the board as they leave it ([`CorralDeadlock::is_room_deadlock`]).

use crate::board::{cells_of, same_words, Board, CellSet, NONE, ROW_BITS};
use crate::corral::Regions;
use crate::deadlock::FreezeCheck;
use crate::dir::Dir;
use crate::position::{
    boxes_in_row, child_normalized_player, clear_rows, fill_area, next_to_row, row_bit, Position,
    Push, Reach, Rows,
};
use puzzle_engine::FxHashMap;
use std::cmp::Reverse;

/// The most answers each cache of [`CorralDeadlock`] keeps before it is emptied.
const CACHE_LIMIT: usize = 1 << 20;

/// The most boxes a corral search takes (border boxes and the boxes next to them).
const MAX_BOXES: usize = 12;

/// The most boxes a cluster search takes ([`CorralDeadlock::is_cluster_deadlock`]).
pub const CLUSTER_BOXES: usize = 6;

/// The boxes of the first, smaller cluster search ([`CorralDeadlock::is_cluster_deadlock`]).
const FIRST_CLUSTER_BOXES: usize = 3;

/// The most learned patterns [`Patterns`] keeps; later proofs are not kept.
const PATTERN_LIMIT: usize = 1 << 16;

/// Deadlock patterns learned from the corral searches' proofs (see the module documentation):
/// each a set of boxes and the player's area on the board holding only those boxes, filed
/// under one of its box cells: the one that has held a box least often in the positions
/// matched so far.
///
/// A position can match only the patterns filed under its own boxes, so a pattern filed under
/// a cell that rarely holds a box is rarely looked at. Filed under its lowest cell instead, a
/// pattern whose corner box never moves is looked at in every position: on XSokoban 29, FESS
/// looked at 2,061 of its 6,324 patterns per position, a fifth of its time. A cell's patterns
/// are stored in one run, each its box words then its area words, so a position reads its
/// boxes' runs straight through.
#[derive(Debug)]
struct Patterns {
    words_per: usize,
    /// The patterns filed under each cell, `2 * words_per` words each.
    by_cell: Vec<Vec<u64>>,
    /// The number of patterns.
    count: usize,
    /// How many positions matched so far held a box on each cell.
    held: Vec<u32>,
    /// Positions matched so far; the patterns are filed again at each power of two.
    calls: u64,
}

impl Patterns {
    fn new(cells: usize) -> Patterns {
        Patterns {
            words_per: CellSet::new(cells).words().len(),
            by_cell: vec![Vec::new(); cells],
            count: 0,
            held: vec![0; cells],
            calls: 0,
        }
    }

    /// The box cell of `boxes` (words of a cell set) that has held a box least often, the
    /// lowest of those tied; `None` for no box.
    fn rarest(&self, boxes: &[u64]) -> Option<usize> {
        cells_of(boxes)
            .min_by_key(|&c| self.held[c as usize])
            .map(usize::from)
    }

    /// Keep the pattern `boxes` (not empty) with the player's area `reach` computed on the
    /// board holding only those boxes.
    fn learn(&mut self, board: &Board, boxes: &CellSet, reach: &Reach) {
        let Some(rare) = self.rarest(boxes.words()) else {
            return;
        };
        if self.count >= PATTERN_LIMIT {
            return;
        }
        let mut area = CellSet::new(board.cells());
        reach.area_into(board.cells(), &mut area);
        let run = &mut self.by_cell[rare];
        run.extend_from_slice(boxes.words());
        run.extend_from_slice(area.words());
        self.count += 1;
    }

    /// File every pattern again under its box cell that has held a box least often.
    fn refile(&mut self) {
        let all: Vec<u64> = self.by_cell.iter_mut().flat_map(std::mem::take).collect();
        for entry in all.chunks_exact(2 * self.words_per) {
            let rare = self
                .rarest(&entry[..self.words_per])
                .expect("a pattern has boxes");
            self.by_cell[rare].extend_from_slice(entry);
        }
    }

    /// Whether some pattern's boxes all stand in `boxes` with `player` in its area. Counts
    /// the cells holding boxes (once patterns exist), for filing the patterns.
    fn matches(&mut self, boxes: &CellSet, player: u16) -> bool {
        if self.count == 0 {
            return false;
        }
        for b in boxes.iter() {
            let held = &mut self.held[b as usize];
            *held = held.saturating_add(1);
        }
        self.calls += 1;
        if self.calls >= 1024 && self.calls.is_power_of_two() {
            self.refile();
        }
        let w = self.words_per;
        let words = boxes.words();
        let (pw, pb) = (w + player as usize / 64, 1u64 << (player % 64));
        boxes.iter().any(|b| {
            self.by_cell[b as usize].chunks_exact(2 * w).any(|entry| {
                entry[pw] & pb != 0 && entry[..w].iter().zip(words).all(|(p, b)| p & !b == 0)
            })
        })
    }
}

/// Scratch and cache for [`CorralDeadlock::is_deadlock`].
#[derive(Debug)]
pub struct CorralDeadlock {
    limit: usize,
    /// The most positions a cluster search stores ([`CorralDeadlock::with_cluster_limit`]).
    cluster_limit: usize,
    regions: Regions,
    in_corral: CellSet,
    /// Scratch: the boxes of the corral being tested, and the same as a list.
    sub: CellSet,
    list: Vec<u16>,
    /// Scratch: the nearest boxes of a cluster, searched first.
    few: CellSet,
    cache: FxHashMap<u64, bool>,
    /// The same answers filed by the player's normalized cell on the real board (which fixes
    /// the relaxed one), so that a repeated corral is answered without a flood.
    by_real_cell: FxHashMap<u64, bool>,
    reach: Reach,
    /// The player's area after a push in the search (`reach` keeps the area before it).
    child_reach: Reach,
    freeze: FreezeCheck,
    states: SearchStates,
    /// Number of corrals proved deadlocked (for statistics).
    pub proved: u64,
    /// Number of positions a learned pattern proved deadlocked (for statistics).
    pub by_pattern: u64,
    patterns: Patterns,
    /// On a board flooded by rows: the free cells the player does not reach, those of the
    /// corrals looked at so far, and the corral being tested (`in_corral` as rows).
    unreached: Rows,
    seen: Rows,
    corral_rows: Rows,
    /// Whether `corral_rows` holds the corral being tested.
    by_rows: bool,
    /// Pushes from each cell to the nearest goal with no other box on the board (the
    /// cluster searches try the pushes that bring a box nearest first).
    near_goal: Vec<u16>,
    /// Answers of the cluster searches ([`CorralDeadlock::is_cluster_deadlock`]) by boxes and
    /// the player's normalized cell on the board holding only them.
    cluster_cache: FxHashMap<u64, bool>,
    /// Number of clusters proved deadlocked (for statistics).
    pub clusters_proved: u64,
    /// The area of the room search under way ([`CorralDeadlock::is_room_deadlock`]): a box
    /// pushed off it leaves the search. Empty outside a room search.
    room_area: CellSet,
    /// Whether a room search is under way.
    in_room_search: bool,
    /// Steps from each cell of the area of the room search last begun (`room_near_area`)
    /// to the nearest goal in it or cell off it (the room searches try the pushes that bring
    /// a box nearest first).
    room_near: Vec<u16>,
    room_near_area: u16,
    /// The most positions a room search stores.
    room_limit: usize,
    /// Answers of the room searches by area, boxes and the player's normalized cell.
    room_cache: FxHashMap<u64, bool>,
    /// Number of rooms proved deadlocked (for statistics).
    pub rooms_proved: u64,
    /// Whether a corral whose escape the corral search cannot rule out is also searched as
    /// a cluster of its border boxes ([`CorralDeadlock::with_corral_clusters`]).
    corral_clusters: bool,
}

/// The positions of one corral search, in flat arrays reused from search to search: box
/// words and player cell of each, a stack of positions to expand, and an open-addressing
/// table over (box words, normalized player) for the positions seen.
#[derive(Debug)]
struct SearchStates {
    words_per: usize,
    words: Vec<u64>,
    player: Vec<u16>,
    norm: Vec<u16>,
    stack: Vec<u32>,
    table: Vec<u32>,
    /// The slots of `table` in use (emptied again by `clear`).
    slots: Vec<u32>,
    boxes: CellSet,
    child: CellSet,
    pushes: Vec<Push>,
}

/// An empty slot of [`SearchStates::table`].
const EMPTY: u32 = u32::MAX;

impl SearchStates {
    fn new(cells: usize, limit: usize) -> SearchStates {
        let boxes = CellSet::new(cells);
        SearchStates {
            words_per: boxes.words().len(),
            words: Vec::new(),
            player: Vec::new(),
            norm: Vec::new(),
            stack: Vec::new(),
            // At most half full: `limit` positions are stored.
            table: vec![EMPTY; (2 * limit.max(1)).next_power_of_two()],
            slots: Vec::new(),
            child: boxes.clone(),
            boxes,
            pushes: Vec::new(),
        }
    }

    fn clear(&mut self) {
        self.words.clear();
        self.player.clear();
        self.norm.clear();
        self.stack.clear();
        for &slot in &self.slots {
            self.table[slot as usize] = EMPTY;
        }
        self.slots.clear();
    }

    fn len(&self) -> usize {
        self.player.len()
    }

    /// Add the position (`boxes`, `player`, normalized `norm`) unless it was seen; returns
    /// whether it was new (and then stacks it for expansion).
    fn insert(&mut self, boxes: &CellSet, player: u16, norm: u16) -> bool {
        let words = boxes.words();
        let hash = words.iter().fold(u64::from(norm), |h, &w| {
            (h.rotate_left(5) ^ w).wrapping_mul(0x517c_c1b7_2722_0a95)
        });
        let mask = self.table.len() - 1;
        let mut slot = (hash >> 32) as usize & mask;
        loop {
            let i = self.table[slot];
            if i == EMPTY {
                break;
            }
            let k = i as usize;
            if self.norm[k] == norm
                && same_words(
                    &self.words[k * self.words_per..(k + 1) * self.words_per],
                    words,
                )
            {
                return false;
            }
            slot = (slot + 1) & mask;
        }
        let index = self.len() as u32;
        self.table[slot] = index;
        self.slots.push(slot as u32);
        self.words.extend_from_slice(words);
        self.player.push(player);
        self.norm.push(norm);
        self.stack.push(index);
        true
    }
}

impl CorralDeadlock {
    /// New scratch for `board`; each corral search stores at most `limit` positions.
    pub fn new(board: &Board, limit: usize) -> CorralDeadlock {
        CorralDeadlock {
            limit,
            cluster_limit: limit,
            regions: Regions::default(),
            in_corral: CellSet::new(board.cells()),
            sub: CellSet::new(board.cells()),
            few: CellSet::new(board.cells()),
            list: Vec::new(),
            cache: FxHashMap::default(),
            by_real_cell: FxHashMap::default(),
            reach: Reach::new(board.cells()),
            child_reach: Reach::new(board.cells()),
            freeze: FreezeCheck::new(),
            states: SearchStates::new(board.cells(), limit),
            proved: 0,
            by_pattern: 0,
            patterns: Patterns::new(board.cells()),
            unreached: [0; ROW_BITS + 2],
            seen: [0; ROW_BITS + 2],
            corral_rows: [0; ROW_BITS + 2],
            by_rows: false,
            near_goal: (0..board.cells())
                .map(|c| {
                    let g = board.goal_list.len();
                    board.distance_by_cell[c * g..(c + 1) * g]
                        .iter()
                        .copied()
                        .min()
                        .unwrap_or(u16::MAX)
                })
                .collect(),
            cluster_cache: FxHashMap::default(),
            clusters_proved: 0,
            room_area: CellSet::new(board.cells()),
            in_room_search: false,
            room_near: vec![0; board.cells()],
            room_near_area: NONE,
            room_limit: 0,
            room_cache: FxHashMap::default(),
            rooms_proved: 0,
            corral_clusters: false,
        }
    }

    /// Is some corral of `pos` (with `reach` computed for it) near the box on `moved` (the
    /// box pushed last) provably deadlocked? With `moved` = [`NONE`], every corral is checked.
    ///
    /// "Near" is next to the moved box or next to a box beside it: a corral the last push
    /// did not touch was there in the parent, but the moved box may now block a push of one
    /// of its border boxes (standing where the player or the box would have to go), which
    /// can turn a corral that could be opened into a deadlocked one.
    pub fn is_deadlock(
        &mut self,
        board: &Board,
        pos: &Position,
        reach: &Reach,
        moved: u16,
    ) -> bool {
        if self.patterns.matches(&pos.boxes, pos.player) {
            self.by_pattern += 1;
            return true;
        }
        let n = board.cells();
        let base = self.regions.begin(n);
        let mut near = [NONE; 20];
        let all: Vec<u16>;
        let starts: &[u16] = if moved == NONE {
            all = (0..n as u16).collect();
            &all
        } else {
            let mut k = 0;
            for &m in &board.neighbors[moved as usize] {
                near[k] = m;
                k += 1;
                if m != NONE && pos.boxes.contains(m) {
                    for &c in &board.neighbors[m as usize] {
                        if c != moved {
                            near[k] = c;
                            k += 1;
                        }
                    }
                }
            }
            &near[..k]
        };
        // On a board flooded by rows, the corrals are flooded as rows (their cells listed in
        // row order: only the set of them is used).
        let rows = reach.row_state();
        self.by_rows = rows.is_some();
        if let Some((rows, free)) = rows {
            for y in 0..board.height + 2 {
                self.unreached[y] = free[y] & !rows[y];
                self.seen[y] = 0;
            }
        }
        for &start in starts {
            let found = if self.by_rows {
                self.flood_corral_rows(board, start)
            } else {
                self.regions
                    .flood_new(board, pos, reach, start, base)
                    .is_some()
            };
            if !found {
                continue;
            }
            let mut sub = std::mem::take(&mut self.sub);
            sub.clear();
            let mut off_goal = false;
            if let Some((_, free)) = rows {
                // The boxes next to the corral's cells.
                for y in 1..=board.height {
                    let near = next_to_row(&self.corral_rows, y);
                    let mut border = near & boxes_in_row(board, free, y);
                    while border != 0 {
                        let x = border.trailing_zeros() as usize;
                        border &= border - 1;
                        let m = board.cell_in_row(y, x);
                        sub.insert(m);
                        off_goal |= !board.is_goal(m);
                    }
                }
            } else {
                for &c in &self.regions.cells {
                    for &m in &board.neighbors[c as usize] {
                        if m != NONE && pos.boxes.contains(m) && !sub.contains(m) {
                            sub.insert(m);
                            off_goal |= !board.is_goal(m);
                        }
                    }
                }
            }
            if !off_goal {
                self.sub = sub;
                continue;
            }
            self.in_corral.clear();
            for &c in &self.regions.cells {
                self.in_corral.insert(c);
            }
            // The border boxes alone first, then with the boxes that block them (4-adjacent
            // chains, up to a cap): fewer boxes relax the position further but make a far
            // smaller search, which proves a corral closed by border boxes that cannot move
            // (XSokoban 9: three boxes around a two-cell pocket) where the larger set's
            // search runs out of its budget.
            let mut dead = self.relaxed_deadlock(board, &sub, pos, reach, start);
            if self.corral_clusters {
                // The border boxes, before the blockers join them below.
                self.few.set_words(sub.words());
            }
            if !dead {
                self.list.clear();
                self.list.extend(sub.iter());
                let border = self.list.len();
                grow_cluster(&mut self.list, &mut sub, &pos.boxes, MAX_BOXES, |b| {
                    &board.neighbors[b as usize][..]
                });
                if self.list.len() > border {
                    dead = self.relaxed_deadlock(board, &sub, pos, reach, start);
                }
            }
            if !dead && self.corral_clusters {
                let mut border = std::mem::take(&mut self.few);
                dead = self.border_cluster_deadlock(board, pos, &mut border);
                self.few = border;
            }
            self.sub = sub;
            if dead {
                self.proved += 1;
                return true;
            }
        }
        false
    }

    /// Whether the border boxes `boxes` of a corral that the corral search could not prove
    /// (at most [`CLUSTER_BOXES`] of them) cannot all reach goals: the cluster search on
    /// them alone, then on them and the boxes touching them, side or corner, nearest first,
    /// up to [`CLUSTER_BOXES`] (`boxes` grows to that set). The corral search stops as soon
    /// as the player gets back into the corral; a border box that can leave only by a way
    /// another box closes is dead all the same. On XSokoban 17 a box pushed out of the
    /// bottom-left room onto the corridor above, with the player behind it, can reach the
    /// goals only by a loop through the right-hand room, which the box still in that room
    /// closes: the two boxes, searched alone, cannot both reach goals.
    fn border_cluster_deadlock(
        &mut self,
        board: &Board,
        pos: &Position,
        boxes: &mut CellSet,
    ) -> bool {
        let count = boxes.len();
        if count > CLUSTER_BOXES {
            return false;
        }
        // The cluster searches clear the flag; the caller's next corral needs it.
        let by_rows = self.by_rows;
        let mut dead =
            count >= 2 && count < pos.boxes.len() && self.cluster_search(board, boxes, pos.player);
        if !dead && count < CLUSTER_BOXES {
            let mut list = std::mem::take(&mut self.list);
            list.clear();
            list.extend(boxes.iter());
            grow_touching_cluster(board, &mut list, boxes, &pos.boxes);
            if list.len() > count && list.len() < pos.boxes.len() {
                dead = self.cluster_search(board, boxes, pos.player);
            }
            self.list = list;
        }
        self.by_rows = by_rows;
        dead
    }

    /// Whether the position relaxed to the boxes `sub` (the corral's border boxes and maybe
    /// those blocking them; every other box removed) is proved dead for the corral in
    /// `in_corral` found from `start` (see the module documentation), cached.
    fn relaxed_deadlock(
        &mut self,
        board: &Board,
        sub: &CellSet,
        pos: &Position,
        reach: &Reach,
        start: u16,
    ) -> bool {
        let hash = sub
            .iter()
            .fold(0u64, |h, c| h ^ board.zobrist_box[c as usize]);
        let corral_key = hash ^ board.zobrist_player[start as usize].rotate_left(41);
        // The player's area on the relaxed board is the one holding the player's
        // normalized cell on the real board (`reach.min`): that cell and the boxes fix
        // the relaxed cell, so the answer filed under it is the relaxed cell's, found
        // without flooding the relaxed board.
        let real_key = corral_key ^ board.zobrist_player[reach.min as usize].rotate_left(29);
        match self.by_real_cell.get(&real_key) {
            Some(&d) => d,
            None => {
                let norm = self.reach.compute(board, sub, pos.player);
                let key = corral_key ^ board.zobrist_player[norm as usize].rotate_left(17);
                let d = match self.cache.get(&key) {
                    Some(&d) => d,
                    None => {
                        let d = self.search(board, sub, pos.player, false);
                        if d {
                            // The search used `reach` as scratch: the start's area again.
                            self.reach.compute(board, sub, pos.player);
                            self.patterns.learn(board, sub, &self.reach);
                        }
                        if self.cache.len() > CACHE_LIMIT {
                            // Answers filed by real cell refer to these.
                            self.cache.clear();
                            self.by_real_cell.clear();
                        }
                        self.cache.insert(key, d);
                        d
                    }
                };
                if self.by_real_cell.len() > CACHE_LIMIT {
                    self.by_real_cell.clear();
                }
                self.by_real_cell.insert(real_key, d);
                d
            }
        }
    }

    /// If `start` is a free cell the player does not reach and no corral flooded in this
    /// call holds it, flood its corral as rows into `corral_rows`, list its cells (row by
    /// row) in `regions.cells`, and return true ([`Regions::flood_new`] on rows).
    fn flood_corral_rows(&mut self, board: &Board, start: u16) -> bool {
        if start == NONE {
            return false;
        }
        let p = board.place[start as usize];
        let (y, bit) = row_bit(p);
        if self.unreached[y] & !self.seen[y] & bit == 0 {
            return false;
        }
        let h = board.height;
        clear_rows(&mut self.corral_rows, h + 2);
        fill_area(&mut self.corral_rows, &self.unreached, p, board.width);
        self.regions.cells.clear();
        for y in 1..=h {
            self.seen[y] |= self.corral_rows[y];
            let mut r = self.corral_rows[y];
            while r != 0 {
                let x = r.trailing_zeros() as usize;
                r &= r - 1;
                self.regions.cells.push(board.cell_in_row(y, x));
            }
        }
        true
    }

    /// The same with the cluster searches storing at most `limit` positions each.
    pub fn with_cluster_limit(mut self, board: &Board, limit: usize) -> CorralDeadlock {
        self.cluster_limit = limit;
        self.size_states(board);
        self
    }

    /// The same scratch whose room searches ([`CorralDeadlock::is_room_deadlock`]) store at
    /// most `limit` positions.
    pub fn with_room_limit(mut self, board: &Board, limit: usize) -> CorralDeadlock {
        self.room_limit = limit;
        self.size_states(board);
        self
    }

    /// The same scratch whose corral test, when the player may get back into a corral, also
    /// asks whether its border boxes (at most [`CLUSTER_BOXES`], not every box) can all
    /// reach goals on the board holding only them, with the cluster search.
    pub fn with_corral_clusters(mut self) -> CorralDeadlock {
        self.corral_clusters = true;
        self
    }

    /// Scratch for the largest of the corral, cluster and room searches.
    fn size_states(&mut self, board: &Board) {
        let most = self.limit.max(self.cluster_limit).max(self.room_limit);
        self.states = SearchStates::new(board.cells(), most);
    }

    /// Can the boxes standing in `area` (a room with the dead-end corridors that open only
    /// into it, at most `max_boxes` of them, one off its goal at least) not all either reach
    /// a goal in it or leave it? Relax as for a corral: remove every other box, and take a box
    /// off the board once it is pushed off `area`. A solution's pushes of those boxes still
    /// work there (fewer obstacles), and in it each box ends on a goal of the area or has left
    /// the area; so if an exhaustive bounded push search (the pushes that bring a box nearest
    /// a goal or the way out first) reaches no position whose remaining boxes all stand on
    /// goals, the position is a deadlock. A room with a single way out whose boxes must leave
    /// it in some order (the player below each in turn) is the case this finds and the
    /// cluster search misses: the room's boxes are too many to bring to the goals within its
    /// budget, and on the room's cells alone the search is small. A proof is kept as a learned
    /// pattern (the relaxation only removes boxes, so any position holding the same boxes with
    /// the player in the same area is dead too).
    pub fn is_room_deadlock(
        &mut self,
        board: &Board,
        pos: &Position,
        area: &CellSet,
        area_id: u16,
        max_boxes: usize,
    ) -> bool {
        if self.room_limit == 0 {
            return false;
        }
        let mut sub = std::mem::take(&mut self.sub);
        sub.clear();
        let mut count = 0;
        let mut off_goal = false;
        for b in pos.boxes.iter() {
            if area.contains(b) {
                sub.insert(b);
                count += 1;
                off_goal |= !board.is_goal(b);
            }
        }
        // A room holding every box relaxes nothing: its search would be the whole level's.
        if count == 0 || count > max_boxes || !off_goal || count == pos.boxes.len() {
            self.sub = sub;
            return false;
        }
        let norm = self.reach.compute(board, &sub, pos.player);
        let key = sub.iter().fold(
            board.zobrist_player[norm as usize]
                ^ u64::from(area_id).wrapping_mul(0x9e37_79b9_7f4a_7c15),
            |h, c| h ^ board.zobrist_box[c as usize],
        );
        let dead = match self.room_cache.get(&key) {
            Some(&d) => d,
            None => {
                self.in_corral.clear();
                self.by_rows = false;
                if self.room_near_area != area_id {
                    self.room_near_area = area_id;
                    fill_room_near(board, area, &mut self.room_near, &mut self.list);
                }
                self.room_area.set_words(area.words());
                self.in_room_search = true;
                let d = self.search(board, &sub, pos.player, true);
                if d {
                    self.learn_smallest(board, &sub, pos.player);
                    self.rooms_proved += 1;
                }
                self.in_room_search = false;
                if self.room_cache.len() > CACHE_LIMIT {
                    self.room_cache.clear();
                }
                self.room_cache.insert(key, d);
                d
            }
        };
        self.sub = sub;
        dead
    }

    /// Is the box on `moved` (the box pushed last in `pos`) part of a provably deadlocked
    /// cluster? The cluster is that box and the boxes touching it, side or corner, and the
    /// boxes touching those, nearest first, up to [`CLUSTER_BOXES`]. As for a corral, a
    /// solution's pushes of those boxes still work with every other box removed and end with
    /// each of them on a goal; so if an exhaustive push search on the board holding only the
    /// cluster (with the player where it stands) finds no position with all of them on goals,
    /// the position is a deadlock. The search is bounded (running out proves nothing) and
    /// tries first the pushes that bring a box nearest a goal, so that a cluster that can be
    /// packed is usually answered within a few dozen positions. A proof is kept as a learned
    /// pattern (see the module documentation), matched by [`CorralDeadlock::is_deadlock`] in
    /// every later position: the deadlock database of Shoham & Schaeffer's FESS write-up,
    /// whose small deadlocks are found by such sub-searches.
    pub fn is_cluster_deadlock(&mut self, board: &Board, pos: &Position, moved: u16) -> bool {
        if moved == NONE || !pos.boxes.contains(moved) {
            return false;
        }
        let mut sub = std::mem::take(&mut self.sub);
        sub.clear();
        sub.insert(moved);
        let list = &mut self.list;
        list.clear();
        list.push(moved);
        grow_touching_cluster(board, list, &mut sub, &pos.boxes);
        if list.len() < 2 || list.iter().all(|&b| board.is_goal(b)) {
            self.sub = sub;
            return false;
        }
        // The nearest few boxes first: a far smaller search, which proves what the whole
        // cluster's search may run out of its budget on.
        let mut dead = false;
        if list.len() > FIRST_CLUSTER_BOXES
            && list[..FIRST_CLUSTER_BOXES]
                .iter()
                .any(|&b| !board.is_goal(b))
        {
            let mut few = std::mem::take(&mut self.few);
            few.clear();
            for &b in &list[..FIRST_CLUSTER_BOXES] {
                few.insert(b);
            }
            dead = self.cluster_search(board, &few, pos.player);
            self.few = few;
        }
        if !dead {
            dead = self.cluster_search(board, &sub, pos.player);
        }
        self.sub = sub;
        dead
    }

    /// Keep as a pattern the boxes `sub` just proved deadlocked (with the player on `player`)
    /// less every box without which the rest are still proved (each dropped in turn, the
    /// same search again): a smaller pattern matches more positions.
    fn learn_smallest(&mut self, board: &Board, sub: &CellSet, player: u16) {
        let mut core = sub.clone();
        for b in sub.iter() {
            core.remove(b);
            if core.iter().all(|c| board.is_goal(c)) || !self.search(board, &core, player, true) {
                core.insert(b);
            }
        }
        self.reach.compute(board, &core, player);
        self.patterns.learn(board, &core, &self.reach);
    }

    /// [`CorralDeadlock::is_cluster_deadlock`]'s search on the boxes `sub` alone, cached.
    fn cluster_search(&mut self, board: &Board, sub: &CellSet, player: u16) -> bool {
        let norm = self.reach.compute(board, sub, player);
        let key = sub
            .iter()
            .fold(board.zobrist_player[norm as usize], |h, c| {
                h ^ board.zobrist_box[c as usize]
            });
        match self.cluster_cache.get(&key) {
            Some(&d) => d,
            None => {
                // No corral: only a position with every box on a goal ends the search.
                self.in_corral.clear();
                self.by_rows = false;
                let d = self.search(board, sub, player, true);
                if d {
                    self.reach.compute(board, sub, player);
                    self.patterns.learn(board, sub, &self.reach);
                    self.clusters_proved += 1;
                }
                if self.cluster_cache.len() > CACHE_LIMIT {
                    self.cluster_cache.clear();
                }
                self.cluster_cache.insert(key, d);
                d
            }
        }
    }

    /// Exhaustive bounded search on the boxes `sub` alone: `true` if no position with every
    /// box on a goal or the player in the corral (`self.in_corral`) is reachable. With
    /// `nearest_first`, each position's pushes are tried those ending nearest a goal first.
    fn search(&mut self, board: &Board, sub: &CellSet, player: u16, nearest_first: bool) -> bool {
        let limit = if self.in_room_search {
            self.room_limit
        } else if nearest_first {
            self.cluster_limit
        } else {
            self.limit
        };
        let states = &mut self.states;
        states.clear();
        let norm = self.reach.compute(board, sub, player);
        states.insert(sub, player, norm);
        while let Some(k) = states.stack.pop() {
            let k = k as usize;
            let player = states.player[k];
            let per = states.words_per;
            states
                .boxes
                .set_words(&states.words[k * per..(k + 1) * per]);
            let boxes = &states.boxes;
            let parent_min = self.reach.compute(board, boxes, player);
            if reaches(
                &self.reach,
                (&self.corral_rows, self.by_rows),
                &self.in_corral,
            ) {
                return false;
            }
            states.pushes.clear();
            for b in boxes.iter() {
                for dir in Dir::ALL {
                    let to = board.step(b, dir);
                    if to == NONE || boxes.contains(to) || board.is_dead(to) {
                        continue;
                    }
                    if self.reach.reachable(board.step(b, dir.opposite())) {
                        states.pushes.push(Push { from: b, dir });
                    }
                }
            }
            if nearest_first {
                // The stack takes the last push first.
                let near = if self.in_room_search {
                    &self.room_near
                } else {
                    &self.near_goal
                };
                states
                    .pushes
                    .sort_unstable_by_key(|p| Reverse(near[board.step(p.from, p.dir) as usize]));
            }
            for i in 0..states.pushes.len() {
                let p = states.pushes[i];
                let to = board.step(p.from, p.dir);
                let mut child = std::mem::replace(&mut states.child, CellSet::new(0));
                child.set_words(states.boxes.words());
                child.remove(p.from);
                // In a room search a box pushed off the room leaves the board.
                let left = self.in_room_search && !self.room_area.contains(to);
                if !left {
                    child.insert(to);
                }
                let outcome = (|| {
                    if child.iter().all(|c| board.is_goal(c)) {
                        return Some(false);
                    }
                    if left {
                        let norm = self.child_reach.compute(board, &child, p.from);
                        if states.len() >= limit {
                            return Some(false);
                        }
                        states.insert(&child, p.from, norm);
                        return None;
                    }
                    if self.freeze.is_deadlock(board, &child, to) {
                        return None;
                    }
                    // The player's area did not reach the corral before the push. When the
                    // push changed it only locally, the player reaches the corral only if
                    // the box's old cell is in it; otherwise flood.
                    let norm =
                        match child_normalized_player(board, &child, &self.reach, parent_min, p) {
                            Some(norm) => {
                                if self.in_corral.contains(p.from) {
                                    return Some(false);
                                }
                                norm
                            }
                            None => {
                                let norm = self.child_reach.compute(board, &child, p.from);
                                let corral = (&self.corral_rows, self.by_rows);
                                if reaches(&self.child_reach, corral, &self.in_corral) {
                                    return Some(false);
                                }
                                norm
                            }
                        };
                    debug_assert_eq!(
                        norm,
                        Reach::new(board.cells()).compute(board, &child, p.from)
                    );
                    if states.len() >= limit {
                        return Some(false);
                    }
                    states.insert(&child, p.from, norm);
                    None
                })();
                states.child = child;
                if let Some(result) = outcome {
                    return result;
                }
            }
        }
        true
    }
}

/// Fill `near` with the steps from each cell of `area` to the nearest goal in it or cell off
/// it, over the floor (0 off the area); `queue` is scratch.
fn fill_room_near(board: &Board, area: &CellSet, near: &mut [u16], queue: &mut Vec<u16>) {
    queue.clear();
    for c in 0..near.len() as u16 {
        if !area.contains(c) || board.is_goal(c) {
            near[c as usize] = 0;
            queue.push(c);
        } else {
            near[c as usize] = u16::MAX;
        }
    }
    board.spread_steps(queue, near, u16::MAX);
}

/// Grow `list` (the boxes of `sub`, as a list) breadth first through the boxes of `boxes` next
/// to its boxes by `around` (their side or ring neighbours), while it holds fewer than `cap`;
/// the neighbours of the box that reaches `cap` all join, so it may end a little past it.
fn grow_cluster<'a>(
    list: &mut Vec<u16>,
    sub: &mut CellSet,
    boxes: &CellSet,
    cap: usize,
    around: impl Fn(u16) -> &'a [u16],
) {
    let mut k = 0;
    while k < list.len() && list.len() < cap {
        let b = list[k];
        k += 1;
        for &m in around(b) {
            if m != NONE && boxes.contains(m) && !sub.contains(m) {
                sub.insert(m);
                list.push(m);
            }
        }
    }
}

/// Grow the cluster `list` (its boxes also in `sub`) by the boxes of `boxes` touching it, side
/// or corner, nearest first, to exactly [`CLUSTER_BOXES`] or fewer: the last box's neighbours
/// may take [`grow_cluster`] past the cap, and those are dropped again.
fn grow_touching_cluster(board: &Board, list: &mut Vec<u16>, sub: &mut CellSet, boxes: &CellSet) {
    grow_cluster(list, sub, boxes, CLUSTER_BOXES, |b| {
        &board.ring[b as usize][..]
    });
    for &m in list.iter().skip(CLUSTER_BOXES) {
        sub.remove(m);
    }
    list.truncate(CLUSTER_BOXES);
}

/// Whether `reach` (just computed) reaches a cell of the corral being tested: `in_corral`,
/// or its rows `corral` when the flag is set and `reach` flooded by rows.
fn reaches(reach: &Reach, (corral, by_rows): (&Rows, bool), in_corral: &CellSet) -> bool {
    match reach.row_state().filter(|_| by_rows) {
        Some((rows, _)) => rows.iter().zip(corral).any(|(r, c)| r & c != 0),
        None => in_corral.iter().any(|c| reach.reachable(c)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;

    /// The level in `text`, its board, its start position and the player's area there.
    fn at_start(text: &str) -> (Level, Board, Position, Reach) {
        let level = Level::parse_one(text).unwrap();
        let board = Board::new(&level).unwrap();
        let pos = Position::start(&board);
        let mut reach = Reach::new(board.cells());
        reach.compute(&board, &pos.boxes, pos.player);
        (level, board, pos, reach)
    }

    fn check(text: &str) -> (bool, bool) {
        let (_, board, pos, reach) = at_start(text);
        let corral = CorralDeadlock::new(&board, 10_000).is_deadlock(&board, &pos, &reach, NONE);
        let mut freeze = FreezeCheck::new();
        let frozen = pos
            .boxes
            .iter()
            .any(|b| freeze.is_deadlock(&board, &pos.boxes, b));
        (corral, frozen)
    }

    /// A position found by FESS on Microban 18: the right box can leave only up the column,
    /// which it blocks for the player below, and the left box only moves with the player
    /// above; so the two boxes cannot both reach the goals. The corral search misses it (its
    /// box opens the corral by being pushed out of the way, into the dead top row).
    const TWO_BOX_TRAP: &str =
        "#######\n#     #\n#. .  #\n# ## ##\n#  $$##\n###@ ##\n###  ##\n###  ##\n#######\n";

    #[test]
    fn a_cluster_that_cannot_reach_the_goals_is_a_deadlock() {
        let (level, board, pos, reach) = at_start(TWO_BOX_TRAP);
        let right = board.cell_of[4 * board.width + 4];
        let mut dl = CorralDeadlock::new(&board, 10_000);
        assert!(!dl.is_deadlock(&board, &pos, &reach, right));
        assert!(dl.is_cluster_deadlock(&board, &pos, right));
        assert_eq!(dl.clusters_proved, 1);
        // An exhaustive search without the deadlock tests agrees.
        let astar = crate::solver::solve(
            &level,
            crate::solver::Algorithm::AStar,
            &puzzle_engine::Budget::iterations(100_000),
        )
        .unwrap();
        assert_eq!(astar.stop, puzzle_engine::StopReason::Exhausted);
        // The proof is kept: the corral test now matches it as a learned pattern.
        assert!(dl.is_deadlock(&board, &pos, &reach, right));
        assert_eq!(dl.by_pattern, 1);
        // With the player above, the same boxes are no deadlock.
        let mut above = pos.clone();
        above.player = board.cell_of[board.width + 1];
        let mut fresh = CorralDeadlock::new(&board, 10_000);
        assert!(!fresh.is_cluster_deadlock(&board, &above, right));
    }

    /// A position of FESS's first dive on XSokoban 9: the two-cell pocket on the left is
    /// closed by three boxes, each of which moves only with the player inside the pocket or
    /// into a dead corner. With the two boxes that block them (five in all) the corral search runs
    /// out of its 300 positions; with the three border boxes alone it proves the deadlock.
    const POCKET_OF_THREE: &str = "          #######\n          #  ...#\n      #####  ...#\n      #      . .#\n      #  ##  ...#\n      ## ##  ...#\n     ### ########\n     # $$$ ##\n ##### $@ $ #####\n##   #$ $   #   #\n#  $    $     $ #\n###### $$ $$#####\n     #      #\n     ########\n";

    #[test]
    fn a_pocket_closed_by_border_boxes_that_cannot_move_is_a_deadlock() {
        let (_, board, pos, mut reach) = at_start(POCKET_OF_THREE);
        let moved = board.cell_of[8 * board.width + 7];
        let mut dl = CorralDeadlock::new(&board, 300);
        assert!(dl.is_deadlock(&board, &pos, &reach, moved));
        // The pushes of a solution from the start never pass through such a position.
        let start = crate::fess::test_levels::xsokoban(9);
        let out = crate::fess::fess(&start, &puzzle_engine::Budget::iterations(20_000));
        let mut pos = Position::start(&start);
        let mut dl = CorralDeadlock::new(&start, 300);
        for p in out.pushes.expect("solved") {
            pos.apply_push(&start, p);
            reach.compute(&start, &pos.boxes, pos.player);
            let to = start.step(p.from, p.dir);
            assert!(
                !dl.is_deadlock(&start, &pos, &reach, to),
                "a position of the solution"
            );
        }
    }

    /// A position of FESS's search on XSokoban 31: the box pushed last, on (14, 5), stands on
    /// the two boxes below it in a row whose only way down is a shaft of dead cells. The three
    /// boxes alone cannot all reach goals (a breadth-first search of the 16,647 positions of
    /// the three on that board agrees); with the fourth box touching them the search runs out
    /// of its 1,000 positions first.
    const THREE_ABOVE_A_SHAFT: &str = "##################\n###  #############\n###  ##@ #   #####\n##  $#       #####\n##$  $  # $$$#  ##\n##  $## #     $  #\n#  #  #$#$  $$$  #\n# $    $  $## ####\n# $ $ #$#  #  ####\n##  ###  ###$ ####\n##  #....     ####\n#####......#######\n####....##########\n####...###########\n####...###########\n##################\n";

    #[test]
    fn a_cluster_proved_by_its_nearest_boxes_is_a_deadlock() {
        let (_, board, pos, _) = at_start(THREE_ABOVE_A_SHAFT);
        let moved = board.cell_of[5 * board.width + 14];
        let mut dl = CorralDeadlock::new(&board, 300).with_cluster_limit(&board, 1_000);
        assert!(dl.is_cluster_deadlock(&board, &pos, moved));
        // The nearest three alone prove it; the whole cluster of four proves nothing.
        let mut three = CellSet::new(board.cells());
        for (x, y) in [(14, 5), (14, 6), (13, 6)] {
            three.insert(board.cell_of[y * board.width + x]);
        }
        let mut fresh = CorralDeadlock::new(&board, 300).with_cluster_limit(&board, 1_000);
        assert!(fresh.cluster_search(&board, &three, pos.player));
        // The whole cluster, as the test takes it: the fourth box touching them as well.
        let mut cluster = CellSet::new(board.cells());
        cluster.insert(moved);
        let mut list = vec![moved];
        grow_touching_cluster(&board, &mut list, &mut cluster, &pos.boxes);
        assert_eq!(cluster.len(), 4);
        assert!(!fresh.cluster_search(&board, &cluster, pos.player));
    }

    #[test]
    fn no_position_of_a_solution_is_a_cluster_or_border_cluster_deadlock() {
        for screen in [1, 2, 3, 5, 6, 9, 17] {
            let board = crate::fess::test_levels::xsokoban(screen);
            let out = crate::fess::fess(&board, &puzzle_engine::Budget::iterations(20_000));
            let pushes = out.pushes.expect("solved");
            let mut dl = CorralDeadlock::new(&board, 300)
                .with_cluster_limit(&board, 3_000)
                .with_corral_clusters();
            let mut reach = Reach::new(board.cells());
            let mut pos = Position::start(&board);
            for p in pushes {
                pos.apply_push(&board, p);
                let to = board.step(p.from, p.dir);
                reach.compute(&board, &pos.boxes, pos.player);
                assert!(
                    !dl.is_cluster_deadlock(&board, &pos, to)
                        && !dl.is_deadlock(&board, &pos, &reach, NONE),
                    "screen {screen}: a position of the solution"
                );
            }
            assert!(pos.is_solved(&board));
        }
    }

    /// XSokoban 17 after a box of the bottom-left room is pushed up its one-wide way out,
    /// the player behind it. Every box that reaches the goals turns back left along the
    /// corridor, pushed from the right, and the player gets to its right only by going down
    /// into the right-hand room and back; that room's box closes the loop.
    const CLOSED_LOOP: &str = "   ##########\n   #..  #   #\n   #..      #\n   #..  #  ####\n  #######  #  ##\n  # $          #\n  # @#  ##  #  #\n#### ##  #### ##\n#  $  ##### #  #\n# #    $  # $  #\n#  $  $   #   ##\n#### ## #######\n   #    #\n   ######\n";

    #[test]
    fn border_boxes_that_cannot_all_reach_goals_are_a_deadlock_though_the_player_gets_in() {
        let (_, board, pos, reach) = at_start(CLOSED_LOOP);
        // Cells run row by row: the box on the corridor is the first.
        let moved = pos.boxes.iter().next().unwrap();
        // The corral search alone lets the player back in (the box pushed down a pocket).
        let mut plain = CorralDeadlock::new(&board, 10_000);
        assert!(!plain.is_deadlock(&board, &pos, &reach, moved));
        let mut dl = CorralDeadlock::new(&board, 10_000).with_corral_clusters();
        assert!(dl.is_deadlock(&board, &pos, &reach, moved));
        assert_eq!(dl.clusters_proved, 1);
        // The proof is kept as a pattern, which the same query now matches first.
        assert!(dl.is_deadlock(&board, &pos, &reach, moved));
        assert_eq!((dl.clusters_proved, dl.by_pattern), (1, 1));
    }

    #[test]
    fn boxes_sealing_the_rest_of_the_level_are_a_deadlock() {
        // XSokoban 2 pattern: the pocket on the left is sealed by a row of three boxes; the
        // middle one could go up only with the player below it (in a dead end reached only
        // through its own cell), and down only onto a dead square. No box is frozen.
        let text = "########\n#...   #\n#### # #\n#  $$$@#\n#### ###\n   ###\n";
        assert_eq!(check(text), (true, false));
    }

    #[test]
    fn a_proved_corral_is_a_pattern_for_positions_holding_its_boxes() {
        // The level of the test above, two columns wider.
        let text = "##########\n#...     #\n#### # # #\n#  $$$@  #\n#### #####\n   ###\n";
        let board = Board::new(&Level::parse_one(text).unwrap()).unwrap();
        let start = Position::start(&board);
        let mut reach = Reach::new(board.cells());
        // The same boxes and one more, far from the corral; the box moved last is that one,
        // so the corral is not looked at again.
        let extra = board.cell_of[2 * board.width + 8];
        let mut more = start.clone();
        more.boxes.insert(extra);
        let fresh = |dl: &mut CorralDeadlock, reach: &mut Reach| {
            reach.compute(&board, &more.boxes, more.player);
            dl.is_deadlock(&board, &more, reach, extra)
        };
        assert!(!fresh(&mut CorralDeadlock::new(&board, 10_000), &mut reach));
        let mut dl = CorralDeadlock::new(&board, 10_000);
        reach.compute(&board, &start.boxes, start.player);
        assert!(dl.is_deadlock(&board, &start, &reach, NONE));
        assert!(fresh(&mut dl, &mut reach));
        assert_eq!(dl.by_pattern, 1);
        // With the player on the other side of the pattern's boxes, it does not apply.
        let mut inside = more.clone();
        inside.player = board.cell_of[3 * board.width + 1];
        assert!(!dl.patterns.matches(&inside.boxes, inside.player));
    }

    /// The filed patterns answer as a scan of every pattern does, before and after they are
    /// filed again: random patterns and positions on XSokoban 29, 5,000 positions (four
    /// refilings), a position holding a pattern's boxes one time in three.
    #[test]
    fn filed_patterns_match_as_a_scan_of_all_patterns() {
        let board = crate::fess::test_levels::xsokoban(29);
        let n = board.cells();
        let floor: Vec<u16> = (0..n as u16).filter(|&c| !board.is_dead(c)).collect();
        let mut rng = puzzle_engine::Rng::new(29);
        let pick = |rng: &mut puzzle_engine::Rng, k: usize| {
            let mut set = CellSet::new(n);
            while set.iter().count() < k {
                set.insert(floor[rng.below(floor.len())]);
            }
            set
        };
        let mut patterns = Patterns::new(n);
        let mut all: Vec<(CellSet, CellSet)> = Vec::new();
        let mut reach = Reach::new(n);
        let mut matched = 0;
        for step in 0..5_000u32 {
            if step % 50 == 0 {
                let k = 2 + rng.below(4);
                let boxes = pick(&mut rng, k);
                let player = loop {
                    let c = floor[rng.below(floor.len())];
                    if !boxes.contains(c) {
                        break c;
                    }
                };
                reach.compute(&board, &boxes, player);
                patterns.learn(&board, &boxes, &reach);
                let mut area = CellSet::new(n);
                reach.area_into(n, &mut area);
                all.push((boxes, area));
            }
            let mut boxes = pick(&mut rng, 10);
            if rng.below(3) == 0 {
                for c in all[rng.below(all.len())].0.iter() {
                    boxes.insert(c);
                }
            }
            let player = floor[rng.below(floor.len())];
            let scan = all
                .iter()
                .any(|(p, area)| area.contains(player) && p.iter().all(|c| boxes.contains(c)));
            assert_eq!(patterns.matches(&boxes, player), scan, "position {step}");
            matched += usize::from(scan);
        }
        assert!(
            (500..4_500).contains(&matched),
            "{matched} positions matched"
        );
        assert_eq!(patterns.count, all.len());
        assert!(patterns.calls > 4_096);
    }

    #[test]
    fn corral_that_can_be_filled_is_no_deadlock() {
        let text = "######\n#.$ @#\n#.$  #\n######\n";
        assert_eq!(check(text), (false, false));
    }

    #[test]
    fn corral_opened_by_a_push_is_no_deadlock() {
        // The box can be pushed down out of the doorway: the player then enters the corral.
        let text = "#######\n#.#  .#\n# $ $ #\n#  #@ #\n#######\n";
        assert!(!check(text).0);
    }
}
