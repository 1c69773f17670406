//! FESS, the feature space search of Shoham & Schaeffer, "The FESS Algorithm: A Feature
//! Based Approach to Single-Agent Search" (IEEE CoG 2020), as a search of its own
//! (`--algo fess`; see `docs/METHODS.md#sokoban-fess`).
//!
//! - **Moves** are macro moves (§III-D, [`macros`]): one box from its cell to any cell it
//!   reaches by pushes, the other boxes standing still.
//! - **Features** (§III-B): packing ([`plan`]: boxes on goals in the order of a retrograde
//!   analysis), connectivity (free-floor areas), room connectivity ([`rooms`]: room links
//!   obstructed by boxes) and out of plan ([`plan`]: boxes outside the basins of the goals
//!   still to be packed). A position's cell in the feature space is these four values.
//! - **Advisors** (§III-E, [`advisors`]): seven, each suggesting at most one move of a new
//!   position; suggested moves weigh 0, the others 1.
//! - **Search** (§II, Fig. 2): every position of the tree belongs to its cell, or to its best
//!   ancestor's when it is no better than that ancestor (the authors' longer write-up, §3,
//!   "restricting the number of cells"); the search goes round the non-empty cells in turn
//!   and, in each, expands the unexpanded move of least accumulated weight (the parent's
//!   weight plus the move's) among the positions of that cell, ties broken by the features of
//!   the position it leads to (out of plan, packed, connectivity, room connectivity, hotspots,
//!   mobility; the order of the authors' longer write-up). A transposition table keeps each
//!   position once (§II-A); a position with no moves left whose every child is a dead end is
//!   a dead end too, up the tree (§II-A). The project's deadlock tests prune moves: dead
//!   squares (never entered), freeze and closed diagonal around the moved box, corral
//!   deadlocks and the bipartite test with frozen boxes as walls (the write-up's appendix)
//!   of a new position, and PI-corral pruning (only moves whose first push goes into the
//!   PI-corral).
//! - **Deadlocks** found by a search of the position (corral, cluster and room searches, the
//!   matchings with frozen boxes) are tested when a move is chosen: a move into a position
//!   proved dead is used up like a transposition, and the position never joins the tree.
//! - **Budget**: a position added to the tree is an expansion (the budget's iterations); each
//!   position counts as a node against `max_nodes` (memory) and each stored move as a sixth
//!   of one; the clock and stop flag are read at every expansion and every discarded position.

pub mod advisors;
pub mod hotspot;
pub mod macros;
pub mod plan;
pub mod rooms;
#[cfg(test)]
pub(crate) mod test_levels;

use crate::bipartite::FrozenMatching;
use crate::board::{Board, CellSet, NONE};
use crate::corral::CorralPruner;
use crate::corraldl::CorralDeadlock;
use crate::deadlock::{closed_diagonal_deadlock, window_has_enclosed_after_move, FreezeCheck};
use crate::dir::Dir;
use crate::outcome::SearchOutcome;
use crate::position::{count_regions_beside_player, generate_pushes, Position, Push, Reach};
use crate::sidematch::SideMatching;
pub use advisors::Sharing;
use advisors::{advise, Candidate, Context};
use hotspot::Hotspots;
use macros::{MacroGen, MacroMove};
use plan::PackingPlan;
use puzzle_engine::{Budget, FxHashMap, StopReason};
use rooms::Rooms;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The features of a position: the four of the feature space (§III-B) and the two the
/// search breaks ties with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Features {
    /// Boxes on goals in the packing order ([`PackingPlan::packed`]).
    pub packed: u32,
    /// Connected areas of free floor ([`crate::position::count_regions`]).
    pub regions: u32,
    /// Room links obstructed by boxes ([`Rooms::obstructed_links`]).
    pub rooms: u32,
    /// Boxes out of plan ([`PackingPlan::out_of_plan`]).
    pub out_of_plan: u32,
    /// Boxes that are hotspots ([`Hotspots::count`]); tie-breaks only.
    pub hotspots: u32,
    /// Box sides the player reaches; tie-breaks only.
    pub mobility: u32,
}

impl Features {
    /// The cell of the feature space: packed, connectivity, room connectivity, out of plan.
    pub fn cell(&self) -> u64 {
        u64::from(self.packed.min(0xffff))
            | u64::from(self.regions.min(0xffff)) << 16
            | u64::from(self.rooms.min(0xffff)) << 32
            | u64::from(self.out_of_plan.min(0xffff)) << 48
    }

    /// The four feature-space values in the paper's order of importance as one key (smaller
    /// is better): fewer out of plan, more packed, fewer areas, fewer obstructed room links.
    pub fn rank(&self) -> u32 {
        (self.order() >> 32) as u32
    }

    /// The tie-break key (smaller is better): fewer out of plan, more packed, fewer areas,
    /// fewer obstructed room links, fewer hotspots, more mobility.
    pub fn order(&self) -> u64 {
        u64::from(self.out_of_plan.min(0xff)) << 56
            | u64::from(0xff - self.packed.min(0xff)) << 48
            | u64::from(self.regions.min(0xff)) << 40
            | u64::from(self.rooms.min(0xff)) << 32
            | u64::from(self.hotspots.min(0xff)) << 24
            | u64::from(0xff_ffff - self.mobility.min(0xff_ffff))
    }
}

/// What FESS knows of a level before it searches: the packing plan, the rooms and the
/// hotspot table.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// Packing order and basins.
    pub plan: PackingPlan,
    /// Rooms and their links.
    pub rooms: Rooms,
    /// The hotspot table.
    pub hotspots: Hotspots,
    /// The cells in plan ([`PackingPlan::in_plan`]) of the position last given to
    /// [`Analysis::set_parent`].
    parent_in_plan: CellSet,
    /// The goals still to be packed ([`PackingPlan::unpacked_goals`]) of that position.
    parent_unpacked: u64,
}

impl Analysis {
    /// Analyse `board`.
    pub fn new(board: &Board) -> Analysis {
        Analysis {
            plan: PackingPlan::new(board),
            rooms: Rooms::new(board),
            hotspots: Hotspots::new(board),
            parent_in_plan: CellSet::new(board.cells()),
            parent_unpacked: 0,
        }
    }

    /// The features of the position `boxes` whose player's area `reach` was just computed
    /// (it is flooded further for the connectivity count). `mask` is scratch.
    pub fn features(
        &mut self,
        board: &Board,
        boxes: &CellSet,
        reach: &mut Reach,
        mask: &mut CellSet,
    ) -> Features {
        let rooms = self.rooms.obstructed_links(board, boxes);
        // The area count floods `reach` further: after the features that read it.
        let mut features = self.features_with_counts(board, boxes, reach, (rooms, 0));
        features.regions = count_regions_beside_player(board, boxes, reach);
        (features.packed, features.out_of_plan) =
            self.plan.packed_and_out_of_plan(board, boxes, mask);
        features
    }

