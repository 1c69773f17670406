//! A checksum of every move of every playout of each policy on several boards (standard
//! board 1 and random boards of other sizes and colour counts), to check that a change to
//! the board or the policies keeps playouts move-for-move identical.
//! `cargo run --release -p puzzle-samegame --example playout_trace -- 300`

use puzzle_engine::{PlayoutPolicy, Rng};
use puzzle_samegame::playout::{AnyChooser, Playout};
use puzzle_samegame::{format, Board, Scoring};

fn main() {
    let count: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(300);
    let text = include_str!("../../../data/samegame/standard20/problem01.txt");
    let mut boards = vec![(
        "standard 1".to_string(),
        format::parse_standard(text, "problem01.txt", Scoring::standard()).unwrap(),
    )];
    for &(w, h, c, seed) in &[
        (15, 15, 5, 7u64),
        (15, 15, 2, 8),
        (12, 9, 3, 9),
        (20, 10, 4, 10),
        (7, 30, 6, 11),
        (40, 40, 9, 12),
        (10, 70, 5, 13),
        (5, 3, 1, 14),
        (64, 5, 17, 15),
    ] {
        let b = Board::random(w, h, c, seed, Scoring::standard()).unwrap();
        boards.push((format!("{w}x{h} c{c}"), b));
    }
    let policies = [
        "random",
        "tabu",
        "tabu-colour",
        "pseudo",
        "pseudo-tabu",
        "double-tabu",
        "roulette",
        "eps0.2-tabu",
    ];
    let mut all = 0xcbf2_9ce4_8422_2325u64;
    for (name, board) in &boards {
        let mut line = format!("{name:>12}:");
        for p in policies {
            let chooser: AnyChooser = p.parse().unwrap();
            let mut policy = Playout::new(chooser);
            let mut rng = Rng::new(1);
            let mut state = board.clone();
            let mut trace = Vec::new();
            let mut h = 0xcbf2_9ce4_8422_2325u64;
            let mut mix = |x: u64| {
                h = (h ^ x).wrapping_mul(0x0100_0000_01b3);
            };
            for _ in 0..count {
                state.clone_from(board);
                trace.clear();
                policy.playout(&mut state, &mut rng, &mut trace);
                for m in &trace {
                    mix((m.col as u64) << 8 | m.row as u64);
                }
                mix(state.final_score() as u64);
                mix(state.zobrist());
            }
            line += &format!(" {p}={:08x}", h as u32);
            all = (all ^ h).wrapping_mul(0x0100_0000_01b3);
        }
        println!("{line}");
    }
    println!("all: {all:016x}");
}
