//! Bootstrapping (thesis §2.3.8; see `docs/METHODS.md#sokogen-bootstrap`): a fresh root whose only
//! actions pick one of the `n` re-rooted levels (reset to their pre-freeze state, depth limit off).
//! The engine searches this wrapper game like any other; the root is "fully expanded" once each
//! pick has a child.

use crate::playout::{LevelGame, RandomAction};
use crate::state::{GenAction, GenState, Phase};
use puzzle_engine::{Game, Rng};
use std::sync::Arc;

/// The bootstrapping game: at the root, `Seed(i)` continues from the `i`-th level; below it,
/// the generation game.
#[derive(Debug, PartialEq)]
pub struct Bootstrapped<const N: usize, const B: usize> {
    seeds: Arc<Vec<GenState<N, B>>>,
    inner: GenState<N, B>,
    at_root: bool,
}

impl<const N: usize, const B: usize> Clone for Bootstrapped<N, B> {
    fn clone(&self) -> Self {
        Bootstrapped {
            seeds: self.seeds.clone(),
            inner: self.inner,
            at_root: self.at_root,
        }
    }

    /// Copies the state; the shared seed list is only re-counted when it differs, so the
    /// search's per-iteration `clone_from` stays a `memcpy` (no atomic traffic between threads).
    #[inline]
    fn clone_from(&mut self, source: &Self) {
        if !Arc::ptr_eq(&self.seeds, &source.seeds) {
            self.seeds = source.seeds.clone();
        }
        self.inner = source.inner;
        self.at_root = source.at_root;
    }
}

impl<const N: usize, const B: usize> Bootstrapped<N, B> {
    /// A root over `seeds` (pre-freeze states; at most 255). Their depth limit is turned off.
    pub fn new(seeds: Vec<GenState<N, B>>) -> Self {
        let mut seeds: Vec<GenState<N, B>> = seeds.into_iter().take(255).collect();
        for s in &mut seeds {
            let mut rules = *s.rules();
            rules.depth_limit = 0;
            s.set_rules(rules);
        }
        let inner = seeds
            .first()
            .copied()
            .expect("bootstrapping needs at least one level");
        Bootstrapped {
            seeds: Arc::new(seeds),
            inner,
            at_root: true,
        }
    }

    /// The re-rooted levels.
    pub fn seeds(&self) -> &[GenState<N, B>] {
        &self.seeds
    }
}

impl<const N: usize, const B: usize> Game for Bootstrapped<N, B> {
    type Action = GenAction;

    fn legal_actions(&self, out: &mut Vec<GenAction>) {
        if self.at_root {
            out.clear();
            out.extend((0..self.seeds.len()).map(|i| GenAction::Seed(i as u8)));
        } else {
            self.inner.legal_actions(out);
        }
    }

    #[inline]
    fn apply(&mut self, action: GenAction) {
        match action {
            GenAction::Seed(i) => {
                self.inner = self.seeds[i as usize];
                self.at_root = false;
            }
            a => self.inner.apply(a),
        }
    }

    #[inline]
    fn is_terminal(&self) -> bool {
        !self.at_root && self.inner.is_terminal()
    }

    #[inline]
    fn score(&self) -> f64 {
        if self.at_root {
            0.0
        } else {
            self.inner.score()
        }
    }

    fn action_code(&self, action: GenAction) -> u64 {
        self.inner.action_code(action)
    }
}

impl<const N: usize, const B: usize> RandomAction for Bootstrapped<N, B> {
    #[inline]
    fn random_action(&self, rng: &mut Rng) -> Option<GenAction> {
        if self.at_root {
            Some(GenAction::Seed(rng.below(self.seeds.len()) as u8))
        } else {
            self.inner.random_action(rng)
        }
    }
}

impl<const N: usize, const B: usize> LevelGame<N, B> for Bootstrapped<N, B> {
    fn level_state(&self) -> &GenState<N, B> {
        &self.inner
    }

    fn pre_freeze(&self, sequence: &[GenAction]) -> GenState<N, B> {
        let mut state = self.clone();
        for &a in sequence {
            if a == GenAction::Freeze || (!state.at_root && state.inner.phase() != Phase::Build) {
                break;
            }
            state.apply(a);
        }
        state.inner
    }
}
