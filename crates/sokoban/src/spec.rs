//! Sokoban as every front end sees it: its [`GameSpec`] (name, the XSB reader, the bundled
//! sets, the LURD replay), declared once here and listed by the job layer's game registry.

use crate::{parse_xsb, replay, Level, XsbError};
use puzzle_engine::games::{BundledSet, GameExample, GameSpec, ReadError, StaticSet, TextError};

/// Microban, 155 levels (David W. Skinner).
pub const MICROBAN: &str = include_str!("../data/Microban_155.xsb");
/// XSokoban, 90 screens (Thinking Rabbit).
pub const XSOKOBAN: &str = include_str!("../data/XSokoban_90.xsb");
/// Microban II, 135 levels (David W. Skinner): not used to tune the solver.
pub const MICROBAN_II: &str = include_str!("../data/Microban_II_135.xsb");
/// Sasquatch, 50 levels (David W. Skinner): not used to tune the solver.
pub const SASQUATCH: &str = include_str!("../data/Sasquatch_50.xsb");
/// Boxoban hard, file 000, 1000 levels (DeepMind, Apache-2.0).
pub const BOXOBAN_HARD: &str = include_str!("../data/boxoban/hard_000.txt");

/// A bundled Sokoban level set (its `text` is XSB).
pub type SokobanSet = StaticSet;

/// The bundled Sokoban sets, in the order the workbench lists them.
pub const SOKOBAN_SETS: [SokobanSet; 5] = [
    StaticSet {
        id: "microban",
        name: "Microban",
        text: MICROBAN,
    },
    StaticSet {
        id: "xsokoban",
        name: "XSokoban",
        text: XSOKOBAN,
    },
    StaticSet {
        id: "microban2",
        name: "Microban II",
        text: MICROBAN_II,
    },
    StaticSet {
        id: "sasquatch",
        name: "Sasquatch",
        text: SASQUATCH,
    },
    StaticSet {
        id: "boxoban-hard",
        name: "Boxoban hard (file 000)",
        text: BOXOBAN_HARD,
    },
];

/// The bundled Sokoban set called `id`.
pub fn sokoban_set(id: &str) -> Option<SokobanSet> {
    StaticSet::find(&SOKOBAN_SETS, id)
}

/// Sokoban's entry in the game registry.
pub const GAME: GameSpec = GameSpec {
    name: "sokoban",
    title: "Sokoban",
    crate_name: "puzzle_sokoban",
    format: "XSB",
    read,
    text_error,
    sets,
    replay: replay_lurd,
    example: GameExample {
        item: "#####\n#@$.#\n#####\n",
        solution: "R",
        bad: ("#####\n#@$X#\n#####\n", 2, Some(4)),
    },
};

fn read(text: &str) -> Result<Vec<String>, ReadError> {
    Ok(parse_xsb(text)?.iter().map(Level::to_xsb).collect())
}

fn text_error(error: &(dyn std::error::Error + 'static)) -> Option<TextError> {
    let e = error.downcast_ref::<XsbError>()?;
    Some(TextError {
        line: e.line,
        column: Some(e.column),
        item: (e.level > 0).then_some(e.level),
        message: e.problem.to_string(),
    })
}

fn sets() -> Vec<BundledSet> {
    SOKOBAN_SETS.map(StaticSet::bundled).to_vec()
}

fn replay_lurd(item: &str, solution: &str) -> Result<bool, String> {
    let levels = parse_xsb(item).map_err(|e| e.to_string())?;
    let level = levels.first().ok_or("no level")?;
    replay(level, solution)
        .map(|r| r.solved)
        .map_err(|e| e.to_string())
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
