//! The generation game's rules and every optimization of the thesis, each switchable (see
//! `docs/METHODS.md#sokogen-optimizations`; thesis §2.3). `Default` is the thesis's final
//! configuration.

use puzzle_engine::mcts::{ChildrenPerExpansion, Expansion, SelectionPolicy};

/// How the agent moves after Freeze-Level (thesis §2.3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum MoveAgent {
    /// One action per reachable push: the player walks (flood fill) to a cell next to a box
    /// whose far side is free and pushes it one cell (the thesis's optimization).
    #[default]
    Push,
    /// One step of the player in one of four directions (pushing a box if there is one): the
    /// original Kartal et al. action, kept for Table 3.1.
    Naive,
}

/// The upper limit `h` on the number of boxes Place-Box may put down (thesis §2.3.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoxLimit {
    /// No upper limit (the "∞" column of Table 3.2).
    Unlimited,
    /// At most this many boxes.
    Fixed(u16),
    /// At most `⌈area / divisor⌉` boxes: the thesis's candidates are `⌈nm/3⌉` (9 on 5×5,
    /// used in its later experiments) and `⌈nm/2⌉`.
    AreaOver(u16),
}

impl BoxLimit {
    /// The limit for a board of `area` cells (`u16::MAX` when unlimited).
    pub fn for_area(self, area: usize) -> u16 {
        match self {
            BoxLimit::Unlimited => u16::MAX,
            BoxLimit::Fixed(h) => h.max(1),
            BoxLimit::AreaOver(d) => {
                area.div_ceil(d.max(1) as usize).clamp(1, u16::MAX as usize) as u16
            }
        }
    }
}

/// Which congestion metric the score uses (thesis §2.2.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Congestion {
    /// Congestion-V2: `Σ (α·b_i + β·g_i) / (γ·(A_i − o_i))`.
    #[default]
    V2,
    /// Congestion-V1 (Kartal et al. 2016a): `Σ (α·b_i + β·g_i + γ·o_i)`.
    V1,
}

/// The weights of the level score (thesis §3.1: α = 1.9, β = 0.1, γ = 1.3, w_b = 3, w_c = 7,
/// w_n = 8, k = 55).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScoreWeights {
    /// Weight of the other boxes' start cells in a box's rectangle.
    pub alpha: f64,
    /// Weight of the other goals in a box's rectangle.
    pub beta: f64,
    /// Weight of the free area (V2) or of the walls (V1) of a box's rectangle.
    pub gamma: f64,
    /// Weight of the 3×3-block count P_b.
    pub w_b: f64,
    /// Weight of the congestion P_c.
    pub w_c: f64,
    /// Weight of the box count n.
    pub w_n: f64,
    /// Normalization divisor k.
    pub k: f64,
}

impl Default for ScoreWeights {
    fn default() -> Self {
        ScoreWeights {
            alpha: 1.9,
            beta: 0.1,
            gamma: 1.3,
            w_b: 3.0,
            w_c: 7.0,
            w_n: 8.0,
            k: 55.0,
        }
    }
}

/// The rules of the generation game itself, stored in every state (small and `Copy`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rules {
    /// Push-based or naive Move-Agent.
    pub move_agent: MoveAgent,
    /// Upper box limit `h` (the lower limit 1 is [`Rules::require_box`]). Default `⌈nm/3⌉`
    /// (9 on 5×5), the limit of the thesis's experiments from Table 3.3 on; on 5×5 with
    /// bootstrapping it beat a limit of 5 in our runs (mean best 1.55 vs 1.38 over seeds 1–5 at
    /// 10⁶ iterations).
    pub box_limit: BoxLimit,
    /// Freeze-Level needs at least one box (the lower box limit of thesis §2.3.4).
    pub require_box: bool,
    /// Freeze-Level needs at least this tree depth (actions from the root); 0 = off
    /// (thesis §2.3.3; 10 in the final configuration).
    pub depth_limit: u16,
    /// Freeze-Level first removes boxes in impossible 2×2 configurations (thesis §2.3.5).
    pub remove_impossible: bool,
    /// Congestion metric.
    pub congestion: Congestion,
    /// Score weights.
    pub weights: ScoreWeights,
    /// Multiply the score by `25 / (width·height)` (thesis §2.2.3: scores of every size land in
    /// the range of the 5×5 original).
    pub area_normalization: bool,
    /// Safety cap on Move-Agent actions after Freeze (then only Evaluate-Level is legal). The
    /// thesis has none; the cap only bounds pathological playouts and is never reached in
    /// practice (a playout evaluates with probability ≥ 1/(pushes + 1) at each step).
    pub max_moves: u16,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            move_agent: MoveAgent::Push,
            box_limit: BoxLimit::AreaOver(3),
            require_box: true,
            depth_limit: 10,
            remove_impossible: true,
            congestion: Congestion::V2,
            weights: ScoreWeights::default(),
            area_normalization: true,
            max_moves: 1000,
        }
    }
}

