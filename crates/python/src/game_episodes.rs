//! One episode of SameGame, Sudoku or Bait as the Gymnasium environments play it: the rules
//! are the game crates'; an episode turns an action number into a move and the move into the
//! reward, the ends and the observation. The single environments (`games.rs`) and the vector
//! ones (`game_batch.rs`) step the same [`Episode`] types, so they agree step for step.

use puzzle_bait::state::{Action as BaitAction, BaitState, Status};
use puzzle_engine::Rng;
use puzzle_samegame::board::Scratch;
use puzzle_samegame::{play as samegame_play, Board as SameGameBoard, Scoring};
use puzzle_sudoku::grid::Grid;

/// What a step gave.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Step {
    /// The reward.
    pub reward: f64,
    /// The action changed the position (SameGame: removed a group; Sudoku: wrote a value).
    pub legal: bool,
    /// The episode ended by the game's rules.
    pub terminated: bool,
    /// The episode was cut off by a step limit.
    pub truncated: bool,
}

/// One episode of a game, over settings shared by every episode (`Game`).
pub trait Episode: Send {
    /// The settings every episode of an environment shares (boards, puzzles, level, limits).
    type Game: Sync;

    /// An episode not yet reset.
    fn new(game: &Self::Game) -> Self;
    /// `(height, width)` of the observation.
    fn shape(game: &Self::Game) -> (usize, usize);
    /// Number of actions.
    fn actions(game: &Self::Game) -> usize;
    /// Number of items a reset draws from (boards, puzzles; 0 when there is no list).
    fn items(game: &Self::Game) -> usize;
    /// Why `action` is not an action of this game, if it is not.
    fn check_action(game: &Self::Game, action: i64) -> Result<(), String>;
    /// Start item `index` (a random item drawn with `seed` where the game has no list).
    fn reset(&mut self, game: &Self::Game, index: usize, seed: u64) -> Result<(), String>;
    /// Play a checked action.
    fn step(&mut self, game: &Self::Game, action: usize) -> Step;
    /// Write the observation, `height × width` values row-major.
    fn observe(&self, game: &Self::Game, out: &mut [u8]);
    /// Write the action mask, 1 for every action that changes the position.
    fn mask(&self, game: &Self::Game, out: &mut [i8]);
}

/// What a reset starts, drawn from the episode's stream: the item (board, puzzle; `chosen`
/// instead when given, 0 where the game has no list) and the seed of a random board. The single
/// environments and the vector ones draw with this from streams seeded alike, so a seed plays
/// the same episodes in both.
pub fn draw<E: Episode>(game: &E::Game, stream: &mut Rng, chosen: Option<usize>) -> (usize, u64) {
    let items = E::items(game);
    let drawn = if items > 0 { stream.below(items) } else { 0 };
    (chosen.unwrap_or(drawn), stream.next_u64())
}

/// The SameGame boards an environment plays: a fixed list, or random boards of one size.
#[derive(Clone)]
pub enum Boards {
    /// These boards.
    Fixed(Vec<SameGameBoard>),
    /// A random board of this size and number of colours at every reset.
    Random {
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
        /// Colours.
        colours: usize,
    },
}

/// A SameGame environment's settings.
#[derive(Clone)]
pub struct SameGameGame {
    /// The boards.
    pub boards: Boards,
    /// The scoring (points per group, the end's bonus or penalty).
    pub scoring: Scoring,
    /// Columns of the observation (the widest board).
    pub width: usize,
    /// Rows of the observation (the tallest board).
    pub height: usize,
    /// Clicks before an episode is truncated.
    pub max_steps: u32,
}

