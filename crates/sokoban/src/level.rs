//! Levels and the XSB text format (see `docs/METHODS.md#sokoban-formats`).
//!
//! A file holds many levels separated by blank lines. Board characters: `#` wall, `@` player,
//! `+` player on goal, `$` box, `*` box on goal, `.` goal, space / `-` / `_` floor. Lines starting
//! with `;` are comments; the last comment line before a board is its title (Microban's `; 12`,
//! XSokoban's `;screen.01`, Boxoban's `; 7`). Rows may be ragged and may be run-length encoded
//! (`4#` = `####`, `|` separates rows inside one line).

use std::fmt;

/// The most cells a level may span (width × height, cells outside the walls included): far
/// above any real level (the solvers take at most [`crate::board::MAX_CELLS`] playable cells),
/// and a bound on the memory a level text can ask for through run-length counts.
pub const MAX_LEVEL_CELLS: usize = 1 << 20;

/// A parsed Sokoban level: a `width` × `height` grid stored row-major (index `y * width + x`).
///
/// Cells outside the walls are neither walls nor playable; [`Level::to_xsb`] writes them as
/// spaces. A level returned by [`parse_xsb`] is well formed: one player, as many boxes as goals,
/// and the player's area closed by walls. It may be trivially solved (no boxes) or unsolvable (a
/// box or goal the player can never reach): that is the solver's answer, not a format error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    /// Number of columns.
    pub width: usize,
    /// Number of rows.
    pub height: usize,
    /// `walls[y * width + x]`: the cell is a wall.
    pub walls: Vec<bool>,
    /// `goals[i]`: the cell is a goal (storage square).
    pub goals: Vec<bool>,
    /// `boxes[i]`: a box stands on the cell.
    pub boxes: Vec<bool>,
    /// The player's cell index (`y * width + x`).
    pub player: usize,
    /// The title (last comment line before the board), if any.
    pub title: Option<String>,
}

/// What is wrong with an XSB text (see [`XsbError`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum XsbProblem {
    /// The text holds no level at all.
    Empty,
    /// A character that is not part of the XSB alphabet.
    UnknownCharacter(char),
    /// The level has no player.
    NoPlayer,
    /// A second player (the first one is at the given 1-based line and column).
    TwoPlayers {
        /// Line of the first player.
        first_line: usize,
        /// Column of the first player.
        first_column: usize,
    },
    /// The numbers of boxes and goals differ.
    BoxGoalMismatch {
        /// Boxes counted.
        boxes: usize,
        /// Goals counted.
        goals: usize,
    },
    /// The player's area is not closed by walls: the player could walk off the board here.
    OpenBorder,
    /// A run-length count with nothing after it, or absurdly large.
    BadRunLength,
    /// [`Level::parse_one`] was given a text with several levels.
    MoreThanOneLevel,
    /// The level spans more than [`MAX_LEVEL_CELLS`] cells.
    TooLarge,
    /// A row of the level holds no wall (only possible with `|` row breaks: in plain text such
    /// a line ends the level, so the level could not be written back).
    RowWithoutWall,
}

impl fmt::Display for XsbProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            XsbProblem::Empty => write!(f, "no level found (empty input)"),
            XsbProblem::UnknownCharacter(c) => write!(
                f,
                "unknown character {c:?} (expected one of # @ + $ * . space - _, a run-length count or |)"
            ),
            XsbProblem::NoPlayer => write!(f, "no player ('@' or '+')"),
            XsbProblem::TwoPlayers {
                first_line,
                first_column,
            } => write!(
                f,
                "second player (the first is at line {first_line}, column {first_column})"
            ),
            XsbProblem::BoxGoalMismatch { boxes, goals } => {
                write!(f, "{boxes} boxes but {goals} goals")
            }
            XsbProblem::OpenBorder => write!(
                f,
                "open border: the player can walk off the board here (expected a wall)"
            ),
            XsbProblem::BadRunLength => write!(
                f,
                "bad run-length count (expected 1 to 10000 followed by a board character)"
            ),
            XsbProblem::MoreThanOneLevel => write!(f, "expected one level, found more"),
            XsbProblem::TooLarge => write!(
                f,
                "level too large (expected at most {MAX_LEVEL_CELLS} cells, width × height)"
            ),
            XsbProblem::RowWithoutWall => write!(
                f,
                "row without a wall (expected a wall on every row of a level; a line without one \
                 ends the level)"
            ),
        }
    }
}

