//! Dynamic state for push-level search (see
//! `docs/METHODS.md#sokoban-push-search`): the boxes as a bitset, the player, the
//! Zobrist hash of the boxes, player reachability with a normalized player cell (the smallest
//! reachable cell, so positions that differ only by player walking coincide), push generation
//! and push apply/undo.

use crate::board::{Board, CellSet, NONE, ROW_BITS};
use crate::dir::Dir;
use std::sync::Arc;

/// A push: the box on `from` is pushed one cell in `dir` (the player stands behind it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Push {
    /// The box's cell before the push (compact numbering).
    pub from: u16,
    /// The direction of the push.
    pub dir: Dir,
}

/// Boxes and player of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// Cells holding a box.
    pub boxes: CellSet,
    /// The player's cell.
    pub player: u16,
    /// XOR of the boxes' Zobrist keys.
    pub box_hash: u64,
}

impl Position {
    /// The level's start position.
    pub fn start(board: &Board) -> Position {
        let box_hash = board
            .start_boxes
            .iter()
            .fold(0, |h, c| h ^ board.zobrist_box[c as usize]);
        Position {
            boxes: board.start_boxes.clone(),
            player: board.start_player,
            box_hash,
        }
    }

    /// Rebuild a position from box words and a player cell.
    pub fn from_words(board: &Board, words: &[u64], player: u16) -> Position {
        let mut boxes = CellSet::new(board.cells());
        boxes.set_words(words);
        let box_hash = boxes
            .iter()
            .fold(0, |h, c| h ^ board.zobrist_box[c as usize]);
        Position {
            boxes,
            player,
            box_hash,
        }
    }

    /// Every box is on a goal.
    #[inline]
    pub fn is_solved(&self, board: &Board) -> bool {
        self.boxes.words() == board.goals.words()
    }

    /// Number of boxes on goals.
    pub fn boxes_on_goals(&self, board: &Board) -> usize {
        self.boxes
            .words()
            .iter()
            .zip(board.goals.words())
            .map(|(a, b)| (a & b).count_ones() as usize)
            .sum()
    }

    /// Apply `push` (which must be possible): the box moves, the player takes its cell.
    /// Returns the player's cell before the push (for [`Position::undo_push`]).
    #[inline]
    pub fn apply_push(&mut self, board: &Board, push: Push) -> u16 {
        let to = board.step(push.from, push.dir);
        debug_assert!(to != NONE && !self.boxes.contains(to) && self.boxes.contains(push.from));
        self.boxes.remove(push.from);
        self.boxes.insert(to);
        self.box_hash ^= board.zobrist_box[push.from as usize] ^ board.zobrist_box[to as usize];
        let old = self.player;
        self.player = push.from;
        old
    }

    /// Take back `push`, restoring the player to `old_player`.
    #[inline]
    pub fn undo_push(&mut self, board: &Board, push: Push, old_player: u16) {
        let to = board.step(push.from, push.dir);
        self.boxes.remove(to);
        self.boxes.insert(push.from);
        self.box_hash ^= board.zobrist_box[push.from as usize] ^ board.zobrist_box[to as usize];
        self.player = old_player;
    }

    /// Can `push` be made physically (player side reachable is NOT checked): a box on
    /// `from`, a free floor cell beyond it.
    #[inline]
    pub fn push_target(&self, board: &Board, push: Push) -> Option<u16> {
        if !self.boxes.contains(push.from) {
            return None;
        }
        let to = board.step(push.from, push.dir);
        (to != NONE && !self.boxes.contains(to)).then_some(to)
    }
}

/// Player reachability scratch: which cells the player reaches without pushing, and the
/// smallest of them (the normalized player cell). Reused across calls without clearing.
///
/// On a board whose grid fits [`ROW_BITS`] × [`ROW_BITS`] the area is flooded as bit rows
/// (one `u64` per grid row, [`Board::floor_rows`]): a row's runs of free cells are filled at
/// once and the flood moves between rows with a work list of changed rows, with no branch
/// per cell. Larger boards flood cell by cell. Both give the same cells.
#[derive(Clone, Debug)]
pub struct Reach {
    stamp: Vec<u32>,
    current: u32,
    stack: Vec<u16>,
    /// The reached cells as bit rows (row flood): grid row `y` is `rows[y + 1]`, and the
    /// rows before and after the grid's are zero.
    rows: Rows,
    /// The free cells as bit rows, the player's area less the boxes (row flood), laid out as
    /// `rows`.
    free: Rows,
    /// [`Board::place`] of the board of the last flood; empty after a cell flood.
    place: Arc<[u16]>,
    /// The smallest reachable cell after the last [`Reach::compute`].
    pub min: u16,
}

