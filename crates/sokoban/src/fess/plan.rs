//! The packing plan behind FESS's packing and out-of-plan features (Shoham & Schaeffer 2020,
//! §III-B; see `docs/METHODS.md#sokoban-fess`).
//!
//! **Packing order.** A retrograde analysis from the solved position: round by round, every
//! goal box that can be pulled out of the goal area is removed from the board, the player
//! coming from any free cell outside the goals; goals emptied in the last round must be
//! filled first. A box is out when its pulls meet a state (its cell and the player's area)
//! that one of the start boxes off goals reaches by pushes alone on the board with the goals
//! still standing as walls: a box can be brought there when those goals are full. Each start
//! box fills one goal, so a goal box that leaves claims a start box it meets that no goal
//! took before (the goals with the fewest such boxes choose first, each the box the fewest
//! other goals meet); a goal that meets only claimed boxes waits. Only in a round where no
//! goal claims a box do goals meeting claimed boxes leave, and only in a round where no goal
//! meets any does a pull to the "sink", as the paper's authors put it (here any floor cell
//! neither a goal nor next to one), count. The pulls are searched with
//! the player's access checked at every pull, and the player may come in by any entrance of
//! a goal area, so an area with several entrances is emptied from whichever entrance works,
//! but not through an entrance boxes cannot be brought to with the player behind them
//! (goals no pull frees at all share the first rank).
//!
//! **The player's side.** Where the goals divide the rest of the floor into areas holding
//! boxes (XSokoban 72: a block of goals across the corridor between the player's corner and
//! the room of the boxes), the player cannot come from every area in every round: it ends
//! the level in one of them, and going backwards it pulls only from the area it stands in,
//! which grows as goals are emptied. When the analysis with the player coming from any area
//! does not give a complete plan (every goal freed, every start box off its goal claimed),
//! it is run again for each area the player may end in (the start boxes then brought from
//! that area), and the first complete plan is kept.
//!
//! **Parking.** When no box can leave, a goal's box may be pulled to a parking cell (a floor
//! cell beside a goal, among the first few it reaches), where it stands while the analysis
//! goes on, if another box can then leave or be parked in turn; the parked box leaves later
//! like a goal's. Going forwards the box waits on the parking cell while the goals in front of
//! it fill, then takes its goal: the parking squares of the authors' longer write-up. The
//! parking least in the way (fewest goals beside it) is taken. Parking is kept only when
//! every parked box leaves again; otherwise the plan is the one without it.
//!
//! **Packing feature.** The boxes on goals filled in the plan's order, counted in two orders
//! and summed. Goals joined through neighbouring cells, or through one floor cell between
//! them, form an area; areas far apart are packed independently. The ranks' order is total
//! within an area: a box on a goal counts once every goal of its area of a lower rank is
//! full. The partial order keeps of it only what the analysis shows:
//! - the goals whose boxes left by one entrance (the first cell off the goals their pulls
//!   reached; entrance cells side by side are one) wait for that entrance's goals of lower
//!   rank, and not for another entrance's;
//! - a goal whose box, leaving, was pulled across a goal emptied in an earlier round (or had
//!   the player stand on one) is one that goal waits for: it must stay empty until then;
//! - goals no pull frees come first, with the last round's; and a goal waits for what the
//!   goals it waits for wait for.
//!
//! A box packed in the ranks' order counts twice, a box packed only in the partial order
//! once: a goal area entered from two sides gains from both at once, and the ranks still
//! lead. With parking both orders are the ranks' total order. A parking cell is a slot of its
//! goal's area with its own rank: done while a box stands on it or on its goal, so a box
//! moving on from its parking cell to its goal gains one in each order.
//!
//! **Basins and out of plan.** The basin of a goal is the set of cells from which a box can
//! still be pushed onto it when every other goal holds a box (the final position): those are
//! the paths packing leaves open. A box that is neither packed (in the partial order) nor in
//! the basin of some goal still to be packed stands in an area about to be sealed off: it is
//! *out of plan*. So is a box that the goals still to be packed cannot all take along with
//! the others, each goal one box: the goals' wider basins (the cells from which a box reaches
//! the goal with the goals of its area of its rank and lower full, as when the retrograde
//! analysis freed it; other areas are packed independently and stand empty) are matched to
//! the boxes not packed, and the boxes a largest matching leaves over are out of plan too
//! (levels of up to 64 goals, plans without parking). A goal filled last
//! whose only boxes were taken to other goals so shows before the other goals are full.

use crate::board::{Board, CellSet, NONE};
use crate::dir::Dir;

/// A flood of the free cells from `from` (walls: `walls` and the box on `box_cell`).
fn flood(board: &Board, walls: &CellSet, box_cell: u16, from: u16, seen: &mut [bool]) {
    seen.fill(false);
    if from == NONE || from == box_cell || walls.contains(from) {
        return;
    }
    let mut stack = vec![from];
    seen[from as usize] = true;
    while let Some(x) = stack.pop() {
        for &y in &board.neighbors[x as usize] {
            if y != NONE && y != box_cell && !walls.contains(y) && !seen[y as usize] {
                seen[y as usize] = true;
                stack.push(y);
            }
        }
    }
}

/// The cells a box on `start` reaches by pulls with the boxes of `walls` standing, the player
/// starting on any free cell for which `player_start` holds, in breadth-first order; stops
/// early at the first state (the box's cell and the side the player stands on) for which
/// `stop` holds, and then also returns the states of the pulls that led there, first to last.
fn pull_cells(
    board: &Board,
    walls: &CellSet,
    start: u16,
    player_start: impl Fn(u16) -> bool,
    stop: impl Fn(u16, Dir) -> bool,
) -> (Vec<u16>, Option<Vec<(u16, Dir)>>) {
    let n = board.cells();
    let free = |c: u16| c != NONE && !walls.contains(c);
    let mut seen_state = vec![false; n * 4];
    let mut seen_cell = vec![false; n];
    let mut cells = vec![start];
    seen_cell[start as usize] = true;
    let mut area = vec![false; n];
    // The states in breadth-first order, each with the index of the state it came from.
    let mut queue: Vec<(u16, Dir, u32)> = Vec::new();
    // The first pulls: the player stands beside the box on a start cell.
    for d in Dir::ALL {
        let p = board.step(start, d);
        if free(p) && player_start(p) && free(board.step(p, d)) {
            seen_state[p as usize * 4 + d as usize] = true;
            queue.push((p, d, u32::MAX));
        }
    }
    let mut head = 0;
    while head < queue.len() {
        let (c, d, _) = queue[head];
        head += 1;
        if !seen_cell[c as usize] {
            seen_cell[c as usize] = true;
            cells.push(c);
        }
        if stop(c, d) {
            let mut path = Vec::new();
            let mut i = head - 1;
            loop {
                let (c, d, from) = queue[i];
                path.push((c, d));
                if from == u32::MAX {
                    break;
                }
                i = from as usize;
            }
            path.reverse();
            return (cells, Some(path));
        }
        // The box on `c`, the player one step beyond it in direction `d`.
        flood(board, walls, c, board.step(c, d), &mut area);
        for e in Dir::ALL {
            let p = board.step(c, e);
            if p == NONE || !area[p as usize] || !free(board.step(p, e)) {
                continue;
            }
            let s = p as usize * 4 + e as usize;
            if !seen_state[s] {
                seen_state[s] = true;
                queue.push((p, e, head as u32 - 1));
            }
        }
    }
    (cells, None)
}

