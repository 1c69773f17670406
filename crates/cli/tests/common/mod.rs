//! Helpers shared by the end-to-end CLI tests (each test file is its own crate and uses a part).
#![allow(dead_code)]

use assert_cmd::Command;
use serde_json::Value;
use std::io::Write;

/// The `puzzle` binary built by cargo for these tests.
pub fn puzzle() -> Command {
    Command::cargo_bin("puzzle").expect("the puzzle binary is built")
}

/// Parse stdout as JSON Lines (blank lines skipped); a bad line fails the test, naming it.
pub fn json_lines(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8(stdout.to_vec())
        .expect("stdout is UTF-8")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad JSON line {l:?}: {e}")))
        .collect()
}

/// A temporary file holding `text` (deleted when dropped).
pub fn temp_file(text: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().expect("a temporary file");
    f.write_all(text.as_bytes())
        .expect("writing the temporary file");
    f
}

/// Fail the test, showing the command's stderr, unless it exited successfully.
#[track_caller]
pub fn assert_success(out: &std::process::Output) {
    assert!(
        out.status.success(),
        "the command failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Check that beside the report `DIR/STEM.md` lie the plots `DIR/STEM-<name>` for each name,
/// that each parses as an SVG document with the title the report gives it, and that the report
/// links each (`![title](STEM-<name>)`).
pub fn assert_plots_beside(report: &std::path::Path, names: &[&str]) {
    let md = std::fs::read_to_string(report).expect("the report was written");
    let stem = report.file_stem().unwrap().to_string_lossy().into_owned();
    for name in names {
        let file = format!("{stem}-{name}");
        let path = report.with_file_name(&file);
        let svg = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e}\n{md}", path.display()));
        let doc = roxmltree::Document::parse(&svg)
            .unwrap_or_else(|e| panic!("{} is not XML: {e}", path.display()));
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        let link = md
            .lines()
            .find(|l| l.starts_with("![") && l.ends_with(&format!("]({file})")))
            .unwrap_or_else(|| panic!("no link to {file} in\n{md}"));
        let title = &link[2..link.len() - file.len() - 3];
        assert!(
            doc.descendants()
                .any(|n| n.has_tag_name("text") && n.text().map(str::trim) == Some(title)),
            "{file} has no title {title:?}"
        );
    }
}
