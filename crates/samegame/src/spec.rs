//! SameGame as every front end sees it: its [`GameSpec`] (name, the board reader for the
//! standard, digits and CSV formats, the bundled boards, the replay of moves), declared once
//! here and listed by the job layer's game registry.

use crate::format::{parse_any, write_standard, FormatError};
use crate::play::{ending, replay};
use crate::Scoring;
use puzzle_engine::games::{BundledSet, GameExample, GameSpec, ReadError, TextError};
use std::borrow::Cow;

/// The 20 standard 15×15, 5-colour SameGame boards (js-games.de; Schadd et al., Cazenave,
/// the Czech thesis chapter 3), as the digits file (`# problem NN` blocks).
pub const SAMEGAME_STANDARD20: &str = include_str!("../data/standard20_digits.txt");

/// A bundled SameGame board set.
#[derive(Clone, Copy, Debug)]
pub struct SameGameSet {
    /// The name used in the API (`standard20`).
    pub id: &'static str,
    /// A display name.
    pub name: &'static str,
    /// The file the text comes from, named in parse errors.
    pub file: &'static str,
    /// The boards' text (any format [`parse_any`] reads).
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

/// SameGame's entry in the game registry. A solution is a list of moves `column,row` (from
/// the left and from the top, 0-based) separated by spaces; it solves a board when the game
/// has ended after it.
pub const GAME: GameSpec = GameSpec {
    name: "samegame",
    title: "SameGame",
    crate_name: "puzzle_samegame",
    format: "SameGame board (standard, digits or CSV)",
    read,
    text_error,
    sets,
    replay: replay_moves,
    example: GameExample {
        item: "2 2 2\nRG\nRG\n",
        solution: "0,0 0,0",
        bad: ("1 2 1\nRX\n", 2, Some(2)),
    },
};

fn read(text: &str) -> Result<Vec<String>, ReadError> {
    let boards = parse_any(text, "input", Scoring::default())?;
    Ok(boards.iter().map(|b| write_standard(&b.board)).collect())
}

fn text_error(error: &(dyn std::error::Error + 'static)) -> Option<TextError> {
    let e = error.downcast_ref::<FormatError>()?;
    Some(TextError {
        // Line 0 is the whole file: its first line.
        line: e.line.max(1),
        column: e.column,
        item: None,
        message: e.message.clone(),
    })
}

fn sets() -> Vec<BundledSet> {
    SAMEGAME_SETS
        .iter()
        .map(|s| BundledSet {
            id: s.id,
            name: s.name,
            text: Cow::Borrowed(s.text),
        })
        .collect()
}

fn replay_moves(item: &str, solution: &str) -> Result<bool, String> {
    let boards = parse_any(item, "input", Scoring::default()).map_err(|e| e.to_string())?;
    let board = &boards.first().ok_or("no board")?.board;
    let moves = solution
        .split_whitespace()
        .map(|m| {
            let (c, r) = m
                .split_once(',')
                .ok_or(format!("'{m}' is not column,row"))?;
            let cell = |t: &str| {
                t.parse::<usize>()
                    .map_err(|_| format!("'{m}' is not column,row"))
            };
            Ok((cell(c)?, cell(r)?))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let end = replay(board, &moves).map_err(|e| e.to_string())?;
    Ok(ending(&end).is_some())
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
