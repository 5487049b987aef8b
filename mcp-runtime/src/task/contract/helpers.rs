//! What the contract's rules are built from: failing with the rule's name, records and
//! updates to try, and store calls that check as they go.

use std::fmt::Display;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use futures_util::StreamExt;
use serde_json::{Map, Value, json};

use crate::task::store::{
    Created, StoreError, TaskChanges, TaskOutcome, TaskOwner, TaskRecord, TaskStatus, TaskStore,
    TaskUpdate, Updated,
};

use crate::protocol::random_id::random_id;

/// How long a watch stream may take to yield or end before the store is judged broken:
/// long enough for a store over a network, short enough that a broken one fails the test
/// instead of hanging it.
pub(super) const WAIT: Duration = Duration::from_secs(5);

pub(super) fn broken(rule: &str, detail: impl Display) -> ! {
    panic!("the task store breaks its contract: {rule}: {detail}")
}

pub(super) fn ensure(holds: bool, rule: &str, detail: impl Display) {
    if !holds {
        broken(rule, detail);
    }
}

pub(super) fn succeeded<T>(result: Result<T, StoreError>, rule: &str) -> T {
    result.unwrap_or_else(|error| broken(rule, format_args!("the store failed: {error}")))
}

pub(super) fn fresh_owner() -> TaskOwner {
    TaskOwner(format!("contract-owner-{}", random_id()))
}

/// Now, in whole milliseconds (see [`check_task_store`]).
pub(super) fn now() -> SystemTime {
    let since = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("the clock is past 1970");
    UNIX_EPOCH + Duration::from_millis(since.as_millis() as u64)
}

/// A running task of `owner`, created at `created_at`, kept an hour once finished.
pub(super) fn task_at(owner: &TaskOwner, created_at: SystemTime) -> TaskRecord {
    TaskRecord {
        id: random_id(),
        owner: owner.clone(),
        protocol_version: "2025-11-25".to_owned(),
        tool: "contract".to_owned(),
        status: TaskStatus::Working,
        status_message: None,
        created_at,
        last_updated_at: created_at,
        ttl: Some(Duration::from_secs(3600)),
        poll_interval: None,
        input_requests: Map::new(),
        input_responses: Map::new(),
        outcome: None,
    }
}

pub(super) fn task(owner: &TaskOwner) -> TaskRecord {
    task_at(owner, now())
}

pub(super) fn map(pairs: &[(&str, Value)]) -> Map<String, Value> {
    pairs
        .iter()
        .map(|(key, value)| ((*key).to_owned(), value.clone()))
        .collect()
}

pub(super) fn message(text: &str) -> Option<String> {
    Some(text.to_owned())
}

pub(super) fn completed() -> TaskUpdate {
    TaskUpdate::Finished {
        outcome: TaskOutcome::Result(json!({ "content": [], "isError": false })),
        status: TaskStatus::Completed,
        message: message("done"),
    }
}

pub(super) fn failed() -> TaskUpdate {
    TaskUpdate::Finished {
        outcome: TaskOutcome::Error {
            code: -32603,
            message: "it broke".to_owned(),
            data: Some(json!({ "why": "contract" })),
        },
        status: TaskStatus::Failed,
        message: message("failed"),
    }
}

/// Each way a task finishes.
pub(super) fn finishes() -> [TaskUpdate; 3] {
    [
        completed(),
        failed(),
        TaskUpdate::Cancelled { message: None },
    ]
}

/// One of each kind of update, each of which a running task would take.
pub(super) fn every_update() -> Vec<TaskUpdate> {
    vec![
        TaskUpdate::Working {
            message: message("working"),
        },
        TaskUpdate::InputRequired {
            requests: map(&[("q", json!({ "method": "elicitation/create" }))]),
            message: message("asking"),
        },
        TaskUpdate::InputResponses(map(&[("q", json!({ "action": "accept" }))])),
        TaskUpdate::InputTaken(vec!["q".to_owned()]),
        completed(),
        failed(),
        TaskUpdate::Cancelled {
            message: message("cancelled"),
        },
    ]
}

pub(super) async fn create(store: &impl TaskStore, task: &TaskRecord, rule: &str) {
    let created = succeeded(store.create(task.clone(), usize::MAX).await, rule);
    ensure(
        created == Created::Stored,
        rule,
        format_args!("create under no limit said {created:?}"),
    );
}

pub(super) async fn get(store: &impl TaskStore, id: &str, rule: &str) -> Option<TaskRecord> {
    succeeded(store.get(id).await, rule)
}

/// Applies `update`, which must apply, and checks that `get` agrees with what it returned.
pub(super) async fn applied(
    store: &impl TaskStore,
    id: &str,
    update: TaskUpdate,
    rule: &str,
) -> TaskRecord {
    let described = format!("{update:?}");
    let record = match succeeded(store.update(id, update).await, rule) {
        Updated::Applied(record) => record,
        other => broken(rule, format_args!("{described} was not applied: {other:?}")),
    };
    let stored = get(store, id, rule).await;
    ensure(
        stored.as_ref() == Some(&record),
        rule,
        format_args!("after {described}, get returned {stored:?}, update returned {record:?}"),
    );
    record
}

/// Finishes a task whose ttl has passed, so it expires at once: unlike [`applied`], `get`
/// must then not find it.
pub(super) async fn finish_into_expiry(store: &impl TaskStore, id: &str, rule: &str) {
    let finishing = succeeded(store.update(id, completed()).await, rule);
    ensure(
        matches!(&finishing, Updated::Applied(record) if record.status == TaskStatus::Completed),
        rule,
        format_args!("finishing the task said {finishing:?}"),
    );
}

pub(super) async fn all_pages(
    store: &impl TaskStore,
    owner: &TaskOwner,
    limit: usize,
) -> Vec<TaskRecord> {
    let rule = "list pages through every task of the owner";
    let mut tasks = Vec::new();
    let mut after = None;
    for _ in 0..10_000 {
        let page = succeeded(store.list(owner, after.as_deref(), limit).await, rule);
        tasks.extend(page.tasks);
        match page.next {
            None => return tasks,
            next => after = next,
        }
    }
    broken(rule, "10 000 pages and the last still has a next")
}

pub(super) fn ids(tasks: &[TaskRecord]) -> Vec<&str> {
    tasks.iter().map(|task| task.id.as_str()).collect()
}

/// The next item of a watch stream, failing if it takes longer than [`WAIT`].
pub(super) async fn next_change(changes: &mut TaskChanges, rule: &str) -> Option<TaskRecord> {
    tokio::time::timeout(WAIT, changes.next())
        .await
        .unwrap_or_else(|_| broken(rule, format_args!("nothing came within {WAIT:?}")))
}
