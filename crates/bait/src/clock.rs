//! Per-move time budgets measured as GVGAI measures them: CPU time of the agent's thread
//! (GVGAI's `ElapsedCpuTimer`), with a wall-clock backstop, and the game's stop flag (a stopped
//! game ends the move being thought about too, however long its budget).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// CPU time consumed by the calling thread so far (`CLOCK_THREAD_CPUTIME_ID`, through
/// rustix's safe wrapper).
pub fn thread_cpu_time() -> Duration {
    let ts = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Duration::new(
        u64::try_from(ts.tv_sec).unwrap_or(0),
        u32::try_from(ts.tv_nsec).unwrap_or(0),
    )
}

/// How many times the CPU budget may pass on the wall clock before a budget counts as spent
/// anyway (a backstop for a starved process: on a loaded machine a thread gets only a share
/// of a core, and GVGAI's budget is CPU time).
pub const WALL_FACTOR: u32 = 10;

/// A running per-move (or setup) budget.
#[derive(Clone, Debug)]
pub struct MoveClock {
    cpu_start: Duration,
    wall_start: Instant,
    limit: Duration,
    stop: Option<Arc<AtomicBool>>,
}

impl MoveClock {
    /// Start a budget of `limit` CPU time (the wall clock may run to [`WALL_FACTOR`] times
    /// that, for a loaded machine, before the budget counts as spent too).
    pub fn start(limit: Duration) -> MoveClock {
        MoveClock {
            cpu_start: thread_cpu_time(),
            wall_start: Instant::now(),
            limit,
            stop: None,
        }
    }

    /// The same budget, spent at once when `stop` is raised (the game is being stopped: its
    /// time cap, its client gone, Ctrl-C), so an agent polling [`MoveClock::expired`] ends its
    /// move within its polling interval whatever the per-move budget.
    pub fn with_stop(mut self, stop: Option<Arc<AtomicBool>>) -> MoveClock {
        self.stop = stop;
        self
    }

    /// Has the game's stop flag been raised?
    pub fn stopped(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// CPU time used since the start.
    pub fn cpu_elapsed(&self) -> Duration {
        thread_cpu_time().saturating_sub(self.cpu_start)
    }

    /// Wall time since the start.
    pub fn wall_elapsed(&self) -> Duration {
        self.wall_start.elapsed()
    }

    /// The limit.
    pub fn limit(&self) -> Duration {
        self.limit
    }

    /// Is the budget spent (or the game stopped)?
    pub fn expired(&self) -> bool {
        self.stopped()
            || self.cpu_elapsed() >= self.limit
            || self.wall_elapsed() >= self.limit * WALL_FACTOR
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_thread_clock_counts_work_and_not_sleep() {
        let clock = MoveClock::start(Duration::from_millis(5));
        // Work until the budget is spent on the CPU clock: it advances.
        let mut x = 0u64;
        while clock.cpu_elapsed() < Duration::from_millis(5) {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
        }
        std::hint::black_box(x);
        assert!(clock.expired());
        // A sleeping thread uses (almost) no CPU time.
        let before = thread_cpu_time();
        std::thread::sleep(Duration::from_millis(60));
        assert!(thread_cpu_time().saturating_sub(before) < Duration::from_millis(30));
    }
}
