//! SameGame, Sudoku and Bait for the Gymnasium environments (`puzzle_search.games_env`): each
//! engine holds one position of its game's crate and answers with numpy arrays — the
//! observation, the legal-action mask, the reward of a step. The rules are the crates'; these
//! types only translate actions and positions.

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2};
use puzzle_bait::state::{Action as BaitAction, BaitState, Status};
use puzzle_samegame::board::Scratch;
use puzzle_samegame::{play as samegame_play, Board as SameGameBoard, Scoring};
use puzzle_sudoku::grid::Grid;
use puzzle_sudoku::play::play_state;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

fn not_started() -> PyErr {
    PyRuntimeError::new_err("call reset() before step()")
}

/// The SameGame boards an environment plays: a fixed list, or random boards of one size.
enum Boards {
    Fixed(Vec<SameGameBoard>),
    Random {
        width: usize,
        height: usize,
        colours: usize,
    },
}

/// A SameGame game (the crate's `Board` and `play` rules): actions are cells `row * width +
/// column` (rows from the top), a click on a stone of a group of two or more removes the group.
#[pyclass(module = "puzzle_search._puzzle_search")]
pub struct SameGameCore {
    boards: Boards,
    scoring: Scoring,
    width: usize,
    height: usize,
    board: Option<SameGameBoard>,
    scratch: Scratch,
}

impl SameGameCore {
    fn board(&self) -> PyResult<&SameGameBoard> {
        self.board.as_ref().ok_or_else(not_started)
    }
}

#[pymethods]
impl SameGameCore {
    /// Boards from `text` (any of the crate's board formats; `source` names it in errors), or
    /// random `(width, height, colours)` boards, scored by `scoring` (`"standard"`: (n−2)²
    /// per group, +1000 for a cleared board; `"hungarian"`) with the end `penalty`
    /// (`"none"`, `"total"`, `"per-colour"`), as the `samegame_solve` job's options.
    #[new]
    #[pyo3(signature = (text=None, source="input", random=None, scoring="standard", penalty="none"))]
    fn new(
        text: Option<&str>,
        source: &str,
        random: Option<(usize, usize, usize)>,
        scoring: &str,
        penalty: &str,
    ) -> PyResult<SameGameCore> {
        let scoring: Scoring = puzzle_jobs::samegame::scoring(scoring, penalty)
            .map_err(|e| PyValueError::new_err(format!("{e:#}")))?;
        let (boards, width, height) = match (text, random) {
            (Some(text), None) => {
                let boards: Vec<SameGameBoard> =
                    puzzle_samegame::format::parse_any(text, source, scoring)
                        .map_err(|e| PyValueError::new_err(e.to_string()))?
                        .into_iter()
                        .map(|named| named.board)
                        .collect();
                let width = boards.iter().map(|b| b.width()).max().unwrap_or(0);
                let height = boards.iter().map(|b| b.height()).max().unwrap_or(0);
                if boards.is_empty() {
                    return Err(PyValueError::new_err(format!("{source}: no boards")));
                }
                (Boards::Fixed(boards), width, height)
            }
            (None, Some((width, height, colours))) => {
                SameGameBoard::random(width, height, colours, 0, scoring)
                    .map_err(|e| PyValueError::new_err(e.to_string()))?;
                (
                    Boards::Random {
                        width,
                        height,
                        colours,
                    },
                    width,
                    height,
                )
            }
            _ => {
                return Err(PyValueError::new_err(
                    "give text or random, not both or neither",
                ))
            }
        };
        Ok(SameGameCore {
            boards,
            scoring,
            width,
            height,
            board: None,
            scratch: Scratch::new(),
        })
    }

    /// `(height, width)` of the observations (the largest board).
    #[getter]
    fn shape(&self) -> (usize, usize) {
        (self.height, self.width)
    }

    /// Number of boards in a fixed list (`None` for random boards).
    #[getter]
    fn board_count(&self) -> Option<usize> {
        match &self.boards {
            Boards::Fixed(boards) => Some(boards.len()),
            Boards::Random { .. } => None,
        }
    }

