//! Tasks from the client's side, in both eras: starting a call as a task, reading its
//! status, waiting for it, cancelling it, listing the client's tasks and answering what a
//! task asks.
//!
//! - **2025-11-25**: the call carries `params.task` and is answered with `{task}`;
//!   `tasks/get`, `tasks/result` (blocks until the task ends), `tasks/list`, `tasks/cancel`.
//!   What a running task asks (elicitation, ...) comes as an ordinary server request, which
//!   the client's handlers answer.
//! - **2026-07-28**: the client declares the `io.modelcontextprotocol/tasks` extension in the
//!   request's `clientCapabilities`, and the call is answered with `resultType: "task"`;
//!   `tasks/get` carries the result, the error or the input requests inline, `tasks/update`
//!   the answers to those, `tasks/cancel` stops the task. There is no `tasks/result` or
//!   `tasks/list`: waiting is polling `tasks/get` at the server's poll interval.

use std::collections::HashSet;
use std::time::Duration;

use serde_json::{Map, Value, json};

use super::core::{ClientCore, Requester, malformed};
use super::{ResponseError, ToolResult};
use crate::protocol::meta;
use crate::task::TaskStatus;

/// The 2026-07-28 extension's identifier, declared in `capabilities.extensions`.
pub(crate) const TASKS_EXTENSION: &str = "io.modelcontextprotocol/tasks";

/// How often to poll a task whose server gives no poll interval.
const DEFAULT_POLL_INTERVAL: Duration = Duration::from_millis(500);
/// The shortest poll interval honoured, so that a server saying `0` is not flooded.
const MIN_POLL_INTERVAL: Duration = Duration::from_millis(5);

/// A task as the server describes it: the answer to a call started as a task, to
/// `tasks/get`, `tasks/cancel` (2025-11-25), each entry of `tasks/list`, and a 2025-11-25
/// `notifications/tasks/status`.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct TaskInfo {
    /// The task's id, for every later request about it.
    pub task_id: String,
    /// `working`, `input_required`, `completed`, `failed` or `cancelled`.
    pub status: TaskStatus,
    /// The server's word on the status (why it failed, what it waits for), if any.
    pub status_message: Option<String>,
    /// When it was created (ISO 8601), as sent.
    pub created_at: Option<String>,
    /// When it last changed (ISO 8601), as sent.
    pub last_updated_at: Option<String>,
    /// How long the server keeps it after it was created (`ttl`, or 2026-07-28 `ttlMs`);
    /// `None` when the server keeps it without limit (or does not say).
    pub ttl: Option<Duration>,
    /// How often the server asks to be polled (`pollInterval`, or `pollIntervalMs`).
    pub poll_interval: Option<Duration>,
    /// 2026-07-28, `input_required`: what the task asks, by key (`{method, params}`), to
    /// answer with `tasks/update`. Empty otherwise.
    pub input_requests: Map<String, Value>,
    /// 2026-07-28, `completed`: the call's result, inline. (2025-11-25 gives it with
    /// `tasks/result`.)
    pub result: Option<ToolResult>,
    /// 2026-07-28, `failed`: the call's error, inline.
    pub error: Option<ResponseError>,
    /// The whole object as sent.
    pub raw: Value,
}

impl TaskInfo {
    /// Whether the task has ended (`completed`, `failed` or `cancelled`): its status never
    /// changes again.
    pub fn is_terminal(&self) -> bool {
        self.status.is_terminal()
    }

    /// Reads a task in either era's shape (`ttl`/`pollInterval` or `ttlMs`/`pollIntervalMs`).
    pub(crate) fn from_json(task: &Value) -> Result<TaskInfo, ResponseError> {
        let Some(task_id) = task.get("taskId").and_then(Value::as_str) else {
            return Err(not_a_task_object(task));
        };
        let status: TaskStatus =
            serde_json::from_value(task["status"].clone()).map_err(|error| malformed(&error))?;
        let text = |key: &str| task.get(key).and_then(Value::as_str).map(str::to_owned);
        let millis = |keys: [&str; 2]| {
            keys.iter()
                .find_map(|key| task.get(*key).and_then(Value::as_u64))
                .map(Duration::from_millis)
        };
        let result = match task.get("result") {
            Some(result) if result.is_object() => {
                Some(serde_json::from_value(result.clone()).map_err(|error| malformed(&error))?)
            }
            _ => None,
        };
        Ok(TaskInfo {
            task_id: task_id.to_owned(),
            status,
            status_message: text("statusMessage"),
            created_at: text("createdAt"),
            last_updated_at: text("lastUpdatedAt"),
            ttl: millis(["ttl", "ttlMs"]),
            poll_interval: millis(["pollInterval", "pollIntervalMs"]),
            input_requests: task
                .get("inputRequests")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default(),
            result,
            error: task
                .get("error")
                .filter(|error| error.is_object())
                .map(ResponseError::from_response),
            raw: task.clone(),
        })
    }

