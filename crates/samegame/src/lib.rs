//! # puzzle-samegame
//!
//! SameGame (see `docs/METHODS.md#samegame`; Czech thesis chapter 3; Hungarian paper): the rules
//! for any board size and colour count ([`Board`], implementing the engine's
//! [`puzzle_engine::Game`] and [`puzzle_engine::HashedGame`]), the scoring conventions
//! ([`Scoring`]), the board formats ([`format`](mod@format)), the playout policies ([`playout`])
//! and the searches ([`search`]): SP-MCTS through the engine's MCTS, NMCS and NRPA, and the DBS, A*
//! and IDA* baselines with the admissible "each colour removed at once" bound ([`bounded`]).
//!
//! ```
//! use puzzle_samegame::{format, Scoring};
//! let text = "2 3 2\nRGR\nRGG\n";
//! let board = format::parse_standard(text, "tiny.txt", Scoring::standard()).unwrap();
//! assert_eq!((board.width(), board.height(), board.colours()), (3, 2, 2));
//! ```

#![warn(missing_docs)]

pub mod board;
pub mod bounded;
pub mod format;
pub mod play;
pub mod playout;
pub mod scoring;
pub mod search;
pub mod selective;
pub mod spec;

pub use board::{Board, BoardError, Group, Move, Scratch, MAX_COLOURS, MAX_SIDE};
pub use format::{FormatError, NamedBoard};
pub use play::{PlayError, RemovableGroup};
pub use scoring::{GroupScore, Penalty, Scoring};
