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
