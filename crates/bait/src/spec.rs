//! Bait as every front end sees it: its [`GameSpec`] (name, the GVGAI level reader, GVGAI's
//! five levels, the replay of actions), declared once here and listed by the job layer's game
//! registry.

use crate::level::{Level, LevelError, BUILTIN_LEVELS};
use crate::play::play_text;
use crate::state::BaitState;
use puzzle_engine::games::{BundledSet, GameExample, GameSpec, ReadError, TextError};
use std::borrow::Cow;

/// The id of the bundled set: GVGAI's five levels, 0 to 4.
pub const BAIT_SET_ID: &str = "levels";

/// Bait's entry in the game registry. A text holds levels separated by blank lines; a
/// solution is an action string (`UDLRN`) that wins the level.
pub const GAME: GameSpec = GameSpec {
    name: "bait",
    title: "Bait",
    crate_name: "puzzle_bait",
    format: "GVGAI level text",
    read,
    text_error,
    sets,
    replay: replay_actions,
    example: GameExample {
        item: "wwwww\nwAkgw\nwwwww\n",
        solution: "RR",
        bad: ("wwwww\nwAkXw\nwwwww\n", 2, Some(4)),
    },
};

/// The levels of a text: its blocks of non-blank lines, each with the line it starts on.
fn blocks(text: &str) -> Vec<(usize, String)> {
    let text = puzzle_engine::text::normalize(text);
    let mut out: Vec<(usize, String)> = Vec::new();
    let mut open = false;
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            open = false;
            continue;
        }
        if !open {
            out.push((i + 1, String::new()));
            open = true;
        }
        if let Some((_, block)) = out.last_mut() {
            block.push_str(line);
            block.push('\n');
        }
    }
    out
}

fn read(text: &str) -> Result<Vec<String>, ReadError> {
    let blocks = blocks(text);
    if blocks.is_empty() {
        // The level reader's own message for an empty text.
        Level::<64>::parse_width(text)?;
    }
    let mut levels = Vec::with_capacity(blocks.len());
    for (first, block) in blocks {
        match Level::<64>::parse_width(&block) {
            Ok(level) => levels.push(BaitState::new(level).render()),
            Err(e) => {
                // Lines of the whole text, not of the block; line 0 is the whole level.
                return Err(Box::new(LevelError {
                    line: if e.line == 0 {
                        first
                    } else {
                        e.line + first - 1
                    },
                    ..e
                }));
            }
        }
    }
    Ok(levels)
}

fn text_error(error: &(dyn std::error::Error + 'static)) -> Option<TextError> {
    let e = error.downcast_ref::<LevelError>()?;
    Some(TextError {
        // Line 0 concerns the whole level: its first line.
        line: e.line.max(1),
        column: (e.column > 0).then_some(e.column),
        item: None,
        message: e.message.clone(),
    })
}

fn sets() -> Vec<BundledSet> {
    let text: String = BUILTIN_LEVELS
        .iter()
        .map(|l| format!("{}\n\n", l.trim_end()))
        .collect();
    vec![BundledSet {
        id: BAIT_SET_ID,
        name: "GVGAI's five Bait levels",
        text: Cow::Owned(text),
    }]
}

fn replay_actions(item: &str, solution: &str) -> Result<bool, String> {
    let level = Level::<64>::parse_width(item).map_err(|e| e.to_string())?;
    let played = play_text(&BaitState::new(level), solution)?;
    Ok(played.state.is_win())
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
