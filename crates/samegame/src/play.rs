//! Playing a board move by move, as a person does in the workbench: replaying the moves so far
//! (columns from the left, rows from the TOP, as the CLI's JSON moves `{"col", "row"}`), every
//! group still removable with its stones and points (for the hover highlight), and the end of
//! the game with the scoring's bonus or penalty. The page asks for these; it computes nothing.

use crate::board::{Board, Scratch};
use std::fmt;

/// A cell as `(column from the left, row from the top)`, both 0-based.
pub type TopCell = (usize, usize);

/// A group that can be removed now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RemovableGroup {
    /// Its stones, `(column, row from the top)`, in scan order (columns left to right, each
    /// bottom-up); the first one names the group as a move.
    pub cells: Vec<TopCell>,
    /// Its colour (1-based).
    pub colour: u8,
    /// The points its removal earns under the board's scoring.
    pub points: i64,
}

/// Why a list of moves does not replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayError {
    /// The 1-based number of the move that failed.
    pub step: usize,
    /// The cell it named.
    pub cell: TopCell,
    /// The cell is outside the board (rather than a lone stone or an empty cell).
    pub outside: bool,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (col, row) = self.cell;
        if self.outside {
            write!(
                f,
                "move {} (column {col}, row {row}) is outside the board",
                self.step
            )
        } else {
            write!(
                f,
                "move {} (column {col}, row {row}) does not name a removable group \
                 (an empty cell or a lone stone)",
                self.step
            )
        }
    }
}

impl std::error::Error for PlayError {}

/// The board after playing `moves` (top-based cells) from `start`, or the first move that is
/// not legal.
///
/// ```
/// use puzzle_samegame::{play, Board, Scoring};
/// // Top row first: R R G / R G G (colours 1 = R, 2 = G).
/// let b = Board::from_rows(&[vec![1, 1, 2], vec![1, 2, 2]], 2, Scoring::standard()).unwrap();
/// let after = play::replay(&b, &[(0, 0)]).unwrap();
/// assert_eq!(after.points(), 1); // three Rs: (3 - 2)^2
/// assert!(play::replay(&b, &[(0, 0), (0, 0)]).is_err()); // (0, 0) is empty now
/// ```
pub fn replay(start: &Board, moves: &[TopCell]) -> Result<Board, PlayError> {
    let mut board = start.clone();
    let mut scratch = Scratch::new();
    for (i, &(col, row)) in moves.iter().enumerate() {
        let error = |outside| PlayError {
            step: i + 1,
            cell: (col, row),
            outside,
        };
        let mv = board.move_from_top(col, row).ok_or_else(|| error(true))?;
        board
            .try_play(mv, &mut scratch)
            .ok_or_else(|| error(false))?;
    }
    Ok(board)
}

/// Every group removable on `board`, in scan order, with its stones and points.
pub fn removable_groups(board: &Board) -> Vec<RemovableGroup> {
    let mut scratch = Scratch::new();
    board.find_groups(&mut scratch);
    let groups = scratch.groups.clone();
    groups
        .iter()
        .map(|g| {
            let mv = board.move_of(g.cell);
            let cells = board
                .group_cells(mv, &mut scratch)
                .expect("a found group is a legal move");
            RemovableGroup {
                cells: cells
                    .iter()
                    .map(|m| (m.col as usize, board.top_row(m.row as usize)))
                    .collect(),
                colour: g.colour,
                points: board.scoring().group_points(g.size as usize),
            }
        })
        .collect()
}

/// How a finished game ends: the end adjustment (the clear bonus, or minus the scoring's
/// penalty for the stones left) and the final score; `None` while a group is left.
pub fn ending(board: &Board) -> Option<(i64, i64)> {
    if board.has_move() {
        return None;
    }
    let adjustment = board.scoring().end_adjustment(board.counts());
    Some((adjustment, board.points() + adjustment))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Penalty, Scoring};

    /// Top row first:
    /// ```text
    /// R G G
    /// R R B
    /// B R G
    /// ```
    fn small(scoring: Scoring) -> Board {
        Board::from_rows(&[vec![1, 2, 2], vec![1, 1, 3], vec![3, 1, 2]], 3, scoring).unwrap()
    }

    #[test]
    fn groups_list_their_stones_top_based_and_their_points() {
        let b = small(Scoring::standard());
        let groups = removable_groups(&b);
        assert_eq!(groups.len(), 2);
        let reds = groups.iter().find(|g| g.colour == 1).unwrap();
        let mut cells = reds.cells.clone();
        cells.sort();
        assert_eq!(cells, vec![(0, 0), (0, 1), (1, 1), (1, 2)]);
        assert_eq!(reds.points, 4);
        let greens = groups.iter().find(|g| g.colour == 2).unwrap();
        let mut cells = greens.cells.clone();
        cells.sort();
        assert_eq!(cells, vec![(1, 0), (2, 0)]);
        assert_eq!(greens.points, 0);
        // Under the Hungarian scoring the same groups are worth (n − 1)².
        let h = removable_groups(&small(Scoring::hungarian()));
        assert_eq!(
            h.iter().map(|g| g.points).collect::<Vec<_>>(),
            groups
                .iter()
                .map(|g| (g.cells.len() as i64 - 1).pow(2))
                .collect::<Vec<_>>()
        );
    }

    #[test]
    fn removing_a_listed_group_earns_its_listed_points() {
        let b = small(Scoring::standard());
        for g in removable_groups(&b) {
            for &cell in &g.cells {
                let after = replay(&b, &[cell]).unwrap();
                assert_eq!(after.points(), g.points);
                assert_eq!(after.stones(), b.stones() - g.cells.len());
            }
        }
    }

    #[test]
    fn illegal_moves_name_their_step() {
        let b = small(Scoring::standard());
        // The red group first, then (0, 0) is empty.
        let e = replay(&b, &[(0, 1), (0, 0)]).unwrap_err();
        assert_eq!((e.step, e.cell, e.outside), (2, (0, 0), false));
        assert!(e.to_string().starts_with("move 2 (column 0, row 0)"));
        // A lone stone: the blue at the bottom left.
        assert_eq!(replay(&b, &[(0, 2)]).unwrap_err().step, 1);
        let e = replay(&b, &[(3, 0)]).unwrap_err();
        assert!(e.outside && e.to_string().contains("outside"));
    }

    #[test]
    fn the_end_carries_the_bonus_or_the_penalty() {
        // R R / G G: two moves clear it.
        let rows = [vec![1, 1], vec![2, 2]];
        let b = Board::from_rows(&rows, 2, Scoring::standard()).unwrap();
        assert_eq!(ending(&b), None);
        let done = replay(&b, &[(0, 0), (0, 1)]).unwrap();
        assert_eq!(ending(&done), Some((1000, 1000)));
        // The small board: reds, then greens, leaves B B G G … (some stones stay).
        let per = small(Scoring::standard().with_penalty(Penalty::PerColour));
        let mut board = per.clone();
        let mut moves = Vec::new();
        while let Some(g) = removable_groups(&board).first().cloned() {
            moves.push(g.cells[0]);
            board = replay(&per, &moves).unwrap();
        }
        let (adjustment, score) = ending(&board).unwrap();
        let expected = per.scoring().end_adjustment(board.counts());
        assert_eq!(adjustment, expected);
        assert_eq!(score, board.points() + expected);
        assert_eq!(score, board.final_score());
    }
}