/// The states (a box's cell and the side the player stands on, `cell * 4 + side`) that the
/// start box on `b` reaches by pushes, alone on the board with the boxes of `walls`
/// standing, the player starting on `player` (the level's start cell, or the cell standing for
/// the player's side of a divided level; see [`Retrograde::side`]).
fn push_states(board: &Board, walls: &CellSet, b: u16, player: u16) -> Vec<bool> {
    let n = board.cells();
    let free = |c: u16| c != NONE && !walls.contains(c);
    let mut seen = vec![false; n * 4];
    let mut area = vec![false; n];
    let mut queue = Vec::new();
    flood(board, walls, b, player, &mut area);
    for d in Dir::ALL {
        let p = board.step(b, d);
        if p != NONE && area[p as usize] {
            seen[b as usize * 4 + d as usize] = true;
            queue.push((b, d));
        }
    }
    let mut head = 0;
    while head < queue.len() {
        let (c, d) = queue[head];
        head += 1;
        flood(board, walls, c, board.step(c, d), &mut area);
        for e in Dir::ALL {
            let p = board.step(c, e);
            if p == NONE || !area[p as usize] {
                continue;
            }
            // The player reaches this side too: the same position.
            seen[c as usize * 4 + e as usize] = true;
            let t = board.step(c, e.opposite());
            if !free(t) {
                continue;
            }
            let s = t as usize * 4 + e as usize;
            if !seen[s] {
                seen[s] = true;
                queue.push((t, e));
            }
        }
    }
    seen
}

/// The states (`cell * 4 + side`) the box on slot `g` reaches by pulls with the other slots of
/// `standing` full, the player coming from outside: any free cell of an area that holds a
/// cell neither a goal nor `g`, or, given a `side` (a divided level, [`Retrograde::side`]),
/// only the area of that cell. Stops at the first state for which `stop` holds, and then
/// also returns the pulls that led there ([`pull_cells`]).
fn pull_visits(
    board: &Board,
    standing: &CellSet,
    g: u16,
    side: Option<u16>,
    stop: impl Fn(usize) -> bool,
) -> (Vec<usize>, Option<Vec<(u16, Dir)>>) {
    let n = board.cells();
    let mut walls = standing.clone();
    walls.remove(g);
    let mut area = vec![false; n];
    let mut outside = vec![false; n];
    if let Some(side) = side {
        flood(board, &walls, g, side, &mut outside);
    } else {
        for c in 0..n as u16 {
            if outside[c as usize] || walls.contains(c) || c == g || board.is_goal(c) {
                continue;
            }
            flood(board, &walls, g, c, &mut area);
            for (o, &a) in outside.iter_mut().zip(&area) {
                *o |= a;
            }
        }
    }
    let visited = std::cell::RefCell::new(Vec::new());
    let (_, path) = pull_cells(
        board,
        &walls,
        g,
        |p| outside[p as usize],
        |c, d| {
            let s = c as usize * 4 + d as usize;
            visited.borrow_mut().push(s);
            stop(s)
        },
    );
    (visited.into_inner(), path)
}

/// The parking cells tried for each goal when no box can leave (the nearest by pulls).
const PARK_TRIES: usize = 4;

/// When no slot of `standing` can leave: a goal whose box, pulled to a parking cell (a floor
/// cell beside a goal, neither a goal nor full), lets another slot's box reach a state for
/// which `live` holds (one a start box can be brought to). Returns the goal's slot and the
/// parking cell. Going forwards, the box waits on the parking cell while the goals after it
/// fill, then takes its goal: the sink room's parking squares of the authors' write-up.
fn park(
    board: &Board,
    standing: &CellSet,
    slot_cell: &[u16],
    removed_in: &[u16],
    side: Option<u16>,
    live: impl Fn(usize) -> bool,
) -> Option<(usize, u16)> {
    let goals_beside = |c: u16| {
        board.neighbors[c as usize]
            .iter()
            .filter(|&&a| a != NONE && board.is_goal(a))
            .count()
    };
    // Where the box of goal `g` may park with the boxes of `full` standing.
    let can_park = |c: u16, g: u16, full: &CellSet| {
        c != g && board.is_goal(g) && !board.is_goal(c) && !full.contains(c) && goals_beside(c) > 0
    };
    // The parking least in the way (fewest goals beside it) among those that help.
    let mut best: Option<(usize, usize, u16)> = None;
    for (k, &g) in slot_cell.iter().enumerate() {
        if removed_in[k] != u16::MAX || !board.is_goal(g) {
            continue;
        }
        let (visits, _) = pull_visits(board, standing, g, side, |_| false);
        let mut tried = Vec::new();
        for c in visits.iter().map(|&s| (s / 4) as u16) {
            if tried.len() == PARK_TRIES {
                break;
            }
            if !can_park(c, g, standing) || tried.contains(&c) {
                continue;
            }
            tried.push(c);
            let score = goals_beside(c);
            if best.is_some_and(|(b, _, _)| b <= score) {
                continue;
            }
            let mut parked = standing.clone();
            parked.remove(g);
            parked.insert(c);
            // Another box can then leave, or at least be parked in turn.
            let frees_another = slot_cell.iter().enumerate().any(|(j, &h)| {
                j != k
                    && removed_in[j] == u16::MAX
                    && pull_visits(board, &parked, h, side, |s| {
                        live(s) || can_park((s / 4) as u16, h, &parked)
                    })
                    .1
                    .is_some()
            });
            if frees_another {
                best = Some((score, k, c));
            }
        }
    }
    best.map(|(_, k, c)| (k, c))
}

/// A parking cell of the packing plan: a box waits there before taking its goal.
#[derive(Clone, Copy, Debug)]
struct Parking {
    /// The parking cell.
    cell: u16,
    /// The goal (index in [`Board::goal_list`]) the box parked here takes later.
    goal: u16,
    /// That goal's cell.
    goal_cell: u16,
    /// Its rank in the packing order, before the goal's.
    rank: u16,
}

/// The packing order found by the retrograde analysis (see the module documentation): the
/// slots (the goals, then the parking cells added), the goal each parking's box takes
/// later, the round in which each slot's box left (`u16::MAX`: never) and the rounds.
struct Retrograde {
    slot_cell: Vec<u16>,
    parked_from: Vec<u16>,
    removed_in: Vec<u16>,
    rounds: u16,
    /// For each slot that left, the states its pulls met that let it leave (sorted).
    exits: Vec<Vec<usize>>,
    /// The player's side on a level whose goals divide the rest of the floor into areas
    /// holding boxes (XSokoban 72: a block of goals across the corridor between the player's
    /// corner and the room of the boxes): a cell of the area the player ends the level in.
    /// The player pulls only from its area, which grows as goals are emptied, and the start
    /// boxes are brought from that area. `None`: the player comes from any area outside the
    /// goals, and from the start cell to the start boxes.
    side: Option<u16>,
    /// How many slots left claiming a start box (see the module documentation).
    claimed: usize,
}

