//! Flood fill: the group containing a stone, grown by shifts and ANDs inside its colour's
//! plane, a word at a time when the lanes lie inside words.

use super::layout::neighbours_word;
use super::types::Scratch;
use super::Board;

impl Board {
    /// Flood the group of colour `colour` containing internal cell `start` into `g` (see
    /// [`Board::flood_in`]).
    #[inline]
    pub(super) fn flood(&self, colour: u8, start: usize, g: &mut Vec<u64>) -> (usize, usize) {
        with_slices!(self.flood_s(colour, start, g))
    }

    /// [`Board::flood`] with `S` slices.
    #[inline]
    pub(super) fn flood_s<const S: usize>(
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
    pub(super) fn flood_lanes<const S: usize, const L: u32>(
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
    pub(super) fn flood_in<const L: u32>(
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
    pub(super) fn flood_size(&self, cell: usize, scratch: &mut Scratch) -> (usize, u8) {
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
}
