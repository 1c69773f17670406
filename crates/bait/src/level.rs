//! Level files in GVGAI's text format and the static part of a level (see
//! `docs/METHODS.md#bait-rules`).
//!
//! GVGAI's `LevelMapping` for Bait (`data/bait/bait.txt`): `w` wall, `A` avatar (without key),
//! `0` hole, `1` box, `k` key, `g` door (goal), `m` mushroom, `.` floor. Every row must have the
//! same width; exactly one avatar. A level without a door is accepted: GVGAI counts it won at the
//! end of the first tick. Levels of up to [`MAX_CELLS`] cells
//! (64×64) are supported (GVGAI's five levels have at most 143).
//!
//! The object layers are fixed-size `Copy` bitsets of `W` 64-bit words, and every type that
//! holds them (level, state, searches, agents) is generic over `W` with the default 4 (256
//! cells), the width of the bundled levels. One set of widths, [`WIDTHS`], is compiled;
//! [`AnyLevel::parse`] reads a level into the narrowest that holds it and [`AnyLevel::visit`]
//! runs width-generic code ([`LevelVisitor`]) on it, so small levels keep the small, fast
//! states and only big levels pay for wide ones (`docs/METHODS.md#bait-rules`).

use std::fmt;

/// The bitset widths compiled, in 64-bit words: 4 (256 cells, up to 16×16), 16 (1,024 cells,
/// up to 32×32) and 64 (4,096 cells, up to 64×64). A state is about `40·W` bytes, so a level
/// pays for its width only (one width for every level, 64, measured 2.3× the CPU time and 4.3×
/// the peak memory of A* on the bundled levels).
pub const WIDTHS: [usize; 3] = [4, 16, 64];

/// The most mushrooms a box could meet that the searches' position key keeps (beyond, it
/// keeps none: a search's positions would multiply by the subsets of them eaten, as on a room
/// crossed by a band of mushrooms). GVGAI's levels have at most one.
pub const KEY_MUSHROOMS: usize = 12;

/// The most cells (width × height) a level may have: 4,096, e.g. 64×64 (the widest of
/// [`WIDTHS`]). Bigger levels are refused with this limit in the message.
pub const MAX_CELLS: usize = 64 * WIDTHS[WIDTHS.len() - 1];

/// A set of cells of a Bait level (the walls, boxes, holes, mushrooms, keys, doors): `W`
/// 64-bit words (default 4: 256 cells), `Copy`, no heap.
pub type Bits<const W: usize = 4> = puzzle_engine::bits::Bits<W>;

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
/// walking distances to the keys and doors (used by the heuristics). `W` is the bitset width
/// in 64-bit words (default 4: at most 256 cells; see [`WIDTHS`] and [`AnyLevel`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level<const W: usize = 4> {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Wall cells (walls never change).
    pub walls: Bits<W>,
    /// The avatar's start cell.
    pub avatar: u16,
    /// Initial boxes.
    pub boxes: Bits<W>,
    /// Initial holes.
    pub holes: Bits<W>,
    /// Initial mushrooms.
    pub mushrooms: Bits<W>,
    /// Initial keys.
    pub keys: Bits<W>,
    /// Doors.
    pub doors: Bits<W>,
    /// Every cell a box could ever be pushed onto (from any start box, through any cell that is
    /// not a wall, with a non-wall cell behind it for the avatar; other boxes, holes and
    /// mushrooms ignored, so it is a superset). A mushroom outside it can never block a box, so
    /// whether it is eaten changes the score only, never what can still be won
    /// ([`Level::plan_key_is_exact`]).
    pub box_reach: Bits<W>,
    /// The mushrooms the searches' position key keeps ([`crate::state::BaitState::plan_key`]):
    /// those of [`Level::box_reach`] when there are at most [`KEY_MUSHROOMS`] of them (the key
    /// is then exact), else none.
    pub key_mushrooms: Bits<W>,
    /// `row_start[t]`: where the row of `dist` holding the distances to cell `t` starts, if
    /// `t` holds a key or a door at the start (a target); for other cells, the start of the
    /// last row, which is all [`Level::UNREACHABLE`].
    row_start: Vec<u32>,
    /// `dist[row_start[t] + a]`: fewest steps from `a` to target `t` through non-wall cells
    /// ([`Level::UNREACHABLE`] if none); a lower bound on any real walk. One row per key and
    /// door, and the unreachable row (not all pairs: a 64×64 level's all-pairs table would
    /// take 32 MiB and a tenth of a second to fill). A lookup is two loads and an add.
    dist: Vec<u16>,
    /// The start's keys with the start of their row of `dist`, in cell order.
    key_rows: Vec<(u16, u32)>,
    /// The doors with the start of their row of `dist`, in cell order.
    door_rows: Vec<(u16, u32)>,
}