    /// [`Analysis::features`] of a child of the position last given to
    /// [`Analysis::set_parent`], whose features are `parent`: `boxes` is that position after
    /// the macro move `m`, so only the rooms the move touches are flooded again
    /// ([`Rooms::obstructed_links_after_move`]), the areas are the parent's plus those the
    /// move adds ([`MacroMove::areas_added`]), and a move that neither leaves nor enters a
    /// goal keeps the parent's packing and cells in plan (and its out of plan, unless the
    /// box's goals in the out-of-plan matching change); the features are the same.
    /// `reach` holds the child's player area.
    pub fn child_features(
        &mut self,
        board: &Board,
        boxes: &CellSet,
        (parent, m): (&Features, &MacroMove),
        reach: &Reach,
        mask: &mut CellSet,
    ) -> Features {
        let rooms = self
            .rooms
            .obstructed_links_after_move(board, boxes, m.from, m.to);
        let regions = parent
            .regions
            .saturating_add_signed(i32::from(m.areas_added));
        let mut features = self.features_with_counts(board, boxes, reach, (rooms, regions));
        // Which goals hold boxes decides the packing order's progress and so the cells in
        // plan: a move between two cells that are not goals changes neither. Out of plan
        // stays the parent's when the moved box keeps its goals in the matching and its side
        // of the cells in plan (without the matching it changes by the moved box alone);
        // otherwise it is counted again.
        if self.plan.is_slot(m.from) || self.plan.is_slot(m.to) {
            (features.packed, features.out_of_plan) =
                self.plan.packed_and_out_of_plan(board, boxes, mask);
        } else {
            features.packed = parent.packed;
            let goals = |c: u16| self.plan.goals_for(c, self.parent_unpacked);
            features.out_of_plan = if !self.plan.has_matching() {
                let out = |c: u16| u32::from(!self.parent_in_plan.contains(c));
                parent.out_of_plan + out(m.to) - out(m.from)
            } else if goals(m.from) == goals(m.to)
                && self.parent_in_plan.contains(m.from) == self.parent_in_plan.contains(m.to)
            {
                parent.out_of_plan
            } else {
                self.plan.out_of_plan(board, boxes, mask)
            };
        }
        features
    }

    /// Take `boxes` as the parent of the next [`Analysis::child_features`].
    pub fn set_parent(&mut self, board: &Board, boxes: &CellSet) {
        self.rooms.set_base(board, boxes);
        self.plan.in_plan(board, boxes, &mut self.parent_in_plan);
        self.parent_unpacked = self.plan.unpacked_goals(board, boxes);
    }

    /// [`Analysis::features`] with the room-connectivity and area counts already known, the
    /// packing counts left zero for the caller.
    fn features_with_counts(
        &mut self,
        board: &Board,
        boxes: &CellSet,
        reach: &Reach,
        (rooms, regions): (u32, u32),
    ) -> Features {
        Features {
            packed: 0,
            regions,
            rooms,
            out_of_plan: 0,
            hotspots: self.hotspots.count(board, boxes),
            mobility: reach.box_sides_reached(board, boxes),
        }
    }
}

/// No node (the root's parent).
const NO_NODE: u32 = u32::MAX;

/// A position of the search tree.
#[derive(Clone, Copy, Debug)]
struct Node {
    parent: u32,
    /// The move from the parent.
    m: MacroMove,
    /// The normalized player.
    player: u16,
    /// Unexpanded moves plus children that are not dead ends.
    pending: u32,
    dead: bool,
    /// The cell the position belongs to: its own, or its best ancestor's when it is no
    /// better than that ancestor.
    home: u32,
    /// The feature-space key ([`Features::rank`]) of the best position on the path to it.
    best: u32,
    /// The accumulated weight of the path to it.
    weight: u32,
    /// Its moves are `Tree::moves[first..end]`, the advised ones (weight 0) before
    /// `advised_end`, each part in the tie-break order.
    first: u32,
    advised_end: u32,
    end: u32,
}

/// A stored move: the move and the tie-break key ([`Features::order`]) of the position it
/// leads to.
#[derive(Clone, Copy, Debug)]
struct Stored {
    m: MacroMove,
    order: u64,
}

/// A cell's queue entry for a position with moves left: its next move's accumulated weight,
/// tie-break key and index in `Tree::moves`, and the position.
type Entry = Reverse<(u32, u64, u32, u32)>;

/// A cell of the feature space: one entry per position with unexpanded moves, for its next
/// move, so that the cell yields its positions' moves least accumulated weight first, then by
/// the tie-break order of the position they lead to, then oldest first (each position's moves
/// are stored in that order).
#[derive(Default)]
struct Cell {
    moves: BinaryHeap<Entry>,
    active: bool,
}

/// The stored moves that count as one node of the budget: a move takes 16 bytes, a
/// best-first search's position about 105 (docs/benchmarks/sokoban.md#fess, "Budgets").
const MOVES_PER_NODE: usize = 6;

/// The search tree, the transposition table and the feature space.
struct Tree {
    nodes: Vec<Node>,
    words: Vec<u64>,
    words_per: usize,
    table: FxHashMap<u64, u32>,
    moves: Vec<Stored>,
    cells: Vec<Cell>,
    cell_of: FxHashMap<u64, u32>,
    /// The non-empty cells in the order they were first filled (the round).
    round: Vec<u32>,
}

impl Tree {
    /// The nodes held, as the node budget counts them: each position one, each stored move
    /// a sixth of one. A move takes 16 bytes against about 100 for a position (its 44-byte
    /// node, boxes, table entry and 24-byte queue entry), so a budget of `n` nodes holds
    /// about the memory of `n` positions of the best-first searches (about 105 bytes each).
    fn held(&self) -> usize {
        Self::held_with(self.nodes.len(), self.moves.len())
    }

    /// [`Tree::held`] for `positions` positions and `moves` stored moves.
    fn held_with(positions: usize, moves: usize) -> usize {
        positions + moves.div_ceil(MOVES_PER_NODE)
    }

    /// The queue entry of node `k`'s next move, if it has one left.
    fn entry(&self, k: u32) -> Option<Entry> {
        let n = &self.nodes[k as usize];
        (n.first < n.end).then(|| {
            let w = n.weight + u32::from(n.first >= n.advised_end);
            Reverse((w, self.moves[n.first as usize].order, n.first, k))
        })
    }

