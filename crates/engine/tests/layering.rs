//! The layers of the workspace, read from the manifests: the engine depends on no other crate
//! of the project, and each game crate on the engine alone (the generator adds Sokoban's
//! rules). A new dependency that breaks a layer fails here.

use std::path::Path;

/// The project's crates (`puzzle-…`) among a manifest's `[dependencies]`.
fn project_dependencies(krate: &str) -> Vec<String> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(krate)
        .join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest)
        .unwrap_or_else(|e| panic!("{}: {e}", manifest.display()));
    let mut in_dependencies = false;
    let mut found = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_dependencies = line == "[dependencies]";
            continue;
        }
        if in_dependencies && line.starts_with("puzzle-") {
            let name: String = line
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            found.push(name);
        }
    }
    found
}

#[test]
fn the_engine_and_the_games_keep_their_layers() {
    assert_eq!(project_dependencies("engine"), Vec::<String>::new());
    for game in ["sokoban", "samegame", "sudoku", "bait"] {
        assert_eq!(project_dependencies(game), ["puzzle-engine"], "{game}");
    }
    assert_eq!(
        project_dependencies("sokogen"),
        ["puzzle-engine", "puzzle-sokoban"]
    );
}
