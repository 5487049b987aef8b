//! [`InMemoryTaskStore`]: the default store, in this process's memory.

use std::collections::{BTreeMap, HashMap};
use std::ops::Bound;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::SystemTime;

use tokio::sync::watch;

use super::store::{
    Created, StoreError, StoreFuture, TaskChanges, TaskOwner, TaskPage, TaskRecord, TaskStore,
    TaskUpdate, Updated,
};

/// Tasks kept in this process's memory: the default. A fleet of servers needs a shared
/// store instead.
///
/// Every method takes one lock for its whole work, so each is atomic as the
/// [contract](TaskStore) asks, and never holds it across an `await` (there is none).
///
/// [`list`](TaskStore::list) positions (`next`, `after`) are decimal numbers: the order in
/// which this store received the last task of the page, so a page continues where the last
/// one ended even if that task has since been purged. A position that is not a number
/// yields an empty page, not an error: a client that sends a made-up cursor learns only
/// that there is nothing there, and the runtime logs no internal error for it.
///
/// A task expired but not yet purged is invisible to every method, but its
/// [`watch`](TaskStore::watch) streams end only when
/// [`purge_expired`](TaskStore::purge_expired) forgets it.
#[derive(Default)]
pub struct InMemoryTaskStore {
    // One lock over everything: `create` must check the owner's limit and store in one
    // step, and every method is short and never awaits, so finer locking would buy nothing.
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    tasks: HashMap<String, Entry>,
    owners: HashMap<TaskOwner, OwnerTasks>,
    // Numbers tasks in the order they were created. A counter rather than `created_at`:
    // clocks step backwards and two tasks may share an instant, while a page position must
    // be strictly ordered and must survive the task it names being purged.
    next_sequence: u64,
}

struct Entry {
    sequence: u64,
    // The record lives in its watch channel, not beside it: one copy (outcomes can be
    // large), and `watch` can never see a state other than the stored one.
    // `send_if_modified` updates it whether or not anyone watches (`send` would not).
    record: watch::Sender<TaskRecord>,
}

#[derive(Default)]
struct OwnerTasks {
    // Creation order -> id: `list` walks it from a position without scanning older tasks.
    by_sequence: BTreeMap<u64, String>,
    // Kept up to date rather than counted on `create`: finished tasks stay until their ttl
    // (or forever without one), so counting would grow with every task an owner ever ran.
    // Only a create or an update that finishes a task changes it: a task never leaves a
    // finished status, and only finished tasks expire.
    unfinished: usize,
}

