//! The Sokoban environments' stepping, in Rust: one episode ([`SokobanCore`], behind
//! `puzzle_search.envs.SokobanEnv`) and N episodes stepped per call over numpy buffers
//! ([`SokobanBatch`], behind `puzzle_search.envs.SokobanVectorEnv`), on one `Episode` type so
//! the two agree step for step.
//!
//! Each episode plays a [`CellBoard`] (the rules of `puzzle_sokoban`) and keeps its observation
//! up to date by rewriting only the cells a step changed. Rewards are gym-sokoban's
//! (Schrader's `sokoban_env.py`): a cost per step, a bonus for a box pushed onto a goal, a
//! penalty for one pushed off, a bonus for solving. The level of each episode is drawn from the
//! pool by the project's [`Rng`], seeded from Python's `np_random`, so a single environment and
//! a sub-environment of the vector one seeded alike play the same levels.

use numpy::{
    IntoPyArray, PyArray1, PyArrayDyn, PyArrayMethods, PyReadonlyArray1, PyUntypedArrayMethods,
};
use puzzle_engine::Rng;
use puzzle_sokoban::cells::{CellBoard, BOX, GOAL, PLAYER, WALL};
use puzzle_sokoban::{DeadlockTest, Dir, Level};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use rayon::prelude::*;
use std::collections::HashMap;

use crate::sokoban::Level as PyLevel;

/// The directions of actions 0–3 (and of the move-only actions 4–7), in gym-sokoban's order:
/// up, down, left, right.
const DIRECTIONS: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

/// How observations are laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layout {
    /// `(4, H, W)` 0/1 planes: walls, goals, boxes, player.
    Planes,
    /// `(H, W)` cell flags: 1 wall, 2 goal, 4 box, 8 player (bits set together).
    Cells,
    /// `(H·p, W·p, 3)` RGB: a `p`×`p` square of [`colour`] per cell (gym-sokoban's image
    /// observations; `p` = 1 is its `tiny_rgb_array`).
    Rgb(usize),
}

/// Pixels per cell of the `"rgb"` layout and of `render()`.
pub const RGB_PIXELS: usize = 8;

/// The colour of a cell of the level with `flags` (outside the level: black).
fn colour(flags: u8) -> [u8; 3] {
    if flags & PLAYER != 0 {
        [70, 120, 230]
    } else if flags & BOX != 0 && flags & GOAL != 0 {
        [60, 200, 80]
    } else if flags & BOX != 0 {
        [210, 160, 50]
    } else if flags & GOAL != 0 {
        [200, 60, 60]
    } else if flags & WALL != 0 {
        [120, 110, 100]
    } else {
        [40, 40, 40]
    }
}

/// Paint cell `(x, y)` of an RGB image `width` cells wide, `pixels` per cell.
fn paint(image: &mut [u8], width: usize, pixels: usize, (x, y): (usize, usize), rgb: [u8; 3]) {
    let row_bytes = width * pixels * 3;
    for dy in 0..pixels {
        let start = (y * pixels + dy) * row_bytes + x * pixels * 3;
        for pixel in image[start..start + pixels * 3].chunks_exact_mut(3) {
            pixel.copy_from_slice(&rgb);
        }
    }
}

/// The rewards of gym-sokoban (its defaults: −0.1, +1, −1, +10).
#[derive(Clone, Copy, Debug)]
struct Rewards {
    step: f64,
    box_on_goal: f64,
    box_off_goal: f64,
    solved: f64,
}

/// What every episode of an environment shares: the level pool and the rules of an episode.
struct Spec {
    levels: Vec<CellBoard>,
    height: usize,
    width: usize,
    layout: Layout,
    max_steps: u32,
    /// 8 actions (4 push-or-move, 4 move-only) instead of 4.
    eight_actions: bool,
    rewards: Rewards,
}

