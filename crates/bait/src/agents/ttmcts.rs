//! MCTS-plus's search: UCT over the graph of positions (a transposition table instead of a
//! tree), heuristic evaluation of new positions instead of random rollouts, max backup.
//!
//! Why: Bait's positions are reached by many move orders (walking around boxes), so a tree
//! spends most of its nodes on copies of the same position, and random 10-move rollouts say
//! almost nothing in levels that need 40–50 moves. Here every position is one node: its
//! statistics are shared by every path that reaches it, a path never revisits a position
//! (cycles are skipped), a new position is scored at once by the progress reward of
//! `super::mcts::JudgedState` (relaxed distance to key and door, score), and a node's
//! value is the best value found below it (single-player and deterministic: the best line is
//! what matters, as in SP-MCTS). UCB1's exploration term still spreads the search over
//! alternatives, and the table persists from move to move.

use crate::heuristic::{is_dead, relaxed_distance};
use crate::state::{Action, BaitState, Dynamic, Fingerprint};
use puzzle_engine::{FxHashMap, Rng};

const NONE: u32 = u32::MAX;

/// What one move of depth costs, in units of the progress value's step per relaxed-distance
/// unit (0.5 = half a unit, i.e. f = g/2 + h in A* terms): tuned on GVGAI's level 2, where
/// with 0.25 the search spends its boxes on holes off the way and does not win in 2000
/// ticks, while 0.5 wins it within about 200.
pub const DEPTH_COST: f64 = 0.5;

struct Node<const W: usize> {
    dy: Dynamic<W>,
    depth: u16,
    visits: u32,
    best: f64,
    children: [u32; 4],
    expanded: bool,
}

/// The outcome of a call to [`GraphMcts::run`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GraphStatus {
    /// A win was reached: the moves from the root.
    Win(Vec<Action>),
    /// The budget ran out.
    Searching,
}

/// UCT with a transposition table (see the module documentation), on a level of bitset width
/// `W`.
pub struct GraphMcts<const W: usize = 4> {
    nodes: Vec<Node<W>>,
    table: FxHashMap<Fingerprint, u32>,
    root: u32,
    scratch: BaitState<W>,
    path: Vec<u32>,
    moves: Vec<Action>,
    max_nodes: usize,
    c: f64,
    hole_cost: u32,
    max_score: f64,
    max_distance: f64,
    depth_cost: f64,
    /// Iterations run.
    pub iterations: u64,
}

impl<const W: usize> GraphMcts<W> {
    /// A search from `start` with exploration constant `c`, storing at most `max_nodes`.
    pub fn new(start: &BaitState<W>, c: f64, max_nodes: usize, hole_cost: u32) -> GraphMcts<W> {
        let level = start.level();
        let max_score =
            (level.holes.count() + level.mushrooms.count() + 5 * level.doors.count()).max(1) as f64;
        let d0 = relaxed_distance(start, hole_cost).unwrap_or(100) as f64;
        // Reserved up front (address space only until used), as A*'s lists: growing them by
        // copying in the middle of a move would blow the per-move budget on a wide level.
        let max_nodes = max_nodes.max(16);
        let most = (1usize << 26) * std::mem::size_of::<Node<4>>() / std::mem::size_of::<Node<W>>();
        let reserve = max_nodes.min(most);
        let mut table = FxHashMap::default();
        table.reserve(reserve);
        let mut g = GraphMcts {
            nodes: Vec::with_capacity(reserve),
            table,
            root: 0,
            scratch: start.clone(),
            path: Vec::new(),
            moves: Vec::new(),
            max_nodes,
            c,
            hole_cost,
            max_score,
            max_distance: 2.0 * d0 + 10.0,
            depth_cost: DEPTH_COST / (2.0 * d0 + 10.0),
            iterations: 0,
        };
        g.root = g.node_for(start, 0);
        g
    }

