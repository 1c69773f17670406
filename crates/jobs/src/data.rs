//! The bundled data the jobs and the workbench offer by name (attribution and terms: each
//! folder's README under `data/`).

/// Microban, 155 levels (David W. Skinner).
pub const MICROBAN: &str = include_str!("../../../data/sokoban/Microban_155.xsb");
/// XSokoban, 90 screens (Thinking Rabbit).
pub const XSOKOBAN: &str = include_str!("../../../data/sokoban/XSokoban_90.xsb");
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
pub const SOKOBAN_SETS: [SokobanSet; 3] = [
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
        id: "boxoban-hard",
        name: "Boxoban hard (file 000)",
        xsb: BOXOBAN_HARD,
    },
];

/// The bundled Sokoban set called `id`.
pub fn sokoban_set(id: &str) -> Option<SokobanSet> {
    SOKOBAN_SETS.iter().copied().find(|s| s.id == id)
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
