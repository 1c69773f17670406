//! Tests of the classic searches on problems with known optima: grid mazes (cross-checked
//! between BFS, A*, IDA* and uniform-cost search), the 8-puzzle, and the toy games for DBS.

use super::*;
use crate::toy::{BinaryTreeGame, SumGame};
use crate::{Budget, Game, StopReason, UniformRandom};
use proptest::prelude::*;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// A 4-connected grid maze: `#` wall, `S` start, `G` goal, `~` mud (entering costs 3),
/// anything else floor (entering costs 1).
#[derive(Clone, Debug)]
struct Maze {
    width: i32,
    height: i32,
    cells: Vec<u8>,
    start: (i32, i32),
    goal: (i32, i32),
    /// Use the Manhattan heuristic (else 0: uniform-cost search).
    informed: bool,
}

impl Maze {
    fn parse(text: &str) -> Maze {
        let rows: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        let width = rows[0].len() as i32;
        let mut cells = Vec::new();
        let (mut start, mut goal) = ((0, 0), (0, 0));
        for (y, row) in rows.iter().enumerate() {
            for (x, c) in row.bytes().enumerate() {
                match c {
                    b'S' => start = (x as i32, y as i32),
                    b'G' => goal = (x as i32, y as i32),
                    _ => {}
                }
                cells.push(c);
            }
        }
        Maze {
            width,
            height: rows.len() as i32,
            cells,
            start,
            goal,
            informed: true,
        }
    }

    fn cell(&self, (x, y): (i32, i32)) -> u8 {
        if x < 0 || y < 0 || x >= self.width || y >= self.height {
            b'#'
        } else {
            self.cells[(y * self.width + x) as usize]
        }
    }

    /// Replay `actions` from the start; the cost if every step is legal.
    fn replay(&self, actions: &[u8]) -> Option<((i32, i32), u64)> {
        let mut pos = self.start;
        let mut cost = 0u64;
        let mut out = Vec::new();
        for &a in actions {
            self.successors(&pos, &mut out);
            let &(_, next, c) = out.iter().find(|(b, _, _)| *b == a)?;
            pos = next;
            cost += c as u64;
        }
        Some((pos, cost))
    }
}

const DIRS: [(u8, i32, i32); 4] = [(b'u', 0, -1), (b'r', 1, 0), (b'd', 0, 1), (b'l', -1, 0)];

impl SearchProblem for Maze {
    type State = (i32, i32);
    type Action = u8;
    fn initial_state(&self) -> (i32, i32) {
        self.start
    }
    fn is_goal(&self, s: &(i32, i32)) -> bool {
        *s == self.goal
    }
    fn successors(&self, &(x, y): &(i32, i32), out: &mut Vec<(u8, (i32, i32), u32)>) {
        out.clear();
        for (a, dx, dy) in DIRS {
            let next = (x + dx, y + dy);
            match self.cell(next) {
                b'#' => {}
                b'~' => out.push((a, next, 3)),
                _ => out.push((a, next, 1)),
            }
        }
    }
    fn heuristic(&self, &(x, y): &(i32, i32)) -> u32 {
        if self.informed {
            ((self.goal.0 - x).abs() + (self.goal.1 - y).abs()) as u32
        } else {
            0
        }
    }
}

/// Hand-counted: the only way is right, down, right, up, right, down: 14 steps.
const MAZE: &str = "
#########
#S..#...#
#.#.#.#.#
#.#...#.#
#.#####.#
#...#..G#
#########
";

/// The same maze with the goal walled off.
const SEALED: &str = "
#########
#S..#...#
#.#.#.#.#
#.#...#.#
#.#######
#...#.#G#
#########
";

/// Two ways to the goal: through two mud cells (cost 11) or round by the floor (cost 7).
const MUDDY: &str = "
#######
#S~~..#
#.###.#
#.....#
#....G#
#######
";

fn budget() -> Budget {
    Budget::iterations(1_000_000)
}