impl InMemoryTaskStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // Nothing under the lock panics short of a bug in this file, and every method
        // leaves the state whole before it could: keep serving rather than fail every
        // task request of the process from then on.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn create_now(&self, task: TaskRecord, max_unfinished: usize) -> Result<Created, StoreError> {
        let mut state = self.state();
        let state = &mut *state;
        if let Some(existing) = state.tasks.get(&task.id) {
            // A forgotten task's id is free again; one still visible is a bug in whoever
            // made the id (the runtime's are 128 random bits).
            if !existing.record.borrow().is_expired(SystemTime::now()) {
                return Err(StoreError(format!("a task with id {} exists", task.id)));
            }
            state.remove(&task.id);
        }
        let owner = state.owners.entry(task.owner.clone()).or_default();
        if owner.unfinished >= max_unfinished {
            if owner.by_sequence.is_empty() {
                // `or_default` above made it; leave no empty owner behind.
                state.owners.remove(&task.owner);
            }
            return Ok(Created::OwnerAtLimit(max_unfinished));
        }
        let sequence = state.next_sequence;
        state.next_sequence += 1;
        owner.by_sequence.insert(sequence, task.id.clone());
        if !task.status.is_terminal() {
            owner.unfinished += 1;
        }
        let id = task.id.clone();
        let (record, _) = watch::channel(task);
        state.tasks.insert(id, Entry { sequence, record });
        Ok(Created::Stored)
    }

    fn get_now(&self, id: &str) -> Option<TaskRecord> {
        let state = self.state();
        let record = state.tasks.get(id)?.record.borrow().clone();
        (!record.is_expired(SystemTime::now())).then_some(record)
    }

    fn update_now(&self, id: &str, update: TaskUpdate) -> Result<Updated, StoreError> {
        let now = SystemTime::now();
        let mut state = self.state();
        let Some(entry) = state.tasks.get(id) else {
            return Ok(Updated::Unknown);
        };
        let was_unfinished = {
            let record = entry.record.borrow();
            if record.is_expired(now) {
                return Ok(Updated::Unknown);
            }
            !record.status.is_terminal()
        };
        let mut result = Ok(false);
        // Applied in place, and only an applied change wakes the watchers.
        entry.record.send_if_modified(|record| {
            result = record.apply(update, now);
            matches!(result, Ok(true))
        });
        let record = entry.record.borrow().clone();
        let applied = result?;
        if was_unfinished
            && record.status.is_terminal()
            && let Some(owner) = state.owners.get_mut(&record.owner)
        {
            owner.unfinished -= 1;
        }
        Ok(if applied {
            Updated::Applied(record)
        } else {
            Updated::Refused(record)
        })
    }

    fn list_now(&self, owner: &TaskOwner, after: Option<&str>, limit: usize) -> TaskPage {
        let start = match after.map(str::parse::<u64>) {
            None => Bound::Unbounded,
            Some(Ok(sequence)) => Bound::Excluded(sequence),
            Some(Err(_)) => return TaskPage::default(),
        };
        // A page of nothing that says more remain would send a client round forever, one
        // that says none remain would hide the rest: a limit of 0 reads as 1.
        let limit = limit.max(1);
        let now = SystemTime::now();
        let state = self.state();
        let Some(tasks) = state.owners.get(owner) else {
            return TaskPage::default();
        };
        // Expired tasks stay in the index until purged; skip them here.
        let mut visible = tasks
            .by_sequence
            .range((start, Bound::Unbounded))
            .filter_map(|(&sequence, id)| {
                let record = state.tasks.get(id)?.record.borrow().clone();
                (!record.is_expired(now)).then_some((sequence, record))
            });
        let mut page = TaskPage::default();
        let mut last = None;
        for (sequence, record) in visible.by_ref().take(limit) {
            page.tasks.push(record);
            last = Some(sequence);
        }
        // Looks one past the page so the last page says it is the last.
        if visible.next().is_some() {
            page.next = last.map(|sequence| sequence.to_string());
        }
        page
    }

    fn watch_now(&self, id: &str) -> Option<TaskChanges> {
        let state = self.state();
        let entry = state.tasks.get(id)?;
        if entry.record.borrow().is_expired(SystemTime::now()) {
            return None;
        }
        Some(changes(entry.record.subscribe()))
    }

    fn purge_now(&self, now: SystemTime) -> usize {
        let mut state = self.state();
        let expired: Vec<String> = state
            .tasks
            .iter()
            .filter(|(_, entry)| entry.record.borrow().is_expired(now))
            .map(|(id, _)| id.clone())
            .collect();
        for id in &expired {
            state.remove(id);
        }
        expired.len()
    }
}

impl State {
    /// Forgets a finished task: dropping its sender ends its watch streams.
    fn remove(&mut self, id: &str) {
        let Some(entry) = self.tasks.remove(id) else {
            return;
        };
        let record = entry.record.borrow();
        if let Some(owner) = self.owners.get_mut(&record.owner) {
            owner.by_sequence.remove(&entry.sequence);
            // Only finished tasks expire, so `unfinished` does not change; an owner whose
            // last task is gone is dropped, or the map would keep every owner ever seen.
            if owner.by_sequence.is_empty() {
                self.owners.remove(&record.owner);
            }
        }
    }
}

/// The task as it is, then after each change, until the sender is dropped (the task was
/// purged).
fn changes(receiver: watch::Receiver<TaskRecord>) -> TaskChanges {
    Box::pin(futures_util::stream::unfold(
        (receiver, true),
        |(mut receiver, first)| async move {
            // `changed` still reports the last update made before a purge, then ends.
            if !first && receiver.changed().await.is_err() {
                return None;
            }
            // The latest state, read when it is asked for: changes made between two reads
            // collapse into one, as the contract allows.
            let record = receiver.borrow_and_update().clone();
            Some((record, (receiver, false)))
        },
    ))
}

// The methods do their work when first polled, not when called, as futures do.
impl TaskStore for InMemoryTaskStore {
    fn create(&self, task: TaskRecord, max_unfinished: usize) -> StoreFuture<'_, Created> {
        Box::pin(async move { self.create_now(task, max_unfinished) })
    }

    fn get<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<TaskRecord>> {
        Box::pin(async move { Ok(self.get_now(id)) })
    }

    fn update<'a>(&'a self, id: &'a str, update: TaskUpdate) -> StoreFuture<'a, Updated> {
        Box::pin(async move { self.update_now(id, update) })
    }

    fn list<'a>(
        &'a self,
        owner: &'a TaskOwner,
        after: Option<&'a str>,
        limit: usize,
    ) -> StoreFuture<'a, TaskPage> {
        Box::pin(async move { Ok(self.list_now(owner, after, limit)) })
    }

    fn watch<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<TaskChanges>> {
        Box::pin(async move { Ok(self.watch_now(id)) })
    }

    fn purge_expired(&self, now: SystemTime) -> StoreFuture<'_, usize> {
        Box::pin(async move { Ok(self.purge_now(now)) })
    }
}

