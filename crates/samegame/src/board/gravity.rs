//! Removing a group: its stones deleted from their lanes in every slice (gravity), the
//! emptied columns deleted (the column shift), the group stones next to the change
//! recomputed, and the removal counted.

use super::layout::{delete_bits, delete_lane, low_mask, take_top_run};
use super::types::{ChangedColumns, Scratch};
use super::Board;

impl Board {
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
    pub(super) fn delete_emptied_lanes<const S: usize>(
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
    pub(super) fn account(&mut self, colour: u8, size: usize) {
        self.take_stones(colour, size);
        self.stones -= size;
        self.points += self.scoring.group_points(size);
        self.moves += 1;
    }

    /// Count `size` stones of colour `colour` as removed (a group, `size ≥ 2`): the colour's
    /// stone count, and whether it can still form a group. The playout loops sum the stones,
    /// points and moves themselves.
    #[inline(always)]
    pub(super) fn take_stones(&mut self, colour: u8, size: usize) {
        debug_assert!(size >= 2, "removing a lone stone");
        self.counts[colour as usize] -= size as u16;
        if self.counts[colour as usize] < 2 {
            self.live &= !(1 << colour);
        }
    }
}
