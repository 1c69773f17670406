//! PI-corral pruning (see `docs/METHODS.md#sokoban-corral`; the technique of Junghanns &
//! Schaeffer's Rolling Stone, as used by YASS and others), in a conservative form.
//!
//! A *corral* is a region of free cells the player cannot reach. It is a *PI-corral* when
//! every push of a box on its border goes *into* the corral (I) and the player can make every
//! such push now (P). If the corral still holds work (an empty goal inside, or a border box off
//! its goal), any solution must push one of those border boxes into it before the corral can
//! change, and those pushes stay possible whatever else happens first: so only they need be
//! searched at this node. We are conservative: a border box whose push out of the corral might
//! become possible later (its back cell holds a box or lies in another unreachable region),
//! or whose push into it is not possible right now, disqualifies the corral; corrals are not
//! merged.

use crate::board::ROW_BITS;
use crate::board::{Board, NONE};
use crate::dir::Dir;
use crate::position::{
    boxes_in_row, clear_rows, fill_area, next_to_row, row_bit, Position, Push, Reach, Rows,
};

/// Scratch for [`CorralPruner::restrict`].
#[derive(Clone, Debug)]
pub struct CorralPruner {
    regions: Regions,
    border: Vec<u16>,
    candidate: Vec<Push>,
    best: Vec<Push>,
    /// The free cells the player does not reach, as bit rows (see [`Rows`]).
    unreached: Rows,
    /// The unreached cells of the corrals looked at so far.
    seen: Rows,
    /// The corral being looked at.
    area: Rows,
}

impl Default for CorralPruner {
    fn default() -> Self {
        CorralPruner {
            regions: Regions::default(),
            border: Vec::new(),
            candidate: Vec::new(),
            best: Vec::new(),
            unreached: [0; ROW_BITS + 2],
            seen: [0; ROW_BITS + 2],
            area: [0; ROW_BITS + 2],
        }
    }
}

impl CorralPruner {
    /// New scratch.
    pub fn new() -> Self {
        CorralPruner::default()
    }

    /// Given the pushes of `pos` (with `reach` computed for it), keep only the pushes into the
    /// PI-corral with the fewest pushes, if there is one. Returns whether it pruned.
    pub fn restrict(
        &mut self,
        board: &Board,
        pos: &Position,
        reach: &Reach,
        pushes: &mut Vec<Push>,
    ) -> bool {
        if let Some((rows, free)) = reach.row_state() {
            return self.restrict_by_rows(board, pos, reach, (rows, free), pushes);
        }
        let n = board.cells();
        let base = self.regions.begin(n);
        self.best.clear();
        // A corral with pushes has a box on its border, so its areas are flooded from the
        // free cells next to boxes. Among corrals with equally few pushes the one with the
        // smallest cell wins (the first of a scan over all cells).
        let mut best_min = u16::MAX;
        for b in pos.boxes.iter() {
            for start in board.neighbors[b as usize] {
                let Some(mut id) = self.regions.flood_new(board, pos, reach, start, base) else {
                    continue;
                };
                // Flooded again from its smallest cell, the area lists its cells (and so its
                // pushes) in the order of a scan over all cells.
                let min = self.regions.cells.iter().copied().min().unwrap_or(start);
                if min != start {
                    id = self.regions.flood(board, pos, min);
                }
                if self.check(board, pos, reach, id).is_none() || self.candidate.is_empty() {
                    continue;
                }
                let better = match self.candidate.len().cmp(&self.best.len()) {
                    _ if self.best.is_empty() => true,
                    std::cmp::Ordering::Less => true,
                    std::cmp::Ordering::Equal => min < best_min,
                    std::cmp::Ordering::Greater => false,
                };
                if better {
                    std::mem::swap(&mut self.best, &mut self.candidate);
                    best_min = min;
                }
            }
        }
        let found = !self.best.is_empty();
        if found && self.best.len() < pushes.len() {
            pushes.clear();
            pushes.extend_from_slice(&self.best);
            return true;
        }
        false
    }

