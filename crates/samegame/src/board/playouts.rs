//! What the playout policies ask the board (a random start, the first group stone from it,
//! the scan of the group stones, the group stones to sample from) and the in-board playout
//! loops: the bit-sliced loop on the small boards of [`super::small`], and the choice between
//! it and the byte-board loop of `wide` on CPUs with AVX-512.

use super::layout::{first_group_cell_in, low_mask, COLUMNS, N, SLICE_WORDS};
use super::small::{
    any_group_cell, colour_of, flips, marks_word, plane, random_cell, remove, scan, visit,
};
use super::types::{Move, Scratch};
use super::Board;
use crate::playout::{most_frequent, two_most_frequent, BoardRule, LeastFrequent};
use puzzle_engine::Rng;

impl Board {
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
}

impl Board {
    /// A playout of `rule` ([`crate::playout::Tabu`], [`crate::playout::TabuColour`] with its
    /// tabu colour or [`crate::playout::DoubleTabu`]) of at most `limit` moves, the moves
    /// pushed onto `trace`: the same moves and the same random numbers as the playout
    /// through the chooser, in one loop with the slice count a constant. None (nothing
    /// played) unless the board is small and keeps no groups.
    pub(crate) fn tabu_playout(
        &mut self,
        rule: BoardRule,
        rng: &mut Rng,
        limit: usize,
        trace: Option<&mut Vec<Move>>,
    ) -> Option<usize> {
        if !self.small || self.cache.on {
            return None;
        }
        // One non-inlined instance per slice count and rule family.
        Some(match rule {
            BoardRule::DoubleTabu => {
                with_slices!(self.rule_playout_small::<DOUBLE>(rule, rng, limit, trace))
            }
            BoardRule::Pseudo(_) | BoardRule::PseudoTabu(_) => {
                with_slices!(self.rule_playout_small::<PSEUDO>(rule, rng, limit, trace))
            }
            #[cfg(target_arch = "x86_64")]
            BoardRule::Tabu | BoardRule::TabuColour(_) if super::wide::available() => {
                // SAFETY: `available` found AVX-512 F, BW, VBMI and VBMI2, BMI1 and POPCNT on
                // this CPU, the features the function is compiled for.
                unsafe { self.tabu_playout_wide(rule, rng, limit, trace) }
            }
            _ => with_slices!(self.rule_playout_small::<TABU>(rule, rng, limit, trace)),
        })
    }

