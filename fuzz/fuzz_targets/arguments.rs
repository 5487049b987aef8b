//! Argument decoding: one tool whose parameters cover the shapes serde and schemars give
//! arguments — integers of several widths, floats, chars, strings, options, defaults,
//! sequences, sets, maps, tuples, unit-variant, internally tagged and untagged enums, nested
//! structs with `deny_unknown_fields` and non-zero numbers — called with the input as its
//! `arguments` (the input must be JSON; other inputs are the dispatch target's job).
//!
//! Whatever the arguments, the call must be answered exactly once: with the tool's result,
//! whose structured content decodes back to the same values; or an `isError` result saying
//! which arguments are invalid; or, when `arguments` is not an object, a JSON-RPC error.
//! Never a panic.

#![no_main]

mod harness;

use std::collections::{BTreeMap, BTreeSet};
use std::num::NonZeroU16;

use libfuzzer_sys::fuzz_target;
use mcp_runtime::{Json, mcp_tool};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Mode {
    Fast,
    Careful,
    Off,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Shape {
    Circle { radius: f64 },
    Rect { width: u32, height: u32 },
    Point,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
enum Target {
    Id(u64),
    Name(String),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Window {
    start: Option<i32>,
    #[serde(default)]
    end: i32,
    step: Option<NonZeroU16>,
}

/// Everything the tool received, sent back as structured content.
#[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
struct Received {
    name: String,
    count: u8,
    offset: i64,
    ratio: f64,
    big: u64,
    initial: Option<char>,
    tags: Vec<String>,
    flags: BTreeSet<u8>,
    labels: BTreeMap<String, u32>,
    mode: Mode,
    shape: Shape,
    target: Target,
    window: Option<Window>,
    limit: u32,
    pair: (u16, bool),
    nested: Vec<Option<Vec<i8>>>,
}

/// Takes one argument of every shape and returns them all.
#[mcp_tool]
#[allow(clippy::too_many_arguments)]
async fn rich(
    name: String,
    count: u8,
    offset: i64,
    ratio: f64,
    big: u64,
    initial: Option<char>,
    tags: Vec<String>,
    flags: BTreeSet<u8>,
    labels: BTreeMap<String, u32>,
    mode: Mode,
    shape: Shape,
    target: Target,
    window: Option<Window>,
    #[mcp(default = 10)] limit: u32,
    pair: (u16, bool),
    #[mcp(default)] nested: Vec<Option<Vec<i8>>>,
) -> Json<Received> {
    Json(Received {
        name,
        count,
        offset,
        ratio,
        big,
        initial,
        tags,
        flags,
        labels,
        mode,
        shape,
        target,
        window,
        limit,
        pair,
        nested,
    })
}

fn line(message: &Value) -> String {
    let mut line = serde_json::to_string(message).expect("JSON");
    line.push('\n');
    line
}

fuzz_target!(|input: &[u8]| {
    let Ok(arguments) = serde_json::from_slice::<Value>(input) else {
        return;
    };
    let mut session = line(&json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": { "name": "fuzz", "version": "0" },
        },
    }));
    session += &line(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
    session += &line(&json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "name": "rich", "arguments": arguments },
    }));
    let messages = harness::serve(harness::server(), session.as_bytes());

    let answers: Vec<&Value> = messages
        .iter()
        .filter(|message| message.get("id") == Some(&json!(1)))
        .collect();
    assert_eq!(answers.len(), 1, "{messages:?}");
    let answer = answers[0];
    if !(arguments.is_object() || arguments.is_null()) {
        assert_eq!(answer["error"]["code"], -32602, "{answer}");
        return;
    }
    let result = &answer["result"];
    assert!(
        result.is_object(),
        "a tool result, not a JSON-RPC error: {answer}"
    );
    if result["isError"] == true {
        let text = result["content"][0]["text"].as_str().expect("a text block");
        assert!(
            text.starts_with("Invalid arguments for tool `rich`: ")
                || text.starts_with("Invalid argument `"),
            "{text}"
        );
        return;
    }
    let structured = result["structuredContent"].clone();
    let received: Received = serde_json::from_value(structured.clone())
        .unwrap_or_else(|error| panic!("the tool's output decodes ({error}): {structured}"));
    assert_eq!(
        Some(&received.name),
        arguments["name"].as_str().map(str::to_owned).as_ref()
    );
    assert_eq!(
        serde_json::to_value(&received).expect("JSON"),
        structured,
        "the output round-trips"
    );
});
