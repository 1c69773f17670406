//! The genetic "reactive string" solver of the paper (Nezvalová, §3; see
//! `docs/METHODS.md#sokoban-ga`).
//!
//! - §3.1 *Representation*: a chromosome is a list of genes 0–7 read by a reactive agent.
//!   Genes 0–3 *push*: the agent numbers the boxes it can push from where it stands, clockwise
//!   starting from up, leaving out pushes onto dead squares (static deadlocks) and pushes into a
//!   local freeze deadlock (recursive over the 4-neighbourhood), and pushes the k-th (k taken
//!   modulo the count); with no such push the gene acts as the move gene k+4. Genes 4–7 *move*:
//!   the k-th possible non-pushing step (never into a wall or a box), never back onto the
//!   previous cell unless that is the only step.
//! - §3.2 *Crossover*: a random cut point in parent 1; in parent 2, the nearest gene position
//!   (searching both ways from the same index) where the board state — for crossover the
//!   agent's cell, as the paper says — is the same; the four pieces make two children of
//!   possibly different lengths. *Mutation*: each gene of a child is redrawn with probability
//!   0.05–0.1 (default 0.08).
//! - §3.3 *Fitness*: boxes on goals weigh most, then boxes on lines through goals (cells that
//!   see a goal straight along a row or column); within groups of equal counts, individuals
//!   are ranked by length and lose one point per place (never below zero); an individual whose
//!   box configuration stagnates for longer than the board size (an undetected dynamic
//!   deadlock) has its fitness lowered.
//!
//! The paper gives no population size, selection scheme or weights: [`GaConfig::default`]
//! documents our choices.

use crate::board::{Board, NONE};
use crate::deadlock::FreezeCheck;
use crate::dir::Dir;
use crate::outcome::SearchOutcome;
use crate::position::{Position, Push};
use puzzle_engine::ga::GeneticProblem;
use puzzle_engine::{Budget, Rng, StopReason};

/// Parameters of the genetic solver.
#[derive(Clone, Debug)]
pub struct GaConfig {
    /// Individuals per generation (our choice: 100).
    pub population: usize,
    /// Per-gene mutation probability (paper: 0.05–0.1; default 0.08).
    pub mutation: f64,
    /// Probability that two selected parents are crossed (else copied; our choice 0.9).
    pub crossover: f64,
    /// Tournament size of parent selection (our choice: 3).
    pub tournament: usize,
    /// Best individuals copied unchanged into the next generation (our choice: 2).
    pub elite: usize,
    /// Initial chromosome length as a multiple of the playable cells (our choice: 3).
    pub initial_length_per_cell: usize,
    /// Longest chromosome allowed, as a multiple of the playable cells (our choice: 30).
    pub max_length_per_cell: usize,
    /// Shortest chromosome allowed, as a multiple of the playable cells (our addition, default
    /// 2): shorter children are padded with random genes. Without it the length-rank penalty
    /// shrinks the population to near-empty strings whenever the start already has boxes on
    /// goals.
    pub min_length_per_cell: usize,
    /// Points per box on a goal (our choice: 10 000, above any rank penalty).
    pub goal_weight: f64,
    /// Points per box on a line through a goal (our choice: 200).
    pub near_weight: f64,
    /// Fitness multiplier of a stagnating individual (our choice: 0.5).
    pub stagnation_factor: f64,
    /// Genes without a box-configuration change, as a multiple of the playable cells, after
    /// which an individual counts as stagnating (our choice: 2).
    pub stagnation_per_cell: usize,
}

impl Default for GaConfig {
    fn default() -> Self {
        GaConfig {
            population: 100,
            mutation: 0.08,
            crossover: 0.9,
            tournament: 3,
            elite: 2,
            initial_length_per_cell: 3,
            max_length_per_cell: 30,
            min_length_per_cell: 2,
            goal_weight: 10_000.0,
            near_weight: 200.0,
            stagnation_factor: 0.5,
            stagnation_per_cell: 2,
        }
    }
}

/// What the agent did with one chromosome.
#[derive(Clone, Debug, Default)]
pub struct Decoded {
    /// Boxes on goals at the end.
    pub on_goals: usize,
    /// Boxes (not on goals) on lines through goals at the end.
    pub near_goals: usize,
    /// Genes read (the whole chromosome, or up to the solving gene).
    pub length: usize,
    /// The longest run of genes without a box-configuration change exceeded the threshold.
    pub stagnating: bool,
    /// All boxes on goals.
    pub solved: bool,
    /// The pushes made, in order.
    pub pushes: Vec<Push>,
    /// The agent's cell after each gene (index 0 = the start), for crossover.
    pub states: Vec<u16>,
}

