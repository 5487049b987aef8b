//! The jobs example in-process, through `mcp_runtime::testing::TestClient` (the same JSON-RPC
//! path as stdio): progress, cancellation of async and plain-`fn` tools, cleanup through the
//! cancellation token, time limits, and the report run as a task (2025-11-25).

#[allow(dead_code)]
#[path = "../src/main.rs"]
mod jobs;

use std::path::Path;
use std::time::{Duration, Instant};

use mcp_runtime::testing::TestClient;
use serde_json::{Value, json};

async fn client() -> TestClient {
    TestClient::connect(jobs::server()).await.unwrap()
}

async fn stats(client: &TestClient) -> Value {
    let result = client.call_tool("job_stats", json!({})).await.unwrap();
    result.structured_content.expect("structured stats")
}

/// Polls `job_stats` until `done` holds (the cleanup after a cancellation runs after the
/// cancellation, on its own time).
async fn wait_for_stats(client: &TestClient, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let stats = stats(client).await;
        if done(&stats) {
            return stats;
        }
        assert!(Instant::now() < deadline, "stats never got there: {stats}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Cancels a call of `tool` once it has run a while, and checks it is never answered.
async fn start_and_cancel(client: &TestClient, tool: &str, arguments: Value) {
    let call = client.start_call(tool, arguments);
    let id = call.id().clone();
    tokio::time::sleep(Duration::from_millis(200)).await;
    client.cancel(&id, Some("the user pressed stop"));
    assert!(
        tokio::time::timeout(Duration::from_millis(500), call.result())
            .await
            .is_err(),
        "a cancelled call gets no answer"
    );
}

#[tokio::test]
async fn process_items_reports_progress_and_logs() {
    let client = client().await;
    let (result, progress) = client
        .call_tool_with_progress("process_items", json!({"items": 5, "step_ms": 20}))
        .await
        .unwrap();
    assert_eq!(result.text(), "processed 5 items");
    assert!(!progress.is_empty());
    assert!(
        progress
            .windows(2)
            .all(|pair| pair[0].progress < pair[1].progress),
        "{progress:?}"
    );
    let last = progress.last().unwrap();
    assert_eq!(
        (last.progress, last.total, last.message.as_deref()),
        (5.0, Some(5.0), Some("item 5 of 5")),
        "the final value always goes out"
    );
    let logs: Vec<Value> = client
        .notifications()
        .into_iter()
        .filter(|n| n.method == "notifications/message")
        .map(|n| n.params)
        .collect();
    assert_eq!(
        logs,
        [json!({"level": "info", "logger": "process_items", "data": "processed 5 items"})]
    );
    let refused = client
        .call_tool("process_items", json!({"items": 0}))
        .await
        .unwrap();
    assert!(refused.is_error, "{}", refused.text());
}

#[tokio::test]
async fn a_cancelled_async_tool_is_dropped_and_its_guard_runs() {
    let client = client().await;
    start_and_cancel(
        &client,
        "process_items",
        json!({"items": 1000, "step_ms": 50}),
    )
    .await;
    wait_for_stats(&client, |stats| stats["cancelled_calls"] == 1).await;
    // The server goes on answering.
    let quick = client
        .call_tool("process_items", json!({"items": 1, "step_ms": 0}))
        .await
        .unwrap();
    assert_eq!(quick.text(), "processed 1 items");
    assert_eq!(stats(&client).await["cancelled_calls"], 1);
}

#[tokio::test]
async fn cancelling_a_build_stops_the_job_it_started() {
    let client = client().await;
    let call = client.start_call("build", json!({"steps": 10000, "step_ms": 10}));
    let id = call.id().clone();
    wait_for_stats(&client, |stats| stats["running_builds"] == 1).await;
    client.cancel(&id, None);
    // Without the watcher on `ctx.cancelled()`, the job would run on for 100 s.
    let stats = wait_for_stats(&client, |stats| stats["running_builds"] == 0).await;
    assert_eq!(
        stats,
        json!({"running_builds": 0, "finished_builds": 0, "stopped_builds": 1, "cancelled_calls": 0})
    );
    assert!(
        tokio::time::timeout(Duration::from_millis(300), call.result())
            .await
            .is_err()
    );
}

#[tokio::test]
async fn a_build_that_times_out_is_stopped_too() {
    // The token also fires when a call runs out of time (here the server-wide limit).
    let server = jobs::server().call_timeout(Duration::from_millis(300));
    let client = TestClient::connect(server).await.unwrap();
    let result = client
        .call_tool("build", json!({"steps": 10000, "step_ms": 10}))
        .await
        .unwrap();
    assert!(result.is_error);
    assert_eq!(
        result.text(),
        "Tool `build` timed out after 300 ms and was stopped."
    );
    wait_for_stats(&client, |stats| {
        stats["running_builds"] == 0 && stats["stopped_builds"] == 1
    })
    .await;
}

#[tokio::test]
async fn a_build_that_finishes_reports_every_step() {
    let client = client().await;
    let (result, progress) = client
        .call_tool_with_progress("build", json!({"steps": 3, "step_ms": 10}))
        .await
        .unwrap();
    assert_eq!(result.text(), "build 1 finished: 3 steps");
    let last = progress.last().unwrap();
    assert_eq!((last.progress, last.total), (3.0, Some(3.0)));
    assert_eq!(last.message.as_deref(), Some("build 1: step 3 of 3"));
    let stats = wait_for_stats(&client, |stats| stats["finished_builds"] == 1).await;
    assert_eq!(stats["running_builds"], 0);
}

#[tokio::test]
async fn count_primes_in_a_plain_fn_reports_progress_and_stops_when_cancelled() {
    let client = client().await;
    let (result, progress) = client
        .call_tool_with_progress("count_primes", json!({"below": 1_000_000}))
        .await
        .unwrap();
    assert_eq!(result.text(), "78498");
    let last = progress.last().unwrap();
    assert_eq!(
        (last.progress, last.total),
        (1_000_000.0, Some(1_000_000.0))
    );
    for (below, primes) in [(0, "0"), (2, "0"), (3, "1"), (100, "25"), (7920, "1000")] {
        let result = client
            .call_tool("count_primes", json!({"below": below}))
            .await
            .unwrap();
        assert_eq!(result.text(), primes, "below {below}");
    }
    let too_big = client
        .call_tool("count_primes", json!({"below": 10_000_000_001_u64}))
        .await
        .unwrap();
    assert!(too_big.is_error);

    // Ten billion takes minutes: cancelled, the tool sees `ctx.is_cancelled()` and returns.
    start_and_cancel(
        &client,
        "count_primes",
        json!({"below": 10_000_000_000_u64}),
    )
    .await;
    wait_for_stats(&client, |stats| stats["cancelled_calls"] == 1).await;
}

#[tokio::test]
async fn slow_lookup_is_stopped_by_its_timeout_attribute() {
    let client = client().await;
    let quick = client
        .call_tool("slow_lookup", json!({"key": "colour", "delay_ms": 10}))
        .await
        .unwrap();
    assert_eq!(quick.text(), "value of colour");
    let started = Instant::now();
    let slow = client
        .call_tool("slow_lookup", json!({"key": "colour", "delay_ms": 60_000}))
        .await
        .unwrap();
    assert!(slow.is_error);
    assert_eq!(
        slow.text(),
        "Tool `slow_lookup` timed out after 1 s and was stopped."
    );
    assert!(started.elapsed() < Duration::from_secs(10));
}

/// The `_meta` key that ties a message to its task.
const RELATED_TASK: &str = "io.modelcontextprotocol/related-task";

/// Starts `report` as a task (2025-11-25: `params.task`); the task, as the call's answer.
async fn start_report_task(client: &TestClient, arguments: Value) -> Value {
    let created = client
        .request(
            "tools/call",
            json!({
                "name": "report",
                "arguments": arguments,
                "task": { "ttl": 60_000 },
                "_meta": { "progressToken": "report" },
            }),
        )
        .await
        .unwrap();
    created["task"].clone()
}

#[tokio::test]
async fn report_is_a_plain_call_unless_the_client_asks_for_a_task() {
    let client = client().await;
    let tools = client.list_tools_json().await.unwrap();
    let report = tools["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|tool| tool["name"] == "report")
        .unwrap();
    assert_eq!(report["execution"], json!({ "taskSupport": "optional" }));
    let capabilities = &client.initialize_result().unwrap()["capabilities"];
    assert!(capabilities["tasks"]["requests"]["tools"]["call"].is_object());

    let result = client
        .call_tool("report", json!({"days": 3, "step_ms": 1}))
        .await
        .unwrap();
    assert_eq!(
        result.structured_content.unwrap(),
        json!({
            "days": 3, "builds": 80, "failed": 6, "worst_day": 3,
            "daily": [
                {"day": 1, "builds": 27, "failed": 1},
                {"day": 2, "builds": 23, "failed": 2},
                {"day": 3, "builds": 30, "failed": 3},
            ],
        })
    );
    let refused = client
        .call_tool("report", json!({"days": 0}))
        .await
        .unwrap();
    assert!(refused.is_error, "{}", refused.text());
}

#[tokio::test]
async fn report_runs_as_a_task_and_gives_its_result_later() {
    let client = client().await;
    let task = start_report_task(&client, json!({"days": 5, "step_ms": 20})).await;
    // Answered at once, before the report is compiled.
    assert_eq!(task["status"], "working", "{task}");
    assert_eq!(task["ttl"], 60_000);
    let id = task["taskId"].as_str().unwrap().to_owned();

    // `tasks/result` waits for the end, then gives the call's own result.
    let result = client
        .request("tasks/result", json!({ "taskId": id }))
        .await
        .unwrap();
    assert_eq!(result["structuredContent"]["days"], 5, "{result}");
    assert_eq!(result["structuredContent"]["daily"][4]["day"], 5);
    assert_eq!(result["_meta"][RELATED_TASK]["taskId"], id.as_str());
    let got = client
        .request("tasks/get", json!({ "taskId": id }))
        .await
        .unwrap();
    assert_eq!(got["status"], "completed", "{got}");

    // Progress went out as in a plain call, tied to the task; so did the status changes.
    let mut notifications = client.notifications();
    let progress: Vec<&Value> = notifications
        .iter()
        .filter(|n| n.method == "notifications/progress")
        .map(|n| &n.params)
        .collect();
    let last = progress.last().expect("progress");
    assert_eq!(
        (&last["progressToken"], &last["progress"], &last["message"]),
        (&json!("report"), &json!(5.0), &json!("day 5 of 5"))
    );
    assert!(
        progress
            .iter()
            .all(|p| p["_meta"][RELATED_TASK]["taskId"] == id.as_str())
    );
    // The status change is sent as the task is recorded finished, which may be just after
    // `tasks/result` had its answer. (`notifications()` hands each one over once.)
    let deadline = Instant::now() + Duration::from_secs(10);
    while !notifications.iter().any(|n| {
        n.method == "notifications/tasks/status"
            && n.params["taskId"] == id.as_str()
            && n.params["status"] == "completed"
    }) {
        assert!(
            Instant::now() < deadline,
            "no status `completed`: {notifications:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
        notifications.extend(client.notifications());
    }
}

#[tokio::test]
async fn cancelling_a_report_task_stops_the_tool() {
    let client = client().await;
    let task = start_report_task(&client, json!({"days": 365, "step_ms": 1000})).await;
    let id = task["taskId"].as_str().unwrap().to_owned();
    let cancelled = client
        .request("tasks/cancel", json!({ "taskId": id }))
        .await
        .unwrap();
    assert_eq!(cancelled["status"], "cancelled", "{cancelled}");
    // The tool's future was dropped: its guard counted the cancellation.
    wait_for_stats(&client, |stats| stats["cancelled_calls"] == 1).await;
    // A cancelled task has no result, and cannot be cancelled again.
    for method in ["tasks/result", "tasks/cancel"] {
        let refused = client
            .request(method, json!({ "taskId": id }))
            .await
            .unwrap_err();
        assert_eq!(refused.code, -32602, "{method}: {refused:?}");
    }
}

#[tokio::test]
async fn jobs_contract() {
    let snapshot = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/jobs.tools.json");
    client()
        .await
        .assert_contract(
            snapshot,
            &[
                ("job_stats", json!({})),
                ("report", json!({"days": 2, "step_ms": 1})),
            ],
        )
        .await;
}
