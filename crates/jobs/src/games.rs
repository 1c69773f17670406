//! The registry of games: every game crate's [`GameSpec`], listed once below, as the jobs are
//! listed in [`crate::registry`]. Front ends walk this list instead of naming games: the
//! server's parse-error positions and bundled sets, the CLI's `--trace` crates, Python's set
//! lookup, the fuzz targets, and the conformance test that every game passes.

pub use puzzle_engine::games::{conformance, BundledSet, GameExample, GameSpec, TextError};

/// Every game, in the order the workbench lists them.
pub const GAMES: &[&GameSpec] = &[
    &puzzle_sokoban::spec::GAME,
    &puzzle_samegame::spec::GAME,
    &puzzle_sudoku::spec::GAME,
    &puzzle_bait::spec::GAME,
];

/// The game called `name`.
pub fn game(name: &str) -> Option<&'static GameSpec> {
    GAMES.iter().copied().find(|g| g.name == name)
}

/// The bundled set `id` of game `game`.
pub fn bundled_set(game: &str, id: &str) -> Option<BundledSet> {
    (self::game(game)?.sets)().into_iter().find(|s| s.id == id)
}

/// The position of the first parse error of any game in `error`'s chain (what front ends
/// show beside the message: line, column, item).
pub fn text_error(error: &anyhow::Error) -> Option<TextError> {
    error
        .chain()
        .find_map(|link| GAMES.iter().find_map(|g| (g.text_error)(link)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One conformance test over every registered game (OpenSpiel's API test): reading and
    /// printing round-trip, a bad text is refused at its line and column, a known solution
    /// replays, every bundled set reads.
    #[test]
    fn every_game_conforms() {
        for game in GAMES {
            conformance(game).unwrap_or_else(|e| panic!("{e}"));
        }
        let mut names: Vec<_> = GAMES.iter().map(|g| g.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), GAMES.len(), "game names are unique");
    }

    /// A job's parse error keeps its position through the job layer's context.
    #[test]
    fn a_parse_error_is_placed_through_its_context() {
        let error = crate::sokoban::parse_levels("#####\n#@$X#\n#####\n", "pasted").unwrap_err();
        let found = text_error(&error).expect("placed");
        assert_eq!(
            (found.line, found.column, found.item),
            (2, Some(4), Some(1))
        );
        let plain = anyhow::anyhow!("not a parse error");
        assert!(text_error(&plain).is_none());
    }
}
