//! SameGame jobs (see `docs/METHODS.md#samegame`): solve boards with SP-MCTS, NMCS, NRPA, DBS, A*,
//! IDA* or random playouts ([`solve`]), the Czech thesis's comparison of playout policies and
//! selection formulas (§3.4, [`experiment_report()`]), playout and SP-MCTS speeds ([`bench()`]), and this
//! game's part of the `puzzle bench` signature ([`signature`]).
//!
//! Every answer in a [`BoardResult`] was replayed on the game's rules (by
//! [`puzzle_samegame::search::solve`], then once more here) before it was emitted. Moves are
//! reported as `{col, row}`: the column from the left, the row from the top of the board
//! before the move.

mod solve;
pub use solve::*;

mod bench;
mod experiment;

pub use self::bench::{bench, BenchEvent, BenchRequest, RateRecord, BENCH_PLAYOUTS};
pub use self::experiment::{
    experiment_report, paper_total, parse_formula, ExperimentEvent, ExperimentRequest, TotalRecord,
};

use crate::data::{samegame_set, SAMEGAME_SETS};
use crate::event::{Emit, EventKind, ItemProgress, JobEvent, Signature};
use crate::limits::Limits;
use crate::options::{choice_name, parse_choice};
use crate::shard::{ItemRecord, Items, Plan, Shard};
use anyhow::{anyhow, bail, Result};
use clap::ValueEnum;
use puzzle_engine::mcts::SelectionPolicy;
use puzzle_engine::{Budget, WorkCounter};
use puzzle_samegame::format::{self, NamedBoard};
use puzzle_samegame::playout::AnyChooser;
use puzzle_samegame::search::{
    self, Algorithm, Solution, SolveConfig, SpMctsSettings, TabuSchedule,
};
use puzzle_samegame::{Board, Move, Penalty, Scoring};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Default time per board, seconds, when neither a time limit nor an iteration budget is given.
pub const DEFAULT_TIME_LIMIT: f64 = 10.0;
/// Default node budget (search-tree nodes held at once).
pub const DEFAULT_MAX_NODES: usize = 4_000_000;
/// Default node budget of A* (its nodes are whole boards).
pub const ASTAR_MAX_NODES: usize = 300_000;
/// How often a running search reports its progress.
pub const PROGRESS_EVERY: Duration = Duration::from_millis(200);
/// The searches (see `docs/METHODS.md#samegame`).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum AlgorithmName {
    /// Single-player MCTS (Schadd et al. 2008).
    #[schemars(title = "SP-MCTS, single-player MCTS (Schadd et al. 2008)")]
    Spmcts,
    /// Nested Monte Carlo Search (Cazenave 2009).
    #[schemars(title = "NMCS, nested Monte Carlo search (Cazenave 2009)")]
    Nmcs,
    /// Nested Rollout Policy Adaptation (Rosin 2011), with the selective policy by default.
    #[default]
    #[schemars(title = "NRPA, nested rollout policy adaptation (Rosin 2011)")]
    Nrpa,
    /// Depth-budgeted search (beam of depth-limited lookaheads).
    #[schemars(title = "DBS, depth-budgeted search")]
    Dbs,
    /// A* maximising the score with the colour bound (small boards).
    #[schemars(title = "A* with the colour bound (small boards)")]
    Astar,
    /// IDA* with the same bound.
    #[schemars(title = "IDA* with the colour bound")]
    Idastar,
    /// The best of random playouts.
    #[schemars(title = "Random playouts, the best kept")]
    Random,
}

impl AlgorithmName {
    /// The game crate's search.
    pub fn algorithm(self) -> Algorithm {
        match choice_name(&self).parse() {
            Ok(a) => a,
            // The names are the game crate's own: a unit test parses every one.
            Err(e) => unreachable!("{e}"),
        }
    }
}

/// The scoring conventions.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum ScoringName {
    /// (n−2)² per group, +1000 for clearing the board.
    #[default]
    #[schemars(title = "Standard: (n − 2)², +1000 for clearing")]
    Standard,
    /// The Hungarian paper's (n−1)² per group, no bonus.
    #[schemars(title = "Hungarian: (n − 1)², no bonus")]
    Hungarian,
}

