//! The rules: building a board, its cells and colour planes, the accessors, a move's cell,
//! the end of the game and its score, the hash, and the engine's traits.

use super::layout::{self, COLUMNS, SLICE_WORDS};
use super::types::{
    colour_letter, BoardError, GroupCache, Move, Scratch, MAX_COLOURS, MAX_SIDE, SCRATCH,
};
use super::Board;
use crate::scoring::Scoring;
use puzzle_engine::{Game, HashedGame};
use std::fmt;

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
        let stride = (height + 1).next_power_of_two();
        let words = (width * stride).div_ceil(64);
        let nslices = (usize::BITS - colours.leading_zeros()) as usize;
        let small = layout::fits(words, stride);
        let (slice_words, height_cells) = if small {
            (SLICE_WORDS, COLUMNS)
        } else {
            (nslices * (words + 1) + 1, width)
        };
        let mut heights = vec![height as u8; width];
        heights.resize(height_cells, 0);
        let mut board = Board {
            width,
            height,
            stride,
            stride_log: stride.trailing_zeros(),
            lane_words: stride / 64,
            lane_bits: (stride % 64) as u32,
            words,
            colours,
            nslices,
            columns: width,
            stones: width * height,
            live: 0,
            slices: vec![0; slice_words],
            marks: vec![0; words + 1],
            heights,
            counts: [0; MAX_COLOURS + 1],
            points: 0,
            moves: 0,
            scoring,
            small,
            cache: GroupCache::default(),
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
                for k in 0..nslices {
                    if v >> k & 1 != 0 {
                        let base = board.plane_base(k);
                        board.slices[base + (i >> 6)] |= 1 << (i & 63);
                    }
                }
                board.counts[v as usize] += 1;
            }
        }
        board.update_marks(0, words);
        board.live = (1..=colours)
            .filter(|&k| board.counts[k] >= 2)
            .fold(0, |set, k| set | 1 << k);
        Ok(board)
    }

    /// A board whose cells are drawn uniformly from `colours` colours (see
    /// `docs/METHODS.md#samegame-formats`).
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
    pub(super) fn index(&self, col: usize, row: usize) -> usize {
        (col << self.stride_log) + row
    }

    /// Words holding the non-empty columns (the others are zero in every plane).
    #[inline(always)]
    pub(super) fn used_words(&self) -> usize {
        (self.columns * self.stride).div_ceil(64)
    }

    /// Index in `slices` of word 0 of slice `k` (bit `k` of the colours).
    #[inline(always)]
    pub(super) fn plane_base(&self, k: usize) -> usize {
        1 + k * (self.words + 1)
    }

    /// Word `j − 1` of the plane of colour `colour` (1-based): `j` counts from the zero word
    /// before the slices, so `j = 0` and `j = words + 1` give 0.
    #[inline(always)]
    fn colour_word_at(&self, colour: u8, j: usize) -> u64 {
        with_slices!(self.colour_word_at_s(colour, j))
    }

    /// [`Board::colour_word_at`] with `S` slices.
    #[inline(always)]
    fn colour_word_at_s<const S: usize>(&self, colour: u8, j: usize) -> u64 {
        let mut m = !0;
        let mut at = j;
        for k in 0..S {
            // A set bit of the colour takes the slice, a clear one its complement.
            m &= self.slices[at] ^ ((colour >> k & 1) as u64).wrapping_sub(1);
            at += self.words + 1;
        }
        m
    }

    /// Word `i` of the plane of colour `colour` (1-based).
    #[inline(always)]
    pub(super) fn colour_word(&self, colour: u8, i: usize) -> u64 {
        self.colour_word_at(colour, i + 1)
    }

    /// [`Board::colour_word`] with `S` slices.
    #[inline(always)]
    pub(super) fn colour_word_s<const S: usize>(&self, colour: u8, i: usize) -> u64 {
        self.colour_word_at_s::<S>(colour, i + 1)
    }

    /// The colour of internal cell `cell` (0 = empty).
    #[inline]
    pub fn colour_at(&self, cell: usize) -> u8 {
        let (w, b) = (cell >> 6, (cell & 63) as u32);
        if w >= self.words {
            return 0;
        }
        with_slices!(self.colour_at_s(w, b))
    }

    /// The colour of bit `b` of word `w` (below `words`) with `S` slices.
    #[inline(always)]
    pub(super) fn colour_at_s<const S: usize>(&self, w: usize, b: u32) -> u8 {
        let mut colour = 0;
        let mut j = self.plane_base(0) + w;
        for k in 0..S {
            colour |= ((self.slices[j] >> b) as u8 & 1) << k;
            j += self.words + 1;
        }
        colour
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
    #[inline]
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
            self.colour_at(self.index(col, row))
        }
    }

    /// The colours of column `col` from the bottom up into `out` (as many as fit), 0 above the
    /// column's top; returns the column's height. One pass over the column, for views that
    /// redraw whole columns (the Python environments' observations).
    pub fn column_colours(&self, col: usize, out: &mut [u8]) -> usize {
        let height = self.column_height(col);
        let filled = height.min(out.len());
        if filled > 0 {
            with_slices!(self.column_colours_s(col, &mut out[..filled]));
        }
        out[filled..].fill(0);
        height
    }

    /// [`Board::column_colours`] with `S` slices, for the `out.len()` lowest stones.
    fn column_colours_s<const S: usize>(&self, col: usize, out: &mut [u8]) {
        let base = self.index(col, 0);
        for (row, slot) in out.iter_mut().enumerate() {
            let cell = base + row;
            *slot = self.colour_at_s::<S>(cell >> 6, (cell & 63) as u32);
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
            col: (cell >> self.stride_log) as u8,
            row: (cell & (self.stride - 1)) as u8,
        }
    }

    /// The colours (bit `k` = colour `k`) that still have at least two stones: only they can
    /// form groups.
    #[inline]
    pub fn live_colours(&self) -> u32 {
        self.live
    }

    /// Is there any removable group?
    pub fn has_move(&self) -> bool {
        let set = self.live_colours();
        (0..self.used_words()).any(|i| self.group_word_of(set, i) != 0)
    }

    /// The internal index of a move's stone, if it names a stone with a same-coloured
    /// neighbour (a legal move).
    pub fn legal_cell(&self, mv: Move) -> Option<usize> {
        let (c, r) = (mv.col as usize, mv.row as usize);
        if c >= self.columns || r >= self.heights[c] as usize {
            return None;
        }
        let i = self.index(c, r);
        let v = self.colour_at(i);
        (self.group_word(v, i >> 6) & (1 << (i & 63)) != 0).then_some(i)
    }

    /// Play a move, checking it. Returns the group size, or None (board unchanged) if illegal.
    pub fn try_play(&mut self, mv: Move, scratch: &mut Scratch) -> Option<usize> {
        let i = self.legal_cell(mv)?;
        Some(self.remove_group(i, scratch))
    }

    /// The final score if the game ended here: points plus the clear bonus or minus the
    /// penalty (see `docs/METHODS.md#samegame-scoring`).
    pub fn final_score(&self) -> i64 {
        self.points + self.scoring.end_adjustment(self.counts())
    }

    /// An upper bound on the final score reachable from here (see
    /// `docs/METHODS.md#samegame-bounded`): as if all
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

    /// A Zobrist hash of the stones (see `docs/METHODS.md#samegame-rules`): the XOR of one
    /// pseudo-random key per (cell, colour), the keys given by a fixed mixing function instead of a
    /// stored table.
    pub fn zobrist(&self) -> u64 {
        let mut h = 0u64;
        for k in 0..self.colours {
            for i in 0..self.words {
                let mut bits = self.colour_word(k as u8 + 1, i);
                while bits != 0 {
                    h ^= zobrist_key(i * 64 + bits.trailing_zeros() as usize, k as u8 + 1);
                    bits &= bits - 1;
                }
            }
        }
        h
    }
}

/// The Zobrist key of colour `colour` on internal cell `cell` (SplitMix64 finalizer).
#[inline]
pub(super) fn zobrist_key(cell: usize, colour: u8) -> u64 {
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

    fn legal_actions_coded(&self, actions: &mut Vec<Move>, codes: &mut Vec<u64>) {
        actions.clear();
        SCRATCH.with(|s| {
            let mut s = s.borrow_mut();
            self.find_groups_coded(&mut s, codes);
            actions.extend(s.groups.iter().map(|g| self.move_of(g.cell)));
        });
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
            let line: String = row.iter().map(|&v| colour_letter(v)).collect();
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}