#[test]
fn maze_costs_agree_and_match_the_hand_count() {
    let maze = Maze::parse(MAZE);
    let plans = [
        ("bfs", bfs(&maze, &budget())),
        ("astar", astar(&maze, &budget())),
        ("idastar", idastar(&maze, &budget())),
        ("idastar+tt", idastar_with_table(&maze, 1000, &budget())),
        ("weighted1", weighted_astar(&maze, 1.0, &budget())),
    ];
    for (name, plan) in &plans {
        assert!(plan.found, "{name}");
        assert_eq!(plan.stop_reason, StopReason::Solved, "{name}");
        assert_eq!(plan.cost, 14, "{name}");
        assert_eq!(plan.len(), 14, "{name}");
        assert_eq!(maze.replay(&plan.actions), Some((maze.goal, 14)), "{name}");
    }
    for (name, plan) in [
        ("dfs", dfs(&maze, &budget())),
        ("greedy", greedy_best_first(&maze, &budget())),
        ("weighted3", weighted_astar(&maze, 3.0, &budget())),
        ("depth_limited", depth_limited(&maze, 20, &budget())),
    ] {
        assert!(plan.found, "{name}");
        let (end, cost) = maze.replay(&plan.actions).expect(name);
        assert_eq!((end, cost), (maze.goal, plan.cost), "{name}");
        assert!(cost >= 14, "{name}");
    }
}

#[test]
fn muddy_maze_costs_agree_with_uniform_cost_search() {
    let maze = Maze::parse(MUDDY);
    // Through the mud: r r r r d d d = 7 steps, two mud cells: cost 5 + 6 = 11.
    // Round the left: d d r r r r d = 7 steps of floor... also reaches G: cost 7.
    let mut blind = maze.clone();
    blind.informed = false;
    let ucs = astar(&blind, &budget());
    assert_eq!(ucs.cost, 7);
    for plan in [
        astar(&maze, &budget()),
        idastar(&maze, &budget()),
        idastar_with_table(&maze, 64, &budget()),
    ] {
        assert_eq!(plan.cost, 7);
        assert_eq!(maze.replay(&plan.actions), Some((maze.goal, 7)));
    }
}

#[test]
fn unreachable_goal_is_proved_exhausted() {
    let maze = Maze::parse(SEALED);
    for plan in [
        bfs(&maze, &budget()),
        dfs(&maze, &budget()),
        astar(&maze, &budget()),
        greedy_best_first(&maze, &budget()),
        idastar(&maze, &budget()),
        idastar_with_table(&maze, 100, &budget()),
        depth_limited(&maze, 30, &budget()),
    ] {
        assert!(!plan.found);
        assert_eq!(plan.stop_reason, StopReason::Exhausted);
    }
}

#[test]
fn depth_limited_returns_the_best_horizon_state() {
    let maze = Maze::parse(MAZE);
    // In 6 steps the closest reachable cell to G (7,5) by Manhattan distance is (5,3) (dist 4)
    // at exactly 6 steps, or (5,2) ... which needs 7. So the horizon best is (5,3).
    let plan = depth_limited(&maze, 6, &budget());
    assert!(!plan.found);
    assert_eq!(plan.stop_reason, StopReason::Exhausted);
    let (end, cost) = maze.replay(&plan.actions).unwrap();
    assert_eq!(end, (5, 3));
    assert_eq!(cost, plan.cost);
    // Depth 14 reaches the goal.
    let plan = depth_limited(&maze, 14, &budget());
    assert!(plan.found);
    assert_eq!(maze.replay(&plan.actions), Some((maze.goal, 14)));
}

/// The 8-puzzle: tiles 1..8 and a blank (0), goal `1 2 3 / 4 5 6 / 7 8 0`.
struct EightPuzzle {
    start: [u8; 9],
}

const GOAL: [u8; 9] = [1, 2, 3, 4, 5, 6, 7, 8, 0];

