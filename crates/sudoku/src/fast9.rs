//! The fast exact solver for 9×9 grids: band bitboards with constraint propagation and
//! branching on a bivalue cell (the "band" representation of the fastest published solvers,
//! written here from the idea, not from their code).
//!
//! Representation: for each digit d and band b (three rows), a 27-bit mask of the cells of the
//! band where d may still go; a cell whose digit is known keeps exactly its own bit in its
//! digit's mask. Propagation, per changed digit-band:
//! - **band shrink**: within a band each digit occupies one cell per row and per box, i.e. a
//!   perfect matching between the 3 rows and the 3 boxes; a row-box triplet that is in no
//!   matching is removed (this covers locked candidates and hidden singles in boxes and rows);
//! - a row left with one candidate fixes the digit there: the cell leaves the other digits'
//!   masks and its column leaves the digit's masks of the other bands;
//! - when nothing is pending: naked singles (bit-parallel count of candidates per cell; a cell
//!   without candidates is a contradiction), then the **stack shrink** for the digits changed
//!   since the last one: within a stack of three columns, a digit's columns and bands also form a
//!   perfect matching (this covers hidden singles in columns and box-column locked candidates).
//!
//! Search: a bivalue cell with the most bivalue cells in its row, column and box (else the cell
//! with the fewest candidates), one branch per digit; solutions are counted up to a limit, and
//! the guesses (branches tried) are the difficulty measure.

/// Bits of a band: 3 rows of 9.
const BAND: u32 = (1 << 27) - 1;

/// For a 9-bit row pattern, which of its 3 box triplets are non-empty (3 bits).
const ROW_TRIPLETS: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut x = 0;
    while x < 512 {
        t[x] = ((x & 7 != 0) as u8)
            | (((x >> 3) & 7 != 0) as u8) << 1
            | (((x >> 6) & 7 != 0) as u8) << 2;
        x += 1;
    }
    t
};

/// For the 9 flags "row r has a candidate in box k" (bit 3r+k), the 27-bit mask of the
/// triplets that belong to some row↔box perfect matching (0: none, a contradiction).
const SHRINK: [u32; 512] = {
    const PERMS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut t = [0u32; 512];
    let mut flags = 0usize;
    while flags < 512 {
        let mut keep = 0u32;
        let mut p = 0;
        while p < 6 {
            let mut ok = true;
            let mut m = 0u32;
            let mut r = 0;
            while r < 3 {
                let k = PERMS[p][r];
                if flags & (1 << (r * 3 + k)) == 0 {
                    ok = false;
                }
                m |= 7 << (9 * r + 3 * k);
                r += 1;
            }
            if ok {
                keep |= m;
            }
            p += 1;
        }
        t[flags] = keep;
        flags += 1;
    }
    t
};

/// For a cell (bit 0..27 of a band), its row and box within the band.
const ROW_BOX: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut p = 0;
    while p < 27 {
        let (r, c) = (p / 9, p % 9);
        let k = c / 3;
        t[p] = (0x1FF << (9 * r)) | (7 << (3 * k)) | (7 << (9 + 3 * k)) | (7 << (18 + 3 * k));
        p += 1;
    }
    t
};

/// Spread 3 bits to bits 0, 3 and 6.
const SPREAD3: [u32; 8] = [0, 1, 8, 9, 64, 65, 72, 73];

/// Replicate a 9-bit column set onto the 3 rows of a band.
const COLUMN_SPREAD: u32 = 1 | 1 << 9 | 1 << 18;

/// The solver state: digit-band masks and the cells not yet fixed.
#[derive(Clone, Copy, Debug)]
struct State {
    /// Index `b * 9 + d` (a band's nine digits are contiguous).
    f: [u32; 27],
    unsolved: [u32; 3],
}

