//! The limit server answers what it offers correctly (no timing here).

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

fn exchange(input: &str) -> Vec<Value> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_limit-server"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the limit server starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("writing requests");
    let output = child.wait_with_output().expect("the limit server exits");
    assert!(output.status.success());
    String::from_utf8(output.stdout)
        .expect("UTF-8 output")
        .lines()
        .map(|line| serde_json::from_str(line).expect("every line is JSON"))
        .collect()
}

#[test]
fn serves_the_echo_tool() {
    let responses = exchange(concat!(
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":"list","method":"tools/list"}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"a \"quoted\"\nline"}}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":4,"method":"ping"}"#,
        "\n",
    ));
    assert_eq!(responses.len(), 4, "the notification is not answered");
    assert_eq!(responses[0]["id"], 1);
    assert_eq!(responses[0]["result"]["protocolVersion"], "2025-06-18");
    assert!(responses[0]["result"]["capabilities"]["tools"].is_object());
    assert_eq!(responses[0]["result"]["serverInfo"]["name"], "limit-server");
    let tool = &responses[1]["result"]["tools"][0];
    assert_eq!(responses[1]["id"], "list");
    assert_eq!(tool["name"], "echo");
    assert_eq!(tool["inputSchema"]["type"], "object");
    assert_eq!(tool["inputSchema"]["required"], json!(["text"]));
    assert_eq!(
        responses[2]["result"],
        json!({"content": [{"type": "text", "text": "a \"quoted\"\nline"}], "isError": false})
    );
    assert_eq!(
        responses[3],
        json!({"jsonrpc": "2.0", "id": 4, "result": {}})
    );
}

#[test]
fn negotiates_the_version() {
    let responses = exchange(concat!(
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"1999-01-01","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
        "\n",
    ));
    assert_eq!(responses[0]["result"]["protocolVersion"], "2025-11-25");
}

#[test]
fn reports_errors() {
    let responses = exchange(concat!(
        "not json\n",
        r#"{"jsonrpc":"2.0","id":2,"method":"resources/list"}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"nope","arguments":{}}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{}}}"#,
        "\n",
        r#"{"jsonrpc":"1.0","id":5,"method":"ping"}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":6,"result":{}}"#,
        "\n",
    ));
    let codes: Vec<(Value, Value)> = responses
        .iter()
        .map(|response| (response["id"].clone(), response["error"]["code"].clone()))
        .collect();
    assert_eq!(
        codes,
        [
            (Value::Null, json!(-32700)),
            (json!(2), json!(-32601)),
            (json!(3), json!(-32602)),
            (json!(4), json!(-32602)),
            (json!(5), json!(-32600)),
        ],
        "a response from the client is not answered"
    );
}
