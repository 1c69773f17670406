//! The generation game (see `docs/METHODS.md#sokogen-actions`; thesis §2.2): a state is a partly
//! built Sokoban level, the actions build it (phase 1: Delete-Obstacle, Place-Box, Freeze-Level)
//! and then play it (phase 2: Move-Agent, Evaluate-Level). The terminal state is the finished,
//! post-processed level with its score.
//!
//! The state is `Copy` and inline: bitboards for walls, boxes, goals and start cells, small
//! arrays for the boxes' start cells and move counters (`B` boxes at most), the rules. Cloning
//! it into the search's scratch state is a `memcpy`.

use crate::config::{Congestion, MoveAgent, Rules};
use crate::geometry::{Direction, Geometry, DIRECTIONS};
use puzzle_engine::bits::Bits;
use puzzle_engine::{Game, Rng};

/// An action of the generation game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GenAction {
    /// Delete-Obstacle: the wall at this cell becomes floor (it must have a non-wall neighbour).
    DeleteObstacle(u16),
    /// Place-Box: a box on this empty floor cell (not the player start).
    PlaceBox(u16),
    /// Freeze-Level: the board becomes the level's start configuration.
    Freeze,
    /// Move-Agent: the player walks to `from` and steps in `dir`, pushing the box there if any
    /// (push-based form: always a push; naive form: `from` is the player's cell).
    Move {
        /// The cell the player walks to first.
        from: u16,
        /// The direction of the step.
        dir: Direction,
    },
    /// Evaluate-Level: the terminal action (goals, post-processing, score).
    Evaluate,
    /// Bootstrapping only: the fresh root's actions pick one of the re-rooted levels.
    Seed(u8),
}

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Before Freeze-Level.
    Build,
    /// After Freeze-Level, before Evaluate-Level.
    Play,
    /// Evaluated: terminal.
    Done,
}

/// The metrics of an evaluated level (see `docs/METHODS.md#sokogen-score`).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Metrics {
    /// P_b: 3×3 windows with at least one wall and one non-wall cell.
    pub pb: u32,
    /// P_c: the congestion (V2 or V1 as configured).
    pub pc: f64,
    /// n: boxes after post-processing.
    pub boxes: u32,
    /// The score (weighted sum / k, area-normalized as configured; 0 without boxes).
    pub score: f64,
}

/// Why a generation board cannot be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// Width or height out of range, or too large for the state's capacity.
    Size {
        /// Requested width.
        width: usize,
        /// Requested height.
        height: usize,
    },
    /// The start cell is not on the board.
    Start {
        /// Requested x.
        x: usize,
        /// Requested y.
        y: usize,
    },
    /// A seed level the generation game cannot reach by its own actions (why, in words).
    Seed(String),
}

impl std::fmt::Display for BoardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BoardError::Size { width, height } => write!(
                f,
                "a {width}×{height} board is not supported (width and height must be {}..={})",
                crate::geometry::MIN_SIDE,
                crate::geometry::MAX_SIDE
            ),
            BoardError::Start { x, y } => write!(f, "the start ({x},{y}) is not on the board"),
            BoardError::Seed(why) => write!(f, "the seed level cannot be continued: {why}"),
        }
    }
}

impl std::error::Error for BoardError {}

/// A state of the generation game on a board held in `N` words with room for `B` boxes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GenState<const N: usize, const B: usize> {
    geo: Geometry<N>,
    rules: Rules,
    box_limit: u16,
    walls: Bits<N>,
    /// Box cells (current; after Evaluate: the start cells of the kept boxes).
    boxes: Bits<N>,
    /// Goals (after Evaluate).
    goals: Bits<N>,
    box_cell: [u16; B],
    box_start: [u16; B],
    box_moves: [u8; B],
    n_boxes: u16,
    player: u16,
    start: u16,
    depth: u16,
    moves: u16,
    phase: Phase,
    metrics: Metrics,
}

