//! Budget bookkeeping shared by the searches of this crate: counts work units, polls the stop
//! flag on every check and the clock every few checks (a clock read is the expensive part).

use crate::{Budget, Deadline, StopReason};

/// Checks the clock only every this many work units (a few microseconds of work at most).
const CLOCK_EVERY: u64 = 32;

/// A running budget: iteration count, deadline and stop flag.
#[derive(Clone, Debug)]
pub(crate) struct Meter {
    deadline: Deadline,
    max_iterations: u64,
    /// Work units done so far (expansions, playouts, evaluations: the search decides).
    pub(crate) done: u64,
    since_clock: u64,
}

impl Meter {
    /// Start the clock of `budget`.
    pub(crate) fn start(budget: &Budget) -> Self {
        Meter {
            deadline: budget.start(),
            max_iterations: budget.max_iterations.unwrap_or(u64::MAX),
            done: 0,
            since_clock: 0,
        }
    }

    /// Why the search must stop before doing one more unit of work, if it must.
    #[inline]
    pub(crate) fn exhausted(&mut self) -> Option<StopReason> {
        if self.done >= self.max_iterations {
            return Some(StopReason::Iterations);
        }
        if self.deadline.stopped() {
            return Some(StopReason::Interrupted);
        }
        self.since_clock += 1;
        if self.since_clock >= CLOCK_EVERY {
            self.since_clock = 0;
            if self.deadline.expired() {
                return Some(StopReason::Time);
            }
        }
        None
    }

    /// Like [`Meter::exhausted`] but always reads the clock (for coarse work units).
    pub(crate) fn exhausted_now(&mut self) -> Option<StopReason> {
        self.since_clock = CLOCK_EVERY;
        self.exhausted()
    }

    /// Count one unit of work.
    #[inline]
    pub(crate) fn tick(&mut self) {
        self.done += 1;
    }

    /// Time since the start.
    pub(crate) fn elapsed(&self) -> std::time::Duration {
        self.deadline.elapsed()
    }
}