/// The end penalties for stones left.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum PenaltyName {
    /// No end penalty (Cazenave, CodinGame).
    #[default]
    #[schemars(title = "None (Cazenave, CodinGame)")]
    None,
    /// (m−2)² for the m stones left (js-games.de).
    #[schemars(title = "Total: −(m − 2)² for m stones left (js-games.de)")]
    Total,
    /// Σ(m_c−2)² over the colours left (Schadd).
    #[schemars(title = "Per colour: −Σ(m_c − 2)² (Schadd)")]
    PerColour,
}

/// Selective NRPA's tabu schedules (see [`TabuSchedule`]).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum TabuScheduleName {
    /// Run i takes the (i mod K)-th most frequent colour.
    #[schemars(title = "Round robin")]
    RoundRobin,
    /// One run per colour, then every run takes the colour whose runs scored best.
    #[default]
    #[schemars(title = "Best first")]
    BestFirst,
}

/// The scoring convention called `scoring` with the end penalty called `penalty` (the names of
/// [`ScoringName`] and [`PenaltyName`]).
pub fn scoring(scoring: &str, penalty: &str) -> Result<Scoring> {
    Ok(scoring_of(
        parse_choice("scoring", scoring)?,
        parse_choice("penalty", penalty)?,
    ))
}

/// The scoring convention with its end penalty.
pub fn scoring_of(scoring: ScoringName, penalty: PenaltyName) -> Scoring {
    let base = match scoring {
        ScoringName::Standard => Scoring::standard(),
        ScoringName::Hungarian => Scoring::hungarian(),
    };
    base.with_penalty(match penalty {
        PenaltyName::None => Penalty::None,
        PenaltyName::Total => Penalty::Total,
        PenaltyName::PerColour => Penalty::PerColour,
    })
}

/// Parse the boards of `text` (any format [`format::parse_any`] reads), naming `source` in
/// errors and board names. The error is the typed [`puzzle_samegame::FormatError`] (downcast
/// it for the line and column); its message already starts with `source:line:column`.
pub fn parse_boards(text: &str, source: &str, scoring: Scoring) -> Result<Vec<NamedBoard>> {
    format::parse_any(text, source, scoring).map_err(anyhow::Error::new)
}

/// Parse a random-board spec `COLSxROWSxCOLOURS`.
pub fn parse_random_spec(spec: &str) -> Result<(usize, usize, usize)> {
    let parts: Vec<&str> = spec.split(['x', 'X']).collect();
    let nums: Option<Vec<usize>> = parts.iter().map(|p| p.trim().parse().ok()).collect();
    match nums.as_deref() {
        Some([w, h, k]) => Ok((*w, *h, *k)),
        _ => bail!("--random {spec}: expected COLSxROWSxCOLOURS, e.g. 15x15x5"),
    }
}

/// The boards of the bundled set `id` (see [`crate::data::SAMEGAME_SETS`]), scored with
/// `scoring`.
pub fn bundled_boards(id: &str, scoring: Scoring) -> Result<Vec<NamedBoard>> {
    let set = samegame_set(id).ok_or_else(|| {
        anyhow!(
            "unknown board set '{id}' (bundled: {})",
            SAMEGAME_SETS.map(|s| s.id).join(", ")
        )
    })?;
    parse_boards(set.text, set.file, scoring)
}

