//! FESS's seven advisors (Shoham & Schaeffer 2020, §III-E; their rules follow the authors'
//! longer write-up; see `docs/METHODS.md#sokoban-fess`). Each looks at the macro moves of a
//! new position and suggests at most one; a suggested move weighs 0, any other 1.
//!
//! Four advisors each push one feature forward: *packing* (more boxes packed in order),
//! *connectivity* (fewer free-floor areas), *room connectivity* (fewer obstructed room links)
//! and *out of plan* (the out-of-plan box nearest to the plan's cells pushed into them, or
//! else a box next to it pushed into them to make room, connectivity not worse). Two deal
//! with hotspots: *hotspot* (fewer hotspots) and *opener* (the hotspot blocking the most
//! boxes pushed away, or else a box next to it pushed away from it, connectivity not worse).
//! The *explorer* opens a way to a free cell from which a push is possible that was not
//! before. Among its candidates an advisor takes the best by the tie-break order of the
//! search ([`Features::order`]). With [`Sharing::Distinct`] an advisor whose best move an
//! advisor before it already suggested names its next best instead, so that several advisors
//! agreeing on one move still leave the search several moves of weight 0.

use super::Features;
use crate::board::{Board, CellSet};
use crate::fess::macros::MacroMove;

/// What the advisors know of one macro move of the position.
#[derive(Clone, Copy, Debug)]
pub struct Candidate {
    /// The move.
    pub m: MacroMove,
    /// The features after it.
    pub features: Features,
    /// After it the player reaches a cell from which a box that did not move can be pushed,
    /// and could not reach that cell before.
    pub explores: bool,
}

/// The position the advisors advise on.
pub struct Context<'a> {
    /// The board.
    pub board: &'a Board,
    /// The position's features.
    pub features: Features,
    /// Each box of the position with the number of boxes off goals it is a hotspot for.
    pub blocked: &'a [(u16, u32)],
    /// Boxes out of plan.
    pub out_of_plan: &'a [u16],
    /// The cells in plan (the basins of the goals still to be packed).
    pub in_plan: &'a CellSet,
}

/// The grid distance between two cells (rows plus columns).
fn grid_distance(board: &Board, a: u16, b: u16) -> usize {
    let (ax, ay) = board.xy(a);
    let (bx, by) = board.xy(b);
    ax.abs_diff(bx) + ay.abs_diff(by)
}

/// The best of the candidates `keep` selects (by index and candidate), by the features'
/// tie-break order.
fn best_at(cands: &[Candidate], keep: impl Fn(usize, &Candidate) -> bool) -> Option<usize> {
    cands
        .iter()
        .enumerate()
        .filter(|&(i, c)| keep(i, c))
        .min_by_key(|(_, c)| c.features.order())
        .map(|(i, _)| i)
}

/// The best of the candidates `keep` selects, by the features' tie-break order.
fn best(cands: &[Candidate], keep: impl Fn(&Candidate) -> bool) -> Option<usize> {
    best_at(cands, |_, c| keep(c))
}

/// The best of the candidates `keep` selects that are not `advised` yet: an advisor whose
/// best move another advisor already suggested names its next best instead, so that the
/// advisors together name as many different moves as they can.
fn best_new(
    cands: &[Candidate],
    advised: &[bool],
    keep: &dyn Fn(&Candidate) -> bool,
) -> Option<usize> {
    best_at(cands, |i, c| !advised[i] && keep(c))
}

/// The box nearest to `target` among the boxes that have a candidate `keep` selects (not
/// `target` itself, at most `radius` away), and its best such candidate.
fn nearest_box_move(
    ctx: &Context,
    cands: &[Candidate],
    target: u16,
    radius: usize,
    keep: impl Fn(&Candidate) -> bool,
) -> Option<usize> {
    let mut by_box: Vec<(usize, u16)> = cands
        .iter()
        .filter(|c| c.m.from != target && keep(c))
        .map(|c| (grid_distance(ctx.board, c.m.from, target), c.m.from))
        .filter(|&(d, _)| d <= radius)
        .collect();
    by_box.sort_unstable();
    let &(_, b) = by_box.first()?;
    best(cands, |c| c.m.from == b && keep(c))
}

