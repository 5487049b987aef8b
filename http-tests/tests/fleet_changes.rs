//! Change notifications across a fleet: two instances in this process, sharing a real
//! `redis-server` (`testing::RedisServer`), each with its own notifier and tool set. A
//! change made on one instance — a resource updated, the resource list changed, a tool
//! added — reaches a session's GET stream held by the other (the subscription made through
//! the first), and a 2026-07-28 `subscriptions/listen` stream held by the other. Every
//! message is checked against the official schema of its revision. Needs redis-server.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use mcp_http_tests::{EventStream, HttpClient};
use mcp_runtime::testing::RedisServer;
use mcp_runtime::{CallToolResult, DynamicTool, Notifier, Server, ToolSet, mcp_resource};
use reqwest::StatusCode;
use serde_json::{Value, json};

/// The shared ledger.
#[mcp_resource(uri = "ledger://today", mime_type = "text/plain")]
async fn ledger() -> &'static str {
    "balanced"
}

/// One instance of the fleet.
struct Instance {
    address: SocketAddr,
    notifier: Notifier,
    tools: ToolSet,
    _served: tokio::task::JoinHandle<Result<(), mcp_runtime::Error>>,
}

async fn instance(redis: &RedisServer, prefix: &str) -> Instance {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a loopback port");
    let address = listener.local_addr().expect("an address");
    let server = Server::new("ledger", "1.0.0").allow_no_tools();
    let notifier = server.notifier();
    let tools = server.tool_set();
    let http = server.http().redis(redis.url()).redis_key_prefix(prefix);
    let served = tokio::spawn(http.serve_on(listener));
    wait_until_serving(address).await;
    Instance {
        address,
        notifier,
        tools,
        _served: served,
    }
}

/// `serve_on` joins the fleet (a first heartbeat) before it serves: waits for that.
async fn wait_until_serving(address: SocketAddr) {
    let deadline = Instant::now() + Duration::from_secs(10);
    let client = reqwest::Client::new();
    while client
        .get(format!("http://{address}/mcp"))
        .send()
        .await
        .is_err()
    {
        assert!(Instant::now() < deadline, "the instance does not serve");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

impl Instance {
    fn client(&self, revision: &str) -> HttpClient {
        HttpClient::new(format!("http://{}/mcp", self.address), revision)
    }
}

fn echo_tool(name: &str) -> DynamicTool {
    let schema = json!({ "type": "object", "properties": {}, "additionalProperties": false });
    DynamicTool::new(name, schema, |_arguments, _ctx| async move {
        CallToolResult::structured(json!({ "echoed": true }))
    })
}

/// Makes a change on one instance, again every 200 ms (the other instance's subscription to
/// the fleet's messages may still be starting), until `stream` carries a message with
/// `method`; returns it.
async fn change_until_heard(
    stream: &mut EventStream,
    method: &str,
    mut change: impl FnMut(),
) -> Value {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        change();
        while let Ok(Ok(Some(message))) =
            tokio::time::timeout(Duration::from_millis(200), stream.try_next()).await
        {
            if message["method"] == method {
                return message;
            }
        }
        assert!(
            Instant::now() < deadline,
            "{method} never reached the other instance"
        );
    }
}

/// Adds a tool to `tools` until `stream` carries the tool list change.
async fn add_tools_until_heard(stream: &mut EventStream, tools: &ToolSet) {
    let mut added = 0;
    change_until_heard(stream, "notifications/tools/list_changed", || {
        added += 1;
        tools
            .add(echo_tool(&format!("echo_{added}")))
            .expect("a new tool");
    })
    .await;
}

/// Two instances sharing `redis` under `prefix`.
async fn pair(redis: &RedisServer, prefix: &str) -> (Instance, Instance) {
    (instance(redis, prefix).await, instance(redis, prefix).await)
}

#[tokio::test]
async fn a_change_on_one_instance_reaches_a_session_stream_held_by_another() {
    let redis = RedisServer::start();
    let (a, b) = pair(&redis, "changes-1:").await;
    let mut client = a.client("2025-11-25");
    let init = client.initialize(json!({})).await;
    assert_eq!(init.status, StatusCode::OK);
    assert_eq!(
        init.response()["result"]["capabilities"]["tools"]["listChanged"],
        true
    );
    let subscribed = client
        .request("resources/subscribe", json!({ "uri": "ledger://today" }))
        .await;
    assert_eq!(subscribed.response()["result"], json!({}));

    // The session's GET stream, held by the other instance.
    let mut on_b = b.client("2025-11-25");
    on_b.session = client.session.clone();
    let response = on_b.get().await;
    assert_eq!(response.status(), StatusCode::OK);
    let mut stream = EventStream::new(response, "2025-11-25");

    let updated = change_until_heard(&mut stream, "notifications/resources/updated", || {
        a.notifier.resource_updated("ledger://today");
    })
    .await;
    assert_eq!(updated["params"]["uri"], "ledger://today");
    change_until_heard(&mut stream, "notifications/resources/list_changed", || {
        a.notifier.resource_list_changed();
    })
    .await;
    add_tools_until_heard(&mut stream, &a.tools).await;

    // Unsubscribed through the other instance: updates stop.
    let unsubscribed = on_b
        .request("resources/unsubscribe", json!({ "uri": "ledger://today" }))
        .await;
    assert_eq!(unsubscribed.response()["result"], json!({}));
    tokio::time::sleep(Duration::from_millis(500)).await;
    a.notifier.resource_updated("ledger://today");
    b.notifier.resource_updated("ledger://today");
    let quiet = tokio::time::timeout(Duration::from_millis(800), stream.try_next()).await;
    match quiet {
        Err(_) => {}
        Ok(message) => panic!("an update after unsubscribing: {message:?}"),
    }
    assert_eq!(on_b.delete().await, StatusCode::OK);
}

#[tokio::test]
async fn a_change_on_one_instance_reaches_a_listen_stream_held_by_another() {
    let redis = RedisServer::start();
    let (a, b) = pair(&redis, "changes-2:").await;
    let mut client = b.client("2026-07-28");
    let mut stream = client
        .request_stream(
            "subscriptions/listen",
            json!({ "notifications": {
                "resourceSubscriptions": ["ledger://today"],
                "toolsListChanged": true,
            } }),
        )
        .await;
    let acknowledged = stream.next().await.expect("the acknowledgement");
    assert_eq!(
        acknowledged["method"],
        "notifications/subscriptions/acknowledged"
    );
    let updated = change_until_heard(&mut stream, "notifications/resources/updated", || {
        a.notifier.resource_updated("ledger://today");
    })
    .await;
    assert_eq!(updated["params"]["uri"], "ledger://today");
    add_tools_until_heard(&mut stream, &a.tools).await;
}