impl<const N: usize, const B: usize> GenState<N, B> {
    /// The root state (see `docs/METHODS.md#sokogen-board`): every cell a wall except the player's
    /// start.
    pub fn new(
        width: usize,
        height: usize,
        start: (usize, usize),
        rules: Rules,
    ) -> Result<Self, BoardError> {
        let geo = Geometry::<N>::new(width, height).ok_or(BoardError::Size { width, height })?;
        if start.0 >= width || start.1 >= height {
            return Err(BoardError::Start {
                x: start.0,
                y: start.1,
            });
        }
        let start_cell = geo.cell(start.0, start.1);
        let mut walls = geo.inside;
        walls.clear(start_cell);
        let box_limit = rules.box_limit.for_area(geo.area()).min(B as u16);
        Ok(GenState {
            geo,
            rules,
            box_limit,
            walls,
            boxes: Bits::EMPTY,
            goals: Bits::EMPTY,
            box_cell: [0; B],
            box_start: [0; B],
            box_moves: [0; B],
            n_boxes: 0,
            player: start_cell as u16,
            start: start_cell as u16,
            depth: 0,
            moves: 0,
            phase: Phase::Build,
            metrics: Metrics::default(),
        })
    }

    /// A root that continues from a seed level (bootstrapping from a level of one's own): the
    /// state the game's own actions reach by deleting the obstacles on `floor` (nearest to the
    /// start first, so each has a non-wall neighbour when deleted) and placing a box on each of
    /// `boxes` (the seed's goals: boxes are placed where they will be solved), before
    /// Freeze-Level. Cells are `(x, y)` on the board (the interior, without the wall border).
    /// Refused when a cell is off the board, the floor is not connected to the start, a box is
    /// not on the floor or is on the start, or there are more boxes than the box limit.
    pub fn seeded(
        width: usize,
        height: usize,
        start: (usize, usize),
        rules: Rules,
        floor: &[(usize, usize)],
        boxes: &[(usize, usize)],
    ) -> Result<Self, BoardError> {
        let mut state = GenState::new(width, height, start, rules)?;
        let geo = state.geo;
        let cell = |&(x, y): &(usize, usize)| {
            (x < width && y < height)
                .then(|| geo.cell(x, y))
                .ok_or_else(|| {
                    BoardError::Seed(format!(
                        "the cell ({x},{y}) is off the {width}×{height} board"
                    ))
                })
        };
        let mut to_clear: Vec<usize> = floor.iter().map(cell).collect::<Result<_, _>>()?;
        let start_cell = state.start as usize;
        to_clear.retain(|&c| c != start_cell);
        // Delete the obstacles in the order the game can: always one next to the cleared area.
        let mut actions = Vec::new();
        while !to_clear.is_empty() {
            state.legal_actions(&mut actions);
            let Some(i) = to_clear
                .iter()
                .position(|&c| actions.contains(&GenAction::DeleteObstacle(c as u16)))
            else {
                let (x, y) = geo.xy(to_clear[0]);
                return Err(BoardError::Seed(format!(
                    "the floor at ({x},{y}) is not connected to the player's start"
                )));
            };
            let c = to_clear.swap_remove(i);
            state.apply(GenAction::DeleteObstacle(c as u16));
        }
        for b in boxes {
            let c = cell(b)?;
            state.legal_actions(&mut actions);
            if !actions.contains(&GenAction::PlaceBox(c as u16)) {
                let (x, y) = *b;
                let why = if c == start_cell {
                    format!("a goal at ({x},{y}) is under the player")
                } else if state.walls.has(c) {
                    format!("a goal at ({x},{y}) is not on the floor")
                } else {
                    format!(
                        "no room for a box at ({x},{y}) (at most {} boxes on this board)",
                        state.box_limit
                    )
                };
                return Err(BoardError::Seed(why));
            }
            state.apply(GenAction::PlaceBox(c as u16));
        }
        Ok(state)
    }

