//! The admissible lower bound of the push-optimal solvers (see
//! `docs/METHODS.md#sokoban-lower-bound`): a minimum-cost
//! perfect matching of boxes to goals (Hungarian method, O(n³)) on the wall-respecting push
//! distances of [`crate::board::Board::goal_distance`].

use crate::board::{Board, CellSet, FAR};

/// Cost used for an impossible box→goal pair.
const INF: i64 = 1 << 40;

/// Reusable scratch for [`LowerBound::compute`]; [`LowerBound::prepare`] and
/// [`LowerBound::after_push`] give the bound of each child of a position in O(n²) instead of
/// O(n³): only the pushed box's row of the cost matrix changes, so the parent's optimal duals
/// stay feasible and one augmenting path repairs the assignment.
#[derive(Clone, Debug, Default)]
pub struct LowerBound {
    cost: Vec<i64>,
    n: usize,
    row_of_cell: Vec<u16>,
    base_u: Vec<i64>,
    base_v: Vec<i64>,
    base_p: Vec<usize>,
    /// The column (1-based goal) matched to each row (1-based box) in the prepared position.
    base_col: Vec<usize>,
    /// The prepared position's bound.
    base_total: i64,
    saved_row: Vec<i64>,
    boxes: Vec<u16>,
    u: Vec<i64>,
    v: Vec<i64>,
    p: Vec<usize>,
    way: Vec<usize>,
    minv: Vec<i64>,
    used: Vec<bool>,
    unmatched: Vec<usize>,
}

/// A prepared optimum kept for later ([`LowerBound::save`], [`LowerBound::prepare_from`]):
/// the boxes in row order, the optimal duals and the matching of a position.
#[derive(Clone, Debug, Default)]
pub struct SavedBound {
    boxes: Vec<u16>,
    u: Vec<i64>,
    v: Vec<i64>,
    p: Vec<usize>,
    total: i64,
}

impl LowerBound {
    /// New scratch.
    pub fn new() -> Self {
        LowerBound::default()
    }

    /// The minimum total push distance over all assignments of boxes to distinct goals, or
    /// `None` when no assignment exists (some boxes cannot all reach distinct goals: a
    /// deadlock).
    pub fn compute(&mut self, board: &Board, boxes: &CellSet) -> Option<u32> {
        self.boxes.clear();
        self.boxes.extend(boxes.iter());
        let n = self.boxes.len();
        self.cost.clear();
        let goals = board.goal_list.len();
        for &b in &self.boxes {
            let row = &board.distance_by_cell[b as usize * goals..][..n];
            self.cost
                .extend(row.iter().map(|&d| if d == FAR { INF } else { d as i64 }));
        }
        let total = self.hungarian(n);
        (total < INF).then_some(total as u32)
    }

    /// Compute the bound of `boxes` (as [`LowerBound::compute`]) and keep its optimal duals
    /// for [`LowerBound::after_push`].
    pub fn prepare(&mut self, board: &Board, boxes: &CellSet) -> Option<u32> {
        let h = self.compute(board, boxes);
        self.n = self.boxes.len();
        if self.row_of_cell.len() != board.cells() {
            self.row_of_cell = vec![u16::MAX; board.cells()];
        }
        for (r, &b) in self.boxes.iter().enumerate() {
            self.row_of_cell[b as usize] = r as u16;
        }
        self.base_u.clone_from(&self.u);
        self.base_v.clone_from(&self.v);
        self.base_p.clone_from(&self.p);
        self.base_col.clear();
        self.base_col.resize(self.n + 1, 0);
        if self.p.len() == self.n + 1 {
            for j in 1..=self.n {
                self.base_col[self.p[j]] = j;
            }
        }
        self.base_total = h.map_or(INF, i64::from);
        h
    }

