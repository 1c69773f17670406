//! A genetic algorithm framework (SPEC §A "Other searches", issue 2 item 6): population,
//! selection, problem-supplied crossover and mutation (variable-length chromosomes allowed),
//! elitism, generation or time budget, seeded.

use crate::Rng;

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
