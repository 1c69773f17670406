//! One episode of SameGame, Sudoku or Bait as the Gymnasium environments play it: the rules
//! are the game crates'; an episode turns an action number into a move and the move into the
//! reward, the ends and the observation. The single environments (`games.rs`) and the vector
//! ones (`game_batch.rs`) step the same [`Episode`] types, so they agree step for step.

use puzzle_bait::state::{Action as BaitAction, BaitState, Status};
use puzzle_samegame::board::Scratch;
use puzzle_samegame::{play as samegame_play, Board as SameGameBoard, Scoring};
use puzzle_sudoku::grid::Grid;
use puzzle_sudoku::play::candidate_masks;

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
    /// The colours of the observation, `height × width` rows from the top, kept up to date
    /// (the observation and the mask read it instead of the board's bit planes).
    cells: Vec<u8>,
}

impl SameGameEpisode {
    fn refresh(&mut self, game: &SameGameGame) {
        self.cells.clear();
        self.cells.resize(game.width * game.height, 0);
        if let Some(board) = &self.board {
            let height = board.height();
            for r in 0..height {
                for c in 0..board.width() {
                    self.cells[r * game.width + c] = board.get(c, height - 1 - r);
                }
            }
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
            cells: vec![0; game.width * game.height],
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
        self.refresh(game);
        Ok(())
    }

    fn step(&mut self, game: &SameGameGame, action: usize) -> Step {
        let Some(board) = self.board.as_mut() else {
            return Step::default();
        };
        let (row, col) = (action / game.width, action % game.width);
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
            self.refresh(game);
        }
        Step {
            reward: (points + adjustment) as f64,
            legal,
            terminated,
            truncated: !terminated && self.steps >= game.max_steps,
        }
    }

    fn observe(&self, _game: &SameGameGame, out: &mut [u8]) {
        out.copy_from_slice(&self.cells);
    }

    /// A stone's click removes a group exactly when a neighbour has its colour (a group is
    /// two or more stones), so the mask needs no flood fill.
    fn mask(&self, game: &SameGameGame, out: &mut [i8]) {
        let (width, height) = (game.width, game.height);
        let cells = &self.cells;
        for (i, slot) in out.iter_mut().enumerate() {
            let colour = cells[i];
            let (r, c) = (i / width, i % width);
            let same = |j: usize| cells[j] == colour;
            *slot = (colour != 0
                && ((c > 0 && same(i - 1))
                    || (c + 1 < width && same(i + 1))
                    || (r > 0 && same(i - width))
                    || (r + 1 < height && same(i + width)))) as i8;
        }
    }
}

/// A Sudoku environment's settings: its puzzles, all of one size.
#[derive(Clone)]
pub struct SudokuGame {
    /// The puzzles.
    pub puzzles: Vec<Grid>,
    /// Cells per row.
    pub side: usize,
}

/// A Sudoku being filled in: actions are `cell * side + (value − 1)`; the legal ones put a
/// value no peer holds into an empty cell. Reward 1 and the end when the grid is solved; the
/// end with reward 0 on an illegal action (nothing is written) or when no legal action is left
/// (jumanji's rules).
pub struct SudokuEpisode {
    /// The puzzle and the grid being filled (`None` before the first reset).
    pub grids: Option<(Grid, Grid)>,
    /// The grid's candidates per cell ([`candidate_masks`]), kept up to date.
    candidates: Vec<u32>,
}

impl Episode for SudokuEpisode {
    type Game = SudokuGame;

    fn new(_game: &SudokuGame) -> Self {
        SudokuEpisode {
            grids: None,
            candidates: Vec::new(),
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
        let puzzle = game
            .puzzles
            .get(index)
            .ok_or_else(|| {
                format!(
                    "puzzle {index} is not in the list of {}",
                    game.puzzles.len()
                )
            })?
            .clone();
        self.candidates.resize(puzzle.len(), 0);
        candidate_masks(&puzzle, &mut self.candidates);
        self.grids = Some((puzzle.clone(), puzzle));
        Ok(())
    }

    /// Only legal values are written and a puzzle's clues never clash (its reader refuses
    /// clashing clues), so a complete grid is a solved one.
    fn step(&mut self, game: &SudokuGame, action: usize) -> Step {
        let Some((_, grid)) = self.grids.as_mut() else {
            return Step::default();
        };
        let (cell, value) = (action / game.side, action % game.side);
        let legal = self.candidates[cell] & (1 << value) != 0;
        if legal {
            grid.set(cell, value as u8 + 1);
            candidate_masks(grid, &mut self.candidates);
        }
        let solved = grid.is_complete();
        let stuck = !solved && self.candidates.iter().all(|&m| m == 0);
        Step {
            reward: if solved { 1.0 } else { 0.0 },
            legal,
            terminated: solved || stuck || !legal,
            truncated: false,
        }
    }

    fn observe(&self, _game: &SudokuGame, out: &mut [u8]) {
        match &self.grids {
            Some((_, grid)) => out.copy_from_slice(grid.cells()),
            None => out.fill(0),
        }
    }

    fn mask(&self, game: &SudokuGame, out: &mut [i8]) {
        out.fill(0);
        if self.grids.is_some() {
            let side = game.side;
            for (cell, &candidates) in self.candidates.iter().enumerate() {
                for value in 0..side {
                    if candidates & (1 << value) != 0 {
                        out[cell * side + value] = 1;
                    }
                }
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

    fn observe(&self, game: &BaitGame, out: &mut [u8]) {
        let (_, width) = Self::shape(game);
        out.fill(0);
        for (r, line) in self.state.render().lines().enumerate() {
            for (c, ch) in line.chars().enumerate().take(width) {
                out[r * width + c] = BAIT_CODES
                    .iter()
                    .find(|(k, _)| *k == ch)
                    .map_or(0, |&(_, v)| v);
            }
        }
    }

    fn mask(&self, _game: &BaitGame, out: &mut [i8]) {
        out.fill(1);
    }
}
