//! Tasks over stdio, in both eras: 2025-11-25 (core, every message checked against its
//! schema) and 2026-07-28 (the `io.modelcontextprotocol/tasks` extension, its shapes checked
//! as the extension's own schemas state them). Every error case, ttl expiry, the per-client
//! limit, cancel while working, input asked inside a task, a result over the message limit,
//! and shutdown with a task still running.
//!
//! Ownership between two clients needs two clients of one server: `http-tests/tests/tasks.rs`.

use std::time::{Duration, Instant};

use mcp_tests::{StdioClient, stateless_meta};
use serde_json::{Value, json};

const EXTENSION: &str = "io.modelcontextprotocol/tasks";
const RELATED: &str = "io.modelcontextprotocol/related-task";

fn server(args: &[&str]) -> StdioClient {
    StdioClient::spawn(env!("CARGO_BIN_EXE_tasks"), args)
}

/// A 2025-11-25 client whose messages are all checked against the schema.
fn legacy(args: &[&str]) -> StdioClient {
    let mut client = server(args);
    client.check_against("2025-11-25");
    client.initialize_with("2025-11-25", json!({ "elicitation": {} }));
    client
}

/// A 2026-07-28 request from a client that declared the tasks extension (and elicitation).
fn modern_request(client: &mut StdioClient, method: &str, mut params: Value) -> Value {
    let mut meta = stateless_meta();
    meta["io.modelcontextprotocol/clientCapabilities"] =
        json!({ "elicitation": {}, "extensions": { EXTENSION: {} } });
    params["_meta"] = meta;
    client.request(method, params)
}

/// The id of the task a 2025-11-25 call was answered with.
fn legacy_task_id(created: &Value) -> String {
    created["result"]["task"]["taskId"]
        .as_str()
        .unwrap_or_else(|| panic!("not a task: {created}"))
        .to_owned()
}

/// The id of the task a 2026-07-28 call was answered with.
fn modern_task_id(created: &Value) -> String {
    created["result"]["taskId"]
        .as_str()
        .unwrap_or_else(|| panic!("not a task: {created}"))
        .to_owned()
}

