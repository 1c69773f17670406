//! A genetic algorithm framework (see `docs/METHODS.md#ga`; the Sokoban "reactive string"
//! solver of `docs/METHODS.md#sokoban-ga` uses it): population, tournament or rank selection,
//! problem-supplied crossover and mutation (variable-length chromosomes allowed), elitism,
//! generation, evaluation and time budgets, seeded.
//!
//! One generation: adjust the raw fitnesses ([`GeneticProblem::adjust_fitness`]), keep the
//! `elitism` best individuals (by adjusted fitness), fill the rest of the next population with
//! children of selected pairs (crossover with probability `crossover_rate`, else copies of the
//! parents, then mutation), and evaluate the children. Fitness evaluation and the making of
//! children run in parallel (rayon); every random choice is drawn from the seeded [`Rng`] in a
//! fixed order, and each pair gets its own seeded stream, so a seed gives the same run on any
//! number of threads.
//!
//! ```
//! use puzzle_engine::ga::{evolve, GaConfig, GeneticProblem};
//! use puzzle_engine::{Budget, Rng};
//! /// OneMax: maximize the number of ones in 32 bits.
//! struct OneMax;
//! impl GeneticProblem for OneMax {
//!     type Chromosome = u32;
//!     fn random_chromosome(&self, rng: &mut Rng) -> u32 { rng.next_u64() as u32 }
//!     fn fitness(&self, c: &u32) -> f64 { c.count_ones() as f64 }
//!     fn crossover(&self, a: &u32, b: &u32, rng: &mut Rng) -> (u32, u32) {
//!         let mask = rng.next_u64() as u32; // uniform crossover
//!         ((a & mask) | (b & !mask), (b & mask) | (a & !mask))
//!     }
//!     fn mutate(&self, c: &mut u32, rng: &mut Rng) {
//!         if rng.chance(0.5) { *c ^= 1 << rng.below(32); }
//!     }
//!     fn is_solution(&self, c: &u32, _: f64) -> bool { *c == u32::MAX }
//! }
//! let result = evolve(&OneMax, &GaConfig::default(), &Budget::iterations(1_000_000));
//! assert!(result.solved);
//! assert_eq!(result.best, u32::MAX);
//! ```

use crate::classic::meter::Meter;
use crate::{Budget, Rng, StopReason};
use rayon::prelude::*;
use std::time::Duration;

/// A problem the GA optimizes (higher fitness is better).
pub trait GeneticProblem: Sync {
    /// A candidate solution (e.g. the Sokoban "reactive string": a list of genes 0–7).
    type Chromosome: Clone + Send + Sync;
    /// A random individual for the initial population.
    fn random_chromosome(&self, rng: &mut Rng) -> Self::Chromosome;
    /// Its fitness (higher is better).
    fn fitness(&self, chromosome: &Self::Chromosome) -> f64;
    /// Two children of two parents.
    fn crossover(
        &self,
        a: &Self::Chromosome,
        b: &Self::Chromosome,
        rng: &mut Rng,
    ) -> (Self::Chromosome, Self::Chromosome);
    /// Mutate in place (the problem decides the per-gene probability).
    fn mutate(&self, chromosome: &mut Self::Chromosome, rng: &mut Rng);
    /// Does this individual solve the problem (ends the run)? Default: never.
    fn is_solution(&self, chromosome: &Self::Chromosome, fitness: f64) -> bool {
        let _ = (chromosome, fitness);
        false
    }
    /// Adjust raw fitnesses relative to the whole population before selection (e.g. the Sokoban
    /// paper's length-rank penalty within groups of equal box counts). Default: unchanged.
    fn adjust_fitness(&self, population: &[Self::Chromosome], fitness: &mut [f64]) {
        let _ = (population, fitness);
    }
}