    /// [`CorralPruner::restrict`] on the bit rows of the player's area (`rows`) and the free
    /// cells (`free`) of `reach`: each corral is flooded as rows and tested on them
    /// ([`CorralPruner::corral_pushes`]), and only the winner is flooded cell by cell to list
    /// its pushes in the order of the cell-by-cell pruning (the same pushes, the same order).
    fn restrict_by_rows(
        &mut self,
        board: &Board,
        pos: &Position,
        reach: &Reach,
        (rows, free): (&Rows, &Rows),
        pushes: &mut Vec<Push>,
    ) -> bool {
        let h = board.height;
        for y in 0..h + 2 {
            self.unreached[y] = free[y] & !rows[y];
            self.seen[y] = 0;
        }
        // The fewest pushes, then the smallest cell (cells are numbered row by row, so a
        // corral's smallest cell is its first bit).
        let mut best: Option<(usize, u16)> = None;
        for y in 1..=h {
            loop {
                let left = self.unreached[y] & !self.seen[y];
                if left == 0 {
                    break;
                }
                let x = left.trailing_zeros() as usize;
                clear_rows(&mut self.area, h + 2);
                fill_area(
                    &mut self.area,
                    &self.unreached,
                    ((y - 1) * ROW_BITS + x) as u16,
                    board.width,
                );
                for k in 1..=h {
                    self.seen[k] |= self.area[k];
                }
                let min = board.cell_in_row(y, x);
                let Some(count) = self.corral_pushes(board, pos, reach, free) else {
                    continue;
                };
                if count > 0 && best.is_none_or(|(n, m)| count < n || (count == n && min < m)) {
                    best = Some((count, min));
                }
            }
        }
        let Some((count, min)) = best else {
            return false;
        };
        if count >= pushes.len() {
            return false;
        }
        self.regions.begin(board.cells());
        let id = self.regions.flood(board, pos, min);
        let listed = self.check(board, pos, reach, id);
        debug_assert!(listed.is_some() && self.candidate.len() == count);
        pushes.clear();
        pushes.extend_from_slice(&self.candidate);
        true
    }

    /// [`CorralPruner::check`] on the corral `self.area` (bit rows): the number of its
    /// pushes when it is a PI-corral with work left.
    fn corral_pushes(
        &self,
        board: &Board,
        pos: &Position,
        reach: &Reach,
        free: &Rows,
    ) -> Option<usize> {
        let area = &self.area;
        let inside = |c: u16| {
            let (y, bit) = row_bit(board.place[c as usize]);
            area[y] & bit != 0
        };
        let mut work = false;
        let mut count = 0;
        for y in 1..=board.height {
            work |= area[y] & board.goal_rows[y - 1] != 0;
            // The boxes next to the corral's cells of this row or the rows around it.
            let mut border = next_to_row(area, y) & boxes_in_row(board, free, y);
            while border != 0 {
                let x = border.trailing_zeros() as usize;
                border &= border - 1;
                let b = board.cell_in_row(y, x);
                work |= !board.is_goal(b);
                border_box_pushes(board, pos, reach, b, inside, |_| count += 1)?;
            }
        }
        work.then_some(count)
    }

    /// Is the region `id` (cells in `self.cells`) a PI-corral with work left? Fills
    /// `self.candidate` with its pushes.
    fn check(&mut self, board: &Board, pos: &Position, reach: &Reach, id: u32) -> Option<()> {
        self.border.clear();
        let mut work = false;
        for &c in &self.regions.cells {
            if board.is_goal(c) {
                work = true;
            }
            for &m in &board.neighbors[c as usize] {
                if m != NONE && pos.boxes.contains(m) && !self.border.contains(&m) {
                    self.border.push(m);
                }
            }
        }
        self.candidate.clear();
        for i in 0..self.border.len() {
            let b = self.border[i];
            if !board.is_goal(b) {
                work = true;
            }
            let region = &self.regions.region;
            let inside = |c: u16| c != NONE && region[c as usize] == id;
            let candidate = &mut self.candidate;
            border_box_pushes(board, pos, reach, b, inside, |p| candidate.push(p))?;
        }
        work.then_some(())
    }
}

