//! The MCTS Sudoku solver of the Czech thesis (chapter 4; see `docs/METHODS.md#sudoku-mcts`) on the
//! engine's [`puzzle_engine::mcts`].
//!
//! - **Moves** place a value v in an empty cell (x, y) (thesis 4.3.1), packed as `cell << 5 | v`.
//! - **Tree expansion** (4.3.4): the legal actions of a state are the legal values of **one**
//!   empty cell, chosen by [`CellChoice`] — random or pseudo-random (derived from a hash of the
//!   placements, so that the choice is a deterministic function of the state, as the engine's
//!   `legal_actions(&self)` requires) or most-constrained. All children are added at once after
//!   10 visits (`Expansion { visits_before_expand: 10, children: All }`). With α-AMAF the
//!   expansion is wider: every legal value of every empty cell of one row, column or box.
//! - **Terminal states**: the grid is full (solved), or an empty cell has no legal value
//!   (a "collision"). A tree node with a collision is therefore a dead end (no children); the
//!   thesis leaves this open, and pruning known dead ends is the careful reading.
//! - **Playouts** (4.3.3, [`SudokuPlayout`]): repeatedly choose an empty cell (random, or
//!   pseudo-random: a random empty cell among the row, column and box of the previous move, else
//!   a random one) and put a random legal value in it, until the grid is full or the chosen cell
//!   has no legal value.
//! - **Reward** (4.3.2): `movecount / (movecount + unsolved)`, counting only the playout's own
//!   moves, so that deep, stuck branches earn less ([`playout_reward`]); a solved grid scores 1
//!   and ends the search (`target_score = 1`).
//! - **Restarts** (4.4) after a simulation limit; selection UCB1 with UCTK or UCB1-Tuned; α-AMAF
//!   with α = 0.5 (4.3.5).

use crate::board::{Board, NO_CELL};
use crate::grid::Grid;
use puzzle_engine::mcts::{
    self, Amaf, ChildrenPerExpansion, Expansion, Found, MctsConfig, Observer, SelectionPolicy,
};
use puzzle_engine::{Budget, Game, PlayoutPolicy, Rng, WorkCounter, DEFAULT_MAX_NODES};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// A move: `cell << 5 | value` (value 1..=25).
pub type Move = u16;

/// Pack a move.
#[inline]
pub fn pack(cell: usize, value: u8) -> Move {
    ((cell as u16) << 5) | value as u16
}

/// The cell of a move.
#[inline]
pub fn move_cell(m: Move) -> usize {
    (m >> 5) as usize
}

/// The value of a move.
#[inline]
pub fn move_value(m: Move) -> u8 {
    (m & 31) as u8
}

/// How the tree picks the one empty cell it expands (thesis 4.3.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum CellChoice {
    /// A random empty cell (a hash of the state picks it, so it is fixed per state).
    #[default]
    Random,
    /// An empty cell sharing a row, column or box with the previous move, else a random one.
    PseudoRandom,
    /// The empty cell with the fewest legal values (a CSP heuristic the thesis mentions).
    MostConstrained,
}

/// How playouts pick the next cell (thesis 4.3.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PlayoutKind {
    /// A uniformly random empty cell.
    #[default]
    Random,
    /// A random empty cell in the row, column or box of the previous move; a random empty cell
    /// when those are all filled.
    PseudoRandom,
    /// Beyond the thesis: an empty cell with the fewest legal values (ties broken at random),
    /// so forced cells are filled first and a collision shows as soon as it exists.
    MostConstrained,
}

/// What one tree expansion adds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TreeExpansion {
    /// The legal values of one empty cell.
    OneCell(CellChoice),
    /// The legal values of every empty cell of one row, column or box (the AMAF variant).
    Unit,
}

/// The reward of a playout (thesis 4.3.2): `movecount / (movecount + unsolved)`; 1 when the
/// grid is complete; 0 when the playout made no move on an unsolved grid.
#[inline]
pub fn playout_reward(playout_moves: usize, unsolved: usize) -> f64 {
    if unsolved == 0 {
        1.0
    } else {
        playout_moves as f64 / (playout_moves + unsolved) as f64
    }
}

