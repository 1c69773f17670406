//! The SameGame board and rules (see `docs/METHODS.md#samegame-rules`;
//! Czech thesis §3.1, Hungarian paper §1.1).
//!
//! Layout: the colours are bit-sliced: the 1-based colour of each cell (0 = empty) is written
//! in binary across `slices = ⌈log2(colours + 1)⌉` bitboards, slice `k` holding bit `k` of
//! every cell's colour (3 slices for 5 colours), so gravity moves 3 words where one bitboard
//! ("plane") per colour would move 5, and "has a same-coloured neighbour" is found for all
//! colours at once (two cells hold the same colour when no slice differs). A colour's plane
//! is an AND of slices or their complements. Columns are stored bottom-up in lanes of
//! `stride` bits, `stride` being the power of two above the height, so a column never
//! straddles a word when `stride ≤ 64` (four columns per `u64` on 15×15 boards) and the top
//! bit of every lane is an always-empty guard row. Bit `col · stride + row` is the stone at
//! column `col`, row `row` from the bottom; that bit index is the "internal cell" of the API,
//! and increasing bit order is the scan order (columns left to right, each bottom-up).
//!
//! With that layout:
//! - a stone's neighbours are the bitboard shifted by 1 (up, down) and by `stride` (left,
//!   right); the guard row keeps vertical shifts from leaking into the next column, and
//!   "has a same-coloured neighbour" is "occupied and equal to a shifted copy in every
//!   slice", a few word operations per slice;
//! - a group is flooded by shifts and ANDs inside its colour's plane (plus a carry trick that
//!   fills a vertical run upwards in one addition);
//! - gravity removes the group's bits from each spanned column of every slice, one run of
//!   removed rows at a time (`x & low | (x >> end) << start`), and a column that empties is
//!   deleted by shifting the higher lanes down one lane.
//!
//! Enumeration finds groups without a per-cell scan: the lowest remaining group stone, its
//! flood, and its bits cleared, until none is left. Nothing allocates once a [`Scratch`]
//! has grown to the board size.

use crate::scoring::Scoring;
use puzzle_engine::{Game, HashedGame};
use std::cell::RefCell;
use std::fmt;

/// Largest supported board width and height.
pub const MAX_SIDE: usize = 128;
/// Largest supported number of colours.
pub const MAX_COLOURS: usize = 20;

/// The colour letters: colour `k` (1-based) is `PALETTE[k − 1]`. The first five are the
/// standard set's R G B Y V.
pub const PALETTE: &[u8; MAX_COLOURS] = b"RGBYVOCMPWKTLNSAZEFH";

/// The letter of colour `v` (`.` for empty).
pub fn colour_letter(v: u8) -> char {
    if v == 0 || v as usize > MAX_COLOURS {
        '.'
    } else {
        PALETTE[v as usize - 1] as char
    }
}

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
    /// The last flooded group (one word per plane word).
    group: Vec<u64>,
    /// Group stones still to enumerate / to sample from.
    stones: Vec<u64>,
    /// The number of bits of each word of `stones` after [`Board::mark_group_stones`] (empty
    /// once an enumeration has used `stones`).
    stone_counts: Vec<u32>,
    /// The colour planes of an enumeration, `words` words per colour.
    planes: Vec<u64>,
    /// Groups of the last [`Board::find_groups`] call.
    pub groups: Vec<Group>,
    /// The groups a refresh of [`GroupCache`] found again.
    cached: Vec<CachedGroup>,
}

/// The columns a move changed, `first..=last` (`last = usize::MAX`: every column from
/// `first` on, as when a column was deleted and the ones right of it moved).
#[derive(Clone, Copy, Debug)]
struct ChangedColumns {
    first: usize,
    last: usize,
}

/// A group kept by [`GroupCache`]: what [`Board::find_groups_coded`] gives for it, and the
/// column of its last stone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct CachedGroup {
    group: Group,
    code: u64,
    last_column: u16,
}

/// The groups of a position, kept up to date move by move for searches that enumerate every
/// group at every step (NRPA with the selective policy, `docs/METHODS.md#nrpa-selective`).
/// A move whose group starts in column `f` changes nothing left of column `f`, so the groups
/// that end left of column `f − 1` are kept as they are and only the group stones from
/// column `f − 1` on are flooded again. Off by default: then moves pay nothing for it.
#[derive(Clone, Debug, Default)]
struct GroupCache {
    on: bool,
    /// The colour whose groups are not kept (0: none).
    excluded: u8,
    /// The groups of the other colours, in scan order.
    groups: Vec<CachedGroup>,
}

impl Scratch {
    /// Empty buffers (they grow to the board size on first use).
    pub fn new() -> Self {
        Scratch::default()
    }
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::new());
}

/// `$self.$f::<S>(args)` with `S` the board's slice count as a constant, so the loops over
/// the slices unroll.
macro_rules! with_slices {
    // A second const parameter (a constant's name) after the slice count.
    ($self:ident . $f:ident :: < $mode:ident > ( $($arg:expr),* )) => {
        match $self.nslices {
            1 => $self.$f::<1, $mode>($($arg),*),
            2 => $self.$f::<2, $mode>($($arg),*),
            3 => $self.$f::<3, $mode>($($arg),*),
            4 => $self.$f::<4, $mode>($($arg),*),
            _ => $self.$f::<5, $mode>($($arg),*),
        }
    };
    ($self:ident . $f:ident ( $($arg:expr),* )) => {
        match $self.nslices {
            1 => $self.$f::<1>($($arg),*),
            2 => $self.$f::<2>($($arg),*),
            3 => $self.$f::<3>($($arg),*),
            4 => $self.$f::<4>($($arg),*),
            _ => $self.$f::<5>($($arg),*),
        }
    };
}

mod small;
#[cfg(target_arch = "x86_64")]
mod wide;

/// Bits `0..n` set (all for `n ≥ 64`).
#[inline]
fn low_mask(n: u32) -> u64 {
    debug_assert!(n <= 64);
    if n < 64 {
        (1 << n) - 1
    } else {
        !0
    }
}

/// Word `i` of the multi-word bitset of `len` words `m(0..len)` shifted towards higher bits
/// by `64·q + r`.
#[inline(always)]
fn shl_word(m: &impl Fn(usize) -> u64, i: usize, q: usize, r: u32) -> u64 {
    if i < q {
        return 0;
    }
    let j = i - q;
    if r == 0 {
        m(j)
    } else if j > 0 {
        (m(j) << r) | (m(j - 1) >> (64 - r))
    } else {
        m(j) << r
    }
}

/// Word `i` of the multi-word bitset of `len` words `m(0..len)` shifted towards lower bits
/// by `64·q + r`.
#[inline(always)]
fn shr_word(m: &impl Fn(usize) -> u64, len: usize, i: usize, q: usize, r: u32) -> u64 {
    let j = i + q;
    if j >= len {
        return 0;
    }
    if r == 0 {
        m(j)
    } else if j + 1 < len {
        (m(j) >> r) | (m(j + 1) << (64 - r))
    } else {
        m(j) >> r
    }
}

