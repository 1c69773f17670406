//! Solving a board with any of the searches (see `docs/METHODS.md#samegame-spmcts`
//! and `docs/METHODS.md#samegame-dbs`),
//! with every answer verified by replaying it ([`replay`]).
//!
//! - SP-MCTS: the engine's MCTS with Schadd's selection formula (C, D, W·max), all children
//!   expanded after [`SpMctsSettings::visits_before_expand`] playouts (20, the thesis §3.4),
//!   normalized rewards, root-parallel threads and optional random restarts; the answer is
//!   the best sequence found by the global search (Hungarian paper §3.6);
//! - NMCS (the crate's playout policies at level 0) and NRPA from the engine, repeated until
//!   the budget ends, with the group's colour and cells as NRPA's move code
//!   ([`Board::group_code`] via `Game::action_code`);
//! - DBS (the engine's depth-budgeted search completed by a playout policy), A* and IDA*
//!   ([`crate::bounded`]);
//! - Random: independent playouts of the chosen policy, keeping the best.

use crate::board::{Board, Move, Scratch};
use crate::bounded;
use crate::playout::{AnyChooser, Playout};
use puzzle_engine::mcts::{
    self, ChildrenPerExpansion, Expansion, MctsConfig, RewardTransform, SelectionPolicy,
};
use puzzle_engine::{Budget, PlayoutPolicy, Rng, StopReason};
use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

/// The searches of `puzzle solve samegame --algo`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Algorithm {
    /// Single-player MCTS (Schadd et al. 2008).
    SpMcts,
    /// Nested Monte Carlo Search (Cazenave 2009).
    Nmcs,
    /// Nested Rollout Policy Adaptation (Rosin 2011); with [`SolveConfig`]'s defaults the
    /// selective policy (Cazenave 2016) with best-first tabu colours, the strongest search
    /// here at every budget measured (docs/benchmarks/samegame.md).
    #[default]
    Nrpa,
    /// Depth-budgeted search (Billings; the first SameGame benchmark program).
    Dbs,
    /// A* on the admissible bound.
    AStar,
    /// IDA* on the admissible bound.
    IdaStar,
    /// Independent playouts, best kept.
    Random,
}

impl Algorithm {
    /// Every algorithm, in CLI order.
    pub const ALL: [Algorithm; 7] = [
        Algorithm::SpMcts,
        Algorithm::Nmcs,
        Algorithm::Nrpa,
        Algorithm::Dbs,
        Algorithm::AStar,
        Algorithm::IdaStar,
        Algorithm::Random,
    ];
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Algorithm::SpMcts => "spmcts",
            Algorithm::Nmcs => "nmcs",
            Algorithm::Nrpa => "nrpa",
            Algorithm::Dbs => "dbs",
            Algorithm::AStar => "astar",
            Algorithm::IdaStar => "idastar",
            Algorithm::Random => "random",
        })
    }
}

impl FromStr for Algorithm {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Algorithm::ALL
            .into_iter()
            .find(|a| a.to_string() == s)
            .ok_or_else(|| {
                format!("unknown algorithm '{s}' (expected spmcts, nmcs, nrpa, dbs, astar, idastar or random)")
            })
    }
}

/// SP-MCTS settings; `Default` follows the papers (Schadd et al.; the Czech thesis §3.4),
/// with C, D and the reward scale tuned here for normalized rewards.
#[derive(Clone, Debug, PartialEq)]
pub struct SpMctsSettings {
    /// The selection formula: by default SP-MCTS with the constants below.
    pub selection: SelectionPolicy,
    /// Playouts through a leaf before it is expanded (20 in the thesis and Schadd).
    pub visits_before_expand: u32,
    /// Expand all children at once (Schadd) or one per playout (Coulom).
    pub all_children: bool,
    /// Restart with a fresh tree after this many playouts per thread (random restarts,
    /// Schadd et al. 2012; Hungarian paper §3.7). Default 20,000: a tree finds its best line
    /// early and then mostly revisits it (see docs/benchmarks/samegame.md).
    pub restart_after: Option<u64>,
    /// Rewards are `score · reward_scale / bound`, `bound` the root's upper bound
    /// ([`Board::upper_bound`]), unless `reward` is set.
    pub reward_scale: f64,
    /// An explicit reward map, e.g. the thesis's `(score + 1500) / max_score` (§3.3.4).
    pub reward: Option<RewardTransform>,
    /// Solved-subtree marking ([`MctsConfig::mark_solved`]): finished lines (terminal
    /// positions, nodes whose children are all finished) are never selected again. On by
    /// default (see docs/benchmarks/samegame.md for the fixed-iteration comparison).
    pub mark_solved: bool,
    /// Per-move mode (see `docs/METHODS.md#mcts-final-decision`: search, play one move, search
    /// again from the new root): instead of one global search, run a search from the current
    /// position for a share of the remaining budget, commit the next move of the best game found so
    /// far, and repeat. The best game is kept across steps, so each committed move extends it and
    /// the answer is never worse than the first search's. Off by default.
    pub per_move: bool,
}

