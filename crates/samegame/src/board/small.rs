//! The playout paths of boards of four words of 16-bit lanes per slice: 13 to 16 columns of
//! 8 to 15 rows, such as the standard 15×15 boards. They do what the general 16-bit-lane
//! paths do, move for move, with the sizes as constants: the slices of such a board are
//! padded to the length of five slices and its heights to 16 columns, so word `i` of slice
//! `k` is `slices[1 + 5k + i]` of an array of known length and a column's height
//! `heights[c]` of another (the bounds tests fold away), and the flooded group stays in a
//! local array.

use super::{first_group_cell_in, low_mask, take_top_run, Board, ChangedColumns, Move};
use crate::playout::most_frequent;
use puzzle_engine::Rng;

/// Words per slice.
const N: usize = 4;
/// Bits per column lane.
const L: u32 = 16;
/// `log2(L)`.
const LOG: u32 = 4;
/// Distance between two slices in `Board::slices`: the words and a zero separator.
const STEP: usize = N + 1;

/// The length of `Board::slices` on a small board: five slices and their separators.
pub(super) const SLICE_WORDS: usize = STEP * 5 + 1;
/// The length of `Board::heights` on a small board.
pub(super) const COLUMNS: usize = N * 64 / L as usize;

/// A board of `words` words per bitboard and lanes of `stride` bits takes the paths of this
/// module.
pub(super) fn fits(words: usize, stride: usize) -> bool {
    words == N && stride == L as usize
}

/// Index in `Board::slices` of word `i` (below `N`) of slice `k`.
#[inline(always)]
fn at(k: usize, i: usize) -> usize {
    1 + STEP * k + (i & (N - 1))
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
        let sl = self.small_slices();
        let flip: [u64; S] = std::array::from_fn(|k| ((colour >> k & 1) as u64).wrapping_sub(1));
        let m = |i: usize| {
            let mut w = !0;
            for (k, &f) in flip.iter().enumerate() {
                w &= sl[at(k, i)] ^ f;
            }
            w
        };
        let mut g = [0u64; N];
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
        let mut size = 0;
        let mut emptied = false;
        // Each run of removed bits (inside a lane), top run of a word first, drops the bits
        // of its lane above it by its length in every slice.
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
            let (mut occ, mut dv, mut dl, mut dr) = (0u64, 0u64, 0u64, 0u64);
            for k in 0..S {
                let j = at(k, i);
                let (p, x, next) = (sl[j - 1], sl[j], sl[j + 1]);
                occ |= x;
                dv |= x ^ (x >> 1);
                dl |= x ^ ((x << L) | (p >> (64 - L)));
                dr |= x ^ ((x >> L) | (next << (64 - L)));
            }
            // Occupied and equal to the cell above, left or right; or to the cell below.
            marks[i] = (occ & !(dv & dl & dr)) | ((occ & !dv) << 1);
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

    /// A Random Tabu playout (see [`crate::playout::Tabu`]; with `fixed`, the tabu colour of
    /// [`crate::playout::TabuColour`]) of at most `limit` moves, the moves pushed onto
    /// `trace`: the same moves and the same random numbers as the playout through the
    /// chooser, in one loop with the slice count a constant. None (nothing played) unless
    /// the board is small and keeps no groups.
    pub(crate) fn tabu_playout(
        &mut self,
        fixed: Option<u8>,
        rng: &mut Rng,
        limit: usize,
        trace: Option<&mut Vec<Move>>,
    ) -> Option<usize> {
        if !self.small || self.cache.on {
            return None;
        }
        Some(with_slices!(
            self.tabu_playout_small(fixed, rng, limit, trace)
        ))
    }

    /// [`Board::tabu_playout`] with `S` slices.
    fn tabu_playout_small<const S: usize>(
        &mut self,
        fixed: Option<u8>,
        rng: &mut Rng,
        limit: usize,
        mut trace: Option<&mut Vec<Move>>,
    ) -> usize {
        let mut played = 0;
        while played < limit {
            let tabu = fixed.unwrap_or_else(|| most_frequent(self));
            let Some(cell) = self
                .first_from_random_small::<S>(rng, !(1u32 << tabu))
                .or_else(|| self.first_from_random_small::<S>(rng, !0))
            else {
                break;
            };
            if let Some(trace) = trace.as_deref_mut() {
                trace.push(self.move_of(cell as u16));
            }
            self.remove_group_small::<S>(cell);
            played += 1;
        }
        played
    }

    /// [`Board::first_group_cell`] from [`Board::random_start`].
    #[inline(always)]
    fn first_from_random_small<const S: usize>(&self, rng: &mut Rng, set: u32) -> Option<usize> {
        let (c, r) = self.random_start(rng);
        let set = set & self.live;
        if self.columns == 0 || set == 0 {
            return None;
        }
        self.first_group_cell_small::<S>(self.index(c, r), set)
    }
}
