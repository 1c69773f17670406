//! What a game declares once for every front end, in the spirit of OpenSpiel's game
//! registration (`REGISTER_SPIEL_GAME`): its name, its text format's reader with the one
//! [`TextError`] every reader reports, its bundled sets, and a replay of a solution. Each game
//! crate exports one [`GameSpec`]; the job layer lists them (`puzzle_jobs::games`), and the
//! server's errors and sets, the CLI's traces and the conformance test walk that list.

use std::borrow::Cow;
use std::fmt;

/// A parse error as every game's reader reports it: where (a 1-based line; a 1-based column
/// when the problem is at one character; the 1-based number of the level, board or puzzle when
/// the text holds several) and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextError {
    /// 1-based line of the problem (the item's first line when it concerns a whole item).
    pub line: usize,
    /// 1-based column (in characters), when the problem is at one character.
    pub column: Option<usize>,
    /// 1-based number of the item (level, board, puzzle) in the text, when known.
    pub item: Option<usize>,
    /// What is wrong, or what was expected.
    pub message: String,
}

impl fmt::Display for TextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(item) = self.item {
            write!(f, "item {item}, ")?;
        }
        write!(f, "line {}", self.line)?;
        if let Some(column) = self.column {
            write!(f, ", column {column}")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for TextError {}

/// A game's own parse error, boxed.
pub type ReadError = Box<dyn std::error::Error + Send + Sync>;

/// A bundled set of a game's items (levels, boards, puzzles), in the game's text format.
#[derive(Clone, Debug)]
pub struct BundledSet {
    /// The set's id, as jobs and the API name it (`microban`, `standard20`, `top95`).
    pub id: &'static str,
    /// A display name.
    pub name: &'static str,
    /// The items' text, which [`GameSpec::read`] reads.
    pub text: Cow<'static, str>,
}

/// A bundled set whose text is part of the binary (most of them): what a game's spec lists.
#[derive(Clone, Copy, Debug)]
pub struct StaticSet {
    /// The set's id, as jobs and the API name it (`microban`, `top95`).
    pub id: &'static str,
    /// A display name.
    pub name: &'static str,
    /// The items' text.
    pub text: &'static str,
}

impl StaticSet {
    /// The set as the registry lists it.
    pub fn bundled(self) -> BundledSet {
        BundledSet {
            id: self.id,
            name: self.name,
            text: Cow::Borrowed(self.text),
        }
    }

    /// The set called `id` among `sets`.
    pub fn find(sets: &[StaticSet], id: &str) -> Option<StaticSet> {
        sets.iter().copied().find(|s| s.id == id)
    }
}

/// A small example of a game, for its conformance test and its documentation: an item, a
/// solution of it in the game's notation, and a text its reader refuses at a known place.
#[derive(Clone, Copy, Debug)]
pub struct GameExample {
    /// One item in the game's text format.
    pub item: &'static str,
    /// A solution of `item` that [`GameSpec::replay`] accepts.
    pub solution: &'static str,
    /// A text the reader refuses, with the line and column it must name.
    pub bad: (&'static str, usize, Option<usize>),
}

/// One game, as front ends see it: declared once, in the game's crate.
///
/// A worked example, the one CONTRIBUTING.md's "Add a game" follows: a row of lights (`0`
/// off, `1` on, one row per line); a solution lists the 1-based lights to switch off.
///
/// ```
/// use puzzle_engine::games::{conformance, BundledSet, GameExample, GameSpec, ReadError, TextError};
/// use std::borrow::Cow;
///
/// /// Where a row of lights is wrong.
/// #[derive(Debug)]
/// struct LightsError { line: usize, column: usize, found: char }
/// impl std::fmt::Display for LightsError {
///     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
///         write!(f, "line {}, column {}: '{}' is not 0 or 1", self.line, self.column, self.found)
///     }
/// }
/// impl std::error::Error for LightsError {}
///
/// fn read(text: &str) -> Result<Vec<String>, ReadError> {
///     let mut rows = Vec::new();
///     for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
///         if let Some((c, found)) = line.trim_end().chars().enumerate().find(|(_, c)| !"01".contains(*c)) {
///             return Err(Box::new(LightsError { line: i + 1, column: c + 1, found }));
///         }
///         rows.push(format!("{}\n", line.trim_end()));
///     }
///     Ok(rows)
/// }
///
/// fn text_error(e: &(dyn std::error::Error + 'static)) -> Option<TextError> {
///     let e = e.downcast_ref::<LightsError>()?;
///     Some(TextError { line: e.line, column: Some(e.column), item: None, message: e.to_string() })
/// }
///
/// fn replay(item: &str, solution: &str) -> Result<bool, String> {
///     let mut lights: Vec<bool> = item.trim().chars().map(|c| c == '1').collect();
///     for number in solution.split_whitespace() {
///         let i: usize = number.parse().map_err(|_| format!("'{number}' is not a light"))?;
///         *lights.get_mut(i.wrapping_sub(1)).ok_or(format!("no light {i}"))? = false;
///     }
///     Ok(lights.iter().all(|on| !on))
/// }
///
/// /// The game's one declaration; the job layer lists it in `puzzle_jobs::games::GAMES`.
/// const LIGHTS: GameSpec = GameSpec {
///     name: "lights",
///     title: "Lights",
///     crate_name: "puzzle_lights",
///     format: "rows of 0 and 1",
///     read,
///     text_error,
///     sets: || vec![BundledSet { id: "first", name: "First rows", text: Cow::Borrowed("101\n0110\n") }],
///     replay,
///     example: GameExample { item: "1011\n", solution: "1 3 4", bad: ("10\n1x1\n", 2, Some(2)) },
/// };
///
/// conformance(&LIGHTS).unwrap();
/// ```
#[derive(Clone, Copy, Debug)]
pub struct GameSpec {
    /// The game's name in commands, jobs and API paths (`sokoban`).
    pub name: &'static str,
    /// Its display name (`Sokoban`).
    pub title: &'static str,
    /// Its crate's name as `tracing` sees it (`puzzle_sokoban`), for `--trace`.
    pub crate_name: &'static str,
    /// The name of its text format (`XSB`).
    pub format: &'static str,
    /// Read every item of a text in the game's format and print each back in it (the
    /// canonical form, which reads back to itself), or return the game's parse error (which
    /// [`GameSpec::text_error`] places).
    pub read: fn(text: &str) -> Result<Vec<String>, ReadError>,
    /// The game's parse error in one link of an error chain, as a [`TextError`] (front ends
    /// walk a chain with this to find the position of a bad input).
    pub text_error: fn(&(dyn std::error::Error + 'static)) -> Option<TextError>,
    /// The bundled sets, in the order the workbench lists them.
    pub sets: fn() -> Vec<BundledSet>,
    /// Whether `solution` (in the game's notation) solves `item` (one item's text), or why it
    /// cannot be read.
    pub replay: fn(item: &str, solution: &str) -> Result<bool, String>,
    /// An example for the conformance test.
    pub example: GameExample,
}

impl GameSpec {
    /// The position of the first parse error of this game in `error`'s chain.
    pub fn find_text_error(&self, error: &(dyn std::error::Error + 'static)) -> Option<TextError> {
        let mut link = Some(error);
        while let Some(e) = link {
            if let Some(found) = (self.text_error)(e) {
                return Some(found);
            }
            link = e.source();
        }
        None
    }
}

/// The conformance checks every registered game must pass (OpenSpiel's API test loops over
/// every game the same way): its example item reads and prints back to itself, its example
/// solution replays, its bad text is refused at the line and column it names, and every
/// bundled set reads with at least one item. Returns what failed.
pub fn conformance(game: &GameSpec) -> Result<(), String> {
    let name = game.name;
    let items = (game.read)(game.example.item)
        .map_err(|e| format!("{name}: the example does not read: {e}"))?;
    let [printed] = items.as_slice() else {
        return Err(format!(
            "{name}: the example holds {} items, not 1",
            items.len()
        ));
    };
    let again = (game.read)(printed)
        .map_err(|e| format!("{name}: the printed example does not read: {e}"))?;
    if again.as_slice() != std::slice::from_ref(printed) {
        return Err(format!(
            "{name}: printing is not a round trip:\n{printed}\n{again:?}"
        ));
    }
    match (game.replay)(printed, game.example.solution) {
        Ok(true) => {}
        Ok(false) => return Err(format!("{name}: the example solution does not solve it")),
        Err(e) => return Err(format!("{name}: the example solution: {e}")),
    }
    let (bad, line, column) = game.example.bad;
    let error = match (game.read)(bad) {
        Ok(_) => return Err(format!("{name}: the bad example reads")),
        Err(e) => e,
    };
    let Some(found) = game.find_text_error(error.as_ref()) else {
        return Err(format!(
            "{name}: text_error does not place the reader's error: {error}"
        ));
    };
    if found.line != line || found.column != column {
        return Err(format!(
            "{name}: the bad example's error is at line {} column {:?}, not {line} {column:?}: {found}",
            found.line, found.column
        ));
    }
    let sets = (game.sets)();
    for set in &sets {
        match (game.read)(&set.text) {
            Ok(items) if !items.is_empty() => {}
            Ok(_) => return Err(format!("{name}: bundled set {} is empty", set.id)),
            Err(e) => return Err(format!("{name}: bundled set {}: {e}", set.id)),
        }
    }
    Ok(())
}