impl Reach {
    /// Scratch for a board with `cells` cells.
    pub fn new(cells: usize) -> Reach {
        Reach {
            stamp: vec![0; cells],
            current: 0,
            stack: vec![0; cells],
            rows: [0; ROW_BITS + 2],
            free: [0; ROW_BITS + 2],
            place: Arc::from(Vec::new()),
            min: 0,
        }
    }

    /// Flood the cells reachable from `from` around `boxes`; returns the normalized cell.
    pub fn compute(&mut self, board: &Board, boxes: &CellSet, from: u16) -> u16 {
        let min = if self.use_rows(board, from) {
            self.load_free(board, boxes);
            self.flood_free_rows(board, from)
        } else {
            self.next_mark();
            self.flood(board, boxes, from)
        };
        self.min = min;
        min
    }

    /// [`Reach::compute`] for the position `boxes`, which is `parent`'s (its last
    /// [`Reach::compute`]'s) with the box on `from` moved to `to`: on bit rows the free cells
    /// are `parent`'s with those two cells changed, instead of loading every box.
    pub fn compute_after_move(
        &mut self,
        board: &Board,
        boxes: &CellSet,
        parent: &Reach,
        (from, to): (u16, u16),
        player: u16,
    ) -> u16 {
        if parent.row_state().is_none()
            || !Arc::ptr_eq(&parent.place, &board.place)
            || !self.use_rows(board, player)
        {
            return self.compute(board, boxes, player);
        }
        copy_rows(&mut self.free, &parent.free, board.height + 2);
        let (yf, bf) = row_bit(self.place[from as usize]);
        self.free[yf] |= bf;
        let (yt, bt) = row_bit(self.place[to as usize]);
        self.free[yt] &= !bt;
        self.min = self.flood_free_rows(board, player);
        self.min
    }

    /// The row flood from `from` over the free rows already loaded; returns the smallest
    /// reached cell.
    #[inline]
    fn flood_free_rows(&mut self, board: &Board, from: u16) -> u16 {
        clear_rows(&mut self.rows, board.height + 2);
        let p = self.place[from as usize];
        self.flood_rows(p, board.width);
        self.first_row_cell(board)
    }

    /// [`Reach::compute`] cell by cell, whatever the board's size: the reference the row
    /// flood is tested against.
    pub fn compute_cell_by_cell(&mut self, board: &Board, boxes: &CellSet, from: u16) -> u16 {
        self.place = Arc::from(Vec::new());
        self.next_mark();
        self.min = self.flood(board, boxes, from);
        self.min
    }

    /// Whether to flood `board` from `from` as bit rows (then `place` is the board's): its
    /// grid fits and `from` is in the player's area (a flood from a stranded cell, which
    /// no row holds, reaches that cell alone).
    #[inline]
    fn use_rows(&mut self, board: &Board, from: u16) -> bool {
        // The common case first: the board of the last row flood, `from` in its area.
        if Arc::ptr_eq(&self.place, &board.place) && !self.place.is_empty() {
            if let Some(&p) = self.place.get(from as usize) {
                let p = p as usize;
                if board.floor_rows[p / ROW_BITS] >> (p % ROW_BITS) & 1 != 0 {
                    return true;
                }
            }
        }
        self.use_rows_slow(board, from)
    }

    /// [`Reach::use_rows`] for another board, a board flooded cell by cell, or a stranded
    /// `from`.
    #[inline(never)]
    fn use_rows_slow(&mut self, board: &Board, from: u16) -> bool {
        if board.floor_rows.is_empty() || from as usize >= board.place.len() {
            if !self.place.is_empty() {
                self.place = Arc::from(Vec::new());
            }
            return false;
        }
        if !Arc::ptr_eq(&self.place, &board.place) {
            self.place = board.place.clone();
        }
        let p = board.place[from as usize] as usize;
        board.floor_rows[p / ROW_BITS] >> (p % ROW_BITS) & 1 != 0 || {
            self.place = Arc::from(Vec::new());
            false
        }
    }

