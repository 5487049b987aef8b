//! Resources and prompts over Streamable HTTP: reads and renders in a session and statelessly
//! (with the `Mcp-Name` header a 2026-07-28 read carries), resource updates on a session's
//! standalone stream and on a 2026-07-28 listen stream, every message checked against the
//! official schema of the revision in use.

use std::net::SocketAddr;
use std::time::Duration;

use mcp_http_tests::{EventStream, HttpClient};
use mcp_runtime::{Notifier, Server, mcp_prompt, mcp_resource};
use reqwest::StatusCode;
use reqwest::header::HeaderValue;
use serde_json::json;

/// The status board.
#[mcp_resource(uri = "board://status", mime_type = "text/plain")]
async fn status() -> &'static str {
    "all green"
}

/// One lane of the board.
#[mcp_resource(uri = "board://lanes/{lane}", mime_type = "text/plain")]
async fn lane(lane: u32) -> String {
    format!("lane {lane} is clear")
}

/// Say what the board shows.
#[mcp_prompt]
async fn summarize(
    /// The lane to look at.
    lane: u32,
) -> String {
    format!("Summarize lane {lane}.")
}

struct Running {
    address: SocketAddr,
    notifier: Notifier,
    _served: tokio::task::JoinHandle<Result<(), mcp_runtime::Error>>,
}

async fn start() -> Running {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a loopback port");
    let address = listener.local_addr().expect("an address");
    let server = Server::new("board", "1.0.0").allow_no_tools();
    let notifier = server.notifier();
    let served = tokio::spawn(server.http().serve_on(listener));
    Running {
        address,
        notifier,
        _served: served,
    }
}

impl Running {
    fn client(&self, revision: &str) -> HttpClient {
        HttpClient::new(format!("http://{}/mcp", self.address), revision)
    }
}

#[tokio::test]
async fn a_session_reads_renders_and_hears_of_updates_on_its_stream() {
    let server = start().await;
    let mut client = server.client("2025-11-25");
    let init = client.initialize(json!({})).await;
    let capabilities = &init.response()["result"]["capabilities"];
    assert_eq!(
        capabilities["resources"],
        json!({"subscribe": true, "listChanged": true})
    );

    let read = client
        .request("resources/read", json!({"uri": "board://lanes/3"}))
        .await;
    assert_eq!(
        read.response()["result"]["contents"][0]["text"],
        "lane 3 is clear"
    );
    let rendered = client
        .request(
            "prompts/get",
            json!({"name": "summarize", "arguments": {"lane": "3"}}),
        )
        .await;
    assert_eq!(
        rendered.response()["result"]["messages"][0]["content"]["text"],
        "Summarize lane 3."
    );
    let missing = client
        .request("resources/read", json!({"uri": "board://nothing"}))
        .await;
    assert_eq!(missing.error_code(), Some(-32002));

    let subscribed = client
        .request("resources/subscribe", json!({"uri": "board://status"}))
        .await;
    assert_eq!(subscribed.response()["result"], json!({}));
    let response = client.get().await;
    assert_eq!(response.status(), StatusCode::OK);
    let mut stream = EventStream::new(response, "2025-11-25");
    server.notifier.resource_updated("board://lanes/1"); // not subscribed
    server.notifier.resource_updated("board://status");
    let updated = stream.next().await.expect("an update");
    assert_eq!(updated["method"], "notifications/resources/updated");
    assert_eq!(updated["params"]["uri"], "board://status");
    server.notifier.prompt_list_changed();
    let changed = stream.next().await.expect("a list change");
    assert_eq!(changed["method"], "notifications/prompts/list_changed");
    assert_eq!(client.delete().await, StatusCode::OK);
}

#[tokio::test]
async fn stateless_reads_name_their_uri_in_the_header() {
    let server = start().await;
    let mut client = server.client("2026-07-28");
    let read = client
        .request("resources/read", json!({"uri": "board://status"}))
        .await;
    assert_eq!(read.status, StatusCode::OK);
    let result = &read.response()["result"];
    assert_eq!(result["contents"][0]["text"], "all green");
    assert_eq!(result["resultType"], "complete");

    let body = client.request_body("resources/read", json!({"uri": "board://status"}));
    let mut headers = client.request_headers(&body);
    headers.insert("mcp-name", HeaderValue::from_static("board://lanes/1"));
    let mismatch = client.post_with(headers, &body).await;
    assert_eq!(mismatch.status, StatusCode::BAD_REQUEST);
    assert_eq!(mismatch.error_code(), Some(-32020));

    let missing = client
        .request("resources/read", json!({"uri": "board://nothing"}))
        .await;
    assert_eq!(
        missing.error_code(),
        Some(-32602),
        "2026-07-28 has no -32002"
    );

    let mut stream = client
        .request_stream(
            "subscriptions/listen",
            json!({ "notifications": { "resourceSubscriptions": ["board://status"], "resourcesListChanged": true } }),
        )
        .await;
    let acknowledged = stream.next().await.expect("the acknowledgement");
    assert_eq!(
        acknowledged["params"]["notifications"],
        json!({ "resourceSubscriptions": ["board://status"], "resourcesListChanged": true })
    );
    server.notifier.resource_updated("board://status");
    let updated = stream.next().await.expect("an update");
    assert_eq!(updated["method"], "notifications/resources/updated");
    assert_eq!(updated["params"]["uri"], "board://status");
    server.notifier.resource_list_changed();
    let changed = tokio::time::timeout(Duration::from_secs(5), stream.next())
        .await
        .expect("in time")
        .expect("a list change");
    assert_eq!(changed["method"], "notifications/resources/list_changed");
}
