//! 2026-07-28 task status notifications for a `subscriptions/listen` stream (the
//! `io.modelcontextprotocol/tasks` extension): the tasks of those a listen request names
//! that its caller may see, watched through the store (so a task running on another
//! instance of a fleet is heard of too), each change given as `tasks/get` would give it.

use futures_util::StreamExt as _;
use futures_util::stream::{self, SelectAll};
use serde_json::{Map, Value};

use super::engine::Tasks;
use super::store::{TaskChanges, TaskOwner, TaskStatus};
use super::wire;
use crate::protocol::jsonrpc::RpcError;

/// The watched tasks of one listen stream; dropping it (the listen request ended) ends
/// every watch.
pub(crate) struct TaskWatches {
    changes: SelectAll<TaskChanges>,
}

impl TaskWatches {
    /// Watches each task of `ids` that `owner` may see, by `tasks/get`'s rule: another
    /// owner's task is left out as an unknown one is. Gives the ids agreed to, in the order
    /// asked; `Err` only when the store fails.
    pub async fn agree(
        tasks: &Tasks,
        owner: &TaskOwner,
        ids: &[String],
    ) -> Result<(Vec<String>, TaskWatches), RpcError> {
        let watched = futures_util::future::try_join_all(ids.iter().map(|id| async move {
            let changes = tasks.watch_owned(owner, id).await?;
            Ok::<_, RpcError>(changes.map(|changes| (id.clone(), changes)))
        }))
        .await?;
        let mut agreed = Vec::new();
        let mut changes = SelectAll::new();
        for (id, watch) in watched.into_iter().flatten() {
            agreed.push(id);
            changes.push(notable(watch));
        }
        Ok((agreed, TaskWatches { changes }))
    }

    /// Watches nothing.
    pub fn none() -> TaskWatches {
        TaskWatches {
            changes: SelectAll::new(),
        }
    }

    /// The params of the next `notifications/tasks`: a watched task as `tasks/get` gives it,
    /// first as it is when watched, then after each change of its status. Never ready once
    /// no task is watched.
    pub async fn next(&mut self) -> Map<String, Value> {
        match self.changes.next().await {
            Some(record) => wire::detailed_task(&record),
            None => std::future::pending().await,
        }
    }
}

/// A task's changes that are worth a notification: its state now, then each change of its
/// status (or of what it asks, while `input_required`), ending after a terminal one, as
/// nothing changes after it.
fn notable(changes: TaskChanges) -> TaskChanges {
    type Seen = (TaskStatus, Map<String, Value>);
    let start: Option<(TaskChanges, Option<Seen>)> = Some((changes, None));
    Box::pin(stream::unfold(start, |state| async move {
        let (mut changes, last) = state?;
        loop {
            let record = changes.next().await?;
            let seen = (record.status, record.input_requests.clone());
            if last.as_ref() == Some(&seen) {
                continue;
            }
            let rest = (!record.status.is_terminal()).then_some((changes, Some(seen)));
            return Some((record, rest));
        }
    }))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use serde_json::json;

    use super::*;
    use crate::protocol::version::ProtocolVersion;
    use crate::task::engine::TaskConfig;
    use crate::task::memory::InMemoryTaskStore;
    use crate::task::store::{TaskOutcome, TaskStore as _, TaskUpdate};

    async fn next_status(watches: &mut TaskWatches) -> Value {
        let task = tokio::time::timeout(Duration::from_secs(5), watches.next())
            .await
            .expect("a notification");
        task["status"].clone()
    }

    #[tokio::test]
    async fn only_the_owners_tasks_are_watched_and_only_changes_of_status_are_told() {
        let store = Arc::new(InMemoryTaskStore::new());
        let tasks = Tasks::new(store.clone(), TaskConfig::default().settings(1 << 20));
        let ada = TaskOwner("ada".to_owned());
        let bob = TaskOwner("bob".to_owned());
        let mine = tasks.new_record(ada.clone(), ProtocolVersion::V2026_07_28, "t", None);
        let theirs = tasks.new_record(bob, ProtocolVersion::V2026_07_28, "t", None);
        tasks.create(&mine).await.expect("stored");
        tasks.create(&theirs).await.expect("stored");
        let asked = [theirs.id.clone(), "unknown".to_owned(), mine.id.clone()];
        let (agreed, mut watches) = TaskWatches::agree(&tasks, &ada, &asked)
            .await
            .expect("the store answers");
        assert_eq!(agreed, [mine.id.as_str()]);
        assert_eq!(next_status(&mut watches).await, "working");

        // A new status message, or answers taken, change no status: nothing is told.
        let update = |update: TaskUpdate| {
            let store = Arc::clone(&store);
            let id = mine.id.clone();
            async move { store.update(&id, update).await.expect("updated") }
        };
        update(TaskUpdate::Working {
            message: Some("halfway".to_owned()),
        })
        .await;
        update(TaskUpdate::InputTaken(vec!["none".to_owned()])).await;
        let mut requests = Map::new();
        requests.insert(
            "confirm".to_owned(),
            json!({ "method": "elicitation/create" }),
        );
        update(TaskUpdate::InputRequired {
            requests,
            message: None,
        })
        .await;
        let waiting = tokio::time::timeout(Duration::from_secs(5), watches.next())
            .await
            .expect("a notification");
        assert_eq!(waiting["status"], "input_required");
        assert!(
            waiting["inputRequests"]["confirm"].is_object(),
            "{waiting:?}"
        );
        update(TaskUpdate::Finished {
            outcome: TaskOutcome::Result(json!({ "content": [] })),
            status: TaskStatus::Completed,
            message: None,
        })
        .await;
        let done = tokio::time::timeout(Duration::from_secs(5), watches.next())
            .await
            .expect("a notification");
        assert_eq!(
            done,
            wire::detailed_task(&store.get(&mine.id).await.unwrap().unwrap())
        );
        // Nothing after the terminal one: the watch has ended.
        let after = tokio::time::timeout(Duration::from_millis(100), watches.next()).await;
        assert!(after.is_err(), "{after:?}");
        assert!(watches.changes.is_empty());
    }
}