    /// `free`: the player's area less the boxes, and zero rows around it.
    #[inline]
    fn load_free(&mut self, board: &Board, boxes: &CellSet) {
        copy_rows(&mut self.free, &board.floor_padded, board.height + 2);
        let place = &self.place[..];
        for (i, &w) in boxes.words().iter().enumerate() {
            let mut w = w;
            while w != 0 {
                let b = i * 64 + w.trailing_zeros() as usize;
                w &= w - 1;
                let (y, bit) = row_bit(place[b]);
                self.free[y] &= !bit;
            }
        }
    }

    /// Add to `rows` the free cells connected to place `p` ([`fill_area`]).
    #[inline]
    fn flood_rows(&mut self, p: u16, width: usize) {
        fill_area(&mut self.rows, &self.free, p, width);
    }

    /// The reached cells and the free cells of the last [`Reach::compute`] as bit rows (grid
    /// row `y` at index `y + 1`), when it flooded by rows.
    pub(crate) fn row_state(&self) -> Option<(&Rows, &Rows)> {
        (!self.place.is_empty()).then_some((&self.rows, &self.free))
    }

    /// The smallest reached cell of a row flood: cells are numbered row by row.
    #[inline]
    fn first_row_cell(&self, board: &Board) -> u16 {
        for (y, &r) in self.rows[1..=board.height].iter().enumerate() {
            if r != 0 {
                return board.cell_of[y * board.width + r.trailing_zeros() as usize];
            }
        }
        unreachable!("a row flood reaches its start")
    }

    /// Start a new marking: no cell is marked afterwards.
    fn next_mark(&mut self) {
        self.current = self.current.wrapping_add(1);
        if self.current == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.current = 1;
        }
    }

    /// Mark the free cells connected to `from` (not yet marked); returns the smallest.
    fn flood(&mut self, board: &Board, boxes: &CellSet, from: u16) -> u16 {
        let cur = self.current;
        let stamp = &mut self.stamp[..];
        // Each cell is pushed at most once (stamped first), so a stack of `cells` entries
        // with a top index never overflows and never reallocates.
        let stack = &mut self.stack[..];
        stamp[from as usize] = cur;
        stack[0] = from;
        let mut top = 1;
        let mut min = from;
        while top > 0 {
            top -= 1;
            let c = stack[top];
            for &n in &board.flood_neighbors[c as usize] {
                if stamp[n as usize] != cur && !boxes.contains(n) {
                    stamp[n as usize] = cur;
                    min = min.min(n);
                    stack[top] = n;
                    top += 1;
                }
            }
        }
        min
    }

    /// Number of cells this scratch was made for.
    pub fn capacity(&self) -> usize {
        self.stamp.len()
    }

    /// The cells the last [`Reach::compute`] reached, written into `set` (cleared first; it
    /// covers the board's `cells`).
    pub fn area_into(&self, cells: usize, set: &mut CellSet) {
        set.clear();
        for c in 0..cells as u16 {
            if self.reachable(c) {
                set.insert(c);
            }
        }
    }

    /// Was `c` reached by the last [`Reach::compute`]?
    #[inline]
    pub fn reachable(&self, c: u16) -> bool {
        if c == NONE {
            return false;
        }
        if let Some(&p) = self.place.get(c as usize) {
            let (y, bit) = row_bit(p);
            self.rows[y] & bit != 0
        } else {
            self.stamp[c as usize] == self.current
        }
    }
}

/// The padded bit row (see [`Rows`]) and the bit of place `p` (`y · ROW_BITS + x`).
#[inline(always)]
pub(crate) fn row_bit(p: u16) -> (usize, u64) {
    let p = p as usize;
    ((p / ROW_BITS + 1) % (ROW_BITS + 2), 1 << (p % ROW_BITS))
}

/// The boxes in padded bit row `y` of a position whose free cells are the rows `free`: the
/// player's area less its free cells.
#[inline(always)]
pub(crate) fn boxes_in_row(board: &Board, free: &Rows, y: usize) -> u64 {
    board.floor_rows[y - 1] & !free[y]
}

/// The cells next to (left of, right of, above or below) a cell of padded row `y` of `rows`.
#[inline(always)]
pub(crate) fn next_to_row(rows: &Rows, y: usize) -> u64 {
    (rows[y] << 1) | (rows[y] >> 1) | rows[y - 1] | rows[y + 1]
}

