//! The static part of a level, compiled once for search (see `docs/METHODS.md#sokoban-formats`):
//! the playable cells renumbered compactly, a neighbour table, goals, dead squares (see
//! `docs/METHODS.md#sokoban-dead-squares`, by pull-reachability from the goals), push distances
//! that respect walls, and Zobrist keys.

use crate::dir::Dir;
use crate::level::Level;
use puzzle_engine::Rng;

/// Half-width of the square window around a pushed box searched by the closed-diagonal
/// deadlock test (2 → a 5×5 window).
pub const WINDOW: usize = 2;

/// "No cell" in the compact numbering (a wall or off the board).
pub const NONE: u16 = u16::MAX;

/// "Unreachable" push distance.
pub const FAR: u16 = u16::MAX;

/// The most playable cells a level may have (cell numbers are `u16`).
pub const MAX_CELLS: usize = 4096;

/// Whether two bitsets' words are equal, compared word by word in line: the sets of one search
/// are a few words long, and a call to the C library's `memcmp` (what `==` on slices becomes)
/// costs more than the comparison.
#[inline(always)]
pub fn same_words(a: &[u64], b: &[u64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

/// A compact bitset over cells.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct CellSet {
    words: Vec<u64>,
}

impl CellSet {
    /// An empty set able to hold `cells` cells.
    pub fn new(cells: usize) -> Self {
        CellSet {
            words: vec![0; cells.div_ceil(64)],
        }
    }
    /// Is `c` in the set?
    #[inline]
    pub fn contains(&self, c: u16) -> bool {
        self.words[c as usize >> 6] >> (c & 63) & 1 != 0
    }
    /// Add `c`.
    #[inline]
    pub fn insert(&mut self, c: u16) {
        self.words[c as usize >> 6] |= 1 << (c & 63);
    }
    /// Remove `c`.
    #[inline]
    pub fn remove(&mut self, c: u16) {
        self.words[c as usize >> 6] &= !(1 << (c & 63));
    }
    /// Remove everything.
    pub fn clear(&mut self) {
        self.words.iter_mut().for_each(|w| *w = 0);
    }
    /// The raw words (bit `c & 63` of word `c >> 6`).
    pub fn words(&self) -> &[u64] {
        &self.words
    }
    /// Add every cell of `other` (a set of the same size).
    #[inline]
    pub fn union_with(&mut self, other: &CellSet) {
        for (w, o) in self.words.iter_mut().zip(&other.words) {
            *w |= o;
        }
    }
    /// Overwrite from raw words of the same length.
    pub fn set_words(&mut self, words: &[u64]) {
        self.words.copy_from_slice(words);
    }
    /// Number of cells in the set.
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }
    /// The set is empty.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }
    /// The cells in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = u16> + '_ {
        cells_of(&self.words)
    }
}

/// The cells of a cell set given as its raw words ([`CellSet::words`]), in increasing order.
pub(crate) fn cells_of(words: &[u64]) -> impl Iterator<Item = u16> + '_ {
    words.iter().enumerate().flat_map(|(i, &w)| {
        let mut w = w;
        std::iter::from_fn(move || {
            if w == 0 {
                return None;
            }
            let b = w.trailing_zeros();
            w &= w - 1;
            Some((i * 64) as u16 + b as u16)
        })
    })
}

