//! Feature cells for the any-solution search's feature-space cycling, after FESS (Shoham &
//! Schaeffer 2020, §3–4): a position is summarised by a few coarse features, and the search
//! takes turns among the cells of that feature space instead of following one priority.
//!
//! The features here are cheap stand-ins for FESS's four:
//! - *packing*: boxes on goals, and goal boxes filled out of the packing order
//!   ([`crate::packing`]);
//! - *connectivity*: the number of free-floor areas ([`crate::position::count_regions`]);
//! - *room connectivity*: boxes standing in doorways, the cells whose removal splits the
//!   empty floor ([`door_cells`]), where a box cuts one room off another.

use crate::board::{Board, CellSet, NONE};

/// The cells whose removal disconnects the empty floor (the articulation cells of the floor
/// graph, found by one flood per cell: levels have at most a few hundred cells). A box on such
/// a cell separates the floor on either side of it, as a box in a door separates two rooms.
pub fn door_cells(board: &Board) -> CellSet {
    let n = board.cells();
    let mut doors = CellSet::new(n);
    let mut seen = vec![usize::MAX; n];
    let mut stack = Vec::new();
    for c in 0..n {
        let Some(&start) = board.neighbors[c].iter().find(|&&x| x != NONE) else {
            continue;
        };
        seen[c] = c;
        seen[start as usize] = c;
        stack.clear();
        stack.push(start);
        let mut count = 1;
        while let Some(x) = stack.pop() {
            for &y in &board.neighbors[x as usize] {
                if y != NONE && seen[y as usize] != c {
                    seen[y as usize] = c;
                    count += 1;
                    stack.push(y);
                }
            }
        }
        if count + 1 < n {
            doors.insert(c as u16);
        }
    }
    doors
}

/// The coarse features of a position that name its cell in the feature space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Boxes on goals.
    pub on_goals: u32,
    /// Connected areas of free floor.
    pub regions: u32,
    /// Goal boxes filled out of packing order ([`crate::packing::packing_violations`]).
    pub out_of_order: u32,
    /// Boxes on door cells ([`door_cells`]).
    pub in_doors: u32,
}

impl Features {
    /// The cell's key: the features packed into one integer, each capped to its field
    /// (regions and goal boxes to 255, the others to 31).
    pub fn cell(self) -> u32 {
        self.regions.min(255)
            | self.on_goals.min(255) << 8
            | self.out_of_order.min(31) << 16
            | self.in_doors.min(31) << 21
    }
}

/// Boxes of `boxes` standing on `doors`.
pub fn boxes_in_doors(boxes: &CellSet, doors: &CellSet) -> u32 {
    boxes
        .words()
        .iter()
        .zip(doors.words())
        .map(|(a, b)| (a & b).count_ones())
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;

    fn board(text: &str) -> Board {
        Board::new(&Level::parse_one(text).expect("level")).expect("board")
    }

    #[test]
    fn doors_are_the_cells_that_split_the_floor() {
        // Two 2×2 rooms joined through row 2, column 3.
        let b = board("#######\n#  #  #\n#@ $ .#\n#######\n");
        let doors = door_cells(&b);
        let door_grid: Vec<usize> = doors.iter().map(|c| b.grid_of[c as usize]).collect();
        // The joining cell and the room cells beside it on row 2 (each is the only way
        // between its room's other cells and the far room); the four row-1 cells and the
        // two outer row-2 cells leave the rest connected.
        let w = b.width;
        assert_eq!(door_grid, vec![2 * w + 2, 2 * w + 3, 2 * w + 4]);
    }

    #[test]
    fn an_open_room_has_no_doors() {
        let b = board("#####\n#@  #\n# $ #\n#  .#\n#####\n");
        assert_eq!(door_cells(&b).iter().count(), 0);
    }

    #[test]
    fn a_corridor_is_all_doors_but_its_ends() {
        let b = board("#######\n#@$  .#\n#######\n");
        // Cells 1..=5 of row 1: the three inner ones split it, the two ends do not.
        let doors: Vec<usize> = door_cells(&b)
            .iter()
            .map(|c| b.grid_of[c as usize] - b.width)
            .collect();
        assert_eq!(doors, vec![2, 3, 4]);
    }

    #[test]
    fn cells_differ_when_any_feature_differs() {
        let base = Features {
            on_goals: 3,
            regions: 2,
            out_of_order: 1,
            in_doors: 0,
        };
        let variants = [
            Features {
                on_goals: 4,
                ..base
            },
            Features { regions: 3, ..base },
            Features {
                out_of_order: 0,
                ..base
            },
            Features {
                in_doors: 1,
                ..base
            },
        ];
        for v in variants {
            assert_ne!(v.cell(), base.cell(), "{v:?}");
        }
    }

    #[test]
    fn boxes_in_doors_counts_the_boxes_on_door_cells() {
        // A corridor: its four inner cells are doors; both boxes stand on one.
        let b = board("########\n#@$ $..#\n########\n");
        let doors = door_cells(&b);
        assert_eq!(doors.iter().count(), 4);
        assert_eq!(boxes_in_doors(&b.start_boxes, &doors), 2);
        let mut solved = CellSet::new(b.cells());
        for &g in &b.goal_list {
            solved.insert(g);
        }
        // The goals are the corridor's last inner cell and its end: one box in a door.
        assert_eq!(boxes_in_doors(&solved, &doors), 1);
    }
}
