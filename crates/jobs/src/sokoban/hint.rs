//! A hint: the next push of a solution from a position reached by playing (the workbench's
//! hint button, `POST /api/sokoban/hint`).

use super::*;

/// A hint: the next push of a solution from a position reached by playing.
#[derive(Clone, Debug, Serialize)]
pub struct Hint {
    /// The walk and the push (LURD from the current position), or `None`.
    pub hint: Option<String>,
    /// The whole solution from the current position (replayed before it is returned).
    pub solution: Option<String>,
    /// Why there is no hint (already solved, not found in time …).
    pub reason: Option<String>,
}

/// A hint's time limit when none is given, in seconds: a player waits for it.
pub const HINT_TIME_LIMIT: f64 = 5.0;

/// Solve from the position after `moves` (LURD from the level's start) with the default
/// solver and `limits` (time limit [`HINT_TIME_LIMIT`] unless one is given), and return the
/// next push with the walk before it.
pub fn hint(level: &Level, moves: &str, limits: &Limits, stop: &Arc<AtomicBool>) -> Result<Hint> {
    limits.validate()?;
    let limits = &Limits {
        time_limit: Some(limits.time_limit.unwrap_or(HINT_TIME_LIMIT)),
        ..limits.clone()
    };
    let play = puzzle_sokoban::Play::from_lurd(level, moves)
        .map_err(|e| anyhow::anyhow!("the moves do not replay: {e}"))?;
    if play.is_solved() {
        return Ok(Hint {
            hint: None,
            solution: None,
            reason: Some("the level is solved".into()),
        });
    }
    let position = play.position();
    let r = solve_one(
        1,
        &position,
        Algorithm::Greedy,
        &GaConfig::default(),
        &Portfolio::default(),
        limits,
        stop,
    )?;
    if !r.solved {
        let reason = match r.stop.as_str() {
            "exhausted" => {
                "no solution from here: the position is a deadlock (undo some moves)".into()
            }
            other => format!("no solution found from here ({other})"),
        };
        return Ok(Hint {
            hint: None,
            solution: None,
            reason: Some(reason),
        });
    }
    let first_push = r
        .solution
        .find(|c: char| c.is_ascii_uppercase())
        .map_or(r.solution.len(), |i| i + 1);
    Ok(Hint {
        hint: Some(r.solution[..first_push].to_string()),
        solution: Some(r.solution),
        reason: None,
    })
}
