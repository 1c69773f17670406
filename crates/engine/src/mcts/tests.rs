//! Tests of the MCTS driver and tree on toy games with known optima.

use super::*;
use crate::toy::{BinaryTreeGame, SumGame};
use crate::{Budget, Game, UniformRandom};
use std::sync::atomic::AtomicUsize;
use std::sync::Mutex;

fn all_policies() -> Vec<SelectionPolicy> {
    vec![
        SelectionPolicy::ucb1_kocsis(std::f64::consts::FRAC_1_SQRT_2),
        SelectionPolicy::Ucb1 { c: 0.2 },
        SelectionPolicy::Ucb1Tuned { c: 1.0 },
        SelectionPolicy::UcbV {
            c: 1.0,
            xi: 1.0,
            b: 1.0,
        },
        SelectionPolicy::SpMcts {
            c: 0.5,
            d: 0.05,
            w: 0.02,
        },
    ]
}

fn replay<G: Game>(root: &G, seq: &[G::Action]) -> G {
    crate::replay(root, seq).unwrap()
}

#[test]
fn every_policy_finds_the_deep_binary_leaf() {
    let game = BinaryTreeGame::new(20, 0b1011_0011_1000_1111_0101);
    for selection in all_policies() {
        let cfg = MctsConfig {
            selection,
            budget: Budget::iterations(60_000),
            seed: 3,
            ..MctsConfig::default()
        };
        let r = search(&game, &cfg, &UniformRandom::default());
        assert_eq!(r.best_score, 1.0, "{selection:?} missed the best leaf");
        let end = replay(&game, &r.best_sequence);
        assert!(end.is_terminal());
        assert_eq!(end.score(), r.best_score);
    }
}

#[test]
fn every_policy_finds_the_sum_game_optimum() {
    let values = [13, 2, 41, 7, 29, 3, 17, 5, 37, 11, 23, 19];
    let game = SumGame::new(&values, 5);
    for selection in all_policies() {
        for children in [ChildrenPerExpansion::One, ChildrenPerExpansion::All] {
            let cfg = MctsConfig {
                selection,
                expansion: Expansion {
                    visits_before_expand: if children == ChildrenPerExpansion::All {
                        5
                    } else {
                        0
                    },
                    children,
                },
                reward: RewardTransform {
                    offset: 0.0,
                    scale: 1.0 / game.optimum() as f64,
                },
                budget: Budget::iterations(20_000),
                seed: 11,
                ..MctsConfig::default()
            };
            let r = search(&game, &cfg, &UniformRandom::default());
            assert_eq!(
                r.best_score,
                game.optimum() as f64,
                "{selection:?} {children:?}"
            );
            assert_eq!(replay(&game, &r.best_sequence).score(), r.best_score);
        }
    }
}

#[test]
fn node_budget_is_never_exceeded() {
    let game = SumGame::new(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14], 7);
    for max_nodes in [1usize, 2, 10, 257, 5000] {
        for children in [ChildrenPerExpansion::One, ChildrenPerExpansion::All] {
            let cfg = MctsConfig {
                expansion: Expansion {
                    visits_before_expand: 0,
                    children,
                },
                budget: Budget::iterations(20_000).with_max_nodes(max_nodes),
                seed: 5,
                ..MctsConfig::default()
            };
            let mut tree = MctsTree::new(game.clone(), &cfg);
            let mut rng = crate::Rng::new(1);
            let clock = cfg.budget.start();
            tree.run(
                &mut UniformRandom::default(),
                &mut rng,
                Some(20_000),
                &clock,
                None,
            );
            assert!(
                tree.node_count() <= max_nodes,
                "{} > {max_nodes}",
                tree.node_count()
            );
            assert_eq!(
                tree.iterations, 20_000,
                "the search goes on without expanding"
            );
            tree.validate().unwrap();
            let r = search(&game, &cfg, &UniformRandom::default());
            assert!(r.peak_nodes <= max_nodes);
        }
    }
}

