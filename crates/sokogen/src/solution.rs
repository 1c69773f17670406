//! From a finished generation to a playable level: the XSB board with a wall border, and its
//! LURD solution derived from the generation's Move-Agent actions (see
//! `docs/METHODS.md#sokogen-level-set`),
//! verified by replaying it with `puzzle_sokoban::replay`.
//!
//! The generation pushed the boxes from their start cells to the cells that became goals, so
//! the same pushes, in the same order, solve the level. Post-processing only makes the level
//! easier to walk: an unmoved box (now a wall) blocked the player anyway, and a box moved once
//! is gone, so its one push becomes a plain step into the freed cell.

use crate::geometry::{Direction, Geometry};
use crate::state::{GenAction, GenState, Phase};
use puzzle_engine::bits::Bits;
use puzzle_sokoban::{replay, Level};
use std::collections::VecDeque;

/// Why a generated level was not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolutionError {
    /// The state is not an evaluated level.
    NotFinished,
    /// A walk or step of the derived solution is impossible (a bug in the derivation).
    Underivable(String),
    /// The replay did not end solved, or failed (a bug somewhere).
    ReplayFailed(String),
}

impl std::fmt::Display for SolutionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolutionError::NotFinished => write!(f, "the level was not evaluated"),
            SolutionError::Underivable(s) => write!(f, "cannot derive the solution: {s}"),
            SolutionError::ReplayFailed(s) => write!(f, "the solution does not replay: {s}"),
        }
    }
}

impl std::error::Error for SolutionError {}

/// The finished level of an evaluated state, with a one-cell wall border around the board.
pub fn final_level<const N: usize, const B: usize>(
    state: &GenState<N, B>,
) -> Result<Level, SolutionError> {
    if state.phase() != Phase::Done {
        return Err(SolutionError::NotFinished);
    }
    let geo = state.geometry();
    Ok(level_from_cells(
        geo,
        state.walls(),
        state.goals(),
        state.boxes(),
        state.start(),
    ))
}

/// The level of a board's cells (generator cells, see [`Geometry`]), with a one-cell wall
/// border around the board.
pub fn level_from_cells<const N: usize>(
    geo: &Geometry<N>,
    wall_cells: Bits<N>,
    goal_cells: Bits<N>,
    box_cells: Bits<N>,
    player: usize,
) -> Level {
    let (w, h) = (geo.width as usize, geo.height as usize);
    let (lw, lh) = (w + 2, h + 2);
    let mut walls = vec![true; lw * lh];
    let mut goals = vec![false; lw * lh];
    let mut boxes = vec![false; lw * lh];
    for y in 0..h {
        for x in 0..w {
            let c = geo.cell(x, y);
            let i = (y + 1) * lw + x + 1;
            walls[i] = wall_cells.has(c);
            goals[i] = goal_cells.has(c);
            boxes[i] = box_cells.has(c);
        }
    }
    let (sx, sy) = geo.xy(player);
    Level {
        width: lw,
        height: lh,
        walls,
        goals,
        boxes,
        player: (sy + 1) * lw + sx + 1,
        title: None,
    }
}

/// The LURD of `pushes` (each a box's generator cell and the push's direction, in order) on
/// `level` (from [`level_from_cells`] of the same board): a shortest walk to the cell behind each
/// box, then the push.
pub fn lurd_of_pushes<const N: usize>(
    geo: &Geometry<N>,
    level: &Level,
    pushes: &[(usize, Direction)],
) -> Result<String, SolutionError> {
    let mut boxes = level.boxes.clone();
    let mut player = level.player;
    let mut lurd = String::new();
    for &(cell, dir) in pushes {
        let at = level_cell(geo, level, cell);
        let behind = step(level, at, dir.opposite());
        let beyond = step(level, at, dir);
        if !boxes[at] || level.walls[beyond] || boxes[beyond] {
            return Err(SolutionError::Underivable(format!(
                "push {dir:?} of the box at cell {at} is impossible"
            )));
        }
        walk(level, &boxes, player, behind, &mut lurd)?;
        boxes[at] = false;
        boxes[beyond] = true;
        lurd.push(dir.letter(true));
        player = at;
    }
    Ok(lurd)
}

