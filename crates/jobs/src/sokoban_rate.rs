//! Rating Sokoban levels by difficulty (`puzzle rate sokoban`, job `sokoban_rate`; see
//! `docs/METHODS.md#sokoban-difficulty`): each level's optimal push count proven by A*, the push
//! structure of that solution (box lines, box changes), the effort of A* and of the default
//! solver, and the number of positions reachable from the start, counted where it is countable.

use crate::event::{Emit, EventKind, ItemProgress, JobEvent};
use crate::limits::Limits;
use crate::shard::{ItemRecord, Items};
use crate::sokoban::{chosen_levels, parse_levels};
use anyhow::Result;
use puzzle_sokoban::difficulty::{count_positions, push_structure};
use puzzle_sokoban::{replay, solve, Algorithm, Level};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Default time per level for each of the two searches, seconds.
pub const DEFAULT_TIME_LIMIT: f64 = 10.0;
/// Default node budget of each search.
pub const DEFAULT_MAX_NODES: usize = 4_000_000;

/// Rate levels (`puzzle rate sokoban FILE`, job `sokoban_rate`).
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema, clap::Args)]
#[serde(default)]
pub struct RateRequest {
    /// The XSB text: one or more levels.
    #[arg(skip)]
    pub xsb: String,
    /// Where the text came from, named in parse errors (a file path; `input` by default).
    #[arg(skip = String::from("input"))]
    pub source: String,
    /// Rate only this level (1-based); default: every level in order.
    #[arg(long, value_name = "N")]
    #[schemars(range(min = 1))]
    pub level: Option<usize>,
    /// Count the positions reachable from the start by pushes, up to this many (0: do not
    /// count).
    #[arg(long, value_name = "N", default_value_t = 1_000_000)]
    #[schemars(title = "Positions to count at most")]
    pub count_positions: usize,
    /// Budget of each search per level (default 10 s, 4,000,000 nodes; one thread).
    #[serde(flatten)]
    #[arg(skip)]
    pub limits: Limits,
    /// Sharding and resuming over the levels.
    #[serde(flatten)]
    #[arg(skip)]
    pub items: Items,
}

impl Default for RateRequest {
    fn default() -> Self {
        crate::options::defaults()
    }
}

/// One level's measures: the `puzzle rate sokoban --json` line.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RateRecord {
    /// 1-based index of the level in the file.
    pub level: usize,
    /// The level's title, if any.
    pub title: Option<String>,
    /// Boxes.
    pub boxes: usize,
    /// The fewest pushes that solve it, proven by A* (`None`: not within the budget, or
    /// unsolvable: see `astar_stop`).
    pub optimal_pushes: Option<usize>,
    /// A push-optimal LURD solution (replayed; empty when none was found).
    pub solution: String,
    /// Player steps of that solution (not necessarily the fewest).
    pub moves: usize,
    /// Box lines of that solution: runs of pushes of one box in one direction.
    pub box_lines: usize,
    /// Box changes of that solution: pushes of another box than the push before.
    pub box_changes: usize,
    /// Positions A* expanded.
    pub astar_expanded: u64,
    /// Why A* ended: solved, exhausted (proved unsolvable), time, nodes, interrupted.
    pub astar_stop: String,
    /// The default solver (the greedy portfolio) solved it.
    pub solver_solved: bool,
    /// Positions the default solver expanded.
    pub solver_expanded: u64,
    /// Positions reachable from the start by pushes (dead ones included), when all were
    /// counted.
    pub positions: Option<usize>,
    /// Positions counted before the bound, when it was reached (the state space is larger).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub positions_at_least: Option<usize>,
    /// Wall time for this level.
    pub time_s: f64,
    /// Why the level could not be rated, when it could not (e.g. too large for the solvers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The item's number in the run (1-based).
    #[serde(default)]
    pub item: usize,
}

impl ItemRecord for RateRecord {
    fn identity(&self) -> String {
        format!("level {}", self.level)
    }
}

/// The closing record of a rating run.
#[derive(Clone, Debug, Serialize)]
pub struct RateSummary {
    /// Levels chosen.
    pub levels: usize,
    /// Levels whose optimal push count was proven.
    pub proven: usize,
    /// The run was stopped before every level was rated.
    pub interrupted: bool,
}

/// The events of a rating run.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum RateEvent {
    /// Levels done so far.
    Progress(ItemProgress),
    /// One level's measures.
    Level(RateRecord),
    /// The end of the run.
    Summary(RateSummary),
}

impl JobEvent for RateEvent {
    fn kind(&self) -> EventKind {
        match self {
            RateEvent::Progress(_) => EventKind::Progress,
            RateEvent::Level(_) => EventKind::Result,
            RateEvent::Summary(_) => EventKind::Summary,
        }
    }
}

