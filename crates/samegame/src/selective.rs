//! The selective policy for NRPA (Cazenave 2016, "Nested Rollout Policy Adaptation with
//! Selective Policies", the method behind the 80,030 total,
//! `docs/METHODS.md#nrpa-selective`): SameGame played with
//! the groups of one *tabu* colour — the colour with the most stones at the root — forbidden
//! while any other group exists, so that the tabu colour can gather into one big final group.
//! NRPA's playouts and its `Adapt` step both see only the selective moves.
//!
//! Every selective move is a legal SameGame move and the game ends exactly when the board has
//! no group, so a sequence found here replays on the plain [`Board`] with the same score.
//!
//! ```
//! use puzzle_engine::Game;
//! use puzzle_samegame::{selective::Selective, Board, Scoring};
//! let board = Board::random(8, 8, 4, 1, Scoring::standard()).unwrap();
//! let mut game = Selective::new(board.clone());
//! let mut moves = Vec::new();
//! while !game.is_terminal() {
//!     game.legal_actions(&mut moves);
//!     game.apply(moves[0]);
//! }
//! assert!(!game.board().has_move());
//! ```

use crate::board::{Board, Move};
use puzzle_engine::Game;

/// A board with its tabu colour fixed at the root (see the module doc).
#[derive(Clone, Debug)]
pub struct Selective {
    board: Board,
    tabu: u8,
}

impl Selective {
    /// The selective game from `board`; the tabu colour is its most frequent colour (the
    /// lowest-numbered one on ties).
    pub fn new(board: Board) -> Selective {
        let tabu = crate::playout::most_frequent(&board);
        Selective::with_tabu(board, tabu)
    }

    /// The selective game from `board` with tabu colour `tabu` (1-based; any colour, also one
    /// with no stones left, which makes the game the plain one).
    pub fn with_tabu(mut board: Board, tabu: u8) -> Selective {
        // Every step enumerates the other colours' groups: keep them move by move.
        board.keep_groups(tabu);
        Selective { board, tabu }
    }

    /// The board's colours that have stones, most frequent first (ties: lower number first):
    /// the tabu colours that [`crate::search::SolveConfig::nrpa_tabu_colours`] rotates through.
    pub fn ranked_colours(board: &Board) -> Vec<u8> {
        let counts = board.counts();
        let mut colours: Vec<u8> = (1..counts.len() as u8)
            .filter(|&c| counts[c as usize] > 0)
            .collect();
        colours.sort_by_key(|&c| std::cmp::Reverse(counts[c as usize]));
        colours
    }

    /// The position.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The tabu colour (1-based).
    pub fn tabu(&self) -> u8 {
        self.tabu
    }
}

impl Game for Selective {
    type Action = Move;

    fn legal_actions(&self, out: &mut Vec<Move>) {
        self.board.legal_actions_selective(self.tabu, out, None);
    }

    fn legal_actions_coded(&self, actions: &mut Vec<Move>, codes: &mut Vec<u64>) {
        self.board
            .legal_actions_selective(self.tabu, actions, Some(codes));
    }

    fn apply(&mut self, action: Move) {
        self.board.apply(action);
    }

    fn is_terminal(&self) -> bool {
        self.board.is_terminal()
    }

    fn score(&self) -> f64 {
        self.board.score()
    }

    fn action_code(&self, action: Move) -> u64 {
        self.board.action_code(action)
    }
}