    /// How long to wait before polling again.
    fn next_poll(&self) -> Duration {
        self.poll_interval
            .unwrap_or(DEFAULT_POLL_INTERVAL)
            .max(MIN_POLL_INTERVAL)
    }
}

fn not_a_task_object(value: &Value) -> ResponseError {
    let mut error = ResponseError::new(
        ResponseError::CONNECTION_CLOSED,
        "the server's answer is malformed: a task without a `taskId`",
    );
    error.data = Some(value.clone());
    error
}

/// A call answered with its result, where a task was asked for.
fn not_a_task(name: &str, result: Value) -> ResponseError {
    let mut error = ResponseError::new(
        ResponseError::NOT_A_TASK,
        format!(
            "`{name}` did not run as a task: the server answered with its result (the tool, or \
             the server, does not run it as a task)"
        ),
    );
    error.data = Some(result);
    error
}

/// The error `task_result` gives for a cancelled task, in both eras.
fn cancelled(id: &str) -> ResponseError {
    ResponseError::new(
        ResponseError::INVALID_PARAMS,
        format!("task `{id}` was cancelled; it has no result"),
    )
}

impl Requester {
    /// Whether this client speaks the stateless revision (2026-07-28).
    fn stateless(&self) -> bool {
        self.introduction.revision.is_stateless()
    }

    /// Under 2026-07-28, declares the tasks extension in this request's client capabilities
    /// (besides the capabilities the client declared). Nothing for a handshake revision,
    /// whose capabilities were declared once.
    fn declaring_tasks(&self, mut params: Value) -> Value {
        if !self.stateless() {
            return params;
        }
        let mut capabilities = self.introduction.capabilities.clone();
        if !capabilities.is_object() {
            capabilities = json!({});
        }
        if !capabilities["extensions"].is_object() {
            capabilities["extensions"] = json!({});
        }
        capabilities["extensions"][TASKS_EXTENSION] = json!({});
        if !params.is_object() {
            params = json!({});
        }
        if !params["_meta"].is_object() {
            params["_meta"] = json!({});
        }
        params["_meta"][meta::CLIENT_CAPABILITIES] = capabilities;
        params
    }

    /// A `tasks/*` request, the extension declared under 2026-07-28.
    async fn task_request(&self, method: &str, params: Value) -> Result<Value, ResponseError> {
        let params = self.declaring_tasks(params);
        self.start(method, params).1.await
    }

    /// `tasks/get`.
    async fn get_task(&self, id: &str) -> Result<TaskInfo, ResponseError> {
        let task = self
            .task_request("tasks/get", json!({ "taskId": id }))
            .await?;
        TaskInfo::from_json(&task)
    }

    /// Waits until the task ends, and gives it as it ended.
    ///
    /// 2025-11-25: `tasks/result` blocks until then, and is where a server may send what the
    /// task asks the client (the official SDKs' design; the handlers answer it); how the
    /// task ended is then read with `tasks/get`. 2026-07-28: polls `tasks/get` at the
    /// server's poll interval, answering what the task asks with this client's handlers
    /// (`tasks/update`), each request once; one no handler answers is an error, the task
    /// left waiting.
    async fn wait_for_task(&self, id: &str) -> Result<TaskInfo, ResponseError> {
        if !self.stateless() {
            // Its answer is the call's outcome, which is not what is asked for here.
            let _ = self
                .task_request("tasks/result", json!({ "taskId": id }))
                .await;
            return self.get_task(id).await;
        }
        let mut answered = HashSet::new();
        loop {
            let task = self.get_task(id).await?;
            if task.is_terminal() {
                return Ok(task);
            }
            if task.status == TaskStatus::InputRequired {
                self.answer_asked(&task, &mut answered).await?;
            }
            tokio::time::sleep(task.next_poll()).await;
        }
    }

