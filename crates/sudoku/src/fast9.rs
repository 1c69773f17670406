//! The fast exact solver for 9×9 grids: band bitboards with constraint propagation and
//! branching on a bivalue cell (the "band" representation of the fastest published solvers,
//! written here from the idea, not from their code).
//!
//! Representation: for each digit d and band b (three rows), a 27-bit mask of the cells of the
//! band where d may still go; a cell whose digit is known keeps exactly its own bit in its
//! digit's mask (and its row holds no other candidate of that digit).
//!
//! Propagation sweeps the 27 digit-bands in a fixed order (each sweep step is compiled for its
//! own digit-band, so every index is a constant) and updates the ones that changed since their
//! last update, until a sweep changes nothing:
//! - **band shrink**: within a band each digit occupies one cell per row and per box, i.e. a
//!   perfect matching between the 3 rows and the 3 boxes; a row-box triplet that is in no
//!   matching is removed (this covers locked candidates and hidden singles in boxes and rows);
//! - **box-column pointing**: a box whose candidates lie in one column removes that column from
//!   the digit's masks of the two other bands (this also removes the columns of placed digits);
//! - a row left with a single candidate fixes the digit there (read off the shrink: the row has
//!   one triplet left and its box one column), and the cell leaves the band's other digits.
//!
//! Then naked singles (bit-parallel count of candidates per cell; a cell without candidates is a
//! contradiction; the same pass records the bivalue cells), and again until nothing changes.
//! (A stack shrink, the same matching between the columns and bands of a stack, found hidden
//! singles in columns and cut the guesses by about a tenth on the hardest puzzles, but cost more
//! than it saved, so it is not used.)
//!
//! Search: the bivalue cell with the most bivalue cells in its row, box and column (the first
//! with at least `GOOD_ENOUGH` of them), else of the first unsolved cell of each band the one
//! with the fewest candidates (not the cell with the fewest of the whole grid: that made the
//! trees larger); one branch per digit. When only the first solution is wanted, of a bivalue cell
//! first the digit with more places left in the cell's row and box (its placement removes more
//! and fails faster when wrong); when counting further, the whole tree is searched and the order
//! is not chosen. The last branch reuses the frame's state. Solutions are counted up to a limit,
//! and the guesses (branches tried) are the difficulty measure.

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

/// For the 9 flags "row r has a candidate in box k" (bit 3r+k): bits 0..27, the mask of the
/// triplets that belong to some row↔box perfect matching (0: none, a contradiction); bits
/// 27..30, the rows left with a single triplet.
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
        let mut locked = 0u32;
        if keep != 0 {
            let mut r = 0;
            while r < 3 {
                let row = (keep >> (9 * r)) & 0x1FF;
                // One triplet (3 bits) left in the row.
                if row == 7 || row == 7 << 3 || row == 7 << 6 {
                    locked |= 1 << r;
                }
                r += 1;
            }
        }
        t[flags] = keep | locked << 27;
        flags += 1;
    }
    t
};

/// For the 9-bit set of columns where a digit may go in a band: the 27-bit mask the digit's
/// masks in the two other bands keep (every column that is the only one of its box removed).
const OTHER_BANDS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut cols = 0usize;
    while cols < 512 {
        let mut single = 0u32;
        let mut k = 0;
        while k < 3 {
            let c = (cols >> (3 * k)) & 7;
            if c == 1 || c == 2 || c == 4 {
                single |= (c as u32) << (3 * k);
            }
            k += 1;
        }
        t[cols] = BAND & !(single * COLUMN_SPREAD);
        cols += 1;
    }
    t
};

