//! A call whose tool is done at once is answered in the handler, without a task of its
//! own (`Calls::run_or_spawn`): what the client gets must be what it got when every
//! call ran as a task — the response alone (JSON, or one event), or, when the tool sent
//! progress or log messages before answering, those messages first on the call's stream —
//! under 2026-07-28 and in a 2025-11-25 session alike.

use std::time::Duration;

use mcp_http_tests::{HttpClient, InProcessServer, progress_of};
use mcp_runtime::{Context, LogLevel, mcp_tool};
use reqwest::StatusCode;
use reqwest::header::HeaderValue;
use serde_json::{Value, json};

/// Echo the text back.
#[mcp_tool]
async fn echo(
    /// What to echo.
    text: String,
) -> String {
    text
}

/// Log a line and report progress, then answer: all before the first `.await`.
#[mcp_tool]
async fn tell(ctx: Context) -> String {
    ctx.log(LogLevel::Info, "telling");
    ctx.progress(1.0, Some(1.0), Some("told"));
    "told".to_owned()
}

/// The `tell` call, asking for its progress (and, under 2026-07-28, its log messages).
fn tell_params(revision: &str) -> Value {
    let mut meta = json!({ "progressToken": "t" });
    if revision == "2026-07-28" {
        meta["io.modelcontextprotocol/logLevel"] = json!("info");
    }
    json!({ "name": "tell", "arguments": {}, "_meta": meta })
}

/// Posts `method` with `params`, accepting SSE or JSON only; every message is checked
/// against the revision's schema.
async fn post(
    client: &mut HttpClient,
    accept: &'static str,
    method: &str,
    params: Value,
) -> mcp_http_tests::Reply {
    let body = client.request_body(method, params);
    let mut headers = client.request_headers(&body);
    headers.insert("accept", HeaderValue::from_static(accept));
    client.post_with(headers, &body).await
}

const JSON_OR_SSE: &str = "application/json, text/event-stream";
const JSON_ONLY: &str = "application/json";

#[tokio::test]
async fn a_call_done_at_once_is_answered_as_when_it_ran_as_a_task() {
    let served = InProcessServer::start("at-once").await;
    for revision in ["2026-07-28", "2025-11-25"] {
        let mut client = HttpClient::new(&served.url, revision);
        if revision != "2026-07-28" {
            client.initialize(json!({})).await;
        }

        // Nothing before the response: alone, as one event or as JSON.
        let echo = json!({ "name": "echo", "arguments": { "text": "now" } });
        let sse = post(&mut client, JSON_OR_SSE, "tools/call", echo.clone()).await;
        assert_eq!(sse.status, StatusCode::OK, "{revision}");
        assert!(sse.event_stream, "{revision}: an SSE answer");
        assert_eq!(sse.messages.len(), 1, "{revision}: {:?}", sse.messages);
        assert_eq!(sse.response()["result"]["content"][0]["text"], "now");
        let plain = post(&mut client, JSON_ONLY, "tools/call", echo).await;
        assert_eq!(plain.status, StatusCode::OK, "{revision}");
        assert!(!plain.event_stream, "{revision}: a JSON answer");
        assert_eq!(plain.response()["result"]["content"][0]["text"], "now");

        // Messages sent before the response go first, on the call's stream.
        let told = post(
            &mut client,
            JSON_OR_SSE,
            "tools/call",
            tell_params(revision),
        )
        .await;
        assert_eq!(told.status, StatusCode::OK, "{revision}");
        assert!(told.event_stream, "{revision}");
        let methods: Vec<Option<&str>> = told
            .messages
            .iter()
            .map(|message| message["method"].as_str())
            .collect();
        assert_eq!(
            methods,
            [
                Some("notifications/message"),
                Some("notifications/progress"),
                None
            ],
            "{revision}: {:?}",
            told.messages
        );
        assert_eq!(progress_of(&told.messages), [1.0], "{revision}");
        assert_eq!(told.response()["result"]["content"][0]["text"], "told");

        // A client that takes JSON only gets the response alone.
        let plain = post(&mut client, JSON_ONLY, "tools/call", tell_params(revision)).await;
        assert!(!plain.event_stream, "{revision}");
        assert_eq!(plain.messages.len(), 1, "{revision}: {:?}", plain.messages);
        assert_eq!(plain.response()["result"]["content"][0]["text"], "told");
    }
}

#[tokio::test]
async fn a_session_call_answered_at_once_can_be_resumed() {
    let served = InProcessServer::start("at-once").await;
    let mut client = HttpClient::new(&served.url, "2025-11-25");
    client.initialize(json!({})).await;
    let mut stream = client
        .request_stream("tools/call", tell_params("2025-11-25"))
        .await;
    let mut seen = Vec::new();
    while let Some(message) = stream.next().await {
        seen.push(message);
    }
    assert_eq!(seen.len(), 3, "{seen:?}");
    // The stream was primed and every event has an id: resuming after the first event
    // gives the rest, the response last, exactly once.
    assert_eq!(
        stream.ids.len(),
        4,
        "a priming event, then three: {:?}",
        stream.ids
    );
    let resumed = client.resume(&stream.ids[1]).await;
    assert_eq!(resumed.status(), StatusCode::OK);
    let mut resumed = mcp_http_tests::EventStream::new(resumed, "2025-11-25");
    let mut rest = Vec::new();
    while let Some(message) = resumed.next().await {
        rest.push(message);
    }
    assert_eq!(rest.len(), 2, "{rest:?}");
    assert_eq!(rest[0]["method"], "notifications/progress");
    assert_eq!(rest[1]["result"]["content"][0]["text"], "told");
    assert!(resumed.ends_within(Duration::from_secs(5)).await);
}