    /// Start board `index` of the list, or a random board drawn with `seed`.
    fn reset(&mut self, index: usize, seed: u64) -> PyResult<()> {
        let board = match &self.boards {
            Boards::Fixed(boards) => boards
                .get(index)
                .ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "board {index} is not in the list of {}",
                        boards.len()
                    ))
                })?
                .clone(),
            Boards::Random {
                width,
                height,
                colours,
            } => SameGameBoard::random(*width, *height, *colours, seed, self.scoring)
                .map_err(|e| PyValueError::new_err(e.to_string()))?,
        };
        self.board = Some(board);
        Ok(())
    }

    /// Colours (1-based, 0 empty) as a `(height, width)` `uint8` array, rows from the top,
    /// the board in the top-left corner.
    fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u8>>> {
        let board = self.board()?;
        let mut out = Array2::<u8>::zeros((self.height, self.width));
        for (r, row) in board.rows().iter().enumerate() {
            for (c, &colour) in row.iter().enumerate() {
                out[(r, c)] = colour;
            }
        }
        Ok(out.into_pyarray(py))
    }

    /// 1 for every cell whose click removes a group, as an `int8` array of `height × width`.
    fn action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i8>>> {
        let board = self.board()?;
        let mut mask = vec![0i8; self.height * self.width];
        for group in samegame_play::removable_groups(board) {
            for (col, row) in group.cells {
                mask[row * self.width + col] = 1;
            }
        }
        Ok(mask.into_pyarray(py))
    }

    /// Click cell `action`: `(points, legal, ended, end_adjustment)` — the group's points, the
    /// click removed a group, no group is left, and the end's bonus or penalty (0 before the
    /// end). A click on an empty cell or a lone stone changes nothing.
    fn step(&mut self, action: i64) -> PyResult<(i64, bool, bool, i64)> {
        let (width, height) = (self.width, self.height);
        let board = self.board.as_mut().ok_or_else(not_started)?;
        if !(0..(width * height) as i64).contains(&action) {
            return Err(PyValueError::new_err(format!(
                "action {action} is not a cell 0..{} (row * {width} + column)",
                width * height
            )));
        }
        let (row, col) = (action as usize / width, action as usize % width);
        let before = board.points();
        let legal = board
            .move_from_top(col, row)
            .and_then(|mv| board.try_play(mv, &mut self.scratch))
            .is_some();
        let points = board.points() - before;
        match samegame_play::ending(board) {
            Some((adjustment, _)) => Ok((points, legal, true, adjustment)),
            None => Ok((points, legal, false, 0)),
        }
    }

    /// The points so far (without the end's adjustment).
    #[getter]
    fn points(&self) -> PyResult<i64> {
        Ok(self.board()?.points())
    }

    /// Stones left.
    #[getter]
    fn stones(&self) -> PyResult<usize> {
        Ok(self.board()?.stones())
    }

    /// The position in the standard board format (to solve from it).
    fn text(&self) -> PyResult<String> {
        Ok(puzzle_samegame::format::write_standard(self.board()?))
    }
}

/// A Sudoku being filled in (the crate's `Grid` and `play_state`): actions are `cell * side +
/// (value − 1)`; the legal ones put a value no peer holds into an empty cell.
#[pyclass(module = "puzzle_search._puzzle_search")]
pub struct SudokuCore {
    puzzles: Vec<Grid>,
    side: usize,
    puzzle: Option<Grid>,
    grid: Option<Grid>,
}

impl SudokuCore {
    fn grids(&self) -> PyResult<(&Grid, &Grid)> {
        match (&self.puzzle, &self.grid) {
            (Some(p), Some(g)) => Ok((p, g)),
            _ => Err(not_started()),
        }
    }
}

#[pymethods]
impl SudokuCore {
    /// The puzzles of `text` (one per line, or grids; `source` names it in errors), all of one
    /// size.
    #[new]
    #[pyo3(signature = (text, source="input"))]
    fn new(text: &str, source: &str) -> PyResult<SudokuCore> {
        let puzzles: Vec<Grid> = puzzle_sudoku::parse::parse_puzzles(text)
            .map_err(|e| PyValueError::new_err(format!("{source}: {e}")))?
            .into_iter()
            .map(|p| p.grid)
            .collect();
        let Some(first) = puzzles.first() else {
            return Err(PyValueError::new_err(format!("{source}: no puzzles")));
        };
        let side = first.side();
        if let Some(other) = puzzles.iter().find(|p| p.side() != side) {
            return Err(PyValueError::new_err(format!(
                "{source}: puzzles of {side}×{side} and {0}×{0} cells; an environment plays one size",
                other.side()
            )));
        }
        Ok(SudokuCore {
            puzzles,
            side,
            puzzle: None,
            grid: None,
        })
    }

