//! Generation aimed at difficulty (see `docs/METHODS.md#sokogen-aimed`): the MCTS designs a room
//! and its goals with the thesis's phase-1 actions (Delete-Obstacle, Place-Box as a goal,
//! Freeze-Level), and a level is scored by the exact optimal push count of the start farthest
//! from its goals, found by the backward search ([`crate::backward`]; Taylor & Parberry 2011).
//! The best rooms are then improved in the manner of YASGen (Damgaard): move a wall or a goal,
//! keep the change when the room's farthest start lies farther, every change re-proven by the same
//! exhaustive search.
//!
//! A requested band of push counts steers the search instead of filtering its output: a room
//! whose farthest start needs `D` pushes has starts at every distance up to `D` (each layer of
//! the backward search), so the reward counts pushes up to the band's top, and a kept room's
//! start is taken from a layer inside the band.

use crate::backward::{BackwardSearch, Explored};
use crate::config::BoxLimit;
use crate::generate::{root_state, GenError, GenParams, GenSummary, GeneratedLevel, Sink};
use crate::geometry::Geometry;
use crate::playout::{FastPlayout, RandomAction};
use crate::solution::{check_solves, level_from_cells, lurd_of_pushes, SolutionError};
use crate::state::{score_level, GenAction, GenState, Metrics};
use puzzle_engine::bits::Bits;
use puzzle_engine::mcts::{self, Found, MctsConfig};
use puzzle_engine::{Game, Rng};
use std::any::Any;
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Default bound on the positions one backward search may meet (on boards of up to 128 cells
/// about 85 bytes each with its index entry, so at most about 250 MB a thread while the vectors
/// grow): rooms whose solvable positions exceed it are scored by the layers met.
pub const DEFAULT_MAX_POSITIONS: usize = 2_000_000;

/// What a run aimed at difficulty asks for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aim {
    /// Boxes (and goals) per level, exactly.
    pub boxes: u16,
    /// Keep only levels needing at least this many pushes.
    pub min_pushes: u32,
    /// Keep only levels needing at most this many pushes (`None`: no upper bound; the start is
    /// then the farthest one).
    pub max_pushes: Option<u32>,
    /// Positions one backward search may meet.
    pub max_positions: usize,
    /// Improve each room the MCTS finds by moving walls and goals (YASGen's local search).
    pub improve: bool,
}

impl Default for Aim {
    fn default() -> Self {
        Aim {
            boxes: 4,
            min_pushes: 0,
            max_pushes: None,
            max_positions: DEFAULT_MAX_POSITIONS,
            improve: true,
        }
    }
}

impl Aim {
    /// The push count the reward counts up to (the band's top).
    fn cap(&self) -> u32 {
        self.max_pushes.unwrap_or(u32::MAX)
    }

    /// The MCTS reward of a room whose farthest start needs `pushes` pushes.
    fn reward(&self, pushes: u32) -> f64 {
        pushes.min(self.cap()) as f64 / REWARD_SCALE
    }
}

/// Pushes per unit of MCTS reward (keeps the rewards of small rooms near the range UCB1's
/// constant was chosen for).
const REWARD_SCALE: f64 = 100.0;

thread_local! {
    /// Each thread's backward-search memory, one per board width in words.
    static SEARCHES: RefCell<Vec<Box<dyn Any>>> = const { RefCell::new(Vec::new()) };
}

/// Run `f` on this thread's backward search for boards of `N` words (kept between calls, so
/// searches do not allocate once warm).
fn with_search<const N: usize, R>(f: impl FnOnce(&mut BackwardSearch<N>) -> R) -> R {
    SEARCHES.with(|cell| {
        let mut searches = cell.borrow_mut();
        let at = match searches.iter().position(|s| s.is::<BackwardSearch<N>>()) {
            Some(i) => i,
            None => {
                searches.push(Box::new(BackwardSearch::<N>::new()));
                searches.len() - 1
            }
        };
        match searches[at].downcast_mut::<BackwardSearch<N>>() {
            Some(search) => f(search),
            // The slot was found by its type just above.
            None => f(&mut BackwardSearch::new()),
        }
    })
}