impl Default for SpMctsSettings {
    fn default() -> Self {
        SpMctsSettings {
            selection: SelectionPolicy::SpMcts {
                c: 0.05,
                d: 0.0004,
                w: 0.02,
            },
            visits_before_expand: 20,
            all_children: true,
            restart_after: Some(20_000),
            reward_scale: 2.0,
            reward: None,
            mark_solved: true,
            per_move: false,
        }
    }
}

/// Everything that configures [`solve`]. `Default` is the strongest configuration measured
/// (docs/benchmarks/samegame.md, "Selective NRPA by default"): selective NRPA, level 3, whose
/// restarts choose their tabu colour best-first among the three most frequent colours, each
/// thread starting at a different colour. The papers' settings: [`SolveConfig::spmcts`]
/// (Schadd et al.), [`SolveConfig::cazenave_selective`] (Cazenave 2016),
/// [`SolveConfig::rosin_nrpa`].
#[derive(Clone, Debug)]
pub struct SolveConfig {
    /// The search.
    pub algorithm: Algorithm,
    /// The playout policy (SP-MCTS, DBS completions, NMCS, Random).
    pub playout: AnyChooser,
    /// Time, iterations (playouts / expansions), nodes, stop flag.
    pub budget: Budget,
    /// Seed (runs are reproducible for a seed, thread count and iteration budget).
    pub seed: u64,
    /// Root-parallel threads (SP-MCTS; NRPA: independent runs, the best kept).
    pub threads: usize,
    /// SP-MCTS settings.
    pub spmcts: SpMctsSettings,
    /// NMCS nesting level (Cazenave: 3 on the standard boards).
    pub nmcs_level: usize,
    /// NRPA nesting level.
    pub nrpa_level: usize,
    /// NRPA with the selective policy ([`crate::selective`]): the root's most frequent
    /// colour is not played while another group exists.
    pub nrpa_selective: bool,
    /// NRPA playouts per level-1 step (Stabilized NRPA's P; 1 = plain NRPA).
    pub nrpa_stabilization: usize,
    /// NRPA's top-level lineages cut by successive halving
    /// ([`puzzle_engine::nrpa::NrpaConfig::lineages`]; 1 = Rosin's NRPA).
    pub nrpa_lineages: usize,
    /// Selective NRPA: the restarts take their tabu colour from the `k` most frequent colours
    /// (1 = always the most frequent, Cazenave's choice), in the order
    /// [`SolveConfig::nrpa_tabu_schedule`] gives.
    pub nrpa_tabu_colours: usize,
    /// Selective NRPA with `nrpa_tabu_colours > 1`: which candidate colour each restart takes.
    pub nrpa_tabu_schedule: TabuSchedule,
    /// Selective NRPA with `nrpa_tabu_colours > 1`: the percentage of each thread's budget kept
    /// for endgame searches after the colour runs (0 = none): NRPA runs from the positions
    /// after 1/2, 2/3 and 5/6 of the best game's moves in turn, with its tabu colour, each
    /// starting from the game's own tail; a better completion replaces the tail.
    pub nrpa_endgame_percent: u32,
    /// DBS depth.
    pub dbs_depth: usize,
}

impl Default for SolveConfig {
    fn default() -> Self {
        SolveConfig {
            algorithm: Algorithm::Nrpa,
            playout: AnyChooser::default(),
            budget: Budget::time(Duration::from_secs(10)),
            seed: 1,
            threads: 1,
            spmcts: SpMctsSettings::default(),
            nmcs_level: 2,
            nrpa_level: 3,
            nrpa_selective: true,
            nrpa_stabilization: 1,
            nrpa_lineages: 1,
            nrpa_tabu_colours: 3,
            nrpa_tabu_schedule: TabuSchedule::BestFirst,
            nrpa_endgame_percent: 0,
            dbs_depth: 2,
        }
    }
}