#[inline(always)]
fn shrink_mask(s: u32) -> u32 {
    let flags = u32::from(ROW_TRIPLETS[(s & 0x1FF) as usize])
        | u32::from(ROW_TRIPLETS[((s >> 9) & 0x1FF) as usize]) << 3
        | u32::from(ROW_TRIPLETS[((s >> 18) & 0x1FF) as usize]) << 6;
    SHRINK[(flags & 0x1FF) as usize]
}

#[inline(always)]
fn single_rows(s: u32) -> u32 {
    // Every row of a shrunk mask is non-empty, so `s - 1` per row borrows within the row only:
    // `y` keeps, per row, the bits above the lowest, i.e. is non-zero exactly in rows with two
    // or more candidates.
    debug_assert!((0..3).all(|r| (s >> (9 * r)) & 0x1FF != 0));
    let y = s & s.wrapping_sub(COLUMN_SPREAD);
    let mut multi = 0u32;
    let mut r = 0;
    while r < 3 {
        let m = 0x1FF << (9 * r);
        multi |= u32::from(y & m != 0).wrapping_neg() & m;
        r += 1;
    }
    s & !multi
}

impl State {
    fn empty() -> State {
        State {
            f: [BAND; 27],
            unsolved: [BAND; 3],
        }
    }

    /// Fix digit `d` at band `b`, bit `p`; returns the digit-band to mark dirty or `None` if the
    /// digit is no longer possible there.
    #[inline(always)]
    fn place(&mut self, d: usize, b: usize, p: u32) -> Option<u32> {
        let k = b * 9 + d;
        let bit = 1u32 << p;
        if self.f[k] & bit == 0 {
            return None;
        }
        self.f[k] &= !ROW_BOX[p as usize] | bit;
        Some(1 << k)
    }

    /// Propagate until nothing changes. `false`: contradiction. On `true` the state is either
    /// solved or needs a guess.
    fn propagate(&mut self, mut dirty: u32) -> bool {
        // Digits changed since the last stack shrink (the others are still at its fixpoint).
        let mut touched = 0u32;
        loop {
            while dirty != 0 {
                let i = dirty.trailing_zeros() as usize;
                dirty &= dirty - 1;
                let (b, d) = (i / 9, i % 9);
                touched |= 1 << d;
                let shrunk = self.f[i] & shrink_mask(self.f[i]);
                if shrunk == 0 {
                    return false;
                }
                self.f[i] = shrunk;
                let fixed = single_rows(shrunk) & self.unsolved[b];
                if fixed == 0 {
                    continue;
                }
                self.unsolved[b] &= !fixed;
                // The fixed cells leave the band's other digits (branch-free over all nine,
                // then the digit's own mask is restored).
                let band = &mut self.f[b * 9..b * 9 + 9];
                let mut changed = 0u32;
                for (k, m) in band.iter_mut().enumerate() {
                    changed |= u32::from(*m & fixed != 0) << k;
                    *m &= !fixed;
                }
                band[d] = shrunk;
                dirty |= (changed & !(1 << d)) << (b * 9);
                let cols = (fixed | fixed >> 9 | fixed >> 18) & 0x1FF;
                let spread = cols * COLUMN_SPREAD;
                for ob in 0..3 {
                    let k = ob * 9 + d;
                    if ob != b && self.f[k] & spread != 0 {
                        self.f[k] &= !spread;
                        dirty |= 1 << k;
                    }
                }
            }
            if self.unsolved == [0; 3] {
                return true;
            }
            // Naked singles.
            for b in 0..3 {
                let (mut once, mut twice) = (0u32, 0u32);
                for &x in &self.f[b * 9..b * 9 + 9] {
                    twice |= once & x;
                    once |= x;
                }
                let u = self.unsolved[b];
                if u & !once != 0 {
                    return false;
                }
                let singles = u & !twice;
                if singles == 0 {
                    continue;
                }
                // Place each digit's singles (a single emptied by another one placed just
                // before, in the same row or box, is a contradiction).
                for d in 0..9 {
                    let k = b * 9 + d;
                    let mut hits = self.f[k] & singles;
                    if hits == 0 {
                        continue;
                    }
                    dirty |= 1 << k;
                    let mut m = self.f[k];
                    while hits != 0 {
                        let p = hits.trailing_zeros();
                        hits &= hits - 1;
                        let bit = 1u32 << p;
                        if m & bit == 0 {
                            return false;
                        }
                        m &= !ROW_BOX[p as usize] | bit;
                    }
                    self.f[k] = m;
                }
            }
            if dirty != 0 {
                continue;
            }
            // Stack shrink: in each stack, a digit's columns and bands form a perfect matching
            // too (locked candidates between boxes and columns).
            while touched != 0 {
                let d = touched.trailing_zeros() as usize;
                touched &= touched - 1;
                let mut present = [0u32; 3];
                for (b, pres) in present.iter_mut().enumerate() {
                    let x = self.f[b * 9 + d];
                    *pres = (x | x >> 9 | x >> 18) & 0x1FF;
                }
                let mut keep = [0u32; 3];
                for s in 0..3 {
                    let mut flags = 0u32;
                    for (b, pres) in present.iter().enumerate() {
                        flags |= SPREAD3[((pres >> (3 * s)) & 7) as usize] << b;
                    }
                    let allowed = SHRINK[flags as usize];
                    if allowed == 0 {
                        return false;
                    }
                    for (b, k) in keep.iter_mut().enumerate() {
                        let cols = ((allowed >> (3 * b)) & 1)
                            | ((allowed >> (9 + 3 * b)) & 1) << 1
                            | ((allowed >> (18 + 3 * b)) & 1) << 2;
                        *k |= cols << (3 * s);
                    }
                }
                for (b, k) in keep.iter().enumerate() {
                    let i = b * 9 + d;
                    let new = self.f[i] & (k * COLUMN_SPREAD);
                    if new != self.f[i] {
                        self.f[i] = new;
                        dirty |= 1 << i;
                    }
                }
            }
            if dirty == 0 {
                return true;
            }
        }
    }

