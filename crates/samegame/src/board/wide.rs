//! The tabu playout loop of [`super::playouts`] on a byte board in 512-bit vectors, for
//! CPUs that have AVX-512 BW, VBMI and VBMI2 (found at run time; every other CPU, and
//! `PUZZLE_NO_AVX512=1`, takes the bit-sliced loop).
//!
//! A small board's 16 column lanes of 16 cells are 256 bytes, one byte per cell holding its
//! colour (0 = empty): four 512-bit words, word `i` holding columns `4i..4i + 4`, so byte `b`
//! of word `i` is bit `b` of word `i` of every bitboard of the bit-sliced layout. Then
//! - a colour's plane word is one byte compare (`vpcmpeqb` into a 64-bit mask);
//! - gravity in a word is one compress of its kept stones (`vpcompressb`) and one expand
//!   to the columns' new heights (`vpexpandb`), for all four columns at once, with no loop
//!   over removed runs;
//! - the group stones of a word are four compares with the word shifted by a byte inside
//!   each column (up, down) and by a column across words (left, right);
//! - an emptied column is deleted by shifting the later columns down a column (`valignq`).
//!
//! The cell scan and the flood are the bit-sliced loop's own functions and the accounting is
//! the same, so a playout draws the same random numbers and plays the same moves (tested
//! against it move for move). The rules are the Czech thesis's Random Tabu (§3.3.3: the most
//! frequent colour is not played while another colour has a group) and, with a fixed colour,
//! Schadd et al.'s TabuColorRandom (SP-MCTS).

use super::layout::{at, COLUMNS, N, SLICE_WORDS};
use super::small::{any_group_cell, flood_plane, random_cell, scan};
use super::types::Move;
use super::Board;
use crate::playout::{most_frequent, BoardRule};
use core::arch::x86_64::*;
use puzzle_engine::Rng;
use std::sync::OnceLock;

/// Whether this CPU runs the byte-board loop (AVX-512 BW, VBMI and VBMI2, checked once),
/// unless `PUZZLE_NO_AVX512` is set to anything but `0` (to measure the bit-sliced loop on
/// the same machine). The variable changes the speed only, never a result: both loops play
/// the same moves with the same random numbers (`byte_board_plays_the_bit_sliced_moves`
/// compares them).
pub(super) fn available() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| {
        let off = std::env::var("PUZZLE_NO_AVX512").is_ok_and(|v| v != "0");
        !off && is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512bw")
            && is_x86_feature_detected!("avx512vbmi")
            && is_x86_feature_detected!("avx512vbmi2")
            && is_x86_feature_detected!("bmi1")
            && is_x86_feature_detected!("popcnt")
    })
}

/// The group stones of word `i` (1 to 4) of the byte board `z` (words 0 and 5 are empty):
/// occupied cells equal to the cell above, below, left or right.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn marks_word(z: &[__m512i; N + 2], i: usize) -> u64 {
    let (x, prev, next) = (z[i], z[i - 1], z[i + 1]);
    // Inside a column (a 128-bit lane): byte `r` against byte `r + 1` and `r − 1`.
    let up = _mm512_bsrli_epi128::<1>(x);
    let down = _mm512_bslli_epi128::<1>(x);
    // Across columns: the column before (the last of the previous word for the first) and
    // after (the first of the next word for the last).
    let left = _mm512_alignr_epi64::<6>(x, prev);
    let right = _mm512_alignr_epi64::<2>(next, x);
    let occupied = _mm512_test_epi8_mask(x, x);
    let same = _mm512_cmpeq_epi8_mask(x, up)
        | _mm512_cmpeq_epi8_mask(x, down)
        | _mm512_cmpeq_epi8_mask(x, left)
        | _mm512_cmpeq_epi8_mask(x, right);
    occupied & same
}