impl SolveConfig {
    /// SP-MCTS as in Schadd et al. (2008, 2012) with the settings of [`SpMctsSettings`].
    pub fn spmcts() -> Self {
        SolveConfig {
            algorithm: Algorithm::SpMcts,
            ..SolveConfig::default()
        }
    }

    /// Cazenave's "Nested Rollout Policy Adaptation with Selective Policies" (2016): level 3,
    /// the most frequent colour always tabu.
    pub fn cazenave_selective() -> Self {
        SolveConfig {
            nrpa_tabu_colours: 1,
            nrpa_tabu_schedule: TabuSchedule::RoundRobin,
            ..SolveConfig::default()
        }
    }

    /// Rosin's NRPA (2011): level 3, every move allowed.
    pub fn rosin_nrpa() -> Self {
        SolveConfig {
            nrpa_selective: false,
            nrpa_tabu_colours: 1,
            nrpa_tabu_schedule: TabuSchedule::RoundRobin,
            ..SolveConfig::default()
        }
    }
}

/// How the restarts of selective NRPA share out the candidate tabu colours (the
/// [`SolveConfig::nrpa_tabu_colours`] most frequent colours of the root position).
///
/// Which colour is kept for the end decides much of the score (the selective policy of
/// Cazenave's "Nested Rollout Policy Adaptation with Selective Policies", 2016), and the most
/// frequent colour is not always the best one: on standard board 7 level-3 runs with the most
/// frequent colour tabu score about 1,900, with the second about 3,150.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TabuSchedule {
    /// Run `i` takes the `(i mod k)`-th candidate.
    RoundRobin,
    /// One run per candidate, in order of frequency; every later run takes the candidate whose
    /// runs reached the best score so far (ties: the more frequent colour). Runs of one colour
    /// differ by a few hundred points, colours often by far more, so the remaining time goes
    /// to the colour that showed it is best.
    #[default]
    BestFirst,
}

impl TabuSchedule {
    /// The index (into the candidates) of the colour run `run` takes, given each candidate's
    /// best score so far (`NEG_INFINITY` for one not run yet).
    pub fn pick(self, run: usize, best_by_candidate: &[f64]) -> usize {
        let k = best_by_candidate.len().max(1);
        match self {
            TabuSchedule::RoundRobin => run % k,
            TabuSchedule::BestFirst if run < k => run,
            TabuSchedule::BestFirst => {
                let mut pick = 0;
                for (i, &b) in best_by_candidate.iter().enumerate() {
                    if b > best_by_candidate[pick] {
                        pick = i;
                    }
                }
                pick
            }
        }
    }
}

/// A verified answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// The moves, from the start.
    pub moves: Vec<Move>,
    /// The final score under the board's convention (checked by replay).
    pub score: i64,
    /// The board was cleared.
    pub cleared: bool,
    /// Iterations (playouts, or expansions for A*/IDA*).
    pub iterations: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// The search proved the score optimal (A*/IDA* that finished).
    pub optimal: bool,
    /// Why the search ended.
    pub stop_reason: StopReason,
}

/// A move sequence that does not replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    /// Move `index` (0-based) names no removable group.
    Illegal {
        /// Position in the sequence.
        index: usize,
        /// The move.
        mv: Move,
    },
    /// The sequence ends while groups remain.
    NotFinished {
        /// Moves in the sequence.
        moves: usize,
    },
    /// The replayed score differs from the claimed one.
    ScoreMismatch {
        /// Claimed.
        claimed: i64,
        /// Replayed.
        replayed: i64,
    },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Illegal { index, mv } => write!(
                f,
                "move {} (column {}, row {} from the bottom) removes no group",
                index + 1,
                mv.col,
                mv.row
            ),
            ReplayError::NotFinished { moves } => {
                write!(f, "after {moves} moves the game is not over")
            }
            ReplayError::ScoreMismatch { claimed, replayed } => {
                write!(
                    f,
                    "claimed score {claimed} but the replay scores {replayed}"
                )
            }
        }
    }
}

impl std::error::Error for ReplayError {}