/// How parents are chosen (by adjusted fitness).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Selection {
    /// The best of `size` individuals drawn uniformly (with replacement).
    Tournament {
        /// Tournament size (2 = binary tournament).
        size: usize,
    },
    /// Linear ranking (Baker 1985): the individual of rank `i` (0 = worst) is chosen with
    /// probability `(2 − s)/n + 2·i·(s − 1)/(n·(n − 1))`, `s` = `pressure` in `[1, 2]`.
    Rank {
        /// Selection pressure `s` (1: uniform, 2: the strongest linear pressure).
        pressure: f64,
    },
}

impl Default for Selection {
    fn default() -> Self {
        Selection::Tournament { size: 2 }
    }
}

/// Settings of [`evolve`].
#[derive(Clone, Debug, PartialEq)]
pub struct GaConfig {
    /// Individuals per generation.
    pub population: usize,
    /// Parent selection.
    pub selection: Selection,
    /// Probability that a selected pair is crossed (else the children are copies).
    pub crossover_rate: f64,
    /// Best individuals copied unchanged into the next generation.
    pub elitism: usize,
    /// Stop after this many generations after the initial one (`None`: only the budget; if the
    /// budget has neither iterations nor time, the default 1000 applies).
    pub generations: Option<u64>,
    /// Seed of every random choice.
    pub seed: u64,
}

impl Default for GaConfig {
    /// 100 individuals, binary tournament, crossover 0.9, 2 elites, 1000 generations.
    fn default() -> Self {
        GaConfig {
            population: 100,
            selection: Selection::default(),
            crossover_rate: 0.9,
            elitism: 2,
            generations: Some(1000),
            seed: 0,
        }
    }
}

/// What [`evolve`] produced.
#[derive(Clone, Debug)]
pub struct GaResult<C> {
    /// The individual of best raw fitness ever evaluated (a solution if `solved`).
    pub best: C,
    /// Its raw fitness.
    pub best_fitness: f64,
    /// Generations made after the initial population.
    pub generations: u64,
    /// Fitness evaluations (the budget's iterations).
    pub evaluations: u64,
    /// An individual satisfied [`GeneticProblem::is_solution`].
    pub solved: bool,
    /// Best raw fitness of each generation, the initial one first.
    pub history: Vec<f64>,
    /// The population size used (the configured one, capped so that parents and children fit
    /// in `max_nodes`).
    pub population: usize,
    /// `Solved`, `Exhausted` (generation limit), or the budget that ended the run.
    pub stop_reason: StopReason,
    /// Wall time.
    pub elapsed: Duration,
}

/// A callback that hears, after each generation, its number, the best raw fitness so far and
/// that individual.
pub type Observer<'a, C> = &'a mut dyn FnMut(u64, f64, &C);

/// Run the genetic algorithm on `problem`. The budget's iterations count fitness evaluations
/// (a generation is only started if all its evaluations fit; the initial population is always
/// evaluated); time and the stop flag are checked between generations; `max_nodes` caps the
/// individuals held at once (parents + children), so the population is at most
/// `max_nodes / 2` (and at least 1).
pub fn evolve<P: GeneticProblem>(
    problem: &P,
    config: &GaConfig,
    budget: &Budget,
) -> GaResult<P::Chromosome> {
    evolve_observed(problem, config, budget, None)
}

