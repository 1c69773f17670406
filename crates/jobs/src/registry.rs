//! The registry of jobs: every job declared once, as a typed request implementing [`Job`], and
//! listed once in `registry!`'s invocation below. Everything a front end
//! needs to know about the jobs is derived from that list: the tagged [`JobRequest`] the
//! server deserialises, the job names, the JSON Schema of every request (which the page builds
//! its forms from), how records of a sharded run are grouped and printed, and the conformance
//! test that runs every job.
//!
//! A request's fields are the job's options: their doc comments are the documentation, its
//! `Default` is the strongest configuration, and [`Job::validate`] refuses what no run can
//! take. Front ends never declare an option again.

use crate::event::{EventKind, JobEvent};
pub use crate::job::{schema_of, Job, JobInfo, TypedEmit};
use crate::limits::{Limit, Limits};
use crate::plot::Report;
use crate::shard::Items;
use crate::{bait, engine, samegame, sokoban, sokoban_rate, sokogen, sudoku};
use anyhow::Result;
use serde::{Deserialize, Serialize};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// A job's events as the server sends them: the kind and the record as JSON.
pub type JsonEmit<'a> = &'a mut (dyn FnMut(EventKind, serde_json::Value) -> Result<()> + Send);

/// An operation over any job, for code that is the same for every job: [`JobRequest::visit`]
/// calls it with the request's concrete type.
pub trait JobVisitor {
    /// What the operation returns.
    type Output;
    /// Do it on `job`.
    fn visit<J: Job>(self, job: &J) -> Self::Output;
}

/// Declares the registry: the [`JobRequest`] enum (one variant per job, tagged by the job's
/// name) and the functions generated from the one list.
macro_rules! registry {
    ($($(#[$doc:meta])* $variant:ident($request:ty),)*) => {
        /// A job of any kind, `{"job": "<name>", …options}`: what the server deserialises and
        /// a sharded run's header records.
        #[derive(Clone, Debug, Serialize, Deserialize)]
        #[serde(tag = "job", rename_all = "snake_case")]
        pub enum JobRequest {
            $($(#[$doc])* $variant($request),)*
        }

        impl JobRequest {
            /// Apply `visitor` to the request's concrete job.
            pub fn visit<V: JobVisitor>(&self, visitor: V) -> V::Output {
                match self {
                    $(JobRequest::$variant(r) => visitor.visit(r),)*
                }
            }

            /// The budget settings, for a front end to cap.
            pub fn limits_mut(&mut self) -> &mut Limits {
                match self {
                    $(JobRequest::$variant(r) => r.limits_mut(),)*
                }
            }

            /// The sharding part of a request that runs many items (`None` for the others).
            pub fn items_mut(&mut self) -> Option<&mut Items> {
                match self {
                    $(JobRequest::$variant(r) => r.items_mut(),)*
                }
            }
        }

        $(
            impl From<$request> for JobRequest {
                fn from(request: $request) -> JobRequest {
                    JobRequest::$variant(request)
                }
            }
        )*

        /// Every job in the registry, in menu order.
        pub fn jobs() -> Vec<JobInfo> {
            vec![$(JobInfo::of::<$request>(),)*]
        }

        /// The `puzzle bench` signature: every job's [`Job::signature`] lines, in registry
        /// order.
        pub fn signature_all() -> Result<Vec<crate::Signature>> {
            let mut all = Vec::new();
            $(all.extend(<$request as Job>::signature()?);)*
            Ok(all)
        }

        /// Every job's default request, tagged (the conformance test and the page's menu).
        pub fn default_requests() -> Vec<JobRequest> {
            vec![$(JobRequest::$variant(<$request>::default()),)*]
        }

        /// Every job's example request, tagged (see [`Job::example`]).
        pub fn example_requests() -> Vec<JobRequest> {
            vec![$(JobRequest::$variant(<$request>::example()),)*]
        }
    };
}

registry! {
    /// MCTS iterations per second on the engine's toy game.
    EngineBench(engine::BenchRequest),
    /// Solve Sokoban levels.
    SokobanSolve(sokoban::SolveRequest),
    /// Benchmark Sokoban solvers over level sets.
    SokobanBench(sokoban::BenchRequest),
    /// Rate Sokoban levels by difficulty.
    SokobanRate(sokoban_rate::RateRequest),
    /// Generate Sokoban levels.
    SokobanGenerate(sokogen::GenerateRequest),
    /// The generation thesis's tables.
    SokobanGenExperiment(sokogen::ExperimentRequest),
    /// Solve SameGame boards.
    SamegameSolve(samegame::SolveRequest),
    /// The Czech thesis's SameGame comparison (§3.4).
    SamegameExperiment(samegame::ExperimentRequest),
    /// SameGame playout and SP-MCTS speeds.
    SamegameBench(samegame::BenchRequest),
    /// Solve Sudoku puzzles (MCTS or exact).
    SudokuSolve(sudoku::SolveRequest),
    /// Generate unique-solution Sudoku puzzles.
    SudokuGenerate(sudoku::GenerateRequest),
    /// Time the exact Sudoku solver over puzzles.
    SudokuBench(sudoku::BenchRequest),
    /// The Sudoku thesis's MCTS test grid and top95 table.
    SudokuExperiment(sudoku::ExperimentRequest),
    /// Play one game of Bait with an agent, tick by tick.
    BaitPlay(bait::PlayRequest),
    /// Every Bait agent on every level (the paper's comparison).
    BaitExperiment(bait::ExperimentRequest),
    /// The move times of every Bait agent on one level.
    BaitBench(bait::BenchRequest),
}

struct Name;
impl JobVisitor for Name {
    type Output = &'static str;
    fn visit<J: Job>(self, _: &J) -> &'static str {
        J::NAME
    }
}

struct Reads;
impl JobVisitor for Reads {
    type Output = &'static [Limit];
    fn visit<J: Job>(self, _: &J) -> &'static [Limit] {
        J::READS
    }
}

struct Validate;
impl JobVisitor for Validate {
    type Output = Result<()>;
    fn visit<J: Job>(self, job: &J) -> Result<()> {
        job.validate()
    }
}

struct Printed(EventKind);
impl JobVisitor for Printed {
    type Output = bool;
    fn visit<J: Job>(self, _: &J) -> bool {
        match self.0 {
            EventKind::Progress => false,
            EventKind::Summary => J::PRINTS_SUMMARY,
            EventKind::Result => true,
        }
    }
}

struct ItemComplete<'a>(&'a [serde_json::Value]);
impl JobVisitor for ItemComplete<'_> {
    type Output = bool;
    fn visit<J: Job>(self, _: &J) -> bool {
        J::item_complete(self.0)
    }
}

