//! A server of tools with one parameter shape each, for `tests/tests/typed_arguments.rs`:
//! the same calls sent to it as it is (the tools whose parameter types allow it decode
//! their arguments straight into their parameters) and with `--general-arguments` (behind a
//! layer that passes every call on, so every call's arguments are built as a map, checked
//! against the input schema, then extracted) must get the same answers. Each tool answers
//! with its parameters' `Debug`.

// The fixture types' fields are read only through `Debug`, which each tool answers with.
#![allow(dead_code)]

use std::collections::BTreeMap;

use mcp_runtime::{Context, Server, mcp_tool};
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Debug, Deserialize, JsonSchema)]
struct Point {
    x: i64,
    y: i64,
    #[serde(default)]
    label: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Strict {
    name: String,
    #[schemars(range(min = 1, max = 10))]
    level: u8,
}

#[derive(Debug, Deserialize, JsonSchema)]
struct Bounded {
    #[schemars(length(min = 2, max = 5))]
    code: String,
    #[schemars(range(min = -5, max = 5))]
    offset: i32,
    ratio: f64,
    #[schemars(length(max = 2))]
    tags: Vec<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Color {
    Red,
    Green,
    Blue,
}

#[derive(Debug, Deserialize, JsonSchema)]
enum Mode {
    /// Quickly.
    Fast,
    /// Carefully.
    Slow,
}

#[derive(Debug, Deserialize, JsonSchema)]
enum Shape {
    Circle { radius: f64 },
    Square(u32),
    Empty,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
enum NumberOrText {
    Number(i64),
    Text(String),
}

#[derive(Debug, Deserialize, JsonSchema)]
struct Tree {
    value: i64,
    #[serde(default)]
    children: Vec<Tree>,
}

/// Integers of every width.
#[mcp_tool]
async fn integers(a: i64, b: u8, c: i32, d: u64) -> String {
    format!("{:?}", (a, b, c, d))
}

/// Floats.
#[mcp_tool]
async fn floats(x: f64, y: f32) -> String {
    format!("{:?}", (x, y))
}

/// Text.
#[mcp_tool]
async fn texts(s: String, c: char) -> String {
    format!("{:?}", (s, c))
}

/// A flag.
#[mcp_tool]
async fn flags(on: bool) -> String {
    format!("{on:?}")
}

/// Optional parameters beside an extractor.
#[mcp_tool]
async fn optionals(n: Option<u32>, context: Context, s: Option<String>) -> String {
    format!("{:?}", (n, s, context.tool_name()))
}

/// Parameters with defaults.
#[mcp_tool]
async fn defaults(
    #[mcp(default = 5)] n: u32,
    #[mcp(default = "x".to_owned())] s: String,
    #[mcp(default = vec![2])] o: Vec<i64>,
) -> String {
    format!("{:?}", (n, s, o))
}

/// Lists.
#[mcp_tool]
async fn lists(words: Vec<String>, bytes: Vec<u8>) -> String {
    format!("{:?}", (words, bytes))
}

/// Structs, alone and in a list.
#[mcp_tool]
async fn nested(point: Point, points: Option<Vec<Point>>) -> String {
    format!("{:?}", (point, points))
}

/// A struct that refuses unknown fields, with a range.
#[mcp_tool]
async fn strict(s: Strict) -> String {
    format!("{s:?}")
}

/// Lengths and ranges.
#[mcp_tool]
async fn bounded(b: Bounded) -> String {
    format!("{b:?}")
}

/// Enums of names, with and without documented variants.
#[mcp_tool]
async fn choices(color: Color, mode: Mode) -> String {
    format!("{:?}", (color, mode))
}

/// An externally tagged enum with data.
#[mcp_tool]
async fn shapes(shape: Shape) -> String {
    format!("{shape:?}")
}

/// An untagged enum.
#[mcp_tool]
async fn untagged(v: NumberOrText) -> String {
    format!("{v:?}")
}

/// A map.
#[mcp_tool]
async fn maps(m: BTreeMap<String, i64>) -> String {
    format!("{m:?}")
}

/// Any JSON.
#[mcp_tool]
async fn anything(v: serde_json::Value, w: Option<serde_json::Value>) -> String {
    format!("{:?}", (v, w))
}

/// A recursive type.
#[mcp_tool]
async fn tree(t: Tree) -> String {
    format!("{t:?}")
}

/// A tuple.
#[mcp_tool]
async fn tuple(pair: (i64, String)) -> String {
    format!("{pair:?}")
}

/// Dates and UUIDs (formats the compiled check leaves to `jsonschema`).
#[mcp_tool]
async fn formats(day: chrono::NaiveDate, id: Option<uuid::Uuid>) -> String {
    format!("{:?}", (day, id))
}

/// No parameters.
#[mcp_tool]
async fn nothing() -> String {
    "nothing".to_owned()
}

/// Every other typed width, lists of floats, and an optional list.
#[mcp_tool]
async fn widths(a: i8, b: i16, c: usize, d: isize, e: Vec<f64>, f: Option<Vec<String>>) -> String {
    format!("{:?}", (a, b, c, d, e, f))
}

/// Options with defaults, and an argument after a supplied value.
#[mcp_tool]
async fn optional_defaults(
    #[mcp(default = 3)] n: u16,
    context: Context,
    #[mcp(default = true)] on: bool,
    f: Option<f32>,
) -> String {
    format!("{:?}", (n, on, f, context.tool_name()))
}

/// Tools whose `&self` the server lends.
struct Counter;

#[mcp_runtime::mcp_tools]
impl Counter {
    /// A method with typed arguments.
    #[mcp_tool]
    async fn scaled(&self, by: u32, text: Option<String>) -> String {
        format!("{:?}", (by, text))
    }
}

/// A plain `fn`, run on a thread of its own.
#[mcp_tool]
fn blocking(a: i64, words: Vec<String>) -> String {
    format!("{:?}", (a, words))
}

#[tokio::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    let mut server = Server::new("argument-shapes", "1.0.0");
    if std::env::args().any(|arg| arg == "--general-arguments") {
        server = mcp_tests::general_path::general_path(server);
    }
    server = server.state(Counter);
    server.serve_stdio().await
}
