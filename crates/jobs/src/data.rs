//! The bundled data the jobs and the workbench offer by name (attribution and terms: each
//! folder's README under `data/`).

pub use puzzle_samegame::spec::{samegame_set, SameGameSet, SAMEGAME_SETS, SAMEGAME_STANDARD20};
pub use puzzle_sokoban::spec::{
    sokoban_set, SokobanSet, BOXOBAN_HARD, MICROBAN, MICROBAN_II, SASQUATCH, SOKOBAN_SETS, XSOKOBAN,
};
pub use puzzle_sudoku::spec::{sudoku_set, SudokuSet, SUDOKU_HARDEST11, SUDOKU_SETS, SUDOKU_TOP95};

/// The Czech thesis's three test puzzles (chapter 4) are only pictures; these stand in for them,
/// chosen so that the thesis's MCTS finds them easy, harder, and hard within its limits (its
/// solvable range is about 28 clues and up). Easy: a classic 32-clue puzzle solved by singles
/// (Project Euler 96, grid 01).
pub const SUDOKU_EASY: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
/// Medium: 33 clues (a generated minimal puzzle, `generate --seed 7` #2, plus solution cells).
pub const SUDOKU_MEDIUM: &str =
    "....98.3.4.9.7..6..8.14.5..32..6.1.519..2...3..7.......7.9513.6...6....9..1...758";
/// Hard: 28 clues (`generate --seed 7` #3 plus three solution cells).
pub const SUDOKU_HARD: &str =
    "..2..854...7...6125....137.2.9.........6...94.15.3....3..2.64....1..5..3........1";

/// The thesis's test grid's puzzles by name (`easy`, `medium`, `hard`), in the report's order.
pub const SUDOKU_GRID_PUZZLES: [(&str, &str); 3] = [
    ("easy", SUDOKU_EASY),
    ("medium", SUDOKU_MEDIUM),
    ("hard", SUDOKU_HARD),
];
/// One of GVGAI's five Bait levels (`data/bait/bait_lvl0.txt` … `bait_lvl4.txt`, embedded by
/// the bait crate as [`puzzle_bait::BUILTIN_LEVELS`]).
#[derive(Clone, Copy, Debug)]
pub struct BaitLevel {
    /// The level's number (0 to 4), used on the command line (`--level`) and in the API.
    pub id: usize,
    /// A display name.
    pub name: &'static str,
    /// The level in GVGAI's text format.
    pub text: &'static str,
}

/// GVGAI's five Bait levels, in order.
pub const BAIT_LEVELS: [BaitLevel; 5] = [
    BaitLevel {
        id: 0,
        name: "Bait level 0",
        text: puzzle_bait::BUILTIN_LEVELS[0],
    },
    BaitLevel {
        id: 1,
        name: "Bait level 1",
        text: puzzle_bait::BUILTIN_LEVELS[1],
    },
    BaitLevel {
        id: 2,
        name: "Bait level 2",
        text: puzzle_bait::BUILTIN_LEVELS[2],
    },
    BaitLevel {
        id: 3,
        name: "Bait level 3",
        text: puzzle_bait::BUILTIN_LEVELS[3],
    },
    BaitLevel {
        id: 4,
        name: "Bait level 4",
        text: puzzle_bait::BUILTIN_LEVELS[4],
    },
];

/// The bundled Bait level numbered `id` (0 to 4).
pub fn bait_level(id: usize) -> Option<BaitLevel> {
    BAIT_LEVELS.get(id).copied()
}
