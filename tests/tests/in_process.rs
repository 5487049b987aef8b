//! The fixture server driven in-process by `mcp_runtime::testing::TestClient`: the same
//! JSON-RPC path as over stdio, every message checked against the revision's schema.

#[allow(dead_code)]
#[path = "../src/bin/fixture.rs"]
mod fixture;

use std::time::Duration;

use mcp_runtime::Server;
use mcp_runtime::testing::{ResponseError, TestClient};
use mcp_tests::{REVISIONS, checked_client};
use serde_json::json;

#[tokio::test]
async fn every_revision_lists_and_calls() {
    for revision in REVISIONS {
        let client = checked_client(revision)
            .connect(fixture::server())
            .await
            .unwrap();
        assert_eq!(
            client.initialize_result().is_none(),
            revision == "2026-07-28"
        );
        let tools = client.list_tools().await.unwrap();
        let echo = tools.iter().find(|tool| tool.name == "echo").unwrap();
        let annotated = revision != "2024-11-05";
        assert_eq!(
            echo.hint("readOnlyHint"),
            annotated.then_some(true),
            "{revision}"
        );
        let result = client
            .call_tool("echo", json!({ "text": "hi" }))
            .await
            .unwrap();
        assert!(!result.is_error, "{revision}: {result:?}");
        let bad = client
            .call_tool("echo", json!({ "text": 5 }))
            .await
            .unwrap();
        assert!(bad.is_error, "{revision}");
        let unknown = client.call_tool("nope", json!({})).await.unwrap_err();
        assert_eq!(unknown.code, ResponseError::INVALID_PARAMS, "{revision}");
        client.close().await.unwrap();
    }
}

#[tokio::test]
async fn follows_every_page() {
    let all = TestClient::connect(fixture::server()).await.unwrap();
    let paged = TestClient::connect(fixture::server().page_size(2))
        .await
        .unwrap();
    let names = |tools: Vec<mcp_runtime::testing::Tool>| -> Vec<String> {
        tools.into_iter().map(|tool| tool.name).collect()
    };
    let expected = names(all.list_tools().await.unwrap());
    assert!(expected.len() > 2);
    assert_eq!(names(paged.list_tools().await.unwrap()), expected);
    assert_eq!(
        paged.list_tools_json().await.unwrap()["tools"],
        all.list_tools_json().await.unwrap()["tools"]
    );
}

#[tokio::test]
async fn receives_progress_and_log_messages() {
    let client = checked_client("2025-11-25")
        .connect(fixture::server())
        .await
        .unwrap();
    let (result, progress) = client
        .call_tool_with_progress("progress_and_logs", json!({ "steps": 3 }))
        .await
        .unwrap();
    assert_eq!(result.text(), "3 steps");
    assert!(!progress.is_empty());
    assert!(
        progress
            .windows(2)
            .all(|pair| pair[0].progress < pair[1].progress)
    );
    assert_eq!(progress.last().unwrap().message.as_deref(), Some("last"));
    let levels: Vec<String> = client
        .notifications()
        .into_iter()
        .filter(|notification| notification.method == "notifications/message")
        .map(|notification| notification.params["level"].as_str().unwrap().to_owned())
        .collect();
    // `info` is the default level: debug is filtered out.
    assert_eq!(levels, ["info", "warning", "error"]);
}

#[tokio::test]
async fn cancels_a_call_in_flight() {
    let client = checked_client("2025-11-25")
        .connect(fixture::server())
        .await
        .unwrap();
    let call = client.start_call("wait_for_cancel", json!({}));
    tokio::time::sleep(Duration::from_millis(100)).await;
    client.cancel(call.id(), Some("test"));
    let answered = tokio::time::timeout(Duration::from_millis(300), call.result()).await;
    assert!(answered.is_err(), "a cancelled call gets no response");
    let seen = client
        .call_tool("cancellations_seen", json!({}))
        .await
        .unwrap();
    assert_eq!(seen.text(), "1");
}

#[tokio::test]
async fn raw_requests_and_start_up_errors() {
    let client = TestClient::connect(fixture::server()).await.unwrap();
    assert_eq!(client.request("ping", json!({})).await.unwrap(), json!({}));
    let missing = client
        .request("resources/list", json!({}))
        .await
        .unwrap_err();
    assert_eq!(missing.code, ResponseError::METHOD_NOT_FOUND);

    // The fixture's tools need state this server lacks: it refuses to start.
    let refused = TestClient::connect(Server::new("bare", "1.0.0"))
        .await
        .err()
        .expect("the server does not start");
    assert_eq!(refused.code, ResponseError::CONNECTION_CLOSED);
    assert!(refused.message.contains("CancellationsSeen"), "{refused}");
}