/// Zero rows `0..n` of `rows` (and possibly some after them, which no flood of a grid of
/// `n - 2` rows reads) with stores of fixed size instead of a library call.
#[inline(always)]
pub(crate) fn clear_rows(rows: &mut Rows, n: usize) {
    match n {
        0..=16 => rows[..16].fill(0),
        17..=32 => rows[..32].fill(0),
        _ => rows.fill(0),
    }
}

/// Copy rows `0..n` of `from` into `to` (and possibly some after them, as
/// [`clear_rows`]; `from` is zero after its grid) with moves of fixed size.
#[inline(always)]
pub(crate) fn copy_rows(to: &mut Rows, from: &Rows, n: usize) {
    match n {
        0..=16 => to[..16].copy_from_slice(&from[..16]),
        17..=32 => to[..32].copy_from_slice(&from[..32]),
        _ => *to = *from,
    }
}

/// Bit rows of a grid of at most [`ROW_BITS`] columns and fewer rows: grid row `y` is entry
/// `y + 1`, and the entries before and after the grid's rows are zero.
pub(crate) type Rows = [u64; ROW_BITS + 2];

/// Add to `rows` the cells of `free` connected to place `p` (`y · ROW_BITS + x`, a cell of
/// `free` not in `rows`; `rows` holds whole areas of `free`) on a board `width` wide. A row
/// is on the work list (`dirty`, bit `y` = grid row `y`) only when a neighbouring row's new
/// cells touch cells of it not yet reached, so every visit grows the row, and the tests are
/// branch-free (the zero rows around the grid take no cells).
#[inline]
pub(crate) fn fill_area(rows: &mut Rows, free: &Rows, p: u16, width: usize) {
    // Runs are at most `width` long: `k` doubling steps fill `2^k − 1` cells down.
    match width {
        0..=8 => fill_area_in::<3>(rows, free, p),
        9..=16 => fill_area_in::<4>(rows, free, p),
        17..=32 => fill_area_in::<5>(rows, free, p),
        _ => fill_area_in::<6>(rows, free, p),
    }
}

/// [`fill_area`] with runs filled down by `STEPS` doubling steps.
#[inline]
fn fill_area_in<const STEPS: u32>(rows: &mut Rows, free: &Rows, p: u16) {
    // The grid rows whose padded neighbours `y - 1`, `y + 1` take some of `new` (row `y`
    // of `rows`, grid row `y - 1`).
    let spread = |rows: &Rows, y: usize, new: u64| -> u64 {
        let up = (new & free[y - 1] & !rows[y - 1] != 0) as u64;
        let down = (new & free[y + 1] & !rows[y + 1] != 0) as u64;
        ((up << y) >> 2) | (down << y)
    };
    let y0 = p as usize / ROW_BITS + 1;
    let new = fill_runs::<STEPS>(free[y0 % (ROW_BITS + 2)], 1 << (p as usize % ROW_BITS));
    rows[y0 % (ROW_BITS + 2)] |= new;
    let mut dirty = spread(rows, y0.clamp(1, ROW_BITS), new);
    while dirty != 0 {
        let y = (dirty.trailing_zeros() as usize + 1).min(ROW_BITS);
        dirty &= dirty - 1;
        let seeds = (rows[y - 1] | rows[y + 1]) & free[y] & !rows[y];
        let new = fill_runs::<STEPS>(free[y], seeds);
        rows[y] |= new;
        dirty |= spread(rows, y, new);
    }
}

/// The runs of set bits of `free` (none longer than `2^STEPS`) that hold a bit of `seeds` (a
/// subset of `free`): filled towards bit 0 by doubling shifts (each step doubles the run
/// length a seed covers), then towards bit 63 by the carry of an addition, which runs
/// through a run of set bits.
#[inline(always)]
fn fill_runs<const STEPS: u32>(free: u64, seeds: u64) -> u64 {
    let (mut g, mut p) = (seeds, free);
    for k in 0..STEPS {
        g |= p & (g >> (1 << k));
        p &= p >> (1 << k);
    }
    g | ((free.wrapping_add(g) ^ free) & free)
}

