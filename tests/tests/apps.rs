//! MCP Apps (the `io.modelcontextprotocol/ui` extension) over stdio, in every revision: the
//! extension declared with its MIME type only by a server whose tools name views, each
//! tool's `_meta.ui` (nested, the default visibility left out), the view listed and read as
//! `text/html;profile=mcp-app` with its `_meta.ui`, app-only tools listed for the host to
//! filter and callable, and a tool naming a missing view refused at start-up. Every message
//! is checked against the revision's official schema. Then the same for a tool and a view
//! defined at run time (`DynamicTool::view`, a `ui://` `DynamicResource`), in process.

use mcp_runtime::apps::{View, Visibility};
use mcp_runtime::testing::TestClient;
use mcp_runtime::{DynamicResource, DynamicTool, Server};
use mcp_tests::{HANDSHAKE_REVISIONS, REVISIONS, STATELESS_REVISION, StdioClient, check_result};
use serde_json::{Value, json};

const EXTENSION: &str = "io.modelcontextprotocol/ui";
const MIME: &str = "text/html;profile=mcp-app";

/// A client of `program` in `revision`, past the handshake (if the revision has one).
fn client(program: &str, revision: &str) -> StdioClient {
    let mut client = StdioClient::spawn(program, &[]);
    if revision == STATELESS_REVISION {
        client.check_against(revision);
    } else {
        let result = client.initialize_with(
            revision,
            // What an MCP Apps host declares, in every revision (the spec's own example
            // initializes at 2024-11-05).
            json!({ "extensions": { EXTENSION: { "mimeTypes": [MIME] } } }),
        );
        check_result(revision, "initialize", &result);
    }
    client
}

/// `method`'s result in `revision`, checked against its schema.
fn result(client: &mut StdioClient, revision: &str, method: &str, params: Value) -> Value {
    let response = if revision == STATELESS_REVISION {
        client.stateless_request(method, params)
    } else {
        client.request(method, params)
    };
    let result = response["result"].clone();
    assert!(result.is_object(), "{method} in {revision}: {response}");
    check_result(revision, method, &result);
    result
}

/// The capabilities the server declares in `revision`.
fn capabilities(program: &str, revision: &str) -> Value {
    if revision == STATELESS_REVISION {
        let mut client = client(program, revision);
        result(&mut client, revision, "server/discover", json!({}))["capabilities"].clone()
    } else {
        let mut client = StdioClient::spawn(program, &[]);
        client.initialize(revision)["capabilities"].clone()
    }
}

fn tool<'a>(tools: &'a Value, name: &str) -> &'a Value {
    tools["tools"]
        .as_array()
        .and_then(|tools| tools.iter().find(|tool| tool["name"] == name))
        .unwrap_or_else(|| panic!("no tool `{name}` in {tools}"))
}

#[test]
fn the_extension_is_declared_with_its_mime_type_in_every_revision() {
    for revision in REVISIONS {
        let capabilities = capabilities(env!("CARGO_BIN_EXE_app_views"), revision);
        assert_eq!(
            capabilities["extensions"][EXTENSION],
            json!({ "mimeTypes": [MIME] }),
            "{revision}: {capabilities}"
        );
    }
}

#[test]
fn a_server_without_views_declares_no_extension() {
    for revision in REVISIONS {
        let capabilities = capabilities(env!("CARGO_BIN_EXE_primitives"), revision);
        assert!(
            capabilities["extensions"].get(EXTENSION).is_none(),
            "{revision}: {capabilities}"
        );
    }
}

#[test]
fn tools_carry_their_view_and_visibility_in_every_revision() {
    for revision in REVISIONS {
        let mut client = client(env!("CARGO_BIN_EXE_app_views"), revision);
        let tools = result(&mut client, revision, "tools/list", json!({}));
        // Nested, and flat for older hosts (deprecated), as ext-apps' `registerAppTool` does.
        assert_eq!(
            tool(&tools, "board")["_meta"],
            json!({ "ui": { "resourceUri": "ui://board/view" }, "ui/resourceUri": "ui://board/view" }),
            "{revision}"
        );
        // Listed, for the host to keep out of the model's list: the spec puts that on the
        // host, which must also see the tool to let the view call it.
        assert_eq!(
            tool(&tools, "bump")["_meta"],
            json!({
                "ui": { "resourceUri": "ui://board/view", "visibility": ["app"] },
                "ui/resourceUri": "ui://board/view",
            }),
            "{revision}"
        );
        assert_eq!(
            tool(&tools, "describe")["_meta"],
            json!({ "ui": { "visibility": ["model"] } }),
            "{revision}"
        );
        assert_eq!(tools["tools"].as_array().map(Vec::len), Some(3), "{tools}");
    }
}

#[test]
fn the_view_is_listed_and_read_as_an_mcp_app_in_every_revision() {
    for revision in REVISIONS {
        let mut client = client(env!("CARGO_BIN_EXE_app_views"), revision);
        let listed = result(&mut client, revision, "resources/list", json!({}));
        assert_eq!(
            listed["resources"][0]["uri"], "ui://board/view",
            "{revision}: {listed}"
        );
        assert_eq!(listed["resources"][0]["mimeType"], MIME, "{revision}");
        let read = result(
            &mut client,
            revision,
            "resources/read",
            json!({ "uri": "ui://board/view" }),
        );
        let contents = &read["contents"];
        assert_eq!(contents.as_array().map(Vec::len), Some(1), "{read}");
        assert_eq!(contents[0]["uri"], "ui://board/view");
        assert_eq!(contents[0]["mimeType"], MIME);
        assert!(
            contents[0]["text"]
                .as_str()
                .is_some_and(|html| html.starts_with("<!doctype html>")),
            "{read}"
        );
        assert_eq!(
            contents[0]["_meta"],
            json!({ "ui": {
                "csp": {
                    "connectDomains": ["https://api.example.com"],
                    "resourceDomains": ["https://cdn.example.com"],
                    "frameDomains": ["https://www.youtube.com"],
                    "baseUriDomains": ["https://cdn.example.com"],
                },
                "permissions": { "clipboardWrite": {} },
                "domain": "board.example.com",
                "prefersBorder": true,
            }}),
            "{revision}"
        );
    }
}

