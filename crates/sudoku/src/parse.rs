//! Reading puzzle files: one puzzle per line (n⁴ symbols) or grid layouts (n² lines, optional
//! separators, blank lines between puzzles), with errors that name the line and column.
//!
//! Lines starting with `#` are comments. A line whose symbols (after removing separators) number
//! 81, 256, 625 or 16 is a whole puzzle; a line of 4, 9 or 25 symbols is a grid row, and n² such
//! rows in a row make a grid. (16×16 grids must therefore use the one-line layout.)

use crate::grid::{box_size_for_cells, box_size_for_side, value_of, Grid};
use std::fmt;

/// A puzzle read from a file, with the line it starts on (1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedPuzzle {
    /// The grid.
    pub grid: Grid,
    /// Line of the file where the puzzle starts.
    pub line: usize,
}

/// Why a puzzle file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, where it makes sense.
    pub column: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.column {
            Some(c) => write!(f, "line {}, column {}: {}", self.line, c, self.message),
            None => write!(f, "line {}: {}", self.line, self.message),
        }
    }
}

impl std::error::Error for ParseError {}

fn is_separator(ch: char) -> bool {
    matches!(ch, '|' | '+' | '-' | ' ' | '\t' | '\r')
}

/// The cell symbols of a line with their 1-based columns, or an error at the first bad one.
fn symbols(line: &str, line_no: usize) -> Result<Vec<(u8, usize)>, ParseError> {
    let mut out = Vec::with_capacity(81);
    for (i, ch) in line.chars().enumerate() {
        if is_separator(ch) {
            continue;
        }
        match value_of(ch) {
            Some(v) => out.push((v, i + 1)),
            None => {
                return Err(ParseError {
                    line: line_no,
                    column: Some(i + 1),
                    message: format!(
                        "unexpected character {ch:?} (cells are 1-9, A-P, or '.'/'0' for empty)"
                    ),
                })
            }
        }
    }
    Ok(out)
}

/// Build a grid from symbols, checking value range and conflicting clues. `rows` gives, for
/// each grid row, the file line it came from (one entry for the one-line layout).
fn build(cells: &[(u8, usize)], box_size: usize, lines: &[usize]) -> Result<Grid, ParseError> {
    let side = box_size * box_size;
    let line_of = |i: usize| {
        if lines.len() == 1 {
            lines[0]
        } else {
            lines[i / side]
        }
    };
    for (i, &(v, col)) in cells.iter().enumerate() {
        if v as usize > side {
            return Err(ParseError {
                line: line_of(i),
                column: Some(col),
                message: format!("value {v} is too large for a {side}×{side} grid"),
            });
        }
    }
    let values: Vec<u8> = cells.iter().map(|&(v, _)| v).collect();
    let grid = Grid::from_values(&values).map_err(|m| ParseError {
        line: lines[0],
        column: None,
        message: m,
    })?;
    if let Some(c) = grid.first_conflict() {
        let at = |i: usize| format!("row {} column {}", i / side + 1, i % side + 1);
        return Err(ParseError {
            line: line_of(c.second),
            column: Some(cells[c.second].1),
            message: format!(
                "clue {} at {} conflicts with the same clue at {} (same {})",
                crate::grid::symbol(c.value),
                at(c.second),
                at(c.first),
                c.unit
            ),
        });
    }
    Ok(grid)
}

/// Parse one puzzle in either layout (a single line, or a grid of lines).
pub fn parse_puzzle(text: &str) -> Result<Grid, ParseError> {
    let mut all = parse_puzzles(text)?;
    match all.len() {
        1 => Ok(all.remove(0).grid),
        0 => Err(ParseError {
            line: 1,
            column: None,
            message: "no puzzle found".into(),
        }),
        n => Err(ParseError {
            line: all[1].line,
            column: None,
            message: format!("expected one puzzle, found {n}"),
        }),
    }
}

/// An open grid block: box size, the cells so far (value, column), the line of each row.
type Block = (usize, Vec<(u8, usize)>, Vec<usize>);