/// The compiled static board of a level.
#[derive(Clone, Debug)]
pub struct Board {
    /// Grid width of the level.
    pub width: usize,
    /// Grid height of the level.
    pub height: usize,
    /// Compact cell → grid index (`y * width + x`).
    pub grid_of: Vec<usize>,
    /// Grid index → compact cell, or [`NONE`].
    pub cell_of: Vec<u16>,
    /// `neighbors[c][d]`: the cell next to `c` in direction `d` (`Dir as usize`), or [`NONE`].
    pub neighbors: Vec<[u16; 4]>,
    /// `neighbors` with every [`NONE`] replaced by the cell itself: a flood that marks a cell
    /// before looking around it skips its own entries without a wall test.
    pub flood_neighbors: Vec<[u16; 4]>,
    /// The cells (compact numbers, walls left out) of the square window of half-width
    /// [`WINDOW`] around each cell, row by row: those of `c` are
    /// `window_cells[window_start[c]..window_start[c + 1]]` (the closed-diagonal deadlock
    /// test's window, [`crate::deadlock::closed_diagonal_deadlock`]).
    pub window_cells: Vec<u16>,
    /// Where each cell's window starts in `window_cells` (one more entry than cells).
    pub window_start: Vec<u32>,
    /// `ring[c]`: the 8 cells around `c` clockwise from up (up, up-right, right, down-right,
    /// down, down-left, left, up-left), [`NONE`] for walls.
    pub ring: Vec<[u16; 8]>,
    /// Goal cells.
    pub goals: CellSet,
    /// Goal cells as a list.
    pub goal_list: Vec<u16>,
    /// Dead squares: a box there can never reach any goal.
    pub dead: Vec<bool>,
    /// `goal_distance[g][c]`: pushes needed to bring a box from `c` to goal number `g` with no
    /// other box on the board ([`FAR`] if impossible). A lower bound for any position.
    pub goal_distance: Vec<Vec<u16>>,
    /// The same distances by cell: `distance_by_cell[c * goals + g]` (one contiguous row per
    /// cell, the layout the matching bound reads).
    pub distance_by_cell: Vec<u16>,
    /// Zobrist keys of a box on each cell.
    pub zobrist_box: Vec<u64>,
    /// Zobrist keys of the (normalized) player on each cell.
    pub zobrist_player: Vec<u64>,
    /// The start position's boxes.
    pub start_boxes: CellSet,
    /// The start position's player cell.
    pub start_player: u16,
    /// The player's area as bit rows: bit `x` of `floor_rows[y]` is set when grid cell
    /// `(x, y)` is a cell of the player's area (stranded cells left out), for the row flood
    /// of [`crate::position::Reach`]. Empty when the grid is wider than [`ROW_BITS`] or
    /// not less tall.
    pub floor_rows: Vec<u64>,
    /// `floor_rows` laid out as the row floods' padded rows (grid row `y` at index `y + 1`,
    /// zeros around it), so that a flood's free rows start as a copy of fixed size.
    pub(crate) floor_padded: Box<[u64; ROW_BITS + 2]>,
    /// The goals as bit rows, laid out as `floor_rows` (empty with it).
    pub goal_rows: Vec<u64>,
    /// The cells of the player's area that are not dead squares, as bit rows (empty with
    /// `floor_rows`).
    pub live_rows: Vec<u64>,
    /// Each cell's place in `floor_rows`: `y · ROW_BITS + x` (empty with `floor_rows`).
    pub place: std::sync::Arc<[u16]>,
    /// The cells of the player's area: cells `0..area_cells`; the stranded cells (a lone
    /// box or goal walled off from the player) are numbered after them.
    pub area_cells: usize,
}

/// The widest and tallest grid whose player area is kept as bit rows ([`Board::floor_rows`]).
pub const ROW_BITS: usize = 64;

/// Why a level cannot be compiled for search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// More playable cells than [`MAX_CELLS`].
    TooLarge(usize),
    /// The player is not on a playable cell, or a box is outside the playable area.
    Inconsistent(&'static str),
}

impl std::fmt::Display for BoardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BoardError::TooLarge(n) => {
                write!(
                    f,
                    "level too large: {n} playable cells (at most {MAX_CELLS})"
                )
            }
            BoardError::Inconsistent(why) => write!(f, "inconsistent level: {why}"),
        }
    }
}

impl std::error::Error for BoardError {}