    /// Cells per row.
    #[getter]
    fn side(&self) -> usize {
        self.side
    }

    /// Number of puzzles.
    #[getter]
    fn puzzle_count(&self) -> usize {
        self.puzzles.len()
    }

    /// Start puzzle `index`.
    fn reset(&mut self, index: usize) -> PyResult<()> {
        let puzzle = self
            .puzzles
            .get(index)
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "puzzle {index} is not in the list of {}",
                    self.puzzles.len()
                ))
            })?
            .clone();
        self.grid = Some(puzzle.clone());
        self.puzzle = Some(puzzle);
        Ok(())
    }

    /// The grid as a `(side, side)` `uint8` array of values (0 empty).
    fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u8>>> {
        let (_, grid) = self.grids()?;
        let values = Array2::from_shape_vec((self.side, self.side), grid.cells().to_vec())
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        Ok(values.into_pyarray(py))
    }

    /// 1 for every legal action (an empty cell and a value none of its peers holds), as an
    /// `int8` array of `side³`.
    fn action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i8>>> {
        let (puzzle, grid) = self.grids()?;
        let state = play_state(puzzle, grid);
        let side = self.side;
        let mut mask = vec![0i8; side * side * side];
        for (cell, &candidates) in state.candidates.iter().enumerate() {
            for value in 0..side {
                if candidates & (1 << value) != 0 {
                    mask[cell * side + value] = 1;
                }
            }
        }
        Ok(mask.into_pyarray(py))
    }

    /// Play `action`: `(legal, solved, stuck)` — the action was legal (and was played; an
    /// illegal one changes nothing), the grid is now solved, no legal action is left.
    fn step(&mut self, action: i64) -> PyResult<(bool, bool, bool)> {
        let side = self.side;
        let count = (side * side * side) as i64;
        if !(0..count).contains(&action) {
            return Err(PyValueError::new_err(format!(
                "action {action} is not one of 0..{count} (cell * {side} + value − 1)"
            )));
        }
        let (cell, value) = (action as usize / side, action as usize % side);
        let (puzzle, grid) = match (&self.puzzle, &mut self.grid) {
            (Some(p), Some(g)) => (p, g),
            _ => return Err(not_started()),
        };
        let before = play_state(puzzle, grid);
        let legal = before.candidates[cell] & (1 << value) != 0;
        if legal {
            grid.set(cell, value as u8 + 1);
        }
        let after = play_state(puzzle, grid);
        let stuck = !after.solved && after.candidates.iter().all(|&m| m == 0);
        Ok((legal, after.solved, stuck))
    }

    /// The grid as one line (`.` for empty cells), to solve from it.
    fn line(&self) -> PyResult<String> {
        Ok(self.grids()?.1.to_line())
    }
}

