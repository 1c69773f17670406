//! Distance estimates and the dead-position test used by the agents (see
//! `docs/METHODS.md#bait-heuristic`; the paper's heuristic in its Task 2/3, and the "box pushed
//! onto the key or door" trap).

use crate::state::{Action, BaitState};
use std::cell::RefCell;

/// Extra cost of entering a box's cell in [`relaxed_distance`].
pub const BOX_COST: u32 = 2;

/// The paper's horizon heuristic: Manhattan distance from the avatar to the nearest key while
/// no key is held, then to the nearest door. (`None` when nothing is left to reach.)
pub fn paper_distance<const W: usize>(state: &BaitState<W>) -> Option<u32> {
    if state.is_win() {
        return Some(0);
    }
    let level = state.level();
    let d = &state.dy;
    let manhattan = |t: u16| level.manhattan(d.avatar, t);
    if d.has_key {
        level
            .door_cells()
            .filter(|&g| d.doors.has(g as usize))
            .map(manhattan)
            .min()
    } else {
        level
            .key_cells()
            .filter(|&k| d.keys.has(k as usize))
            .map(manhattan)
            .min()
    }
}

/// A lower bound on the ticks still needed to win: walking distance (through non-wall cells)
/// to a key and from there to a door, or to a door once the key is held. Admissible, since
/// walls never move and every step moves the avatar by at most one cell. `None` when no win
/// can be reached that way (no key left to take, or the target is walled off).
pub fn admissible_distance<const W: usize>(state: &BaitState<W>) -> Option<u32> {
    if state.is_win() {
        return Some(0);
    }
    let level = state.level();
    let d = &state.dy;
    if d.has_key {
        level.nearest_door(d.avatar, &d.doors)
    } else {
        level.nearest_key_then_door(d.avatar, &d.keys, &d.doors)
    }
}

/// Is the box at `cell` frozen for good: blocked by a wall (or the level's edge) both along
/// the row and along the column? Walls never change, so such a box can never move again.
pub fn box_frozen<const W: usize>(state: &BaitState<W>, cell: u16) -> bool {
    let level = state.level();
    let wall = |dr, dc| match level.step(cell, dr, dc) {
        None => true,
        Some(n) => level.walls.has(n as usize),
    };
    (wall(0, -1) || wall(0, 1)) && (wall(-1, 0) || wall(1, 0))
}

/// Is the game lost already, or certainly unwinnable? True when the game is lost, when no key
/// can still be taken (every remaining key lies under a frozen box or is walled off) while
/// none is held, or when a door lies under a frozen box (GVGAI's trap: level 0's first move
/// down pushes a box onto the key in a corner).
pub fn is_dead<const W: usize>(state: &BaitState<W>) -> bool {
    if state.is_loss() {
        return true;
    }
    if state.is_win() {
        return false;
    }
    let d = &state.dy;
    let level = state.level();
    let under_frozen_box = |cell: u16| d.boxes.has(cell as usize) && box_frozen(state, cell);
    if level
        .door_cells()
        .any(|g| d.doors.has(g as usize) && under_frozen_box(g))
    {
        return true;
    }
    if !d.has_key
        && level
            .key_cells()
            .filter(|&k| d.keys.has(k as usize))
            .all(under_frozen_box)
    {
        return true;
    }
    admissible_distance(state).is_none()
}

thread_local! {
    static SCRATCH: RefCell<(Vec<u32>, Vec<Vec<u32>>)> = const { RefCell::new((Vec::new(), Vec::new())) };
}

/// The cheapest walk to a key and on to a door (or to a door once the key is held) where
/// entering a floor cell costs 1, a box 1 + [`BOX_COST`] and a hole 1 + `hole_cost`; walls,
/// and doors while no key is held, are impassable. `None` if no such walk exists.
///
/// One run of Dial's algorithm (Dijkstra with bucket queues) over (cell, key held) pairs,
/// stopping at the first door reached with the key.
pub fn relaxed_distance<const W: usize>(state: &BaitState<W>, hole_cost: u32) -> Option<u32> {
    if state.is_win() {
        return Some(0);
    }
    SCRATCH.with(|cell| {
        let mut guard = cell.borrow_mut();
        let (dist, buckets) = &mut *guard;
        let level = state.level();
        let d = &state.dy;
        let n = level.cells();
        dist.clear();
        dist.resize(2 * n, u32::MAX);
        let ring = (hole_cost.max(BOX_COST) + 2) as usize;
        if buckets.len() < ring {
            buckets.resize_with(ring, Vec::new);
        }
        for b in buckets.iter_mut() {
            b.clear();
        }
        let start = d.avatar as u32 + if d.has_key { n as u32 } else { 0 };
        dist[start as usize] = 0;
        buckets[0].push(start);
        let mut pending = 1usize;
        let mut current = 0u32;
        while pending > 0 {
            let slot = current as usize % ring;
            while let Some(node) = buckets[slot].pop() {
                pending -= 1;
                if dist[node as usize] != current {
                    continue;
                }
                let keyed = node as usize >= n;
                let cell = (node as usize % n) as u16;
                if keyed && d.doors.has(cell as usize) {
                    return Some(current);
                }
                if !keyed && d.keys.has(cell as usize) {
                    let up = cell as usize + n;
                    if current < dist[up] {
                        dist[up] = current;
                        buckets[slot].push(up as u32);
                        pending += 1;
                    }
                }
                for a in Action::MOVES {
                    let (dr, dc) = a.delta();
                    let Some(next) = level.step(cell, dr, dc) else {
                        continue;
                    };
                    let i = next as usize;
                    if level.walls.has(i) || (!keyed && d.doors.has(i)) {
                        continue;
                    }
                    let cost = 1 + if d.holes.has(i) {
                        hole_cost
                    } else if d.boxes.has(i) {
                        BOX_COST
                    } else {
                        0
                    };
                    let nd = current + cost;
                    let id = i + if keyed { n } else { 0 };
                    if nd < dist[id] {
                        dist[id] = nd;
                        buckets[nd as usize % ring].push(id as u32);
                        pending += 1;
                    }
                }
            }
            current += 1;
        }
        None
    })
}