/// An XSB parse error: the 1-based level number, line and column (in the whole text) and the
/// problem. Level-wide problems point at the first line of the level, column 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XsbError {
    /// 1-based index of the level in the file (0 when the file holds none).
    pub level: usize,
    /// 1-based line number in the text.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// What is wrong.
    pub problem: XsbProblem,
}

impl fmt::Display for XsbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.problem == XsbProblem::Empty {
            return write!(f, "{}", self.problem);
        }
        write!(
            f,
            "level {}, line {}, column {}: {}",
            self.level, self.line, self.column, self.problem
        )
    }
}

impl std::error::Error for XsbError {}

/// The rows of one level as read so far, with the line each row came from and the number of
/// cells in all of them.
#[derive(Default)]
struct RawLevel {
    rows: Vec<Vec<RawCell>>,
    lines: Vec<usize>,
    cells: usize,
}

/// One cell of a raw board with where it came from in the text.
#[derive(Clone, Copy)]
struct RawCell {
    ch: char,
    line: usize,
    column: usize,
}

/// Is `c` a board character (after run-length expansion)?
fn is_board_char(c: char) -> bool {
    matches!(c, '#' | '@' | '+' | '$' | '*' | '.' | ' ' | '-' | '_')
}

/// Expand one text line into board rows (run-length `3#`, `|` row breaks).
fn expand_line(
    text: &str,
    line_no: usize,
    level: usize,
    raw: &mut RawLevel,
) -> Result<(), XsbError> {
    let err = |column: usize, problem: XsbProblem| XsbError {
        level,
        line: line_no,
        column,
        problem,
    };
    let mut row: Vec<RawCell> = Vec::new();
    let mut count: Option<(usize, usize)> = None; // (value, column of first digit)
    for (i, c) in text.chars().enumerate() {
        let column = i + 1;
        if c.is_ascii_digit() {
            let digit = c as usize - '0' as usize;
            let (value, start) = count.unwrap_or((0, column));
            let value = value * 10 + digit;
            if value > 10_000 {
                return Err(err(start, XsbProblem::BadRunLength));
            }
            count = Some((value, start));
            continue;
        }
        if c == '|' {
            if let Some((_, start)) = count {
                return Err(err(start, XsbProblem::BadRunLength));
            }
            raw.cells += row.len();
            raw.rows.push(std::mem::take(&mut row));
            raw.lines.push(line_no);
            continue;
        }
        if !is_board_char(c) {
            return Err(err(column, XsbProblem::UnknownCharacter(c)));
        }
        let n = count.take().map_or(1, |(v, _)| v);
        if raw.cells + row.len() + n > MAX_LEVEL_CELLS {
            return Err(err(column, XsbProblem::TooLarge));
        }
        for _ in 0..n {
            row.push(RawCell {
                ch: c,
                line: line_no,
                column,
            });
        }
    }
    if let Some((_, start)) = count {
        return Err(err(start, XsbProblem::BadRunLength));
    }
    raw.cells += row.len();
    raw.rows.push(row);
    raw.lines.push(line_no);
    Ok(())
}

/// Is this line part of a board (rather than a comment, a title, free text or a blank
/// separator)? A board line holds a wall and starts with a board character or a run-length
/// digit; inside a board (`in_board`), any line holding a wall continues it, so that a stray
/// character there is reported rather than skipped.
fn is_board_line(line: &str, in_board: bool) -> bool {
    let t = line.trim();
    if t.is_empty() || t.starts_with(';') || !t.contains('#') {
        return false;
    }
    let first = t.chars().next().unwrap_or(' ');
    in_board || is_board_char(first) || first.is_ascii_digit()
}

/// Parse every level of an XSB text.
///
/// A byte-order mark, CRLF or CR line ends, trailing spaces and blank lines are accepted.
/// Errors name the level (1-based), the line and column and the problem: unknown characters,
/// no player, two players, boxes ≠ goals, an open border, a bad run length, an empty text.
/// A level with no boxes (already solved) or with a box the player can never reach
/// (unsolvable) is a level: the solvers answer for it.
pub fn parse_xsb(text: &str) -> Result<Vec<Level>, XsbError> {
    parse_normalized(&puzzle_engine::text::normalize(text))
}

