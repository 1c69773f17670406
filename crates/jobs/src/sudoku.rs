//! Sudoku jobs (see `docs/METHODS.md#sudoku`; the Czech thesis's
//! chapter 4): solve the puzzles of a text with the
//! thesis's MCTS solver or the exact bitboard solver, generate unique-solution puzzles, time the
//! exact solver over a puzzle file, and the thesis's test grid as a Markdown report
//! ([`experiment_report()`]). Every solution in a result was checked against its puzzle first.

mod bench;
mod generate;
mod solve;
pub use bench::*;
pub use generate::*;
use solve::check_simulations;
pub use solve::*;

mod experiment;

pub use experiment::{
    experiment_report, BudgetRow, ExperimentEvent, ExperimentRequest, GridPuzzleName, GridRow,
};

use crate::data::{SUDOKU_EASY, SUDOKU_HARDEST11};
use crate::event::{Emit, EventKind, ItemProgress, JobEvent, Signature};
use crate::limits::Limits;
use crate::options::choice_name;
use crate::shard::{Items, Plan, Shard};
use anyhow::{bail, Context, Result};
use clap::ValueEnum;
use puzzle_engine::Rng;
use puzzle_engine::WorkCounter;
use puzzle_sudoku::generator::generate as generate_puzzle;
use puzzle_sudoku::mcts::{
    solve_mcts, solve_mcts_watched, CellChoice, MctsSudokuConfig, PlayoutKind, Selection,
};
use puzzle_sudoku::{parse_puzzle, parse_puzzles, solve_exact, ExactLimits, Grid, ParsedPuzzle};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The solvers.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum AlgorithmName {
    /// The thesis's MCTS solver (chapter 4), with the most-constrained cell by default.
    #[default]
    #[schemars(title = "MCTS (the thesis's solver)")]
    Mcts,
    /// Constraint propagation and search; proves uniqueness.
    #[schemars(title = "Exact: propagation and search (proves uniqueness)")]
    Exact,
}

/// MCTS cell choices, for playouts (thesis 4.3.3) and for the tree's expansion (4.3.4 leaves
/// it open); `mrv` is an extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum CellName {
    /// A random empty cell.
    Random,
    /// Prefer the row, column and box of the previous move.
    Pseudo,
    /// The most constrained cell (beyond the thesis).
    Mrv,
}

/// MCTS selection formulas (thesis 4.3.5).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum SelectionName {
    /// UCB1 with UCTK.
    #[default]
    Ucb1,
    /// UCB1-Tuned.
    UcbTuned,
}

/// Named settings of [`SolveRequest`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum PresetName {
    /// The Czech thesis's exact MCTS: random playouts, a random cell for expansion, UCB1 with
    /// UCTK 0.2, no AMAF, 10 visits before expansion (solves none of top95,
    /// `docs/benchmarks/sudoku.md` 2.3).
    #[schemars(title = "The thesis's settings (random cells)")]
    Thesis,
}

/// The default MCTS playout and tree cell choice, the strongest measured (top95: 95/95,
/// forum-hardest-1106: 375/375; `docs/benchmarks/sudoku.md` 2.1).
pub const DEFAULT_CELL: CellName = CellName::Mrv;

/// What the exact-solver benchmark solves for.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum BenchModeName {
    /// Stop at the first solution.
    #[default]
    First,
    /// Up to two solutions (proves uniqueness).
    Unique,
}
/// The most simulations per tree (or simulation limit) a request may ask for.
pub const MAX_SIMULATIONS: u64 = 10_000_000_000;
/// The most restarts a solve may ask for.
pub const MAX_RESTARTS: u64 = 1_000_000;
/// The most puzzles one generation may ask for.
pub const MAX_GENERATE: u64 = 1_000_000;

/// A receiver of events callable from the search's progress thread.
type Send<'a> = &'a (dyn Fn(SolveEvent) -> Result<()> + Sync);