/// The generation game with the difficulty objective: the thesis's phase 1 (build the room and
/// place exactly [`Aim::boxes`] goals), then Freeze-Level ends the game and scores the room by
/// its farthest start's optimal pushes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AimedState<const N: usize, const B: usize> {
    build: GenState<N, B>,
    aim: Aim,
    /// After Freeze: the farthest start's optimal pushes (0 without the right box count).
    pushes: u32,
    done: bool,
}

impl<const N: usize, const B: usize> AimedState<N, B> {
    /// The root: `build` (an empty or seeded phase-1 state) with the box limit set to the aim's
    /// count and the impossible-configuration removal off (goals may sit anywhere).
    pub fn new(mut build: GenState<N, B>, aim: Aim) -> Self {
        let mut rules = *build.rules();
        rules.box_limit = BoxLimit::Fixed(aim.boxes);
        rules.remove_impossible = false;
        rules.require_box = true;
        build.set_rules(rules);
        AimedState {
            build,
            aim,
            pushes: 0,
            done: false,
        }
    }

    /// The room being built (walls; its boxes are the goals).
    pub fn build(&self) -> &GenState<N, B> {
        &self.build
    }

    /// The farthest start's optimal pushes (after Freeze-Level).
    pub fn pushes(&self) -> u32 {
        self.pushes
    }

    fn has_other_actions(&self) -> bool {
        !self.build.delete_candidates().is_empty() || !self.build.place_candidates().is_empty()
    }

    fn freeze_ok(&self) -> bool {
        self.build.boxes().count() == self.aim.boxes as u32 || !self.has_other_actions()
    }

    fn evaluate(&mut self) {
        self.done = true;
        let goals = self.build.boxes();
        if goals.count() != self.aim.boxes as u32 {
            return;
        }
        let geo = *self.build.geometry();
        let floor = geo.inside.and_not(self.build.walls());
        let aim = self.aim;
        self.pushes =
            with_search::<N, _>(|s| s.run(&geo, floor, goals, aim.max_positions)).max_pushes;
    }
}

impl<const N: usize, const B: usize> Game for AimedState<N, B> {
    type Action = GenAction;

    fn legal_actions(&self, out: &mut Vec<GenAction>) {
        out.clear();
        if self.done {
            return;
        }
        self.build.legal_actions(out);
        if !self.freeze_ok() {
            out.retain(|&a| a != GenAction::Freeze);
        }
    }

    fn apply(&mut self, action: GenAction) {
        if action == GenAction::Freeze {
            self.evaluate();
        } else {
            self.build.apply(action);
        }
    }

    fn is_terminal(&self) -> bool {
        self.done
    }

    fn score(&self) -> f64 {
        if self.done {
            self.aim.reward(self.pushes)
        } else {
            0.0
        }
    }

    fn action_code(&self, action: GenAction) -> u64 {
        self.build.action_code(action)
    }
}

impl<const N: usize, const B: usize> RandomAction for AimedState<N, B> {
    fn random_action(&self, rng: &mut Rng) -> Option<GenAction> {
        if self.done {
            return None;
        }
        // Once the room may be frozen, it is, with probability FREEZE_CHANCE: uniform draws
        // would carve almost the whole board (one Freeze among dozens of deletions), and open
        // rooms are both easy and slow to search.
        if self.build.depth() >= self.build.rules().depth_limit as usize
            && self.build.boxes().count() == self.aim.boxes as u32
            && rng.chance(FREEZE_CHANCE)
        {
            return Some(GenAction::Freeze);
        }
        // Rejection keeps the draw uniform over the other legal actions: a Freeze that is not
        // legal here is drawn again (another action exists whenever Freeze is not legal).
        loop {
            let a = self.build.random_action(rng)?;
            if a != GenAction::Freeze || self.freeze_ok() {
                return Some(a);
            }
        }
    }
}

/// The chance that a playout freezes the room as soon as Freeze-Level is legal.
const FREEZE_CHANCE: f64 = 0.3;