impl Level {
    /// Parse GVGAI level text into the bundled levels' width (at most 256 cells):
    /// [`Level::parse_width`] with `W` = 4. [`AnyLevel::parse`] reads levels of up to
    /// [`MAX_CELLS`] cells.
    pub fn parse(text: &str) -> Result<Level, LevelError> {
        Level::parse_width(text)
    }
}

impl<const W: usize> Level<W> {
    /// Distance value of cells that cannot be reached.
    pub const UNREACHABLE: u16 = u16::MAX;

    /// The most cells a level of this width holds: `64·W`.
    pub const CAPACITY: usize = Bits::<W>::CAPACITY;

    /// Parse GVGAI level text into a level of width `W`. A leading byte-order mark, CRLF or CR
    /// line ends, trailing whitespace on a row and blank lines before and after the level are
    /// accepted (the level alphabet has no space); a blank line inside the level is an error,
    /// and so is a level of more than [`MAX_CELLS`] cells or more than this width's
    /// [`Level::CAPACITY`].
    pub fn parse_width(text: &str) -> Result<Level<W>, LevelError> {
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
        if let Some(message) = size_refusal(width, height, Self::CAPACITY) {
            return Err(LevelError {
                line: rows[0].0,
                column: 1,
                message,
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
            box_reach: Bits::EMPTY,
            key_mushrooms: Bits::EMPTY,
            row_start: Vec::new(),
            dist: Vec::new(),
            key_rows: Vec::new(),
            door_rows: Vec::new(),
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
        level.target_distances();
        level.box_reach = level.cells_a_box_reaches();
        let relevant = level.mushrooms.and(level.box_reach);
        if relevant.count() as usize <= KEY_MUSHROOMS {
            level.key_mushrooms = relevant;
        }
        Ok(level)
    }

    /// Is the searches' position key ([`crate::state::BaitState::plan_key`]) exact: does it
    /// keep every mushroom a box could be pushed onto? Only such a mushroom can change what can
    /// be won (a mushroom stops a box), so with an exact key two positions with the same key
    /// have the same wins in the same ticks.
    pub fn plan_key_is_exact(&self) -> bool {
        self.mushrooms.and(self.box_reach) == self.key_mushrooms
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

    /// Walking distance from `from` to `target` through non-wall cells (holes, boxes and
    /// mushrooms counted as passable, so this never overestimates). `target` must hold a key
    /// or a door at the start (the only cells the heuristics walk to; keys and doors only
    /// disappear); for any other target the answer is [`Level::UNREACHABLE`].
    #[inline]
    pub fn target_distance(&self, from: u16, target: u16) -> u16 {
        self.dist[self.row_start[target as usize] as usize + from as usize]
    }

    /// The cells of the start's keys, in order (a list: cheaper to run through than a set in
    /// a wide level).
    #[inline]
    pub fn key_cells(&self) -> impl Iterator<Item = u16> + '_ {
        self.key_rows.iter().map(|&(k, _)| k)
    }

    /// The cells of the doors, in order.
    #[inline]
    pub fn door_cells(&self) -> impl Iterator<Item = u16> + '_ {
        self.door_rows.iter().map(|&(g, _)| g)
    }

    /// The walking distance (as [`Level::target_distance`]) from `from` to the nearest door
    /// of `doors` (a subset of the level's doors: those not opened yet), or `None` if none can
    /// be reached. It runs through the level's list of doors, not through the cells of
    /// `doors`, so it costs the same in every width.
    #[inline]
    pub fn nearest_door(&self, from: u16, doors: &Bits<W>) -> Option<u32> {
        self.door_rows
            .iter()
            .filter(|&&(g, _)| doors.has(g as usize))
            .map(|&(_, start)| self.dist[start as usize + from as usize])
            .filter(|&x| x != Self::UNREACHABLE)
            .min()
            .map(u32::from)
    }

    /// The shortest walk from `from` to a key of `keys` and on to a door of `doors` (subsets
    /// of the level's keys and doors), or `None` if there is none (see
    /// [`Level::nearest_door`]).
    #[inline]
    pub fn nearest_key_then_door(&self, from: u16, keys: &Bits<W>, doors: &Bits<W>) -> Option<u32> {
        self.key_rows
            .iter()
            .filter(|&&(k, _)| keys.has(k as usize))
            .filter_map(|&(k, start)| {
                let a = self.dist[start as usize + from as usize];
                if a == Self::UNREACHABLE {
                    return None;
                }
                self.nearest_door(k, doors).map(|b| a as u32 + b)
            })
            .min()
    }

    /// Manhattan distance between two cells (the paper's heuristic).
    #[inline]
    pub fn manhattan(&self, a: u16, b: u16) -> u32 {
        let (ra, ca) = self.row_col(a);
        let (rb, cb) = self.row_col(b);
        (ra.abs_diff(rb) + ca.abs_diff(cb)) as u32
    }

    /// The cells a box could ever reach ([`Level::box_reach`]): a breadth-first search over
    /// box cells from every start box, a push from `p` to `p + d` needing `p + d` and `p - d`
    /// inside the level and not walls.
    fn cells_a_box_reaches(&self) -> Bits<W> {
        let mut reach = self.boxes;
        let mut queue: Vec<u16> = self.boxes.iter().map(|c| c as u16).collect();
        let open = |cell: Option<u16>| cell.filter(|&c| !self.walls.has(c as usize));
        while let Some(cell) = queue.pop() {
            for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                let (Some(to), Some(_)) = (
                    open(self.step(cell, dr, dc)),
                    open(self.step(cell, -dr, -dc)),
                ) else {
                    continue;
                };
                if !reach.has(to as usize) {
                    reach.set(to as usize);
                    queue.push(to);
                }
            }
        }
        reach
    }

    /// Fill `row_start` and `dist`: one breadth-first search from every key and door (never
    /// a wall: a cell holds one tile).
    fn target_distances(&mut self) {
        let n = self.cells();
        let targets: Vec<usize> = self.keys.or(self.doors).iter().collect();
        let mut row_start = vec![(targets.len() * n) as u32; n];
        let mut dist = vec![Self::UNREACHABLE; (targets.len() + 1) * n];
        let mut queue = Vec::with_capacity(n);
        for (k, &src) in targets.iter().enumerate() {
            row_start[src] = (k * n) as u32;
            let row = &mut dist[k * n..(k + 1) * n];
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
        let rows_of = |set: &Bits<W>| -> Vec<(u16, u32)> {
            set.iter().map(|t| (t as u16, row_start[t])).collect()
        };
        self.key_rows = rows_of(&self.keys);
        self.door_rows = rows_of(&self.doors);
        self.row_start = row_start;
        self.dist = dist;
    }

    /// The same level in width `V`, or the level back if it has more than `64·V` cells.
    pub fn into_width<const V: usize>(self) -> Result<Level<V>, Level<W>> {
        if self.cells() > Level::<V>::CAPACITY {
            return Err(self);
        }
        let words = self.cells().div_ceil(64);
        let resize = |b: Bits<W>| {
            let mut out = Bits::<V>::EMPTY;
            out.0[..words].copy_from_slice(&b.0[..words]);
            out
        };
        Ok(Level {
            width: self.width,
            height: self.height,
            walls: resize(self.walls),
            avatar: self.avatar,
            boxes: resize(self.boxes),
            holes: resize(self.holes),
            mushrooms: resize(self.mushrooms),
            keys: resize(self.keys),
            doors: resize(self.doors),
            box_reach: resize(self.box_reach),
            key_mushrooms: resize(self.key_mushrooms),
            row_start: self.row_start,
            dist: self.dist,
            key_rows: self.key_rows,
            door_rows: self.door_rows,
        })
    }
}

/// Why a `width`×`height` level cannot be read into a level holding `capacity` cells, if it
/// cannot.
fn size_refusal(width: usize, height: usize, capacity: usize) -> Option<String> {
    let cells = width.saturating_mul(height);
    if cells > MAX_CELLS {
        Some(format!(
            "the level has {width}x{height} = {cells} cells; at most {MAX_CELLS} are supported \
             (e.g. 64x64): the searches keep each object layer in a fixed-size bitset, and the \
             widest is {MAX_CELLS} cells"
        ))
    } else if cells > capacity {
        Some(format!(
            "the level has {width}x{height} = {cells} cells; this bitset width holds at most \
             {capacity} (AnyLevel::parse reads levels of up to {MAX_CELLS})"
        ))
    } else {
        None
    }
}

/// A level in the narrowest of the compiled widths ([`WIDTHS`]) that holds it (boxed: a
/// 64-word level is over 3 KB).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyLevel {
    /// At most 256 cells (GVGAI's levels).
    Small(Box<Level<4>>),
    /// 257 to 1,024 cells.
    Medium(Box<Level<16>>),
    /// 1,025 to [`MAX_CELLS`] cells.
    Large(Box<Level<64>>),
}

/// Code generic over the bitset width, run on a level by [`AnyLevel::visit`] (a closure
/// cannot be generic over `W`, so the width-generic work is a trait method).
pub trait LevelVisitor {
    /// What the visit returns.
    type Output;
    /// Run on a level of width `W`.
    fn visit<const W: usize>(self, level: Level<W>) -> Self::Output;
}

impl AnyLevel {
    /// Parse GVGAI level text (as [`Level::parse_width`]) of up to [`MAX_CELLS`] cells into
    /// the narrowest width that holds it; a bigger level is refused with its size and the
    /// limit, at the first row.
    pub fn parse(text: &str) -> Result<AnyLevel, LevelError> {
        Level::<64>::parse_width(text).map(AnyLevel::narrowest)
    }