/// The retrograde analysis of `board`, parking boxes when no box can leave if `parking`.
fn retrograde(board: &Board, parking: bool, side: Option<u16>) -> Retrograde {
    let n = board.cells();
    let goals = board.goal_list.len();
    // The slots whose boxes the analysis pulls out: the goals, then the parking cells it
    // adds (see `park`), with the goal each parked box came from.
    let mut slot_cell: Vec<u16> = board.goal_list.clone();
    let mut parked_from: Vec<u16> = vec![u16::MAX; goals];
    let mut removed_in = vec![u16::MAX; goals];
    let mut standing = board.goals.clone();
    let mut round = 0u16;
    // The sink: a floor cell neither a goal nor next to one, out of the goal area.
    let sink = |c: u16| {
        !board.is_goal(c)
            && board.neighbors[c as usize]
                .iter()
                .all(|&a| a == NONE || !board.is_goal(a))
    };
    // The start boxes off goals, each claimed by the goal it is to fill.
    let starts: Vec<u16> = board
        .start_boxes
        .iter()
        .filter(|&b| !board.is_goal(b))
        .collect();
    let mut used = vec![false; starts.len()];
    let mut exits: Vec<Vec<usize>> = vec![Vec::new(); goals];
    let mut claimed = 0;
    loop {
        // Where each start box can still be brought with the slots of `standing` full.
        let states: Vec<Vec<bool>> = starts
            .iter()
            .map(|&b| push_states(board, &standing, b, side.unwrap_or(board.start_player)))
            .collect();
        let mut any = vec![false; n * 4];
        for st in &states {
            for (a, &x) in any.iter_mut().zip(st) {
                *a |= x;
            }
        }
        let mut removable = Vec::new();
        // Slots meeting only claimed boxes, and slots that leave only to the sink.
        let mut by_any = Vec::new();
        let mut by_sink = Vec::new();
        let mut claims: Vec<(usize, Vec<usize>)> = Vec::new();
        let mut visits: Vec<Vec<usize>> = vec![Vec::new(); removed_in.len()];
        for (k, &removed) in removed_in.iter().enumerate() {
            if removed != u16::MAX {
                continue;
            }
            let (visited, _) = pull_visits(board, &standing, slot_cell[k], side, |_| false);
            let met: Vec<usize> = (0..starts.len())
                .filter(|&i| !used[i] && visited.iter().any(|&s| states[i][s]))
                .collect();
            if !met.is_empty() {
                claims.push((k, met));
            } else if visited.iter().any(|&s| any[s]) {
                by_any.push(k);
            } else if visited.iter().any(|&s| sink((s / 4) as u16)) {
                by_sink.push(k);
            }
            visits[k] = visited;
        }
        // The states that let slot `k` leave: `exit(s)` holds for them.
        let mut keep_exits = |k: usize, exit: &dyn Fn(usize) -> bool| {
            let mut e: Vec<usize> = visits[k].iter().copied().filter(|&s| exit(s)).collect();
            e.sort_unstable();
            e.dedup();
            exits[k] = e;
        };
        // Each slot claims the start box wanted by the fewest other slots, the slots
        // with the fewest boxes to choose from first.
        let mut wanted = vec![0u32; starts.len()];
        for (_, met) in &claims {
            for &i in met {
                wanted[i] += 1;
            }
        }
        claims.sort_by_key(|(k, met)| (met.len(), *k));
        for (k, met) in &claims {
            if let Some(&i) = met
                .iter()
                .filter(|&&i| !used[i])
                .min_by_key(|&&i| (wanted[i], i))
            {
                used[i] = true;
                claimed += 1;
                removable.push(*k);
                keep_exits(*k, &|s| states[i][s]);
            }
        }
        removable.sort_unstable();
        let mut kind = "claiming start boxes";
        if removable.is_empty() {
            kind = "meeting claimed boxes";
            removable = by_any;
            for &k in &removable {
                keep_exits(k, &|s| any[s]);
            }
        }
        if removable.is_empty() {
            kind = "to the sink";
            removable = by_sink;
            for &k in &removable {
                keep_exits(k, &|s| sink((s / 4) as u16));
            }
        }
        if removable.is_empty() {
            // No box leaves: park one beside the goals if that lets another leave (reach a
            // state a start box can be brought to).
            let parked = if parking {
                park(board, &standing, &slot_cell, &removed_in, side, |s| any[s])
            } else {
                None
            };
            let Some((k, cell)) = parked else {
                break;
            };
            tracing::trace!(
                round,
                goal = ?board.xy(slot_cell[k]),
                parking = ?board.xy(cell),
                "fess plan: box parked"
            );
            removed_in[k] = round;
            standing.remove(slot_cell[k]);
            standing.insert(cell);
            slot_cell.push(cell);
            parked_from.push(k as u16);
            removed_in.push(u16::MAX);
            exits.push(Vec::new());
            round += 1;
            continue;
        }
        tracing::trace!(
            round,
            removed = ?removable.iter().map(|&k| board.xy(slot_cell[k])).collect::<Vec<_>>(),
            kind,
            "fess plan: goals freed"
        );
        for &k in &removable {
            removed_in[k] = round;
            standing.remove(slot_cell[k]);
        }
        round += 1;
    }
    Retrograde {
        slot_cell,
        parked_from,
        removed_in,
        rounds: round,
        exits,
        side,
        claimed,
    }
}

/// The retrograde analysis with parking, or without when a parked box would stay.
fn retrograde_parked_if_it_leaves(board: &Board, side: Option<u16>) -> Retrograde {
    let order = retrograde(board, true, side);
    if order.removed_in[board.goal_list.len()..].contains(&u16::MAX) {
        retrograde(board, false, side)
    } else {
        order
    }
}

/// The areas of the floor outside the goals (the goals as walls) that hold a start box off
/// its goal or the player: a cell of each. Two or more: the goals divide the level, and the
/// player's side matters ([`Retrograde::side`]).
fn sides(board: &Board) -> Vec<u16> {
    let n = board.cells();
    let mut seen = vec![false; n];
    let mut area = vec![false; n];
    let mut sides = Vec::new();
    for c in 0..n as u16 {
        if seen[c as usize] || board.is_goal(c) {
            continue;
        }
        flood(board, &board.goals, NONE, c, &mut area);
        let holds = |x: u16| area[x as usize];
        if board
            .start_boxes
            .iter()
            .any(|b| !board.is_goal(b) && holds(b))
            || holds(board.start_player)
        {
            sides.push(c);
        }
        for (s, &a) in seen.iter_mut().zip(&area) {
            *s |= a;
        }
    }
    sides
}

/// The most sides [`best_retrograde`] tries: each costs one or two retrograde analyses, and
/// the four benchmark sets have at most nine (Sasquatch 31), so a level of many pockets
/// holding boxes does not spend seconds on its plan.
const MAX_SIDES_TRIED: usize = 16;

/// The packing order. On a level the goals divide ([`sides`]), the analysis with the player
/// coming from any side can free goals by entrances the player cannot reach from one side
/// of the finished level; when it does not give a complete plan (every goal freed, every
/// start box off its goal claimed), the analysis for each side the player may end on is
/// tried (the first [`MAX_SIDES_TRIED`]), and the first complete one is kept.
fn best_retrograde(board: &Board) -> Retrograde {
    let goals = board.goal_list.len();
    let starts = board
        .start_boxes
        .iter()
        .filter(|&b| !board.is_goal(b))
        .count();
    let complete = |o: &Retrograde| {
        o.claimed == starts && o.removed_in[..goals].iter().all(|&r| r != u16::MAX)
    };
    let any_side = retrograde_parked_if_it_leaves(board, None);
    tracing::trace!(
        claimed = any_side.claimed,
        starts,
        complete = complete(&any_side),
        "fess plan: the player from any side"
    );
    if complete(&any_side) {
        return any_side;
    }
    let sides = sides(board);
    if sides.len() < 2 {
        return any_side;
    }
    for side in sides.into_iter().take(MAX_SIDES_TRIED) {
        let order = retrograde_parked_if_it_leaves(board, Some(side));
        tracing::trace!(
            side = ?board.xy(side),
            claimed = order.claimed,
            complete = complete(&order),
            "fess plan: the player's side tried"
        );
        if complete(&order) {
            return order;
        }
    }
    any_side
}

