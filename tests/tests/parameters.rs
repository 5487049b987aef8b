//! Parameters end to end: defaults (published in `inputSchema`, applied when an argument is
//! absent or `null`), descriptions from a `# Arguments` list, and the schemas and decoding of
//! dates, times and UUIDs (schemars' `chrono04` and `uuid1` features); the ranges of integer
//! parameters and the values of documented enums, as every revision lists them.

use mcp_tests::{StdioClient, first_text};
use serde_json::{Value, json};

fn fixture() -> StdioClient {
    let mut client = StdioClient::spawn(env!("CARGO_BIN_EXE_fixture"), &[]);
    client.initialize("2025-11-25");
    client
}

fn listed(client: &mut StdioClient, name: &str) -> Value {
    let tools = client.request("tools/list", json!({}))["result"]["tools"].clone();
    tools
        .as_array()
        .unwrap()
        .iter()
        .find(|tool| tool["name"] == name)
        .unwrap_or_else(|| panic!("no tool {name} in {tools}"))
        .clone()
}

/// The tool's result; its structured output (a `serde_json::Value`, so not known to be an
/// object) is wrapped as `{"result": ...}`.
fn call(client: &mut StdioClient, name: &str, arguments: Value) -> Value {
    client.request("tools/call", json!({"name": name, "arguments": arguments}))["result"].clone()
}

#[test]
fn defaults_are_published_and_applied() {
    let mut client = fixture();
    let search = listed(&mut client, "search");
    let schema = &search["inputSchema"];
    assert_eq!(schema["required"], json!(["query"]), "{schema}");
    let properties = &schema["properties"];
    assert_eq!(properties["limit"]["default"], 10, "{schema}");
    assert_eq!(properties["order"]["default"], "relevance", "{schema}");
    assert_eq!(
        properties["stop_words"]["default"],
        json!(["the"]),
        "{schema}"
    );
    assert!(properties["query"].get("default").is_none(), "{schema}");

    let defaulted = call(&mut client, "search", json!({"query": "q"}));
    assert_eq!(
        defaulted["structuredContent"]["result"],
        json!({"query": "q", "limit": 10, "order": "relevance", "stop_words": ["the"]})
    );
    let nulls = call(
        &mut client,
        "search",
        json!({"query": "q", "limit": null, "order": null, "stop_words": null}),
    );
    assert_eq!(
        nulls["structuredContent"]["result"],
        defaulted["structuredContent"]["result"]
    );
    let given = call(
        &mut client,
        "search",
        json!({"query": "q", "limit": 3, "order": "newest", "stop_words": []}),
    );
    assert_eq!(
        given["structuredContent"]["result"],
        json!({"query": "q", "limit": 3, "order": "newest", "stop_words": []})
    );
    let wrong = call(&mut client, "search", json!({"query": "q", "limit": "ten"}));
    assert_eq!(wrong["isError"], true, "{wrong}");
    assert!(first_text(&wrong).contains("`limit`"), "{wrong}");
}

#[test]
fn an_arguments_list_describes_the_parameters_and_leaves_the_description() {
    let mut client = fixture();
    let search = listed(&mut client, "search");
    assert_eq!(
        search["description"],
        "Search, with defaults for everything but the query."
    );
    let properties = &search["inputSchema"]["properties"];
    assert_eq!(properties["query"]["description"], "What to look for.");
    assert_eq!(
        properties["limit"]["description"],
        "How many results at most."
    );
    assert_eq!(properties["order"]["description"], "How to order them.");
    // Its own `///` comment, not the list.
    assert_eq!(
        properties["stop_words"]["description"],
        "Words to leave out."
    );
}

#[test]
fn dates_times_and_uuids_have_formats_and_are_checked() {
    let mut client = fixture();
    let schedule = listed(&mut client, "schedule");
    let properties = &schedule["inputSchema"]["properties"];
    assert_eq!(
        (&properties["at"]["type"], &properties["at"]["format"]),
        (&json!("string"), &json!("date-time")),
        "{properties}"
    );
    assert_eq!(properties["day"]["format"], "date", "{properties}");
    assert_eq!(
        (&properties["id"]["type"], &properties["id"]["format"]),
        (&json!("string"), &json!("uuid")),
        "{properties}"
    );

    let ok = call(
        &mut client,
        "schedule",
        json!({
            "at": "2025-06-18T12:00:00Z",
            "day": "2025-06-18",
            "id": "67e55044-10b1-426f-9247-bb680e5fe0c8",
        }),
    );
    assert!(ok.get("isError").is_none(), "{ok}");
    assert_eq!(
        ok["structuredContent"]["result"],
        json!({"at": 1_750_248_000, "day": "2025-06-18", "id": "67e55044-10b1-426f-9247-bb680e5fe0c8"})
    );

    for (field, arguments) in [
        (
            "at",
            json!({"at": "yesterday", "day": "2025-06-18", "id": "67e55044-10b1-426f-9247-bb680e5fe0c8"}),
        ),
        (
            "day",
            json!({"at": "2025-06-18T12:00:00Z", "day": "2025-02-30", "id": "67e55044-10b1-426f-9247-bb680e5fe0c8"}),
        ),
        (
            "id",
            json!({"at": "2025-06-18T12:00:00Z", "day": "2025-06-18", "id": "not-a-uuid"}),
        ),
    ] {
        let refused = call(&mut client, "schedule", arguments);
        assert_eq!(refused["isError"], true, "{field}: {refused}");
        let text = first_text(&refused);
        assert!(
            text.starts_with(&format!(
                "Invalid arguments for tool `schedule`: `{field}`:"
            )),
            "{field}: {text}"
        );
    }
}

#[test]
fn integers_publish_their_range_and_documented_enums_their_values_in_every_revision() {
    for revision in mcp_tests::REVISIONS {
        let mut client = StdioClient::spawn(env!("CARGO_BIN_EXE_fixture"), &[]);
        let params = if revision == mcp_tests::STATELESS_REVISION {
            client.check_against(revision);
            json!({"_meta": mcp_tests::stateless_meta()})
        } else {
            client.initialize(revision);
            json!({})
        };
        // Checked against the revision's schema.json by the client.
        let tools = client.request("tools/list", params)["result"]["tools"].clone();
        let widths = tools
            .as_array()
            .unwrap()
            .iter()
            .find(|tool| tool["name"] == "widths")
            .unwrap_or_else(|| panic!("{revision}: no `widths` in {tools}"));
        let properties = &widths["inputSchema"]["properties"];
        let range = |name: &str| {
            let property = &properties[name];
            (property["minimum"].clone(), property["maximum"].clone())
        };
        assert_eq!(
            range("int"),
            (json!(i32::MIN), json!(i32::MAX)),
            "{revision}"
        );
        assert_eq!(range("short"), (json!(0), json!(u16::MAX)), "{revision}");
        assert_eq!(range("wide"), (json!(0), json!(u32::MAX)), "{revision}");
        // Wider than 53 bits: bounded by what a JavaScript client holds, 2^53 − 1.
        assert_eq!(
            range("long"),
            (json!(0), json!(9007199254740991_u64)),
            "{revision}"
        );
        // Published as schemars writes it, each value with its description.
        assert_eq!(
            properties["status"]["oneOf"],
            json!([
                {"type": "string", "const": "open", "description": "Still to do."},
                {"type": "string", "const": "done", "description": "Finished."},
            ]),
            "{revision}"
        );
    }
}
