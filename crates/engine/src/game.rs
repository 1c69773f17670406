//! The game abstraction (see `docs/METHODS.md#engine-model`), in the spirit of OpenSpiel's
//! `Game`/`State`.
//!
//! A single-player game is a state type implementing [`Game`]: legal actions written into a
//! caller's buffer (no allocation per call), `apply`, a terminal test and a real-valued score.
//! States are cloned with `clone_from` into reused scratch states, so a state whose storage is
//! inline (arrays) or reuses its buffers costs no allocation per search iteration.

use std::fmt::Debug;
use std::hash::{Hash, Hasher};

/// A single-player game state with real-valued scores.
///
/// Contract (checked for every game by [`crate::conformance`]):
/// - `legal_actions` clears `out` and writes the legal actions; it is empty exactly when the
///   state is terminal;
/// - `apply` is only called with an action from `legal_actions` of the same state;
/// - `score` is finite; at a terminal state it is the game's final result (higher is better).
///
/// ```
/// use puzzle_engine::{Game, toy::SumGame};
/// let mut state = SumGame::new(&[1, 5, 2], 2);
/// let mut actions = Vec::new();
/// state.legal_actions(&mut actions);
/// state.apply(actions[1]);
/// assert!(!state.is_terminal());
/// ```
pub trait Game: Clone + Send + Sync {
    /// A move. Small and `Copy` (an index, a packed cell/direction, ...).
    type Action: Copy + Eq + Hash + Debug + Send + Sync + 'static;

    /// Clear `out` and write every legal action of this state into it.
    fn legal_actions(&self, out: &mut Vec<Self::Action>);

    /// Play `action` (which must be legal here).
    fn apply(&mut self, action: Self::Action);

    /// No legal action remains (the game is over).
    fn is_terminal(&self) -> bool;

    /// The score of this state; at a terminal state, the game's result. Higher is better.
    fn score(&self) -> f64;

    /// The reward an MCTS playout that ended here backs up. `playout_moves` is the number of
    /// moves the playout itself made (not counting the tree part). Default: [`Game::score`].
    /// Sudoku overrides it with the Czech paper's `movecount / (movecount + unsolved)` (see
    /// `docs/METHODS.md#sudoku-mcts`).
    fn reward(&self, playout_moves: usize) -> f64 {
        let _ = playout_moves;
        self.score()
    }

    /// A code naming `action` in this state, for NRPA's policy and AMAF's "same move" test.
    /// Default: a hash of the action value. Games override it when a better code exists
    /// (e.g. SameGame: the colour and the cells of the group removed).
    fn action_code(&self, action: Self::Action) -> u64 {
        let mut h = FxLikeHasher::default();
        action.hash(&mut h);
        h.finish()
    }

    /// [`Game::legal_actions`] into `actions` and their [`Game::action_code`]s into `codes`
    /// (both cleared first, same order), for NRPA. Default: one `action_code` call per action;
    /// games whose move generation already knows the codes override it (SameGame computes a
    /// group's code from the cell mask its flood fill produced, one fill per group).
    fn legal_actions_coded(&self, actions: &mut Vec<Self::Action>, codes: &mut Vec<u64>) {
        self.legal_actions(actions);
        codes.clear();
        codes.extend(actions.iter().map(|&a| self.action_code(a)));
    }
}

/// Games that can take a move back, so that searches avoid cloning (see
/// `docs/METHODS.md#engine-model`).
pub trait UndoGame: Game {
    /// What `undo` needs to restore the previous state.
    type Undo;
    /// Apply `action` and return what restores the state before it.
    fn apply_undoable(&mut self, action: Self::Action) -> Self::Undo;
    /// Restore the state that `apply_undoable(action)` was called on.
    fn undo(&mut self, action: Self::Action, undo: Self::Undo);
}

/// Games whose states have a hash (Zobrist or similar) consistent with equality of positions.
pub trait HashedGame: Game {
    /// Equal positions have equal hashes.
    fn state_hash(&self) -> u64;
}

/// A small, fast, deterministic hasher (multiply-rotate, as rustc's FxHasher) for action codes
/// and transposition tables. Not DoS-resistant; deterministic across runs and platforms.
#[derive(Default, Clone, Copy, Debug)]
pub struct FxLikeHasher {
    hash: u64,
}

impl Hasher for FxLikeHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.hash = (self.hash.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.write_u64(i as u64)
    }
    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.write_u64(i as u64)
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.write_u64(i as u64)
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64)
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.hash
    }
}

/// `BuildHasher` for [`FxLikeHasher`], for `HashMap`/`HashSet` in hot paths.
pub type FxBuildHasher = std::hash::BuildHasherDefault<FxLikeHasher>;
/// A `HashMap` with the fast deterministic hasher.
pub type FxHashMap<K, V> = std::collections::HashMap<K, V, FxBuildHasher>;
/// A `HashSet` with the fast deterministic hasher.
pub type FxHashSet<K> = std::collections::HashSet<K, FxBuildHasher>;

/// Replay `actions` from `root`, checking that each one is legal where it is played; returns
/// the state reached, or a message naming the first illegal step. Searches' results are checked
/// with it before they are reported.
///
/// ```
/// use puzzle_engine::{replay, toy::SumGame, Game};
/// let root = SumGame::new(&[4, 9, 2], 2);
/// let end = replay(&root, &[1, 0]).unwrap();
/// assert_eq!(end.score(), 13.0);
/// assert!(replay(&root, &[1, 1]).is_err()); // an item cannot be picked twice
/// ```
pub fn replay<G: Game>(root: &G, actions: &[G::Action]) -> Result<G, String> {
    let mut state = root.clone();
    let mut legal = Vec::new();
    for (step, &action) in actions.iter().enumerate() {
        state.legal_actions(&mut legal);
        if !legal.contains(&action) {
            return Err(format!("step {step}: {action:?} is not a legal action"));
        }
        state.apply(action);
    }
    Ok(state)
}
