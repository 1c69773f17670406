//! Level files in GVGAI's text format and the static part of a level (see
//! `docs/METHODS.md#bait-rules`).
//!
//! GVGAI's `LevelMapping` for Bait (`data/bait/bait.txt`): `w` wall, `A` avatar (without key),
//! `0` hole, `1` box, `k` key, `g` door (goal), `m` mushroom, `.` floor. Every row must have the
//! same width; exactly one avatar; at least one door. Levels of up to [`MAX_CELLS`] cells are
//! supported (GVGAI's five levels have at most 143).

use std::fmt;

/// The most cells (width × height) a level may have: the state's bitsets are fixed-size
/// (256 bits, `Copy`, no heap). Raising it to 64×64 = 4096 cells by widening the sets measured
/// 2.3× the CPU time and 4.3× the peak memory of A* on the bundled levels (measured November 2026), so larger
/// levels are refused with this limit in the message; they would need sets sized per level.
pub const MAX_CELLS: usize = Bits::CAPACITY;

/// A set of cells of a Bait level (the walls, boxes, holes, mushrooms, keys, doors): four
/// 64-bit words, `Copy`, no heap.
pub type Bits = puzzle_engine::bits::Bits<4>;

/// A level file that cannot be read, with the line and column of the problem (1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelError {
    /// 1-based line of the problem (0 when it concerns the whole level).
    pub line: usize,
    /// 1-based column of the problem (0 when it concerns a whole line or the level).
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for LevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (0, _) => write!(f, "{}", self.message),
            (l, 0) => write!(f, "line {l}: {}", self.message),
            (l, c) => write!(f, "line {l}, column {c}: {}", self.message),
        }
    }
}

impl std::error::Error for LevelError {}

/// What a level cell holds at the start (GVGAI's `LevelMapping`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tile {
    /// `.` floor.
    Floor,
    /// `w` wall.
    Wall,
    /// `A` the avatar (without key), on floor.
    Avatar,
    /// `0` a hole.
    Hole,
    /// `1` a box.
    Box,
    /// `k` the key.
    Key,
    /// `g` the door (goal).
    Door,
    /// `m` a mushroom.
    Mushroom,
}

impl Tile {
    /// The tile a level character stands for.
    pub fn from_char(c: char) -> Option<Tile> {
        Some(match c {
            '.' => Tile::Floor,
            'w' => Tile::Wall,
            'A' => Tile::Avatar,
            '0' => Tile::Hole,
            '1' => Tile::Box,
            'k' => Tile::Key,
            'g' => Tile::Door,
            'm' => Tile::Mushroom,
            _ => return None,
        })
    }
}

/// The static part of a level: its size, its walls and the initial objects, plus wall-aware
/// walking distances between cells (used by the heuristics).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Wall cells (walls never change).
    pub walls: Bits,
    /// The avatar's start cell.
    pub avatar: u16,
    /// Initial boxes.
    pub boxes: Bits,
    /// Initial holes.
    pub holes: Bits,
    /// Initial mushrooms.
    pub mushrooms: Bits,
    /// Initial keys.
    pub keys: Bits,
    /// Doors.
    pub doors: Bits,
    /// `dist[a * cells + b]`: fewest steps from `a` to `b` through non-wall cells
    /// ([`Level::UNREACHABLE`] if none); a lower bound on any real walk.
    dist: Vec<u16>,
}

impl Level {
    /// Distance value of cells that cannot be reached.
    pub const UNREACHABLE: u16 = u16::MAX;

