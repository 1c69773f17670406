//! Board files (see `docs/METHODS.md#samegame-formats`), read and written:
//!
//! - the standard-set files (`data/samegame/standard20/problemNN.txt`): a first line
//!   `rows cols colours`, then the rows top first, one letter per stone (`R G B Y V`, then
//!   further letters of [`PALETTE`] for more colours);
//! - the digits file (`standard20_digits.txt`): blocks `# problem NN` followed by rows of
//!   digits `0..9` (colour `d + 1`), top first;
//! - the Hungarian paper's CSV (§4): a first line `columns;rows`, then the rows, cells
//!   separated by `;`, colours as integers from 0 (colour `v + 1`).
//!
//! Every error names the file, the line (1-based) and, where it makes sense, the column.

use crate::board::{Board, BoardError, MAX_COLOURS, MAX_SIDE};
use crate::scoring::Scoring;
use std::fmt;

// The letters live in `board` (its `Display` prints them), so `format` depends on `board` and
// not the other way round; they stay reachable here, where the file formats use them.
pub use crate::board::{colour_letter, PALETTE};

/// A malformed board file: where and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    /// File name (as given).
    pub file: String,
    /// 1-based line (0: the whole file).
    pub line: usize,
    /// 1-based column, when it makes sense.
    pub column: Option<usize>,
    /// The problem.
    pub message: String,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if self.line > 0 {
            write!(f, ":{}", self.line)?;
            if let Some(c) = self.column {
                write!(f, ":{c}")?;
            }
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for FormatError {}

/// A board read from a file, with its name and 1-based position in the file.
#[derive(Clone, Debug)]
pub struct NamedBoard {
    /// `problem NN` for the digits file, else the file's stem.
    pub name: String,
    /// 1-based index in the file.
    pub index: usize,
    /// The position.
    pub board: Board,
}

fn err(file: &str, line: usize, column: Option<usize>, message: impl Into<String>) -> FormatError {
    FormatError {
        file: file.to_string(),
        line,
        column,
        message: message.into(),
    }
}

fn board_err(file: &str, first_row_line: usize, e: BoardError) -> FormatError {
    match e {
        BoardError::Ragged { row, .. } | BoardError::BadCell { row, .. } => {
            err(file, first_row_line + row, None, e.to_string())
        }
        _ => err(file, first_row_line.saturating_sub(1), None, e.to_string()),
    }
}

/// Which format a text is in, from its first meaningful line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileFormat {
    /// `rows cols colours` + letter rows.
    Standard,
    /// `# problem NN` blocks of digit rows.
    Digits,
    /// `columns;rows` + `;`-separated rows.
    Csv,
}

/// Guess the format of `text`.
pub fn detect(text: &str) -> FileFormat {
    let text = puzzle_engine::text::normalize(text);
    let text = text.as_ref();
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    if first.starts_with('#') {
        FileFormat::Digits
    } else if first.contains(';') {
        FileFormat::Csv
    } else {
        FileFormat::Standard
    }
}

/// Read any of the three formats; `file` names the source in errors and board names.
pub fn parse_any(text: &str, file: &str, scoring: Scoring) -> Result<Vec<NamedBoard>, FormatError> {
    // Each reader normalizes the text itself: normalizing here too would drop a second
    // byte-order mark, which is a character of the text.
    let stem = std::path::Path::new(file)
        .file_stem()
        .map_or_else(|| file.to_string(), |s| s.to_string_lossy().into_owned());
    match detect(text) {
        FileFormat::Digits => parse_digits(text, file, scoring),
        FileFormat::Csv => Ok(vec![NamedBoard {
            name: stem,
            index: 1,
            board: parse_csv(text, file, scoring)?,
        }]),
        FileFormat::Standard => Ok(vec![NamedBoard {
            name: stem,
            index: 1,
            board: parse_standard(text, file, scoring)?,
        }]),
    }
}

fn parse_count(
    field: &str,
    what: &str,
    file: &str,
    line: usize,
    max: usize,
) -> Result<usize, FormatError> {
    let v: usize = field.trim().parse().map_err(|_| {
        err(
            file,
            line,
            None,
            format!("{what} '{}' is not a whole number", field.trim()),
        )
    })?;
    if v == 0 || v > max {
        return Err(err(
            file,
            line,
            None,
            format!("{what} {v} is out of range (1 to {max})"),
        ));
    }
    Ok(v)
}

