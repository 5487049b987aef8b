//! JSON-RPC error handling over stdio: every bad input gets the right error, and the
//! server answers the next request.

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
fn malformed_messages_get_json_rpc_errors() {
    let mut client = fixture(&[]);
    client.initialize("2025-11-25");
    for (input, code) in [
        (&b"{not json\n"[..], -32700),
        (b"\xff\xfe\n", -32700),
        (b"{\"jsonrpc\":\"2.0\",\"id\":1\n", -32700),
        (b"42\n", -32600),
        (b"null\n", -32600),
        (
            b"{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}\n",
            -32600,
        ),
        (
            b"{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}\n",
            -32600,
        ),
        (
            b"{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}\n",
            -32600,
        ),
        (
            b"[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]\n",
            -32600,
        ),
    ] {
        client.send_raw(input);
        let response = client.receive();
        assert_eq!(
            response["error"]["code"],
            code,
            "{}: {response}",
            String::from_utf8_lossy(input)
        );
        still_serving(&mut client);
    }
}

#[test]
fn unreadable_ids_are_null_before_2025_11_25() {
    let mut client = fixture(&[]);
    client.initialize("2025-06-18");
    client.send_raw(b"{oops\n");
    let response = client.receive();
    assert_eq!(response["id"], Value::Null, "{response}");
    assert_eq!(response["error"]["code"], -32700);

    let mut client = fixture(&[]);
    client.initialize("2025-11-25");
    client.send_raw(b"{oops\n");
    let response = client.receive();
    assert!(response.get("id").is_none(), "{response}");
}

#[test]
fn unknown_methods_echo_the_id_with_its_type() {
    let mut client = fixture(&[]);
    client.initialize("2025-11-25");
    client.send(&json!({"jsonrpc": "2.0", "id": "abc", "method": "no/such/method"}));
    let response = client.receive();
    assert_eq!(response["id"], "abc");
    assert_eq!(response["error"]["code"], -32601);
    client.send(&json!({"jsonrpc": "2.0", "id": 9007199254740993_u64, "method": "no/such/method"}));
    assert_eq!(client.receive()["id"], json!(9007199254740993_u64));
}

#[test]
fn notifications_are_never_answered() {
    let mut client = fixture(&[]);
    client.initialize("2025-11-25");
    client.send(&json!({"jsonrpc": "2.0", "method": "notifications/unknown"}));
    client.send(&json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 999}}));
    client.send(&json!({"jsonrpc": "2.0", "method": "tools/list"}));
    client.send(&json!({"jsonrpc": "2.0", "id": 77, "result": {}}));
    client.send_raw(b"\n   \n");
    let ping = client.request("ping", Value::Null);
    assert_eq!(ping["id"], json!(client.next_id() - 1));
    assert_eq!(client.transcript.len(), 2, "{:?}", client.transcript);
}

#[test]
fn tools_call_errors() {
    let mut client = fixture(&[]);
    client.initialize("2025-11-25");
    for (params, code) in [
        (json!({}), -32602),
        (json!({"name": 5}), -32602),
        (json!({"name": "echo", "arguments": [1]}), -32602),
        (json!({"name": "nope"}), -32602),
    ] {
        let response = client.request("tools/call", params.clone());
        assert_eq!(response["error"]["code"], code, "{params}: {response}");
    }
    let response = client.request("tools/call", json!(["not", "an", "object"]));
    assert_eq!(response["error"]["code"], -32602, "{response}");
}

