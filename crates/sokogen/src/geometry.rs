//! Board geometry: size, stride and the masks every bitboard operation needs (see
//! `docs/METHODS.md#sokogen-board`: (0,0) top-left, x right, y down; outside the board counts as an
//! obstacle).

use puzzle_engine::bits::Bits;

/// The four directions in the order up, right, down, left (as `puzzle_sokoban::Dir::ALL`).
pub const DIRECTIONS: [Direction; 4] = [
    Direction::Up,
    Direction::Right,
    Direction::Down,
    Direction::Left,
];

/// A direction of a step or push.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Direction {
    /// y − 1.
    Up = 0,
    /// x + 1.
    Right = 1,
    /// y + 1.
    Down = 2,
    /// x − 1.
    Left = 3,
}

impl Direction {
    /// The reverse direction.
    pub fn opposite(self) -> Direction {
        match self {
            Direction::Up => Direction::Down,
            Direction::Right => Direction::Left,
            Direction::Down => Direction::Up,
            Direction::Left => Direction::Right,
        }
    }

    /// The LURD letter (upper case for a push).
    pub fn letter(self, push: bool) -> char {
        let c = match self {
            Direction::Up => 'u',
            Direction::Right => 'r',
            Direction::Down => 'd',
            Direction::Left => 'l',
        };
        if push {
            c.to_ascii_uppercase()
        } else {
            c
        }
    }

    /// `(dx, dy)`.
    pub fn delta(self) -> (isize, isize) {
        match self {
            Direction::Up => (0, -1),
            Direction::Right => (1, 0),
            Direction::Down => (0, 1),
            Direction::Left => (-1, 0),
        }
    }
}

/// Size, stride (`width + 1`, one padding column) and masks of a board held in `N` words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry<const N: usize> {
    /// Columns.
    pub width: u8,
    /// Rows.
    pub height: u8,
    /// Index distance between rows (`width + 1`).
    pub stride: u8,
    /// Every cell of the board.
    pub inside: Bits<N>,
    /// Top-left corners of the 3×3 windows fully inside the board (for P_b).
    pub window_origins: Bits<N>,
}

/// Largest supported side length.
pub const MAX_SIDE: usize = 31;
/// Smallest supported side length.
pub const MIN_SIDE: usize = 3;

impl<const N: usize> Geometry<N> {
    /// The geometry of a `width × height` board, if it fits `N` words.
    pub fn new(width: usize, height: usize) -> Option<Self> {
        if !(MIN_SIDE..=MAX_SIDE).contains(&width) || !(MIN_SIDE..=MAX_SIDE).contains(&height) {
            return None;
        }
        let stride = width + 1;
        if stride * height > Bits::<N>::CAPACITY {
            return None;
        }
        let mut inside = Bits::EMPTY;
        let mut window_origins = Bits::EMPTY;
        for y in 0..height {
            inside.set_range(y * stride, width);
            if y + 3 <= height {
                window_origins.set_range(y * stride, width - 2);
            }
        }
        Some(Geometry {
            width: width as u8,
            height: height as u8,
            stride: stride as u8,
            inside,
            window_origins,
        })
    }

    /// Number of cells (`width · height`).
    #[inline]
    pub fn area(&self) -> usize {
        self.width as usize * self.height as usize
    }

    /// The cell index of `(x, y)`.
    #[inline]
    pub fn cell(&self, x: usize, y: usize) -> usize {
        y * self.stride as usize + x
    }

    /// The `(x, y)` of a cell index.
    #[inline]
    pub fn xy(&self, cell: usize) -> (usize, usize) {
        (cell % self.stride as usize, cell / self.stride as usize)
    }

    /// The neighbour of `cell` in direction `d`, if it is on the board.
    #[inline]
    pub fn step(&self, cell: usize, d: Direction) -> Option<usize> {
        let (x, y) = self.xy(cell);
        let (dx, dy) = d.delta();
        let (nx, ny) = (x as isize + dx, y as isize + dy);
        if nx < 0 || ny < 0 || nx >= self.width as isize || ny >= self.height as isize {
            None
        } else {
            Some(self.cell(nx as usize, ny as usize))
        }
    }

