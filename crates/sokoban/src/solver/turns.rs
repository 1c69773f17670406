//! Searches that share one core by taking turns: the two-thread portfolio run on one core
//! (`docs/METHODS.md#sokoban-portfolio`). Each search runs on a thread of its own, but only
//! the one holding the turn runs; it hands the turn on after its slice (a number of budget
//! polls, or a time; [`TurnLength`]) and waits for it to come back. A search that ends hands the turn
//! on for good. With an iteration budget a turn is a number of polls, so the order of turns
//! depends on expansion counts alone, never on the clock, and such a run is the same run every
//! time. With a time budget only (a run that already depends on the clock, since each search
//! has a window of the time) a turn is a slice of time instead ([`TurnLength::Time`]): the
//! searches differ up to ten-fold in the cost of an expansion, so turns of equal polls gave
//! the list running the dearer search most of the core.
//!
//! A search learns that it takes turns from the thread it runs on ([`TurnGuard::join`]):
//! the searches poll their budget through [`super::budget_exceeded`], which calls
//! [`poll`], so no search's signature carries the turns.

use std::cell::RefCell;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Budget polls (each one per 128 expansions) in one turn: about 1,000 expansions, a few
/// milliseconds, so handing the turn on costs well under 1 % of the time.
pub(crate) const POLLS_PER_TURN: u32 = 8;

/// A slice of time per unit of weight, for [`TurnLength::Time`]: a few dozen budget polls of
/// any search (a best-first search polls about every 0.5 ms, FESS about every 1 ms). Handing
/// the turn on takes tens of microseconds, but the search taking it then finds its tables
/// gone from the caches: with slices of 3 ms two searches sharing a core made about 3.6 %
/// fewer expansions in all than with slices of 12 ms (docs/benchmarks/sokoban.md, "One
/// core: the length of a turn").
/// The shortest window of a list at 10 s (A*'s 2 %, 0.2 s) still spans several turns.
pub(crate) const TIME_PER_TURN: Duration = Duration::from_millis(12);

/// What a worker's turn is measured in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TurnLength {
    /// [`POLLS_PER_TURN`] budget polls per unit of weight (the same run every time).
    Polls,
    /// [`TIME_PER_TURN`] of the clock per unit of weight, checked at each budget poll (each
    /// worker gets its share of the core whatever its searches' expansions cost).
    Time,
}

/// The turns of `workers` searches sharing one core.
#[derive(Debug)]
pub(crate) struct Turns {
    state: Mutex<State>,
    changed: Condvar,
    /// Each worker's weight: its turn is that many units of `length`.
    weights: Vec<u32>,
    length: TurnLength,
}

#[derive(Debug)]
struct State {
    /// The worker that may run.
    holder: usize,
    /// The workers that have not ended.
    running: Vec<bool>,
}

impl Turns {
    /// Turns for one worker per entry of `weights`; worker 0 runs first. Worker `k`'s turn
    /// lasts `weights[k]` × [`POLLS_PER_TURN`] polls, or `weights[k]` × [`TIME_PER_TURN`]
    /// with [`TurnLength::Time`], so while all run, each gets that share of the core.
    pub(crate) fn new(weights: &[u32], length: TurnLength) -> Arc<Turns> {
        let weights = if weights.is_empty() {
            vec![1]
        } else {
            weights.iter().map(|&w| w.max(1)).collect()
        };
        Arc::new(Turns {
            state: Mutex::new(State {
                holder: 0,
                running: vec![true; weights.len()],
            }),
            changed: Condvar::new(),
            weights,
            length,
        })
    }