/// How far a box next to a blocking box may stand for the opener and out-of-plan advisors to
/// push it away: the cells around the blocking box, diagonals included.
const NEAR: usize = 2;

/// How the advisors share out their suggestions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Sharing {
    /// Each advisor names its own best move, whether or not another names it too (the
    /// paper's advisors, §III-E).
    #[default]
    Own,
    /// The four feature advisors and the explorer ask in turn, and one whose best move an
    /// advisor before it already named names its next best: as many moves of weight 0 as
    /// they can give.
    Distinct,
}

/// The advisors' suggestions: `advised[i]` is set when some advisor suggests candidate `i`.
pub fn advise(ctx: &Context, cands: &[Candidate], advised: &mut Vec<bool>, sharing: Sharing) {
    advised.clear();
    advised.resize(cands.len(), false);
    let f = ctx.features;
    let not_worse = |c: &Candidate| c.features.regions <= f.regions;
    // Packing, connectivity, room connectivity, hotspots (one feature each) and the
    // explorer, in turn.
    let feature_advisors: [&dyn Fn(&Candidate) -> bool; 5] = [
        &|c| c.features.packed > f.packed,
        &|c| c.features.regions < f.regions,
        &|c| c.features.rooms < f.rooms,
        &|c| c.features.hotspots < f.hotspots,
        &|c| c.explores,
    ];
    for keep in feature_advisors {
        let pick = match sharing {
            Sharing::Own => best(cands, keep),
            Sharing::Distinct => best_new(cands, advised, keep),
        };
        if let Some(i) = pick {
            advised[i] = true;
        }
    }
    // Opener: the hotspot blocking the most boxes.
    let hottest = ctx
        .blocked
        .iter()
        .filter(|&&(_, k)| k > 0)
        .max_by_key(|&&(b, k)| (k, std::cmp::Reverse(b)))
        .map(|&(b, _)| b);
    let mut picks: [Option<usize>; 2] = [None; 2];
    if let Some(h) = hottest {
        picks[0] = best(cands, |c| c.m.from == h && not_worse(c)).or_else(|| {
            nearest_box_move(ctx, cands, h, NEAR, |c| {
                not_worse(c)
                    && grid_distance(ctx.board, c.m.to, h) > grid_distance(ctx.board, c.m.from, h)
            })
        });
    }
    // Out of plan: the out-of-plan box nearest to the plan's cells.
    if let Some(o) = nearest_to_plan(ctx) {
        picks[1] = best(cands, |c| c.m.from == o && ctx.in_plan.contains(c.m.to)).or_else(|| {
            nearest_box_move(ctx, cands, o, NEAR, |c| {
                not_worse(c) && ctx.in_plan.contains(c.m.to)
            })
        });
    }
    for i in picks.into_iter().flatten() {
        advised[i] = true;
    }
}

