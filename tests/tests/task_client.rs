//! `TestClient`'s task methods against tools defined here, in both eras: 2025-11-25
//! (`params.task`, `tasks/result`, `tasks/list`, elicitation through `on_request`) and
//! 2026-07-28 (the extension declared per request, `tasks/get` polled, `tasks/update`).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_runtime::testing::{
    ResponseError, TASKS_EXTENSION, TaskInfo, TaskStatus, TestClient, ToolResult,
};
use mcp_runtime::{Context, ProtocolVersion, Server, ToolError, mcp_tool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::{Notify, mpsc};

const BOTH: [ProtocolVersion; 2] = [ProtocolVersion::V2025_11_25, ProtocolVersion::V2026_07_28];
const RELATED: &str = "io.modelcontextprotocol/related-task";
/// Longer than anything here should take.
const PATIENCE: Duration = Duration::from_secs(10);

/// Build the quarterly report.
#[mcp_tool(task = "optional")]
async fn report(quarter: String, #[mcp(default = 20)] ms: u64) -> String {
    tokio::time::sleep(Duration::from_millis(ms)).await;
    format!("{quarter}: revenue up")
}

/// Sleep for `ms` milliseconds; only ever as a task.
#[mcp_tool(task = "required")]
async fn build(ms: u64) -> String {
    tokio::time::sleep(Duration::from_millis(ms)).await;
    format!("built in {ms} ms")
}

/// What the user confirms.
#[derive(Deserialize, JsonSchema)]
struct Confirmation {
    /// Whether to go ahead.
    confirm: bool,
}

/// Ask the user to confirm.
#[mcp_tool(task = "optional")]
async fn confirm(action: String, ctx: Context) -> Result<String, ToolError> {
    let answer = ctx
        .elicit::<Confirmation>(format!("Go ahead with {action}?"))
        .await
        .map_err(|error| ToolError::new(format!("no answer: {error}")))?;
    Ok(match answer.accepted() {
        Some(Confirmation { confirm: true }) => format!("{action}: confirmed"),
        Some(Confirmation { confirm: false }) => format!("{action}: not confirmed"),
        None => format!("{action}: declined"),
    })
}

/// The tags of the `hold` calls whose futures were dropped: stopped by a cancel.
static STOPPED: Mutex<Vec<String>> = Mutex::new(Vec::new());

struct Stopped(String);

impl Drop for Stopped {
    fn drop(&mut self) {
        STOPPED.lock().unwrap().push(self.0.clone());
    }
}

/// Hold until cancelled.
#[mcp_tool(task = "optional")]
async fn hold(tag: String) -> String {
    let _stopped = Stopped(tag);
    std::future::pending::<()>().await;
    unreachable!("only a cancel ends it")
}

/// When the `stages` tool of each era may go on: released by its test, step by step.
static STAGES: [tokio::sync::Semaphore; 2] = [
    tokio::sync::Semaphore::const_new(0),
    tokio::sync::Semaphore::const_new(0),
];

async fn stage(era: usize) {
    STAGES[era].acquire().await.unwrap().forget();
}

/// Report fifty progress steps in a tight loop, wait; with `ask`, ask to confirm while
/// reporting progress, then wait again.
#[mcp_tool(task = "optional")]
async fn stages(era: usize, ask: bool, ctx: Context) -> Result<String, ToolError> {
    for step in 1..=50 {
        let message = format!("step {step} of 50");
        ctx.progress(f64::from(step), Some(50.0), Some(&message));
    }
    stage(era).await;
    if ask {
        let asking = ctx.elicit::<Confirmation>("Go on?");
        let reporting = async {
            tokio::time::sleep(Duration::from_millis(100)).await;
            ctx.progress(51.0, Some(52.0), Some("still here"));
        };
        let (answer, ()) = tokio::join!(asking, reporting);
        answer.map_err(|error| ToolError::new(error.to_string()))?;
        stage(era).await;
    }
    Ok("staged".to_owned())
}

/// Fail as a tool does.
#[mcp_tool(task = "optional")]
async fn fails() -> Result<String, ToolError> {
    Err(ToolError::new("the source is offline"))
}

/// Echo the text: never a task.
#[mcp_tool]
async fn echo(text: String) -> String {
    text
}

fn server() -> Server {
    Server::new("tasks", "1.0.0").task_poll_interval(Duration::from_millis(10))
}

async fn connect(revision: ProtocolVersion) -> TestClient {
    TestClient::builder()
        .revision(revision)
        .connect(server())
        .await
        .unwrap()
}

async fn patiently<T>(what: &str, future: impl Future<Output = T>) -> T {
    tokio::time::timeout(PATIENCE, future)
        .await
        .unwrap_or_else(|_| panic!("{what}: not done within {PATIENCE:?}"))
}

/// A 2026-07-28 client that declares elicitation but has no handler: the test answers by
/// hand.
async fn answering_by_hand() -> TestClient {
    TestClient::builder()
        .revision(ProtocolVersion::V2026_07_28)
        .capability("elicitation", json!({}))
        .connect(server())
        .await
        .unwrap()
}

/// Polls until the task is as `wanted` says.
async fn until_task(
    client: &TestClient,
    id: &str,
    what: &str,
    wanted: impl Fn(&TaskInfo) -> bool,
) -> TaskInfo {
    patiently(&format!("task {id} {what}"), async {
        loop {
            let task = client.get_task(id).await.unwrap();
            if wanted(&task) {
                return task;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
}

/// Polls until the task has `status`.
async fn until(client: &TestClient, id: &str, status: TaskStatus) -> TaskInfo {
    until_task(client, id, &format!("{status:?}"), |task| {
        task.status == status
    })
    .await
}

#[tokio::test]
async fn a_task_starts_is_polled_and_gives_its_result_in_both_eras() {
    for revision in BOTH {
        let client = connect(revision).await;
        let task = client
            .start_task("report", json!({ "quarter": "Q3", "ms": 100 }))
            .await
            .unwrap();
        assert_eq!(task.status, TaskStatus::Working, "{revision}: {task:?}");
        assert_eq!(task.task_id.len(), 32, "{revision}");
        assert_eq!(task.ttl, Some(Duration::from_secs(3600)), "{revision}");
        assert_eq!(task.poll_interval, Some(Duration::from_millis(10)));
        assert!(task.created_at.is_some() && task.last_updated_at.is_some());

        let now = client.get_task(&task.task_id).await.unwrap();
        assert_eq!(now.task_id, task.task_id);
        let ended = patiently("wait", client.wait_for_task(&task.task_id))
            .await
            .unwrap();
        assert_eq!(ended.status, TaskStatus::Completed, "{revision}");
        assert!(ended.is_terminal());
        // 2026-07-28 carries the result inline; 2025-11-25 gives it with `tasks/result`.
        assert_eq!(
            ended.result.as_ref().map(ToolResult::text),
            revision.is_stateless().then(|| "Q3: revenue up".to_owned()),
            "{revision}"
        );
        let result = client.task_result(&task.task_id).await.unwrap();
        assert_eq!(result.text(), "Q3: revenue up", "{revision}");
        assert!(!result.is_error);
    }
}

#[tokio::test]
async fn a_ttl_is_asked_for_only_in_2025_11_25() {
    for revision in BOTH {
        let client = connect(revision).await;
        let ttl = Duration::from_secs(5);
        let task = client
            .start_task_with_ttl("report", json!({ "quarter": "Q1" }), ttl)
            .await
            .unwrap();
        let expected = if revision.is_stateless() {
            Duration::from_secs(3600) // nothing asked: the server's
        } else {
            ttl
        };
        assert_eq!(task.ttl, Some(expected), "{revision}");
    }
}

#[tokio::test]
async fn a_cancelled_task_stops_and_has_no_result() {
    for revision in BOTH {
        let client = connect(revision).await;
        let tag = format!("hold-{revision}");
        let task = client
            .start_task("hold", json!({ "tag": tag }))
            .await
            .unwrap();
        until(&client, &task.task_id, TaskStatus::Working).await;
        let cancelled = client.cancel_task(&task.task_id).await.unwrap();
        assert_eq!(cancelled.status, TaskStatus::Cancelled, "{revision}");
        assert_eq!(
            cancelled.status_message.as_deref(),
            Some("Cancelled at the client's request.")
        );
        patiently("the tool stopped", async {
            while !STOPPED.lock().unwrap().contains(&tag) {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        })
        .await;
        let ended = client.wait_for_task(&task.task_id).await.unwrap();
        assert_eq!(ended.status, TaskStatus::Cancelled);
        let error = client.task_result(&task.task_id).await.unwrap_err();
        assert_eq!(error.code, ResponseError::INVALID_PARAMS, "{revision}");
        assert!(error.message.contains("cancelled"), "{revision}: {error}");
        // A task that has ended cannot be cancelled again: refused under 2025-11-25,
        // acknowledged under 2026-07-28 (where cancelling is only a request), unchanged.
        match client.cancel_task(&task.task_id).await {
            Err(again) => {
                assert_eq!(revision, ProtocolVersion::V2025_11_25, "{again}");
                assert_eq!(again.code, ResponseError::INVALID_PARAMS);
            }
            Ok(again) => {
                assert_eq!(revision, ProtocolVersion::V2026_07_28);
                assert_eq!(again.status, TaskStatus::Cancelled);
            }
        }
    }
}

#[tokio::test]
async fn tasks_are_listed_page_by_page_in_2025_11_25_only() {
    let client = TestClient::connect(server().page_size(2)).await.unwrap();
    let mut started = Vec::new();
    for quarter in ["Q1", "Q2", "Q3", "Q4", "Q5"] {
        let task = client
            .start_task("report", json!({ "quarter": quarter, "ms": 0 }))
            .await
            .unwrap();
        started.push(task.task_id);
    }
    let mut listed: Vec<String> = client
        .list_tasks()
        .await
        .unwrap()
        .into_iter()
        .map(|task| task.task_id)
        .collect();
    listed.sort();
    started.sort();
    assert_eq!(listed, started);
    // Two a page: the client followed `nextCursor`.
    let first = client.request("tasks/list", json!({})).await.unwrap();
    assert_eq!(first["tasks"].as_array().unwrap().len(), 2, "{first}");
    assert!(first["nextCursor"].is_string(), "{first}");

    let modern = connect(ProtocolVersion::V2026_07_28).await;
    let error = modern.list_tasks().await.unwrap_err();
    assert_eq!(error.code, ResponseError::METHOD_NOT_FOUND);
}

#[tokio::test]
async fn a_2025_11_25_task_asks_through_on_request_handlers() {
    let (asked, mut requests) = mpsc::unbounded_channel::<Value>();
    let answer_now = Arc::new(Notify::new());
    let go = answer_now.clone();
    let client = TestClient::builder()
        .on_request("elicitation/create", move |params| {
            let asked = asked.clone();
            let go = go.clone();
            async move {
                asked.send(params).unwrap();
                go.notified().await;
                Ok(json!({ "action": "accept", "content": { "confirm": true } }))
            }
        })
        .connect(server())
        .await
        .unwrap();
    let task = client
        .start_task("confirm", json!({ "action": "deploy" }))
        .await
        .unwrap();
    // The result is asked for at once: a server may send the task's requests only while a
    // `tasks/result` waits.
    let waiting = patiently("the result", client.task_result(&task.task_id));
    let asking = async {
        let params = patiently("the elicitation", requests.recv()).await.unwrap();
        assert_eq!(params["message"], "Go ahead with deploy?");
        assert_eq!(params["_meta"][RELATED]["taskId"], task.task_id.as_str());
        // While the handler has not answered, the task waits for input.
        let waiting = until(&client, &task.task_id, TaskStatus::InputRequired).await;
        assert!(
            waiting.input_requests.is_empty(),
            "asked as a request, not listed"
        );
        assert!(waiting.status_message.unwrap().contains("elicitation"));
        answer_now.notify_one();
    };
    let (result, ()) = tokio::join!(waiting, asking);
    assert_eq!(result.unwrap().text(), "deploy: confirmed");
    // The status notifications reached the client's queue.
    let status = patiently("the completed status", async {
        loop {
            let notification = client.next_notification().await.unwrap();
            if notification.method == "notifications/tasks/status"
                && notification.params["status"] == "completed"
            {
                return notification;
            }
        }
    })
    .await;
    assert_eq!(status.params["taskId"], task.task_id.as_str());
    // 2025-11-25 has no `tasks/update`.
    let error = client
        .answer_task_input(&task.task_id, json!({}))
        .await
        .unwrap_err();
    assert_eq!(error.code, ResponseError::METHOD_NOT_FOUND);
}

#[tokio::test]
async fn a_2026_07_28_task_lists_what_it_asks_and_takes_the_answer() {
    let client = answering_by_hand().await;
    let task = client
        .start_task("confirm", json!({ "action": "deploy" }))
        .await
        .unwrap();
    let waiting = until(&client, &task.task_id, TaskStatus::InputRequired).await;
    assert_eq!(waiting.input_requests.len(), 1, "{waiting:?}");
    let (key, request) = waiting.input_requests.iter().next().unwrap();
    assert_eq!(request["method"], "elicitation/create");
    assert_eq!(request["params"]["message"], "Go ahead with deploy?");

    // Waiting cannot answer it without a handler: it says so, and the task still waits.
    let error = client.wait_for_task(&task.task_id).await.unwrap_err();
    assert_eq!(error.code, ResponseError::METHOD_NOT_FOUND, "{error}");
    assert!(error.message.contains("elicitation/create"), "{error}");
    let still = client.get_task(&task.task_id).await.unwrap();
    assert_eq!(still.status, TaskStatus::InputRequired);

    let answer = json!({ key: { "action": "accept", "content": { "confirm": false } } });
    client
        .answer_task_input(&task.task_id, answer)
        .await
        .unwrap();
    let result = patiently("the result", client.task_result(&task.task_id))
        .await
        .unwrap();
    assert_eq!(result.text(), "deploy: not confirmed");
    let late = json!({ "input-9": { "action": "cancel" } });
    let error = client
        .answer_task_input(&task.task_id, late)
        .await
        .unwrap_err();
    assert_eq!(error.code, ResponseError::INVALID_PARAMS);
}

#[tokio::test]
async fn a_2026_07_28_wait_answers_with_the_handlers() {
    let client = TestClient::builder()
        .revision(ProtocolVersion::V2026_07_28)
        .on_request("elicitation/create", |params| async move {
            assert_eq!(params["message"], "Go ahead with release?");
            Ok(json!({ "action": "decline" }))
        })
        .connect(server())
        .await
        .unwrap();
    let task = client
        .start_task("confirm", json!({ "action": "release" }))
        .await
        .unwrap();
    let result = patiently("the result", client.task_result(&task.task_id))
        .await
        .unwrap();
    assert_eq!(result.text(), "release: declined");
}

#[tokio::test]
async fn a_tool_error_fails_a_2025_11_25_task_and_completes_a_2026_07_28_one() {
    for revision in BOTH {
        let client = connect(revision).await;
        let task = client.start_task("fails", json!({})).await.unwrap();
        let ended = patiently("wait", client.wait_for_task(&task.task_id))
            .await
            .unwrap();
        let expected = if revision.is_stateless() {
            TaskStatus::Completed
        } else {
            TaskStatus::Failed
        };
        assert_eq!(ended.status, expected, "{revision}");
        let result = client.task_result(&task.task_id).await.unwrap();
        assert!(result.is_error, "{revision}");
        assert_eq!(result.text(), "the source is offline");
    }
}

#[tokio::test]
async fn tools_that_forbid_or_require_tasks() {
    // 2025-11-25: a task asked of a tool that forbids one is refused.
    let legacy = connect(ProtocolVersion::V2025_11_25).await;
    let error = legacy
        .start_task("echo", json!({ "text": "hi" }))
        .await
        .unwrap_err();
    assert_eq!(error.code, ResponseError::METHOD_NOT_FOUND, "{error}");
    let error = legacy
        .call_tool("build", json!({ "ms": 1 }))
        .await
        .unwrap_err();
    assert_eq!(error.code, ResponseError::METHOD_NOT_FOUND, "{error}");
    let task = legacy
        .start_task("build", json!({ "ms": 1 }))
        .await
        .unwrap();
    let result = legacy.task_result(&task.task_id).await.unwrap();
    assert_eq!(result.text(), "built in 1 ms");

    // 2026-07-28: such a tool answers at once; a required one needs the extension.
    let modern = connect(ProtocolVersion::V2026_07_28).await;
    let error = modern
        .start_task("echo", json!({ "text": "hi" }))
        .await
        .unwrap_err();
    assert_eq!(error.code, ResponseError::NOT_A_TASK, "{error}");
    assert_eq!(error.data.unwrap()["content"][0]["text"], "hi");
    let error = modern
        .call_tool("build", json!({ "ms": 1 }))
        .await
        .unwrap_err();
    assert_eq!(error.code, -32021, "{error}");

    for client in [&legacy, &modern] {
        let unknown = "0123456789abcdef0123456789abcdef";
        let error = client.get_task(unknown).await.unwrap_err();
        assert_eq!(error.code, ResponseError::INVALID_PARAMS);
        let error = client.cancel_task(unknown).await.unwrap_err();
        assert_eq!(error.code, ResponseError::INVALID_PARAMS);
    }
}

#[tokio::test]
async fn call_tool_waits_for_a_task_once_the_client_declares_the_extension() {
    let client = TestClient::builder()
        .revision(ProtocolVersion::V2026_07_28)
        .capability("extensions", json!({ TASKS_EXTENSION: {} }))
        .connect(server())
        .await
        .unwrap();
    let result = patiently(
        "report",
        client.call_tool("report", json!({ "quarter": "Q2" })),
    )
    .await
    .unwrap();
    assert_eq!(result.text(), "Q2: revenue up");
    let built = patiently("build", client.call_tool("build", json!({ "ms": 5 })))
        .await
        .unwrap();
    assert_eq!(built.text(), "built in 5 ms");
    let plain = client
        .call_tool("echo", json!({ "text": "plain" }))
        .await
        .unwrap();
    assert_eq!(plain.text(), "plain");
}

/// Polls until the task's status message is `message`.
async fn until_message(client: &TestClient, id: &str, message: &str) -> TaskInfo {
    until_task(client, id, &format!("saying {message:?}"), |task| {
        task.status_message.as_deref() == Some(message)
    })
    .await
}

#[tokio::test]
async fn a_task_shows_its_latest_progress_message_as_its_status_message() {
    for (era, revision) in BOTH.into_iter().enumerate() {
        // No progress token: the message shows on the task all the same.
        let client = connect(revision).await;
        let task = client
            .start_task("stages", json!({ "era": era, "ask": false }))
            .await
            .unwrap();
        // Fifty reports in a tight loop: the last of them is stored, after the first.
        let working = until_message(&client, &task.task_id, "step 50 of 50").await;
        assert_eq!(working.status, TaskStatus::Working, "{revision}");
        STAGES[era].add_permits(1);
        let ended = patiently("wait", client.wait_for_task(&task.task_id))
            .await
            .unwrap();
        assert_eq!(ended.status, TaskStatus::Completed, "{revision}");
        assert_eq!(
            client.task_result(&task.task_id).await.unwrap().text(),
            "staged"
        );
    }
}

#[tokio::test]
async fn progress_while_a_task_waits_for_input_leaves_it_waiting() {
    // `era` 1 is 2026-07-28's `stages` tool's.
    let client = answering_by_hand().await;
    let task = client
        .start_task("stages", json!({ "era": 1, "ask": true }))
        .await
        .unwrap();
    until_message(&client, &task.task_id, "step 50 of 50").await;
    STAGES[1].add_permits(1);
    let waiting = until(&client, &task.task_id, TaskStatus::InputRequired).await;
    // The tool reports "still here" 100 ms into its wait, and the store would take it a
    // second after "step 50 of 50": the task must still wait, its request listed.
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let still = client.get_task(&task.task_id).await.unwrap();
    assert_eq!(still.status, TaskStatus::InputRequired, "{still:?}");
    assert_eq!(still.input_requests, waiting.input_requests);
    assert!(
        still.status_message.unwrap().contains("elicitation"),
        "what it waits for"
    );

    let key = waiting.input_requests.keys().next().unwrap().clone();
    let answer = json!({ key: { "action": "accept", "content": { "confirm": true } } });
    client
        .answer_task_input(&task.task_id, answer)
        .await
        .unwrap();
    // Working again, with the progress reported while it waited.
    let working = until_message(&client, &task.task_id, "still here").await;
    assert_eq!(working.status, TaskStatus::Working);
    STAGES[1].add_permits(1);
    let result = patiently("the result", client.task_result(&task.task_id))
        .await
        .unwrap();
    assert_eq!(result.text(), "staged");
}
