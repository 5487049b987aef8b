//! A running task asks its client for input (elicitation, sampling, roots) — while the tool
//! waits, the task is `input_required`.
//!
//! - **2025-11-25**: the request goes to the client as a JSON-RPC request tied to the task
//!   in `_meta`: on the response stream of a `tasks/result` waiting on the task if there is
//!   one (as the TypeScript SDK's server delivers them; its client calls `tasks/result` when
//!   it sees `input_required`), else where the task's other messages go — the connection, or
//!   an HTTP session's standalone stream (ext-tasks' client waits for them there).
//! - **2026-07-28**: the server sends no requests. The request is put on the task for the
//!   client to find with `tasks/get`; the answer comes with `tasks/update` — through the
//!   store, so it may reach any instance — and the tool, still waiting, takes it. Unlike a
//!   plain call's `input_required` round, the tool does not run again.
//!
//! While it works, the message of the tool's latest progress report is the task's status
//! message, in both eras.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::Duration;

use futures_util::StreamExt as _;
use futures_util::future::BoxFuture;
use serde_json::{Map, Value, json};
use tokio::runtime::Handle;
use tokio::time::Instant;

use super::engine::Tasks;
use super::store::{TaskUpdate, Updated};
use crate::context::TaskLink;
use crate::context::client_requests::{ClientRequestError, PendingClientRequests};
use crate::protocol::outbox::Outbox;

/// The shortest time between two progress messages stored as the task's status message;
/// those in between are merged into the latest. A store may be a network away.
const PROGRESS_MESSAGE_INTERVAL: Duration = Duration::from_secs(1);

/// The link a task's `Context` asks the client through.
pub(crate) struct TaskClient {
    /// Itself, for the timer that stores a progress message held back.
    me: Weak<TaskClient>,
    task_id: String,
    tasks: Arc<Tasks>,
    /// 2025-11-25: the connection's table of requests waiting for answers. `None` under
    /// 2026-07-28, where requests wait on the task.
    connection: Option<Arc<PendingClientRequests>>,
    /// How long the tool waits for an answer.
    timeout: Duration,
    /// Requests made so far, for their keys.
    asked: AtomicUsize,
    /// Requests waiting for answers now: the task is `input_required` while any is.
    outstanding: AtomicUsize,
    /// Where the timer of a held-back progress message runs (a plain `fn` tool reports
    /// from a thread outside the runtime); `None` if the task was made outside one.
    runtime: Option<Handle>,
    progress: Mutex<ProgressMessage>,
    /// Held while this task's status is changed, so that a progress message stored late
    /// cannot overwrite the `input_required` of a request made after it.
    updating: tokio::sync::Mutex<()>,
}

/// The tool's progress messages, as the task's status message.
#[derive(Default)]
struct ProgressMessage {
    /// The latest reported.
    latest: Option<String>,
    /// When one was last stored.
    stored_at: Option<Instant>,
    /// Whether a timer will store the latest.
    scheduled: bool,
}

impl TaskClient {
    pub fn new(
        task_id: String,
        tasks: Arc<Tasks>,
        connection: Option<Arc<PendingClientRequests>>,
        timeout: Duration,
    ) -> Arc<Self> {
        Arc::new_cyclic(|me| TaskClient {
            me: me.clone(),
            task_id,
            tasks,
            connection,
            timeout,
            asked: AtomicUsize::new(0),
            outstanding: AtomicUsize::new(0),
            runtime: Handle::try_current().ok(),
            progress: Mutex::default(),
            updating: tokio::sync::Mutex::new(()),
        })
    }

    /// 2026-07-28: puts the request on the task and waits for `tasks/update` to bring the
    /// answer to `key`.
    async fn wait_on_task(
        &self,
        key: String,
        request: Value,
        message: Option<String>,
    ) -> Result<Value, ClientRequestError> {
        let store = self.tasks.store();
        // Watching first, so an answer that comes at once is not missed.
        let mut changes = match store.watch(&self.task_id).await {
            Ok(Some(changes)) => changes,
            Ok(None) | Err(_) => return Err(ClientRequestError::Disconnected),
        };
        let mut requests = Map::new();
        requests.insert(key.clone(), request);
        self.waiting(requests, message).await;
        let answer = tokio::time::timeout(self.timeout, async {
            while let Some(record) = changes.next().await {
                if let Some(answer) = record.input_responses.get(&key) {
                    return Ok(answer.clone());
                }
                if record.status.is_terminal() {
                    return Err(ClientRequestError::Disconnected);
                }
            }
            Err(ClientRequestError::Disconnected)
        })
        .await
        .unwrap_or(Err(ClientRequestError::TimedOut(self.timeout)));
        self.answered(vec![key]).await;
        answer
    }

