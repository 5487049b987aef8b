/// Contradictory hints.
#[mcp_runtime::mcp_tool(read_only, destructive)]
async fn wipe() {}

fn main() {}