/// Replay `moves` from `board` to the end of the game; returns the final position.
pub fn replay(board: &Board, moves: &[Move]) -> Result<Board, ReplayError> {
    let mut state = board.clone();
    let mut scratch = Scratch::new();
    for (index, &mv) in moves.iter().enumerate() {
        if state.try_play(mv, &mut scratch).is_none() {
            return Err(ReplayError::Illegal { index, mv });
        }
    }
    if state.has_move() {
        return Err(ReplayError::NotFinished { moves: moves.len() });
    }
    Ok(state)
}

/// Check that `moves` is a complete game from `board` scoring `claimed`.
pub fn verify(board: &Board, moves: &[Move], claimed: i64) -> Result<Board, ReplayError> {
    let end = replay(board, moves)?;
    if end.final_score() != claimed {
        return Err(ReplayError::ScoreMismatch {
            claimed,
            replayed: end.final_score(),
        });
    }
    Ok(end)
}

/// The MCTS configuration SP-MCTS uses for `board`.
pub fn mcts_config(board: &Board, cfg: &SolveConfig) -> MctsConfig {
    let s = &cfg.spmcts;
    let bound = board.upper_bound().max(1) as f64;
    MctsConfig {
        selection: s.selection,
        expansion: Expansion {
            visits_before_expand: s.visits_before_expand,
            children: if s.all_children {
                ChildrenPerExpansion::All
            } else {
                ChildrenPerExpansion::One
            },
        },
        reward: s.reward.unwrap_or(RewardTransform {
            offset: 0.0,
            scale: s.reward_scale / bound,
        }),
        budget: cfg.budget.clone(),
        seed: cfg.seed,
        threads: cfg.threads.max(1),
        restart_after: s.restart_after,
        mark_solved: s.mark_solved,
        ..MctsConfig::default()
    }
}

/// A callback hearing every improvement: (final score, moves from the start).
pub type OnBest<'a> = &'a (dyn Fn(i64, &[Move]) + Sync);

