//! Nested searches for SameGame (SPEC §A "Other searches", issue 5 §4): Nested Monte Carlo
//! Search (Cazenave 2009) over the crate's playout policies, and Nested Rollout Policy
//! Adaptation (Rosin 2011) with the group's colour and cells as the move code
//! ([`Board::group_code`]).
//!
//! Both are budgeted (time, playouts, stop flag) and anytime: when the budget ends they
//! return the best complete game found so far (every candidate is a complete playout).

use crate::board::{Board, Move, Scratch};
use crate::playout::{AnyChooser, Playout};
use crate::search::{ReplayError, SolveConfig};
use puzzle_engine::{Budget, Deadline, FxHashMap, PlayoutPolicy, Rng, StopReason};

/// The outcome of a nested search: moves, score, playouts, optimal (never), stop reason.
pub type NestedOutcome = (Vec<Move>, i64, u64, bool, StopReason);

struct Clock<'b> {
    budget: &'b Budget,
    deadline: Deadline,
    playouts: u64,
    stop: Option<StopReason>,
}

impl Clock<'_> {
    fn tick(&mut self) -> bool {
        if self.stop.is_some() {
            return false;
        }
        if self.budget.max_iterations.is_some_and(|m| self.playouts >= m) {
            self.stop = Some(StopReason::Iterations);
            return false;
        }
        if self.playouts % 16 == 0 && self.deadline.expired() {
            self.stop = Some(if self.deadline.stopped() {
                StopReason::Interrupted
            } else {
                StopReason::Time
            });
            return false;
        }
        self.playouts += 1;
        true
    }
}

/// Run NMCS or NRPA as `cfg.algorithm` says.
pub fn run(
    board: &Board,
    cfg: &SolveConfig,
    policy: &Playout<AnyChooser>,
) -> Result<NestedOutcome, ReplayError> {
    let mut clock = Clock {
        budget: &cfg.budget,
        deadline: cfg.budget.start(),
        playouts: 0,
        stop: None,
    };
    let mut rng = Rng::new(cfg.seed);
    let (moves, score) = match cfg.algorithm {
        crate::search::Algorithm::Nrpa => {
            let mut n = Nrpa {
                root: board.clone(),
                iterations: 100,
                alpha: 1.0,
                scratch: Scratch::new(),
                codes: Vec::new(),
                weights: Vec::new(),
            };
            let policy_table = FxHashMap::default();
            n.level(cfg.nrpa_level.max(1), &policy_table, &mut rng, &mut clock)
        }
        _ => {
            let mut policy = policy.clone();
            nmcs(board, cfg.nmcs_level.max(1), &mut policy, &mut rng, &mut clock)
        }
    };
    let (moves, score) = if moves.is_empty() && board.has_move() {
        // The budget ended before a single playout: play one anyway.
        let mut state = board.clone();
        let mut trace = Vec::new();
        let mut p = policy.clone();
        p.playout(&mut state, &mut rng, &mut trace);
        (trace, state.final_score())
    } else {
        (moves, score)
    };
    let end = crate::search::replay(board, &moves)?;
    debug_assert_eq!(end.final_score(), score);
    Ok((moves, score, clock.playouts, false, clock.stop.unwrap_or(StopReason::Exhausted)))
}

/// NMCS at `level` from `state`: at each step try every move with a level − 1 search,
/// remember the best complete sequence, play its next move (Cazenave 2009, Algorithm 1).
fn nmcs(
    state: &Board,
    level: usize,
    policy: &mut Playout<AnyChooser>,
    rng: &mut Rng,
    clock: &mut Clock<'_>,
) -> (Vec<Move>, i64) {
    let mut scratch = Scratch::new();
    let mut current = state.clone();
    let mut played: Vec<Move> = Vec::new();
    let mut best: (Vec<Move>, i64) = (Vec::new(), i64::MIN);
    let mut child = state.clone();
    let mut trace = Vec::new();
    while current.find_groups(&mut scratch) > 0 {
        let groups = scratch.groups.clone();
        for g in &groups {
            child.clone_from(&current);
            let mv = child.move_of(g.cell);
            child.remove_group(g.cell as usize, &mut scratch);
            let (tail, score) = if level == 1 {
                if !clock.tick() {
                    break;
                }
                trace.clear();
                policy.playout(&mut child, rng, &mut trace);
                (trace.clone(), child.final_score())
            } else {
                let r = nmcs(&child, level - 1, policy, rng, clock);
                if r.0.is_empty() && child.has_move() {
                    break; // the budget ended inside
                }
                r
            };
            if score > best.1 {
                let mut seq = played.clone();
                seq.push(mv);
                seq.extend_from_slice(&tail);
                best = (seq, score);
            }
        }
        if clock.stop.is_some() || best.0.len() <= played.len() {
            break;
        }
        let next = best.0[played.len()];
        current
            .try_play(next, &mut scratch)
            .expect("the best sequence replays");
        played.push(next);
    }
    if best.0.is_empty() && !current.has_move() {
        best = (played, current.final_score());
    }
    best
}

