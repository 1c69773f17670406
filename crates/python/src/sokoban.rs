//! Sokoban from Python: levels parsed from XSB ([`Level`], [`parse_xsb`]) and a level being
//! played step by step ([`SokobanGame`], over [`puzzle_sokoban::Play`]), with the position as
//! four 0/1 planes for learning agents.

use numpy::ndarray::Array3;
use numpy::{IntoPyArray, PyArray3};
use puzzle_sokoban::{Dir, Play};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The actions of [`SokobanGame::step`], in gym-sokoban's order (without its no-op): 0 up,
/// 1 down, 2 left, 3 right.
const ACTIONS: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

/// The planes of a position: shape `(4, height, width)`, `uint8` 0/1 — walls, goals, boxes,
/// player.
fn planes<'py>(
    py: Python<'py>,
    level: &puzzle_sokoban::Level,
    boxes: &[bool],
    player: usize,
) -> Bound<'py, PyArray3<u8>> {
    let (width, height) = (level.width, level.height);
    let mut planes = Array3::<u8>::zeros((4, height, width));
    for y in 0..height {
        for x in 0..width {
            let i = y * width + x;
            planes[(0, y, x)] = u8::from(level.walls[i]);
            planes[(1, y, x)] = u8::from(level.goals[i]);
            planes[(2, y, x)] = u8::from(boxes[i]);
            planes[(3, y, x)] = u8::from(i == player);
        }
    }
    planes.into_pyarray(py)
}

/// A Sokoban level parsed from XSB (immutable).
#[pyclass(module = "puzzle_search._puzzle_search", frozen)]
#[derive(Clone)]
pub struct Level {
    level: puzzle_sokoban::Level,
}

impl Level {
    /// The parsed level.
    pub fn inner(&self) -> &puzzle_sokoban::Level {
        &self.level
    }
}

#[pymethods]
impl Level {
    /// Parse one level from XSB text (`ValueError` with line and column when it is not one).
    #[new]
    fn new(xsb: &str) -> PyResult<Level> {
        puzzle_sokoban::Level::parse_one(xsb)
            .map(|level| Level { level })
            .map_err(|e| PyValueError::new_err(format!("input: {e}")))
    }

    /// Number of columns.
    #[getter]
    fn width(&self) -> usize {
        self.level.width
    }

    /// Number of rows.
    #[getter]
    fn height(&self) -> usize {
        self.level.height
    }

    /// The title (the last comment line before the board), or `None`.
    #[getter]
    fn title(&self) -> Option<String> {
        self.level.title.clone()
    }

    /// Number of boxes (= number of goals).
    #[getter]
    fn box_count(&self) -> usize {
        self.level.box_count()
    }

    /// The board in XSB (no title line; rows end with a newline).
    #[getter]
    fn xsb(&self) -> String {
        self.level.to_xsb()
    }

    /// The start position as a `uint8` array of shape `(4, height, width)`: walls, goals,
    /// boxes, player (1 where present). Floor outside the walls is 0 in every plane.
    fn planes<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray3<u8>> {
        planes(py, &self.level, &self.level.boxes, self.level.player)
    }

    fn __repr__(&self) -> String {
        format!(
            "Level({}×{}, {} boxes{})",
            self.level.width,
            self.level.height,
            self.level.box_count(),
            self.level
                .title
                .as_deref()
                .map(|t| format!(", title={t:?}"))
                .unwrap_or_default()
        )
    }

    fn __str__(&self) -> String {
        self.level.to_xsb()
    }
}

/// Parse every level of an XSB text (titles from comment lines). A malformed text raises
/// `ValueError` with `source`, the level number, line and column.
#[pyfunction]
#[pyo3(signature = (text, source = "input"))]
pub fn parse_xsb(text: &str, source: &str) -> PyResult<Vec<Level>> {
    puzzle_sokoban::parse_xsb(text)
        .map(|levels| levels.into_iter().map(|level| Level { level }).collect())
        .map_err(|e| PyValueError::new_err(format!("{source}: {e}")))
}

/// The bundled Sokoban sets as `(id, name)` pairs (`"microban"`, `"xsokoban"`, …).
#[pyfunction]
pub fn sokoban_sets() -> Vec<(&'static str, &'static str)> {
    puzzle_jobs::data::SOKOBAN_SETS
        .iter()
        .map(|set| (set.id, set.name))
        .collect()
}

/// The levels of the bundled Sokoban set `id` (see `sokoban_sets()`); `ValueError` naming the
/// sets for an unknown id.
#[pyfunction]
pub fn sokoban_set(id: &str) -> PyResult<Vec<Level>> {
    let Some(set) = puzzle_jobs::data::sokoban_set(id) else {
        let ids: Vec<&str> = puzzle_jobs::data::SOKOBAN_SETS
            .iter()
            .map(|s| s.id)
            .collect();
        return Err(PyValueError::new_err(format!(
            "no bundled Sokoban set {id:?}: the sets are {}",
            ids.join(", ")
        )));
    };
    parse_xsb(set.text, set.id)
}

