//! The SameGame board and rules (SPEC §C "Rules"; Czech thesis §3.1, Hungarian paper §1.1).
//!
//! Layout: columns stored bottom-up in one flat byte array with a guard: every column has one
//! always-empty cell above its top row, and an always-empty column stands on each side. So the
//! four neighbours of any stone are valid indices and "same colour" is a plain byte compare
//! (colour 0 = empty), with no bounds tests in the flood fill. Gravity keeps every column
//! contiguous from the bottom (`heights`), and column shifting keeps the non-empty columns
//! contiguous from the left (`columns`).
//!
//! Group enumeration is a flood fill with a visited bitset kept in a caller-owned
//! [`Scratch`], so neither enumeration nor a move allocates.

use crate::scoring::Scoring;
use puzzle_engine::{Game, HashedGame};
use std::cell::RefCell;
use std::fmt;

/// Largest supported board width and height.
pub const MAX_SIDE: usize = 128;
/// Largest supported number of colours.
pub const MAX_COLOURS: usize = 20;

/// A move: any stone of the group to remove, by column (0 = leftmost) and row counted from
/// the BOTTOM (0 = bottom row). [`Board::top_row`] converts to the top-based rows of the CLI.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// Column, 0 = leftmost.
    pub col: u8,
    /// Row from the bottom, 0 = bottom row.
    pub row: u8,
}

/// A removable group found by [`Board::find_groups`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Group {
    /// Internal index of its first stone in scan order (the canonical representative).
    pub cell: u16,
    /// Its colour (1-based).
    pub colour: u8,
    /// Number of stones (≥ 2).
    pub size: u16,
}

/// Reusable buffers for group enumeration and moves (own one per thread / search).
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    visited: Vec<u64>,
    stack: Vec<u16>,
    parent: Vec<u16>,
    size: Vec<u16>,
    /// Groups of the last [`Board::find_groups`] call.
    pub groups: Vec<Group>,
}

impl Scratch {
    /// Empty buffers (they grow to the board size on first use).
    pub fn new() -> Self {
        Scratch::default()
    }

    /// Make room for a board of `cells` internal cells. The visited bitset is all clear
    /// between operations: each operation clears what it marked.
    #[inline]
    fn reset(&mut self, cells: usize) {
        let words = cells.div_ceil(64);
        if self.visited.len() < words {
            self.visited.resize(words, 0);
        }
    }

    /// Clear the visited bits of internal cells `lo..=hi`.
    #[inline]
    fn clear_span(&mut self, lo: usize, hi: usize) {
        self.visited[lo >> 6..=hi >> 6].fill(0);
    }

    #[inline]
    fn test_and_set(&mut self, i: usize) -> bool {
        let w = &mut self.visited[i >> 6];
        let bit = 1u64 << (i & 63);
        let was = *w & bit != 0;
        *w |= bit;
        was
    }

    #[inline]
    fn is_set(&self, i: usize) -> bool {
        self.visited[i >> 6] & (1u64 << (i & 63)) != 0
    }
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::new());
}

/// A SameGame position: the stones, the points earned so far and the scoring convention.
///
/// ```
/// use puzzle_samegame::{Board, Move, Scoring};
/// use puzzle_engine::Game;
/// // Rows top first; colours are 1-based.
/// let mut b = Board::from_rows(&[vec![1, 2], vec![1, 2]], 2, Scoring::standard()).unwrap();
/// b.apply(Move { col: 0, row: 0 }); // the two 1s: (2 - 2)^2 = 0 points
/// b.apply(Move { col: 0, row: 1 }); // the 2s slid left
/// assert!(b.is_terminal() && b.is_cleared());
/// assert_eq!(b.score(), 1000.0);
/// ```
#[derive(Debug, PartialEq, Eq)]
pub struct Board {
    width: usize,
    height: usize,
    stride: usize,
    colours: usize,
    /// Non-empty columns (always the leftmost ones).
    columns: usize,
    stones: usize,
    cells: Vec<u8>,
    heights: Vec<u8>,
    counts: [u16; MAX_COLOURS + 1],
    points: i64,
    moves: u32,
    scoring: Scoring,
}

