//! Try A* heuristics on a level: LEVEL, then hole costs as arguments (0 = walk heuristic).
use puzzle_bait::astar::{AStar, AStarStatus, Heuristic};
use puzzle_bait::{builtin_level, BaitState};
fn main() {
    let level: usize = std::env::var("LEVEL")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    for arg in std::env::args().skip(1) {
        let c: u32 = arg.parse().unwrap();
        let h = if c == 0 {
            Heuristic::Walk
        } else {
            Heuristic::Relaxed(c)
        };
        let start = BaitState::new(builtin_level(level).unwrap());
        let t = std::time::Instant::now();
        let mut s = AStar::new(&start, h, 4_000_000);
        let st = s.run(None, None);
        let (len, score) = match &st {
            AStarStatus::Solved(p) => (p.len(), start.replay(p).points()),
            _ => (0, 0),
        };
        println!(
            "L{level} {h:?}: len={len} score={score} expanded={} {:.2}s {:?}",
            s.expanded,
            t.elapsed().as_secs_f64(),
            match st {
                AStarStatus::Solved(_) => "solved".to_string(),
                o => format!("{o:?}"),
            }
        );
    }
}