/// How each goal of a plan without parking left in the retrograde analysis: the goals its
/// pulls crossed (the box's cells and the player's, as they stood when it left, on goals
/// emptied in earlier rounds), which must still be empty when it is filled, and the entrance
/// it left by (the first cell off the goals its box was pulled to; `NONE` for a goal no pull
/// frees). The pulls are the fewest that reach a state that let it leave off the goals, or
/// any such state if none is off them.
fn exit_paths(board: &Board, order: &Retrograde, goal_at: &[u16]) -> (Vec<Vec<usize>>, Vec<u16>) {
    let goals = board.goal_list.len();
    let cell = &board.goal_list;
    let removed_in = &order.removed_in;
    let mut crossed = vec![Vec::new(); goals];
    let mut entrance = vec![NONE; goals];
    for g in 0..goals {
        let r = removed_in[g];
        if r == u16::MAX {
            continue;
        }
        let mut standing = CellSet::new(board.cells());
        for h in (0..goals).filter(|&h| removed_in[h] >= r) {
            standing.insert(cell[h]);
        }
        let exits = &order.exits[g];
        let exit = |s: usize| exits.binary_search(&s).is_ok();
        let (_, mut path) = pull_visits(board, &standing, cell[g], order.side, |s| {
            exit(s) && !board.is_goal((s / 4) as u16)
        });
        if path.is_none() {
            path = pull_visits(board, &standing, cell[g], order.side, exit).1;
        }
        let Some(path) = path else {
            crossed[g].extend((0..goals).filter(|&h| removed_in[h] < r));
            continue;
        };
        entrance[g] = path
            .iter()
            .map(|&(c, _)| c)
            .find(|&c| !board.is_goal(c))
            .unwrap_or(NONE);
        for (c, d) in path {
            for x in [c, board.step(c, d)] {
                let h = goal_at[x as usize];
                if h != u16::MAX
                    && removed_in[h as usize] < r
                    && !crossed[g].contains(&(h as usize))
                {
                    crossed[g].push(h as usize);
                }
            }
        }
    }
    (crossed, entrance)
}

/// For each goal, a goal standing for the group of goals that left by the same entrance
/// (entrance cells side by side are one entrance); a goal no pull frees is a group of its own.
fn entrance_groups(board: &Board, entrance: &[u16]) -> Vec<usize> {
    fn root(parent: &mut [usize], mut k: usize) -> usize {
        while parent[k] != k {
            parent[k] = parent[parent[k]];
            k = parent[k];
        }
        k
    }
    let goals = entrance.len();
    let mut parent: Vec<usize> = (0..goals).collect();
    // The first goal seen leaving by each entrance cell.
    let mut by_cell = vec![usize::MAX; board.cells()];
    for (g, &e) in entrance.iter().enumerate() {
        if e == NONE {
            continue;
        }
        for c in std::iter::once(e).chain(board.neighbors[e as usize].iter().copied()) {
            if c != NONE && by_cell[c as usize] != usize::MAX {
                let (a, b) = (root(&mut parent, g), root(&mut parent, by_cell[c as usize]));
                parent[a] = b;
            }
        }
        if by_cell[e as usize] == usize::MAX {
            by_cell[e as usize] = g;
        }
    }
    (0..goals).map(|g| root(&mut parent, g)).collect()
}

/// The ranks' total order, area by area: each slot waits for every slot of its area of a
/// lower rank (`words` words per slot).
fn ranked_order(slot_rank: &[u16], slot_area: &[u16], words: usize) -> Vec<u64> {
    let slots = slot_rank.len();
    let mut before = vec![0u64; slots * words];
    for k in 0..slots {
        for j in 0..slots {
            if slot_area[j] == slot_area[k] && slot_rank[j] < slot_rank[k] {
                before[k * words + j / 64] |= 1 << (j % 64);
            }
        }
    }
    before
}

/// The partial order of a plan without parking, `words` words per goal: the goals that left
/// by one entrance are filled in the order of their ranks, a goal whose leaving box crossed
/// another goal is one that goal waits for ([`exit_paths`]), and goals no pull frees come
/// first in their area with the last round's; closed under "waits for".
fn partial_order(
    board: &Board,
    order: &Retrograde,
    goal_at: &[u16],
    slot_rank: &[u16],
    slot_area: &[u16],
    words: usize,
) -> Vec<u64> {
    let goals = board.goal_list.len();
    let mut before = vec![0u64; goals * words];
    let set = |before: &mut [u64], k: usize, j: usize| {
        before[k * words + j / 64] |= 1 << (j % 64);
    };
    let has = |before: &[u64], k: usize, j: usize| before[k * words + j / 64] >> (j % 64) & 1 == 1;
    let ordered = |j: usize, k: usize| slot_area[j] == slot_area[k] && slot_rank[j] < slot_rank[k];
    let (crossed, entrance) = exit_paths(board, order, goal_at);
    let group = entrance_groups(board, &entrance);
    tracing::trace!(
        entrances = ?entrance
            .iter()
            .map(|&c| (c != NONE).then(|| board.xy(c)))
            .collect::<Vec<_>>(),
        "fess plan: entrances"
    );
    let freed = |k: usize| order.removed_in[k] != u16::MAX;
    for k in 0..goals {
        for &h in &crossed[k] {
            set(&mut before, h, k);
        }
        for j in (0..goals).filter(|&j| ordered(j, k)) {
            if group[j] == group[k] || !freed(j) {
                set(&mut before, k, j);
            }
        }
    }
    // A goal waits for the goals its own wait for: those come earlier in the plan, so their
    // sets are closed when it is reached in the order of the ranks.
    let mut by_rank: Vec<usize> = (0..goals).collect();
    by_rank.sort_by_key(|&k| (slot_rank[k], k));
    for &k in &by_rank {
        for j in 0..goals {
            if has(&before, k, j) {
                for w in 0..words {
                    before[k * words + w] |= before[j * words + w];
                }
            }
        }
    }
    before
}

/// The size of a largest matching of a bipartite graph whose left vertices have the edge
/// sets `edges` (bit sets over at most 64 right vertices): a greedy matching grown by
/// augmenting paths (Kuhn's algorithm).
fn max_matching(edges: &[u64]) -> u32 {
    let mut owner = [u8::MAX; 64];
    let mut taken = 0u64;
    let mut size = 0;
    let mut unmatched = [0u8; 64];
    let mut left = 0;
    for (i, &e) in edges.iter().enumerate() {
        let free = e & !taken;
        if free != 0 {
            let g = free.trailing_zeros();
            taken |= 1 << g;
            owner[g as usize] = i as u8;
            size += 1;
        } else {
            unmatched[left] = i as u8;
            left += 1;
        }
    }
    for &i in &unmatched[..left] {
        let mut seen = 0u64;
        if augment(i as usize, edges, &mut owner, &mut seen) {
            size += 1;
        }
    }
    size
}

/// An augmenting path from left vertex `i` in [`max_matching`]: `owner` holds each right
/// vertex's partner (`u8::MAX` when free), `seen` the right vertices visited.
fn augment(i: usize, edges: &[u64], owner: &mut [u8; 64], seen: &mut u64) -> bool {
    let mut next = edges[i] & !*seen;
    while next != 0 {
        let g = next.trailing_zeros() as usize;
        *seen |= 1 << g;
        if owner[g] == u8::MAX || augment(owner[g] as usize, edges, owner, seen) {
            owner[g] = i as u8;
            return true;
        }
        next &= !*seen;
    }
    false
}

