//! Dead squares and freeze deadlocks on hand-made positions.

use puzzle_sokoban::board::Board;
use puzzle_sokoban::deadlock::{closed_diagonal_deadlock, FreezeCheck};
use puzzle_sokoban::position::Position;
use puzzle_sokoban::Level;

fn board(text: &str) -> (Level, Board) {
    let level = Level::parse_one(text).unwrap();
    let board = Board::new(&level).unwrap();
    (level, board)
}

/// The dead-square map as rows of `x` (dead) and `.` (live) over the grid (`#` walls).
fn dead_map(level: &Level, board: &Board) -> String {
    let mut s = String::new();
    for y in 0..level.height {
        for x in 0..level.width {
            let i = level.index(x, y);
            let c = board.cell_of[i];
            s.push(if level.walls[i] {
                '#'
            } else if c == u16::MAX {
                ' '
            } else if board.is_dead(c) {
                'x'
            } else {
                '.'
            });
        }
        s.push('\n');
    }
    s
}

#[test]
fn corners_and_walls_between_corners_are_dead() {
    let (level, board) = board(
        "#######\n\
         #     #\n\
         # $@  #\n\
         #   . #\n\
         #######\n",
    );
    // Every corner is dead; the whole top row and left/right columns lie along walls between
    // corners with no goal; the bottom row holds the goal and stays live... except its
    // corners. Interior cells can be pushed to the goal.
    assert_eq!(
        dead_map(&level, &board),
        "#######\n\
         #xxxxx#\n\
         #x...x#\n\
         #x...x#\n\
         #######\n"
    );
}

#[test]
fn a_goal_on_a_wall_keeps_that_wall_line_alive() {
    let (level, board) = board(
        "#######\n\
         #  .  #\n\
         # $@  #\n\
         #     #\n\
         #######\n",
    );
    let map = dead_map(&level, &board);
    assert_eq!(map.lines().nth(1).unwrap(), "#x...x#");
    assert_eq!(map.lines().nth(3).unwrap(), "#xxxxx#");
}

#[test]
fn dead_squares_respect_pull_reachability() {
    // The dead end to the right: a box pushed into it can never come back.
    let (_, board) = board("########\n#.$@   #\n###### #\n     ###\n");
    let dead: Vec<bool> = board.dead.clone();
    let live = dead.iter().filter(|&&d| !d).count();
    // Live: the goal, the box's cell, the player's cell? (A box at x=3 can be pushed left
    // twice to the goal from x=4 with the player at x=5... so x=1..=5 are live in principle
    // except where no player square is behind.)
    assert!(live >= 3, "{dead:?}");
    let cell = |x: usize, y: usize| board.cell_of[y * board.width + x];
    assert!(!board.is_dead(cell(1, 1)));
    assert!(!board.is_dead(cell(2, 1)));
    assert!(board.is_dead(cell(6, 1)), "the corner at the turn is dead");
    assert!(board.is_dead(cell(6, 2)), "the dead-end corridor is dead");
}

fn frozen_after(text: &str, x: usize, y: usize) -> bool {
    let (_, board) = board(text);
    let pos = Position::start(&board);
    let cell = board.cell_of[y * board.width + x];
    assert!(pos.boxes.contains(cell), "no box at ({x},{y})");
    FreezeCheck::new().is_deadlock(&board, &pos.boxes, cell)
}

#[test]
fn freeze_two_boxes_along_a_wall() {
    // Two boxes side by side against the top wall: neither can move along the wall or away.
    let text = "########\n\
                #  $$  #\n\
                #  @   #\n\
                #  ..  #\n\
                ########\n";
    assert!(frozen_after(text, 3, 1));
    assert!(frozen_after(text, 4, 1));
}

#[test]
fn two_by_two_block_of_boxes_is_frozen() {
    let text = "########\n\
                #      #\n\
                # $$   #\n\
                # $$ @ #\n\
                # .... #\n\
                ########\n";
    assert!(frozen_after(text, 2, 2));
    assert!(frozen_after(text, 3, 3));
}

#[test]
fn box_and_wall_square_is_frozen() {
    // Box at (3,2) with a wall to its right (4,2) and box below (3,3) with wall (4,3):
    // the pair cannot move vertically (each blocks the other) nor horizontally (walls).
    let text = "#######\n\
                #     #\n\
                #  $# #\n\
                #  $# #\n\
                # @.. #\n\
                #######\n";
    assert!(frozen_after(text, 3, 2));
}