    fn boxes(&self, board: &Board, k: u32) -> CellSet {
        let mut set = CellSet::new(board.cells());
        let w = self.words_per;
        set.set_words(&self.words[k as usize * w..(k as usize + 1) * w]);
        set
    }

    fn find(&self, board: &Board, key: u64, boxes: &CellSet, player: u16) -> Option<u32> {
        let &k = self.table.get(&key)?;
        (self.nodes[k as usize].player == player && self.boxes(board, k) == *boxes).then_some(k)
    }

    fn new(words_per: usize) -> Tree {
        Tree {
            nodes: Vec::new(),
            words: Vec::new(),
            words_per,
            table: FxHashMap::default(),
            moves: Vec::new(),
            cells: Vec::new(),
            cell_of: FxHashMap::default(),
            round: Vec::new(),
        }
    }

    /// The cell of a position with `features` whose parent is `parent`, and the rank of the
    /// best position on its path: its own cell when it is better than every position on its
    /// path, else its best ancestor's (the write-up's restriction of the cells, its §3), so
    /// worse positions compete by weight in that cell instead of opening cells of their own.
    fn place(&mut self, parent: u32, features: &Features) -> (u32, u32) {
        let rank = features.rank();
        match self.nodes.get(parent as usize) {
            Some(p) if rank >= p.best => (p.home, p.best),
            _ => (self.cell(features), rank),
        }
    }

    fn cell(&mut self, f: &Features) -> u32 {
        let next = self.cells.len() as u32;
        let id = *self.cell_of.entry(f.cell()).or_insert(next);
        if id == next {
            self.cells.push(Cell::default());
        }
        id
    }

    /// A node's move or child is gone: one less pending; a node with none left is a dead
    /// end, and so on up the tree.
    fn settle(&mut self, mut k: u32) {
        while k != NO_NODE {
            let n = &mut self.nodes[k as usize];
            n.pending = n.pending.saturating_sub(1);
            if n.pending > 0 || n.dead {
                return;
            }
            n.dead = true;
            k = n.parent;
        }
    }
}

/// Scratch and level knowledge for expanding positions.
struct Expander {
    analysis: Analysis,
    gen: MacroGen,
    reach: Reach,
    child_reach: Reach,
    mask: CellSet,
    freeze: FreezeCheck,
    corrals: CorralPruner,
    corral_dl: CorralDeadlock,
    bipartite: FrozenMatching,
    side_match: SideMatching,
    /// The room area of each cell and the areas ([`Rooms::areas`]), for the room deadlock
    /// search.
    room_area_of: Vec<u16>,
    room_areas: Vec<CellSet>,
    pushes: Vec<Push>,
    moves: Vec<MacroMove>,
    cands: Vec<Candidate>,
    advised: Vec<bool>,
    blocked: Vec<(u16, u32)>,
    /// How the advisors share out their suggestions.
    sharing: Sharing,
    /// Scratch: the candidates in the order their cell takes them (unadvised, tie-break key,
    /// index).
    sorted: Vec<(bool, u64, usize)>,
}

/// The positions a corral-deadlock search may store ([`CorralDeadlock`]).
const CORRAL_SEARCH_LIMIT: usize = 300;

/// The positions a cluster search may store ([`CorralDeadlock::is_cluster_deadlock`]).
const CLUSTER_SEARCH_LIMIT: usize = 1000;

/// The positions a room search may store ([`CorralDeadlock::is_room_deadlock`]).
const ROOM_SEARCH_LIMIT: usize = 2000;

/// The most boxes a room search takes.
const ROOM_BOXES: usize = 8;

/// Whether the boxes of the room area (of `areas`: each cell's area and the areas) the box on
/// `moved` stands in are deadlocked ([`CorralDeadlock::is_room_deadlock`]).
fn room_deadlock(
    corral_dl: &mut CorralDeadlock,
    (area_of, areas): (&[u16], &[CellSet]),
    board: &Board,
    pos: &Position,
    moved: u16,
) -> bool {
    if moved == NONE {
        return false;
    }
    let area = area_of[moved as usize];
    area != NONE && corral_dl.is_room_deadlock(board, pos, &areas[area as usize], area, ROOM_BOXES)
}

/// The candidates of one position: its legal, non-deadlocked macro moves with their features,
/// or a solving move.
enum Children {
    Solved(MacroMove),
    Moves,
}

impl Expander {
    fn new(board: &Board, sharing: Sharing) -> Expander {
        let n = board.cells();
        let analysis = Analysis::new(board);
        let (room_area_of, room_areas) = analysis.rooms.areas(board);
        Expander {
            analysis,
            gen: MacroGen::new(board),
            reach: Reach::new(n),
            child_reach: Reach::new(n),
            mask: CellSet::new(n),
            freeze: FreezeCheck::new(),
            corrals: CorralPruner::new(),
            corral_dl: CorralDeadlock::new(board, CORRAL_SEARCH_LIMIT)
                .with_cluster_limit(board, CLUSTER_SEARCH_LIMIT)
                .with_room_limit(board, ROOM_SEARCH_LIMIT)
                .with_corral_clusters(),
            bipartite: FrozenMatching::new(),
            side_match: SideMatching::new(board),
            room_area_of,
            room_areas,
            pushes: Vec::new(),
            moves: Vec::new(),
            cands: Vec::new(),
            advised: Vec::new(),
            blocked: Vec::new(),
            sharing,
            sorted: Vec::new(),
        }
    }

    /// Whether the boxes of the room area the box on `moved` (pushed last) stands in are
    /// deadlocked ([`CorralDeadlock::is_room_deadlock`]).
    fn is_room_deadlock(&mut self, board: &Board, pos: &Position, moved: u16) -> bool {
        room_deadlock(
            &mut self.corral_dl,
            (&self.room_area_of, &self.room_areas),
            board,
            pos,
            moved,
        )
    }

    /// Whether a test of the whole position proves `pos` (whose box on `moved` was pushed
    /// last) dead: corral deadlocks, the bipartite and side matchings with frozen boxes, the
    /// cluster and the room searches (METHODS §8.5).
    fn is_dead(&mut self, board: &Board, pos: &Position, moved: u16) -> bool {
        self.reach.compute(board, &pos.boxes, pos.player);
        self.corral_dl.is_deadlock(board, pos, &self.reach, moved)
            || self.bipartite.is_deadlock(board, &pos.boxes)
            || self.side_match.is_deadlock(board, &pos.boxes, pos.player)
            || self.corral_dl.is_cluster_deadlock(board, pos, moved)
            || self.is_room_deadlock(board, pos, moved)
    }

