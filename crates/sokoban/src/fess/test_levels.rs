//! Small levels for the FESS and solver modules' unit tests.

use crate::board::Board;
use crate::level::Level;

/// The board of one level in XSB.
pub(crate) fn board(text: &str) -> Board {
    Board::new(&Level::parse_one(text).expect("level")).expect("board")
}

/// XSokoban screen `screen` (1-based).
pub(crate) fn xsokoban_level(screen: usize) -> Level {
    let text = include_str!("../../../../data/sokoban/XSokoban_90.xsb");
    let mut levels = crate::level::parse_xsb(text).expect("xsokoban");
    levels.swap_remove(screen - 1)
}

/// The board of XSokoban screen `screen` (1-based).
pub(crate) fn xsokoban(screen: usize) -> Board {
    Board::new(&xsokoban_level(screen)).expect("board")
}

/// The board cell at grid column `x`, row `y`.
pub(crate) fn cell(b: &Board, x: usize, y: usize) -> u16 {
    b.cell_of[y * b.width + x]
}

/// The index in [`Board::goal_list`] of the goal at grid column `x`, row `y`.
pub(crate) fn goal(b: &Board, x: usize, y: usize) -> usize {
    let c = cell(b, x, y);
    b.goal_list
        .iter()
        .position(|&g| g == c)
        .expect("a goal there")
}
