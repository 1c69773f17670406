//! Whole generation runs: every level replays to a solved state, same seed ⇒ same levels,
//! bootstrapping and threads run, no near-duplicates, budgets and stop flags are followed.

use puzzle_engine::Budget;
use puzzle_sokogen::{generate, Bootstrap, GenConfig, GenParams, GeneratedLevel, MoveAgent};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

fn run(params: &GenParams) -> (puzzle_sokogen::GenSummary, Vec<GeneratedLevel>) {
    let mut levels = Vec::new();
    let summary = generate(params, &mut |l: &GeneratedLevel| {
        levels.push(l.clone());
        Ok(())
    })
    .expect("generation runs");
    (summary, levels)
}

fn check_levels(levels: &[GeneratedLevel]) {
    for l in levels {
        let r = puzzle_sokoban::replay(&l.level, &l.solution).expect("solution replays");
        assert!(r.solved, "{}\n{}", l.xsb, l.solution);
        assert_eq!(l.level.box_count() as u32, l.metrics.boxes);
        assert!(l.metrics.boxes >= 1);
        // Parsing the XSB gives the same level back.
        let parsed = puzzle_sokoban::parse_xsb(&l.xsb).expect("XSB parses");
        assert_eq!(parsed.len(), 1);
        assert_eq!(parsed[0].walls, l.level.walls);
        assert_eq!(parsed[0].goals, l.level.goals);
        assert_eq!(parsed[0].boxes, l.level.boxes);
        assert_eq!(parsed[0].player, l.level.player);
    }
}

fn params(w: usize, h: usize, iterations: u64) -> GenParams {
    GenParams {
        width: w,
        height: h,
        budget: Budget::iterations(iterations),
        seed: 7,
        threshold: Some(0.5),
        ..GenParams::default()
    }
}

#[test]
fn every_level_of_every_size_replays_to_a_solved_state() {
    // On 3×3 with the player in the centre no box can be pushed twice (every push from the
    // centre ends on the edge, then in a corner): start in a corner there.
    for (w, h, its) in [
        (3, 3, 5_000),
        (5, 5, 20_000),
        (7, 7, 20_000),
        (12, 9, 10_000),
        (20, 20, 3_000),
    ] {
        let mut p = params(w, h, its);
        if w == 3 {
            p.start = Some((0, 0));
        }
        let (summary, levels) = run(&p);
        assert!(!levels.is_empty(), "{w}×{h}: no level");
        assert!(summary.best_score > 0.0);
        assert_eq!(summary.levels, levels.len());
        check_levels(&levels);
        assert!(levels
            .iter()
            .all(|l| l.level.width == w + 2 && l.level.height == h + 2));
    }
}

#[test]
fn naive_and_unoptimized_configurations_produce_valid_levels() {
    let mut p = params(5, 5, 20_000);
    p.config = GenConfig::unoptimized();
    let (_, levels) = run(&p);
    check_levels(&levels);
    p.config.rules.move_agent = MoveAgent::Push;
    p.config.bloom = false;
    let (_, levels) = run(&p);
    assert!(!levels.is_empty());
    check_levels(&levels);
}

#[test]
fn same_seed_same_levels() {
    let p = params(6, 5, 15_000);
    let (s1, a) = run(&p);
    let (s2, b) = run(&p);
    let key = |v: &[GeneratedLevel]| -> Vec<(String, String)> {
        v.iter()
            .map(|l| (l.xsb.clone(), l.solution.clone()))
            .collect()
    };
    assert_eq!(key(&a), key(&b));
    assert_eq!(s1.best_score, s2.best_score);
    assert_eq!(s1.iterations, s2.iterations);
    let mut other = p.clone();
    other.seed = 8;
    let (_, c) = run(&other);
    assert_ne!(key(&a), key(&c));
}