impl Board {
    /// [`Board::tabu_playout`] for [`BoardRule::Tabu`] and [`BoardRule::TabuColour`] on a
    /// small board, on the byte board of this module: the same moves, random numbers and
    /// final board as the bit-sliced loop.
    ///
    /// Only called when [`available`] found the features enabled here.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,bmi1,popcnt")]
    pub(super) fn tabu_playout_wide(
        &mut self,
        rule: BoardRule,
        rng_out: &mut Rng,
        limit: usize,
        mut trace: Option<&mut Vec<Move>>,
    ) -> usize {
        debug_assert!(self.small && matches!(rule, BoardRule::Tabu | BoardRule::TabuColour(_)));
        let nslices = self.nslices;
        // Words 1 to 4 hold the columns; words 0 and 5 stay empty (the neighbours of the
        // first and last column).
        let zero = _mm512_setzero_si512();
        let mut z = [zero; N + 2];
        {
            let sl: &[u64; SLICE_WORDS] = self.slices[..SLICE_WORDS].try_into().unwrap();
            for i in 0..N {
                let mut w = zero;
                for k in 0..nslices {
                    let bit = _mm512_set1_epi8(1 << k);
                    w = _mm512_or_si512(w, _mm512_maskz_mov_epi8(sl[at(k, i)], bit));
                }
                z[i + 1] = w;
            }
        }
        let mut heights: [u8; COLUMNS] = self.heights[..COLUMNS].try_into().unwrap();
        let mut marks: [u64; N] = self.marks[..N].try_into().unwrap();
        let mut columns = self.columns;
        let tabu_colour = |board: &Board| match rule {
            BoardRule::TabuColour(t) => t,
            _ => most_frequent(board),
        };
        let mut tabu = tabu_colour(self);
        let mut tabu_v = _mm512_set1_epi8(tabu as i8);
        let (mut played, mut size, mut points) = (0, 0, 0);
        let mut rng_local = rng_out.clone();
        let rng = &mut rng_local;
        while played < limit && columns != 0 {
            // The first non-tabu group stone from a random start, else the first group
            // stone from another ([`super::playouts`]' loop, [`Board::random_start`]).
            let p = random_cell(rng, columns, &heights);
            let mut cell = None;
            if self.live & !(1u32 << tabu) != 0 {
                cell = scan(&marks, p, |i| {
                    !_mm512_cmpeq_epi8_mask(z[(i & (N - 1)) + 1], tabu_v)
                });
            }
            if cell.is_none() {
                cell = any_group_cell(rng, columns, &heights, &marks, self.live);
            }
            let Some(cell) = cell else {
                break;
            };
            if let Some(trace) = trace.as_deref_mut() {
                trace.push(self.move_of(cell as u16));
            }
            let (wi, bi) = ((cell >> 6) & (N - 1), cell & 63);
            // The cell's colour in every byte.
            let colour_v = _mm512_permutexvar_epi8(_mm512_set1_epi8(bi as i8), z[wi + 1]);
            let colour = _mm_cvtsi128_si32(_mm512_castsi512_si128(colour_v)) as u8;
            debug_assert!(colour != 0, "removing an empty cell");
            let mut g = [0u64; N];
            let reached = flood_plane(
                |i| _mm512_cmpeq_epi8_mask(z[(i & (N - 1)) + 1], colour_v),
                cell,
                &mut g,
            );
            let lo = reached.trailing_zeros() as usize;
            let hi = 31 - reached.leading_zeros() as usize;
            // Gravity, a word at a time: the kept stones packed and spread over the columns'
            // new heights.
            let (mut removed, mut emptied) = (0usize, false);
            for wi in lo..=hi {
                let gw = g[wi & (N - 1)];
                let x = z[(wi & (N - 1)) + 1];
                let occupied = _mm512_test_epi8_mask(x, x);
                // The four columns' new heights and stones, without a branch.
                let mut fallen = 0;
                for j in 0..4 {
                    let lane = (gw >> (16 * j) & 0xffff).count_ones() as u8;
                    let h = &mut heights[(wi * 4 + j) & (COLUMNS - 1)];
                    *h -= lane;
                    emptied |= (*h == 0) & (lane != 0);
                    fallen |= ((1u64 << *h) - 1) << (16 * j);
                }
                removed += gw.count_ones() as usize;
                let packed = _mm512_maskz_compress_epi8(occupied & !gw, x);
                z[(wi & (N - 1)) + 1] = _mm512_maskz_expand_epi8(fallen, packed);
            }
            if emptied {
                let first = (lo * 64 + g[lo & (N - 1)].trailing_zeros() as usize) >> 4;
                let last = (hi * 64 + 63 - g[hi & (N - 1)].leading_zeros() as usize) >> 4;
                for c in (first..=last).rev() {
                    if heights[c & (COLUMNS - 1)] == 0 {
                        delete_column(&mut z, c);
                        let h = &mut heights[c & (COLUMNS - 1)..];
                        h.copy_within(1.., 0);
                        h[h.len() - 1] = 0;
                        columns -= 1;
                    }
                }
            }
            // The group stones of every word: four compares a word, no branch (recomputing
            // only the words next to the group's columns was no faster).
            for (i, m) in marks.iter_mut().enumerate() {
                *m = marks_word(&z, i + 1);
            }
            // [`Board::account`], the stones, points and moves summed up after the loop.
            self.take_stones(colour, removed);
            size += removed;
            points += self.scoring.group_points(removed);
            if colour == tabu {
                tabu = tabu_colour(self);
                tabu_v = _mm512_set1_epi8(tabu as i8);
            }
            played += 1;
        }
        let sl = &mut self.slices[..SLICE_WORDS];
        for i in 0..N {
            for k in 0..nslices {
                sl[at(k, i)] = _mm512_test_epi8_mask(z[i + 1], _mm512_set1_epi8(1 << k));
            }
        }
        self.heights[..COLUMNS].copy_from_slice(&heights);
        self.marks[..N].copy_from_slice(&marks);
        self.columns = columns;
        self.stones -= size;
        self.points += points;
        self.moves += played as u32;
        *rng_out = rng_local;
        played
    }
}

