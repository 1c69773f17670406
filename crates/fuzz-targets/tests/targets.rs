//! The fuzz targets' bodies on stable, inside `cargo test`: every file of each target's corpus
//! (`fuzz/corpus/<target>/`), mutations of those files, and arbitrary bytes. A failure here is
//! a crash the fuzzer would report; see `docs/ROBUSTNESS.md#fuzzing`.

use proptest::prelude::*;
use puzzle_fuzz_targets::TARGETS;
use std::path::PathBuf;

/// Every file of one target's corpus, sorted by name.
fn corpus(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (p, bytes)
        })
        .collect()
}

/// Run `body` on `data`, naming the target and the input when it panics.
fn run_named(target: &str, what: &str, body: fn(&[u8]), data: &[u8]) {
    let outcome = std::panic::catch_unwind(|| body(data));
    if outcome.is_err() {
        panic!(
            "target {target} failed on {what}: {:?}",
            String::from_utf8_lossy(data)
        );
    }
}

#[test]
fn every_corpus_file_replays() {
    for &(name, body) in TARGETS {
        let files = corpus(name);
        assert!(
            files.len() >= 5,
            "the {name} corpus has {} files",
            files.len()
        );
        for (path, bytes) in &files {
            run_named(name, &path.display().to_string(), body, bytes);
        }
    }
}

/// The seeds that exercise each target past its parser: a corpus file must be accepted by the
/// program for the target to test what follows a successful parse.
#[test]
fn the_corpora_hold_accepted_inputs() {
    use puzzle_samegame::Scoring;
    let text = |t: &str, f: &str| {
        String::from_utf8(
            corpus(t)
                .into_iter()
                .find(|(p, _)| p.ends_with(f))
                .unwrap()
                .1,
        )
        .unwrap()
    };
    assert_eq!(
        puzzle_sokoban::parse_xsb(&text("xsb", "two.xsb"))
            .unwrap()
            .len(),
        2
    );
    assert!(puzzle_samegame::format::parse_csv(
        &text("samegame_csv", "small.csv"),
        "f",
        Scoring::standard()
    )
    .is_ok());
    assert_eq!(
        puzzle_samegame::format::parse_digits(
            &text("samegame_digits", "two.txt"),
            "f",
            Scoring::standard()
        )
        .unwrap()
        .len(),
        2
    );
    assert!(puzzle_sudoku::parse_puzzle(&text("sudoku", "grid.txt")).is_ok());
    assert!(puzzle_bait::Level::parse(&text("bait", "crlf.txt")).is_ok());
}

/// One input for a target: its index in [`TARGETS`] and bytes.
fn arbitrary_input() -> impl Strategy<Value = (usize, Vec<u8>)> {
    (
        0..TARGETS.len(),
        proptest::collection::vec(any::<u8>(), 0..512),
    )
}

/// A corpus file with a few bytes overwritten, inserted or removed.
fn mutated_corpus_file() -> impl Strategy<Value = (usize, usize, Vec<(u8, usize, u8)>)> {
    (
        0..TARGETS.len(),
        any::<usize>(),
        proptest::collection::vec((0u8..3, any::<usize>(), any::<u8>()), 1..8),
    )
}

/// Bytes that the formats give meaning to, to reach past the first check more often than
/// uniform bytes.
const ALPHABET: &[u8] = b"#@+$*. -_|;0123456789\n\r\t\0{}[]\":,RGBYVwA1kgmLURDludr";

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_break_a_target((t, bytes) in arbitrary_input()) {
        let (name, body) = TARGETS[t];
        run_named(name, "arbitrary bytes", body, &bytes);
    }

    #[test]
    fn format_characters_never_break_a_target(
        t in 0..TARGETS.len(),
        picks in proptest::collection::vec(any::<prop::sample::Index>(), 0..400),
    ) {
        let (name, body) = TARGETS[t];
        let bytes: Vec<u8> = picks.iter().map(|i| ALPHABET[i.index(ALPHABET.len())]).collect();
        run_named(name, "format characters", body, &bytes);
    }

    #[test]
    fn mutated_corpus_files_never_break_a_target((t, pick, edits) in mutated_corpus_file()) {
        let (name, body) = TARGETS[t];
        let files = corpus(name);
        let (path, mut bytes) = files[pick % files.len()].clone();
        for (kind, at, byte) in edits {
            let at = at % (bytes.len() + 1);
            match kind {
                0 if at < bytes.len() => bytes[at] = byte,
                1 => bytes.insert(at, byte),
                _ if at < bytes.len() => {
                    bytes.remove(at);
                }
                _ => bytes.insert(at, byte),
            }
        }
        run_named(name, &format!("a mutation of {}", path.display()), body, &bytes);
    }
}
