//! Dynamic deadlocks (see `docs/METHODS.md#sokoban-freeze`): freeze deadlocks — a box blocked on
//! both axes by walls, by dead squares on both sides, or by other boxes that are themselves frozen
//! (checked recursively, a box under test counting as a wall) — and the closed 2×2 block, which the
//! freeze test covers. Static dead squares are in [`crate::board::Board::dead`].
//!
//! [`closed_diagonal_deadlock`] adds the closed-diagonal pattern (see
//! `docs/METHODS.md#sokoban-freeze`): boxes on a diagonal
//! that, together with walls, enclose empty cells the player can never enter again, so a box
//! standing between two such cells (or between one and a wall/frozen box) can never be pushed.

use crate::board::{Board, CellSet, NONE, WINDOW};
use crate::dir::Dir;
use crate::position::{row_bit, Rows};

/// Scratch for [`FreezeCheck::is_deadlock`]: the boxes under test (treated as walls).
#[derive(Clone, Debug, Default)]
pub struct FreezeCheck {
    as_wall: Vec<u16>,
}

impl FreezeCheck {
    /// New scratch.
    pub fn new() -> Self {
        FreezeCheck::default()
    }

    /// After a box arrived on `cell`: is it frozen together with some box off its goal?
    /// A frozen box on a goal with all boxes it freezes with on goals is not a deadlock.
    pub fn is_deadlock(&mut self, board: &Board, boxes: &CellSet, cell: u16) -> bool {
        self.as_wall.clear();
        let mut off_goal = false;
        let frozen = self.frozen(board, boxes, cell, &mut off_goal);
        frozen && off_goal
    }

    /// Is the box on `cell` frozen: blocked on both axes by walls, dead squares on both sides
    /// or boxes that are frozen themselves, so that it can never move again?
    pub fn is_frozen(&mut self, board: &Board, boxes: &CellSet, cell: u16) -> bool {
        self.as_wall.clear();
        let mut off_goal = false;
        self.frozen(board, boxes, cell, &mut off_goal)
    }

    fn is_wall(&self, c: u16) -> bool {
        c == NONE || self.as_wall.contains(&c)
    }

    /// Is the box on `c` frozen (cannot move on either axis), assuming the boxes already under
    /// test are walls? Sets `off_goal` when a box found frozen is not on a goal. A box found
    /// not frozen stops counting as a wall (with everything tested under its assumption).
    fn frozen(&mut self, board: &Board, boxes: &CellSet, c: u16, off_goal: &mut bool) -> bool {
        let mark = self.as_wall.len();
        self.as_wall.push(c);
        let mut sub_off_goal = !board.is_goal(c);
        let mut blocked = [false; 2];
        for (axis, (a, b)) in [(Dir::Left, Dir::Right), (Dir::Up, Dir::Down)]
            .into_iter()
            .enumerate()
        {
            let (na, nb) = (board.step(c, a), board.step(c, b));
            blocked[axis] = self.is_wall(na)
                || self.is_wall(nb)
                || (board.is_dead(na) && board.is_dead(nb))
                || (boxes.contains(na) && self.frozen(board, boxes, na, &mut sub_off_goal))
                || (boxes.contains(nb) && self.frozen(board, boxes, nb, &mut sub_off_goal));
            if !blocked[axis] {
                break;
            }
        }
        let frozen = blocked[0] && blocked[1];
        if frozen {
            *off_goal |= sub_off_goal;
        } else {
            self.as_wall.truncate(mark);
        }
        frozen
    }
}

/// Most cells of the window ([`crate::board::WINDOW`]).
const WINDOW_CELLS: usize = (2 * crate::board::WINDOW + 1) * (2 * crate::board::WINDOW + 1);

/// Whether the window of [`closed_diagonal_deadlock`] around `cell` holds an enclosed cell: a
/// cell other than `player`'s, not a box, whose neighbours are all walls or boxes. Without
/// one that test answers "no deadlock" at once.
pub fn window_has_enclosed_cell(board: &Board, boxes: &CellSet, player: u16, cell: u16) -> bool {
    let window = &board.window_cells[board.window_start[cell as usize] as usize
        ..board.window_start[cell as usize + 1] as usize];
    window.iter().any(|&c| {
        c != player
            && !boxes.contains(c)
            && board.neighbors[c as usize]
                .iter()
                .all(|&n| n == NONE || boxes.contains(n))
    })
}