/// The client's handlers answer the server's questions in both eras: as requests from the
/// server (2025-11-25) and as the `input_required` rounds of a 2026-07-28 call, which the
/// test client fulfils and sends again by itself.
#[tokio::test]
async fn answers_elicitation_sampling_and_roots_in_both_eras() {
    for revision in ["2025-11-25", "2026-07-28"] {
        let asked = std::sync::Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
        let record = asked.clone();
        let client = checked_client(revision)
            .on_request("elicitation/create", move |params| {
                let message = params["message"].as_str().unwrap_or_default().to_owned();
                record.lock().unwrap().push(message.clone());
                async move {
                    Ok(if message == "Name?" {
                        json!({ "action": "accept", "content": { "name": "Ada" } })
                    } else {
                        json!({ "action": "accept", "content": { "confirm": true } })
                    })
                }
            })
            .on_request("sampling/createMessage", |params| async move {
                assert_eq!(params["systemPrompt"], "You write haiku.");
                Ok(json!({
                    "role": "assistant",
                    "content": { "type": "text", "text": "old pond, a frog" },
                    "model": "test-model",
                }))
            })
            .on_request("roots/list", |_| async {
                Ok(json!({ "roots": [{ "uri": "file:///work", "name": "work" }] }))
            })
            .connect(fixture::server())
            .await
            .unwrap();

        let twice = client.call_tool("ask_twice", json!({})).await.unwrap();
        assert_eq!(twice.text(), "going ahead with Ada", "{revision}");
        assert_eq!(
            *asked.lock().unwrap(),
            ["Name?", "Go ahead with Ada?"],
            "{revision}"
        );
        let haiku = client
            .call_tool("haiku", json!({ "topic": "frogs" }))
            .await
            .unwrap();
        assert_eq!(
            haiku.text(),
            "old pond, a frog (by test-model)",
            "{revision}"
        );
        let roots = client.call_tool("client_roots", json!({})).await.unwrap();
        assert_eq!(roots.text(), "work", "{revision}");
        client.close().await.unwrap();
    }
}

/// A 2026-07-28 question the client has no handler for fails the call with a clear error
/// rather than leaving it waiting.
#[tokio::test]
async fn an_unanswerable_input_round_is_an_error() {
    let client = checked_client("2026-07-28")
        .capability("elicitation", json!({}))
        .connect(fixture::server())
        .await
        .unwrap();
    let error = client
        .call_tool("ask_contact", json!({}))
        .await
        .unwrap_err();
    assert!(
        error.message.contains("elicitation/create"),
        "{}",
        error.message
    );
    client.close().await.unwrap();
}

/// Records every `write` the server makes.
struct RecordedWrites(std::sync::Arc<std::sync::Mutex<Vec<Vec<u8>>>>);

impl tokio::io::AsyncWrite for RecordedWrites {
    fn poll_write(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
        bytes: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        self.0.lock().unwrap().push(bytes.to_vec());
        std::task::Poll::Ready(Ok(bytes.len()))
    }
    fn poll_flush(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::task::Poll::Ready(Ok(()))
    }
    fn poll_shutdown(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::task::Poll::Ready(Ok(()))
    }
}

