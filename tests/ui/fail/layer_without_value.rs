//! `layer` names an expression that makes a layer; on its own it is an error.

use mcp_runtime::mcp_tool;

/// No layer given.
#[mcp_tool(layer)]
async fn no_layer() {}

fn main() {}