/// Rate one level (`index` is its number in the file).
pub fn rate_level(
    index: usize,
    level: &Level,
    count: usize,
    limits: &Limits,
    stop: &Arc<AtomicBool>,
) -> RateRecord {
    let started = Instant::now();
    let mut r = RateRecord {
        level: index,
        title: level.title.clone(),
        boxes: level.box_count(),
        optimal_pushes: None,
        solution: String::new(),
        moves: 0,
        box_lines: 0,
        box_changes: 0,
        astar_expanded: 0,
        astar_stop: "error".into(),
        solver_solved: false,
        solver_expanded: 0,
        positions: None,
        positions_at_least: None,
        time_s: 0.0,
        note: None,
        item: index,
    };
    let budget = || limits.budget(DEFAULT_TIME_LIMIT, DEFAULT_MAX_NODES, stop);
    match solve(level, Algorithm::AStar, &budget()) {
        Err(e) => {
            r.note = Some(format!("level {index}: {e}"));
            r.time_s = started.elapsed().as_secs_f64();
            return r;
        }
        Ok(s) => {
            r.astar_expanded = s.expanded;
            r.astar_stop = format!("{:?}", s.stop).to_lowercase();
            if let Some(lurd) = s.lurd {
                // Shown only once replayed; the structure comes from the same replay rules.
                if let (Ok(p), Ok(structure)) = (replay(level, &lurd), push_structure(level, &lurd))
                {
                    if p.solved {
                        r.optimal_pushes = Some(p.pushes);
                        r.moves = p.moves;
                        r.box_lines = structure.box_lines;
                        r.box_changes = structure.box_changes;
                        r.solution = lurd;
                    }
                }
            }
        }
    }
    if let Ok(s) = solve(level, Algorithm::Greedy, &budget()) {
        r.solver_expanded = s.expanded;
        r.solver_solved = s
            .lurd
            .is_some_and(|l| replay(level, &l).is_ok_and(|p| p.solved));
    }
    if count > 0 && !stop.load(Ordering::Relaxed) {
        match count_positions(level, count) {
            Ok((n, true)) => r.positions = Some(n),
            Ok((n, false)) => r.positions_at_least = Some(n),
            Err(e) => r.note = Some(format!("level {index}: {e}")),
        }
    }
    r.time_s = started.elapsed().as_secs_f64();
    r
}

/// Rate every chosen level of the request's text, one record per level.
pub fn rate(
    req: &RateRequest,
    stop: &Arc<AtomicBool>,
    emit: Emit<'_, RateEvent>,
) -> Result<RateSummary> {
    req.limits.validate()?;
    let levels = parse_levels(&req.xsb, &req.source)?;
    let chosen = chosen_levels(levels.len(), req.level, &req.source)?;
    req.items.check(chosen.len())?;
    let started = Instant::now();
    let (mut done, mut proven, mut taken) = (0, 0, 0);
    for (k, &n) in chosen.iter().enumerate() {
        let item = k + 1;
        let level = &levels[n - 1];
        let Some(mut r) = req.items.record(item, &format!("level {n}"), stop, || {
            taken += 1;
            let r = rate_level(n, level, req.count_positions, &req.limits, stop);
            Ok((!stop.load(Ordering::Relaxed)).then_some(r))
        })?
        else {
            continue;
        };
        r.item = item;
        done += 1;
        proven += usize::from(r.optimal_pushes.is_some());
        emit(RateEvent::Level(r))?;
        emit(RateEvent::Progress(ItemProgress {
            done: done as u64,
            total: chosen.len() as u64,
            solved: proven as u64,
            label: "sokoban".into(),
            elapsed_s: started.elapsed().as_secs_f64(),
        }))?;
    }
    let summary = RateSummary {
        levels: chosen.len(),
        proven,
        interrupted: stop.load(Ordering::Relaxed) || taken > done,
    };
    emit(RateEvent::Summary(summary.clone()))?;
    Ok(summary)
}

impl crate::job::Job for RateRequest {
    const NAME: &'static str = "sokoban_rate";
    const READS: &'static [crate::limits::Limit] = &[
        crate::limits::Limit::TimeLimit,
        crate::limits::Limit::Iterations,
        crate::limits::Limit::MaxNodes,
    ];
    const TITLE: &'static str = "Rate Sokoban levels by difficulty";
    const PRINTS_SUMMARY: bool = false;
    type Event = RateEvent;

    crate::job::job_fields!(limits, items);

    crate::job::job_run!(rate);

    fn example() -> Self {
        RateRequest {
            xsb: "######\n#@$ .#\n######\n".into(),
            limits: Limits {
                time_limit: Some(5.0),
                ..Limits::default()
            },
            ..RateRequest::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_level_is_rated_with_a_replayed_optimal_solution() {
        let req = RateRequest {
            xsb: "######\n#@$ .#\n######\n\n######\n#@ $.#\n#    #\n######\n".into(),
            ..<RateRequest as crate::job::Job>::example()
        };
        let mut records = Vec::new();
        rate(&req, &Arc::new(AtomicBool::new(false)), &mut |e| {
            if let RateEvent::Level(r) = e {
                records.push(r);
            }
            Ok(())
        })
        .unwrap();
        assert_eq!(records.len(), 2);
        assert_eq!(records[0].optimal_pushes, Some(2));
        assert_eq!((records[0].box_lines, records[0].box_changes), (1, 1));
        assert_eq!(records[0].positions, Some(3));
        assert_eq!(records[1].optimal_pushes, Some(1));
        for r in &records {
            let level = &parse_levels(&req.xsb, "t").unwrap()[r.level - 1];
            assert!(replay(level, &r.solution).unwrap().solved);
            assert!(r.solver_solved);
        }
    }
}
