//! Seeded Bait levels of any size up to 64×64, for testing the agents beyond GVGAI's five
//! small levels (see `docs/METHODS.md#bait-generated`): open rooms, braided mazes, rooms split
//! by a river of holes that boxes must fill, and levels that cannot be won. Every level is
//! GVGAI text ([`crate::level::Level::parse_width`] reads it), and the same seed gives the
//! same level.

use puzzle_engine::rng::Rng;
use std::fmt;

/// The kinds of generated level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LevelKind {
    /// An open room: the door beside the avatar, the key in the far corner region, a band of
    /// mushrooms across the middle and a few boxes and mushrooms strewn about.
    Open,
    /// A maze carved by a randomized depth-first search, then braided (about one dead-end wall
    /// in eight knocked through, so there are loops); the key at the cell farthest from the
    /// avatar, the door at the cell farthest from the key; mushrooms and a few boxes in the
    /// corridors.
    Maze,
    /// A room split by a river of holes: boxes above it (each with room to push it down into
    /// the river), the key below it and the door above, so the avatar must fill a hole to
    /// cross; more boxes and holes strewn about.
    Holes,
    /// A level that cannot be won, in one of four ways by size: the key walled in, the door
    /// walled in, a river of holes with no box to fill it, or no key at all.
    Unwinnable,
}

impl LevelKind {
    /// Every kind, in the order of the test set.
    pub const ALL: [LevelKind; 4] = [
        LevelKind::Open,
        LevelKind::Maze,
        LevelKind::Holes,
        LevelKind::Unwinnable,
    ];

    /// The kind's name in level names (`open`, `maze`, `holes`, `unwinnable`).
    pub fn name(self) -> &'static str {
        match self {
            LevelKind::Open => "open",
            LevelKind::Maze => "maze",
            LevelKind::Holes => "holes",
            LevelKind::Unwinnable => "unwinnable",
        }
    }
}

impl fmt::Display for LevelKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The sides of the generated test set's levels (square): 8 to 64.
pub const TEST_SET_SIZES: [usize; 7] = [8, 12, 16, 24, 32, 48, 64];

/// One generated level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratedLevel {
    /// `KIND-WxH` (e.g. `maze-32x32`).
    pub name: String,
    /// Its kind.
    pub kind: LevelKind,
    /// Columns, walls included.
    pub width: usize,
    /// Rows, walls included.
    pub height: usize,
    /// The level in GVGAI text.
    pub text: String,
}

/// The generated test set of `seed`: every kind at every size of [`TEST_SET_SIZES`]
/// (28 levels), size-major. Level `i` is drawn from [`Rng::stream_seed`]`(seed, i)`.
pub fn test_set(seed: u64) -> Vec<GeneratedLevel> {
    let mut out = Vec::new();
    for (s, &side) in TEST_SET_SIZES.iter().enumerate() {
        for (k, &kind) in LevelKind::ALL.iter().enumerate() {
            let index = (s * LevelKind::ALL.len() + k) as u64;
            let mut rng = Rng::new(Rng::stream_seed(seed, index));
            let text = match kind {
                LevelKind::Unwinnable => unwinnable(side, side, s % 4, &mut rng),
                _ => generate(kind, side, side, &mut rng),
            };
            out.push(GeneratedLevel {
                name: format!("{kind}-{side}x{side}"),
                kind,
                width: side,
                height: side,
                text,
            });
        }
    }
    out
}

/// A `width`×`height` level of `kind` (both at least 8 and at most 64), drawn with `rng`.
pub fn generate(kind: LevelKind, width: usize, height: usize, rng: &mut Rng) -> String {
    assert!(
        (8..=64).contains(&width) && (8..=64).contains(&height),
        "generated levels are 8 to 64 cells a side, not {width}x{height}"
    );
    match kind {
        LevelKind::Open => open(width, height, rng).text(),
        LevelKind::Maze => maze(width, height, rng).text(),
        LevelKind::Holes => holes(width, height, rng).text(),
        LevelKind::Unwinnable => {
            let way = rng.below(4);
            unwinnable(width, height, way, rng)
        }
    }
}

/// A grid of tiles being drawn.
struct Grid {
    rows: Vec<Vec<char>>,
}

