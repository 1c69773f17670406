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