struct RunJson<'a, 'b> {
    stop: &'a Arc<AtomicBool>,
    emit: JsonEmit<'b>,
}
impl JobVisitor for RunJson<'_, '_> {
    type Output = Result<Option<Report>>;
    fn visit<J: Job>(self, job: &J) -> Result<Option<Report>> {
        let emit = self.emit;
        let mut forward = move |event: J::Event| {
            let kind = event.kind();
            emit(kind, serde_json::to_value(&event)?)
        };
        job.validate()?;
        job.run(self.stop, &mut forward)
    }
}

impl JobRequest {
    /// Read a request as every front end takes it (`{"job": name, …options}`): an unknown job,
    /// an option the job does not have (serde alone would ignore it, the requests having
    /// flattened parts) or a value that does not fit its option is refused with a message that
    /// names it.
    pub fn from_json(value: serde_json::Value) -> Result<JobRequest> {
        let Some(fields) = value.as_object() else {
            anyhow::bail!("a job request is a JSON object {{\"job\": …, …}}");
        };
        let name = fields
            .get("job")
            .and_then(|v| v.as_str())
            .unwrap_or_default();
        let infos = jobs();
        let Some(info) = infos.iter().find(|info| info.name == name) else {
            let names: Vec<&str> = infos.iter().map(|info| info.name).collect();
            anyhow::bail!("unknown job '{name}' (choose from {})", names.join(", "));
        };
        if let Some(known) = info.schema.get("properties").and_then(|p| p.as_object()) {
            // A budget setting the job does not read is refused by `validate`, which says so
            // (and `null`, unset, is accepted: a sharded run's header holds the whole request).
            if let Some(key) = fields
                .keys()
                .find(|k| *k != "job" && !known.contains_key(*k) && !Limit::is_field(k))
            {
                let options: Vec<&str> = known.keys().map(String::as_str).collect();
                anyhow::bail!(
                    "unknown option '{key}' of job '{name}' (options: {})",
                    options.join(", ")
                );
            }
        }
        let error = match serde_json::from_value::<JobRequest>(value.clone()) {
            Ok(request) => return Ok(request),
            Err(error) => error,
        };
        // Serde cannot say which option through flattened parts: try them one at a time.
        let culprit = fields
            .iter()
            .filter(|(key, _)| *key != "job")
            .find(|(key, option)| {
                let alone = serde_json::json!({ "job": name, *key: option });
                serde_json::from_value::<JobRequest>(alone).is_err()
            })
            .map(|(key, _)| key.clone());
        match culprit {
            Some(key) => anyhow::bail!("option '{key}': {error}"),
            None => anyhow::bail!("{error}"),
        }
    }