/// A room: its walls and goals on the generator's board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Room<const N: usize> {
    walls: Bits<N>,
    goals: Bits<N>,
}

impl<const N: usize> Room<N> {
    fn explore(&self, geo: &Geometry<N>, aim: &Aim) -> Explored {
        let floor = geo.inside.and_not(self.walls);
        with_search::<N, _>(|s| s.run(geo, floor, self.goals, aim.max_positions))
    }

    /// A random neighbour of the room (YASGen's mutations): a wall beside the floor becomes
    /// floor, a floor cell that is not a goal becomes wall (the floor staying connected), or a
    /// goal moves to a free floor cell. `None` when the drawn change is not allowed.
    fn mutate(&self, geo: &Geometry<N>, rng: &mut Rng) -> Option<Room<N>> {
        let floor = geo.inside.and_not(self.walls);
        let mut next = *self;
        match rng.below(3) {
            0 => {
                let candidates = self.walls.and(geo.inside).and(geo.neighbours(floor));
                if candidates.is_empty() {
                    return None;
                }
                let c = candidates.nth(rng.below(candidates.count() as usize) as u32);
                next.walls.clear(c);
            }
            1 => {
                let candidates = floor.and_not(self.goals);
                if candidates.count() <= 2 {
                    return None;
                }
                let c = candidates.nth(rng.below(candidates.count() as usize) as u32);
                let rest = floor.and_not(Bits::single(c));
                let first = rest.first()?;
                if geo.flood(Bits::single(first), rest) != rest {
                    return None;
                }
                next.walls.set(c);
            }
            _ => {
                let free = floor.and_not(self.goals);
                if free.count() <= 1 || self.goals.is_empty() {
                    return None;
                }
                let g = self
                    .goals
                    .nth(rng.below(self.goals.count() as usize) as u32);
                let c = free.nth(rng.below(free.count() as usize) as u32);
                next.goals.clear(g);
                next.goals.set(c);
            }
        }
        Some(next)
    }
}

/// How many of the hardest rooms the iterated local search starts from.
const ELITE_ROOMS: usize = 8;

/// Random changes made to a hardest room before it is improved again.
const ELITE_KICKS: u32 = 2;

/// A found room is improved when it needs at least this share of the thread's most pushes so
/// far (capped at the band's top), or of the band's bottom when that is higher (a fixed number
/// would not suit every board size).
const KEEP_SHARE: f64 = 0.3;

/// Tries without improvement after which a local search ends.
const PATIENCE: u32 = 48;

/// YASGen-style local improvement of `room` (value `value`, the capped farthest pushes):
/// random neighbours are searched exactly; a farther one is kept, an equal one half of the time
/// (to cross plateaus), and each new farthest is handed to `on_better`. Ends after [`PATIENCE`]
/// tries without improvement, at the band's top, or when `stop()` says so. Returns the positions
/// searched (the work done).
fn improve<const N: usize>(
    geo: &Geometry<N>,
    aim: &Aim,
    mut room: Room<N>,
    mut value: u32,
    rng: &mut Rng,
    stop: &dyn Fn() -> bool,
    on_better: &mut dyn FnMut(Room<N>),
) -> u64 {
    let mut best = (room, value);
    let mut work = 0u64;
    let mut idle = 0;
    while idle < PATIENCE && best.1 < aim.cap() && !stop() {
        idle += 1;
        let Some(next) = room.mutate(geo, rng) else {
            continue;
        };
        let explored = next.explore(geo, aim);
        work += explored.positions as u64;
        let v = explored.max_pushes.min(aim.cap());
        if v > value || (v == value && rng.chance(0.5)) {
            room = next;
            value = v;
            if v > best.1 {
                best = (next, v);
                idle = 0;
                on_better(next);
            }
        }
    }
    work
}

