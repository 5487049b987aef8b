//! `layer = <expression>` must make a `mcp_runtime::middleware::Layer`: the error points
//! at the expression.

use mcp_runtime::mcp_tool;

/// A number is not a layer.
#[mcp_tool(layer = 42)]
async fn numbered() {}

fn main() {}
