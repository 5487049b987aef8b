use mcp_runtime::mcp_tool;

/// Values of the wrong type.
#[mcp_tool(name = 5, read_only = "yes", idempotent(true), title)]
async fn wrong() {}

fn main() {}
