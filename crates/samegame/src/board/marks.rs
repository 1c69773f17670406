//! The group stones (stones with a same-coloured neighbour) of every colour, kept up to date
//! by every move: computed a word at a time from the slices, and read filtered by colour.

use super::layout::neighbours_word;
use super::Board;

impl Board {
    /// Word `i` of the stones (of any colour) that have a same-coloured neighbour.
    #[inline(always)]
    fn group_word_all(&self, i: usize) -> u64 {
        self.marks[i]
    }

    /// Recompute words `a..b` of the group stones (`marks`) from the stones.
    pub(super) fn update_marks(&mut self, a: usize, b: usize) {
        with_slices!(self.update_marks_s(a, b))
    }

    /// [`Board::update_marks`] with `S` slices.
    #[inline]
    pub(super) fn update_marks_s<const S: usize>(&mut self, a: usize, b: usize) {
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
    pub(super) fn update_marks_lanes<const S: usize, const L: u32>(&mut self, a: usize, b: usize) {
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
    pub(super) fn group_word(&self, colour: u8, i: usize) -> u64 {
        self.marks[i] & self.colour_word(colour, i)
    }

    /// Word `i` of the group stones (stones with a same-coloured neighbour) of the colours
    /// in `set` (bit `k` = colour `k`).
    #[inline]
    pub(super) fn group_word_of(&self, set: u32, i: usize) -> u64 {
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
}