/// A Sokoban level being played: moves that push when they walk into a box, as in the
/// workbench (the crate's `Play`).
#[pyclass(module = "puzzle_search._puzzle_search")]
pub struct SokobanGame {
    play: Play,
}

#[pymethods]
impl SokobanGame {
    /// Start playing `level` (a `Level`, or the XSB text of one level).
    #[new]
    fn new(level: &Bound<'_, PyAny>) -> PyResult<SokobanGame> {
        let level = match level.extract::<PyRef<'_, Level>>() {
            Ok(level) => level.level.clone(),
            Err(_) => Level::new(&level.extract::<String>()?)?.level,
        };
        Ok(SokobanGame {
            play: Play::new(&level),
        })
    }

    /// One step: 0 up, 1 down, 2 left, 3 right. Returns `(moved, pushed)`; a step into a
    /// wall or an immovable box changes nothing and returns `(False, False)`.
    fn step(&mut self, action: usize) -> PyResult<(bool, bool)> {
        let Some(&dir) = ACTIONS.get(action) else {
            return Err(PyValueError::new_err(format!(
                "action {action} is not one of 0 (up), 1 (down), 2 (left), 3 (right)"
            )));
        };
        let pushes = self.play.pushes();
        let moved = self.play.step(dir);
        Ok((moved, self.play.pushes() > pushes))
    }

    /// Back to the level's start position.
    fn reset(&mut self) {
        self.play = Play::new(self.play.level());
    }

    /// Boxes standing on goals.
    #[getter]
    fn boxes_on_goals(&self) -> usize {
        let goals = &self.play.level().goals;
        self.play
            .boxes()
            .iter()
            .zip(goals)
            .filter(|(&b, &g)| b && g)
            .count()
    }

    /// Number of boxes.
    #[getter]
    fn box_count(&self) -> usize {
        self.play.level().box_count()
    }

    /// Every box is on a goal.
    #[getter]
    fn solved(&self) -> bool {
        self.play.is_solved()
    }

    /// The position cannot be solved any more, by the solver's tables: a box off a goal on a
    /// dead square, or boxes frozen off goals.
    #[getter]
    fn deadlocked(&self) -> bool {
        let deadlocks = self.play.deadlocks();
        let goals = &self.play.level().goals;
        !deadlocks.frozen_boxes.is_empty()
            || deadlocks
                .dead_squares
                .iter()
                .any(|&i| self.play.boxes()[i] && !goals[i])
    }

    /// The steps so far as LURD (upper case = push).
    #[getter]
    fn lurd(&self) -> String {
        self.play.lurd()
    }

    /// Steps taken.
    #[getter]
    fn moves(&self) -> usize {
        self.play.moves()
    }

    /// Steps that pushed.
    #[getter]
    fn pushes(&self) -> usize {
        self.play.pushes()
    }

    /// The player's cell as `(x, y)`.
    #[getter]
    fn player(&self) -> (usize, usize) {
        self.play.level().xy(self.play.player())
    }

    /// Number of columns.
    #[getter]
    fn width(&self) -> usize {
        self.play.level().width
    }

    /// Number of rows.
    #[getter]
    fn height(&self) -> usize {
        self.play.level().height
    }

    /// The level being played (its start position).
    #[getter]
    fn level(&self) -> Level {
        Level {
            level: self.play.level().clone(),
        }
    }

    /// The current position as a level of its own (start = here).
    fn position(&self) -> Level {
        Level {
            level: self.play.position(),
        }
    }

    /// The current position as a `uint8` array of shape `(4, height, width)`: walls, goals,
    /// boxes, player.
    fn planes<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray3<u8>> {
        planes(py, self.play.level(), self.play.boxes(), self.play.player())
    }

    fn __repr__(&self) -> String {
        format!(
            "SokobanGame({}×{}, moves={}, pushes={}, boxes_on_goals={}/{})",
            self.play.level().width,
            self.play.level().height,
            self.play.moves(),
            self.play.pushes(),
            self.boxes_on_goals(),
            self.play.level().box_count()
        )
    }
}

/// Add the Sokoban classes and functions to the extension module.
pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<Level>()?;
    module.add_class::<SokobanGame>()?;
    module.add_function(wrap_pyfunction!(parse_xsb, module)?)?;
    module.add_function(wrap_pyfunction!(sokoban_sets, module)?)?;
    module.add_function(wrap_pyfunction!(sokoban_set, module)?)?;
    Ok(())
}
