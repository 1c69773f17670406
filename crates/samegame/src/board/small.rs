//! The playout paths of boards of four words of 16-bit lanes per slice: 13 to 16 columns of
//! 8 to 15 rows, such as the standard 15×15 boards. They do what the general 16-bit-lane
//! paths do, move for move, with the sizes as constants: the slices of such a board are
//! padded to the length of five slices and its heights to 16 columns, so word `i` of slice
//! `k` is `slices[1 + 5k + i]` of an array of known length and a column's height
//! `heights[c]` of another (the bounds tests fold away), and the flooded group stays in a
//! local array.
//!
//! The sizes are in [`super::layout`]; the playout loop that runs on these paths is in
//! [`super::playouts`].

use super::layout::{
    at, delete_lane, first_group_cell_in, low_mask, take_top_run, COLUMNS, L, LOG, N, SLICE_WORDS,
};
use super::types::ChangedColumns;
use super::Board;
use puzzle_engine::Rng;

/// The colour of bit `b` of word `w` of the slices `sl` ([`Board::colour_at_s`]), and its
/// slice flips for [`plane`].
#[inline(always)]
pub(super) fn colour_of<const S: usize>(
    sl: &[u64; SLICE_WORDS],
    w: usize,
    b: u32,
) -> (u8, [u64; S]) {
    let (mut colour, mut flip) = (0, [0u64; S]);
    for (k, f) in flip.iter_mut().enumerate() {
        let bit = (sl[at(k, w)] >> b) & 1;
        colour |= (bit as u8) << k;
        *f = bit.wrapping_sub(1);
    }
    (colour, flip)
}

/// Word `i` (below `N`) of the stones of colour `flip` (slice `k` taken as it is where
/// `flip[k]` is zero, complemented where it is all ones).
#[inline(always)]
pub(super) fn plane<const S: usize>(sl: &[u64; SLICE_WORDS], flip: &[u64; S], i: usize) -> u64 {
    let mut w = !0;
    for (k, &f) in flip.iter().enumerate() {
        w &= sl[at(k, i)] ^ f;
    }
    w
}

/// The slice flips of colour `colour` for [`plane`].
#[inline(always)]
pub(super) fn flips<const S: usize>(colour: u32) -> [u64; S] {
    let mut flip = [0u64; S];
    for (k, f) in flip.iter_mut().enumerate() {
        *f = ((colour >> k & 1) as u64).wrapping_sub(1);
    }
    flip
}

/// Word `i` (below `N`) of the group stones of the slices `sl`: occupied and equal to the
/// cell above, left or right, or to the cell below ([`Board::update_marks_lanes`]).
#[inline(always)]
pub(super) fn marks_word<const S: usize>(sl: &[u64; SLICE_WORDS], i: usize) -> u64 {
    let (mut occ, mut dv, mut dl, mut dr) = (0u64, 0u64, 0u64, 0u64);
    for k in 0..S {
        let j = at(k, i);
        let (p, x, next) = (sl[j - 1], sl[j], sl[j + 1]);
        occ |= x;
        dv |= x ^ (x >> 1);
        dl |= x ^ ((x << L) | (p >> (64 - L)));
        dr |= x ^ ((x >> L) | (next << (64 - L)));
    }
    (occ & !(dv & dl & dr)) | ((occ & !dv) << 1)
}

/// Flood the group of the colour of slice flips `flip` containing internal cell `start` (a
/// stone of that colour) in the slices `sl` into `g` (zero): the words it reaches (bit `i`
/// = word `i`, a contiguous run). [`Board::flood_in`] with 16-bit lanes, one word closed at
/// a time.
#[inline(always)]
fn flood<const S: usize>(
    sl: &[u64; SLICE_WORDS],
    flip: &[u64; S],
    start: usize,
    g: &mut [u64; N],
) -> u32 {
    flood_plane(|i| plane(sl, flip, i), start, g)
}