type PolicyTable = FxHashMap<u64, f64>;

struct Nrpa {
    root: Board,
    iterations: usize,
    alpha: f64,
    scratch: Scratch,
    codes: Vec<u64>,
    weights: Vec<f64>,
}

impl Nrpa {
    /// NRPA at `level` (Rosin 2011): `iterations` level − 1 searches, adapting the policy
    /// towards the best sequence after each.
    fn level(
        &mut self,
        level: usize,
        policy: &PolicyTable,
        rng: &mut Rng,
        clock: &mut Clock<'_>,
    ) -> (Vec<Move>, i64) {
        if level == 0 {
            if !clock.tick() {
                return (Vec::new(), i64::MIN);
            }
            return self.playout(policy, rng);
        }
        let mut best: (Vec<Move>, i64) = (Vec::new(), i64::MIN);
        let mut policy = policy.clone();
        for _ in 0..self.iterations {
            let r = self.level(level - 1, &policy, rng, clock);
            if !r.0.is_empty() && r.1 >= best.1 {
                best = r;
            }
            if clock.stop.is_some() {
                break;
            }
            if !best.0.is_empty() {
                policy = self.adapt(&policy, &best.0);
            }
        }
        best
    }

    fn codes_of(&mut self, state: &Board) -> usize {
        let n = state.find_groups(&mut self.scratch);
        let groups = std::mem::take(&mut self.scratch.groups);
        self.codes.clear();
        for g in &groups {
            let code = state.group_code(state.move_of(g.cell), &mut self.scratch);
            self.codes.push(code);
        }
        self.scratch.groups = groups;
        n
    }

    /// A playout choosing moves with probability ∝ exp(policy[code]).
    fn playout(&mut self, policy: &PolicyTable, rng: &mut Rng) -> (Vec<Move>, i64) {
        let mut state = self.root.clone();
        let mut moves = Vec::new();
        loop {
            let n = self.codes_of(&state);
            if n == 0 {
                break;
            }
            self.weights.clear();
            let mut total = 0.0;
            for &c in &self.codes {
                let w = policy.get(&c).copied().unwrap_or(0.0).exp();
                total += w;
                self.weights.push(w);
            }
            let mut x = rng.f64() * total;
            let mut pick = n - 1;
            for (i, &w) in self.weights.iter().enumerate() {
                if x < w {
                    pick = i;
                    break;
                }
                x -= w;
            }
            let cell = self.scratch.groups[pick].cell;
            moves.push(state.move_of(cell));
            state.remove_group(cell as usize, &mut self.scratch);
        }
        (moves, state.final_score())
    }

    /// Rosin's Adapt: raise the best sequence's codes by α, lower every legal code by
    /// α times its probability.
    fn adapt(&mut self, policy: &PolicyTable, sequence: &[Move]) -> PolicyTable {
        let mut new = policy.clone();
        let mut state = self.root.clone();
        for &mv in sequence {
            self.codes_of(&state);
            let chosen = state.group_code(mv, &mut self.scratch);
            let total: f64 = self
                .codes
                .iter()
                .map(|c| policy.get(c).copied().unwrap_or(0.0).exp())
                .sum();
            *new.entry(chosen).or_insert(0.0) += self.alpha;
            for &c in &self.codes {
                let p = policy.get(&c).copied().unwrap_or(0.0).exp() / total;
                *new.entry(c).or_insert(0.0) -= self.alpha * p;
            }
            state.try_play(mv, &mut self.scratch).expect("the best sequence replays");
        }
        new
    }
}
