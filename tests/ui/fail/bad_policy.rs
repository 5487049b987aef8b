/// A duration without a unit, and a limit of zero.
#[mcp_runtime::mcp_tool(timeout = "30", max_concurrency = 0)]
async fn slow() {}

fn main() {}