#[test]
fn an_app_only_tool_is_callable_as_the_host_calls_it_for_its_view() {
    for revision in REVISIONS {
        let mut client = client(env!("CARGO_BIN_EXE_app_views"), revision);
        let called = result(
            &mut client,
            revision,
            "tools/call",
            json!({ "name": "bump", "arguments": { "count": 41 } }),
        );
        assert_ne!(called["isError"], true, "{revision}: {called}");
        if revision != "2024-11-05" && revision != "2025-03-26" {
            assert_eq!(
                called["structuredContent"],
                json!({ "count": 42 }),
                "{revision}"
            );
        }
    }
}

#[test]
fn a_client_without_the_extension_sees_the_same_listing() {
    // The spec makes hiding app-only tools the host's duty; a server cannot tell a host's
    // model from its view, so what it lists does not depend on the client.
    for revision in HANDSHAKE_REVISIONS {
        let mut client = StdioClient::spawn(env!("CARGO_BIN_EXE_app_views"), &[]);
        client.initialize(revision);
        let tools = result(&mut client, revision, "tools/list", json!({}));
        assert_eq!(
            tool(&tools, "bump")["_meta"]["ui"]["visibility"],
            json!(["app"])
        );
    }
}

#[test]
fn a_tool_naming_a_missing_view_refuses_to_start_naming_both() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_missing_view"))
        .stdin(std::process::Stdio::null())
        .output()
        .expect("runs");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("tool `weather`"), "{stderr}");
    assert!(stderr.contains("missing_view.rs"), "{stderr}");
    assert!(stderr.contains("`ui://weather/view`"), "{stderr}");
    assert!(
        stderr.contains("#[mcp_resource(uri = \"ui://weather/view\")]"),
        "{stderr}"
    );
}

/// A server whose tools and view are defined at run time (`DynamicTool::view`,
/// `DynamicResource` of a `ui://` URI), as a plugin host would build them.
fn dynamic_views_server(view: &str) -> Server {
    let server = Server::new("dynamic-views", "0");
    server
        .resource_set()
        .add(DynamicResource::new(view, "chart_view", |_, _| async {
            View::html("<!doctype html><p>chart</p>").prefers_border(false)
        }))
        .expect("a new URI");
    let tools = server.tool_set();
    let tool =
        |name: &str| DynamicTool::new(name, json!({"type": "object"}), |_, _| async { "drawn" });
    tools.add(tool("chart").view("ui://chart/view")).unwrap();
    tools
        .add(
            tool("redraw")
                .view("ui://chart/view")
                .visibility(Visibility::App),
        )
        .unwrap();
    server
}

#[tokio::test]
async fn a_dynamic_tool_names_its_view_as_an_attribute_does() {
    let client = TestClient::connect(dynamic_views_server("ui://chart/view"))
        .await
        .expect("the server starts");
    let capabilities = &client.initialize_result().unwrap()["capabilities"];
    assert_eq!(
        capabilities["extensions"][EXTENSION],
        json!({"mimeTypes": [MIME]})
    );
    let tools = client.list_tools_json().await.unwrap();
    assert_eq!(
        tool(&tools, "chart")["_meta"],
        json!({"ui": {"resourceUri": "ui://chart/view"}, "ui/resourceUri": "ui://chart/view"})
    );
    assert_eq!(
        tool(&tools, "redraw")["_meta"],
        json!({
            "ui": {"resourceUri": "ui://chart/view", "visibility": ["app"]},
            "ui/resourceUri": "ui://chart/view",
        })
    );
    let listed = client.list_resources().await.unwrap();
    assert_eq!(listed[0].mime_type.as_deref(), Some(MIME));
    let view = client.read_view("redraw").await.unwrap().expect("a view");
    assert_eq!(view.contents.len(), 1);
    assert_eq!(
        view.contents[0].raw,
        json!({
            "uri": "ui://chart/view", "mimeType": MIME, "text": "<!doctype html><p>chart</p>",
            "_meta": {"ui": {"prefersBorder": false}},
        })
    );
}

#[tokio::test]
async fn a_dynamic_tool_naming_a_missing_view_stops_the_start() {
    let refused = TestClient::connect(dynamic_views_server("ui://other/view"))
        .await
        .err()
        .expect("the server refuses to start")
        .to_string();
    assert!(
        refused.contains("chart") && refused.contains("ui://chart/view"),
        "{refused}"
    );
}

#[test]
fn a_dynamic_tool_view_needs_the_ui_scheme() {
    let server = Server::new("bad-view", "0");
    let refused = server
        .tool_set()
        .add(
            DynamicTool::new("chart", json!({"type": "object"}), |_, _| async { "drawn" })
                .view("https://chart/view"),
        )
        .unwrap_err()
        .to_string();
    assert!(
        refused.contains("`ui://`") && refused.contains("https://chart/view"),
        "{refused}"
    );
}
