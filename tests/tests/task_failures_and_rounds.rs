//! 2026-07-28 tasks (the `io.modelcontextprotocol/tasks` extension) at two edges, over
//! stdio with every message checked against the revision's schema: a panicking tool ends its
//! task `failed` with a JSON-RPC error (the extension keeps `failed` for the server's own
//! failures), and a tool with `input_before_task` asks in `input_required` rounds before the
//! call becomes a task (SEP-2322 input, then SEP-2663), then through the task.

use mcp_tests::StdioClient;
use mcp_tests::tasks::{modern_request as request, poll_until, terminal};
use serde_json::{Value, json};

fn server() -> StdioClient {
    let mut client = StdioClient::spawn(env!("CARGO_BIN_EXE_tasks"), &[]);
    client.check_against("2026-07-28");
    client
}

#[test]
fn a_panicking_task_fails_with_an_internal_error_and_no_result() {
    let mut client = server();
    let created = request(
        &mut client,
        "tools/call",
        json!({ "name": "panics", "arguments": {} }),
    );
    assert_eq!(created["result"]["resultType"], "task", "{created}");
    let id = created["result"]["taskId"].as_str().unwrap().to_owned();
    let done = poll_until(&mut client, true, &id, terminal);
    assert_eq!(done["status"], "failed", "{done}");
    assert_eq!(done["error"]["code"], -32603, "{done}");
    assert_eq!(
        done["error"]["message"], "Tool `panics` failed: it panicked.",
        "{done}"
    );
    assert!(done.get("result").is_none(), "{done}");

    // A plain call of the same tool stays an `isError` result the model can read.
    let plain =
        client.stateless_request("tools/call", json!({ "name": "panics", "arguments": {} }));
    assert_eq!(plain["result"]["isError"], true, "{plain}");
    // The server goes on answering.
    let echo = client.stateless_request(
        "tools/call",
        json!({ "name": "echo", "arguments": { "text": "on" } }),
    );
    assert_eq!(echo["result"]["content"][0]["text"], "on", "{echo}");
}

#[test]
fn input_before_task_asks_in_rounds_then_in_the_task() {
    let mut client = server();
    let call = |answers: Value, state: Option<&Value>| {
        let mut params = json!({ "name": "greet_later", "arguments": { "ms": 50 } });
        if !answers.is_null() {
            params["inputResponses"] = answers;
        }
        if let Some(state) = state {
            params["requestState"] = state.clone();
        }
        params
    };

    // Round 1: the name is asked of the call itself; no task is made yet.
    let first = request(&mut client, "tools/call", call(Value::Null, None));
    let round = &first["result"];
    assert_eq!(round["resultType"], "input_required", "{first}");
    assert!(round.get("taskId").is_none(), "{first}");
    let asked = round["inputRequests"].as_object().unwrap();
    assert_eq!(asked.keys().collect::<Vec<_>>(), ["name"], "{first}");
    assert_eq!(asked["name"]["method"], "elicitation/create", "{first}");

    // Round 2: with the name, the tool goes on to wait for other things: the call becomes
    // a task, and carries nothing of the rounds.
    let answers = json!({ "name": { "action": "accept", "content": { "name": "Ada" } } });
    let second = request(
        &mut client,
        "tools/call",
        call(answers, Some(&round["requestState"])),
    );
    let task = &second["result"];
    assert_eq!(task["resultType"], "task", "{second}");
    for absent in ["requestState", "inputRequests", "result"] {
        assert!(task.get(absent).is_none(), "{absent}: {second}");
    }
    let id = task["taskId"].as_str().unwrap().to_owned();

    // What the tool asks from now on, it asks through the task.
    let waiting = poll_until(&mut client, true, &id, |status| status != "working");
    assert_eq!(waiting["status"], "input_required", "{waiting}");
    let asked = waiting["inputRequests"].as_object().unwrap();
    assert_eq!(asked.keys().collect::<Vec<_>>(), ["confirm"], "{waiting}");
    let updated = request(
        &mut client,
        "tasks/update",
        json!({ "taskId": id, "inputResponses": { "confirm": { "action": "accept", "content": { "confirm": true } } } }),
    );
    assert_eq!(updated["result"]["resultType"], "complete", "{updated}");
    let done = poll_until(&mut client, true, &id, terminal);
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(
        done["result"]["content"][0]["text"], "Hello, Ada!",
        "{done}"
    );
}

#[test]
fn input_before_task_without_the_extension_is_refused_as_any_required_task() {
    let mut client = server();
    let refused = client.stateless_request(
        "tools/call",
        json!({ "name": "greet_later", "arguments": { "ms": 1 } }),
    );
    assert_eq!(refused["error"]["code"], -32021, "{refused}");
}

#[test]
fn input_before_task_does_nothing_in_the_handshake_era() {
    // 2025-11-25 has no input rounds: the client asks for the task, which asks over the
    // connection as every task of that revision does.
    let mut client = StdioClient::spawn(env!("CARGO_BIN_EXE_tasks"), &[]);
    client.check_against("2025-11-25");
    client.initialize_with("2025-11-25", json!({ "elicitation": {} }));
    let created = client.request(
        "tools/call",
        json!({ "name": "greet_later", "arguments": { "ms": 1 }, "task": {} }),
    );
    assert!(created["result"]["task"]["taskId"].is_string(), "{created}");
}