#[test]
fn same_seed_same_result_also_with_threads() {
    let game = BinaryTreeGame::new(24, 0xA5_F0F0);
    for threads in [1, 2, 3] {
        let cfg = MctsConfig {
            budget: Budget::iterations(9_001),
            seed: 42,
            threads,
            ..MctsConfig::default()
        };
        let a = search(&game, &cfg, &UniformRandom::default());
        let b = search(&game, &cfg, &UniformRandom::default());
        assert_eq!(a.best_sequence, b.best_sequence);
        assert_eq!(a.best_score, b.best_score);
        assert_eq!(
            a.iterations, 9_001,
            "the iteration budget is the total over threads"
        );
        assert_eq!(a.iterations, b.iterations);
        assert_eq!(a.root_children, b.root_children);
        assert_eq!(a.trees, threads as u64);
    }
    let other = MctsConfig {
        budget: Budget::iterations(9_001),
        seed: 43,
        ..MctsConfig::default()
    };
    let base = MctsConfig {
        seed: 42,
        ..other.clone()
    };
    let x = search(&game, &base, &UniformRandom::default());
    let y = search(&game, &other, &UniformRandom::default());
    assert_ne!(
        (x.root_children.clone(), x.trace.len()),
        (y.root_children.clone(), y.trace.len()),
        "different seeds should explore differently"
    );
}

#[test]
fn statistics_are_consistent() {
    let game = SumGame::new(&[5, 1, 4, 2, 8, 3, 9], 4);
    for expansion in [
        Expansion::default(),
        Expansion {
            visits_before_expand: 3,
            children: ChildrenPerExpansion::All,
        },
        Expansion {
            visits_before_expand: 2,
            children: ChildrenPerExpansion::One,
        },
    ] {
        let cfg = MctsConfig {
            expansion,
            budget: Budget::iterations(3_000),
            seed: 9,
            ..MctsConfig::default()
        };
        let mut tree = MctsTree::new(game.clone(), &cfg);
        let mut rng = crate::Rng::new(2);
        let clock = cfg.budget.start();
        tree.run(
            &mut UniformRandom::default(),
            &mut rng,
            Some(3_000),
            &clock,
            None,
        );
        tree.validate().unwrap();
        assert_eq!(tree.root_visits(), 3_000);
        let children: u64 = tree.root_children().iter().map(|c| c.visits).sum();
        // The root is expanded at once, so every iteration after the first goes through a child
        // (the first iteration's playout starts from the root's first child too).
        assert_eq!(children, 3_000);
        // Each root child was visited at least once and the actions are distinct legal moves.
        let mut actions: Vec<u8> = tree.root_children().iter().map(|c| c.action).collect();
        actions.sort_unstable();
        actions.dedup();
        assert_eq!(actions.len(), 7);
    }
}

#[test]
fn time_budget_is_respected() {
    let game = BinaryTreeGame::new(40, 12345);
    let cfg = MctsConfig {
        budget: Budget::time(std::time::Duration::from_millis(150)),
        seed: 1,
        threads: 2,
        ..MctsConfig::default()
    };
    let r = search(&game, &cfg, &UniformRandom::default());
    // Generous tolerance: shared CI machines are noisy.
    assert!(r.elapsed.as_secs_f64() < 2.0, "took {:?}", r.elapsed);
    assert!(r.iterations > 0);
    assert_eq!(r.stop_reason, StopReason::Time);
}

#[test]
fn stop_flag_interrupts_and_keeps_the_best() {
    let game = BinaryTreeGame::new(40, 777);
    let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let cfg = MctsConfig {
        budget: Budget::time(std::time::Duration::from_secs(60)).with_stop_flag(flag),
        ..MctsConfig::default()
    };
    let r = search(&game, &cfg, &UniformRandom::default());
    assert_eq!(r.stop_reason, StopReason::Interrupted);
    assert!(r.elapsed.as_secs_f64() < 5.0);
}

#[test]
fn target_score_stops_the_search() {
    let game = SumGame::new(&[1, 2, 3, 4, 5, 6], 2);
    let cfg = MctsConfig {
        budget: Budget::iterations(1_000_000),
        target_score: Some(11.0),
        threads: 2,
        ..MctsConfig::default()
    };
    let r = search(&game, &cfg, &UniformRandom::default());
    assert_eq!(r.best_score, 11.0);
    assert!(r.iterations < 1_000_000);
    assert_eq!(r.stop_reason, StopReason::Solved);
}

#[test]
fn restarts_build_fresh_trees() {
    let game = SumGame::new(&[3, 9, 1, 7, 5, 8, 2], 3);
    let cfg = MctsConfig {
        budget: Budget::iterations(1_000),
        restart_after: Some(100),
        seed: 4,
        ..MctsConfig::default()
    };
    let r = search(&game, &cfg, &UniformRandom::default());
    assert_eq!(r.trees, 10);
    assert_eq!(r.iterations, 1_000);
    assert_eq!(r.best_score, 24.0);
}