/// Delete column `c` (empty) of the byte board `z`: the columns after it move down one.
#[inline]
#[target_feature(enable = "avx512f")]
fn delete_column(z: &mut [__m512i; N + 2], c: usize) {
    let (w, j) = ((c >> 2) & (N - 1), c & 3);
    // The columns from `j` on of word `w` take the next column's stones; a column is two
    // 64-bit lanes.
    let shifted = _mm512_alignr_epi64::<2>(z[w + 2], z[w + 1]);
    z[w + 1] = _mm512_mask_blend_epi64(0xffu8 << (2 * j), z[w + 1], shifted);
    for v in w + 1..N {
        z[v + 1] = _mm512_alignr_epi64::<2>(z[v + 2], z[v + 1]);
    }
}

#[cfg(test)]
mod tests {
    use super::super::playouts::TABU;
    use super::*;
    use crate::Scoring;

    /// The byte-board loop plays the bit-sliced loop's moves and leaves the same board and
    /// generator, on random boards of every small size (13–16 columns of 8–15 rows) and 1 to
    /// 20 colours, for the tabu rule and a fixed tabu colour, from fresh and part-played
    /// positions, with and without a move limit.
    #[test]
    fn byte_board_plays_the_bit_sliced_moves() {
        if !available() {
            eprintln!("skipped: this CPU lacks AVX-512 BW, VBMI or VBMI2");
            return;
        }
        let mut games = 0;
        let mut moves = 0;
        for seed in 0..400u64 {
            let width = 13 + (seed % 4) as usize;
            let height = 8 + (seed / 4 % 8) as usize;
            let colours = 1 + (seed * 7 % 20) as usize;
            let board = Board::random(width, height, colours, seed, Scoring::standard()).unwrap();
            assert!(board.small);
            let rule = if seed % 3 == 0 {
                BoardRule::TabuColour(1 + (seed % colours as u64) as u8)
            } else {
                BoardRule::Tabu
            };
            let limit = if seed % 5 == 0 {
                1 + seed as usize % 30
            } else {
                usize::MAX
            };
            let mut rng = Rng::new(seed);
            let mut start = board.clone();
            // Part-played starts: a few bit-sliced moves first.
            if seed % 2 == 1 {
                with_slices!(start.rule_playout_small::<TABU>(BoardRule::Tabu, &mut rng, 5, None));
            }
            let (mut sliced, mut bytes) = (start.clone(), start.clone());
            let (mut rng_s, mut rng_b) = (rng.clone(), rng.clone());
            let (mut trace_s, mut trace_b) = (Vec::new(), Vec::new());
            let played_s = with_slices!(sliced.rule_playout_small::<TABU>(
                rule,
                &mut rng_s,
                limit,
                Some(&mut trace_s)
            ));
            // SAFETY: `available` found the features the function is compiled for.
            let played_b =
                unsafe { bytes.tabu_playout_wide(rule, &mut rng_b, limit, Some(&mut trace_b)) };
            assert_eq!(played_s, played_b, "seed {seed}");
            assert_eq!(trace_s, trace_b, "seed {seed}");
            assert!(sliced == bytes, "seed {seed}: boards differ");
            assert_eq!(rng_s.next_u64(), rng_b.next_u64(), "seed {seed}");
            games += 1;
            moves += played_b;
        }
        assert_eq!(games, 400);
        assert!(moves > 4000, "{moves} moves");
    }
}
