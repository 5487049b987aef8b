//! Rate limits over stdio: a tool's own (`rate = "3/h"` on the fixture's `rationed`, and
//! `DynamicTool::rate` on `rationed_dynamic`) and the server's (`--rate-limit`), refusing or
//! waiting. Quotas are per hour or generous, so the bursts below pass or fail the same way on
//! any machine; nothing measures time.

use std::collections::HashMap;

use mcp_tests::{StdioClient, first_text};
use serde_json::{Value, json};

fn fixture(args: &[&str]) -> StdioClient {
    let mut client = StdioClient::spawn(env!("CARGO_BIN_EXE_fixture"), args);
    client.initialize("2025-11-25");
    client
}

/// Sends `calls` calls of `tool` at once, then returns their results in request order.
fn burst(client: &mut StdioClient, tool: &str, arguments: Value, calls: usize) -> Vec<Value> {
    let ids: Vec<i64> = (0..calls)
        .map(|_| {
            let id = client.next_id();
            client.send(&json!({
                "jsonrpc": "2.0",
                "id": id,
                "method": "tools/call",
                "params": { "name": tool, "arguments": arguments },
            }));
            id
        })
        .collect();
    // Responses come in any order.
    let mut results: HashMap<i64, Value> = HashMap::new();
    while results.len() < calls {
        let response = client.receive();
        let Some(id) = response["id"].as_i64().filter(|id| ids.contains(id)) else {
            continue;
        };
        assert!(response["error"].is_null(), "not a tool result: {response}");
        assert!(
            results.insert(id, response["result"].clone()).is_none(),
            "{id} answered twice"
        );
    }
    ids.iter()
        .map(|id| results.remove(id).expect("answered"))
        .collect()
}

/// The seconds of a refusal's "Retry in N s.", checked to be the message's end.
fn retry_seconds(text: &str) -> u64 {
    let (_, wait) = text.rsplit_once("Retry in ").expect("says when to retry");
    wait.strip_suffix(" s.")
        .and_then(|seconds| seconds.parse().ok())
        .unwrap_or_else(|| panic!("not a wait in seconds: {text}"))
}

fn refused(results: &[Value]) -> Vec<&Value> {
    results
        .iter()
        .filter(|result| result["isError"] == json!(true))
        .collect()
}

#[test]
fn a_tools_own_limit_refuses_the_excess_saying_when_to_retry() {
    let mut client = fixture(&[]);
    let results = burst(&mut client, "rationed", json!({}), 5);
    let refusals = refused(&results);
    assert_eq!(refusals.len(), 2, "3 of 5 pass a 3/h limit: {results:?}");
    for refusal in refusals {
        let text = first_text(refusal);
        assert!(
            text.starts_with("Tool `rationed` is rate-limited to 3 calls per hour; this call was refused. Retry in "),
            "{text}"
        );
        // One call every 20 minutes: the next is due at most that long after the burst.
        let wait = retry_seconds(text);
        assert!((1..=1200).contains(&wait), "{text}");
    }
    let granted = results
        .iter()
        .filter(|result| first_text(result) == "granted")
        .count();
    assert_eq!(granted, 3);
    // Other tools are not limited by it.
    let echoed = burst(&mut client, "echo", json!({ "text": "hi" }), 10);
    assert!(refused(&echoed).is_empty(), "{echoed:?}");
}

#[test]
fn a_dynamic_tools_limit_refuses_the_excess() {
    let mut client = fixture(&[]);
    let results = burst(&mut client, "rationed_dynamic", json!({}), 4);
    assert_eq!(
        results
            .iter()
            .filter(|result| first_text(result) == "granted")
            .count(),
        2,
        "2 of 4 pass a 2/h limit: {results:?}"
    );
    for refusal in refused(&results) {
        let text = first_text(refusal);
        assert!(
            text.starts_with("Tool `rationed_dynamic` is rate-limited to 2 calls per hour; this call was refused. Retry in "),
            "{text}"
        );
        let wait = retry_seconds(text);
        assert!((1..=1800).contains(&wait), "{text}");
    }
}