/// [`flood`] with word `i` of the colour's stones given by `m(i)`: the byte board of
/// [`super::wide`] floods with the same code.
#[inline(always)]
pub(super) fn flood_plane(m: impl Fn(usize) -> u64, start: usize, g: &mut [u64; N]) -> u32 {
    let w0 = (start >> 6) & (N - 1);
    g[w0] = 1 << (start & 63);
    let mut reached = 1u32 << w0;
    let mut dirty = reached;
    while dirty != 0 {
        let i = dirty.trailing_zeros() as usize & (N - 1);
        dirty &= dirty - 1;
        let x = m(i);
        let mut w = g[i];
        loop {
            // No `w << 1`: the add fills every reached vertical run upwards.
            let mut grown = (w | (w >> 1) | (w << L) | (w >> L)) & x;
            grown |= (x.wrapping_add(grown) ^ x) & x;
            if grown == w {
                break;
            }
            w = grown;
        }
        g[i] = w;
        // The neighbouring word's plane is read only when the group reaches the word's
        // first / last lane.
        let (left, right) = (w << (64 - L), w >> (64 - L));
        if left != 0 && i > 0 {
            let seed = left & m(i - 1) & !g[i - 1];
            if seed != 0 {
                g[i - 1] |= seed;
                reached |= 1 << (i - 1);
                dirty |= 1 << (i - 1);
            }
        }
        if right != 0 && i + 1 < N {
            let seed = right & m(i + 1) & !g[i + 1];
            if seed != 0 {
                g[i + 1] |= seed;
                reached |= 1 << (i + 1);
                dirty |= 1 << (i + 1);
            }
        }
    }
    reached
}

/// What removing a group changed: its size, and the words whose group stones may have
/// changed (bit `i` = word `i`): those of the columns `first − 1 ..= last + 1` of the
/// group's first and last column, and every word after them when columns were emptied
/// and deleted (their lanes moved left). Scalars only, so they stay in registers.
pub(super) struct Removed {
    pub(super) size: usize,
    pub(super) words: u32,
}

/// Gravity after removing the group `g` (words `lo..=hi`) from the slices `sl` and the
/// heights `heights`: each run of removed bits (inside a lane), top run of a word first,
/// drops the bits of its lane above it by its length in every slice. Returns the group's
/// size and whether a column emptied.
#[inline(always)]
fn fall<const S: usize>(
    sl: &mut [u64; SLICE_WORDS],
    heights: &mut [u8; COLUMNS],
    g: &[u64; N],
    (lo, hi): (usize, usize),
) -> (usize, bool) {
    let mut size = 0;
    let mut emptied = false;
    for wi in lo..=hi {
        let mut removed = g[wi & (N - 1)];
        while removed != 0 {
            let run = take_top_run(&mut removed, L, low_mask(L));
            for k in 0..S {
                let x = &mut sl[at(k, wi)];
                *x = (*x & !run.from) | ((*x & run.above) >> run.len);
            }
            let c = (wi << (6 - LOG)) + (run.lane_start >> LOG) as usize;
            size += run.len as usize;
            let h = &mut heights[c & (COLUMNS - 1)];
            *h -= run.len as u8;
            emptied |= *h == 0;
        }
    }
    (size, emptied)
}

/// Remove the group of colour `colour` containing internal cell `start` from the slices
/// `sl` and the heights `heights` of a board of `columns` columns: its stones fall, its
/// emptied columns are deleted (`columns` counts them down) ([`Board::remove_group_lanes`]).
#[inline(always)]
pub(super) fn remove<const S: usize>(
    sl: &mut [u64; SLICE_WORDS],
    heights: &mut [u8; COLUMNS],
    columns: &mut usize,
    flip: &[u64; S],
    start: usize,
) -> Removed {
    let mut g = [0u64; N];
    let reached = flood::<S>(sl, flip, start, &mut g);
    let lo = reached.trailing_zeros() as usize;
    let hi = 31 - reached.leading_zeros() as usize;
    // The column before the first is in the word before when the group has stones in its
    // word's first lane; the column after the last likewise.
    let left = (g[lo & (N - 1)] & low_mask(L) != 0) as u32;
    let right = (g[hi & (N - 1)] >> (64 - L) != 0) as u32;
    let words = reached | (reached >> left) | (reached << right);
    let (size, emptied) = fall::<S>(sl, heights, &g, (lo, hi));
    let mut r = Removed { size, words };
    if emptied {
        let first = (lo * 64 + g[lo & (N - 1)].trailing_zeros() as usize) >> LOG;
        let last = (hi * 64 + 63 - g[hi & (N - 1)].leading_zeros() as usize) >> LOG;
        for c in (first..=last).rev() {
            if heights[c & (COLUMNS - 1)] == 0 {
                for k in 0..S {
                    // The word after the slice is a zero separator.
                    let base = at(k, 0);
                    delete_lane(&mut sl[base..=base + N], c << LOG, L);
                }
                let h = &mut heights[c & (COLUMNS - 1)..];
                h.copy_within(1.., 0);
                h[h.len() - 1] = 0;
                *columns -= 1;
            }
        }
        // The lowest changed word and every word above it.
        r.words |= r.words.wrapping_neg();
    }
    r.words &= (1 << N) - 1;
    r
}