    /// The board geometry.
    pub fn geometry(&self) -> &Geometry<N> {
        &self.geo
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Replace the rules (bootstrapping turns the depth limit off for its re-rooted levels).
    pub fn set_rules(&mut self, rules: Rules) {
        self.rules = rules;
        self.box_limit = rules.box_limit.for_area(self.geo.area()).min(B as u16);
    }

    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Wall cells.
    pub fn walls(&self) -> Bits<N> {
        self.walls
    }

    /// Box cells (after Evaluate: the kept boxes' start cells).
    pub fn boxes(&self) -> Bits<N> {
        self.boxes
    }

    /// Goal cells (after Evaluate).
    pub fn goals(&self) -> Bits<N> {
        self.goals
    }

    /// The player's cell.
    pub fn player(&self) -> usize {
        self.player as usize
    }

    /// The player's start cell.
    pub fn start(&self) -> usize {
        self.start as usize
    }

    /// Actions applied since the root (the tree depth of thesis §2.3.3).
    pub fn depth(&self) -> usize {
        self.depth as usize
    }

    /// The metrics (meaningful after Evaluate).
    pub fn metrics(&self) -> Metrics {
        self.metrics
    }

    /// The upper box limit in force (never above the capacity `B`).
    pub fn box_limit(&self) -> usize {
        self.box_limit as usize
    }

    /// Box start cells, final cells and move counts (after Freeze), as `(start, cell, moves)`.
    pub fn box_records(&self) -> impl Iterator<Item = (usize, usize, u8)> + '_ {
        (0..self.n_boxes as usize).map(|i| {
            (
                self.box_start[i] as usize,
                self.box_cell[i] as usize,
                self.box_moves[i],
            )
        })
    }

    #[inline]
    fn open(&self) -> Bits<N> {
        self.geo.inside.and_not(self.walls)
    }

    #[inline]
    pub(crate) fn delete_candidates(&self) -> Bits<N> {
        self.walls.and(self.geo.neighbours(self.open()))
    }

    #[inline]
    pub(crate) fn place_candidates(&self) -> Bits<N> {
        if self.n_boxes >= self.box_limit {
            return Bits::EMPTY;
        }
        let mut c = self.open().and_not(self.boxes);
        c.clear(self.start as usize);
        c
    }

    #[inline]
    fn freeze_allowed(&self, others: bool) -> bool {
        let has_box = self.n_boxes > 0;
        if !others {
            // Nothing else is legal: freeze so that every playout ends (a level without boxes
            // then scores 0).
            return true;
        }
        (has_box || !self.rules.require_box) && self.depth >= self.rules.depth_limit
    }

    /// The cells from which the player can push in direction `d` (push-based Move-Agent), or
    /// step (naive Move-Agent: only the player's own cell).
    #[inline]
    fn move_sources(&self, reach: Bits<N>, d: Direction) -> Bits<N> {
        let free = self.open().and_not(self.boxes);
        let back = d.opposite();
        match self.rules.move_agent {
            MoveAgent::Push => {
                let pushable = self.boxes.and(self.geo.shift(free, back));
                reach.and(self.geo.shift(pushable, back))
            }
            MoveAgent::Naive => {
                let pushable = self.boxes.and(self.geo.shift(free, back));
                let enterable = free.or(pushable);
                reach.and(self.geo.shift(enterable, back))
            }
        }
    }

    #[inline]
    fn reach(&self) -> Bits<N> {
        let player = Bits::single(self.player as usize);
        match self.rules.move_agent {
            MoveAgent::Push => self.geo.flood(player, self.open().and_not(self.boxes)),
            MoveAgent::Naive => player,
        }
    }

    #[inline]
    fn moves_allowed(&self) -> bool {
        self.moves < self.rules.max_moves
    }

    /// A uniformly random legal action (the same distribution as picking uniformly from
    /// [`Game::legal_actions`]), without building the action list: the playouts' fast path.
    #[inline]
    pub fn random_action(&self, rng: &mut Rng) -> Option<GenAction> {
        match self.phase {
            Phase::Build => {
                let del = self.delete_candidates();
                let place = self.place_candidates();
                let (nd, np) = (del.count(), place.count());
                let freeze = self.freeze_allowed(nd + np > 0) as u32;
                let total = nd + np + freeze;
                let k = rng.below(total as usize) as u32;
                Some(if k < nd {
                    GenAction::DeleteObstacle(del.nth(k) as u16)
                } else if k < nd + np {
                    GenAction::PlaceBox(place.nth(k - nd) as u16)
                } else {
                    GenAction::Freeze
                })
            }
            Phase::Play => {
                if !self.moves_allowed() {
                    return Some(GenAction::Evaluate);
                }
                let reach = self.reach();
                let mut sources = [Bits::<N>::EMPTY; 4];
                let mut counts = [0u32; 4];
                let mut total = 1; // Evaluate
                for (i, &d) in DIRECTIONS.iter().enumerate() {
                    sources[i] = self.move_sources(reach, d);
                    counts[i] = sources[i].count();
                    total += counts[i];
                }
                let mut k = rng.below(total as usize) as u32;
                for (i, &d) in DIRECTIONS.iter().enumerate() {
                    if k < counts[i] {
                        return Some(GenAction::Move {
                            from: sources[i].nth(k) as u16,
                            dir: d,
                        });
                    }
                    k -= counts[i];
                }
                Some(GenAction::Evaluate)
            }
            Phase::Done => None,
        }
    }

