//! Playout policies for the generation game (thesis §2.3.7 "Default-Policy Allokation") and the
//! trait that the plain and the bootstrapped game share.

use crate::state::{GenAction, GenState, Phase};
use puzzle_engine::{Game, PlayoutPolicy, Rng};

/// A game whose states hold a generation state: the plain game and the bootstrapping wrapper.
pub trait LevelGame<const N: usize, const B: usize>: RandomAction {
    /// The generation state inside (at the bootstrapping root: an unused placeholder).
    fn level_state(&self) -> &GenState<N, B>;

    /// The state just before Freeze-Level on the path `sequence` from this state (the root),
    /// or the end of `sequence` if it never freezes.
    fn pre_freeze(&self, sequence: &[GenAction]) -> GenState<N, B>;
}

/// Games that draw a uniformly random legal action without building the action list.
pub trait RandomAction: Game<Action = GenAction> {
    /// A uniformly random legal action, `None` at a terminal state.
    fn random_action(&self, rng: &mut Rng) -> Option<GenAction>;
}

impl<const N: usize, const B: usize> RandomAction for GenState<N, B> {
    #[inline]
    fn random_action(&self, rng: &mut Rng) -> Option<GenAction> {
        GenState::random_action(self, rng)
    }
}

impl<const N: usize, const B: usize> LevelGame<N, B> for GenState<N, B> {
    #[inline]
    fn level_state(&self) -> &GenState<N, B> {
        self
    }

    fn pre_freeze(&self, sequence: &[GenAction]) -> GenState<N, B> {
        let mut state = *self;
        for &a in sequence {
            if a == GenAction::Freeze || state.phase() != Phase::Build {
                break;
            }
            state.apply(a);
        }
        state
    }
}

/// Uniform random playouts that draw each action straight from the bitboards: no action list,
/// no allocation (the thesis's arena allocator result, and more).
#[derive(Clone, Copy, Debug, Default)]
pub struct FastPlayout;

impl<G: RandomAction> PlayoutPolicy<G> for FastPlayout {
    #[inline]
    fn playout(&mut self, state: &mut G, rng: &mut Rng, trace: &mut Vec<GenAction>) {
        while let Some(action) = state.random_action(rng) {
            state.apply(action);
            trace.push(action);
        }
    }
}

/// Uniform random playouts that allocate at every step as the thesis's code did before its
/// arena allocator (a heap copy of the state and a fresh action list per step): the "off"
/// setting of the allocation-free optimization, for Table 3.5.
#[derive(Clone, Copy, Debug, Default)]
pub struct AllocatingPlayout;

impl<G: Game> PlayoutPolicy<G> for AllocatingPlayout {
    fn playout(&mut self, state: &mut G, rng: &mut Rng, trace: &mut Vec<G::Action>) {
        loop {
            let node = Box::new(state.clone());
            let mut actions = Vec::new();
            node.legal_actions(&mut actions);
            if actions.is_empty() {
                break;
            }
            let action = actions[rng.below(actions.len())];
            let mut child = Box::new((*node).clone());
            child.apply(action);
            trace.push(action);
            state.clone_from(&child);
        }
    }
}