    /// Fill `self.cands` with the moves of `pos` (whose features are `features`), mark the
    /// advised ones in `self.advised`; a start position proved dead leaves no candidates
    /// (a child was tested when its move was chosen).
    fn children(
        &mut self,
        board: &Board,
        pos: &Position,
        moved: u16,
        features: &Features,
    ) -> Children {
        self.cands.clear();
        self.advised.clear();
        // A child was tested when its move was chosen; the start position is tested here.
        if moved == NONE && self.is_dead(board, pos, moved) {
            return Children::Moves;
        }
        self.reach.compute(board, &pos.boxes, pos.player);
        // PI-corral pruning: only macro moves that begin with one of its pushes.
        generate_pushes(board, pos, &self.reach, true, &mut self.pushes);
        let pruned = self
            .corrals
            .restrict(board, pos, &self.reach, &mut self.pushes);
        self.moves.clear();
        let mut boxes = pos.boxes.clone();
        self.analysis.set_parent(board, &pos.boxes);
        for b in pos.boxes.iter() {
            let allowed = |d: Dir| !pruned || self.pushes.contains(&Push { from: b, dir: d });
            self.gen
                .moves_of_box(board, &mut boxes, &self.reach, b, allowed, &mut self.moves);
        }
        for i in 0..self.moves.len() {
            let m = self.moves[i];
            boxes.remove(m.from);
            boxes.insert(m.to);
            let player = m.player(board);
            let solved = boxes.words() == board.goals.words();
            // The closed-diagonal test needs an enclosed cell in its window, looked for on
            // the parent's free rows first (the same answer, a row at a time).
            let may_enclose = || {
                self.reach
                    .row_state()
                    .and_then(|(_, free)| {
                        window_has_enclosed_after_move(board, free, (m.from, m.to), player)
                    })
                    .unwrap_or(true)
            };
            let dead = !solved
                && (self.freeze.is_deadlock(board, &boxes, m.to)
                    || (may_enclose() && closed_diagonal_deadlock(board, &boxes, player, m.to)));
            if solved {
                return Children::Solved(m);
            }
            if !dead {
                self.child_reach.compute_after_move(
                    board,
                    &boxes,
                    &self.reach,
                    (m.from, m.to),
                    player,
                );
                let explores = self
                    .child_reach
                    .opens_push(board, &boxes, &self.reach, m.to);
                let f = self.analysis.child_features(
                    board,
                    &boxes,
                    (features, &m),
                    &self.child_reach,
                    &mut self.mask,
                );
                self.cands.push(Candidate {
                    m,
                    features: f,
                    explores,
                });
            }
            boxes.remove(m.to);
            boxes.insert(m.from);
        }
        // The advisors' view of the position.
        self.analysis
            .hotspots
            .blocked_counts(board, &pos.boxes, &mut self.blocked);
        let mut out_of_plan = Vec::new();
        self.analysis
            .plan
            .out_of_plan_boxes(board, &pos.boxes, &mut self.mask, &mut out_of_plan);
        let ctx = Context {
            board,
            features: *features,
            blocked: &self.blocked,
            out_of_plan: &out_of_plan,
            in_plan: &self.mask,
        };
        // An advised move into a corral deadlock is dropped and the advisors asked again,
        // so that each advisor names a live move (every move is tested again when the
        // search chooses it; the cluster search waits until then).
        let mut live = vec![false; self.cands.len()];
        loop {
            advise(&ctx, &self.cands, &mut self.advised, self.sharing);
            let mut dropped = false;
            for i in (0..self.cands.len()).rev() {
                if !self.advised[i] || live[i] {
                    continue;
                }
                let m = self.cands[i].m;
                let mut child = pos.clone();
                child.boxes.remove(m.from);
                child.boxes.insert(m.to);
                child.box_hash ^=
                    board.zobrist_box[m.from as usize] ^ board.zobrist_box[m.to as usize];
                child.player = m.player(board);
                self.child_reach.compute(board, &child.boxes, child.player);
                if self
                    .corral_dl
                    .is_deadlock(board, &child, &self.child_reach, m.to)
                    || self.bipartite.is_deadlock(board, &child.boxes)
                    || self
                        .side_match
                        .is_deadlock(board, &child.boxes, child.player)
                    || room_deadlock(
                        &mut self.corral_dl,
                        (&self.room_area_of, &self.room_areas),
                        board,
                        &child,
                        m.to,
                    )
                {
                    self.cands.remove(i);
                    live.remove(i);
                    dropped = true;
                } else {
                    live[i] = true;
                }
            }
            if !dropped {
                break;
            }
        }
        Children::Moves
    }
}

/// The pushes of the path to node `k` followed by `last` (if any).
fn solution(
    board: &Board,
    tree: &Tree,
    exp: &mut Expander,
    k: u32,
    last: Option<MacroMove>,
) -> Vec<Push> {
    let mut chain = Vec::new();
    if let Some(m) = last {
        chain.push((k, m));
    }
    let mut at = k;
    while tree.nodes[at as usize].parent != NO_NODE {
        let n = tree.nodes[at as usize];
        chain.push((n.parent, n.m));
        at = n.parent;
    }
    chain.reverse();
    let mut pushes = Vec::new();
    for (parent, m) in chain {
        let mut boxes = tree.boxes(board, parent);
        let player = tree.nodes[parent as usize].player;
        exp.reach.compute(board, &boxes, player);
        let path = exp
            .gen
            .path(board, &mut boxes, &exp.reach, m)
            .expect("a stored macro move replays");
        pushes.extend(path);
    }
    pushes
}

/// Run FESS on `board` within `budget` (see the module documentation).
pub fn fess(board: &Board, budget: &Budget) -> SearchOutcome {
    Fess::new(board).run(board, budget)
}

/// The steps of the search (positions added, moves used up) between two polls of the one-core
/// turns (`crate::solver::turns`): about the cost of the 128 best-first expansions between two
/// polls of the other list's searches.
pub(crate) const STEPS_PER_POLL: u32 = 8;

/// The position to add to the tree next: its boxes and player, its parent, the move from
/// the parent and the move's accumulated weight.
type Pending = (Position, u32, Option<MacroMove>, u32);

/// A FESS search that can stop and go on: [`Fess::run`] searches within a budget and returns,
/// keeping its tree, its feature space and its place in the round, so that a later
/// [`Fess::run`] continues where it stopped (the portfolio gives FESS a second window when a
/// search between its windows hands time on; `solver/mod.rs`).
pub struct Fess {
    exp: Expander,
    tree: Tree,
    next: Option<Pending>,
    turn: usize,
    /// Steps of the search since its last poll of the one-core turns.
    steps: u32,
    /// Moves used up because a deadlock test proved the position they lead to dead.
    discarded: u64,
    /// How the search ended for good (solved, its space exhausted); a later run returns it
    /// again, without expansions.
    ended: Option<SearchOutcome>,
}

