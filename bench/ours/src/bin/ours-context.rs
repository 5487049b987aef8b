//! The echo server with a tool that takes a `Context`, exactly as a user would write it.
//!
//! A binary of its own, so `ours` keeps listing `echo` alone like the other servers.

use mcp_runtime::{Context, Server, mcp_tool};

/// Echo the text back, as a tool that takes the request's context.
#[mcp_tool(read_only, idempotent)]
async fn echo_with_context(
    /// The text to echo.
    text: String,
    // Taken and not used, so the call measures what handing a tool its `Context` costs.
    _ctx: Context,
) -> String {
    text
}

#[tokio::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    Server::new("echo", "1.0.0").serve_stdio().await
}