/// Solve `board` with `cfg`; the answer is replayed and checked before it is returned.
/// `on_best` hears every improvement (score, moves) as it is found (SP-MCTS, Random).
pub fn solve(
    board: &Board,
    cfg: &SolveConfig,
    on_best: Option<OnBest<'_>>,
) -> Result<Solution, ReplayError> {
    let start = Instant::now();
    let mut bounded_cfg;
    let cfg = if cfg.budget.is_unbounded() {
        // Never run unbounded: fall back to the engine's default time limit.
        bounded_cfg = cfg.clone();
        bounded_cfg.budget = cfg.budget.bounded();
        &bounded_cfg
    } else {
        cfg
    };
    let policy = Playout::new(cfg.playout.clone());
    let (moves, score, iterations, optimal, stop_reason) = match cfg.algorithm {
        Algorithm::SpMcts if cfg.spmcts.per_move => {
            let (moves, score, iterations, stop) = per_move_search(board, cfg, &policy, on_best)?;
            (moves, score, iterations, false, stop)
        }
        Algorithm::SpMcts => {
            let mc = mcts_config(board, cfg);
            let best_seen = std::sync::Mutex::new(i64::MIN);
            let observer = |found: &mcts::Found<'_, Board>| {
                if let Some(cb) = on_best {
                    let score = found.state.final_score();
                    let mut b = best_seen.lock().unwrap_or_else(|e| e.into_inner());
                    if score > *b {
                        *b = score;
                        cb(score, found.sequence);
                    }
                }
            };
            let r = mcts::search_observed(board, &mc, &policy, Some(&observer));
            let (moves, score) = finish(board, r.best_sequence, &policy, cfg.seed)?;
            (moves, score, r.iterations, false, r.stop_reason)
        }
        Algorithm::Random => {
            let ((moves, score), iterations, stop) =
                random_search(board, cfg, &policy, &cfg.budget, on_best);
            (moves, score, iterations, false, stop)
        }
        Algorithm::Dbs => {
            let config = puzzle_engine::classic::DbsConfig {
                depth: cfg.dbs_depth.max(1),
                seed: cfg.seed,
            };
            let r = puzzle_engine::classic::dbs(board, &config, &policy, &cfg.budget);
            let (moves, score) = finish(board, r.sequence, &policy, cfg.seed)?;
            (moves, score, r.playouts, false, r.stop_reason)
        }
        Algorithm::AStar => {
            let r = bounded::astar(board, &cfg.budget, cfg.seed);
            (r.moves, r.score, r.expanded, r.optimal, r.stop_reason)
        }
        Algorithm::IdaStar => {
            let r = bounded::idastar(board, &cfg.budget, cfg.seed);
            (r.moves, r.score, r.expanded, r.optimal, r.stop_reason)
        }
        Algorithm::Nmcs => {
            let config = puzzle_engine::nmcs::NmcsConfig {
                level: cfg.nmcs_level.max(1),
                seed: cfg.seed,
                target_score: None,
                repeat: true,
            };
            let mut observer = |seq: &[Move], score: f64| {
                if let Some(cb) = on_best {
                    cb(score as i64, seq);
                }
            };
            let r = puzzle_engine::nmcs::search_observed(
                board,
                &config,
                &policy,
                &cfg.budget,
                Some(&mut observer),
            );
            let (moves, score) = finish(board, r.best_sequence, &policy, cfg.seed)?;
            (moves, score, r.playouts, false, r.stop_reason)
        }
        Algorithm::Nrpa => {
            let config = puzzle_engine::nrpa::NrpaConfig {
                level: cfg.nrpa_level.max(1),
                stabilization: cfg.nrpa_stabilization.max(1),
                seed: cfg.seed,
                repeat: true,
                lineages: cfg.nrpa_lineages.max(1),
                ..puzzle_engine::nrpa::NrpaConfig::default()
            };
            let observer = |seq: &[Move], score: f64| {
                if let Some(cb) = on_best {
                    cb(score as i64, seq);
                }
            };
            let threads = cfg.threads.max(1);
            let r = if cfg.nrpa_selective && cfg.nrpa_tabu_colours > 1 {
                rotating_tabu_nrpa(board, cfg, &config, &observer)
            } else if cfg.nrpa_selective {
                let game = crate::selective::Selective::new(board.clone());
                puzzle_engine::nrpa::search_parallel(
                    &game,
                    &config,
                    &cfg.budget,
                    threads,
                    Some(&observer),
                )
            } else {
                puzzle_engine::nrpa::search_parallel(
                    board,
                    &config,
                    &cfg.budget,
                    threads,
                    Some(&observer),
                )
            };
            let (moves, score) = finish(board, r.best_sequence, &policy, cfg.seed)?;
            (moves, score, r.playouts, false, r.stop_reason)
        }
    };
    let end = verify(board, &moves, score)?;
    Ok(Solution {
        moves,
        score,
        cleared: end.is_cleared(),
        iterations,
        elapsed: start.elapsed(),
        optimal,
        stop_reason,
    })
}

type Found = (Vec<Move>, i64);

/// Selective NRPA whose restarts take their tabu colour from the board's
/// [`SolveConfig::nrpa_tabu_colours`] most frequent colours as [`TabuSchedule`] says: complete
/// runs (run `i` seeded with stream `i` of the seed) until the budget ends; the best kept.
///
/// With several threads each thread keeps its own schedule over the same candidates, thread
/// `t` starting at the `t`-th (so two threads try the two most frequent colours at once);
/// iterations and nodes are split between the threads, and the best game of all is kept
/// (ties: the lower thread). Thread 0 is exactly the one-thread search, and every thread's
/// runs depend only on its own results, so with an iteration budget the answer is the same
/// on every machine.
fn rotating_tabu_nrpa(
    board: &Board,
    cfg: &SolveConfig,
    config: &puzzle_engine::nrpa::NrpaConfig,
    observer: &(dyn Fn(&[Move], f64) + Sync),
) -> puzzle_engine::nrpa::NrpaResult<Move> {
    let mut colours = crate::selective::Selective::ranked_colours(board);
    colours.truncate(cfg.nrpa_tabu_colours.max(1));
    if colours.is_empty() {
        colours.push(1);
    }
    let deadline = cfg.budget.start();
    let best_seen = std::sync::Mutex::new(f64::NEG_INFINITY);
    let hear = |seq: &[Move], score: f64| {
        let mut best = best_seen.lock().unwrap_or_else(|e| e.into_inner());
        if score > *best {
            *best = score;
            observer(seq, score);
        }
    };
    let threads = cfg.threads.max(1);
    let mut best = puzzle_engine::nrpa::best_of_threads(threads, |thread| {
        let budget = cfg.budget.thread_share(thread, threads);
        let seed = match thread {
            0 => cfg.seed,
            _ => puzzle_engine::Rng::stream_seed(cfg.seed, (1 << 32) + thread as u64),
        };
        let mut order = colours.clone();
        order.rotate_left(thread % colours.len());
        let runs = ColourRuns {
            board,
            colours: &order,
            schedule: cfg.nrpa_tabu_schedule,
            config,
            seed,
            thread,
            endgame_percent: cfg.nrpa_endgame_percent.min(90),
        };
        runs.run(&budget, &deadline, &hear)
    });
    best.elapsed = deadline.elapsed();
    best
}

