//! MCP Apps over Streamable HTTP, in a session of each handshake revision and statelessly:
//! the extension declared, each tool's `_meta.ui`, the view read as
//! `text/html;profile=mcp-app` with its `_meta.ui`, and an app-only tool called as a host
//! calls it for its view; every message checked against the revision's official schema.

use mcp_http_tests::HttpClient;
use mcp_runtime::apps::View;
use mcp_runtime::{Json, Server, mcp_resource, mcp_tool};
use serde_json::{Value, json};

const EXTENSION: &str = "io.modelcontextprotocol/ui";
const MIME: &str = "text/html;profile=mcp-app";

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Tally {
    votes: u32,
}

/// Shows the poll.
#[mcp_tool(ui = "ui://poll/view", read_only)]
async fn poll() -> Json<Tally> {
    Json(Tally { votes: 0 })
}

/// One more vote; only the poll's view calls it.
#[mcp_tool(ui = "ui://poll/view", visibility = ["app"])]
async fn vote(votes: u32) -> Json<Tally> {
    Json(Tally { votes: votes + 1 })
}

/// The poll's view.
#[mcp_resource(uri = "ui://poll/view")]
async fn view() -> View {
    View::html("<!doctype html><html><body>poll</body></html>")
        .connect_domains(["https://votes.example.com"])
        .prefers_border(false)
}

async fn start() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a loopback port");
    let address = listener.local_addr().expect("an address");
    tokio::spawn(Server::new("poll", "1.0.0").http().serve_on(listener));
    format!("http://{address}/mcp")
}

fn result(reply: &mcp_http_tests::Reply) -> Value {
    let result = reply.response()["result"].clone();
    assert!(result.is_object(), "{:?}", reply.response());
    result
}

/// What every revision must show: the listing, the view, an app-only call.
async fn check_apps(client: &mut HttpClient, revision: &str) {
    let tools = result(&client.request("tools/list", json!({})).await);
    let meta = |name: &str| {
        tools["tools"]
            .as_array()
            .and_then(|tools| tools.iter().find(|tool| tool["name"] == name))
            .map(|tool| tool["_meta"].clone())
            .unwrap_or_else(|| panic!("no tool `{name}` in {tools}"))
    };
    assert_eq!(
        meta("poll"),
        json!({ "ui": { "resourceUri": "ui://poll/view" }, "ui/resourceUri": "ui://poll/view" }),
        "{revision}"
    );
    assert_eq!(
        meta("vote"),
        json!({
            "ui": { "resourceUri": "ui://poll/view", "visibility": ["app"] },
            "ui/resourceUri": "ui://poll/view",
        }),
        "{revision}"
    );

    let read = result(
        &client
            .request("resources/read", json!({ "uri": "ui://poll/view" }))
            .await,
    );
    assert_eq!(read["contents"][0]["mimeType"], MIME, "{revision}");
    assert_eq!(
        read["contents"][0]["_meta"],
        json!({ "ui": {
            "csp": { "connectDomains": ["https://votes.example.com"] },
            "prefersBorder": false,
        }}),
        "{revision}"
    );

    let voted = result(
        &client
            .request(
                "tools/call",
                json!({ "name": "vote", "arguments": { "votes": 2 } }),
            )
            .await,
    );
    assert_ne!(voted["isError"], true, "{revision}: {voted}");
    if revision != "2024-11-05" && revision != "2025-03-26" {
        assert_eq!(
            voted["structuredContent"],
            json!({ "votes": 3 }),
            "{revision}"
        );
    }
}

#[tokio::test]
async fn a_session_of_each_revision_sees_the_view_and_calls_app_only_tools() {
    let url = start().await;
    for revision in ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] {
        let mut client = HttpClient::new(url.clone(), revision);
        let init = client
            .initialize(json!({ "extensions": { EXTENSION: { "mimeTypes": [MIME] } } }))
            .await;
        assert_eq!(
            init.response()["result"]["capabilities"]["extensions"][EXTENSION],
            json!({ "mimeTypes": [MIME] }),
            "{revision}"
        );
        check_apps(&mut client, revision).await;
    }
}

#[tokio::test]
async fn a_stateless_client_discovers_the_extension_and_sees_the_view() {
    let url = start().await;
    let mut client = HttpClient::new(url, "2026-07-28");
    let discover = result(&client.request("server/discover", json!({})).await);
    assert_eq!(
        discover["capabilities"]["extensions"][EXTENSION],
        json!({ "mimeTypes": [MIME] })
    );
    check_apps(&mut client, "2026-07-28").await;
}