/// The out-of-plan box nearest (walking over the floor) to a cell in plan.
fn nearest_to_plan(ctx: &Context) -> Option<u16> {
    if ctx.out_of_plan.is_empty() {
        return None;
    }
    let board = ctx.board;
    let n = board.cells();
    let mut dist = vec![u32::MAX; n];
    let mut queue: Vec<u16> = ctx.in_plan.iter().collect();
    for &c in &queue {
        dist[c as usize] = 0;
    }
    board.spread_steps(&mut queue, &mut dist, u32::MAX);
    ctx.out_of_plan
        .iter()
        .copied()
        .min_by_key(|&b| (dist[b as usize], b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dir::Dir;
    use crate::fess::test_levels::board;

    fn feats(packed: u32, regions: u32, rooms: u32, oop: u32, hotspots: u32) -> Features {
        Features {
            packed,
            regions,
            rooms,
            out_of_plan: oop,
            hotspots,
            mobility: 0,
        }
    }

    fn cand(from: u16, to: u16, features: Features, explores: bool) -> Candidate {
        Candidate {
            m: MacroMove {
                from,
                to,
                side: Dir::Right,
                pushes: 1,
                areas_added: 0,
            },
            features,
            explores,
        }
    }

    /// The advice on `cands` in a position with features `base`, no hotspot and no box out of
    /// plan.
    fn plain_advice(b: &Board, base: Features, cands: &[Candidate], sharing: Sharing) -> Vec<bool> {
        let in_plan = CellSet::new(b.cells());
        let ctx = Context {
            board: b,
            features: base,
            blocked: &[],
            out_of_plan: &[],
            in_plan: &in_plan,
        };
        let mut advised = Vec::new();
        advise(&ctx, cands, &mut advised, sharing);
        advised
    }

    #[test]
    fn each_feature_advisor_names_one_move_that_improves_its_feature() {
        let b = board("#########\n#@ $ $ ..#\n#########\n");
        let base = feats(0, 2, 1, 0, 1);
        let cands = [
            cand(3, 4, feats(0, 2, 1, 0, 1), false), // changes nothing
            cand(5, 7, feats(1, 2, 1, 0, 1), false), // packs
            cand(5, 6, feats(0, 1, 1, 0, 1), false), // joins two areas
            cand(3, 2, feats(0, 2, 0, 0, 1), false), // opens a room link
            cand(5, 8, feats(1, 3, 1, 0, 1), false), // packs, splits an area
        ];
        // Packing takes the better of the two packing moves (fewer areas after it).
        assert_eq!(
            plain_advice(&b, base, &cands, Sharing::Own),
            vec![false, true, true, true, false]
        );
    }

    #[test]
    fn with_distinct_sharing_an_advisor_whose_best_move_is_named_names_its_next() {
        let b = board("#########\n#@ $ $ ..#\n#########\n");
        let base = feats(0, 2, 1, 0, 1);
        let cands = [
            cand(5, 7, feats(1, 1, 1, 0, 1), false), // packs and joins two areas
            cand(5, 8, feats(1, 2, 1, 0, 1), false), // packs
            cand(3, 4, feats(0, 1, 1, 0, 1), false), // joins two areas
            cand(3, 2, feats(0, 2, 1, 0, 1), false), // changes nothing
        ];
        // Packing and connectivity both name the first move.
        assert_eq!(
            plain_advice(&b, base, &cands, Sharing::Own),
            vec![true, false, false, false]
        );
        // Connectivity, asked after packing, names the other move that joins two areas.
        assert_eq!(
            plain_advice(&b, base, &cands, Sharing::Distinct),
            vec![true, false, true, false]
        );
    }

    #[test]
    fn the_explorer_and_the_opener() {
        let b = board("#########\n#@ $ $ ..#\n#########\n");
        let c = |x: usize| b.cell_of[b.width + x];
        let base = feats(0, 1, 0, 0, 1);
        let same = base;
        let cands = [
            cand(c(3), c(2), same, false),
            cand(c(3), c(4), same, true),
            cand(c(5), c(6), same, false),
            cand(c(5), c(7), feats(1, 1, 0, 0, 0), false),
        ];
        let in_plan = CellSet::new(b.cells());
        // The box on x = 5 blocks the one on x = 3: the opener moves it; the hotspot advisor
        // names the move that removes the hotspot (also a packing move).
        let blocked = [(c(3), 0), (c(5), 1)];
        let ctx = Context {
            board: &b,
            features: base,
            blocked: &blocked,
            out_of_plan: &[],
            in_plan: &in_plan,
        };
        let mut advised = Vec::new();
        advise(&ctx, &cands, &mut advised, Sharing::Own);
        assert_eq!(advised, vec![false, true, false, true]);
    }

    #[test]
    fn the_out_of_plan_advisor_pushes_the_nearest_box_into_the_plan() {
        let b = board("#########\n#@ $ $ ..#\n#########\n");
        let c = |x: usize| b.cell_of[b.width + x];
        let base = feats(0, 1, 0, 2, 0);
        let cands = [
            cand(c(3), c(4), base, false),
            cand(c(5), c(6), feats(0, 1, 0, 1, 0), false),
            cand(c(5), c(4), base, false),
        ];
        let mut in_plan = CellSet::new(b.cells());
        for x in 6..=8 {
            in_plan.insert(c(x));
        }
        let oop = [c(3), c(5)];
        let ctx = Context {
            board: &b,
            features: base,
            blocked: &[],
            out_of_plan: &oop,
            in_plan: &in_plan,
        };
        let mut advised = Vec::new();
        advise(&ctx, &cands, &mut advised, Sharing::Own);
        // x = 5 is nearer the plan's cells; its move onto x = 6 enters them.
        assert_eq!(advised, vec![false, true, false]);
    }
}
