//! Dynamic deadlocks (SPEC §F): freeze deadlocks — a box blocked on both axes by walls, by
//! dead squares on both sides, or by other boxes that are themselves frozen (checked
//! recursively, a box under test counting as a wall) — and the closed 2×2 block, which the
//! freeze test covers. Static dead squares are in [`crate::board::Board::dead`].

use crate::board::{Board, CellSet, NONE};
use crate::lurd::Dir;

/// Scratch for [`FreezeCheck::is_deadlock`]: the boxes under test (treated as walls).
#[derive(Clone, Debug, Default)]
pub struct FreezeCheck {
    as_wall: Vec<u16>,
}

impl FreezeCheck {
    /// New scratch.
    pub fn new() -> Self {
        FreezeCheck::default()
    }

    /// After a box arrived on `cell`: is it frozen together with some box off its goal?
    /// A frozen box on a goal with all boxes it freezes with on goals is not a deadlock.
    pub fn is_deadlock(&mut self, board: &Board, boxes: &CellSet, cell: u16) -> bool {
        self.as_wall.clear();
        let mut off_goal = false;
        let frozen = self.frozen(board, boxes, cell, &mut off_goal);
        frozen && off_goal
    }

    fn is_wall(&self, c: u16) -> bool {
        c == NONE || self.as_wall.contains(&c)
    }

    /// Is the box on `c` frozen (cannot move on either axis), assuming the boxes already under
    /// test are walls? Sets `off_goal` when a box found frozen is not on a goal. A box found
    /// not frozen stops counting as a wall (with everything tested under its assumption).
    fn frozen(&mut self, board: &Board, boxes: &CellSet, c: u16, off_goal: &mut bool) -> bool {
        let mark = self.as_wall.len();
        self.as_wall.push(c);
        let mut sub_off_goal = !board.is_goal(c);
        let mut blocked = [false; 2];
        for (axis, (a, b)) in [(Dir::Left, Dir::Right), (Dir::Up, Dir::Down)]
            .into_iter()
            .enumerate()
        {
            let (na, nb) = (board.step(c, a), board.step(c, b));
            blocked[axis] = self.is_wall(na)
                || self.is_wall(nb)
                || (board.is_dead(na) && board.is_dead(nb))
                || (boxes.contains(na) && self.frozen(board, boxes, na, &mut sub_off_goal))
                || (boxes.contains(nb) && self.frozen(board, boxes, nb, &mut sub_off_goal));
            if !blocked[axis] {
                break;
            }
        }
        let frozen = blocked[0] && blocked[1];
        if frozen {
            *off_goal |= sub_off_goal;
        } else {
            self.as_wall.truncate(mark);
        }
        frozen
    }
}