/// [`window_has_enclosed_cell`] for the position after a box moved from `from` to `to` (by
/// one push or several) with the player ending on `player`, in a position whose free cells are
/// the bit rows `free` (see [`Rows`]), a row at a time. `None` when the board has stranded
/// cells (they are not in the rows) or does not fit rows.
pub(crate) fn window_has_enclosed_after_move(
    board: &Board,
    free: &Rows,
    (from, to): (u16, u16),
    player: u16,
) -> Option<bool> {
    if board.area_cells != board.cells() || board.floor_rows.is_empty() {
        return None;
    }
    let at = |c: u16| row_bit(board.place[c as usize]);
    let ((yf, bf), (yt, bt), (yp, bp)) = (at(from), at(to), at(player));
    // The child's free cells in the window's rows and one row around them: padded rows
    // `yt − WINDOW − 1 ..= yt + WINDOW + 1` (zero outside the grid's padded rows).
    const SPAN: usize = 2 * WINDOW + 3;
    let mut rows = [0u64; SPAN];
    for (k, r) in rows.iter_mut().enumerate() {
        if let Some(y) = (yt + k).checked_sub(WINDOW + 1) {
            if y <= board.height + 1 {
                *r = free[y];
            }
        }
    }
    // The index of padded row `y` among `rows`, if it is one of them.
    let index = |y: usize| {
        let k = (y + WINDOW + 1).wrapping_sub(yt);
        (k < SPAN).then_some(k)
    };
    if let Some(kf) = index(yf) {
        rows[kf] |= bf;
    }
    rows[WINDOW + 1] &= !bt;
    let kp = index(yp);
    let x = bt.trailing_zeros() as usize;
    let lo = x.saturating_sub(WINDOW);
    let columns = (((1u128 << (x + WINDOW + 1 - lo)) - 1) as u64) << lo;
    let mut enclosed = 0;
    for k in 1..SPAN - 1 {
        let r = rows[k];
        let player = if Some(k) == kp { bp } else { 0 };
        let open = (r << 1) | (r >> 1) | rows[k - 1] | rows[k + 1];
        enclosed |= r & columns & !player & !open;
    }
    Some(enclosed != 0)
}