/// A SameGame game: actions are cells `row * width + column` (rows from the top); a click on
/// a stone of a group of two or more removes the group, a click elsewhere changes nothing.
/// The reward is the group's points, plus the end's adjustment (the cleared board's bonus or
/// the penalty for stones left) when no group is left, so an episode's return is the score.
pub struct SameGameEpisode {
    /// The position (`None` before the first reset).
    pub board: Option<SameGameBoard>,
    scratch: Scratch,
    steps: u32,
    /// The colours of the observation, rows from the top, inside a border of empty cells
    /// (`height + 2` rows of `width + 2`), kept up to date: the observation and the mask read
    /// it instead of the board's bit planes, and the border spares the mask's bounds checks.
    cells: Vec<u8>,
    /// The height of every column as `cells` shows it.
    heights: Vec<usize>,
    /// The flood fill's stack and marks (`marks[i] == mark` once cell `i` is reached).
    stack: Vec<usize>,
    marks: Vec<u8>,
    mark: u8,
}

impl SameGameEpisode {
    /// The leftmost column of the group of the stone at `row` (from the top), `col`, read from
    /// `cells`: the first column a removal of it changes.
    fn leftmost_of_group(&mut self, game: &SameGameGame, row: usize, col: usize) -> usize {
        let padded = game.width + 2;
        let start = (row + 1) * padded + col + 1;
        let colour = self.cells[start];
        self.mark = self.mark.wrapping_add(1);
        if self.mark == 0 {
            self.marks.fill(0);
            self.mark = 1;
        }
        let mut leftmost = col;
        self.stack.clear();
        self.stack.push(start);
        self.marks[start] = self.mark;
        while let Some(i) = self.stack.pop() {
            leftmost = leftmost.min(i % padded - 1);
            for j in [i - 1, i + 1, i - padded, i + padded] {
                if self.cells[j] == colour && self.marks[j] != self.mark {
                    self.marks[j] = self.mark;
                    self.stack.push(j);
                }
            }
        }
        leftmost
    }

    /// Bring `cells` up to date from column `first` on (a removal changes the columns of its
    /// group and shifts those right of an emptied one; the columns left of it stay).
    fn refresh(&mut self, game: &SameGameGame, first: usize) {
        let padded = game.width + 2;
        let Some(board) = &self.board else {
            self.cells.fill(0);
            return;
        };
        let top = board.height();
        let mut column = [0u8; 256];
        for c in first..game.width {
            let shown = self.heights[c];
            let height = board.column_colours(c, &mut column[..top]);
            for (row, &colour) in column[..shown.max(height)].iter().enumerate() {
                self.cells[(top - row) * padded + c + 1] = colour;
            }
            self.heights[c] = height;
        }
    }
}

impl Episode for SameGameEpisode {
    type Game = SameGameGame;

    fn new(game: &SameGameGame) -> Self {
        SameGameEpisode {
            board: None,
            scratch: Scratch::new(),
            steps: 0,
            cells: vec![0; (game.width + 2) * (game.height + 2)],
            heights: vec![0; game.width],
            stack: Vec::new(),
            marks: vec![0; (game.width + 2) * (game.height + 2)],
            mark: 0,
        }
    }

    fn shape(game: &SameGameGame) -> (usize, usize) {
        (game.height, game.width)
    }

    fn actions(game: &SameGameGame) -> usize {
        game.height * game.width
    }

    fn items(game: &SameGameGame) -> usize {
        match &game.boards {
            Boards::Fixed(boards) => boards.len(),
            Boards::Random { .. } => 0,
        }
    }

    fn check_action(game: &SameGameGame, action: i64) -> Result<(), String> {
        let cells = (game.width * game.height) as i64;
        if (0..cells).contains(&action) {
            Ok(())
        } else {
            Err(format!(
                "action {action} is not a cell 0..{cells} (row * {} + column)",
                game.width
            ))
        }
    }

    fn reset(&mut self, game: &SameGameGame, index: usize, seed: u64) -> Result<(), String> {
        let board = match &game.boards {
            Boards::Fixed(boards) => boards
                .get(index)
                .ok_or_else(|| format!("board {index} is not in the list of {}", boards.len()))?
                .clone(),
            Boards::Random {
                width,
                height,
                colours,
            } => SameGameBoard::random(*width, *height, *colours, seed, game.scoring)
                .map_err(|e| e.to_string())?,
        };
        self.board = Some(board);
        self.steps = 0;
        self.cells.fill(0);
        self.heights.fill(0);
        self.refresh(game, 0);
        Ok(())
    }

