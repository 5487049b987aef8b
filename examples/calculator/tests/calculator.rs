//! The calculator example over stdio, under every protocol revision, every message checked
//! against that revision's official schema.

use mcp_tests::{HANDSHAKE_REVISIONS, StdioClient, first_text};
use serde_json::{Value, json};

fn calculator() -> StdioClient {
    StdioClient::spawn(env!("CARGO_BIN_EXE_calculator"), &[])
}

/// Calls `tool` under the revision the client negotiated (or statelessly).
fn call(client: &mut StdioClient, stateless: bool, tool: &str, arguments: Value) -> Value {
    let params = json!({"name": tool, "arguments": arguments});
    let response = if stateless {
        client.stateless_request("tools/call", params)
    } else {
        client.request("tools/call", params)
    };
    response
        .get("result")
        .cloned()
        .unwrap_or_else(|| panic!("{tool}: {response}"))
}

fn check_every_tool(client: &mut StdioClient, revision: &str) {
    let stateless = revision == "2026-07-28";
    let structured = revision >= "2025-06-18";

    assert_eq!(
        first_text(&call(client, stateless, "add", json!({"a": 2, "b": 3}))),
        "5"
    );
    // `i64` arguments are bounded by ±(2^53 − 1), what a JavaScript client holds: beyond,
    // the schema check refuses them before `add` could overflow.
    let too_big = call(client, stateless, "add", json!({"a": i64::MAX, "b": 1}));
    assert_eq!(too_big["isError"], true);
    assert!(
        first_text(&too_big)
            .contains("`a`: 9223372036854775807 is greater than the maximum of 9007199254740991")
    );
    assert_eq!(
        first_text(&call(
            client,
            stateless,
            "subtract",
            json!({"minuend": 2, "subtrahend": 5})
        )),
        "-3"
    );
    assert_eq!(
        first_text(&call(
            client,
            stateless,
            "multiply",
            json!({"a": 1.5, "b": 4})
        )),
        "6"
    );
    assert_eq!(
        first_text(&call(
            client,
            stateless,
            "divide",
            json!({"dividend": 7, "divisor": 2})
        )),
        "3.5"
    );

    let by_zero = call(
        client,
        stateless,
        "divide",
        json!({"dividend": 1, "divisor": 0}),
    );
    assert_eq!(by_zero["isError"], true);
    assert_eq!(first_text(&by_zero), "cannot divide by zero");

    let statistics = call(
        client,
        stateless,
        "statistics",
        json!({"values": [1, 2, 3, 6]}),
    );
    let expected = json!({"count": 4, "sum": 12.0, "mean": 3.0, "min": 1.0, "max": 6.0});
    assert_eq!(
        serde_json::from_str::<Value>(first_text(&statistics)).unwrap(),
        expected
    );
    if structured {
        assert_eq!(statistics["structuredContent"], expected);
    } else {
        assert!(statistics.get("structuredContent").is_none());
    }
    let empty = call(client, stateless, "statistics", json!({"values": []}));
    assert_eq!(empty["isError"], true);

    assert_eq!(
        first_text(&call(client, stateless, "is_prime", json!({"n": 7919}))),
        "true"
    );
    assert_eq!(
        first_text(&call(client, stateless, "is_prime", json!({"n": 7917}))),
        "false"
    );
    let factors = call(client, stateless, "factorize", json!({"n": 360}));
    assert_eq!(first_text(&factors), "[2,2,2,3,3,5]");
    if structured {
        assert_eq!(
            factors["structuredContent"],
            json!({"result": [2, 2, 2, 3, 3, 5]})
        );
    }

    for (tool, arguments, names) in [
        ("add", json!({"a": "two", "b": 3}), "`a`"),
        ("add", json!({"a": 1}), "b"),
        ("add", json!({"a": 1, "b": 2, "c": 3}), "c"),
        ("add", json!({"a": 1.5, "b": 2}), "`a`"),
        ("is_prime", json!({"n": -1}), "`n`"),
        ("statistics", json!({"values": [1, "x"]}), "`values.1`"),
    ] {
        let result = call(client, stateless, tool, arguments.clone());
        assert_eq!(result["isError"], true, "{tool} {arguments}: {result}");
        assert!(
            first_text(&result).contains(names),
            "{tool} {arguments}: {result}"
        );
    }
}

#[test]
fn every_tool_under_every_handshake_revision() {
    for revision in HANDSHAKE_REVISIONS {
        let mut client = calculator();
        let init = client.initialize(revision);
        assert_eq!(init["serverInfo"]["name"], "calculator");
        let tools = client.request("tools/list", json!({}))["result"]["tools"].clone();
        let names: Vec<&str> = tools
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap())
            .collect();
        assert_eq!(
            names,
            [
                "add",
                "divide",
                "factorize",
                "is_prime",
                "multiply",
                "statistics",
                "subtract"
            ]
        );
        check_every_tool(&mut client, revision);
    }
}

#[test]
fn every_tool_statelessly() {
    let mut client = calculator();
    client.check_against("2026-07-28");
    check_every_tool(&mut client, "2026-07-28");
}

#[test]
fn listing_carries_docs_hints_and_schemas() {
    let mut client = calculator();
    client.initialize("2025-11-25");
    let tools = client.request("tools/list", json!({}))["result"]["tools"].clone();
    let add = tools
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "add")
        .unwrap();
    assert_eq!(add["title"], "Adder");
    assert_eq!(
        add["description"],
        "Add two integers.\n\nOverflow is reported as an error rather than wrapping around."
    );
    assert_eq!(
        add["annotations"],
        json!({"readOnlyHint": true, "idempotentHint": true})
    );
    assert_eq!(
        add["inputSchema"]["properties"]["a"]["description"],
        "The first addend."
    );
    assert_eq!(add["inputSchema"]["required"], json!(["a", "b"]));
    assert!(add.get("outputSchema").is_none());
    let statistics = tools
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "statistics")
        .unwrap();
    assert_eq!(statistics["outputSchema"]["type"], "object");
    assert_eq!(
        statistics["outputSchema"]["properties"]["mean"]["description"],
        "Their arithmetic mean."
    );
}