#[test]
fn movable_boxes_are_not_frozen() {
    let text = "########\n\
                #      #\n\
                #  $$  #\n\
                #  @   #\n\
                #  ..  #\n\
                ########\n";
    assert!(!frozen_after(text, 3, 2));
    // A single box against a wall with a goal on that wall can still slide along it.
    let text = "########\n\
                #. $   #\n\
                #  @   #\n\
                #      #\n\
                ########\n";
    assert!(!frozen_after(text, 3, 1));
}

#[test]
fn frozen_boxes_all_on_goals_are_not_a_deadlock() {
    let text = "########\n\
                #  **  #\n\
                #  @   #\n\
                #      #\n\
                ########\n";
    assert!(!frozen_after(text, 3, 1));
}

mod corrals {
    use puzzle_sokoban::board::Board;
    use puzzle_sokoban::corral::CorralPruner;
    use puzzle_sokoban::packing::packing_ranks;
    use puzzle_sokoban::position::{generate_pushes, Position, Reach};
    use puzzle_sokoban::{Dir, Level};

    fn pushes_after_pruning(text: &str) -> (Vec<(usize, usize, Dir)>, usize, bool) {
        let level = Level::parse_one(text).unwrap();
        let board = Board::new(&level).unwrap();
        let pos = Position::start(&board);
        let mut reach = Reach::new(board.cells());
        reach.compute(&board, &pos.boxes, pos.player);
        let mut pushes = Vec::new();
        generate_pushes(&board, &pos, &reach, true, &mut pushes);
        let all = pushes.len();
        let pruned = CorralPruner::new().restrict(&board, &pos, &reach, &mut pushes);
        let list = pushes
            .iter()
            .map(|p| {
                let (x, y) = board.xy(p.from);
                (x, y, p.dir)
            })
            .collect();
        (list, all, pruned)
    }

    #[test]
    fn pi_corral_keeps_only_pushes_into_it() {
        // The goal at (6,2) is walled off behind the box at (5,2): a PI-corral (the box can
        // only go right, into it, and the player can push it). The free box at (2,3) has
        // other pushes, which are pruned.
        let text = "#########\n\
                    #    ## #\n\
                    #  @ $ .#\n\
                    # $   ###\n\
                    #.    #  \n\
                    ######   \n";
        let (list, all, pruned) = pushes_after_pruning(text);
        assert!(pruned, "{list:?}");
        assert!(all > list.len());
        assert_eq!(list, vec![(5, 2, Dir::Right)]);
    }

    #[test]
    fn no_corral_no_pruning() {
        let text = "#######\n\
                    #     #\n\
                    # $@  #\n\
                    #   . #\n\
                    #######\n";
        let (list, all, pruned) = pushes_after_pruning(text);
        assert!(!pruned);
        assert_eq!(list.len(), all);
    }

    #[test]
    fn packing_order_fills_the_far_end_of_a_goal_corridor_first() {
        // Goals in a dead-end corridor: the innermost must be filled first.
        let text = "#######\n\
                    #...  #\n\
                    ###   #\n\
                    # $$$@#\n\
                    #     #\n\
                    #######\n";
        let level = Level::parse_one(text).unwrap();
        let board = Board::new(&level).unwrap();
        let ranks = packing_ranks(&board);
        let rank_at = |x: usize| {
            let c = board.cell_of[level.index(x, 1)];
            ranks[board.goal_list.iter().position(|&g| g == c).unwrap()]
        };
        assert!(rank_at(1) < rank_at(2), "{ranks:?}");
        assert!(rank_at(2) < rank_at(3), "{ranks:?}");
    }
}

/// (freeze verdict, closed-diagonal verdict) for the box at (x, y) of the start position.
fn verdicts(text: &str, x: usize, y: usize) -> (bool, bool) {
    let (_, board) = board(text);
    let pos = Position::start(&board);
    let cell = board.cell_of[y * board.width + x];
    assert!(pos.boxes.contains(cell), "no box at ({x},{y})");
    (
        FreezeCheck::new().is_deadlock(&board, &pos.boxes, cell),
        closed_diagonal_deadlock(&board, &pos.boxes, pos.player, cell),
    )
}