/// The packing order and basins of a level (see the module documentation).
#[derive(Clone, Debug)]
pub struct PackingPlan {
    /// The rank of each goal (index as in [`Board::goal_list`]): 0 = fill first.
    pub rank: Vec<u16>,
    /// The basin of each goal.
    pub basin: Vec<CellSet>,
    /// For each cell, the goals whose wider basin holds it (a box there reaches the goal with
    /// the goals of its area of its rank and lower full), as a bit set: a box's edges in the
    /// matching of [`PackingPlan::out_of_plan`]. Empty for levels of more than 64 goals and
    /// plans with parking, which count only the boxes in no basin.
    basin_goals: Vec<u64>,
    /// The goal area of each goal (see the module documentation), numbered from 0.
    pub area: Vec<u16>,
    /// The index in [`Board::goal_list`] of the goal on each cell (`u16::MAX` off the goals).
    goal_at: Vec<u16>,
    /// The parking cells, in the order the analysis chose them.
    parking: Vec<Parking>,
    /// The index in `parking` of the first parking on each cell (`u16::MAX` for none).
    parking_at: Vec<u16>,
    /// The 64-bit words of a set of slots (the goals of [`Board::goal_list`], then the
    /// parkings).
    words: usize,
    /// For each slot, the slots of its area of a lower rank (`words` words per slot): the
    /// ranks' total order.
    ranked: Vec<u64>,
    /// For each slot, the slots to be done before it in the plan's partial order (`words`
    /// words per slot): a box on the slot is packed once they are.
    before: Vec<u64>,
}

/// For each cell of `board`, the index of its goal in [`Board::goal_list`], `u16::MAX` off the
/// goals.
fn goal_index(board: &Board) -> Vec<u16> {
    let mut at = vec![u16::MAX; board.cells()];
    for (k, &g) in board.goal_list.iter().enumerate() {
        at[g as usize] = k as u16;
    }
    at
}

/// The goal areas of `board`: goals side by side, or with one floor cell between them, are in
/// the same area. One number per goal of [`Board::goal_list`], the areas numbered from 0 in
/// the order of their first goal. `goal_at` is [`goal_index`]'s table.
fn goal_areas(board: &Board, goal_at: &[u16]) -> Vec<u16> {
    let goals = &board.goal_list;
    let mut area = vec![u16::MAX; goals.len()];
    let mut next = 0u16;
    for start in 0..goals.len() {
        if area[start] != u16::MAX {
            continue;
        }
        area[start] = next;
        let mut stack = vec![start];
        while let Some(k) = stack.pop() {
            for &a in &board.neighbors[goals[k] as usize] {
                if a == NONE {
                    continue;
                }
                // The goal next door, and the goals beside a floor cell next door.
                let beyond = if board.is_goal(a) {
                    vec![a]
                } else {
                    board.neighbors[a as usize].to_vec()
                };
                for b in beyond {
                    let j = if b == NONE {
                        u16::MAX
                    } else {
                        goal_at[b as usize]
                    };
                    if j != u16::MAX && area[j as usize] == u16::MAX {
                        area[j as usize] = next;
                        stack.push(j as usize);
                    }
                }
            }
        }
        next += 1;
    }
    area
}

impl PackingPlan {
    /// The plan of `board`.
    pub fn new(board: &Board) -> PackingPlan {
        let n = board.cells();
        let goals = board.goal_list.len();
        // The retrograde analysis, from the player's side where the goals divide the floor,
        // with parking when every parked box leaves again.
        let order = best_retrograde(board);
        let Retrograde {
            slot_cell,
            parked_from,
            removed_in,
            rounds: round,
            ..
        } = &order;
        let round = *round;
        // Slots no pull frees are filled first, with the last round's.
        let last = round.saturating_sub(1);
        let rank_of = |r: u16| if r == u16::MAX { 0 } else { last - r };
        let rank: Vec<u16> = removed_in[..goals].iter().map(|&r| rank_of(r)).collect();
        let basin: Vec<CellSet> = board
            .goal_list
            .iter()
            .map(|&t| {
                let mut walls = board.goals.clone();
                walls.remove(t);
                let mut set = CellSet::new(n);
                for c in pull_cells(board, &walls, t, |_| true, |_, _| false).0 {
                    set.insert(c);
                }
                set
            })
            .collect();
        // The wider basins of the out-of-plan matching (levels of up to 64 goals, plans
        // without parking).
        let goal_at = goal_index(board);
        let area = goal_areas(board, &goal_at);
        let matched = goals <= 64 && slot_cell.len() == goals;
        let mut basin_goals = vec![0u64; if matched { n } else { 0 }];
        if matched {
            for (k, &t) in board.goal_list.iter().enumerate() {
                // The goals of its area standing when the analysis freed this one: its rank and
                // lower. The analysis frees the goals of every area in the same rounds, but the
                // areas are packed independently, so another area's goals are no walls here.
                let mut walls = CellSet::new(n);
                for (j, &g) in board.goal_list.iter().enumerate() {
                    if j != k && area[j] == area[k] && rank[j] <= rank[k] {
                        walls.insert(g);
                    }
                }
                for c in pull_cells(board, &walls, t, |_| true, |_, _| false).0 {
                    basin_goals[c as usize] |= 1 << k;
                }
            }
        }
        let parking: Vec<Parking> = (goals..slot_cell.len())
            .map(|s| Parking {
                cell: slot_cell[s],
                goal: parked_from[s],
                goal_cell: board.goal_list[parked_from[s] as usize],
                rank: rank_of(removed_in[s]),
            })
            .collect();
        let mut parking_at = vec![u16::MAX; n];
        for (i, p) in parking.iter().enumerate().rev() {
            parking_at[p.cell as usize] = i as u16;
        }
        let slot_rank: Vec<u16> = rank
            .iter()
            .copied()
            .chain(parking.iter().map(|p| p.rank))
            .collect();
        let slot_area: Vec<u16> = area
            .iter()
            .copied()
            .chain(parking.iter().map(|p| area[p.goal as usize]))
            .collect();
        let words = slot_rank.len().div_ceil(64).max(1);
        let ranked = ranked_order(&slot_rank, &slot_area, words);
        // With parking the partial order is the ranks' order.
        let before = if parking.is_empty() {
            partial_order(board, &order, &goal_at, &slot_rank, &slot_area, words)
        } else {
            ranked.clone()
        };
        PackingPlan {
            rank,
            basin,
            basin_goals,
            area,
            goal_at,
            parking,
            parking_at,
            words,
            ranked,
            before,
        }
    }

    /// Whether goal `k` (an index of [`Board::goal_list`]) holds a box placed in the packing
    /// order: a box on it, and every slot before it done. `done` is
    /// [`PackingPlan::with_done`]'s.
    fn is_packed(&self, board: &Board, boxes: &CellSet, done: &[u64], k: usize) -> bool {
        boxes.contains(board.goal_list[k]) && self.in_order(done, k)
    }

    /// Whether every slot before slot `k` in the partial order is done: filled, slot `k` is
    /// packed.
    fn in_order(&self, done: &[u64], k: usize) -> bool {
        Self::all_done(&self.before, self.words, done, k)
    }

    /// Whether every slot of `order` (`words` words per slot) before slot `k` is done.
    fn all_done(order: &[u64], words: usize, done: &[u64], k: usize) -> bool {
        order[k * words..(k + 1) * words]
            .iter()
            .zip(done)
            .all(|(&b, &d)| b & !d == 0)
    }

