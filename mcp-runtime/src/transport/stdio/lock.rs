//! The lock a connection's reader thread and its task share, and how they hand it over.
//!
//! The thread takes the lock with a blocking [`lock`](LockedConnection::lock), for it has
//! nothing else to do; the task must never block a worker of the runtime (the thread may be
//! handling a burst, or polling a slow tool that waits on that very worker), so it only
//! tries the lock ([`poll_lock`](LockedConnection::poll_lock)) and, finding it taken, waits
//! for the thread to wake it once it lets go ([`unlock`](LockedConnection::unlock)).
//!
//! The invariant: a task that found the lock taken is woken after the lock is next let go.
//! The task sets `task_waiting` and then tries the lock again; the thread lets go and then
//! reads `task_waiting`. A `SeqCst` fence between the two steps on each side means at least
//! one of them sees the other's first step: the task finds the lock free, or the thread
//! finds the flag set and wakes the task. The task's waker is registered before either try,
//! so the wake-up reaches the poll that found the lock taken.
//!
//! The thread also waits for the task, when the output is full: it notes its handle in the
//! connection, lets go and parks ([`park_unlocked`](LockedConnection::park_unlocked)); the
//! task, once it has written enough under the lock, takes the handle and unparks it. An
//! unpark that comes before the park makes the park return at once, so none is lost, and
//! the thread looks again under the lock after every wake-up.

use std::sync::atomic::{AtomicBool, Ordering, fence};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, TryLockError};
use std::task::{Context, Poll, Wake, Waker};

use futures_util::task::AtomicWaker;

/// What a connection's task and its reader thread share: `T`, under a lock.
pub(super) struct LockedConnection<T> {
    connection: Mutex<T>,
    /// Wakes the connection's task.
    task: Arc<TaskWaker>,
    /// The task found the lock taken by the thread, which wakes it when it lets go.
    task_waiting: AtomicBool,
}

impl<T> LockedConnection<T> {
    pub fn new(connection: T) -> Self {
        LockedConnection {
            connection: Mutex::new(connection),
            task: Arc::new(TaskWaker::default()),
            task_waiting: AtomicBool::new(false),
        }
    }

    /// The connection, for the reader thread, which lets go with [`unlock`](Self::unlock).
    /// A panic while it was locked (outside a tool: tools' panics are answered) is passed
    /// on by the task; what it left is still what the drain needs.
    pub fn lock(&self) -> MutexGuard<'_, T> {
        self.connection
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Lets go of the connection, waking the task if it found it locked meanwhile.
    pub fn unlock(&self, connection: MutexGuard<'_, T>) {
        drop(connection);
        fence(Ordering::SeqCst);
        // Read before it is cleared: the task is rarely waiting, and a read spares the
        // reader thread an atomic read-modify-write on every message.
        if self.task_waiting.load(Ordering::SeqCst)
            && self.task_waiting.swap(false, Ordering::SeqCst)
        {
            self.wake_task();
        }
    }

    /// Lets go of the connection and parks the thread until it is unparked (or for no
    /// reason: the caller looks again), then takes the connection again.
    pub fn park_unlocked<'a>(&'a self, connection: MutexGuard<'a, T>) -> MutexGuard<'a, T> {
        self.unlock(connection);
        std::thread::park();
        self.lock()
    }

    /// The connection's task as a waker, for the reader thread to poll the output with:
    /// output that has to wait is written by the task once it can be.
    pub fn task_waker(&self) -> Waker {
        Waker::from(Arc::clone(&self.task))
    }

    /// Wakes the connection's task.
    pub fn wake_task(&self) {
        self.task.0.wake();
    }

    /// Polls `poll` with the connection, for its task, until it is ready.
    pub async fn with<R>(&self, mut poll: impl FnMut(&mut T, &mut Context<'_>) -> Poll<R>) -> R {
        std::future::poll_fn(|cx| {
            let mut connection = std::task::ready!(self.poll_lock(cx));
            poll(&mut connection, cx)
        })
        .await
    }

    /// The connection, for its task, without blocking: pending while the reader thread
    /// holds it, which wakes the task once it lets go.
    fn poll_lock(&self, cx: &mut Context<'_>) -> Poll<MutexGuard<'_, T>> {
        self.task.0.register(cx.waker());
        let connection = match self.connection.try_lock() {
            Ok(connection) => connection,
            Err(TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
            Err(TryLockError::WouldBlock) => {
                self.task_waiting.store(true, Ordering::SeqCst);
                fence(Ordering::SeqCst);
                match self.connection.try_lock() {
                    Ok(connection) => connection,
                    Err(TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
                    Err(TryLockError::WouldBlock) => return Poll::Pending,
                }
            }
        };
        Poll::Ready(connection)
    }
}

/// The connection's task, as a waker another thread can hold.
#[derive(Default)]
struct TaskWaker(AtomicWaker);

impl Wake for TaskWaker {
    fn wake(self: Arc<Self>) {
        self.0.wake();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.0.wake();
    }
}