#[test]
fn observer_hears_every_improvement_and_threshold_hit() {
    let game = SumGame::new(&[4, 8, 15, 16, 23, 42], 3);
    let bests = Mutex::new(Vec::new());
    let hits = AtomicUsize::new(0);
    let cfg = MctsConfig {
        budget: Budget::iterations(2_000),
        report_threshold: Some(70.0),
        seed: 8,
        ..MctsConfig::default()
    };
    let observer = |f: &Found<'_, SumGame>| {
        assert_eq!(replay(&game, f.sequence).score(), f.score);
        assert_eq!(f.state.score(), f.score);
        if f.new_best {
            bests.lock().unwrap().push(f.score);
        } else {
            assert!(f.score >= 70.0);
        }
        if f.score >= 70.0 {
            hits.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
    };
    let r = search_observed(&game, &cfg, &UniformRandom::default(), Some(&observer));
    let bests = bests.into_inner().unwrap();
    assert!(bests.windows(2).all(|w| w[0] < w[1]), "{bests:?}");
    assert_eq!(*bests.last().unwrap(), r.best_score);
    assert_eq!(r.best_score, 81.0);
    assert!(hits.into_inner() > 1);
    let trace: Vec<f64> = r.trace.iter().map(|p| p.score).collect();
    assert_eq!(trace, bests);
}

#[test]
fn amaf_and_rave_find_the_optimum() {
    let game = SumGame::new(&[6, 1, 9, 3, 12, 4, 2, 10], 4);
    for amaf in [Amaf::Alpha(0.5), Amaf::Rave { k: 100.0 }] {
        let cfg = MctsConfig {
            selection: SelectionPolicy::Ucb1 { c: 0.2 },
            amaf,
            reward: RewardTransform {
                offset: 0.0,
                scale: 1.0 / 37.0,
            },
            budget: Budget::iterations(5_000),
            seed: 2,
            ..MctsConfig::default()
        };
        let r = search(&game, &cfg, &UniformRandom::default());
        assert_eq!(r.best_score, 37.0, "{amaf:?}");
        // AMAF favours items that appear in good playouts: the best-mean root move is a big item.
        let first = r.best_mean_action().unwrap();
        assert!([2u8, 4, 7].contains(&first), "{amaf:?} chose item {first}");
    }
}

#[test]
fn per_move_play_reuses_the_subtree_and_ends_the_game() {
    let game = BinaryTreeGame::new(14, 0b10_1101_0011_0110);
    for move_choice in [
        MoveChoice::BestSequence,
        MoveChoice::MostVisited,
        MoveChoice::BestMean,
    ] {
        let cfg = MctsConfig {
            budget: Budget::iterations(u64::MAX),
            move_choice,
            seed: 6,
            ..MctsConfig::default()
        };
        let r = play_per_move(
            &game,
            &cfg,
            &UniformRandom::default(),
            &Budget::iterations(3_000),
        );
        let end = replay(&game, &r.best_sequence);
        assert!(end.is_terminal());
        assert_eq!(end.score(), r.best_score);
        assert_eq!(r.best_score, 1.0, "{move_choice:?}");
    }
}

#[test]
fn advance_keeps_the_chosen_subtree() {
    let game = SumGame::new(&[5, 6, 7, 8], 3);
    let cfg = MctsConfig {
        budget: Budget::iterations(500),
        ..MctsConfig::default()
    };
    let mut tree = MctsTree::new(game.clone(), &cfg);
    let mut rng = crate::Rng::new(3);
    let clock = cfg.budget.start();
    tree.run(
        &mut UniformRandom::default(),
        &mut rng,
        Some(500),
        &clock,
        None,
    );
    let child = tree
        .root_children()
        .into_iter()
        .max_by_key(|c| c.visits)
        .unwrap();
    tree.advance(child.action);
    assert_eq!(tree.root_visits(), child.visits);
    tree.validate().unwrap();
    let mut expected = game.clone();
    expected.apply(child.action);
    assert_eq!(tree.root_state(), &expected);
    tree.run(
        &mut UniformRandom::default(),
        &mut rng,
        Some(100),
        &clock,
        None,
    );
    tree.validate().unwrap();
}

#[test]
fn terminal_root_returns_at_once() {
    let game = SumGame::new(&[1, 2], 0);
    let cfg = MctsConfig {
        budget: Budget::iterations(100),
        ..MctsConfig::default()
    };
    let r = search(&game, &cfg, &UniformRandom::default());
    assert!(r.iterations <= 1);
    assert!(r.best_sequence.is_empty());
}