#[cfg(all(test, feature = "testing"))]
mod tests {
    use std::time::Duration;

    use serde_json::{Map, json};

    use super::*;
    use crate::task::TaskStatus;
    use crate::testing::check_task_store;

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn keeps_the_contract() {
        check_task_store(InMemoryTaskStore::new).await;
    }

    fn task(id: &str, owner: &str) -> TaskRecord {
        let now = SystemTime::now();
        TaskRecord {
            id: id.to_owned(),
            owner: TaskOwner(owner.to_owned()),
            protocol_version: "2025-11-25".to_owned(),
            tool: "sleep".to_owned(),
            status: TaskStatus::Working,
            status_message: None,
            created_at: now,
            last_updated_at: now,
            ttl: None,
            poll_interval: None,
            input_requests: Map::new(),
            input_responses: Map::new(),
            outcome: None,
        }
    }

    #[tokio::test]
    async fn a_cursor_that_is_not_a_number_yields_an_empty_page() {
        let store = InMemoryTaskStore::new();
        store.create(task("a", "o"), 10).await.unwrap();
        let owner = TaskOwner("o".to_owned());
        for cursor in ["", "x", "-1", "1.5", "99999999999999999999999"] {
            let page = store.list(&owner, Some(cursor), 10).await.unwrap();
            assert_eq!(page, TaskPage::default(), "cursor {cursor:?}");
        }
    }

    #[tokio::test]
    async fn a_limit_of_zero_still_makes_progress() {
        let store = InMemoryTaskStore::new();
        store.create(task("a", "o"), 10).await.unwrap();
        store.create(task("b", "o"), 10).await.unwrap();
        let owner = TaskOwner("o".to_owned());
        let first = store.list(&owner, None, 0).await.unwrap();
        assert_eq!(first.tasks.len(), 1);
        let second = store.list(&owner, first.next.as_deref(), 0).await.unwrap();
        assert_eq!(second.tasks[0].id, "b");
        assert_eq!(second.next, None);
    }

    #[tokio::test]
    async fn last_updated_at_never_goes_back() {
        let store = InMemoryTaskStore::new();
        let mut ahead = task("a", "o");
        ahead.last_updated_at = SystemTime::now() + Duration::from_secs(3600);
        store.create(ahead.clone(), 10).await.unwrap();
        let message = Some("still".to_owned());
        let Updated::Applied(record) = store
            .update("a", TaskUpdate::Working { message })
            .await
            .unwrap()
        else {
            panic!("not applied");
        };
        assert_eq!(record.last_updated_at, ahead.last_updated_at);
    }

    #[tokio::test]
    async fn finishing_with_a_running_status_is_an_error() {
        let store = InMemoryTaskStore::new();
        let running = task("a", "o");
        store.create(running.clone(), 10).await.unwrap();
        let finished = TaskUpdate::Finished {
            outcome: crate::task::TaskOutcome::Result(json!({})),
            status: TaskStatus::InputRequired,
            message: None,
        };
        assert!(store.update("a", finished).await.is_err());
        assert_eq!(store.get("a").await.unwrap(), Some(running));
    }

    #[tokio::test]
    async fn the_id_of_an_expired_task_may_be_reused() {
        let store = InMemoryTaskStore::new();
        let mut old = task("a", "o");
        old.status = TaskStatus::Completed;
        old.created_at -= Duration::from_secs(10);
        old.ttl = Some(Duration::from_secs(1));
        store.create(old, 10).await.unwrap();
        assert!(store.create(task("a", "o"), 10).await.is_ok());
        assert_eq!(store.get("a").await.unwrap().unwrap().ttl, None);
        assert_eq!(
            store.state().owners[&TaskOwner("o".to_owned())]
                .by_sequence
                .len(),
            1
        );
        assert!(store.create(task("a", "o"), 10).await.is_err());
    }

    #[tokio::test]
    async fn forgets_owners_with_no_tasks() {
        let store = InMemoryTaskStore::new();
        assert_eq!(
            store.create(task("a", "o"), 0).await.unwrap(),
            Created::OwnerAtLimit(0)
        );
        assert!(store.state().owners.is_empty());
        let mut done = task("b", "p");
        done.status = TaskStatus::Failed;
        done.ttl = Some(Duration::ZERO);
        store.create(done, 1).await.unwrap();
        assert_eq!(store.purge_expired(SystemTime::now()).await.unwrap(), 1);
        let state = store.state();
        assert!(state.owners.is_empty() && state.tasks.is_empty());
    }
}