/// Word `i` of the cells next to a stone of the bitset of `len` words `m(0..len)` (up,
/// down, left, right; lanes of `64·q + r` bits).
#[inline(always)]
fn neighbours_word(m: &impl Fn(usize) -> u64, len: usize, i: usize, q: usize, r: u32) -> u64 {
    shl_word(m, i, 0, 1)
        | shr_word(m, len, i, 0, 1)
        | shl_word(m, i, q, r)
        | shr_word(m, len, i, q, r)
}

/// Bits `[pos, pos + 64)` of `words` (zero past the end).
#[inline]
fn extract64(words: &[u64], pos: usize) -> u64 {
    let (w, s) = (pos >> 6, (pos & 63) as u32);
    let lo = words.get(w).map_or(0, |&x| x >> s);
    let hi = if s == 0 {
        0
    } else {
        words.get(w + 1).map_or(0, |&x| x << (64 - s))
    };
    lo | hi
}

/// Delete bits `[pos, pos + len)` of `words`, moving every higher bit down by `len` (zeros
/// come in at the top).
fn delete_bits(words: &mut [u64], pos: usize, len: usize) {
    let i0 = pos >> 6;
    if i0 >= words.len() {
        return;
    }
    let o = (pos & 63) as u32;
    let first = (words[i0] & low_mask(o)) | (extract64(words, pos + len) << o);
    words[i0] = first;
    for i in i0 + 1..words.len() {
        words[i] = extract64(words, 64 * i + len);
    }
}

/// The first group stone (a set bit of `marks`, the words to scan) from internal cell `p`,
/// wrapping around, whose colour is in `set` (a non-empty set of the `live` colours), with
/// word `i` of colour slice `k` read as `slice_word(k, i)`: the scan of
/// [`Board::first_group_cell`] for any slice layout.
#[inline(always)]
fn first_group_cell_in<const S: usize>(
    live: u32,
    marks: &[u64],
    p: usize,
    set: u32,
    slice_word: impl Fn(usize, usize) -> u64,
) -> Option<usize> {
    // A colour's plane: each slice as it is where the colour has a bit, else complemented.
    let plane = |colour: u32, i: usize| {
        (0..S).fold(!0, |m, k| {
            m & (slice_word(k, i) ^ ((colour >> k & 1) as u64).wrapping_sub(1))
        })
    };
    // Only live colours have group stones: filter by the live colours out of `set`, or by
    // the one in it.
    let out = live & !set;
    let (filter, keep) = if out & out.wrapping_sub(1) != 0 && set & (set - 1) == 0 {
        (set, true)
    } else {
        (out, false)
    };
    let (w0, b0) = (p >> 6, (p & 63) as u32);
    let found = if filter == 0 {
        first_set_from(marks, w0, b0, |_, w| w)
    } else if filter & (filter - 1) == 0 {
        let colour = filter.trailing_zeros();
        let keep_mask = if keep { 0 } else { !0 };
        first_set_from(marks, w0, b0, |i, w| w & (plane(colour, i) ^ keep_mask))
    } else {
        first_set_from(marks, w0, b0, |i, w| {
            let mut f = filter;
            let mut m = 0;
            while f != 0 {
                m |= plane(f.trailing_zeros(), i);
                f &= f - 1;
            }
            if keep {
                w & m
            } else {
                w & !m
            }
        })
    };
    found.map(|(i, w)| i * 64 + w.trailing_zeros() as usize)
}

/// A run of removed stones, as gravity needs it: see [`take_top_run`].
struct Run {
    /// Stones in the run.
    len: u32,
    /// The first bit of the run's lane.
    lane_start: u32,
    /// The lane's bits from the run up.
    from: u64,
    /// The lane's bits above the run (they drop by `len`).
    above: u64,
}

/// Take the top run of set bits off `removed` (a word of removed stones whose runs stay
/// inside lanes of `lane_bits` bits below bit 63; `lane0` is the lowest lane's mask).
#[inline(always)]
fn take_top_run(removed: &mut u64, lane_bits: u32, lane0: u64) -> Run {
    let top = 63 - removed.leading_zeros();
    debug_assert!(top < 63);
    let end_bit = 2u64 << top;
    let below = !*removed & (end_bit - 1);
    let start = 64 - below.leading_zeros();
    let start_bit = 1u64 << start;
    *removed &= start_bit - 1;
    let lane_start = start & !(lane_bits - 1);
    let lane = lane0 << lane_start;
    Run {
        len: top + 1 - start,
        lane_start,
        from: lane & start_bit.wrapping_neg(),
        above: lane & end_bit.wrapping_neg(),
    }
}

/// Delete the lane of `s < 64` bits at bit `pos` (a multiple of `s`) of `words`, whose last
/// word is zero, moving the higher lanes down one lane.
#[inline]
fn delete_lane(words: &mut [u64], pos: usize, s: u32) {
    let (i0, o) = (pos >> 6, (pos & 63) as u32);
    let n = words.len() - 1;
    let w = words[i0];
    words[i0] =
        (w & low_mask(o)) | (w.checked_shr(o + s).unwrap_or(0) << o) | (words[i0 + 1] << (64 - s));
    for i in i0 + 1..n {
        words[i] = (words[i] >> s) | (words[i + 1] << (64 - s));
    }
}

/// The first word, with its index, of the words `marks` filtered by `filter(i, word i)`
/// (which must map 0 to 0) that is non-zero, in scan order from bit `b0` of word `w0`
/// wrapping around: word `w0` from bit `b0`, the words after it, the words before it, then
/// word `w0` below bit `b0`. Only the bits in that range are passed to `filter`, and it is
/// called at one place, so it inlines.
#[inline(always)]
fn first_set_from(
    marks: &[u64],
    w0: usize,
    b0: u32,
    filter: impl Fn(usize, u64) -> u64,
) -> Option<(usize, u64)> {
    let n = marks.len();
    let below = low_mask(b0);
    let (mut i, mut mask) = (w0, !below);
    for step in 0..=n {
        let w = marks[i] & mask;
        if w != 0 {
            let w = filter(i, w);
            if w != 0 {
                return Some((i, w));
            }
        }
        i += 1;
        if i == n {
            i = 0;
        }
        mask = if step + 1 == n { below } else { !0 };
    }
    None
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
#[derive(Debug)]
pub struct Board {
    width: usize,
    height: usize,
    /// Bits per column lane (a power of two above `height`).
    stride: usize,
    /// `log2(stride)`: cell → column is a shift, not a division.
    stride_log: u32,
    /// `stride` as whole words and remaining bits.
    lane_words: usize,
    lane_bits: u32,
    /// Words per bitboard (slice or colour plane).
    words: usize,
    colours: usize,
    /// Bit slices of the colours: `⌈log2(colours + 1)⌉`.
    nslices: usize,
    /// Non-empty columns (always the leftmost ones).
    columns: usize,
    stones: usize,
    /// The colours with at least two stones left (bit `k` = colour `k`): only they can
    /// still form groups.
    live: u32,
    /// `nslices` slices of `words` words each, slice `k` (bit `k` of the colours) at
    /// [`Board::plane_base`]`(k)`, with an always-zero word before, between and after them,
    /// so a word's neighbouring words can be read without bounds tests.
    slices: Vec<u64>,
    /// The group stones (stones with a same-coloured neighbour) of every colour, `words`
    /// words and a zero word after them, kept up to date by every move.
    marks: Vec<u64>,
    /// Column heights (padded with zeros to [`small::COLUMNS`] on a small board).
    heights: Vec<u8>,
    counts: [u16; MAX_COLOURS + 1],
    points: i64,
    moves: u32,
    scoring: Scoring,
    /// Four words of 16-bit lanes per slice: the paths of [`small`] (derived from the size).
    small: bool,
    /// Derived from the position; not part of its identity ([`PartialEq`] ignores it).
    cache: GroupCache,
}

impl PartialEq for Board {
    fn eq(&self, other: &Self) -> bool {
        fn position(b: &Board) -> impl PartialEq + '_ {
            (
                (
                    b.width, b.height, b.stride, b.colours, b.columns, b.stones, b.live,
                ),
                (&b.slices, &b.marks, &b.heights, b.counts, b.points, b.moves),
                b.scoring,
            )
        }
        position(self) == position(other)
    }
}

