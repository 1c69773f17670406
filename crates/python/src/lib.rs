//! Python bindings of puzzle-search: the `puzzle_search._puzzle_search` extension module.
//!
//! Two parts, both thin:
//!
//! - the jobs (`jobs`, `run`, `events`), through the job registry only: a request is
//!   `{"job": name, **options}` deserialised into [`JobRequest`], validated and run on a worker
//!   thread with the GIL released, its events handed back as dicts (collected, through a
//!   callback, or as an iterator, [`JobEvents`]);
//! - Sokoban helpers ([`sokoban`]): parsing XSB into levels, their planes as numpy arrays, and
//!   a level being played, which the Gymnasium environment (`puzzle_search.envs`) steps.
//!
//! No job or game logic lives here: it is all in the workspace crates.

use puzzle_jobs::registry::jobs as registry_jobs;
use puzzle_jobs::{EventKind, JobRequest};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

pub mod game_batch;
pub mod game_episodes;
pub mod games;
pub mod sokoban;
pub mod sokoban_env;

/// How often the waiting thread checks for signals (Ctrl-C) while a job runs.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// A JSON value as a Python object (through the standard `json` module, so numbers, strings,
/// lists and dicts come out exactly as `json.loads` makes them).
fn json_to_py<'py>(py: Python<'py>, value: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?
        .call_method1("loads", (value.to_string(),))
}

