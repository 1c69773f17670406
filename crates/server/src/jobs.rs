//! Running jobs for clients: admission under one shared limit, the time cap, stop on request
//! or when the client goes away, and the events as a server-sent-event stream.

use crate::body::JsonBody;
use crate::error::ApiError;
use crate::AppState;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use puzzle_jobs::{JobRequest, Limits};
use serde_json::json;
use std::collections::HashMap;
use std::convert::Infallible;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;

/// The running jobs and their limits.
#[derive(Debug)]
pub struct Jobs {
    running: Mutex<HashMap<u64, Arc<AtomicBool>>>,
    next_id: AtomicU64,
    /// At most this many searches at once (one more is refused with 429).
    pub max_jobs: usize,
    /// Every job is stopped after this long.
    pub time_cap: Duration,
    /// Threads one job may use.
    pub max_threads: usize,
}

/// A job's place among the running ones; dropping it frees the place.
#[derive(Debug)]
pub struct Slot {
    jobs: Arc<Jobs>,
    /// The job's id.
    pub id: u64,
    /// The job's stop flag.
    pub stop: Arc<AtomicBool>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.jobs.lock().remove(&self.id);
    }
}

impl Jobs {
    /// No jobs yet.
    pub fn new(max_jobs: usize, time_cap: Duration, max_threads: usize) -> Arc<Jobs> {
        Arc::new(Jobs {
            running: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(1),
            max_jobs,
            time_cap,
            max_threads,
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Arc<AtomicBool>>> {
        self.running.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Take a place, or refuse with 429 when every place is taken.
    pub fn admit(self: &Arc<Self>) -> Result<Slot, ApiError> {
        let mut running = self.lock();
        if running.len() >= self.max_jobs {
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "{} searches are running, the server's limit: try again when one ends",
                    running.len()
                ),
            ));
        }
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let stop = Arc::new(AtomicBool::new(false));
        running.insert(id, stop.clone());
        Ok(Slot {
            jobs: self.clone(),
            id,
            stop,
        })
    }

    /// Jobs running now.
    pub fn running(&self) -> usize {
        self.lock().len()
    }

    /// Stop job `id`; false if there is none.
    pub fn stop(&self, id: u64) -> bool {
        match self.lock().get(&id) {
            Some(flag) => {
                flag.store(true, Ordering::Relaxed);
                true
            }
            None => false,
        }
    }

    /// Stop every job (shutdown).
    pub fn stop_all(&self) {
        for flag in self.lock().values() {
            flag.store(true, Ordering::Relaxed);
        }
    }

    /// `limits` within the server's caps: a time limit above the time cap is lowered to it,
    /// and threads to the cores. An absent value keeps the job's own default (the CLI's); the
    /// watchdog stops any job at the cap whatever its budget.
    pub fn capped(&self, mut limits: Limits) -> Limits {
        let cap = self.time_cap.as_secs_f64();
        limits.time_limit = limits.time_limit.map(|t| t.min(cap));
        limits.threads = limits.threads.map(|t| t.clamp(1, self.max_threads));
        limits
    }
}

/// A search admitted under the one job limit, with the time cap running: its stop flag is
/// raised at the cap (and by `DELETE`, shutdown, or a [`StopOnDrop`] of its client's request).
/// Every search the server runs, job stream or hint, is one; dropping it frees the slot.
#[derive(Debug)]
pub struct Run {
    slot: Slot,
    capped: Arc<AtomicBool>,
    watchdog: tokio::task::AbortHandle,
}

impl Run {
    /// The search's id (for `DELETE /api/jobs/{id}`).
    pub fn id(&self) -> u64 {
        self.slot.id
    }

    /// The stop flag the search polls.
    pub fn stop(&self) -> &Arc<AtomicBool> {
        &self.slot.stop
    }

    /// Was the search stopped by the time cap?
    pub fn capped(&self) -> bool {
        self.capped.load(Ordering::Relaxed)
    }

    /// Why a search that returned (`failed`: with an error) ended: `error`, `time_cap`,
    /// `stopped` or `done`, as the `end` event says.
    pub fn end_reason(&self, failed: bool) -> &'static str {
        if failed {
            "error"
        } else if self.capped() {
            "time_cap"
        } else if self.stop().load(Ordering::Relaxed) {
            "stopped"
        } else {
            "done"
        }
    }
}

impl Drop for Run {
    fn drop(&mut self) {
        self.watchdog.abort();
    }
}