/// This game's part of the `puzzle bench` signature: fixed-seed, iteration-budgeted runs on
/// standard board 1 (deterministic `work` and `result`).
pub fn signature() -> Result<Vec<Signature>> {
    let boards = bundled_boards("standard20", Scoring::standard())?;
    let board = &boards[0].board;
    let mut out = Vec::new();
    for (name, algorithm, iterations) in [
        ("samegame/spmcts-tabu", Algorithm::SpMcts, 3_000),
        ("samegame/random-tabu", Algorithm::Random, 2_000),
        ("samegame/idastar", Algorithm::IdaStar, 2_000),
    ] {
        let cfg = SolveConfig {
            algorithm,
            budget: Budget::iterations(iterations),
            seed: 1,
            threads: 1,
            ..SolveConfig::default()
        };
        let s = search::solve(board, &cfg, None).map_err(|e| anyhow!("{name}: {e}"))?;
        out.push(Signature {
            name: name.to_string(),
            work: s.iterations,
            result: s.score as f64,
            time_s: s.elapsed.as_secs_f64(),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use puzzle_samegame::Scratch;

    /// Run a solve, collecting its events.
    fn run(req: &SolveRequest) -> Result<(SolveSummary, Vec<SolveEvent>)> {
        let mut events = Vec::new();
        let stop = Arc::new(AtomicBool::new(false));
        let summary = solve(req, &stop, &mut |e| {
            events.push(e);
            Ok(())
        })?;
        Ok((summary, events))
    }

    /// Replay `moves` (top-based rows) on `board`: the final score and whether it cleared.
    fn replay(board: &Board, moves: &[MoveRecord]) -> (i64, bool) {
        let mut b = board.clone();
        let mut scratch = Scratch::new();
        for m in moves {
            let mv = b.move_from_top(m.col, m.row).expect("move on the board");
            b.try_play(mv, &mut scratch).expect("legal move");
        }
        assert!(!b.has_move(), "the game is not over");
        (b.final_score(), b.is_cleared())
    }

    fn standard20_text() -> String {
        crate::data::SAMEGAME_STANDARD20.to_string()
    }

    #[test]
    fn a_timed_solve_runs_on_the_cores() {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let stop = Arc::new(AtomicBool::new(false));
        let req = SolveRequest {
            text: Some(standard20_text()),
            ..SolveRequest::default()
        };
        assert_eq!(solve_config(&req, &stop).unwrap().1.threads, cores);
    }

    #[test]
    fn solved_boards_replay_and_the_summary_counts_them() {
        let req = SolveRequest {
            text: Some(standard20_text()),
            source: "standard20_digits.txt".into(),
            limits: Limits {
                iterations: Some(300),
                seed: Some(2),
                ..Limits::default()
            },
            ..SolveRequest::default()
        };
        let mut req_one = req.clone();
        req_one.board = Some(4);
        let boards = parse_boards(&standard20_text(), "d", Scoring::standard()).unwrap();
        for algo in AlgorithmName::value_variants() {
            req_one.algo = *algo;
            let algo = choice_name(algo);
            let (summary, events) = run(&req_one).unwrap();
            let results: Vec<&BoardResult> = events
                .iter()
                .filter_map(|e| match e {
                    SolveEvent::Board(r) => Some(r),
                    _ => None,
                })
                .collect();
            assert_eq!(results.len(), 1, "{algo}");
            let r = results[0];
            assert_eq!((r.board, r.algo.as_str()), (4, algo.as_str()));
            assert_eq!(replay(&boards[3].board, &r.moves), (r.score, r.cleared));
            assert_eq!(summary.total_score, r.score);
            assert!(matches!(events[0], SolveEvent::Search(_)), "{algo}");
            assert!(matches!(events.last(), Some(SolveEvent::Summary(_))));
            // The result serializes to the CLI's JSON line.
            let v = serde_json::to_value(&events[events.len() - 3]).unwrap();
            assert_eq!(v["board"], 4);
            assert!(v["moves"][0]["col"].is_u64() && v["stop"] == "Iterations");
        }
        // Three boards: three results, and the summary adds them up.
        let mut req3 = req;
        req3.text = Some(
            standard20_text()
                .split("# problem 04")
                .next()
                .unwrap()
                .to_string(),
        );
        let (summary, events) = run(&req3).unwrap();
        let scores: Vec<i64> = events
            .iter()
            .filter_map(|e| match e {
                SolveEvent::Board(r) => Some(r.score),
                _ => None,
            })
            .collect();
        assert_eq!(scores.len(), 3);
        assert_eq!(summary.boards, 3);
        assert_eq!(summary.searched, 3);
        assert_eq!(summary.total_score, scores.iter().sum::<i64>());
        assert!(!summary.interrupted);
    }

    #[test]
    fn a_random_board_is_reproducible() {
        let req = SolveRequest {
            random: Some("10x8x4".into()),
            algo: AlgorithmName::Nrpa,
            level: Some(2),
            limits: Limits {
                iterations: Some(500),
                seed: Some(3),
                ..Limits::default()
            },
            ..SolveRequest::default()
        };
        let moves = |events: Vec<SolveEvent>| {
            events.into_iter().find_map(|e| match e {
                SolveEvent::Board(r) => Some((r.name, r.moves)),
                _ => None,
            })
        };
        let (_, a) = run(&req).unwrap();
        let (_, b) = run(&req).unwrap();
        let a = moves(a).unwrap();
        assert_eq!(a.0, "random 10x8x4 seed 3");
        assert_eq!(Some(a), moves(b));
    }

    #[test]
    fn unknown_choices_are_refused_naming_the_choices() {
        for (field, value, message) in [
            (
                "algo",
                "magic",
                "unknown variant `magic`, expected one of `spmcts`",
            ),
            ("playout", "pseudo-0", "pseudo"),
            (
                "penalty",
                "some",
                "unknown variant `some`, expected one of `none`",
            ),
        ] {
            let json = serde_json::json!({ "job": "samegame_solve", field: value });
            let e = serde_json::from_value::<crate::JobRequest>(json).unwrap_err();
            assert!(e.to_string().contains(message), "{field}: {e}");
        }
        let e = scoring("fancy", "none").unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown scoring 'fancy' (choose from standard, hungarian)"
        );
        for name in choice_names_all() {
            assert_eq!(
                parse_choice::<AlgorithmName>("algo", &name)
                    .unwrap()
                    .algorithm()
                    .to_string(),
                name
            );
        }
    }

    fn choice_names_all() -> Vec<String> {
        crate::options::choice_names::<AlgorithmName>()
    }

    #[test]
    fn bad_requests_are_refused_naming_the_field() {
        let base = SolveRequest {
            text: Some(standard20_text()),
            ..SolveRequest::default()
        };
        let cases: Vec<(SolveRequest, &str)> = vec![
            (
                SolveRequest {
                    c: Some(-1.0),
                    ..base.clone()
                },
                "c must be a non-negative number",
            ),
            (
                SolveRequest {
                    depth: 9,
                    ..base.clone()
                },
                "depth must be 1 to 6",
            ),
            (
                SolveRequest {
                    tabu_colours: 0,
                    ..base.clone()
                },
                "tabu_colours must be 1 to 20",
            ),
            (
                SolveRequest {
                    board: Some(21),
                    ..base.clone()
                },
                "--board 21: the file has 20 board(s)",
            ),
            (
                SolveRequest {
                    random: Some("0x5x3".into()),
                    text: None,
                    ..base.clone()
                },
                "--random 0x5x3",
            ),
            (
                SolveRequest {
                    random: Some("5x5x3".into()),
                    ..base.clone()
                },
                "not both",
            ),
            (
                SolveRequest {
                    limits: Limits {
                        threads: Some(0),
                        ..Limits::default()
                    },
                    ..base.clone()
                },
                "threads must be 1 to 256",
            ),
        ];
        for (req, message) in cases {
            let err = run(&req).map(drop).unwrap_err();
            assert!(format!("{err:#}").contains(message), "{err:#} / {message}");
        }
        // A parse error keeps its line and column.
        let req = SolveRequest {
            text: Some("2 3 2\nRGR\nRGX\n".into()),
            source: "bad.txt".into(),
            ..SolveRequest::default()
        };
        let err = run(&req).map(drop).unwrap_err();
        let e = err
            .downcast_ref::<puzzle_samegame::FormatError>()
            .expect("a typed parse error");
        assert_eq!((e.file.as_str(), e.line, e.column), ("bad.txt", 3, Some(3)));
        assert!(format!("{err:#}").starts_with("bad.txt:3:3: unknown colour 'X'"));
    }

    #[test]
    fn a_request_parses_from_json_with_the_cli_defaults() {
        let req: crate::JobRequest = serde_json::from_value(serde_json::json!({
            "job": "samegame_solve",
            "random": "6x5x3",
            "iterations": 200,
        }))
        .unwrap();
        let crate::JobRequest::SamegameSolve(r) = &req else {
            panic!("{req:?}")
        };
        assert_eq!(
            (r.algo, r.playout.to_string().as_str()),
            (AlgorithmName::Nrpa, "tabu")
        );
        assert_eq!(
            (r.selective, r.tabu_colours, r.tabu_schedule),
            (true, 3, TabuScheduleName::BestFirst)
        );
        assert_eq!((r.visits_before_expand, r.depth), (20, 2));
        assert_eq!(r.limits.iterations, Some(200));
        let mut kinds = Vec::new();
        req.run(&Arc::new(AtomicBool::new(false)), &mut |kind, value| {
            if kind == EventKind::Result {
                assert_eq!(value["name"], "random 6x5x3 seed 1");
            }
            kinds.push(kind);
            Ok(())
        })
        .unwrap();
        assert_eq!(kinds.iter().filter(|k| **k == EventKind::Result).count(), 1);
        assert_eq!(kinds.last(), Some(&EventKind::Summary));
    }

    #[test]
    fn the_signature_is_deterministic() {
        let a = signature().unwrap();
        let b = signature().unwrap();
        assert_eq!(a.len(), 3);
        for (x, y) in a.iter().zip(&b) {
            assert_eq!((x.work, x.result), (y.work, y.result));
        }
    }
}