/// Read a standard-set file: `rows cols colours`, then `rows` lines of `cols` letters.
pub fn parse_standard(text: &str, file: &str, scoring: Scoring) -> Result<Board, FormatError> {
    let text = puzzle_engine::text::normalize(text);
    let text = text.as_ref();
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end_matches('\r')));
    let (header_line, header) = lines
        .by_ref()
        .find(|(_, l)| !l.trim().is_empty())
        .ok_or_else(|| {
            err(
                file,
                0,
                None,
                "empty file: expected a line 'rows cols colours'",
            )
        })?;
    let fields: Vec<&str> = header.split_whitespace().collect();
    if fields.len() != 3 {
        return Err(err(
            file,
            header_line,
            None,
            format!("expected 'rows cols colours', found '{}'", header.trim()),
        ));
    }
    let rows = parse_count(fields[0], "row count", file, header_line, MAX_SIDE)?;
    let cols = parse_count(fields[1], "column count", file, header_line, MAX_SIDE)?;
    let colours = parse_count(fields[2], "colour count", file, header_line, MAX_COLOURS)?;
    let allowed = &PALETTE[..colours];
    let mut grid = Vec::with_capacity(rows);
    let mut first_row_line = 0;
    for (n, line) in lines.by_ref() {
        let lead = line.chars().take_while(|c| c.is_whitespace()).count();
        let line = line.trim();
        if line.is_empty() {
            if grid.is_empty() {
                continue;
            }
            break;
        }
        if grid.is_empty() {
            first_row_line = n;
        }
        if grid.len() == rows {
            return Err(err(
                file,
                n,
                Some(1),
                format!("more than the {rows} rows the header announces"),
            ));
        }
        let mut row = Vec::with_capacity(cols);
        for (c, ch) in line.chars().enumerate() {
            let up = ch.to_ascii_uppercase() as u8;
            match allowed.iter().position(|&p| p == up) {
                Some(k) if ch.is_ascii() => row.push(k as u8 + 1),
                _ => {
                    return Err(err(
                        file,
                        n,
                        Some(lead + c + 1),
                        format!(
                            "unknown colour '{ch}' (this file has {colours} colours: {})",
                            String::from_utf8_lossy(allowed)
                        ),
                    ))
                }
            }
        }
        if row.len() != cols {
            return Err(err(
                file,
                n,
                Some(lead + row.len().min(cols) + 1),
                format!(
                    "row has {} stones, the header says {cols} columns",
                    row.len()
                ),
            ));
        }
        grid.push(row);
    }
    if let Some((n, extra)) = lines.find(|(_, l)| !l.trim().is_empty()) {
        return Err(err(
            file,
            n,
            None,
            format!("unexpected text after the board: '{}'", extra.trim()),
        ));
    }
    if grid.len() != rows {
        return Err(err(
            file,
            0,
            None,
            format!("the header announces {rows} rows, found {}", grid.len()),
        ));
    }
    Board::from_rows(&grid, colours, scoring).map_err(|e| board_err(file, first_row_line, e))
}

/// Write a board (its current stones; `.` for holes) in the standard-set format.
pub fn write_standard(board: &Board) -> String {
    let mut out = format!("{} {} {}\n", board.height(), board.width(), board.colours());
    out.push_str(&board.to_string());
    out
}

/// Read the digits file: blocks `# problem NN` followed by rows of digits, top first.
pub fn parse_digits(
    text: &str,
    file: &str,
    scoring: Scoring,
) -> Result<Vec<NamedBoard>, FormatError> {
    let text = puzzle_engine::text::normalize(text);
    let text = text.as_ref();
    let mut boards = Vec::new();
    let mut current: Option<(String, usize, Vec<Vec<u8>>)> = None;
    let finish = |cur: Option<(String, usize, Vec<Vec<u8>>)>,
                  boards: &mut Vec<NamedBoard>|
     -> Result<(), FormatError> {
        if let Some((name, first_line, grid)) = cur {
            if grid.is_empty() {
                return Err(err(
                    file,
                    first_line.saturating_sub(1),
                    None,
                    format!("{name} has no rows"),
                ));
            }
            let colours = grid.iter().flatten().copied().max().unwrap_or(1) as usize;
            let board = Board::from_rows(&grid, colours, scoring)
                .map_err(|e| board_err(file, first_line, e))?;
            boards.push(NamedBoard {
                name,
                index: boards.len() + 1,
                board,
            });
        }
        Ok(())
    };
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let lead = line.chars().take_while(|c| c.is_whitespace()).count();
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if let Some(title) = line.strip_prefix('#') {
            finish(current.take(), &mut boards)?;
            current = Some((title.trim().to_string(), n + 1, Vec::new()));
            continue;
        }
        let Some((_, _, grid)) = current.as_mut() else {
            return Err(err(
                file,
                n,
                None,
                "a board row before any '# problem NN' line",
            ));
        };
        let mut row = Vec::with_capacity(line.len());
        for (c, ch) in line.chars().enumerate() {
            match ch.to_digit(10) {
                Some(d) => row.push(d as u8 + 1),
                None => {
                    return Err(err(
                        file,
                        n,
                        Some(lead + c + 1),
                        format!("unknown colour '{ch}' (expected a digit 0-9)"),
                    ))
                }
            }
        }
        if let Some(first) = grid.first() {
            if first.len() != row.len() {
                return Err(err(
                    file,
                    n,
                    Some(lead + row.len().min(first.len()) + 1),
                    format!(
                        "row has {} stones, the first row of this board has {}",
                        row.len(),
                        first.len()
                    ),
                ));
            }
        }
        grid.push(row);
    }
    finish(current.take(), &mut boards)?;
    if boards.is_empty() {
        return Err(err(file, 0, None, "no '# problem NN' board in the file"));
    }
    Ok(boards)
}

