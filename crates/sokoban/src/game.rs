//! Sokoban as an engine [`Game`] (see `docs/METHODS.md#engine-model`): the state is a position, an
//! action a push the player can reach (pushes onto dead squares left out), the game ends when
//! solved, when no push is left or after a push limit (Sokoban positions can repeat forever); the
//! score is the number of boxes on goals. Implements [`UndoGame`] and [`HashedGame`] (Zobrist hash
//! of the boxes and the normalized player), so that the engine's searches and conformance checks
//! run on it.

use crate::board::Board;
use crate::level::Level;
use crate::position::{generate_pushes, Position, Push, Reach};
use puzzle_engine::{Game, HashedGame, UndoGame};
use std::cell::RefCell;
use std::sync::Arc;

thread_local! {
    static SCRATCH: RefCell<Option<Reach>> = const { RefCell::new(None) };
}

/// Run `f` with a thread-local reachability scratch sized for `board`.
fn with_reach<T>(board: &Board, f: impl FnOnce(&mut Reach) -> T) -> T {
    SCRATCH.with(|cell| {
        let mut slot = cell.borrow_mut();
        let fits = slot.as_ref().is_some_and(|r| r.capacity() == board.cells());
        if !fits {
            *slot = Some(Reach::new(board.cells()));
        }
        f(slot.as_mut().expect("scratch just set"))
    })
}

/// A Sokoban position with its compiled board, playable through the engine's [`Game`] trait.
#[derive(Clone, Debug)]
pub struct SokobanGame {
    board: Arc<Board>,
    /// The current position.
    pub position: Position,
    /// Pushes made since the start.
    pub pushes_made: u32,
    /// The game ends after this many pushes.
    pub push_limit: u32,
}

impl PartialEq for SokobanGame {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.board, &other.board)
            && self.position == other.position
            && self.pushes_made == other.pushes_made
    }
}

impl SokobanGame {
    /// The start of `level`.
    pub fn new(level: &Level) -> Result<SokobanGame, crate::board::BoardError> {
        let board = Arc::new(Board::new(level)?);
        let position = Position::start(&board);
        let push_limit = (4 * board.cells() * board.box_count()).min(u32::MAX as usize) as u32;
        Ok(SokobanGame {
            board,
            position,
            pushes_made: 0,
            push_limit,
        })
    }

    /// The same game with another push limit (default: 4 × cells × boxes).
    pub fn with_push_limit(mut self, limit: u32) -> Self {
        self.push_limit = limit;
        self
    }

    /// The compiled board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Every box is on a goal.
    pub fn is_solved(&self) -> bool {
        self.position.is_solved(&self.board)
    }

    /// The normalized player cell (smallest reachable cell).
    pub fn normalized_player(&self) -> u16 {
        with_reach(&self.board, |r| {
            r.compute(&self.board, &self.position.boxes, self.position.player)
        })
    }
}

impl Game for SokobanGame {
    type Action = Push;

    fn legal_actions(&self, out: &mut Vec<Push>) {
        if self.is_solved() || self.pushes_made >= self.push_limit {
            out.clear();
            return;
        }
        with_reach(&self.board, |r| {
            r.compute(&self.board, &self.position.boxes, self.position.player);
            generate_pushes(&self.board, &self.position, r, true, out);
        });
    }

    fn apply(&mut self, action: Push) {
        self.position.apply_push(&self.board, action);
        self.pushes_made += 1;
    }

    fn is_terminal(&self) -> bool {
        let mut out = Vec::new();
        self.legal_actions(&mut out);
        out.is_empty()
    }

    fn score(&self) -> f64 {
        self.position.boxes_on_goals(&self.board) as f64
    }

    fn action_code(&self, action: Push) -> u64 {
        (action.from as u64) << 2 | action.dir as u64
    }
}

impl UndoGame for SokobanGame {
    type Undo = u16;

    fn apply_undoable(&mut self, action: Push) -> u16 {
        self.pushes_made += 1;
        self.position.apply_push(&self.board, action)
    }

    fn undo(&mut self, action: Push, undo: u16) {
        self.pushes_made -= 1;
        self.position.undo_push(&self.board, action, undo);
    }
}

impl HashedGame for SokobanGame {
    fn state_hash(&self) -> u64 {
        self.position.box_hash ^ self.board.zobrist_player[self.normalized_player() as usize]
    }
}
