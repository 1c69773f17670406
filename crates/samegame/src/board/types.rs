//! The board's value types (sizes, colour letters, moves, groups, the construction error)
//! and the scratch buffers and kept groups that the searches reuse. A leaf module: it uses
//! nothing else of the board.

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
/// the BOTTOM (0 = bottom row). [`Board::top_row`](super::Board::top_row) converts to the
/// top-based rows of the CLI.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// Column, 0 = leftmost.
    pub col: u8,
    /// Row from the bottom, 0 = bottom row.
    pub row: u8,
}

/// A removable group found by [`Board::find_groups`](super::Board::find_groups).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Group {
    /// Internal index of its first stone in scan order (the canonical representative).
    pub cell: u16,
    /// Its colour (1-based).
    pub colour: u8,
    /// Number of stones (≥ 2).
    pub size: u16,
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

/// Reusable buffers for group enumeration and moves (own one per thread / search).
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    /// The last flooded group (one word per plane word).
    pub(super) group: Vec<u64>,
    /// Group stones still to enumerate / to sample from.
    pub(super) stones: Vec<u64>,
    /// The number of bits of each word of `stones` after
    /// [`Board::mark_group_stones`](super::Board::mark_group_stones) (empty once an
    /// enumeration has used `stones`).
    pub(super) stone_counts: Vec<u32>,
    /// The colour planes of an enumeration, `words` words per colour.
    pub(super) planes: Vec<u64>,
    /// Groups of the last [`Board::find_groups`](super::Board::find_groups) call.
    pub groups: Vec<Group>,
    /// The groups a refresh of [`GroupCache`] found again.
    pub(super) cached: Vec<CachedGroup>,
}

impl Scratch {
    /// Empty buffers (they grow to the board size on first use).
    pub fn new() -> Self {
        Scratch::default()
    }
}

thread_local! {
    pub(super) static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::new());
}

/// The columns a move changed, `first..=last` (`last = usize::MAX`: every column from
/// `first` on, as when a column was deleted and the ones right of it moved).
#[derive(Clone, Copy, Debug)]
pub(super) struct ChangedColumns {
    pub(super) first: usize,
    pub(super) last: usize,
}

/// A group kept by [`GroupCache`]: what
/// [`Board::find_groups_coded`](super::Board::find_groups_coded) gives for it, and the column
/// of its last stone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct CachedGroup {
    pub(super) group: Group,
    pub(super) code: u64,
    pub(super) last_column: u16,
}

/// The groups of a position, kept up to date move by move for searches that enumerate every
/// group at every step (NRPA with the selective policy, `docs/METHODS.md#nrpa-selective`).
/// A move whose group starts in column `f` changes nothing left of column `f`, so the groups
/// that end left of column `f − 1` are kept as they are and only the group stones from
/// column `f − 1` on are flooded again. Off by default: then moves pay nothing for it.
#[derive(Clone, Debug, Default)]
pub(super) struct GroupCache {
    pub(super) on: bool,
    /// The colour whose groups are not kept (0: none).
    pub(super) excluded: u8,
    /// The groups of the other colours, in scan order.
    pub(super) groups: Vec<CachedGroup>,
}