    fn step(&mut self, game: &SameGameGame, action: usize) -> Step {
        if self.board.is_none() {
            return Step::default();
        }
        let (row, col) = (action / game.width, action % game.width);
        // Where the observation changes if the click removes a group (the border and empty
        // cells are 0, so the fill stays on the board).
        let first = if self.cells[(row + 1) * (game.width + 2) + col + 1] != 0 {
            self.leftmost_of_group(game, row, col)
        } else {
            game.width
        };
        let Some(board) = self.board.as_mut() else {
            return Step::default();
        };
        let before = board.points();
        let legal = board
            .move_from_top(col, row)
            .and_then(|mv| board.try_play(mv, &mut self.scratch))
            .is_some();
        let points = board.points() - before;
        self.steps += 1;
        let (adjustment, terminated) = match samegame_play::ending(board) {
            Some((adjustment, _)) => (adjustment, true),
            None => (0, false),
        };
        if legal {
            self.refresh(game, first);
        }
        Step {
            reward: (points + adjustment) as f64,
            legal,
            terminated,
            truncated: !terminated && self.steps >= game.max_steps,
        }
    }

    fn observe(&self, game: &SameGameGame, out: &mut [u8]) {
        let padded = game.width + 2;
        for (r, row) in out.chunks_exact_mut(game.width).enumerate() {
            let start = (r + 1) * padded + 1;
            row.copy_from_slice(&self.cells[start..start + game.width]);
        }
    }

    /// A stone's click removes a group exactly when a neighbour has its colour (a group is
    /// two or more stones), so the mask needs no flood fill: one comparison with each of the
    /// four neighbours, row by row (the border stands in for the cells off the board).
    fn mask(&self, game: &SameGameGame, out: &mut [i8]) {
        let (width, padded) = (game.width, game.width + 2);
        let cells = &self.cells;
        for (r, marks) in out.chunks_exact_mut(width).enumerate() {
            let start = (r + 1) * padded + 1;
            let row = &cells[start..start + width];
            let left = &cells[start - 1..start - 1 + width];
            let right = &cells[start + 1..start + 1 + width];
            let up = &cells[start - padded..start - padded + width];
            let down = &cells[start + padded..start + padded + width];
            for c in 0..width {
                let v = row[c];
                let pair = (v == left[c]) | (v == right[c]) | (v == up[c]) | (v == down[c]);
                marks[c] = ((v != 0) & pair) as i8;
            }
        }
    }
}

/// A Sudoku environment's settings: its puzzles, all of one size, and every cell's peers.
#[derive(Clone)]
pub struct SudokuGame {
    /// The puzzles.
    pub puzzles: Vec<Grid>,
    /// Cells per row.
    pub side: usize,
    /// The peers of every cell (same row, column or box), `peer_count` per cell, flat.
    peers: Vec<u16>,
    /// Peers per cell (`3 × side − 2 × box − 1`: 20 on a 9×9 grid).
    peer_count: usize,
    /// Each puzzle's candidates per cell (bit `v − 1` set when value `v` fits; 0 for a filled
    /// cell) and its number of empty cells, computed once.
    starts: Vec<(Vec<u32>, usize)>,
}