    /// [`LowerBound::prepare`] for `boxes`, the prepared position after its box on `from`
    /// moved to `to`: the prepared optimum repaired in that box's row (as
    /// [`LowerBound::after_push`] does, then kept) instead of solved again, which a search
    /// expanding the child of the position it just expanded can use. The bound is the same;
    /// among optimal assignments another may be kept. Falls back to a full preparation when
    /// the prepared position had no finite assignment.
    pub fn prepare_after_push(
        &mut self,
        board: &Board,
        boxes: &CellSet,
        (from, to): (u16, u16),
    ) -> Option<u32> {
        let n = self.n;
        if self.base_p.len() != n + 1 || n == 0 {
            return self.prepare(board, boxes);
        }
        let r = self.row_of_cell[from as usize] as usize;
        debug_assert!(r < n && self.boxes[r] == from);
        let (new_u, _) = self.load_row(board, r, to);
        let row = r + 1;
        let old_col = self.base_col[row];
        self.u.clone_from(&self.base_u);
        self.v.clone_from(&self.base_v);
        self.p.clone_from(&self.base_p);
        self.u[row] = new_u;
        if self.cost[r * n + old_col - 1] - self.base_v[old_col] != new_u {
            self.p[old_col] = 0;
            self.augment(row, n);
        }
        let total = self.matched_total(n);
        self.boxes[r] = to;
        self.row_of_cell[to as usize] = r as u16;
        if total >= INF {
            // No finite assignment (the search prunes such positions): start afresh.
            return self.prepare(board, boxes);
        }
        self.base_u.clone_from(&self.u);
        self.base_v.clone_from(&self.v);
        self.base_p.clone_from(&self.p);
        for j in 1..=n {
            self.base_col[self.p[j]] = j;
        }
        self.base_total = total;
        debug_assert_eq!(Some(total as u32), LowerBound::new().compute(board, boxes));
        Some(total as u32)
    }

    /// Keep the prepared optimum in `into` (its buffers reused); false, keeping nothing,
    /// when the prepared position has no finite assignment.
    pub fn save(&self, into: &mut SavedBound) -> bool {
        if self.base_p.len() != self.n + 1 || self.n == 0 || self.base_total >= INF {
            return false;
        }
        into.boxes.clone_from(&self.boxes);
        into.u.clone_from(&self.base_u);
        into.v.clone_from(&self.base_v);
        into.p.clone_from(&self.base_p);
        into.total = self.base_total;
        true
    }

    /// [`LowerBound::prepare_after_push`] from an optimum saved earlier by
    /// [`LowerBound::save`]: `saved` is the parent's, and `boxes` the parent's boxes after
    /// its box on `from` moved to `to`. The parent's cost matrix is rebuilt (O(n²)) and its
    /// optimum repaired in one row, instead of solving the child afresh (O(n³)); the bound
    /// is the same.
    pub fn prepare_from(
        &mut self,
        board: &Board,
        boxes: &CellSet,
        saved: &SavedBound,
        moved: (u16, u16),
    ) -> Option<u32> {
        let n = saved.boxes.len();
        self.n = n;
        self.boxes.clone_from(&saved.boxes);
        if self.row_of_cell.len() != board.cells() {
            self.row_of_cell = vec![u16::MAX; board.cells()];
        }
        let goals = board.goal_list.len();
        self.cost.clear();
        for (r, &b) in self.boxes.iter().enumerate() {
            self.row_of_cell[b as usize] = r as u16;
            let row = &board.distance_by_cell[b as usize * goals..][..n];
            self.cost
                .extend(row.iter().map(|&d| if d == FAR { INF } else { d as i64 }));
        }
        self.base_u.clone_from(&saved.u);
        self.base_v.clone_from(&saved.v);
        self.base_p.clone_from(&saved.p);
        self.base_col.clear();
        self.base_col.resize(n + 1, 0);
        for j in 1..=n {
            self.base_col[self.base_p[j]] = j;
        }
        self.base_total = saved.total;
        self.prepare_after_push(board, boxes, moved)
    }

