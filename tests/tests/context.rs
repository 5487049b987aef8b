//! What tools do through `Context` and `State`, end to end: progress, log messages,
//! cancellation, timeouts, shared state.

use std::time::{Duration, Instant};

use mcp_tests::{StdioClient, first_text, stateless_meta};
use serde_json::{Value, json};

fn fixture() -> StdioClient {
    StdioClient::spawn(env!("CARGO_BIN_EXE_fixture"), &[])
}

fn notifications<'a>(transcript: &'a [Value], method: &str) -> Vec<&'a Value> {
    transcript
        .iter()
        .filter(|message| message["method"] == method)
        .collect()
}

#[test]
fn progress_needs_a_token_increases_and_is_coalesced() {
    for revision in ["2024-11-05", "2025-11-25"] {
        let mut client = fixture();
        client.initialize(revision);
        let response = client.request(
            "tools/call",
            json!({"name": "progress_and_logs", "arguments": {"steps": 100000}, "_meta": {"progressToken": "p-1"}}),
        );
        assert_eq!(first_text(&response["result"]), "100000 steps");
        let progress = notifications(&client.transcript, "notifications/progress");
        assert!(!progress.is_empty());
        assert!(
            progress.len() < 50,
            "a tight loop of 100000 reports was not coalesced: {}",
            progress.len()
        );
        let values: Vec<f64> = progress
            .iter()
            .map(|n| n["params"]["progress"].as_f64().unwrap())
            .collect();
        assert!(
            values.windows(2).all(|pair| pair[0] < pair[1]),
            "{values:?}"
        );
        assert_eq!(*values.last().unwrap(), 100001.0);
        assert!(
            progress
                .iter()
                .all(|n| n["params"]["progressToken"] == "p-1")
        );
        // `message` exists from 2025-03-26 on.
        assert_eq!(
            progress[0]["params"].get("message").is_some(),
            revision >= "2025-03-26",
            "{revision}"
        );
        // Every notification comes before the response.
        let response_at = client
            .transcript
            .iter()
            .position(|m| m.get("result").is_some() && m["id"] == response["id"])
            .unwrap();
        let last_progress_at = client
            .transcript
            .iter()
            .rposition(|m| m["method"] == "notifications/progress")
            .unwrap();
        assert!(last_progress_at < response_at);

        let without_token = client.request(
            "tools/call",
            json!({"name": "progress_and_logs", "arguments": {"steps": 10}}),
        );
        assert_eq!(first_text(&without_token["result"]), "10 steps");
        let after = &client.transcript[client.transcript.len() - 1..];
        assert!(notifications(after, "notifications/progress").is_empty());
    }
}

#[test]
fn log_messages_follow_set_level_in_the_handshake_era() {
    let mut client = fixture();
    let init = client.initialize("2025-11-25");
    assert!(init["capabilities"]["logging"].is_object());
    let levels = |client: &mut StdioClient| -> Vec<String> {
        let start = client.transcript.len();
        client.request(
            "tools/call",
            json!({"name": "progress_and_logs", "arguments": {"steps": 1}}),
        );
        notifications(&client.transcript[start..], "notifications/message")
            .iter()
            .map(|n| n["params"]["level"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(
        levels(&mut client),
        ["info", "warning", "error"],
        "default: info and above"
    );
    assert_eq!(
        client.request("logging/setLevel", json!({"level": "warning"}))["result"],
        json!({})
    );
    assert_eq!(levels(&mut client), ["warning", "error"]);
    assert_eq!(
        client.request("logging/setLevel", json!({"level": "loud"}))["error"]["code"],
        -32602
    );
}

#[test]
fn log_messages_need_a_request_level_when_stateless() {
    let mut client = fixture();
    client.check_against("2026-07-28");
    client.stateless_request(
        "tools/call",
        json!({"name": "progress_and_logs", "arguments": {"steps": 1}}),
    );
    assert!(notifications(&client.transcript, "notifications/message").is_empty());

    let mut meta = stateless_meta();
    meta["io.modelcontextprotocol/logLevel"] = json!("error");
    client.request(
        "tools/call",
        json!({"name": "progress_and_logs", "arguments": {"steps": 1}, "_meta": meta}),
    );
    let messages = notifications(&client.transcript, "notifications/message");
    assert_eq!(messages.len(), 1);
    assert_eq!(messages[0]["params"]["level"], "error");
}

#[test]
fn cancellation_stops_the_tool_and_it_sees_it() {
    for stateless in [false, true] {
        let mut client = fixture();
        let mut params = json!({"name": "wait_for_cancel"});
        if stateless {
            client.check_against("2026-07-28");
            params["_meta"] = stateless_meta();
        } else {
            client.initialize("2025-11-25");
        }
        client.send(
            &json!({"jsonrpc": "2.0", "id": "waits", "method": "tools/call", "params": params}),
        );
        std::thread::sleep(Duration::from_millis(200));
        client.send(&json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "waits"}}));
        let seen_params = if stateless {
            json!({"name": "cancellations_seen", "_meta": stateless_meta()})
        } else {
            json!({"name": "cancellations_seen"})
        };
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            let seen = client.request("tools/call", seen_params.clone());
            if first_text(&seen["result"]) == "1" {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "the tool never observed its cancellation"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        assert!(client.try_receive(Duration::from_millis(300)).is_none());
        assert!(
            client.transcript.iter().all(|m| m["id"] != "waits"),
            "a cancelled request was answered"
        );
    }
}

#[test]
fn calls_over_the_timeout_are_stopped_with_a_tool_error() {
    let mut client = fixture();
    client.initialize("2025-11-25");
    let started = Instant::now();
    let response = client.request("tools/call", json!({"name": "overrun"}));
    let elapsed = started.elapsed();
    assert_eq!(response["result"]["isError"], true, "{response}");
    assert!(
        first_text(&response["result"]).contains("timed out after 5 s"),
        "{response}"
    );
    assert!(elapsed < Duration::from_secs(20), "{elapsed:?}");
}

#[test]
fn extractors_stay_out_of_the_schema() {
    let mut client = fixture();
    client.initialize("2025-11-25");
    let tools = client.request("tools/list", json!({}))["result"]["tools"].clone();
    let tool = |name: &str| {
        tools
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == name)
            .unwrap()
            .clone()
    };
    assert_eq!(
        tool("wait_for_cancel")["inputSchema"]["properties"],
        json!({})
    );
    assert_eq!(
        tool("progress_and_logs")["inputSchema"]["required"],
        json!(["steps"])
    );
    assert!(
        tool("progress_and_logs")["inputSchema"]["properties"]
            .get("ctx")
            .is_none()
    );
}

