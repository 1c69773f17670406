//! Sokoban level generation jobs (Kartal et al. 2016 as optimized by the 2023 thesis; see
//! `docs/METHODS.md#sokogen`): a generation run that reports each kept level as found (each
//! verified by replaying its solution), live progress, and the thesis's experiment tables 3.1–3.8.

mod experiment;
mod generate;
pub use experiment::*;
pub use generate::*;

use crate::event::{Emit, EventKind, JobEvent, Signature};
use crate::limits::Limits;
use crate::plot::{bar_chart, BarChart, BarPanel, Plot, Report};
use crate::shard::{ItemRecord, Items, Plan, Shard};
use anyhow::{bail, Result};
use clap::ValueEnum;
use puzzle_engine::mcts::MctsConfig;
use puzzle_engine::{Budget, WorkCounter};
use puzzle_sokogen::experiment::{
    aggregate, markdown_table, process_cpu_seconds, run_once, tables, Measured, RunFigures, Table,
};
use puzzle_sokogen::{
    generate as run_generation, Aim, Bootstrap, BoxLimit, Congestion, GenAction, GenConfig,
    GenParams, GeneratedLevel, MoveAgent, Rules, SeedLevel, Selection,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Default node budget over all threads (a node is ~60 bytes plus its untried-action list).
pub const DEFAULT_MAX_NODES: usize = 8_000_000;
/// Default run time, seconds.
pub const DEFAULT_TIME_LIMIT: f64 = 10.0;
/// How often a generation reports progress.
pub const PROGRESS_EVERY: Duration = Duration::from_millis(200);

/// The Move-Agent forms of the generation game (thesis §2.3).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum MoveAgentName {
    /// The player pushes a box or walks to a cell beside one (the thesis's optimization).
    #[default]
    #[schemars(title = "push: push a box or walk beside one")]
    Push,
    /// Four-direction steps (Kartal et al.).
    #[schemars(title = "naive: four-direction steps (Kartal et al.)")]
    Naive,
}

/// What a generation maximizes.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum ObjectiveName {
    /// The exact optimal push count of the room's farthest start, proven by an exhaustive
    /// backward search (Taylor & Parberry 2011), each room improved by moving walls and goals
    /// (YASGen); every level's solution is push-optimal.
    #[default]
    #[schemars(title = "pushes: the fewest pushes that solve the level, proven")]
    Pushes,
    /// The thesis's score: box-path congestion and 3×3 tile patterns (Kartal et al. 2016; the
    /// experiment's tables use it).
    #[schemars(title = "score: the thesis's congestion score")]
    Score,
}

/// The selection formulas of Table 3.8.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum SelectionName {
    /// UCB1 with the exploration factor `xi`.
    #[default]
    Ucb1,
    /// UCB1-Tuned (Auer et al.).
    Ucb1Tuned,
    /// UCB-V (Audibert et al.).
    UcbV,
    /// Single-player MCTS's formula (Schadd et al.).
    SpMcts,
}

fn parse_seed_range(s: &str) -> Result<SeedRange, String> {
    s.parse()
}

fn box_limit_text(s: &str) -> Result<String, String> {
    parse_box_limit(s).map(|_| s.to_string())
}

/// Parse a start cell `X,Y`.
pub fn parse_start(s: &str) -> Result<(usize, usize), String> {
    let (x, y) = s
        .split_once(',')
        .ok_or_else(|| format!("'{s}' is not X,Y (e.g. 2,2)"))?;
    let parse = |v: &str| {
        v.trim()
            .parse::<usize>()
            .map_err(|_| format!("'{v}' in '{s}' is not a non-negative whole number"))
    };
    Ok((parse(x)?, parse(y)?))
}

/// A range of seeds `A..B` (A to B−1) or `A..=B` (A to B), at most 100,000 of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeedRange {
    /// The first seed.
    pub first: u64,
    /// The last seed (inclusive).
    pub last: u64,
}

impl SeedRange {
    /// The seeds in order.
    pub fn seeds(&self) -> impl Iterator<Item = u64> {
        self.first..=self.last
    }

    /// How many seeds.
    pub fn len(&self) -> usize {
        (self.last - self.first) as usize + 1
    }

    /// Never: a range holds at least one seed.
    pub fn is_empty(&self) -> bool {
        false
    }
}

impl std::fmt::Display for SeedRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}..={}", self.first, self.last)
    }
}