impl Board {
    /// The slices and the zero words around them (and the padding).
    #[inline(always)]
    fn small_slices(&self) -> &[u64; SLICE_WORDS] {
        debug_assert!(self.small);
        self.slices[..SLICE_WORDS].try_into().unwrap()
    }

    /// [`Board::colour_at_s`]: the colour of bit `b` of word `w`.
    #[inline(always)]
    fn colour_small<const S: usize>(&self, w: usize, b: u32) -> u8 {
        let sl = self.small_slices();
        let mut colour = 0;
        for k in 0..S {
            colour |= ((sl[at(k, w)] >> b) as u8 & 1) << k;
        }
        colour
    }

    /// Flood the group of colour `colour` containing internal cell `start` (a stone of that
    /// colour): its words, and the words it reaches (bit `i` = word `i`, a contiguous run).
    /// [`Board::flood_in`] with 16-bit lanes, one word closed at a time.
    #[inline(always)]
    fn flood_small<const S: usize>(&self, colour: u8, start: usize) -> ([u64; N], u32) {
        let mut g = [0u64; N];
        let reached = flood::<S>(
            self.small_slices(),
            &flips::<S>(colour.into()),
            start,
            &mut g,
        );
        (g, reached)
    }

    /// [`Board::remove_group_lanes`] on a board of this module: the same stones, heights,
    /// marks and changed columns.
    #[inline(always)]
    pub(super) fn remove_group_small<const S: usize>(
        &mut self,
        start: usize,
    ) -> (usize, ChangedColumns) {
        debug_assert!(self.small);
        let colour = self.colour_small::<S>(start >> 6, (start & 63) as u32);
        debug_assert!(colour != 0, "removing an empty cell");
        let (g, reached) = self.flood_small::<S>(colour, start);
        let lo = reached.trailing_zeros() as usize;
        let hi = 31 - reached.leading_zeros() as usize;
        let first = (lo * 64 + g[lo & (N - 1)].trailing_zeros() as usize) >> LOG;
        let last = (hi * 64 + 63 - g[hi & (N - 1)].leading_zeros() as usize) >> LOG;
        let sl: &mut [u64; SLICE_WORDS] = (&mut self.slices[..SLICE_WORDS]).try_into().unwrap();
        let heights: &mut [u8; COLUMNS] = (&mut self.heights[..COLUMNS]).try_into().unwrap();
        let (size, emptied) = fall::<S>(sl, heights, &g, (lo, hi));
        let deleted = if emptied {
            self.delete_emptied_lanes::<S>((first, last), N, L)
        } else {
            0
        };
        // The words of columns `first − 1 ..= last + 1` (after the deletions): the group
        // stones change only next to removed or moved stones; a word past the used ones has
        // no stones and keeps its zero marks.
        let a = first.saturating_sub(1) >> (6 - LOG);
        let b = ((last + 1 - deleted) >> (6 - LOG)).min(N - 1);
        self.update_marks_small::<S>(a, b);
        #[cfg(debug_assertions)]
        {
            let kept = self.marks.clone();
            self.update_marks_lanes::<S, 16>(0, N);
            debug_assert_eq!(kept, self.marks, "group stones kept out of date");
        }
        self.account(colour, size);
        let last = if deleted > 0 { usize::MAX } else { last };
        (size, ChangedColumns { first, last })
    }

