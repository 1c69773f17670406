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
//!
//! The rules are split by concern: `rules` (construction, cells, the accessors, terminal
//! state, score and hash, the engine traits), `marks` (the group stones kept up to date),
//! `flood` (flood fill), `gravity` (removing a group: gravity, column deletion,
//! accounting), `groups` (group enumeration, the kept groups and their codes), `playouts`
//! (what the playout policies ask the board, and the in-board playout loops), `small` and
//! `wide` (the fixed-size paths of 15×15-class boards). `layout` (the word operations on
//! lanes and the small boards' geometry) and `types` (the public value types and the scratch
//! buffers) use nothing else of the board: the other modules depend on them, never the
//! other way round.

use crate::scoring::Scoring;

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

mod flood;
mod gravity;
mod groups;
mod layout;
mod marks;
mod playouts;
mod rules;
mod small;
mod types;
#[cfg(target_arch = "x86_64")]
mod wide;

use types::GroupCache;
pub use types::{colour_letter, BoardError, Group, Move, Scratch, MAX_COLOURS, MAX_SIDE, PALETTE};

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
    /// Column heights (padded with zeros to [`layout::COLUMNS`] on a small board).
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
