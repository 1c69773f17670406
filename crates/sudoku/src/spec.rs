//! Sudoku as every front end sees it: its [`GameSpec`] (name, the puzzle reader, the bundled
//! lists, the check of a filled grid), declared once here and listed by the job layer's game
//! registry.

use crate::parse::{parse_puzzle, parse_puzzles, ParseError};
use puzzle_engine::games::{BundledSet, GameExample, GameSpec, ReadError, StaticSet, TextError};

/// The magictour "top95" list, 95 puzzles (the list of Peter Norvig's solver essay).
pub const SUDOKU_TOP95: &str = include_str!("../data/magictour_top95.txt");
/// Peter Norvig's "hardest" list, 11 puzzles.
pub const SUDOKU_HARDEST11: &str = include_str!("../data/norvig_hardest11.txt");

/// A bundled Sudoku puzzle set (its `text`: one puzzle per line, 81 symbols, `.` empty).
pub type SudokuSet = StaticSet;

/// The bundled Sudoku sets, in the order the workbench lists them.
pub const SUDOKU_SETS: [SudokuSet; 2] = [
    StaticSet {
        id: "top95",
        name: "magictour top95",
        text: SUDOKU_TOP95,
    },
    StaticSet {
        id: "hardest11",
        name: "Norvig's hardest 11",
        text: SUDOKU_HARDEST11,
    },
];

/// The bundled Sudoku set called `id`.
pub fn sudoku_set(id: &str) -> Option<SudokuSet> {
    StaticSet::find(&SUDOKU_SETS, id)
}

/// Sudoku's entry in the game registry. A solution is the filled grid (either layout); it
/// solves a puzzle when it is a valid grid that keeps every clue.
pub const GAME: GameSpec = GameSpec {
    name: "sudoku",
    title: "Sudoku",
    crate_name: "puzzle_sudoku",
    format: "Sudoku lines or grids",
    read,
    text_error,
    sets,
    replay: check_grid,
    example: GameExample {
        item: ".234341221434321\n",
        solution: "1234341221434321",
        bad: ("1234341221434X21\n", 1, Some(14)),
    },
};

fn read(text: &str) -> Result<Vec<String>, ReadError> {
    Ok(parse_puzzles(text)?
        .iter()
        .map(|p| format!("{}\n", p.grid.to_line()))
        .collect())
}

fn text_error(error: &(dyn std::error::Error + 'static)) -> Option<TextError> {
    let e = error.downcast_ref::<ParseError>()?;
    Some(TextError {
        line: e.line,
        column: e.column,
        item: None,
        message: e.message.clone(),
    })
}

fn sets() -> Vec<BundledSet> {
    SUDOKU_SETS.map(StaticSet::bundled).to_vec()
}

fn check_grid(item: &str, solution: &str) -> Result<bool, String> {
    let puzzle = parse_puzzle(item).map_err(|e| e.to_string())?;
    let grid = parse_puzzle(solution).map_err(|e| format!("the solution: {e}"))?;
    Ok(grid.solves(&puzzle))
}

#[cfg(test)]
mod tests {
    /// `--trace` finds this crate's events under the name the spec gives.
    #[test]
    fn the_crate_name_is_this_crate_s() {
        let path = module_path!();
        assert_eq!(path.split("::").next(), Some(super::GAME.crate_name));
    }
}
