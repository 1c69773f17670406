//! The bodies of the fuzz targets: one function per input format, taking arbitrary bytes.
//!
//! Each function feeds the bytes to a parser and, when the parser accepts them, to what follows
//! a successful parse in the program (writing the input back and reading it again, building the
//! solver's board, replaying moves, the workbench's handlers). It panics exactly when the
//! program misbehaves: a parser that panics, an accepted input that does not survive its own
//! round trip, an error without a position. Errors returned by the parsers are expected.
//!
//! The cargo-fuzz targets in `fuzz/` (nightly, outside the workspace) are one line each calling
//! these functions, and this crate's tests (stable, in `cargo test`) replay every file of
//! `fuzz/corpus/<target>/` through them and throw arbitrary and mutated bytes at them. See
//! `docs/ROBUSTNESS.md#fuzzing`.

#![warn(missing_docs)]

use puzzle_samegame::{format as sg, Board as SameBoard, Scoring};
use puzzle_server::body::JsonBody;
use puzzle_sokoban::{parse_lurd, parse_xsb, replay, write_lurd, Level, Play};
use serde::de::DeserializeOwned;
use std::future::Future;

/// A fuzz target: its name (the directory under `fuzz/corpus/` and the cargo-fuzz target) and
/// its body.
pub type Target = (&'static str, fn(&[u8]));

/// Every target, in the order of `docs/ROBUSTNESS.md#fuzzing`.
pub const TARGETS: &[Target] = &[
    ("xsb", xsb),
    ("lurd", lurd),
    ("samegame_standard", samegame_standard),
    ("samegame_digits", samegame_digits),
    ("samegame_csv", samegame_csv),
    ("sudoku", sudoku),
    ("bait", bait),
    ("games", games),
    ("api", api),
    ("job_request", job_request),
];

/// The bytes as text the way a front end would get it: the CLI refuses invalid UTF-8 before
/// any parser runs, so the parsers see only text; lossy decoding keeps the fuzzer's mutations
/// useful instead of discarding them.
fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// Split at the first NUL byte: the format's text before it, a second input (moves, actions)
/// after it.
fn split_nul(data: &[u8]) -> (&[u8], Option<&[u8]>) {
    match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], Some(&data[i + 1..])),
        None => (data, None),
    }
}

/// A level with its title dropped (XSB as written by [`Level::to_xsb`] has no title line).
fn untitled(level: &Level) -> Level {
    Level {
        title: None,
        ..level.clone()
    }
}

/// XSB level files: [`puzzle_sokoban::parse_xsb`] and the job layer's reader; every accepted
/// level is written back and must read back the same, must build the solver's board or refuse
/// it with an error, and must give the workbench's play state (deadlocks included).
pub fn xsb(data: &[u8]) {
    let text = text(data);
    let parsed = parse_xsb(&text);
    let via_job = puzzle_jobs::sokoban::parse_levels(&text, "fuzz.xsb");
    assert_eq!(
        parsed.is_ok(),
        via_job.is_ok(),
        "the job layer reads as the parser"
    );
    let one = Level::parse_one(&text);
    match &parsed {
        Err(e) => {
            assert!(e.line >= 1, "an XSB error names a line: {e}");
            assert!(one.is_err());
        }
        Ok(levels) => {
            assert!(!levels.is_empty());
            assert_eq!(one.is_ok(), levels.len() == 1);
            for level in levels {
                let written = level.to_xsb();
                let again = Level::parse_one(&written)
                    .unwrap_or_else(|e| panic!("written level does not read back: {e}\n{written}"));
                assert_eq!(again, untitled(level), "round trip of\n{written}");
                let _ = puzzle_sokoban::Board::new(level);
                let play = Play::new(level);
                let _ = play.deadlocks();
                let _ = level.area();
            }
        }
    }
}

/// A small level for [`lurd`] when the input brings none: a box to push and room to walk.
const LURD_LEVEL: &str = "#######\n#     #\n# $.@ #\n# *   #\n#######\n";