    /// A cell to branch on: (band, bit, digit mask), preferring bivalue cells.
    fn branch_cell(&self) -> (usize, u32, u32) {
        let mut bivalue = [0u32; 3];
        for (b, bv) in bivalue.iter_mut().enumerate() {
            let (mut once, mut twice, mut thrice) = (0u32, 0u32, 0u32);
            for &x in &self.f[b * 9..b * 9 + 9] {
                thrice |= twice & x;
                twice |= once & x;
                once |= x;
            }
            *bv = self.unsolved[b] & twice & !thrice;
        }
        // The bivalue cell with the most bivalue cells among its row, box and column.
        let mut pick: Option<(usize, u32)> = None;
        let mut pick_count = 0;
        for b in 0..3 {
            let mut cells = bivalue[b];
            while cells != 0 {
                let p = cells.trailing_zeros();
                cells &= cells - 1;
                let column = (COLUMN_SPREAD << (p % 9)) & BAND;
                let k = (bivalue[b] & ROW_BOX[p as usize]).count_ones()
                    + (bivalue[(b + 1) % 3] & column).count_ones()
                    + (bivalue[(b + 2) % 3] & column).count_ones();
                if k > pick_count {
                    pick_count = k;
                    pick = Some((b, p));
                }
            }
        }
        if let Some((b, p)) = pick {
            return (b, p, self.digits_at(b, p));
        }
        let mut best = (0, 0, 0);
        let mut best_count = u32::MAX;
        for b in 0..3 {
            let mut u = self.unsolved[b];
            while u != 0 {
                let p = u.trailing_zeros();
                u &= u - 1;
                let m = self.digits_at(b, p);
                if m.count_ones() < best_count {
                    best_count = m.count_ones();
                    best = (b, p, m);
                }
            }
        }
        best
    }

    fn digits_at(&self, b: usize, p: u32) -> u32 {
        let mut m = 0;
        for d in 0..9 {
            m |= ((self.f[b * 9 + d] >> p) & 1) << d;
        }
        m
    }

