//! The same server naming the crate of tools: it serves the crate's tools, without a warning.

use mcp_runtime::{Server, mcp_tool};
use mcp_test_tool_library as _;

/// Answers.
#[mcp_tool]
fn ping() -> &'static str {
    "pong"
}

#[tokio::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    Server::new("remembers", "1.0.0").serve_stdio().await
}
