//! Text input normalisation shared by every game's parsers (see `docs/METHODS.md`): a UTF-8
//! byte-order mark at the start is dropped and CRLF and lone-CR line ends become `\n`, so that
//! a parser sees one form whatever editor wrote the file. Line numbers are unchanged (each
//! CRLF, CR or LF ends exactly one line) and so are column numbers (the mark is not a column).

use std::borrow::Cow;

/// The UTF-8 byte-order mark as a character.
pub const BOM: char = '\u{feff}';

/// Drop a leading byte-order mark and turn CRLF and lone CR into LF. Borrows when there is
/// nothing to change.
pub fn normalize(text: &str) -> Cow<'_, str> {
    let text = text.strip_prefix(BOM).unwrap_or(text);
    if !text.contains('\r') {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\r' {
            if chars.peek() == Some(&'\n') {
                chars.next();
            }
            out.push('\n');
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bom_and_line_ends() {
        assert_eq!(normalize("a\nb"), "a\nb");
        assert!(matches!(normalize("a\nb"), Cow::Borrowed(_)));
        assert_eq!(normalize("\u{feff}a\r\nb\rc\n\r\n"), "a\nb\nc\n\n");
        assert_eq!(normalize("\u{feff}"), "");
        assert_eq!(normalize("a\r"), "a\n");
        // Only a leading mark is dropped.
        assert_eq!(normalize("a\u{feff}"), "a\u{feff}");
    }
}
