//! Measures of how hard a level is beyond its push count (see
//! `docs/METHODS.md#sokoban-difficulty`): the box lines and box changes of a solution (the
//! measures of YSokoban and JSoko's solution statistics), and the number of positions reachable
//! from the start by pushes (its state space, counted exhaustively under a bound).

use crate::board::{Board, BoardError, CellSet};
use crate::lurd::{parse_lurd, ReplayError};
use crate::position::{generate_pushes, Position, Reach};
use crate::Level;
use puzzle_engine::FxHashSet;

/// The push structure of a solution.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PushStructure {
    /// Pushes.
    pub pushes: usize,
    /// Box lines: maximal runs of pushes of one box in one direction.
    pub box_lines: usize,
    /// Box changes: pushes of a different box than the push before (the first push counts).
    pub box_changes: usize,
}

/// The push structure of `lurd` played on `level` (it must replay: the first illegal step is
/// reported as by [`crate::replay`]).
pub fn push_structure(level: &Level, lurd: &str) -> Result<PushStructure, ReplayError> {
    crate::replay(level, lurd)?;
    let mut player = level.player;
    let mut out = PushStructure::default();
    // The box pushed last (its cell after the push) and the direction of that push.
    let mut last: Option<(usize, crate::Dir)> = None;
    for (dir, push) in parse_lurd(lurd)? {
        // The replay above proved every step legal.
        let Some(next) = dir.step(player, level.width, level.height) else {
            break;
        };
        if push {
            let Some(beyond) = dir.step(next, level.width, level.height) else {
                break;
            };
            out.pushes += 1;
            match last {
                Some((cell, d)) if cell == next && d == dir => {}
                Some((cell, _)) if cell == next => out.box_lines += 1,
                _ => {
                    out.box_lines += 1;
                    out.box_changes += 1;
                }
            }
            last = Some((beyond, dir));
        }
        player = next;
    }
    Ok(out)
}

/// How many positions (boxes, and the player's area) are reachable from `level`'s start by
/// pushes, dead ones included: `Ok((count, true))` when all were counted within
/// `max_positions`, `Ok((max_positions, false))` when the bound was reached first.
pub fn count_positions(level: &Level, max_positions: usize) -> Result<(usize, bool), BoardError> {
    let board = Board::new(level)?;
    let mut reach = Reach::new(board.cells());
    let start = Position::start(&board);
    let mut seen: FxHashSet<(Box<[u64]>, u16)> = FxHashSet::default();
    let player = reach.compute(&board, &start.boxes, start.player);
    seen.insert((start.boxes.words().into(), player));
    let mut queue: Vec<(CellSet, u16)> = vec![(start.boxes.clone(), player)];
    let mut pushes = Vec::new();
    let mut child_reach = Reach::new(board.cells());
    let mut head = 0;
    while head < queue.len() {
        let (boxes, player) = queue[head].clone();
        head += 1;
        let pos = Position::from_words(&board, boxes.words(), player);
        reach.compute(&board, &pos.boxes, pos.player);
        generate_pushes(&board, &pos, &reach, false, &mut pushes);
        for &push in &pushes {
            let mut child = pos.clone();
            child.apply_push(&board, push);
            let normalized = child_reach.compute(&board, &child.boxes, child.player);
            if seen.contains(&(child.boxes.words().into(), normalized)) {
                continue;
            }
            if seen.len() >= max_positions {
                return Ok((max_positions, false));
            }
            seen.insert((child.boxes.words().into(), normalized));
            queue.push((child.boxes, normalized));
        }
    }
    Ok((seen.len(), true))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_changes_count_runs_of_one_box() {
        let two = Level::parse_one("######\n#@$ .#\n#$   #\n#.   #\n######\n").unwrap();
        let at_once = PushStructure {
            pushes: 3,
            box_lines: 2,
            box_changes: 2,
        };
        assert_eq!(push_structure(&two, "RRllD").unwrap(), at_once);
        let interleaved = PushStructure {
            pushes: 3,
            box_lines: 3,
            box_changes: 3,
        };
        assert_eq!(push_structure(&two, "RlDurR").unwrap(), interleaved);
        let corridor = Level::parse_one("######\n#@$ .#\n######\n").unwrap();
        let s = push_structure(&corridor, "RR").unwrap();
        assert_eq!(
            s,
            PushStructure {
                pushes: 2,
                box_lines: 1,
                box_changes: 1
            }
        );
        assert!(push_structure(&corridor, "L").is_err());
    }

    #[test]
    fn a_corridor_has_as_many_positions_as_box_cells() {
        // The box can stand on cells 2, 3 and 4 of the corridor (player behind it).
        let corridor = Level::parse_one("######\n#@$ .#\n######\n").unwrap();
        assert_eq!(count_positions(&corridor, 100).unwrap(), (3, true));
        assert_eq!(count_positions(&corridor, 2).unwrap(), (2, false));
    }
}