impl Spec {
    /// Bytes of one observation.
    fn observation_len(&self) -> usize {
        match self.layout {
            Layout::Planes => 4 * self.height * self.width,
            Layout::Cells => self.height * self.width,
            Layout::Rgb(p) => self.height * p * self.width * p * 3,
        }
    }

    /// The observation's shape (without the batch axis).
    fn observation_shape(&self) -> Vec<usize> {
        match self.layout {
            Layout::Planes => vec![4, self.height, self.width],
            Layout::Cells => vec![self.height, self.width],
            Layout::Rgb(p) => vec![self.height * p, self.width * p, 3],
        }
    }

    /// Write cell `i` of `board` into `observation` (the level sits in the top-left corner).
    #[inline]
    fn write_cell(&self, board: &CellBoard, i: usize, observation: &mut [u8]) {
        let flags = board.cells()[i];
        let (x, y) = (i % board.width(), i / board.width());
        let at = y * self.width + x;
        match self.layout {
            Layout::Cells => observation[at] = flags,
            Layout::Rgb(p) => paint(observation, self.width, p, (x, y), colour(flags)),
            Layout::Planes => {
                let plane = self.height * self.width;
                observation[at] = u8::from(flags & WALL != 0);
                observation[plane + at] = u8::from(flags & GOAL != 0);
                observation[2 * plane + at] = u8::from(flags & BOX != 0);
                observation[3 * plane + at] = u8::from(flags & PLAYER != 0);
            }
        }
    }

    /// Write the whole of `board` into `observation` (zeros around the level).
    fn write_board(&self, board: &CellBoard, observation: &mut [u8]) {
        observation.fill(0);
        for i in 0..board.cells().len() {
            self.write_cell(board, i, observation);
        }
    }

    /// The step direction and whether it may push, for `action`.
    fn decode(&self, action: i64) -> Option<(Dir, bool)> {
        let count = if self.eight_actions { 8 } else { 4 };
        if !(0..count).contains(&action) {
            return None;
        }
        let action = action as usize;
        Some((DIRECTIONS[action % 4], action < 4))
    }

    /// The action count and its meaning, for error messages.
    fn actions_text(&self) -> &'static str {
        if self.eight_actions {
            "0–3 (push or move up, down, left, right) or 4–7 (move only)"
        } else {
            "0 (up), 1 (down), 2 (left) or 3 (right)"
        }
    }
}

/// One episode's share of a batched step: the episode, its observation, its decoded action,
/// and where its reward, termination and truncation go (rayon's nested zip).
type StepSlot<'a> = (
    (
        (
            ((&'a mut Episode, &'a mut [u8]), &'a (Dir, bool)),
            &'a mut f64,
        ),
        &'a mut bool,
    ),
    &'a mut bool,
);

/// One episode: the position, the level it started from, the steps taken and the level stream.
#[derive(Clone)]
struct Episode {
    board: CellBoard,
    level: usize,
    steps: u32,
    /// The stream that draws the next level.
    rng: Rng,
    /// The episode ended: the next step of a vector environment resets it first.
    done: bool,
    /// The last step pushed a box.
    pushed: bool,
}

impl Episode {
    fn new(spec: &Spec, seed: u64) -> Episode {
        Episode {
            board: spec.levels[0].clone(),
            level: 0,
            steps: 0,
            rng: Rng::new(seed),
            done: true,
            pushed: false,
        }
    }

    /// Start level `level`, or the next one of the stream, and write its observation.
    fn reset(&mut self, spec: &Spec, level: Option<usize>, observation: &mut [u8]) {
        self.level = level.unwrap_or_else(|| self.rng.below(spec.levels.len()));
        self.board.clone_from(&spec.levels[self.level]);
        self.steps = 0;
        self.done = false;
        self.pushed = false;
        spec.write_board(&self.board, observation);
    }

