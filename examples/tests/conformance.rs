//! The conformance fixture tools over stdio, as the official suite's scenarios check them
//! (see interop/CONFORMANCE_FIXTURES.md), under 2025-06-18 and 2025-11-25.

use std::time::Duration;

use mcp_tests::{StdioClient, first_text};
use serde_json::{Value, json};

const PNG_1X1_RED: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

fn server(revision: &str) -> StdioClient {
    let mut client = StdioClient::spawn(env!("CARGO_BIN_EXE_conformance"), &[]);
    client.initialize(revision);
    client
}

fn call(client: &mut StdioClient, tool: &str) -> Value {
    client.request("tools/call", json!({"name": tool, "arguments": {}}))["result"].clone()
}

#[test]
fn content_fixtures() {
    for revision in ["2025-06-18", "2025-11-25"] {
        let mut client = server(revision);
        let tools = client.request("tools/list", json!({}))["result"]["tools"].clone();
        for tool in tools.as_array().unwrap() {
            assert!(
                !tool["description"].as_str().unwrap_or("").is_empty(),
                "{tool}"
            );
        }
        let simple =
            client.request("tools/call", json!({"name": "test_simple_text"}))["result"].clone();
        assert_eq!(
            first_text(&simple),
            "This is a simple text response for testing."
        );
        assert_eq!(
            call(&mut client, "test_image_content")["content"],
            json!([{"type": "image", "data": PNG_1X1_RED, "mimeType": "image/png"}])
        );
        assert_eq!(
            call(&mut client, "test_audio_content")["content"][0]["mimeType"],
            "audio/wav"
        );
        assert_eq!(
            call(&mut client, "test_embedded_resource")["content"][0]["resource"],
            json!({"uri": "test://embedded-resource", "mimeType": "text/plain", "text": "This is an embedded resource content."})
        );
        let mixed = call(&mut client, "test_multiple_content_types");
        let types: Vec<&str> = mixed["content"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["type"].as_str().unwrap())
            .collect();
        assert_eq!(types, ["text", "image", "resource"]);
        let error = call(&mut client, "test_error_handling");
        assert_eq!(error["isError"], true);
        assert_eq!(
            first_text(&error),
            "This tool intentionally returns an error for testing"
        );
    }
}

#[test]
fn logging_fixture_sends_three_messages_during_the_call() {
    let mut client = server("2025-11-25");
    assert_eq!(
        client.request("logging/setLevel", json!({"level": "debug"}))["result"],
        json!({})
    );
    let result = call(&mut client, "test_tool_with_logging");
    assert_eq!(
        first_text(&result),
        "Tool with logging executed successfully"
    );
    let messages: Vec<&Value> = client
        .transcript
        .iter()
        .filter(|m| m["method"] == "notifications/message")
        .collect();
    let data: Vec<&str> = messages
        .iter()
        .map(|m| m["params"]["data"].as_str().unwrap())
        .collect();
    assert_eq!(
        data,
        [
            "Tool execution started",
            "Tool processing data",
            "Tool execution completed"
        ]
    );
    assert!(messages.iter().all(|m| m["params"]["level"] == "info"));
}

#[test]
fn progress_fixture_echoes_an_integer_token() {
    let mut client = server("2025-11-25");
    let response = client.request(
        "tools/call",
        json!({"name": "test_tool_with_progress", "arguments": {}, "_meta": {"progressToken": 1}}),
    );
    assert!(response.get("result").is_some());
    let progress: Vec<(Value, f64)> = client
        .transcript
        .iter()
        .filter(|m| m["method"] == "notifications/progress")
        .map(|m| {
            (
                m["params"]["progressToken"].clone(),
                m["params"]["progress"].as_f64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        progress,
        [(json!(1), 0.0), (json!(1), 50.0), (json!(1), 100.0)]
    );
    // Without a token the tool runs the same, and nothing is sent.
    let before = client.transcript.len();
    call(&mut client, "test_tool_with_progress");
    assert!(client.try_receive(Duration::from_millis(100)).is_none());
    assert_eq!(client.transcript.len(), before + 1);
}