    /// Whether the box on `b` stands on a slot packed in order ([`PackingPlan::is_packed`]
    /// for the box's goal, found by table).
    fn packed_box(&self, done: &[u64], b: u16) -> bool {
        let k = self.goal_at[b as usize];
        if k != u16::MAX {
            return self.in_order(done, k as usize);
        }
        let i = self.parking_at[b as usize];
        i != u16::MAX && self.in_order(done, self.parking_slot(i as usize))
    }

    /// The slot number of parking `i`: after the goals'.
    fn parking_slot(&self, i: usize) -> usize {
        self.rank.len() + i
    }

    /// Whether parking `p` is done: a box on it, or on its goal (the box has moved on).
    fn parking_done(boxes: &CellSet, p: &Parking) -> bool {
        boxes.contains(p.cell) || boxes.contains(p.goal_cell)
    }

    /// The packing feature: the goal boxes and done parkings in order, counted once in the
    /// partial order and once in the ranks' total order (see the module documentation). A
    /// goal holds one box, so the boxes on goals in order are the goals packed; a box moving
    /// from its parking cell to its goal gains one in each order.
    fn count_packed(&self, boxes: &CellSet, done: &[u64]) -> u32 {
        let w = self.words;
        let in_both = |k: usize| {
            u32::from(Self::all_done(&self.before, w, done, k))
                + u32::from(Self::all_done(&self.ranked, w, done, k))
        };
        let on_goals: u32 = boxes
            .iter()
            .map(|b| self.goal_at[b as usize])
            .filter(|&k| k != u16::MAX)
            .map(|k| in_both(k as usize))
            .sum();
        let parked: u32 = (0..self.parking.len())
            .filter(|&i| Self::parking_done(boxes, &self.parking[i]))
            .map(|i| in_both(self.parking_slot(i)))
            .sum();
        on_goals + parked
    }

    /// Whether a box entering or leaving `c` can change the packing features: a goal or a
    /// parking cell.
    pub fn is_slot(&self, c: u16) -> bool {
        self.goal_at[c as usize] != u16::MAX || self.parking_at[c as usize] != u16::MAX
    }

    /// Call `f` with the set of slots done (a goal with a box, a parking with a box on it or
    /// its goal), held on the stack for up to 512 slots (the features of every candidate
    /// move need it, so it is not allocated).
    fn with_done<R>(&self, board: &Board, boxes: &CellSet, f: impl FnOnce(&[u64]) -> R) -> R {
        let words = self.words;
        let fill = |done: &mut [u64]| {
            for (k, &g) in board.goal_list.iter().enumerate() {
                if boxes.contains(g) {
                    done[k / 64] |= 1 << (k % 64);
                }
            }
            for (i, p) in self.parking.iter().enumerate() {
                if Self::parking_done(boxes, p) {
                    let k = self.parking_slot(i);
                    done[k / 64] |= 1 << (k % 64);
                }
            }
        };
        if words <= 8 {
            let mut done = [0u64; 8];
            fill(&mut done[..words]);
            f(&done[..words])
        } else {
            let mut done = vec![0u64; words];
            fill(&mut done);
            f(&done)
        }
    }

    /// The packing feature: goal boxes (and done parkings) placed in the partial order, plus
    /// those placed in the ranks' total order.
    pub fn packed(&self, board: &Board, boxes: &CellSet) -> u32 {
        self.with_done(board, boxes, |done| self.count_packed(boxes, done))
    }

    /// [`PackingPlan::packed`] and [`PackingPlan::out_of_plan`] of one position, the areas'
    /// done slots found once (the features of every candidate move need both).
    pub fn packed_and_out_of_plan(
        &self,
        board: &Board,
        boxes: &CellSet,
        mask: &mut CellSet,
    ) -> (u32, u32) {
        self.with_done(board, boxes, |done| {
            let packed = self.count_packed(boxes, done);
            (packed, self.out_of_plan_at(board, boxes, done, mask))
        })
    }

    /// Whether out of plan counts the boxes its matching leaves over (levels of up to 64
    /// goals, plans without parking; see [`PackingPlan::out_of_plan`]).
    pub fn has_matching(&self) -> bool {
        !self.basin_goals.is_empty()
    }

    /// The goals still to be packed, as a bit set (levels of up to 64 goals; 0 otherwise).
    pub fn unpacked_goals(&self, board: &Board, boxes: &CellSet) -> u64 {
        if !self.has_matching() {
            return 0;
        }
        self.with_done(board, boxes, |done| self.unpacked_at(board, boxes, done))
    }

    /// [`PackingPlan::unpacked_goals`] with the done slots already known.
    fn unpacked_at(&self, board: &Board, boxes: &CellSet, done: &[u64]) -> u64 {
        (0..self.rank.len())
            .filter(|&k| !self.is_packed(board, boxes, done, k))
            .fold(0, |set, k| set | 1 << k)
    }

    /// The goals still to be packed (`unpacked`, [`PackingPlan::unpacked_goals`]) whose wider
    /// basin holds cell `c`: a box on `c` has these edges in the out-of-plan matching.
    pub fn goals_for(&self, c: u16, unpacked: u64) -> u64 {
        self.basin_goals
            .get(c as usize)
            .map_or(0, |&g| g & unpacked)
    }

    /// [`PackingPlan::out_of_plan`] with the done slots already known.
    fn out_of_plan_at(
        &self,
        board: &Board,
        boxes: &CellSet,
        done: &[u64],
        mask: &mut CellSet,
    ) -> u32 {
        if !self.has_matching() {
            let mut out = 0;
            self.each_out_of_plan_at(board, boxes, done, mask, |_| out += 1);
            return out;
        }
        // The goals still to be packed, found once for the cells in plan and the matching.
        let unpacked = self.unpacked_at(board, boxes, done);
        let goals = (0..self.rank.len()).filter(|&k| unpacked & 1 << k != 0);
        self.union_of_basins(goals, mask);
        let mut edges = [0u64; 64];
        let mut count = 0;
        let mut out = 0;
        for b in boxes.iter() {
            if self.packed_box(done, b) {
                continue;
            }
            // A wider basin holds its goal's basin, so a box in no basin of a goal still to
            // be packed has no edge either.
            if !mask.contains(b) {
                out += 1;
            } else if count < 64 {
                edges[count] = self.basin_goals[b as usize] & unpacked;
                count += 1;
            }
        }
        out + count as u32 - max_matching(&edges[..count])
    }

    /// The cells still in plan: the union of the basins of the goals not packed. Written into
    /// `mask` (cleared first).
    pub fn in_plan(&self, board: &Board, boxes: &CellSet, mask: &mut CellSet) {
        self.with_done(board, boxes, |done| {
            self.in_plan_at(board, boxes, done, mask)
        });
    }

    /// [`PackingPlan::in_plan`] with the done slots already known.
    fn in_plan_at(&self, board: &Board, boxes: &CellSet, done: &[u64], mask: &mut CellSet) {
        let unpacked = (0..self.rank.len()).filter(|&k| !self.is_packed(board, boxes, done, k));
        self.union_of_basins(unpacked, mask);
    }

    /// The union of the basins of `goals`, written into `mask` (cleared first).
    fn union_of_basins(&self, goals: impl Iterator<Item = usize>, mask: &mut CellSet) {
        mask.clear();
        for k in goals {
            mask.union_with(&self.basin[k]);
        }
    }