/// One thread's complete selective NRPA runs, each with the tabu colour its schedule picks.
struct ColourRuns<'a> {
    board: &'a Board,
    /// The candidate tabu colours, in the order the schedule tries them first.
    colours: &'a [u8],
    schedule: TabuSchedule,
    config: &'a puzzle_engine::nrpa::NrpaConfig,
    /// Run `i` is seeded with stream `i` of this seed.
    seed: u64,
    /// For the trace events.
    thread: usize,
    /// [`SolveConfig::nrpa_endgame_percent`] (at most 90).
    endgame_percent: u32,
}

/// Where the endgame searches start, as fractions of the best game's moves.
const ENDGAME_CUTS: [(usize, usize); 3] = [(1, 2), (2, 3), (5, 6)];

impl ColourRuns<'_> {
    /// Runs until `budget` (this thread's iterations and nodes) or `deadline` ends. Each
    /// completed run and each endgame search ends with a `tracing` debug event (target
    /// `puzzle_samegame::search`); traces change nothing in the search.
    fn run(
        &self,
        budget: &Budget,
        deadline: &puzzle_engine::Deadline,
        hear: &(dyn Fn(&[Move], f64) + Sync),
    ) -> puzzle_engine::nrpa::NrpaResult<Move> {
        use puzzle_engine::nrpa::{search_parallel, NrpaConfig};
        let mut best_by_colour = vec![f64::NEG_INFINITY; self.colours.len()];
        let mut total: Option<puzzle_engine::nrpa::NrpaResult<Move>> = None;
        let (mut playouts, mut runs, mut peak) = (0u64, 0u64, 0usize);
        // The colour runs' part of the budget (all of it without endgame searches).
        let endgame = self.endgame_percent as u64;
        let runs_iterations = budget.max_iterations.map(|n| n - n / 100 * endgame);
        let runs_until = deadline
            .remaining()
            .map(|left| deadline.elapsed() + left - left * endgame as u32 / 100);
        let mut best_tabu = self.colours[0];
        for run in 0u64.. {
            let mut budget = budget.clone();
            if let Some(n) = runs_iterations {
                budget.max_iterations = Some(n.saturating_sub(playouts));
            }
            if let Some(until) = runs_until {
                budget.max_time = Some(until.saturating_sub(deadline.elapsed()));
            }
            let run_config = NrpaConfig {
                seed: puzzle_engine::Rng::stream_seed(self.seed, run),
                repeat: false,
                ..self.config.clone()
            };
            let pick = self.schedule.pick(run as usize, &best_by_colour);
            let tabu = self.colours[pick];
            let game = crate::selective::Selective::with_tabu(self.board.clone(), tabu);
            let r = search_parallel(&game, &run_config, &budget, 1, Some(hear));
            playouts += r.playouts;
            runs += r.runs;
            peak = peak.max(r.peak_policy_entries);
            tracing::debug!(
                thread = self.thread,
                run,
                tabu,
                score = r.best_score,
                playouts = r.playouts,
                elapsed_s = deadline.elapsed().as_secs_f64(),
                "nrpa colour run"
            );
            // A run cut short by the budget says little about its colour.
            if r.stop_reason == StopReason::Exhausted {
                best_by_colour[pick] = best_by_colour[pick].max(r.best_score);
            }
            let stop = r.stop_reason;
            let better = total.as_ref().is_none_or(|t| r.best_score > t.best_score);
            if better {
                best_tabu = tabu;
                total = Some(r);
            } else if let Some(t) = total.as_mut() {
                t.stop_reason = stop;
            }
            if stop != StopReason::Exhausted || playouts == 0 {
                break;
            }
        }
        let mut total = total.expect("at least one run");
        let cut_by_share = matches!(total.stop_reason, StopReason::Iterations | StopReason::Time);
        if self.endgame_percent > 0 && cut_by_share {
            playouts += self.endgame(&mut total, best_tabu, playouts, budget, deadline, hear);
        }
        total.playouts = playouts;
        total.runs = runs;
        total.peak_policy_entries = peak;
        total.elapsed = deadline.elapsed();
        total
    }

    /// The endgame searches ([`SolveConfig::nrpa_endgame_percent`]): from the position after
    /// each of [`ENDGAME_CUTS`] of the best game's moves in turn, one selective NRPA run with
    /// tabu colour `tabu` that starts from the best game's own tail ([`search_from`]), with an
    /// equal share of what is left of `budget` for the cuts left in the round (this thread's
    /// iterations less the `spent` ones, or the time to `deadline`); a completion scoring
    /// more replaces the tail of `best`. Rounds repeat until the budget is spent. Returns
    /// the playouts made.
    ///
    /// [`search_from`]: puzzle_engine::nrpa::search_from
    fn endgame(
        &self,
        best: &mut puzzle_engine::nrpa::NrpaResult<Move>,
        tabu: u8,
        spent: u64,
        budget: &Budget,
        deadline: &puzzle_engine::Deadline,
        hear: &(dyn Fn(&[Move], f64) + Sync),
    ) -> u64 {
        use puzzle_engine::nrpa::{search_from, NrpaConfig};
        use puzzle_engine::Game as _;
        let mut playouts = 0u64;
        for j in 0u64.. {
            let k = (j % ENDGAME_CUTS.len() as u64) as usize;
            let (num, den) = ENDGAME_CUTS[k];
            let cuts_left = (ENDGAME_CUTS.len() - k) as u64;
            let cut = best.best_sequence.len() * num / den;
            let mut share = budget.clone();
            if let Some(n) = budget.max_iterations {
                let left = n.saturating_sub(spent + playouts);
                if left == 0 {
                    break;
                }
                share.max_iterations = Some((left / cuts_left).max(1));
            }
            if let Some(left) = deadline.remaining() {
                if left.is_zero() {
                    break;
                }
                share.max_time = Some(left / cuts_left as u32);
            }
            let prefix = best.best_sequence[..cut].to_vec();
            let mut position = self.board.clone();
            for &m in &prefix {
                position.apply(m);
            }
            let game = crate::selective::Selective::with_tabu(position, tabu);
            let config = NrpaConfig {
                seed: puzzle_engine::Rng::stream_seed(self.seed, (1 << 40) + j),
                repeat: false,
                ..self.config.clone()
            };
            let mut hear_whole = |tail: &[Move], score: f64| {
                let mut whole = prefix.clone();
                whole.extend_from_slice(tail);
                hear(&whole, score);
            };
            // The search starts from the best game's own tail and explores around it.
            let tail = &best.best_sequence[cut..];
            let r = search_from(&game, &config, &share, tail, Some(&mut hear_whole));
            playouts += r.playouts;
            tracing::debug!(
                thread = self.thread,
                cut,
                score = r.best_score,
                best = best.best_score,
                playouts = r.playouts,
                "nrpa endgame search"
            );
            if r.best_score > best.best_score && !r.best_sequence.is_empty() {
                let mut whole = prefix;
                whole.extend(r.best_sequence);
                best.best_sequence = whole;
                best.best_score = r.best_score;
                best.time_to_best = deadline.elapsed();
            }
            best.stop_reason = r.stop_reason;
            let stuck = r.playouts == 0;
            if stuck || matches!(r.stop_reason, StopReason::Interrupted | StopReason::Nodes) {
                break;
            }
        }
        playouts
    }
}