/// [`parse_xsb`] on a text already normalized (normalizing twice would drop a second
/// byte-order mark, which is a character of the text).
fn parse_normalized(text: &str) -> Result<Vec<Level>, XsbError> {
    let mut levels = Vec::new();
    let mut title: Option<String> = None;
    let mut raw = RawLevel::default();
    let mut first_line = 0;
    let lines: Vec<&str> = text.lines().collect();
    let flush = |raw: &mut RawLevel,
                 title: &mut Option<String>,
                 first_line: usize,
                 levels: &mut Vec<Level>|
     -> Result<(), XsbError> {
        if raw.rows.is_empty() {
            return Ok(());
        }
        let level = build_level(raw, title.take(), levels.len() + 1, first_line)?;
        levels.push(level);
        *raw = RawLevel::default();
        Ok(())
    };
    for (i, text_line) in lines.iter().enumerate() {
        let line_no = i + 1;
        let line = text_line.trim_end();
        if is_board_line(line, !raw.rows.is_empty()) {
            if raw.rows.is_empty() {
                first_line = line_no;
            }
            expand_line(line, line_no, levels.len() + 1, &mut raw)?;
        } else {
            flush(&mut raw, &mut title, first_line, &mut levels)?;
            let t = line.trim();
            let comment = t.strip_prefix(';').or_else(|| t.strip_prefix("Title:"));
            if let Some(comment) = comment {
                let comment = comment.trim();
                if !comment.is_empty() {
                    title = Some(comment.to_string());
                }
            }
        }
    }
    flush(&mut raw, &mut title, first_line, &mut levels)?;
    if levels.is_empty() {
        return Err(XsbError {
            level: 0,
            line: lines.len().max(1),
            column: 1,
            problem: XsbProblem::Empty,
        });
    }
    Ok(levels)
}

/// Does this raw row hold nothing but floor (no wall, box, goal or player)?
fn is_empty_row(row: &[RawCell]) -> bool {
    row.iter().all(|c| matches!(c.ch, ' ' | '-' | '_'))
}

