//! Fixed-size cell bitsets for grid games (see `docs/METHODS.md#engine-speed`; used by the Sokoban
//! generator's board and by Bait's state).
//!
//! `N` 64-bit words hold up to `64·N` cells, inline and `Copy`, so cloning a state made of a
//! handful of these is a `memcpy` of a few dozen bytes. Games that shift whole sets (flood fills
//! by shifts and masks) lay their boards out with a padding column so that a one-cell shift
//! cannot wrap into the next row once masked.

/// A set of cells as `N` 64-bit words (`64·N` cells at most).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Bits<const N: usize>(pub [u64; N]);

impl<const N: usize> Default for Bits<N> {
    fn default() -> Self {
        Bits([0; N])
    }
}

impl<const N: usize> Bits<N> {
    /// The empty set.
    pub const EMPTY: Self = Bits([0; N]);

    /// Number of cells this set can hold.
    pub const CAPACITY: usize = 64 * N;

    /// The set holding only `cell`.
    #[inline]
    pub fn single(cell: usize) -> Self {
        let mut b = Self::EMPTY;
        b.set(cell);
        b
    }

    /// Is `cell` in the set?
    #[inline]
    pub fn has(&self, cell: usize) -> bool {
        self.0[cell >> 6] >> (cell & 63) & 1 != 0
    }

    /// Add `cell`.
    #[inline]
    pub fn set(&mut self, cell: usize) {
        self.0[cell >> 6] |= 1 << (cell & 63);
    }

    /// Remove `cell`.
    #[inline]
    pub fn clear(&mut self, cell: usize) {
        self.0[cell >> 6] &= !(1 << (cell & 63));
    }

    /// Add the `len` cells `start..start + len` (`len ≤ 64`).
    #[inline]
    pub fn set_range(&mut self, start: usize, len: usize) {
        debug_assert!(len <= 64);
        if len == 0 {
            return;
        }
        let mask = if len == 64 {
            u64::MAX
        } else {
            (1u64 << len) - 1
        };
        let (word, bit) = (start >> 6, start & 63);
        self.0[word] |= mask << bit;
        if bit != 0 && bit + len > 64 {
            self.0[word + 1] |= mask >> (64 - bit);
        }
    }

    /// Number of cells in the set.
    #[inline]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// The set is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// Intersection.
    #[inline]
    pub fn and(self, other: Self) -> Self {
        let mut out = self;
        for i in 0..N {
            out.0[i] &= other.0[i];
        }
        out
    }

    /// Union.
    #[inline]
    pub fn or(self, other: Self) -> Self {
        let mut out = self;
        for i in 0..N {
            out.0[i] |= other.0[i];
        }
        out
    }

    /// Symmetric difference.
    #[inline]
    pub fn xor(self, other: Self) -> Self {
        let mut out = self;
        for i in 0..N {
            out.0[i] ^= other.0[i];
        }
        out
    }

    /// `self` without the cells of `other`.
    #[inline]
    pub fn and_not(self, other: Self) -> Self {
        let mut out = self;
        for i in 0..N {
            out.0[i] &= !other.0[i];
        }
        out
    }

    /// Every cell index moved up by `k` (`0 < k < 64`); bits beyond the capacity are lost.
    #[inline]
    pub fn shift_up(self, k: u32) -> Self {
        debug_assert!(k > 0 && k < 64);
        let mut out = Self::EMPTY;
        for i in (0..N).rev() {
            let carry = if i > 0 { self.0[i - 1] >> (64 - k) } else { 0 };
            out.0[i] = (self.0[i] << k) | carry;
        }
        out
    }

    /// Every cell index moved down by `k` (`0 < k < 64`); cells below 0 are lost.
    #[inline]
    pub fn shift_down(self, k: u32) -> Self {
        debug_assert!(k > 0 && k < 64);
        let mut out = Self::EMPTY;
        for i in 0..N {
            let carry = if i + 1 < N {
                self.0[i + 1] << (64 - k)
            } else {
                0
            };
            out.0[i] = (self.0[i] >> k) | carry;
        }
        out
    }

    /// The lowest cell, if any.
    #[inline]
    pub fn first(&self) -> Option<usize> {
        for (i, &w) in self.0.iter().enumerate() {
            if w != 0 {
                return Some(i * 64 + w.trailing_zeros() as usize);
            }
        }
        None
    }

    /// The `n`-th lowest cell (0-based); `n` must be below [`Bits::count`].
    #[inline]
    pub fn nth(&self, mut n: u32) -> usize {
        for (i, &w) in self.0.iter().enumerate() {
            let c = w.count_ones();
            if n < c {
                let mut w = w;
                for _ in 0..n {
                    w &= w - 1;
                }
                return i * 64 + w.trailing_zeros() as usize;
            }
            n -= c;
        }
        panic!("Bits::nth: index beyond the set's size")
    }

    /// Iterate over the cells in increasing order.
    #[inline]
    pub fn iter(&self) -> BitsIter<N> {
        BitsIter {
            bits: *self,
            word: 0,
        }
    }
}

/// Iterator over the cells of a [`Bits`] set.
pub struct BitsIter<const N: usize> {
    bits: Bits<N>,
    word: usize,
}

impl<const N: usize> Iterator for BitsIter<N> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.word < N {
            let w = &mut self.bits.0[self.word];
            if *w != 0 {
                let bit = w.trailing_zeros() as usize;
                *w &= *w - 1;
                return Some(self.word * 64 + bit);
            }
            self.word += 1;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_carry_across_words() {
        let b = Bits::<2>::single(63);
        assert_eq!(b.shift_up(1), Bits::<2>::single(64));
        assert_eq!(Bits::<2>::single(64).shift_down(1), b);
        assert_eq!(Bits::<2>::single(127).shift_up(1), Bits::<2>::EMPTY);
        assert_eq!(Bits::<2>::single(0).shift_down(1), Bits::<2>::EMPTY);
    }

    #[test]
    fn nth_and_iter_agree() {
        let mut b = Bits::<2>::EMPTY;
        for c in [3, 17, 63, 64, 100] {
            b.set(c);
        }
        let cells: Vec<usize> = b.iter().collect();
        assert_eq!(cells, vec![3, 17, 63, 64, 100]);
        for (i, &c) in cells.iter().enumerate() {
            assert_eq!(b.nth(i as u32), c);
        }
        assert_eq!(b.count(), 5);
        assert_eq!(b.first(), Some(3));
    }

    #[test]
    fn set_range_spans_words() {
        let mut b = Bits::<2>::EMPTY;
        b.set_range(60, 8);
        assert_eq!(b.iter().collect::<Vec<_>>(), (60..68).collect::<Vec<_>>());
    }
}