#[test]
fn closed_diagonal_box_between_two_sealed_cells() {
    // The box at (3,1) sits between two empty cells whose other neighbours are walls and the
    // two boxes on goals in the corners: the player can never stand left or right of it, and
    // the wall above stops vertical pushes. Not frozen (its left cell is a live goal), but dead.
    let text = "#######\n\
                #*.$ *#\n\
                ### ###\n\
                #  @  #\n\
                #######\n";
    assert_eq!(verdicts(text, 3, 1), (false, true));
}

#[test]
fn closed_diagonal_vertical() {
    // The same shape turned a quarter: the box at (1,3) between two sealed cells of a column.
    let text = "#####\n\
                #*# #\n\
                #.# #\n\
                #$ @#\n\
                # # #\n\
                #*# #\n\
                #####\n";
    assert_eq!(verdicts(text, 1, 3), (false, true));
}

#[test]
fn closed_diagonal_with_every_box_on_a_goal_is_no_deadlock() {
    let text = "#######\n\
                #* * *#\n\
                ### ###\n\
                #  @  #\n\
                #######\n";
    assert_eq!(verdicts(text, 3, 1), (false, false));
}

#[test]
fn closed_diagonal_with_an_opening_is_no_deadlock() {
    // The wall under the right cell is gone: the player walks in and pushes the box onto the
    // goal on its left.
    let text = "#######\n\
                #*.$ *#\n\
                ###  ##\n\
                #  @  #\n\
                #######\n";
    assert_eq!(verdicts(text, 3, 1), (false, false));
}

#[test]
fn box_pushable_into_the_enclosed_centre_is_no_deadlock() {
    // The centre goal is boxed in on all four sides, but the player above can push the top
    // box down into it.
    let text = "#######\n\
                #  @  #\n\
                # #$# #\n\
                # $.$ #\n\
                #  $  #\n\
                #  .. #\n\
                # .   #\n\
                #######\n";
    assert!(!verdicts(text, 3, 2).1);
    assert!(!verdicts(text, 3, 4).1);
}

/// No position along a solution is a deadlock: the bipartite test with frozen boxes as walls
/// and the corral test (after each push, around the pushed box) pass every position of the
/// replayed solutions of the first 80 Microban levels.
#[test]
fn deadlock_tests_pass_every_position_on_solutions() {
    use puzzle_engine::{Budget, StopReason};
    use puzzle_sokoban::bipartite::FrozenMatching;
    use puzzle_sokoban::corraldl::CorralDeadlock;
    use puzzle_sokoban::lurd::parse_lurd;
    use puzzle_sokoban::position::Reach;
    use puzzle_sokoban::{parse_xsb, replay, solve, Algorithm};
    let text = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/sokoban/Microban_155.xsb"
    ));
    let levels = parse_xsb(text).unwrap();
    let mut checked = 0;
    for (i, level) in levels.iter().take(80).enumerate() {
        let budget = Budget::iterations(200_000).with_max_nodes(2_000_000);
        let s = solve(level, Algorithm::Greedy, &budget).unwrap();
        assert_eq!(s.stop, StopReason::Solved, "Microban {}", i + 1);
        let lurd = s.lurd.expect("a solution");
        assert!(replay(level, &lurd).unwrap().solved);
        let board = Board::new(level).unwrap();
        let mut pos = Position::start(&board);
        let mut matching = FrozenMatching::new();
        let mut corrals = CorralDeadlock::new(&board, 10_000);
        let mut reach = Reach::new(board.cells());
        for (dir, push) in parse_lurd(&lurd).unwrap() {
            let next = board.step(pos.player, dir);
            if push {
                let to = board.step(next, dir);
                pos.boxes.remove(next);
                pos.boxes.insert(to);
                pos.player = next;
                reach.compute(&board, &pos.boxes, pos.player);
                assert!(
                    !matching.is_deadlock(&board, &pos.boxes),
                    "bipartite, Microban {}",
                    i + 1
                );
                assert!(
                    !corrals.is_deadlock(&board, &pos, &reach, to),
                    "corral, Microban {}",
                    i + 1
                );
                checked += 1;
            } else {
                pos.player = next;
            }
        }
    }
    assert!(checked > 1000, "{checked} positions checked");
}