impl SudokuGame {
    /// The game of `puzzles`, all of side `side` (at most 32: a candidate set is a `u32`).
    pub fn new(puzzles: Vec<Grid>, side: usize) -> Result<SudokuGame, String> {
        if side > 32 {
            return Err(format!(
                "a side of {side} is over the 32 an environment plays"
            ));
        }
        let Some(first) = puzzles.first() else {
            return Err("no puzzles".into());
        };
        let cells = first.len();
        let mut peers = Vec::new();
        let mut peer_count = 0;
        for i in 0..cells {
            let before = peers.len();
            peers.extend(
                (0..cells)
                    .filter(|&j| {
                        j != i
                            && (first.row_of(j) == first.row_of(i)
                                || first.col_of(j) == first.col_of(i)
                                || first.box_of(j) == first.box_of(i))
                    })
                    .map(|j| j as u16),
            );
            peer_count = peers.len() - before;
        }
        let starts = puzzles
            .iter()
            .map(|puzzle| {
                let mut candidates = vec![0; cells];
                puzzle_sudoku::play::candidate_masks(puzzle, &mut candidates);
                let empty = puzzle.cells().iter().filter(|&&v| v == 0).count();
                (candidates, empty)
            })
            .collect();
        Ok(SudokuGame {
            puzzles,
            side,
            peers,
            peer_count,
            starts,
        })
    }

    fn peers(&self, cell: usize) -> &[u16] {
        &self.peers[cell * self.peer_count..(cell + 1) * self.peer_count]
    }
}

/// A Sudoku being filled in: actions are `cell * side + (value − 1)`; the legal ones put a
/// value no peer holds into an empty cell. Reward 1 and the end when the grid is solved; the
/// end with reward 0 on an illegal action (nothing is written) or when no legal action is left
/// (jumanji's rules).
pub struct SudokuEpisode {
    /// The grid being filled (`None` before the first reset).
    pub grid: Option<Grid>,
    /// The grid's candidates per cell, as [`puzzle_sudoku::play::candidate_masks`] gives them,
    /// kept up to date move by move.
    candidates: Vec<u32>,
    /// Empty cells left.
    empty: usize,
}

impl Episode for SudokuEpisode {
    type Game = SudokuGame;

    fn new(_game: &SudokuGame) -> Self {
        SudokuEpisode {
            grid: None,
            candidates: Vec::new(),
            empty: 0,
        }
    }

    fn shape(game: &SudokuGame) -> (usize, usize) {
        (game.side, game.side)
    }

    fn actions(game: &SudokuGame) -> usize {
        game.side * game.side * game.side
    }

    fn items(game: &SudokuGame) -> usize {
        game.puzzles.len()
    }

    fn check_action(game: &SudokuGame, action: i64) -> Result<(), String> {
        let count = Self::actions(game) as i64;
        if (0..count).contains(&action) {
            Ok(())
        } else {
            Err(format!(
                "action {action} is not one of 0..{count} (cell * {} + value − 1)",
                game.side
            ))
        }
    }

    fn reset(&mut self, game: &SudokuGame, index: usize, _seed: u64) -> Result<(), String> {
        let (Some(puzzle), Some((candidates, empty))) =
            (game.puzzles.get(index), game.starts.get(index))
        else {
            return Err(format!(
                "puzzle {index} is not in the list of {}",
                game.puzzles.len()
            ));
        };
        match &mut self.grid {
            Some(grid) => grid.clone_from(puzzle),
            None => self.grid = Some(puzzle.clone()),
        }
        self.candidates.clone_from(candidates);
        self.empty = *empty;
        Ok(())
    }

    /// Only legal values are written and a puzzle's clues never clash (its reader refuses
    /// clashing clues), so a complete grid is a solved one.
    fn step(&mut self, game: &SudokuGame, action: usize) -> Step {
        let Some(grid) = self.grid.as_mut() else {
            return Step::default();
        };
        let (cell, value) = (action / game.side, action % game.side);
        let bit = 1u32 << value;
        let legal = self.candidates[cell] & bit != 0;
        if legal {
            grid.set(cell, value as u8 + 1);
            self.candidates[cell] = 0;
            for &peer in game.peers(cell) {
                self.candidates[peer as usize] &= !bit;
            }
            self.empty -= 1;
        }
        let solved = self.empty == 0;
        let stuck = !solved && self.candidates.iter().all(|&m| m == 0);
        Step {
            reward: if solved { 1.0 } else { 0.0 },
            legal,
            terminated: solved || stuck || !legal,
            truncated: false,
        }
    }