/// Why the game can certainly no longer be won from `state`, if a quick test can tell: no key
/// left to take, a door or every key under a box that can never move, no key within the
/// avatar's reach, a door out of reach of every key, or a win needing more moves than the
/// ticks left. Walls are the only obstacles it trusts: boxes and mushrooms count as passable,
/// and holes too where a box could fill them ([`crate::level::Level::box_reach`]), so it never
/// calls a winnable position lost. A level it passes may still be unwinnable (the search then
/// says so when it has seen every position).
pub fn unwinnable_reason<const W: usize>(state: &BaitState<W>) -> Option<String> {
    if state.is_win() {
        return None;
    }
    if state.is_loss() {
        return Some(format!(
            "the game is already lost ({})",
            state.status().name()
        ));
    }
    let d = &state.dy;
    let level = state.level();
    if d.doors.is_empty() {
        return None;
    }
    if !d.has_key && d.keys.is_empty() {
        return Some("there is no key to take, and a door opens only with a key".into());
    }
    let under_frozen_box = |cell: u16| d.boxes.has(cell as usize) && box_frozen(state, cell);
    if let Some(door) = level
        .door_cells()
        .find(|&g| d.doors.has(g as usize) && under_frozen_box(g))
    {
        let (r, c) = level.row_col(door);
        return Some(format!(
            "the door at row {}, column {} is under a box that can never move again",
            r + 1,
            c + 1
        ));
    }
    if !d.has_key
        && level
            .key_cells()
            .filter(|&k| d.keys.has(k as usize))
            .all(under_frozen_box)
    {
        return Some("every key is under a box that can never move again".into());
    }
    // The cells the avatar might ever stand on: not walls, and not holes no box can fill.
    let passable =
        |cell: usize| !level.walls.has(cell) && (!d.holes.has(cell) || level.box_reach.has(cell));
    let flood = |from: &[u16], doors_open: bool| {
        let mut seen = crate::level::Bits::<W>::EMPTY;
        let mut queue: Vec<u16> = from.to_vec();
        for &c in from {
            seen.set(c as usize);
        }
        while let Some(cell) = queue.pop() {
            for a in Action::MOVES {
                let (dr, dc) = a.delta();
                let Some(next) = level.step(cell, dr, dc) else {
                    continue;
                };
                let i = next as usize;
                if seen.has(i) || !passable(i) || (!doors_open && d.doors.has(i)) {
                    continue;
                }
                seen.set(i);
                queue.push(next);
            }
        }
        seen
    };
    let keyed_from: Vec<u16> = if d.has_key {
        vec![d.avatar]
    } else {
        let walk = flood(&[d.avatar], false);
        let keys: Vec<u16> = level
            .key_cells()
            .filter(|&k| d.keys.has(k as usize) && walk.has(k as usize))
            .collect();
        if keys.is_empty() {
            return Some(
                "no key can be reached: walls (and holes no box can fill) cut the avatar off \
                 from every key"
                    .into(),
            );
        }
        keys
    };
    let walk = flood(&keyed_from, true);
    if let Some(door) = level
        .door_cells()
        .find(|&g| d.doors.has(g as usize) && !walk.has(g as usize))
    {
        let (r, c) = level.row_col(door);
        return Some(format!(
            "the door at row {}, column {} cannot be reached with a key: walls (and holes no \
             box can fill) seal it off",
            r + 1,
            c + 1
        ));
    }
    let left = u32::from(crate::state::MAX_TICKS.saturating_sub(state.tick()));
    match admissible_distance(state) {
        Some(moves) if moves > left => Some(format!(
            "a win needs at least {moves} more moves, and only {left} ticks are left"
        )),
        _ => None,
    }
}