    /// The bound after the box on `from` (of the prepared position) moved to `to`.
    pub fn after_push(&mut self, board: &Board, from: u16, to: u16) -> Option<u32> {
        let n = self.n;
        let r = self.row_of_cell[from as usize] as usize;
        debug_assert!(r < n && self.boxes[r] == from);
        if self.base_p.len() != n + 1 {
            // The prepared position was a dead end (no finite assignment): recompute.
            let mut boxes: Vec<u16> = self.boxes.clone();
            boxes[r] = to;
            return LowerBound::new().compute_list(board, &boxes);
        }
        self.saved_row.clear();
        self.saved_row
            .extend_from_slice(&self.cost[r * n..(r + 1) * n]);
        // The row's new dual; if the old goal still attains it, the old assignment stays
        // optimal (the other rows and all column duals are unchanged and feasible): O(n).
        let (new_u, all_far) = self.load_row(board, r, to);
        let row = r + 1;
        let old_col = self.base_col[row];
        let keeps = self.cost[r * n + old_col - 1] - self.base_v[old_col] == new_u;
        let result = if all_far {
            None
        } else if keeps {
            let total =
                self.base_total - self.saved_row[old_col - 1] + self.cost[r * n + old_col - 1];
            (total < INF).then_some(total as u32)
        } else {
            self.u.clone_from(&self.base_u);
            self.v.clone_from(&self.base_v);
            self.p.clone_from(&self.base_p);
            self.p[old_col] = 0;
            self.u[row] = new_u;
            self.augment(row, n);
            let total = self.matched_total(n);
            (total < INF).then_some(total as u32)
        };
        self.cost[r * n..(r + 1) * n].copy_from_slice(&self.saved_row);
        result
    }

    /// Write row `r` of the cost matrix for a box on `to`; returns the row's least reduced
    /// cost against the prepared column duals (its new dual) and whether no goal is in reach.
    fn load_row(&mut self, board: &Board, r: usize, to: u16) -> (i64, bool) {
        let n = self.n;
        let goals = board.goal_list.len();
        let distances = &board.distance_by_cell[to as usize * goals..][..n];
        let mut all_far = true;
        for (cost, &d) in self.cost[r * n..(r + 1) * n].iter_mut().zip(distances) {
            *cost = if d == FAR { INF } else { d as i64 };
            all_far &= d == FAR;
        }
        let new_u = (1..=n)
            .map(|j| self.cost[r * n + j - 1] - self.base_v[j])
            .min()
            .unwrap_or(0);
        (new_u, all_far)
    }

    /// [`LowerBound::compute`] on a list of box cells.
    fn compute_list(&mut self, board: &Board, boxes: &[u16]) -> Option<u32> {
        let mut set = CellSet::new(board.cells());
        for &b in boxes {
            set.insert(b);
        }
        self.compute(board, &set)
    }

    /// Minimum-cost assignment of rows to columns of the `n × n` matrix `self.cost`
    /// (potentials and augmenting paths, 1-based internally).
    fn hungarian(&mut self, n: usize) -> i64 {
        if n == 0 {
            return 0;
        }
        // Quick exit: a row with only impossible entries.
        for i in 0..n {
            if self.cost[i * n..(i + 1) * n].iter().all(|&c| c >= INF) {
                self.p.clear();
                return INF;
            }
        }
        self.u.clear();
        self.u.resize(n + 1, 0);
        self.v.clear();
        self.v.resize(n + 1, 0);
        self.p.clear();
        self.p.resize(n + 1, 0);
        // Start from feasible duals (row minima, then column minima of the reduced costs) and
        // a greedy matching on the tight pairs; only the rows left unmatched need an
        // augmenting path (most rows of a Sokoban position are matched here: with this start
        // 40,000 expansions of weighted A* on Microban 153 ran about 40 % fewer instructions,
        // counted with callgrind; docs/benchmarks/sokoban.md).
        for i in 1..=n {
            let row = &self.cost[(i - 1) * n..i * n];
            self.u[i] = row.iter().copied().min().unwrap_or(0);
        }
        for j in 1..=n {
            self.v[j] = (1..=n)
                .map(|i| self.cost[(i - 1) * n + (j - 1)] - self.u[i])
                .min()
                .unwrap_or(0);
        }
        self.used.clear();
        self.used.resize(n + 1, false); // rows matched by the greedy pass
        for i in 1..=n {
            for j in 1..=n {
                if self.p[j] == 0 && self.cost[(i - 1) * n + (j - 1)] - self.u[i] == self.v[j] {
                    self.p[j] = i;
                    self.used[i] = true;
                    break;
                }
            }
        }
        // Listed first: `augment` reuses `used` as its own scratch.
        let mut unmatched = std::mem::take(&mut self.unmatched);
        unmatched.clear();
        unmatched.extend((1..=n).filter(|&i| !self.used[i]));
        for &i in &unmatched {
            self.augment(i, n);
        }
        self.unmatched = unmatched;
        self.matched_total(n)
    }