/// LURD move strings: parsed, written back (must be equal up to whitespace and a byte-order
/// mark), replayed on a level (the input's XSB before a NUL byte, else a fixed level) by the
/// solver's verifier and by the workbench's play state, which must agree.
pub fn lurd(data: &[u8]) {
    let (first, second) = split_nul(data);
    let (level, moves) = match second {
        Some(moves) => match Level::parse_one(&text(first)) {
            Ok(level) => (level, text(moves)),
            Err(_) => return,
        },
        None => (
            Level::parse_one(LURD_LEVEL).expect("the fixed level reads"),
            text(first),
        ),
    };
    let steps = parse_lurd(&moves);
    if let Ok(steps) = &steps {
        let written = write_lurd(steps);
        assert_eq!(parse_lurd(&written).as_ref(), Ok(steps));
        let expected: String = moves
            .strip_prefix('\u{feff}')
            .unwrap_or(&moves)
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        assert_eq!(written, expected);
    }
    let replayed = replay(&level, &moves);
    let played = Play::from_lurd(&level, &moves);
    assert_eq!(replayed.is_ok(), played.is_ok(), "replay and play agree");
    if steps.is_err() {
        assert!(replayed.is_err());
    }
    if let (Ok(r), Ok(p)) = (&replayed, &played) {
        assert_eq!(r.moves, p.moves());
        assert_eq!(r.pushes, p.pushes());
        assert_eq!(r.solved, p.is_solved());
        let _ = p.deadlocks();
    }
}

/// Read back a board written by one of the writers and compare its stones.
fn assert_same_board(board: &SameBoard, again: Result<SameBoard, sg::FormatError>, what: &str) {
    let again = again.unwrap_or_else(|e| panic!("{what}: written board does not read back: {e}"));
    assert_eq!(again.rows(), board.rows(), "{what} round trip");
}

/// What the program does with any board it accepted: write it in every format that can hold it
/// and read it back, list its groups, play one and see the end.
fn after_board(board: &SameBoard) {
    let scoring = Scoring::standard();
    let standard = sg::write_standard(board);
    assert_same_board(
        board,
        sg::parse_standard(&standard, "w", scoring),
        "standard",
    );
    let csv = sg::write_csv(board);
    assert_same_board(board, sg::parse_csv(&csv, "w", scoring), "csv");
    if board.colours() <= 10 {
        let digits = sg::write_digits(&[("b".into(), board.clone())]);
        let again = sg::parse_digits(&digits, "w", scoring).map(|mut v| v.remove(0).board);
        assert_same_board(board, again, "digits");
    }
    let groups = puzzle_samegame::play::removable_groups(board);
    if let Some(g) = groups.first() {
        let (col, row) = g.cells[0];
        let after = puzzle_samegame::play::replay(board, &[(col, row)])
            .unwrap_or_else(|e| panic!("a listed group does not play: {e}"));
        assert!(after.stones() < board.stones());
    }
    let _ = puzzle_samegame::play::ending(board);
}

/// One SameGame format: its own parser under both scorings, the format detection and the job
/// layer's reader (which must agree with the parser when it detects this format).
fn samegame(data: &[u8], format: sg::FileFormat) {
    let text = text(data);
    for scoring in [Scoring::standard(), Scoring::hungarian()] {
        let boards: Result<Vec<SameBoard>, sg::FormatError> = match format {
            sg::FileFormat::Standard => sg::parse_standard(&text, "f", scoring).map(|b| vec![b]),
            sg::FileFormat::Csv => sg::parse_csv(&text, "f", scoring).map(|b| vec![b]),
            sg::FileFormat::Digits => sg::parse_digits(&text, "f", scoring)
                .map(|v| v.into_iter().map(|n| n.board).collect()),
        };
        if let Err(e) = &boards {
            assert_eq!(e.file, "f", "a SameGame error names the file: {e}");
        }
        let any = sg::parse_any(&text, "f", scoring);
        if sg::detect(&text) == format {
            assert_eq!(
                boards.is_ok(),
                any.is_ok(),
                "parse_any agrees with the parser"
            );
        }
        let _ = puzzle_jobs::samegame::parse_boards(&text, "f", scoring);
        if let Ok(boards) = &boards {
            for b in boards {
                after_board(b);
            }
        }
    }
}