#[test]
fn calls_with_invalid_arguments_count_against_no_limit() {
    let mut client = fixture(&["--rate-limit", "2/h"]);
    let invalid = burst(&mut client, "echo", json!({ "text": 5 }), 5);
    for result in &invalid {
        assert!(
            first_text(result).starts_with("Invalid arguments for tool `echo`"),
            "{result}"
        );
    }
    let valid = burst(&mut client, "echo", json!({ "text": "hi" }), 2);
    assert!(refused(&valid).is_empty(), "{valid:?}");
}

#[test]
fn the_server_limit_counts_every_tool_together() {
    let mut client = fixture(&["--rate-limit", "4/h"]);
    let mut results = burst(&mut client, "echo", json!({ "text": "hi" }), 3);
    results.extend(burst(&mut client, "unit", json!({}), 3));
    let refusals = refused(&results);
    assert_eq!(refusals.len(), 2, "4 of 6 pass a 4/h limit: {results:?}");
    for refusal in refusals {
        let text = first_text(refusal);
        assert!(
            text.starts_with("The server is rate-limited to 4 calls per hour across all tools; this call to `unit` was refused. Retry in "),
            "{text}"
        );
    }
    // A refused call is still a served request: the connection goes on.
    assert_eq!(client.request("ping", Value::Null)["result"], json!({}));
}

fn call(client: &mut StdioClient, id: i64, tool: &str) {
    client.send(&json!({
        "jsonrpc": "2.0",
        "id": id,
        "method": "tools/call",
        "params": { "name": tool, "arguments": {} },
    }));
}

/// Three `rationed` calls answered, and a fourth that waits (for 20 minutes); returns its id.
fn fourth_call_waiting(client: &mut StdioClient) -> i64 {
    let granted = burst(client, "rationed", json!({}), 3);
    assert!(granted.iter().all(|result| first_text(result) == "granted"));
    let waiting = client.next_id();
    call(client, waiting, "rationed");
    // Served after it: the waiting call holds up nothing.
    assert_eq!(client.request("ping", Value::Null)["result"], json!({}));
    let echoed = burst(client, "echo", json!({ "text": "meanwhile" }), 1);
    assert_eq!(first_text(&echoed[0]), "meanwhile");
    waiting
}

#[test]
fn in_wait_mode_a_waiting_call_can_be_cancelled_and_is_never_answered() {
    let mut client = fixture(&["--rate-limit-wait"]);
    let waiting = fourth_call_waiting(&mut client);
    client.send(&json!({
        "jsonrpc": "2.0",
        "method": "notifications/cancelled",
        "params": { "requestId": waiting, "reason": "no time" },
    }));
    assert_eq!(client.request("ping", Value::Null)["result"], json!({}));
    // Nothing is in flight any more: end of input ends the server at once, with not a
    // single message more (an answer to the cancelled call would fail this).
    client.close_stdin();
    assert!(client.stdout_closed_within(std::time::Duration::from_secs(30)));
    assert!(
        client
            .transcript
            .iter()
            .all(|message| message["id"] != json!(waiting)),
        "the cancelled call was answered"
    );
}

#[test]
fn in_wait_mode_a_call_still_waiting_at_shutdown_gets_an_error() {
    let mut client = fixture(&["--rate-limit-wait", "--shutdown-grace-ms", "100"]);
    let waiting = fourth_call_waiting(&mut client);
    client.close_stdin();
    let response = client.response_to(&json!(waiting));
    assert_eq!(
        response["error"],
        json!({
            "code": -32603,
            "message": "Internal error: the server shut down before the call finished.",
        }),
        "{response}"
    );
}

#[test]
fn in_wait_mode_calls_over_the_limit_wait_their_turn() {
    // 40 calls at 20/s: 20 at once, the rest spread over about a second.
    let mut client = fixture(&["--rate-limit", "20/s", "--rate-limit-wait"]);
    let results = burst(&mut client, "echo", json!({ "text": "hi" }), 40);
    assert!(refused(&results).is_empty(), "{results:?}");
    assert!(results.iter().all(|result| first_text(result) == "hi"));
}