impl Fess {
    /// A search of `board` before its first position: the level analysed (packing plan,
    /// rooms, hotspots), the tree empty; the paper's advisors ([`Sharing::Own`]).
    pub fn new(board: &Board) -> Fess {
        Fess::with_sharing(board, Sharing::Own)
    }

    /// [`Fess::new`] with the advisors sharing out their suggestions as `sharing` says.
    pub fn with_sharing(board: &Board, sharing: Sharing) -> Fess {
        let start = Position::start(board);
        let words_per = start.boxes.words().len();
        Fess {
            exp: Expander::new(board, sharing),
            tree: Tree::new(words_per),
            next: Some((start, NO_NODE, None, 0)),
            turn: 0,
            steps: 0,
            discarded: 0,
            ended: None,
        }
    }

    /// The nodes the tree holds as the node budget counts them (positions and a sixth of
    /// each stored move).
    pub fn held(&self) -> u64 {
        self.tree.held() as u64
    }

    /// The moves used up so far because a deadlock test (corral, matching, cluster or room)
    /// proved the position they lead to dead: such a position is not added to the tree and
    /// is not an expansion.
    pub fn discarded(&self) -> u64 {
        self.discarded
    }

    /// Search within `budget`, going on from where the last run stopped. The outcome counts
    /// this run's expansions and the nodes the whole tree holds; `budget.max_nodes` bounds
    /// the whole tree.
    pub fn run(&mut self, board: &Board, budget: &Budget) -> SearchOutcome {
        if let Some(ended) = &self.ended {
            return SearchOutcome {
                expanded: 0,
                ..ended.clone()
            };
        }
        let outcome = self.search(board, budget);
        if matches!(outcome.stop, StopReason::Solved | StopReason::Exhausted) {
            self.ended = Some(outcome.clone());
        }
        outcome
    }

