//! Playing a level step by step, as a person does in the workbench: moves that push when they
//! walk into a box, walking to a clicked cell, and the deadlocks of the current position (the
//! solver's own dead squares and freeze test). [`crate::replay`] runs on the same step rule.

use crate::board::{Board, CellSet, NONE};
use crate::deadlock::FreezeCheck;
use crate::dir::Dir;
use crate::level::Level;
use crate::lurd::{write_lurd, ReplayError};
use std::collections::VecDeque;

/// A level being played: its walls and goals, the current boxes and player, and the steps
/// taken (each with whether it pushed).
#[derive(Clone, Debug)]
pub struct Play {
    level: Level,
    boxes: Vec<bool>,
    player: usize,
    steps: Vec<(Dir, bool)>,
    pushes: usize,
}

/// The deadlocks of a position, as grid indices (`y * width + x`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Deadlocks {
    /// Floor cells from which a box can never reach a goal (independent of the position).
    pub dead_squares: Vec<usize>,
    /// Boxes frozen off a goal (they and the boxes holding them can never all reach goals).
    pub frozen_boxes: Vec<usize>,
}

impl Play {
    /// The level's start position.
    pub fn new(level: &Level) -> Play {
        Play {
            level: level.clone(),
            boxes: level.boxes.clone(),
            player: level.player,
            steps: Vec::new(),
            pushes: 0,
        }
    }

    /// The position after playing `lurd` from the start (lower case must not push, upper case
    /// must; whitespace is skipped).
    pub fn from_lurd(level: &Level, lurd: &str) -> Result<Play, ReplayError> {
        let mut play = Play::new(level);
        let lurd = lurd.strip_prefix(puzzle_engine::text::BOM).unwrap_or(lurd);
        for c in lurd.chars().filter(|c| !c.is_whitespace()) {
            let step = play.steps.len() + 1;
            let Some((dir, push)) = Dir::from_letter(c) else {
                return Err(ReplayError::UnknownLetter { step, letter: c });
            };
            play.apply(dir, Some(push), step)?;
        }
        Ok(play)
    }

    /// One step in `dir`: `Some(push)` insists on a move or a push (LURD's case), `None` pushes
    /// exactly when a box is in the way.
    fn apply(&mut self, dir: Dir, push: Option<bool>, step: usize) -> Result<(), ReplayError> {
        let (w, h) = (self.level.width, self.level.height);
        let next = match dir.step(self.player, w, h) {
            Some(n) if !self.level.walls[n] => n,
            _ => return Err(ReplayError::IntoWall { step }),
        };
        let pushed = self.boxes[next];
        if pushed {
            if push == Some(false) {
                return Err(ReplayError::MoveWouldPush { step });
            }
            let beyond = match dir.step(next, w, h) {
                Some(b) if !self.level.walls[b] && !self.boxes[b] => b,
                _ => return Err(ReplayError::BoxBlocked { step }),
            };
            self.boxes[next] = false;
            self.boxes[beyond] = true;
            self.pushes += 1;
        } else if push == Some(true) {
            return Err(ReplayError::PushWithoutBox { step });
        }
        self.player = next;
        self.steps.push((dir, pushed));
        Ok(())
    }

    /// Step in `dir`, pushing a box in the way; `false` (and nothing changes) when the step is
    /// into a wall or the box is blocked.
    pub fn step(&mut self, dir: Dir) -> bool {
        let n = self.steps.len() + 1;
        self.apply(dir, None, n).is_ok()
    }

    /// Walk to grid cell `target` along a shortest path that pushes nothing; `false` (and
    /// nothing changes) when there is none. Walking to where the player stands is a no-op.
    pub fn walk_to(&mut self, target: usize) -> bool {
        let (w, h) = (self.level.width, self.level.height);
        if target >= w * h || self.level.walls[target] || self.boxes[target] {
            return false;
        }
        let mut came_from: Vec<Option<Dir>> = vec![None; w * h];
        let mut seen = vec![false; w * h];
        seen[self.player] = true;
        let mut queue = VecDeque::from([self.player]);
        while let Some(c) = queue.pop_front() {
            if c == target {
                break;
            }
            for d in Dir::ALL {
                if let Some(n) = d.step(c, w, h) {
                    if !seen[n] && !self.level.walls[n] && !self.boxes[n] {
                        seen[n] = true;
                        came_from[n] = Some(d);
                        queue.push_back(n);
                    }
                }
            }
        }
        if !seen[target] {
            return false;
        }
        let mut path = Vec::new();
        let mut c = target;
        while let Some(d) = came_from[c] {
            path.push(d);
            c = d.opposite().step(c, w, h).unwrap_or(c);
        }
        for d in path.into_iter().rev() {
            let n = self.steps.len() + 1;
            if self.apply(d, Some(false), n).is_err() {
                return false;
            }
        }
        true
    }