#[test]
fn invalid_arguments_are_tool_errors_naming_the_field() {
    let mut client = fixture(&[]);
    client.initialize("2025-11-25");
    for (arguments, mentions) in [
        (json!({}), "text"),
        (json!({"text": 1}), "`text`"),
        (json!({"text": "a", "extra": true}), "extra"),
    ] {
        let response = client.request(
            "tools/call",
            json!({"name": "echo", "arguments": arguments}),
        );
        let result = &response["result"];
        assert_eq!(result["isError"], true, "{response}");
        assert!(
            first_text(result).contains(mentions),
            "{mentions}: {response}"
        );
    }
    let response = client.request(
        "tools/call",
        json!({"name": "rich", "arguments": {"small": 300, "colour": "purple", "points": [{"x": "a", "y": 1}], "counts": {}}}),
    );
    let text = first_text(&response["result"]).to_owned();
    for mention in ["`small`", "`colour`", "`points.0.x`"] {
        assert!(text.contains(mention), "{mention} not in {text}");
    }
    let response = client.request(
        "tools/call",
        json!({"name": "rich", "arguments": {"small": 1, "colour": "red", "points": [], "counts": {}, "note": null}}),
    );
    assert_eq!(
        response["result"]["isError"],
        Value::Null,
        "null for an optional argument means absent: {response}"
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
fn requests_before_initialize() {
    let mut client = fixture(&[]);
    assert_eq!(client.request("ping", Value::Null)["result"], json!({}));
    let early = client.request("tools/list", json!({}));
    assert_eq!(early["error"]["code"], -32602, "{early}");
    assert!(
        early["error"]["message"]
            .as_str()
            .unwrap()
            .contains("initialize")
    );
}

#[test]
fn batches_only_in_2025_03_26() {
    let mut client = fixture(&[]);
    client.initialize("2025-03-26");
    client.send(&json!([
        {"jsonrpc": "2.0", "id": "a", "method": "ping"},
        {"jsonrpc": "2.0", "method": "notifications/whatever"},
        {"jsonrpc": "2.0", "id": "b", "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "in a batch"}}},
        {"jsonrpc": "2.0", "id": "c", "method": "initialize", "params": {"protocolVersion": "2025-03-26"}},
    ]));
    let batch = client.receive();
    let responses = batch
        .as_array()
        .unwrap_or_else(|| panic!("not an array: {batch}"));
    assert_eq!(responses.len(), 3, "{batch}");
    assert_eq!(responses[0]["result"], json!({}));
    assert_eq!(first_text(&responses[1]["result"]), "in a batch");
    assert_eq!(responses[2]["error"]["code"], -32600);

    let mut client = fixture(&[]);
    client.initialize("2025-06-18");
    client.send(&json!([{"jsonrpc": "2.0", "id": 1, "method": "ping"}]));
    assert_eq!(client.receive()["error"]["code"], -32600);
}

#[test]
fn pagination_follows_cursors_and_rejects_bad_ones() {
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

    let bad = client.request("tools/list", json!({"cursor": "garbage"}));
    assert_eq!(bad["error"]["code"], -32602);
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
fn oversized_messages_are_refused_and_skipped() {
    let mut client = fixture(&[]);
    client.initialize("2025-11-25");
    let mut huge = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":""#.to_vec();
    huge.extend(std::iter::repeat_n(b'x', 9 * 1024 * 1024));
    huge.extend_from_slice(b"\"}}}\n");
    client.send_raw(&huge);
    let response = client.receive();
    assert_eq!(response["error"]["code"], -32600, "{response}");
    still_serving(&mut client);
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

#[test]
fn deeply_nested_messages_are_refused_clearly() {
    let mut client = fixture(&[]);
    client.initialize("2025-11-25");
    // 10,000 levels inside the arguments: refused before anything is built from it.
    let deep = format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{{\"name\":\"echo\",\"arguments\":{{\"text\":{}{}}}}}}}\n",
        "[".repeat(10_000),
        "]".repeat(10_000)
    );
    client.send_raw(deep.as_bytes());
    let response = client.receive();
    assert_eq!(response["error"]["code"], -32700, "{response}");
    assert_eq!(
        response["error"]["message"],
        "Parse error: the message is nested more than 128 levels deep."
    );
    // Nesting within the limit is an ordinary (wrong-typed) argument.
    let shallow = json!({"name": "echo", "arguments": {"text": [[[[["x"]]]]]}});
    let result = client.request("tools/call", shallow)["result"].clone();
    assert_eq!(result["isError"], true);
    still_serving(&mut client);
}