    /// [`Fess::run`]'s search: positions added until the budget, a solution or the end of
    /// the moves.
    fn search(&mut self, board: &Board, budget: &Budget) -> SearchOutcome {
        let deadline = budget.start();
        let mut outcome = SearchOutcome::exhausted(0);
        if self.tree.nodes.is_empty() && Position::start(board).is_solved(board) {
            return SearchOutcome::solved_at_start(0);
        }
        let Fess {
            exp,
            tree,
            next,
            turn,
            steps,
            discarded,
            ..
        } = self;
        let words_per = tree.words_per;
        let limit = budget.max_nodes.max(1);
        if tree.held() >= limit {
            outcome.stop = StopReason::Nodes;
            outcome.nodes = tree.held() as u64;
            return outcome;
        }
        loop {
            if let Some((mut pos, parent, m, weight)) = next.take() {
                // Add the position to the tree and weigh its moves.
                let norm = exp.reach.compute(board, &pos.boxes, pos.player);
                pos.player = norm;
                let k = tree.nodes.len() as u32;
                let features =
                    exp.analysis
                        .features(board, &pos.boxes, &mut exp.reach, &mut exp.mask);
                tree.nodes.push(Node {
                    parent,
                    m: m.unwrap_or(MacroMove {
                        from: NONE,
                        to: NONE,
                        side: Dir::Up,
                        pushes: 0,
                        areas_added: 0,
                    }),
                    player: norm,
                    pending: 0,
                    dead: false,
                    home: 0,
                    best: 0,
                    weight,
                    first: 0,
                    advised_end: 0,
                    end: 0,
                });
                tree.words.extend_from_slice(pos.boxes.words());
                tree.table
                    .insert(pos.box_hash ^ board.zobrist_player[norm as usize], k);
                outcome.expanded += 1;
                deadline.report_iterations(1);
                let moved = m.map_or(NONE, |m| m.to);
                if let Children::Solved(last) = exp.children(board, &pos, moved, &features) {
                    outcome.pushes = Some(solution(board, tree, exp, k, Some(last)));
                    outcome.stop = StopReason::Solved;
                    outcome.nodes = tree.held() as u64;
                    return outcome;
                }
                let (cell, best) = tree.place(parent, &features);
                tree.nodes[k as usize].home = cell;
                tree.nodes[k as usize].best = best;
                tracing::trace!(
                    node = k,
                    parent,
                    from = ?m.map(|m| board.xy(m.from)),
                    to = ?m.map(|m| board.xy(m.to)),
                    player = ?board.xy(norm),
                    weight,
                    ?features,
                    cell,
                    cells = tree.round.len(),
                    moves = exp.cands.len(),
                    advised = exp.advised.iter().filter(|&&a| a).count(),
                    "fess: position added"
                );
                // Storing the moves must not take the tree past the node budget.
                if Tree::held_with(tree.nodes.len(), tree.moves.len() + exp.cands.len()) > limit {
                    outcome.stop = StopReason::Nodes;
                    outcome.nodes = tree.held() as u64;
                    return outcome;
                }
                tree.nodes[k as usize].pending = exp.cands.len() as u32;
                // The moves in the order the cell takes them: advised first, then by the
                // tie-break key, then as generated.
                exp.sorted.clear();
                exp.sorted.extend(
                    exp.cands
                        .iter()
                        .zip(&exp.advised)
                        .enumerate()
                        .map(|(i, (c, &a))| (!a, c.features.order(), i)),
                );
                exp.sorted.sort_unstable();
                let first = tree.moves.len() as u32;
                tree.moves
                    .extend(exp.sorted.iter().map(|&(_, order, i)| Stored {
                        m: exp.cands[i].m,
                        order,
                    }));
                let advised = exp.advised.iter().filter(|&&a| a).count() as u32;
                let node = &mut tree.nodes[k as usize];
                node.first = first;
                node.advised_end = first + advised;
                node.end = tree.moves.len() as u32;
                if let Some(e) = tree.entry(k) {
                    tree.cells[cell as usize].moves.push(e);
                }
                if exp.cands.is_empty() {
                    // A dead end: its parent loses a child.
                    tree.nodes[k as usize].pending = 1;
                    tree.settle(k);
                } else if !tree.cells[cell as usize].active {
                    tree.cells[cell as usize].active = true;
                    tree.round.push(cell);
                }
                outcome.nodes = tree.held() as u64;
                if tree.held() >= limit {
                    outcome.stop = StopReason::Nodes;
                    return outcome;
                }
            }
            if budget.max_iterations.is_some_and(|n| outcome.expanded >= n) {
                outcome.stop = StopReason::Iterations;
                return outcome;
            }
            // On one core in the portfolio, FESS takes turns with the other list, which
            // polls once per 128 expansions of a best-first search: a step here (a position
            // added, or a move used up) costs about as much as 11 of those expansions (4 to
            // 22 on the levels measured; docs/benchmarks/sokoban.md#fess), so it polls once
            // per [`STEPS_PER_POLL`] steps and gets about its share of the core.
            *steps += 1;
            if *steps >= STEPS_PER_POLL {
                *steps = 0;
                crate::solver::turns::poll();
            }
            if deadline.stopped() {
                outcome.stop = StopReason::Interrupted;
                return outcome;
            }
            if deadline.expired() {
                outcome.stop = StopReason::Time;
                return outcome;
            }
            // The next non-empty cell of the round, and its least-weight move to a new position.
            while next.is_none() {
                if tree.round.is_empty() {
                    outcome.stop = StopReason::Exhausted;
                    return outcome;
                }
                *turn %= tree.round.len();
                let cell = tree.round[*turn] as usize;
                let Some(Reverse((w, _, id, node))) = tree.cells[cell].moves.pop() else {
                    tree.cells[cell].active = false;
                    tree.round.remove(*turn);
                    continue;
                };
                if tree.nodes[node as usize].dead {
                    continue;
                }
                let m = tree.moves[id as usize].m;
                // The position's next move takes its place in the queue.
                tree.nodes[node as usize].first = id + 1;
                if let Some(e) = tree.entry(node) {
                    tree.cells[cell].moves.push(e);
                }
                let mut pos = Position::from_words(
                    board,
                    &tree.words[node as usize * words_per..(node as usize + 1) * words_per],
                    tree.nodes[node as usize].player,
                );
                pos.boxes.remove(m.from);
                pos.boxes.insert(m.to);
                pos.box_hash ^=
                    board.zobrist_box[m.from as usize] ^ board.zobrist_box[m.to as usize];
                pos.player = m.player(board);
                let norm = exp.reach.compute(board, &pos.boxes, pos.player);
                let key = pos.box_hash ^ board.zobrist_player[norm as usize];
                if tree.find(board, key, &pos.boxes, norm).is_some() {
                    // A transposition: the move is used up and leads nowhere new.
                    tree.settle(node);
                    continue;
                }
                if exp.is_dead(board, &pos, m.to) {
                    // A deadlock: the move is used up, like a transposition, and the
                    // position never joins the tree nor counts as an expansion (the paper's
                    // tree holds live positions); the cell's turn is spent. Back to the
                    // clock, since a run of such tests can take a while.
                    tree.settle(node);
                    *discarded += 1;
                    tracing::trace!(
                        parent = node,
                        from = ?board.xy(m.from),
                        to = ?board.xy(m.to),
                        "fess: dead position discarded"
                    );
                    *turn += 1;
                    break;
                }
                // The move's place among the node's pending ones goes to the new child.
                *next = Some((pos, node, Some(m), w));
                *turn += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fess::test_levels::{board, xsokoban};
    use crate::level::parse_xsb;
    use crate::lurd::replay;
    use crate::position::pushes_to_lurd;

    /// XSokoban 17 after one push: the box beside the player pushed right, under the box
    /// above it, in the room whose only way out for a box is the one-wide gap at the top (a
    /// box goes up it only with the player below, in the same column). The room's five boxes
    /// can no longer all leave it; the whole position takes the greedy solver 45,092
    /// expansions to prove dead. The room search proves it, and not the start position nor
    /// the position after pushing the box above the player instead (the first push of a
    /// solution).
    #[test]
    fn a_room_whose_boxes_cannot_all_leave_is_a_deadlock() {
        let b = xsokoban(17);
        let cell = crate::fess::test_levels::cell;
        let mut ex = Expander::new(&b, Sharing::Own);
        let start = Position::start(&b);
        let area = ex.room_area_of[cell(&b, 4, 9) as usize];
        assert_ne!(area, NONE, "the boxes' room is a room");
        assert!(
            ex.room_areas[area as usize].contains(cell(&b, 4, 12)),
            "its dead ends too"
        );
        assert!(
            !ex.room_areas[area as usize].contains(cell(&b, 4, 7)),
            "not its way out"
        );
        let after = |from: (usize, usize), to: (usize, usize), player: (usize, usize)| {
            let mut pos = start.clone();
            pos.boxes.remove(cell(&b, from.0, from.1));
            pos.boxes.insert(cell(&b, to.0, to.1));
            pos.player = cell(&b, player.0, player.1);
            pos
        };
        assert!(!ex.is_room_deadlock(&b, &start, cell(&b, 3, 10)));
        let good = after((3, 8), (4, 8), (3, 8));
        assert!(!ex.is_room_deadlock(&b, &good, cell(&b, 4, 8)));
        let dead = after((3, 10), (4, 10), (3, 10));
        assert!(ex.is_room_deadlock(&b, &dead, cell(&b, 4, 10)));
        // Learned: the corral test now matches the pattern in the same position.
        ex.reach.compute(&b, &dead.boxes, dead.player);
        assert!(ex.corral_dl.is_deadlock(&b, &dead, &ex.reach, NONE));
    }

    /// A room proof is learned as the smallest set of its boxes still proved: with a sixth
    /// box in XSokoban 17's room beside the five that can no longer all leave, the pattern
    /// leaves a box out, and so matches a position without it (a pattern of all six would
    /// match none). The position has a box more than the level, which the room search,
    /// counting only the room's boxes, allows.
    #[test]
    fn a_room_proof_is_learned_without_the_boxes_it_does_not_need() {
        let b = xsokoban(17);
        let cell = crate::fess::test_levels::cell;
        let (area_of, areas) = Rooms::new(&b).areas(&b);
        let mut dead = Position::start(&b);
        dead.boxes.remove(cell(&b, 3, 10));
        dead.boxes.insert(cell(&b, 4, 10));
        dead.player = cell(&b, 3, 10);
        let mut reach = Reach::new(b.cells());
        for extra in [(5, 10), (8, 10)] {
            let mut dl = CorralDeadlock::new(&b, 300).with_room_limit(&b, 50_000);
            let mut six = dead.clone();
            six.boxes.insert(cell(&b, extra.0, extra.1));
            let area = area_of[cell(&b, extra.0, extra.1) as usize];
            let room = &areas[area as usize];
            assert!(dl.is_room_deadlock(&b, &six, room, area, 8));
            let mut fewer = 0;
            for gone in six.boxes.iter().filter(|&c| room.contains(c)) {
                let mut five = six.clone();
                five.boxes.remove(gone);
                reach.compute(&b, &five.boxes, five.player);
                fewer += usize::from(dl.is_deadlock(&b, &five, &reach, NONE));
            }
            assert!(fewer >= 1, "no smaller position matched: {extra:?}");
        }
    }

    /// No position of a solution found by the portfolio (whose first searches, which solve
    /// these screens, have no room test) is a room deadlock, on screens whose rooms the test
    /// searches.
    #[test]
    fn no_position_of_a_solution_is_a_room_deadlock() {
        let mut searched = 0;
        for screen in [1, 2, 3, 5, 6, 7, 10, 17, 41, 70] {
            let b = xsokoban(screen);
            let out =
                crate::solver::any_solution(&b, &puzzle_engine::Budget::iterations(2_000_000));
            let Some(pushes) = out.pushes else {
                panic!("screen {screen} not solved");
            };
            let mut ex = Expander::new(&b, Sharing::Own);
            let mut pos = Position::start(&b);
            for p in pushes {
                pos.apply_push(&b, p);
                let to = b.step(p.from, p.dir);
                searched += usize::from(ex.room_area_of[to as usize] != NONE);
                assert!(
                    !ex.is_room_deadlock(&b, &pos, to),
                    "screen {screen}: a position of the solution"
                );
            }
            assert!(pos.is_solved(&b));
        }
        assert!(
            searched > 100,
            "the rooms were searched ({searched} positions)"
        );
    }

    /// The sizes behind [`Tree::held`]'s accounting: a stored move takes 16 bytes, a node 44
    /// and a queue entry 24.
    #[test]
    fn a_stored_move_takes_16_bytes() {
        assert_eq!(std::mem::size_of::<Stored>(), 16);
        assert_eq!(std::mem::size_of::<Node>(), 44);
        assert_eq!(std::mem::size_of::<Entry>(), 24);
    }

    #[test]
    fn a_position_no_better_than_its_best_ancestor_joins_that_ancestors_cell() {
        let mut tree = Tree::new(1);
        let add = |tree: &mut Tree, parent: u32, f: Features| {
            let (home, best) = tree.place(parent, &f);
            tree.nodes.push(Node {
                parent,
                m: MacroMove {
                    from: NONE,
                    to: NONE,
                    side: Dir::Up,
                    pushes: 0,
                    areas_added: 0,
                },
                player: 0,
                pending: 0,
                dead: false,
                home,
                best,
                weight: 0,
                first: 0,
                advised_end: 0,
                end: 0,
            });
            (tree.nodes.len() as u32 - 1, home)
        };
        let root = Features {
            packed: 1,
            regions: 3,
            ..Features::default()
        };
        let (r, root_cell) = add(&mut tree, NO_NODE, root);
        // Worse (an area more): the root's cell.
        let worse = Features { regions: 4, ..root };
        let (w, cell) = add(&mut tree, r, worse);
        assert_eq!(cell, root_cell);
        // Better than its parent but not than the root: still the root's cell.
        let (_, cell) = add(&mut tree, w, Features { regions: 3, ..root });
        assert_eq!(cell, root_cell);
        // Better than the root (a box more packed, though an area more): a cell of its own.
        let better = Features {
            packed: 2,
            regions: 5,
            ..root
        };
        let (b, better_cell) = add(&mut tree, w, better);
        assert_ne!(better_cell, root_cell);
        // Its worse child joins it, not the root.
        let (_, cell) = add(
            &mut tree,
            b,
            Features {
                regions: 6,
                ..better
            },
        );
        assert_eq!(cell, better_cell);
    }

    #[test]
    fn the_feature_cell_and_order_follow_the_paper() {
        let f = Features {
            packed: 2,
            regions: 3,
            rooms: 1,
            out_of_plan: 0,
            hotspots: 4,
            mobility: 9,
        };
        // Hotspots and mobility are not dimensions of the feature space.
        assert_eq!(
            f.cell(),
            Features {
                hotspots: 0,
                mobility: 0,
                ..f
            }
            .cell()
        );
        for g in [
            Features { rooms: 2, ..f },
            Features { regions: 2, ..f },
            Features { packed: 3, ..f },
            Features {
                out_of_plan: 1,
                ..f
            },
        ] {
            assert_ne!(g.cell(), f.cell());
        }
        // Out of plan first, then packed, then connectivity, ...
        let worse_oop_better_rest = Features {
            out_of_plan: 1,
            packed: 5,
            regions: 1,
            ..f
        };
        assert!(f.order() < worse_oop_better_rest.order());
        assert!(
            Features {
                packed: 3,
                regions: 9,
                ..f
            }
            .order()
                < f.order()
        );
        assert!(
            Features {
                regions: 2,
                rooms: 5,
                ..f
            }
            .order()
                < f.order()
        );
        assert!(
            Features {
                hotspots: 3,
                mobility: 0,
                ..f
            }
            .order()
                < f.order()
        );
        assert!(Features { mobility: 10, ..f }.order() < f.order());
    }

    /// The features of a child, with only the rooms its move touches flooded again and the
    /// areas derived from its parent's, are the features of the child measured afresh: every move of every position FESS adds in
    /// its first 60 expansions on XSokoban 3, 16 and 62 (screens with several rooms).
    #[test]
    fn a_childs_features_are_its_features_measured_afresh() {
        for screen in [3, 16, 62] {
            let b = xsokoban(screen);
            let mut search = Fess::new(&b);
            search.run(&b, &Budget::iterations(60));
            let mut a = Analysis::new(&b);
            let mut fresh = Analysis::new(&b);
            let (mut reach, mut mask) = (Reach::new(b.cells()), CellSet::new(b.cells()));
            let mut gen = MacroGen::new(&b);
            let mut checked = 0;
            for k in 0..search.tree.nodes.len() as u32 {
                let boxes = search.tree.boxes(&b, k);
                let player = search.tree.nodes[k as usize].player;
                reach.compute(&b, &boxes, player);
                let parent = fresh.features(&b, &boxes, &mut reach, &mut mask);
                reach.compute(&b, &boxes, player);
                let mut moves = Vec::new();
                let mut work = boxes.clone();
                for x in boxes.iter() {
                    gen.moves_of_box(&b, &mut work, &reach, x, |_| true, &mut moves);
                }
                a.set_parent(&b, &boxes);
                for m in moves {
                    let mut child = boxes.clone();
                    child.remove(m.from);
                    child.insert(m.to);
                    reach.compute(&b, &child, m.player(&b));
                    let got = a.child_features(&b, &child, (&parent, &m), &reach, &mut mask);
                    reach.compute(&b, &child, m.player(&b));
                    let want = fresh.features(&b, &child, &mut reach, &mut mask);
                    assert_eq!(got, want, "screen {screen}, node {k}");
                    checked += 1;
                }
            }
            assert!(checked > 500, "screen {screen}: {checked} children");
        }
    }

    #[test]
    fn features_of_a_small_level() {
        // Two rooms joined by a doorway holding a box; one area for the player on the left,
        // the right room cut off.
        let b =
            board("#############\n#   #   #   #\n#@  .   $   #\n#   #   #   #\n#############\n");
        let mut a = Analysis::new(&b);
        let mut reach = Reach::new(b.cells());
        let mut mask = CellSet::new(b.cells());
        let pos = Position::start(&b);
        reach.compute(&b, &pos.boxes, pos.player);
        let f = a.features(&b, &pos.boxes, &mut reach, &mut mask);
        assert_eq!(f.packed, 0);
        assert_eq!(f.regions, 2);
        assert_eq!(f.rooms, 1);
        assert_eq!(f.out_of_plan, 0, "the box can still go left to the goal");
        assert_eq!(f.hotspots, 0, "one box");
        // The player reaches the box's left side only.
        assert_eq!(f.mobility, 1);
    }

    #[test]
    fn an_unsolvable_level_is_exhausted() {
        let b = board("######\n#$  .#\n#  @ #\n######\n");
        let out = fess(&b, &Budget::iterations(10_000));
        assert!(out.pushes.is_none());
        assert_eq!(out.stop, StopReason::Exhausted);
    }

    #[test]
    fn the_budgets_stop_the_search() {
        let b = xsokoban(29);
        let out = fess(&b, &Budget::iterations(5));
        assert_eq!(out.stop, StopReason::Iterations);
        assert_eq!(out.expanded, 5);
        let out = fess(&b, &Budget::iterations(1_000_000).with_max_nodes(500));
        assert_eq!(out.stop, StopReason::Nodes);
        assert!(out.nodes <= 500, "{} nodes held past the budget", out.nodes);
        assert!(out.expanded > 1 && out.expanded < 1_000_000);
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let out = fess(&b, &Budget::iterations(1_000_000).with_stop_flag(stop));
        assert_eq!(out.stop, StopReason::Interrupted);
    }

    /// A search stopped by its iteration budget goes on where it stopped when run again: in
    /// windows of 7 expansions it adds the positions one uninterrupted run adds and finds
    /// the same solution; once solved it stays solved.
    #[test]
    fn a_search_run_in_windows_goes_on_where_it_stopped() {
        let b = xsokoban(5);
        let whole = fess(&b, &Budget::iterations(20_000));
        assert_eq!(whole.stop, StopReason::Solved);
        assert!(whole.expanded > 30, "{} expansions", whole.expanded);
        let mut search = Fess::new(&b);
        let (mut expanded, mut runs) = (0, 0);
        let last = loop {
            let out = search.run(&b, &Budget::iterations(7));
            expanded += out.expanded;
            runs += 1;
            if out.stop != StopReason::Iterations {
                break out;
            }
            assert_eq!(out.expanded, 7);
            assert_eq!(out.nodes, search.held());
        };
        assert_eq!(last.stop, StopReason::Solved);
        assert_eq!(expanded, whole.expanded);
        assert_eq!(runs as u64, whole.expanded.div_ceil(7));
        assert_eq!(last.pushes, whole.pushes);
        let again = search.run(&b, &Budget::iterations(7));
        assert_eq!((again.stop, again.expanded), (StopReason::Solved, 0));
        assert_eq!(again.pushes, whole.pushes);
    }

    #[test]
    fn a_move_into_a_proven_deadlock_is_used_up_without_an_expansion() {
        // XSokoban 16: many moves of its first dives lead into positions a corral, cluster
        // or room search proves dead (368 beside its first 1,000 expansions).
        let b = xsokoban(16);
        let mut search = Fess::new(&b);
        let out = search.run(&b, &Budget::iterations(1_000));
        assert_eq!(out.stop, StopReason::Iterations);
        assert_eq!(out.expanded, 1_000);
        assert_eq!(
            search.tree.nodes.len(),
            1_000,
            "each expansion is a stored position"
        );
        assert!(
            search.discarded() > 100,
            "{} dead positions discarded",
            search.discarded()
        );
        // Each stored position but the start was tested when its move was chosen.
        for k in 1..search.tree.nodes.len() {
            let n = search.tree.nodes[k];
            let pos = Position::from_words(
                &b,
                &search.tree.words[k * search.tree.words_per..(k + 1) * search.tree.words_per],
                n.player,
            );
            assert!(
                !search.exp.bipartite.is_deadlock(&b, &pos.boxes),
                "position {k} fails the matching test"
            );
        }
    }

    #[test]
    fn a_level_the_goals_divide_is_solved_and_replays() {
        // XSokoban 72, planned from the player's side (plan.rs): 568 positions; planned with
        // the player coming from any side, 20,000 do not solve it.
        let level = crate::fess::test_levels::xsokoban_level(72);
        let b = Board::new(&level).expect("board");
        let out = fess(&b, &Budget::iterations(2_000));
        assert_eq!(out.stop, StopReason::Solved);
        let lurd = pushes_to_lurd(&b, &out.pushes.expect("pushes")).expect("the pushes join up");
        assert!(replay(&level, &lurd).expect("replays").solved);
    }

    #[test]
    fn with_distinct_advice_xsokoban_28_is_solved_and_replays() {
        // 16,877 positions; the paper's advisors, each naming its own best move, do not
        // solve it in 20,000 (docs/benchmarks/sokoban.md#fess).
        let level = crate::fess::test_levels::xsokoban_level(28);
        let b = Board::new(&level).expect("board");
        let out = Fess::with_sharing(&b, Sharing::Distinct).run(&b, &Budget::iterations(20_000));
        assert_eq!(out.stop, StopReason::Solved);
        let lurd = pushes_to_lurd(&b, &out.pushes.expect("pushes")).expect("the pushes join up");
        assert!(replay(&level, &lurd).expect("replays").solved);
    }

    #[test]
    fn small_microban_levels_are_solved_and_replay() {
        let text = include_str!("../../../../data/sokoban/Microban_155.xsb");
        let levels = parse_xsb(text).expect("microban");
        for (i, level) in levels.iter().enumerate().take(6) {
            let b = Board::new(level).expect("board");
            let out = fess(&b, &Budget::iterations(20_000));
            assert_eq!(out.stop, StopReason::Solved, "Microban {}", i + 1);
            let pushes = out.pushes.expect("pushes");
            let lurd = pushes_to_lurd(&b, &pushes).expect("the pushes join up");
            assert!(
                replay(level, &lurd).expect("replays").solved,
                "Microban {}",
                i + 1
            );
        }
    }
}