    /// Push the box on grid cell `from` to grid cell `to` with the fewest pushes (the other
    /// boxes stay where they are), walking the player between pushes along shortest paths;
    /// `false` (and nothing changes) when `from` holds no box or no push path leads to `to`.
    /// What a player does by clicking a box, then its target square.
    pub fn push_box_to(&mut self, from: usize, to: usize) -> bool {
        let cells = self.level.width * self.level.height;
        if from >= cells || to >= cells || !self.boxes[from] || self.level.walls[to] {
            return false;
        }
        if from == to {
            return true;
        }
        if self.boxes[to] {
            return false;
        }
        let Some(pushes) = self.push_path(from, to) else {
            return false;
        };
        let before = self.clone();
        let (w, h) = (self.level.width, self.level.height);
        let mut pushed = from;
        for dir in pushes {
            let behind = dir.opposite().step(pushed, w, h);
            let n = self.steps.len() + 1;
            let ok =
                behind.is_some_and(|b| self.walk_to(b)) && self.apply(dir, Some(true), n).is_ok();
            if !ok {
                *self = before;
                return false;
            }
            pushed = dir.step(pushed, w, h).unwrap_or(pushed);
        }
        true
    }

    /// The directions of the fewest pushes taking the box on `from` to `to`, the other boxes
    /// fixed: a breadth-first search over (box cell, player cell next to it), each state's
    /// player area flooded with the box in it.
    fn push_path(&self, from: usize, to: usize) -> Option<Vec<Dir>> {
        let (w, h) = (self.level.width, self.level.height);
        let walls = &self.level.walls;
        let free = |c: usize, moved: usize| !walls[c] && (c == moved || !self.boxes[c]);
        // A state: the box on `b`, the player on the cell `side` of it (an index into Dir::ALL
        // of the direction from the box to the player), or the start (player anywhere).
        let state = |b: usize, side: usize| b * 4 + side;
        // The cells the player reaches with the box on `b` (`from`'s box moved there).
        let flood = |b: usize, start: usize| -> Vec<bool> {
            let mut reach = vec![false; w * h];
            let mut stack = vec![start];
            reach[start] = true;
            while let Some(c) = stack.pop() {
                for d in Dir::ALL {
                    if let Some(n) = d.step(c, w, h) {
                        if !reach[n] && n != b && free(n, from) {
                            reach[n] = true;
                            stack.push(n);
                        }
                    }
                }
            }
            reach
        };
        let pushes_from = |b: usize, reach: &[bool]| -> Vec<(Dir, usize)> {
            Dir::ALL
                .into_iter()
                .filter_map(|d| {
                    let behind = d.opposite().step(b, w, h)?;
                    let ahead = d.step(b, w, h)?;
                    (reach[behind] && free(ahead, from) && ahead != b).then_some((d, ahead))
                })
                .collect()
        };
        let side_of = |d: Dir| {
            Dir::ALL
                .iter()
                .position(|&x| x == d.opposite())
                .unwrap_or(0)
        };
        // `parent[s]`: the state before the push into `s` (`None` for the start) and its
        // direction.
        let mut parent: Vec<Option<(Option<usize>, Dir)>> = vec![None; w * h * 4];
        let mut queue = VecDeque::new();
        let mut enqueue = |b: usize, d: Dir, prev: Option<usize>, queue: &mut VecDeque<_>| {
            let s = state(b, side_of(d));
            if parent[s].is_none() {
                parent[s] = Some((prev, d));
                queue.push_back((b, d, s));
            }
        };
        let start_reach = flood(from, self.player);
        for (d, ahead) in pushes_from(from, &start_reach) {
            enqueue(ahead, d, None, &mut queue);
        }
        while let Some((b, d, s)) = queue.pop_front() {
            if b == to {
                let mut path = Vec::new();
                let mut at = Some(s);
                while let Some(Some((prev, dir))) = at.map(|a| parent[a]) {
                    path.push(dir);
                    at = prev;
                }
                path.reverse();
                return Some(path);
            }
            // The player stands where the box was, on the side opposite `d`'s push.
            let player = d.opposite().step(b, w, h)?;
            let reach = flood(b, player);
            for (nd, ahead) in pushes_from(b, &reach) {
                enqueue(ahead, nd, Some(s), &mut queue);
            }
        }
        None
    }