impl Eq for Board {}

impl Clone for Board {
    fn clone(&self) -> Self {
        Board {
            slices: self.slices.clone(),
            marks: self.marks.clone(),
            heights: self.heights.clone(),
            cache: self.cache.clone(),
            ..*self
        }
    }

    /// Reuses this board's buffers: no allocation when the sizes match (MCTS iterations).
    fn clone_from(&mut self, source: &Self) {
        self.width = source.width;
        self.height = source.height;
        self.stride = source.stride;
        self.stride_log = source.stride_log;
        self.lane_words = source.lane_words;
        self.lane_bits = source.lane_bits;
        self.words = source.words;
        self.colours = source.colours;
        self.nslices = source.nslices;
        self.small = source.small;
        self.columns = source.columns;
        self.stones = source.stones;
        self.live = source.live;
        self.slices.clone_from(&source.slices);
        self.marks.clone_from(&source.marks);
        self.heights.clone_from(&source.heights);
        self.counts = source.counts;
        self.points = source.points;
        self.moves = source.moves;
        self.scoring = source.scoring;
        self.cache.on = source.cache.on;
        self.cache.excluded = source.cache.excluded;
        self.cache.groups.clone_from(&source.cache.groups);
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
        let stride = (height + 1).next_power_of_two();
        let words = (width * stride).div_ceil(64);
        let nslices = (usize::BITS - colours.leading_zeros()) as usize;
        let small = small::fits(words, stride);
        let (slice_words, height_cells) = if small {
            (small::SLICE_WORDS, small::COLUMNS)
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
    fn index(&self, col: usize, row: usize) -> usize {
        (col << self.stride_log) + row
    }

    /// Words holding the non-empty columns (the others are zero in every plane).
    #[inline(always)]
    fn used_words(&self) -> usize {
        (self.columns * self.stride).div_ceil(64)
    }

    /// Index in `slices` of word 0 of slice `k` (bit `k` of the colours).
    #[inline(always)]
    fn plane_base(&self, k: usize) -> usize {
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
    fn colour_word(&self, colour: u8, i: usize) -> u64 {
        self.colour_word_at(colour, i + 1)
    }

    /// [`Board::colour_word`] with `S` slices.
    #[inline(always)]
    fn colour_word_s<const S: usize>(&self, colour: u8, i: usize) -> u64 {
        self.colour_word_at_s::<S>(colour, i + 1)
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

    /// Word `i` of the stones (of any colour) that have a same-coloured neighbour.
    #[inline(always)]
    fn group_word_all(&self, i: usize) -> u64 {
        self.marks[i]
    }

    /// Recompute words `a..b` of the group stones (`marks`) from the stones.
    fn update_marks(&mut self, a: usize, b: usize) {
        with_slices!(self.update_marks_s(a, b))
    }

    /// [`Board::update_marks`] with `S` slices.
    #[inline]
    fn update_marks_s<const S: usize>(&mut self, a: usize, b: usize) {
        if self.lane_words == 0 {
            return self.update_marks_lanes::<S, 0>(a, b);
        }
        for i in a..b {
            self.marks[i] = self.compute_marks_s::<S>(i);
        }
    }

    /// [`Board::update_marks`] with `S` slices on a board whose lanes lie inside words, lanes
    /// of `L` bits (`L = 0`: the board's `lane_bits`). The three words around word `i` of
    /// each slice are carried from one word to the next, so each word is read once.
    #[inline]
    fn update_marks_lanes<const S: usize, const L: u32>(&mut self, a: usize, b: usize) {
        debug_assert!(self.lane_words == 0 && (L == 0 || L == self.lane_bits));
        let r = if L == 0 { self.lane_bits } else { L };
        let n = self.words;
        if a >= b || b > n {
            debug_assert!(a >= b, "marks past the board");
            return;
        }
        let slices = &self.slices;
        let marks = &mut self.marks[a..b];
        // Slice `k` with its zero words on both sides: word `i` of the slice at `i + 1`.
        let slice = |k: usize| &slices[k * (n + 1)..(k + 1) * (n + 1) + 1];
        let (mut prev, mut cur) = ([0u64; S], [0u64; S]);
        for k in 0..S {
            let sl = slice(k);
            prev[k] = sl[a];
            cur[k] = sl[a + 1];
        }
        for (i, mark) in (a..).zip(marks.iter_mut()) {
            let (mut occ, mut dv, mut dl, mut dr) = (0u64, 0u64, 0u64, 0u64);
            for k in 0..S {
                let next = slice(k)[i + 2];
                let (p, x) = (prev[k], cur[k]);
                occ |= x;
                dv |= x ^ (x >> 1);
                dl |= x ^ ((x << r) | (p >> (64 - r)));
                dr |= x ^ ((x >> r) | (next << (64 - r)));
                prev[k] = x;
                cur[k] = next;
            }
            // Occupied and equal to the cell above, left or right; or to the cell below
            // (the cell below equal to its upper neighbour, moved up one row).
            *mark = (occ & !(dv & dl & dr)) | ((occ & !dv) << 1);
        }
    }

    /// Word `i` of the stones (of any colour) that have a same-coloured neighbour, from the
    /// stones, with `S` slices.
    #[inline(always)]
    fn compute_marks_s<const S: usize>(&self, i: usize) -> u64 {
        if self.lane_words == 0 {
            // Lanes inside words: a vertical neighbour never crosses a word (bit 63 and the
            // bit a carry would bring in are guard rows), a horizontal one comes from the
            // neighbouring word (the zero word around each slice at its ends). Two occupied
            // cells hold the same colour when no slice differs between them.
            let r = self.lane_bits;
            let (mut occ, mut dv, mut dl, mut dr) = (0u64, 0u64, 0u64, 0u64);
            let mut j = 1 + i;
            for _ in 0..S {
                let [prev, x, next] = self.slices[j - 1..j + 2] else {
                    unreachable!("a three-word window")
                };
                occ |= x;
                dv |= x ^ (x >> 1);
                dl |= x ^ ((x << r) | (prev >> (64 - r)));
                dr |= x ^ ((x >> r) | (next << (64 - r)));
                j += self.words + 1;
            }
            // Occupied and equal to the cell above, left or right; or to the cell below
            // (the cell below equal to its upper neighbour, moved up one row).
            (occ & !(dv & dl & dr)) | ((occ & !dv) << 1)
        } else {
            let mut w = 0;
            for k in 1..=self.colours as u8 {
                let m = |j| self.colour_word_s::<S>(k, j);
                w |= m(i) & neighbours_word(&m, self.words, i, self.lane_words, self.lane_bits);
            }
            w
        }
    }

    /// Word `i` of the stones of colour `colour` that have a same-coloured neighbour.
    #[inline(always)]
    fn group_word(&self, colour: u8, i: usize) -> u64 {
        self.marks[i] & self.colour_word(colour, i)
    }

    /// Word `i` of the group stones (stones with a same-coloured neighbour) of the colours
    /// in `set` (bit `k` = colour `k`).
    #[inline]
    fn group_word_of(&self, set: u32, i: usize) -> u64 {
        let live = self.live;
        let set = set & live;
        if set == 0 {
            return 0;
        }
        // Only live colours have group stones: filter by the fewer of the colours in or out.
        let out = live & !set;
        let all = self.group_word_all(i);
        if all == 0 || out == 0 {
            return all;
        }
        if out & (out - 1) != 0 && set & (set - 1) == 0 {
            all & self.colours_word(set, i)
        } else {
            all & !self.colours_word(out, i)
        }
    }

    /// Word `i` of the stones of the colours in `set` (bit `k` = colour `k`).
    #[inline(always)]
    fn colours_word(&self, set: u32, i: usize) -> u64 {
        let mut set = set;
        let mut w = 0;
        while set != 0 {
            let k = set.trailing_zeros() as u8;
            set &= set - 1;
            w |= self.colour_word(k, i);
        }
        w
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

    /// Flood the group of colour `colour` containing internal cell `start` into `g` (see
    /// [`Board::flood_in`]).
    #[inline]
    fn flood(&self, colour: u8, start: usize, g: &mut Vec<u64>) -> (usize, usize) {
        with_slices!(self.flood_s(colour, start, g))
    }

    /// [`Board::flood`] with `S` slices.
    #[inline]
    fn flood_s<const S: usize>(
        &self,
        colour: u8,
        start: usize,
        g: &mut Vec<u64>,
    ) -> (usize, usize) {
        if self.lane_words == 0 {
            return if self.lane_bits == 16 {
                self.flood_lanes::<S, 16>(colour, start, g)
            } else {
                self.flood_lanes::<S, 0>(colour, start, g)
            };
        }
        self.flood_in::<0>(|i| self.colour_word_s::<S>(colour, i), start, g)
    }

    /// [`Board::flood`] with `S` slices on a board whose lanes lie inside words, lanes of `L`
    /// bits (`L = 0`: the board's `lane_bits`).
    #[inline(always)]
    fn flood_lanes<const S: usize, const L: u32>(
        &self,
        colour: u8,
        start: usize,
        g: &mut Vec<u64>,
    ) -> (usize, usize) {
        let n = self.words;
        // The colour plane: slice `k` taken as it is or complemented, by bit `k` of `colour`.
        let flip: [u64; S] = std::array::from_fn(|k| ((colour >> k & 1) as u64).wrapping_sub(1));
        let slices = &self.slices[1..];
        let m = |i: usize| {
            let mut w = !0;
            for k in 0..S {
                w &= slices[i + k * (n + 1)] ^ flip[k];
            }
            w
        };
        self.flood_in::<L>(m, start, g)
    }

    /// Flood the group containing internal cell `start` in the colour plane whose word `i`
    /// is `m(i)` (`i < words`) into `g` (`words + 2` words); returns the first and last word
    /// `lo..=hi` it touches. Word `i` of the group is at `g[i + 1]` for `i` in `lo..=hi`;
    /// the other words of `g` mean nothing (they may hold an earlier group's bits).
    ///
    /// `L`: the lane width when the lanes are known to lie inside words, else 0.
    #[inline(always)]
    fn flood_in<const L: u32>(
        &self,
        m: impl Fn(usize) -> u64,
        start: usize,
        g: &mut Vec<u64>,
    ) -> (usize, usize) {
        let n = self.words;
        if g.len() != n + 2 {
            g.clear();
            g.resize(n + 2, 0);
        }
        let w0 = start >> 6;
        let (mut lo, mut hi) = (w0, w0);
        // The add fills each vertical run upwards from its lowest reached stone: the carry
        // runs through the run and stops at the empty guard row at the latest, so it never
        // enters the next lane (and when a run crosses a word, the next round finishes it).
        if L != 0 || self.lane_words == 0 {
            // Lanes inside words (at most 64 words: width ≤ 128, lanes ≤ 32 bits). Close the
            // group inside one word at a time (shifts by 1 and by the lane), then pass the
            // stones of its first / last lane to the neighbouring word's last / first lane;
            // a word that receives new stones is closed again.
            debug_assert!(n <= 64);
            let r = if L == 0 { self.lane_bits } else { L };
            g[w0 + 1] = 1 << (start & 63);
            // The words reached so far: the others of `g` are stale, read as zero.
            let mut reached: u64 = 1 << w0;
            let mut dirty: u64 = 1 << w0;
            while dirty != 0 {
                let i = dirty.trailing_zeros() as usize;
                dirty &= dirty - 1;
                let x = m(i);
                let mut w = g[i + 1];
                loop {
                    let mut grown = (w | (w << 1) | (w >> 1) | (w << r) | (w >> r)) & x;
                    grown |= (x.wrapping_add(grown) ^ x) & x;
                    if grown == w {
                        break;
                    }
                    w = grown;
                }
                g[i + 1] = w;
                lo = lo.min(i);
                hi = hi.max(i);
                // The neighbouring word's plane is read only when the group reaches the
                // word's first / last lane.
                let (left, right) = (w << (64 - r), w >> (64 - r));
                if left != 0 && i > 0 {
                    let old = if reached >> (i - 1) & 1 != 0 { g[i] } else { 0 };
                    let seed = left & m(i - 1) & !old;
                    if seed != 0 {
                        g[i] = old | seed;
                        reached |= 1 << (i - 1);
                        dirty |= 1 << (i - 1);
                    }
                }
                if right != 0 && i + 1 < n {
                    let old = if reached >> (i + 1) & 1 != 0 {
                        g[i + 2]
                    } else {
                        0
                    };
                    let seed = right & m(i + 1) & !old;
                    if seed != 0 {
                        g[i + 2] = old | seed;
                        reached |= 1 << (i + 1);
                        dirty |= 1 << (i + 1);
                    }
                }
            }
        } else {
            // Lanes spanning words: passes over the words near the group, each growing it by
            // its neighbours (in place) until a pass changes nothing.
            let (q, r) = (self.lane_words, self.lane_bits);
            g.fill(0);
            g[w0 + 1] = 1 << (start & 63);
            let g = &mut g[1..=n];
            loop {
                let (a, b) = (lo.saturating_sub(q + 1), (hi + q + 1).min(n - 1));
                let mut changed = false;
                for i in a..=b {
                    let x = m(i);
                    let old = g[i];
                    let mut w = (old | neighbours_word(&|j| g[j], n, i, q, r)) & x;
                    w |= (x.wrapping_add(w) ^ x) & x;
                    if w != old {
                        g[i] = w;
                        changed = true;
                        lo = lo.min(i);
                        hi = hi.max(i);
                    }
                }
                if !changed {
                    break;
                }
            }
        }
        (lo, hi)
    }

    /// Size and colour of the group containing the stone at internal cell `cell`, flooded
    /// into `scratch` (0 and 0 for an empty cell).
    #[inline]
    fn flood_size(&self, cell: usize, scratch: &mut Scratch) -> (usize, u8) {
        if cell >> 6 >= self.words {
            return (0, 0);
        }
        with_slices!(self.flood_size_s(cell, scratch))
    }

    /// [`Board::flood_size`] with `S` slices, for a cell inside the board's words.
    #[inline]
    fn flood_size_s<const S: usize>(&self, cell: usize, scratch: &mut Scratch) -> (usize, u8) {
        let colour = self.colour_at_s::<S>(cell >> 6, (cell & 63) as u32);
        if colour == 0 {
            return (0, 0);
        }
        let (lo, hi) = self.flood_s::<S>(colour, cell, &mut scratch.group);
        let size = scratch.group[lo + 1..=hi + 1]
            .iter()
            .map(|w| w.count_ones() as usize)
            .sum();
        (size, colour)
    }

    /// Enumerate every removable group (≥ 2 stones) into `scratch.groups`, in scan order
    /// (columns left to right, each bottom-up; a group is named by its first stone in that
    /// order), and return how many there are: the lowest group stone left, its flood, its
    /// stones struck off, until none is left.
    pub fn find_groups(&self, scratch: &mut Scratch) -> usize {
        self.groups_into::<false>(scratch, &mut Vec::new())
    }

    /// [`Board::find_groups`], also writing each group's [`Board::group_code`] into `codes`
    /// (cleared first, same order), from the mask of the fill that found the group.
    pub fn find_groups_coded(&self, scratch: &mut Scratch, codes: &mut Vec<u64>) -> usize {
        codes.clear();
        self.groups_into::<true>(scratch, codes)
    }

    /// The legal moves of the selective policy (Cazenave 2016, "NRPA with selective
    /// policies"): the groups not of colour `tabu`, or every group if only `tabu` groups are
    /// left; with `codes`, their [`Board::group_code`]s too (same order).
    pub fn legal_actions_selective(
        &self,
        tabu: u8,
        actions: &mut Vec<Move>,
        codes: Option<&mut Vec<u64>>,
    ) {
        actions.clear();
        let cache = &self.cache;
        if cache.on && cache.excluded == tabu && !cache.groups.is_empty() {
            // The kept groups are exactly the other colours' groups, in scan order.
            actions.extend(cache.groups.iter().map(|g| self.move_of(g.group.cell)));
            if let Some(codes) = codes {
                codes.clear();
                codes.extend(cache.groups.iter().map(|g| g.code));
            }
            return;
        }
        SCRATCH.with(|s| {
            let mut s = s.borrow_mut();
            s.groups.clear();
            // The tabu colour is flooded only when no other colour has a group: the other
            // colours' groups alone come in the same (scan) order.
            let others = self.live_colours() & !(1 << tabu);
            self.groups_of(others, true, &mut s, codes);
            actions.extend(s.groups.iter().map(|g| self.move_of(g.cell)));
        });
    }

    /// Keep the groups of every colour but `excluded` (0: none) up to date from now on, move
    /// by move, for [`Board::legal_actions_selective`] with tabu colour `excluded`: a move
    /// floods again only the group stones of the columns it changed and the two next to them
    /// (`docs/METHODS.md#samegame-rules`). Copies of the board keep them too.
    pub fn keep_groups(&mut self, excluded: u8) {
        self.cache.on = true;
        self.cache.excluded = excluded;
        self.cache.groups.clear();
        let all = ChangedColumns {
            first: 0,
            last: usize::MAX,
        };
        SCRATCH.with(|s| self.refresh_groups(all, &mut s.borrow_mut()));
    }

    /// Bring the kept groups up to date after a move that changed `changed`: the groups
    /// that end left of column `first − 1` or start right of column `last + 1` stay, the
    /// group stones of those columns are flooded again, and the two lists are merged in scan
    /// order.
    fn refresh_groups(&mut self, changed: ChangedColumns, scratch: &mut Scratch) {
        with_slices!(self.refresh_groups_s(changed, scratch));
        #[cfg(debug_assertions)]
        {
            let mut fresh = Scratch::new();
            let mut codes = Vec::new();
            let others = self.live & !(1u32 << self.cache.excluded);
            self.groups_of(others, false, &mut fresh, Some(&mut codes));
            let kept: Vec<(Group, u64)> = self
                .cache
                .groups
                .iter()
                .map(|g| (g.group, g.code))
                .collect();
            let full: Vec<(Group, u64)> = fresh.groups.into_iter().zip(codes).collect();
            debug_assert_eq!(kept, full, "kept groups out of date");
        }
    }

    /// [`Board::refresh_groups`] with `S` slices.
    #[inline]
    fn refresh_groups_s<const S: usize>(&mut self, changed: ChangedColumns, scratch: &mut Scratch) {
        // Columns `from..=to` may hold changed groups (a stone's neighbours changed).
        let from = changed.first.saturating_sub(1);
        let to = changed.last.saturating_add(1);
        let log = self.stride_log;
        self.cache
            .groups
            .retain(|g| (g.last_column as usize) < from || (g.group.cell as usize >> log) > to);
        let Scratch {
            group,
            stones,
            planes,
            cached,
            ..
        } = scratch;
        let wanted = self.live & !(1u32 << self.cache.excluded);
        self.fill_planes_s::<S>(wanted, planes);
        // The wanted colours' group stones of columns `from..=to`.
        let start_bit = from << log;
        let end_bit = to.saturating_add(1).saturating_mul(self.stride);
        stones.clear();
        stones.extend((0..self.used_words()).map(|i| {
            let lowest = (start_bit.saturating_sub(i * 64)).min(64) as u32;
            let highest = (end_bit.saturating_sub(i * 64)).min(64) as u32;
            let columns = low_mask(highest) & !low_mask(lowest);
            self.marks[i] & self.planes_word(wanted, planes, i) & columns
        }));
        cached.clear();
        self.flood_each_s::<S>(stones, planes, group, |found, lo, hi, mask| {
            let last = hi * 64 + 63 - mask[hi + 1].leading_zeros() as usize;
            cached.push(CachedGroup {
                group: found,
                code: mask_code(found.colour, lo, hi, mask),
                last_column: (last >> log) as u16,
            });
        });
        // The kept groups and the ones found again, in scan order (found from a later stone,
        // a group may start earlier; the list is short and mostly in order already).
        self.cache.groups.extend_from_slice(cached);
        self.cache.groups.sort_unstable_by_key(|g| g.group.cell);
    }

    fn groups_into<const CODES: bool>(&self, scratch: &mut Scratch, codes: &mut Vec<u64>) -> usize {
        scratch.groups.clear();
        let codes = if CODES { Some(codes) } else { None };
        self.groups_of(self.live_colours(), false, scratch, codes)
    }

    /// The groups of the colours in `set` (bit `k` = colour `k`), or with `or_all` of every
    /// colour when none of `set` has a group, appended in scan order to `scratch.groups` (and
    /// their [`Board::group_code`]s to `codes`, cleared first); returns how many groups
    /// `scratch.groups` holds then.
    fn groups_of(
        &self,
        set: u32,
        or_all: bool,
        scratch: &mut Scratch,
        codes: Option<&mut Vec<u64>>,
    ) -> usize {
        with_slices!(self.groups_of_s(set, or_all, scratch, codes))
    }

    /// [`Board::groups_of`] with `S` slices: each colour's plane computed once, the group
    /// stones of `set` from the kept marks, then the lowest one left flooded and struck off
    /// until none is left.
    #[inline]
    fn groups_of_s<const S: usize>(
        &self,
        set: u32,
        or_all: bool,
        scratch: &mut Scratch,
        mut codes: Option<&mut Vec<u64>>,
    ) -> usize {
        let Scratch {
            group,
            stones,
            planes,
            groups,
            stone_counts,
            ..
        } = scratch;
        if let Some(codes) = codes.as_deref_mut() {
            codes.clear();
        }
        let (n, live) = (self.used_words(), self.live);
        stone_counts.clear();
        let mut done = 0u32;
        let mut want = set & live;
        loop {
            self.fill_planes_s::<S>(want & !done, planes);
            done |= want;
            stones.clear();
            if want == live {
                // Every group stone is of a live colour.
                stones.extend_from_slice(&self.marks[..n]);
                break;
            }
            stones.extend((0..n).map(|i| self.marks[i] & self.planes_word(want, planes, i)));
            if stones.iter().any(|&w| w != 0) || !or_all {
                break;
            }
            want = live;
        }
        self.flood_each_s::<S>(stones, planes, group, |found, lo, hi, mask| {
            if let Some(codes) = codes.as_deref_mut() {
                codes.push(mask_code(found.colour, lo, hi, mask));
            }
            groups.push(found);
        });
        groups.len()
    }

    /// The planes of the colours in `colours` into `planes`, plane of colour `k` at
    /// `(k − 1) · words`; every word is written, since a flood may read the word after the
    /// used ones.
    #[inline(always)]
    fn fill_planes_s<const S: usize>(&self, colours: u32, planes: &mut Vec<u64>) {
        let words = self.words;
        planes.resize(self.colours * words, 0);
        let mut todo = colours;
        while todo != 0 {
            let k = todo.trailing_zeros() as u8;
            todo &= todo - 1;
            let plane = &mut planes[(k as usize - 1) * words..k as usize * words];
            for (i, w) in plane.iter_mut().enumerate() {
                *w = self.colour_word_s::<S>(k, i);
            }
        }
    }

    /// Word `i` of the stones of the colours in `colours`, from their planes in `planes`.
    #[inline(always)]
    fn planes_word(&self, colours: u32, planes: &[u64], i: usize) -> u64 {
        let mut w = 0;
        let mut todo = colours;
        while todo != 0 {
            let k = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            w |= planes[(k - 1) * self.words + i];
        }
        w
    }

    /// Flood the group of the lowest stone left in `stones` in its colour's plane (from
    /// `planes`) into `group`, strike its stones off and call `visit(group named by its first
    /// stone, lo, hi, group)` (the group's words `lo..=hi` at `group[lo + 1..=hi + 1]`), until
    /// no stone is left.
    #[inline(always)]
    fn flood_each_s<const S: usize>(
        &self,
        stones: &mut [u64],
        planes: &[u64],
        group: &mut Vec<u64>,
        mut visit: impl FnMut(Group, usize, usize, &[u64]),
    ) {
        let words = self.words;
        let lanes16 = self.lane_words == 0 && self.lane_bits == 16;
        for i in 0..stones.len() {
            while stones[i] != 0 {
                let bit = stones[i].trailing_zeros();
                let colour = self.colour_at_s::<S>(i, bit);
                let k = colour as usize - 1;
                let plane = &planes[k * words..(k + 1) * words];
                let cell = i * 64 + bit as usize;
                let (lo, hi) = if lanes16 {
                    self.flood_in::<16>(|j| plane[j], cell, group)
                } else {
                    self.flood_in::<0>(|j| plane[j], cell, group)
                };
                let mut size = 0;
                for j in lo..=hi {
                    let w = group[j + 1];
                    size += w.count_ones();
                    stones[j] &= !w;
                }
                // The group may reach back before the stone it was found from.
                let first = lo * 64 + group[lo + 1].trailing_zeros() as usize;
                let found = Group {
                    cell: first as u16,
                    colour,
                    size: size as u16,
                };
                visit(found, lo, hi, group);
            }
        }
    }

    /// Put the group stones (stones with a same-coloured neighbour) into `scratch` and return
    /// how many there are (for [`Board::nth_group_stone`]).
    pub fn mark_group_stones(&self, scratch: &mut Scratch) -> usize {
        let marks = &self.marks[..self.used_words()];
        scratch.stones.clear();
        scratch.stones.extend_from_slice(marks);
        scratch.stone_counts.clear();
        scratch.stone_counts.resize(marks.len(), 0);
        let mut total = 0;
        for (count, &w) in scratch.stone_counts.iter_mut().zip(marks) {
            *count = w.count_ones();
            total += *count as usize;
        }
        total
    }

    /// The internal cell of the `k`-th (0-based, scan order) group stone marked by the last
    /// [`Board::mark_group_stones`] (None if there are not that many).
    pub fn nth_group_stone(&self, scratch: &Scratch, mut k: usize) -> Option<usize> {
        let counts = scratch.stone_counts.iter().map(|&c| c as usize);
        for (i, (&w, c)) in scratch.stones.iter().zip(counts).enumerate() {
            if k < c {
                let mut w = w;
                for _ in 0..k {
                    w &= w - 1;
                }
                return Some(i * 64 + w.trailing_zeros() as usize);
            }
            k -= c;
        }
        None
    }

    /// Size of the group containing internal cell `cell` (a stone; 1 for a lone stone).
    pub fn group_size(&self, cell: usize, scratch: &mut Scratch) -> usize {
        self.flood_size(cell, scratch).0
    }

    /// A random starting point for [`Board::scan`]: a random non-empty column and a random
    /// row in it.
    #[inline(always)]
    pub fn random_start(&self, rng: &mut puzzle_engine::Rng) -> (usize, usize) {
        if self.columns == 0 {
            return (0, 0);
        }
        let c = rng.below(self.columns);
        (c, rng.below(self.heights[c] as usize))
    }

    /// The first group stone (a stone with a same-coloured neighbour) whose colour is in
    /// `set` (bit `k` = colour `k`), in scan order from `start` = (column, row) wrapping
    /// around, as (internal cell, colour). The same stone as [`Board::scan`] would visit
    /// first with that colour filter, found a word at a time.
    #[inline]
    pub fn first_group_stone(&self, start: (usize, usize), set: u32) -> Option<(usize, u8)> {
        self.first_group_cell(start, set)
            .map(|cell| (cell, self.colour_at(cell)))
    }

    /// The internal cell of [`Board::first_group_stone`], without its colour.
    #[inline]
    pub fn first_group_cell(&self, start: (usize, usize), set: u32) -> Option<usize> {
        if self.columns == 0 {
            return None;
        }
        let set = set & self.live;
        if set == 0 {
            return None;
        }
        if self.small {
            let p = self.index(start.0, start.1);
            return with_slices!(self.first_group_cell_small(p, set));
        }
        with_slices!(self.first_group_cell_s(start, set))
    }

    /// [`Board::first_group_cell`] with `S` slices, for a non-empty `set` of live colours.
    #[inline]
    fn first_group_cell_s<const S: usize>(&self, start: (usize, usize), set: u32) -> Option<usize> {
        let p = self.index(start.0, start.1);
        let (words, slices) = (self.words, &self.slices[1..]);
        first_group_cell_in::<S>(
            self.live,
            &self.marks[..self.used_words()],
            p,
            set,
            |k, i| slices[i + k * (words + 1)],
        )
    }

    /// Visit, in scan order (columns left to right, each bottom-up) starting at `(col, row)`
    /// and wrapping around, every stone that has a same-coloured neighbour (so belongs to a
    /// removable group), as `visit(internal cell, colour)`, until `visit` returns true.
    /// Returns whether it did. This is the thesis's "scan the board from a random point until
    /// a group is found" (§3.3.3), a word of group stones at a time.
    #[inline]
    pub fn scan(&self, start: (usize, usize), visit: impl FnMut(usize, u8) -> bool) -> bool {
        if self.columns == 0 {
            return false;
        }
        with_slices!(self.scan_s(start, visit))
    }

    /// [`Board::scan`] with `S` slices, on a board with a column.
    #[inline]
    fn scan_s<const S: usize>(
        &self,
        start: (usize, usize),
        mut visit: impl FnMut(usize, u8) -> bool,
    ) -> bool {
        let set = self.live_colours();
        let p = self.index(start.0, start.1);
        let (w0, b0) = (p >> 6, (p & 63) as u32);
        let n = self.used_words();
        for step in 0..=n {
            let i = (w0 + step) % n;
            let mut w = self.group_word_of(set, i);
            if step == 0 {
                w &= !low_mask(b0);
            } else if step == n {
                w &= low_mask(b0);
            }
            while w != 0 {
                let b = w.trailing_zeros();
                w &= w - 1;
                if visit(i * 64 + b as usize, self.colour_at_s::<S>(i, b)) {
                    return true;
                }
            }
        }
        false
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
    fn colour_at_s<const S: usize>(&self, w: usize, b: u32) -> u8 {
        let mut colour = 0;
        let mut j = self.plane_base(0) + w;
        for k in 0..S {
            colour |= ((self.slices[j] >> b) as u8 & 1) << k;
            j += self.words + 1;
        }
        colour
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

    /// Size and colour of the group containing `mv` (None if the move is illegal).
    pub fn group_at(&self, mv: Move, scratch: &mut Scratch) -> Option<(usize, u8)> {
        let i = self.legal_cell(mv)?;
        Some(self.flood_size(i, scratch))
    }

    /// The stones of the group containing `mv`, as moves (None if the move is illegal): what
    /// a player sees highlighted before removing it.
    pub fn group_cells(&self, mv: Move, scratch: &mut Scratch) -> Option<Vec<Move>> {
        let i = self.legal_cell(mv)?;
        let (lo, hi) = self.flood(self.colour_at(i), i, &mut scratch.group);
        let mut cells = Vec::new();
        for (w, &word) in scratch.group[lo + 1..=hi + 1].iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let cell = (lo + w) * 64 + bits.trailing_zeros() as usize;
                cells.push(self.move_of(cell as u16));
                bits &= bits - 1;
            }
        }
        Some(cells)
    }

    /// Remove the group containing internal cell `start` (which must have a same-coloured
    /// neighbour), apply gravity and column shifting, and score it. Returns the group size.
    pub fn remove_group(&mut self, start: usize, scratch: &mut Scratch) -> usize {
        let (size, changed) = if self.small {
            with_slices!(self.remove_group_small(start))
        } else {
            with_slices!(self.remove_group_s(start, scratch))
        };
        if self.cache.on {
            self.refresh_groups(changed, scratch);
        }
        size
    }

    /// [`Board::remove_group`] with `S` slices; returns the size and the columns it changed.
    #[inline]
    fn remove_group_s<const S: usize>(
        &mut self,
        start: usize,
        scratch: &mut Scratch,
    ) -> (usize, ChangedColumns) {
        if self.lane_words == 0 {
            return if self.lane_bits == 16 {
                self.remove_group_lanes::<S, 16>(start, scratch)
            } else {
                self.remove_group_lanes::<S, 0>(start, scratch)
            };
        }
        let colour = self.colour_at_s::<S>(start >> 6, (start & 63) as u32);
        debug_assert!(colour != 0, "removing an empty cell");
        let (lo, hi) = self.flood_s::<S>(colour, start, &mut scratch.group);
        let mut size = 0;
        let g = &scratch.group[1..=self.words];
        let s = self.stride;
        let first_bit = lo * 64 + g[lo].trailing_zeros() as usize;
        let last_bit = hi * 64 + 63 - g[hi].leading_zeros() as usize;
        let (first, last) = (first_bit >> self.stride_log, last_bit >> self.stride_log);
        let n = self.words;
        let old_used = self.used_words();
        let mut emptied = false;
        // Lanes spanning words: every removed stone of a column, top first, is deleted from
        // its lane in every slice.
        for c in first..=last {
            let (w0, lw) = (c * s / 64, s / 64);
            let removed = &g[w0..w0 + lw];
            let removed_rows: u32 = removed.iter().map(|w| w.count_ones()).sum();
            if removed_rows == 0 {
                continue;
            }
            for k in 0..S {
                let base = self.plane_base(k) + w0;
                let lane = &mut self.slices[base..base + lw];
                for bit in (0..s).rev() {
                    if removed[bit >> 6] & (1 << (bit & 63)) != 0 {
                        delete_bits(lane, bit, 1);
                    }
                }
            }
            size += removed_rows as usize;
            self.heights[c] -= removed_rows as u8;
            emptied |= self.heights[c] == 0;
        }
        if emptied {
            for c in (first..=last).rev() {
                if self.heights[c] == 0 {
                    for k in 0..S {
                        let base = self.plane_base(k);
                        delete_bits(&mut self.slices[base..base + n], c * s, s);
                    }
                    self.delete_height(c);
                }
            }
        }
        self.update_marks_s::<S>(0, old_used);
        self.account(colour, size);
        let last = if emptied { usize::MAX } else { last };
        (size, ChangedColumns { first, last })
    }

    /// [`Board::remove_group`] with `S` slices on a board whose lanes lie inside words,
    /// lanes of `L` bits (`L = 0`: the board's `lane_bits`, read at run time; a constant
    /// width makes every lane shift a constant); returns the size and the columns it changed.
    #[inline]
    fn remove_group_lanes<const S: usize, const L: u32>(
        &mut self,
        start: usize,
        scratch: &mut Scratch,
    ) -> (usize, ChangedColumns) {
        debug_assert!(self.lane_words == 0 && (L == 0 || L == self.lane_bits));
        let s = if L == 0 { self.lane_bits } else { L };
        let log = s.trailing_zeros();
        let n = self.words;
        let colour = self.colour_at_s::<S>(start >> 6, (start & 63) as u32);
        debug_assert!(colour != 0, "removing an empty cell");
        let (lo, hi) = self.flood_lanes::<S, L>(colour, start, &mut scratch.group);
        let g = &scratch.group[lo + 1..=hi + 1];
        let first = (lo * 64 + g[0].trailing_zeros() as usize) >> log;
        let last = (hi * 64 + 63 - g[g.len() - 1].leading_zeros() as usize) >> log;
        let old_used = self.used_words();
        let lane0 = low_mask(s);
        let mut size = 0;
        let mut emptied = false;
        // A run of removed bits never crosses a lane (the guard row between lanes is never
        // in a group); each run, top run of a word first, drops the bits of its lane above
        // it by its length in every slice.
        for (wi, &word) in (lo..).zip(g) {
            let mut removed = word;
            while removed != 0 {
                // The run's top bit is below bit 63, a guard row.
                let run = take_top_run(&mut removed, s, lane0);
                // Branch-free: a slice without bits from the run up is left as it is.
                let mut j = 1 + wi;
                for _ in 0..S {
                    let x = &mut self.slices[j];
                    *x = (*x & !run.from) | ((*x & run.above) >> run.len);
                    j += n + 1;
                }
                let c = (wi << (6 - log)) + (run.lane_start >> log) as usize;
                size += run.len as usize;
                let h = &mut self.heights[c];
                *h -= run.len as u8;
                emptied |= *h == 0;
            }
        }
        // The group stones change in the columns next to the removed stones; a deleted
        // column moves the group stones of the columns above it down one lane with them.
        let deleted = if emptied {
            self.delete_emptied_lanes::<S>((first, last), n, s)
        } else {
            0
        };
        let a = ((first.saturating_sub(1)) << log) >> 6;
        let b = (((last + 2 - deleted) << log).div_ceil(64)).min(old_used);
        self.update_marks_lanes::<S, L>(a, b);
        #[cfg(debug_assertions)]
        {
            let kept = self.marks.clone();
            self.update_marks_lanes::<S, L>(0, n);
            debug_assert_eq!(kept, self.marks, "group stones kept out of date");
        }
        self.account(colour, size);
        let last = if deleted > 0 { usize::MAX } else { last };
        (size, ChangedColumns { first, last })
    }

    /// Delete the emptied columns among `first..=last` on a board of `n` words per slice
    /// whose lanes (of `s` bits) lie inside words: their lanes of every slice and of the
    /// group stones, and their heights. Returns how many were deleted. (Inlined, so that
    /// constant sizes fold.)
    #[inline(always)]
    fn delete_emptied_lanes<const S: usize>(
        &mut self,
        (first, last): (usize, usize),
        n: usize,
        s: u32,
    ) -> usize {
        debug_assert_eq!(n, self.words);
        let log = s.trailing_zeros();
        let mut deleted = 0;
        for c in (first..=last).rev() {
            if self.heights[c] == 0 {
                for k in 0..S {
                    let base = 1 + k * (n + 1);
                    // The word after the slice is a zero separator.
                    delete_lane(&mut self.slices[base..=base + n], c << log, s);
                }
                delete_lane(&mut self.marks[..=n], c << log, s);
                self.delete_height(c);
                deleted += 1;
            }
        }
        deleted
    }

    /// Delete the (emptied) height of column `c`, moving the higher columns' heights down.
    #[inline]
    fn delete_height(&mut self, c: usize) {
        let h = &mut self.heights[c..];
        h.copy_within(1.., 0);
        h[h.len() - 1] = 0;
        self.columns -= 1;
    }

    /// Count a removed group of `size` stones of colour `colour`: stones, points, moves.
    #[inline]
    fn account(&mut self, colour: u8, size: usize) {
        self.take_stones(colour, size);
        self.stones -= size;
        self.points += self.scoring.group_points(size);
        self.moves += 1;
    }

    /// Count `size` stones of colour `colour` as removed (a group, `size ≥ 2`): the colour's
    /// stone count, and whether it can still form a group. The playout loops sum the stones,
    /// points and moves themselves.
    #[inline(always)]
    fn take_stones(&mut self, colour: u8, size: usize) {
        debug_assert!(size >= 2, "removing a lone stone");
        self.counts[colour as usize] -= size as u16;
        if self.counts[colour as usize] < 2 {
            self.live &= !(1 << colour);
        }
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

    /// A code for NRPA (see `docs/METHODS.md#samegame-nested`): the group's colour and the set of
    /// its cells.
    pub fn group_code(&self, mv: Move, scratch: &mut Scratch) -> u64 {
        let Some(start) = self.legal_cell(mv) else {
            return 0;
        };
        let colour = self.colour_at(start);
        let (lo, hi) = self.flood(colour, start, &mut scratch.group);
        mask_code(colour, lo, hi, &scratch.group)
    }
}

/// A group's code from its colour and its cell mask (words `lo..=hi` of `g`, stored from
/// index 1 as [`Board::flood`] leaves them): a multiply-rotate fold of the words, cheap next
/// to a per-cell hash, and the same for the same cells however the group was found.
#[inline]
fn mask_code(colour: u8, lo: usize, hi: usize, g: &[u64]) -> u64 {
    let mut h = zobrist_key(0, colour);
    for (i, &w) in g[lo + 1..=hi + 1].iter().enumerate() {
        if w != 0 {
            // The word's index gets a multiply of its own: XORed into the word it would
            // cancel low bits of the mask (a group in word 0 would collide with one in word 2).
            h = (h ^ (lo + i) as u64).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            h = (h.rotate_left(23) ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    h ^ (h >> 29)
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
