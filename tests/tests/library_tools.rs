//! Tools defined in a library crate are served by any binary the crate is linked into, with
//! no code naming the tools — and a dependency the binary never names is not linked, which
//! is why the manual tells users to write `use my_tools as _;` for a crate that holds only
//! tools. `mcp-test-tool-library` (tests/tool-library) is a dependency of this package:
//! this test binary names it, the fixture server binary does not.

use mcp_runtime::Server;
use mcp_runtime::testing::TestClient;
use mcp_tests::StdioClient;
use serde_json::json;

// The one line a user writes for a crate that holds only tools.
use mcp_test_tool_library as _;

#[tokio::test]
async fn a_linked_library_crate_serves_its_tools() {
    let client = TestClient::connect(Server::new("library", "1.0.0"))
        .await
        .unwrap();
    let tools = client.list_tools().await.unwrap();
    assert!(tools.iter().any(|tool| tool.name == "shout"));
    let result = client
        .call_tool("shout", json!({ "text": "hello" }))
        .await
        .unwrap();
    assert_eq!(result.text(), "HELLO");
    client.close().await.unwrap();
}

#[test]
fn a_dependency_the_binary_never_names_is_not_linked() {
    let mut fixture = StdioClient::spawn(env!("CARGO_BIN_EXE_fixture"), &[]);
    fixture.initialize("2025-11-25");
    let mut names = Vec::new();
    let mut cursor = None;
    loop {
        let params = cursor.map_or_else(|| json!({}), |cursor| json!({ "cursor": cursor }));
        let page = fixture.request("tools/list", params);
        let result = &page["result"];
        for tool in result["tools"].as_array().unwrap() {
            names.push(tool["name"].as_str().unwrap().to_owned());
        }
        match result.get("nextCursor") {
            Some(next) if !next.is_null() => cursor = Some(next.clone()),
            _ => break,
        }
    }
    assert!(names.iter().any(|name| name == "echo"), "{names:?}");
    assert!(!names.iter().any(|name| name == "shout"), "{names:?}");
}
