//! Tasks over stdio, in both eras: 2025-11-25 (core, every message checked against its
//! schema) and 2026-07-28 (the `io.modelcontextprotocol/tasks` extension, its shapes checked
//! as the extension's own schemas state them). Every error case, ttl expiry, the per-client
//! limit, cancel while working, input asked inside a task, a result over the message limit,
//! and shutdown with a task still running.
//!
//! Ownership between two clients needs two clients of one server: `http-tests/tests/tasks.rs`.

use std::time::Duration;

use mcp_tests::tasks::{
    EXTENSION, assert_error, check_flat_task, error_code, modern_request, poll_until,
    start_modern_task, terminal, wait_for,
};
use mcp_tests::{StdioClient, stateless_meta};
use serde_json::{Value, json};
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

/// The id of the task a 2025-11-25 call was answered with.
fn legacy_task_id(created: &Value) -> String {
    created["result"]["task"]["taskId"]
        .as_str()
        .unwrap_or_else(|| panic!("not a task: {created}"))
        .to_owned()
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
    let id = start_modern_task(&mut client, "fails", json!({}));
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
    let id = start_modern_task(&mut client, "confirm", json!({ "action": "deploy" }));
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
    let id = start_modern_task(&mut client, "build", json!({ "ms": 60_000 }));
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