/// For 3 row flags, the cells of those rows.
const ROWS: [u32; 8] = {
    let mut t = [0u32; 8];
    let mut r = 0;
    while r < 8 {
        t[r] = ((r as u32 & 1) * 0x1FF)
            | ((r as u32 >> 1 & 1) * 0x1FF) << 9
            | ((r as u32 >> 2) * 0x1FF) << 18;
        r += 1;
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

/// Replicate a 9-bit column set onto the 3 rows of a band.
const COLUMN_SPREAD: u32 = 1 | 1 << 9 | 1 << 18;

/// Index of digit `d`'s mask in band `b` (a band's nine digits are contiguous).
#[inline(always)]
const fn ix(b: usize, d: usize) -> usize {
    b * 9 + d
}

/// The solver state: digit-band masks, their values at their last update, and the cells not
/// yet fixed.
#[derive(Clone, Copy, Debug)]
struct State {
    /// Index [`ix`]`(b, d)`.
    f: [u32; 27],
    /// `f` as it was after the digit-band's last update (a different value: update it).
    prev: [u32; 27],
    unsolved: [u32; 3],
    /// Bivalue cells per band, as of the last naked-singles pass.
    pairs: [u32; 3],
}

/// Run `update::<I>` for every digit-band whose mask changed since its last update; `$changed`
/// is set if any did. Returns `false` from the caller on a contradiction.
macro_rules! sweep {
    ($s:ident, $changed:ident; $($i:literal)*) => {
        $(
            if $s.f[$i] != $s.prev[$i] {
                $changed = true;
                if !$s.update::<$i>() {
                    return false;
                }
            }
        )*
    };
}

impl State {
    fn empty() -> State {
        State {
            f: [BAND; 27],
            prev: [u32::MAX; 27],
            unsolved: [BAND; 3],
            pairs: [0; 3],
        }
    }

    /// The state with the clues of `cells` (row-major, 0 = empty) placed: each clue's cell
    /// leaves the other digits and its row and box leave the digit's mask (the first sweep then
    /// removes its column from the digit's other bands). Conflicting clues empty a row of a
    /// digit-band, which the first sweep reports as a contradiction.
    fn with_clues(cells: &[u8; 81]) -> State {
        let mut s = State::empty();
        for (b, band) in cells.chunks_exact(27).enumerate() {
            // Slot 0 collects the empty cells.
            let mut own = [0u32; 10];
            for (p, &v) in band.iter().enumerate() {
                debug_assert!(v <= 9);
                own[usize::from(v).min(9)] |= 1 << p;
            }
            let taken = BAND & !own[0];
            for d in 0..9 {
                let mut m = BAND & !taken | own[d + 1];
                let mut clues = own[d + 1];
                while clues != 0 {
                    let p = clues.trailing_zeros();
                    clues &= clues - 1;
                    m &= !ROW_BOX[p as usize] | 1 << p;
                }
                s.f[ix(b, d)] = m;
            }
        }
        s
    }

    /// Update digit-band `I` (band `I / 9`, digit `I % 9`): band shrink, box-column pointing
    /// into the other bands, fixed cells out of the other digits. `false`: contradiction.
    #[inline(always)]
    fn update<const I: usize>(&mut self) -> bool {
        let b = I / 9;
        let d = I % 9;
        let s = self.f[I];
        let flags = u32::from(ROW_TRIPLETS[(s & 0x1FF) as usize])
            | u32::from(ROW_TRIPLETS[((s >> 9) & 0x1FF) as usize]) << 3
            | u32::from(ROW_TRIPLETS[((s >> 18) & 0x1FF) as usize]) << 6;
        let t = SHRINK[(flags & 0x1FF) as usize];
        let shrunk = s & t;
        if shrunk == 0 {
            return false;
        }
        self.f[I] = shrunk;
        self.prev[I] = shrunk;
        let cols = (shrunk | shrunk >> 9 | shrunk >> 18) & 0x1FF;
        let other = OTHER_BANDS[cols as usize];
        self.f[ix((b + 1) % 3, d)] &= other;
        self.f[ix((b + 2) % 3, d)] &= other;
        // Rows with one triplet whose box has one column: a single candidate.
        let fixed = shrunk & ROWS[(t >> 27) as usize] & !other & self.unsolved[b];
        // Branch-free: usually no cell is fixed and the masks are unchanged.
        self.unsolved[b] &= !fixed;
        let mut k = 0;
        while k < 9 {
            if k != d {
                self.f[ix(b, k)] &= !fixed;
            }
            k += 1;
        }
        true
    }

    /// Sweep until no digit-band changes. `false`: contradiction.
    #[inline(always)]
    fn settle(&mut self) -> bool {
        loop {
            let mut changed = false;
            sweep!(self, changed; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26);
            if !changed {
                return true;
            }
        }
    }

    /// Naked singles: `None` on a contradiction (a cell without candidates), else whether some
    /// single was placed.
    #[inline(always)]
    fn naked_singles(&mut self) -> Option<bool> {
        let mut found = false;
        for b in 0..3 {
            let (mut once, mut twice, mut thrice) = (0u32, 0u32, 0u32);
            for &x in &self.f[b * 9..b * 9 + 9] {
                thrice |= twice & x;
                twice |= once & x;
                once |= x;
            }
            let u = self.unsolved[b];
            if u & !once != 0 {
                return None;
            }
            self.pairs[b] = u & twice & !thrice;
            let mut singles = u & !twice;
            while singles != 0 {
                found = true;
                let p = singles.trailing_zeros();
                singles &= singles - 1;
                let bit = 1u32 << p;
                // The cell's only digit keeps just this cell in the cell's row and box
                // (branch-free over the nine digits; if an earlier single emptied the cell, the
                // next check finds the contradiction).
                let clear = ROW_BOX[p as usize] & !bit;
                for m in &mut self.f[b * 9..b * 9 + 9] {
                    *m &= !(u32::from(*m & bit != 0).wrapping_neg() & clear);
                }
            }
        }
        Some(found)
    }

    /// Propagate until nothing changes. `false`: contradiction. On `true` the state is either
    /// solved or needs a guess.
    fn propagate(&mut self) -> bool {
        loop {
            if !self.settle() {
                return false;
            }

            if self.unsolved == [0; 3] {
                return true;
            }
            match self.naked_singles() {
                None => return false,
                Some(true) => continue,
                Some(false) => {}
            }
            return true;
        }
    }

    /// A cell to branch on: (band, bit, digit mask): the bivalue cell with the most bivalue
    /// cells among its row, box and column, else of the first unsolved cell of each band the one
    /// with the fewest candidates.
    fn branch_cell(&self) -> (usize, u32, u32) {
        let bivalue = self.pairs;
        // Best (score, earliest cell) packed as score << 7 | (127 - cell index), kept with a
        // branch-free max; every bivalue cell scores at least 1 (itself).
        let mut pick = 0u32;
        for b in 0..3 {
            let mut cells = bivalue[b];
            while cells != 0 {
                let p = cells.trailing_zeros();
                cells &= cells - 1;
                let c = p % 9;
                let column = COLUMN_SPREAD << c;
                let cols = ((bivalue[(b + 1) % 3] & column) >> c)
                    | ((bivalue[(b + 2) % 3] & column) >> c) << 1;
                let k = (u64::from(bivalue[b] & ROW_BOX[p as usize]) | u64::from(cols) << 32)
                    .count_ones();
                if k >= GOOD_ENOUGH {
                    return (b, p, self.digits_at(b, p));
                }
                pick = pick.max(k << 7 | (127 - (b as u32 * 27 + p)));
            }
        }
        if pick != 0 {
            let cell = 127 - (pick & 127);
            let (b, p) = ((cell / 27) as usize, cell % 27);
            return (b, p, self.digits_at(b, p));
        }
        // No bivalue cell: the first unsolved cell of each band, the one with the fewest
        // candidates (measured on forum-hardest: 147 guesses per puzzle to the first solution
        // and 502 for the uniqueness check, against 212 and 516 for the cell with the fewest
        // candidates of the whole grid).
        let mut best = (0, 0, 0);
        let mut best_count = u32::MAX;
        for b in 0..3 {
            let u = self.unsolved[b];
            if u == 0 {
                continue;
            }
            let p = u.trailing_zeros();
            let m = self.digits_at(b, p);
            if m.count_ones() < best_count {
                best_count = m.count_ones();
                best = (b, p, m);
            }
        }
        best
    }

    /// The digit to try first at band `b`, bit `p` among `digits`: of a bivalue cell's two,
    /// the one with more places left in the cell's row and box (placing it removes more, so a
    /// wrong guess fails sooner; measured on forum-hardest: 212 guesses per puzzle to the first
    /// solution against 225 for the lower digit first and 259 for the other order); otherwise
    /// the lowest.
    fn first_digit(&self, b: usize, p: u32, digits: u32) -> usize {
        let lo = digits.trailing_zeros() as usize;
        if digits & (digits - 1) == 0 {
            return lo;
        }
        let rest = digits & (digits - 1);
        if rest & (rest - 1) != 0 {
            return lo;
        }
        let hi = rest.trailing_zeros() as usize;
        let area = ROW_BOX[p as usize];
        if (self.f[ix(b, hi)] & area).count_ones() > (self.f[ix(b, lo)] & area).count_ones() {
            hi
        } else {
            lo
        }
    }

    fn digits_at(&self, b: usize, p: u32) -> u32 {
        let mut m = 0;
        for d in 0..9 {
            m |= ((self.f[ix(b, d)] >> p) & 1) << d;
        }
        m
    }

    /// Write a solved state's digits (each digit-band then has one cell per row).
    fn write_solution(&self, out: &mut [u8; 81]) {
        for (b, band) in out.chunks_exact_mut(27).enumerate() {
            for d in 0..9 {
                let x = self.f[ix(b, d)];
                for r in 0..3 {
                    let p = ((x >> (9 * r)) & 0x1FF).trailing_zeros() as usize;
                    // A solved row has exactly one bit (p < 9).
                    band[(9 * r + p).min(26)] = d as u8 + 1;
                }
            }
        }
    }
}

/// A bivalue cell with this many bivalue cells in its row, box and column is taken at once
/// (measured: 4 saves more scoring than it costs in guesses).
const GOOD_ENOUGH: u32 = 4;

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
    fn run(&mut self, mut s: State) {
        if !s.propagate() {
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
        let bit = 1u32 << p;
        let keep = !ROW_BOX[p as usize] | bit;
        // Counting all solutions (a uniqueness check explores the whole tree): the order does
        // not matter, skip the choice.
        let mut d = if self.limit == 1 {
            s.first_digit(b, p, digits)
        } else {
            digits.trailing_zeros() as usize
        };
        loop {
            if self.outcome.solutions >= self.limit || self.outcome.aborted {
                return;
            }
            if self.outcome.guesses >= self.max_guesses {
                self.outcome.aborted = true;
                return;
            }
            digits &= !(1 << d);
            self.outcome.guesses += 1;
            let k = ix(b, d);
            if digits == 0 {
                // Last candidate: reuse this frame's state.
                s.f[k] &= keep;
                self.run(s);
                return;
            }
            let mut t = s;
            t.f[k] &= keep;
            self.run(t);
            // This digit is wrong here.
            s.f[k] &= !bit;
            d = digits.trailing_zeros() as usize;
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
    search.run(State::with_clues(cells));
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
        // Identity matching only: every row has one triplet left.
        assert_eq!(SHRINK[0b100_010_001] >> 27, 7);
        // A row with no candidate: contradiction.
        assert_eq!(SHRINK[0b111_111_000], 0);
        // Identity matching only.
        assert_eq!(SHRINK[0b100_010_001] & BAND, 7 | 7 << 12 | 7 << 24);
    }

    #[test]
    fn other_bands_removes_only_single_columns() {
        // Every box has two or more columns: nothing removed.
        assert_eq!(OTHER_BANDS[0b011_101_110], BAND);
        // Box 0 only column 1, box 2 only column 8.
        let keep = OTHER_BANDS[0b100_011_010];
        assert_eq!(keep, BAND & !((1 << 1 | 1 << 8) * COLUMN_SPREAD));
    }

    #[test]
    fn shrink_locked_rows() {
        // Row 0 in boxes 0 and 1, row 1 in box 1 only, row 2 in all: row 0 → box 0,
        // row 2 → box 2; all three rows are left with one triplet.
        let t = SHRINK[0b111_010_011];
        assert_eq!(t & BAND, 7 | 7 << 12 | 7 << 24);
        assert_eq!(t >> 27, 7);
        // Rows 0 and 1 both in boxes 0 and 1, row 2 anywhere: only row 2 is locked (box 2).
        assert_eq!(SHRINK[0b111_011_011] >> 27, 0b100);
    }

    /// A 9×9 solution is valid: every row, column and box holds 1..=9.
    fn valid(g: &[u8; 81]) -> bool {
        (0..9).all(|u| {
            let (mut r, mut c, mut b) = (0u16, 0u16, 0u16);
            for k in 0..9 {
                r |= 1 << g[u * 9 + k];
                c |= 1 << g[k * 9 + u];
                b |= 1 << g[(u / 3 * 3 + k / 3) * 9 + u % 3 * 3 + k % 3];
            }
            r == 0x3FE && c == 0x3FE && b == 0x3FE
        })
    }

    proptest::proptest! {
        /// Random clue subsets of a solved grid (with digits relabelled): the band solver finds
        /// a valid solution that keeps the clues, and counts solutions (up to 2) like the
        /// generic solver.
        #[test]
        fn agrees_with_the_generic_solver(
            keep in proptest::collection::vec(0u8..100, 81),
            density in 22u8..60,
            shift in 0u8..9,
        ) {
            let solved = cells(
                "483921657967345821251876493548132976729564138136798245372689514814253769695417382",
            );
            let mut p = [0u8; 81];
            for i in 0..81 {
                if keep[i] < density {
                    p[i] = (solved[i] - 1 + shift) % 9 + 1;
                }
            }
            let o = solve9(&p, 2, u64::MAX);
            proptest::prop_assert!(o.solutions >= 1);
            let first = o.first.unwrap();
            proptest::prop_assert!(valid(&first));
            proptest::prop_assert!((0..81).all(|i| p[i] == 0 || p[i] == first[i]));
            let grid = crate::Grid::from_values(&p).unwrap();
            let generic = crate::solver::solve_generic(&grid, crate::ExactLimits::default());
            proptest::prop_assert_eq!(o.solutions, generic.solutions);
        }
    }

    #[test]
    fn conflicting_clues_have_no_solution() {
        let mut p = [0u8; 81];
        p[0] = 5;
        p[8] = 5; // same row
        assert_eq!(solve9(&p, 2, u64::MAX).solutions, 0);
        let mut p = [0u8; 81];
        p[4] = 7;
        p[76] = 7; // same column, other bands
        assert_eq!(solve9(&p, 2, u64::MAX).solutions, 0);
        let mut p = [0u8; 81];
        p[0] = 3;
        p[20] = 3; // same box, other rows
        assert_eq!(solve9(&p, 2, u64::MAX).solutions, 0);
        let mut p = [0u8; 81];
        p[40] = 9;
        p[41] = 9; // same row, same box
        assert_eq!(solve9(&p, 2, u64::MAX).solutions, 0);
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
    fn without_bivalue_cells_branches_on_the_fewest_of_the_first_cells_per_band() {
        // Row 1 holds 1..6 and row 3 holds 4, 5, 6, 1, 2, 3 in columns 1..6: the first cell of
        // band 1 (row 3, column 0) keeps 7, 8, 9, while the first cells of bands 0 and 2 keep
        // more, and no cell is bivalue. The cell with the fewest candidates of the whole grid
        // would be row 1, column 0 (band 0, bit 9, also 7, 8, 9): not taken.
        let mut p = [0u8; 81];
        for c in 1..7 {
            p[9 + c] = c as u8;
            p[27 + c] = ((c + 2) % 6 + 1) as u8;
        }
        let mut s = State::with_clues(&p);
        assert!(s.propagate());
        assert_eq!(s.pairs, [0; 3]);
        assert_eq!(s.branch_cell(), (1, 0, 0b1_1100_0000));
        // Empty grid: every cell has 9 candidates, the first cell of band 0 is taken.
        let mut s = State::with_clues(&[0; 81]);
        assert!(s.propagate());
        assert_eq!(s.branch_cell(), (0, 0, 0x1FF));
    }

    #[test]
    fn empty_grid_has_many_solutions() {
        let o = solve9(&[0; 81], 10, u64::MAX);
        assert_eq!(o.solutions, 10);
    }
}
