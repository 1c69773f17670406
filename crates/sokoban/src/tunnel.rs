//! Tunnel macros for the any-solution search (see `docs/METHODS.md#sokoban-macros`; after Junghanns
//! & Schaeffer's Rolling Stone): a box pushed along a one-wide tunnel, with the player following in
//! the tunnel, is pushed on until it leaves the tunnel, reaches a goal, or meets a box or a dead
//! square. Not push-optimal-safe in general (the box could have been left inside the tunnel), so
//! only the any-solution searches use it.

use crate::board::{Board, CellSet, NONE};
use crate::dir::Dir;
use crate::position::Push;

/// Are both cells beside `c` across direction `d` walls?
fn walled_across(board: &Board, c: u16, d: Dir) -> bool {
    board.step(c, d.turn_left()) == NONE && board.step(c, d.turn_right()) == NONE
}

/// The further pushes of a tunnel macro after `push` (already applied to `boxes`), empty if
/// the push does not leave the box in a tunnel.
pub fn tunnel_tail(board: &Board, boxes: &CellSet, push: Push) -> Vec<Push> {
    let d = push.dir;
    let mut tail = Vec::new();
    let mut at = board.step(push.from, d);
    let mut player = push.from;
    loop {
        if board.is_goal(at) || !walled_across(board, at, d) || !walled_across(board, player, d) {
            break;
        }
        let next = board.step(at, d);
        if next == NONE || boxes.contains(next) || board.is_dead(next) {
            break;
        }
        tail.push(Push { from: at, dir: d });
        player = at;
        at = next;
    }
    tail
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;
    use crate::position::Position;

    #[test]
    fn box_in_a_tunnel_is_pushed_through() {
        // The box at (2,2) pushed right enters the one-wide tunnel (3..6, 2) and leaves it at
        // (7,2), where the walls beside it end.
        let text = "##########\n#   ######\n#@$     .#\n#   ######\n##########\n";
        let board = Board::new(&Level::parse_one(text).unwrap()).unwrap();
        let mut pos = Position::start(&board);
        let from = board.cell_of[2 * board.width + 2];
        let push = Push {
            from,
            dir: Dir::Right,
        };
        pos.apply_push(&board, push);
        // The player at (2,2) is not in the tunnel: no macro.
        assert!(tunnel_tail(&board, &pos.boxes, push).is_empty());
        let mut at = board.step(from, Dir::Right);
        for _ in 0..2 {
            // Box (3,2) -> (4,2): the player at (3,2) is still outside; then (4,2) -> (5,2).
            let p = Push {
                from: at,
                dir: Dir::Right,
            };
            let tail_before = tunnel_tail(
                &board,
                &{
                    let mut b = pos.boxes.clone();
                    b.remove(at);
                    b.insert(board.step(at, Dir::Right));
                    b
                },
                p,
            );
            pos.apply_push(&board, p);
            at = board.step(at, Dir::Right);
            if board.xy(at).0 == 4 {
                assert!(tail_before.is_empty());
            } else {
                // Player (4,2) and box (5,2) are walled in: pushed on to the goal (8,2).
                assert_eq!(tail_before.len(), 3);
                let end = board.step(tail_before.last().unwrap().from, Dir::Right);
                assert_eq!(board.xy(end), (8, 2));
            }
        }
    }

    #[test]
    fn tunnel_macro_stops_at_a_box() {
        // A corridor: the box pushed from (2,1) to (3,1) meets the box on (4,1).
        let text = "########\n#@$ $..#\n########\n";
        let board = Board::new(&Level::parse_one(text).unwrap()).unwrap();
        let mut pos = Position::start(&board);
        let push = Push {
            from: board.cell_of[board.width + 2],
            dir: Dir::Right,
        };
        pos.apply_push(&board, push);
        assert!(tunnel_tail(&board, &pos.boxes, push).is_empty());
        // Without the second box the first goes on to the first goal (5,1).
        let mut alone = pos.boxes.clone();
        alone.remove(board.cell_of[board.width + 4]);
        assert_eq!(tunnel_tail(&board, &alone, push).len(), 2);
    }
}
