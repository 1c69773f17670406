//! SameGame, Sudoku and Bait for the Gymnasium environments (`puzzle_search.games_env`): each
//! engine holds one episode ([`crate::game_episodes`]) and answers with numpy arrays — the
//! observation, the legal-action mask, the reward and ends of a step. The rules are the crates';
//! the episodes only translate actions and positions, and the vector environments
//! ([`crate::game_batch`]) step the same episodes.

use crate::game_episodes::{
    draw, BaitEpisode, BaitGame, Boards, Episode, SameGameEpisode, SameGameGame, Step,
    SudokuEpisode, SudokuGame, BAIT_ACTIONS,
};
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2};
use puzzle_bait::state::BaitState;
use puzzle_engine::Rng;
use puzzle_samegame::Board as SameGameBoard;
use puzzle_sudoku::grid::Grid;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

fn not_started() -> PyErr {
    PyRuntimeError::new_err("call reset() before step()")
}

/// A step as Python sees it: `(reward, legal, terminated, truncated)`.
pub type StepTuple = (f64, bool, bool, bool);

fn step_tuple(step: Step) -> StepTuple {
    (step.reward, step.legal, step.terminated, step.truncated)
}

/// The observation of `episode` as a `(height, width)` `uint8` array.
fn observation<'py, E: Episode>(
    py: Python<'py>,
    game: &E::Game,
    episode: &E,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let (height, width) = E::shape(game);
    let mut values = vec![0u8; height * width];
    episode.observe(game, &mut values);
    let array = Array2::from_shape_vec((height, width), values)
        .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    Ok(array.into_pyarray(py))
}

/// The action mask of `episode` as an `int8` array.
fn action_mask<'py, E: Episode>(
    py: Python<'py>,
    game: &E::Game,
    episode: &E,
) -> Bound<'py, PyArray1<i8>> {
    let mut mask = vec![0i8; E::actions(game)];
    episode.mask(game, &mut mask);
    mask.into_pyarray(py)
}

/// Check `action` and play it.
fn play<E: Episode>(game: &E::Game, episode: &mut E, action: i64) -> PyResult<StepTuple> {
    E::check_action(game, action).map_err(PyValueError::new_err)?;
    Ok(step_tuple(episode.step(game, action as usize)))
}

