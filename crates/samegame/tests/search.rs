//! Every search returns a complete legal game whose replayed score is the reported one;
//! A* and IDA* that finish are optimal (checked by brute force on small boards).

use puzzle_engine::Budget;
use puzzle_samegame::playout::{AnyChooser, Playout};
use puzzle_samegame::search::{self, Algorithm, SolveConfig};
use puzzle_samegame::{bounded, format, Board, Penalty, Scoring};

mod common;
use common::best_final;

fn config(algorithm: Algorithm, iterations: u64) -> SolveConfig {
    SolveConfig {
        algorithm,
        budget: Budget::iterations(iterations),
        seed: 3,
        nmcs_level: 1,
        nrpa_level: 1,
        ..SolveConfig::default()
    }
}

#[test]
fn every_algorithm_replays_to_its_score() {
    let b = Board::random(8, 8, 4, 11, Scoring::standard()).unwrap();
    for algorithm in Algorithm::ALL {
        let s = search::solve(&b, &config(algorithm, 3000), None).unwrap();
        let end = search::verify(&b, &s.moves, s.score).unwrap();
        assert_eq!(end.is_cleared(), s.cleared, "{algorithm}");
        assert!(!end.has_move(), "{algorithm}");
        assert!(s.iterations > 0, "{algorithm}");
    }
}

#[test]
fn every_playout_policy_finishes_the_game() {
    let b = Board::random(10, 10, 5, 5, Scoring::standard()).unwrap();
    for name in [
        "random",
        "tabu",
        "tabu-colour",
        "pseudo",
        "pseudo-tabu-5",
        "double-tabu",
        "roulette",
        "eps0.2-double-tabu",
    ] {
        let playout: AnyChooser = name.parse().unwrap();
        let cfg = SolveConfig {
            playout,
            ..config(Algorithm::Random, 50)
        };
        let s = search::solve(&b, &cfg, None).unwrap();
        search::verify(&b, &s.moves, s.score).unwrap();
    }
}

#[test]
fn tabu_playouts_beat_random_ones_on_average() {
    let text = include_str!("../../../data/samegame/standard20/problem02.txt");
    let b = format::parse_standard(text, "p", Scoring::standard()).unwrap();
    let mean = |name: &str| {
        let mut p = Playout::new(name.parse::<AnyChooser>().unwrap());
        let mut rng = puzzle_engine::Rng::new(1);
        let mut total = 0i64;
        for _ in 0..300 {
            let mut s = b.clone();
            p.run(&mut s, &mut rng);
            total += s.final_score();
        }
        total / 300
    };
    assert!(mean("tabu") > mean("random") + 50);
}

#[test]
fn spmcts_is_deterministic_and_improves_on_random_playouts() {
    let text = include_str!("../../../data/samegame/standard20/problem03.txt");
    let b = format::parse_standard(text, "p", Scoring::standard()).unwrap();
    let a = search::solve(&b, &config(Algorithm::SpMcts, 4000), None).unwrap();
    let again = search::solve(&b, &config(Algorithm::SpMcts, 4000), None).unwrap();
    assert_eq!(a.moves, again.moves);
    let random = search::solve(&b, &config(Algorithm::Random, 4000), None).unwrap();
    assert!(
        a.score >= random.score - 200,
        "{} vs {}",
        a.score,
        random.score
    );
    let threads = SolveConfig {
        threads: 2,
        ..config(Algorithm::SpMcts, 4000)
    };
    let t = search::solve(&b, &threads, None).unwrap();
    search::verify(&b, &t.moves, t.score).unwrap();
    assert_eq!(t.iterations, 4000);
}