#[test]
fn bootstrapping_runs_and_keeps_improving_levels() {
    let mut p = params(5, 5, 40_000);
    p.threshold = None;
    p.config.bootstrap = Some(Bootstrap {
        levels: 4,
        delta: 0.25,
    });
    let (summary, levels) = run(&p);
    assert!(summary.bootstrap_start_s.is_some());
    assert!(
        summary.bootstrap_iterations >= 9_000,
        "{}",
        summary.bootstrap_iterations
    );
    assert_eq!(summary.iterations, 40_000);
    check_levels(&levels);
    // Scores of successive new bests increase.
    let bests: Vec<f64> = levels
        .iter()
        .filter(|l| l.new_best)
        .map(|l| l.metrics.score)
        .collect();
    assert!(bests.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(*bests.last().unwrap(), summary.best_score);
}

#[test]
fn two_threads_run_and_merge_their_levels() {
    let mut p = params(5, 5, 20_000);
    p.threads = 2;
    let (summary, levels) = run(&p);
    assert_eq!(summary.iterations, 20_000);
    check_levels(&levels);
}

#[test]
fn no_near_duplicates_are_kept() {
    let mut p = params(5, 5, 30_000);
    p.threshold = Some(0.3);
    p.near_duplicate_cells = 2;
    let (_, levels) = run(&p);
    assert!(levels.len() > 3);
    for (i, a) in levels.iter().enumerate() {
        for b in &levels[i + 1..] {
            let diff = (0..a.level.walls.len())
                .filter(|&c| {
                    a.level.walls[c] != b.level.walls[c]
                        || a.level.boxes[c] != b.level.boxes[c]
                        || a.level.goals[c] != b.level.goals[c]
                })
                .count();
            assert!(
                diff > 2 || b.metrics.score > a.metrics.score,
                "near-duplicate kept:\n{}\n{}",
                a.xsb,
                b.xsb
            );
        }
    }
}

#[test]
fn the_node_budget_and_the_stop_flag_are_respected() {
    let mut p = params(5, 5, 50_000);
    p.budget = p.budget.with_max_nodes(1_000);
    p.config.bootstrap = None;
    let (summary, levels) = run(&p);
    assert!(summary.peak_nodes <= 1_000);
    check_levels(&levels);
    let stop = Arc::new(AtomicBool::new(true));
    let mut p = params(5, 5, u64::MAX / 2);
    p.budget = p.budget.with_stop_flag(stop);
    let (summary, _) = run(&p);
    assert!(summary.iterations < 100_000);
}

#[test]
fn bad_parameters_are_errors_not_panics() {
    let mut p = params(2, 5, 100);
    assert!(generate(&p, &mut |_| Ok(())).is_err());
    p.width = 40;
    assert!(generate(&p, &mut |_| Ok(())).is_err());
    let mut p = params(5, 5, 100);
    p.start = Some((9, 9));
    assert!(generate(&p, &mut |_| Ok(())).is_err());
    let mut p = params(5, 5, 100);
    p.threads = 0;
    assert!(generate(&p, &mut |_| Ok(())).is_err());
}

#[test]
fn a_failing_sink_ends_the_run_with_its_error() {
    let p = params(5, 5, 20_000);
    let r = generate(&p, &mut |_| Err("disk full".into()));
    assert!(r.unwrap_err().to_string().contains("disk full"));
}

#[test]
fn bootstrap_iterations_give_the_bootstrapped_search_its_own_count() {
    let mut p = params(5, 5, 6_000);
    p.threshold = None;
    p.config.bootstrap = Some(Bootstrap {
        levels: 4,
        delta: 0.2,
    });
    p.bootstrap_iterations = Some(500);
    let (summary, _) = run(&p);
    assert!(summary.bootstrap_start_s.is_some());
    assert_eq!(summary.bootstrap_iterations, 500);
    assert_eq!(summary.iterations, 6_000);
}

#[test]
fn the_experiment_runs_a_column_at_the_thesis_iteration_split() {
    use puzzle_sokogen::experiment::{run_once, tables};
    let tables = tables();
    let push = &tables[0].columns[0];
    assert_eq!(push.thesis_work.iterations, 4_498_609);
    assert_eq!(push.thesis_work.bootstrap, None);
    let boot = &tables[5].columns[4];
    assert_eq!(boot.label, "δ = 0.20");
    // The bootstrapped search: the thesis's count from the start; before it, 80 % of the
    // δ = 0 column's 3,924,687.
    assert_eq!(boot.thesis_work.bootstrap, Some(4_948_784));
    assert_eq!(boot.thesis_work.iterations, 3_139_750 + 4_948_784);
    let f = run_once(boot.config, 3, None, Some(3_000), Some(700), 1 << 20, None).unwrap();
    assert_eq!((f.all_iterations, f.iterations), (3_000, 700));
}

#[test]
fn a_run_says_whether_its_tree_filled_the_node_budget() {
    use puzzle_sokogen::experiment::{run_once, tables};
    let push = tables()[0].columns[0].config;
    let small = run_once(push, 1, None, Some(20_000), None, 2_000, None).unwrap();
    assert_eq!((small.peak_nodes, small.node_budget), (2_000, 2_000));
    assert!(small.filled_node_budget());
    // A tree refuses a whole block of children that would not fit, so it can stop just short.
    let mut short = small;
    (short.node_budget, short.peak_nodes) = (8_000_000, 7_999_998);
    assert!(short.filled_node_budget());
    short.peak_nodes = 7_000_000;
    assert!(!short.filled_node_budget());
    let large = run_once(push, 1, None, Some(2_000), None, 1 << 20, None).unwrap();
    assert!(
        large.peak_nodes > 0 && !large.filled_node_budget(),
        "{large:?}"
    );
}
