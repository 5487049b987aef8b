//! Helpers for the tasks tests (`tests/tests/tasks.rs`, `task_listen.rs`,
//! `task_failures_and_rounds.rs`): 2026-07-28 requests from a client that declared the
//! `io.modelcontextprotocol/tasks` extension, polling, and the extension's task shapes, which
//! the core schema does not state.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::{StdioClient, stateless_meta};

/// The tasks extension's identifier.
pub const EXTENSION: &str = "io.modelcontextprotocol/tasks";

/// A 2026-07-28 request from a client that declared the tasks extension (and elicitation).
pub fn modern_request(client: &mut StdioClient, method: &str, mut params: Value) -> Value {
    let mut meta = stateless_meta();
    meta["io.modelcontextprotocol/clientCapabilities"] =
        json!({ "elicitation": {}, "extensions": { EXTENSION: {} } });
    params["_meta"] = meta;
    client.request(method, params)
}

/// The id of the task a 2026-07-28 call was answered with.
pub fn modern_task_id(created: &Value) -> String {
    created["result"]["taskId"]
        .as_str()
        .unwrap_or_else(|| panic!("not a task: {created}"))
        .to_owned()
}

pub fn error_code(response: &Value) -> i64 {
    response["error"]["code"]
        .as_i64()
        .unwrap_or_else(|| panic!("expected an error, got {response}"))
}

/// The next message matching `wanted`, looking first at what already arrived.
pub fn wait_for(client: &mut StdioClient, what: &str, wanted: impl Fn(&Value) -> bool) -> Value {
    if let Some(found) = client.transcript.iter().find(|message| wanted(message)) {
        return found.clone();
    }
    let deadline = Instant::now() + Duration::from_secs(20);
    while let Some(message) = client.try_receive(deadline.saturating_duration_since(Instant::now()))
    {
        if wanted(&message) {
            return message;
        }
    }
    panic!("no {what} within 20 s; received: {:#?}", client.transcript)
}

/// Polls `tasks/get` until the task is in a terminal state (or `status`).
pub fn poll_until(
    client: &mut StdioClient,
    modern: bool,
    task_id: &str,
    done: impl Fn(&str) -> bool,
) -> Value {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let params = json!({ "taskId": task_id });
        let response = if modern {
            modern_request(client, "tasks/get", params)
        } else {
            client.request("tasks/get", params)
        };
        let task = response["result"].clone();
        if modern {
            check_detailed_task(&task);
        }
        if done(task["status"].as_str().unwrap_or_default()) {
            return task;
        }
        assert!(Instant::now() < deadline, "task {task_id} stuck: {task}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

pub fn terminal(status: &str) -> bool {
    matches!(status, "completed" | "failed" | "cancelled")
}

/// The 2026-07-28 task fields, as `@modelcontextprotocol/ext-tasks` 0.2's schemas state
/// them (`TaskBaseShape`): the extension is not part of the core schema.
pub fn check_flat_task(task: &Value) {
    assert!(task["taskId"].is_string(), "{task}");
    assert!(
        [
            "working",
            "input_required",
            "completed",
            "failed",
            "cancelled"
        ]
        .contains(&task["status"].as_str().unwrap_or_default()),
        "{task}"
    );
    assert!(task["createdAt"].is_string(), "{task}");
    assert!(task["lastUpdatedAt"].is_string(), "{task}");
    assert!(task["ttlMs"].is_u64() || task["ttlMs"].is_null(), "{task}");
    assert!(
        task.get("pollIntervalMs").is_none_or(Value::is_u64),
        "{task}"
    );
    assert!(
        task.get("statusMessage").is_none_or(Value::is_string),
        "{task}"
    );
    assert!(
        task.get("ttl").is_none() && task.get("pollInterval").is_none(),
        "{task}"
    );
}

/// A `tasks/get` result of 2026-07-28: the flat fields, `resultType: "complete"`, and by
/// status `inputRequests`, `result` or `error` (`DetailedTaskV2Schema`).
pub fn check_detailed_task(task: &Value) {
    check_flat_task(task);
    assert_eq!(task["resultType"], "complete", "{task}");
    match task["status"].as_str().unwrap() {
        "input_required" => assert!(task["inputRequests"].is_object(), "{task}"),
        "completed" => assert!(task["result"].is_object(), "{task}"),
        "failed" => {
            assert!(task["error"]["code"].is_i64(), "{task}");
            assert!(task["error"]["message"].is_string(), "{task}");
        }
        _ => {}
    }
}

/// Panics unless `response` is the error `code` with a message that says `says`.
pub fn assert_error(response: &Value, code: i64, says: &str) {
    assert_eq!(error_code(response), code, "{response}");
    let message = response["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains(says), "`{says}` not in {response}");
}

/// Calls the tool `name` as a 2026-07-28 task; the task's id.
pub fn start_modern_task(client: &mut StdioClient, name: &str, arguments: Value) -> String {
    let created = modern_request(
        client,
        "tools/call",
        json!({ "name": name, "arguments": arguments }),
    );
    modern_task_id(&created)
}