    fn write_solution(&self, out: &mut [u8; 81]) {
        for d in 0..9 {
            for b in 0..3 {
                let mut x = self.f[b * 9 + d];
                while x != 0 {
                    let p = x.trailing_zeros() as usize;
                    x &= x - 1;
                    out[b * 27 + p] = d as u8 + 1;
                }
            }
        }
    }
}

/// Result of an exact 9×9 search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome9 {
    /// Solutions found (stops at the limit).
    pub solutions: usize,
    /// The first solution found, row-major values 1..=9.
    pub first: Option<[u8; 81]>,
    /// Branches tried (0 for a puzzle solved by propagation alone).
    pub guesses: u64,
    /// The guess budget ran out before the search finished.
    pub aborted: bool,
}

struct Search {
    limit: usize,
    max_guesses: u64,
    outcome: Outcome9,
}

impl Search {
    fn run(&mut self, mut s: State, dirty: u32) {
        if !s.propagate(dirty) {
            return;
        }
        if s.unsolved == [0; 3] {
            self.outcome.solutions += 1;
            if self.outcome.first.is_none() {
                let mut out = [0u8; 81];
                s.write_solution(&mut out);
                self.outcome.first = Some(out);
            }
            return;
        }
        let (b, p, mut digits) = s.branch_cell();
        while digits != 0 {
            if self.outcome.solutions >= self.limit || self.outcome.aborted {
                return;
            }
            if self.outcome.guesses >= self.max_guesses {
                self.outcome.aborted = true;
                return;
            }
            let d = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            self.outcome.guesses += 1;
            if digits == 0 {
                // Last candidate: reuse this frame's state.
                if let Some(k) = s.place(d, b, p) {
                    self.run(s, k);
                }
                return;
            }
            let mut t = s;
            if let Some(k) = t.place(d, b, p) {
                self.run(t, k);
            }
        }
    }
}

/// Count the solutions of a 9×9 puzzle (row-major values, 0 = empty) up to `limit`, trying at
/// most `max_guesses` branches. Conflicting clues give 0 solutions.
pub fn solve9(cells: &[u8; 81], limit: usize, max_guesses: u64) -> Outcome9 {
    let mut search = Search {
        limit: limit.max(1),
        max_guesses,
        outcome: Outcome9 {
            solutions: 0,
            first: None,
            guesses: 0,
            aborted: false,
        },
    };
    let mut s = State::empty();
    let mut dirty = 0u32;
    for (i, &v) in cells.iter().enumerate() {
        if v == 0 {
            continue;
        }
        debug_assert!(v <= 9);
        match s.place(v as usize - 1, i / 27, (i % 27) as u32) {
            Some(k) => dirty |= k,
            None => return search.outcome,
        }
    }
    search.run(s, dirty);
    search.outcome
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(line: &str) -> [u8; 81] {
        let mut out = [0u8; 81];
        for (i, ch) in line.chars().enumerate() {
            out[i] = ch.to_digit(10).unwrap_or(0) as u8;
        }
        out
    }

    #[test]
    fn shrink_table_basics() {
        // All flags set: everything kept.
        assert_eq!(SHRINK[511], BAND);
        // A row with no candidate: contradiction.
        assert_eq!(SHRINK[0b111_111_000], 0);
        // Identity matching only.
        assert_eq!(SHRINK[0b100_010_001], 7 | 7 << 12 | 7 << 24);
    }

    #[test]
    fn solves_an_easy_puzzle_without_guessing() {
        let p = cells(
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
        );
        let o = solve9(&p, 2, u64::MAX);
        assert_eq!(o.solutions, 1);
        assert_eq!(o.guesses, 0);
        let s = o.first.unwrap();
        assert_eq!(
            s.iter().map(|d| (b'0' + d) as char).collect::<String>(),
            "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
        );
    }

    #[test]
    fn empty_grid_has_many_solutions() {
        let o = solve9(&[0; 81], 10, u64::MAX);
        assert_eq!(o.solutions, 10);
    }
}