    /// The out-of-plan feature: the boxes not packed that are in no basin of a goal still to
    /// be packed, plus the others that a largest matching of them to those goals leaves over,
    /// a box matching a goal whose wider basin holds it (see the module documentation; one
    /// of two boxes whose only goal is the same is left over). Levels of more than 64 goals
    /// and plans with parking count the first kind only. `mask` is scratch.
    pub fn out_of_plan(&self, board: &Board, boxes: &CellSet, mask: &mut CellSet) -> u32 {
        self.with_done(board, boxes, |done| {
            self.out_of_plan_at(board, boxes, done, mask)
        })
    }

    /// The boxes in no basin of a goal still to be packed (the boxes [`PackingPlan::out_of_plan`]
    /// always counts), written into `out`; `mask` is left holding [`PackingPlan::in_plan`].
    pub fn out_of_plan_boxes(
        &self,
        board: &Board,
        boxes: &CellSet,
        mask: &mut CellSet,
        out: &mut Vec<u16>,
    ) {
        out.clear();
        self.each_out_of_plan(board, boxes, mask, |b| out.push(b));
    }

    /// Call `f` with each box out of plan; `mask` is left holding [`PackingPlan::in_plan`].
    fn each_out_of_plan(
        &self,
        board: &Board,
        boxes: &CellSet,
        mask: &mut CellSet,
        f: impl FnMut(u16),
    ) {
        self.with_done(board, boxes, |done| {
            self.each_out_of_plan_at(board, boxes, done, mask, f)
        });
    }