impl SearchProblem for EightPuzzle {
    type State = [u8; 9];
    type Action = u8; // the blank's destination cell
    fn initial_state(&self) -> [u8; 9] {
        self.start
    }
    fn is_goal(&self, s: &[u8; 9]) -> bool {
        *s == GOAL
    }
    fn successors(&self, s: &[u8; 9], out: &mut Vec<(u8, [u8; 9], u32)>) {
        out.clear();
        let blank = s.iter().position(|&t| t == 0).unwrap_or(0);
        let (r, c) = (blank / 3, blank % 3);
        let mut push = |to: usize| {
            let mut next = *s;
            next.swap(blank, to);
            out.push((to as u8, next, 1));
        };
        if r > 0 {
            push(blank - 3);
        }
        if r < 2 {
            push(blank + 3);
        }
        if c > 0 {
            push(blank - 1);
        }
        if c < 2 {
            push(blank + 1);
        }
    }
    fn heuristic(&self, s: &[u8; 9]) -> u32 {
        let mut h = 0;
        for (i, &t) in s.iter().enumerate() {
            if t != 0 {
                let goal = (t - 1) as usize;
                h += (i / 3).abs_diff(goal / 3) + (i % 3).abs_diff(goal % 3);
            }
        }
        h as u32
    }
}

fn replay_puzzle(start: [u8; 9], actions: &[u8]) -> [u8; 9] {
    let mut s = start;
    for &to in actions {
        let blank = s.iter().position(|&t| t == 0).unwrap();
        let (a, b) = (blank.min(to as usize), blank.max(to as usize));
        assert!(b - a == 3 || (b - a == 1 && a / 3 == b / 3), "illegal move");
        s.swap(blank, to as usize);
    }
    s
}

#[test]
fn eight_puzzle_hardest_position_needs_31_moves() {
    // One of the two 8-puzzle positions at the maximal distance, 31 moves (Reinefeld 1993).
    let puzzle = EightPuzzle {
        start: [8, 6, 7, 2, 5, 4, 3, 0, 1],
    };
    let a = astar(&puzzle, &budget());
    let b = bfs(&puzzle, &budget());
    assert_eq!(a.cost, 31);
    assert_eq!(b.cost, 31);
    assert_eq!(replay_puzzle(puzzle.start, &a.actions), GOAL);
    assert_eq!(replay_puzzle(puzzle.start, &b.actions), GOAL);
    // A* with Manhattan stores far fewer states than BFS (9!/2 = 181,440 reachable).
    assert!(a.peak_stored < b.peak_stored);
    assert!(b.peak_stored <= 181_440);
}

#[test]
fn eight_puzzle_idastar_is_optimal() {
    let puzzle = EightPuzzle {
        start: [0, 1, 3, 4, 2, 5, 7, 8, 6], // 4 moves
    };
    assert_eq!(idastar(&puzzle, &budget()).cost, 4);
    // A 20-move position: cross-check IDA* (with and without table) against A*.
    let start = replay_puzzle(
        GOAL,
        &[7, 4, 3, 0, 1, 2, 5, 4, 7, 6, 3, 4, 5, 8, 7, 6, 3, 4, 1, 0],
    );
    let puzzle = EightPuzzle { start };
    let a = astar(&puzzle, &budget());
    let i = idastar(&puzzle, &budget());
    let t = idastar_with_table(&puzzle, 10_000, &budget());
    assert!(a.found && a.cost <= 20);
    assert_eq!(i.cost, a.cost);
    assert_eq!(t.cost, a.cost);
    assert_eq!(replay_puzzle(start, &i.actions), GOAL);
    assert_eq!(replay_puzzle(start, &t.actions), GOAL);
    assert!(t.expanded <= i.expanded);
}

