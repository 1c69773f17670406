//! The four directions of the grid, with their LURD letters. A module of its own because the
//! board, positions and searches step in directions as much as LURD text does.

/// One of the four directions, in the order up, right, down, left (clockwise from up, the
/// paper's gene numbering).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// Up (`u`).
    Up = 0,
    /// Right (`r`).
    Right = 1,
    /// Down (`d`).
    Down = 2,
    /// Left (`l`).
    Left = 3,
}

impl Dir {
    /// All four, clockwise from up.
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Right, Dir::Down, Dir::Left];

    /// The LURD letter: lower case for a move, upper case for a push.
    pub fn letter(self, push: bool) -> char {
        let c = match self {
            Dir::Up => 'u',
            Dir::Right => 'r',
            Dir::Down => 'd',
            Dir::Left => 'l',
        };
        if push {
            c.to_ascii_uppercase()
        } else {
            c
        }
    }

    /// Parse a LURD letter: the direction and whether it is a push (upper case).
    pub fn from_letter(c: char) -> Option<(Dir, bool)> {
        let d = match c.to_ascii_lowercase() {
            'u' => Dir::Up,
            'r' => Dir::Right,
            'd' => Dir::Down,
            'l' => Dir::Left,
            _ => return None,
        };
        Some((d, c.is_ascii_uppercase()))
    }

    /// The direction 90° clockwise.
    pub fn turn_right(self) -> Dir {
        Dir::ALL[(self as usize + 1) % 4]
    }

    /// The direction 90° counter-clockwise.
    pub fn turn_left(self) -> Dir {
        Dir::ALL[(self as usize + 3) % 4]
    }

    /// The opposite direction.
    pub fn opposite(self) -> Dir {
        Dir::ALL[(self as usize + 2) % 4]
    }

    /// The cell next to `i` in this direction on a `width` × `height` grid, if any.
    #[inline]
    pub fn step(self, i: usize, width: usize, height: usize) -> Option<usize> {
        let (x, y) = (i % width, i / width);
        match self {
            Dir::Up => (y > 0).then(|| i - width),
            Dir::Right => (x + 1 < width).then(|| i + 1),
            Dir::Down => (y + 1 < height).then(|| i + width),
            Dir::Left => (x > 0).then(|| i - 1),
        }
    }
}