#[test]
fn observer_hears_improvements_in_order() {
    let b = Board::random(9, 9, 4, 2, Scoring::standard()).unwrap();
    let heard = std::sync::Mutex::new(Vec::new());
    let cb = |score: i64, moves: &[puzzle_samegame::Move]| {
        search::verify(&b, moves, score).unwrap();
        heard.lock().unwrap().push(score);
    };
    let s = search::solve(&b, &config(Algorithm::SpMcts, 2000), Some(&cb)).unwrap();
    let heard = heard.into_inner().unwrap();
    assert!(heard.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(heard.last().copied(), Some(s.score));
}

#[test]
fn astar_and_idastar_are_optimal_on_small_boards() {
    for seed in 0..12 {
        let scoring = match seed % 3 {
            0 => Scoring::standard(),
            1 => Scoring::hungarian(),
            _ => Scoring::standard().with_penalty(Penalty::PerColour),
        };
        let b = Board::random(4, 4, 3, seed, scoring).unwrap();
        let best = best_final(&b);
        let a = bounded::astar(&b, &Budget::iterations(1_000_000), 1);
        assert!(a.optimal, "seed {seed}");
        assert_eq!(a.score, best, "A* seed {seed}");
        search::verify(&b, &a.moves, a.score).unwrap();
        let i = bounded::idastar(&b, &Budget::iterations(1_000_000), 1);
        assert!(i.optimal, "seed {seed}");
        assert_eq!(i.score, best, "IDA* seed {seed}");
        search::verify(&b, &i.moves, i.score).unwrap();
    }
}

#[test]
fn bounded_searches_respect_their_budget_and_still_answer() {
    let text = include_str!("../../../data/samegame/standard20/problem04.txt");
    let b = format::parse_standard(text, "p", Scoring::standard()).unwrap();
    let a = bounded::astar(&b, &Budget::iterations(200).with_max_nodes(20_000), 1);
    assert!(!a.optimal && a.expanded <= 200 && a.peak_stored <= 20_000);
    search::verify(&b, &a.moves, a.score).unwrap();
    let i = bounded::idastar(&b, &Budget::iterations(500), 1);
    assert!(!i.optimal && i.expanded <= 500);
    search::verify(&b, &i.moves, i.score).unwrap();
}

#[test]
fn replay_rejects_bad_sequences() {
    let b = Board::random(6, 6, 3, 1, Scoring::standard()).unwrap();
    let s = search::solve(&b, &config(Algorithm::Random, 10), None).unwrap();
    assert!(search::verify(&b, &s.moves, s.score + 1).is_err());
    assert!(search::replay(&b, &s.moves[..s.moves.len() - 1]).is_err());
    let mut bad = s.moves.clone();
    bad.insert(0, puzzle_samegame::Move { col: 50, row: 0 });
    assert!(search::replay(&b, &bad).is_err());
}

#[test]
fn per_move_mode_replays_is_deterministic_and_keeps_its_iteration_budget() {
    let text = include_str!("../../../data/samegame/standard20/problem04.txt");
    let b = format::parse_standard(text, "p", Scoring::standard()).unwrap();
    let mut cfg = config(Algorithm::SpMcts, 6000);
    cfg.spmcts.per_move = true;
    let heard = std::sync::Mutex::new(Vec::new());
    let cb = |score: i64, moves: &[puzzle_samegame::Move]| {
        search::verify(&b, moves, score).unwrap();
        heard.lock().unwrap().push(score);
    };
    let a = search::solve(&b, &cfg, Some(&cb)).unwrap();
    search::verify(&b, &a.moves, a.score).unwrap();
    assert!(a.iterations <= 6000, "{}", a.iterations);
    let heard = heard.into_inner().unwrap();
    assert!(heard.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(heard.last().copied(), Some(a.score));
    let again = search::solve(&b, &cfg, None).unwrap();
    assert_eq!(a.moves, again.moves);
}

#[test]
fn per_move_mode_finds_the_optimum_of_small_boards() {
    // With solved-subtree marking, each step's search proves its position's best line on a
    // 4×4 board, so committing moves of the best game can only lead to the optimum.
    for seed in 0..8 {
        let b = Board::random(4, 4, 3, seed, Scoring::standard()).unwrap();
        let mut cfg = config(Algorithm::SpMcts, 200_000);
        cfg.spmcts.per_move = true;
        cfg.spmcts.restart_after = None;
        let s = search::solve(&b, &cfg, None).unwrap();
        assert_eq!(s.score, best_final(&b), "seed {seed}");
    }
}

#[test]
fn selective_moves_avoid_the_tabu_colour_while_another_group_exists() {
    use puzzle_engine::Game;
    use puzzle_samegame::selective::Selective;
    for seed in 0..6 {
        let b = Board::random(10, 10, 4, seed, Scoring::standard()).unwrap();
        let mut game = Selective::new(b.clone());
        let tabu = game.tabu();
        assert_eq!(
            b.counts()[tabu as usize],
            *b.counts()[1..].iter().max().unwrap()
        );
        let mut rng = puzzle_engine::Rng::new(seed);
        let (mut moves, mut codes, mut all) = (Vec::new(), Vec::new(), Vec::new());
        let mut scratch = puzzle_samegame::Scratch::new();
        while !game.is_terminal() {
            game.legal_actions(&mut moves);
            game.legal_actions_coded(&mut all, &mut codes);
            assert_eq!(moves, all);
            for (&m, &c) in moves.iter().zip(&codes) {
                assert_eq!(game.board().action_code(m), c);
            }
            let colours: Vec<u8> = moves
                .iter()
                .map(|&m| game.board().group_at(m, &mut scratch).unwrap().1)
                .collect();
            let mut every = Vec::new();
            game.board().legal_actions(&mut every);
            let other_exists = every
                .iter()
                .any(|&m| game.board().group_at(m, &mut scratch).unwrap().1 != tabu);
            if other_exists {
                assert!(colours.iter().all(|&c| c != tabu));
                // Exactly the plain moves without the tabu colour, in the plain order.
                let others: Vec<_> = every
                    .iter()
                    .copied()
                    .filter(|&m| game.board().group_at(m, &mut scratch).unwrap().1 != tabu)
                    .collect();
                assert_eq!(moves, others);
            } else {
                assert_eq!(moves, every);
            }
            game.apply(moves[rng.below(moves.len())]);
        }
        assert!(!game.board().has_move());
    }
}

/// Solve twice with `cfg`: the answer replays to its score and both runs play the same moves.
fn replayed_twice(b: &Board, cfg: &SolveConfig) -> search::Solution {
    let a = search::solve(b, cfg, None).unwrap();
    search::verify(b, &a.moves, a.score).unwrap();
    let again = search::solve(b, cfg, None).unwrap();
    assert_eq!(a.moves, again.moves);
    a
}

/// Standard board 7, whose best tabu colour is the second most frequent one.
fn problem07() -> Board {
    let text = include_str!("../../../data/samegame/standard20/problem07.txt");
    format::parse_standard(text, "p", Scoring::standard()).unwrap()
}

/// Selective NRPA at `level` with the tabu colour best-first over three colours and
/// `iterations` playouts.
fn best_first(level: usize, iterations: u64) -> SolveConfig {
    SolveConfig {
        nrpa_selective: true,
        nrpa_tabu_colours: 3,
        nrpa_tabu_schedule: search::TabuSchedule::BestFirst,
        nrpa_level: level,
        ..config(Algorithm::Nrpa, iterations)
    }
}

#[test]
fn selective_nrpa_replays_and_is_deterministic() {
    let text = include_str!("../../../data/samegame/standard20/problem05.txt");
    let b = format::parse_standard(text, "p", Scoring::standard()).unwrap();
    let cfg = SolveConfig {
        nrpa_selective: true,
        nrpa_level: 2,
        ..config(Algorithm::Nrpa, 3000)
    };
    let a = replayed_twice(&b, &cfg);
    assert_eq!(a.iterations, 3000);
}

#[test]
fn rotating_tabu_colours_replay_and_rank_the_colours() {
    use puzzle_samegame::selective::Selective;
    let b = problem07();
    let ranked = Selective::ranked_colours(&b);
    assert_eq!(ranked.len(), 5);
    assert!(ranked
        .windows(2)
        .all(|w| b.counts()[w[0] as usize] >= b.counts()[w[1] as usize]));
    assert_eq!(ranked[0], Selective::new(b.clone()).tabu());
    let cfg = SolveConfig {
        nrpa_selective: true,
        nrpa_tabu_colours: 2,
        nrpa_level: 1,
        ..config(Algorithm::Nrpa, 1_050)
    };
    let a = replayed_twice(&b, &cfg);
    assert_eq!(a.iterations, 1_050);
}

#[test]
fn best_first_tabu_schedule_tries_each_colour_then_keeps_the_best() {
    use puzzle_samegame::search::TabuSchedule;
    let ninf = f64::NEG_INFINITY;
    // Exploration: one run per candidate, in order, whatever the scores.
    assert_eq!(TabuSchedule::BestFirst.pick(0, &[ninf; 3]), 0);
    assert_eq!(TabuSchedule::BestFirst.pick(1, &[900.0, ninf, ninf]), 1);
    assert_eq!(TabuSchedule::BestFirst.pick(2, &[900.0, 2000.0, ninf]), 2);
    // Then the candidate with the best score; ties go to the more frequent colour.
    assert_eq!(TabuSchedule::BestFirst.pick(3, &[900.0, 2000.0, 1500.0]), 1);
    assert_eq!(
        TabuSchedule::BestFirst.pick(9, &[2000.0, 2000.0, 1500.0]),
        0
    );
    assert_eq!(TabuSchedule::BestFirst.pick(4, &[900.0, 1000.0, 1500.0]), 2);
    // A candidate whose only run was cut short (no score) is never preferred.
    assert_eq!(TabuSchedule::BestFirst.pick(3, &[900.0, ninf, 500.0]), 0);
    // Round robin ignores the scores.
    assert_eq!(TabuSchedule::RoundRobin.pick(4, &[0.0, 9.0, 1.0]), 1);
    assert_eq!(TabuSchedule::RoundRobin.pick(5, &[0.0, 9.0, 1.0]), 2);
}

#[test]
fn best_first_tabu_runs_replay_and_are_reproducible() {
    use puzzle_samegame::search::TabuSchedule;
    let b = problem07();
    let cfg = best_first(1, 1_250);
    let a = replayed_twice(&b, &cfg);
    assert_eq!(a.iterations, 1_250);
    // At least as good as the round-robin schedule's first three runs, which it repeats.
    let three = SolveConfig {
        nrpa_tabu_schedule: TabuSchedule::RoundRobin,
        budget: Budget::iterations(300),
        ..cfg.clone()
    };
    let r = search::solve(&b, &three, None).unwrap();
    assert!(a.score >= r.score, "{} < {}", a.score, r.score);
}

#[test]
fn endgame_searches_replay_and_never_lose_what_the_runs_found() {
    let b = problem07();
    let cfg = SolveConfig {
        nrpa_endgame_percent: 40,
        ..best_first(2, 50_000)
    };
    let a = replayed_twice(&b, &cfg);
    assert_eq!(a.iterations, 50_000);
    // The same colour runs on their 60 % alone: the endgame searches start from their best
    // game and keep it unless they find better.
    let runs_only = SolveConfig {
        nrpa_endgame_percent: 0,
        budget: Budget::iterations(30_000),
        ..cfg.clone()
    };
    let r = search::solve(&b, &runs_only, None).unwrap();
    assert!(a.score >= r.score, "{} < {}", a.score, r.score);
}
