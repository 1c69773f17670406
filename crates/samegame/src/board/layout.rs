//! The pieces of the bit layout that the general paths and the fixed-size paths of
//! [`super::small`] share: the word operations on column lanes (shifts across words, bit and
//! lane deletion, runs of removed stones, the wrapping scan for a group stone) and the
//! geometry of the small boards (four words of 16-bit lanes per slice). A leaf module: it
//! uses nothing else of the board.

/// Bits `0..n` set (all for `n ≥ 64`).
#[inline]
pub(super) fn low_mask(n: u32) -> u64 {
    debug_assert!(n <= 64);
    if n < 64 {
        (1 << n) - 1
    } else {
        !0
    }
}

/// Word `i` of the multi-word bitset of `len` words `m(0..len)` shifted towards higher bits
/// by `64·q + r`.
#[inline(always)]
pub(super) fn shl_word(m: &impl Fn(usize) -> u64, i: usize, q: usize, r: u32) -> u64 {
    if i < q {
        return 0;
    }
    let j = i - q;
    if r == 0 {
        m(j)
    } else if j > 0 {
        (m(j) << r) | (m(j - 1) >> (64 - r))
    } else {
        m(j) << r
    }
}

/// Word `i` of the multi-word bitset of `len` words `m(0..len)` shifted towards lower bits
/// by `64·q + r`.
#[inline(always)]
pub(super) fn shr_word(m: &impl Fn(usize) -> u64, len: usize, i: usize, q: usize, r: u32) -> u64 {
    let j = i + q;
    if j >= len {
        return 0;
    }
    if r == 0 {
        m(j)
    } else if j + 1 < len {
        (m(j) >> r) | (m(j + 1) << (64 - r))
    } else {
        m(j) >> r
    }
}

/// Word `i` of the cells next to a stone of the bitset of `len` words `m(0..len)` (up,
/// down, left, right; lanes of `64·q + r` bits).
#[inline(always)]
pub(super) fn neighbours_word(
    m: &impl Fn(usize) -> u64,
    len: usize,
    i: usize,
    q: usize,
    r: u32,
) -> u64 {
    shl_word(m, i, 0, 1)
        | shr_word(m, len, i, 0, 1)
        | shl_word(m, i, q, r)
        | shr_word(m, len, i, q, r)
}

/// Bits `[pos, pos + 64)` of `words` (zero past the end).
#[inline]
pub(super) fn extract64(words: &[u64], pos: usize) -> u64 {
    let (w, s) = (pos >> 6, (pos & 63) as u32);
    let lo = words.get(w).map_or(0, |&x| x >> s);
    let hi = if s == 0 {
        0
    } else {
        words.get(w + 1).map_or(0, |&x| x << (64 - s))
    };
    lo | hi
}

/// Delete bits `[pos, pos + len)` of `words`, moving every higher bit down by `len` (zeros
/// come in at the top).
#[inline]
pub(super) fn delete_bits(words: &mut [u64], pos: usize, len: usize) {
    let i0 = pos >> 6;
    if i0 >= words.len() {
        return;
    }
    let o = (pos & 63) as u32;
    let first = (words[i0] & low_mask(o)) | (extract64(words, pos + len) << o);
    words[i0] = first;
    for i in i0 + 1..words.len() {
        words[i] = extract64(words, 64 * i + len);
    }
}

/// The first group stone (a set bit of `marks`, the words to scan) from internal cell `p`,
/// wrapping around, whose colour is in `set` (a non-empty set of the `live` colours), with
/// word `i` of colour slice `k` read as `slice_word(k, i)`: the scan of
/// [`Board::first_group_cell`](super::Board::first_group_cell) for any slice layout.
#[inline(always)]
pub(super) fn first_group_cell_in<const S: usize>(
    live: u32,
    marks: &[u64],
    p: usize,
    set: u32,
    slice_word: impl Fn(usize, usize) -> u64,
) -> Option<usize> {
    // A colour's plane: each slice as it is where the colour has a bit, else complemented.
    let plane = |colour: u32, i: usize| {
        (0..S).fold(!0, |m, k| {
            m & (slice_word(k, i) ^ ((colour >> k & 1) as u64).wrapping_sub(1))
        })
    };
    // Only live colours have group stones: filter by the live colours out of `set`, or by
    // the one in it.
    let out = live & !set;
    let (filter, keep) = if out & out.wrapping_sub(1) != 0 && set & (set - 1) == 0 {
        (set, true)
    } else {
        (out, false)
    };
    let (w0, b0) = (p >> 6, (p & 63) as u32);
    let found = if filter == 0 {
        first_set_from(marks, w0, b0, |_, w| w)
    } else if filter & (filter - 1) == 0 {
        let colour = filter.trailing_zeros();
        let keep_mask = if keep { 0 } else { !0 };
        first_set_from(marks, w0, b0, |i, w| w & (plane(colour, i) ^ keep_mask))
    } else {
        first_set_from(marks, w0, b0, |i, w| {
            let mut f = filter;
            let mut m = 0;
            while f != 0 {
                m |= plane(f.trailing_zeros(), i);
                f &= f - 1;
            }
            if keep {
                w & m
            } else {
                w & !m
            }
        })
    };
    found.map(|(i, w)| i * 64 + w.trailing_zeros() as usize)
}