/// The share of the remaining budget one per-move step gets: `2 / (moves left + 2)` of it,
/// `moves left` taken from the best game found so far (40 before any was found). Early moves,
/// which decide most of the score, get the most; the last step gets everything left.
fn step_share(remaining: f64, moves_left: usize) -> f64 {
    remaining * 2.0 / (moves_left as f64 + 2.0)
}

/// SP-MCTS in per-move mode ([`SpMctsSettings::per_move`]): search from the current
/// position, keep the best complete game, commit its next move, repeat until the game ends or
/// the budget runs out. Time and iteration budgets are shared out by [`step_share`].
fn per_move_search(
    board: &Board,
    cfg: &SolveConfig,
    policy: &Playout<AnyChooser>,
    on_best: Option<OnBest<'_>>,
) -> Result<(Vec<Move>, i64, u64, StopReason), ReplayError> {
    let deadline = cfg.budget.start();
    let mut state = board.clone();
    let mut scratch = Scratch::new();
    let mut prefix: Vec<Move> = Vec::new();
    let mut best: Found = (Vec::new(), i64::MIN);
    let mut iterations = 0u64;
    let mut stop = StopReason::Exhausted;
    let mut step = 0u64;
    while state.has_move() {
        let moves_left = if best.0.is_empty() {
            40
        } else {
            best.0.len() - prefix.len()
        };
        let mut budget = cfg.budget.clone();
        if let Some(left) = deadline.remaining() {
            budget.max_time = Some(Duration::from_secs_f64(step_share(
                left.as_secs_f64(),
                moves_left,
            )));
        }
        if let Some(total) = cfg.budget.max_iterations {
            let left = total.saturating_sub(iterations);
            budget.max_iterations = Some((step_share(left as f64, moves_left) as u64).max(1));
        }
        let mut step_cfg = cfg.clone();
        step_cfg.budget = budget;
        step_cfg.seed = cfg
            .seed
            .wrapping_add(step.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let mc = mcts_config(&state, &step_cfg);
        let r = mcts::search(&state, &mc, policy);
        iterations += r.iterations;
        stop = r.stop_reason;
        if !r.best_sequence.is_empty() {
            let mut candidate = prefix.clone();
            candidate.extend_from_slice(&r.best_sequence);
            let end = replay(board, &candidate)?;
            if end.final_score() > best.1 {
                best = (candidate, end.final_score());
                if let Some(cb) = on_best {
                    cb(best.1, &best.0);
                }
            }
        }
        if best.0.len() <= prefix.len() || deadline.expired() {
            break;
        }
        if cfg.budget.max_iterations.is_some_and(|n| iterations >= n) {
            stop = StopReason::Iterations;
            break;
        }
        let next = best.0[prefix.len()];
        if state.try_play(next, &mut scratch).is_none() {
            return Err(ReplayError::Illegal {
                index: prefix.len(),
                mv: next,
            });
        }
        prefix.push(next);
        step += 1;
    }
    if deadline.stopped() {
        stop = StopReason::Interrupted;
    } else if deadline.expired() {
        stop = StopReason::Time;
    }
    let (moves, score) = finish(board, best.0, policy, cfg.seed)?;
    Ok((moves, score, iterations, stop))
}

/// The final score of `moves` (replayed); if a budget stopped a search before it saw any
/// complete game, finish the game with one playout of `policy` instead.
fn finish(
    board: &Board,
    moves: Vec<Move>,
    policy: &Playout<AnyChooser>,
    seed: u64,
) -> Result<Found, ReplayError> {
    if moves.is_empty() && board.has_move() {
        let mut state = board.clone();
        let mut trace = Vec::new();
        policy
            .clone()
            .playout(&mut state, &mut Rng::new(seed), &mut trace);
        return Ok((trace, state.final_score()));
    }
    let end = replay(board, &moves)?;
    Ok((moves, end.final_score()))
}

/// Independent playouts with `policy` until the budget ends; the best complete game.
fn random_search(
    board: &Board,
    cfg: &SolveConfig,
    policy: &Playout<AnyChooser>,
    budget: &Budget,
    on_best: Option<OnBest<'_>>,
) -> (Found, u64, StopReason) {
    let deadline = budget.start();
    let mut policy = policy.clone();
    let mut rng = Rng::new(cfg.seed);
    let mut state = board.clone();
    let mut trace = Vec::new();
    let mut best: Found = (Vec::new(), i64::MIN);
    let mut n = 0u64;
    let limit = budget.max_iterations.unwrap_or(u64::MAX);
    let stop = loop {
        if n >= limit {
            break StopReason::Iterations;
        }
        if n.is_multiple_of(64) && n > 0 && deadline.expired() {
            break if deadline.stopped() {
                StopReason::Interrupted
            } else {
                StopReason::Time
            };
        }
        state.clone_from(board);
        trace.clear();
        policy.playout(&mut state, &mut rng, &mut trace);
        n += 1;
        let score = state.final_score();
        if score > best.1 {
            best = (trace.clone(), score);
            if let Some(cb) = on_best {
                cb(score, &trace);
            }
        }
    };
    (best, n, stop)
}
