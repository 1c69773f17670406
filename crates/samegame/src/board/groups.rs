//! Groups: enumeration of every removable group (the lowest group stone left, its flood,
//! its stones struck off), their codes for NRPA, the selective policy's moves, the kept
//! groups refreshed in the columns a move changed, and the group of a move.

use super::layout::low_mask;
use super::rules::zobrist_key;
use super::types::{CachedGroup, ChangedColumns, Group, Move, Scratch, SCRATCH};
use super::Board;

impl Board {
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
    pub(super) fn refresh_groups(&mut self, changed: ChangedColumns, scratch: &mut Scratch) {
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

    /// Size of the group containing internal cell `cell` (a stone; 1 for a lone stone).
    pub fn group_size(&self, cell: usize, scratch: &mut Scratch) -> usize {
        self.flood_size(cell, scratch).0
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
