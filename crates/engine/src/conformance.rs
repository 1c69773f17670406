//! The conformance harness every game crate runs in its tests (as OpenSpiel does for all its games;
//! see `docs/METHODS.md#engine-model`): random playouts reach a terminal state; a non-terminal
//! state has legal actions and a terminal one none; scores are finite; cloning is exact; apply then
//! undo restores the state and its hash.

use crate::{Game, HashedGame, Rng, UndoGame};
use std::fmt::Debug;

/// What the checks covered.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConformanceReport {
    /// Playouts run.
    pub playouts: usize,
    /// Moves applied in all.
    pub moves: usize,
    /// Longest playout.
    pub max_length: usize,
}

/// Play `playouts` random games from `root` (at most `max_moves` moves each) and check the
/// [`Game`] contract at every step. Returns the first violation as an error.
pub fn check_playouts<G: Game + PartialEq + Debug>(
    root: &G,
    playouts: usize,
    max_moves: usize,
    seed: u64,
) -> Result<ConformanceReport, String> {
    let mut rng = Rng::new(seed);
    let mut report = ConformanceReport::default();
    let mut actions = Vec::new();
    for p in 0..playouts {
        let mut state = root.clone();
        let mut length = 0;
        loop {
            let score = state.score();
            if !score.is_finite() {
                return Err(format!(
                    "playout {p} move {length}: score {score} is not finite"
                ));
            }
            state.legal_actions(&mut actions);
            if state.is_terminal() != actions.is_empty() {
                return Err(format!(
                    "playout {p} move {length}: is_terminal() = {} but {} legal actions",
                    state.is_terminal(),
                    actions.len()
                ));
            }
            let copy = state.clone();
            if copy != state {
                return Err(format!("playout {p} move {length}: clone differs"));
            }
            if actions.is_empty() {
                break;
            }
            if length >= max_moves {
                return Err(format!(
                    "playout {p}: no terminal state after {max_moves} moves"
                ));
            }
            let action = actions[rng.below(actions.len())];
            state.apply(action);
            let mut again = copy;
            again.apply(action);
            if again != state {
                return Err(format!(
                    "playout {p} move {length}: applying {action:?} to a clone gives another state"
                ));
            }
            length += 1;
        }
        report.playouts += 1;
        report.moves += length;
        report.max_length = report.max_length.max(length);
    }
    Ok(report)
}

/// Along random playouts, apply then undo every legal action and check that the state and its
/// hash are restored, and that equal states have equal hashes.
pub fn check_undo<G: UndoGame + HashedGame + PartialEq + Debug>(
    root: &G,
    playouts: usize,
    max_moves: usize,
    seed: u64,
) -> Result<usize, String> {
    let mut rng = Rng::new(seed);
    let mut actions = Vec::new();
    let mut checked = 0;
    for p in 0..playouts {
        let mut state = root.clone();
        for step in 0..max_moves {
            state.legal_actions(&mut actions);
            if actions.is_empty() {
                break;
            }
            let before = state.clone();
            let hash = state.state_hash();
            if before.state_hash() != hash {
                return Err(format!(
                    "playout {p} step {step}: a clone hashes differently"
                ));
            }
            for &a in &actions {
                let u = state.apply_undoable(a);
                let mut plain = before.clone();
                plain.apply(a);
                if plain != state {
                    return Err(format!(
                        "playout {p} step {step}: apply_undoable({a:?}) differs from apply"
                    ));
                }
                if plain.state_hash() != state.state_hash() {
                    return Err(format!("playout {p} step {step}: hash differs after {a:?}"));
                }
                state.undo(a, u);
                if state != before || state.state_hash() != hash {
                    return Err(format!(
                        "playout {p} step {step}: undo({a:?}) did not restore the state"
                    ));
                }
                checked += 1;
            }
            state.apply(actions[rng.below(actions.len())]);
        }
    }
    Ok(checked)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toy::{BinaryTreeGame, SumGame};

    #[test]
    fn toy_games_conform() {
        let g = SumGame::new(&[5, 3, 8, 1, 9, 2], 4);
        assert_eq!(check_playouts(&g, 50, 100, 1).unwrap().max_length, 4);
        assert!(check_undo(&g, 20, 10, 2).unwrap() > 0);
        let t = BinaryTreeGame::new(12, 0b1011_0110_0101);
        assert_eq!(check_playouts(&t, 50, 100, 3).unwrap().max_length, 12);
        assert!(check_undo(&t, 20, 20, 4).unwrap() > 0);
    }

    /// A deliberately broken game: claims to be terminal while it still lists actions.
    #[derive(Clone, Debug, PartialEq)]
    struct Broken(u8);
    impl Game for Broken {
        type Action = u8;
        fn legal_actions(&self, out: &mut Vec<u8>) {
            out.clear();
            if self.0 < 3 {
                out.push(1);
            }
        }
        fn apply(&mut self, a: u8) {
            self.0 += a;
        }
        fn is_terminal(&self) -> bool {
            self.0 >= 2
        }
        fn score(&self) -> f64 {
            0.0
        }
    }

    #[test]
    fn harness_catches_a_broken_game() {
        assert!(check_playouts(&Broken(0), 5, 10, 1).is_err());
    }
}
