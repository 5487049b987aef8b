//! The calculator's tools through `mcp_runtime::testing::TestClient`: in-process, over the
//! same JSON-RPC path as stdio, and its tool contract against the checked-in snapshot.

#[allow(dead_code)]
#[path = "../src/main.rs"]
mod calculator;

use std::path::Path;

use mcp_runtime::testing::TestClient;
use mcp_runtime::{ProtocolVersion, Server};
use serde_json::json;

fn server() -> Server {
    Server::new("calculator", "test")
}

#[tokio::test]
async fn calculator_tools_in_process() {
    let client = TestClient::connect(server()).await.unwrap();
    assert_eq!(
        client
            .call_tool("add", json!({"a": 2, "b": 3}))
            .await
            .unwrap()
            .text(),
        "5"
    );
    // Beyond ±(2^53 − 1), the bound `i64` publishes, the schema check refuses the argument.
    let too_big = client
        .call_tool("add", json!({"a": i64::MAX, "b": 1}))
        .await
        .unwrap();
    assert!(
        too_big.is_error
            && too_big
                .text()
                .contains("greater than the maximum of 9007199254740991")
    );
    let statistics = client
        .call_tool("statistics", json!({"values": [1, 2, 3, 6]}))
        .await
        .unwrap();
    assert_eq!(
        statistics.structured_content,
        Some(json!({"count": 4, "sum": 12.0, "mean": 3.0, "min": 1.0, "max": 6.0}))
    );
    let factors = client
        .call_tool("factorize", json!({"n": 360}))
        .await
        .unwrap();
    assert_eq!(
        factors.structured_content,
        Some(json!({"result": [2, 2, 2, 3, 3, 5]}))
    );
}

#[tokio::test]
async fn stateless_clients_get_the_same_answers() {
    let client = TestClient::builder()
        .revision(ProtocolVersion::V2026_07_28)
        .connect(server())
        .await
        .unwrap();
    assert!(client.initialize_result().is_none());
    let divided = client
        .call_tool("divide", json!({"dividend": 7, "divisor": 2}))
        .await
        .unwrap();
    assert_eq!(divided.text(), "3.5");
    let by_zero = client
        .call_tool("divide", json!({"dividend": 1, "divisor": 0}))
        .await
        .unwrap();
    assert!(by_zero.is_error);
}

#[tokio::test]
async fn calculator_contract() {
    let snapshot =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/calculator.tools.json");
    let client = TestClient::connect(server()).await.unwrap();
    client
        .assert_contract(
            snapshot,
            &[
                ("statistics", json!({"values": [1.5, -2]})),
                ("factorize", json!({"n": 97})),
                ("add", json!({"a": 1, "b": 1})),
            ],
        )
        .await;
}
