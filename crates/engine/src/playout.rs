//! Playout ("default") policies for MCTS and NMCS (see `docs/METHODS.md#mcts-playout`).
//!
//! A playout runs a state forward to a terminal state (or until the policy stops) and records
//! every action it applied in `trace`, which the search uses for the best sequence and AMAF.
//! Policies own their scratch buffers, so a playout allocates nothing in steady state.

use crate::{Game, Rng};

/// A pluggable playout policy. Cloned once per search thread.
pub trait PlayoutPolicy<G: Game>: Clone + Send + Sync {
    /// Play from `state` until it is terminal (or the policy decides to stop), pushing each
    /// action applied onto `trace` (which the caller has cleared).
    fn playout(&mut self, state: &mut G, rng: &mut Rng, trace: &mut Vec<G::Action>);
}

/// Uniformly random legal moves until the game ends (the standard MCTS default policy).
#[derive(Clone, Debug)]
pub struct UniformRandom<A> {
    buffer: Vec<A>,
    /// Stop after this many moves (`None`: play to the end). Bait's rollouts use a depth limit.
    pub max_moves: Option<usize>,
}

impl<A> Default for UniformRandom<A> {
    fn default() -> Self {
        UniformRandom {
            buffer: Vec::new(),
            max_moves: None,
        }
    }
}

impl<A> UniformRandom<A> {
    /// Random playouts of at most `max_moves` moves.
    pub fn with_max_moves(max_moves: usize) -> Self {
        UniformRandom {
            buffer: Vec::new(),
            max_moves: Some(max_moves),
        }
    }
}

impl<G: Game> PlayoutPolicy<G> for UniformRandom<G::Action> {
    #[inline]
    fn playout(&mut self, state: &mut G, rng: &mut Rng, trace: &mut Vec<G::Action>) {
        let limit = self.max_moves.unwrap_or(usize::MAX);
        while trace.len() < limit {
            state.legal_actions(&mut self.buffer);
            if self.buffer.is_empty() {
                break;
            }
            let action = self.buffer[rng.below(self.buffer.len())];
            state.apply(action);
            trace.push(action);
        }
    }
}