/// The reactive agent and fitness of one level.
pub struct ReactiveString<'a> {
    board: &'a Board,
    config: GaConfig,
    near: Vec<bool>,
}

impl<'a> ReactiveString<'a> {
    /// Prepare the agent for `board`.
    pub fn new(board: &'a Board, config: GaConfig) -> Self {
        let mut near = vec![false; board.cells()];
        for &g in &board.goal_list {
            for d in Dir::ALL {
                let mut c = board.step(g, d);
                while c != NONE {
                    near[c as usize] = true;
                    c = board.step(c, d);
                }
            }
        }
        ReactiveString {
            board,
            config,
            near,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &GaConfig {
        &self.config
    }

    /// Run the agent on `genes` from the level's start (§3.1).
    pub fn decode(&self, genes: &[u8], freeze: &mut FreezeCheck) -> Decoded {
        let board = self.board;
        let mut pos = Position::start(board);
        let mut previous = NONE;
        let mut out = Decoded {
            states: Vec::with_capacity(genes.len() + 1),
            ..Decoded::default()
        };
        out.states.push(pos.player);
        let threshold = self.config.stagnation_per_cell * board.cells();
        let mut since_change = 0usize;
        let mut longest_still = 0usize;
        let mut solved = pos.is_solved(board);
        let mut read = 0;
        for &gene in genes {
            if solved {
                break;
            }
            read += 1;
            let mut pushed = false;
            if gene < 4 {
                if let Some(push) = self.choose_push(&mut pos, gene as usize, freeze) {
                    previous = pos.player;
                    pos.apply_push(board, push);
                    out.pushes.push(push);
                    pushed = true;
                }
            }
            if !pushed {
                if let Some(step) = self.choose_step(&pos, (gene % 4) as usize, previous) {
                    previous = pos.player;
                    pos.player = step;
                }
            }
            if pushed {
                since_change = 0;
                solved = pos.is_solved(board);
            } else {
                since_change += 1;
                longest_still = longest_still.max(since_change);
            }
            out.states.push(pos.player);
        }
        out.length = read;
        out.solved = solved;
        out.on_goals = pos.boxes_on_goals(board);
        out.near_goals = pos
            .boxes
            .iter()
            .filter(|&b| !board.is_goal(b) && self.near[b as usize])
            .count();
        out.stagnating = !solved && longest_still > threshold;
        out
    }

    /// The k-th push (mod the count) among the agent's admissible pushes, clockwise from up.
    fn choose_push(&self, pos: &mut Position, k: usize, freeze: &mut FreezeCheck) -> Option<Push> {
        let board = self.board;
        let mut options = [Push {
            from: 0,
            dir: Dir::Up,
        }; 4];
        let mut count = 0;
        for dir in Dir::ALL {
            let b = board.step(pos.player, dir);
            if b == NONE || !pos.boxes.contains(b) {
                continue;
            }
            let push = Push { from: b, dir };
            let Some(to) = pos.push_target(board, push) else {
                continue;
            };
            if board.is_dead(to) {
                continue;
            }
            let old = pos.apply_push(board, push);
            let frozen = freeze.is_deadlock(board, &pos.boxes, to);
            pos.undo_push(board, push, old);
            if !frozen {
                options[count] = push;
                count += 1;
            }
        }
        (count > 0).then(|| options[k % count])
    }

    /// The k-th non-pushing step (mod the count), clockwise from up, avoiding the previous
    /// cell unless it is the only step.
    fn choose_step(&self, pos: &Position, k: usize, previous: u16) -> Option<u16> {
        let board = self.board;
        let mut options = [NONE; 4];
        let mut count = 0;
        let mut back = false;
        for dir in Dir::ALL {
            let n = board.step(pos.player, dir);
            if n == NONE || pos.boxes.contains(n) {
                continue;
            }
            if n == previous {
                back = true;
                continue;
            }
            options[count] = n;
            count += 1;
        }
        if count == 0 {
            return back.then_some(previous);
        }
        Some(options[k % count])
    }

    /// Raw fitness before the population-wide rank penalty (§3.3).
    pub fn raw_fitness(&self, d: &Decoded) -> f64 {
        let f = self.config.goal_weight * d.on_goals as f64
            + self.config.near_weight * d.near_goals as f64;
        if d.stagnating {
            f * self.config.stagnation_factor
        } else {
            f
        }
    }

    /// Population fitness (§3.3): per group of equal boxes-on-goals, rank by length and take
    /// one point per place off the goal points (not below zero); the same for the near-goal
    /// points within groups of equal near-goal counts; stagnation lowers the total.
    pub fn population_fitness(&self, decoded: &[Decoded]) -> Vec<f64> {
        let n = decoded.len();
        let goal_rank = length_ranks(decoded, |d| d.on_goals);
        let near_rank = length_ranks(decoded, |d| d.near_goals);
        (0..n)
            .map(|i| {
                let d = &decoded[i];
                let goal_points =
                    (self.config.goal_weight * d.on_goals as f64 - goal_rank[i] as f64).max(0.0);
                let near_points =
                    (self.config.near_weight * d.near_goals as f64 - near_rank[i] as f64).max(0.0);
                let f = goal_points + near_points;
                if d.stagnating {
                    f * self.config.stagnation_factor
                } else {
                    f
                }
            })
            .collect()
    }

    /// State-aligned crossover (§3.2) given both parents' decoded agent cells.
    pub fn crossover(
        &self,
        a: &[u8],
        a_states: &[u16],
        b: &[u8],
        b_states: &[u16],
        rng: &mut Rng,
    ) -> (Vec<u8>, Vec<u8>) {
        let cut_a = rng.below(a.len() + 1);
        // States are recorded only for genes read; beyond, reuse the last one.
        let state_at = |s: &[u16], i: usize| s[i.min(s.len() - 1)];
        let target = state_at(a_states, cut_a);
        let start = cut_a.min(b.len());
        let mut cut_b = None;
        for delta in 0..=b.len() {
            if start >= delta && state_at(b_states, start - delta) == target {
                cut_b = Some(start - delta);
                break;
            }
            if start + delta <= b.len() && state_at(b_states, start + delta) == target {
                cut_b = Some(start + delta);
                break;
            }
        }
        let cut_b = cut_b.unwrap_or(start);
        let max_len = self.config.max_length_per_cell * self.board.cells();
        let mut c1: Vec<u8> = a[..cut_a].iter().chain(&b[cut_b..]).copied().collect();
        let mut c2: Vec<u8> = b[..cut_b].iter().chain(&a[cut_a..]).copied().collect();
        for c in [&mut c1, &mut c2] {
            c.truncate(max_len);
            self.pad(c, rng);
        }
        (c1, c2)
    }

    /// Pad `genes` with random genes up to the minimum length.
    pub fn pad(&self, genes: &mut Vec<u8>, rng: &mut Rng) {
        let min_len = (self.config.min_length_per_cell * self.board.cells()).max(1);
        while genes.len() < min_len {
            genes.push(rng.below(8) as u8);
        }
    }

    /// Redraw each gene with the mutation probability.
    pub fn mutate(&self, genes: &mut [u8], rng: &mut Rng) {
        for g in genes.iter_mut() {
            if rng.f64() < self.config.mutation {
                *g = rng.below(8) as u8;
            }
        }
    }

    /// A random chromosome of the initial length.
    pub fn random(&self, rng: &mut Rng) -> Vec<u8> {
        let len = (self.config.initial_length_per_cell * self.board.cells()).max(1);
        (0..len).map(|_| rng.below(8) as u8).collect()
    }
}

/// For each individual, its place (0 = shortest) among those with the same `key`.
fn length_ranks(decoded: &[Decoded], key: impl Fn(&Decoded) -> usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..decoded.len()).collect();
    order.sort_by_key(|&i| (key(&decoded[i]), decoded[i].length, i));
    let mut rank = vec![0; decoded.len()];
    let mut place = 0;
    for (n, &i) in order.iter().enumerate() {
        if n > 0 && key(&decoded[order[n - 1]]) != key(&decoded[i]) {
            place = 0;
        }
        rank[i] = place;
        place += 1;
    }
    rank
}

impl GeneticProblem for ReactiveString<'_> {
    type Chromosome = Vec<u8>;