/// A Python object as a JSON value (through `json.dumps`; a `TypeError` for what JSON cannot
/// hold).
fn py_to_json(py: Python<'_>, object: &Bound<'_, PyAny>) -> PyResult<serde_json::Value> {
    let text: String = py
        .import("json")?
        .call_method1("dumps", (object,))?
        .extract()?;
    serde_json::from_str(&text).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Every job of the registry, in menu order: a list of dicts `{"name", "title", "schema"}`,
/// `schema` being the JSON Schema of the job's request (every option with its default).
#[pyfunction]
fn jobs(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let list = PyList::empty(py);
    for info in registry_jobs() {
        let value =
            serde_json::to_value(&info).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        list.append(json_to_py(py, &value)?)?;
    }
    Ok(list)
}

/// The request `value` as a [`JobRequest`] ([`JobRequest::from_json`]: an unknown job or
/// option, or a value that does not fit its option, is a `ValueError` naming it).
fn parse_request(value: serde_json::Value) -> PyResult<JobRequest> {
    JobRequest::from_json(value).map_err(|e| PyValueError::new_err(format!("{e:#}")))
}

/// One event as the dict handed to Python: `{"kind": "progress"|"result"|"summary", **record}`
/// (a record that is not an object goes under `"value"`).
fn event_json(kind: EventKind, record: serde_json::Value) -> serde_json::Value {
    let mut event = serde_json::Map::new();
    event.insert("kind".into(), kind.name().into());
    match record {
        serde_json::Value::Object(fields) => event.extend(fields),
        other => {
            event.insert("value".into(), other);
        }
    }
    serde_json::Value::Object(event)
}

/// Whether a job failed on its input text: a registered game's parse error
/// (`puzzle_jobs::games`) is in the error's chain.
fn is_parse_error(error: &anyhow::Error) -> bool {
    puzzle_jobs::games::text_error(error).is_some()
}

/// Hand one event to Python: keep it in `kept` unless it is progress, and call `on_event`.
fn deliver(
    py: Python<'_>,
    kind: EventKind,
    record: serde_json::Value,
    kept: &Bound<'_, PyList>,
    on_event: Option<&Bound<'_, PyAny>>,
) -> PyResult<()> {
    let event = json_to_py(py, &event_json(kind, record))?;
    if kind != EventKind::Progress {
        kept.append(&event)?;
    }
    if let Some(callback) = on_event {
        callback.call1((event,))?;
    }
    Ok(())
}

/// Wait up to [`SIGNAL_POLL`] for the next event with the GIL released (the receiver is moved
/// in and handed back, as it is `Send` but not `Sync`).
fn next_event<T: Send>(
    py: Python<'_>,
    events: Receiver<T>,
) -> (Receiver<T>, Result<T, RecvTimeoutError>) {
    py.detach(move || {
        let next = events.recv_timeout(SIGNAL_POLL);
        (events, next)
    })
}

/// Refuse a vector engine's arrays whose lengths are not its `count` environments', naming the
/// first (`(name, length)` pairs).
pub(crate) fn check_batch_lengths(count: usize, arrays: &[(&str, usize)]) -> PyResult<()> {
    match arrays.iter().find(|&&(_, len)| len != count) {
        Some(&(name, len)) => Err(pyo3::exceptions::PyValueError::new_err(format!(
            "{name} has {len} entries for {count} environments"
        ))),
        None => Ok(()),
    }
}

/// Refuse a vector engine's `step` arrays (actions, rewards, terminations, truncations, by
/// length) unless each holds its `count` environments' entries.
pub(crate) fn check_step_lengths(count: usize, lengths: [usize; 4]) -> PyResult<()> {
    let names = ["actions", "rewards", "terminations", "truncations"];
    let arrays: Vec<(&str, usize)> = names.into_iter().zip(lengths).collect();
    check_batch_lengths(count, &arrays)
}

/// A started job: its stop flag, its events as they arrive, and the worker thread.
struct Started {
    job: String,
    stop: Arc<AtomicBool>,
    receiver: Receiver<(EventKind, serde_json::Value)>,
    worker: JoinHandle<anyhow::Result<()>>,
}

/// Validate `{"job": job, **options}` and start it on a worker thread.
fn start(py: Python<'_>, job: &str, options: Option<&Bound<'_, PyDict>>) -> PyResult<Started> {
    let fields = PyDict::new(py);
    fields.set_item("job", job)?;
    if let Some(options) = options {
        fields.update(options.as_mapping())?;
    }
    let value = py_to_json(py, fields.as_any())?;
    let request = parse_request(value)?;
    request
        .validate()
        .map_err(|e| PyValueError::new_err(format!("{e:#}")))?;
    let stop = Arc::new(AtomicBool::new(false));
    let (sender, receiver) = mpsc::channel::<(EventKind, serde_json::Value)>();
    let worker_stop = Arc::clone(&stop);
    let worker = std::thread::Builder::new()
        .name(format!("puzzle_search {job}"))
        .spawn(move || {
            let mut emit = |kind: EventKind, record: serde_json::Value| {
                // The caller stops listening only after the job ends, or has given up on it.
                let _ = sender.send((kind, record));
                Ok(())
            };
            request.run(&worker_stop, &mut emit)
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start the job's thread: {e}")))?;
    Ok(Started {
        job: job.to_string(),
        stop,
        receiver,
        worker,
    })
}

/// How a finished job's thread ended, as Python sees it: parse errors are `ValueError`, other
/// failures `RuntimeError`.
fn finish(job: &str, worker: JoinHandle<anyhow::Result<()>>, py: Python<'_>) -> PyResult<()> {
    match py.detach(move || worker.join()) {
        Ok(Ok(())) => Ok(()),
        Ok(Err(error)) if is_parse_error(&error) => {
            Err(PyValueError::new_err(format!("{error:#}")))
        }
        Ok(Err(error)) => Err(PyRuntimeError::new_err(format!("{error:#}"))),
        Err(_) => Err(PyRuntimeError::new_err(format!("job '{job}' panicked"))),
    }
}

/// Run job `job` with `options` (the fields of its request, as in `jobs()`'s schemas and the
/// CLI's `--json` requests) and return its result and summary events as dicts
/// `{"kind": …, **record}`.
///
/// The job runs on a worker thread with the GIL released; `on_event(event)` is called on the
/// calling thread for every event (progress included) as it arrives. A bad request (unknown
/// option, wrong type, out of range) raises `ValueError` with the message naming it; a job that
/// fails raises `RuntimeError` with its message. On `KeyboardInterrupt` (or an exception from
/// `on_event`) the job is stopped, waited for, and the exception re-raised with the events
/// so far as its `events` attribute.
#[pyfunction]
#[pyo3(signature = (job, on_event=None, **options))]
fn run<'py>(
    py: Python<'py>,
    job: &str,
    on_event: Option<Bound<'py, PyAny>>,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyList>> {
    let Started {
        job,
        stop,
        mut receiver,
        worker,
    } = start(py, job, options)?;
    let kept = PyList::empty(py);
    let mut failure: Option<PyErr> = None;
    loop {
        let (back, next) = next_event(py, receiver);
        receiver = back;
        match next {
            Ok((kind, record)) => {
                // After a failure the stopping job's last events are still kept, not handed on.
                let callback = on_event.as_ref().filter(|_| failure.is_none());
                if let Err(error) = deliver(py, kind, record, &kept, callback) {
                    stop.store(true, Ordering::SeqCst);
                    failure.get_or_insert(error);
                }
                // Ctrl-C between events too: a job whose events never pause would otherwise
                // run to its end (checking is reading a flag).
                if failure.is_none() {
                    if let Err(error) = py.check_signals() {
                        stop.store(true, Ordering::SeqCst);
                        failure = Some(error);
                    }
                }
            }
            Err(RecvTimeoutError::Timeout) => {
                if failure.is_none() {
                    if let Err(error) = py.check_signals() {
                        stop.store(true, Ordering::SeqCst);
                        failure = Some(error);
                    }
                }
            }
            Err(RecvTimeoutError::Disconnected) => break,
        }
    }
    let outcome = finish(&job, worker, py);
    if let Some(error) = failure {
        // Best effort: the interrupted run's events stay reachable from the exception.
        let _ = error.value(py).setattr("events", &kept);
        return Err(error);
    }
    outcome.map(|()| kept)
}

/// A running job's events, as an iterator of dicts `{"kind": "progress"|"result"|"summary",
/// **record}` in the order the job emits them (progress included). Iterating waits with the
/// GIL released; the iterator ends when the job does, raising the job's error if it failed
/// (`ValueError` for input that does not parse, `RuntimeError` otherwise). `stop()` asks the
/// job to stop (it keeps what it found and ends with its summary); so does leaving a `with`
/// block, Ctrl-C while waiting (the `KeyboardInterrupt` is raised), and dropping the iterator.
#[pyclass(module = "puzzle_search._puzzle_search")]
pub struct JobEvents {
    job: String,
    stop: Arc<AtomicBool>,
    receiver: Mutex<Option<Receiver<(EventKind, serde_json::Value)>>>,
    worker: Mutex<Option<JoinHandle<anyhow::Result<()>>>>,
}

#[pymethods]
impl JobEvents {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        loop {
            let Some(receiver) = self.receiver.lock().map_err(poisoned)?.take() else {
                return Ok(None);
            };
            let (receiver, next) = next_event(py, receiver);
            match next {
                Ok((kind, record)) => {
                    *self.receiver.lock().map_err(poisoned)? = Some(receiver);
                    return json_to_py(py, &event_json(kind, record)).map(Some);
                }
                Err(RecvTimeoutError::Timeout) => {
                    *self.receiver.lock().map_err(poisoned)? = Some(receiver);
                    if let Err(error) = py.check_signals() {
                        self.stop.store(true, Ordering::SeqCst);
                        return Err(error);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let worker = self.worker.lock().map_err(poisoned)?.take();
                    return match worker {
                        Some(worker) => finish(&self.job, worker, py).map(|()| None),
                        None => Ok(None),
                    };
                }
            }
        }
    }

    /// Ask the job to stop; its last events (the summary) still arrive.
    fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// The job's name.
    #[getter]
    fn job(&self) -> &str {
        &self.job
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    #[pyo3(signature = (*_exception))]
    fn __exit__(&self, _exception: &Bound<'_, pyo3::types::PyTuple>) -> bool {
        self.stop();
        false
    }
}

impl Drop for JobEvents {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
    }
}

fn poisoned<T>(_: std::sync::PoisonError<T>) -> PyErr {
    PyRuntimeError::new_err("the job's event channel was poisoned by a panic")
}

/// Start job `job` with `options` (as `run`) and return its events as an iterator
/// ([`JobEvents`]) instead of collecting them.
#[pyfunction]
#[pyo3(signature = (job, **options))]
fn events(py: Python<'_>, job: &str, options: Option<&Bound<'_, PyDict>>) -> PyResult<JobEvents> {
    let started = start(py, job, options)?;
    Ok(JobEvents {
        job: started.job,
        stop: started.stop,
        receiver: Mutex::new(Some(started.receiver)),
        worker: Mutex::new(Some(started.worker)),
    })
}

/// The extension module `puzzle_search._puzzle_search` (re-exported by `puzzle_search`).
#[pymodule]
fn _puzzle_search(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    module.add_function(wrap_pyfunction!(jobs, module)?)?;
    module.add_function(wrap_pyfunction!(run, module)?)?;
    module.add_function(wrap_pyfunction!(events, module)?)?;
    module.add_class::<JobEvents>()?;
    sokoban::register(module)?;
    sokoban_env::register(module)?;
    games::register(module)?;
    game_batch::register(module)?;
    Ok(())
}