    /// The job's name (`sokoban_solve` …).
    pub fn name(&self) -> &'static str {
        self.visit(Name)
    }

    /// The budget settings the job reads ([`Job::READS`]).
    pub fn reads(&self) -> &'static [Limit] {
        self.visit(Reads)
    }

    /// Unset the budget settings the job does not read.
    pub fn unset_unread_limits(&mut self) {
        let reads = self.reads();
        self.limits_mut().keep_only(reads);
    }

    /// Refuse a request that no run can take (see [`Job::validate`]).
    pub fn validate(&self) -> Result<()> {
        self.visit(Validate)
    }

    /// Whether a front end prints records of `kind` with `--json` (and `puzzle merge` with
    /// them): never progress; summaries where [`Job::PRINTS_SUMMARY`].
    pub fn printed(&self, kind: EventKind) -> bool {
        self.visit(Printed(kind))
    }

    /// Whether `records` hold a whole item of this job (see [`Job::item_complete`]).
    pub fn item_complete(&self, records: &[serde_json::Value]) -> bool {
        self.visit(ItemComplete(records))
    }

    /// Run the job, handing each event to `emit` as JSON. A job with a final text (an
    /// experiment's Markdown report) sends it as a last `summary` event
    /// `{"report": …, "plots": [{"name": …, "title": …, "svg": …}]}`.
    pub fn run(&self, stop: &Arc<AtomicBool>, emit: JsonEmit<'_>) -> Result<()> {
        if let Some(report) = self.run_report(stop, &mut *emit)? {
            emit(
                EventKind::Summary,
                serde_json::json!({ "report": report.markdown, "plots": report.plots }),
            )?;
        }
        Ok(())
    }

    /// Run the job, handing each event to `emit` as JSON; an experiment returns its report
    /// (Markdown and plots) instead of sending it.
    pub fn run_report(&self, stop: &Arc<AtomicBool>, emit: JsonEmit<'_>) -> Result<Option<Report>> {
        self.visit(RunJson { stop, emit })
    }
}

