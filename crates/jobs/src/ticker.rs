//! Progress ticks beside a running search: the one mechanism behind every job's periodic
//! progress events.

use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// Runs `work` on this thread while a second thread calls `tick` every `every` (not before
/// the first period, never after `work` ends); `tick` returns `false` to stop ticking. The
/// ticks end when `work` returns *or unwinds*, so a panic in `work` reaches the caller
/// instead of leaving it waiting for the ticking thread.
pub(crate) fn with_ticks<T>(
    every: Duration,
    mut tick: impl FnMut() -> bool + Send,
    work: impl FnOnce() -> T,
) -> T {
    /// Marks the work finished and wakes the ticking thread when dropped, on return and on
    /// unwind alike, so that a short search costs no waiting for the ticker's next period.
    struct Finish<'a>(&'a (Mutex<bool>, Condvar));
    impl Drop for Finish<'_> {
        fn drop(&mut self) {
            let (done, wake) = self.0;
            *done.lock().unwrap_or_else(|e| e.into_inner()) = true;
            wake.notify_all();
        }
    }
    let finished = (Mutex::new(false), Condvar::new());
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let (done, wake) = &finished;
            let mut guard = done.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                let next = Instant::now() + every;
                while !*guard {
                    let left = next.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        break;
                    }
                    guard = wake
                        .wait_timeout(guard, left)
                        .unwrap_or_else(|e| e.into_inner())
                        .0;
                }
                if *guard {
                    break;
                }
                // Tick without holding the lock, so that the work can finish meanwhile.
                drop(guard);
                if !tick() {
                    break;
                }
                guard = done.lock().unwrap_or_else(|e| e.into_inner());
            }
        });
        let _finish = Finish(&finished);
        work()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::mpsc;

    #[test]
    fn ticks_while_the_work_runs_and_stops_with_it() {
        let ticks = AtomicUsize::new(0);
        let out = with_ticks(
            Duration::from_millis(20),
            || {
                ticks.fetch_add(1, Ordering::Relaxed);
                true
            },
            || {
                std::thread::sleep(Duration::from_millis(300));
                7
            },
        );
        assert_eq!(out, 7);
        let n = ticks.load(Ordering::Relaxed);
        assert!(n >= 1, "{n} ticks");
        std::thread::sleep(Duration::from_millis(100));
        assert_eq!(
            ticks.load(Ordering::Relaxed),
            n,
            "ticked after the work ended"
        );
    }

    #[test]
    fn a_tick_that_returns_false_ends_the_ticks() {
        let ticks = AtomicUsize::new(0);
        with_ticks(
            Duration::from_millis(10),
            || ticks.fetch_add(1, Ordering::Relaxed) < 2,
            || std::thread::sleep(Duration::from_millis(300)),
        );
        assert_eq!(ticks.load(Ordering::Relaxed), 3);
    }

    #[test]
    fn a_panicking_search_reaches_the_caller_instead_of_hanging() {
        let (done, finished) = mpsc::channel();
        std::thread::spawn(move || {
            let r = std::panic::catch_unwind(|| {
                with_ticks(
                    Duration::from_millis(10),
                    || true,
                    || panic!("search failed"),
                )
            });
            let _ = done.send(r.is_err());
        });
        let panicked = finished
            .recv_timeout(Duration::from_secs(30))
            .expect("with_ticks hung after the work panicked");
        assert!(panicked);
    }
}