    /// The steps so far as LURD (upper case = push).
    pub fn lurd(&self) -> String {
        write_lurd(&self.steps)
    }

    /// Steps taken.
    pub fn moves(&self) -> usize {
        self.steps.len()
    }

    /// Steps that pushed.
    pub fn pushes(&self) -> usize {
        self.pushes
    }

    /// The player's grid cell.
    pub fn player(&self) -> usize {
        self.player
    }

    /// `boxes()[i]`: a box stands on grid cell `i`.
    pub fn boxes(&self) -> &[bool] {
        &self.boxes
    }

    /// The level being played (its start position).
    pub fn level(&self) -> &Level {
        &self.level
    }

    /// Every box is on a goal.
    pub fn is_solved(&self) -> bool {
        self.boxes
            .iter()
            .zip(&self.level.goals)
            .all(|(&b, &g)| !b || g)
    }

    /// The current position as a level of its own (start = here), e.g. to solve from it.
    pub fn position(&self) -> Level {
        Level {
            boxes: self.boxes.clone(),
            player: self.player,
            ..self.level.clone()
        }
    }

    /// Dead squares and frozen boxes, from the solver's own tables ([`Board::dead`],
    /// [`FreezeCheck`]). Empty when the level is too large for the solver.
    pub fn deadlocks(&self) -> Deadlocks {
        let Some(mut test) = DeadlockTest::new(&self.level) else {
            return Deadlocks::default();
        };
        let boxes = self
            .boxes
            .iter()
            .enumerate()
            .filter(|(_, &b)| b)
            .map(|(i, _)| i);
        Deadlocks {
            dead_squares: test.dead_squares().collect(),
            frozen_boxes: test.frozen_boxes(boxes),
        }
    }
}

/// The solver's deadlock tables of one level ([`Board::dead`], [`FreezeCheck`]), built once and
/// asked of many positions of that level (a learning environment asks after every push).
#[derive(Clone, Debug)]
pub struct DeadlockTest {
    board: Board,
    check: FreezeCheck,
    boxes: CellSet,
}

impl DeadlockTest {
    /// The tables of `level`'s walls and goals; `None` when the level is too large for the
    /// solver's board.
    pub fn new(level: &Level) -> Option<DeadlockTest> {
        let board = Board::new(level).ok()?;
        let boxes = CellSet::new(board.cells());
        Some(DeadlockTest {
            board,
            check: FreezeCheck::new(),
            boxes,
        })
    }

