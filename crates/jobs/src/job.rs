//! A job: the [`Job`] trait its request implements (the single declaration of its options,
//! its budget settings, its run and its example), the macros that write the usual accessors,
//! and what a front end lists about a job ([`JobInfo`]). The list of jobs is
//! [`crate::registry`].

use crate::event::JobEvent;
use crate::limits::{Limit, Limits};
use crate::plot::Report;
use crate::shard::Items;
use anyhow::Result;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The receiver of a job's events, typed (see [`crate::Emit`]).
pub type TypedEmit<'a, E> = crate::Emit<'a, E>;

/// One job: its request type is the single declaration of its options.
///
/// Implementations live beside the job's code; `registry!` lists them.
pub trait Job:
    Serialize + DeserializeOwned + JsonSchema + Default + Clone + std::fmt::Debug + Send + Sync
{
    /// The job's name: its `{"job": …}` tag in [`crate::JobRequest`] (`samegame_solve` …).
    const NAME: &'static str;
    /// What the job does, in a few words (the page's job menu, `--help`).
    const TITLE: &'static str;
    /// Whether a front end prints the job's `summary` records with `--json` (and `puzzle merge`
    /// with them). The solvers of sets write their closing summary as text only, so that their
    /// JSON Lines hold exactly one record per item.
    const PRINTS_SUMMARY: bool = true;
    /// The budget settings the job reads: the others are left out of its schema and refused
    /// when set ([`Limits::check_read`]), so that no front end drops one silently.
    const READS: &'static [Limit] = Limit::ALL;
    /// The job's events.
    type Event: JobEvent;

    /// Refuse a request that no run can take, with a message naming the field: a budget no
    /// job can run with, a budget setting the job does not read ([`Job::READS`]), every number outside the range its field declares
    /// ([`crate::options::check_ranges`]), then the job's own [`Job::check`]. Every front end calls this before running.
    fn validate(&self) -> Result<()> {
        self.limits().validate()?;
        self.limits().check_read(Self::NAME, Self::READS)?;
        crate::options::check_ranges(self)?;
        self.check()
    }

    /// The job's own checks beyond the budget and the declared ranges (choices that exclude
    /// each other, texts that must parse …); none by default.
    fn check(&self) -> Result<()> {
        Ok(())
    }

    /// The budget settings.
    fn limits(&self) -> &Limits;

    /// The budget settings, for a front end to cap (the server caps time and threads).
    fn limits_mut(&mut self) -> &mut Limits;

    /// The sharding part of a job that runs many independent items (`None` for the others).
    fn items_mut(&mut self) -> Option<&mut Items> {
        None
    }

    /// Whether `records` (the records of one item, in order) hold the whole item; most jobs
    /// write one record per item.
    fn item_complete(records: &[serde_json::Value]) -> bool {
        !records.is_empty()
    }

    /// Run the job under its budget and `stop`, handing each event to `emit` as it happens. An
    /// experiment returns its report (Markdown and plots).
    fn run(
        &self,
        stop: &Arc<AtomicBool>,
        emit: TypedEmit<'_, Self::Event>,
    ) -> Result<Option<Report>>;

    /// A small request that runs in well under a second on one core: the conformance test
    /// runs it, and the docs show it.
    fn example() -> Self;

    /// This job's lines of the deterministic `puzzle bench` signature (fixed-seed runs whose
    /// work and results change whenever search behaviour does); most jobs add none.
    fn signature() -> Result<Vec<crate::Signature>> {
        Ok(Vec::new())
    }
}

/// The accessors of [`Job`] for a request whose budget is its `limits` field and, for a job
/// over many items, whose sharding part is its `items` field: `job_fields!(limits)` or
/// `job_fields!(limits, items)` inside the `impl Job`.
macro_rules! job_fields {
    (limits) => {
        fn limits(&self) -> &$crate::Limits {
            &self.limits
        }

        fn limits_mut(&mut self) -> &mut $crate::Limits {
            &mut self.limits
        }
    };
    (limits, items) => {
        $crate::job::job_fields!(limits);

        fn items_mut(&mut self) -> Option<&mut $crate::Items> {
            Some(&mut self.items)
        }
    };
}
pub(crate) use job_fields;

/// [`Job::run`] for a job whose function is `job(&request, &stop, emit)`: `job_run!(solve)`
/// (its outcome is not a report), or `job_run!(report experiment_report)` (it returns the
/// experiment's report).
macro_rules! job_run {
    ($job:ident) => {
        fn run(
            &self,
            stop: &std::sync::Arc<std::sync::atomic::AtomicBool>,
            emit: $crate::Emit<'_, Self::Event>,
        ) -> anyhow::Result<Option<$crate::plot::Report>> {
            $job(self, stop, emit).map(|_| None)
        }
    };
    (report $job:ident) => {
        fn run(
            &self,
            stop: &std::sync::Arc<std::sync::atomic::AtomicBool>,
            emit: $crate::Emit<'_, Self::Event>,
        ) -> anyhow::Result<Option<$crate::plot::Report>> {
            $job(self, stop, emit).map(Some)
        }
    };
}
pub(crate) use job_run;

/// What a front end lists about a job: its name, title and the JSON Schema of its request.
#[derive(Clone, Debug, Serialize)]
pub struct JobInfo {
    /// The job's name (its `job` tag).
    pub name: &'static str,
    /// What it does.
    pub title: &'static str,
    /// The JSON Schema of its request (defaults included).
    pub schema: serde_json::Value,
}

impl JobInfo {
    /// The entry of job `J`.
    pub fn of<J: Job>() -> JobInfo {
        JobInfo {
            name: J::NAME,
            title: J::TITLE,
            schema: schema_of::<J>(),
        }
    }
}

/// The JSON Schema of job `J`'s request (draft 2020-12), with every field's default; the
/// budget settings the job does not read ([`Job::READS`]) are not among its properties.
pub fn schema_of<J: Job>() -> serde_json::Value {
    let mut schema = serde_json::to_value(schemars::schema_for!(J)).unwrap_or_default();
    if let Some(properties) = schema
        .get_mut("properties")
        .and_then(serde_json::Value::as_object_mut)
    {
        for limit in Limit::ALL.iter().filter(|l| !J::READS.contains(l)) {
            properties.shift_remove(limit.field());
        }
    }
    schema
}
