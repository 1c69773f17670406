//! Compare SP-MCTS settings on the first boards of the standard set with a fixed playout
//! budget (deterministic, independent of machine load).
//! `cargo run --release -p puzzle-samegame --example samegame_tune -- ITERATIONS BOARDS`

use puzzle_engine::mcts::SelectionPolicy;
use puzzle_engine::Budget;
use puzzle_samegame::format::NamedBoard;
use puzzle_samegame::search::{self, SolveConfig, SpMctsSettings};
use puzzle_samegame::{format, Scoring};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let iterations: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(20_000);
    let count: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(5);
    let text = include_str!("../../../data/samegame/standard20_digits.txt");
    let boards = format::parse_digits(text, "digits", Scoring::standard()).unwrap();
    let settings: Vec<(&str, SelectionPolicy, f64, u32)> = vec![
        (
            "sp c0.05 d4e-4",
            SelectionPolicy::SpMcts {
                c: 0.05,
                d: 0.0004,
                w: 0.02,
            },
            2.0,
            20,
        ),
        (
            "sp c0.01 d4e-4",
            SelectionPolicy::SpMcts {
                c: 0.01,
                d: 0.0004,
                w: 0.02,
            },
            2.0,
            20,
        ),
        (
            "sp c0.1 d4e-4",
            SelectionPolicy::SpMcts {
                c: 0.1,
                d: 0.0004,
                w: 0.02,
            },
            2.0,
            20,
        ),
        (
            "sp c0.05 d1e-2",
            SelectionPolicy::SpMcts {
                c: 0.05,
                d: 0.01,
                w: 0.02,
            },
            2.0,
            20,
        ),
        (
            "sp c0.05 d0 w0",
            SelectionPolicy::SpMcts {
                c: 0.05,
                d: 0.0,
                w: 0.0,
            },
            2.0,
            20,
        ),
        ("ucb1 0.1", SelectionPolicy::Ucb1 { c: 0.1 }, 2.0, 20),
        ("ucb1 0.05", SelectionPolicy::Ucb1 { c: 0.05 }, 2.0, 20),
        (
            "sp c0.05 d4e-4 vbe5",
            SelectionPolicy::SpMcts {
                c: 0.05,
                d: 0.0004,
                w: 0.02,
            },
            2.0,
            5,
        ),
    ];
    // Every run: the iteration budget, seed 1, one tree unless the variant says otherwise.
    let base = SolveConfig {
        budget: Budget::iterations(iterations),
        seed: 1,
        ..SolveConfig::default()
    };
    let sp = SpMctsSettings::default;
    let selection = |c: f64, w: f64| SelectionPolicy::SpMcts { c, d: 0.0004, w };
    let boards = &boards[..count.min(boards.len())];
    match args.get(3).map(String::as_str) {
        Some("c-restart") => {
            for (c, restart) in [(0.1, None), (0.2, None), (0.1, Some(50_000u64))] {
                let spmcts = SpMctsSettings {
                    selection: selection(c, 0.02),
                    restart_after: restart,
                    ..sp()
                };
                let cfg = SolveConfig {
                    spmcts,
                    ..base.clone()
                };
                report(&format!("c {c} restart {restart:?}"), boards, &cfg);
            }
        }
        Some("restart") => {
            for restart in [None, Some(20_000u64), Some(50_000), Some(100_000)] {
                let spmcts = SpMctsSettings {
                    restart_after: restart,
                    ..sp()
                };
                let cfg = SolveConfig {
                    spmcts,
                    ..base.clone()
                };
                report(&format!("restart {restart:?}"), boards, &cfg);
            }
        }
        Some("scale") => {
            for scale in [1.0, 4.0, 8.0] {
                let spmcts = SpMctsSettings {
                    reward_scale: scale,
                    ..sp()
                };
                let cfg = SolveConfig {
                    spmcts,
                    ..base.clone()
                };
                report(&format!("scale {scale:4}"), boards, &cfg);
            }
        }
        Some("w") => {
            let variants = [
                ("w0.1", selection(0.05, 0.1), 1),
                ("w0.5", selection(0.05, 0.5), 1),
                ("w0.5 c0.02", selection(0.02, 0.5), 1),
                ("default 2 threads", sp().selection, 2),
            ];
            for (name, selection, threads) in variants {
                let spmcts = SpMctsSettings { selection, ..sp() };
                let cfg = SolveConfig {
                    threads,
                    spmcts,
                    ..base.clone()
                };
                report(name, boards, &cfg);
            }
        }
        Some("playouts") => {
            for name in [
                "tabu",
                "tabu-colour",
                "double-tabu",
                "pseudo-tabu",
                "eps0.05-double-tabu",
            ] {
                let cfg = SolveConfig {
                    playout: name.parse().unwrap(),
                    ..base.clone()
                };
                report(name, boards, &cfg);
            }
        }
        Some("per-move") => per_move(boards),
        _ => {
            for (name, selection, scale, vbe) in settings {
                let spmcts = SpMctsSettings {
                    selection,
                    reward_scale: scale,
                    visits_before_expand: vbe,
                    ..sp()
                };
                let cfg = SolveConfig {
                    spmcts,
                    ..base.clone()
                };
                report(name, boards, &cfg);
            }
        }
    }
}

/// Solve each board with `cfg`; print the total and the per-board scores.
fn report(label: &str, boards: &[NamedBoard], cfg: &SolveConfig) {
    let scores: Vec<_> = boards
        .iter()
        .map(|nb| search::solve(&nb.board, cfg, None).unwrap().score)
        .collect();
    let total: i64 = scores.iter().sum();
    println!("{label:22} total {total:6} {scores:?}");
}

/// Per-move play (the engine's `play_per_move`) with 250 / 500 / 1000 playouts per move.
fn per_move(boards: &[NamedBoard]) {
    for per in [250u64, 500, 1000] {
        let mut total = 0;
        let mut scores = Vec::new();
        let mut its = 0;
        for nb in boards {
            let cfg = SolveConfig {
                seed: 1,
                ..SolveConfig::default()
            };
            let mut mc = search::mcts_config(&nb.board, &cfg);
            mc.budget = Budget::time(std::time::Duration::from_secs(3600));
            let policy =
                puzzle_samegame::playout::Playout::new(puzzle_samegame::playout::AnyChooser::Tabu);
            let r = puzzle_engine::mcts::play_per_move(
                &nb.board,
                &mc,
                &policy,
                &Budget::iterations(per),
            );
            let end = search::replay(&nb.board, &r.best_sequence).unwrap();
            total += end.final_score();
            its += r.iterations;
            scores.push(end.final_score());
        }
        println!(
            "per-move {per:5} total {total:6} {scores:?} iterations {}",
            its / boards.len().max(1) as u64
        );
    }
}