    /// `level` in the narrowest width that holds it.
    pub fn narrowest(level: Level<64>) -> AnyLevel {
        match level.into_width::<4>() {
            Ok(small) => AnyLevel::Small(Box::new(small)),
            Err(level) => match level.into_width::<16>() {
                Ok(medium) => AnyLevel::Medium(Box::new(medium)),
                Err(large) => AnyLevel::Large(Box::new(large)),
            },
        }
    }

    /// Run `visitor` on the level in its width.
    pub fn visit<V: LevelVisitor>(self, visitor: V) -> V::Output {
        match self {
            AnyLevel::Small(level) => visitor.visit(*level),
            AnyLevel::Medium(level) => visitor.visit(*level),
            AnyLevel::Large(level) => visitor.visit(*level),
        }
    }

    /// The bitset width in 64-bit words (one of [`WIDTHS`]).
    pub fn words(&self) -> usize {
        match self {
            AnyLevel::Small(_) => 4,
            AnyLevel::Medium(_) => 16,
            AnyLevel::Large(_) => 64,
        }
    }

    /// Columns and rows.
    pub fn size(&self) -> (usize, usize) {
        match self {
            AnyLevel::Small(l) => (l.width, l.height),
            AnyLevel::Medium(l) => (l.width, l.height),
            AnyLevel::Large(l) => (l.width, l.height),
        }
    }
}

impl From<Level> for AnyLevel {
    fn from(level: Level) -> AnyLevel {
        AnyLevel::Small(Box::new(level))
    }
}

/// GVGAI's five Bait levels (`bait_lvl0.txt` … `bait_lvl4.txt`), embedded.
pub const BUILTIN_LEVELS: [&str; 5] = [
    include_str!("../data/bait_lvl0.txt"),
    include_str!("../data/bait_lvl1.txt"),
    include_str!("../data/bait_lvl2.txt"),
    include_str!("../data/bait_lvl3.txt"),
    include_str!("../data/bait_lvl4.txt"),
];

/// One of GVGAI's five levels (0–4), parsed.
pub fn builtin_level(index: usize) -> Option<Level> {
    BUILTIN_LEVELS
        .get(index)
        .map(|t| Level::parse(t).expect("bundled levels are valid"))
}

/// A generated `width`×`height` level (GVGAI text) for big-level tests, benchmarks and demos:
/// walls around, the avatar in the top-left corner, the key in the top-right one, the door in
/// the bottom-right one, holes, boxes and mushrooms spread off that path. The shortest win takes
/// `(width - 3) + (height - 3)` moves, score 5. `width` and `height` must be at least 5.
pub fn room(width: usize, height: usize) -> String {
    let mut text = String::new();
    for r in 0..height {
        for c in 0..width {
            text.push(match (r, c) {
                _ if r == 0 || c == 0 || r == height - 1 || c == width - 1 => 'w',
                (1, 1) => 'A',
                (1, _) if c == width - 2 => 'k',
                _ if (r, c) == (height - 2, width - 2) => 'g',
                _ if r < 3 || c > width - 4 => '.',
                _ if r % 4 == 0 && c % 4 == 0 => '0',
                _ if r % 4 == 2 && c % 5 == 3 => '1',
                _ if r % 3 == 1 && c % 7 == 2 => 'm',
                _ => '.',
            });
        }
        text.push('\n');
    }
    text
}
