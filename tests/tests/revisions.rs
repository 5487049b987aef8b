//! Every message the server sends, checked against the official schema of each revision,
//! and shaped for that revision: nothing newer than it is sent.

use mcp_tests::{HANDSHAKE_REVISIONS, SpecSchema, StdioClient, first_text, stateless_meta};
use serde_json::{Value, json};

fn fixture() -> StdioClient {
    StdioClient::spawn(env!("CARGO_BIN_EXE_fixture"), &[])
}

fn tool<'a>(tools: &'a Value, name: &str) -> &'a Value {
    tools["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|tool| tool["name"] == name)
        .unwrap_or_else(|| panic!("no tool {name} in {tools}"))
}

/// Calls every fixture tool with good and bad arguments under `call`.
fn exercise_calls(
    client: &mut StdioClient,
    call: &mut dyn FnMut(&mut StdioClient, &str, Value) -> Value,
) {
    let echoed = call(client, "echo", json!({"text": "hi"}));
    assert_eq!(
        echoed["result"]["content"],
        json!([{"type": "text", "text": "hi"}])
    );
    assert!(echoed["result"].get("isError").is_none());

    let failed = call(client, "fails", json!({"message": "it broke"}));
    assert_eq!(failed["result"]["isError"], true);
    assert_eq!(first_text(&failed["result"]), "it broke");

    let invalid = call(client, "echo", json!({"text": 5}));
    assert_eq!(invalid["result"]["isError"], true, "{invalid}");
    assert!(
        first_text(&invalid["result"]).contains("`text`"),
        "{invalid}"
    );

    for name in [
        "every_content",
        "rich_ok",
        "list_output",
        "custom_result",
        "unit",
        "no_arguments",
        "panics",
    ] {
        let arguments = match name {
            "rich_ok" => {
                json!({"small": 1, "colour": "red", "points": [{"x": 1.0, "y": 2.0}], "counts": {"a": 1}})
            }
            "list_output" => json!({"n": 3}),
            _ => json!({}),
        };
        let name = if name == "rich_ok" { "rich" } else { name };
        let response = call(client, name, arguments);
        assert!(response.get("result").is_some(), "{name}: {response}");
    }

    let unknown = call(client, "no_such_tool", json!({}));
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
    assert!(
        unknown["error"]["message"]
            .as_str()
            .unwrap()
            .contains("no_such_tool")
    );
}

#[test]
fn handshake_revisions_conform_to_their_schemas() {
    for revision in HANDSHAKE_REVISIONS {
        let mut client = fixture();
        let init = client.initialize(revision);
        assert_eq!(init["serverInfo"]["name"], "fixture");
        assert!(init["capabilities"]["tools"].is_object());
        assert_eq!(client.request("ping", Value::Null)["result"], json!({}));

        let listing = client.request("tools/list", json!({}))["result"].clone();
        let echo = tool(&listing, "echo");
        let rich = tool(&listing, "rich");
        let shaped_title = echo.get("title").is_some();
        let shaped_annotations = echo.get("annotations").is_some();
        let shaped_output = tool(&listing, "list_output").get("outputSchema").is_some();
        match revision {
            "2024-11-05" => assert!(
                !shaped_title && !shaped_annotations && !shaped_output,
                "{echo}"
            ),
            "2025-03-26" => {
                assert!(
                    !shaped_title && shaped_annotations && !shaped_output,
                    "{echo}"
                );
                assert_eq!(echo["annotations"]["title"], "Echo");
            }
            _ => assert!(
                shaped_title && shaped_annotations && shaped_output,
                "{echo}"
            ),
        }
        assert_eq!(rich["inputSchema"]["type"], "object");

        exercise_calls(&mut client, &mut |client, name, arguments| {
            client.request("tools/call", json!({"name": name, "arguments": arguments}))
        });

        let content =
            client.request("tools/call", json!({"name": "every_content"}))["result"].clone();
        let types: Vec<&str> = content["content"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["type"].as_str().unwrap())
            .collect();
        let expected: &[&str] = match revision {
            "2024-11-05" => &["text", "image", "text", "text", "resource", "resource"],
            "2025-03-26" => &["text", "image", "audio", "text", "resource", "resource"],
            _ => &[
                "text",
                "image",
                "audio",
                "resource_link",
                "resource",
                "resource",
            ],
        };
        assert_eq!(types, expected, "{revision}: {content}");
        let last_modified = content["content"][4]["annotations"]
            .get("lastModified")
            .is_some();
        assert_eq!(
            last_modified,
            revision >= "2025-06-18",
            "{revision}: {content}"
        );

        let structured = client.request(
            "tools/call",
            json!({"name": "list_output", "arguments": {"n": 2}}),
        )["result"]
            .clone();
        if revision >= "2025-06-18" {
            assert_eq!(structured["structuredContent"], json!({"result": [0, 1]}));
            let schema = tool(&listing, "list_output")["outputSchema"].clone();
            assert!(
                jsonschema::is_valid(&schema, &structured["structuredContent"]),
                "{schema}"
            );
        } else {
            assert!(
                structured.get("structuredContent").is_none(),
                "{structured}"
            );
        }
        assert_eq!(first_text(&structured), "[0,1]");
    }
}