#[test]
fn node_budget_is_never_exceeded() {
    let puzzle = EightPuzzle {
        start: [8, 6, 7, 2, 5, 4, 3, 0, 1],
    };
    for max in [1, 2, 50, 1000] {
        let b = Budget::iterations(1_000_000).with_max_nodes(max);
        for (name, plan) in [
            ("bfs", bfs(&puzzle, &b)),
            ("dfs", dfs(&puzzle, &b)),
            ("astar", astar(&puzzle, &b)),
            ("weighted", weighted_astar(&puzzle, 2.0, &b)),
            ("greedy", greedy_best_first(&puzzle, &b)),
        ] {
            assert!(
                plan.peak_stored <= max,
                "{name} {max}: {}",
                plan.peak_stored
            );
            // BFS and A* need far more than 1000 states here; the others may get lucky.
            if plan.found {
                assert!(!["bfs", "astar"].contains(&name), "{name} {max}");
                assert_eq!(replay_puzzle(puzzle.start, &plan.actions), GOAL);
            } else {
                assert_eq!(plan.stop_reason, StopReason::Nodes, "{name} {max}");
            }
        }
        let plan = depth_limited(&puzzle, 40, &b.clone().with_iterations(20_000));
        assert!(plan.peak_stored <= max, "depth_limited {max}");
        let plan = idastar_with_table(&puzzle, 1 << 20, &b.clone().with_iterations(20_000));
        assert!(
            plan.peak_stored <= max,
            "idastar {max}: {}",
            plan.peak_stored
        );
    }
    // IDA*'s path alone is longer than 10 states for a 31-move solution.
    let plan = idastar(&puzzle, &Budget::iterations(10_000_000).with_max_nodes(10));
    assert_eq!(plan.stop_reason, StopReason::Nodes);
    assert!(plan.peak_stored <= 10);
}

/// Counting up forever from 0 (+1 or ×2): no goal, infinitely many states.
struct Endless;

impl SearchProblem for Endless {
    type State = u64;
    type Action = bool;
    fn initial_state(&self) -> u64 {
        1
    }
    fn is_goal(&self, _: &u64) -> bool {
        false
    }
    fn successors(&self, s: &u64, out: &mut Vec<(bool, u64, u32)>) {
        out.clear();
        out.push((false, s + 1, 1));
        out.push((true, s.wrapping_mul(2), 1));
    }
}

#[test]
fn budgets_report_the_right_stop_reason() {
    let iters = Budget::iterations(100);
    for plan in [
        bfs(&Endless, &iters),
        dfs(&Endless, &iters),
        astar(&Endless, &iters),
        idastar(&Endless, &iters),
        depth_limited(&Endless, 1000, &iters),
    ] {
        assert_eq!(plan.stop_reason, StopReason::Iterations);
        assert!(plan.expanded <= 100);
    }
    let time = Budget::time(Duration::from_millis(30));
    for plan in [
        bfs(&Endless, &time),
        astar(&Endless, &time),
        idastar(&Endless, &time),
    ] {
        assert_eq!(plan.stop_reason, StopReason::Time);
        assert!(plan.elapsed < Duration::from_secs(2), "{:?}", plan.elapsed); // generous
    }
    let flag = Arc::new(AtomicBool::new(true));
    let stopped = Budget::iterations(1000).with_stop_flag(flag);
    assert_eq!(
        astar(&Endless, &stopped).stop_reason,
        StopReason::Interrupted
    );
    assert_eq!(bfs(&Endless, &stopped).stop_reason, StopReason::Interrupted);
}

#[test]
fn searches_are_deterministic() {
    let puzzle = EightPuzzle {
        start: replay_puzzle(GOAL, &[5, 4, 3, 6, 7, 4, 1, 2, 5, 8, 7, 6]),
    };
    let a = astar(&puzzle, &budget());
    let b = astar(&puzzle, &budget());
    assert_eq!((a.actions, a.expanded), (b.actions, b.expanded));
    let a = dfs(&puzzle, &budget());
    let b = dfs(&puzzle, &budget());
    assert_eq!((a.actions, a.expanded), (b.actions, b.expanded));
}

fn replay_game<G: Game>(root: &G, actions: &[G::Action]) -> f64 {
    crate::replay(root, actions).unwrap().score()
}