/// A kept level of an aimed run: the level with its push-optimal solution, replayed.
fn aimed_level<const N: usize, const B: usize>(
    geo: &Geometry<N>,
    build: &GenState<N, B>,
    room: Room<N>,
    aim: &Aim,
    rng: &mut Rng,
) -> Result<Option<(AimedLevel, Metrics, Bits<N>)>, SolutionError> {
    let floor = geo.inside.and_not(room.walls);
    with_search::<N, _>(|search| {
        let explored = search.run(geo, floor, room.goals, aim.max_positions);
        let top = explored.max_pushes.min(aim.cap());
        if top < aim.min_pushes.max(1) {
            return Ok(None);
        }
        // Without an upper bound, the farthest start; with a band, a layer drawn inside it.
        let pushes = match aim.max_pushes {
            None => top,
            Some(_) => {
                let low = aim.min_pushes.max(1);
                low + rng.below((top - low + 1) as usize) as u32
            }
        };
        let Some(start) = search.start_at(geo, pushes) else {
            return Ok(None);
        };
        // The player stands on the run's start cell when it lies in the player's area (the
        // seed level's player, or `--start`), else on the area's lowest cell.
        let area = geo.flood(Bits::single(start.player), floor.and_not(start.boxes));
        let player = if area.has(build.start()) {
            build.start()
        } else {
            start.player
        };
        let level = level_from_cells(geo, room.walls, room.goals, start.boxes, player);
        let lurd = lurd_of_pushes(geo, &level, &start.pushes)?;
        check_solves(&level, &lurd)?;
        // The thesis's score of the level, each box paired with the goal its pushes end on.
        let mut at: Vec<(usize, usize)> = start.boxes.iter().map(|c| (c, c)).collect();
        for &(cell, dir) in &start.pushes {
            if let (Some(b), Some(to)) = (at.iter_mut().find(|b| b.1 == cell), geo.step(cell, dir))
            {
                b.1 = to;
            }
        }
        let metrics = score_level(
            geo,
            build.rules(),
            room.walls,
            start.boxes,
            room.goals,
            aim.boxes as u32,
            at.into_iter(),
        );
        Ok(Some((
            AimedLevel {
                level,
                solution: lurd,
                optimal_pushes: pushes,
                farthest_pushes: explored.max_pushes,
            },
            metrics,
            start.boxes,
        )))
    })
}

/// A level of an aimed run: replayed, with its exact difficulty.
#[derive(Clone, Debug)]
struct AimedLevel {
    /// The level (with a wall border).
    level: puzzle_sokoban::Level,
    /// Its push-optimal LURD solution (replayed).
    solution: String,
    /// The fewest pushes that solve it (proven by the backward search).
    optimal_pushes: u32,
    /// The most pushes any start of its room needs.
    farthest_pushes: u32,
}

struct AimedKept<const N: usize> {
    walls: Bits<N>,
    goals: Bits<N>,
    boxes: Bits<N>,
    pushes: u32,
}

/// A made level waiting for the collector: its room, and when it was made.
struct Made<const N: usize> {
    made: Result<Option<(AimedLevel, Metrics, Bits<N>)>, SolutionError>,
    room: Room<N>,
    iteration: u64,
    thread: usize,
    time_s: f64,
}

/// What one search thread knows of its own finds: its most pushes, its hardest rooms and its
/// work, so that a thread's choices depend on its own search only (a run with an iteration
/// budget repeats on any number of threads).
#[derive(Default)]
struct ThreadState<const N: usize> {
    /// The most pushes of this thread's levels.
    best: u32,
    /// This thread's hardest rooms (at most [`ELITE_ROOMS`]), hardest first.
    elite: Vec<(Room<N>, u32)>,
    /// Positions searched improving the rooms the MCTS found.
    found_work: u64,
    /// Positions searched improving the hardest rooms again.
    elite_work: u64,
    /// Levels made, held until the search ends (runs that must repeat).
    held: Vec<Made<N>>,
}

impl<const N: usize> ThreadState<N> {
    fn note(&mut self, room: Room<N>, farthest: u32) {
        self.best = self.best.max(farthest);
        if self.elite.iter().any(|e| e.0 == room) {
            return;
        }
        let at = self.elite.partition_point(|e| e.1 >= farthest);
        if at < ELITE_ROOMS {
            self.elite.insert(at, (room, farthest));
            self.elite.truncate(ELITE_ROOMS);
        }
    }
}