    /// Whether `worker`'s turn is over, `polls` polls and `elapsed` after it began.
    fn used_up(&self, worker: usize, polls: u32, elapsed: impl FnOnce() -> Duration) -> bool {
        let weight = self.weights[worker];
        match self.length {
            TurnLength::Polls => polls >= weight * POLLS_PER_TURN,
            TurnLength::Time => elapsed() >= TIME_PER_TURN * weight,
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A worker that panicked holding the lock left the state whole (every change is a
        // single assignment), so its poison is ignored.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Block until `worker` holds the turn.
    fn wait_for(&self, worker: usize, mut state: MutexGuard<'_, State>) {
        while state.holder != worker {
            state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// The next running worker after `worker` (cyclically), or `worker` itself when no
    /// other runs.
    fn next(state: &State, worker: usize) -> usize {
        let n = state.running.len();
        (1..=n)
            .map(|k| (worker + k) % n)
            .find(|&w| state.running[w])
            .unwrap_or(worker)
    }

    /// `worker` (the holder) hands the turn to the next running worker and waits for it to
    /// come back.
    fn hand_on(&self, worker: usize) {
        let mut state = self.lock();
        let next = Self::next(&state, worker);
        if next != worker {
            state.holder = next;
            self.changed.notify_all();
        }
        self.wait_for(worker, state);
    }

    /// `worker` has ended: it will never take a turn again.
    fn end(&self, worker: usize) {
        let mut state = self.lock();
        state.running[worker] = false;
        if state.holder == worker {
            state.holder = Self::next(&state, worker);
        }
        self.changed.notify_all();
    }
}

/// This thread's worker: its turns, the polls made in its turn and when its turn began.
struct Slot {
    turns: Arc<Turns>,
    worker: usize,
    polls: u32,
    since: Instant,
}

thread_local! {
    static SLOT: RefCell<Option<Slot>> = const { RefCell::new(None) };
}

/// While alive, the searches of this thread run as `worker` of the turns; dropping it ends
/// the worker (also when its search panics), so the others never wait for it.
pub(crate) struct TurnGuard {
    turns: Arc<Turns>,
    worker: usize,
}

impl TurnGuard {
    /// Make this thread worker `worker` of `turns` and wait for its first turn.
    pub(crate) fn join(turns: &Arc<Turns>, worker: usize) -> TurnGuard {
        turns.wait_for(worker, turns.lock());
        SLOT.with(|slot| {
            *slot.borrow_mut() = Some(Slot {
                turns: turns.clone(),
                worker,
                polls: 0,
                since: Instant::now(),
            })
        });
        TurnGuard {
            turns: turns.clone(),
            worker,
        }
    }
}

impl Drop for TurnGuard {
    fn drop(&mut self) {
        SLOT.with(|slot| *slot.borrow_mut() = None);
        self.turns.end(self.worker);
    }
}

/// A budget poll of the search on this thread: when the thread takes turns and its turn is
/// used up, hand the turn on and wait for it to come back. Nothing on a thread that does
/// not take turns.
pub(crate) fn poll() {
    SLOT.with(|slot| {
        let mut slot = slot.borrow_mut();
        let Some(s) = slot.as_mut() else {
            return;
        };
        s.polls += 1;
        if s.turns.used_up(s.worker, s.polls, || s.since.elapsed()) {
            s.turns.hand_on(s.worker);
            s.polls = 0;
            s.since = Instant::now();
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex as StdMutex;

    /// Run one worker per entry of `weights`, worker `k` polling `polls[k]` times, and
    /// return which worker ran each slice of [`POLLS_PER_TURN`] polls (checking that a slice
    /// is one worker's: never do two run at once).
    fn slices_run(weights: &[u32], polls: &[u32]) -> Vec<usize> {
        let turns = Turns::new(weights, TurnLength::Polls);
        let log = StdMutex::new(Vec::new());
        std::thread::scope(|scope| {
            for (worker, &n) in polls.iter().enumerate() {
                let (turns, log) = (&turns, &log);
                scope.spawn(move || {
                    let _guard = TurnGuard::join(turns, worker);
                    for _ in 0..n {
                        log.lock().unwrap().push(worker);
                        poll();
                    }
                });
            }
        });
        let log = log.into_inner().unwrap();
        let chunks = log.chunks(POLLS_PER_TURN as usize);
        for chunk in chunks.clone() {
            assert!(
                chunk.iter().all(|&w| w == chunk[0]),
                "a slice is one worker's"
            );
        }
        chunks.map(|c| c[0]).collect()
    }

    /// Two workers alternate a slice at a time while both run; one that ends leaves the
    /// other to run alone.
    #[test]
    fn workers_alternate_one_at_a_time() {
        let slices = slices_run(&[1, 1], &[3 * POLLS_PER_TURN, 5 * POLLS_PER_TURN]);
        assert_eq!(slices, [0, 1, 0, 1, 0, 1, 1, 1]);
    }

    /// A worker of weight 2 runs two slices for every one of a worker of weight 1.
    #[test]
    fn weights_set_the_length_of_turns() {
        let slices = slices_run(&[1, 2], &[3 * POLLS_PER_TURN, 4 * POLLS_PER_TURN]);
        assert_eq!(slices, [0, 1, 1, 0, 1, 1, 0]);
    }

    /// FESS, which polls once per [`crate::fess::STEPS_PER_POLL`] steps (about the cost of a
    /// best-first search's expansions between two polls), hands the turn on too: the other
    /// worker runs before it ends.
    #[test]
    fn a_fess_search_takes_turns() {
        let text = include_str!("../../../../data/sokoban/XSokoban_90.xsb");
        let level = &crate::level::parse_xsb(text).expect("xsokoban")[28];
        let board = crate::board::Board::new(level).expect("board");
        let total = 5 * u64::from(POLLS_PER_TURN * crate::fess::STEPS_PER_POLL);
        let counter = Arc::new(puzzle_engine::WorkCounter::new());
        let mut budget = puzzle_engine::Budget::iterations(total);
        budget.progress = Some(counter.clone());
        let turns = Turns::new(&[1, 1], TurnLength::Polls);
        let seen = std::thread::scope(|scope| {
            let fess = scope.spawn(|| {
                let _guard = TurnGuard::join(&turns, 0);
                crate::fess::fess(&board, &budget)
            });
            let other = scope.spawn(|| {
                let _guard = TurnGuard::join(&turns, 1);
                counter.iterations()
            });
            assert_eq!(fess.join().unwrap().expanded, total);
            other.join().unwrap()
        });
        assert!(
            seen > 0 && seen < total,
            "the other worker ran after {seen} of {total} positions"
        );
    }

    /// With turns of time, a worker whose polls each take longer than its turn hands the
    /// turn on at every poll (with turns of polls it would run [`POLLS_PER_TURN`] of them),
    /// so a search of dear expansions cannot keep the core.
    #[test]
    fn turns_of_time_end_when_the_time_is_used() {
        let turns = Turns::new(&[1, 1], TurnLength::Time);
        let log = StdMutex::new(Vec::new());
        let slow_polls = 4;
        std::thread::scope(|scope| {
            let (turns, log) = (&turns, &log);
            scope.spawn(move || {
                let _guard = TurnGuard::join(turns, 0);
                for _ in 0..slow_polls {
                    std::thread::sleep(TIME_PER_TURN + Duration::from_millis(1));
                    log.lock().unwrap().push(0);
                    poll();
                }
            });
            scope.spawn(move || {
                let _guard = TurnGuard::join(turns, 1);
                loop {
                    log.lock().unwrap().push(1);
                    std::thread::sleep(TIME_PER_TURN + Duration::from_millis(1));
                    poll();
                    if log.lock().unwrap().iter().filter(|&&w| w == 0).count() == slow_polls {
                        break;
                    }
                }
            });
        });
        // Both workers are slow: every poll hands on, so they alternate poll by poll (the
        // second stops once the first has made its last poll).
        assert_eq!(log.into_inner().unwrap(), [0, 1, 0, 1, 0, 1, 0]);
    }

    /// A thread that takes no turns is not slowed or blocked by polls.
    #[test]
    fn polls_without_turns_do_nothing() {
        for _ in 0..10 * POLLS_PER_TURN {
            poll();
        }
    }
}