    /// One more request waits: the task is `input_required`, listing it (2026-07-28).
    async fn waiting(&self, requests: Map<String, Value>, message: Option<String>) {
        self.outstanding.fetch_add(1, Ordering::SeqCst);
        let _updating = self.updating.lock().await;
        let update = TaskUpdate::InputRequired { requests, message };
        self.apply(update).await;
    }

    /// A request was answered (or given up): its key is taken off the task, which is
    /// `working` again once nothing else waits, with the latest progress message.
    async fn answered(&self, keys: Vec<String>) {
        let _updating = self.updating.lock().await;
        if !keys.is_empty() {
            self.apply(TaskUpdate::InputTaken(keys)).await;
        }
        if self.outstanding.fetch_sub(1, Ordering::SeqCst) == 1 {
            let message = self.lock_progress().latest.clone();
            self.apply(TaskUpdate::Working { message }).await;
        }
    }

    /// Stores the latest progress message, unless the task waits for input (it is stored
    /// once the input came).
    async fn store_progress(&self) {
        let _updating = self.updating.lock().await;
        let message = {
            let mut progress = self.lock_progress();
            progress.scheduled = false;
            progress.stored_at = Some(Instant::now());
            progress.latest.clone()
        };
        if self.outstanding.load(Ordering::SeqCst) == 0 {
            // Refused, and so harmless, once the task has finished.
            self.apply(TaskUpdate::Working { message }).await;
        }
    }

    fn lock_progress(&self) -> std::sync::MutexGuard<'_, ProgressMessage> {
        self.progress.lock().unwrap_or_else(PoisonError::into_inner)
    }

    async fn apply(&self, update: TaskUpdate) {
        match self.tasks.store().update(&self.task_id, update).await {
            Ok(Updated::Applied(_) | Updated::Refused(_) | Updated::Unknown) => {}
            Err(error) => {
                tracing::error!(task = %self.task_id, %error, "cannot record a task's input state");
            }
        }
    }
}

/// The status message of a task waiting for the client.
fn waiting_for(method: &str) -> String {
    let what = match method {
        "elicitation/create" => "the user's input (elicitation)",
        "sampling/createMessage" => "a model's response (sampling)",
        "roots/list" => "the client's roots",
        other => other,
    };
    format!("Waiting for {what}.")
}

impl TaskLink for TaskClient {
    fn task_id(&self) -> &str {
        &self.task_id
    }

    fn progressed(&self, message: &str) {
        let mut progress = self.lock_progress();
        if progress.latest.as_deref() == Some(message) {
            return;
        }
        progress.latest = Some(message.to_owned());
        if progress.scheduled {
            return;
        }
        let (Some(runtime), Some(me)) = (&self.runtime, self.me.upgrade()) else {
            return;
        };
        progress.scheduled = true;
        let due = progress
            .stored_at
            .map_or_else(Instant::now, |stored| stored + PROGRESS_MESSAGE_INTERVAL);
        runtime.spawn(async move {
            tokio::time::sleep_until(due).await;
            me.store_progress().await;
        });
    }

    fn ask<'a>(
        &'a self,
        outbox: &'a Outbox,
        key: Option<&'a str>,
        method: &'a str,
        mut params: Value,
    ) -> BoxFuture<'a, Result<Value, ClientRequestError>> {
        Box::pin(async move {
            let key = match key {
                Some(key) => key.to_owned(),
                None => format!("input-{}", self.asked.fetch_add(1, Ordering::Relaxed)),
            };
            let message = Some(waiting_for(method));
            match &self.connection {
                Some(connection) => {
                    if let Value::Object(members) = &mut params {
                        let meta = members.entry("_meta").or_insert_with(|| json!({}));
                        if let Value::Object(meta) = meta {
                            meta.insert(
                                super::wire::RELATED_TASK.into(),
                                json!({ "taskId": self.task_id }),
                            );
                        }
                    }
                    self.waiting(Map::new(), message).await;
                    let stream = self.tasks.result_stream_now(&self.task_id);
                    let answer = connection
                        .request(stream.as_ref().unwrap_or(outbox), method, params)
                        .await;
                    self.answered(Vec::new()).await;
                    answer
                }
                None => {
                    let request = json!({ "method": method, "params": params });
                    self.wait_on_task(key, request, message).await
                }
            }
        })
    }
}