    fn random_chromosome(&self, rng: &mut Rng) -> Vec<u8> {
        self.random(rng)
    }

    fn fitness(&self, chromosome: &Vec<u8>) -> f64 {
        self.raw_fitness(&self.decode(chromosome, &mut FreezeCheck::new()))
    }

    fn crossover(&self, a: &Vec<u8>, b: &Vec<u8>, rng: &mut Rng) -> (Vec<u8>, Vec<u8>) {
        let mut freeze = FreezeCheck::new();
        let da = self.decode(a, &mut freeze);
        let db = self.decode(b, &mut freeze);
        ReactiveString::crossover(self, a, &da.states, b, &db.states, rng)
    }

    fn mutate(&self, chromosome: &mut Vec<u8>, rng: &mut Rng) {
        ReactiveString::mutate(self, chromosome, rng)
    }

    fn is_solution(&self, chromosome: &Vec<u8>, _fitness: f64) -> bool {
        self.decode(chromosome, &mut FreezeCheck::new()).solved
    }

    fn adjust_fitness(&self, population: &[Vec<u8>], fitness: &mut [f64]) {
        let mut freeze = FreezeCheck::new();
        let decoded: Vec<Decoded> = population
            .iter()
            .map(|c| self.decode(c, &mut freeze))
            .collect();
        fitness.copy_from_slice(&self.population_fitness(&decoded));
    }
}