    /// Every cell of `set` moved one step in direction `d` (cells leaving the board dropped).
    #[inline]
    pub fn shift(&self, set: Bits<N>, d: Direction) -> Bits<N> {
        let s = self.stride as u32;
        let moved = match d {
            Direction::Up => set.shift_down(s),
            Direction::Right => set.shift_up(1),
            Direction::Down => set.shift_up(s),
            Direction::Left => set.shift_down(1),
        };
        moved.and(self.inside)
    }

    /// The cells on the board with a neighbour in `set`.
    #[inline]
    pub fn neighbours(&self, set: Bits<N>) -> Bits<N> {
        let s = self.stride as u32;
        set.shift_up(1)
            .or(set.shift_down(1))
            .or(set.shift_up(s))
            .or(set.shift_down(s))
            .and(self.inside)
    }

    /// The cells of `passable` reachable from `from` by steps inside `passable`.
    #[inline]
    pub fn flood(&self, from: Bits<N>, passable: Bits<N>) -> Bits<N> {
        let mut reach = from;
        loop {
            let next = self.neighbours(reach).and(passable).or(reach);
            if next == reach {
                return reach;
            }
            reach = next;
        }
    }

    /// The 3×3 windows (by their top-left corner) that contain a cell of `set`.
    #[inline]
    pub fn windows_touching(&self, set: Bits<N>) -> Bits<N> {
        let s = self.stride as u32;
        let one = set.shift_down(1).and(self.inside);
        let two = one.shift_down(1).and(self.inside);
        let rows = set.or(one).or(two);
        let up1 = rows.shift_down(s);
        let up2 = up1.shift_down(s);
        rows.or(up1).or(up2).and(self.window_origins)
    }

    /// The cells of the rectangle spanned by two cells (both corners included).
    #[inline]
    pub fn rectangle(&self, a: usize, b: usize) -> Bits<N> {
        let (ax, ay) = self.xy(a);
        let (bx, by) = self.xy(b);
        let (x0, x1) = (ax.min(bx), ax.max(bx));
        let (y0, y1) = (ay.min(by), ay.max(by));
        let mut r = Bits::EMPTY;
        for y in y0..=y1 {
            r.set_range(self.cell(x0, y), x1 - x0 + 1);
        }
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_never_wrap_rows() {
        let g = Geometry::<1>::new(5, 5).unwrap();
        let right_col = g.cell(4, 2);
        assert!(g
            .shift(Bits::single(right_col), Direction::Right)
            .is_empty());
        let left_col = g.cell(0, 2);
        assert!(g.shift(Bits::single(left_col), Direction::Left).is_empty());
        assert!(g
            .shift(Bits::single(g.cell(3, 0)), Direction::Up)
            .is_empty());
        assert!(g
            .shift(Bits::single(g.cell(3, 4)), Direction::Down)
            .is_empty());
        assert_eq!(
            g.shift(Bits::single(g.cell(1, 1)), Direction::Down),
            Bits::single(g.cell(1, 2))
        );
    }

    #[test]
    fn window_origins_count() {
        let g = Geometry::<1>::new(5, 5).unwrap();
        assert_eq!(g.window_origins.count(), 9);
        let g = Geometry::<8>::new(20, 20).unwrap();
        assert_eq!(g.window_origins.count(), 18 * 18);
        assert_eq!(g.inside.count(), 400);
    }

    #[test]
    fn sizes_outside_the_range_are_refused() {
        assert!(Geometry::<1>::new(2, 5).is_none());
        assert!(Geometry::<1>::new(8, 8).is_none()); // 72 cells with padding > 64
        assert!(Geometry::<2>::new(8, 8).is_some());
    }
}