/// The number of connected areas of free cells (floor without boxes): the *connectivity*
/// feature of FESS (Shoham & Schaeffer 2020, §4), which counts the player's regions.
/// Uses `scratch` (a [`Reach`] for the board) for its marks, so compute its reachability
/// again before asking it [`Reach::reachable`].
pub fn count_regions(board: &Board, boxes: &CellSet, scratch: &mut Reach) -> u32 {
    if scratch.use_rows(board, board.start_player) {
        scratch.load_free(board, boxes);
        clear_rows(&mut scratch.rows, board.height + 2);
        count_regions_after(board, boxes, scratch, 0)
    } else {
        count_regions_cell_by_cell(board, boxes, scratch)
    }
}

/// [`count_regions`] for the position `reach` was just computed for, by [`Reach::compute`]
/// with `boxes`: the player's area is flooded already, so only the other areas are.
pub fn count_regions_beside_player(board: &Board, boxes: &CellSet, reach: &mut Reach) -> u32 {
    if reach.row_state().is_some() && Arc::ptr_eq(&reach.place, &board.place) {
        count_regions_after(board, boxes, reach, 1)
    } else {
        count_regions(board, boxes, reach)
    }
}

/// `known` plus the areas of `scratch.free` not in `scratch.rows` (flooded into it), plus
/// each stranded cell without a box (alone, as in a cell flood).
fn count_regions_after(board: &Board, boxes: &CellSet, scratch: &mut Reach, known: u32) -> u32 {
    {
        let h = board.height;
        let mut regions = known;
        for y in 0..h {
            loop {
                let left = scratch.free[y + 1] & !scratch.rows[y + 1];
                if left == 0 {
                    break;
                }
                regions += 1;
                let p = y * ROW_BITS + left.trailing_zeros() as usize;
                scratch.flood_rows(p as u16, board.width);
            }
        }
        let stranded = board.area_cells..board.cells();
        regions + stranded.filter(|&c| !boxes.contains(c as u16)).count() as u32
    }
}

/// [`count_regions`] by cell floods, whatever the board's size: the reference the row floods
/// are tested against.
pub fn count_regions_cell_by_cell(board: &Board, boxes: &CellSet, scratch: &mut Reach) -> u32 {
    scratch.place = Arc::from(Vec::new());
    scratch.next_mark();
    let mut regions = 0;
    for start in 0..board.cells() as u16 {
        if scratch.stamp[start as usize] != scratch.current && !boxes.contains(start) {
            regions += 1;
            scratch.flood(board, boxes, start);
        }
    }
    regions
}

/// Removing `cell` from the free cells cannot disconnect its free 4-neighbours: the free
/// cells of its 8-ring that touch an orthogonal neighbour form at most one run.
#[inline]
pub fn removal_keeps_connected(board: &Board, boxes: &CellSet, cell: u16) -> bool {
    orthogonal_runs(&board.ring[cell as usize], |c| !boxes.contains(c)) <= 1
}

/// The runs of consecutive free cells in an 8-ring (clockwise from up, walls `NONE`) that
/// contain an orthogonal neighbour; `free` decides for the ring cells that are not walls.
/// Consecutive ring cells are 4-adjacent, so the free orthogonal neighbours of the ring's
/// centre are connected without it when there is at most one such run.
#[inline]
fn orthogonal_runs(ring: &[u16; 8], free: impl Fn(u16) -> bool) -> usize {
    let free = |k: usize| ring[k] != NONE && free(ring[k]);
    let mut runs = 0;
    // Start the walk just after a blocked ring cell so that runs do not wrap.
    let Some(start) = (0..8).find(|&k| !free(k)) else {
        return 1;
    };
    let mut in_run = false;
    let mut run_has_orthogonal = false;
    for step in 1..=8 {
        let k = (start + step) % 8;
        if free(k) {
            if !in_run {
                in_run = true;
                run_has_orthogonal = false;
            }
            run_has_orthogonal |= k % 2 == 0;
        } else if in_run {
            in_run = false;
            runs += usize::from(run_has_orthogonal);
        }
    }
    if in_run {
        runs += usize::from(run_has_orthogonal);
    }
    runs
}

