//! The bundled data the jobs and the workbench offer by name (attribution and terms: each
//! folder's README under `data/`).

/// Microban, 155 levels (David W. Skinner).
pub const MICROBAN: &str = include_str!("../../../data/sokoban/Microban_155.xsb");
/// XSokoban, 90 screens (Thinking Rabbit).
pub const XSOKOBAN: &str = include_str!("../../../data/sokoban/XSokoban_90.xsb");
/// Microban II, 135 levels (David W. Skinner): not used to tune the solver.
pub const MICROBAN_II: &str = include_str!("../../../data/sokoban/Microban_II_135.xsb");
/// Sasquatch, 50 levels (David W. Skinner): not used to tune the solver.
pub const SASQUATCH: &str = include_str!("../../../data/sokoban/Sasquatch_50.xsb");
/// Boxoban hard, file 000, 1000 levels (DeepMind, Apache-2.0).
pub const BOXOBAN_HARD: &str = include_str!("../../../data/sokoban/boxoban/hard_000.txt");

/// A bundled Sokoban level set.
#[derive(Clone, Copy, Debug)]
pub struct SokobanSet {
    /// The name used on the command line and in the API (`microban`).
    pub id: &'static str,
    /// A display name.
    pub name: &'static str,
    /// The XSB text.
    pub xsb: &'static str,
}

/// The bundled Sokoban sets, in the order the workbench lists them.
pub const SOKOBAN_SETS: [SokobanSet; 5] = [
    SokobanSet {
        id: "microban",
        name: "Microban",
        xsb: MICROBAN,
    },
    SokobanSet {
        id: "xsokoban",
        name: "XSokoban",
        xsb: XSOKOBAN,
    },
    SokobanSet {
        id: "microban2",
        name: "Microban II",
        xsb: MICROBAN_II,
    },
    SokobanSet {
        id: "sasquatch",
        name: "Sasquatch",
        xsb: SASQUATCH,
    },
    SokobanSet {
        id: "boxoban-hard",
        name: "Boxoban hard (file 000)",
        xsb: BOXOBAN_HARD,
    },
];

/// The bundled Sokoban set called `id`.
pub fn sokoban_set(id: &str) -> Option<SokobanSet> {
    SOKOBAN_SETS.iter().copied().find(|s| s.id == id)
}

/// Sudoku: the magictour "top95" list, 95 puzzles (the list of Peter Norvig's solver essay).
pub const SUDOKU_TOP95: &str = include_str!("../../../data/sudoku/magictour_top95.txt");
/// Sudoku: Peter Norvig's "hardest" list, 11 puzzles.
pub const SUDOKU_HARDEST11: &str = include_str!("../../../data/sudoku/norvig_hardest11.txt");

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

/// A bundled Sudoku puzzle set (one puzzle per line).
#[derive(Clone, Copy, Debug)]
pub struct SudokuSet {
    /// The name used in the API (`top95`).
    pub id: &'static str,
    /// A display name.
    pub name: &'static str,
    /// The puzzles, one per line (81 symbols, `.` empty).
    pub text: &'static str,
}

/// The bundled Sudoku sets, in the order the workbench lists them.
pub const SUDOKU_SETS: [SudokuSet; 2] = [
    SudokuSet {
        id: "top95",
        name: "magictour top95",
        text: SUDOKU_TOP95,
    },
    SudokuSet {
        id: "hardest11",
        name: "Norvig's hardest 11",
        text: SUDOKU_HARDEST11,
    },
];

/// The bundled Sudoku set called `id`.
pub fn sudoku_set(id: &str) -> Option<SudokuSet> {
    SUDOKU_SETS.iter().copied().find(|s| s.id == id)
}

/// The thesis's test grid's puzzles by name (`easy`, `medium`, `hard`), in the report's order.
pub const SUDOKU_GRID_PUZZLES: [(&str, &str); 3] = [
    ("easy", SUDOKU_EASY),
    ("medium", SUDOKU_MEDIUM),
    ("hard", SUDOKU_HARD),
];
/// The 20 standard 15×15, 5-colour SameGame boards (js-games.de; Schadd et al., Cazenave,
/// the Czech thesis chapter 3), as the digits file (`# problem NN` blocks).
pub const SAMEGAME_STANDARD20: &str = include_str!("../../../data/samegame/standard20_digits.txt");

/// A bundled SameGame board set.
#[derive(Clone, Copy, Debug)]
pub struct SameGameSet {
    /// The name used in the API (`standard20`).
    pub id: &'static str,
    /// A display name.
    pub name: &'static str,
    /// The file the text comes from, named in parse errors.
    pub file: &'static str,
    /// The boards' text (any format `puzzle_samegame::format::parse_any` reads).
    pub text: &'static str,
}

/// The bundled SameGame sets, in the order the workbench lists them.
pub const SAMEGAME_SETS: [SameGameSet; 1] = [SameGameSet {
    id: "standard20",
    name: "The 20 standard boards",
    file: "standard20_digits.txt",
    text: SAMEGAME_STANDARD20,
}];

/// The bundled SameGame set called `id`.
pub fn samegame_set(id: &str) -> Option<SameGameSet> {
    SAMEGAME_SETS.iter().copied().find(|s| s.id == id)
}

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
