//! A position as one byte per grid cell, stepped in place: the representation of batched
//! environments (many boards stepped per call, each observation written from these bytes).
//!
//! The step rule is [`Play`](crate::Play)'s (a step into a box pushes it when the cell beyond
//! is free floor); the property test below checks the two agree on random walks. Besides it,
//! [`CellBoard::step`] can forbid pushing, for gym-sokoban's move-only actions.

use crate::dir::Dir;
use crate::level::Level;

/// Flag of a wall cell in [`CellBoard::cells`].
pub const WALL: u8 = 1;
/// Flag of a goal cell.
pub const GOAL: u8 = 2;
/// Flag of a cell holding a box.
pub const BOX: u8 = 4;
/// Flag of the player's cell.
pub const PLAYER: u8 = 8;

/// A Sokoban position: `width` × `height` cells row-major, each a set of the flags [`WALL`],
/// [`GOAL`], [`BOX`] and [`PLAYER`], plus the player's cell and the count of boxes on goals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellBoard {
    width: usize,
    height: usize,
    cells: Vec<u8>,
    player: usize,
    box_count: u32,
    boxes_on_goals: u32,
}

/// What one [`CellBoard::step`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CellStep {
    /// The player moved (it did not walk into a wall or a blocked box).
    pub moved: bool,
    /// A box was pushed.
    pub pushed: bool,
    /// Change in the number of boxes on goals: −1, 0 or +1.
    pub goal_change: i8,
    /// The cells whose flags changed: `changed[..changed_count]` (the player's old and new cell,
    /// and the cell a pushed box went to).
    pub changed: [usize; 3],
    /// How many entries of `changed` are meaningful.
    pub changed_count: u8,
}

impl CellBoard {
    /// The start position of `level`.
    pub fn new(level: &Level) -> CellBoard {
        let cells: Vec<u8> = (0..level.width * level.height)
            .map(|i| {
                let mut c = 0;
                if level.walls[i] {
                    c |= WALL;
                }
                if level.goals[i] {
                    c |= GOAL;
                }
                if level.boxes[i] {
                    c |= BOX;
                }
                if i == level.player {
                    c |= PLAYER;
                }
                c
            })
            .collect();
        let box_count = cells.iter().filter(|&&c| c & BOX != 0).count() as u32;
        let boxes_on_goals = cells
            .iter()
            .filter(|&&c| c & (BOX | GOAL) == BOX | GOAL)
            .count() as u32;
        CellBoard {
            width: level.width,
            height: level.height,
            cells,
            player: level.player,
            box_count,
            boxes_on_goals,
        }
    }

    /// One step in `dir`: into free floor it moves; into a box it pushes when `may_push` and
    /// the cell beyond is floor without a box; otherwise nothing changes (`moved` is false).
    #[inline]
    pub fn step(&mut self, dir: Dir, may_push: bool) -> CellStep {
        let (w, h) = (self.width, self.height);
        let from = self.player;
        let Some(next) = dir.step(from, w, h) else {
            return CellStep::default();
        };
        let at_next = self.cells[next];
        if at_next & WALL != 0 {
            return CellStep::default();
        }
        let mut step = CellStep {
            moved: true,
            changed: [from, next, next],
            changed_count: 2,
            ..CellStep::default()
        };
        if at_next & BOX != 0 {
            if !may_push {
                return CellStep::default();
            }
            let Some(beyond) = dir.step(next, w, h) else {
                return CellStep::default();
            };
            let at_beyond = self.cells[beyond];
            if at_beyond & (WALL | BOX) != 0 {
                return CellStep::default();
            }
            self.cells[next] &= !BOX;
            self.cells[beyond] |= BOX;
            step.goal_change = i8::from(at_beyond & GOAL != 0) - i8::from(at_next & GOAL != 0);
            self.boxes_on_goals = self
                .boxes_on_goals
                .wrapping_add_signed(step.goal_change.into());
            step.pushed = true;
            step.changed[2] = beyond;
            step.changed_count = 3;
        }
        self.cells[from] &= !PLAYER;
        self.cells[next] |= PLAYER;
        self.player = next;
        step
    }

    /// The flags of every cell, row-major.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The player's cell (`y * width + x`).
    pub fn player(&self) -> usize {
        self.player
    }

    /// Number of boxes.
    pub fn box_count(&self) -> u32 {
        self.box_count
    }

    /// Boxes standing on goals.
    pub fn boxes_on_goals(&self) -> u32 {
        self.boxes_on_goals
    }

    /// Every box is on a goal.
    pub fn is_solved(&self) -> bool {
        self.boxes_on_goals == self.box_count
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{parse_xsb, Play};
    use proptest::prelude::*;

    const LEVEL: &str = "\
#######
#.  $ #
# $@. #
#  $  #
# .   #
#######
";

    #[test]
    fn push_onto_and_off_a_goal_counts_boxes_on_goals() {
        let level = &parse_xsb("######\n#@$. #\n######\n").unwrap()[0];
        let mut board = CellBoard::new(level);
        assert_eq!((board.box_count(), board.boxes_on_goals()), (1, 0));
        let step = board.step(Dir::Right, true);
        assert!(step.moved && step.pushed);
        assert_eq!(step.goal_change, 1);
        assert!(board.is_solved());
        let step = board.step(Dir::Right, true);
        assert_eq!(step.goal_change, -1);
        assert_eq!(board.boxes_on_goals(), 0);
        assert!(!board.step(Dir::Right, true).moved, "box against the wall");
    }

    #[test]
    fn move_only_steps_never_push() {
        let level = &parse_xsb("######\n#@$. #\n######\n").unwrap()[0];
        let mut board = CellBoard::new(level);
        let before = board.clone();
        assert!(!board.step(Dir::Right, false).moved);
        assert_eq!(board, before);
    }

    proptest! {
        /// The fast board and `Play` agree on every step of a random walk.
        #[test]
        fn agrees_with_play(dirs in proptest::collection::vec(0usize..4, 0..200)) {
            let level = &parse_xsb(LEVEL).unwrap()[0];
            let mut board = CellBoard::new(level);
            let mut play = Play::new(level);
            for d in dirs {
                let dir = Dir::ALL[d];
                let moved = play.step(dir);
                let step = board.step(dir, true);
                prop_assert_eq!(step.moved, moved);
                prop_assert_eq!(board.player(), play.player());
                for (i, &b) in play.boxes().iter().enumerate() {
                    prop_assert_eq!(board.cells()[i] & BOX != 0, b);
                    prop_assert_eq!(board.cells()[i] & PLAYER != 0, i == play.player());
                }
                prop_assert_eq!(board.is_solved(), play.is_solved());
            }
        }
    }
}