/// The number of free-floor areas ([`count_regions`]) after one push of a box from `from`
/// to `to` (already applied to `boxes`), derived from the parent's count `parent_regions`
/// when local tests prove what changed; `None` when they cannot (count again). `parent` is
/// the player's area before the push, `child` the area after it when it was flooded.
///
/// Think of the push as two steps. Freeing `from` joins nothing when its free 4-neighbours
/// (among them `to`, still free then) are connected around it or all lie in the player's
/// area. Filling `to` splits nothing when its free 4-neighbours (among them `from`) stay
/// connected around it or all lie in the player's new area. When `to` was outside the
/// player's area (a box pushed along a corridor, away from the player) and the other
/// neighbours of `from` are in it, the push joins the area of `to` to the player's and
/// cuts `to` off again: the count stays if the rest of that area stays connected around
/// `to`, and drops by one if `to` was all of it. This saves the full flood of the
/// connectivity feature (FESS, Shoham & Schaeffer 2020 §4) for most pushes.
#[inline]
pub fn regions_after_push(
    board: &Board,
    boxes: &CellSet,
    (from, to): (u16, u16),
    parent_regions: u32,
    parent: &Reach,
    child: Option<&Reach>,
) -> Option<u32> {
    let free = |c: u16| c != NONE && !boxes.contains(c);
    let ring_from = &board.ring[from as usize];
    let ring_to = &board.ring[to as usize];
    // Orthogonal neighbours are the even ring positions.
    let orthogonal = |ring: &[u16; 8]| [ring[0], ring[2], ring[4], ring[6]];
    let others_in_area = orthogonal(ring_from)
        .into_iter()
        .all(|n| n == to || !free(n) || parent.reachable(n));
    if parent.reachable(to) {
        let freeing_joins_nothing =
            others_in_area || orthogonal_runs(ring_from, |c| c == to || !boxes.contains(c)) <= 1;
        if !freeing_joins_nothing {
            return None;
        }
        if orthogonal_runs(ring_to, |c| !boxes.contains(c)) <= 1 {
            return Some(parent_regions);
        }
        // Filling `to` splits its area into the player's new one and one piece per other
        // area its free neighbours fall into: known when at most one neighbour is outside.
        let area = child?;
        let outside = orthogonal(ring_to)
            .into_iter()
            .filter(|&n| free(n) && !area.reachable(n))
            .count();
        return (outside <= 1).then_some(parent_regions + outside as u32);
    }
    if others_in_area {
        // `to` was in another area; the rest of it, seen before the push (`from` a box).
        let free_before = |c: u16| c != from && !boxes.contains(c);
        let rest = orthogonal(ring_to)
            .into_iter()
            .filter(|&n| n != NONE && free_before(n))
            .count();
        if rest == 0 {
            return Some(parent_regions - 1);
        }
        if orthogonal_runs(ring_to, free_before) <= 1 {
            return Some(parent_regions);
        }
    }
    let freeing_joins_nothing = orthogonal_runs(ring_from, |c| c == to || !boxes.contains(c)) <= 1;
    let filling_splits_nothing = orthogonal_runs(ring_to, |c| !boxes.contains(c)) <= 1;
    (freeing_joins_nothing && filling_splits_nothing).then_some(parent_regions)
}

/// The normalized player cell after `push` (already applied to `pos`), derived from the
/// parent's reachability `parent` (with its smallest cell `parent_min`) when a local test
/// proves the region changed only by the push; otherwise `None` (flood again).
#[inline]
pub fn child_normalized_player(
    board: &Board,
    boxes: &CellSet,
    parent: &Reach,
    parent_min: u16,
    push: Push,
) -> Option<u16> {
    let b = push.from;
    let t = board.step(b, push.dir);
    // Side cells of the old box cell: a free one outside the parent region joins a new area.
    for side in [push.dir.turn_right(), push.dir.turn_left()] {
        let c = board.step(b, side);
        if c != NONE && !boxes.contains(c) && !parent.reachable(c) {
            return None;
        }
    }
    if parent.reachable(t) && (t == parent_min || !removal_keeps_connected(board, boxes, t)) {
        return None;
    }
    Some(parent_min.min(b))
}

/// Write every push possible in `pos` into `out` (cleared first), given `reach` computed for
/// `pos`. With `prune_dead`, pushes onto dead squares are left out.
pub fn generate_pushes(
    board: &Board,
    pos: &Position,
    reach: &Reach,
    prune_dead: bool,
    out: &mut Vec<Push>,
) {
    out.clear();
    if let Some((rows, free)) = reach.row_state() {
        pushes_by_rows(board, (rows, free), prune_dead, out);
        return;
    }
    for b in pos.boxes.iter() {
        for dir in Dir::ALL {
            let to = board.step(b, dir);
            if to == NONE || pos.boxes.contains(to) || (prune_dead && board.is_dead(to)) {
                continue;
            }
            if reach.reachable(board.step(b, dir.opposite())) {
                out.push(Push { from: b, dir });
            }
        }
    }
}