/// Run the genetic solver on `board` until an individual solves the level or the budget
/// (time, generations as iterations, individuals decoded as nodes, stop flag) runs out.
/// `nodes` counts decoded individuals.
pub fn solve_ga(board: &Board, config: &GaConfig, budget: &Budget, seed: u64) -> SearchOutcome {
    let deadline = budget.start();
    let agent = ReactiveString::new(board, config.clone());
    let mut rng = Rng::new(seed);
    let mut freeze = FreezeCheck::new();
    let pop_size = config.population.max(2);
    let mut population: Vec<Vec<u8>> = (0..pop_size).map(|_| agent.random(&mut rng)).collect();
    let mut outcome = SearchOutcome {
        pushes: None,
        nodes: 0,
        expanded: 0,
        stop: StopReason::Time,
    };
    let mut generation: u64 = 0;
    loop {
        let decoded: Vec<Decoded> = population
            .iter()
            .map(|c| agent.decode(c, &mut freeze))
            .collect();
        outcome.nodes += decoded.len() as u64;
        if let Some(d) = decoded.iter().find(|d| d.solved) {
            outcome.pushes = Some(d.pushes.clone());
            outcome.stop = StopReason::Solved;
            outcome.expanded = generation;
            return outcome;
        }
        if budget.max_iterations.is_some_and(|m| generation >= m) {
            outcome.stop = StopReason::Iterations;
            break;
        }
        // The node budget caps the individuals decoded (so a run without time or generation
        // limits still ends).
        if outcome.nodes >= budget.max_nodes as u64 {
            outcome.stop = StopReason::Nodes;
            break;
        }
        if deadline.stopped() {
            outcome.stop = StopReason::Interrupted;
            break;
        }
        if deadline.expired() {
            outcome.stop = StopReason::Time;
            break;
        }
        let fitness = agent.population_fitness(&decoded);
        let mut order: Vec<usize> = (0..pop_size).collect();
        order.sort_by(|&a, &b| fitness[b].total_cmp(&fitness[a]));
        let mut next: Vec<Vec<u8>> = order
            .iter()
            .take(config.elite.min(pop_size))
            .map(|&i| population[i].clone())
            .collect();
        let pick = |rng: &mut Rng| -> usize {
            let mut best = rng.below(pop_size);
            for _ in 1..config.tournament.max(1) {
                let c = rng.below(pop_size);
                if fitness[c] > fitness[best] {
                    best = c;
                }
            }
            best
        };
        while next.len() < pop_size {
            let (pa, pb) = (pick(&mut rng), pick(&mut rng));
            let (mut c1, mut c2) = if rng.f64() < config.crossover {
                agent.crossover(
                    &population[pa],
                    &decoded[pa].states,
                    &population[pb],
                    &decoded[pb].states,
                    &mut rng,
                )
            } else {
                (population[pa].clone(), population[pb].clone())
            };
            agent.pad(&mut c1, &mut rng);
            agent.pad(&mut c2, &mut rng);
            agent.mutate(&mut c1, &mut rng);
            agent.mutate(&mut c2, &mut rng);
            for c in [c1, c2] {
                if next.len() < pop_size {
                    next.push(c);
                }
            }
        }
        population = next;
        generation += 1;
    }
    outcome.expanded = generation;
    outcome
}