impl Board {
    /// Compile a level. Boxes on goals walled off from the player are dropped (decoration).
    pub fn new(level: &Level) -> Result<Board, BoardError> {
        let (width, height) = (level.width, level.height);
        if level.player >= width * height || level.walls[level.player] {
            return Err(BoardError::Inconsistent(
                "the player is not on a floor cell",
            ));
        }
        let area = level.area();
        // A lone box or goal the player can never reach (a well-formed but unsolvable level)
        // gets a cell of its own with no neighbours: the box is on a dead square and the goal
        // can never be filled, so every search answers "unsolved". A box on a goal out there is
        // decoration and is dropped.
        let stranded: Vec<usize> = (0..width * height)
            .filter(|&i| !area[i] && level.boxes[i] != level.goals[i])
            .collect();
        let count = area.iter().filter(|&&a| a).count() + stranded.len();
        if count > MAX_CELLS {
            return Err(BoardError::TooLarge(count));
        }
        let mut grid_of = Vec::with_capacity(count);
        let mut cell_of = vec![NONE; width * height];
        for (i, &a) in area.iter().enumerate() {
            if a {
                cell_of[i] = grid_of.len() as u16;
                grid_of.push(i);
            }
        }
        // Neighbours and rings are read from the player's area only: seen from inside, a
        // stranded cell is a wall.
        let inside = cell_of.clone();
        for &i in &stranded {
            cell_of[i] = grid_of.len() as u16;
            grid_of.push(i);
        }
        let neighbors: Vec<[u16; 4]> = grid_of
            .iter()
            .map(|&i| {
                let mut n = [NONE; 4];
                if inside[i] == NONE {
                    return n;
                }
                for d in Dir::ALL {
                    if let Some(j) = d.step(i, width, height) {
                        n[d as usize] = inside[j];
                    }
                }
                n
            })
            .collect();
        let ring: Vec<[u16; 8]> = grid_of
            .iter()
            .map(|&i| {
                let (x, y) = ((i % width) as isize, (i / width) as isize);
                let offsets = [
                    (0, -1),
                    (1, -1),
                    (1, 0),
                    (1, 1),
                    (0, 1),
                    (-1, 1),
                    (-1, 0),
                    (-1, -1),
                ];
                offsets.map(|(dx, dy)| {
                    let (nx, ny) = (x + dx, y + dy);
                    if inside[i] == NONE
                        || nx < 0
                        || ny < 0
                        || nx as usize >= width
                        || ny as usize >= height
                    {
                        NONE
                    } else {
                        inside[ny as usize * width + nx as usize]
                    }
                })
            })
            .collect();
        let mut goals = CellSet::new(count);
        let mut start_boxes = CellSet::new(count);
        for (c, &i) in grid_of.iter().enumerate() {
            if level.goals[i] {
                goals.insert(c as u16);
            }
            if level.boxes[i] {
                start_boxes.insert(c as u16);
            }
        }
        if goals.len() != start_boxes.len() {
            return Err(BoardError::Inconsistent(
                "boxes and goals in the playable area differ in number",
            ));
        }
        let goal_list: Vec<u16> = goals.iter().collect();
        let goal_distance: Vec<Vec<u16>> = goal_list
            .iter()
            .map(|&g| pull_distances(&neighbors, g))
            .collect();
        let dead: Vec<bool> = (0..count)
            .map(|c| goal_distance.iter().all(|d| d[c] == FAR))
            .collect();
        let distance_by_cell = (0..count)
            .flat_map(|c| goal_distance.iter().map(move |d| d[c]))
            .collect();
        let mut rng = Rng::new(0x5eed_50c0_ba17 ^ count as u64);
        let zobrist_box = (0..count).map(|_| rng.next_u64()).collect();
        let zobrist_player = (0..count).map(|_| rng.next_u64()).collect();
        let mut window_cells = Vec::new();
        let mut window_start = Vec::with_capacity(grid_of.len() + 1);
        for &i in &grid_of {
            window_start.push(window_cells.len() as u32);
            let (cx, cy) = (i % width, i / width);
            for y in cy.saturating_sub(WINDOW)..(cy + WINDOW + 1).min(height) {
                for x in cx.saturating_sub(WINDOW)..(cx + WINDOW + 1).min(width) {
                    let c = cell_of[y * width + x];
                    if c != NONE {
                        window_cells.push(c);
                    }
                }
            }
        }
        window_start.push(window_cells.len() as u32);
        // Bit rows of grid cells (empty when the grid does not fit them).
        let fits = width <= ROW_BITS && height < ROW_BITS;
        let rows_of = |cells: &mut dyn Iterator<Item = usize>| {
            let mut rows = vec![0u64; if fits { height } else { 0 }];
            if fits {
                for i in cells {
                    rows[i / width] |= 1 << (i % width);
                }
            }
            rows
        };
        let area_grid = &grid_of[..grid_of.len() - stranded.len()];
        let floor_rows = rows_of(&mut area_grid.iter().copied());
        let goal_rows = rows_of(&mut goal_list.iter().map(|&g| grid_of[g as usize]));
        // The area's cells that are not dead squares.
        let live_rows = rows_of(
            &mut (0..area_grid.len())
                .filter(|&c| !dead[c])
                .map(|c| area_grid[c]),
        );
        let place: std::sync::Arc<[u16]> = if fits {
            let place: Vec<u16> = grid_of
                .iter()
                .map(|&i| ((i / width) * ROW_BITS + i % width) as u16)
                .collect();
            place.into()
        } else {
            Vec::new().into()
        };
        let mut floor_padded = Box::new([0; ROW_BITS + 2]);
        floor_padded[1..=floor_rows.len()].copy_from_slice(&floor_rows);
        Ok(Board {
            area_cells: grid_of.len() - stranded.len(),
            floor_rows,
            floor_padded,
            goal_rows,
            live_rows,
            place,
            window_cells,
            window_start,
            width,
            height,
            start_player: cell_of[level.player],
            grid_of,
            cell_of,
            flood_neighbors: neighbors
                .iter()
                .enumerate()
                .map(|(c, n)| n.map(|m| if m == NONE { c as u16 } else { m }))
                .collect(),
            neighbors,
            ring,
            goals,
            goal_list,
            dead,
            goal_distance,
            distance_by_cell,
            zobrist_box,
            zobrist_player,
            start_boxes,
        })
    }