impl Clone for Board {
    fn clone(&self) -> Self {
        Board {
            cells: self.cells.clone(),
            heights: self.heights.clone(),
            ..*self
        }
    }

    /// Reuses this board's buffers: no allocation when the sizes match (MCTS iterations).
    fn clone_from(&mut self, source: &Self) {
        self.width = source.width;
        self.height = source.height;
        self.stride = source.stride;
        self.colours = source.colours;
        self.columns = source.columns;
        self.stones = source.stones;
        self.cells.clone_from(&source.cells);
        self.heights.clone_from(&source.heights);
        self.counts = source.counts;
        self.points = source.points;
        self.moves = source.moves;
        self.scoring = source.scoring;
    }
}

/// Why a grid cannot be a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// Width or height is 0 or above [`MAX_SIDE`].
    BadSize(usize, usize),
    /// Colour count is 0 or above [`MAX_COLOURS`].
    BadColours(usize),
    /// A row has another length than the first.
    Ragged {
        /// Row index, top first.
        row: usize,
        /// Its length.
        len: usize,
        /// The expected length.
        expected: usize,
    },
    /// A cell holds colour 0 or a colour above the colour count.
    BadCell {
        /// Row index, top first.
        row: usize,
        /// Column index.
        col: usize,
        /// The value.
        value: u8,
    },
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::BadSize(w, h) => write!(
                f,
                "a board of {w} columns × {h} rows is not supported (1 to {MAX_SIDE} each)"
            ),
            BoardError::BadColours(k) => {
                write!(f, "{k} colours is not supported (1 to {MAX_COLOURS})")
            }
            BoardError::Ragged { row, len, expected } => {
                write!(f, "row {} has {len} cells, expected {expected}", row + 1)
            }
            BoardError::BadCell { row, col, value } => write!(
                f,
                "row {} column {}: colour {value} is out of range",
                row + 1,
                col + 1
            ),
        }
    }
}

impl std::error::Error for BoardError {}

