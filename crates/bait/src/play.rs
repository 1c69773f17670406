//! A game played by hand (the workbench's Bait page): the page keeps the action string (its
//! undo stack) and every position it draws is the start replayed through that string under
//! [`BaitState::step`], the same rules the agents play by.

use crate::state::{actions_to_string, parse_actions, Action, BaitState};

/// A hand-played game: the position reached and the actions that were played to reach it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandPlayed<const W: usize = 4> {
    /// The position after the played actions.
    pub state: BaitState<W>,
    /// The actions played, one letter each (`UDLRN`); actions given after the game ended are
    /// not in it.
    pub actions: String,
    /// How many actions were given after the game had ended (and were not played).
    pub dropped: usize,
}

/// Replay `actions` from `start` one tick each, stopping when the game ends (a win, a fall into
/// a hole or the tick limit): the position and how many actions were played. A move into a wall
/// or an unmovable box still spends its tick, as in GVGAI.
pub fn play_out<const W: usize>(start: &BaitState<W>, actions: &[Action]) -> (BaitState<W>, usize) {
    let mut state = start.clone();
    let mut played = 0;
    for &action in actions {
        if state.is_terminal_state() {
            break;
        }
        state.step(action);
        played += 1;
    }
    (state, played)
}

/// [`play_out`] for an action string (`UDLRN`, case-insensitive, whitespace ignored); the
/// error names the first bad letter and its position.
pub fn play_text<const W: usize>(
    start: &BaitState<W>,
    text: &str,
) -> Result<HandPlayed<W>, String> {
    let actions = parse_actions(text)?;
    let (state, played) = play_out(start, &actions);
    Ok(HandPlayed {
        state,
        actions: actions_to_string(&actions[..played]),
        dropped: actions.len() - played,
    })
}

impl<const W: usize> BaitState<W> {
    /// The avatar's cell as `(column, row)`, 0-based from the top-left (after a fall, the hole
    /// it fell into).
    pub fn avatar_xy(&self) -> (usize, usize) {
        let (row, column) = self.level().row_col(self.dy.avatar);
        (column, row)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::astar::shortest_win;
    use crate::level::{builtin_level, Level};
    use crate::state::Status;

    fn level(i: usize) -> BaitState {
        BaitState::new(builtin_level(i).unwrap())
    }

    #[test]
    fn playing_out_is_replaying_while_the_game_runs() {
        let start = level(2);
        let actions = parse_actions("LLLUURRDDN").unwrap();
        let (state, played) = play_out(&start, &actions);
        assert_eq!(played, actions.len());
        assert_eq!(state, start.replay(&actions));
        assert_eq!(state.tick() as usize, actions.len());
    }

    #[test]
    fn a_wall_or_a_nil_spends_a_tick_and_moves_nothing() {
        // Level 0: the avatar starts at column 2, row 1, with a wall above it.
        let start = level(0);
        assert_eq!(start.avatar_xy(), (2, 1));
        let hand = play_text(&start, "u N").unwrap();
        assert_eq!(hand.actions, "UN");
        assert_eq!(hand.state.tick(), 2);
        assert_eq!(hand.state.avatar_xy(), (2, 1));
        assert_eq!(hand.state.render(), start.render());
    }

    #[test]
    fn a_won_game_ends_and_later_actions_are_dropped() {
        let start = level(0);
        let plan = shortest_win(&start, 1_000_000, None).plan.unwrap();
        let text = format!("{}RRL", actions_to_string(&plan));
        let hand = play_text(&start, &text).unwrap();
        assert_eq!(hand.actions, actions_to_string(&plan));
        assert_eq!(hand.dropped, 3);
        assert_eq!(hand.state.status(), Status::Won);
        assert_eq!(hand.state.status().name(), "won");
        assert_eq!(hand.state.points(), 5);
    }

    #[test]
    fn a_fall_into_a_hole_is_a_loss_where_the_hole_was() {
        // Level 1: two steps down from the start is a hole.
        let start = level(1);
        let hand = play_text(&start, "DDU").unwrap();
        assert_eq!((hand.actions.as_str(), hand.dropped), ("DD", 1));
        assert_eq!(hand.state.status(), Status::Dead);
        assert!(hand.state.is_loss());
        assert_eq!(hand.state.avatar_xy(), (6, 5));
        // The rendered board has no avatar any more.
        assert!(!hand.state.render().contains(['A', 'a']));
    }

    #[test]
    fn the_key_is_held_after_stepping_on_it() {
        let start = BaitState::new(Level::parse("wwwwww\nwAk.gw\nwwwwww").unwrap());
        let hand = play_text(&start, "R").unwrap();
        assert!(hand.state.dy.has_key);
        assert!(hand.state.render().contains('a'));
        let won = play_text(&start, "RRR").unwrap();
        assert_eq!((won.state.status(), won.state.points()), (Status::Won, 5));
    }

    #[test]
    fn a_bad_letter_is_named_with_its_position() {
        let err = play_text(&level(0), "RRx").unwrap_err();
        assert!(err.starts_with("action 3: 'x'"), "{err}");
    }
}
