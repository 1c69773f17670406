//! LURD solutions (see `docs/METHODS.md#sokoban-formats`): `l u r d` are player moves, `L U R D`
//! pushes, and the replay that verifies a solution against a level.

pub use crate::dir::Dir;
use crate::level::Level;
use std::fmt;

/// The outcome of replaying a LURD string: whether it ends solved, and its counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Replay {
    /// Every box is on a goal after the last step.
    pub solved: bool,
    /// Steps taken (moves and pushes).
    pub moves: usize,
    /// Steps that pushed a box.
    pub pushes: usize,
}

/// Why a LURD string cannot be played on a level. `step` is 1-based and counts letters
/// (whitespace is skipped and not counted).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    /// A character that is not one of `lurdLURD`.
    UnknownLetter {
        /// 1-based step.
        step: usize,
        /// The character.
        letter: char,
    },
    /// The player would walk into a wall (or off the board).
    IntoWall {
        /// 1-based step.
        step: usize,
    },
    /// The pushed box would go into a wall or another box.
    BoxBlocked {
        /// 1-based step.
        step: usize,
    },
    /// A lower-case move walks into a box (it would push).
    MoveWouldPush {
        /// 1-based step.
        step: usize,
    },
    /// An upper-case push with no box to push.
    PushWithoutBox {
        /// 1-based step.
        step: usize,
    },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::UnknownLetter { step, letter } => {
                write!(
                    f,
                    "step {step}: unknown letter {letter:?} (expected one of lurdLURD)"
                )
            }
            ReplayError::IntoWall { step } => {
                write!(f, "step {step}: the player walks into a wall")
            }
            ReplayError::BoxBlocked { step } => {
                write!(
                    f,
                    "step {step}: the box is pushed into a wall or another box"
                )
            }
            ReplayError::MoveWouldPush { step } => {
                write!(
                    f,
                    "step {step}: lower-case move walks into a box (use upper case to push)"
                )
            }
            ReplayError::PushWithoutBox { step } => {
                write!(
                    f,
                    "step {step}: upper-case push but there is no box to push"
                )
            }
        }
    }
}

impl std::error::Error for ReplayError {}

/// Read a LURD string into steps (direction, push?). A leading byte-order mark and whitespace
/// (spaces, any line ends) are skipped; any other character outside `lurdLURD` is an error
/// naming its 1-based step.
pub fn parse_lurd(lurd: &str) -> Result<Vec<(Dir, bool)>, ReplayError> {
    let lurd = lurd.strip_prefix(puzzle_engine::text::BOM).unwrap_or(lurd);
    lurd.chars()
        .filter(|c| !c.is_whitespace())
        .enumerate()
        .map(|(i, c)| {
            Dir::from_letter(c).ok_or(ReplayError::UnknownLetter {
                step: i + 1,
                letter: c,
            })
        })
        .collect()
}

/// Write steps as a LURD string (upper case for pushes).
pub fn write_lurd(steps: &[(Dir, bool)]) -> String {
    steps.iter().map(|&(d, push)| d.letter(push)).collect()
}

/// Play `lurd` on `level` from its start and report whether it solves it.
///
/// Lower case must not push; upper case must push. Whitespace is ignored.
pub fn replay(level: &Level, lurd: &str) -> Result<Replay, ReplayError> {
    let play = crate::play::Play::from_lurd(level, lurd)?;
    Ok(Replay {
        solved: play.is_solved(),
        moves: play.moves(),
        pushes: play.pushes(),
    })
}