    /// The cell at column `x` of padded bit row `y` (grid row `y − 1`; see
    /// [`Board::floor_rows`]).
    #[inline]
    pub(crate) fn cell_in_row(&self, y: usize, x: usize) -> u16 {
        self.cell_of[(y - 1) * self.width + x]
    }

    /// Number of playable cells.
    #[inline]
    pub fn cells(&self) -> usize {
        self.grid_of.len()
    }

    /// Number of boxes (= goals).
    #[inline]
    pub fn box_count(&self) -> usize {
        self.goal_list.len()
    }

    /// Breadth-first steps over the floor from the cells in `queue`, whose `dist` is set
    /// (every other cell's is `unset`): each cell reached gets one more than the cell it was
    /// reached from. `queue` ends holding every cell reached, in the order reached.
    pub fn spread_steps<T>(&self, queue: &mut Vec<u16>, dist: &mut [T], unset: T)
    where
        T: Copy + PartialEq + std::ops::Add<Output = T> + From<u8>,
    {
        let mut head = 0;
        while head < queue.len() {
            let c = queue[head];
            head += 1;
            for &m in &self.neighbors[c as usize] {
                if m != NONE && dist[m as usize] == unset {
                    dist[m as usize] = dist[c as usize] + T::from(1);
                    queue.push(m);
                }
            }
        }
    }

    /// The neighbour of `c` in direction `d`, or [`NONE`].
    #[inline]
    pub fn step(&self, c: u16, d: Dir) -> u16 {
        self.neighbors[c as usize][d as usize]
    }

    /// Is `c` a dead square?
    #[inline]
    pub fn is_dead(&self, c: u16) -> bool {
        self.dead[c as usize]
    }

    /// Is `c` a goal?
    #[inline]
    pub fn is_goal(&self, c: u16) -> bool {
        self.goals.contains(c)
    }

    /// The direction from cell `a` to its neighbour `b`.
    pub fn direction(&self, a: u16, b: u16) -> Option<Dir> {
        Dir::ALL.into_iter().find(|&d| self.step(a, d) == b)
    }

    /// The (column, row) of a compact cell.
    pub fn xy(&self, c: u16) -> (usize, usize) {
        let i = self.grid_of[c as usize];
        (i % self.width, i / self.width)
    }
}

/// Pull distances from goal `g`: a box at `c` can be pulled to `c + d` when `c + d` and
/// `c + 2d` are floor (the player stands there and backs off). The number of pulls is the
/// number of pushes from that cell to `g` on an otherwise empty board.
fn pull_distances(neighbors: &[[u16; 4]], g: u16) -> Vec<u16> {
    let mut dist = vec![FAR; neighbors.len()];
    let mut queue = std::collections::VecDeque::new();
    dist[g as usize] = 0;
    queue.push_back(g);
    while let Some(c) = queue.pop_front() {
        for (d, &to) in neighbors[c as usize].iter().enumerate() {
            if to == NONE {
                continue;
            }
            let player = neighbors[to as usize][d];
            if player == NONE || dist[to as usize] != FAR {
                continue;
            }
            dist[to as usize] = dist[c as usize] + 1;
            queue.push_back(to);
        }
    }
    dist
}