/// A run of removed stones, as gravity needs it: see [`take_top_run`].
pub(super) struct Run {
    /// Stones in the run.
    pub(super) len: u32,
    /// The first bit of the run's lane.
    pub(super) lane_start: u32,
    /// The lane's bits from the run up.
    pub(super) from: u64,
    /// The lane's bits above the run (they drop by `len`).
    pub(super) above: u64,
}

/// Take the top run of set bits off `removed` (a word of removed stones whose runs stay
/// inside lanes of `lane_bits` bits below bit 63; `lane0` is the lowest lane's mask).
#[inline(always)]
pub(super) fn take_top_run(removed: &mut u64, lane_bits: u32, lane0: u64) -> Run {
    let top = 63 - removed.leading_zeros();
    debug_assert!(top < 63);
    let end_bit = 2u64 << top;
    let below = !*removed & (end_bit - 1);
    let start = 64 - below.leading_zeros();
    let start_bit = 1u64 << start;
    *removed &= start_bit - 1;
    let lane_start = start & !(lane_bits - 1);
    let lane = lane0 << lane_start;
    Run {
        len: top + 1 - start,
        lane_start,
        from: lane & start_bit.wrapping_neg(),
        above: lane & end_bit.wrapping_neg(),
    }
}

/// Delete the lane of `s < 64` bits at bit `pos` (a multiple of `s`) of `words`, whose last
/// word is zero, moving the higher lanes down one lane.
#[inline]
pub(super) fn delete_lane(words: &mut [u64], pos: usize, s: u32) {
    let (i0, o) = (pos >> 6, (pos & 63) as u32);
    let n = words.len() - 1;
    let w = words[i0];
    words[i0] =
        (w & low_mask(o)) | (w.checked_shr(o + s).unwrap_or(0) << o) | (words[i0 + 1] << (64 - s));
    for i in i0 + 1..n {
        words[i] = (words[i] >> s) | (words[i + 1] << (64 - s));
    }
}

/// The first word, with its index, of the words `marks` filtered by `filter(i, word i)`
/// (which must map 0 to 0) that is non-zero, in scan order from bit `b0` of word `w0`
/// wrapping around: word `w0` from bit `b0`, the words after it, the words before it, then
/// word `w0` below bit `b0`. Only the bits in that range are passed to `filter`, and it is
/// called at one place, so it inlines.
#[inline(always)]
pub(super) fn first_set_from(
    marks: &[u64],
    w0: usize,
    b0: u32,
    filter: impl Fn(usize, u64) -> u64,
) -> Option<(usize, u64)> {
    let n = marks.len();
    let below = low_mask(b0);
    let (mut i, mut mask) = (w0, !below);
    for step in 0..=n {
        let w = marks[i] & mask;
        if w != 0 {
            let w = filter(i, w);
            if w != 0 {
                return Some((i, w));
            }
        }
        i += 1;
        if i == n {
            i = 0;
        }
        mask = if step + 1 == n { below } else { !0 };
    }
    None
}

/// Words per slice.
pub(super) const N: usize = 4;
/// Bits per column lane.
pub(super) const L: u32 = 16;
/// `log2(L)`.
pub(super) const LOG: u32 = 4;
/// Distance between two slices in `Board::slices`: the words and a zero separator.
const STEP: usize = N + 1;

/// The length of `Board::slices` on a small board: five slices and their separators.
pub(super) const SLICE_WORDS: usize = STEP * 5 + 1;
/// The length of `Board::heights` on a small board.
pub(super) const COLUMNS: usize = N * 64 / L as usize;

/// A board of `words` words per bitboard and lanes of `stride` bits takes the paths of
/// [`super::small`].
pub(super) fn fits(words: usize, stride: usize) -> bool {
    words == N && stride == L as usize
}

/// Index in `Board::slices` of word `i` (below `N`) of slice `k`.
#[inline(always)]
pub(super) fn at(k: usize, i: usize) -> usize {
    1 + STEP * k + (i & (N - 1))
}
