//! The echo server on our framework, exactly as a user would write it.

use mcp_runtime::{Server, mcp_tool};

/// Echo the text back.
#[mcp_tool(read_only, idempotent)]
async fn echo(
    /// The text to echo.
    text: String,
) -> String {
    text
}

#[tokio::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    Server::new("echo", "1.0.0").serve_stdio().await
}