/// Panics unless `response` is the error `code` with a message that says `says`.
fn assert_error(response: &Value, code: i64, says: &str) {
    assert_eq!(error_code(response), code, "{response}");
    let message = response["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains(says), "`{says}` not in {response}");
}

fn error_code(response: &Value) -> i64 {
    response["error"]["code"]
        .as_i64()
        .unwrap_or_else(|| panic!("expected an error, got {response}"))
}

/// The next message matching `wanted`, looking first at what already arrived.
fn wait_for(client: &mut StdioClient, what: &str, wanted: impl Fn(&Value) -> bool) -> Value {
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

fn status_notification(client: &mut StdioClient, task_id: &str, status: &str) -> Value {
    wait_for(
        client,
        &format!("status {status} of {task_id}"),
        |message| {
            message["method"] == "notifications/tasks/status"
                && message["params"]["taskId"] == task_id
                && message["params"]["status"] == status
        },
    )
}

/// Polls `tasks/get` until the task is in a terminal state (or `status`).
fn poll_until(
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

fn terminal(status: &str) -> bool {
    matches!(status, "completed" | "failed" | "cancelled")
}

/// The 2026-07-28 task fields, as `@modelcontextprotocol/ext-tasks` 0.2's schemas state
/// them (`TaskBaseShape`): the extension is not part of the core schema.
fn check_flat_task(task: &Value) {
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
fn check_detailed_task(task: &Value) {
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

#[test]
fn legacy_capabilities_and_listing_declare_tasks() {
    let mut client = server(&[]);
    client.check_against("2025-11-25");
    let result = client.initialize("2025-11-25");
    assert_eq!(
        result["capabilities"]["tasks"],
        json!({ "list": {}, "cancel": {}, "requests": { "tools": { "call": {} } } })
    );
    let tools = client.request("tools/list", json!({}))["result"]["tools"].clone();
    let support = |name: &str| {
        let tool = tools
            .as_array()
            .unwrap()
            .iter()
            .find(|tool| tool["name"] == name)
            .unwrap();
        tool.get("execution").cloned()
    };
    assert_eq!(
        support("report"),
        Some(json!({ "taskSupport": "optional" }))
    );
    assert_eq!(support("build"), Some(json!({ "taskSupport": "required" })));
    assert_eq!(support("echo"), None);

    // Older revisions never see a task, and a required tool runs as a plain call there.
    let mut older = server(&[]);
    older.check_against("2025-06-18");
    let result = older.initialize("2025-06-18");
    assert!(result["capabilities"].get("tasks").is_none(), "{result}");
    let tools = older.request("tools/list", json!({}))["result"]["tools"].clone();
    assert!(
        tools
            .as_array()
            .unwrap()
            .iter()
            .all(|tool| tool.get("execution").is_none())
    );
    let call = older.request(
        "tools/call",
        json!({ "name": "build", "arguments": { "ms": 1 }, "task": {} }),
    );
    assert_eq!(
        call["result"]["content"][0]["text"], "built in 1 ms",
        "{call}"
    );
}

#[test]
fn legacy_task_runs_reports_progress_and_gives_its_result() {
    let mut client = legacy(&[]);
    client.request("logging/setLevel", json!({ "level": "info" }));
    let created = client.request(
        "tools/call",
        json!({
            "name": "report",
            "arguments": { "quarter": "Q3" },
            "task": { "ttl": 60_000 },
            "_meta": { "progressToken": "report-1" },
        }),
    );
    let task = &created["result"]["task"];
    assert_eq!(task["status"], "working", "{created}");
    assert_eq!(task["ttl"], 60_000);
    assert_eq!(task["pollInterval"], 100);
    let id = task["taskId"].as_str().unwrap().to_owned();
    assert_eq!(id.len(), 32, "128 random bits in hex: {id}");

    // The tool's messages carry the task's id; the last status is `completed`.
    let progress = wait_for(&mut client, "progress", |message| {
        message["method"] == "notifications/progress" && message["params"]["progress"] == 3.0
    });
    assert_eq!(progress["params"]["progressToken"], "report-1");
    assert_eq!(progress["params"]["_meta"][RELATED]["taskId"], id.as_str());
    let log = wait_for(&mut client, "log", |message| {
        message["method"] == "notifications/message"
    });
    assert_eq!(log["params"]["_meta"][RELATED]["taskId"], id.as_str());
    status_notification(&mut client, &id, "completed");

    let result = client.request("tasks/result", json!({ "taskId": id }));
    let result = &result["result"];
    assert_eq!(result["structuredContent"]["quarter"], "Q3", "{result}");
    assert_eq!(result["_meta"][RELATED]["taskId"], id.as_str());
    mcp_tests::check_result("2025-11-25", "tools/call", result);

    let got = client.request("tasks/get", json!({ "taskId": id }))["result"].clone();
    assert_eq!(got["status"], "completed");
    let listed = client.request("tasks/list", json!({}))["result"]["tasks"].clone();
    assert_eq!(listed.as_array().unwrap().len(), 1);
    assert_eq!(listed[0]["taskId"], id.as_str());

    // A ttl longer than the server's maximum is capped to it.
    let created = client.request(
        "tools/call",
        json!({ "name": "report", "arguments": { "quarter": "Q4", "steps": 0 }, "task": { "ttl": 999_999_999_999_u64 } }),
    );
    assert_eq!(created["result"]["task"]["ttl"], 3_600_000, "{created}");
}

#[test]
fn legacy_errors_are_the_specs() {
    let mut client = legacy(&[]);
    // A task asked of a tool that forbids one; a required task not asked for.
    let forbidden = client.request(
        "tools/call",
        json!({ "name": "echo", "arguments": { "text": "hi" }, "task": {} }),
    );
    assert_error(&forbidden, -32601, "forbidden");
    let required = client.request(
        "tools/call",
        json!({ "name": "build", "arguments": { "ms": 1 } }),
    );
    assert_error(&required, -32601, "task");
    // A malformed `task`, an unknown task id, a missing one.
    let malformed = client.request(
        "tools/call",
        json!({ "name": "report", "arguments": { "quarter": "Q1" }, "task": "soon" }),
    );
    assert_eq!(error_code(&malformed), -32602, "{malformed}");
    for method in ["tasks/get", "tasks/result", "tasks/cancel"] {
        let unknown = client.request(
            method,
            json!({ "taskId": "0123456789abcdef0123456789abcdef" }),
        );
        assert_eq!(error_code(&unknown), -32602, "{method}: {unknown}");
        let missing = client.request(method, json!({}));
        assert_eq!(error_code(&missing), -32602, "{method}: {missing}");
    }
    // Cancelling a finished task.
    let created = client.request(
        "tools/call",
        json!({ "name": "report", "arguments": { "quarter": "Q1", "steps": 0 }, "task": {} }),
    );
    let id = legacy_task_id(&created);
    poll_until(&mut client, false, &id, terminal);
    let late = client.request("tasks/cancel", json!({ "taskId": id }));
    assert_error(&late, -32602, "completed");
    // Invalid arguments still make the task asked for, finished with the tool's error.
    let invalid = client.request(
        "tools/call",
        json!({ "name": "report", "arguments": { "quarter": 3 }, "task": {} }),
    );
    let id = legacy_task_id(&invalid);
    let task = poll_until(&mut client, false, &id, terminal);
    assert_eq!(task["status"], "failed", "{task}");
    let result = client.request("tasks/result", json!({ "taskId": id }));
    assert_eq!(result["result"]["isError"], true, "{result}");
    // The server still serves.
    let echo = client.request(
        "tools/call",
        json!({ "name": "echo", "arguments": { "text": "still here" } }),
    );
    assert_eq!(echo["result"]["content"][0]["text"], "still here");
}

#[test]
fn legacy_cancel_stops_a_working_task() {
    let mut client = legacy(&[]);
    let created = client.request(
        "tools/call",
        json!({ "name": "build", "arguments": { "ms": 60_000 }, "task": {} }),
    );
    let id = legacy_task_id(&created);
    let cancelled = client.request("tasks/cancel", json!({ "taskId": id }));
    assert_eq!(cancelled["result"]["status"], "cancelled", "{cancelled}");
    status_notification(&mut client, &id, "cancelled");
    let got = client.request("tasks/get", json!({ "taskId": id }));
    assert_eq!(got["result"]["status"], "cancelled");
    let result = client.request("tasks/result", json!({ "taskId": id }));
    assert_eq!(error_code(&result), -32602, "{result}");
    // No completion sneaks in after the cancel.
    std::thread::sleep(Duration::from_millis(200));
    let got = client.request("tasks/get", json!({ "taskId": id }));
    assert_eq!(got["result"]["status"], "cancelled");
}

#[test]
fn legacy_task_asks_for_input_and_waits_in_input_required() {
    let mut client = legacy(&[]);
    // Nobody waits on `tasks/result`: the request goes on the connection (ext-tasks' client
    // waits for it there), the task `input_required` meanwhile.
    let created = client.request(
        "tools/call",
        json!({ "name": "confirm", "arguments": { "action": "deploy" }, "task": {} }),
    );
    let id = legacy_task_id(&created);
    let elicitation = client.request_from_server();
    assert_eq!(elicitation["method"], "elicitation/create");
    assert_eq!(
        elicitation["params"]["_meta"][RELATED]["taskId"],
        id.as_str()
    );
    status_notification(&mut client, &id, "input_required");
    let got = client.request("tasks/get", json!({ "taskId": id }));
    assert_eq!(got["result"]["status"], "input_required", "{got}");
    client.respond(
        &elicitation,
        json!({ "action": "accept", "content": { "confirm": true } }),
    );
    let result = client.request("tasks/result", json!({ "taskId": id }));
    assert_eq!(
        result["result"]["content"][0]["text"], "deploy: confirmed",
        "{result}"
    );
    status_notification(&mut client, &id, "completed");

    // A `tasks/result` already waiting: the request comes while it waits (the TypeScript
    // SDK's design), and it then answers with the result.
    let created = client.request(
        "tools/call",
        json!({ "name": "confirm", "arguments": { "action": "ship" }, "task": {} }),
    );
    let id = legacy_task_id(&created);
    let result_id = client.next_id();
    client.send(&json!({
        "jsonrpc": "2.0", "id": result_id, "method": "tasks/result", "params": { "taskId": id },
    }));
    let elicitation = client.request_from_server();
    assert_eq!(
        elicitation["params"]["_meta"][RELATED]["taskId"],
        id.as_str()
    );
    client.respond(&elicitation, json!({ "action": "decline" }));
    let result = client.response_to(&json!(result_id));
    assert_eq!(
        result["result"]["content"][0]["text"], "ship: declined",
        "{result}"
    );
    mcp_tests::check_result("2025-11-25", "tasks/result", &result["result"]);
}

#[test]
fn finished_tasks_are_forgotten_after_their_ttl() {
    let mut client = legacy(&["--ttl-ms", "300"]);
    let created = client.request(
        "tools/call",
        json!({ "name": "report", "arguments": { "quarter": "Q1", "steps": 0 }, "task": { "ttl": 60_000 } }),
    );
    assert_eq!(created["result"]["task"]["ttl"], 300, "capped: {created}");
    let id = legacy_task_id(&created);
    poll_until(&mut client, false, &id, terminal);
    std::thread::sleep(Duration::from_millis(400));
    let gone = client.request("tasks/get", json!({ "taskId": id }));
    assert_eq!(error_code(&gone), -32602, "{gone}");
    let listed = client.request("tasks/list", json!({}));
    assert_eq!(listed["result"]["tasks"], json!([]), "{listed}");
}

#[test]
fn a_client_over_its_task_limit_is_refused_and_no_task_is_made() {
    let mut client = legacy(&["--max-tasks", "2"]);
    for _ in 0..2 {
        let created = client.request(
            "tools/call",
            json!({ "name": "build", "arguments": { "ms": 60_000 }, "task": {} }),
        );
        assert_eq!(created["result"]["task"]["status"], "working", "{created}");
    }
    let refused = client.request(
        "tools/call",
        json!({ "name": "build", "arguments": { "ms": 60_000 }, "task": {} }),
    );
    assert_error(&refused, -32600, "too many tasks");
    let listed = client.request("tasks/list", json!({}))["result"]["tasks"].clone();
    assert_eq!(listed.as_array().unwrap().len(), 2);
    // Once one is cancelled, there is room again.
    let first = listed[0]["taskId"].as_str().unwrap().to_owned();
    client.request("tasks/cancel", json!({ "taskId": first }));
    let created = client.request(
        "tools/call",
        json!({ "name": "build", "arguments": { "ms": 1 }, "task": {} }),
    );
    assert_eq!(created["result"]["task"]["status"], "working", "{created}");
}

#[test]
fn a_result_over_the_message_limit_fails_its_task() {
    let mut client = legacy(&["--max-message-size", "100000"]);
    let created = client.request(
        "tools/call",
        json!({ "name": "large", "arguments": { "bytes": 200_000 }, "task": {} }),
    );
    let id = legacy_task_id(&created);
    let task = poll_until(&mut client, false, &id, terminal);
    assert_eq!(task["status"], "failed", "{task}");
    assert!(
        task["statusMessage"]
            .as_str()
            .unwrap()
            .contains("message limit"),
        "{task}"
    );
    let result = client.request("tasks/result", json!({ "taskId": id }));
    assert_error(&result, -32603, "100000 bytes");
}

#[test]
fn a_task_still_running_at_shutdown_is_marked_failed() {
    let mut client = legacy(&["--grace-ms", "200"]);
    let created = client.request(
        "tools/call",
        json!({ "name": "build", "arguments": { "ms": 60_000 }, "task": {} }),
    );
    let id = legacy_task_id(&created);
    client.close_stdin();
    let failed = status_notification(&mut client, &id, "failed");
    assert!(
        failed["params"]["statusMessage"]
            .as_str()
            .unwrap()
            .contains("shut down"),
        "{failed}"
    );
    assert!(client.wait_for_exit(Duration::from_secs(10)).is_some());
}

#[test]
fn modern_task_runs_and_gives_its_result_inline() {
    let mut client = server(&[]);
    client.check_against("2026-07-28");
    let discovered = client.stateless_request("server/discover", json!({}));
    assert_eq!(
        discovered["result"]["capabilities"]["extensions"][EXTENSION],
        json!({}),
        "{discovered}"
    );
    assert!(discovered["result"]["capabilities"].get("tasks").is_none());
    let tools = client.stateless_request("tools/list", json!({}))["result"]["tools"].clone();
    assert!(
        tools
            .as_array()
            .unwrap()
            .iter()
            .all(|tool| tool.get("execution").is_none())
    );

    let created = modern_request(
        &mut client,
        "tools/call",
        json!({ "name": "report", "arguments": { "quarter": "Q2" } }),
    );
    let task = &created["result"];
    assert_eq!(task["resultType"], "task", "{created}");
    check_flat_task(task);
    assert_eq!(task["ttlMs"], 3_600_000);
    assert_eq!(task["pollIntervalMs"], 100);
    assert!(task["_meta"]["io.modelcontextprotocol/serverInfo"].is_object());
    let id = task["taskId"].as_str().unwrap().to_owned();
    let done = poll_until(&mut client, true, &id, terminal);
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(
        done["result"]["structuredContent"]["quarter"], "Q2",
        "{done}"
    );
    assert_eq!(done["result"]["resultType"], "complete", "{done}");
    mcp_tests::check_result("2026-07-28", "tools/call", &done["result"]);
    // Not in the core schema's `tasks/*`: a 2026-07-28 server has no `tasks/result` or list.
    for method in ["tasks/result", "tasks/list"] {
        let absent = modern_request(&mut client, method, json!({ "taskId": id }));
        assert_eq!(error_code(&absent), -32601, "{method}: {absent}");
    }

    // A tool error completes the task (the extension's rule), its result saying so.
    let created = modern_request(
        &mut client,
        "tools/call",
        json!({ "name": "fails", "arguments": {} }),
    );
    let id = modern_task_id(&created);
    let done = poll_until(&mut client, true, &id, terminal);
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(done["result"]["isError"], true, "{done}");
}

#[test]
fn modern_calls_without_the_extension_run_as_before() {
    let mut client = server(&[]);
    client.check_against("2026-07-28");
    let plain = client.stateless_request(
        "tools/call",
        json!({ "name": "report", "arguments": { "quarter": "Q1", "steps": 1 } }),
    );
    assert_eq!(plain["result"]["resultType"], "complete", "{plain}");
    assert_eq!(plain["result"]["structuredContent"]["quarter"], "Q1");
    let required = client.stateless_request(
        "tools/call",
        json!({ "name": "build", "arguments": { "ms": 1 } }),
    );
    assert_eq!(error_code(&required), -32021, "{required}");
    assert_eq!(
        required["error"]["data"]["requiredCapabilities"]["extensions"][EXTENSION],
        json!({})
    );
    // With the extension, a tool that forbids tasks is still a plain call.
    let echo = modern_request(
        &mut client,
        "tools/call",
        json!({ "name": "echo", "arguments": { "text": "hi" } }),
    );
    assert_eq!(echo["result"]["resultType"], "complete", "{echo}");
}

#[test]
fn modern_task_takes_input_through_tasks_update() {
    let mut client = server(&[]);
    client.check_against("2026-07-28");
    let created = modern_request(
        &mut client,
        "tools/call",
        json!({ "name": "confirm", "arguments": { "action": "deploy" } }),
    );
    let id = modern_task_id(&created);
    let waiting = poll_until(&mut client, true, &id, |status| status == "input_required");
    let requests = waiting["inputRequests"].as_object().unwrap();
    assert_eq!(requests.len(), 1, "{waiting}");
    let (key, request) = requests.iter().next().unwrap();
    assert_eq!(request["method"], "elicitation/create", "{waiting}");
    assert!(
        request["params"]["requestedSchema"].is_object(),
        "{waiting}"
    );
    let key = key.clone();

    let bad = modern_request(&mut client, "tasks/update", json!({ "taskId": id }));
    assert_eq!(error_code(&bad), -32602, "{bad}");
    // An answer to nothing the task asks is ignored, as the extension says.
    let unasked = modern_request(
        &mut client,
        "tasks/update",
        json!({ "taskId": id, "inputResponses": { "input-7": { "action": "cancel" } } }),
    );
    assert_eq!(unasked["result"]["resultType"], "complete", "{unasked}");
    let still = modern_request(&mut client, "tasks/get", json!({ "taskId": id }));
    assert_eq!(still["result"]["status"], "input_required", "{still}");
    assert!(
        still["result"]["inputRequests"][&key].is_object(),
        "{still}"
    );
    let updated = modern_request(
        &mut client,
        "tasks/update",
        json!({ "taskId": id, "inputResponses": { key: { "action": "accept", "content": { "confirm": false } } } }),
    );
    assert_eq!(updated["result"]["resultType"], "complete", "{updated}");
    let done = poll_until(&mut client, true, &id, terminal);
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(
        done["result"]["content"][0]["text"], "deploy: not confirmed",
        "{done}"
    );
    let late = modern_request(
        &mut client,
        "tasks/update",
        json!({ "taskId": id, "inputResponses": { "input-9": { "action": "cancel" } } }),
    );
    assert_eq!(error_code(&late), -32602, "{late}");
}

#[test]
fn modern_cancel_and_unknown_tasks() {
    let mut client = server(&[]);
    client.check_against("2026-07-28");
    let created = modern_request(
        &mut client,
        "tools/call",
        json!({ "name": "build", "arguments": { "ms": 60_000 } }),
    );
    let id = modern_task_id(&created);
    let cancelled = modern_request(&mut client, "tasks/cancel", json!({ "taskId": id }));
    assert_eq!(cancelled["result"]["resultType"], "complete", "{cancelled}");
    let got = poll_until(&mut client, true, &id, terminal);
    assert_eq!(got["status"], "cancelled", "{got}");
    // Cancelling is only a request there: a finished task's is acknowledged too.
    let again = modern_request(&mut client, "tasks/cancel", json!({ "taskId": id }));
    assert_eq!(again["result"]["resultType"], "complete", "{again}");
    // The methods are the extension's: a client that did not declare it gets -32021.
    for method in ["tasks/get", "tasks/cancel", "tasks/update"] {
        let mut meta = stateless_meta();
        meta["io.modelcontextprotocol/clientCapabilities"] = json!({});
        let undeclared = client.request(
            method,
            json!({ "taskId": id, "inputResponses": {}, "_meta": meta }),
        );
        assert_eq!(error_code(&undeclared), -32021, "{method}: {undeclared}");
        assert!(
            undeclared["error"]["data"]["requiredCapabilities"]["extensions"][EXTENSION]
                .is_object(),
            "{method}: {undeclared}"
        );
    }
    for method in ["tasks/get", "tasks/cancel", "tasks/update"] {
        let unknown = modern_request(
            &mut client,
            method,
            json!({ "taskId": "feedfacefeedfacefeedfacefeedface", "inputResponses": {} }),
        );
        assert_eq!(error_code(&unknown), -32602, "{method}: {unknown}");
    }
}

/// Sends a 2026-07-28 `subscriptions/listen` with the request id `id`, naming `task_ids`,
/// from a client that declared the tasks extension; its stream stays open.
fn listen_for_tasks(client: &mut StdioClient, id: &str, task_ids: &Value) {
    let mut meta = stateless_meta();
    meta["io.modelcontextprotocol/clientCapabilities"] = json!({ "extensions": { EXTENSION: {} } });
    client.send(&json!({
        "jsonrpc": "2.0", "id": id, "method": "subscriptions/listen",
        "params": { "_meta": meta, "notifications": { "taskIds": task_ids } },
    }));
}

/// The `notifications/tasks` of `task_id` on the listen stream `subscription`, waiting for
/// them up to a terminal one.
fn task_notifications(client: &mut StdioClient, subscription: &str, task_id: &str) -> Vec<Value> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let found: Vec<Value> = client
            .transcript
            .iter()
            .filter(|message| {
                message["method"] == "notifications/tasks"
                    && message["params"]["taskId"] == task_id
                    && message["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"]
                        == subscription
            })
            .cloned()
            .collect();
        if found
            .last()
            .is_some_and(|last| terminal(last["params"]["status"].as_str().unwrap_or_default()))
        {
            for notification in &found {
                check_flat_task(&notification["params"]);
            }
            return found;
        }
        assert!(
            Instant::now() < deadline,
            "no terminal notification of {task_id} on {subscription} within 20 s; received: {:#?}",
            client.transcript
        );
        client.try_receive(Duration::from_millis(100));
    }
}

/// The acknowledgement of the listen request `subscription`.
fn acknowledgement(client: &mut StdioClient, subscription: &str) -> Value {
    wait_for(client, "the acknowledgement", |message| {
        message["method"] == "notifications/subscriptions/acknowledged"
            && message["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == subscription
    })
}

/// A notification's task and `tasks/get`'s, without what only one of them carries (the
/// subscription id; the result's type and the server's identity).
fn same_task(notification: &Value, got: &Value) {
    let mut notified = notification["params"].clone();
    notified.as_object_mut().unwrap().remove("_meta");
    let mut got = got.clone();
    let members = got.as_object_mut().unwrap();
    members.remove("resultType");
    members.remove("_meta");
    assert_eq!(notified, got);
}

#[test]
fn modern_listen_streams_carry_the_status_of_the_tasks_named() {
    let mut client = server(&["--max-message-size", "100000"]);
    client.check_against("2026-07-28");
    let created = modern_request(
        &mut client,
        "tools/call",
        json!({ "name": "report", "arguments": { "quarter": "Q3", "steps": 3, "step_ms": 200 } }),
    );
    let report = modern_task_id(&created);
    let created = modern_request(
        &mut client,
        "tools/call",
        json!({ "name": "large", "arguments": { "bytes": 200_000 } }),
    );
    let large = modern_task_id(&created);

    let unknown = "feedfacefeedfacefeedfacefeedface";
    listen_for_tasks(
        &mut client,
        "tasks",
        &json!([report, large, unknown, report]),
    );
    let acknowledged = acknowledgement(&mut client, "tasks");
    assert_eq!(
        acknowledged["params"]["notifications"],
        json!({ "taskIds": [report, large] }),
        "{acknowledged}"
    );

    // The state after the acknowledgement, then each change of status, up to the end.
    let notifications = task_notifications(&mut client, "tasks", &report);
    let statuses: Vec<&str> = notifications
        .iter()
        .map(|notification| notification["params"]["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["working", "completed"], "{notifications:#?}");
    let completed = notifications.last().unwrap();
    assert_eq!(
        completed["params"]["result"]["structuredContent"]["quarter"], "Q3",
        "{completed}"
    );
    let got = poll_until(&mut client, true, &report, terminal);
    same_task(completed, &got);

    let notifications = task_notifications(&mut client, "tasks", &large);
    let failed = notifications.last().unwrap();
    assert_eq!(failed["params"]["status"], "failed", "{failed}");
    assert_eq!(failed["params"]["error"]["code"], -32603, "{failed}");
    assert!(
        failed["params"]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("message limit"),
        "{failed}"
    );
    let got = poll_until(&mut client, true, &large, terminal);
    same_task(failed, &got);

    // A task id named again and again is agreed once, and a finished task is told as it
    // ended, once.
    listen_for_tasks(&mut client, "again", &json!(vec![report.clone(); 100]));
    let acknowledged = acknowledgement(&mut client, "again");
    assert_eq!(
        acknowledged["params"]["notifications"],
        json!({ "taskIds": [report] }),
        "{acknowledged}"
    );
    let notifications = task_notifications(&mut client, "again", &report);
    assert_eq!(notifications.len(), 1, "{notifications:#?}");
    same_task(&notifications[0], &got_task(&mut client, &report));

    // Nothing about the finished tasks follows, and the report's progress and log lines
    // never go on a listen stream.
    while client.try_receive(Duration::from_millis(500)).is_some() {}
    let on_streams: Vec<&Value> = client
        .transcript
        .iter()
        .filter(|message| {
            message["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"].is_string()
                && message["method"] != "notifications/subscriptions/acknowledged"
        })
        .collect();
    assert!(
        on_streams
            .iter()
            .all(|message| message["method"] == "notifications/tasks"),
        "{on_streams:#?}"
    );
    let of_report = |subscription: &str| {
        on_streams
            .iter()
            .filter(|message| {
                message["params"]["taskId"] == report.as_str()
                    && message["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"]
                        == subscription
            })
            .count()
    };
    assert_eq!((of_report("tasks"), of_report("again")), (2, 1));
}

/// `tasks/get` of a 2026-07-28 task.
fn got_task(client: &mut StdioClient, task_id: &str) -> Value {
    let got = modern_request(client, "tasks/get", json!({ "taskId": task_id }));
    check_detailed_task(&got["result"]);
    got["result"].clone()
}

#[test]
fn modern_listen_requests_for_tasks_are_checked() {
    let mut client = server(&[]);
    client.check_against("2026-07-28");
    let created = modern_request(
        &mut client,
        "tools/call",
        json!({ "name": "build", "arguments": { "ms": 60_000 } }),
    );
    let id = modern_task_id(&created);

    // Without the extension: -32021, as for `tasks/get`.
    let undeclared = client.request(
        "subscriptions/listen",
        json!({ "_meta": stateless_meta(), "notifications": { "taskIds": [id] } }),
    );
    assert_error(
        &undeclared,
        -32021,
        "`subscriptions/listen` asks for `taskIds`",
    );
    assert_eq!(
        undeclared["error"]["data"],
        json!({ "requiredCapabilities": { "extensions": { EXTENSION: {} } } }),
        "{undeclared}"
    );

    // At most the per-client limit of unfinished tasks (64 by default) in one request.
    let too_many: Vec<String> = (0..65).map(|n| format!("{id}-{n}")).collect();
    let refused = modern_request(
        &mut client,
        "subscriptions/listen",
        json!({ "notifications": { "taskIds": too_many } }),
    );
    assert_error(&refused, -32602, "at most 64");
    let not_ids = modern_request(
        &mut client,
        "subscriptions/listen",
        json!({ "notifications": { "taskIds": [id, 7] } }),
    );
    assert_error(&not_ids, -32602, "array of task ids");

    // 64 are fine; only the one that exists is agreed to, and its cancellation is heard.
    let mut many: Vec<String> = (1..64).map(|n| format!("{id}-{n}")).collect();
    many.push(id.clone());
    listen_for_tasks(&mut client, "many", &json!(many));
    let acknowledged = acknowledgement(&mut client, "many");
    assert_eq!(
        acknowledged["params"]["notifications"],
        json!({ "taskIds": [id] }),
        "{acknowledged}"
    );
    wait_for(&mut client, "the task working", |message| {
        message["method"] == "notifications/tasks" && message["params"]["status"] == "working"
    });
    let cancelled = modern_request(&mut client, "tasks/cancel", json!({ "taskId": id }));
    assert_eq!(cancelled["result"]["resultType"], "complete", "{cancelled}");
    let notifications = task_notifications(&mut client, "many", &id);
    let statuses: Vec<&str> = notifications
        .iter()
        .map(|notification| notification["params"]["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["working", "cancelled"], "{notifications:#?}");
    same_task(notifications.last().unwrap(), &got_task(&mut client, &id));

    // The stream ends with its result when the input does.
    client.close_stdin();
    let ended = wait_for(&mut client, "the listen result", |message| {
        message["id"] == "many"
    });
    assert_eq!(
        ended["result"]["_meta"]["io.modelcontextprotocol/subscriptionId"], "many",
        "{ended}"
    );
}