/// A burst of calls that arrives in one read is answered in several writes, the first
/// going out before the last call has run (so the client can start on it), and never one
/// write per answer: half a kilobyte or so gathers first.
#[tokio::test]
async fn a_burst_is_answered_half_a_kilobyte_at_a_time() {
    const CALLS: usize = 40;
    let text = "x".repeat(100);
    let mut input = String::new();
    input.push_str(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"burst","version":"1"}}}"#);
    input.push('\n');
    input.push_str(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    input.push('\n');
    for id in 1..=CALLS {
        let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "echo", "arguments": {"text": text}}});
        input.push_str(&format!("{call}\n"));
    }
    let writes = std::sync::Arc::default();
    fixture::server()
        .serve_io(
            std::io::Cursor::new(input.into_bytes()),
            RecordedWrites(std::sync::Arc::clone(&writes)),
        )
        .await
        .unwrap();

    let writes = writes.lock().unwrap();
    let answers_per_write: Vec<usize> = writes
        .iter()
        .map(|bytes| bytes.iter().filter(|&&byte| byte == b'\n').count())
        .collect();
    // Every answer is whole and answered once.
    let all: Vec<u8> = writes.concat();
    let ids: Vec<u64> = all
        .split(|&byte| byte == b'\n')
        .filter(|line| !line.is_empty())
        .map(|line| {
            serde_json::from_slice::<serde_json::Value>(line).unwrap()["id"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(ids, (0..=CALLS as u64).collect::<Vec<_>>());
    assert!(writes.iter().all(|bytes| bytes.ends_with(b"\n")));
    assert!(answers_per_write.len() > 2, "{answers_per_write:?}");
    assert!(
        answers_per_write[..answers_per_write.len() - 1]
            .iter()
            .zip(writes.iter())
            .all(|(&answers, bytes)| answers > 1 && bytes.len() >= 512),
        "{answers_per_write:?}"
    );
}

/// A snapshot file of this test process, holding `content`.
fn snapshot_file(name: &str, content: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("mcp-tests-{}-{name}", std::process::id()));
    std::fs::write(&path, content).unwrap();
    path
}

#[test]
fn a_changed_snapshot_panics_at_the_line_that_asserted_it() {
    use std::sync::{Arc, Mutex};

    if std::env::var_os(mcp_runtime::testing::SNAPSHOTS_ENV).is_some() {
        return; // rewriting snapshots, not checking them
    }
    let path = snapshot_file("track-caller.json", "{\n  \"answer\": 42\n}\n");
    // The panic hook sees where the panic was raised; other tests' panics pass through.
    let seen: Arc<Mutex<Option<String>>> = Arc::default();
    type Hook = dyn Fn(&std::panic::PanicHookInfo<'_>) + Send + Sync;
    let previous: Arc<Box<Hook>> = Arc::new(std::panic::take_hook());
    {
        let seen = Arc::clone(&seen);
        let previous = Arc::clone(&previous);
        std::panic::set_hook(Box::new(move |info| {
            let ours = info
                .payload()
                .downcast_ref::<String>()
                .is_some_and(|message| message.contains("track-caller.json is out of date"));
            match info.location() {
                Some(location) if ours => *seen.lock().unwrap() = Some(location.to_string()),
                _ => previous(info),
            }
        }));
    }
    let line = line!() + 2;
    let outcome = std::panic::catch_unwind(|| {
        mcp_runtime::testing::assert_json_snapshot(&path, &json!({"answer": 43}))
    });
    let _ = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| previous(info)));
    let _ = std::fs::remove_file(&path);
    assert!(outcome.is_err());
    let location = seen.lock().unwrap().take().expect("the hook saw the panic");
    assert!(
        location.starts_with(&format!("{}:{line}:", file!())),
        "{location}"
    );
}

#[tokio::test]
async fn a_broken_contract_names_the_line_that_asserted_it() {
    if std::env::var_os(mcp_runtime::testing::SNAPSHOTS_ENV).is_some() {
        return; // rewriting snapshots, not checking them
    }
    let path = snapshot_file("contract.json", "[]\n");
    let client = TestClient::connect(fixture::server()).await.unwrap();
    let checked = path.clone();
    // An async function's caller cannot be tracked into its future: the line is taken when
    // the future is made, and named in the message.
    let line = line!() + 2;
    let asserted = tokio::spawn(async move {
        let contract = client.assert_contract(&checked, &[]);
        contract.await;
    });
    let panic = asserted.await.unwrap_err().into_panic();
    let _ = std::fs::remove_file(&path);
    let message = panic.downcast_ref::<String>().expect("a formatted message");
    assert!(
        message.contains("contract.json is out of date"),
        "{message}"
    );
    assert!(
        message.contains(&format!("\n(asserted at {}:{line}:", file!())),
        "{message}"
    );
}

/// With one call allowed in flight, a call that would be done at once still waits for the
/// slot a running call holds: it is answered only after that call.
#[tokio::test]
async fn a_quick_call_waits_for_the_slot_a_running_call_holds() {
    let client = checked_client("2025-11-25")
        .connect(fixture::server().max_in_flight(1))
        .await
        .unwrap();
    // Holds the server's one slot for 300 ms (its first poll leaves it waiting).
    let slow = client.start_call("single_file", json!({ "ms": 300 }));
    tokio::time::sleep(Duration::from_millis(50)).await;
    let quick = client
        .call_tool("echo", json!({ "text": "after" }))
        .await
        .unwrap();
    assert_eq!(quick.text(), "after");
    let slow = tokio::time::timeout(Duration::ZERO, slow.result())
        .await
        .expect("the running call was answered before the one waiting for its slot")
        .unwrap();
    assert_eq!(slow.text(), "1");
    // The slot is free again: the next call is answered at once.
    let next = client
        .call_tool("echo", json!({ "text": "free" }))
        .await
        .unwrap();
    assert_eq!(next.text(), "free");
}