/// The standard-set SameGame format (`rows cols colours`, letter rows).
pub fn samegame_standard(data: &[u8]) {
    samegame(data, sg::FileFormat::Standard);
}

/// The digits SameGame format (`# problem NN` blocks of digit rows).
pub fn samegame_digits(data: &[u8]) {
    samegame(data, sg::FileFormat::Digits);
}

/// The Hungarian paper's SameGame CSV (`columns;rows`, `;`-separated colours).
pub fn samegame_csv(data: &[u8]) {
    samegame(data, sg::FileFormat::Csv);
}

/// Sudoku files, one-line and grid layouts: every accepted puzzle is written as one line and
/// must read back the same; its play state is computed; with entries after a NUL byte, the
/// entries line is read as the workbench reads it.
pub fn sudoku(data: &[u8]) {
    let (first, second) = split_nul(data);
    let text = text(first);
    let all = puzzle_sudoku::parse_puzzles(&text);
    let one = puzzle_sudoku::parse_puzzle(&text);
    let _ = puzzle_jobs::sudoku::parse_puzzle_text(&text, "f");
    match &all {
        Err(e) => {
            assert!(e.line >= 1, "a Sudoku error names a line: {e}");
            assert!(one.is_err());
        }
        Ok(puzzles) => {
            assert_eq!(one.is_ok(), puzzles.len() == 1);
            for p in puzzles {
                let line = p.grid.to_line();
                let again = puzzle_sudoku::parse_puzzle(&line)
                    .unwrap_or_else(|e| panic!("written puzzle does not read back: {e}\n{line}"));
                assert_eq!(again, p.grid, "round trip");
                let state = puzzle_sudoku::play::play_state(&p.grid, &p.grid);
                assert!(
                    state.conflicts.is_empty(),
                    "an accepted puzzle has no clash"
                );
            }
        }
    }
    if let (Ok(puzzle), Some(entries)) = (&one, second) {
        if let Ok(grid) = puzzle_sudoku::play::parse_entries(puzzle, &self::text(entries)) {
            let _ = puzzle_sudoku::play::play_state(puzzle, &grid);
        }
    }
}

/// Bait (GVGAI) levels: every accepted level is rendered and must read back to the same
/// rendering; with actions after a NUL byte, they are played by the hand-play replay.
pub fn bait(data: &[u8]) {
    let (first, second) = split_nul(data);
    let text = text(first);
    let parsed = puzzle_bait::Level::parse(&text);
    let _ = puzzle_jobs::bait::parse_level(&text, "f");
    let Ok(level) = parsed else {
        return;
    };
    let state = puzzle_bait::BaitState::new(level);
    let drawn = state.render();
    let again = puzzle_bait::Level::parse(&drawn)
        .unwrap_or_else(|e| panic!("rendered level does not read back: {e}\n{drawn}"));
    assert_eq!(puzzle_bait::BaitState::new(again).render(), drawn);
    if let Some(actions) = second {
        if let Ok(hand) = puzzle_bait::play::play_text(&state, &self::text(actions)) {
            let _ = hand.state.render();
        }
    }
}

/// Every registered game's reader ([`puzzle_jobs::games::GAMES`]) on the bytes: what it
/// reads prints back to a text that reads to the same items, and what it refuses has a
/// position the registry finds.
pub fn games(data: &[u8]) {
    let text = text(data);
    for game in puzzle_jobs::games::GAMES {
        match (game.read)(&text) {
            Ok(items) => {
                for item in items {
                    let again = (game.read)(&item).unwrap_or_else(|e| {
                        panic!(
                            "{}: a printed item does not read back: {e}\n{item}",
                            game.name
                        )
                    });
                    assert_eq!(
                        again,
                        vec![item],
                        "{}: printing is not a round trip",
                        game.name
                    );
                }
            }
            Err(e) => {
                let place = game
                    .find_text_error(e.as_ref())
                    .unwrap_or_else(|| panic!("{}: an error without a position: {e}", game.name));
                assert!(place.line >= 1, "{}: line 0: {place}", game.name);
            }
        }
    }
}