    /// Answers the input requests of a 2026-07-28 task not answered yet.
    async fn answer_asked(
        &self,
        task: &TaskInfo,
        answered: &mut HashSet<String>,
    ) -> Result<(), ResponseError> {
        let asked: Map<String, Value> = task
            .input_requests
            .iter()
            .filter(|(key, _)| !answered.contains(*key))
            .map(|(key, request)| (key.clone(), request.clone()))
            .collect();
        if asked.is_empty() {
            return Ok(());
        }
        let responses = self
            .fulfil(&json!({ "inputRequests": asked }))
            .await
            .map_err(|mut error| {
                error.message = format!(
                    "task `{}` is waiting for input: {} (answer it with `tasks/update`)",
                    task.task_id, error.message
                );
                error
            })?;
        self.task_request(
            "tasks/update",
            json!({ "taskId": task.task_id, "inputResponses": responses }),
        )
        .await?;
        answered.extend(asked.keys().cloned());
        Ok(())
    }

    /// The result of a task that has ended: 2025-11-25 asks `tasks/result`; 2026-07-28 has
    /// it inline.
    async fn finished_result(&self, task: &TaskInfo) -> Result<ToolResult, ResponseError> {
        let result = if self.stateless() {
            inline_outcome(task)?
        } else {
            self.task_request("tasks/result", json!({ "taskId": task.task_id }))
                .await?
        };
        serde_json::from_value(result).map_err(|error| malformed(&error))
    }

    /// Waits for the task to end and gives its result.
    async fn task_result(&self, id: &str) -> Result<ToolResult, ResponseError> {
        if self.stateless() {
            let task = self.wait_for_task(id).await?;
            return self.finished_result(&task).await;
        }
        // `tasks/result` blocks until the task has ended.
        let result = self
            .task_request("tasks/result", json!({ "taskId": id }))
            .await?;
        serde_json::from_value(result).map_err(|error| malformed(&error))
    }

    /// A `tools/call` answer that may be a 2026-07-28 task (the client declared the
    /// extension itself): the task's result once it has ended, else the answer as it is.
    pub(super) async fn settle_call(&self, answer: Value) -> Result<Value, ResponseError> {
        if !self.stateless() || answer.get("resultType").and_then(Value::as_str) != Some("task") {
            return Ok(answer);
        }
        let task = TaskInfo::from_json(&answer)?;
        let task = self.wait_for_task(&task.task_id).await?;
        inline_outcome(&task)
    }
}

/// A 2026-07-28 task's outcome, from `tasks/get`: its result, or its error.
fn inline_outcome(task: &TaskInfo) -> Result<Value, ResponseError> {
    match (task.raw.get("result"), &task.error) {
        (Some(result), _) if result.is_object() => Ok(result.clone()),
        (_, Some(error)) => Err(error.clone()),
        _ if task.status == TaskStatus::Cancelled => Err(cancelled(&task.task_id)),
        _ => {
            let mut error = ResponseError::new(
                ResponseError::CONNECTION_CLOSED,
                format!(
                    "the server's answer is malformed: task `{}` is {} without a result or an \
                     error",
                    task.task_id,
                    task.status.as_str()
                ),
            );
            error.data = Some(task.raw.clone());
            Err(error)
        }
    }
}

