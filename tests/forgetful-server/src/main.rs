//! A server with a tool of its own that depends on a crate of tools but never names it, as
//! a user forgets `use my_tools as _;`: it warns at start, naming the crate and the fix.

use mcp_runtime::{Server, mcp_tool};

/// Answers.
#[mcp_tool]
fn ping() -> &'static str {
    "pong"
}

#[tokio::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    Server::new("forgetful", "1.0.0").serve_stdio().await
}