/// The SameGame settings of `SameGameCore` and `SameGameBatch`: boards from `text` (any of
/// the crate's board formats; `source` names it in errors) or random `(width, height,
/// colours)` boards, scored by `scoring` with the end `penalty`, `max_steps` clicks at most
/// (default: one per cell).
pub fn samegame_game(
    text: Option<&str>,
    source: &str,
    random: Option<(usize, usize, usize)>,
    scoring: &str,
    penalty: &str,
    max_steps: Option<u32>,
) -> PyResult<SameGameGame> {
    let scoring = puzzle_jobs::samegame::scoring(scoring, penalty)
        .map_err(|e| PyValueError::new_err(format!("{e:#}")))?;
    let (boards, width, height) = match (text, random) {
        (Some(text), None) => {
            let boards: Vec<SameGameBoard> =
                puzzle_samegame::format::parse_any(text, source, scoring)
                    .map_err(|e| PyValueError::new_err(e.to_string()))?
                    .into_iter()
                    .map(|named| named.board)
                    .collect();
            if boards.is_empty() {
                return Err(PyValueError::new_err(format!("{source}: no boards")));
            }
            let width = boards.iter().map(|b| b.width()).max().unwrap_or(0);
            let height = boards.iter().map(|b| b.height()).max().unwrap_or(0);
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
    let max_steps = max_steps.unwrap_or((width * height) as u32);
    if max_steps == 0 {
        return Err(PyValueError::new_err("max_steps must be at least 1"));
    }
    Ok(SameGameGame {
        boards,
        scoring,
        width,
        height,
        max_steps,
    })
}

/// A SameGame game ([`SameGameEpisode`]): actions are cells `row * width + column` (rows from
/// the top).
#[pyclass(module = "puzzle_search._puzzle_search")]
pub struct SameGameCore {
    pub(crate) game: SameGameGame,
    episode: SameGameEpisode,
    stream: Rng,
}

impl SameGameCore {
    fn board(&self) -> PyResult<&SameGameBoard> {
        self.episode.board.as_ref().ok_or_else(not_started)
    }
}

#[pymethods]
impl SameGameCore {
    /// Boards from `text` (any of the crate's board formats; `source` names it in errors), or
    /// random `(width, height, colours)` boards, scored by `scoring` (`"standard"`: (n−2)²
    /// per group, +1000 for a cleared board; `"hungarian"`) with the end `penalty`
    /// (`"none"`, `"total"`, `"per-colour"`), as the `samegame_solve` job's options; an
    /// episode is truncated after `max_steps` clicks (default: one per cell).
    #[new]
    #[pyo3(signature = (text=None, source="input", random=None, scoring="standard", penalty="none", max_steps=None))]
    fn new(
        text: Option<&str>,
        source: &str,
        random: Option<(usize, usize, usize)>,
        scoring: &str,
        penalty: &str,
        max_steps: Option<u32>,
    ) -> PyResult<SameGameCore> {
        let game = samegame_game(text, source, random, scoring, penalty, max_steps)?;
        let episode = SameGameEpisode::new(&game);
        Ok(SameGameCore {
            game,
            episode,
            stream: Rng::new(0),
        })
    }

    /// `(height, width)` of the observations (the largest board).
    #[getter]
    fn shape(&self) -> (usize, usize) {
        SameGameEpisode::shape(&self.game)
    }

    /// Number of boards in a fixed list (`None` for random boards).
    #[getter]
    fn board_count(&self) -> Option<usize> {
        match &self.game.boards {
            Boards::Fixed(boards) => Some(boards.len()),
            Boards::Random { .. } => None,
        }
    }

    /// Clicks before an episode is truncated.
    #[getter]
    fn max_steps(&self) -> u32 {
        self.game.max_steps
    }

    /// Start a board drawn from the stream (a board of the list, or a random board of the
    /// size with a drawn seed); `index` picks the list's board instead. Returns the board's
    /// index (0 for a random board).
    fn reset(&mut self, index: Option<usize>) -> PyResult<usize> {
        let (index, seed) = draw::<SameGameEpisode>(&self.game, &mut self.stream, index);
        self.episode
            .reset(&self.game, index, seed)
            .map_err(PyValueError::new_err)?;
        Ok(index)
    }

    /// Seed the stream the resets draw from.
    fn seed(&mut self, stream_seed: u64) {
        self.stream = Rng::new(stream_seed);
    }

    /// Colours (1-based, 0 empty) as a `(height, width)` `uint8` array, rows from the top,
    /// the board in the top-left corner.
    fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u8>>> {
        self.board()?;
        observation(py, &self.game, &self.episode)
    }

    /// 1 for every cell whose click removes a group, as an `int8` array of `height × width`.
    fn action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i8>>> {
        self.board()?;
        Ok(action_mask(py, &self.game, &self.episode))
    }

    /// Click cell `action`: `(reward, legal, terminated, truncated)` — the group's points plus
    /// the end's bonus or penalty once no group is left, whether the click removed a group, no
    /// group is left, `max_steps` clicks were made. A click on an empty cell or a lone stone
    /// changes nothing.
    fn step(&mut self, action: i64) -> PyResult<StepTuple> {
        self.board()?;
        play(&self.game, &mut self.episode, action)
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

/// The Sudoku settings of `SudokuCore` and `SudokuBatch`: the puzzles of `text` (one per
/// line, or grids; `source` names it in errors), all of one size.
pub fn sudoku_game(text: &str, source: &str) -> PyResult<SudokuGame> {
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
    SudokuGame::new(puzzles, side).map_err(|e| PyValueError::new_err(format!("{source}: {e}")))
}

/// A Sudoku being filled in ([`SudokuEpisode`]): actions are `cell * side + (value − 1)`.
#[pyclass(module = "puzzle_search._puzzle_search")]
pub struct SudokuCore {
    pub(crate) game: SudokuGame,
    episode: SudokuEpisode,
    stream: Rng,
}

impl SudokuCore {
    fn grid(&self) -> PyResult<&Grid> {
        self.episode.grid.as_ref().ok_or_else(not_started)
    }
}

#[pymethods]
impl SudokuCore {
    /// The puzzles of `text` (one per line, or grids; `source` names it in errors), all of one
    /// size.
    #[new]
    #[pyo3(signature = (text, source="input"))]
    fn new(text: &str, source: &str) -> PyResult<SudokuCore> {
        let game = sudoku_game(text, source)?;
        let episode = SudokuEpisode::new(&game);
        Ok(SudokuCore {
            game,
            episode,
            stream: Rng::new(0),
        })
    }

    /// Cells per row.
    #[getter]
    fn side(&self) -> usize {
        self.game.side
    }

    /// Number of puzzles.
    #[getter]
    fn puzzle_count(&self) -> usize {
        self.game.puzzles.len()
    }

    /// Start a puzzle drawn from the stream, or puzzle `index`; returns the puzzle's index.
    fn reset(&mut self, index: Option<usize>) -> PyResult<usize> {
        let (index, seed) = draw::<SudokuEpisode>(&self.game, &mut self.stream, index);
        self.episode
            .reset(&self.game, index, seed)
            .map_err(PyValueError::new_err)?;
        Ok(index)
    }

    /// Seed the stream the resets draw from.
    fn seed(&mut self, stream_seed: u64) {
        self.stream = Rng::new(stream_seed);
    }

    /// The grid as a `(side, side)` `uint8` array of values (0 empty).
    fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u8>>> {
        self.grid()?;
        observation(py, &self.game, &self.episode)
    }

    /// 1 for every legal action (an empty cell and a value none of its peers holds), as an
    /// `int8` array of `side³`.
    fn action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i8>>> {
        self.grid()?;
        Ok(action_mask(py, &self.game, &self.episode))
    }

    /// Play `action`: `(reward, legal, terminated, truncated)` — 1 when the grid is now
    /// solved, whether the action was legal (and was played; an illegal one changes nothing
    /// and ends the episode), the episode ended (solved, illegal, or no legal action left),
    /// and never truncated.
    fn step(&mut self, action: i64) -> PyResult<StepTuple> {
        self.grid()?;
        play(&self.game, &mut self.episode, action)
    }

    /// The grid as one line (`.` for empty cells), to solve from it.
    fn line(&self) -> PyResult<String> {
        Ok(self.grid()?.to_line())
    }
}

/// The Bait settings of `BaitCore` and `BaitBatch`: GVGAI's level `level` (0–4), or a level
/// in GVGAI's text (`source` names it in errors).
pub fn bait_game(level: Option<usize>, text: Option<&str>, source: &str) -> PyResult<BaitGame> {
    let level = match (level, text) {
        (Some(i), None) => puzzle_bait::level::builtin_level(i)
            .ok_or_else(|| PyValueError::new_err(format!("level {i} is not one of GVGAI's 0–4")))?,
        (None, Some(text)) => puzzle_bait::level::Level::parse(text)
            .map_err(|e| PyValueError::new_err(format!("{source}: {e}")))?,
        _ => {
            return Err(PyValueError::new_err(
                "give level or text, not both or neither",
            ))
        }
    };
    Ok(BaitGame {
        start: BaitState::new(level),
    })
}

/// A Bait game ([`BaitEpisode`]: GVGAI's rules in the crate's `BaitState`).
#[pyclass(module = "puzzle_search._puzzle_search")]
pub struct BaitCore {
    pub(crate) game: BaitGame,
    episode: BaitEpisode,
}

#[pymethods]
impl BaitCore {
    /// GVGAI's level `level` (0–4), or a level in GVGAI's text (`source` names it in errors).
    #[new]
    #[pyo3(signature = (level=None, text=None, source="input"))]
    fn new(level: Option<usize>, text: Option<&str>, source: &str) -> PyResult<BaitCore> {
        let game = bait_game(level, text, source)?;
        let episode = BaitEpisode::new(&game);
        Ok(BaitCore { game, episode })
    }

    /// `(height, width)` of the level.
    #[getter]
    fn shape(&self) -> (usize, usize) {
        BaitEpisode::shape(&self.game)
    }

    /// Back to the start.
    fn reset(&mut self) {
        self.episode.state = self.game.start.clone();
    }

    /// The board as a `(height, width)` `uint8` array of codes: 0 floor, 1 wall, 2 hole, 3 box,
    /// 4 key, 5 door, 6 mushroom, 7 avatar, 8 avatar with the key, 9 box on a key or door.
    fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u8>>> {
        observation(py, &self.game, &self.episode)
    }

    /// One tick with `action` (0 up, 1 down, 2 left, 3 right, 4 nil): `(reward, legal,
    /// terminated, truncated)` — the points the tick earned, always legal, won or dead, out of
    /// time.
    fn step(&mut self, action: i64) -> PyResult<StepTuple> {
        if self.episode.state.is_terminal_state() {
            return Err(PyRuntimeError::new_err("the game has ended: call reset()"));
        }
        play(&self.game, &mut self.episode, action)
    }

    /// `"playing"`, `"won"`, `"dead"` or `"timeout"`.
    #[getter]
    fn status(&self) -> &'static str {
        self.episode.state.status().name()
    }

    /// Points so far.
    #[getter]
    fn points(&self) -> i32 {
        self.episode.state.points()
    }

    /// Ticks played.
    #[getter]
    fn tick(&self) -> u16 {
        self.episode.state.tick()
    }

    /// The oracle: a win from the current position (actions 0–4) by the crate's offline A*
    /// planner (replayed before it is returned), or `None` when none is found within
    /// `max_nodes` stored positions. Runs with the GIL released.
    #[pyo3(signature = (max_nodes=2_000_000))]
    fn solve(&self, py: Python<'_>, max_nodes: usize) -> Option<Vec<usize>> {
        let state = self.episode.state.clone();
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