impl ClientCore {
    /// `tools/call` as a task: 2025-11-25 sends `params.task` (with the ttl asked for, in
    /// milliseconds); 2026-07-28 declares the extension (it has no ttl to ask). A call
    /// answered with its result instead is an error ([`ResponseError::NOT_A_TASK`], the
    /// result in its `data`).
    pub async fn start_task(
        &self,
        name: &str,
        arguments: Value,
        ttl: Option<Duration>,
        progress_token: Option<&Value>,
    ) -> Result<TaskInfo, ResponseError> {
        let mut params = json!({ "name": name, "arguments": arguments });
        if let Some(token) = progress_token {
            params["_meta"] = json!({ (meta::PROGRESS_TOKEN): token });
        }
        if !self.revision().is_stateless() {
            params["task"] = match ttl {
                Some(ttl) => json!({ "ttl": u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX) }),
                None => json!({}),
            };
        }
        let params = self.requester.declaring_tasks(params);
        // A tool that does not run as a task may still ask for input first (2026-07-28).
        let answer = self
            .requester
            .start_fulfilled("tools/call", params)
            .1
            .await?;
        if self.revision().is_stateless() {
            if answer.get("resultType").and_then(Value::as_str) == Some("task") {
                return TaskInfo::from_json(&answer);
            }
        } else if let Some(task) = answer.get("task") {
            return TaskInfo::from_json(task);
        }
        Err(not_a_task(name, answer))
    }

    /// `tasks/get`.
    pub async fn get_task(&self, id: &str) -> Result<TaskInfo, ResponseError> {
        self.requester.get_task(id).await
    }

    /// Polls the task until it ends (see [`Requester::wait_for_task`]).
    pub async fn wait_for_task(&self, id: &str) -> Result<TaskInfo, ResponseError> {
        self.requester.wait_for_task(id).await
    }

    /// Waits for the task to end and gives its result (or its error).
    pub async fn task_result(&self, id: &str) -> Result<ToolResult, ResponseError> {
        self.requester.task_result(id).await
    }

    /// The result of a task known to have ended (as [`wait_for_task`](Self::wait_for_task)
    /// or a poll of its own found it).
    #[cfg_attr(not(feature = "cli"), allow(dead_code))]
    pub async fn finished_result(&self, task: &TaskInfo) -> Result<ToolResult, ResponseError> {
        self.requester.finished_result(task).await
    }

    /// `tasks/cancel`: the task as the cancel left it (2026-07-28 answers `{}`: a
    /// `tasks/get` after it says how it stands).
    pub async fn cancel_task(&self, id: &str) -> Result<TaskInfo, ResponseError> {
        let answer = self
            .requester
            .task_request("tasks/cancel", json!({ "taskId": id }))
            .await?;
        if answer.get("taskId").is_some() {
            TaskInfo::from_json(&answer)
        } else {
            self.get_task(id).await
        }
    }

    /// `tasks/list` (2025-11-25), every page.
    pub async fn list_tasks(&self) -> Result<Vec<TaskInfo>, ResponseError> {
        let listing = self.list_all("tasks/list", "tasks").await?;
        listing["tasks"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default()
            .iter()
            .map(TaskInfo::from_json)
            .collect()
    }

    /// `tasks/update` (2026-07-28): the answers to a task's input requests, an object by
    /// key (sent as given).
    pub async fn answer_task_input(&self, id: &str, responses: Value) -> Result<(), ResponseError> {
        self.requester
            .task_request(
                "tasks/update",
                json!({ "taskId": id, "inputResponses": responses }),
            )
            .await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::super::core::tests::pair;
    use super::super::handler;
    use super::*;
    use crate::protocol::version::ProtocolVersion;

    #[test]
    fn reads_a_task_in_either_shape() {
        let legacy = TaskInfo::from_json(&json!({
            "taskId": "t1", "status": "input_required", "statusMessage": "Waiting.",
            "createdAt": "2026-01-01T00:00:00.000Z", "lastUpdatedAt": "2026-01-01T00:00:01.000Z",
            "ttl": 60000, "pollInterval": 100,
        }))
        .unwrap();
        assert_eq!(legacy.status, TaskStatus::InputRequired);
        assert_eq!(legacy.status_message.as_deref(), Some("Waiting."));
        assert_eq!(legacy.ttl, Some(Duration::from_secs(60)));
        assert_eq!(legacy.poll_interval, Some(Duration::from_millis(100)));
        assert!(!legacy.is_terminal());

        let modern = TaskInfo::from_json(&json!({
            "taskId": "t2", "status": "failed", "ttlMs": null, "pollIntervalMs": 0,
            "error": { "code": -32603, "message": "boom" },
        }))
        .unwrap();
        assert_eq!(modern.ttl, None);
        assert_eq!(modern.next_poll(), MIN_POLL_INTERVAL);
        assert_eq!(modern.error, Some(ResponseError::new(-32603, "boom")));
        assert!(modern.is_terminal());

        assert!(TaskInfo::from_json(&json!({ "status": "working" })).is_err());
        assert!(TaskInfo::from_json(&json!({ "taskId": "t", "status": "paused" })).is_err());
    }

    #[tokio::test]
    async fn a_stateless_task_is_started_declared_polled_and_answered() {
        let elicit = handler(|params: Value| async move {
            assert_eq!(params["message"], "Sure?");
            Ok(json!({ "action": "accept", "content": { "confirm": true } }))
        });
        let (client, mut server) = pair(
            ProtocolVersion::V2026_07_28,
            HashMap::from([("elicitation/create".to_owned(), elicit)]),
        );
        let client = std::sync::Arc::new(client);
        let starter = client.clone();
        let starting =
            tokio::spawn(async move { starter.start_task("deploy", json!({}), None, None).await });
        let call = server.receive().await;
        assert_eq!(call["method"], "tools/call");
        assert!(call["params"].get("task").is_none(), "{call}");
        assert_eq!(
            call["params"]["_meta"][meta::CLIENT_CAPABILITIES],
            json!({ "roots": {}, "extensions": { TASKS_EXTENSION: {} } })
        );
        server
            .send(json!({"jsonrpc": "2.0", "id": call["id"], "result": {
                "resultType": "task", "taskId": "t1", "status": "working",
                "ttlMs": 1000, "pollIntervalMs": 5}}))
            .await;
        let task = starting.await.unwrap().unwrap();
        assert_eq!(
            (task.task_id.as_str(), task.status),
            ("t1", TaskStatus::Working)
        );

        let waiter = client.clone();
        let waiting = tokio::spawn(async move { waiter.task_result("t1").await });
        let get = server.receive().await;
        assert_eq!(get["method"], "tasks/get");
        server
            .send(json!({"jsonrpc": "2.0", "id": get["id"], "result": {
                "taskId": "t1", "status": "input_required", "pollIntervalMs": 5,
                "inputRequests": {"input-0": {"method": "elicitation/create",
                    "params": {"message": "Sure?"}}}}}))
            .await;
        let update = server.receive().await;
        assert_eq!(update["method"], "tasks/update");
        assert_eq!(
            update["params"]["inputResponses"],
            json!({"input-0": {"action": "accept", "content": {"confirm": true}}})
        );
        server
            .send(json!({"jsonrpc": "2.0", "id": update["id"], "result": {}}))
            .await;
        let get = server.receive().await;
        server
            .send(json!({"jsonrpc": "2.0", "id": get["id"], "result": {
                "taskId": "t1", "status": "completed",
                "result": {"content": [{"type": "text", "text": "done"}]}}}))
            .await;
        assert_eq!(waiting.await.unwrap().unwrap().text(), "done");
    }

    #[tokio::test]
    async fn a_handshake_task_is_awaited_on_tasks_result_and_asked_with_params_task() {
        let (client, mut server) = pair(ProtocolVersion::V2025_11_25, HashMap::new());
        let client = std::sync::Arc::new(client);
        // Waiting is `tasks/result` (whatever it answers), then `tasks/get`.
        let waiter = client.clone();
        let waiting = tokio::spawn(async move { waiter.wait_for_task("t1").await });
        let result = server.receive().await;
        assert_eq!(result["method"], "tasks/result");
        assert_eq!(result["params"], json!({ "taskId": "t1" }));
        server
            .send(json!({"jsonrpc": "2.0", "id": result["id"],
                "error": {"code": -32602, "message": "cancelled"}}))
            .await;
        let get = server.receive().await;
        assert_eq!(get["method"], "tasks/get");
        server
            .send(json!({"jsonrpc": "2.0", "id": get["id"], "result": {
                "taskId": "t1", "status": "cancelled", "ttl": null}}))
            .await;
        assert_eq!(
            waiting.await.unwrap().unwrap().status,
            TaskStatus::Cancelled
        );

        let starting = tokio::spawn(async move {
            let ttl = Some(Duration::from_secs(2));
            client.start_task("report", json!({}), ttl, None).await
        });
        let call = server.receive().await;
        assert_eq!(call["params"]["task"], json!({ "ttl": 2000 }));
        assert!(call["params"].get("_meta").is_none(), "{call}");
        server
            .send(json!({"jsonrpc": "2.0", "id": call["id"], "result": {
                "content": [{"type": "text", "text": "at once"}]}}))
            .await;
        let error = starting.await.unwrap().unwrap_err();
        assert_eq!(error.code, ResponseError::NOT_A_TASK);
        assert_eq!(error.data.unwrap()["content"][0]["text"], "at once");
    }
}