/// Write boards in the digits format (colour `k` as digit `k − 1`; needs ≤ 10 colours and
/// full boards).
pub fn write_digits(boards: &[(String, Board)]) -> String {
    let mut out = String::new();
    for (i, (name, board)) in boards.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&format!("# {name}\n"));
        for row in board.rows() {
            let line: String = row
                .iter()
                .map(|&v| char::from_digit(v.saturating_sub(1) as u32, 10).unwrap_or('?'))
                .collect();
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}

/// Read the Hungarian paper's CSV: `columns;rows`, then the rows (top first), cells
/// separated by `;` (a trailing `;` is allowed), colours as integers from 0.
pub fn parse_csv(text: &str, file: &str, scoring: Scoring) -> Result<Board, FormatError> {
    let text = puzzle_engine::text::normalize(text);
    let text = text.as_ref();
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty());
    let (hn, header) = lines
        .next()
        .ok_or_else(|| err(file, 0, None, "empty file: expected a line 'columns;rows'"))?;
    let fields: Vec<&str> = split_csv(header);
    if fields.len() != 2 {
        return Err(err(
            file,
            hn,
            None,
            format!("expected 'columns;rows', found '{header}'"),
        ));
    }
    let cols = parse_count(fields[0], "column count", file, hn, MAX_SIDE)?;
    let rows = parse_count(fields[1], "row count", file, hn, MAX_SIDE)?;
    let mut grid = Vec::with_capacity(rows);
    let mut first_row_line = 0;
    for (n, line) in lines {
        if grid.len() == rows {
            return Err(err(
                file,
                n,
                Some(1),
                format!("more than the {rows} rows the header announces"),
            ));
        }
        if grid.is_empty() {
            first_row_line = n;
        }
        let mut row = Vec::with_capacity(cols);
        for (c, cell) in split_csv(line).into_iter().enumerate() {
            match cell.trim().parse::<u8>() {
                Ok(v) if (v as usize) < MAX_COLOURS => row.push(v + 1),
                _ => {
                    return Err(err(
                        file,
                        n,
                        Some(c + 1),
                        format!(
                            "unknown colour '{}' (expected 0 to {})",
                            cell.trim(),
                            MAX_COLOURS - 1
                        ),
                    ))
                }
            }
        }
        if row.len() != cols {
            return Err(err(
                file,
                n,
                Some(row.len().min(cols) + 1),
                format!(
                    "row has {} cells, the header says {cols} columns",
                    row.len()
                ),
            ));
        }
        grid.push(row);
    }
    if grid.len() != rows {
        return Err(err(
            file,
            0,
            None,
            format!("the header announces {rows} rows, found {}", grid.len()),
        ));
    }
    let colours = grid.iter().flatten().copied().max().unwrap_or(1) as usize;
    Board::from_rows(&grid, colours, scoring).map_err(|e| board_err(file, first_row_line, e))
}

fn split_csv(line: &str) -> Vec<&str> {
    let line = line.strip_suffix(';').unwrap_or(line);
    line.split(';').collect()
}

/// Write a full board as the Hungarian paper's CSV (colour `k` as `k − 1`).
pub fn write_csv(board: &Board) -> String {
    let mut out = format!("{};{}\n", board.width(), board.height());
    for row in board.rows() {
        let cells: Vec<String> = row.iter().map(|&v| (v as i32 - 1).to_string()).collect();
        out.push_str(&cells.join(";"));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by fuzzing: `parse_any` normalized the text before the format's reader normalized
    /// it again, so a second byte-order mark was dropped and `parse_any` accepted a text that
    /// `parse_standard` refuses.
    #[test]
    fn parse_any_reads_as_the_formats_reader() {
        let text = "\u{feff}\u{feff}1 2 2\nRG\n";
        let direct = parse_standard(text, "f", Scoring::standard()).unwrap_err();
        let any = parse_any(text, "f", Scoring::standard()).unwrap_err();
        assert_eq!(any, direct);
        assert_eq!((direct.line, direct.column), (1, None));
        assert!(parse_any("\u{feff}1 2 2\nRG\n", "f", Scoring::standard()).is_ok());
    }
}