/// Closed-diagonal deadlock after a box arrived on `cell` with the player on `player`.
///
/// Works on the 5×5 window around `cell` as a greatest fixed point: start with every box of
/// the window assumed immovable (`S`) and every empty window cell whose four neighbours are
/// walls or boxes, other than the player's cell, assumed enclosed (`E`); then repeatedly drop
/// an `E` cell with a neighbour that is neither a wall nor in `S`, and a box of `S` that could
/// be pushed along some axis. A push of a box toward `t` with the player on `p` counts as
/// impossible when `t` is a wall, an `S` box or a dead square, or when `p` is a wall, an `S`
/// box or an `E` cell. What survives can never move: the first push of an `S` box would need
/// one of those conditions to fail while all of `S` still stands, and while `S` stands no box
/// enters an `E` cell and the player cannot reach one. A deadlock is reported only if a
/// surviving box is off its goal and the pattern used an enclosed cell (without one this is
/// the freeze test, [`FreezeCheck`], which the callers run first). Boxes outside the window
/// count as movable and cells outside it as open, so the test only errs toward "no deadlock".
pub fn closed_diagonal_deadlock(board: &Board, boxes: &CellSet, player: u16, cell: u16) -> bool {
    let window = &board.window_cells[board.window_start[cell as usize] as usize
        ..board.window_start[cell as usize + 1] as usize];
    let mut in_s = [0u16; WINDOW_CELLS];
    let mut in_e = [0u16; WINDOW_CELLS];
    let (mut ns, mut ne) = (0usize, 0usize);
    let is_wall = |c: u16| c == NONE;
    // Enclosed cells first: most windows have none, and then the boxes are not needed.
    for &c in window {
        if c != player
            && !boxes.contains(c)
            && board.neighbors[c as usize]
                .iter()
                .all(|&n| is_wall(n) || boxes.contains(n))
        {
            in_e[ne] = c;
            ne += 1;
        }
    }
    if ne == 0 {
        return false;
    }
    for &c in window {
        if boxes.contains(c) {
            in_s[ns] = c;
            ns += 1;
        }
    }
    loop {
        let mut changed = false;
        let mut i = 0;
        while i < ne {
            let c = in_e[i];
            let closed = Dir::ALL.into_iter().all(|d| {
                let n = board.step(c, d);
                is_wall(n) || in_s[..ns].contains(&n)
            });
            if closed {
                i += 1;
            } else {
                ne -= 1;
                in_e[i] = in_e[ne];
                changed = true;
            }
        }
        if ne == 0 {
            return false;
        }
        let mut i = 0;
        while i < ns {
            let b = in_s[i];
            let (s, e) = (&in_s[..ns], &in_e[..ne]);
            // A push from `p` across `b` onto `t` is impossible.
            let stuck = |p: u16, t: u16| {
                is_wall(t)
                    || s.contains(&t)
                    || board.is_dead(t)
                    || is_wall(p)
                    || s.contains(&p)
                    || e.contains(&p)
            };
            let immovable = [(Dir::Left, Dir::Right), (Dir::Up, Dir::Down)]
                .into_iter()
                .all(|(a, z)| {
                    let (na, nz) = (board.step(b, a), board.step(b, z));
                    stuck(na, nz) && stuck(nz, na)
                });
            if immovable {
                i += 1;
            } else {
                ns -= 1;
                in_s[i] = in_s[ns];
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    in_s[..ns].iter().any(|&b| !board.is_goal(b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::{generate_pushes, Position, Reach};
    use crate::{parse_xsb, Board};
    use proptest::prelude::*;
    use puzzle_engine::Rng;

    const SETS: [&str; 2] = [
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../data/sokoban/Microban_155.xsb"
        )),
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../data/sokoban/XSokoban_90.xsb"
        )),
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// The enclosed-cell test on the parent's free rows answers as the cell by cell one on
        /// the child, for every push along random push sequences, and for moves of a box to
        /// any free cell with the player anywhere.
        #[test]
        fn enclosed_cells_by_rows_match_by_cells(set in 0usize..2, index in 0usize..155, seed in any::<u64>()) {
            let levels = parse_xsb(SETS[set]).unwrap();
            let board = Board::new(&levels[index % levels.len()]).unwrap();
            let mut pos = Position::start(&board);
            let (mut reach, mut rng, mut pushes) = (Reach::new(board.cells()), Rng::new(seed), Vec::new());
            for _ in 0..30 {
                reach.compute(&board, &pos.boxes, pos.player);
                generate_pushes(&board, &pos, &reach, false, &mut pushes);
                let Some((_, free)) = reach.row_state() else { break };
                for &p in &pushes {
                    let to = board.step(p.from, p.dir);
                    let by_rows = window_has_enclosed_after_move(&board, free, (p.from, to), p.from);
                    let old = pos.apply_push(&board, p);
                    let by_cells = window_has_enclosed_cell(&board, &pos.boxes, pos.player, to);
                    pos.undo_push(&board, p, old);
                    if let Some(by_rows) = by_rows {
                        prop_assert_eq!(by_rows, by_cells, "push {:?}", p);
                    }
                }
                // A box moved from its cell to a random free cell, the player on another free
                // cell or the box's old one.
                let free_cells: Vec<u16> =
                    (0..board.cells() as u16).filter(|&c| !pos.boxes.contains(c)).collect();
                if let Some(from) = pos.boxes.iter().nth(rng.below(board.box_count().max(1))) {
                    let to = free_cells[rng.below(free_cells.len())];
                    let mut players: Vec<u16> = free_cells.iter().copied().filter(|&c| c != to).collect();
                    players.push(from);
                    let player = players[rng.below(players.len())];
                    if let Some(by_rows) = window_has_enclosed_after_move(&board, free, (from, to), player) {
                        let mut boxes = pos.boxes.clone();
                        boxes.remove(from);
                        boxes.insert(to);
                        let by_cells = window_has_enclosed_cell(&board, &boxes, player, to);
                        prop_assert_eq!(by_rows, by_cells, "move {} to {}, player {}", from, to, player);
                    }
                }
                if pushes.is_empty() {
                    break;
                }
                let p = pushes[rng.below(pushes.len())];
                pos.apply_push(&board, p);
            }
        }
    }
}