impl std::str::FromStr for SeedRange {
    type Err = String;

    fn from_str(s: &str) -> Result<SeedRange, String> {
        let bad = || format!("'{s}' is not a seed range: write A..B (A to B-1) or A..=B");
        let (a, b, inclusive) = match s.split_once("..=") {
            Some((a, b)) => (a, b, true),
            None => {
                let (a, b) = s.split_once("..").ok_or_else(bad)?;
                (a, b, false)
            }
        };
        let first: u64 = a.trim().parse().map_err(|_| bad())?;
        let end: u64 = b.trim().parse().map_err(|_| bad())?;
        let last = if inclusive {
            end
        } else {
            end.checked_sub(1).ok_or_else(bad)?
        };
        if last < first {
            return Err(format!("the seed range '{s}' is empty"));
        }
        if last - first >= 100_000 {
            return Err(format!("the seed range '{s}' holds more than 100000 seeds"));
        }
        Ok(SeedRange { first, last })
    }
}

impl Serialize for SeedRange {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for SeedRange {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<SeedRange, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// What identifies a generation's records in a run over seeds (`None` fields are left out).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RunId {
    /// The run's seed (with `--seeds`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The run's item number (1-based position of the seed in the range).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item: Option<usize>,
    /// The shard that ran it (`"2/4"`), when sharded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
}

/// Parse a box limit: a positive number, `third` (⌈nm/3⌉), `half` (⌈nm/2⌉) or `none`.
pub fn parse_box_limit(s: &str) -> Result<BoxLimit, String> {
    match s {
        "none" => Ok(BoxLimit::Unlimited),
        "third" => Ok(BoxLimit::AreaOver(3)),
        "half" => Ok(BoxLimit::AreaOver(2)),
        _ => match s.parse::<u16>() {
            Ok(0) | Err(_) => Err(format!(
                "'{s}' is not a box limit (a positive number, third, half or none)"
            )),
            Ok(h) => Ok(BoxLimit::Fixed(h)),
        },
    }
}

/// This game's part of `puzzle bench`: fixed-seed generation runs with iteration budgets.
pub fn signature() -> Result<Vec<Signature>> {
    let mut sigs = Vec::new();
    for (name, w, h, its, config) in [
        (
            "sokogen 5x5 final config",
            5,
            5,
            60_000u64,
            GenConfig::default(),
        ),
        (
            "sokogen 8x8 no bootstrap",
            8,
            8,
            20_000,
            GenConfig {
                bootstrap: None,
                ..GenConfig::default()
            },
        ),
    ] {
        let params = GenParams {
            width: w,
            height: h,
            config,
            budget: Budget::iterations(its),
            seed: 1,
            ..GenParams::default()
        };
        let started = Instant::now();
        let summary =
            run_generation(&params, &mut |_| Ok(())).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
        sigs.push(Signature {
            name: name.to_string(),
            work: summary.peak_nodes as u64,
            result: summary.best_score,
            time_s: started.elapsed().as_secs_f64(),
        });
    }
    Ok(sigs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::job::Job;

    #[test]
    fn thesis_iterations_run_each_column_for_the_thesis_count_and_exclude_iterations() {
        let mut req = ExperimentRequest {
            tables: vec!["3.1".into()],
            seeds: 1,
            thesis_iterations: true,
            limits: Limits {
                iterations: Some(1_000),
                ..Limits::default()
            },
            ..ExperimentRequest::default()
        };
        let err = req.validate().unwrap_err().to_string();
        assert!(err.contains("thesis_iterations"), "{err}");
        // A time limit caps the thesis's 4,498,609 and 4,972,319 iterations of Table 3.1.
        req.limits = Limits {
            time_limit: Some(0.05),
            ..Limits::default()
        };
        req.validate().unwrap();
        let mut runs = Vec::new();
        let report = experiment_report(&req, &Arc::new(AtomicBool::new(false)), &mut |e| {
            if let ExperimentEvent::Run(r) = e {
                runs.push(r);
            }
            Ok(())
        })
        .unwrap();
        assert_eq!(runs.len(), 2);
        assert!(runs
            .iter()
            .all(|r| r.iterations > 0 && r.iterations < 4_498_609));
        assert!(report.markdown.contains("thesis's own iteration count"));
        assert!(report.markdown.contains("at most 0.05 s per run"));
    }
}
