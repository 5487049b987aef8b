//! Protocol behaviour over stdio beyond bad input (which `bad_input.rs` tries
//! systematically): panics, stray prints, version negotiation, pagination, concurrency,
//! cancellation, end of input, and servers that refuse to start.

use std::time::Duration;

use mcp_tests::{StdioClient, first_text};
use serde_json::{Value, json};

fn fixture(args: &[&str]) -> StdioClient {
    StdioClient::spawn(env!("CARGO_BIN_EXE_fixture"), args)
}

fn still_serving(client: &mut StdioClient) {
    let response = client.request("ping", Value::Null);
    assert_eq!(
        response["result"],
        json!({}),
        "the server stopped answering: {response}"
    );
}

#[test]
fn panics_become_tool_errors_without_details() {
    let mut client = fixture(&[]);
    client.initialize("2025-11-25");
    for tool in ["panics", "panics_blocking"] {
        let response = client.request("tools/call", json!({"name": tool}));
        assert_eq!(response["result"]["isError"], true, "{response}");
        assert!(
            !first_text(&response["result"]).contains("secret"),
            "{response}"
        );
        still_serving(&mut client);
    }
}

#[test]
fn prints_in_tools_never_reach_the_protocol_stream() {
    let mut client = fixture(&[]);
    client.initialize("2025-11-25");
    let response = client.request("tools/call", json!({"name": "prints"}));
    assert_eq!(first_text(&response["result"]), "printed");
    still_serving(&mut client);
    assert!(
        client.try_receive(Duration::from_millis(200)).is_none(),
        "{:?}",
        client.transcript
    );
}

#[test]
fn initialize_negotiates_versions() {
    for (requested, answered) in [
        ("2024-11-05", "2024-11-05"),
        ("2025-03-26", "2025-03-26"),
        ("2025-06-18", "2025-06-18"),
        ("2025-11-25", "2025-11-25"),
        ("1900-01-01", "2025-11-25"),
        ("2026-07-28", "2025-11-25"),
    ] {
        let mut client = fixture(&[]);
        let response = client.request(
            "initialize",
            json!({"protocolVersion": requested, "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}),
        );
        assert_eq!(
            response["result"]["protocolVersion"], answered,
            "{requested}"
        );
    }
}

#[test]
fn pagination_follows_cursors() {
    let mut client = fixture(&["--page-size", "3"]);
    client.initialize("2025-11-25");
    let mut names = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let params = match &cursor {
            Some(cursor) => json!({"cursor": cursor}),
            None => json!({}),
        };
        let page = client.request("tools/list", params)["result"].clone();
        let tools = page["tools"].as_array().unwrap();
        assert!(tools.len() <= 3);
        names.extend(
            tools
                .iter()
                .map(|tool| tool["name"].as_str().unwrap().to_owned()),
        );
        match page.get("nextCursor").and_then(Value::as_str) {
            Some(next) => cursor = Some(next.to_owned()),
            None => break,
        }
    }
    let mut sorted = names.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(names, sorted, "each tool once, in name order");
    assert!(names.len() > 6);
}

#[test]
fn slow_calls_do_not_hold_up_others() {
    let mut client = fixture(&[]);
    client.initialize("2025-11-25");
    client.send(&json!({"jsonrpc": "2.0", "id": "slow", "method": "tools/call", "params": {"name": "sleep", "arguments": {"ms": 1500}}}));
    client.send(&json!({"jsonrpc": "2.0", "id": "blocking", "method": "tools/call", "params": {"name": "block", "arguments": {"ms": 1000}}}));
    client.send(&json!({"jsonrpc": "2.0", "id": "fast", "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "quick"}}}));
    let order: Vec<Value> = (0..3).map(|_| client.receive()["id"].clone()).collect();
    assert_eq!(order, [json!("fast"), json!("blocking"), json!("slow")]);
}

#[test]
fn cancelled_calls_get_no_response() {
    let mut client = fixture(&[]);
    client.initialize("2025-11-25");
    client.send(&json!({"jsonrpc": "2.0", "id": 50, "method": "tools/call", "params": {"name": "sleep", "arguments": {"ms": 500}}}));
    client.send(&json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 50, "reason": "changed my mind"}}));
    still_serving(&mut client);
    assert!(
        client.try_receive(Duration::from_millis(900)).is_none(),
        "{:?}",
        client.transcript
    );
}

#[test]
fn end_of_input_finishes_calls_in_flight_then_exits_cleanly() {
    let mut client = fixture(&[]);
    client.initialize("2025-11-25");
    client.send(&json!({"jsonrpc": "2.0", "id": "last", "method": "tools/call", "params": {"name": "sleep", "arguments": {"ms": 300}}}));
    client.close_stdin();
    let response = client.receive();
    assert_eq!(response["id"], "last");
    assert_eq!(first_text(&response["result"]), "slept 300 ms");
    let status = client
        .wait_for_exit(Duration::from_secs(10))
        .expect("the server exits");
    assert!(status.success(), "{status}");
}

#[test]
fn duplicate_tool_names_refuse_to_start_naming_both() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_duplicate_names"))
        .stdin(std::process::Stdio::null())
        .output()
        .expect("runs");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("`add`"), "{stderr}");
    assert!(stderr.contains("duplicate_names.rs:"), "{stderr}");
    assert!(stderr.contains("lib.rs:"), "{stderr}");
}