    /// Freeze-Level's impossible-configuration removal (thesis §2.3.5): a 2×2 window slides
    /// over the board from (−1, −1), rows outer; obstacles are walls and cells off the board.
    /// Four boxes, or one box and three obstacles: the first box (in reading order) goes; two
    /// adjacent boxes and two obstacles: the first of them goes.
    pub fn remove_impossible_boxes(&mut self) {
        if self.boxes.is_empty() {
            return;
        }
        // Only windows holding a box can match a rule, and boxes are only ever removed: visit
        // just the (up to four) windows of each box, in the same reading order. The window
        // whose top-left cell is `c` (possibly off the board, x or y = −1) is numbered
        // k = c + stride + 1 ≥ 0, so a box at cell b lies in windows b, b+1, b+s, b+s+1.
        // A box with free cells on both sides (left and right, or above and below) has a free
        // cell in each of its four windows, now and after any removal: skip it.
        let free = self.open().and_not(self.boxes);
        let g = &self.geo;
        let between_lr = g
            .shift(free, Direction::Right)
            .and(g.shift(free, Direction::Left));
        let between_ud = g
            .shift(free, Direction::Down)
            .and(g.shift(free, Direction::Up));
        let candidates = self.boxes.and_not(between_lr.or(between_ud));
        if candidates.is_empty() {
            return;
        }
        let s = self.geo.stride as usize;
        let mut origins = [0u64; 17];
        for b in candidates.iter() {
            for k in [b, b + 1, b + s, b + s + 1] {
                origins[k >> 6] |= 1 << (k & 63);
            }
        }
        let words = ((self.geo.height as usize + 1) * s + s + 2)
            .div_ceil(64)
            .min(17);
        for (wi, word) in origins.iter_mut().enumerate().take(words) {
            while let Some(bit) = lowest_bit(word) {
                let k = wi * 64 + bit;
                self.check_window_at(k as isize - s as isize - 1);
            }
        }
    }

    /// Is cell index `c` (possibly off the board) an obstacle: a wall or off the board?
    #[inline]
    fn obstacle(&self, c: isize) -> bool {
        c < 0
            || c as usize >= Bits::<N>::CAPACITY
            || !self.geo.inside.has(c as usize)
            || self.walls.has(c as usize)
    }

    /// The rules of [`GenState::remove_impossible_boxes`] on the window with top-left cell `c`
    /// (as a cell index, padding and negative indices standing for cells off the board).
    #[inline]
    fn check_window_at(&mut self, c: isize) {
        let s = self.geo.stride as isize;
        let mut boxes = [0usize; 4];
        let mut n_boxes = 0;
        let mut obstacles = 0;
        for cell in [c, c + 1, c + s, c + s + 1] {
            if self.obstacle(cell) {
                obstacles += 1;
            } else if self.boxes.has(cell as usize) {
                boxes[n_boxes] = cell as usize;
                n_boxes += 1;
            }
        }
        let remove = match (n_boxes, obstacles) {
            (4, _) | (1, 3) => true,
            (2, 2) => {
                let diff = boxes[1] - boxes[0];
                diff == 1 || diff == s as usize
            }
            _ => false,
        };
        if remove {
            self.boxes.clear(boxes[0]);
            self.n_boxes -= 1;
        }
    }