impl Board {
    /// A full board from rows (top row first) of 1-based colours `1..=colours`.
    pub fn from_rows(
        rows: &[Vec<u8>],
        colours: usize,
        scoring: Scoring,
    ) -> Result<Self, BoardError> {
        let height = rows.len();
        let width = rows.first().map_or(0, Vec::len);
        if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
            return Err(BoardError::BadSize(width, height));
        }
        if colours == 0 || colours > MAX_COLOURS {
            return Err(BoardError::BadColours(colours));
        }
        let stride = height + 1;
        let mut board = Board {
            width,
            height,
            stride,
            colours,
            columns: width,
            stones: width * height,
            cells: vec![0; (width + 2) * stride],
            heights: vec![height as u8; width],
            counts: [0; MAX_COLOURS + 1],
            points: 0,
            moves: 0,
            scoring,
        };
        for (r, row) in rows.iter().enumerate() {
            if row.len() != width {
                return Err(BoardError::Ragged {
                    row: r,
                    len: row.len(),
                    expected: width,
                });
            }
            for (c, &v) in row.iter().enumerate() {
                if v == 0 || v as usize > colours {
                    return Err(BoardError::BadCell {
                        row: r,
                        col: c,
                        value: v,
                    });
                }
                let i = board.index(c, height - 1 - r);
                board.cells[i] = v;
                board.counts[v as usize] += 1;
            }
        }
        Ok(board)
    }

    /// A board whose cells are drawn uniformly from `colours` colours (SPEC §C "Formats").
    pub fn random(
        width: usize,
        height: usize,
        colours: usize,
        seed: u64,
        scoring: Scoring,
    ) -> Result<Self, BoardError> {
        if colours == 0 || colours > MAX_COLOURS {
            return Err(BoardError::BadColours(colours));
        }
        if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
            return Err(BoardError::BadSize(width, height));
        }
        let mut rng = puzzle_engine::Rng::new(seed);
        let rows: Vec<Vec<u8>> = (0..height)
            .map(|_| (0..width).map(|_| 1 + rng.below(colours) as u8).collect())
            .collect();
        Board::from_rows(&rows, colours, scoring)
    }

    /// The same position under another scoring convention (points earned so far are kept).
    pub fn with_scoring(mut self, scoring: Scoring) -> Self {
        self.scoring = scoring;
        self
    }

    #[inline]
    fn index(&self, col: usize, row: usize) -> usize {
        (col + 1) * self.stride + row
    }

    /// Board width (columns at the start).
    pub fn width(&self) -> usize {
        self.width
    }
    /// Board height (rows at the start).
    pub fn height(&self) -> usize {
        self.height
    }
    /// Number of colours.
    pub fn colours(&self) -> usize {
        self.colours
    }
    /// Stones left.
    pub fn stones(&self) -> usize {
        self.stones
    }
    /// Non-empty columns (the leftmost ones).
    pub fn columns(&self) -> usize {
        self.columns
    }
    /// Stones of each colour left, indexed by colour (index 0 unused).
    pub fn counts(&self) -> &[u16] {
        &self.counts[..=self.colours]
    }
    /// Points earned by the groups removed so far (no end bonus or penalty).
    pub fn points(&self) -> i64 {
        self.points
    }
    /// Moves played.
    pub fn moves_played(&self) -> u32 {
        self.moves
    }
    /// The scoring convention.
    pub fn scoring(&self) -> Scoring {
        self.scoring
    }
    /// The board is empty.
    pub fn is_cleared(&self) -> bool {
        self.stones == 0
    }
    /// Height of column `col` (0 for a missing column).
    pub fn column_height(&self, col: usize) -> usize {
        self.heights.get(col).map_or(0, |&h| h as usize)
    }

    /// The colour at column `col`, row `row` from the bottom (0 = empty or outside).
    pub fn get(&self, col: usize, row: usize) -> u8 {
        if col >= self.width || row >= self.height {
            0
        } else {
            self.cells[self.index(col, row)]
        }
    }

    /// The rows, top first, as colours (0 = empty).
    pub fn rows(&self) -> Vec<Vec<u8>> {
        (0..self.height)
            .map(|r| {
                (0..self.width)
                    .map(|c| self.get(c, self.height - 1 - r))
                    .collect()
            })
            .collect()
    }

    /// The row counted from the top (as the CLI reports it) of a bottom-based move row.
    pub fn top_row(&self, row: usize) -> usize {
        self.height - 1 - row
    }

    /// The move naming the stone at `col`, top-based `row_from_top`.
    pub fn move_from_top(&self, col: usize, row_from_top: usize) -> Option<Move> {
        if col >= self.width || row_from_top >= self.height {
            return None;
        }
        Some(Move {
            col: col as u8,
            row: (self.height - 1 - row_from_top) as u8,
        })
    }

    /// The move naming internal cell `cell`.
    #[inline]
    pub fn move_of(&self, cell: u16) -> Move {
        let cell = cell as usize;
        Move {
            col: (cell / self.stride - 1) as u8,
            row: (cell % self.stride) as u8,
        }
    }

    /// Is there any removable group? (A scan for two equal neighbours, stopping at the first.)
    pub fn has_move(&self) -> bool {
        let s = self.stride;
        let cells = &self.cells;
        for c in 0..self.columns {
            let base = (c + 1) * s;
            let h = self.heights[c] as usize;
            for i in base..base + h {
                let v = cells[i];
                if cells[i + 1] == v || cells[i + s] == v {
                    return true;
                }
            }
        }
        false
    }

    /// Enumerate every removable group (≥ 2 stones) into `scratch.groups`, in scan order
    /// (columns left to right, each bottom-up; a group is named by its first stone in that
    /// order), and return how many there are. One pass of union-find over the stones, each
    /// compared with its lower and left neighbours (the earlier ones in scan order).
    pub fn find_groups(&self, scratch: &mut Scratch) -> usize {
        let len = self.cells.len();
        if scratch.parent.len() < len {
            scratch.parent.resize(len, 0);
            scratch.size.resize(len, 0);
        }
        scratch.groups.clear();
        let s = self.stride;
        let cells = &self.cells;
        let parent = &mut scratch.parent;
        let size = &mut scratch.size;
        #[inline]
        fn find(parent: &mut [u16], mut i: usize) -> usize {
            while parent[i] as usize != i {
                let p = parent[i] as usize;
                parent[i] = parent[p];
                i = p;
            }
            i
        }
        for c in 0..self.columns {
            let base = (c + 1) * s;
            let h = self.heights[c] as usize;
            for i in base..base + h {
                let v = cells[i];
                // Guards make both neighbours valid indices (empty = 0 never equals a stone).
                let below = cells[i - 1] == v;
                let left = cells[i - s] == v;
                let root = match (below, left) {
                    (false, false) => {
                        parent[i] = i as u16;
                        size[i] = 0;
                        i
                    }
                    (true, false) => find(parent, i - 1),
                    (false, true) => find(parent, i - s),
                    (true, true) => {
                        let a = find(parent, i - 1);
                        let b = find(parent, i - s);
                        let (keep, gone) = if a < b { (a, b) } else { (b, a) };
                        if keep != gone {
                            parent[gone] = keep as u16;
                            size[keep] += size[gone];
                        }
                        keep
                    }
                };
                parent[i] = root as u16;
                size[root] += 1;
            }
        }
        for c in 0..self.columns {
            let base = (c + 1) * s;
            for i in base..base + self.heights[c] as usize {
                if parent[i] as usize == i && size[i] >= 2 {
                    scratch.groups.push(Group {
                        cell: i as u16,
                        colour: cells[i],
                        size: size[i],
                    });
                }
            }
        }
        scratch.groups.len()
    }

    /// A random starting point for [`Board::scan`]: a random non-empty column and a random
    /// row in it.
    #[inline]
    pub fn random_start(&self, rng: &mut puzzle_engine::Rng) -> (usize, usize) {
        if self.columns == 0 {
            return (0, 0);
        }
        let c = rng.below(self.columns);
        (c, rng.below(self.heights[c] as usize))
    }

    /// Visit, in scan order (columns left to right, each bottom-up) starting at `(col, row)`
    /// and wrapping around, every stone that has a same-coloured neighbour (so belongs to a
    /// removable group), as `visit(internal cell, colour)`, until `visit` returns true.
    /// Returns whether it did. This is the thesis's "scan the board from a random point until
    /// a group is found" (§3.3.3): it costs only the stones scanned.
    #[inline]
    pub fn scan(&self, start: (usize, usize), mut visit: impl FnMut(usize, u8) -> bool) -> bool {
        let s = self.stride;
        let cells = &self.cells;
        let (c0, r0) = start;
        let cols = self.columns;
        if cols == 0 {
            return false;
        }
        let mut run = |c: usize, from: usize, to: usize| -> bool {
            let base = (c + 1) * s;
            for i in base + from..base + to {
                let v = cells[i];
                if (cells[i + 1] == v
                    || cells[i - 1] == v
                    || cells[i + s] == v
                    || cells[i - s] == v)
                    && visit(i, v)
                {
                    return true;
                }
            }
            false
        };
        let h0 = self.heights[c0] as usize;
        if run(c0, r0.min(h0), h0) {
            return true;
        }
        for j in 1..cols {
            let c = (c0 + j) % cols;
            if run(c, 0, self.heights[c] as usize) {
                return true;
            }
        }
        run(c0, 0, r0.min(h0))
    }

    /// The colour of internal cell `cell`.
    #[inline]
    pub fn colour_at(&self, cell: usize) -> u8 {
        self.cells[cell]
    }

    /// Flood the group of the stone at internal index `start`, marking its stones in
    /// `scratch.visited` (the caller clears them); returns its size and the lowest and
    /// highest internal index reached.
    #[inline]
    fn flood_span(&self, start: usize, scratch: &mut Scratch) -> (usize, usize, usize) {
        let s = self.stride;
        let cells = &self.cells;
        let v = cells[start];
        scratch.test_and_set(start);
        scratch.stack.clear();
        scratch.stack.push(start as u16);
        let (mut size, mut lo, mut hi) = (0, start, start);
        while let Some(i) = scratch.stack.pop() {
            size += 1;
            let i = i as usize;
            lo = lo.min(i);
            hi = hi.max(i);
            for j in [i + 1, i - 1, i + s, i - s] {
                if cells[j] == v && !scratch.test_and_set(j) {
                    scratch.stack.push(j as u16);
                }
            }
        }
        (size, lo, hi)
    }

    /// The internal index of a move's stone, if it names a stone with a same-coloured
    /// neighbour (a legal move).
    pub fn legal_cell(&self, mv: Move) -> Option<usize> {
        let (c, r) = (mv.col as usize, mv.row as usize);
        if c >= self.columns || r >= self.heights[c] as usize {
            return None;
        }
        let i = self.index(c, r);
        let v = self.cells[i];
        let s = self.stride;
        let cells = &self.cells;
        if cells[i + 1] == v || cells[i - 1] == v || cells[i + s] == v || cells[i - s] == v {
            Some(i)
        } else {
            None
        }
    }

    /// Size and colour of the group containing `mv` (None if the move is illegal).
    pub fn group_at(&self, mv: Move, scratch: &mut Scratch) -> Option<(usize, u8)> {
        let i = self.legal_cell(mv)?;
        scratch.reset(self.cells.len());
        let (size, lo, hi) = self.flood_span(i, scratch);
        scratch.clear_span(lo, hi);
        Some((size, self.cells[i]))
    }

    /// Remove the group containing internal cell `start` (which must have a same-coloured
    /// neighbour), apply gravity and column shifting, and score it. Returns the group size.
    pub fn remove_group(&mut self, start: usize, scratch: &mut Scratch) -> usize {
        scratch.reset(self.cells.len());
        let colour = self.cells[start];
        let (size, lo, hi) = self.flood_span(start, scratch);
        debug_assert!(size >= 2, "removing a lone stone");
        let s = self.stride;
        // Columns spanned (a connected group covers every column between its extremes);
        // padded columns → logical columns.
        let (first, last) = (lo / s - 1, hi / s - 1);
        let mut emptied = false;
        for c in first..=last {
            let base = (c + 1) * s;
            let h = self.heights[c] as usize;
            let mut w = base;
            for i in base..base + h {
                if !scratch.is_set(i) {
                    self.cells[w] = self.cells[i];
                    w += 1;
                }
            }
            let new_h = w - base;
            self.cells[w..base + h].fill(0);
            self.heights[c] = new_h as u8;
            emptied |= new_h == 0;
        }
        scratch.clear_span(lo, hi);
        if emptied {
            let mut dst = first;
            for c in first..self.columns {
                if self.heights[c] == 0 {
                    continue;
                }
                if dst != c {
                    let (from, to) = ((c + 1) * s, (dst + 1) * s);
                    self.cells.copy_within(from..from + s, to);
                    self.heights[dst] = self.heights[c];
                }
                dst += 1;
            }
            for c in dst..self.columns {
                let base = (c + 1) * s;
                self.cells[base..base + s].fill(0);
                self.heights[c] = 0;
            }
            self.columns = dst;
        }
        self.counts[colour as usize] -= size as u16;
        self.stones -= size;
        self.points += self.scoring.group_points(size);
        self.moves += 1;
        size
    }

    /// Play a move, checking it. Returns the group size, or None (board unchanged) if illegal.
    pub fn try_play(&mut self, mv: Move, scratch: &mut Scratch) -> Option<usize> {
        let i = self.legal_cell(mv)?;
        Some(self.remove_group(i, scratch))
    }

    /// The final score if the game ended here: points plus the clear bonus or minus the
    /// penalty (SPEC §C "Scoring").
    pub fn final_score(&self) -> i64 {
        self.points + self.scoring.end_adjustment(self.counts())
    }

    /// An upper bound on the final score reachable from here (SPEC §C "Baselines"): as if all
    /// stones of each colour were removed at once (`(a−2)² + (b−2)² ≤ (a+b−2)²`, likewise for
    /// `(n−1)²`), plus the clear bonus unless some colour has a single stone left (then the
    /// board can never be cleared). Exact at a terminal state.
    pub fn upper_bound(&self) -> i64 {
        if !self.has_move() {
            return self.final_score();
        }
        let mut bound = self.points;
        let mut clearable = true;
        for &m in self.counts().iter().skip(1) {
            if m >= 2 {
                bound += self.scoring.group_points(m as usize);
            } else if m == 1 {
                clearable = false;
            }
        }
        if clearable {
            bound += self.scoring.clear_bonus.max(0);
        }
        bound
    }

    /// A Zobrist hash of the stones (SPEC §C "Rules"): the XOR of one pseudo-random key per
    /// (cell, colour), the keys given by a fixed mixing function instead of a stored table.
    pub fn zobrist(&self) -> u64 {
        let mut h = 0u64;
        for c in 0..self.columns {
            let base = self.index(c, 0);
            for i in base..base + self.heights[c] as usize {
                h ^= zobrist_key(i, self.cells[i]);
            }
        }
        h
    }

    /// A code for NRPA (SPEC issue 5): the group's colour and the set of its cells.
    pub fn group_code(&self, mv: Move, scratch: &mut Scratch) -> u64 {
        let Some(start) = self.legal_cell(mv) else {
            return 0;
        };
        scratch.reset(self.cells.len());
        let colour = self.cells[start];
        let (_, lo, hi) = self.flood_span(start, scratch);
        let mut code = zobrist_key(0, colour);
        for (w, &word) in scratch
            .visited
            .iter()
            .enumerate()
            .take((hi >> 6) + 1)
            .skip(lo >> 6)
        {
            let mut bits = word;
            while bits != 0 {
                let i = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                code ^= zobrist_key(i, colour).rotate_left(17);
            }
        }
        scratch.clear_span(lo, hi);
        code
    }
}