#[test]
fn dbs_finds_the_toy_optima() {
    let values: Vec<i64> = (0..20).map(|i| (i * 37 % 101) as i64).collect();
    let game = SumGame::new(&values, 6);
    let r = dbs(
        &game,
        &DbsConfig::default(),
        &GreedyPolicy::default(),
        &budget(),
    );
    assert_eq!(r.score, game.optimum() as f64);
    assert_eq!(replay_game(&game, &r.sequence), r.score);
    assert_eq!(r.stop_reason, StopReason::Exhausted);

    let tree = BinaryTreeGame::new(24, 0x00AB_CDEF);
    let cfg = DbsConfig { depth: 3, seed: 5 };
    let r = dbs(&tree, &cfg, &UniformRandom::default(), &budget());
    assert_eq!(r.score, 1.0);
    assert_eq!(r.sequence.len(), 24);
    assert_eq!(replay_game(&tree, &r.sequence), 1.0);
    assert!(r.peak_stored <= 5);
    let again = dbs(&tree, &cfg, &UniformRandom::default(), &budget());
    assert_eq!(again.sequence, r.sequence);
    assert_eq!(again.playouts, r.playouts);
}

#[test]
fn dbs_respects_its_budgets() {
    let tree = BinaryTreeGame::new(30, 0x1234_5678);
    let cfg = DbsConfig { depth: 4, seed: 1 };
    let r = dbs(
        &tree,
        &cfg,
        &UniformRandom::default(),
        &Budget::iterations(40),
    );
    assert_eq!(r.stop_reason, StopReason::Iterations);
    assert_eq!(r.playouts, 40);
    // Stopped mid-way, the result is still a complete, replayable sequence.
    assert_eq!(r.sequence.len(), 30);
    assert_eq!(replay_game(&tree, &r.sequence), r.score);
    let r = dbs(
        &tree,
        &cfg,
        &UniformRandom::default(),
        &Budget::iterations(1000).with_max_nodes(5),
    );
    assert_eq!(r.stop_reason, StopReason::Nodes);
    assert_eq!(r.playouts, 0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// On random 8×8 mazes with mud, A*, IDA* and uniform-cost search agree on the cost, and
    /// BFS agrees with them when there is no mud.
    #[test]
    fn random_maze_costs_agree(cells in proptest::collection::vec(0u8..10, 64), mud in any::<bool>()) {
        let mut text = String::new();
        for y in 0..8 {
            for x in 0..8 {
                let c = match (x, y) {
                    (0, 0) => 'S',
                    (7, 7) => 'G',
                    _ => match cells[y * 8 + x] {
                        0..=2 => '#',
                        3 if mud => '~',
                        _ => '.',
                    },
                };
                text.push(c);
            }
            text.push('\n');
        }
        let maze = Maze::parse(&text);
        let mut blind = maze.clone();
        blind.informed = false;
        let ucs = astar(&blind, &budget());
        let a = astar(&maze, &budget());
        let i = idastar(&maze, &budget());
        let t = idastar_with_table(&maze, 256, &budget());
        prop_assert_eq!(a.found, ucs.found);
        prop_assert_eq!(i.found, ucs.found);
        prop_assert_eq!(t.found, ucs.found);
        if ucs.found {
            prop_assert_eq!(a.cost, ucs.cost);
            prop_assert_eq!(i.cost, ucs.cost);
            prop_assert_eq!(t.cost, ucs.cost);
            prop_assert_eq!(maze.replay(&a.actions), Some((maze.goal, a.cost)));
            prop_assert_eq!(maze.replay(&i.actions), Some((maze.goal, i.cost)));
            let w = weighted_astar(&maze, 2.0, &budget());
            prop_assert!(w.cost >= a.cost && w.cost <= 2 * a.cost);
            if !mud {
                prop_assert_eq!(bfs(&maze, &budget()).cost, a.cost);
            }
        } else {
            prop_assert_eq!(a.stop_reason, StopReason::Exhausted);
            // IDA* enumerates simple paths: proving "no solution" may take exponential time.
            prop_assert!(!i.found && !t.found);
            prop_assert_eq!(bfs(&maze, &budget()).stop_reason, StopReason::Exhausted);
        }
    }
}