/// [`evolve`] with an observer called after every generation.
pub fn evolve_observed<P: GeneticProblem>(
    problem: &P,
    config: &GaConfig,
    budget: &Budget,
    mut observer: Option<Observer<'_, P::Chromosome>>,
) -> GaResult<P::Chromosome> {
    let n = config.population.min(budget.max_nodes / 2).max(1);
    let elites = config.elitism.min(n);
    let mut meter = Meter::start(budget);
    // Without any limit the run would never end: fall back to the default generation count.
    let generation_limit = match config.generations {
        None if budget.is_unbounded() => GaConfig::default().generations,
        limit => limit,
    };
    let max_evaluations = budget.max_iterations.unwrap_or(u64::MAX);
    let mut rng = Rng::new(config.seed);
    let mut population: Vec<P::Chromosome> = (0..n)
        .map(|_| problem.random_chromosome(&mut rng))
        .collect();
    let mut raw = evaluate(problem, &population);
    let mut evaluations = n as u64;
    let first_best = argmax(&raw);
    let mut best = population[first_best].clone();
    let mut best_fitness = raw[first_best];
    let mut history = vec![best_fitness];
    let mut generations = 0u64;
    let mut solved = find_solution(problem, &population, &raw);
    let mut adjusted = Vec::with_capacity(n);
    let mut order: Vec<usize> = Vec::with_capacity(n);
    let mut cumulative: Vec<f64> = Vec::with_capacity(n);
    let stop_reason = loop {
        if let Some(i) = solved {
            best = population[i].clone();
            best_fitness = raw[i];
            break StopReason::Solved;
        }
        if generation_limit.is_some_and(|g| generations >= g) {
            break StopReason::Exhausted;
        }
        let children_needed = n - elites;
        if evaluations + children_needed as u64 > max_evaluations {
            break StopReason::Iterations;
        }
        if let Some(reason) = meter.exhausted_now() {
            break reason;
        }

        // Selection on adjusted fitness.
        adjusted.clear();
        adjusted.extend_from_slice(&raw);
        problem.adjust_fitness(&population, &mut adjusted);
        for f in adjusted.iter_mut() {
            if f.is_nan() {
                *f = f64::NEG_INFINITY;
            }
        }
        order.clear();
        order.extend(0..n);
        // Best first; ties keep the lower index.
        order.sort_by(|&a, &b| adjusted[b].total_cmp(&adjusted[a]).then(a.cmp(&b)));
        if let Selection::Rank { pressure } = config.selection {
            rank_weights(n, pressure, &mut cumulative);
        }
        let pairs = children_needed.div_ceil(2);
        let plans: Vec<(usize, usize, bool, u64)> = (0..pairs)
            .map(|_| {
                let a = select(config.selection, &adjusted, &order, &cumulative, &mut rng);
                let b = select(config.selection, &adjusted, &order, &cumulative, &mut rng);
                let cross = rng.chance(config.crossover_rate);
                (a, b, cross, rng.next_u64())
            })
            .collect();
        let mut children: Vec<P::Chromosome> = plans
            .par_iter()
            .flat_map_iter(|&(a, b, cross, seed)| {
                let mut pair_rng = Rng::new(seed);
                let (mut c1, mut c2) = if cross {
                    problem.crossover(&population[a], &population[b], &mut pair_rng)
                } else {
                    (population[a].clone(), population[b].clone())
                };
                problem.mutate(&mut c1, &mut pair_rng);
                problem.mutate(&mut c2, &mut pair_rng);
                [c1, c2]
            })
            .collect();
        children.truncate(children_needed);
        let child_fitness = evaluate(problem, &children);
        evaluations += children.len() as u64;
        meter.done = evaluations;

        let mut next: Vec<P::Chromosome> = Vec::with_capacity(n);
        let mut next_raw = Vec::with_capacity(n);
        for &i in &order[..elites] {
            next.push(population[i].clone());
            next_raw.push(raw[i]);
        }
        next.append(&mut children);
        next_raw.extend_from_slice(&child_fitness);
        population = next;
        raw = next_raw;
        generations += 1;

        let gen_best = argmax(&raw);
        history.push(raw[gen_best]);
        if raw[gen_best] > best_fitness {
            best_fitness = raw[gen_best];
            best = population[gen_best].clone();
        }
        if let Some(observer) = observer.as_mut() {
            observer(generations, best_fitness, &best);
        }
        solved = find_solution(problem, &population, &raw);
    };
    GaResult {
        best,
        best_fitness,
        generations,
        evaluations,
        solved: stop_reason == StopReason::Solved,
        history,
        population: n,
        stop_reason,
        elapsed: meter.elapsed(),
    }
}

