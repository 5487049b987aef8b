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

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use futures_util::StreamExt as _;
use futures_util::future::BoxFuture;
use serde_json::{Map, Value, json};

use super::engine::Tasks;
use super::store::{TaskUpdate, Updated};
use crate::context::TaskLink;
use crate::context::client_requests::{ClientRequestError, PendingClientRequests};
use crate::protocol::outbox::Outbox;

/// The link a task's `Context` asks the client through.
pub(crate) struct TaskClient {
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
}

impl TaskClient {
    pub fn new(
        task_id: String,
        tasks: Arc<Tasks>,
        connection: Option<Arc<PendingClientRequests>>,
        timeout: Duration,
    ) -> Self {
        TaskClient {
            task_id,
            tasks,
            connection,
            timeout,
            asked: AtomicUsize::new(0),
            outstanding: AtomicUsize::new(0),
        }
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
        let update = TaskUpdate::InputRequired { requests, message };
        self.apply(update).await;
    }

    /// A request was answered (or given up): its key is taken off the task, which is
    /// `working` again once nothing else waits.
    async fn answered(&self, keys: Vec<String>) {
        if !keys.is_empty() {
            self.apply(TaskUpdate::InputTaken(keys)).await;
        }
        if self.outstanding.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.apply(TaskUpdate::Working { message: None }).await;
        }
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