/// [`generate_pushes`] on the bit rows of the player's area (`rows`) and the free cells
/// (`free`): the boxes pushable in each direction are found a row at a time (a box, the
/// player's cell behind it reached, the cell ahead free and, with `prune_dead`, not dead),
/// then listed box by box in cell order, directions in [`Dir::ALL`] order, as the cell by cell
/// generation lists them.
fn pushes_by_rows(
    board: &Board,
    (rows, free): (&Rows, &Rows),
    prune_dead: bool,
    out: &mut Vec<Push>,
) {
    let h = board.height;
    let targets = if prune_dead {
        &board.live_rows
    } else {
        &board.floor_rows
    };
    // The rows `y - 1 ..= y + 1` of the free cells a box may move to (padded as `rows`).
    let target = |y: usize| {
        if (1..=h).contains(&y) {
            free[y] & targets[y - 1]
        } else {
            0
        }
    };
    for y in 1..=h {
        let boxes = boxes_in_row(board, free, y);
        if boxes == 0 {
            continue;
        }
        let [up, right, down, left] = pushable_in_row(boxes, |k| rows[k], y, target);
        let mut any = up | right | down | left;
        while any != 0 {
            let x = any.trailing_zeros();
            any &= any - 1;
            let from = board.cell_in_row(y, x as usize);
            for (dir, mask) in Dir::ALL.into_iter().zip([up, right, down, left]) {
                if mask >> x & 1 != 0 {
                    out.push(Push { from, dir });
                }
            }
        }
    }
}

/// The boxes of padded row `y` (`boxes`) pushable in each direction of [`Dir::ALL`] (up,
/// right, down, left): the player's cell behind the box in `reached`, the cell ahead in
/// `target` (the free cells a box may move to), both by padded row.
#[inline(always)]
fn pushable_in_row(
    boxes: u64,
    reached: impl Fn(usize) -> u64,
    y: usize,
    target: impl Fn(usize) -> u64,
) -> [u64; 4] {
    [
        boxes & target(y - 1) & reached(y + 1),
        boxes & (target(y) >> 1) & (reached(y) << 1),
        boxes & target(y + 1) & reached(y - 1),
        boxes & (target(y) << 1) & (reached(y) >> 1),
    ]
}

impl Reach {
    /// The sides of boxes the player reaches, counting each box once per reached
    /// neighbour: FESS's mobility tie-break. `boxes` are the boxes of the last
    /// [`Reach::compute`], whose area has not been flooded further since.
    pub fn box_sides_reached(&self, board: &Board, boxes: &CellSet) -> u32 {
        if let Some((rows, free)) = self.row_state() {
            return (1..=board.height)
                .map(|y| {
                    let b = boxes_in_row(board, free, y);
                    (b & rows[y - 1]).count_ones()
                        + (b & rows[y + 1]).count_ones()
                        + (b & (rows[y] << 1)).count_ones()
                        + (b & (rows[y] >> 1)).count_ones()
                })
                .sum();
        }
        boxes
            .iter()
            .map(|b| {
                board.neighbors[b as usize]
                    .iter()
                    .filter(|&&c| self.reachable(c))
                    .count() as u32
            })
            .sum()
    }

    /// Whether some box other than the one on `except` can be pushed onto a live free cell
    /// from a cell this area reaches and the area `before` did not: a move that lets the
    /// player at boxes it could not push before (FESS's explorer advisor, §III-E). `boxes` are
    /// the boxes of the last [`Reach::compute`] (not flooded further since); `before` is an
    /// area of the same board.
    pub fn opens_push(&self, board: &Board, boxes: &CellSet, before: &Reach, except: u16) -> bool {
        if let (Some((rows, free)), Some((old, _))) = (self.row_state(), before.row_state()) {
            let h = board.height;
            // The cells reached now and not before (the rows around the grid are zero).
            let new = |y: usize| rows[y] & !old[y];
            let target = |y: usize| {
                if (1..=h).contains(&y) {
                    free[y] & board.live_rows[y - 1]
                } else {
                    0
                }
            };
            let (ey, ebit) = row_bit(self.place[except as usize]);
            // Only boxes next to a newly reached cell: rows around the first and last row
            // holding one.
            let Some(first) = (1..=h).find(|&y| new(y) != 0) else {
                return false;
            };
            let last = (first..=h).rev().find(|&y| new(y) != 0).unwrap_or(first);
            return (first.saturating_sub(1).max(1)..=(last + 1).min(h)).any(|y| {
                let mut b = boxes_in_row(board, free, y);
                if y == ey {
                    b &= !ebit;
                }
                b != 0 && pushable_in_row(b, new, y, target) != [0; 4]
            });
        }
        boxes.iter().any(|x| {
            x != except
                && Dir::ALL.into_iter().any(|d| {
                    let behind = board.step(x, d.opposite());
                    let to = board.step(x, d);
                    behind != NONE
                        && to != NONE
                        && !boxes.contains(to)
                        && !board.is_dead(to)
                        && self.reachable(behind)
                        && !before.reachable(behind)
                })
        })
    }
}