/// Raw fitness of every individual, in parallel, in order; NaN counts as −∞.
fn evaluate<P: GeneticProblem>(problem: &P, population: &[P::Chromosome]) -> Vec<f64> {
    population
        .par_iter()
        .map(|c| {
            let f = problem.fitness(c);
            if f.is_nan() {
                f64::NEG_INFINITY
            } else {
                f
            }
        })
        .collect()
}

/// Index of the largest value (the first on ties).
fn argmax(values: &[f64]) -> usize {
    let mut best = 0;
    for (i, v) in values.iter().enumerate() {
        if *v > values[best] {
            best = i;
        }
    }
    best
}

/// The solution of best raw fitness in the population, if any.
fn find_solution<P: GeneticProblem>(
    problem: &P,
    population: &[P::Chromosome],
    raw: &[f64],
) -> Option<usize> {
    (0..population.len())
        .filter(|&i| problem.is_solution(&population[i], raw[i]))
        .max_by(|&a, &b| raw[a].total_cmp(&raw[b]).then(b.cmp(&a)))
}

/// Cumulative linear-ranking probabilities by rank position, best first.
fn rank_weights(n: usize, pressure: f64, cumulative: &mut Vec<f64>) {
    let s = pressure.clamp(1.0, 2.0);
    cumulative.clear();
    let nf = n as f64;
    let mut total = 0.0;
    for position in 0..n {
        let rank = (n - 1 - position) as f64; // 0 = worst
        let p = if n == 1 {
            1.0
        } else {
            (2.0 - s) / nf + 2.0 * rank * (s - 1.0) / (nf * (nf - 1.0))
        };
        total += p;
        cumulative.push(total);
    }
}