/// The pushes of border box `b` of a corral (`inside` its cells) into it, each passed to
/// `into`, or `None` when the box disqualifies the corral: a push into it that the player
/// cannot make now (P), or one out of it that a player outside could make now or later (I).
#[inline]
fn border_box_pushes(
    board: &Board,
    pos: &Position,
    reach: &Reach,
    b: u16,
    inside: impl Fn(u16) -> bool,
    mut into: impl FnMut(Push),
) -> Option<()> {
    for dir in Dir::ALL {
        let t = board.step(b, dir);
        if t == NONE || pos.boxes.contains(t) || board.is_dead(t) {
            continue;
        }
        let s = board.step(b, dir.opposite());
        if s == NONE {
            continue; // a wall behind: never pushable this way
        }
        if inside(t) {
            // A push into the corral: the player must be able to make it now (P); one that
            // needs another box moved first could be the first corral push of a solution and
            // could not be moved to the front.
            if !reach.reachable(s) {
                return None;
            }
            into(Push { from: b, dir });
        } else if !inside(s) {
            // A push not into the corral must be impossible now and later (I): only a
            // player standing inside the corral could make it.
            return None;
        }
    }
    Some(())
}

/// The areas the player cannot enter, flooded one at a time with increasing stamps (shared by
/// PI-corral pruning and the corral deadlock search): `region[c]` is the stamp of the last
/// area flooded through cell `c`, `cells` the cells of the last one.
#[derive(Clone, Debug, Default)]
pub(crate) struct Regions {
    pub(crate) region: Vec<u32>,
    stamp: u32,
    stack: Vec<u16>,
    pub(crate) cells: Vec<u16>,
}

impl Regions {
    /// Start a pass over a board of `n` cells: areas flooded from now on get stamps above the
    /// returned base. Resets the stamps (a board of another size, or before they could wrap).
    pub(crate) fn begin(&mut self, n: usize) -> u32 {
        if self.region.len() != n || self.stamp > u32::MAX / 2 {
            self.region.clear();
            self.region.resize(n, 0);
            self.stamp = 0;
        }
        self.stamp
    }

    /// If `start` is a free cell the player cannot reach and no area of this pass holds it yet,
    /// flood its area (without crossing a box) with a new stamp, list its cells in `cells`,
    /// and return the stamp.
    pub(crate) fn flood_new(
        &mut self,
        board: &Board,
        pos: &Position,
        reach: &Reach,
        start: u16,
        base: u32,
    ) -> Option<u32> {
        if start == NONE
            || reach.reachable(start)
            || pos.boxes.contains(start)
            || self.region[start as usize] > base
        {
            return None;
        }
        Some(self.flood(board, pos, start))
    }

    /// Flood the area of free cell `start` (without crossing a box) with a new stamp, list
    /// its cells in `cells` in flood order, and return the stamp.
    pub(crate) fn flood(&mut self, board: &Board, pos: &Position, start: u16) -> u32 {
        self.stamp += 1;
        let id = self.stamp;
        self.cells.clear();
        // Each cell is stacked at most once (marked first): a stack of one entry per cell
        // with a top index, never reallocated.
        if self.stack.len() < self.region.len() {
            self.stack.resize(self.region.len(), 0);
        }
        let (stack, region) = (&mut self.stack[..], &mut self.region[..]);
        stack[0] = start;
        let mut top = 1;
        region[start as usize] = id;
        while top > 0 {
            top -= 1;
            let c = stack[top];
            self.cells.push(c);
            for &m in &board.flood_neighbors[c as usize] {
                if region[m as usize] != id && !pos.boxes.contains(m) {
                    region[m as usize] = id;
                    stack[top] = m;
                    top += 1;
                }
            }
        }
        id
    }
}
