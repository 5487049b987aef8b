//! Tools whose names or types are those of the generated items or bindings: `invoke`,
//! `Arguments`, `invocation`, and a parameter named like its function.

#![allow(dead_code)]

use mcp_runtime::mcp_tool;

/// The user's own `Arguments` type.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Arguments {
    items: Vec<String>,
}

/// Named `invoke`, taking `Arguments`.
#[mcp_tool]
async fn invoke(arguments: Arguments) -> usize {
    arguments.items.len()
}

/// Named `invocation`.
#[mcp_tool]
fn invocation(invoke: String) -> String {
    invoke
}

/// A parameter with the function's name.
#[mcp_tool]
async fn echo(echo: String, other: Option<String>) -> String {
    other.unwrap_or(echo)
}

fn main() {}