    /// [`PackingPlan::each_out_of_plan`] with the done slots already known.
    fn each_out_of_plan_at(
        &self,
        board: &Board,
        boxes: &CellSet,
        done: &[u64],
        mask: &mut CellSet,
        mut f: impl FnMut(u16),
    ) {
        self.in_plan_at(board, boxes, done, mask);
        for b in boxes.iter() {
            if !mask.contains(b) && !self.packed_box(done, b) {
                f(b);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fess::test_levels::{board, cell, goal, xsokoban};

    #[test]
    fn a_dead_end_corridor_of_goals_fills_from_its_far_end() {
        // Goals at x = 1, 2, 3 of a corridor closed on the left: the far one first.
        let b = board("########\n#...   #\n#### $ #\n#  $ $@#\n#      #\n########\n");
        let plan = PackingPlan::new(&b);
        let rank_of = |x| plan.rank[goal(&b, x, 1)];
        assert!(rank_of(1) < rank_of(2) && rank_of(2) < rank_of(3));
        // A box on the entrance goal only: on a goal, not packed.
        assert_packed_as_filled(&b, &plan, 1, &[(3, 0), (1, 2), (2, 6)]);
    }

    /// Boxes put on the goals of row `y` at the given columns one after another: the packing
    /// feature after each is the number given with it (a box packed in both orders counts
    /// twice).
    fn assert_packed_as_filled(b: &Board, plan: &PackingPlan, y: usize, fills: &[(usize, u32)]) {
        let mut boxes = CellSet::new(b.cells());
        for &(x, packed) in fills {
            boxes.insert(cell(b, x, y));
            assert_eq!(plan.packed(b, &boxes), packed, "after the goal at x = {x}");
        }
    }

    #[test]
    fn goal_areas_far_apart_are_packed_independently() {
        // A corridor of three goals on the left, one goal on the right: filling the right
        // goal counts although the left corridor's deepest goal is still empty.
        let b = board("###########\n#...  @  .#\n####$ $ $##\n#   $     #\n###########\n");
        let plan = PackingPlan::new(&b);
        let area_of = |x| plan.area[goal(&b, x, 1)];
        assert_eq!(area_of(1), area_of(3));
        assert_ne!(area_of(1), area_of(9));
        // The left corridor's entrance goal alone is not packed.
        assert_packed_as_filled(&b, &plan, 1, &[(9, 2), (3, 2), (1, 4)]);
    }

    #[test]
    fn a_goal_room_with_two_entrances_is_emptied_through_either() {
        // Two goals side by side, reachable from the left or the right end of the row, the
        // row below walled: each goal can leave through its own side.
        let b = board("###########\n#   ..    #\n### ## ####\n#@  $$    #\n###########\n");
        let plan = PackingPlan::new(&b);
        assert_eq!(plan.rank, vec![0, 0], "both leave in the first round");
    }

    #[test]
    fn goals_filled_by_another_entrance_do_not_wait_for_this_one() {
        // A row of four goals (x = 5..8) between walls, entered from either end, two boxes on
        // each side. The outer goals leave first, then the inner ones: the ranks order the
        // inner pair before the outer pair, but the left pair leaves by the left end and the
        // right pair by the right end, so the left pair fills without the right one.
        let b = board(
            "##############\n#            #\n#    ####    #\n#  $ .... $  #\n#  $ #### $  #\n#     @      #\n##############\n",
        );
        let plan = PackingPlan::new(&b);
        let rank_of = |x| plan.rank[goal(&b, x, 3)];
        assert_eq!(rank_of(6), rank_of(7));
        assert_eq!(rank_of(5), rank_of(8));
        assert!(rank_of(6) < rank_of(5));
        // The outer left goal alone: it waits for the inner one (a box leaving the inner
        // goal passes it). Then both left goals count in the partial order, the right pair
        // still empty, and the inner one in the ranks' order too (each box counts once per
        // order it is packed in).
        assert_packed_as_filled(&b, &plan, 3, &[(5, 0), (6, 3), (8, 3), (7, 8)]);
    }

    #[test]
    fn an_entrance_no_box_can_be_brought_to_does_not_order_the_goals() {
        // A shaft of two goals (column 6) open above to the boxes' room and below to a room
        // the player reaches by the corridor of column 5. A box pushed down that corridor
        // leaves the player behind it, so no box can come up into the shaft from below: the
        // shaft fills from above, its bottom goal first.
        let b = board(
            "########\n#   #  #\n#@ $$  #\n#### #.#\n#### #.#\n####   #\n####   #\n########\n",
        );
        let plan = PackingPlan::new(&b);
        assert!(plan.rank[goal(&b, 6, 4)] < plan.rank[goal(&b, 6, 3)]);
    }

    #[test]
    fn a_start_box_fills_one_goal() {
        // The box of row 1 reaches both goals of its corridor, the player coming round it
        // through either gap; the boxes of row 4 reach only the goal between them. Two goals
        // cannot both take the last box of row 1: one of them is filled before the other.
        let b = board("##########\n#.  $   .#\n## ### ###\n#   @    #\n# $  . $ #\n##########\n");
        let plan = PackingPlan::new(&b);
        assert_ne!(plan.rank[goal(&b, 1, 1)], plan.rank[goal(&b, 8, 1)]);
    }

    #[test]
    fn boxes_outside_every_basin_are_out_of_plan() {
        // Two goals at the top of a two-wide shaft over a room; the start boxes stand in the
        // room under the shaft, from where they can still be pushed up: in plan. A box in the
        // room's top-left corner (a dead square) can reach no goal: out of plan.
        let b = board("######\n##..##\n##  ##\n#    #\n# $$ #\n#@   #\n######\n");
        let plan = PackingPlan::new(&b);
        let mut mask = CellSet::new(b.cells());
        let start = b.start_boxes.clone();
        assert_eq!(plan.out_of_plan(&b, &start, &mut mask), 0);
        for &t in &b.goal_list {
            assert!(mask.contains(t));
        }
        let corner = cell(&b, 1, 3);
        assert!(b.is_dead(corner));
        assert!(!mask.contains(corner));
        let mut boxes = CellSet::new(b.cells());
        boxes.insert(corner);
        boxes.insert(cell(&b, 3, 4));
        assert_eq!(plan.out_of_plan(&b, &boxes, &mut mask), 1);
    }
    /// The largest matching found by trying every goal (or none) for each box in turn.
    fn brute_matching(edges: &[u64], taken: u64) -> u32 {
        let Some((&e, rest)) = edges.split_first() else {
            return 0;
        };
        let mut best = brute_matching(rest, taken);
        for g in 0..8 {
            if e & !taken & (1 << g) != 0 {
                best = best.max(1 + brute_matching(rest, taken | 1 << g));
            }
        }
        best
    }

    proptest::proptest! {
        /// Kuhn's algorithm finds a largest matching: as large as the brute force's.
        #[test]
        fn max_matching_is_as_large_as_brute_force(
            edges in proptest::collection::vec(0u64..256, 0..8),
        ) {
            proptest::prop_assert_eq!(max_matching(&edges), brute_matching(&edges, 0));
        }
    }

    #[test]
    fn a_goal_whose_boxes_were_all_taken_elsewhere_leaves_a_box_out_of_plan() {
        // XSokoban 20: the bottom-left goal of the goal column (x = 14, y = 13) is filled last,
        // with every other goal full, so only a box in the column above it can still reach it
        // (the pockets that let a box change columns are goals). Take the five boxes of that
        // column elsewhere: every box is still in some goal's basin, but two boxes compete
        // for the goal all the others need, so one is out of plan.
        let b = xsokoban(20);
        let plan = PackingPlan::new(&b);
        let mut mask = CellSet::new(b.cells());
        let start = b.start_boxes.clone();
        assert_eq!(plan.out_of_plan(&b, &start, &mut mask), 0);
        let mut boxes = start.clone();
        let column: Vec<u16> = [4, 6, 8, 10, 12].map(|y| cell(&b, 14, y)).to_vec();
        for &c in &column {
            assert!(boxes.contains(c));
            boxes.remove(c);
        }
        // Five free floor cells of the left part, in plan and not dead.
        let mut moved = 0;
        for c in 0..b.cells() as u16 {
            let (x, _) = b.xy(c);
            if moved < column.len()
                && x < 12
                && !boxes.contains(c)
                && !b.is_goal(c)
                && !b.is_dead(c)
                && mask.contains(c)
            {
                boxes.insert(c);
                moved += 1;
            }
        }
        assert_eq!(moved, column.len());
        let mut outside = Vec::new();
        plan.out_of_plan_boxes(&b, &boxes, &mut mask, &mut outside);
        assert!(outside.is_empty(), "every box is in some basin");
        assert_eq!(plan.out_of_plan(&b, &boxes, &mut mask), 1);
    }

    #[test]
    fn another_areas_goals_do_not_wall_a_goals_wider_basin() {
        // XSokoban 90 on the way FESS solves it: the goals of the bottom-right room, the
        // top-left corner and the lone goal at (12, 7) are packed independently. The lone
        // goal stands in the one-wide passage between the top and the bottom of the level;
        // the retrograde analysis freed it in an earlier round than the bottom-right room's
        // entrance goals, but filling it first is no part of the room's plan, so it must not
        // cut the room's wider basins off from the boxes above it.
        let b = xsokoban(90);
        let plan = PackingPlan::new(&b);
        let (lone, room) = (goal(&b, 12, 7), goal(&b, 18, 13));
        assert_ne!(plan.area[lone], plan.area[room]);
        let picture = [
            "####################",
            "#**#@   #          #",
            "#*      # $  $## $##",
            "#. # $###  ## ##   #",
            "#  #   # $    $  $ #",
            "# ###  # #$ #$  ####",
            "#  ## # $   #  #   #",
            "# $$      ##*##    #",
            "#  # $# $#       ###",
            "#  #  #  #   ###   #",
            "#  ######## #      #",
            "#           #  #.#.#",
            "##$######## #   ...#",
            "#    .*  #    ##.#*#",
            "# .*...*   $  ....*#",
            "####################",
        ];
        let mut boxes = CellSet::new(b.cells());
        for (y, row) in picture.iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                if ch == '$' || ch == '*' {
                    boxes.insert(cell(&b, x, y));
                }
            }
        }
        assert_eq!(boxes.iter().count(), b.goal_list.len());
        let mut mask = CellSet::new(b.cells());
        assert_eq!(plan.out_of_plan(&b, &boxes, &mut mask), 0);
    }

    #[test]
    fn a_level_the_goals_divide_is_planned_from_the_players_side() {
        // XSokoban 72: the block of 4 × 2 goals at the top closes the corridor between the
        // player's corner (left) and the room of the boxes (right). From the left only four
        // boxes can be brought to the block; planned from the room, every box is claimed and
        // the block fills from the room's side, its upper row first.
        let b = xsokoban(72);
        assert_eq!(sides(&b).len(), 2);
        let any_side = retrograde_parked_if_it_leaves(&b, None);
        assert!(any_side.claimed < 16);
        let order = best_retrograde(&b);
        assert_eq!(order.claimed, 16);
        assert!(order.side.is_some());
        let plan = PackingPlan::new(&b);
        for x in 7..=10 {
            for x2 in 7..=10 {
                assert!(plan.rank[goal(&b, x, 1)] < plan.rank[goal(&b, x2, 2)]);
            }
        }
        // The upper row fills from its far end, by the corridor's right side.
        assert!(plan.rank[goal(&b, 10, 1)] < plan.rank[goal(&b, 7, 1)]);
    }

    #[test]
    fn a_level_the_goals_do_not_divide_keeps_the_plan_from_any_side() {
        // XSokoban 1: the goal room is entered from the one area holding the boxes.
        let b = xsokoban(1);
        assert!(sides(&b).len() < 2);
        assert!(best_retrograde(&b).side.is_none());
    }

    #[test]
    fn a_goal_room_that_needs_parking_gets_a_complete_plan() {
        // XSokoban 87: a room of 4 × 3 goals entered from the left of its middle row only.
        // With every goal full no box of the top or bottom row can be pulled out: each
        // needs the row beyond the middle one free. Boxes parked in the pocket above the
        // room (row 9, reached only through the room) free them.
        let b = xsokoban(87);
        let plan = PackingPlan::new(&b);
        assert!(!plan.parking.is_empty());
        for p in &plan.parking {
            assert_eq!(b.xy(p.cell).1, 9, "a parking cell above the room");
            assert!(
                p.rank < plan.rank[p.goal as usize],
                "parked before it takes its goal"
            );
        }
        // The entrance goal is filled last.
        let entrance = plan.rank[goal(&b, 11, 11)];
        assert!(plan.rank.iter().all(|&r| r <= entrance));
        // A parked box moving on to its goal gains one in each order, once every slot before
        // it is done.
        let p = plan.parking[0];
        let mut boxes = CellSet::new(b.cells());
        for (k, &g) in b.goal_list.iter().enumerate() {
            if plan.rank[k] < plan.rank[p.goal as usize] {
                boxes.insert(g);
            }
        }
        for q in &plan.parking {
            if q.rank < plan.rank[p.goal as usize] && q.goal != p.goal {
                boxes.insert(q.cell);
            }
        }
        assert!(!boxes.contains(p.cell));
        boxes.insert(p.cell);
        let parked = plan.packed(&b, &boxes);
        boxes.remove(p.cell);
        boxes.insert(p.goal_cell);
        assert_eq!(plan.packed(&b, &boxes), parked + 2);
    }
}