impl Rules {
    /// The rules with every optimization of thesis §2.3 off (the start of its experiments):
    /// naive Move-Agent, no box limits, no depth limit, no configuration removal.
    pub fn unoptimized() -> Self {
        Rules {
            move_agent: MoveAgent::Naive,
            box_limit: BoxLimit::Unlimited,
            require_box: false,
            depth_limit: 0,
            remove_impossible: false,
            ..Rules::default()
        }
    }
}

/// Bootstrapping (thesis §2.3.8): after `(1 − δ)` of the budget, the `n` last new best levels
/// are reset to their pre-freeze state and become the children of a fresh root (depth limit
/// off), searched for the remaining `δ` of the budget.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bootstrap {
    /// Levels re-rooted (n = 4 in the thesis).
    pub levels: usize,
    /// Share δ of the budget given to the bootstrapped search (0.2 was best in Table 3.6).
    pub delta: f64,
}

impl Default for Bootstrap {
    fn default() -> Self {
        Bootstrap {
            levels: 4,
            delta: 0.2,
        }
    }
}

/// The selection formula with the thesis's constants (thesis §2.3.6, Table 3.8).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Selection {
    /// UCB1 `X̄ + 2C·sqrt(2 ln n / n_j)` with `C = ξ/√2` (ξ = 1 by default; Table 3.7).
    Ucb1 {
        /// Exploration factor ξ.
        xi: f64,
    },
    /// UCB1-Tuned with `C = 8/√2` in Table 3.8.
    Ucb1Tuned {
        /// The constant C.
        c: f64,
    },
    /// UCB-V with `C = 16/√2` in Table 3.8 (`E = ξ ln n`, ξ = 1, rewards in `[0, b]`).
    UcbV {
        /// The constant C.
        c: f64,
        /// Upper bound of the reward range (our choice: 2, above every 5×5 score seen).
        b: f64,
    },
    /// SP-MCTS `X̄ + 2C·sqrt(2 ln n / n_j) + sqrt(σ² + D/n_j)` with `C = 2/√2` in Table 3.8
    /// (D is not given in the thesis; our choice 0.1 suits scores of about 1).
    SpMcts {
        /// The constant C.
        c: f64,
        /// The constant D.
        d: f64,
    },
}

impl Default for Selection {
    fn default() -> Self {
        Selection::Ucb1 { xi: 1.0 }
    }
}

impl Selection {
    /// The engine's selection policy for this formula.
    pub fn policy(self) -> SelectionPolicy {
        let sqrt2 = std::f64::consts::SQRT_2;
        match self {
            Selection::Ucb1 { xi } => SelectionPolicy::ucb1_kocsis(xi / sqrt2),
            Selection::Ucb1Tuned { c } => SelectionPolicy::Ucb1Tuned { c },
            Selection::UcbV { c, b } => SelectionPolicy::UcbV { c, xi: 1.0, b },
            Selection::SpMcts { c, d } => SelectionPolicy::SpMcts {
                c: 2.0 * sqrt2 * c,
                d,
                w: 0.0,
            },
        }
    }

    /// Table 3.8's four formulas with the thesis's constants.
    pub fn table_3_8() -> [(&'static str, Selection); 4] {
        let s = std::f64::consts::SQRT_2;
        [
            ("UCB1", Selection::Ucb1 { xi: 2.0 }),
            ("UCB1-Tuned", Selection::Ucb1Tuned { c: 8.0 / s }),
            (
                "UCB-V",
                Selection::UcbV {
                    c: 16.0 / s,
                    b: 2.0,
                },
            ),
            ("SP-MCTS", Selection::SpMcts { c: 2.0 / s, d: 0.1 }),
        ]
    }
}

/// Everything that configures a generation run besides size, start, budget and seed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GenConfig {
    /// The game's rules.
    pub rules: Rules,
    /// Bloom expansion: one child per expansion from a list of actions computed once
    /// (thesis §2.3.1); off = all children created at the first expansion.
    pub bloom: bool,
    /// Allocation-free playouts (thesis §2.3.7); off = every playout step works on a freshly
    /// heap-allocated copy of the state and action list, as the thesis's code before its arena.
    pub allocation_free: bool,
    /// Bootstrapping; `None` = off.
    pub bootstrap: Option<Bootstrap>,
    /// Selection formula.
    pub selection: Selection,
}

impl Default for GenConfig {
    fn default() -> Self {
        GenConfig {
            rules: Rules::default(),
            bloom: true,
            allocation_free: true,
            bootstrap: Some(Bootstrap::default()),
            selection: Selection::default(),
        }
    }
}

impl GenConfig {
    /// The engine's expansion rule of this configuration: one child per expansion with bloom
    /// (thesis §2.3.1), else all children at a node's first expansion.
    pub fn expansion(&self) -> Expansion {
        Expansion {
            visits_before_expand: 0,
            children: if self.bloom {
                ChildrenPerExpansion::One
            } else {
                ChildrenPerExpansion::All
            },
        }
    }

    /// Every optimization off except bloom (the start of the thesis's experiments, §3).
    pub fn unoptimized() -> Self {
        GenConfig {
            rules: Rules::unoptimized(),
            bloom: true,
            allocation_free: false,
            bootstrap: None,
            selection: Selection::default(),
        }
    }
}
