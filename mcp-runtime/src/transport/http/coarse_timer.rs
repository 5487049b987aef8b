//! The timer hyper arms for the header timeout of every request ([`CoarseTimer`]): a
//! deadline that one task looks at every [`TICK`], rather than an entry in tokio's timer
//! wheel. hyper sets a new one each time a connection waits for a request; a tokio timer
//! set that often wakes the runtime's parked thread to move its wake-up earlier, a futex
//! call and an eventfd write per request. Deadlines here fire up to a tick late, which a
//! timeout of seconds does not notice.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use futures_util::task::AtomicWaker;
use hyper::rt::{Sleep, Timer};

/// How often deadlines are looked at.
pub(super) const TICK: Duration = Duration::from_millis(250);

/// hyper's [`Timer`] for one accept loop; its ticking task ends with the last clone.
#[derive(Clone)]
pub(crate) struct CoarseTimer(Arc<Deadlines>);

#[derive(Default)]
struct Deadlines {
    /// Every sleep not yet dropped that has waited (been polled before its deadline).
    waiting: Mutex<Vec<Weak<Deadline>>>,
    /// Ticks since the timer started: a clock read with one atomic load.
    ticks: AtomicU64,
}

struct Deadline {
    at: Instant,
    waker: AtomicWaker,
    /// Whether it is in `waiting` already.
    listed: std::sync::atomic::AtomicBool,
}

/// A deadline as hyper holds it.
struct CoarseSleep {
    deadline: Arc<Deadline>,
    deadlines: Weak<Deadlines>,
}

impl CoarseTimer {
    /// A timer whose deadlines a task of the current runtime looks at every [`TICK`].
    pub fn start() -> Self {
        let deadlines = Arc::new(Deadlines::default());
        let ticking = Arc::downgrade(&deadlines);
        tokio::spawn(async move {
            let mut ticks = tokio::time::interval(TICK);
            ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                ticks.tick().await;
                let Some(deadlines) = ticking.upgrade() else {
                    return;
                };
                deadlines.ticks.fetch_add(1, Ordering::Relaxed);
                deadlines.wake_expired(Instant::now());
            }
        });
        CoarseTimer(deadlines)
    }

    /// The number of ticks since the timer started: a clock of [`TICK`]s.
    pub fn ticks(&self) -> u64 {
        self.0.ticks.load(Ordering::Relaxed)
    }
}

impl Deadlines {
    /// Wakes the sleeps whose deadline passed, and forgets them and the dropped ones.
    fn wake_expired(&self, now: Instant) {
        let mut waiting = self.waiting.lock().unwrap_or_else(PoisonError::into_inner);
        waiting.retain(|deadline| {
            let Some(deadline) = deadline.upgrade() else {
                return false;
            };
            if deadline.at <= now {
                deadline.waker.wake();
                return false;
            }
            true
        });
    }
}

impl Timer for CoarseTimer {
    fn sleep(&self, duration: Duration) -> Pin<Box<dyn Sleep>> {
        self.sleep_until(Instant::now() + duration)
    }

    fn sleep_until(&self, at: Instant) -> Pin<Box<dyn Sleep>> {
        Box::pin(CoarseSleep {
            deadline: Arc::new(Deadline {
                at,
                waker: AtomicWaker::new(),
                listed: std::sync::atomic::AtomicBool::new(false),
            }),
            deadlines: Arc::downgrade(&self.0),
        })
    }
}

impl Future for CoarseSleep {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let deadline = &self.deadline;
        if deadline.at <= Instant::now() {
            return Poll::Ready(());
        }
        deadline.waker.register(cx.waker());
        // Listed once, the first time it waits: most are dropped before their first tick.
        if !deadline
            .listed
            .swap(true, std::sync::atomic::Ordering::Relaxed)
        {
            match self.deadlines.upgrade() {
                Some(deadlines) => deadlines
                    .waiting
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push(Arc::downgrade(deadline)),
                // The accept loop is gone: nothing will look at the deadline.
                None => return Poll::Ready(()),
            }
        }
        Poll::Pending
    }
}

impl Sleep for CoarseSleep {}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_deadline_fires_within_a_tick_and_not_before() {
        let timer = CoarseTimer::start();
        let started = Instant::now();
        timer.sleep(Duration::from_millis(300)).await;
        let waited = started.elapsed();
        assert!(waited >= Duration::from_millis(300), "{waited:?}");
        assert!(
            waited <= Duration::from_millis(300) + TICK * 2,
            "{waited:?}"
        );
    }

    #[tokio::test]
    async fn dropped_sleeps_are_forgotten() {
        let timer = CoarseTimer::start();
        for _ in 0..100 {
            let mut sleep = timer.sleep(Duration::from_secs(60));
            let waker = futures_util::task::noop_waker();
            let _ = sleep.as_mut().poll(&mut Context::from_waker(&waker));
        }
        assert_eq!(timer.0.waiting.lock().unwrap().len(), 100);
        timer.0.wake_expired(Instant::now());
        assert!(timer.0.waiting.lock().unwrap().is_empty());
    }
}
