//! Helpers shared by the SameGame integration tests.

use puzzle_engine::Game;
use puzzle_samegame::Board;

/// Brute force: the best final score reachable from `b` (tiny boards only).
pub fn best_final(b: &Board) -> i64 {
    let mut actions = Vec::new();
    b.legal_actions(&mut actions);
    if actions.is_empty() {
        return b.final_score();
    }
    actions
        .iter()
        .map(|&a| {
            let mut c = b.clone();
            c.apply(a);
            best_final(&c)
        })
        .max()
        .unwrap()
}
