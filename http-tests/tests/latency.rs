//! A call answered over SSE costs about what the same call answered with JSON: no stall
//! between a response's first bytes and its events.
//!
//! An SSE response goes out in pieces (its headers, then each event). On a socket with
//! Nagle's algorithm on, a small piece written while the previous one is unacknowledged
//! waits for the peer's ACK — and a client that delays its ACKs (Linux does, by 40 ms)
//! makes every SSE-answered call wait that long. The official SDK clients accept SSE, so
//! every one of them would see it. This compares the median latency of the two kinds of
//! answer over one keep-alive connection, as a ratio, so it holds on a slow or busy
//! machine: a stall makes SSE hundreds of times slower than JSON, no stall about the same.

use std::time::{Duration, Instant};

use mcp_http_tests::InProcessServer;
use mcp_runtime::mcp_tool;
use reqwest::header::{HeaderMap, HeaderValue};
use serde_json::{Value, json};

/// Echo the text back.
#[mcp_tool]
async fn echo(
    /// What to echo.
    text: String,
) -> String {
    text
}

const CALLS: usize = 40;

/// Above this, SSE answers stall (a 40 ms delayed ACK against a call that takes well under
/// a millisecond is a ratio in the hundreds); without a stall the ratio is about 1.
const MAX_SSE_TO_JSON: f64 = 5.0;

const JSON_ONLY: &str = "application/json";
const JSON_OR_SSE: &str = "application/json, text/event-stream";

/// One client with one keep-alive connection, as the SDK clients hold it.
fn one_connection_client() -> reqwest::Client {
    reqwest::Client::builder()
        .pool_max_idle_per_host(1)
        .timeout(Duration::from_secs(30))
        .build()
        .expect("an HTTP client")
}

/// Posts `body` and reads the whole answer; returns how long it took and the last message.
async fn timed_post(
    client: &reqwest::Client,
    url: &str,
    headers: &HeaderMap,
    body: &Value,
) -> (Duration, Value) {
    let started = Instant::now();
    let response = client
        .post(url)
        .headers(headers.clone())
        .body(body.to_string())
        .send()
        .await
        .expect("the POST reaches the server");
    let event_stream = response
        .headers()
        .get("content-type")
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("text/event-stream"));
    let text = response.text().await.expect("a whole body");
    let elapsed = started.elapsed();
    let last = if event_stream {
        text.lines()
            .filter_map(|line| line.strip_prefix("data:"))
            .map(str::trim)
            .rfind(|data| !data.is_empty())
            .map(|data| serde_json::from_str(data).expect("a JSON event"))
            .expect("an event with the response")
    } else {
        serde_json::from_str(&text).expect("a JSON body")
    };
    (elapsed, last)
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

/// Calls `echo` `CALLS` times with each `Accept`, alternating, and returns the two medians.
async fn medians(
    client: &reqwest::Client,
    url: &str,
    base: &HeaderMap,
    body: impl Fn(usize) -> Value,
) -> (Duration, Duration) {
    let mut json_times = Vec::new();
    let mut sse_times = Vec::new();
    for call in 0..CALLS * 2 {
        let accept = if call % 2 == 0 {
            JSON_ONLY
        } else {
            JSON_OR_SSE
        };
        let mut headers = base.clone();
        headers.insert("accept", HeaderValue::from_static(accept));
        let body = body(call);
        let (elapsed, answer) = timed_post(client, url, &headers, &body).await;
        assert_eq!(
            answer["result"]["content"][0]["text"],
            json!(format!("call {call}")),
            "{answer}"
        );
        if accept == JSON_ONLY {
            json_times.push(elapsed);
        } else {
            sse_times.push(elapsed);
        }
    }
    (median(json_times), median(sse_times))
}

fn check_ratio(era: &str, (json, sse): (Duration, Duration)) {
    let ratio = sse.as_secs_f64() / json.as_secs_f64();
    eprintln!("{era}: median JSON {json:?}, SSE {sse:?}, ratio {ratio:.2}");
    assert!(
        ratio < MAX_SSE_TO_JSON,
        "{era}: a call answered over SSE takes {ratio:.1}x one answered with JSON \
         (medians {sse:?} against {json:?}): the SSE response stalls between writes"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stateless_call_answered_over_sse_does_not_stall() {
    let served = InProcessServer::start("latency").await;
    let client = one_connection_client();
    let mut base = HeaderMap::new();
    base.insert("content-type", HeaderValue::from_static("application/json"));
    base.insert(
        "mcp-protocol-version",
        HeaderValue::from_static("2026-07-28"),
    );
    base.insert("mcp-method", HeaderValue::from_static("tools/call"));
    base.insert("mcp-name", HeaderValue::from_static("echo"));
    let body = |call: usize| {
        json!({
            "jsonrpc": "2.0", "id": call, "method": "tools/call",
            "params": {
                "name": "echo",
                "arguments": { "text": format!("call {call}") },
                "_meta": mcp_tests::stateless_meta(),
            },
        })
    };
    check_ratio(
        "2026-07-28",
        medians(&client, &served.url, &base, body).await,
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_call_answered_over_sse_does_not_stall() {
    let served = InProcessServer::start("latency").await;
    let client = one_connection_client();
    let mut session = mcp_http_tests::HttpClient::new(served.url.clone(), "2025-11-25");
    session.initialize(json!({})).await;
    let mut base = HeaderMap::new();
    base.insert("content-type", HeaderValue::from_static("application/json"));
    base.insert(
        "mcp-protocol-version",
        HeaderValue::from_static("2025-11-25"),
    );
    base.insert(
        "mcp-session-id",
        HeaderValue::from_str(session.session.as_deref().expect("a session")).expect("ASCII"),
    );
    let body = |call: usize| {
        json!({
            "jsonrpc": "2.0", "id": call, "method": "tools/call",
            "params": { "name": "echo", "arguments": { "text": format!("call {call}") } },
        })
    };
    check_ratio(
        "2025-11-25",
        medians(&client, &served.url, &base, body).await,
    );
}