#[test]
fn stateless_revision_conforms_to_its_schema() {
    let mut client = fixture();
    client.check_against("2026-07-28");
    let discovered = client.stateless_request("server/discover", Value::Null)["result"].clone();
    assert_eq!(discovered["resultType"], "complete");
    assert!(
        discovered["supportedVersions"]
            .as_array()
            .unwrap()
            .contains(&json!("2026-07-28"))
    );
    assert!(discovered["capabilities"]["tools"].is_object());
    assert_eq!(
        discovered["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "fixture"
    );

    let listing = client.stateless_request("tools/list", Value::Null)["result"].clone();
    assert_eq!(listing["resultType"], "complete");
    assert!(listing["ttlMs"].as_u64().is_some());
    assert_eq!(listing["cacheScope"], "public");
    assert!(tool(&listing, "echo").get("title").is_some());

    exercise_calls(&mut client, &mut |client, name, arguments| {
        client.stateless_request("tools/call", json!({"name": name, "arguments": arguments}))
    });
    let called = client.stateless_request(
        "tools/call",
        json!({"name": "echo", "arguments": {"text": "x"}}),
    );
    assert_eq!(called["result"]["resultType"], "complete");

    let spec = SpecSchema::of("2026-07-28");
    let unsupported = client.request(
        "tools/list",
        json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2099-01-01", "io.modelcontextprotocol/clientCapabilities": {}}}),
    );
    spec.assert_valid("UnsupportedProtocolVersionError", &unsupported);
    assert_eq!(unsupported["error"]["data"]["requested"], "2099-01-01");
    assert!(
        unsupported["error"]["data"]["supported"]
            .as_array()
            .unwrap()
            .contains(&json!("2026-07-28"))
    );

    let missing_capabilities = client.request(
        "tools/list",
        json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}),
    );
    assert_eq!(
        missing_capabilities["error"]["code"], -32602,
        "{missing_capabilities}"
    );

    for removed in ["ping", "logging/setLevel"] {
        let response = client.request(removed, json!({"_meta": stateless_meta()}));
        assert_eq!(response["error"]["code"], -32601, "{removed}: {response}");
    }
}

#[test]
fn both_eras_on_one_connection() {
    let mut client = fixture();
    client.initialize("2025-06-18");
    let stateless = client.stateless_request("tools/list", Value::Null);
    assert_eq!(stateless["result"]["resultType"], "complete");
    let legacy = client.request("tools/list", json!({}));
    assert!(legacy["result"].get("resultType").is_none(), "{legacy}");
}