#[test]
fn per_tool_limits_from_the_attribute() {
    let mut client = fixture();
    client.initialize("2025-11-25");
    for id in 0..4 {
        client.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "single_file", "arguments": {"ms": 100}}}));
    }
    let most_at_once: Vec<String> = (0..4)
        .map(|_| first_text(&client.receive()["result"]).to_owned())
        .collect();
    assert!(
        most_at_once.iter().all(|most| most == "1"),
        "{most_at_once:?}"
    );

    let response = client.request("tools/call", json!({"name": "short_fuse"}));
    assert_eq!(response["result"]["isError"], true);
    assert!(
        first_text(&response["result"]).contains("timed out after 200 ms"),
        "{response}"
    );
}

#[test]
fn the_last_progress_report_is_not_lost_to_coalescing() {
    let mut client = fixture();
    client.initialize("2025-11-25");
    let response = client.request(
        "tools/call",
        json!({"name": "quick_progress", "arguments": {"steps": 500}, "_meta": {"progressToken": 9}}),
    );
    assert_eq!(first_text(&response["result"]), "500 quick steps");
    let progress = notifications(&client.transcript, "notifications/progress");
    assert_eq!(
        progress.last().unwrap()["params"]["progress"].as_f64(),
        Some(500.0),
        "the final report was dropped: {progress:?}"
    );
    assert!(progress.len() <= 3, "{progress:?}");
}

#[test]
fn error_details_are_masked_unless_marked_public() {
    for (masked, private_text) in [
        (false, "connection to 10.0.0.7:5432 refused"),
        (
            true,
            "Tool `fails_privately` failed. The details were logged on the server.",
        ),
    ] {
        let args: &[&str] = if masked { &["--mask-errors"] } else { &[] };
        let mut client = StdioClient::spawn(env!("CARGO_BIN_EXE_fixture"), args);
        client.initialize("2025-11-25");
        let mut call = |name: &str| {
            let response = client.request("tools/call", json!({"name": name}));
            assert_eq!(response["result"]["isError"], true, "{response}");
            first_text(&response["result"]).to_owned()
        };
        assert_eq!(call("fails_privately"), private_text);
        // A ToolError is meant for the client, returned or as a panic payload.
        assert_eq!(call("fails_publicly"), "the quota is used up");
        assert_eq!(call("panics_publicly"), "the disk is full");
        // Any other panic never shows its message.
        assert_eq!(call("panics"), "Tool `panics` failed: it panicked.");
        // Argument errors are about the client's own input: always shown.
        let invalid = call("echo");
        assert_eq!(
            invalid,
            "Invalid arguments for tool `echo`: `text`: missing (required)"
        );
    }
}

#[test]
fn tracing_events_in_tools_are_forwarded_only_when_asked() {
    for forward in [false, true] {
        let args: &[&str] = if forward { &["--forward-tracing"] } else { &[] };
        let mut client = StdioClient::spawn(env!("CARGO_BIN_EXE_fixture"), args);
        client.initialize("2025-11-25");
        client.request("logging/setLevel", json!({"level": "info"}));
        client.request("tools/call", json!({"name": "traces"}));
        client.request("tools/call", json!({"name": "traces_blocking"}));
        let messages: Vec<Value> = notifications(&client.transcript, "notifications/message")
            .into_iter()
            .map(|message| message["params"].clone())
            .collect();
        let mut expected =
            vec![json!({"level": "info", "logger": "traces", "data": "from ctx.log"})];
        if forward {
            // Fields become data; the `debug!` is below the client's level; the plain-fn
            // tool's event is forwarded from its blocking thread.
            expected.insert(
                0,
                json!({"level": "info", "logger": "fixture", "data": {"message": "scanned the table", "rows": 3, "table": "users"}}),
            );
            expected.push(json!({"level": "warning", "logger": "fixture", "data": {"message": "retrying", "attempt": 2}}));
        }
        assert_eq!(messages, expected, "forward = {forward}");
    }
}
