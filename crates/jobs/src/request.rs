//! Every job as one tagged request (`{"job": "sokoban_solve", …}`), for front ends that take
//! jobs as data (the workbench server) and want one entry point.

use crate::event::{EventKind, JobEvent};
use crate::plot::Report;
use crate::shard::Items;
use crate::{bait, engine, samegame, sokoban, sokogen, sudoku};
use anyhow::Result;
use serde::{Deserialize, Serialize};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// A job of any kind; `job` names it.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "job", rename_all = "snake_case")]
pub enum JobRequest {
    /// Solve Sokoban levels.
    SokobanSolve(sokoban::SolveRequest),
    /// Benchmark Sokoban solvers over level sets.
    SokobanBench(sokoban::BenchRequest),
    /// Generate Sokoban levels.
    SokobanGenerate(sokogen::GenerateRequest),
    /// The generation thesis's tables.
    SokobanGenExperiment(sokogen::ExperimentRequest),
    /// Solve Sudoku puzzles (MCTS or exact).
    SudokuSolve(sudoku::SolveRequest),
    /// Generate unique-solution Sudoku puzzles.
    SudokuGenerate(sudoku::GenerateRequest),
    /// Time the exact Sudoku solver over puzzles.
    SudokuBench(sudoku::BenchRequest),
    /// The Sudoku thesis's MCTS test grid and top95 table.
    SudokuExperiment(sudoku::ExperimentRequest),
    /// Solve SameGame boards.
    SamegameSolve(samegame::SolveRequest),
    /// The Czech thesis's SameGame comparison (§3.4).
    SamegameExperiment(samegame::ExperimentRequest),
    /// SameGame playout and SP-MCTS speeds.
    SamegameBench(samegame::BenchRequest),
    /// Play one game of Bait with an agent, tick by tick.
    BaitPlay(bait::PlayRequest),
    /// Every Bait agent on every level (the paper's comparison).
    BaitExperiment(bait::ExperimentRequest),
    /// The move times of every Bait agent on one level.
    BaitBench(bait::BenchRequest),
    /// MCTS iterations per second on the engine's toy game.
    EngineBench(engine::BenchRequest),
}

/// A job's events as the server sends them: the kind and the record as JSON.
pub type JsonEmit<'a> = &'a mut (dyn FnMut(EventKind, serde_json::Value) -> Result<()> + Send);

