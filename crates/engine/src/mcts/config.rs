//! MCTS configuration: plain structs and enums whose `Default`s follow the papers (see
//! `docs/METHODS.md#mcts`).

use crate::Budget;

/// The selection formula ("tree policy"); see `docs/METHODS.md#mcts-selection`.
///
/// `n` is the parent's visits, `n_j` the child's, `X̄_j` the child's mean (transformed) reward;
/// an unvisited child always scores +∞.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SelectionPolicy {
    /// UCB1 in the "UCTK" form of the Czech paper: `X̄_j + c·sqrt(ln n / n_j)`.
    /// Kocsis & Szepesvári's `X̄_j + 2C·sqrt(2 ln n / n_j)` is `c = 2√2·C`
    /// ([`SelectionPolicy::ucb1_kocsis`]).
    Ucb1 {
        /// Exploration constant (UCTK).
        c: f64,
    },
    /// UCB1-Tuned (Auer et al. 2002): `X̄_j + c·sqrt((ln n / n_j)·min(1/4, V_j))`,
    /// `V_j = ΣX²/n_j − X̄_j² + sqrt(2 ln n / n_j)`.
    Ucb1Tuned {
        /// Exploration factor (1 in the original formula; the thesis scales it by ξ).
        c: f64,
    },
    /// UCB-V (Audibert et al. 2009): `X̄_j + sqrt(2·V_j·E/n_j) + c·3·b·E/n_j`, `E = ξ·ln n`,
    /// `V_j` the empirical variance, rewards in `[0, b]`.
    UcbV {
        /// Weight of the range term.
        c: f64,
        /// Exploration factor ξ.
        xi: f64,
        /// Upper bound of the reward range.
        b: f64,
    },
    /// Single-player MCTS (Schadd et al. 2008): `X̄_j + c·sqrt(ln n / n_j) +
    /// sqrt((Σr² − n_j·X̄_j² + d)/n_j) + w·max_j`.
    SpMcts {
        /// Exploration constant C.
        c: f64,
        /// The variance-term constant D.
        d: f64,
        /// Weight W of the best reward seen below the child (0.02 in the Hungarian paper).
        w: f64,
    },
}

impl SelectionPolicy {
    /// UCB1 as Kocsis & Szepesvári write it, `X̄_j + 2C·sqrt(2 ln n / n_j)`.
    pub fn ucb1_kocsis(big_c: f64) -> Self {
        SelectionPolicy::Ucb1 {
            c: 2.0 * std::f64::consts::SQRT_2 * big_c,
        }
    }
}

impl Default for SelectionPolicy {
    /// UCB1 with C = 1/√2 in Kocsis & Szepesvári's form (`c = 2`).
    fn default() -> Self {
        SelectionPolicy::ucb1_kocsis(std::f64::consts::FRAC_1_SQRT_2)
    }
}

/// How many children one expansion creates (see `docs/METHODS.md#mcts-expansion`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ChildrenPerExpansion {
    /// One new child per iteration, popped at random from the node's action list computed
    /// once ("bloom", the thesis's optimization; Coulom's one-child expansion).
    #[default]
    One,
    /// Every child at once (Schadd's SP-MCTS after `visits_before_expand` playouts).
    All,
}

/// When and how a leaf is expanded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Expansion {
    /// A leaf is expanded once it has been visited this many times (0: at once). The
    /// SameGame papers use 20, the Sudoku paper 10.
    pub visits_before_expand: u32,
    /// One child per iteration or all children at once.
    pub children: ChildrenPerExpansion,
}

impl Default for Expansion {
    fn default() -> Self {
        Expansion {
            visits_before_expand: 0,
            children: ChildrenPerExpansion::One,
        }
    }
}

/// All-moves-as-first statistics (see `docs/METHODS.md#mcts-amaf`).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub enum Amaf {
    /// No AMAF statistics.
    #[default]
    Off,
    /// α-AMAF: `α·value_AMAF + (1−α)·value_UCT`, each with its own exploration term
    /// (α = 0.5 in the Czech paper).
    Alpha(f64),
    /// RAVE: `β·X̄_AMAF + (1−β)·value_UCT` with `β = sqrt(k / (3·n_j + k))` (Gelly & Silver),
    /// so AMAF dominates early and fades with visits.
    Rave {
        /// Equivalence parameter k (visits at which β = 1/2).
        k: f64,
    },
}