/// Solved-subtree marking: on a game small enough to enumerate (7 · 6 · 5 = 210 terminal
/// lines, 260 nodes), the search stops by itself once the root is solved, with the proven
/// optimum, long before the iteration budget; deterministic per seed; no restart follows an
/// exhausted tree; without marking the same budget is used to the end.
#[test]
fn solved_subtrees_end_an_exhaustive_search_with_the_optimum() {
    let values = [13, 2, 41, 7, 29, 3, 17];
    let game = SumGame::new(&values, 3);
    let nodes = 1 + 7 + 7 * 6 + 7 * 6 * 5;
    for (children, before) in [
        (ChildrenPerExpansion::One, 0),
        (ChildrenPerExpansion::All, 5),
    ] {
        let cfg = MctsConfig {
            selection: SelectionPolicy::SpMcts {
                c: 0.5,
                d: 0.05,
                w: 0.02,
            },
            expansion: Expansion {
                visits_before_expand: before,
                children,
            },
            budget: Budget::iterations(100_000),
            seed: 5,
            restart_after: Some(50_000),
            mark_solved: true,
            ..MctsConfig::default()
        };
        let r = search(&game, &cfg, &UniformRandom::default());
        assert_eq!(r.stop_reason, StopReason::Exhausted, "{children:?}");
        assert_eq!(r.best_score, game.optimum() as f64);
        assert_eq!(replay(&game, &r.best_sequence).score(), r.best_score);
        assert_eq!(r.trees, 1, "an exhausted tree is not restarted");
        assert!(
            r.iterations <= nodes * (before as u64 + 1),
            "{children:?}: {} iterations to exhaust {nodes} nodes",
            r.iterations
        );
        let again = search(&game, &cfg, &UniformRandom::default());
        assert_eq!(again.iterations, r.iterations);
        assert_eq!(again.best_sequence, r.best_sequence);
        let off = search(
            &game,
            &MctsConfig {
                mark_solved: false,
                restart_after: None,
                ..cfg.clone()
            },
            &UniformRandom::default(),
        );
        assert_eq!(off.iterations, 100_000);
        assert_eq!(off.stop_reason, StopReason::Iterations);
    }
}

/// A solved tree keeps valid bookkeeping and refuses further iterations.
#[test]
fn a_solved_tree_is_valid_and_stays_exhausted() {
    let game = SumGame::new(&[5, 1, 4, 2, 3], 2);
    let cfg = MctsConfig {
        mark_solved: true,
        ..MctsConfig::default()
    };
    let mut tree = MctsTree::new(game.clone(), &cfg);
    let clock = Budget::iterations(1).start();
    let mut rng = Rng::new(9);
    let mut policy = UniformRandom::default();
    let reason = tree.run(&mut policy, &mut rng, Some(10_000), &clock, None);
    assert_eq!(reason, StopReason::Exhausted);
    assert!(tree.iterations < 10_000);
    tree.validate().unwrap();
    assert_eq!(tree.best.as_ref().unwrap().score, 9.0);
    let before = tree.iterations;
    let again = tree.run(&mut policy, &mut rng, Some(10), &clock, None);
    assert_eq!(again, StopReason::Exhausted);
    assert_eq!(tree.iterations, before);
}

#[test]
fn sampled_iterations_follow_the_search_and_change_nothing() {
    let game = BinaryTreeGame::new(12, 0b1011_0011_1000);
    let plain = MctsConfig {
        budget: Budget::iterations(2_000),
        seed: 5,
        ..MctsConfig::default()
    };
    let sampled = MctsConfig {
        sample_every: Some(100),
        ..plain.clone()
    };
    let a = search(&game, &plain, &UniformRandom::default());
    let b = search(&game, &sampled, &UniformRandom::default());
    // Sampling reads the clock only: the same search.
    assert_eq!(a.best_sequence, b.best_sequence);
    assert_eq!(a.nodes, b.nodes);
    assert!(a.samples.is_empty());
    assert_eq!(b.samples.len(), 20);
    let iterations: Vec<u64> = b.samples.iter().map(|s| s.iteration).collect();
    assert_eq!(iterations, (0..20).map(|k| k * 100).collect::<Vec<_>>());
    for w in b.samples.windows(2) {
        assert!(w[1].nodes >= w[0].nodes && w[1].best_score >= w[0].best_score);
        assert!(w[1].time_s >= w[0].time_s);
    }
    let last = b.samples.last().unwrap();
    assert!(last.depth >= 1 && last.depth as usize + last.rollout as usize <= 12);
    assert_eq!(
        last.tree_bytes,
        last.nodes * node_bytes::<<BinaryTreeGame as Game>::Action>(&sampled) as u64
    );
}
