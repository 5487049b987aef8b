//! How a watch hears of changes made on any instance: every write publishes the task's id
//! on the channel `tasks`; each store holds one subscription to it (opened by its first
//! watch) and wakes the watchers of that id, which read the task again.
//!
//! Nothing is lost across a broken subscription: once subscribed again, every watcher
//! reads its task again, whatever it missed meanwhile.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, SystemTime};

use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use crate::fleet::redis::subscription::{Heard, listen};
use crate::task::store::{StoreError, TaskChanges, TaskRecord};

/// How long a watcher waits to read again after a read failed (Redis unreachable).
const READ_AGAIN_AFTER: Duration = Duration::from_millis(500);
/// How often a watcher reads a task run by another instance even if nothing was said:
/// a runner that dies publishes nothing, and its task fails only when read.
const RECHECK_EVERY: Duration = Duration::from_secs(2);

/// How a watcher reads its task again: the store it watches, known to the watch by
/// this alone.
pub(super) trait Reload: Send + Sync + 'static {
    /// The task as stored (expired or not), and whether it still runs on another
    /// instance; none once forgotten.
    fn reload(
        &self,
        id: &str,
    ) -> impl Future<Output = Result<Option<(TaskRecord, bool)>, StoreError>> + Send;

    /// The store's clock, which says when a task expires.
    fn now(&self) -> SystemTime;
}

/// The watchers of one store, by task id.
#[derive(Default)]
pub(super) struct Hub {
    state: Mutex<HubState>,
}

#[derive(Default)]
struct HubState {
    // A counter each change raises: a receiver learns something changed since it last
    // looked, however many times (the watcher reads the task, which has the latest).
    watchers: HashMap<String, watch::Sender<u64>>,
    listening: bool,
}

impl Hub {
    fn state(&self) -> MutexGuard<'_, HubState> {
        // Nothing under the lock panics; keep serving if something did.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Starts hearing of changes to `id`, from now on.
    pub(super) fn register(self: &Arc<Self>, id: &str) -> Registration {
        let receiver = self
            .state()
            .watchers
            .entry(id.to_owned())
            .or_insert_with(|| watch::channel(0).0)
            .subscribe();
        Registration {
            hub: Arc::clone(self),
            id: id.to_owned(),
            receiver: Some(receiver),
        }
    }

    fn notify(&self, id: &str) {
        if let Some(sender) = self.state().watchers.get(id) {
            sender.send_modify(|count| *count = count.wrapping_add(1));
        }
    }

    fn notify_all(&self) {
        for sender in self.state().watchers.values() {
            sender.send_modify(|count| *count = count.wrapping_add(1));
        }
    }

    /// Subscribes to `channel`, once per store, until `stop` is cancelled (the store and
    /// every watch stream of it are dropped).
    pub(super) fn listen(
        self: &Arc<Self>,
        client: &redis::Client,
        channel: String,
        stop: CancellationToken,
    ) {
        {
            let mut state = self.state();
            if state.listening {
                return;
            }
            state.listening = true;
        }
        let hub = Arc::clone(self);
        let client = client.clone();
        tokio::spawn(async move {
            let hear = |heard| match heard {
                // Changes made before now were not heard: every watcher reads again.
                Heard::Subscribed => hub.notify_all(),
                Heard::Message(id) => hub.notify(&id),
                Heard::Broke => {}
            };
            listen(
                &client,
                &channel,
                "the changes of tasks",
                stop.cancelled(),
                hear,
            )
            .await;
        });
    }
}

/// One watcher's interest in one task; dropping it forgets the task's entry once nobody
/// else watches it.
pub(super) struct Registration {
    hub: Arc<Hub>,
    id: String,
    // An `Option` only so `drop` can let go of it before counting who is left.
    receiver: Option<watch::Receiver<u64>>,
}

impl Registration {
    /// Waits for the next change (returns at once if one came since the last call).
    async fn changed(&mut self) {
        let Some(receiver) = &mut self.receiver else {
            return;
        };
        if receiver.changed().await.is_err() {
            // The entry is gone (it cannot be while registered): fall back to polling.
            tokio::time::sleep(RECHECK_EVERY).await;
        }
    }
}

impl Drop for Registration {
    fn drop(&mut self) {
        drop(self.receiver.take());
        let mut state = self.hub.state();
        if state
            .watchers
            .get(&self.id)
            .is_some_and(|sender| sender.receiver_count() == 0)
        {
            state.watchers.remove(&self.id);
        }
    }
}

/// A watch stream: `first`, then the task after each change, until it is forgotten.
pub(super) fn changes<S: Reload>(
    store: S,
    id: String,
    registration: Registration,
    first: TaskRecord,
    elsewhere: bool,
) -> TaskChanges {
    let watcher = Watcher {
        store,
        id,
        registration,
        first: Some(first),
        last: None,
        elsewhere,
        failing: false,
        ended: false,
    };
    Box::pin(futures_util::stream::unfold(watcher, Watcher::next))
}

struct Watcher<S> {
    store: S,
    id: String,
    registration: Registration,
    first: Option<TaskRecord>,
    /// What it yielded last: a read that finds the same yields nothing.
    last: Option<TaskRecord>,
    /// The task runs on another instance: read it now and then, in case that one died.
    elsewhere: bool,
    /// The last read failed: read again soon.
    failing: bool,
    /// It yielded an expired task: nothing follows.
    ended: bool,
}

impl<S: Reload> Watcher<S> {
    async fn next(mut self) -> Option<(TaskRecord, Self)> {
        if let Some(first) = self.first.take() {
            self.last = Some(first.clone());
            return Some((first, self));
        }
        loop {
            if self.ended {
                return None;
            }
            self.wait().await;
            match self.store.reload(&self.id).await {
                // Redis is unreachable: keep trying; the stream goes on once it is back.
                Err(_) => self.failing = true,
                Ok(None) => return None,
                Ok(Some((record, elsewhere))) => {
                    self.failing = false;
                    self.elsewhere = elsewhere;
                    let expired = record.is_expired(self.store.now());
                    if self.last.as_ref() != Some(&record) {
                        // An expired task is forgotten: its last state is told, then the
                        // stream ends (Redis drops it soon, whoever purges).
                        self.ended = expired;
                        self.last = Some(record.clone());
                        return Some((record, self));
                    }
                    if expired {
                        return None;
                    }
                }
            }
        }
    }

    /// Until the task may have changed: a change was announced, a read failed a while
    /// ago, the task's runner may have died, or the task expired.
    async fn wait(&mut self) {
        if self.failing {
            tokio::time::sleep(READ_AGAIN_AFTER).await;
            return;
        }
        let expiry = self
            .last
            .as_ref()
            .and_then(TaskRecord::expires_at)
            .map(|at| at.duration_since(self.store.now()).unwrap_or_default());
        let recheck = self.elsewhere.then_some(RECHECK_EVERY);
        let timer = match (expiry, recheck) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let timer = async {
            match timer {
                // A millisecond past the expiry, so the read finds it expired.
                Some(after) => tokio::time::sleep(after + Duration::from_millis(1)).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            () = self.registration.changed() => {}
            () = timer => {}
        }
    }
}
