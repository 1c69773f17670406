//! Bipartite deadlocks with frozen boxes as walls (see `docs/METHODS.md#sokoban-bipartite`;
//! the "bipartite analysis" of Shoham & Schaeffer's FESS write-up, appendix).
//!
//! A box on a goal that can never move again (frozen, [`FreezeCheck::is_frozen`]) is a wall
//! for the rest of the game. With those walls, every other box must still reach a distinct
//! free goal by pushes. Each box's goals are found on a relaxed board (the other boxes
//! removed, the player anywhere), so a box→goal pair that fails there fails in the real
//! game too; if the boxes then have no perfect matching to the free goals, the position is
//! a deadlock. Typical catch: boxes packed too early that wall off a goal the remaining
//! boxes need.

use crate::board::{Board, CellSet, NONE};
use crate::deadlock::FreezeCheck;
use crate::dir::Dir;
use puzzle_engine::FxHashMap;

/// The most frozen-box sets whose goal tables [`FrozenMatching`] keeps before it empties
/// its cache.
const CACHE_LIMIT: usize = 4096;

/// For one set of frozen boxes: the free goals, and for each the cells from which a lone box
/// can be pushed onto it with the frozen boxes as walls (one [`CellSet`] per free goal).
#[derive(Debug)]
struct GoalTable {
    goals: Vec<u16>,
    from: Vec<CellSet>,
}

/// Scratch and cache for [`FrozenMatching::is_deadlock`].
#[derive(Debug, Default)]
pub struct FrozenMatching {
    freeze: FreezeCheck,
    frozen: Vec<u16>,
    tables: FxHashMap<u64, GoalTable>,
    queue: Vec<u16>,
    free_boxes: Vec<u16>,
    /// `goal_of[j]`: the box (index into `free_boxes`) matched to free goal `j`, or `usize::MAX`.
    goal_of: Vec<usize>,
    seen: Vec<bool>,
    /// Number of positions proved deadlocked (for statistics).
    pub proved: u64,
}

impl FrozenMatching {
    /// New scratch.
    pub fn new() -> FrozenMatching {
        FrozenMatching::default()
    }

    /// Is `boxes` a bipartite deadlock once the boxes frozen on goals are walls? (A frozen box
    /// off its goal is a freeze deadlock, left to [`FreezeCheck::is_deadlock`].)
    pub fn is_deadlock(&mut self, board: &Board, boxes: &CellSet) -> bool {
        self.frozen.clear();
        let mut key = 0u64;
        for &g in &board.goal_list {
            if boxes.contains(g) && self.freeze.is_frozen(board, boxes, g) {
                self.frozen.push(g);
                key ^= board.zobrist_box[g as usize];
            }
        }
        if !self.tables.contains_key(&key) {
            if self.tables.len() >= CACHE_LIMIT {
                self.tables.clear();
            }
            let table = self.goal_table(board);
            self.tables.insert(key, table);
        }
        let table = &self.tables[&key];
        self.free_boxes.clear();
        for b in boxes.iter() {
            if !self.frozen.contains(&b) {
                self.free_boxes.push(b);
            }
        }
        self.goal_of.clear();
        self.goal_of.resize(table.goals.len(), usize::MAX);
        for i in 0..self.free_boxes.len() {
            self.seen.clear();
            self.seen.resize(table.goals.len(), false);
            if !augment(
                i,
                &self.free_boxes,
                table,
                &mut self.goal_of,
                &mut self.seen,
            ) {
                self.proved += 1;
                return true;
            }
        }
        false
    }

    /// After a push onto `to`: when the box there is now frozen on a goal (how the set of
    /// frozen boxes grows), [`FrozenMatching::is_deadlock`]; otherwise false at once (the
    /// matching without frozen boxes is the lower bound's own test).
    pub fn is_deadlock_after_push(&mut self, board: &Board, boxes: &CellSet, to: u16) -> bool {
        board.is_goal(to)
            && self.freeze.is_frozen(board, boxes, to)
            && self.is_deadlock(board, boxes)
    }

    /// The goal table for the boxes in `self.frozen`: a pull search from each free goal.
    fn goal_table(&mut self, board: &Board) -> GoalTable {
        let n = board.cells();
        // Built only when a new set of frozen boxes needs its table (then cached).
        let mut frozen = CellSet::new(n);
        for &f in &self.frozen {
            frozen.insert(f);
        }
        let open = |c: u16| c != NONE && !frozen.contains(c);
        let mut goals = Vec::new();
        let mut from = Vec::new();
        for &g in &board.goal_list {
            if frozen.contains(g) {
                continue;
            }
            let mut reach = CellSet::new(n);
            reach.insert(g);
            self.queue.clear();
            self.queue.push(g);
            while let Some(x) = self.queue.pop() {
                // A box on `y` pushed towards `d` lands on `x`, the player standing behind it.
                for d in Dir::ALL {
                    let y = board.step(x, d.opposite());
                    if !open(y) || reach.contains(y) {
                        continue;
                    }
                    if open(board.step(y, d.opposite())) {
                        reach.insert(y);
                        self.queue.push(y);
                    }
                }
            }
            goals.push(g);
            from.push(reach);
        }
        GoalTable { goals, from }
    }
}