/// Replay `lurd` on `level`: it must end solved.
pub fn check_solves(level: &Level, lurd: &str) -> Result<(), SolutionError> {
    match replay(level, lurd) {
        Ok(r) if r.solved => Ok(()),
        Ok(_) => Err(SolutionError::ReplayFailed(
            "the replay ends with a box off its goal".into(),
        )),
        Err(e) => Err(SolutionError::ReplayFailed(e.to_string())),
    }
}

/// The index in `level` (a board with its wall border) of the generator's cell `c`.
fn level_cell<const N: usize>(geo: &Geometry<N>, level: &Level, c: usize) -> usize {
    let (x, y) = geo.xy(c);
    (y + 1) * level.width + x + 1
}

fn step(level: &Level, i: usize, d: Direction) -> usize {
    let (dx, dy) = d.delta();
    let (x, y) = level.xy(i);
    level.index((x as isize + dx) as usize, (y as isize + dy) as usize)
}

/// Append to `out` a shortest walk (lower-case LURD) from `from` to `to` avoiding walls and
/// boxes.
fn walk(
    level: &Level,
    boxes: &[bool],
    from: usize,
    to: usize,
    out: &mut String,
) -> Result<(), SolutionError> {
    if from == to {
        return Ok(());
    }
    let n = level.width * level.height;
    let mut prev: Vec<Option<(usize, Direction)>> = vec![None; n];
    let mut seen = vec![false; n];
    seen[from] = true;
    let mut queue = VecDeque::from([from]);
    while let Some(c) = queue.pop_front() {
        if c == to {
            break;
        }
        for d in crate::geometry::DIRECTIONS {
            let next = step(level, c, d);
            if !seen[next] && !level.walls[next] && !boxes[next] {
                seen[next] = true;
                prev[next] = Some((c, d));
                queue.push_back(next);
            }
        }
    }
    if !seen[to] {
        return Err(SolutionError::Underivable(format!(
            "no walk from cell {from} to cell {to}"
        )));
    }
    let mut path = Vec::new();
    let mut c = to;
    while let Some((p, d)) = prev[c] {
        path.push(d);
        c = p;
    }
    out.extend(path.iter().rev().map(|d| d.letter(false)));
    Ok(())
}

/// The LURD solution of `level` (from [`final_level`] of the finished state) given the whole
/// action sequence that produced it (only the Move-Agent actions matter).
pub fn derive_solution<const N: usize, const B: usize>(
    state: &GenState<N, B>,
    level: &Level,
    sequence: &[GenAction],
) -> Result<String, SolutionError> {
    let geo = state.geometry();
    let to_level = |c: usize| level_cell(geo, level, c);
    let mut boxes = level.boxes.clone();
    let mut player = level.player;
    let mut lurd = String::new();
    for &a in sequence {
        let GenAction::Move { from, dir } = a else {
            continue;
        };
        let from = to_level(from as usize);
        walk(level, &boxes, player, from, &mut lurd)?;
        let target = step(level, from, dir);
        if level.walls[target] {
            return Err(SolutionError::Underivable(format!(
                "step {dir:?} from cell {from} into a wall"
            )));
        }
        if boxes[target] {
            let beyond = step(level, target, dir);
            if level.walls[beyond] || boxes[beyond] {
                return Err(SolutionError::Underivable(format!(
                    "push {dir:?} from cell {from} is blocked"
                )));
            }
            boxes[target] = false;
            boxes[beyond] = true;
            lurd.push(dir.letter(true));
        } else {
            lurd.push(dir.letter(false));
        }
        player = target;
    }
    // Steps after the last push solve nothing: drop them.
    let end = lurd
        .rfind(|c: char| c.is_ascii_uppercase())
        .map_or(0, |i| i + 1);
    lurd.truncate(end);
    Ok(lurd)
}

/// The level and its verified solution: derive, then replay; the replay must end solved.
pub fn verified_level<const N: usize, const B: usize>(
    state: &GenState<N, B>,
    sequence: &[GenAction],
) -> Result<(Level, String), SolutionError> {
    let level = final_level(state)?;
    let lurd = derive_solution(state, &level, sequence)?;
    check_solves(&level, &lurd)?;
    Ok((level, lurd))
}