    /// Sum of the matched costs (INF if an impossible pair is matched).
    fn matched_total(&self, n: usize) -> i64 {
        let mut total = 0i64;
        for j in 1..=n {
            let c = self.cost[(self.p[j] - 1) * n + (j - 1)];
            if c >= INF {
                return INF;
            }
            total += c;
        }
        total
    }

    /// Match row `i` (1-based) by a shortest augmenting path, keeping the duals feasible.
    fn augment(&mut self, i: usize, n: usize) {
        self.way.clear();
        self.way.resize(n + 1, 0);
        self.p[0] = i;
        let mut j0 = 0usize;
        self.minv.clear();
        self.minv.resize(n + 1, i64::MAX);
        self.used.clear();
        self.used.resize(n + 1, false);
        loop {
            self.used[j0] = true;
            let i0 = self.p[j0];
            let mut delta = i64::MAX;
            let mut j1 = 0usize;
            for j in 1..=n {
                if !self.used[j] {
                    let cur = self.cost[(i0 - 1) * n + (j - 1)] - self.u[i0] - self.v[j];
                    if cur < self.minv[j] {
                        self.minv[j] = cur;
                        self.way[j] = j0;
                    }
                    if self.minv[j] < delta {
                        delta = self.minv[j];
                        j1 = j;
                    }
                }
            }
            for j in 0..=n {
                if self.used[j] {
                    self.u[self.p[j]] += delta;
                    self.v[j] -= delta;
                } else {
                    self.minv[j] -= delta;
                }
            }
            j0 = j1;
            if self.p[j0] == 0 {
                break;
            }
        }
        loop {
            let j1 = self.way[j0];
            self.p[j0] = self.p[j1];
            j0 = j1;
            if j0 == 0 {
                break;
            }
        }
    }
}

/// Sum over boxes of the distance to the nearest goal (a weaker, cheaper bound; `None` if a
/// box reaches no goal).
pub fn nearest_goal_bound(board: &Board, boxes: &CellSet) -> Option<u32> {
    let mut total = 0u32;
    for b in boxes.iter() {
        let d = board
            .goal_distance
            .iter()
            .map(|d| d[b as usize])
            .min()
            .unwrap_or(FAR);
        if d == FAR {
            return None;
        }
        total += d as u32;
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The cheapest assignment by trying every permutation (INF if every one uses an
    /// impossible pair).
    fn brute_force(cost: &[i64], n: usize) -> i64 {
        fn go(cost: &[i64], n: usize, row: usize, taken: &mut Vec<bool>) -> i64 {
            if row == n {
                return 0;
            }
            let mut best = INF;
            for j in 0..n {
                let c = cost[row * n + j];
                if !taken[j] && c < INF {
                    taken[j] = true;
                    best = best.min(c + go(cost, n, row + 1, taken));
                    taken[j] = false;
                }
            }
            best.min(INF)
        }
        go(cost, n, 0, &mut vec![false; n])
    }

    proptest! {
        /// The Hungarian method (with its greedy start) finds the cheapest assignment, and
        /// reports none when every assignment needs an impossible pair.
        #[test]
        fn hungarian_matches_brute_force(
            n in 1usize..7,
            entries in proptest::collection::vec(prop_oneof![4 => 0i64..12, 1 => Just(INF)], 36),
        ) {
            let cost: Vec<i64> = entries[..n * n].to_vec();
            let mut lb = LowerBound::new();
            lb.cost.clone_from(&cost);
            let got = lb.hungarian(n);
            let want = brute_force(&cost, n);
            prop_assert_eq!(got.min(INF), want);
        }
    }
}