/// The Bait actions in GVGAI's order: up, down, left, right, nil.
const BAIT_ACTIONS: [BaitAction; 5] = [
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

/// A Bait game (GVGAI's rules in the crate's `BaitState`).
#[pyclass(module = "puzzle_search._puzzle_search")]
pub struct BaitCore {
    start: BaitState,
    state: BaitState,
}

#[pymethods]
impl BaitCore {
    /// GVGAI's level `level` (0–4), or a level in GVGAI's text (`source` names it in errors).
    #[new]
    #[pyo3(signature = (level=None, text=None, source="input"))]
    fn new(level: Option<usize>, text: Option<&str>, source: &str) -> PyResult<BaitCore> {
        let level = match (level, text) {
            (Some(i), None) => puzzle_bait::level::builtin_level(i).ok_or_else(|| {
                PyValueError::new_err(format!("level {i} is not one of GVGAI's 0–4"))
            })?,
            (None, Some(text)) => puzzle_bait::level::Level::parse(text)
                .map_err(|e| PyValueError::new_err(format!("{source}: {e}")))?,
            _ => {
                return Err(PyValueError::new_err(
                    "give level or text, not both or neither",
                ))
            }
        };
        let start = BaitState::new(level);
        Ok(BaitCore {
            state: start.clone(),
            start,
        })
    }

    /// `(height, width)` of the level.
    #[getter]
    fn shape(&self) -> (usize, usize) {
        (self.start.level().height, self.start.level().width)
    }

    /// Back to the start.
    fn reset(&mut self) {
        self.state = self.start.clone();
    }

    /// The board as a `(height, width)` `uint8` array of codes: 0 floor, 1 wall, 2 hole, 3 box,
    /// 4 key, 5 door, 6 mushroom, 7 avatar, 8 avatar with the key, 9 box on a key or door.
    fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u8>>> {
        let (height, width) = self.shape();
        let mut out = Array2::<u8>::zeros((height, width));
        for (r, line) in self.state.render().lines().enumerate().take(height) {
            for (c, ch) in line.chars().enumerate().take(width) {
                out[(r, c)] = BAIT_CODES
                    .iter()
                    .find(|(k, _)| *k == ch)
                    .map_or(0, |&(_, v)| v);
            }
        }
        Ok(out.into_pyarray(py))
    }

    /// One tick with `action` (0 up, 1 down, 2 left, 3 right, 4 nil): `(points, status)`, the
    /// points the tick earned and `"playing"`, `"won"`, `"dead"` or `"timeout"`.
    fn step(&mut self, action: i64) -> PyResult<(i32, &'static str)> {
        let Some(&action) = usize::try_from(action)
            .ok()
            .and_then(|a| BAIT_ACTIONS.get(a))
        else {
            return Err(PyValueError::new_err(format!(
                "action {action} is not one of 0 (up), 1 (down), 2 (left), 3 (right), 4 (nil)"
            )));
        };
        if self.state.status() != Status::Playing {
            return Err(PyRuntimeError::new_err("the game has ended: call reset()"));
        }
        let before = self.state.points();
        self.state.step(action);
        Ok((self.state.points() - before, self.state.status().name()))
    }

    /// Points so far.
    #[getter]
    fn points(&self) -> i32 {
        self.state.points()
    }

    /// Ticks played.
    #[getter]
    fn tick(&self) -> u16 {
        self.state.tick()
    }

    /// The oracle: a win from the current position (actions 0–4) by the crate's offline A*
    /// planner (replayed before it is returned), or `None` when none is found within
    /// `max_nodes` stored positions. Runs with the GIL released.
    #[pyo3(signature = (max_nodes=2_000_000))]
    fn solve(&self, py: Python<'_>, max_nodes: usize) -> Option<Vec<usize>> {
        let state = self.state.clone();
        let plan = py.detach(move || puzzle_bait::astar::plan_win(&state, max_nodes, None).plan)?;
        Some(
            plan.iter()
                .map(|a| BAIT_ACTIONS.iter().position(|b| b == a).unwrap_or(4))
                .collect(),
        )
    }
}

/// The text of a bundled set of a registered game (`puzzle_jobs::games`): `"sokoban"`
/// (`"microban"` …), `"samegame"` (`"standard20"`), `"sudoku"` (`"top95"`, `"hardest11"`, and
/// the Sudoku thesis's test-grid puzzles `"easy"`, `"medium"`, `"hard"`) or `"bait"`
/// (`"levels"`); `ValueError` listing the games or the sets for an unknown one.
#[pyfunction]
pub fn bundled_text(game: &str, id: &str) -> PyResult<String> {
    use puzzle_jobs::games;
    let Some(spec) = games::game(game) else {
        let names: Vec<&str> = games::GAMES.iter().map(|g| g.name).collect();
        return Err(PyValueError::new_err(format!(
            "no game {game:?}: the games are {}",
            names.join(", ")
        )));
    };
    let sets = (spec.sets)();
    if let Some(set) = sets.iter().find(|s| s.id == id) {
        return Ok(set.text.to_string());
    }
    // The test grid's puzzles are single puzzles beside the Sudoku sets.
    let grid = puzzle_jobs::data::SUDOKU_GRID_PUZZLES
        .iter()
        .filter(|_| spec.name == puzzle_sudoku::spec::GAME.name);
    if let Some((_, text)) = grid.clone().find(|(name, _)| *name == id) {
        return Ok(text.to_string());
    }
    let ids: Vec<&str> = sets
        .iter()
        .map(|s| s.id)
        .chain(grid.map(|(name, _)| *name))
        .collect();
    Err(PyValueError::new_err(format!(
        "no bundled {game} set {id:?}: the sets are {}",
        ids.join(", ")
    )))
}

/// Add the game engines to the extension module.
pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(bundled_text, module)?)?;
    module.add_class::<SameGameCore>()?;
    module.add_class::<SudokuCore>()?;
    module.add_class::<BaitCore>()?;
    Ok(())
}
