//! Joining the two halves of a bidirectional search ([`super::SearchOptions::meet`]): a position
//! stored by both a forward search and a reverse (pull) search links the forward path to it
//! with the pushes its reverse path undoes. Both searches check each new position against the
//! other's store, so both use this module.

use super::store::NodeStore;
use crate::position::Push;

/// The pushes from reverse node `j`'s position to the solved one: the forward pushes its
/// pulls undo, last pull first.
pub(super) fn backwards(reverse: &NodeStore, j: u32) -> Vec<Push> {
    let mut pushes = reverse.path_to(j);
    pushes.reverse();
    pushes
}

/// The solution through a position stored as node `f` of a forward search and as node `r`
/// of a reverse one ([`super::reverse`]): the forward path to it, then the pushes that its
/// reverse path undoes.
fn joined_at(forward: &NodeStore, f: u32, reverse: &NodeStore, r: u32) -> Vec<Push> {
    let mut pushes = forward.path_to(f);
    pushes.extend(backwards(reverse, r));
    pushes
}

/// A solution through reverse node `r` if a forward search stored its position.
pub(super) fn joined_backward(
    forward: &NodeStore,
    reverse: &NodeStore,
    r: u32,
) -> Option<Vec<Push>> {
    let f = forward.find(reverse.key(r), reverse.words(r), reverse.player(r))?;
    Some(joined_at(forward, f, reverse, r))
}

/// A solution through forward node `f` if a reverse search stored its position.
pub(super) fn joined_forward(
    forward: &NodeStore,
    f: u32,
    reverse: &NodeStore,
) -> Option<Vec<Push>> {
    let r = reverse.find(forward.key(f), forward.words(f), forward.player(f))?;
    Some(joined_at(forward, f, reverse, r))
}