    fn observe(&self, _game: &SudokuGame, out: &mut [u8]) {
        match &self.grid {
            Some(grid) => out.copy_from_slice(grid.cells()),
            None => out.fill(0),
        }
    }

    fn mask(&self, game: &SudokuGame, out: &mut [i8]) {
        if self.grid.is_none() {
            out.fill(0);
            return;
        }
        let side = game.side;
        for (candidates, slots) in self.candidates.iter().zip(out.chunks_exact_mut(side)) {
            for (value, slot) in slots.iter_mut().enumerate() {
                *slot = ((candidates >> value) & 1) as i8;
            }
        }
    }
}

/// The Bait actions in GVGAI's order: up, down, left, right, nil.
pub const BAIT_ACTIONS: [BaitAction; 5] = [
    BaitAction::Up,
    BaitAction::Down,
    BaitAction::Left,
    BaitAction::Right,
    BaitAction::Nil,
];

/// The observation code of each character of `BaitState::render`: floor, wall, hole, box, key,
/// door, mushroom, avatar, avatar with the key, box on a key or door.
const BAIT_CODES: [(char, u8); 10] = [
    ('.', 0),
    ('w', 1),
    ('0', 2),
    ('1', 3),
    ('k', 4),
    ('g', 5),
    ('m', 6),
    ('A', 7),
    ('a', 8),
    ('B', 9),
];

/// A Bait environment's settings: the level's start.
#[derive(Clone)]
pub struct BaitGame {
    /// The start of the level.
    pub start: BaitState,
}

/// A Bait game (GVGAI's rules in the crate's `BaitState`): actions 0 up, 1 down, 2 left,
/// 3 right, 4 nil; the reward is the tick's score change; the end on a win or a fall into a
/// hole, truncation at GVGAI's 2000-tick limit. Every action is legal.
pub struct BaitEpisode {
    /// The position.
    pub state: BaitState,
}

impl Episode for BaitEpisode {
    type Game = BaitGame;

    fn new(game: &BaitGame) -> Self {
        BaitEpisode {
            state: game.start.clone(),
        }
    }

    fn shape(game: &BaitGame) -> (usize, usize) {
        (game.start.level().height, game.start.level().width)
    }

    fn actions(_game: &BaitGame) -> usize {
        BAIT_ACTIONS.len()
    }

    fn items(_game: &BaitGame) -> usize {
        0
    }

    fn check_action(_game: &BaitGame, action: i64) -> Result<(), String> {
        if (0..BAIT_ACTIONS.len() as i64).contains(&action) {
            Ok(())
        } else {
            Err(format!(
                "action {action} is not one of 0 (up), 1 (down), 2 (left), 3 (right), 4 (nil)"
            ))
        }
    }

    fn reset(&mut self, game: &BaitGame, _index: usize, _seed: u64) -> Result<(), String> {
        self.state = game.start.clone();
        Ok(())
    }

    fn step(&mut self, _game: &BaitGame, action: usize) -> Step {
        if self.state.status() != Status::Playing {
            return Step::default();
        }
        let before = self.state.points();
        self.state.step(BAIT_ACTIONS[action]);
        let status = self.state.status();
        Step {
            reward: f64::from(self.state.points() - before),
            legal: true,
            terminated: matches!(status, Status::Won | Status::Dead),
            truncated: status == Status::TimeOut,
        }
    }

    fn observe(&self, _game: &BaitGame, out: &mut [u8]) {
        for (i, slot) in out.iter_mut().enumerate() {
            let glyph = self.state.glyph(i);
            *slot = BAIT_CODES
                .iter()
                .find(|(k, _)| *k == glyph)
                .map_or(0, |&(_, v)| v);
        }
    }

    fn mask(&self, _game: &BaitGame, out: &mut [i8]) {
        out.fill(1);
    }
}