/// Sudoku's part of the `puzzle bench` signature: the exact solver on Norvig's hardest 11
/// (work: guesses) and a fixed-seed MCTS solve of the easy puzzle (work: simulations).
pub fn signature() -> Result<Vec<Signature>> {
    let mut lines = Vec::new();
    let start = Instant::now();
    let hardest = parse_puzzle_text(SUDOKU_HARDEST11, "bundled hardest11")?;
    let (mut guesses, mut unique) = (0u64, 0u64);
    for p in &hardest {
        let o = solve_exact(&p.grid, ExactLimits::default());
        guesses += o.guesses;
        unique += u64::from(o.is_unique());
    }
    lines.push(Signature {
        name: "sudoku/exact-hardest11".into(),
        work: guesses,
        result: unique as f64,
        time_s: start.elapsed().as_secs_f64(),
    });
    let start = Instant::now();
    let grid = parse_puzzle(SUDOKU_EASY).map_err(|e| anyhow::anyhow!("{e}"))?;
    let cfg = MctsSudokuConfig {
        max_simulations: 20_000,
        seed: 1,
        ..MctsSudokuConfig::default()
    };
    let r = solve_mcts(&grid, &cfg).map_err(|e| anyhow::anyhow!(e))?;
    lines.push(Signature {
        name: "sudoku/mcts-easy".into(),
        work: r.simulations,
        result: f64::from(u8::from(r.solution.is_some())),
        time_s: start.elapsed().as_secs_f64(),
    });
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::SUDOKU_TOP95;
    use crate::JobRequest;

    /// An independent check: `solution` is 81 digits whose rows, columns and boxes are 1..9,
    /// and it keeps every clue of `puzzle`.
    pub(super) fn assert_completes(solution: &str, puzzle: &str) {
        let s: Vec<u32> = solution.chars().map(|c| c.to_digit(10).unwrap()).collect();
        assert_eq!(s.len(), 81, "{solution}");
        for (p, &v) in puzzle.chars().zip(&s) {
            if let Some(d) = p.to_digit(10).filter(|&d| d != 0) {
                assert_eq!(d, v, "a clue changed in {solution}");
            }
        }
        for u in 0..9 {
            let (mut row, mut col, mut bx) = (0u32, 0u32, 0u32);
            for k in 0..9 {
                row |= 1 << s[u * 9 + k];
                col |= 1 << s[k * 9 + u];
                bx |= 1 << s[(u / 3 * 3 + k / 3) * 9 + u % 3 * 3 + k % 3];
            }
            assert_eq!((row, col, bx), (0x3FE, 0x3FE, 0x3FE), "unit {u}");
        }
    }

    fn run_solve(req: &SolveRequest, stop: bool) -> Result<(Vec<SolveEvent>, SolveSummary)> {
        let mut events = Vec::new();
        let stop = Arc::new(AtomicBool::new(stop));
        let summary = solve(req, &stop, &mut |e| {
            events.push(e);
            Ok(())
        })?;
        Ok((events, summary))
    }

    fn records(events: &[SolveEvent]) -> Vec<&SolveRecord> {
        events
            .iter()
            .filter_map(|e| match e {
                SolveEvent::Puzzle(r) => Some(r),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn exact_solves_hardest11_and_the_summary_counts_the_records() {
        let req = SolveRequest {
            puzzles: SUDOKU_HARDEST11.into(),
            algo: AlgorithmName::Exact,
            ..SolveRequest::default()
        };
        let (events, summary) = run_solve(&req, false).unwrap();
        let recs = records(&events);
        assert_eq!(recs.len(), 11);
        for (i, r) in recs.iter().enumerate() {
            assert_eq!(r.index, i + 1);
            assert!(r.solved);
            assert_eq!(r.solutions, Some(1));
            assert_eq!(r.algo, "exact");
            assert_completes(&r.solution, &r.puzzle);
            assert_eq!(r.grid.to_line(), r.solution);
        }
        assert_eq!(summary.puzzles, 11);
        assert_eq!(summary.solved, recs.iter().filter(|r| r.solved).count());
        let guesses: u64 = recs.iter().map(|r| r.simulations).sum();
        assert_eq!(summary.mean_simulations, guesses as f64 / 11.0);
        assert!(!summary.interrupted);
        assert!(matches!(events.last(), Some(SolveEvent::Summary(_))));
        // The record is the CLI's JSON line: the same keys, the grid left out.
        let json = serde_json::to_value(SolveEvent::Puzzle(recs[0].clone())).unwrap();
        let keys: Vec<&str> = json
            .as_object()
            .unwrap()
            .keys()
            .map(|k| k.as_str())
            .collect();
        for key in [
            "index",
            "puzzle",
            "solved",
            "solution",
            "simulations",
            "restarts",
            "time_s",
            "algo",
            "solutions",
            "guesses",
            "line",
            "item",
        ] {
            assert!(keys.contains(&key), "{key} missing from {json}");
        }
        assert_eq!(keys.len(), 12, "{json}");
    }

    #[test]
    fn the_default_is_the_most_constrained_cell_and_the_thesis_preset_restores_the_thesis() {
        let stop = Arc::new(AtomicBool::new(false));
        let cfg = mcts_config(&SolveRequest::default(), &stop).unwrap();
        assert_eq!(cfg.playout, PlayoutKind::MostConstrained);
        assert_eq!(cfg.tree_cell, CellChoice::MostConstrained);
        let thesis = SolveRequest {
            preset: Some(PresetName::Thesis),
            ..SolveRequest::default()
        };
        let cfg = mcts_config(&thesis, &stop).unwrap();
        assert_eq!(cfg.playout, PlayoutKind::Random);
        assert_eq!(cfg.tree_cell, CellChoice::Random);
        assert_eq!(cfg.selection, Selection::Ucb1 { uctk: 0.2 });
        assert_eq!((cfg.amaf, cfg.visits_before_expand), (None, 10));
        assert_eq!(cfg.threads, 1);
        // A field given beside the preset wins over it.
        let pseudo = SolveRequest {
            playout: Some(CellName::Pseudo),
            ..thesis.clone()
        };
        let cfg = mcts_config(&pseudo, &stop).unwrap();
        assert_eq!(cfg.playout, PlayoutKind::PseudoRandom);
        assert_eq!(cfg.tree_cell, CellChoice::Random);
        // The request's JSON takes the preset by name, and refuses an unknown one.
        let req: SolveRequest = serde_json::from_str(r#"{"preset": "thesis"}"#).unwrap();
        assert_eq!(req.preset, Some(PresetName::Thesis));
        let err = serde_json::from_str::<SolveRequest>(r#"{"preset": "paper"}"#)
            .unwrap_err()
            .to_string();
        assert!(err.contains("paper") && err.contains("thesis"), "{err}");
    }

    #[test]
    fn the_default_mcts_solves_hardest11() {
        let req = SolveRequest {
            puzzles: SUDOKU_HARDEST11.into(),
            ..SolveRequest::default()
        };
        let (_, summary) = run_solve(&req, false).unwrap();
        assert_eq!(summary.solved, 11);
    }

    #[test]
    fn mcts_solves_the_easy_puzzle_within_its_iteration_budget() {
        let req = SolveRequest {
            puzzles: SUDOKU_EASY.into(),
            playout: Some(CellName::Pseudo),
            max_simulations: 5_000,
            restarts: 1,
            limits: Limits {
                seed: Some(9),
                ..Limits::default()
            },
            ..SolveRequest::default()
        };
        let (events, summary) = run_solve(&req, false).unwrap();
        let recs = records(&events);
        assert_eq!(recs.len(), 1);
        let r = recs[0];
        assert!(r.simulations <= 10_000, "{} simulations", r.simulations);
        if r.solved {
            assert_completes(&r.solution, SUDOKU_EASY);
            assert_eq!(summary.mean_simulations, r.simulations as f64);
        } else {
            assert_eq!(r.simulations, 10_000);
        }
        assert_eq!(summary.solved, usize::from(r.solved));
        // Live progress came first: simulations within the budget, the deepest fill between
        // the clues and the whole grid.
        let searches: Vec<&SearchProgress> = events
            .iter()
            .filter_map(|e| match e {
                SolveEvent::Search(s) => Some(s),
                _ => None,
            })
            .collect();
        assert!(!searches.is_empty());
        assert!(matches!(events[0], SolveEvent::Search(_)));
        for s in &searches {
            assert_eq!((s.puzzle, s.cells), (1, 81));
            assert!(s.simulations <= 10_000 && s.restarts <= 1);
            assert!((32..=81).contains(&s.best_filled), "{}", s.best_filled);
        }
        let json = serde_json::to_value(SolveEvent::Search(searches[0].clone())).unwrap();
        assert!(json.get("best_filled").is_some() && json.get("restarts").is_some());
        // The same seed gives the same run.
        let (again, _) = run_solve(&req, false).unwrap();
        assert_eq!(records(&again)[0].simulations, r.simulations);
        assert_eq!(records(&again)[0].solution, r.solution);
    }

    #[test]
    fn a_stopped_solve_ends_with_an_interrupted_summary() {
        let req = SolveRequest {
            puzzles: SUDOKU_HARDEST11.into(),
            ..SolveRequest::default()
        };
        let (events, summary) = run_solve(&req, true).unwrap();
        assert!(records(&events).is_empty());
        assert!(summary.interrupted);
        assert_eq!((summary.puzzles, summary.solved), (11, 0));
    }

    #[test]
    fn unknown_choices_are_refused_naming_the_field_value() {
        for (field, value) in [
            ("algo", "dfs"),
            ("playout", "smart"),
            ("selection", "ucb2"),
            ("tree_cell", "first"),
        ] {
            let json = serde_json::json!({ field: value });
            let err = serde_json::from_value::<SolveRequest>(json)
                .unwrap_err()
                .to_string();
            assert!(
                err.contains(value) && err.contains("expected"),
                "{field}: {err}"
            );
        }
    }

    #[test]
    fn bad_solve_requests_are_refused_naming_the_field() {
        let base = SolveRequest {
            puzzles: SUDOKU_EASY.into(),
            ..SolveRequest::default()
        };
        let cases: Vec<(SolveRequest, &str)> = vec![
            (
                SolveRequest {
                    uctk: -1.0,
                    ..base.clone()
                },
                "uctk",
            ),
            (
                SolveRequest {
                    uctk: f64::NAN,
                    ..base.clone()
                },
                "uctk",
            ),
            (
                SolveRequest {
                    amaf: Some(1.5),
                    ..base.clone()
                },
                "amaf",
            ),
            (
                SolveRequest {
                    max_simulations: 0,
                    ..base.clone()
                },
                "max_simulations",
            ),
            (
                SolveRequest {
                    restarts: 2_000_000,
                    ..base.clone()
                },
                "restarts",
            ),
            (
                SolveRequest {
                    limits: Limits {
                        threads: Some(0),
                        ..Limits::default()
                    },
                    ..base.clone()
                },
                "threads",
            ),
        ];
        for (req, field) in cases {
            let err = run_solve(&req, false).unwrap_err().to_string();
            assert!(err.contains(field), "{field}: {err}");
        }
    }

    #[test]
    fn parse_errors_keep_their_line_and_column() {
        let req = SolveRequest {
            puzzles: format!("{SUDOKU_EASY}\n{}\n", SUDOKU_EASY.replacen('.', "x", 1)),
            source: "mine.txt".into(),
            ..SolveRequest::default()
        };
        let err = run_solve(&req, false).unwrap_err();
        assert_eq!(err.to_string(), "mine.txt");
        let parse = err
            .downcast_ref::<puzzle_sudoku::ParseError>()
            .expect("the typed parse error");
        assert_eq!((parse.line, parse.column), (2, Some(1)));
        assert!(format!("{err:#}").starts_with("mine.txt: line 2, column 1"));
        let empty = SolveRequest {
            puzzles: "# nothing\n".into(),
            ..SolveRequest::default()
        };
        let err = run_solve(&empty, false).unwrap_err().to_string();
        assert!(err.contains("no puzzle"), "{err}");
    }

    #[test]
    fn generated_puzzles_are_unique_and_counted() {
        let req = GenerateRequest {
            count: 2,
            limits: Limits {
                seed: Some(5),
                ..Limits::default()
            },
            ..GenerateRequest::default()
        };
        let mut events = Vec::new();
        let stop = Arc::new(AtomicBool::new(false));
        let summary = generate(&req, &stop, &mut |e| {
            events.push(e);
            Ok(())
        })
        .unwrap();
        let puzzles: Vec<&GeneratedRecord> = events
            .iter()
            .filter_map(|e| match e {
                GenerateEvent::Puzzle(g) => Some(g),
                _ => None,
            })
            .collect();
        assert_eq!(puzzles.len(), 2);
        assert_eq!(summary.generated, 2);
        assert!(!summary.interrupted);
        for (i, g) in puzzles.iter().enumerate() {
            assert_eq!(g.index, i as u64 + 1);
            assert_eq!(g.seed, Rng::stream_seed(5, i as u64));
            assert_completes(&g.solution, &g.puzzle);
            let grid = parse_puzzle(&g.puzzle).unwrap();
            assert_eq!(grid.clue_count(), g.clues);
            let check = solve_exact(&grid, ExactLimits::default());
            assert!(check.is_unique());
        }
        for (count, box_size, field) in [(0, 3, "count"), (1, 5, "box_size")] {
            let bad = GenerateRequest {
                count,
                box_size,
                ..GenerateRequest::default()
            };
            let err = generate(&bad, &stop, &mut |_| Ok(())).unwrap_err();
            assert!(err.to_string().contains(field), "{err}");
        }
    }

    #[test]
    fn bench_solves_every_puzzle_of_a_pass() {
        let req = BenchRequest {
            puzzles: SUDOKU_HARDEST11.into(),
            source: "hardest11".into(),
            mode: BenchModeName::Unique,
            repeat: 2,
            ..BenchRequest::default()
        };
        let mut events = Vec::new();
        let stop = Arc::new(AtomicBool::new(false));
        let record = bench(&req, &stop, &mut |e| {
            events.push(e);
            Ok(())
        })
        .unwrap();
        assert_eq!((record.puzzles, record.solved), (11, 11));
        assert_eq!(record.file, "hardest11");
        assert_eq!(record.mode, "unique");
        assert!(record.puzzles_per_s > 0.0 && record.best_pass_s > 0.0);
        let passes = events
            .iter()
            .filter(|e| matches!(e, BenchEvent::Progress(_)))
            .count();
        assert_eq!(passes, 2);
        // The exact solver's guesses on hardest11 are the signature's work.
        let work = signature().unwrap()[0].work;
        assert_eq!(record.guesses_per_puzzle, work as f64 / 11.0);
        let bad = BenchRequest {
            puzzles: SUDOKU_TOP95.into(),
            repeat: 0,
            ..BenchRequest::default()
        };
        let err = bench(&bad, &stop, &mut |_| Ok(())).unwrap_err();
        assert!(err.to_string().contains("repeat"), "{err}");
        let err = serde_json::from_str::<BenchRequest>(r#"{"mode": "all"}"#).unwrap_err();
        assert!(err.to_string().contains("unknown variant `all`"), "{err}");
    }

    #[test]
    fn job_requests_run_from_json() {
        let json = serde_json::json!({
            "job": "sudoku_solve",
            "puzzles": SUDOKU_EASY,
            "algo": "exact",
        });
        let req: JobRequest = serde_json::from_value(json).unwrap();
        assert_eq!(req.name(), "sudoku_solve");
        let mut out = Vec::new();
        req.run(&Arc::new(AtomicBool::new(false)), &mut |kind, value| {
            out.push((kind, value));
            Ok(())
        })
        .unwrap();
        let results: Vec<_> = out
            .iter()
            .filter(|(k, _)| *k == EventKind::Result)
            .collect();
        assert_eq!(results.len(), 1);
        assert_eq!(results[0].1["solutions"], 1);
        assert_completes(results[0].1["solution"].as_str().unwrap(), SUDOKU_EASY);
        let (kind, summary) = out.last().unwrap();
        assert_eq!(*kind, EventKind::Summary);
        assert_eq!(summary["solved"], 1);

        let mut bad: JobRequest = serde_json::from_value(serde_json::json!({
            "job": "sudoku_bench", "puzzles": SUDOKU_EASY, "repeat": 1, "time_limit": 5
        }))
        .unwrap();
        assert_eq!(bad.limits_mut().time_limit, Some(5.0));
        bad.limits_mut().threads = Some(1000);
        let err = bad
            .run(&Arc::new(AtomicBool::new(false)), &mut |_, _| Ok(()))
            .unwrap_err();
        assert!(err.to_string().contains("threads"), "{err}");
    }

    #[test]
    fn the_signature_is_deterministic() {
        let a = signature().unwrap();
        let b = signature().unwrap();
        let names: Vec<&str> = a.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["sudoku/exact-hardest11", "sudoku/mcts-easy"]);
        for (x, y) in a.iter().zip(&b) {
            assert_eq!((x.work, x.result), (y.work, y.result));
        }
        assert_eq!(a[0].result, 11.0);
    }
}