    /// [`Board::tabu_playout`] with `S` slices, of the rules of `MODE` ([`TABU`], [`DOUBLE`]
    /// or [`PSEUDO`]): the stones, heights and group stones are copied into local arrays
    /// for the playout and back after it, and the tabu colours are recomputed only when a
    /// move removed stones of one of them (the most frequent colours stay the most
    /// frequent, ties to the lowest, while other colours lose stones).
    #[inline(never)]
    pub(super) fn rule_playout_small<const S: usize, const MODE: u8>(
        &mut self,
        rule: BoardRule,
        rng_out: &mut Rng,
        limit: usize,
        mut trace: Option<&mut Vec<Move>>,
    ) -> usize {
        let mut sl: [u64; SLICE_WORDS] = self.slices[..SLICE_WORDS].try_into().unwrap();
        let mut heights: [u8; COLUMNS] = self.heights[..COLUMNS].try_into().unwrap();
        let mut marks: [u64; N] = self.marks[..N].try_into().unwrap();
        let mut columns = self.columns;
        // The tabu colour, and the second one of the double tabu (0: none).
        let tabu_colours = |board: &Board| match rule {
            BoardRule::Tabu => (most_frequent(board), 0),
            BoardRule::TabuColour(t) => (t, 0),
            BoardRule::DoubleTabu => two_most_frequent(board),
            BoardRule::PseudoTabu(_) => (most_frequent(board), 0),
            BoardRule::Pseudo(_) => (0, 0),
        };
        let (mut tabu, mut second) = tabu_colours(self);
        // Their slice flips for [`plane`].
        let (mut tabu_flip, mut second_flip) = (flips::<S>(tabu as u32), flips::<S>(second as u32));
        let (mut played, mut size, mut points) = (0, 0, 0);
        // The generator's state stays in registers.
        let mut rng_local = rng_out.clone();
        let rng = &mut rng_local;
        // No column: no random start, no move ([`Board::random_start`]).
        while played < limit && columns != 0 {
            // The first non-tabu group stone from a random start, else (double tabu) the
            // first of the second tabu colour from another, else the first group stone
            // from another; each start drawn even when no colour is to be looked for.
            let p = random_cell(rng, columns, &heights);
            let mut cell = None;
            // Only live colours have group stones: leave out the tabu colours'.
            if MODE == PSEUDO {
                // [`crate::playout::PseudoRandomTabu`] ([`crate::playout::PseudoRandom`]
                // without the tabu): of the first `k` group stones (of the colours not
                // tabu) from the start, the first of the colour with the fewest stones.
                let (k, with_tabu) = match rule {
                    BoardRule::PseudoTabu(k) => (k.max(1), true),
                    BoardRule::Pseudo(k) => (k.max(1), false),
                    _ => (1, false),
                };
                let counts = &self.counts;
                let least = |marks: &[u64; N], p: usize, tabu: bool| {
                    let mut least = LeastFrequent::new(k);
                    let filter = |i: usize| if tabu { !plane(&sl, &tabu_flip, i) } else { !0 };
                    visit(marks, p, filter, |cell| {
                        let colour = colour_of::<S>(&sl, cell >> 6, (cell & 63) as u32).0;
                        least.offer(cell, counts[colour as usize])
                    });
                    least.cell()
                };
                cell = least(&marks, p, with_tabu);
                if with_tabu && cell.is_none() {
                    let p = random_cell(rng, columns, &heights);
                    cell = least(&marks, p, false);
                }
            } else if MODE == DOUBLE {
                if self.live & !(1u32 << tabu) & !(1u32 << second) != 0 {
                    cell = scan(&marks, p, |i| {
                        !(plane(&sl, &tabu_flip, i) | plane(&sl, &second_flip, i))
                    });
                }
                if cell.is_none() {
                    let p = random_cell(rng, columns, &heights);
                    if self.live & (1u32 << second) != 0 {
                        cell = scan(&marks, p, |i| plane(&sl, &second_flip, i));
                    }
                }
            } else if self.live & !(1u32 << tabu) != 0 {
                cell = scan(&marks, p, |i| !plane(&sl, &tabu_flip, i));
            }
            if MODE != PSEUDO && cell.is_none() {
                cell = any_group_cell(rng, columns, &heights, &marks, self.live);
            }
            let Some(cell) = cell else {
                break;
            };
            if let Some(trace) = trace.as_deref_mut() {
                trace.push(self.move_of(cell as u16));
            }
            let (colour, flip) = colour_of::<S>(&sl, cell >> 6, (cell & 63) as u32);
            debug_assert!(colour != 0, "removing an empty cell");
            let r = remove::<S>(&mut sl, &mut heights, &mut columns, &flip, cell);
            // The group stones of the changed words, at once (not when a scan reads them:
            // that puts them on the chain of dependent steps of the next move, and costs
            // a test a word read).
            let mut words = r.words;
            while words != 0 {
                let i = words.trailing_zeros() as usize & (N - 1);
                marks[i] = marks_word::<S>(&sl, i);
                words &= words - 1;
            }
            #[cfg(debug_assertions)]
            for (i, &m) in marks.iter().enumerate() {
                debug_assert_eq!(m, marks_word::<S>(&sl, i), "group stones kept");
            }
            // [`Board::account`], the stones, points and moves summed up after the loop.
            self.take_stones(colour, r.size);
            size += r.size;
            points += self.scoring.group_points(r.size);
            if !matches!(rule, BoardRule::TabuColour(_)) && (colour == tabu || colour == second) {
                (tabu, second) = tabu_colours(self);
                tabu_flip = flips::<S>(tabu as u32);
                second_flip = flips::<S>(second as u32);
            }
            debug_assert_eq!((tabu, second), tabu_colours(self), "tabu colours kept");
            played += 1;
        }
        self.slices[..SLICE_WORDS].copy_from_slice(&sl);
        self.heights[..COLUMNS].copy_from_slice(&heights);
        self.marks[..N].copy_from_slice(&marks);
        self.columns = columns;
        self.stones -= size;
        self.points += points;
        self.moves += played as u32;
        *rng_out = rng_local;
        #[cfg(debug_assertions)]
        {
            let kept = self.marks.clone();
            self.update_marks_lanes::<S, 16>(0, N);
            debug_assert_eq!(kept, self.marks, "group stones kept out of date");
        }
        played
    }
}

/// The in-board playout loops: [`BoardRule::Tabu`] and [`BoardRule::TabuColour`].
pub(super) const TABU: u8 = 0;
/// [`BoardRule::DoubleTabu`].
const DOUBLE: u8 = 1;
/// [`BoardRule::Pseudo`] and [`BoardRule::PseudoTabu`].
const PSEUDO: u8 = 2;