#[inline]
fn zobrist(m: Move) -> u64 {
    let mut z = (m as u64).wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A Sudoku position as an engine [`Game`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SudokuGame {
    board: Board,
    /// XOR of a key per placement since the root (picks the tree's "random" cell).
    hash: u64,
    /// The previous move's cell (`NO_CELL` at the start).
    last: u16,
    /// Some empty cell has no legal value.
    dead: bool,
    expansion: TreeExpansion,
}

impl SudokuGame {
    /// The game of `puzzle`'s clues. Errors if clues conflict.
    pub fn new(puzzle: &Grid, expansion: TreeExpansion) -> Result<SudokuGame, String> {
        let board = Board::new(puzzle)?;
        let dead = board.dead_cell().is_some();
        Ok(SudokuGame {
            board,
            hash: 0,
            last: NO_CELL,
            dead,
            expansion,
        })
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Empty cells left.
    pub fn unsolved(&self) -> usize {
        self.board.empty_count()
    }

    /// The grid is complete (and therefore solved: only legal values are ever placed).
    pub fn is_solved(&self) -> bool {
        self.board.empty_count() == 0
    }

    /// Some empty cell has no legal value.
    pub fn is_dead(&self) -> bool {
        self.dead
    }

    /// Place without the dead-cell scan (playouts track collisions themselves).
    #[inline]
    fn place_fast(&mut self, cell: usize, value: u8) {
        self.board.place(cell, value);
        self.hash ^= zobrist(pack(cell, value));
        self.last = cell as u16;
    }

    /// The `k`-th empty cell in row-major order.
    fn kth_empty(&self, k: usize) -> usize {
        let mut seen = 0;
        for c in 0..self.board.len() {
            if self.board.value(c) == 0 {
                if seen == k {
                    return c;
                }
                seen += 1;
            }
        }
        unreachable!("k < number of empty cells")
    }

    fn hashed_index(&self, salt: u64, n: usize) -> usize {
        let h = zobrist((self.hash ^ salt.wrapping_mul(0xA24B_AED4_963E_E407)) as u16 as Move)
            ^ self.hash.rotate_left(17);
        ((h as u128 * n as u128) >> 64) as usize
    }

    /// The empty cell the tree expands here (state is not terminal).
    fn tree_cell(&self, choice: CellChoice) -> usize {
        match choice {
            CellChoice::MostConstrained => self.board.most_constrained().expect("not solved").0,
            CellChoice::PseudoRandom if self.last != NO_CELL => {
                let mut peers = Vec::with_capacity(24);
                self.board.peers(self.last as usize, &mut peers);
                peers.retain(|&c| self.board.value(c as usize) == 0);
                peers.sort_unstable();
                if peers.is_empty() {
                    self.tree_cell(CellChoice::Random)
                } else {
                    peers[self.hashed_index(1, peers.len())] as usize
                }
            }
            _ => self.kth_empty(self.hashed_index(0, self.board.empty_count())),
        }
    }
}

impl Game for SudokuGame {
    type Action = Move;

    fn legal_actions(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.is_terminal() {
            return;
        }
        match self.expansion {
            TreeExpansion::OneCell(choice) => {
                let cell = self.tree_cell(choice);
                let mut m = self.board.candidates(cell);
                while m != 0 {
                    out.push(pack(cell, m.trailing_zeros() as u8 + 1));
                    m &= m - 1;
                }
            }
            TreeExpansion::Unit => {
                let cell = self.tree_cell(CellChoice::Random);
                let (r, c, b) = self.board.units_of(cell);
                let side = self.board.side();
                let unit = match self.hashed_index(2, 3) {
                    0 => r,
                    1 => side + c,
                    _ => 2 * side + b,
                };
                let mut cells = Vec::with_capacity(side);
                self.board.unit_cells(unit, &mut cells);
                for &cell in &cells {
                    let cell = cell as usize;
                    if self.board.value(cell) != 0 {
                        continue;
                    }
                    let mut m = self.board.candidates(cell);
                    while m != 0 {
                        out.push(pack(cell, m.trailing_zeros() as u8 + 1));
                        m &= m - 1;
                    }
                }
            }
        }
    }

    fn apply(&mut self, action: Move) {
        self.place_fast(move_cell(action), move_value(action));
        self.dead = self.board.dead_cell().is_some();
    }

    fn is_terminal(&self) -> bool {
        self.dead || self.board.empty_count() == 0
    }

    /// 1 for a solved grid, else the filled fraction (below 1).
    fn score(&self) -> f64 {
        if self.is_solved() {
            1.0
        } else {
            let n = self.board.len();
            (n - self.board.empty_count()) as f64 / n as f64
        }
    }

    fn reward(&self, playout_moves: usize) -> f64 {
        playout_reward(playout_moves, self.board.empty_count())
    }
}

/// The thesis's playout (4.3.3): fill cells with random legal values until the grid is complete
/// or the chosen cell has none. Allocation-free after the first playout.
#[derive(Clone, Debug)]
pub struct SudokuPlayout {
    kind: PlayoutKind,
    /// Flat peer table (`peer_count` entries per cell), built for the board size on first use.
    peers: Vec<u16>,
    peer_count: usize,
    scratch: Vec<u16>,
}

impl SudokuPlayout {
    /// A playout policy of the given kind.
    pub fn new(kind: PlayoutKind) -> Self {
        SudokuPlayout {
            kind,
            peers: Vec::new(),
            peer_count: 0,
            scratch: Vec::new(),
        }
    }

    fn ensure_peers(&mut self, board: &Board) {
        let side = board.side();
        let n = board.box_size();
        let count = 3 * side - 2 * n - 1;
        if self.peer_count == count && self.peers.len() == count * board.len() {
            return;
        }
        self.peer_count = count;
        self.peers.clear();
        let mut p = Vec::new();
        for c in 0..board.len() {
            board.peers(c, &mut p);
            self.peers.extend_from_slice(&p);
        }
    }

    #[inline]
    fn choose_cell(&mut self, state: &SudokuGame, rng: &mut Rng) -> usize {
        let empties = state.board.empties();
        if self.kind == PlayoutKind::MostConstrained {
            let (mut best, mut best_count, mut ties) = (empties[0] as usize, u32::MAX, 0usize);
            for &c in empties {
                let k = state.board.candidates(c as usize).count_ones();
                if k < best_count {
                    (best, best_count, ties) = (c as usize, k, 1);
                    if k == 0 {
                        break;
                    }
                } else if k == best_count {
                    ties += 1;
                    if rng.below(ties) == 0 {
                        best = c as usize;
                    }
                }
            }
            return best;
        }
        if self.kind == PlayoutKind::PseudoRandom && state.last != NO_CELL {
            let base = state.last as usize * self.peer_count;
            self.scratch.clear();
            for &p in &self.peers[base..base + self.peer_count] {
                if state.board.value(p as usize) == 0 {
                    self.scratch.push(p);
                }
            }
            if !self.scratch.is_empty() {
                return self.scratch[rng.below(self.scratch.len())] as usize;
            }
        }
        empties[rng.below(empties.len())] as usize
    }
}

impl PlayoutPolicy<SudokuGame> for SudokuPlayout {
    fn playout(&mut self, state: &mut SudokuGame, rng: &mut Rng, trace: &mut Vec<Move>) {
        if state.dead {
            return;
        }
        if self.kind == PlayoutKind::PseudoRandom {
            self.ensure_peers(&state.board);
        }
        while state.board.empty_count() > 0 {
            let cell = self.choose_cell(state, rng);
            let mut m = state.board.candidates(cell);
            if m == 0 {
                state.dead = true;
                return;
            }
            for _ in 0..rng.below(m.count_ones() as usize) {
                m &= m - 1;
            }
            let value = m.trailing_zeros() as u8 + 1;
            state.place_fast(cell, value);
            trace.push(pack(cell, value));
        }
    }
}

/// The selection formula (thesis 4.3.5).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Selection {
    /// `X̄ + UCTK·sqrt(ln n / n_j)`.
    Ucb1 {
        /// UCTK (0.1, 0.2 or 0.4 in the thesis; 0.2 was best).
        uctk: f64,
    },
    /// UCB1-Tuned (Auer et al.), constant 1.
    Ucb1Tuned,
}

/// Settings of the MCTS solver; `Default` is the thesis's best setting (UCB1, UCTK 0.2, no
/// AMAF, 10 visits before expansion) with random playouts and restarts every 10,000 simulations.
#[derive(Clone, Debug)]
pub struct MctsSudokuConfig {
    /// Playout cell choice.
    pub playout: PlayoutKind,
    /// Selection formula.
    pub selection: Selection,
    /// α of α-AMAF (`None`: off). Turning it on also switches to the wider unit expansion.
    pub amaf: Option<f64>,
    /// The tree's cell choice for one-cell expansion.
    pub tree_cell: CellChoice,
    /// Visits of a leaf before it is expanded (10 in the thesis).
    pub visits_before_expand: u32,
    /// Simulations per tree before a restart (`None`: never restart).
    pub restart_after: Option<u64>,
    /// Total simulations over all restarts.
    pub max_simulations: u64,
    /// Wall-time limit.
    pub time_limit: Option<Duration>,
    /// Node budget per tree.
    pub max_nodes: usize,
    /// Seed.
    pub seed: u64,
    /// Root-parallel threads (independent trees; the first solution stops them all).
    pub threads: usize,
    /// External stop flag (Ctrl-C).
    pub stop: Option<Arc<AtomicBool>>,
}

impl Default for MctsSudokuConfig {
    fn default() -> Self {
        MctsSudokuConfig {
            playout: PlayoutKind::Random,
            selection: Selection::Ucb1 { uctk: 0.2 },
            amaf: None,
            tree_cell: CellChoice::Random,
            visits_before_expand: 10,
            restart_after: Some(10_000),
            max_simulations: 1_000_000,
            time_limit: None,
            max_nodes: DEFAULT_MAX_NODES,
            seed: 1,
            threads: 1,
            stop: None,
        }
    }
}

impl MctsSudokuConfig {
    /// The engine configuration this maps to.
    pub fn engine_config(&self) -> MctsConfig {
        let mut budget = Budget::iterations(self.max_simulations).with_max_nodes(self.max_nodes);
        budget.max_time = self.time_limit;
        if let Some(flag) = &self.stop {
            budget = budget.with_stop_flag(flag.clone());
        }
        MctsConfig {
            selection: match self.selection {
                Selection::Ucb1 { uctk } => SelectionPolicy::Ucb1 { c: uctk },
                Selection::Ucb1Tuned => SelectionPolicy::Ucb1Tuned { c: 1.0 },
            },
            expansion: Expansion {
                visits_before_expand: self.visits_before_expand,
                children: ChildrenPerExpansion::All,
            },
            amaf: self.amaf.map_or(Amaf::Off, Amaf::Alpha),
            budget,
            seed: self.seed,
            threads: self.threads.max(1),
            restart_after: self.restart_after,
            target_score: Some(1.0),
            ..MctsConfig::default()
        }
    }

    /// The tree expansion this configuration uses.
    pub fn tree_expansion(&self) -> TreeExpansion {
        if self.amaf.is_some() {
            TreeExpansion::Unit
        } else {
            TreeExpansion::OneCell(self.tree_cell)
        }
    }
}

/// What an MCTS solve produced.
#[derive(Clone, Debug)]
pub struct MctsSolve {
    /// The verified solution, if found.
    pub solution: Option<Grid>,
    /// Simulations (playouts) run, over all restarts.
    pub simulations: u64,
    /// Restarts done (trees built minus one per thread).
    pub restarts: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// Most cells filled by any playout (the best partial grid's filled count).
    pub best_filled: usize,
}

/// Solve `puzzle` with MCTS. The returned solution is replayed move by move on the puzzle and
/// checked to be complete and conflict-free.
pub fn solve_mcts(puzzle: &Grid, config: &MctsSudokuConfig) -> Result<MctsSolve, String> {
    solve_mcts_watched(puzzle, config, None, None)
}

/// [`solve_mcts`] watched while it runs: `progress` hears the simulations as they are done,
/// `on_fill` every new deepest fill of a tree (cells filled, clues included, by a playout).
pub fn solve_mcts_watched(
    puzzle: &Grid,
    config: &MctsSudokuConfig,
    progress: Option<Arc<WorkCounter>>,
    on_fill: Option<&(dyn Fn(usize) + Sync)>,
) -> Result<MctsSolve, String> {
    let root = SudokuGame::new(puzzle, config.tree_expansion())?;
    let mut engine = config.engine_config();
    if let Some(counter) = progress {
        engine.budget = engine.budget.with_progress(counter);
    }
    let observer = |found: &Found<'_, SudokuGame>| {
        if found.new_best {
            if let Some(f) = on_fill {
                let board = found.state.board();
                f(board.len() - board.empty_count());
            }
        }
    };
    let result = mcts::search_observed(
        &root,
        &engine,
        &SudokuPlayout::new(config.playout),
        on_fill.map(|_| &observer as Observer<'_, SudokuGame>),
    );
    let mut replay = puzzle.clone();
    let mut filled = puzzle.clue_count();
    for &m in &result.best_sequence {
        let cell = move_cell(m);
        if cell >= replay.len() || replay.get(cell) != 0 {
            return Err(format!("MCTS produced an illegal move {m:#x}"));
        }
        replay.set(cell, move_value(m));
        filled += 1;
    }
    let solution = if result.best_score >= 1.0 {
        if !replay.solves(puzzle) {
            return Err("MCTS reported a solution that does not verify".into());
        }
        Some(replay)
    } else {
        None
    };
    Ok(MctsSolve {
        solution,
        simulations: result.iterations,
        restarts: result.trees.saturating_sub(config.threads.max(1) as u64),
        elapsed: result.elapsed,
        best_filled: filled,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_puzzle;
    use puzzle_engine::conformance::check_playouts;

    const EASY: &str =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

    #[test]
    fn reward_formula() {
        assert_eq!(playout_reward(30, 10), 0.75);
        assert_eq!(playout_reward(0, 10), 0.0);
        assert_eq!(playout_reward(0, 0), 1.0);
        assert_eq!(playout_reward(5, 0), 1.0);
    }

    /// A hand-made stuck playout: three tree moves, then six playout moves that leave the
    /// first cell without a legal value. The reward counts only the six playout moves.
    #[test]
    fn reward_on_a_stuck_playout() {
        let mut state =
            SudokuGame::new(&Grid::empty(3), TreeExpansion::OneCell(CellChoice::Random)).unwrap();
        for v in 1..=3u8 {
            state.apply(pack(v as usize, v)); // tree moves: row 0 gets 1, 2, 3
        }
        assert!(!state.is_terminal());
        let mut trace = Vec::new();
        for v in 4..=8u8 {
            state.place_fast(v as usize, v); // playout moves: row 0 gets 4..8
            trace.push(pack(v as usize, v));
        }
        state.place_fast(9, 9); // a 9 below cell 0: cell 0 can hold nothing now
        trace.push(pack(9, 9));
        assert_eq!(state.board().candidates(0), 0);
        assert_eq!(state.board().dead_cell(), Some(0));
        assert_eq!(state.unsolved(), 72);
        let r = state.reward(trace.len());
        assert_eq!(r, 6.0 / 78.0);
        assert_ne!(r, playout_reward(9, 72)); // tree moves are not counted
                                              // The same position reached by tree moves alone is a dead end with reward 0.
        let mut tree_only = state.clone();
        tree_only.apply(pack(10, 4));
        assert!(tree_only.is_dead() && tree_only.is_terminal());
        let mut actions = Vec::new();
        tree_only.legal_actions(&mut actions);
        assert!(actions.is_empty());
        assert_eq!(tree_only.reward(0), 0.0);
    }

    #[test]
    fn conformance() {
        let g = parse_puzzle(EASY).unwrap();
        for e in [
            TreeExpansion::OneCell(CellChoice::Random),
            TreeExpansion::OneCell(CellChoice::PseudoRandom),
            TreeExpansion::OneCell(CellChoice::MostConstrained),
            TreeExpansion::Unit,
        ] {
            let root = SudokuGame::new(&g, e).unwrap();
            check_playouts(&root, 50, 100, 3).unwrap();
        }
    }

    #[test]
    fn playouts_end_solved_or_stuck() {
        let g = parse_puzzle(EASY).unwrap();
        for kind in [PlayoutKind::Random, PlayoutKind::PseudoRandom] {
            let mut policy = SudokuPlayout::new(kind);
            let mut rng = Rng::new(5);
            for _ in 0..200 {
                let mut s =
                    SudokuGame::new(&g, TreeExpansion::OneCell(CellChoice::Random)).unwrap();
                let mut trace = Vec::new();
                policy.playout(&mut s, &mut rng, &mut trace);
                assert!(s.is_terminal());
                assert_eq!(trace.len() + s.unsolved(), 81 - g.clue_count());
                assert!(s.board().to_grid().first_conflict().is_none());
            }
        }
    }

    #[test]
    fn solves_an_easy_puzzle_with_a_fixed_seed() {
        let g = parse_puzzle(EASY).unwrap();
        for playout in [PlayoutKind::Random, PlayoutKind::PseudoRandom] {
            let cfg = MctsSudokuConfig {
                playout,
                max_simulations: 50_000,
                seed: 7,
                ..MctsSudokuConfig::default()
            };
            let r = solve_mcts(&g, &cfg).unwrap();
            let s = r.solution.expect("easy puzzle solved");
            assert!(s.solves(&g));
            assert!(r.simulations <= 50_000);
        }
    }
}