    /// The dead squares as grid indices: floor cells from which a box can never reach a goal.
    pub fn dead_squares(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.board.cells())
            .filter(|&c| self.board.dead[c])
            .map(|c| self.board.grid_of[c])
    }

    /// A box on grid cell `i` can never reach a goal from there.
    pub fn is_dead_square(&self, i: usize) -> bool {
        let c = self.board.cell_of.get(i).copied().unwrap_or(NONE);
        c != NONE && self.board.dead[c as usize]
    }

    /// The boxes (grid indices) of the position with boxes on `boxes` (grid indices) that are
    /// frozen off a goal.
    pub fn frozen_boxes(&mut self, boxes: impl IntoIterator<Item = usize>) -> Vec<usize> {
        self.boxes.clear();
        for i in boxes {
            if let Some(&c) = self.board.cell_of.get(i) {
                if c != NONE {
                    self.boxes.insert(c);
                }
            }
        }
        let (board, check) = (&self.board, &mut self.check);
        self.boxes
            .iter()
            .filter(|&c| !board.is_goal(c) && check.is_deadlock(board, &self.boxes, c))
            .map(|c| board.grid_of[c as usize])
            .collect()
    }

    /// The position with boxes on `boxes` (grid indices) can never be solved, by these tables:
    /// a box off a goal on a dead square, or boxes frozen off goals.
    pub fn is_deadlocked(&mut self, boxes: impl IntoIterator<Item = usize> + Clone) -> bool {
        boxes.clone().into_iter().any(|i| self.is_dead_square(i))
            || !self.frozen_boxes(boxes).is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_xsb;

    const CORNER: &str = "#####\n#@$.#\n#   #\n#####\n";

    #[test]
    fn step_pushes_a_box_and_solves() {
        let level = &parse_xsb(CORNER).unwrap()[0];
        let mut play = Play::new(level);
        assert!(!play.step(Dir::Up), "into a wall");
        assert!(play.step(Dir::Right));
        assert_eq!(play.lurd(), "R");
        assert!(play.is_solved());
        assert_eq!((play.moves(), play.pushes()), (1, 1));
        assert!(crate::replay(level, &play.lurd()).unwrap().solved);
    }

    #[test]
    fn blocked_push_changes_nothing() {
        let level = &parse_xsb("######\n#@$$.#\n#  . #\n######\n").unwrap()[0];
        let mut play = Play::new(level);
        assert!(!play.step(Dir::Right));
        assert_eq!(play.moves(), 0);
    }

    #[test]
    fn walk_to_takes_a_shortest_path_around_boxes() {
        let level = &parse_xsb("######\n#@$ .#\n#    #\n######\n").unwrap()[0];
        let mut play = Play::new(level);
        let target = level.index(3, 1);
        assert!(play.walk_to(target));
        assert_eq!(play.player(), target);
        assert_eq!(play.moves(), 4, "down, right, right, up");
        assert_eq!(play.pushes(), 0);
        assert!(!play.walk_to(level.index(0, 0)), "a wall");
        assert!(!play.walk_to(level.index(2, 1)), "a box");
    }

    #[test]
    fn from_lurd_agrees_with_replay_and_rejects_what_replay_rejects() {
        let level = &parse_xsb(CORNER).unwrap()[0];
        assert!(
            Play::from_lurd(level, "r").is_err(),
            "a move that would push"
        );
        assert!(Play::from_lurd(level, "D").is_err(), "a push without a box");
        let play = Play::from_lurd(level, "dr").unwrap();
        assert_eq!(play.player(), level.index(2, 2));
    }

    #[test]
    fn deadlocks_mark_corners_and_frozen_boxes() {
        // The box in the top-left corner is frozen off its goal.
        let level = &parse_xsb("#####\n#$  #\n# @.#\n#####\n").unwrap()[0];
        let d = Play::new(level).deadlocks();
        assert!(d.dead_squares.contains(&level.index(1, 1)));
        assert!(
            !d.dead_squares.contains(&level.index(3, 2)),
            "a goal is never dead"
        );
        assert_eq!(d.frozen_boxes, vec![level.index(1, 1)]);
    }

    #[test]
    fn a_box_is_pushed_to_a_clicked_square_with_the_fewest_pushes() {
        // Two pushes left and two down, the player walking round the box between them.
        let xsb = "#######\n#     #\n# @$  #\n#     #\n#.    #\n#######\n";
        let level = &parse_xsb(xsb).unwrap()[0];
        let mut play = Play::new(level);
        assert!(play.push_box_to(level.index(3, 2), level.index(1, 4)));
        assert!(play.is_solved());
        assert_eq!(play.pushes(), 4, "{}", play.lurd());
        // A box against the top wall never leaves its row.
        let mut top = Play::new(&parse_xsb("######\n#@$  #\n#   .#\n######\n").unwrap()[0]);
        let top_level = top.level().clone();
        assert!(!top.push_box_to(top_level.index(2, 1), top_level.index(2, 2)));
        // The LURD replays to the same position.
        let again = Play::from_lurd(level, &play.lurd()).unwrap();
        assert_eq!(again.boxes(), play.boxes());
        assert_eq!(again.player(), play.player());
    }

    #[test]
    fn an_impossible_box_push_changes_nothing() {
        let level = &parse_xsb("######\n#@$ .#\n######\n").unwrap()[0];
        let mut play = Play::new(level);
        // Along a corridor a box only goes right; the cell left of it is the player's.
        assert!(!play.push_box_to(level.index(2, 1), level.index(1, 1)));
        assert!(
            !play.push_box_to(level.index(3, 1), level.index(4, 1)),
            "no box there"
        );
        assert!(
            !play.push_box_to(level.index(2, 1), level.index(0, 1)),
            "a wall"
        );
        assert_eq!(play.moves(), 0);
        assert!(play.push_box_to(level.index(2, 1), level.index(4, 1)));
        assert_eq!(play.lurd(), "RR");
    }
}