    /// One step of a decoded action: the reward and whether the episode terminated (solved)
    /// or was truncated (the step limit); the observation is updated in place.
    #[inline]
    fn act(
        &mut self,
        spec: &Spec,
        (dir, may_push): (Dir, bool),
        observation: &mut [u8],
    ) -> (f64, bool, bool) {
        let step = self.board.step(dir, may_push);
        for &i in &step.changed[..usize::from(step.changed_count)] {
            spec.write_cell(&self.board, i, observation);
        }
        self.steps += 1;
        self.pushed = step.pushed;
        let mut reward = spec.rewards.step;
        if step.goal_change > 0 {
            reward += spec.rewards.box_on_goal;
        } else if step.goal_change < 0 {
            reward += spec.rewards.box_off_goal;
        }
        let terminated = self.board.is_solved();
        if terminated {
            reward += spec.rewards.solved;
        }
        let truncated = !terminated && self.steps >= spec.max_steps;
        self.done = terminated || truncated;
        (reward, terminated, truncated)
    }
}

/// Build the shared spec from the Python arguments (levels already checked to fit).
#[allow(clippy::too_many_arguments)]
fn spec(
    levels: &[PyRef<'_, PyLevel>],
    max_size: (usize, usize),
    observation: &str,
    max_steps: u32,
    actions: u32,
    rewards: (f64, f64, f64, f64),
) -> PyResult<Spec> {
    if levels.is_empty() {
        return Err(PyValueError::new_err("no levels"));
    }
    let (height, width) = max_size;
    let mut boards = Vec::with_capacity(levels.len());
    for level in levels {
        let level: &Level = level.inner();
        if level.height > height || level.width > width {
            return Err(PyValueError::new_err(format!(
                "a {}×{} level does not fit max_size {height}×{width} (rows × columns)",
                level.width, level.height
            )));
        }
        boards.push(CellBoard::new(level));
    }
    let layout = match observation {
        "planes" => Layout::Planes,
        "cells" => Layout::Cells,
        "rgb" => Layout::Rgb(RGB_PIXELS),
        "tiny_rgb" => Layout::Rgb(1),
        other => {
            return Err(PyValueError::new_err(format!(
                "observation {other:?} is not \"planes\", \"cells\", \"rgb\" or \"tiny_rgb\""
            )))
        }
    };
    let eight_actions = match actions {
        4 => false,
        8 => true,
        other => {
            return Err(PyValueError::new_err(format!(
                "actions must be 4 or 8, not {other}"
            )))
        }
    };
    if max_steps == 0 {
        return Err(PyValueError::new_err("max_steps must be at least 1"));
    }
    Ok(Spec {
        levels: boards,
        height,
        width,
        layout,
        max_steps,
        eight_actions,
        rewards: Rewards {
            step: rewards.0,
            box_on_goal: rewards.1,
            box_off_goal: rewards.2,
            solved: rewards.3,
        },
    })
}

/// One Sokoban episode at a time, stepped in Rust (`SokobanEnv`'s engine).
#[pyclass(module = "puzzle_search._puzzle_search")]
pub struct SokobanCore {
    spec: Spec,
    episode: Episode,
    observation: Vec<u8>,
    /// The solver's deadlock tables of the levels played so far (built when first asked;
    /// `None` for a level too large for the solver's board).
    deadlock_tests: HashMap<usize, Option<DeadlockTest>>,
    /// Whether the position is deadlocked, when `deadlock_known` (it changes only on pushes).
    deadlocked: bool,
    deadlock_known: bool,
    started: bool,
}

impl SokobanCore {
    fn observation_array<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArrayDyn<u8>>> {
        self.observation
            .clone()
            .into_pyarray(py)
            .reshape(self.spec.observation_shape())
    }

    fn check_started(&self) -> PyResult<()> {
        if self.started {
            Ok(())
        } else {
            Err(PyRuntimeError::new_err("call reset() before step()"))
        }
    }
}

#[pymethods]
impl SokobanCore {
    /// An engine over `levels` (`Level` objects) with observations of `max_size` `(rows,
    /// columns)` in layout `observation` (`"planes"` or `"cells"`), `actions` 4 or 8, episodes
    /// truncated after `max_steps`, and `rewards` `(step, box_on_goal, box_off_goal, solved)`.
    #[new]
    #[pyo3(signature = (levels, max_size, observation, max_steps, actions, rewards))]
    fn new(
        levels: Vec<PyRef<'_, PyLevel>>,
        max_size: (usize, usize),
        observation: &str,
        max_steps: u32,
        actions: u32,
        rewards: (f64, f64, f64, f64),
    ) -> PyResult<SokobanCore> {
        let spec = spec(&levels, max_size, observation, max_steps, actions, rewards)?;
        let episode = Episode::new(&spec, 0);
        let observation = vec![0; spec.observation_len()];
        let deadlock_tests = HashMap::new();
        Ok(SokobanCore {
            spec,
            episode,
            observation,
            deadlock_tests,
            deadlocked: false,
            deadlock_known: false,
            started: false,
        })
    }

    /// Seed the stream that draws each episode's level.
    fn seed(&mut self, state: u64) {
        self.episode.rng = Rng::new(state);
    }

    /// Start an episode on level `level`, or on the next level of the stream: returns the
    /// observation and the level's index in the pool.
    #[pyo3(signature = (level=None))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        level: Option<usize>,
    ) -> PyResult<(Bound<'py, PyArrayDyn<u8>>, usize)> {
        if let Some(level) = level {
            if level >= self.spec.levels.len() {
                return Err(PyValueError::new_err(format!(
                    "level {level} is not in the pool of {} levels",
                    self.spec.levels.len()
                )));
            }
        }
        self.episode.reset(&self.spec, level, &mut self.observation);
        self.deadlock_known = false;
        self.started = true;
        Ok((self.observation_array(py)?, self.episode.level))
    }

    /// One step: `(observation, reward, terminated, truncated)`.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        action: i64,
    ) -> PyResult<(Bound<'py, PyArrayDyn<u8>>, f64, bool, bool)> {
        self.check_started()?;
        let Some(decoded) = self.spec.decode(action) else {
            return Err(PyValueError::new_err(format!(
                "action {action} is not one of {}",
                self.spec.actions_text()
            )));
        };
        let (reward, terminated, truncated) =
            self.episode.act(&self.spec, decoded, &mut self.observation);
        if self.episode.pushed {
            self.deadlock_known = false;
        }
        Ok((self.observation_array(py)?, reward, terminated, truncated))
    }

    /// The position can no longer be solved, by the solver's deadlock tables (a box off a goal
    /// on a dead square, or boxes frozen off goals). Empty levels too large for the solver's
    /// board are never reported deadlocked.
    #[getter]
    fn deadlocked(&mut self) -> PyResult<bool> {
        self.check_started()?;
        if self.deadlock_known {
            return Ok(self.deadlocked);
        }
        let level = self.episode.level;
        let spec = &self.spec;
        let test = self
            .deadlock_tests
            .entry(level)
            .or_insert_with(|| DeadlockTest::new(&board_level(&spec.levels[level])));
        let cells = self.episode.board.cells();
        self.deadlocked = match test {
            Some(test) => test.is_deadlocked((0..cells.len()).filter(|&i| cells[i] & BOX != 0)),
            None => false,
        };
        self.deadlock_known = true;
        Ok(self.deadlocked)
    }

    /// Boxes on goals.
    #[getter]
    fn boxes_on_goals(&self) -> u32 {
        self.episode.board.boxes_on_goals()
    }

    /// Steps taken in this episode.
    #[getter]
    fn steps(&self) -> u32 {
        self.episode.steps
    }

    /// The level's index in the pool.
    #[getter]
    fn level(&self) -> usize {
        self.episode.level
    }

    /// The current position as XSB (to solve from it).
    fn position_xsb(&self) -> String {
        board_level(&self.episode.board).to_xsb()
    }

    /// The current position as an RGB image `(H·8, W·8, 3)` of `max_size` (black around the
    /// level), whatever the observation layout.
    fn rgb<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArrayDyn<u8>>> {
        let spec = &self.spec;
        let board = &self.episode.board;
        let mut image = vec![0u8; spec.height * RGB_PIXELS * spec.width * RGB_PIXELS * 3];
        for i in 0..board.cells().len() {
            let xy = (i % board.width(), i / board.width());
            paint(
                &mut image,
                spec.width,
                RGB_PIXELS,
                xy,
                colour(board.cells()[i]),
            );
        }
        image
            .into_pyarray(py)
            .reshape(vec![spec.height * RGB_PIXELS, spec.width * RGB_PIXELS, 3])
    }

    /// The current position's cell flags as a `(rows, columns)` array of the level's own size:
    /// 1 wall, 2 goal, 4 box, 8 player.
    fn cells<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArrayDyn<u8>>> {
        let board = &self.episode.board;
        board
            .cells()
            .to_vec()
            .into_pyarray(py)
            .reshape(vec![board.height(), board.width()])
    }
}