/// The Zobrist key of colour `colour` on internal cell `cell` (SplitMix64 finalizer).
#[inline]
fn zobrist_key(cell: usize, colour: u8) -> u64 {
    let mut z = ((cell as u64) << 5 | colour as u64).wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Game for Board {
    type Action = Move;

    fn legal_actions(&self, out: &mut Vec<Move>) {
        out.clear();
        SCRATCH.with(|s| {
            let mut s = s.borrow_mut();
            self.find_groups(&mut s);
            out.extend(s.groups.iter().map(|g| self.move_of(g.cell)));
        });
    }

    fn apply(&mut self, action: Move) {
        let i = self
            .legal_cell(action)
            .unwrap_or_else(|| panic!("illegal SameGame move {action:?}"));
        SCRATCH.with(|s| {
            self.remove_group(i, &mut s.borrow_mut());
        });
    }

    fn is_terminal(&self) -> bool {
        !self.has_move()
    }

    fn score(&self) -> f64 {
        if self.has_move() {
            self.points as f64
        } else {
            self.final_score() as f64
        }
    }

    fn action_code(&self, action: Move) -> u64 {
        SCRATCH.with(|s| self.group_code(action, &mut s.borrow_mut()))
    }
}

impl HashedGame for Board {
    fn state_hash(&self) -> u64 {
        self.zobrist()
    }
}

impl fmt::Display for Board {
    /// The rows top first, colours as the standard letters (`.` = empty).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in self.rows() {
            let line: String = row
                .iter()
                .map(|&v| crate::format::colour_letter(v))
                .collect();
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}