struct AimedCollector<'s, const N: usize> {
    sink: Sink<'s>,
    kept: Vec<AimedKept<N>>,
    best: u32,
    best_time: f64,
    trace: Vec<(f64, f64)>,
    error: Option<GenError>,
}

impl<const N: usize> AimedCollector<'_, N> {
    /// Keep a made level unless it is a near-duplicate of a kept level at least as hard, and
    /// hand it to the sink.
    fn keep(&mut self, m: Made<N>, near: u32, stop: &AtomicBool) {
        if self.error.is_some() {
            return;
        }
        let (level, metrics, boxes) = match m.made {
            Ok(Some(v)) => v,
            Ok(None) => return,
            Err(e) => {
                self.error = Some(GenError::Verification(e));
                stop.store(true, Ordering::Relaxed);
                return;
            }
        };
        let room = m.room;
        let pushes = level.optimal_pushes;
        let duplicate = self.kept.iter().any(|k| {
            let diff = room
                .walls
                .xor(k.walls)
                .or(room.goals.xor(k.goals))
                .or(boxes.xor(k.boxes));
            diff.count() <= near && pushes <= k.pushes
        });
        if duplicate {
            return;
        }
        let new_best = pushes > self.best;
        if new_best {
            self.best = pushes;
            self.best_time = m.time_s;
            self.trace.push((m.time_s, pushes as f64));
        }
        self.kept.push(AimedKept {
            walls: room.walls,
            goals: room.goals,
            boxes,
            pushes,
        });
        let xsb = level.level.to_xsb();
        let out = GeneratedLevel {
            level: level.level,
            xsb,
            solution: level.solution,
            metrics,
            iteration: m.iteration,
            time_s: m.time_s,
            new_best,
            optimal_pushes: Some(pushes),
        };
        if let Err(e) = (self.sink)(&out) {
            self.error = Some(GenError::Sink(e));
            stop.store(true, Ordering::Relaxed);
        }
    }
}