    /// Nodes stored.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// No node stored (never: the root is always there).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    fn value(&self, s: &BaitState<W>) -> f64 {
        let score = (s.points() as f64 / self.max_score).min(1.0);
        if s.is_win() {
            return 0.8 + 0.2 * score;
        }
        if is_dead(s) {
            return 0.0;
        }
        let d = relaxed_distance(s, self.hole_cost).unwrap_or(u32::MAX) as f64;
        let progress = 1.0 - (d / self.max_distance).min(1.0);
        0.3 + 0.5 * progress + 0.1 * score
    }

    fn node_for(&mut self, s: &BaitState<W>, depth: u16) -> u32 {
        let fp = s.fingerprint();
        if let Some(&i) = self.table.get(&fp) {
            return i;
        }
        // The depth at which the position was first reached costs a little, as A*'s g does:
        // among lines that look equally promising, the shorter is preferred, and a line that
        // wanders (e.g. spending boxes on holes off the way) loses its shine as it grows.
        let v = self.value(s) - self.depth_cost * depth as f64;
        let i = self.nodes.len() as u32;
        self.nodes.push(Node {
            dy: s.dy,
            depth,
            visits: 1,
            best: v,
            children: [NONE; 4],
            expanded: s.is_terminal_state() || is_dead(s),
        });
        self.table.insert(fp, i);
        i
    }

    /// Make the node of `state` the root (creating it if needed); the table is kept.
    pub fn set_root(&mut self, state: &BaitState<W>) {
        self.root = self.node_for(state, state.tick());
    }

    fn expand(&mut self, index: u32) {
        let dy = self.nodes[index as usize].dy;
        let depth = self.nodes[index as usize].depth + 1;
        let mut children = [NONE; 4];
        for (k, a) in Action::MOVES.into_iter().enumerate() {
            self.scratch.dy = dy;
            self.scratch.step(a);
            let mut same = self.scratch.dy;
            same.tick = dy.tick;
            if same == dy || is_dead(&self.scratch) {
                continue;
            }
            if self.nodes.len() >= self.max_nodes
                && !self.table.contains_key(&self.scratch.fingerprint())
            {
                continue;
            }
            let s = self.scratch.clone();
            children[k] = self.node_for(&s, depth);
        }
        let n = &mut self.nodes[index as usize];
        n.children = children;
        n.expanded = true;
    }

    /// Run iterations until `done()` says stop (checked every 16 iterations, fewer on a wide
    /// level) or a win is reached.
    pub fn run(&mut self, rng: &mut Rng, mut done: impl FnMut() -> bool) -> GraphStatus {
        // About every 16,384 cells' worth of distance work (each new position's value is a
        // walk over the level), as A* reads its clock.
        let check_every = (16_384 / self.scratch.level().cells().max(1)).clamp(1, 16);
        loop {
            for _ in 0..check_every {
                if let Some(win) = self.iterate(rng) {
                    return GraphStatus::Win(win);
                }
            }
            if done() {
                return GraphStatus::Searching;
            }
        }
    }

    fn iterate(&mut self, rng: &mut Rng) -> Option<Vec<Action>> {
        self.iterations += 1;
        self.path.clear();
        self.moves.clear();
        let mut node = self.root;
        self.path.push(node);
        let value;
        loop {
            if self.nodes[node as usize].dy.status == crate::state::Status::Won {
                return Some(self.moves.clone());
            }
            if !self.nodes[node as usize].expanded {
                self.expand(node);
                let n = &self.nodes[node as usize];
                let mut best = 0.0f64;
                for (k, &c) in n.children.iter().enumerate() {
                    if c == NONE {
                        continue;
                    }
                    let child = &self.nodes[c as usize];
                    if child.dy.status == crate::state::Status::Won {
                        self.moves.push(Action::MOVES[k]);
                        return Some(self.moves.clone());
                    }
                    best = best.max(child.best);
                }
                value = best;
                break;
            }
            // UCB1 over the children not on the current path (no cycles).
            let n = &self.nodes[node as usize];
            let ln_n = (n.visits.max(1) as f64).ln();
            let mut choice: Option<(f64, usize, u32)> = None;
            for (k, &c) in n.children.iter().enumerate() {
                if c == NONE || self.path.contains(&c) {
                    continue;
                }
                let child = &self.nodes[c as usize];
                let ucb =
                    child.best + self.c * (ln_n / child.visits as f64).sqrt() + rng.f64() * 1e-9;
                if choice.is_none_or(|(v, _, _)| ucb > v) {
                    choice = Some((ucb, k, c));
                }
            }
            match choice {
                None => {
                    value = 0.0; // a dead end on this path
                    break;
                }
                Some((_, k, c)) => {
                    node = c;
                    self.path.push(c);
                    self.moves.push(Action::MOVES[k]);
                }
            }
        }
        // Backup: visits along the path; a node's value is the best found below it.
        let mut v = value;
        for &id in self.path.iter().rev() {
            let n = &mut self.nodes[id as usize];
            n.visits += 1;
            n.best = n.best.max(v);
            v = n.best;
        }
        None
    }

    /// The root's most visited useful move (ties broken by value, then at random).
    pub fn best_move(&self, rng: &mut Rng) -> Option<Action> {
        let n = &self.nodes[self.root as usize];
        let mut choice: Option<((u32, f64, f64), Action)> = None;
        for (k, &c) in n.children.iter().enumerate() {
            if c == NONE {
                continue;
            }
            let child = &self.nodes[c as usize];
            let key = (child.visits, child.best, rng.f64());
            if choice.is_none_or(|(best, _)| key > best) {
                choice = Some((key, Action::MOVES[k]));
            }
        }
        choice.map(|(_, a)| a)
    }
}
