//! Generation continued from a level of one's own (bootstrapping from a seed level): the search
//! starts from the seed's floor with boxes on its goals, and what it keeps is verified.

use puzzle_engine::Budget;
use puzzle_sokoban::{parse_xsb, replay};
use puzzle_sokogen::{check_seed, generate, GenParams, SeedLevel};

/// A 7×7 room (5×5 inside) with two goals, two boxes (the generator places its own, on the
/// goals) and the player in the middle.
const SEED: &str = "#######\n#     #\n# .$  #\n#  @  #\n# $ . #\n#     #\n#######\n";

fn params(xsb: &str) -> Result<GenParams, String> {
    let level = &parse_xsb(xsb).unwrap()[0];
    let (width, height, start, seed) = SeedLevel::from_level(level)?;
    Ok(GenParams {
        width,
        height,
        start: Some(start),
        budget: Budget::iterations(3_000),
        seed: 1,
        threads: 1,
        seed_level: Some(seed),
        ..GenParams::default()
    })
}

#[test]
fn a_seed_level_is_read_as_the_board_inside_its_walls() {
    let level = &parse_xsb(SEED).unwrap()[0];
    let (w, h, start, seed) = SeedLevel::from_level(level).unwrap();
    assert_eq!((w, h, start), (5, 5, (2, 2)));
    assert_eq!(seed.floor.len(), 25);
    assert_eq!(seed.boxes, vec![(1, 1), (3, 3)]);
}

#[test]
fn generation_continues_from_a_seed_level_and_keeps_verified_levels() {
    let params = params(SEED).unwrap();
    check_seed(&params).unwrap();
    let mut kept = Vec::new();
    generate(&params, &mut |level| {
        kept.push(level.clone());
        Ok(())
    })
    .unwrap();
    assert!(!kept.is_empty(), "a seeded run keeps levels");
    for level in &kept {
        let l = &level.level;
        // The seed's board and start: 5×5 inside a wall border, the player where it was.
        assert_eq!((l.width, l.height), (7, 7));
        assert_eq!(l.xy(l.player), (3, 3));
        let r = replay(l, &level.solution).unwrap();
        assert!(r.solved, "the kept level's solution replays to solved");
    }
}

#[test]
fn a_seed_the_generation_game_cannot_reach_is_refused_with_its_reason() {
    // A goal under the player: the game never places a box on the start.
    let under = "#######\n#     #\n#  +  #\n#     #\n#   $ #\n#     #\n#######\n";
    let e = check_seed(&params(under).unwrap()).unwrap_err().to_string();
    assert!(e.contains("under the player"), "{e}");
    // A tiny level has no board inside its walls.
    let tiny = "####\n#@.#\n#$ #\n####\n";
    assert!(params(tiny).unwrap_err().contains("too small"));
}
