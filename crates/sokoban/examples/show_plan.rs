//! Print the packing order FESS computes for a level (`fess::plan`, docs/METHODS.md §8.13):
//! each goal drawn as its rank (0–9, then A–Z; 0 is filled first), `$` the start boxes off
//! goals, `@` the player, `·` dead squares. The goals that hold a box at the start are listed
//! below the picture.
//!
//! `cargo run --release -p puzzle-sokoban --example show_plan -- FILE.xsb LEVEL`

use puzzle_sokoban::fess::plan::PackingPlan;
use puzzle_sokoban::{parse_xsb, Board};

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: show_plan FILE.xsb LEVEL");
    let number: usize = args
        .next()
        .map_or(1, |s| s.parse().expect("LEVEL is a number from 1"));
    let text = std::fs::read_to_string(&path).expect("a readable file");
    let levels = parse_xsb(&text).expect("a valid XSB file");
    let level = levels.get(number - 1).expect("LEVEL within the file");
    let board = Board::new(level).expect("a valid level");
    let plan = PackingPlan::new(&board);
    let mut grid = vec![vec!['#'; board.width]; board.height];
    for c in 0..board.cells() as u16 {
        let (x, y) = board.xy(c);
        grid[y][x] = if board.start_boxes.contains(c) {
            '$'
        } else if c == board.start_player {
            '@'
        } else if board.is_dead(c) {
            '·'
        } else {
            ' '
        };
    }
    let mut filled = Vec::new();
    for (k, &g) in board.goal_list.iter().enumerate() {
        let (x, y) = board.xy(g);
        let rank = u32::from(plan.rank[k]);
        grid[y][x] = std::char::from_digit(rank, 36)
            .unwrap_or('+')
            .to_ascii_uppercase();
        if board.start_boxes.contains(g) {
            filled.push((x, y));
        }
    }
    for row in grid {
        println!("{}", row.into_iter().collect::<String>());
    }
    if !filled.is_empty() {
        println!("boxes on goals at the start (column, row): {filled:?}");
    }
}