/// Build and validate one level from its raw rows. Empty rows (see [`is_empty_row`]) before
/// and after the board are dropped, as are trailing columns; any other row without a wall is an
/// error.
fn build_level(
    raw: &RawLevel,
    title: Option<String>,
    level_no: usize,
    first_line: usize,
) -> Result<Level, XsbError> {
    let Some(top) = raw.rows.iter().position(|r| !is_empty_row(r)) else {
        return Err(XsbError {
            level: level_no,
            line: first_line,
            column: 1,
            problem: XsbProblem::NoPlayer,
        });
    };
    let bottom = raw
        .rows
        .iter()
        .rposition(|r| !is_empty_row(r))
        .unwrap_or(top);
    let rows = &raw.rows[top..=bottom];
    if let Some(y) = rows.iter().position(|r| r.iter().all(|c| c.ch != '#')) {
        return Err(XsbError {
            level: level_no,
            line: raw.lines[top + y],
            column: 1,
            problem: XsbProblem::RowWithoutWall,
        });
    }
    let height = rows.len();
    let width = rows.iter().map(Vec::len).max().unwrap_or(0);
    if width.saturating_mul(height) > MAX_LEVEL_CELLS {
        return Err(XsbError {
            level: level_no,
            line: first_line,
            column: 1,
            problem: XsbProblem::TooLarge,
        });
    }
    let n = width * height;
    let mut walls = vec![false; n];
    let mut goals = vec![false; n];
    let mut boxes = vec![false; n];
    let mut present = vec![false; n]; // a character was written in the text at this cell
    let mut origin = vec![(first_line, 1usize); n];
    let mut player: Option<(usize, usize, usize)> = None;
    for (y, row) in rows.iter().enumerate() {
        for (x, cell) in row.iter().enumerate() {
            let i = y * width + x;
            present[i] = true;
            origin[i] = (cell.line, cell.column);
            match cell.ch {
                '#' => walls[i] = true,
                '.' => goals[i] = true,
                '$' => boxes[i] = true,
                '*' => {
                    boxes[i] = true;
                    goals[i] = true;
                }
                '@' | '+' => {
                    if cell.ch == '+' {
                        goals[i] = true;
                    }
                    if let Some((_, l, c)) = player {
                        return Err(XsbError {
                            level: level_no,
                            line: cell.line,
                            column: cell.column,
                            problem: XsbProblem::TwoPlayers {
                                first_line: l,
                                first_column: c,
                            },
                        });
                    }
                    player = Some((i, cell.line, cell.column));
                }
                _ => {}
            }
        }
    }
    let level_err = |problem: XsbProblem| XsbError {
        level: level_no,
        line: first_line,
        column: 1,
        problem,
    };
    let Some((player, _, _)) = player else {
        return Err(level_err(XsbProblem::NoPlayer));
    };
    // Flood the player's area (walls stop it); stepping off the board or onto a cell with no
    // character in the text means the border is open.
    let mut area = vec![false; n];
    let mut stack = vec![player];
    area[player] = true;
    while let Some(i) = stack.pop() {
        let (x, y) = (i % width, i / width);
        let neighbours = [
            (x as isize, y as isize - 1),
            (x as isize + 1, y as isize),
            (x as isize, y as isize + 1),
            (x as isize - 1, y as isize),
        ];
        for (nx, ny) in neighbours {
            if nx < 0 || ny < 0 || nx as usize >= width || ny as usize >= height {
                let (line, column) = origin[i];
                return Err(XsbError {
                    level: level_no,
                    line,
                    column,
                    problem: XsbProblem::OpenBorder,
                });
            }
            let j = ny as usize * width + nx as usize;
            if walls[j] || area[j] {
                continue;
            }
            if !present[j] {
                let (line, column) = origin[i];
                return Err(XsbError {
                    level: level_no,
                    line,
                    column,
                    problem: XsbProblem::OpenBorder,
                });
            }
            area[j] = true;
            stack.push(j);
        }
    }
    let box_count = boxes.iter().filter(|&&b| b).count();
    let goal_count = goals.iter().filter(|&&g| g).count();
    if box_count != goal_count {
        return Err(level_err(XsbProblem::BoxGoalMismatch {
            boxes: box_count,
            goals: goal_count,
        }));
    }
    // Trailing columns without walls, boxes or goals (trailing spaces in the text) lie outside
    // the closed area: drop them so that writing and reading again gives the same grid.
    let mut new_width = width;
    while new_width > 0
        && (0..height).all(|y| {
            let i = y * width + new_width - 1;
            !walls[i] && !boxes[i] && !goals[i] && i != player
        })
    {
        new_width -= 1;
    }
    let crop = |v: &[bool]| -> Vec<bool> {
        (0..height)
            .flat_map(|y| v[y * width..y * width + new_width].iter().copied())
            .collect()
    };
    let (px, py) = (player % width, player / width);
    Ok(Level {
        width: new_width,
        height,
        walls: crop(&walls),
        goals: crop(&goals),
        boxes: crop(&boxes),
        player: py * new_width + px,
        title,
    })
}

impl Level {
    /// Parse a text holding exactly one level (comments and a title allowed).
    /// More than one level is reported as an error at the second level's first line.
    pub fn parse_one(text: &str) -> Result<Level, XsbError> {
        let text = puzzle_engine::text::normalize(text);
        let text = text.as_ref();
        let mut levels = parse_normalized(text)?;
        if levels.len() > 1 {
            // Find the first line of the second board to report it.
            return Err(XsbError {
                level: 2,
                line: second_board_line(text),
                column: 1,
                problem: XsbProblem::MoreThanOneLevel,
            });
        }
        Ok(levels.remove(0))
    }

    /// The cell index of column `x`, row `y`.
    #[inline]
    pub fn index(&self, x: usize, y: usize) -> usize {
        y * self.width + x
    }

    /// The (column, row) of a cell index.
    #[inline]
    pub fn xy(&self, i: usize) -> (usize, usize) {
        (i % self.width, i / self.width)
    }

    /// Number of boxes.
    pub fn box_count(&self) -> usize {
        self.boxes.iter().filter(|&&b| b).count()
    }

    /// Every box is on a goal.
    pub fn is_solved(&self) -> bool {
        self.boxes.iter().zip(&self.goals).all(|(&b, &g)| !b || g)
    }