/// Parse every puzzle of a file (one-line puzzles and grid blocks may be mixed). A leading
/// byte-order mark, CRLF or CR line ends, trailing spaces and blank lines between puzzles are
/// accepted.
pub fn parse_puzzles(text: &str) -> Result<Vec<ParsedPuzzle>, ParseError> {
    let text = puzzle_engine::text::normalize(text);
    let text = text.as_ref();
    let mut out = Vec::new();
    let mut block: Option<Block> = None;
    for (index, raw) in text.lines().enumerate() {
        let line_no = index + 1;
        let trimmed = raw.trim();
        if trimmed.starts_with('#') {
            continue;
        }
        if trimmed.is_empty() || trimmed.chars().all(is_separator) {
            if trimmed.is_empty() {
                if let Some((n, cells, lines)) = &block {
                    return Err(unfinished(*n, cells.len(), lines));
                }
            }
            continue;
        }
        let syms = symbols(raw, line_no)?;
        if let Some((n, mut cells, mut lines)) = block.take() {
            let side = n * n;
            if syms.len() != side {
                return Err(ParseError {
                    line: line_no,
                    column: Some(
                        syms.get(side)
                            .map_or_else(|| raw.trim_end().chars().count() + 1, |s| s.1),
                    ),
                    message: format!(
                        "grid row {} has {} cells, expected {side}",
                        lines.len() + 1,
                        syms.len()
                    ),
                });
            }
            cells.extend_from_slice(&syms);
            lines.push(line_no);
            if lines.len() == side {
                out.push(ParsedPuzzle {
                    grid: build(&cells, n, &lines)?,
                    line: lines[0],
                });
            } else {
                block = Some((n, cells, lines));
            }
            continue;
        }
        if let Some(n) = box_size_for_cells(syms.len()) {
            out.push(ParsedPuzzle {
                grid: build(&syms, n, &[line_no])?,
                line: line_no,
            });
        } else if let Some(n) = box_size_for_side(syms.len()).filter(|&n| n != 4) {
            block = Some((n, syms, vec![line_no]));
        } else {
            return Err(ParseError {
                line: line_no,
                column: Some(raw.chars().take_while(|c| c.is_whitespace()).count() + 1),
                message: format!(
                    "{} cells on this line: expected a puzzle of 81 (or 16, 256, 625) cells, \
                     or a grid row of 9 (or 4, 25) cells",
                    syms.len()
                ),
            });
        }
    }
    if let Some((n, cells, lines)) = &block {
        return Err(unfinished(*n, cells.len(), lines));
    }
    Ok(out)
}

fn unfinished(n: usize, _cells: usize, lines: &[usize]) -> ParseError {
    ParseError {
        line: lines[0],
        column: None,
        message: format!(
            "grid starting here has {} rows, expected {}",
            lines.len(),
            n * n
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    #[test]
    fn one_line_and_grid_layouts_agree() {
        let g = parse_puzzle(LINE).unwrap();
        assert_eq!(g.to_line(), LINE);
        let text = g.to_grid_text();
        assert_eq!(parse_puzzle(&text).unwrap(), g);
        let with_zeros = LINE.replace('.', "0");
        assert_eq!(parse_puzzle(&with_zeros).unwrap(), g);
    }

    #[test]
    fn several_puzzles_with_comments_and_line_numbers() {
        let text = format!("# a comment\n{LINE}\n\n{LINE}\n");
        let all = parse_puzzles(&text).unwrap();
        assert_eq!(all.len(), 2);
        assert_eq!(all[0].line, 2);
        assert_eq!(all[1].line, 4);
    }

    #[test]
    fn bad_length_names_the_line() {
        let text = format!("{LINE}\n{}\n", &LINE[..80]);
        let e = parse_puzzles(&text).unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("80 cells"), "{e}");
    }

    #[test]
    fn bad_character_names_line_and_column() {
        let mut bad = LINE.to_string();
        bad.replace_range(10..11, "x");
        let e = parse_puzzles(&bad).unwrap_err();
        assert_eq!((e.line, e.column), (1, Some(11)));
        assert!(e.to_string().contains("'x'"), "{e}");
    }

    #[test]
    fn conflicting_clues_are_reported() {
        // Two 4s in the first row.
        let mut bad = LINE.to_string();
        bad.replace_range(1..2, "4");
        let e = parse_puzzles(&bad).unwrap_err();
        assert_eq!(e.line, 1);
        assert!(
            e.message.contains("conflicts") && e.message.contains("row"),
            "{e}"
        );
    }

    #[test]
    fn too_large_value_for_the_size() {
        let e = parse_puzzles(&"A".repeat(81)).unwrap_err();
        assert!(e.message.contains("too large"), "{e}");
    }

    #[test]
    fn unfinished_grid_is_an_error() {
        let g = parse_puzzle(LINE).unwrap().to_grid_text();
        let short: Vec<&str> = g.lines().take(5).collect();
        let e = parse_puzzles(&short.join("\n")).unwrap_err();
        assert!(e.message.contains("expected 9"), "{e}");
    }

    #[test]
    fn small_and_large_sizes() {
        let four = "1.3..4...3..2...";
        assert_eq!(parse_puzzle(four).unwrap().side(), 4);
        let big = ".".repeat(256);
        assert_eq!(parse_puzzle(&big).unwrap().side(), 16);
    }
}