    /// Recompute words `a..=b` (`b < N`) of the group stones (`marks`) from the stones
    /// ([`Board::update_marks_lanes`]).
    #[inline(always)]
    fn update_marks_small<const S: usize>(&mut self, a: usize, b: usize) {
        let sl: &[u64; SLICE_WORDS] = self.slices[..SLICE_WORDS].try_into().unwrap();
        let marks: &mut [u64; N] = (&mut self.marks[..N]).try_into().unwrap();
        for i in a..=b {
            let i = i & (N - 1);
            marks[i] = marks_word::<S>(sl, i);
        }
    }

    /// [`Board::first_group_cell_s`] on a board of this module: the first group stone from
    /// internal cell `p` wrapping around whose colour is in `set` (non-empty, live colours).
    /// The words past the used ones have no group stones, so scanning all four finds the
    /// same stone.
    #[inline]
    pub(super) fn first_group_cell_small<const S: usize>(
        &self,
        p: usize,
        set: u32,
    ) -> Option<usize> {
        let sl = self.small_slices();
        first_group_cell_in::<S>(
            self.live,
            &self.marks[..N],
            p & (N * 64 - 1),
            set,
            |k, i| sl[at(k, i)],
        )
    }
}

/// A random start on a small board ([`Board::random_start`] as an internal cell): a random
/// column below `columns`, then a random stone of it.
#[inline(always)]
pub(super) fn random_cell(rng: &mut Rng, columns: usize, heights: &[u8; COLUMNS]) -> usize {
    let c = rng.below(columns);
    (c << LOG) + rng.below(heights[c & (COLUMNS - 1)] as usize)
}

/// The tabu rules' last resort: the first group stone of any colour from another random
/// start (drawn even when no colour `live` has a group, so the random numbers stay the same).
#[inline(always)]
pub(super) fn any_group_cell(
    rng: &mut Rng,
    columns: usize,
    heights: &[u8; COLUMNS],
    marks: &[u64; N],
    live: u32,
) -> Option<usize> {
    let p = random_cell(rng, columns, heights);
    if live != 0 {
        scan(marks, p, |_| !0)
    } else {
        None
    }
}

/// Visit the group stones `marks` from internal cell `p` wrapping around that
/// `filter(word)` keeps, in scan order, until `visit(cell)` returns true; whether it did
/// ([`Board::scan`]).
#[inline(always)]
pub(super) fn visit(
    marks: &[u64; N],
    p: usize,
    filter: impl Fn(usize) -> u64,
    mut visit: impl FnMut(usize) -> bool,
) -> bool {
    let (w0, b0) = ((p >> 6) & (N - 1), (p & 63) as u32);
    let below = low_mask(b0);
    let (mut i, mut mask) = (w0, !below);
    for step in 0..=N {
        let mut w = marks[i] & mask;
        if w != 0 {
            w &= filter(i);
            while w != 0 {
                let b = w.trailing_zeros() as usize;
                w &= w - 1;
                if visit(i * 64 + b) {
                    return true;
                }
            }
        }
        i = (i + 1) & (N - 1);
        mask = if step + 1 == N { below } else { !0 };
    }
    false
}

/// The first group stone of `marks` from internal cell `p` wrapping around that
/// `filter(word)` keeps (`first_set_from`).
#[inline(always)]
pub(super) fn scan(marks: &[u64; N], p: usize, filter: impl Fn(usize) -> u64) -> Option<usize> {
    let (w0, b0) = ((p >> 6) & (N - 1), (p & 63) as u32);
    let below = low_mask(b0);
    let (mut i, mut mask) = (w0, !below);
    for step in 0..=N {
        let w = marks[i] & mask;
        if w != 0 {
            let w = w & filter(i);
            if w != 0 {
                return Some(i * 64 + w.trailing_zeros() as usize);
            }
        }
        i = (i + 1) & (N - 1);
        mask = if step + 1 == N { below } else { !0 };
    }
    None
}