    /// Parse GVGAI level text. A leading byte-order mark, CRLF or CR line ends, trailing
    /// whitespace on a row and blank lines before and after the level are accepted (the level
    /// alphabet has no space); a blank line inside the level is an error.
    pub fn parse(text: &str) -> Result<Level, LevelError> {
        let text = puzzle_engine::text::normalize(text);
        let mut rows: Vec<(usize, Vec<char>)> = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim_end().chars().collect::<Vec<_>>()))
            .skip_while(|(_, r)| r.is_empty())
            .collect();
        while rows.last().is_some_and(|(_, r)| r.is_empty()) {
            rows.pop();
        }
        if rows.is_empty() {
            return Err(LevelError {
                line: 0,
                column: 0,
                message: "the level is empty".into(),
            });
        }
        let width = rows[0].1.len();
        for (line, row) in &rows {
            if row.is_empty() {
                return Err(LevelError {
                    line: *line,
                    column: 1,
                    message: "empty row inside the level (expected a row of tiles)".into(),
                });
            }
            if row.len() != width {
                return Err(LevelError {
                    line: *line,
                    column: row.len().min(width) + 1,
                    message: format!(
                        "ragged row: {} characters where the first row has {width}",
                        row.len()
                    ),
                });
            }
        }
        let height = rows.len();
        if width * height > MAX_CELLS {
            return Err(LevelError {
                line: rows[0].0,
                column: 1,
                message: format!(
                    "the level has {width}x{height} = {} cells; at most {MAX_CELLS} are supported \
                     (e.g. 16x16): the searches keep each object layer in a fixed {MAX_CELLS}-bit \
                     set, which keeps the bundled levels fast (a 4096-cell set made A* 2.3 times \
                     slower and 4 times bigger)",
                    width * height
                ),
            });
        }
        let mut level = Level {
            width,
            height,
            walls: Bits::EMPTY,
            avatar: 0,
            boxes: Bits::EMPTY,
            holes: Bits::EMPTY,
            mushrooms: Bits::EMPTY,
            keys: Bits::EMPTY,
            doors: Bits::EMPTY,
            dist: Vec::new(),
        };
        let mut avatar: Option<(usize, usize)> = None;
        for (r, (line, row)) in rows.iter().enumerate() {
            for (c, &ch) in row.iter().enumerate() {
                let cell = r * width + c;
                let tile = Tile::from_char(ch).ok_or_else(|| LevelError {
                    line: *line,
                    column: c + 1,
                    message: format!(
                        "unknown character {ch:?} (legend: w wall, A avatar, 0 hole, 1 box, \
                         k key, g door, m mushroom, . floor)"
                    ),
                })?;
                match tile {
                    Tile::Floor => {}
                    Tile::Wall => level.walls.set(cell),
                    Tile::Avatar => {
                        if let Some((l0, c0)) = avatar {
                            return Err(LevelError {
                                line: *line,
                                column: c + 1,
                                message: format!(
                                    "a second avatar 'A' (the first is at line {l0}, column {c0})"
                                ),
                            });
                        }
                        avatar = Some((*line, c + 1));
                        level.avatar = cell as u16;
                    }
                    Tile::Hole => level.holes.set(cell),
                    Tile::Box => level.boxes.set(cell),
                    Tile::Key => level.keys.set(cell),
                    Tile::Door => level.doors.set(cell),
                    Tile::Mushroom => level.mushrooms.set(cell),
                }
            }
        }
        if avatar.is_none() {
            return Err(LevelError {
                line: 0,
                column: 0,
                message: "no avatar 'A' in the level".into(),
            });
        }
        if level.doors.is_empty() {
            return Err(LevelError {
                line: 0,
                column: 0,
                message: "no door 'g' in the level (it could not be played: GVGAI counts a \
                          level without doors as won at once)"
                    .into(),
            });
        }
        level.dist = level.all_pairs_distances();
        Ok(level)
    }

    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.width * self.height
    }

    /// Row and column of a cell.
    pub fn row_col(&self, cell: u16) -> (usize, usize) {
        (cell as usize / self.width, cell as usize % self.width)
    }

    /// The neighbour of `cell` one step in direction (dr, dc), if inside the level.
    #[inline]
    pub fn step(&self, cell: u16, dr: i32, dc: i32) -> Option<u16> {
        let (r, c) = self.row_col(cell);
        let (r2, c2) = (r as i32 + dr, c as i32 + dc);
        if r2 < 0 || c2 < 0 || r2 >= self.height as i32 || c2 >= self.width as i32 {
            None
        } else {
            Some((r2 as usize * self.width + c2 as usize) as u16)
        }
    }

    /// Walking distance between two cells through non-wall cells (holes, boxes and mushrooms
    /// counted as passable, so this never overestimates).
    #[inline]
    pub fn distance(&self, a: u16, b: u16) -> u16 {
        self.dist[a as usize * self.cells() + b as usize]
    }

    /// Manhattan distance between two cells (the paper's heuristic).
    #[inline]
    pub fn manhattan(&self, a: u16, b: u16) -> u32 {
        let (ra, ca) = self.row_col(a);
        let (rb, cb) = self.row_col(b);
        (ra.abs_diff(rb) + ca.abs_diff(cb)) as u32
    }

    fn all_pairs_distances(&self) -> Vec<u16> {
        let n = self.cells();
        let mut dist = vec![Self::UNREACHABLE; n * n];
        let mut queue = Vec::with_capacity(n);
        for src in 0..n {
            if self.walls.has(src) {
                continue;
            }
            let row = &mut dist[src * n..(src + 1) * n];
            row[src] = 0;
            queue.clear();
            queue.push(src as u16);
            let mut head = 0;
            while head < queue.len() {
                let cell = queue[head];
                head += 1;
                let d = row[cell as usize];
                for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                    if let Some(next) = self.step(cell, dr, dc) {
                        if !self.walls.has(next as usize) && row[next as usize] == Self::UNREACHABLE
                        {
                            row[next as usize] = d + 1;
                            queue.push(next);
                        }
                    }
                }
            }
        }
        dist
    }
}

/// GVGAI's five Bait levels (`bait_lvl0.txt` … `bait_lvl4.txt`), embedded.
pub const BUILTIN_LEVELS: [&str; 5] = [
    include_str!("../../../data/bait/bait_lvl0.txt"),
    include_str!("../../../data/bait/bait_lvl1.txt"),
    include_str!("../../../data/bait/bait_lvl2.txt"),
    include_str!("../../../data/bait/bait_lvl3.txt"),
    include_str!("../../../data/bait/bait_lvl4.txt"),
];

/// One of GVGAI's five levels (0–4), parsed.
pub fn builtin_level(index: usize) -> Option<Level> {
    BUILTIN_LEVELS
        .get(index)
        .map(|t| Level::parse(t).expect("bundled levels are valid"))
}
