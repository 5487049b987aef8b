//! A tool's own limits: a timeout, a concurrency cap and a rate limit.

use mcp_runtime::mcp_tool;

/// Search the catalog.
#[mcp_tool(read_only, timeout = "30s", max_concurrency = 4, rate = "10/s")]
async fn search(
    /// What to look for.
    query: String,
) -> Vec<String> {
    vec![query]
}

/// Send a message (expensive: a few an hour).
#[mcp_tool(rate = "5/h")]
fn send(
    /// The message.
    text: String,
) -> String {
    text
}

fn main() {}