/// Choose one parent index.
fn select(
    selection: Selection,
    adjusted: &[f64],
    order: &[usize],
    cumulative: &[f64],
    rng: &mut Rng,
) -> usize {
    let n = adjusted.len();
    match selection {
        Selection::Tournament { size } => {
            let mut winner = rng.below(n);
            for _ in 1..size.max(1) {
                let other = rng.below(n);
                if adjusted[other] > adjusted[winner]
                    || (adjusted[other] == adjusted[winner] && other < winner)
                {
                    winner = other;
                }
            }
            winner
        }
        Selection::Rank { .. } => {
            let total = cumulative.last().copied().unwrap_or(1.0);
            let x = rng.f64() * total;
            let position = cumulative.partition_point(|&c| c <= x).min(n - 1);
            order[position]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::Arc;

    /// OneMax over 64 bits.
    struct OneMax;

    impl GeneticProblem for OneMax {
        type Chromosome = u64;
        fn random_chromosome(&self, rng: &mut Rng) -> u64 {
            rng.next_u64()
        }
        fn fitness(&self, c: &u64) -> f64 {
            c.count_ones() as f64
        }
        fn crossover(&self, a: &u64, b: &u64, rng: &mut Rng) -> (u64, u64) {
            let cut = rng.below(63) + 1;
            let low = (1u64 << cut) - 1;
            ((a & low) | (b & !low), (b & low) | (a & !low))
        }
        fn mutate(&self, c: &mut u64, rng: &mut Rng) {
            for bit in 0..64 {
                if rng.chance(1.0 / 64.0) {
                    *c ^= 1 << bit;
                }
            }
        }
        fn is_solution(&self, c: &u64, _: f64) -> bool {
            *c == u64::MAX
        }
    }

    /// A 0/1 knapsack: 24 items, value if within capacity, else a penalty below zero.
    struct Knapsack {
        weights: Vec<u32>,
        values: Vec<u32>,
        capacity: u32,
        adjusted: AtomicUsize,
    }

    impl Knapsack {
        fn new() -> Self {
            let mut rng = Rng::new(99);
            let weights: Vec<u32> = (0..24).map(|_| 5 + rng.below(40) as u32).collect();
            let values: Vec<u32> = (0..24).map(|_| 1 + rng.below(60) as u32).collect();
            let capacity = weights.iter().sum::<u32>() / 3;
            Knapsack {
                weights,
                values,
                capacity,
                adjusted: AtomicUsize::new(0),
            }
        }

        /// The optimum by dynamic programming over capacities.
        fn optimum(&self) -> u32 {
            let mut best = vec![0u32; self.capacity as usize + 1];
            for (&w, &v) in self.weights.iter().zip(&self.values) {
                for c in (w as usize..best.len()).rev() {
                    best[c] = best[c].max(best[c - w as usize] + v);
                }
            }
            best[self.capacity as usize]
        }
    }

    impl GeneticProblem for Knapsack {
        type Chromosome = Vec<bool>;
        fn random_chromosome(&self, rng: &mut Rng) -> Vec<bool> {
            (0..self.weights.len()).map(|_| rng.chance(0.3)).collect()
        }
        fn fitness(&self, c: &Vec<bool>) -> f64 {
            let (mut w, mut v) = (0, 0);
            for (i, &taken) in c.iter().enumerate() {
                if taken {
                    w += self.weights[i];
                    v += self.values[i];
                }
            }
            if w <= self.capacity {
                v as f64
            } else {
                -((w - self.capacity) as f64)
            }
        }
        fn crossover(&self, a: &Vec<bool>, b: &Vec<bool>, rng: &mut Rng) -> (Vec<bool>, Vec<bool>) {
            let mut c1 = a.clone();
            let mut c2 = b.clone();
            for i in 0..a.len() {
                if rng.chance(0.5) {
                    std::mem::swap(&mut c1[i], &mut c2[i]);
                }
            }
            (c1, c2)
        }
        fn mutate(&self, c: &mut Vec<bool>, rng: &mut Rng) {
            for gene in c.iter_mut() {
                if rng.chance(1.0 / 24.0) {
                    *gene = !*gene;
                }
            }
        }
        fn adjust_fitness(&self, _: &[Vec<bool>], _: &mut [f64]) {
            self.adjusted.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Variable length: reach the gene string `TARGET` (genes 0..4) with one-point crossover at
    /// independent cut points, so children's lengths differ from their parents'.
    struct Word;

    const TARGET: [u8; 10] = [3, 1, 0, 2, 2, 3, 0, 1, 3, 2];

    impl GeneticProblem for Word {
        type Chromosome = Vec<u8>;
        fn random_chromosome(&self, rng: &mut Rng) -> Vec<u8> {
            let len = 1 + rng.below(16);
            (0..len).map(|_| rng.below(4) as u8).collect()
        }
        fn fitness(&self, c: &Vec<u8>) -> f64 {
            let matches = c.iter().zip(TARGET).filter(|(a, b)| **a == *b).count();
            matches as f64 - c.len().abs_diff(TARGET.len()) as f64 * 0.5
        }
        fn crossover(&self, a: &Vec<u8>, b: &Vec<u8>, rng: &mut Rng) -> (Vec<u8>, Vec<u8>) {
            let (i, j) = (rng.below(a.len() + 1), rng.below(b.len() + 1));
            let c1 = a[..i].iter().chain(&b[j..]).copied().collect();
            let c2 = b[..j].iter().chain(&a[i..]).copied().collect();
            (c1, c2)
        }
        fn mutate(&self, c: &mut Vec<u8>, rng: &mut Rng) {
            for gene in c.iter_mut() {
                if rng.chance(0.05) {
                    *gene = rng.below(4) as u8;
                }
            }
            if rng.chance(0.05) && c.len() > 1 {
                c.pop();
            } else if rng.chance(0.05) {
                c.push(rng.below(4) as u8);
            }
        }
        fn is_solution(&self, c: &Vec<u8>, _: f64) -> bool {
            c[..] == TARGET
        }
    }

    #[test]
    fn one_max_is_solved_with_either_selection() {
        for selection in [
            Selection::Tournament { size: 3 },
            Selection::Rank { pressure: 1.8 },
        ] {
            let cfg = GaConfig {
                selection,
                seed: 5,
                ..GaConfig::default()
            };
            let r = evolve(&OneMax, &cfg, &Budget::iterations(2_000_000));
            assert!(r.solved, "{selection:?}: best {}", r.best_fitness);
            assert_eq!(r.best, u64::MAX);
            assert_eq!(r.best_fitness, 64.0);
            assert_eq!(r.stop_reason, StopReason::Solved);
            assert_eq!(r.history.len() as u64, r.generations + 1);
            assert_eq!(r.evaluations, 100 + r.generations * 98);
            // Two elites: the best fitness never falls.
            assert!(r.history.windows(2).all(|w| w[0] <= w[1]));
        }
    }

    #[test]
    fn knapsack_optimum_is_found_and_hook_runs_each_generation() {
        let problem = Knapsack::new();
        let cfg = GaConfig {
            population: 200,
            generations: Some(300),
            seed: 1,
            ..GaConfig::default()
        };
        let r = evolve(&problem, &cfg, &Budget::iterations(10_000_000));
        assert_eq!(r.best_fitness, problem.optimum() as f64);
        assert_eq!(problem.fitness(&r.best), r.best_fitness);
        assert_eq!(r.stop_reason, StopReason::Exhausted);
        assert_eq!(r.generations, 300);
        assert_eq!(problem.adjusted.load(Ordering::Relaxed), 300);
    }

    #[test]
    fn variable_length_chromosomes_evolve() {
        let cfg = GaConfig {
            seed: 3,
            ..GaConfig::default()
        };
        let r = evolve(&Word, &cfg, &Budget::iterations(10_000_000));
        assert!(r.solved);
        assert_eq!(r.best, TARGET.to_vec());
    }

    #[test]
    fn same_seed_same_run_on_any_thread_count() {
        let cfg = GaConfig {
            generations: Some(40),
            seed: 8,
            ..GaConfig::default()
        };
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| evolve(&Word, &cfg, &Budget::iterations(1_000_000)))
        };
        let (a, b) = (run(1), run(2));
        assert_eq!(a.best, b.best);
        assert_eq!(a.history, b.history);
        assert_eq!(a.evaluations, b.evaluations);
        let other = evolve(
            &Word,
            &GaConfig {
                seed: 9,
                ..cfg.clone()
            },
            &Budget::iterations(1_000_000),
        );
        assert_ne!(a.history, other.history);
    }

    #[test]
    fn budgets_end_the_run_with_the_right_reason() {
        let cfg = GaConfig::default();
        let r = evolve(&OneMax, &cfg, &Budget::iterations(1_000));
        assert_eq!(r.stop_reason, StopReason::Iterations);
        assert!(r.evaluations <= 1_000);
        assert_eq!(r.generations, 9); // 100 + 9 × 98 = 982; a tenth would pass 1,000
        let flag = Arc::new(AtomicBool::new(true));
        let r = evolve(
            &OneMax,
            &cfg,
            &Budget::iterations(1_000).with_stop_flag(flag),
        );
        assert_eq!(r.stop_reason, StopReason::Interrupted);
        assert_eq!(r.evaluations, 100);
        let r = evolve(
            &Word,
            &GaConfig {
                generations: None,
                ..cfg.clone()
            },
            &Budget::time(Duration::from_millis(30)).with_max_nodes(40),
        );
        assert!(matches!(
            r.stop_reason,
            StopReason::Time | StopReason::Solved
        ));
        assert_eq!(r.population, 20);
        let r = evolve(
            &OneMax,
            &GaConfig {
                generations: Some(3),
                ..cfg
            },
            &Budget::iterations(1_000_000),
        );
        assert_eq!((r.stop_reason, r.generations), (StopReason::Exhausted, 3));
    }
}
