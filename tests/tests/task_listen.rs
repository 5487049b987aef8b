//! 2026-07-28 task status notifications over stdio: `subscriptions/listen` naming
//! `taskIds` (the `io.modelcontextprotocol/tasks` extension), every message checked against
//! the revision's schema and the extension's task shapes.

use std::time::{Duration, Instant};

use mcp_tests::tasks::{
    EXTENSION, assert_error, check_detailed_task, check_flat_task, modern_request, poll_until,
    start_modern_task, terminal, wait_for,
};
use mcp_tests::{StdioClient, stateless_meta};
use serde_json::{Value, json};

fn server(args: &[&str]) -> StdioClient {
    StdioClient::spawn(env!("CARGO_BIN_EXE_tasks"), args)
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
    let report = start_modern_task(
        &mut client,
        "report",
        json!({ "quarter": "Q3", "steps": 3, "step_ms": 200 }),
    );
    let large = start_modern_task(&mut client, "large", json!({ "bytes": 200_000 }));

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
    let id = start_modern_task(&mut client, "build", json!({ "ms": 60_000 }));

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