impl Jobs {
    /// Admit a search and start its time cap (inside the server's runtime): 429 when every
    /// place is taken.
    pub fn start(self: &Arc<Self>) -> Result<Run, ApiError> {
        let slot = self.admit()?;
        let capped = Arc::new(AtomicBool::new(false));
        let watchdog = {
            let (stop, capped, cap) = (slot.stop.clone(), capped.clone(), self.time_cap);
            tokio::spawn(async move {
                tokio::time::sleep(cap).await;
                capped.store(true, Ordering::Relaxed);
                stop.store(true, Ordering::Relaxed);
            })
            .abort_handle()
        };
        Ok(Run {
            slot,
            capped,
            watchdog,
        })
    }
}

/// Raises a stop flag when dropped: held by whatever lives as long as the client waits (a job's
/// event stream, a hint request's future), so a client that goes away stops its search.
#[derive(Debug)]
pub struct StopOnDrop(pub Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// The event stream of one job; dropping it (the client went away) stops the job.
struct JobStream {
    events: ReceiverStream<Event>,
    _stop: StopOnDrop,
}

impl tokio_stream::Stream for JobStream {
    type Item = Result<Event, Infallible>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        Pin::new(&mut self.events).poll_next(cx).map(|e| e.map(Ok))
    }
}

fn event(name: &str, data: &serde_json::Value) -> Event {
    Event::default().event(name).data(data.to_string())
}

/// `GET /api/jobs`: every job of the registry with its title and the JSON Schema of its
/// request (field types, ranges, choices, defaults and help texts), from which the page builds
/// its settings forms.
pub async fn list() -> axum::Json<serde_json::Value> {
    static LIST: std::sync::OnceLock<serde_json::Value> = std::sync::OnceLock::new();
    axum::Json(
        LIST.get_or_init(|| json!({ "jobs": puzzle_jobs::registry::jobs() }))
            .clone(),
    )
}

/// `POST /api/jobs`: start a job; the answer is its event stream.
pub async fn start(
    State(state): State<Arc<AppState>>,
    JsonBody(body): JsonBody<serde_json::Value>,
) -> Result<Sse<impl tokio_stream::Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let mut request = JobRequest::from_json(body)
        .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, format!("bad job request: {e:#}")))?;
    let limits = request.limits_mut();
    limits.validate().map_err(|e| ApiError::bad_request(&e))?;
    *limits = state.jobs.capped(limits.clone());
    let run = state.jobs.start()?;
    let (tx, rx) = mpsc::channel::<Event>(256);
    let stop = StopOnDrop(run.stop().clone());
    let name = request.name();
    std::thread::spawn(move || {
        let send = |e: Event| {
            tx.blocking_send(e)
                .map_err(|_| anyhow::anyhow!("the client is gone"))
        };
        let _ = send(event(
            "started",
            &json!({ "id": run.id().to_string(), "job": name }),
        ));
        let mut emit =
            |kind: puzzle_jobs::EventKind, data: serde_json::Value| send(event(kind.name(), &data));
        let outcome = request.run(run.stop(), &mut emit);
        if let Err(e) = &outcome {
            let _ = send(event("error", &ApiError::bad_request(e).body));
        }
        let reason = run.end_reason(outcome.is_err());
        // The slot is free before the client hears `end`, so it may start another job at once.
        drop(run);
        let _ = send(event("end", &json!({ "reason": reason })));
    });
    let stream = JobStream {
        events: ReceiverStream::new(rx),
        _stop: stop,
    };
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_millis(500))))
}

/// `DELETE /api/jobs/{id}`: stop a job.
pub async fn stop(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    let found = id.parse().is_ok_and(|id| state.jobs.stop(id));
    if found {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::new(
            StatusCode::NOT_FOUND,
            format!("no running job '{id}'"),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_lower_what_is_above_them_and_keep_defaults() {
        let jobs = Jobs::new(2, Duration::from_secs(60), 2);
        let asked = Limits {
            time_limit: Some(1000.0),
            threads: Some(64),
            ..Limits::default()
        };
        let capped = jobs.capped(asked);
        assert_eq!((capped.time_limit, capped.threads), (Some(60.0), Some(2)));
        let defaults = jobs.capped(Limits::default());
        assert_eq!(defaults, Limits::default(), "the job's own defaults stay");
        let small = jobs.capped(Limits {
            time_limit: Some(3.0),
            ..Limits::default()
        });
        assert_eq!(small.time_limit, Some(3.0));
    }
}