/// Shortest player walk from `from` to `to` around `boxes` (BFS), as directions; `None` if
/// unreachable.
pub fn walk(board: &Board, boxes: &CellSet, from: u16, to: u16) -> Option<Vec<Dir>> {
    if from == to {
        return Some(Vec::new());
    }
    let mut prev: Vec<u16> = vec![NONE; board.cells()];
    let mut queue = std::collections::VecDeque::new();
    prev[from as usize] = from;
    queue.push_back(from);
    while let Some(c) = queue.pop_front() {
        for d in Dir::ALL {
            let n = board.step(c, d);
            if n == NONE || boxes.contains(n) || prev[n as usize] != NONE {
                continue;
            }
            prev[n as usize] = c;
            if n == to {
                let mut path = Vec::new();
                let mut at = to;
                while at != from {
                    let p = prev[at as usize];
                    path.push(board.direction(p, at).expect("adjacent cells"));
                    at = p;
                }
                path.reverse();
                return Some(path);
            }
            queue.push_back(n);
        }
    }
    None
}

/// Turn a push sequence from the start into LURD with shortest player walks between pushes.
/// `None` if some push is impossible (a bug in the caller).
pub fn pushes_to_lurd(board: &Board, pushes: &[Push]) -> Option<String> {
    let mut pos = Position::start(board);
    let mut out = String::new();
    for &p in pushes {
        pos.push_target(board, p)?;
        let behind = board.step(p.from, p.dir.opposite());
        if behind == NONE {
            return None;
        }
        for d in walk(board, &pos.boxes, pos.player, behind)? {
            out.push(d.letter(false));
        }
        out.push(p.dir.letter(true));
        pos.apply_push(board, p);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The runs of `free` holding a bit of `seeds`, bit by bit.
    fn runs_bit_by_bit(free: u64, seeds: u64) -> u64 {
        let mut out = 0;
        let mut x = 0;
        while x < 64 {
            if free >> x & 1 == 0 {
                x += 1;
                continue;
            }
            let start = x;
            while x < 64 && free >> x & 1 != 0 {
                x += 1;
            }
            let run = if x - start == 64 {
                !0
            } else {
                ((1u64 << (x - start)) - 1) << start
            };
            if run & seeds != 0 {
                out |= run;
            }
        }
        out
    }

    /// `free` with every run cut to at most `max` bits.
    fn short_runs(mut free: u64, max: u32) -> u64 {
        let mut len = 0;
        for x in 0..64 {
            if free >> x & 1 == 0 {
                len = 0;
            } else if len == max {
                free &= !(1 << x);
                len = 0;
            } else {
                len += 1;
            }
        }
        free
    }

    proptest! {
        /// Runs no longer than `2^STEPS` are filled whole from any seeds in them.
        #[test]
        fn runs_are_filled_whole(free in any::<u64>(), seeds in any::<u64>(), ones in any::<bool>()) {
            let free = if ones { !0 } else { free };
            for (steps, max) in [(3, 8), (4, 16), (5, 32), (6, 64)] {
                let f = short_runs(free, max);
                let s = seeds & f;
                let got = match steps {
                    3 => fill_runs::<3>(f, s),
                    4 => fill_runs::<4>(f, s),
                    5 => fill_runs::<5>(f, s),
                    _ => fill_runs::<6>(f, s),
                };
                prop_assert_eq!(got, runs_bit_by_bit(f, s), "steps {}", steps);
            }
        }
    }
}