/// The conformance checks, over every registered job (see `tests` below; public so that a new
/// front end can run them on its own build).
#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;

    #[test]
    fn every_name_is_the_json_tag_and_every_default_validates() {
        let infos = jobs();
        for (request, info) in default_requests().iter().zip(&infos) {
            let name = request.name();
            assert_eq!(name, info.name);
            let json = serde_json::to_value(request).unwrap();
            assert_eq!(json["job"], name, "{name}: the tag is the name");
            let back: JobRequest = serde_json::from_value(serde_json::json!({ "job": name }))
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(
                serde_json::to_value(&back).unwrap(),
                json,
                "{name}: an empty request is the default"
            );
            request
                .validate()
                .unwrap_or_else(|e| panic!("{name}: the default request is refused: {e:#}"));
        }
        let mut names: Vec<_> = infos.iter().map(|i| i.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), infos.len(), "job names are unique");
    }

    #[test]
    fn requests_from_json_name_what_is_wrong() {
        let request =
            JobRequest::from_json(serde_json::json!({ "job": "samegame_solve", "iterations": 9 }))
                .unwrap();
        assert_eq!(request.name(), "samegame_solve");
        let error =
            |value: serde_json::Value| JobRequest::from_json(value).unwrap_err().to_string();
        assert!(error(serde_json::json!({ "job": "chess" })).starts_with("unknown job 'chess'"));
        assert!(error(serde_json::json!([1])).contains("JSON object"));
        let e = error(serde_json::json!({ "job": "samegame_solve", "iteratons": 9 }));
        assert!(
            e.starts_with("unknown option 'iteratons' of job 'samegame_solve'"),
            "{e}"
        );
        let e = error(serde_json::json!({ "job": "samegame_solve", "iterations": "x" }));
        assert!(e.starts_with("option 'iterations': invalid type"), "{e}");
        let e = error(serde_json::json!({ "job": "samegame_solve", "algo": "magic" }));
        assert!(
            e.contains("option 'algo'") && e.contains("unknown variant `magic`"),
            "{e}"
        );
    }

    /// A budget setting a job does not read is refused by name (never dropped), and left out of
    /// its schema; `null` (unset) is accepted.
    #[test]
    fn an_unread_budget_setting_is_refused_by_name() {
        for info in jobs() {
            let properties = info.schema["properties"].as_object().unwrap();
            for limit in Limit::ALL {
                let field = limit.field();
                let value = match limit {
                    Limit::TimeLimit => serde_json::json!(1.0),
                    _ => serde_json::json!(1),
                };
                let set = serde_json::json!({ "job": info.name, field: value });
                let request = JobRequest::from_json(set).unwrap();
                let unset = serde_json::json!({ "job": info.name, field: null });
                JobRequest::from_json(unset)
                    .unwrap()
                    .validate()
                    .unwrap_or_else(|e| panic!("{}: `{field}: null` is refused: {e}", info.name));
                match request.validate() {
                    Err(e) if !properties.contains_key(field) => {
                        let e = e.to_string();
                        assert!(
                            e.contains(field) && e.contains(limit.flag()) && e.contains(info.name),
                            "{}: {e}",
                            info.name
                        );
                    }
                    Ok(()) if properties.contains_key(field) => {}
                    other => panic!("{}: `{field}` read: {other:?}", info.name),
                }
            }
        }
        let bait =
            JobRequest::from_json(serde_json::json!({ "job": "bait_play", "time_limit": 5 }));
        assert!(
            bait.unwrap().validate().is_err(),
            "bait_play reads no time limit"
        );
    }

    /// The schema lists exactly the fields the request serialises, with their defaults.
    #[test]
    fn every_schema_matches_its_request() {
        for (request, info) in default_requests().iter().zip(jobs()) {
            let mut json = serde_json::to_value(request).unwrap();
            let object = json.as_object_mut().unwrap();
            object.shift_remove("job");
            let properties = info.schema["properties"]
                .as_object()
                .unwrap_or_else(|| panic!("{}: the schema has properties", info.name));
            for (field, value) in object.iter() {
                if Limit::is_field(field) && !properties.contains_key(field) {
                    assert!(
                        value.is_null(),
                        "{}: an unread `{field}` is unset",
                        info.name
                    );
                    continue;
                }
                let property = properties
                    .get(field)
                    .unwrap_or_else(|| panic!("{}: `{field}` is not in the schema", info.name));
                if let Some(default) = property.get("default") {
                    assert_eq!(default, value, "{}: the default of `{field}`", info.name);
                }
            }
            // Every default the schema states is a value the request accepts, and is the
            // request's own default.
            for (field, property) in properties {
                let Some(default) = property.get("default") else {
                    continue;
                };
                let one = serde_json::json!({ "job": info.name, field.clone(): default });
                let parsed: JobRequest = serde_json::from_value(one).unwrap_or_else(|e| {
                    panic!("{}: the schema's default of `{field}`: {e}", info.name)
                });
                assert_eq!(
                    serde_json::to_value(&parsed).unwrap(),
                    serde_json::to_value(request).unwrap(),
                    "{}: the schema's default of `{field}` is the request's",
                    info.name
                );
            }
        }
    }

    /// Every job's example runs, ends, emits at least one record, and every record is JSON
    /// that a script can read back; the records' solutions were replayed by the job itself.
    #[test]
    fn every_example_runs_and_emits_results() {
        for request in example_requests() {
            let name = request.name();
            request
                .validate()
                .unwrap_or_else(|e| panic!("{name}: the example is refused: {e:#}"));
            let text = serde_json::to_string(&request).unwrap();
            let back: JobRequest = serde_json::from_str(&text).unwrap();
            assert_eq!(
                serde_json::to_string(&back).unwrap(),
                text,
                "{name}: round trip"
            );
            let stop = Arc::new(AtomicBool::new(false));
            let mut records = 0;
            let mut emit = |kind: EventKind, value: serde_json::Value| -> Result<()> {
                if kind != EventKind::Progress {
                    records += 1;
                }
                assert!(value.is_object(), "{name}: a record is an object");
                Ok(())
            };
            request
                .run(&stop, &mut emit)
                .unwrap_or_else(|e| panic!("{name}: the example failed: {e:#}"));
            assert!(records > 0, "{name}: the example emitted no record");
        }
    }
}
