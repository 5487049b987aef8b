//! [`TestClient`]'s task methods: a call started as a task, polled, waited for, cancelled,
//! listed, and answered when it asks — in both eras.

use std::time::Duration;

use serde_json::Value;

use super::{ResponseError, TaskInfo, TestClient, ToolResult};

/// Tasks: a tool call that outlives its request (`#[mcp_tool(task = "optional")]` or
/// `"required"`).
///
/// Under 2025-11-25 a call is started as a task with `params.task` (the server must offer
/// tasks, which it does once any tool may run as one), and what the task asks the client
/// (elicitation, sampling, roots) reaches the client's [`on_request`](TestClient::on_request)
/// handlers as any other server request, tied to the task in `_meta` (a server may send it
/// only while a `tasks/result` waits, as [`task_result`](TestClient::task_result) and
/// [`wait_for_task`](TestClient::wait_for_task) do); its status
/// notifications (`notifications/tasks/status`) arrive in the queue
/// [`next_notification`](TestClient::next_notification) reads. Under 2026-07-28 the
/// task methods declare the `io.modelcontextprotocol/tasks` extension in their requests'
/// client capabilities; what a task asks is listed by [`get_task`](TestClient::get_task)
/// and answered with [`answer_task_input`](TestClient::answer_task_input), or by the same
/// handlers while [`wait_for_task`](TestClient::wait_for_task) or
/// [`task_result`](TestClient::task_result) waits.
impl TestClient {
    /// Calls a tool as a task and returns the task as the server created it (`working`,
    /// with its id, ttl and poll interval). 2025-11-25 sends `params.task: {}`; 2026-07-28
    /// declares the extension and expects `resultType: "task"`.
    ///
    /// `Err` is the server's refusal (a tool that forbids tasks under 2025-11-25: -32601;
    /// too many tasks: -32600), or [`ResponseError::NOT_A_TASK`] when the call was answered
    /// with its result instead (the tool or the revision runs it as a plain call; the
    /// result is in `data`).
    ///
    /// ```
    /// use std::time::Duration;
    ///
    /// use mcp_runtime::testing::{TaskStatus, TestClient};
    /// use mcp_runtime::{ProtocolVersion, Server, mcp_tool};
    /// use serde_json::json;
    ///
    /// /// Build the report, slowly.
    /// #[mcp_tool(task = "optional")]
    /// async fn report(quarter: String) -> String {
    ///     tokio::time::sleep(Duration::from_millis(50)).await;
    ///     format!("{quarter}: all good")
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// for revision in [ProtocolVersion::V2025_11_25, ProtocolVersion::V2026_07_28] {
    ///     let server = Server::new("reports", "1.0.0")
    ///         .task_poll_interval(Duration::from_millis(10));
    ///     let client = TestClient::builder()
    ///         .revision(revision)
    ///         .connect(server)
    ///         .await
    ///         .unwrap();
    ///     let task = client.start_task("report", json!({ "quarter": "Q3" })).await.unwrap();
    ///     assert_eq!(task.status, TaskStatus::Working);
    ///     let result = client.task_result(&task.task_id).await.unwrap();
    ///     assert_eq!(result.text(), "Q3: all good");
    ///     let done = client.get_task(&task.task_id).await.unwrap();
    ///     assert_eq!(done.status, TaskStatus::Completed);
    /// }
    /// # }
    /// ```
    pub async fn start_task(
        &self,
        name: &str,
        arguments: Value,
    ) -> Result<TaskInfo, ResponseError> {
        self.core.start_task(name, arguments, None, None).await
    }

    /// [`start_task`](Self::start_task) asking the server to keep the task for `ttl` after
    /// it was created (2025-11-25 `params.task.ttl`; the server may cap it). 2026-07-28 has
    /// no way to ask: the server picks, and nothing is sent.
    pub async fn start_task_with_ttl(
        &self,
        name: &str,
        arguments: Value,
        ttl: Duration,
    ) -> Result<TaskInfo, ResponseError> {
        self.core.start_task(name, arguments, Some(ttl), None).await
    }

    /// The task as it stands now (`tasks/get`). Under 2026-07-28 it carries by status the
    /// input requests, the result or the error.
    pub async fn get_task(&self, task_id: &str) -> Result<TaskInfo, ResponseError> {
        self.core.get_task(task_id).await
    }

    /// Waits until the task has ended (`completed`, `failed` or `cancelled`), and returns it
    /// as it ended. It waits as long as the task runs: wrap it in `tokio::time::timeout` if
    /// it may not end.
    ///
    /// 2025-11-25 waits on `tasks/result` (where a server may send what the task asks, for
    /// the [`on_request`](Self::on_request) handlers), then reads the task with `tasks/get`.
    /// 2026-07-28 polls `tasks/get` at the server's poll interval, and answers what the task
    /// asks with the same handlers (`tasks/update`), as [`call_tool`](Self::call_tool) does
    /// for `input_required` rounds; a request no handler answers is `Err`
    /// ([`ResponseError::METHOD_NOT_FOUND`]), the task left waiting.
    pub async fn wait_for_task(&self, task_id: &str) -> Result<TaskInfo, ResponseError> {
        self.core.wait_for_task(task_id).await
    }

    /// Waits for the task to end and gives its result, as [`call_tool`](Self::call_tool)
    /// would have: a tool that failed is `Ok` with `is_error` set; a call that ended in a
    /// JSON-RPC error is that `Err`; a cancelled task is `Err`
    /// ([`ResponseError::INVALID_PARAMS`]: it has no result). 2025-11-25 asks `tasks/result`
    /// (which blocks until the end); 2026-07-28 polls as
    /// [`wait_for_task`](Self::wait_for_task) does and takes the result inline.
    pub async fn task_result(&self, task_id: &str) -> Result<ToolResult, ResponseError> {
        self.core.task_result(task_id).await
    }

    /// Cancels the task (`tasks/cancel`) and returns it as the cancel left it
    /// (2026-07-28, whose `tasks/cancel` answers `{}`, reads it with a `tasks/get`). A task
    /// that has already ended cannot be cancelled: `Err` with
    /// [`ResponseError::INVALID_PARAMS`].
    pub async fn cancel_task(&self, task_id: &str) -> Result<TaskInfo, ResponseError> {
        self.core.cancel_task(task_id).await
    }

    /// This client's tasks (`tasks/list`), following `nextCursor` through all pages.
    /// 2025-11-25 only: a 2026-07-28 server has no `tasks/list` and answers
    /// [`ResponseError::METHOD_NOT_FOUND`].
    pub async fn list_tasks(&self) -> Result<Vec<TaskInfo>, ResponseError> {
        self.core.list_tasks().await
    }

    /// Answers what a 2026-07-28 task asks (`tasks/update`): `responses` is an object of
    /// answers by the keys of [`TaskInfo::input_requests`], e.g.
    /// `json!({ "input-0": { "action": "accept", "content": { "confirm": true } } })`.
    /// (2025-11-25 has no `tasks/update`: there the server's requests reach the
    /// [`on_request`](Self::on_request) handlers.)
    pub async fn answer_task_input(
        &self,
        task_id: &str,
        responses: Value,
    ) -> Result<(), ResponseError> {
        self.core.answer_task_input(task_id, responses).await
    }
}