impl Grid {
    /// Floor inside a ring of walls.
    fn room(width: usize, height: usize) -> Grid {
        let rows = (0..height)
            .map(|r| {
                (0..width)
                    .map(|c| {
                        if r == 0 || c == 0 || r == height - 1 || c == width - 1 {
                            'w'
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect();
        Grid { rows }
    }

    fn height(&self) -> usize {
        self.rows.len()
    }

    fn width(&self) -> usize {
        self.rows[0].len()
    }

    fn get(&self, r: usize, c: usize) -> char {
        self.rows[r][c]
    }

    fn set(&mut self, r: usize, c: usize, tile: char) {
        self.rows[r][c] = tile;
    }

    /// Put `tile` on a share `density` of the floor cells for which `allowed` holds.
    fn strew(
        &mut self,
        tile: char,
        density: f64,
        rng: &mut Rng,
        allowed: impl Fn(usize, usize) -> bool,
    ) {
        for r in 1..self.height() - 1 {
            for c in 1..self.width() - 1 {
                if self.get(r, c) == '.' && allowed(r, c) && rng.chance(density) {
                    self.set(r, c, tile);
                }
            }
        }
    }

    /// A wall ring around `(r, c)` (the cells at Chebyshev distance 1 that are inside).
    fn ring(&mut self, r: usize, c: usize) {
        for rr in r.saturating_sub(1)..=(r + 1).min(self.height() - 1) {
            for cc in c.saturating_sub(1)..=(c + 1).min(self.width() - 1) {
                if (rr, cc) != (r, c) {
                    self.set(rr, cc, 'w');
                }
            }
        }
    }

    fn text(&self) -> String {
        let mut out = String::new();
        for row in &self.rows {
            out.extend(row.iter());
            out.push('\n');
        }
        out
    }
}

/// A cell at least `margin` cells from the outer wall (`margin` at least 1).
fn inside(rng: &mut Rng, size: usize, low: usize, high: usize) -> usize {
    let (low, high) = (low.max(1), high.min(size - 2));
    low + rng.below(high - low + 1)
}

fn open(width: usize, height: usize, rng: &mut Rng) -> Grid {
    let mut g = Grid::room(width, height);
    // The avatar in a corner, the door beside it, the key in the opposite quarter.
    let (top, left) = (rng.chance(0.5), rng.chance(0.5));
    let ar = if top { 1 } else { height - 2 };
    let ac = if left { 1 } else { width - 2 };
    let dc = if left { ac + 1 } else { ac - 1 };
    let (kr_lo, kr_hi) = if top {
        (height * 3 / 4, height - 2)
    } else {
        (1, height / 4)
    };
    let (kc_lo, kc_hi) = if left {
        (width * 3 / 4, width - 2)
    } else {
        (1, width / 4)
    };
    let kr = inside(rng, height, kr_lo, kr_hi);
    let kc = inside(rng, width, kc_lo, kc_hi);
    g.set(ar, ac, 'A');
    g.set(ar, dc, 'g');
    g.set(kr, kc, 'k');
    // A band of mushrooms across the middle, over about two thirds of the width.
    let band = height / 2;
    let span = (width - 2) * 2 / 3;
    let from = 1 + rng.below(width - 2 - span + 1);
    for c in from..from + span {
        if g.get(band, c) == '.' {
            g.set(band, c, 'm');
        }
    }
    // A few mushrooms and boxes strewn about, boxes off the walls' neighbours (no box starts
    // frozen) and off the avatar's row.
    g.strew('m', 0.03, rng, |_, _| true);
    g.strew('1', 0.02, rng, |r, c| {
        r > 1 && c > 1 && r < height - 2 && c < width - 2 && r != ar
    });
    g
}

fn maze(width: usize, height: usize, rng: &mut Rng) -> Grid {
    let mut g = Grid {
        rows: vec![vec!['w'; width]; height],
    };
    // Corridor cells at odd coordinates; the last odd row and column that leave a wall.
    let rows: Vec<usize> = (1..height - 1).step_by(2).collect();
    let cols: Vec<usize> = (1..width - 1).step_by(2).collect();
    let mut seen = vec![vec![false; cols.len()]; rows.len()];
    let mut stack = vec![(0usize, 0usize)];
    seen[0][0] = true;
    g.set(rows[0], cols[0], '.');
    while let Some(&(i, j)) = stack.last() {
        let mut next = Vec::with_capacity(4);
        if i > 0 && !seen[i - 1][j] {
            next.push((i - 1, j));
        }
        if i + 1 < rows.len() && !seen[i + 1][j] {
            next.push((i + 1, j));
        }
        if j > 0 && !seen[i][j - 1] {
            next.push((i, j - 1));
        }
        if j + 1 < cols.len() && !seen[i][j + 1] {
            next.push((i, j + 1));
        }
        if next.is_empty() {
            stack.pop();
            continue;
        }
        let (ni, nj) = next[rng.below(next.len())];
        seen[ni][nj] = true;
        g.set(rows[ni], cols[nj], '.');
        g.set((rows[i] + rows[ni]) / 2, (cols[j] + cols[nj]) / 2, '.');
        stack.push((ni, nj));
    }
    // Braid: knock through about one wall in eight between two corridor cells.
    for r in 1..height - 1 {
        for c in 1..width - 1 {
            let between_rows = r % 2 == 0 && c % 2 == 1 && r + 1 < height - 1;
            let between_cols = r % 2 == 1 && c % 2 == 0 && c + 1 < width - 1;
            if g.get(r, c) == 'w' && (between_rows || between_cols) && rng.chance(0.125) {
                g.set(r, c, '.');
            }
        }
    }
    let (ar, ac) = (rows[0], cols[0]);
    let key = farthest(&g, (ar, ac));
    // The door as far from the key as it can be without cutting the avatar off from the key
    // (a door is shut until the key is held).
    let dist_from_key = distances(&g, key);
    let w = width;
    let mut cells: Vec<(usize, usize)> = (1..height - 1)
        .flat_map(|r| (1..width - 1).map(move |c| (r, c)))
        .filter(|&p| p != key && p != (ar, ac) && dist_from_key[p.0 * w + p.1] != usize::MAX)
        .collect();
    cells.sort_by_key(|&(r, c)| std::cmp::Reverse(dist_from_key[r * w + c]));
    let door = cells
        .into_iter()
        .find(|&(r, c)| {
            let saved = g.get(r, c);
            g.set(r, c, 'w');
            let reached = distances(&g, (ar, ac))[key.0 * w + key.1] != usize::MAX;
            g.set(r, c, saved);
            reached
        })
        .or_else(|| {
            // Every cell is on the way (one corridor): the door in a wall beside the key.
            let (r, c) = key;
            [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
                .into_iter()
                .find(|&(nr, nc)| {
                    nr > 0 && nc > 0 && nr < height - 1 && nc < width - 1 && g.get(nr, nc) == 'w'
                })
        })
        .unwrap_or_else(|| farthest(&g, key));
    g.set(ar, ac, 'A');
    g.set(key.0, key.1, 'k');
    g.set(door.0, door.1, 'g');
    g.strew('m', 0.05, rng, |_, _| true);
    // Boxes off the shortest ways from the avatar to the key and from the key to the door
    // (so they never stand in the way of a win), where the corridor goes straight on both
    // sides (so a push can move them).
    let on_way = {
        let mut on_way = vec![false; width * height];
        for (from, to) in [((ar, ac), key), (key, door)] {
            for (r, c) in shortest_way(&g, from, to) {
                on_way[r * width + c] = true;
            }
        }
        on_way
    };
    let straight = |g: &Grid, r: usize, c: usize| {
        let open = |rr: usize, cc: usize| g.get(rr, cc) != 'w';
        (open(r - 1, c) && open(r + 1, c)) || (open(r, c - 1) && open(r, c + 1))
    };
    let mut boxes = Vec::new();
    for r in 1..height - 1 {
        for c in 1..width - 1 {
            let free = g.get(r, c) == '.' && !on_way[r * width + c];
            if free && straight(&g, r, c) && rng.chance(0.03) {
                boxes.push((r, c));
            }
        }
    }
    for (r, c) in boxes {
        g.set(r, c, '1');
    }
    g
}

/// The cells of a shortest way (walls only) from `from` to `to`, both included (none if
/// there is no way).
fn shortest_way(g: &Grid, from: (usize, usize), to: (usize, usize)) -> Vec<(usize, usize)> {
    let w = g.width();
    let dist = distances(g, to);
    if dist[from.0 * w + from.1] == usize::MAX {
        return Vec::new();
    }
    let mut way = vec![from];
    let mut at = from;
    while at != to {
        let (r, c) = at;
        at = [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
            .into_iter()
            .find(|&(nr, nc)| dist[nr * w + nc] == dist[r * w + c] - 1)
            .expect("a cell nearer the target");
        way.push(at);
    }
    way
}

/// The floor cell farthest (in steps, walls only) from `from`.
fn farthest(g: &Grid, from: (usize, usize)) -> (usize, usize) {
    let w = g.width();
    let dist = distances(g, from);
    (0..dist.len())
        .filter(|&i| dist[i] != usize::MAX)
        .max_by_key(|&i| (dist[i], std::cmp::Reverse(i)))
        .map_or(from, |i| (i / w, i % w))
}

/// Steps (walls only) from `from` to every cell, `usize::MAX` where it cannot go; by index
/// `row · width + column`.
fn distances(g: &Grid, from: (usize, usize)) -> Vec<usize> {
    let (h, w) = (g.height(), g.width());
    let mut dist = vec![usize::MAX; h * w];
    let mut queue = std::collections::VecDeque::from([from]);
    dist[from.0 * w + from.1] = 0;
    while let Some((r, c)) = queue.pop_front() {
        for (nr, nc) in [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)] {
            if g.get(nr, nc) != 'w' && dist[nr * w + nc] == usize::MAX {
                dist[nr * w + nc] = dist[r * w + c] + 1;
                queue.push_back((nr, nc));
            }
        }
    }
    dist
}

fn holes(width: usize, height: usize, rng: &mut Rng) -> Grid {
    let mut g = Grid::room(width, height);
    let river = height / 2;
    for c in 1..width - 1 {
        g.set(river, c, '0');
    }
    // Boxes two rows above the river, each with the avatar's room above it to push it down.
    let boxes = (width / 8).max(2);
    let mut columns: Vec<usize> = (2..width - 2).collect();
    rng.shuffle(&mut columns);
    for &c in columns.iter().take(boxes) {
        g.set(river - 2, c, '1');
    }
    g.set(1, 1, 'A');
    let door_c = inside(rng, width, 2, width / 2);
    g.set(1 + rng.below(river - 3), door_c.max(2), 'g');
    let kr = inside(rng, height, river + 2, height - 2);
    let kc = inside(rng, width, width / 2, width - 2);
    g.set(kr, kc, 'k');
    // More holes and boxes strewn about, away from the river's rows and the avatar's corner.
    let near_river = |r: usize| r + 3 >= river && r <= river + 1;
    g.strew('0', 0.03, rng, |r, c| !near_river(r) && r + c > 4);
    g.strew('1', 0.03, rng, |r, c| {
        !near_river(r) && r > 1 && c > 1 && r < height - 2 && c < width - 2
    });
    g.strew('m', 0.02, rng, |_, _| true);
    g
}

/// A level that cannot be won, in `way` (0 to 3): the key walled in, the door walled in, a
/// river of holes with no box to fill it, or no key.
fn unwinnable(width: usize, height: usize, way: usize, rng: &mut Rng) -> String {
    let way = way % 4;
    match way {
        0 | 1 => {
            let mut g = open(width, height, rng);
            let target = if way == 0 { 'k' } else { 'g' };
            let (r, c) = find(&g, target);
            // Move the target off the outer wall's neighbours, then wall it in.
            let (nr, nc) = (r.clamp(2, height - 3), c.clamp(2, width - 3));
            g.set(r, c, '.');
            let avatar = find(&g, 'A');
            g.set(avatar.0, avatar.1, '.');
            g.set(nr, nc, target);
            g.ring(nr, nc);
            // The avatar on the floor cell farthest from the walled-in target.
            let far = (1..height - 1)
                .flat_map(|r| (1..width - 1).map(move |c| (r, c)))
                .filter(|&(r, c)| g.get(r, c) == '.')
                .max_by_key(|&(r, c)| r.abs_diff(nr) + c.abs_diff(nc))
                .expect("a room has floor");
            g.set(far.0, far.1, 'A');
            g.text()
        }
        2 => {
            let mut g = holes(width, height, rng);
            for r in 1..height - 1 {
                for c in 1..width - 1 {
                    if g.get(r, c) == '1' {
                        g.set(r, c, '.');
                    }
                }
            }
            g.text()
        }
        _ => {
            let mut g = open(width, height, rng);
            let (r, c) = find(&g, 'k');
            g.set(r, c, '.');
            g.text()
        }
    }
}

fn find(g: &Grid, tile: char) -> (usize, usize) {
    (0..g.height())
        .flat_map(|r| (0..g.width()).map(move |c| (r, c)))
        .find(|&(r, c)| g.get(r, c) == tile)
        .expect("the generator placed it")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::unwinnable_reason;
    use crate::level::{AnyLevel, Level, LevelVisitor};
    use crate::state::BaitState;

    struct Reason;
    impl LevelVisitor for Reason {
        type Output = Option<String>;
        fn visit<const W: usize>(self, level: Level<W>) -> Option<String> {
            unwinnable_reason(&BaitState::new(level))
        }
    }

    #[test]
    fn every_level_of_the_test_set_reads_at_its_size() {
        for level in test_set(0) {
            let parsed = AnyLevel::parse(&level.text)
                .unwrap_or_else(|e| panic!("{}: {e}\n{}", level.name, level.text));
            assert_eq!(parsed.size(), (level.width, level.height), "{}", level.name);
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_set_and_another_seed_another() {
        assert_eq!(test_set(3), test_set(3));
        assert_ne!(test_set(3), test_set(4));
    }

    #[test]
    fn the_unwinnable_levels_are_seen_to_be_so_and_the_others_are_not() {
        for seed in 0..4 {
            for level in test_set(seed) {
                let reason = AnyLevel::parse(&level.text).unwrap().visit(Reason);
                assert_eq!(
                    reason.is_some(),
                    level.kind == LevelKind::Unwinnable,
                    "{} (seed {seed}): {reason:?}\n{}",
                    level.name,
                    level.text
                );
            }
        }
    }
}