    /// The rules on the 2×2 window with top-left corner `(x, y)` (x, y ≥ −1), by coordinates.
    fn check_window(&mut self, x: isize, y: isize) {
        let w = self.geo.width as isize;
        let h = self.geo.height as isize;
        let mut boxes = [0usize; 4];
        let mut n_boxes = 0;
        let mut obstacles = 0;
        for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            let (cx, cy) = (x + dx, y + dy);
            if cx < 0 || cy < 0 || cx >= w || cy >= h {
                obstacles += 1;
                continue;
            }
            let cell = self.geo.cell(cx as usize, cy as usize);
            if self.walls.has(cell) {
                obstacles += 1;
            } else if self.boxes.has(cell) {
                boxes[n_boxes] = cell;
                n_boxes += 1;
            }
        }
        let remove = match (n_boxes, obstacles) {
            (4, _) | (1, 3) => true,
            (2, 2) => {
                let (ax, ay) = self.geo.xy(boxes[0]);
                let (bx, by) = self.geo.xy(boxes[1]);
                ax.abs_diff(bx) + ay.abs_diff(by) == 1
            }
            _ => false,
        };
        if remove {
            self.boxes.clear(boxes[0]);
            self.n_boxes -= 1;
        }
    }

    /// The reference form of [`GenState::remove_impossible_boxes`]: every window of the board
    /// in reading order (tests check that both agree).
    pub fn remove_impossible_boxes_all_windows(&mut self) {
        let w = self.geo.width as isize;
        let h = self.geo.height as isize;
        for y in -1..h {
            for x in -1..w {
                self.check_window(x, y);
            }
        }
    }

    fn freeze(&mut self) {
        if self.rules.remove_impossible {
            self.remove_impossible_boxes();
        }
        let mut i = 0;
        for cell in self.boxes.iter() {
            self.box_cell[i] = cell as u16;
            self.box_start[i] = cell as u16;
            self.box_moves[i] = 0;
            i += 1;
        }
        self.n_boxes = i as u16;
        self.moves = 0;
        self.phase = Phase::Play;
    }

    fn move_agent(&mut self, from: usize, dir: Direction) {
        let Some(target) = self.geo.step(from, dir) else {
            debug_assert!(false, "move off the board");
            return;
        };
        if self.boxes.has(target) {
            let beyond = self.geo.step(target, dir).expect("push stays on the board");
            let i = (0..self.n_boxes as usize)
                .find(|&i| self.box_cell[i] as usize == target)
                .expect("a box at a box cell");
            self.box_cell[i] = beyond as u16;
            self.box_moves[i] = self.box_moves[i].saturating_add(1);
            self.boxes.clear(target);
            self.boxes.set(beyond);
        }
        self.player = target as u16;
        self.moves += 1;
    }

    /// Evaluate-Level (see `docs/METHODS.md#sokogen-actions`): goals at the boxes' cells, boxes
    /// back to their starts, the player back to the start; post-processing (an unmoved box becomes
    /// a wall, a box moved once is removed with its goal); then the score.
    fn evaluate(&mut self) {
        let mut walls = self.walls;
        let mut starts = Bits::EMPTY;
        let mut goals = Bits::EMPTY;
        let mut kept = 0u32;
        for i in 0..self.n_boxes as usize {
            match self.box_moves[i] {
                0 => walls.set(self.box_start[i] as usize),
                1 => {}
                _ => {
                    starts.set(self.box_start[i] as usize);
                    goals.set(self.box_cell[i] as usize);
                    kept += 1;
                }
            }
        }
        self.walls = walls;
        self.boxes = starts;
        self.goals = goals;
        self.player = self.start;
        self.phase = Phase::Done;
        let pairs = (0..self.n_boxes as usize)
            .filter(|&i| self.box_moves[i] >= 2)
            .map(|i| (self.box_start[i] as usize, self.box_cell[i] as usize));
        self.metrics = score_level(&self.geo, &self.rules, walls, starts, goals, kept, pairs);
    }
}