/// A [`CellBoard`]'s position as a [`Level`] (no title).
fn board_level(board: &CellBoard) -> Level {
    let cells = board.cells();
    Level {
        width: board.width(),
        height: board.height(),
        walls: cells.iter().map(|&c| c & WALL != 0).collect(),
        goals: cells.iter().map(|&c| c & GOAL != 0).collect(),
        boxes: cells.iter().map(|&c| c & BOX != 0).collect(),
        player: board.player(),
        title: None,
    }
}

/// N Sokoban episodes stepped per call, with auto-reset on the step after an episode ends
/// (`SokobanVectorEnv`'s engine).
#[pyclass(module = "puzzle_search._puzzle_search")]
pub struct SokobanBatch {
    spec: Spec,
    episodes: Vec<Episode>,
    /// The observations, `(count, *observation_shape)`, updated in place by every call.
    observations: Py<PyArrayDyn<u8>>,
    /// Episodes per rayon task (0: step on the calling thread only).
    chunk: usize,
}

#[pymethods]
impl SokobanBatch {
    /// `count` episodes over `levels` (see `SokobanCore` for the other arguments); `threads`
    /// 1 steps them on the calling thread, more splits each call across rayon's threads.
    #[new]
    #[pyo3(signature = (count, levels, max_size, observation, max_steps, actions, rewards, threads))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        count: usize,
        levels: Vec<PyRef<'_, PyLevel>>,
        max_size: (usize, usize),
        observation: &str,
        max_steps: u32,
        actions: u32,
        rewards: (f64, f64, f64, f64),
        threads: usize,
    ) -> PyResult<SokobanBatch> {
        if count == 0 {
            return Err(PyValueError::new_err("num_envs must be at least 1"));
        }
        let spec = spec(&levels, max_size, observation, max_steps, actions, rewards)?;
        let episodes = vec![Episode::new(&spec, 0); count];
        let mut shape = vec![count];
        shape.extend(spec.observation_shape());
        let observations = PyArrayDyn::<u8>::zeros(py, shape, false).unbind();
        let chunk = if threads <= 1 {
            0
        } else {
            count.div_ceil(threads.max(1) * 4).max(64)
        };
        Ok(SokobanBatch {
            spec,
            episodes,
            observations,
            chunk,
        })
    }

    /// Seed every episode's level stream (one state per episode) and reset them all: returns
    /// the observations, shape `(count, *observation_shape)`.
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        states: Vec<u64>,
    ) -> PyResult<Bound<'py, PyArrayDyn<u8>>> {
        if states.len() != self.episodes.len() {
            return Err(PyValueError::new_err(format!(
                "{} seeds for {} environments",
                states.len(),
                self.episodes.len()
            )));
        }
        let length = self.spec.observation_len();
        let array = self.observations.bind(py).clone();
        {
            let mut observations = array.readwrite();
            let observations = observations.as_slice_mut()?;
            for ((episode, state), observation) in self
                .episodes
                .iter_mut()
                .zip(states)
                .zip(observations.chunks_mut(length))
            {
                episode.rng = Rng::new(state);
                episode.reset(&self.spec, None, observation);
            }
        }
        Ok(array)
    }

    /// Step every episode with its action (an int64 array of `count`); an episode that ended
    /// on the previous step is reset instead (reward 0, not terminated, not truncated).
    /// Writes the rewards (float64), terminations and truncations (bool) into the given
    /// arrays and returns the observations: the batch's own array, updated in place by the
    /// next call (copy it to keep it).
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
        rewards: Bound<'py, PyArray1<f64>>,
        terminations: Bound<'py, PyArray1<bool>>,
        truncations: Bound<'py, PyArray1<bool>>,
    ) -> PyResult<Bound<'py, PyArrayDyn<u8>>> {
        let count = self.episodes.len();
        let lengths = [
            actions.len(),
            rewards.len(),
            terminations.len(),
            truncations.len(),
        ];
        crate::check_step_lengths(count, lengths)?;
        let actions = actions.as_slice()?;
        let mut decoded = Vec::with_capacity(count);
        for (i, &action) in actions.iter().enumerate() {
            match self.spec.decode(action) {
                Some(d) => decoded.push(d),
                None => {
                    return Err(PyValueError::new_err(format!(
                        "actions[{i}] = {action} is not one of {}",
                        self.spec.actions_text()
                    )))
                }
            }
        }
        let mut rewards = rewards.readwrite();
        let mut terminations = terminations.readwrite();
        let mut truncations = truncations.readwrite();
        let (rewards, terminations, truncations) = (
            rewards.as_slice_mut()?,
            terminations.as_slice_mut()?,
            truncations.as_slice_mut()?,
        );
        let spec = &self.spec;
        let length = spec.observation_len();
        let episodes = &mut self.episodes;
        let array = self.observations.bind(py).clone();
        let mut observations = array.readwrite();
        let observations = observations.as_slice_mut()?;
        let chunk = self.chunk;
        py.detach(|| {
            let one = |(((((episode, observation), action), reward), terminated), truncated): StepSlot<'_>| {
                if episode.done {
                    episode.reset(spec, None, observation);
                    (*reward, *terminated, *truncated) = (0.0, false, false);
                } else {
                    (*reward, *terminated, *truncated) = episode.act(spec, *action, observation);
                }
            };
            if chunk == 0 {
                episodes
                    .iter_mut()
                    .zip(observations.chunks_mut(length))
                    .zip(decoded.iter())
                    .zip(rewards.iter_mut())
                    .zip(terminations.iter_mut())
                    .zip(truncations.iter_mut())
                    .for_each(one);
            } else {
                episodes
                    .par_iter_mut()
                    .zip(observations.par_chunks_mut(length))
                    .zip(decoded.par_iter())
                    .zip(rewards.par_iter_mut())
                    .zip(terminations.par_iter_mut())
                    .zip(truncations.par_iter_mut())
                    .with_min_len(chunk)
                    .for_each(one);
            }
        });
        Ok(array.clone())
    }

    /// Boxes on goals per episode.
    fn boxes_on_goals<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u32>> {
        self.episodes
            .iter()
            .map(|e| e.board.boxes_on_goals())
            .collect::<Vec<_>>()
            .into_pyarray(py)
    }

    /// The pool index of each episode's level.
    fn levels<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u64>> {
        self.episodes
            .iter()
            .map(|e| e.level as u64)
            .collect::<Vec<_>>()
            .into_pyarray(py)
    }
}

/// Add the environment engines to the extension module.
pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add("SOKOBAN_RGB_PIXELS", RGB_PIXELS)?;
    module.add_class::<SokobanCore>()?;
    module.add_class::<SokobanBatch>()?;
    Ok(())
}