    /// The cells the player can reach by walking (ignoring boxes) from the start: the level's
    /// playable area.
    pub fn area(&self) -> Vec<bool> {
        let n = self.width * self.height;
        let mut area = vec![false; n];
        if self.player >= n {
            return area;
        }
        let mut stack = vec![self.player];
        area[self.player] = true;
        while let Some(i) = stack.pop() {
            let (x, y) = self.xy(i);
            let mut visit = |j: usize| {
                if !self.walls[j] && !area[j] {
                    area[j] = true;
                    stack.push(j);
                }
            };
            if y > 0 {
                visit(i - self.width);
            }
            if x + 1 < self.width {
                visit(i + 1);
            }
            if y + 1 < self.height {
                visit(i + self.width);
            }
            if x > 0 {
                visit(i - 1);
            }
        }
        area
    }

    /// Write the level in XSB (no title line; trailing spaces trimmed, rows end with `\n`).
    /// Floor inside and outside the walls is written as a space.
    pub fn to_xsb(&self) -> String {
        let mut out = String::with_capacity((self.width + 1) * self.height);
        for y in 0..self.height {
            let mut row = String::with_capacity(self.width);
            for x in 0..self.width {
                let i = self.index(x, y);
                let c = if self.walls[i] {
                    '#'
                } else if i == self.player {
                    if self.goals[i] {
                        '+'
                    } else {
                        '@'
                    }
                } else if self.boxes[i] {
                    if self.goals[i] {
                        '*'
                    } else {
                        '$'
                    }
                } else if self.goals[i] {
                    '.'
                } else {
                    ' '
                };
                row.push(c);
            }
            out.push_str(row.trim_end());
            out.push('\n');
        }
        out
    }
}

/// The line number of the first line of the second board in `text` (for `parse_one`).
fn second_board_line(text: &str) -> usize {
    let mut boards = 0;
    let mut in_board = false;
    for (i, line) in text.lines().enumerate() {
        if is_board_line(line, in_board) {
            if !in_board {
                boards += 1;
                if boards == 2 {
                    return i + 1;
                }
            }
            in_board = true;
        } else {
            in_board = false;
        }
    }
    1
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by fuzzing: `|` row breaks after the board made empty rows that the written level
    /// lost, so the level did not read back the same.
    #[test]
    fn empty_rows_around_the_board_are_dropped() {
        let plain = Level::parse_one("####\n#@ ##\n####\n").unwrap();
        let piped = Level::parse_one("-|####\n#@ ##\n####||||\n").unwrap();
        assert_eq!(piped, plain);
        assert_eq!(Level::parse_one(&piped.to_xsb()).unwrap(), piped);
    }

    /// A row without a wall can only come from `|` breaks (in plain text such a line ends the
    /// level), so the level could not be written back: it is refused at its line. Found by
    /// fuzzing, for an empty row and for a row holding only a box on a goal.
    #[test]
    fn a_row_without_a_wall_is_refused() {
        let e = parse_xsb("####\n#@.#|    |#$ #\n####\n").unwrap_err();
        assert_eq!((e.level, e.line, e.column), (1, 2, 1));
        assert_eq!(e.problem, XsbProblem::RowWithoutWall);
        let e = parse_xsb("#|#####\n# @ #\n#######\r_______*___|__ __#\n").unwrap_err();
        assert_eq!((e.line, e.problem), (4, XsbProblem::RowWithoutWall));
    }

    /// Found by fuzzing: `parse_one` normalized the text twice, so a second byte-order mark
    /// was dropped too and the text read as two levels where `parse_xsb` read one.
    #[test]
    fn parse_one_reads_as_parse_xsb() {
        let text = "\u{feff}\u{feff}#####\n\n#####\n#@$.#\n#####\n";
        assert_eq!(parse_xsb(text).unwrap().len(), 1);
        assert!(Level::parse_one(text).is_ok());
    }

    /// Run-length counts could ask for a grid of any size: a level is refused past
    /// `MAX_LEVEL_CELLS` cells before anything that large is allocated.
    #[test]
    fn oversized_levels_are_refused_before_allocating() {
        let wide = format!("{}\n#@ #\n####\n", "10000#".repeat(200));
        let e = parse_xsb(&wide).unwrap_err();
        assert_eq!(e.problem, XsbProblem::TooLarge);
        assert_eq!(e.line, 1);
        assert_eq!(e.column, 6 * 104 + 6);
        let tall = format!("10000#\n#@#{}\n####\n", "|#".repeat(200));
        let e = parse_xsb(&tall).unwrap_err();
        assert_eq!((e.line, e.column, e.problem), (1, 1, XsbProblem::TooLarge));
    }
}
