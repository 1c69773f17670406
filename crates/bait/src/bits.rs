//! A fixed-size cell bitset (the state's boxes, holes, mushrooms, keys and doors).

/// Words in a [`Bits`].
pub const WORDS: usize = 4;
/// Cells a [`Bits`] can hold.
pub const CAPACITY: usize = WORDS * 64;

/// A set of cells as a fixed array of 64-bit words: `Copy`, no heap.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bits(pub [u64; WORDS]);

impl Bits {
    /// The empty set.
    pub const EMPTY: Bits = Bits([0; WORDS]);

    /// Is `cell` in the set?
    #[inline]
    pub fn get(&self, cell: usize) -> bool {
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

    /// No cell in the set.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// Number of cells in the set.
    #[inline]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// The cells in the set, in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = u16> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &w)| {
            let mut word = w;
            std::iter::from_fn(move || {
                if word == 0 {
                    None
                } else {
                    let b = word.trailing_zeros();
                    word &= word - 1;
                    Some((i * 64) as u16 + b as u16)
                }
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_get_clear_iterate() {
        let mut b = Bits::EMPTY;
        for c in [0, 63, 64, 200, 255] {
            b.set(c);
        }
        assert!(b.get(63) && b.get(64) && !b.get(65));
        assert_eq!(b.count(), 5);
        assert_eq!(b.iter().collect::<Vec<_>>(), vec![0, 63, 64, 200, 255]);
        b.clear(64);
        assert!(!b.get(64));
        assert_eq!(b.count(), 4);
    }
}