/// Run a handler's future to its end on a current-thread runtime (the handlers fuzzed here
/// compute in place and never wait).
fn run<F: Future>(future: F) -> F::Output {
    thread_local! {
        static RUNTIME: tokio::runtime::Runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("a current-thread runtime");
    }
    RUNTIME.with(|rt| rt.block_on(future))
}

/// Read a body as the server's [`JsonBody`] extractor does.
fn body<T: DeserializeOwned>(bytes: &[u8]) -> Option<JsonBody<T>> {
    serde_json::from_slice(bytes).ok().map(JsonBody)
}

/// Serialize a handler's JSON answer (what the server sends); errors must serialize too.
fn answer<T: serde::Serialize>(result: Result<axum::Json<T>, puzzle_server::error::ApiError>) {
    match result {
        Ok(json) => {
            serde_json::to_vec(&json.0).expect("an answer serializes");
        }
        Err(e) => {
            assert!(e.status.is_client_error(), "a refusal is a 4xx: {}", e.body);
            serde_json::to_vec(&e.body).expect("an error serializes");
        }
    }
}

/// The workbench's per-endpoint JSON bodies: the first byte picks the endpoint, the rest is
/// the body, read as the server's extractor reads it and handed to the endpoint's handler.
/// The endpoints that start a search (`/api/jobs`, `/api/sokoban/hint`) are left to
/// [`job_request`], which reads their request without running it.
pub fn api(data: &[u8]) {
    use puzzle_server::{bait, samegame, sokoban, sudoku};
    let Some((&which, bytes)) = data.split_first() else {
        return;
    };
    match which % 8 {
        0 => {
            if let Some(b) = body(bytes) {
                answer(run(sokoban::parse(b)));
            }
        }
        1 => {
            if let Some(b) = body(bytes) {
                answer(run(sokoban::play(b)));
            }
        }
        2 => {
            if let Some(b) = body(bytes) {
                answer(run(samegame::parse(b)));
            }
        }
        3 => {
            if let Some(b) = body(bytes) {
                answer(run(samegame::random(b)));
            }
        }
        4 => {
            if let Some(b) = body(bytes) {
                answer(run(samegame::play(b)));
            }
        }
        5 => {
            if let Some(b) = body(bytes) {
                answer(run(sudoku::parse(b)));
            }
        }
        6 => {
            if let Some(b) = body(bytes) {
                answer(run(sudoku::state(b)));
            }
        }
        _ => {
            if let Some(b) = body(bytes) {
                answer(run(bait::play(b)));
            }
        }
    }
}

/// `POST /api/jobs` and `POST /api/sokoban/hint` bodies: read as the server reads them (JSON,
/// then the tagged [`puzzle_jobs::JobRequest`]), validated and capped, not run. An accepted
/// request must serialize and read back to the same JSON.
pub fn job_request(data: &[u8]) {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) else {
        return;
    };
    let _ = serde_json::from_value::<puzzle_server::sokoban::HintBody>(value.clone());
    let Ok(mut request) = serde_json::from_value::<puzzle_jobs::JobRequest>(value) else {
        return;
    };
    let limits = request.limits_mut();
    if limits.validate().is_err() {
        return;
    }
    let jobs = puzzle_server::jobs::Jobs::new(1, std::time::Duration::from_secs(600), 2);
    *limits = jobs.capped(limits.clone());
    let json = serde_json::to_value(&request).expect("a request serializes");
    let again: puzzle_jobs::JobRequest =
        serde_json::from_value(json.clone()).expect("a serialized request reads back");
    assert_eq!(serde_json::to_value(&again).expect("serializes"), json);
    let _ = request.name();
}