/// The score of a finished level (see `docs/METHODS.md#sokogen-score`), from its walls, the kept
/// boxes' start cells and goals, and the (start, goal) pair of each box.
///
/// - P_b counts the 3×3 windows fully inside the board with a wall and a non-wall cell;
/// - Congestion-V2 sums `(α·b_i + β·g_i) / (γ·(A_i − o_i))` over the boxes, on the rectangle
///   spanned by box i's start and goal: `b_i` the other boxes' start cells in it, `g_i` the
///   other goals in it, `o_i` its walls, `A_i` its area; a term with `A_i − o_i = 0` is 0;
/// - score = `(w_b·P_b + w_c·P_c + w_n·n) / k`, times `25 / (width·height)` with area
///   normalization, and 0 without boxes.
pub fn score_level<const N: usize>(
    geo: &Geometry<N>,
    rules: &Rules,
    walls: Bits<N>,
    starts: Bits<N>,
    goals: Bits<N>,
    boxes: u32,
    pairs: impl Iterator<Item = (usize, usize)>,
) -> Metrics {
    let open = geo.inside.and_not(walls);
    let pb = geo
        .windows_touching(walls)
        .and(geo.windows_touching(open))
        .count();
    let wt = &rules.weights;
    let mut pc = 0.0;
    for (start, goal) in pairs {
        let rect = geo.rectangle(start, goal);
        let area = rect.count() as f64;
        let o = rect.and(walls).count() as f64;
        let b = rect.and(starts).count().saturating_sub(1) as f64;
        let g = rect.and(goals).count().saturating_sub(1) as f64;
        pc += match rules.congestion {
            Congestion::V2 => {
                let free = area - o;
                if free <= 0.0 {
                    0.0
                } else {
                    (wt.alpha * b + wt.beta * g) / (wt.gamma * free)
                }
            }
            Congestion::V1 => wt.alpha * b + wt.beta * g + wt.gamma * o,
        };
    }
    let score = if boxes == 0 {
        0.0
    } else {
        let raw = (wt.w_b * pb as f64 + wt.w_c * pc + wt.w_n * boxes as f64) / wt.k;
        if rules.area_normalization {
            raw * 25.0 / geo.area() as f64
        } else {
            raw
        }
    };
    Metrics {
        pb,
        pc,
        boxes,
        score,
    }
}

/// Pop the lowest set bit of `word`.
#[inline]
fn lowest_bit(word: &mut u64) -> Option<usize> {
    if *word == 0 {
        return None;
    }
    let bit = word.trailing_zeros() as usize;
    *word &= *word - 1;
    Some(bit)
}

impl<const N: usize, const B: usize> Game for GenState<N, B> {
    type Action = GenAction;

    fn legal_actions(&self, out: &mut Vec<GenAction>) {
        out.clear();
        match self.phase {
            Phase::Build => {
                let del = self.delete_candidates();
                let place = self.place_candidates();
                out.extend(del.iter().map(|c| GenAction::DeleteObstacle(c as u16)));
                out.extend(place.iter().map(|c| GenAction::PlaceBox(c as u16)));
                if self.freeze_allowed(!out.is_empty()) {
                    out.push(GenAction::Freeze);
                }
            }
            Phase::Play => {
                if self.moves_allowed() {
                    let reach = self.reach();
                    for d in DIRECTIONS {
                        out.extend(self.move_sources(reach, d).iter().map(|c| GenAction::Move {
                            from: c as u16,
                            dir: d,
                        }));
                    }
                }
                out.push(GenAction::Evaluate);
            }
            Phase::Done => {}
        }
    }

    #[inline]
    fn apply(&mut self, action: GenAction) {
        self.depth = self.depth.saturating_add(1);
        match action {
            GenAction::DeleteObstacle(c) => self.walls.clear(c as usize),
            GenAction::PlaceBox(c) => {
                self.boxes.set(c as usize);
                self.n_boxes += 1;
            }
            GenAction::Freeze => self.freeze(),
            GenAction::Move { from, dir } => self.move_agent(from as usize, dir),
            GenAction::Evaluate => self.evaluate(),
            GenAction::Seed(_) => debug_assert!(false, "Seed is a bootstrapping action"),
        }
    }

    #[inline]
    fn is_terminal(&self) -> bool {
        self.phase == Phase::Done
    }

    #[inline]
    fn score(&self) -> f64 {
        if self.phase == Phase::Done {
            self.metrics.score
        } else {
            0.0
        }
    }

    fn action_code(&self, action: GenAction) -> u64 {
        match action {
            GenAction::DeleteObstacle(c) => c as u64,
            GenAction::PlaceBox(c) => (1 << 16) | c as u64,
            GenAction::Freeze => 2 << 16,
            GenAction::Move { from, dir } => (3 << 16) | ((dir as u64) << 12) | from as u64,
            GenAction::Evaluate => 4 << 16,
            GenAction::Seed(i) => (5 << 16) | i as u64,
        }
    }
}

#[cfg(test)]
mod action_size {
    /// The generator's action fits in 4 bytes even as an `Option` (the MCTS node's layout,
    /// docs/ROBUSTNESS.md#memory, counts on it).
    #[test]
    fn an_optional_action_takes_4_bytes() {
        assert_eq!(std::mem::size_of::<Option<super::GenAction>>(), 4);
    }
}
