//! The example through `mcp_runtime::testing::TestClient`, in-process: each tool's view and
//! visibility as a host reads them, and the view read by the tool's name.

#[allow(dead_code)]
#[path = "../src/main.rs"]
mod apps;

use mcp_runtime::Server;
use mcp_runtime::testing::TestClient;

#[tokio::test]
async fn a_host_finds_each_tools_view_and_visibility() {
    let client = TestClient::connect(Server::new("apps", "test"))
        .await
        .unwrap();
    let tools = client.list_tools().await.unwrap();
    let tool = |name: &str| tools.iter().find(|tool| tool.name == name).unwrap();
    assert_eq!(tool("forecast").view_uri(), Some("ui://forecast/view"));
    assert_eq!(tool("forecast").visibility(), ["model", "app"]);
    assert_eq!(tool("refresh_forecast").visibility(), ["app"]);

    let view = client.read_view("forecast").await.unwrap().expect("a view");
    let contents = &view.contents[0];
    assert_eq!(
        contents.mime_type.as_deref(),
        Some("text/html;profile=mcp-app")
    );
    assert_eq!(contents.raw["_meta"]["ui"]["prefersBorder"], true);
    assert!(view.text().contains("<table>"));
    assert!(client.read_view("no_such_tool").await.unwrap().is_none());
}
