//! Hotspots (Shoham & Schaeffer 2020, §III-E, the advisors that find "boxes that stand in
//! other boxes' way to targets"; the definition follows the authors' longer write-up; see
//! `docs/METHODS.md#sokoban-fess`).
//!
//! A box on `y` is a hotspot for a box on `x` when turning `y` into a wall lowers the number
//! of goals a box on `x` can reach, the write-up's definition taken literally: a box on a goal
//! counts too, since it takes that goal from the others (leaving that case out solved 43
//! instead of 46 XSokoban screens at 10 s; docs/benchmarks/sokoban.md#fess). The table is
//! computed once per level for every pair of cells, on an otherwise empty board, with the
//! player's access relaxed to "the cell behind the box is floor" (one box-cell search per pair
//! instead of one over box cells and player sides). In a position, a box is a hotspot when it
//! is one for some box off its goal.

use crate::board::{Board, CellSet, NONE};
use crate::dir::Dir;

/// Levels with more cells than this get no hotspot table (its cost grows with the cube of
/// the cells); their hotspot counts are 0.
pub const MAX_HOTSPOT_CELLS: usize = 1024;

/// The words of a cell set of a level with a table.
const TABLE_WORDS: usize = MAX_HOTSPOT_CELLS.div_ceil(64);

/// The hotspot table of a level.
#[derive(Clone, Debug)]
pub struct Hotspots {
    /// `hot[x]`: the cells whose box is a hotspot for a box on `x` (empty without a table).
    hot: Vec<CellSet>,
}

/// Goals a box on `x` reaches by pushes, `wall` (or [`NONE`]) counting as a wall; the cells
/// the search used (box cells and the cells behind them) are added to `used` if given.
fn reachable_goals(
    board: &Board,
    x: u16,
    wall: u16,
    seen: &mut [bool],
    mut used: Option<&mut CellSet>,
) -> u32 {
    seen.fill(false);
    let mut stack = vec![x];
    seen[x as usize] = true;
    let mut goals = 0;
    while let Some(c) = stack.pop() {
        if board.is_goal(c) {
            goals += 1;
        }
        if let Some(u) = used.as_deref_mut() {
            u.insert(c);
        }
        for d in Dir::ALL {
            let to = board.step(c, d);
            let behind = board.step(c, d.opposite());
            if to == NONE || behind == NONE || to == wall || behind == wall || seen[to as usize] {
                continue;
            }
            if let Some(u) = used.as_deref_mut() {
                u.insert(behind);
            }
            seen[to as usize] = true;
            stack.push(to);
        }
    }
    goals
}

impl Hotspots {
    /// The table of `board` (see the module documentation).
    pub fn new(board: &Board) -> Hotspots {
        let n = board.cells();
        let mut hot = vec![CellSet::new(n); n];
        if n > MAX_HOTSPOT_CELLS {
            return Hotspots { hot };
        }
        let mut seen = vec![false; n];
        let mut used = CellSet::new(n);
        for x in 0..n as u16 {
            if board.is_dead(x) || board.is_goal(x) {
                continue;
            }
            used.clear();
            let base = reachable_goals(board, x, NONE, &mut seen, Some(&mut used));
            // Only a cell the search used can change its answer.
            for y in used.iter() {
                if y != x && reachable_goals(board, x, y, &mut seen, None) < base {
                    hot[x as usize].insert(y);
                }
            }
        }
        Hotspots { hot }
    }

    /// Is a box on `y` a hotspot for a box on `x`?
    pub fn is_hot(&self, x: u16, y: u16) -> bool {
        self.hot[x as usize].contains(y)
    }

    /// For each box of `boxes` (in cell order), how many boxes off their goals it is a
    /// hotspot for; written into `out`.
    pub fn blocked_counts(&self, board: &Board, boxes: &CellSet, out: &mut Vec<(u16, u32)>) {
        out.clear();
        for y in boxes.iter() {
            let k = boxes
                .iter()
                .filter(|&x| x != y && !board.is_goal(x) && self.is_hot(x, y))
                .count() as u32;
            out.push((y, k));
        }
    }

    /// The hotspot feature: boxes that are a hotspot for some box off its goal. The cells
    /// some box off its goal has as hotspots are gathered word by word, then met with the
    /// boxes (no cell is a hotspot for itself).
    pub fn count(&self, board: &Board, boxes: &CellSet) -> u32 {
        let words = boxes.words();
        if words.len() > TABLE_WORDS {
            // No table: no hotspots.
            return 0;
        }
        let mut blocking = [0u64; TABLE_WORDS];
        for x in boxes.iter().filter(|&x| !board.is_goal(x)) {
            for (acc, &h) in blocking.iter_mut().zip(self.hot[x as usize].words()) {
                *acc |= h;
            }
        }
        blocking
            .iter()
            .zip(words)
            .map(|(&a, &b)| (a & b).count_ones())
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fess::test_levels::{board, cell};

    #[test]
    fn a_box_in_a_corridor_blocks_the_boxes_behind_it() {
        // A corridor to the goals on the right: the box nearer the goals is a hotspot for the
        // one behind it, not the other way round.
        let b = board("#########\n#@ $ $ ..#\n#########\n");
        let h = Hotspots::new(&b);
        let (near, far) = (cell(&b, 5, 1), cell(&b, 3, 1));
        assert!(h.is_hot(far, near));
        assert!(!h.is_hot(near, far));
        assert_eq!(h.count(&b, &b.start_boxes), 1);
        let mut counts = Vec::new();
        h.blocked_counts(&b, &b.start_boxes, &mut counts);
        assert_eq!(counts, vec![(far, 0), (near, 1)]);
        // A box on either goal of the pocket takes a goal from the far box.
        let (mouth, deep) = (cell(&b, 7, 1), cell(&b, 8, 1));
        assert!(h.is_hot(far, mouth));
        assert!(h.is_hot(far, deep));
    }

    /// The word-wise count is the definition's pairwise one, on random box sets of a level
    /// with goal areas, corridors and pockets.
    #[test]
    fn the_count_is_the_pairwise_definition() {
        let b = board(
            "##########\n#@ $  #..#\n# $$ $ ..#\n#  # ## .#\n# $  $  .#\n##  #  ###\n #     #\n #######\n",
        );
        let h = Hotspots::new(&b);
        let floor: Vec<u16> = (0..b.cells() as u16)
            .filter(|&c| !b.is_dead(c) || b.is_goal(c))
            .collect();
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut with_hotspots = 0;
        for _ in 0..500 {
            let mut boxes = CellSet::new(b.cells());
            for &c in &floor {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                if state.is_multiple_of(3) {
                    boxes.insert(c);
                }
            }
            let pairwise = boxes
                .iter()
                .filter(|&y| {
                    boxes
                        .iter()
                        .any(|x| x != y && !b.is_goal(x) && h.is_hot(x, y))
                })
                .count() as u32;
            assert_eq!(h.count(&b, &boxes), pairwise);
            with_hotspots += usize::from(pairwise > 0);
        }
        assert!(with_hotspots > 100, "{with_hotspots} sets with hotspots");
    }

    #[test]
    fn boxes_in_an_open_room_are_no_hotspots() {
        let b = board("#######\n#     #\n# $ $ #\n#  @  #\n# . . #\n#######\n");
        let h = Hotspots::new(&b);
        assert_eq!(h.count(&b, &b.start_boxes), 0);
    }
}