/// The stderr of a server binary that must refuse to start.
fn refusal(program: &str) -> String {
    let output = std::process::Command::new(program)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("runs");
    assert!(!output.status.success());
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn duplicate_resource_uris_and_prompt_names_refuse_to_start_naming_both() {
    let stderr = refusal(env!("CARGO_BIN_EXE_duplicate_resources"));
    assert!(
        stderr.contains("two resources have the URI `docs://readme`"),
        "{stderr}"
    );
    assert!(stderr.contains("duplicate_resources.rs:"), "{stderr}");
    assert!(stderr.contains("lib.rs:"), "{stderr}");

    let stderr = refusal(env!("CARGO_BIN_EXE_duplicate_prompts"));
    assert!(stderr.contains("two prompts are named `greet`"), "{stderr}");
    assert!(stderr.contains("duplicate_prompts.rs:"), "{stderr}");
    assert!(stderr.contains("lib.rs:"), "{stderr}");
}

#[test]
fn a_resource_whose_state_is_unregistered_refuses_to_start() {
    let stderr = refusal(env!("CARGO_BIN_EXE_unservable_resource"));
    assert!(stderr.contains("resource `db://size`"), "{stderr}");
    assert!(stderr.contains("parameter `db`"), "{stderr}");
    assert!(stderr.contains("Database"), "{stderr}");
}

#[test]
fn unregistered_state_refuses_to_start_naming_tool_and_type() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_missing_state"))
        .stdin(std::process::Stdio::null())
        .output()
        .expect("runs");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("tool `lookup`"), "{stderr}");
    assert!(
        stderr.contains("State<missing_state::Database>"),
        "{stderr}"
    );
    assert!(stderr.contains(".state(value)"), "{stderr}");
}

#[test]
fn schemars_constraints_are_published_and_enforced() {
    let mut client = fixture(&[]);
    client.initialize("2025-11-25");
    let tools = client.request("tools/list", json!({}))["result"]["tools"].clone();
    let tool = tools
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "constrained")
        .unwrap();
    let order = &tool["inputSchema"]["properties"]["order"]["properties"];
    assert_eq!(
        (
            order["quantity"]["minimum"].as_f64(),
            order["quantity"]["maximum"].as_f64()
        ),
        (Some(1.0), Some(10.0))
    );
    assert_eq!(
        (
            order["code"]["minLength"].as_u64(),
            order["code"]["maxLength"].as_u64()
        ),
        (Some(1), Some(5))
    );
    assert_eq!(order["tag"]["pattern"], "^[a-z]+$");

    let ok = client.request("tools/call", json!({"name": "constrained", "arguments": {"order": {"quantity": 3, "code": "ab", "tag": "x"}}}));
    assert_eq!(first_text(&ok["result"]), "3 x ab (x)");
    let refused = client.request(
        "tools/call",
        json!({"name": "constrained", "arguments": {"order": {"quantity": 11, "code": "toolong", "tag": "UPPER"}}}),
    );
    assert_eq!(refused["result"]["isError"], true);
    let text = first_text(&refused["result"]);
    for field in ["`order.quantity`", "`order.code`", "`order.tag`"] {
        assert!(text.contains(field), "{field} not named in {text}");
    }
}