fn forward<E: JobEvent>(emit: JsonEmit<'_>) -> impl FnMut(E) -> Result<()> + Send + '_ {
    move |event: E| {
        let kind = event.kind();
        emit(kind, serde_json::to_value(&event)?)
    }
}

impl JobRequest {
    /// The job's name (`sokoban_solve` …).
    pub fn name(&self) -> &'static str {
        match self {
            JobRequest::SokobanSolve(_) => "sokoban_solve",
            JobRequest::SokobanBench(_) => "sokoban_bench",
            JobRequest::SokobanGenerate(_) => "sokoban_generate",
            JobRequest::SokobanGenExperiment(_) => "sokoban_gen_experiment",
            JobRequest::SudokuSolve(_) => "sudoku_solve",
            JobRequest::SudokuGenerate(_) => "sudoku_generate",
            JobRequest::SudokuBench(_) => "sudoku_bench",
            JobRequest::SudokuExperiment(_) => "sudoku_experiment",
            JobRequest::SamegameSolve(_) => "samegame_solve",
            JobRequest::SamegameExperiment(_) => "samegame_experiment",
            JobRequest::SamegameBench(_) => "samegame_bench",
            JobRequest::BaitPlay(_) => "bait_play",
            JobRequest::BaitExperiment(_) => "bait_experiment",
            JobRequest::BaitBench(_) => "bait_bench",
            JobRequest::EngineBench(_) => "engine_bench",
        }
    }

    /// The budget settings, for a front end to cap (the server caps time and threads).
    pub fn limits_mut(&mut self) -> &mut crate::Limits {
        match self {
            JobRequest::SokobanSolve(r) => &mut r.limits,
            JobRequest::SokobanBench(r) => &mut r.limits,
            JobRequest::SokobanGenerate(r) => &mut r.limits,
            JobRequest::SokobanGenExperiment(r) => &mut r.limits,
            JobRequest::SudokuSolve(r) => &mut r.limits,
            JobRequest::SudokuGenerate(r) => &mut r.limits,
            JobRequest::SudokuBench(r) => &mut r.limits,
            JobRequest::SudokuExperiment(r) => &mut r.limits,
            JobRequest::SamegameSolve(r) => &mut r.limits,
            JobRequest::SamegameExperiment(r) => &mut r.limits,
            JobRequest::SamegameBench(r) => &mut r.limits,
            JobRequest::BaitPlay(r) => &mut r.limits,
            JobRequest::BaitExperiment(r) => &mut r.limits,
            JobRequest::BaitBench(r) => &mut r.limits,
            JobRequest::EngineBench(r) => &mut r.limits,
        }
    }

    /// The sharding part of a request that runs many items (`None` for the others).
    pub fn items_mut(&mut self) -> Option<&mut Items> {
        match self {
            JobRequest::SokobanSolve(r) => Some(&mut r.items),
            JobRequest::SokobanBench(r) => Some(&mut r.items),
            JobRequest::SokobanGenerate(r) => Some(&mut r.items),
            JobRequest::SamegameExperiment(r) => Some(&mut r.items),
            JobRequest::SokobanGenExperiment(r) => Some(&mut r.items),
            JobRequest::SudokuExperiment(r) => Some(&mut r.items),
            JobRequest::BaitExperiment(r) => Some(&mut r.items),
            JobRequest::SamegameSolve(r) => Some(&mut r.items),
            JobRequest::SudokuSolve(r) => Some(&mut r.items),
            _ => None,
        }
    }

    /// Whether `records` hold a whole item of this job: a generation's seed is whole once its
    /// summary is written; the other jobs write one record per item.
    pub fn item_complete(&self, records: &[serde_json::Value]) -> bool {
        match self {
            JobRequest::SokobanGenerate(_) => records
                .last()
                .is_some_and(|r| r.get("summary") == Some(&serde_json::Value::Bool(true))),
            _ => !records.is_empty(),
        }
    }

    /// Run the job, handing each event to `emit` as JSON. A job with a final text (an
    /// experiment's Markdown report) sends it as a last `summary` event
    /// `{"report": …, "plots": [{"name": …, "title": …, "svg": …}]}`.
    pub fn run(&self, stop: &Arc<AtomicBool>, emit: JsonEmit<'_>) -> Result<()> {
        if let Some(report) = self.run_report(stop, &mut *emit)? {
            summary(emit, report)?;
        }
        Ok(())
    }

    /// Run the job, handing each event to `emit` as JSON; an experiment returns its report
    /// (Markdown and plots) instead of sending it.
    pub fn run_report(&self, stop: &Arc<AtomicBool>, emit: JsonEmit<'_>) -> Result<Option<Report>> {
        let none = |r: Result<()>| r.map(|()| None);
        match self {
            JobRequest::SokobanSolve(r) => {
                none(sokoban::solve(r, stop, &mut forward(emit)).map(drop))
            }
            JobRequest::SokobanBench(r) => {
                none(sokoban::bench(r, stop, &mut forward(emit)).map(drop))
            }
            JobRequest::SokobanGenerate(r) => {
                none(sokogen::generate(r, stop, &mut forward(emit)).map(drop))
            }
            JobRequest::SokobanGenExperiment(r) => {
                sokogen::experiment_report(r, stop, &mut forward(emit)).map(Some)
            }
            JobRequest::SudokuSolve(r) => {
                none(sudoku::solve(r, stop, &mut forward(emit)).map(drop))
            }
            JobRequest::SudokuGenerate(r) => {
                none(sudoku::generate(r, stop, &mut forward(emit)).map(drop))
            }
            JobRequest::SudokuBench(r) => {
                none(sudoku::bench(r, stop, &mut forward(emit)).map(drop))
            }
            JobRequest::SudokuExperiment(r) => {
                sudoku::experiment_report(r, stop, &mut forward(emit)).map(Some)
            }
            JobRequest::SamegameSolve(r) => {
                none(samegame::solve(r, stop, &mut forward(emit)).map(drop))
            }
            JobRequest::SamegameExperiment(r) => {
                samegame::experiment_report(r, stop, &mut forward(emit)).map(Some)
            }
            JobRequest::SamegameBench(r) => {
                none(samegame::bench(r, stop, &mut forward(emit)).map(drop))
            }
            JobRequest::BaitPlay(r) => none(bait::play(r, stop, &mut forward(emit)).map(drop)),
            JobRequest::BaitExperiment(r) => {
                bait::experiment_report(r, stop, &mut forward(emit)).map(Some)
            }
            JobRequest::BaitBench(r) => none(bait::bench(r, stop, &mut forward(emit)).map(drop)),
            JobRequest::EngineBench(r) => {
                none(engine::bench(r, stop, &mut forward(emit)).map(drop))
            }
        }
    }
}

/// An experiment's last event: `{"report": markdown, "plots": [{"name", "title", "svg"}]}`.
fn summary(emit: JsonEmit<'_>, report: Report) -> Result<()> {
    emit(
        EventKind::Summary,
        serde_json::json!({ "report": report.markdown, "plots": report.plots }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_is_the_json_tag() {
        for job in [
            "sokoban_solve",
            "sokoban_bench",
            "sokoban_generate",
            "sokoban_gen_experiment",
            "sudoku_solve",
            "sudoku_generate",
            "sudoku_bench",
            "sudoku_experiment",
            "samegame_solve",
            "samegame_experiment",
            "samegame_bench",
            "bait_play",
            "bait_experiment",
            "bait_bench",
            "engine_bench",
        ] {
            let request: JobRequest = serde_json::from_value(serde_json::json!({ "job": job }))
                .unwrap_or_else(|e| panic!("{job}: {e}"));
            assert_eq!(request.name(), job);
            assert_eq!(serde_json::to_value(&request).unwrap()["job"], job);
        }
    }
}
