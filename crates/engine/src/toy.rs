//! Small games with known optima, for tests, doc examples and `puzzle bench engine`.

use crate::{Game, HashedGame, UndoGame};
use std::sync::Arc;

/// Pick `picks` distinct items one after another; the score is the sum of the picked values.
/// The optimum is the sum of the `picks` largest values. At most 64 items.
#[derive(Clone, Debug, PartialEq)]
pub struct SumGame {
    values: Arc<[i64]>,
    picks: u32,
    chosen: u64,
    sum: i64,
}

impl SumGame {
    /// A game over `values` (at most 64) where `picks` items are chosen.
    pub fn new(values: &[i64], picks: u32) -> Self {
        assert!(values.len() <= 64, "SumGame holds at most 64 items");
        SumGame {
            values: values.into(),
            picks: picks.min(values.len() as u32),
            chosen: 0,
            sum: 0,
        }
    }

    /// The best possible score.
    pub fn optimum(&self) -> i64 {
        let mut v = self.values.to_vec();
        v.sort_unstable_by(|a, b| b.cmp(a));
        v.iter().take(self.picks as usize).sum()
    }
}

impl Game for SumGame {
    type Action = u8;
    fn legal_actions(&self, out: &mut Vec<u8>) {
        out.clear();
        if self.chosen.count_ones() >= self.picks {
            return;
        }
        out.extend((0..self.values.len() as u8).filter(|&i| self.chosen >> i & 1 == 0));
    }
    fn apply(&mut self, action: u8) {
        self.chosen |= 1 << action;
        self.sum += self.values[action as usize];
    }
    fn is_terminal(&self) -> bool {
        self.chosen.count_ones() >= self.picks
    }
    fn score(&self) -> f64 {
        self.sum as f64
    }
}

impl UndoGame for SumGame {
    type Undo = ();
    fn apply_undoable(&mut self, action: u8) {
        self.apply(action)
    }
    fn undo(&mut self, action: u8, _: ()) {
        self.chosen &= !(1 << action);
        self.sum -= self.values[action as usize];
    }
}

impl HashedGame for SumGame {
    fn state_hash(&self) -> u64 {
        self.chosen.wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
}

/// A complete binary tree of depth `depth` (at most 63) with one best leaf, `target`: the score
/// of a leaf is the length of the prefix it shares with `target`, divided by `depth` (1.0 at
/// `target` only). Deep enough to need a real search, shaped enough for MCTS to find it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BinaryTreeGame {
    depth: u32,
    target: u64,
    path: u64,
    len: u32,
}

impl BinaryTreeGame {
    /// A tree of the given depth whose best leaf is the bit string `target` (bit i = move i).
    pub fn new(depth: u32, target: u64) -> Self {
        assert!(depth <= 63, "BinaryTreeGame depth is at most 63");
        BinaryTreeGame {
            depth,
            target,
            path: 0,
            len: 0,
        }
    }

    fn common_prefix(&self) -> u32 {
        let diff = (self.path ^ self.target) & ((1u64 << self.len) - 1);
        if diff == 0 {
            self.len
        } else {
            diff.trailing_zeros()
        }
    }
}

impl Game for BinaryTreeGame {
    type Action = bool;
    fn legal_actions(&self, out: &mut Vec<bool>) {
        out.clear();
        if self.len < self.depth {
            out.extend([false, true]);
        }
    }
    fn apply(&mut self, action: bool) {
        self.path |= (action as u64) << self.len;
        self.len += 1;
    }
    fn is_terminal(&self) -> bool {
        self.len >= self.depth
    }
    fn score(&self) -> f64 {
        self.common_prefix() as f64 / self.depth.max(1) as f64
    }
    /// The move's depth and bit: NRPA can learn a policy per position.
    fn action_code(&self, action: bool) -> u64 {
        (self.len as u64) * 2 + action as u64
    }
}

impl UndoGame for BinaryTreeGame {
    type Undo = ();
    fn apply_undoable(&mut self, action: bool) {
        self.apply(action)
    }
    fn undo(&mut self, _: bool, _: ()) {
        self.len -= 1;
        self.path &= !(1u64 << self.len);
    }
}

impl HashedGame for BinaryTreeGame {
    fn state_hash(&self) -> u64 {
        (self.path ^ ((self.len as u64) << 58)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
}