/// An affine map applied to every reward before it is backed up: `(r + offset) · scale`. Reward
/// scale (see `docs/METHODS.md#mcts-reward-scale`): normalize (e.g. SameGame
/// `(score + 1500) / max_score`) or keep the raw scale and tune C and D instead.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RewardTransform {
    /// Added first.
    pub offset: f64,
    /// Then multiplied.
    pub scale: f64,
}

impl Default for RewardTransform {
    fn default() -> Self {
        RewardTransform {
            offset: 0.0,
            scale: 1.0,
        }
    }
}

impl RewardTransform {
    /// Apply the map.
    #[inline]
    pub fn apply(&self, reward: f64) -> f64 {
        (reward + self.offset) * self.scale
    }
}

/// Which move the per-move mode plays after each search (see
/// `docs/METHODS.md#mcts-final-decision`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum MoveChoice {
    /// The first move of the best complete sequence found so far (puzzles).
    #[default]
    BestSequence,
    /// The root child with the best mean reward.
    BestMean,
    /// The root child with the most visits.
    MostVisited,
}

/// Everything that configures an MCTS run.
///
/// ```
/// use puzzle_engine::mcts::{MctsConfig, SelectionPolicy};
/// use puzzle_engine::Budget;
/// let cfg = MctsConfig {
///     selection: SelectionPolicy::SpMcts { c: 0.5, d: 10_000.0, w: 0.02 },
///     budget: Budget::iterations(10_000),
///     ..MctsConfig::default()
/// };
/// assert_eq!(cfg.threads, 1);
/// ```
#[derive(Clone, Debug)]
pub struct MctsConfig {
    /// Selection formula.
    pub selection: SelectionPolicy,
    /// Expansion rule.
    pub expansion: Expansion,
    /// AMAF / RAVE.
    pub amaf: Amaf,
    /// Reward normalization.
    pub reward: RewardTransform,
    /// Iterations (total over threads), time, nodes (per tree), stop flag.
    pub budget: Budget,
    /// Seed; the run is deterministic for a seed, thread count and iteration budget.
    pub seed: u64,
    /// Root-parallel threads (independent trees, merged at the end).
    pub threads: usize,
    /// Restart with a fresh tree (new seed) after this many iterations (random restarts).
    pub restart_after: Option<u64>,
    /// Stop every thread once a complete sequence scores at least this (e.g. a solved Sudoku).
    pub target_score: Option<f64>,
    /// Report (to the observer) every complete playout scoring at least this, besides new bests.
    pub report_threshold: Option<f64>,
    /// Move choice of the per-move mode.
    pub move_choice: MoveChoice,
    /// Mark solved subtrees: a node whose state is terminal, or a fully expanded node whose
    /// children are all solved, is never selected again (its best reward, the node's `max`,
    /// is then exact: every terminal line below it has been played); a solved root ends the
    /// tree's search with [`crate::StopReason::Exhausted`] (its best sequence is optimal) and
    /// no restart follows. Global searches then stop replaying finished lines. Off by
    /// default, so the games tuned without it keep their exact behaviour; SameGame turns it
    /// on.
    pub mark_solved: bool,
    /// Record one iteration in every `n` as an [`super::IterationSample`] (its duration, the
    /// tree's memory, the depth its rollout began at, the best score so far): the per-iteration
    /// trace of the generation thesis's §3.10 (Figures 3.2 and 3.3). Off by default; a sampled
    /// iteration reads the clock twice, the others nothing more.
    pub sample_every: Option<u64>,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            selection: SelectionPolicy::default(),
            expansion: Expansion::default(),
            amaf: Amaf::default(),
            reward: RewardTransform::default(),
            budget: Budget::default(),
            seed: 0,
            threads: 1,
            restart_after: None,
            target_score: None,
            report_threshold: None,
            move_choice: MoveChoice::default(),
            mark_solved: false,
            sample_every: None,
        }
    }
}