/// Run a generation aimed at difficulty (see the module doc), handing each kept level to
/// `sink` as it is found. On one thread, or under a time budget, levels go to the sink as they
/// are made; with several threads and an iteration budget, each thread's levels are held and
/// handed over when the search ends, ordered by the thread's iteration, then its index, so the
/// same seed, thread count and iterations keep the same levels in every run.
pub(crate) fn run_aimed<const N: usize, const B: usize>(
    params: &GenParams,
    aim: Aim,
    sink: Sink<'_>,
) -> Result<GenSummary, GenError> {
    let build = root_state::<N, B>(params)?;
    let root = AimedState::new(build, aim);
    let geo = *build.geometry();
    let stop = params
        .budget
        .stop
        .clone()
        .unwrap_or_else(|| Arc::new(AtomicBool::new(false)));
    let budget = params.budget.clone().with_stop_flag(stop.clone());
    let clock = Instant::now();
    let end = budget.bounded().max_time.map(|t| clock + t);
    let threads = params.threads.max(1);
    let hold = threads > 1 && budget.max_iterations.is_some();
    let cfg = MctsConfig {
        selection: params.config.selection.policy(),
        expansion: params.config.expansion(),
        budget,
        seed: params.seed,
        threads,
        // Every finished room is heard; the observer decides which to improve and keep.
        report_threshold: Some(0.0),
        ..MctsConfig::default()
    };
    let collector = Mutex::new(AimedCollector::<N> {
        sink,
        kept: Vec::new(),
        best: 0,
        best_time: 0.0,
        trace: Vec::new(),
        error: None,
    });
    let states: Vec<Mutex<ThreadState<N>>> = (0..threads).map(|_| Mutex::default()).collect();
    let near = params.near_duplicate_cells;
    let time_up = || stop.load(Ordering::Relaxed) || end.is_some_and(|e| Instant::now() >= e);
    let observer = |found: &Found<'_, AimedState<N, B>>| {
        let state = found.state;
        let value = state.pushes().min(aim.cap());
        let Some(mine) = states.get(found.thread) else {
            return;
        };
        if value == 0 || time_up() {
            return;
        }
        // Improve the rooms that reach a share of this thread's most pushes so far, or of the
        // band's bottom when that is higher: the improvement can lift a room into the band.
        let floor_value = {
            let t = mine.lock().unwrap_or_else(|e| e.into_inner());
            let base = t.best.min(aim.cap()).max(aim.min_pushes);
            ((base as f64 * KEEP_SHARE).ceil() as u32).max(1)
        };
        if value < floor_value {
            return;
        }
        let room = Room {
            walls: state.build().walls(),
            goals: state.build().boxes(),
        };
        let iteration = found.restart_offset + found.iteration;
        let mut rng = Rng::new(Rng::stream_seed(
            params.seed,
            (found.thread as u64) << 40 | iteration,
        ));
        let mut emit_rng = Rng::new(Rng::stream_seed(
            params.seed,
            (found.thread as u64) << 40 | iteration | 1 << 63,
        ));
        let mut emit = |room: Room<N>| {
            let made = aimed_level(&geo, state.build(), room, &aim, &mut emit_rng);
            let m = Made {
                made,
                room,
                iteration,
                thread: found.thread,
                time_s: clock.elapsed().as_secs_f64(),
            };
            let mut t = mine.lock().unwrap_or_else(|e| e.into_inner());
            if let Ok(Some((level, _, _))) = &m.made {
                t.note(room, level.farthest_pushes);
            }
            if hold {
                t.held.push(m);
            } else {
                drop(t);
                let mut c = collector.lock().unwrap_or_else(|e| e.into_inner());
                c.keep(m, near, &stop);
            }
        };
        if !aim.improve {
            emit(room);
            return;
        }
        // With a band, the room itself is a level of the band; without, only what the
        // improvement finds harder is kept (the room is its start).
        if aim.max_pushes.is_some() {
            emit(room);
        }
        let work = improve(&geo, &aim, room, value, &mut rng, &time_up, &mut emit);
        // Iterated local search from the thread's hardest rooms (a few random changes, then
        // the same improvement), while it has not taken more work than the improvement of
        // found rooms: the hardest rooms are the slowest to search.
        let pick = {
            let mut t = mine.lock().unwrap_or_else(|e| e.into_inner());
            t.found_work += work;
            (t.elite_work <= t.found_work && !t.elite.is_empty())
                .then(|| t.elite[rng.below(t.elite.len())].0)
        };
        if let Some(mut room) = pick {
            let mut kicks = 0;
            for _ in 0..20 {
                if kicks == ELITE_KICKS {
                    break;
                }
                if let Some(next) = room.mutate(&geo, &mut rng) {
                    room = next;
                    kicks += 1;
                }
            }
            let explored = room.explore(&geo, &aim);
            let value = explored.max_pushes.min(aim.cap());
            let work = explored.positions as u64
                + improve(&geo, &aim, room, value, &mut rng, &time_up, &mut emit);
            mine.lock().unwrap_or_else(|e| e.into_inner()).elite_work += work;
        }
    };
    let result = mcts::search_observed(&root, &cfg, &FastPlayout, Some(&observer));
    let mut held: Vec<Made<N>> = states
        .into_iter()
        .flat_map(|t| t.into_inner().unwrap_or_else(|e| e.into_inner()).held)
        .collect();
    held.sort_by_key(|m| (m.iteration, m.thread));
    let mut c = collector.into_inner().unwrap_or_else(|e| e.into_inner());
    for m in held {
        c.keep(m, near, &stop);
    }
    if let Some(e) = c.error {
        return Err(e);
    }
    Ok(GenSummary {
        iterations: result.iterations,
        elapsed: clock.elapsed(),
        best_score: c.best as f64,
        time_to_best_s: c.best_time,
        nodes: result.nodes,
        peak_nodes: result.peak_nodes,
        trace: c.trace,
        levels: c.kept.len(),
        bootstrap_iterations: 0,
        bootstrap_start_s: None,
        stop: result.stop_reason,
        samples: Vec::new(),
    })
}
