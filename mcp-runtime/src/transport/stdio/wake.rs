//! Wakers that note what woke the connection's task, so it polls only what did.
//!
//! What a connection waits on besides its input and output — the stop signal, the changes
//! to pass on, the messages of calls running as tasks — is polled with a waker of its own,
//! which notes that it woke the task: a wake-up by input then skips polling them, which
//! would cost every call more than any other step of the connection's loop
//! (`bench/results/stdio-call-path.md`).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Wake, Waker};

use futures_util::task::AtomicWaker;

/// One thing the task waits on, and whether it woke the task.
pub(super) struct WakeSource {
    flag: Arc<WakeFlag>,
    /// `flag` as a waker, to poll the source with.
    waker: Waker,
}

impl WakeSource {
    pub fn new() -> Self {
        // Set at first, so that the source is polled (and its waker registered) once.
        let flag = Arc::new(WakeFlag {
            woken: AtomicBool::new(true),
            task: AtomicWaker::new(),
        });
        let waker = Waker::from(Arc::clone(&flag));
        WakeSource { flag, waker }
    }

    /// Whether the source woke the task since the last call; `task` is woken next time.
    /// If so, the source is to be polled with [`waker`](Self::waker).
    pub fn woken(&self, task: &Waker) -> bool {
        // Not woken: nothing to register, for the waker already registered (the task's, or
        // the reader thread's, which wakes the task) wakes the task when the source fires.
        // This is every wake-up by input, and spares it two atomic read-modify-writes.
        if !self.flag.woken.load(Ordering::Acquire) {
            return false;
        }
        // Registered before the flag is cleared: a wake-up in between is not lost.
        self.flag.task.register(task);
        self.flag.woken.swap(false, Ordering::Acquire)
    }

    /// The waker to poll the source with.
    pub fn waker(&self) -> &Waker {
        &self.waker
    }
}

struct WakeFlag {
    woken: AtomicBool,
    /// The connection's task.
    task: AtomicWaker,
}

impl Wake for WakeFlag {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.woken.store(true, Ordering::Release);
        self.task.wake();
    }
}