/// Kuhn's augmenting path from box `i` (an index into `boxes`): can it take a free goal,
/// moving other boxes to other goals?
fn augment(
    i: usize,
    boxes: &[u16],
    table: &GoalTable,
    goal_of: &mut [usize],
    seen: &mut [bool],
) -> bool {
    // A free goal the box reaches is taken before any path through a held one: the same
    // matching size, with fewer steps.
    for j in 0..table.goals.len() {
        if goal_of[j] == usize::MAX && !seen[j] && table.from[j].contains(boxes[i]) {
            goal_of[j] = i;
            return true;
        }
    }
    for j in 0..table.goals.len() {
        if seen[j] || !table.from[j].contains(boxes[i]) {
            continue;
        }
        seen[j] = true;
        if goal_of[j] == usize::MAX || augment(goal_of[j], boxes, table, goal_of, seen) {
            goal_of[j] = i;
            return true;
        }
    }
    false
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::level::Level;
    use crate::matching::LowerBound;
    use crate::position::Position;

    fn verdict(text: &str) -> (bool, bool) {
        let level = Level::parse_one(text).unwrap();
        let board = Board::new(&level).unwrap();
        let pos = Position::start(&board);
        let static_dead = LowerBound::new().compute(&board, &pos.boxes).is_none();
        (
            FrozenMatching::new().is_deadlock(&board, &pos.boxes),
            static_dead,
        )
    }

    #[test]
    fn goal_walled_off_by_frozen_boxes_is_a_deadlock() {
        // The two boxes on goals along the top wall freeze each other; the corner goal left
        // of them can then be filled only from below, with the player under the box, on a
        // wall. With the frozen boxes ignored every box still reaches a goal.
        let text = "######\n#.** #\n# $  #\n## @ #\n######\n";
        assert_eq!(verdict(text), (true, false));
    }

    #[test]
    fn goal_still_reachable_past_frozen_boxes_is_no_deadlock() {
        // The same, with room under the corner goal to push the last box up into it.
        let text = "######\n#.** #\n# $  #\n#  @ #\n######\n";
        assert_eq!(verdict(text), (false, false));
    }

    #[test]
    fn box_on_a_goal_that_can_still_move_is_no_wall() {
        // The box on the goal can be pushed left into the corner goal, freeing its own.
        let text = "######\n#.*  #\n# $  #\n## @ #\n######\n";
        assert_eq!(verdict(text), (false, false));
    }

    /// The largest matching of boxes to goals by breadth-first augmenting paths (a different
    /// algorithm from the one under test): `reach[i]` lists the goals box `i` may take.
    pub(crate) fn largest_matching(reach: &[Vec<usize>], goals: usize) -> usize {
        let mut goal_of = vec![usize::MAX; goals];
        let mut size = 0;
        for start in 0..reach.len() {
            // Breadth first over boxes; `via[j]` is the box that reached goal `j`.
            let mut via = vec![usize::MAX; goals];
            let mut queue = std::collections::VecDeque::from([start]);
            let mut end = None;
            'search: while let Some(i) = queue.pop_front() {
                for &j in &reach[i] {
                    if via[j] != usize::MAX {
                        continue;
                    }
                    via[j] = i;
                    if goal_of[j] == usize::MAX {
                        end = Some(j);
                        break 'search;
                    }
                    queue.push_back(goal_of[j]);
                }
            }
            let Some(mut j) = end else { continue };
            size += 1;
            loop {
                let i = via[j];
                let before = (0..goals).find(|&g| goal_of[g] == i);
                goal_of[j] = i;
                match before {
                    Some(g) if i != start => j = g,
                    _ => break,
                }
            }
        }
        size
    }

    /// Random positions on four XSokoban screens, half the boxes on goals (so that some
    /// freeze there): a deadlock exactly when the largest matching of the free boxes to the
    /// goals through the same table leaves a box over.
    #[test]
    fn the_verdict_is_that_of_a_largest_matching() {
        let mut rng = puzzle_engine::Rng::new(11);
        let (mut dead, mut live, mut with_frozen) = (0, 0, 0);
        for screen in [1, 5, 29, 50] {
            let board = crate::fess::test_levels::xsokoban(screen);
            let n = board.cells();
            let goals = board.goal_list.len();
            let floor: Vec<u16> = (0..n as u16).filter(|&c| !board.is_dead(c)).collect();
            let mut test = FrozenMatching::new();
            for _ in 0..300 {
                let mut boxes = CellSet::new(n);
                while boxes.iter().count() < goals {
                    let c = if rng.below(2) == 0 {
                        board.goal_list[rng.below(goals)]
                    } else {
                        floor[rng.below(floor.len())]
                    };
                    boxes.insert(c);
                }
                let verdict = test.is_deadlock(&board, &boxes);
                let key = test
                    .frozen
                    .iter()
                    .fold(0u64, |k, &g| k ^ board.zobrist_box[g as usize]);
                let table = &test.tables[&key];
                let reach: Vec<Vec<usize>> = test
                    .free_boxes
                    .iter()
                    .map(|&b| {
                        (0..table.goals.len())
                            .filter(|&j| table.from[j].contains(b))
                            .collect()
                    })
                    .collect();
                let expected = largest_matching(&reach, table.goals.len()) < reach.len();
                assert_eq!(verdict, expected, "screen {screen}");
                with_frozen += usize::from(!test.frozen.is_empty());
                if expected {
                    dead += 1;
                } else {
                    live += 1;
                }
            }
        }
        assert!(
            dead > 50 && live > 50 && with_frozen > 50,
            "{dead} dead, {live} live, {with_frozen} with frozen boxes"
        );
    }
}
