//! The tools of a crate that depends on the runtime as `mcp` are served and called.

use mcp::Server;
use mcp::testing::TestClient;
use mcp_test_renamed_dependency::Counter;
use serde_json::json;

#[tokio::test]
async fn tools_of_a_renamed_dependency_are_served_without_the_crate_option() {
    let server = Server::new("renamed", "1.0.0").state(Counter::default());
    let client = TestClient::connect(server).await.unwrap();
    let mut names: Vec<String> = client
        .list_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|tool| tool.name)
        .collect();
    names.sort();
    assert_eq!(names, ["increment", "repeat"]);
    let repeated = client
        .call_tool("repeat", json!({ "text": "ab" }))
        .await
        .unwrap();
    assert_eq!(repeated.text(), "abab");
    client
        .call_tool("increment", json!({ "by": 2 }))
        .await
        .unwrap();
    let counted = client
        .call_tool("increment", json!({ "by": 3 }))
        .await
        .unwrap();
    assert_eq!(counted.text(), "5");
    client.close().await.unwrap();
}
