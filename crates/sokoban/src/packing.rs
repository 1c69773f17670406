//! Goal packing order (see `docs/METHODS.md#sokoban-macros`; "goal-room packing order" as
//! far as it pays), for the
//! any-solution search: a retrograde analysis from the solved position removes, round by
//! round, every goal box that can be pulled off the goals with the other goal boxes standing;
//! goals removed in the last round must be filled first. The greedy search adds a penalty for
//! each box on a goal while some goal that should be filled before it is still empty, which
//! steers it away from blocking goal rooms (not admissible: never used by A*/IDA*).

use crate::board::{Board, CellSet, NONE};
use std::collections::VecDeque;

/// The packing rank of every goal (index as in [`Board::goal_list`]): 0 = fill first.
pub fn packing_ranks(board: &Board) -> Vec<u16> {
    let n = board.goal_list.len();
    let mut removed_in = vec![u16::MAX; n];
    let mut standing = board.goals.clone();
    let mut round = 0u16;
    let mut left = n;
    while left > 0 {
        let removable: Vec<usize> = (0..n)
            .filter(|&k| removed_in[k] == u16::MAX)
            .filter(|&k| can_pull_off(board, &standing, board.goal_list[k]))
            .collect();
        if removable.is_empty() {
            for r in removed_in.iter_mut().filter(|r| **r == u16::MAX) {
                *r = round;
            }
            break;
        }
        for &k in &removable {
            removed_in[k] = round;
            standing.remove(board.goal_list[k]);
        }
        left -= removable.len();
        round += 1;
    }
    let last = removed_in.iter().copied().max().unwrap_or(0);
    removed_in.iter().map(|&r| last - r).collect()
}

/// Can the box on goal `g` be pulled to a non-goal cell, the boxes in `standing` (other than
/// `g`) acting as walls? (Player access is not checked: an optimistic test.)
fn can_pull_off(board: &Board, standing: &CellSet, g: u16) -> bool {
    let blocked = |c: u16| c == NONE || (c != g && standing.contains(c));
    let mut seen = vec![false; board.cells()];
    let mut queue = VecDeque::from([g]);
    seen[g as usize] = true;
    while let Some(c) = queue.pop_front() {
        if !board.is_goal(c) {
            return true;
        }
        for d in 0..4 {
            let to = board.neighbors[c as usize][d];
            if blocked(to) || seen[to as usize] {
                continue;
            }
            if blocked(board.neighbors[to as usize][d]) {
                continue;
            }
            seen[to as usize] = true;
            queue.push_back(to);
        }
    }
    false
}

/// Boxes on goals whose packing rank is above that of some empty goal.
pub fn packing_violations(board: &Board, ranks: &[u16], boxes: &CellSet) -> u32 {
    let mut min_empty = u16::MAX;
    for (k, &g) in board.goal_list.iter().enumerate() {
        if !boxes.contains(g) {
            min_empty = min_empty.min(ranks[k]);
        }
    }
    if min_empty == u16::MAX {
        return 0;
    }
    board
        .goal_list
        .iter()
        .enumerate()
        .filter(|&(k, &g)| boxes.contains(g) && ranks[k] > min_empty)
        .count() as u32
}
