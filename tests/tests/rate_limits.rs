//! Rate limits over stdio: a tool's own (`rate = "3/h"` on the fixture's `rationed`) and the
//! server's (`--rate-limit`), refusing or waiting. Quotas are per hour or generous, so the
//! bursts below pass or fail the same way on any machine; nothing measures time.

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

#[test]
fn in_wait_mode_calls_over_the_limit_wait_their_turn() {
    // 40 calls at 20/s: 20 at once, the rest spread over about a second.
    let mut client = fixture(&["--rate-limit", "20/s", "--rate-limit-wait"]);
    let results = burst(&mut client, "echo", json!({ "text": "hi" }), 40);
    assert!(refused(&results).is_empty(), "{results:?}");
    assert!(results.iter().all(|result| first_text(result) == "hi"));
}
